/* test_base.c - the base utilities: arena, symbols, vectors, buffers,
 * the pointer map, dtypes, diagnostics and attributes (the op table:
 * test_op_table.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../ir/ir.h"

static void
test_interning(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  char a[] = "float32", b[] = "float32";
  assert_ptr_equal(ir_sym(ctx, a), ir_sym(ctx, b));
  assert_ptr_not_equal(ir_sym(ctx, "x"), ir_sym(ctx, "y"));
  assert_ptr_equal(ir_sym_n(ctx, "abcdef", 3), ir_sym(ctx, "abc"));
  /* many symbols force the table to grow; each stays unique */
  IrSym first[2000];
  for (int i = 0; i < 2000; i++) {
    char name[32];
    snprintf(name, sizeof name, "v%d", i);
    first[i] = ir_sym(ctx, name);
  }
  for (int i = 0; i < 2000; i++) {
    char name[32];
    snprintf(name, sizeof name, "v%d", i);
    assert_ptr_equal(first[i], ir_sym(ctx, name));
    assert_string_equal(first[i], name);
  }
  ir_ctx_free(ctx);
}

static void
test_arena(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  for (int i = 0; i < 1000; i++) {
    size_t n = (size_t)(i * 37 % 5000) + 1;
    unsigned char *p = ir_alloc(ctx, n);
    assert_int_equal((uintptr_t)p % 16, 0);
    for (size_t j = 0; j < n; j++)
      assert_int_equal(p[j], 0);
    memset(p, 0xab, n);
  }
  char *big = ir_alloc(ctx, 1 << 20); /* larger than a chunk */
  memset(big, 1, 1 << 20);
  assert_string_equal(ir_printf(ctx, "%s-%d", "a", 42), "a-42");
  ir_ctx_free(ctx);
}

/* A rewind gives back what was allocated since the mark, zeroed again;
 * it refuses once the context has kept something since (a symbol, a
 * diagnostic) or a new chunk came in. */
static void
test_arena_rewind(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  (void)ir_alloc(ctx, 32);
  size_t start = ir_arena_bytes(ctx);
  IrArenaMark m = ir_arena_mark(ctx);
  unsigned char *p = ir_alloc(ctx, 100);
  memset(p, 0xab, 100);
  assert_int_equal(ir_arena_bytes(ctx), start + 112);
  assert_true(ir_arena_rewind(ctx, m));
  assert_int_equal(ir_arena_bytes(ctx), start);
  unsigned char *q = ir_alloc(ctx, 100);
  assert_ptr_equal(q, p);
  for (int i = 0; i < 100; i++)
    assert_int_equal(q[i], 0);
  m = ir_arena_mark(ctx);
  (void)ir_sym(ctx, "a name interned since the mark");
  assert_false(ir_arena_rewind(ctx, m));
  m = ir_arena_mark(ctx);
  IrLoc none = {0};
  ir_error(ctx, none, "kept");
  assert_false(ir_arena_rewind(ctx, m));
  m = ir_arena_mark(ctx);
  (void)ir_alloc(ctx, 8 << 20); /* a block of its own chunk */
  assert_false(ir_arena_rewind(ctx, m));
  ir_ctx_free(ctx);
}

static void
test_vec_and_buf(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrVec v = {0};
  int xs[100];
  for (int i = 0; i < 100; i++)
    ir_vec_push(&v, &xs[i]);
  void **frozen = ir_vec_freeze(ctx, &v);
  assert_int_equal(v.len, 0);
  for (int i = 0; i < 100; i++)
    assert_ptr_equal(frozen[i], &xs[i]);
  IrBuf b = {0};
  for (int i = 0; i < 1000; i++)
    ir_buf_printf(&b, "%d,", i % 10);
  assert_int_equal(b.len, 2000);
  assert_memory_equal(b.data, "0,1,2,", 6);
  /* adopting a block filled in place drops the old text, ends the new
   * with a NUL, and the buffer grows from it as from its own */
  char *block = ir_xaligned_alloc(64, 128);
  memcpy(block, "weights", 7);
  ir_buf_adopt(&b, block, 7, 128);
  assert_ptr_equal(b.data, block);
  assert_string_equal(b.data, "weights");
  for (int i = 0; i < 100; i++)
    ir_buf_puts(&b, "!");
  assert_int_equal(b.len, 107);
  assert_memory_equal(b.data, "weights!!", 9);
  ir_buf_free(&b);
  ir_ctx_free(ctx);
}

