/*
 * test_npy.c - .npy and .npz files: round trips of every dtype, files made
 * by hand byte by byte (versions 1.0, 2.0, 3.0), malformed files rejected
 * with clear messages, and .npz archives built by a tiny zip writer here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../ops/op.h"
#include "testutil.h"

/* A .npy file: magic, version, header padded to 64 bytes, data. */
static void
make_npy(IrBuf *out, int major, const char *header, const void *data, size_t len)
{
  size_t pre = major == 1 ? 10 : 12;
  IrBuf h = {0};
  ir_buf_puts(&h, header);
  while ((pre + h.len + 1) % 64)
    ir_buf_puts(&h, " ");
  ir_buf_puts(&h, "\n");
  unsigned char p[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', (unsigned char)major, 0};
  p[8] = (unsigned char)h.len;
  p[9] = (unsigned char)(h.len >> 8);
  ir_buf_put(out, p, pre);
  ir_buf_put(out, h.data, h.len);
  ir_buf_put(out, data, len);
  ir_buf_free(&h);
}

/* Parses bytes expecting an error containing frag. */
static void
expect_bad(const void *data, size_t len, const char *frag)
{
  IrCtx *ctx = ir_ctx_new();
  IrTensorData t;
  bool ok = fe_npy_parse(ctx, "bad.npy", data, len, &t);
  char *text = tu_diag_text(ctx);
  if (ok || !strstr(text, frag))
    printf("want '%s', got: %s\n", frag, text);
  assert_false(ok);
  assert_non_null(strstr(text, "bad.npy: error: "));
  assert_non_null(strstr(text, frag));
  free(text);
  ir_ctx_free(ctx);
}

static void
test_hand_made_files(void **state)
{
  (void)state;
  float f[6] = {1, 2, 3, 4, 5, -6.5f};
  for (int major = 1; major <= 3; major++) {
    IrBuf b = {0};
    make_npy(&b, major, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f, sizeof f);
    IrCtx *ctx = ir_ctx_new();
    IrTensorData t;
    assert_true(fe_npy_parse(ctx, "x.npy", (unsigned char *)b.data, b.len, &t));
    assert_true(ir_dtype_eq(t.dtype, IR_F32));
    assert_int_equal(t.ndim, 2);
    assert_int_equal(t.shape[0], 2);
    assert_int_equal(t.shape[1], 3);
    assert_int_equal(t.nbytes, 24);
    assert_memory_equal(t.data, f, 24);
    ir_ctx_free(ctx);
    ir_buf_free(&b);
  }
  /* a scalar, keys in another order, double quotes */
  IrBuf b = {0};
  int64_t v = -42;
  make_npy(&b, 1, "{\"shape\": (), \"fortran_order\": False, \"descr\": \"<i8\"}", &v, 8);
  IrCtx *ctx = ir_ctx_new();
  IrTensorData t;
  assert_true(fe_npy_parse(ctx, "s.npy", (unsigned char *)b.data, b.len, &t));
  assert_int_equal(t.ndim, 0);
  assert_int_equal(op_get_i(&t, 0), -42);
  ir_ctx_free(ctx);
  ir_buf_free(&b);
}

static void
test_writer_matches_numpy_layout(void **state)
{
  (void)state;
  int64_t shape[] = {5};
  unsigned char data[5] = {1, 0, 1, 1, 0};
  IrTensorData t = {IR_BOOL, 1, shape, data, 5};
  IrBuf b = {0};
  assert_true(fe_npy_encode(&t, &b));
  const char *want = "{'descr': '|b1', 'fortran_order': False, 'shape': (5,), }";
  /* as numpy 1.24 writes it: 10 + 118 header bytes, then the data */
  assert_int_equal(b.len, 128 + 5);
  assert_memory_equal(b.data, "\x93NUMPY\x01\x00\x76\x00", 10);
  assert_memory_equal(b.data + 10, want, strlen(want));
  assert_int_equal(b.data[10 + strlen(want)], ' ');
  assert_int_equal(b.data[127], '\n');
  assert_memory_equal(b.data + 128, data, 5);
  ir_buf_free(&b);
}

static void
test_round_trip_every_dtype(void **state)
{
  (void)state;
  const char *names[] = {"float32", "float64", "float16", "int8", "int16",
                         "int32",   "int64",   "uint8",   "bool"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    IrCtx *ctx = ir_ctx_new();
    IrDType dt;
    assert_true(ir_dtype_parse(names[k], strlen(names[k]), &dt));
    int64_t shape[] = {2, 1, 3};
    IrLoc none = {0};
    Value *v = op_tensor_new(ctx, dt, 3, shape, none);
    for (int i = 0; i < 6; i++)
      op_set_f(&v->u.tensor.t, i, dt.code == IR_DT_BOOL ? i % 2 : i * 3 - 7);
    IrBuf b = {0};
    assert_true(fe_npy_encode(&v->u.tensor.t, &b));
    IrTensorData t;
    assert_true(fe_npy_parse(ctx, "rt.npy", (unsigned char *)b.data, b.len, &t));
    assert_true(ir_dtype_eq(t.dtype, dt));
    assert_int_equal(t.ndim, 3);
    assert_int_equal(t.shape[2], 3);
    assert_int_equal(t.nbytes, v->u.tensor.t.nbytes);
    assert_memory_equal(t.data, v->u.tensor.t.data, t.nbytes);
    assert_true(op_get_f(&t, 5) == (dt.code == IR_DT_BOOL ? 1 : 8));
    ir_buf_free(&b);
    ir_ctx_free(ctx);
  }
}

static void
test_malformed_files(void **state)
{
  (void)state;
  float f[2] = {1, 2};
  const char *ok_header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  IrBuf b = {0};
  make_npy(&b, 1, ok_header, f, sizeof f);
  expect_bad("\x93NUMPX\x01\x00", 8, "bad magic");
  expect_bad("hello world, not numpy at all", 29, "bad magic");
  expect_bad(b.data, 9, "bad magic"); /* shorter than the preamble */
  expect_bad(b.data, 40, "truncated .npy header");
  expect_bad(b.data, b.len - 1, "header says 8 bytes of data, file has 7");
  IrBuf longer = {0};
  ir_buf_put(&longer, b.data, b.len);
  ir_buf_put(&longer, "xyz", 3);
  expect_bad(longer.data, longer.len, "header says 8 bytes of data, file has 11");
  IrBuf c = {0};
  make_npy(&c, 4, ok_header, f, sizeof f);
  expect_bad(c.data, c.len, "unsupported .npy format version 4.0");
  const struct {
    const char *header, *frag;
  } cases[] = {
      {"{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", "fortran_order"},
      {"{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", "big-endian"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", "unsupported dtype: '<c8'"},
      {"{'descr': '<f4', 'shape': (2,), }", "lacks descr, fortran_order or shape"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }", "malformed shape"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }",
       "too large"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
       "malformed shape"},
      {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }", "malformed header"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", "unsupported dtype"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", "malformed header"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    IrBuf d = {0};
    make_npy(&d, 1, cases[i].header, f, sizeof f);
    expect_bad(d.data, d.len, cases[i].frag);
    ir_buf_free(&d);
  }
  ir_buf_free(&b);
  ir_buf_free(&longer);
  ir_buf_free(&c);
}

/* ---- a tiny zip writer, independent of the one under test ---------------- */

static uint32_t
crc32_bitwise(const unsigned char *p, size_t n)
{
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++)
      c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
  }
  return c ^ 0xffffffffu;
}