static void
test_dtype(void **state)
{
  (void)state;
  static const char *names[] = {"float32", "float16", "float64", "int8", "int32", "int64",
                                "uint8", "bool", "void", "handle", "bfloat16", "float32x4"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    IrDType t;
    char buf[16];
    assert_true(ir_dtype_parse(names[i], strlen(names[i]), &t));
    assert_string_equal(ir_dtype_str(t, buf), names[i]);
  }
  static const char *bad[] = {"float", "float31", "int7", "x", "", "float32x", "float32x0", "int99999999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    IrDType t;
    assert_false(ir_dtype_parse(bad[i], strlen(bad[i]), &t));
  }
  assert_int_equal(ir_dtype_bytes(IR_F32), 4);
  assert_int_equal(ir_dtype_bytes(IR_BOOL), 1);
  assert_int_equal(ir_dtype_bytes(IR_I64), 8);
}

/* ir_source_read: a regular file read in one piece (bytes of every value,
 * NULs too, and more than a 64 KiB chunk) and NUL-terminated; an empty
 * one; a file whose size stat does not tell (/proc's are 0 bytes there),
 * read chunk by chunk; a missing one, an error. */
static void
test_source_read(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  enum { N = 200000 };
  unsigned char *bytes = malloc(N);
  for (int i = 0; i < N; i++)
    bytes[i] = (unsigned char)(i * 7 + i / 256);
  char path[] = "/tmp/rxc-source-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "wb");
  assert_int_equal(fwrite(bytes, 1, N, f), N);
  fclose(f);
  const IrSource *src = ir_source_read(ctx, path);
  assert_non_null(src);
  assert_int_equal(src->len, N);
  assert_memory_equal(src->text, bytes, N);
  assert_int_equal(src->text[N], '\0');
  assert_string_equal(src->name, path);
  f = fopen(path, "wb"); /* now empty */
  fclose(f);
  src = ir_source_read(ctx, path);
  assert_non_null(src);
  assert_int_equal(src->len, 0);
  assert_string_equal(src->text, "");
  remove(path);
  free(bytes);
  src = ir_source_read(ctx, "/proc/self/status");
  assert_non_null(src);
  assert_true(src->len > 0);
  assert_int_equal(strlen(src->text), src->len);
  assert_non_null(strstr(src->text, "Pid:"));
  assert_int_equal(ir_error_count(ctx), 0);
  assert_null(ir_source_read(ctx, path));
  assert_int_equal(ir_error_count(ctx), 1);
  assert_non_null(strstr(ir_diag_get(ctx, 0)->msg, "cannot open"));
  ir_ctx_free(ctx);
}

static void
test_diagnostics(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  const IrSource *src = ir_source_add(ctx, "m.py", "line one\n  x = oops\n", 20);
  IrLoc loc = {src, 2, 7};
  ir_error(ctx, loc, "name '%s' is not defined", "oops");
  ir_note(ctx, loc, "a note");
  assert_int_equal(ir_error_count(ctx), 1);
  assert_int_equal(ir_diag_count(ctx), 2);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  ir_diag_print(ctx, f);
  fclose(f);
  assert_string_equal(text, "m.py:2:7: error: name 'oops' is not defined\n"
                            "    x = oops\n"
                            "        ^\n"
                            "m.py:2:7: note: a note\n"
                            "    x = oops\n"
                            "        ^\n");
  free(text);
  ir_ctx_free(ctx);
}

static void
test_attr_dict(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrSym keys[] = {ir_sym(ctx, "b"), ir_sym(ctx, "a"), ir_sym(ctx, "c"), ir_sym(ctx, "a")};
  IrAttr *vals[] = {ir_attr_int(ctx, 2), ir_attr_int(ctx, 1), ir_attr_int(ctx, 3), ir_attr_int(ctx, 9)};
  IrAttr *d = ir_attr_dict(ctx, keys, vals, 4);
  assert_int_equal(d->u.list.n, 3);
  assert_string_equal(d->u.list.keys[0], "a");
  assert_int_equal(ir_attr_get(d, "a")->u.i, 9); /* last value wins */
  assert_string_equal(d->u.list.keys[2], "c");
  IrAttr *e = ir_attr_dict_set(ctx, d, ir_sym(ctx, "aa"), ir_attr_bool(ctx, true));
  assert_int_equal(e->u.list.n, 4);
  assert_string_equal(e->u.list.keys[1], "aa");
  assert_int_equal(d->u.list.n, 3); /* the input is unchanged */
  assert_null(ir_attr_get(d, "aa"));
  /* an empty list from no array at all (the reader builds `()` so; fuzz_script
   * found the memcpy from NULL under UBSan) */
  IrAttr *l = ir_attr_list(ctx, NULL, 0);
  assert_int_equal(l->kind, IR_AT_LIST);
  assert_int_equal(l->u.list.n, 0);
  IrAttr *ed = ir_attr_dict(ctx, NULL, NULL, 0);
  assert_int_equal(ed->u.list.n, 0);
  ir_ctx_free(ctx);
}

/* IrNames: the smallest free suffix, resumed after the last one given;
 * names added by hand are skipped; the separator is the caller's. */
static void
test_names(void **state)
{
  (void)state;
  IrNames s = {0};
  assert_false(ir_names_has(&s, "a"));
  assert_string_equal(ir_names_unique(&s, "a", "_"), "a");
  ir_names_add(&s, "a_2");
  assert_string_equal(ir_names_unique(&s, "a", "_"), "a_1");
  assert_string_equal(ir_names_unique(&s, "a", "_"), "a_3"); /* a_2 was taken */
  assert_string_equal(ir_names_unique(&s, "a_1", "_"), "a_1_1");
  assert_string_equal(ir_names_unique(&s, "add", ""), "add");
  assert_string_equal(ir_names_unique(&s, "add", ""), "add1");
  for (int i = 0; i < 1000; i++) /* grows past its first tables */
    ir_names_unique(&s, "x", "_");
  assert_true(ir_names_has(&s, "x_999"));
  assert_false(ir_names_has(&s, "x_1000"));
  assert_string_equal(ir_names_unique(&s, "x", "_"), "x_1000");
  ir_names_free(&s);
  assert_int_equal(s.n, 0);
}

/* Nodes come from the arena 16 bytes apart: thousands of such keys, put,
 * replaced and looked up through growth, on the heap and in an arena. */
static void
check_map(IrMap *m, IrCtx *ctx)
{
  enum { N = 5000 };
  char *nodes[N];
  for (int i = 0; i < N; i++) {
    nodes[i] = ir_alloc(ctx, 16);
    ir_map_put(m, nodes[i], (void *)(uintptr_t)(i + 1));
  }
  assert_int_equal(m->len, N);
  assert_true((m->cap & (m->cap - 1)) == 0 && m->cap >= 2 * N);
  for (int i = 0; i < N; i += 2)
    ir_map_put(m, nodes[i], (void *)(uintptr_t)(i + 100000)); /* replaces */
  *ir_map_slot(m, nodes[1]) = NULL;
  assert_int_equal(m->len, N);
  for (int i = 0; i < N; i++) {
    uintptr_t want = i == 1 ? 0 : i % 2 ? (uintptr_t)(i + 1) : (uintptr_t)(i + 100000);
    assert_int_equal((uintptr_t)ir_map_get(m, nodes[i]), want);
    assert_true(ir_map_has(m, nodes[i])); /* a NULL value is still a key */
  }
  char other;
  assert_null(ir_map_get(m, &other));
  assert_false(ir_map_has(m, &other));
  ir_map_clear(m);
  assert_int_equal(m->len, 0);
  assert_null(ir_map_get(m, nodes[7]));
  ir_map_put(m, nodes[7], nodes[8]);
  assert_ptr_equal(ir_map_get(m, nodes[7]), nodes[8]);
}

static void
test_map(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrMap heap = {0};
  assert_null(ir_map_get(&heap, ctx)); /* empty, never grown */
  check_map(&heap, ctx);
  ir_map_free(&heap);
  assert_int_equal(heap.cap, 0);
  IrMap arena;
  ir_map_init_arena(&arena, ctx);
  check_map(&arena, ctx);
  ir_map_free(&arena); /* the arena keeps the slots */
  assert_ptr_equal(arena.ctx, ctx);
  int *p = ir_xcalloc(4, sizeof *p);
  assert_int_equal(p[3], 0);
  p = ir_xrealloc(p, 0); /* a zero size still gives a block */
  assert_non_null(p);
  free(p);
  free(ir_xmalloc(0));
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_interning),    cmocka_unit_test(test_arena),
      cmocka_unit_test(test_arena_rewind), cmocka_unit_test(test_vec_and_buf),
      cmocka_unit_test(test_dtype),        cmocka_unit_test(test_diagnostics),
      cmocka_unit_test(test_source_read),  cmocka_unit_test(test_attr_dict),
      cmocka_unit_test(test_names),        cmocka_unit_test(test_map),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