static void
le(IrBuf *b, uint32_t v, int bytes)
{
  for (int i = 0; i < bytes; i++) {
    unsigned char c = (unsigned char)(v >> (8 * i));
    ir_buf_put(b, &c, 1);
  }
}

/* A zip of entries (name, bytes) with the given compression method. */
static void
make_zip(IrBuf *out, const char **names, IrBuf *files, int n, int method)
{
  IrBuf dir = {0};
  for (int i = 0; i < n; i++) {
    uint32_t crc = crc32_bitwise((unsigned char *)files[i].data, files[i].len);
    uint32_t offset = (uint32_t)out->len, size = (uint32_t)files[i].len;
    size_t nl = strlen(names[i]);
    le(out, 0x04034b50, 4), le(out, 20, 2), le(out, 0, 2), le(out, (uint32_t)method, 2);
    le(out, 0, 4), le(out, crc, 4), le(out, size, 4), le(out, size, 4);
    le(out, (uint32_t)nl, 2), le(out, 0, 2);
    ir_buf_put(out, names[i], nl);
    ir_buf_put(out, files[i].data, files[i].len);
    le(&dir, 0x02014b50, 4), le(&dir, 20, 2), le(&dir, 20, 2), le(&dir, 0, 2);
    le(&dir, (uint32_t)method, 2), le(&dir, 0, 4), le(&dir, crc, 4), le(&dir, size, 4);
    le(&dir, size, 4), le(&dir, (uint32_t)nl, 2), le(&dir, 0, 2), le(&dir, 0, 2);
    le(&dir, 0, 2), le(&dir, 0, 2), le(&dir, 0, 4), le(&dir, offset, 4);
    ir_buf_put(&dir, names[i], nl);
  }
  uint32_t at = (uint32_t)out->len;
  ir_buf_put(out, dir.data, dir.len);
  le(out, 0x06054b50, 4), le(out, 0, 4), le(out, (uint32_t)n, 2), le(out, (uint32_t)n, 2);
  le(out, (uint32_t)dir.len, 4), le(out, at, 4), le(out, 0, 2);
  ir_buf_free(&dir);
}

static void
test_npz_read(void **state)
{
  (void)state;
  IrBuf files[2] = {{0}, {0}};
  float w[3] = {0.5f, 1.5f, -2};
  int32_t idx[2] = {7, -8};
  make_npy(&files[0], 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", w, 12);
  make_npy(&files[1], 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 2), }", idx, 8);
  const char *names[] = {"weight.npy", "idx.npy"};
  IrBuf zip = {0};
  make_zip(&zip, names, files, 2, 0);
  IrCtx *ctx = ir_ctx_new();
  FeNpzEntry *e;
  int n = fe_npz_parse(ctx, "p.npz", (unsigned char *)zip.data, zip.len, &e);
  assert_int_equal(n, 2);
  assert_string_equal(e[0].name, "weight");
  assert_string_equal(e[1].name, "idx");
  assert_memory_equal(e[0].t.data, w, 12);
  assert_int_equal(e[1].t.shape[1], 2);
  assert_int_equal(op_get_i(&e[1].t, 1), -8);
  /* compressed entries are refused by name */
  IrBuf deflated = {0};
  make_zip(&deflated, names, files, 2, 8);
  assert_int_equal(fe_npz_parse(ctx, "c.npz", (unsigned char *)deflated.data, deflated.len, &e),
                   -1);
  char *text = tu_diag_text(ctx);
  assert_non_null(strstr(text, "c.npz: error: entry 'weight' is compressed"));
  assert_non_null(strstr(text, "np.savez_compressed"));
  free(text);
  ir_diag_clear(ctx);
  /* every truncation is an error, never a crash */
  for (size_t len = 0; len < zip.len; len++) {
    assert_int_equal(fe_npz_parse(ctx, "t.npz", (unsigned char *)zip.data, len, &e), -1);
    ir_diag_clear(ctx);
  }
  /* a flipped data byte fails the CRC */
  zip.data[60] ^= 1;
  assert_int_equal(fe_npz_parse(ctx, "crc.npz", (unsigned char *)zip.data, zip.len, &e), -1);
  text = tu_diag_text(ctx);
  assert_non_null(strstr(text, "CRC mismatch"));
  free(text);
  ir_ctx_free(ctx);
  ir_buf_free(&zip);
  ir_buf_free(&deflated);
  ir_buf_free(&files[0]);
  ir_buf_free(&files[1]);
}

static void
test_npz_write_read(void **state)
{
  (void)state;
  int64_t s1[] = {2}, s2[] = {2, 2};
  double a[] = {1, 2};
  int64_t b[] = {3, 4, 5, 6};
  FeNpzEntry in[2] = {{"0", {IR_F32, 1, s1, NULL, 8}}, {"1_0", {IR_I64, 2, s2, b, 32}}};
  float af[] = {1, 2};
  in[0].t.data = af;
  (void)a;
  IrBuf zip = {0};
  assert_true(fe_npz_encode(in, 2, &zip));
  IrCtx *ctx = ir_ctx_new();
  FeNpzEntry *out;
  assert_int_equal(fe_npz_parse(ctx, "o.npz", (unsigned char *)zip.data, zip.len, &out), 2);
  assert_string_equal(out[1].name, "1_0");
  assert_memory_equal(out[0].t.data, af, 8);
  assert_memory_equal(out[1].t.data, b, 32);
  assert_int_equal(fe_crc32((const unsigned char *)"123456789", 9), 0xcbf43926u);
  ir_ctx_free(ctx);
  ir_buf_free(&zip);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hand_made_files),
      cmocka_unit_test(test_writer_matches_numpy_layout),
      cmocka_unit_test(test_round_trip_every_dtype),
      cmocka_unit_test(test_malformed_files),
      cmocka_unit_test(test_npz_read),
      cmocka_unit_test(test_npz_write_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
