/*
 * test_kern.c - the kernels precompiled for the JIT (codegen/kern.c,
 * kern_copy.c): every copy this CPU runs (the x86-64 baseline, v3, v4 on
 * an x86-64 host) gives the bits of the kernel's scalar form, the one tcc
 * compiles from the text (rt/rt_kern_gemm.h with RXC_K_VECTOR 0, here
 * compiled by the system compiler without contraction), on random inputs
 * with every remainder: rows not a multiple of 8, columns not a multiple
 * of 16 (nor of 4), k odd, strided and transposed operands, k of 0.  The
 * inputs are shown able to tell a fused multiply-add from a multiply and
 * an add, so a copy built with contraction would fail.  The 8-bit
 * integer kernels (rt/rt_kern_gemm_int.h), every copy and the vnni one
 * (vpdpbusd) among them, give exactly a plain int64 loop's sums wrapped
 * to int32, on random bytes thick with the extremes (-128, 127, 255), k
 * not a multiple of 4 nor of 64, rows 1 to 8 and more, column tails, and
 * sums past 2^31; the int32 one likewise on words at INT32_MIN and
 * INT32_MAX, each product wrapping.  The im2col kernels write exactly the
 * panel a plain loop over its definition writes, and nothing past it;
 * rxc_k_conv_f32 gives the bits of rxc_k_gemm_f32 over the panel it
 * reads in place.  And the copy chosen is the first usable one of its
 * kernel.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../api/road.h"
#include "../../api/rxc.h"
#include "../../codegen/cg_int.h"

#define RXC_K_VECTOR 0 /* the scalar form, as tcc would compile it */
#include "../../rt/rt_types.h"
#include "../../rt/rt_math_base.h"
#include "../../rt/rt_kern_gemm.h"
#include "../../rt/rt_kern_gemm_int.h"
#include "../../rt/rt_kern_copy.h"

/* A deterministic float in [-2, 2) with 24 random bits of mantissa. */
static float
random_float(uint64_t *state)
{
  *state = *state * 6364136223846793005u + 1442695040888963407u;
  return (float)((int32_t)(*state >> 40) - (1 << 23)) / (float)(1 << 22);
}

/* One shape: a is rows x k at (a_row, a_k) strides, b is k x cols with
 * rows b_k apart (b_k >= cols), acc rows x cols. */
typedef struct {
  int64_t rows, cols, k;
  bool transposed; /* a stored k x rows (a_row = 1, a_k = rows + 1) */
  int64_t b_pad;   /* b_k = cols + b_pad */
} Shape;

/* Runs the scalar form and copy on the same random inputs; the number of
 * accumulators that differ (0 when bit for bit equal).  *fused_differs
 * counts those a fused multiply-add would have changed. */
static int
compare(CgKernGemmF32 copy, const Shape *s, uint64_t seed, int *fused_differs)
{
  int64_t a_row = s->transposed ? 1 : s->k + 3, a_k = s->transposed ? s->rows + 1 : 1;
  int64_t b_k = s->cols + s->b_pad;
  size_t na = (size_t)(s->transposed ? (s->k + 1) * (s->rows + 1) : (s->rows + 1) * (s->k + 3));
  size_t nb = (size_t)((s->k + 1) * b_k), nacc = (size_t)(s->rows * s->cols);
  float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
  float *want = malloc((nacc + 1) * sizeof *want), *got = malloc((nacc + 1) * sizeof *got);
  float *fused = malloc((nacc + 1) * sizeof *fused);
  uint64_t st = seed;
  for (size_t i = 0; i < na; i++)
    a[i] = random_float(&st);
  for (size_t i = 0; i < nb; i++)
    b[i] = random_float(&st);
  for (size_t i = 0; i < nacc; i++)
    want[i] = got[i] = fused[i] = random_float(&st);
  rxc_k_gemm_f32(want, a, a_row, a_k, b, b_k, s->k, s->rows, s->cols);
  copy(got, a, a_row, a_k, b, b_k, s->k, s->rows, s->cols);
  for (int64_t r = 0; r < s->rows; r++)
    for (int64_t c = 0; c < s->cols; c++)
      for (int64_t t = 0; t < s->k; t++) {
        float *f = &fused[r * s->cols + c];
        *f = fmaf(a[r * a_row + t * a_k], b[t * b_k + c], *f);
      }
  int differ = 0;
  for (size_t i = 0; i < nacc; i++) {
    differ += memcmp(&want[i], &got[i], sizeof(float)) != 0;
    *fused_differs += memcmp(&want[i], &fused[i], sizeof(float)) != 0;
  }
  free(a);
  free(b);
  free(want);
  free(got);
  free(fused);
  return differ;
}

static const Shape shapes[] = {
    {1, 1, 1, false, 0},    {3, 5, 7, false, 2},  {8, 16, 9, false, 0},  {9, 17, 13, false, 1},
    {19, 87, 37, false, 3}, {17, 70, 5, true, 0}, {24, 33, 1, false, 0}, {5, 130, 11, true, 7},
    {16, 64, 31, true, 0},  {7, 64, 0, false, 0}, {11, 4, 21, false, 5}, {2, 3, 255, true, 0},
};

static void
test_copies_equal_scalar(void **state)
{
  (void)state;
  int n, tested = 0, fused_differs = 0;
  const CgKernCopy *copies = cg_kern_copies(&n);
  assert_true(n >= 1);
  for (int i = 0; i < n; i++) {
    if (strcmp(copies[i].kernel, "rxc_k_gemm_f32") != 0)
      continue; /* the others': below; rxc_k_row_f32's: test_rows.c */
    if (!cg_kern_usable(&copies[i])) {
      print_message("  %s: not run by this CPU, skipped\n", copies[i].level);
      continue;
    }
    for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++)
      for (uint64_t seed = 1; seed <= 3; seed++) {
        int differ =
            compare((CgKernGemmF32)copies[i].fn, &shapes[j], seed * 1000 + j, &fused_differs);
        if (differ)
          print_message("  %s: %d sums differ, shape %d\n", copies[i].level, differ, (int)j);
        assert_int_equal(differ, 0);
      }
    print_message("  %s: same bits as the scalar form\n", copies[i].level);
    tested++;
  }
  assert_true(tested >= 1);
  assert_true(fused_differs > 100); /* the inputs would show a contraction */
}

/* --- the 8-bit products ------------------------------------------------- */

/* A random byte, one in three an extreme: -128 or 127 (255 or 0 read as
 * uint8 where b is 0x7f or 0x80: every corner of the products). */
static int8_t
random_byte(uint64_t *state)
{
  static const int8_t extremes[] = {-128, 127, -1, 0};
  *state = *state * 6364136223846793005u + 1442695040888963407u;
  uint32_t r = (uint32_t)(*state >> 33);
  return r % 3 == 0 ? extremes[(r >> 8) % 4] : (int8_t)(r >> 12);
}

/* The sums by the definition: int64 products, summed in int64, wrapped
 * to int32 at the end (the same modulo 2^32 as any order of wrapping
 * additions); A uint8 when unsigned_ is 'a', B when 'b'. */
static void
reference_int(int32_t *acc, const int8_t *a, char unsigned_, int64_t a_row, int64_t a_k,
              const int8_t *b, int64_t b_k, int64_t k, int64_t rows, int64_t cols)
{
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++) {
      int64_t sum = acc[r * cols + c];
      for (int64_t t = 0; t < k; t++) {
        int8_t x = a[r * a_row + t * a_k], y = b[t * b_k + c];
        sum += (unsigned_ == 'a' ? (int64_t)(uint8_t)x : x) *
               (unsigned_ == 'b' ? (int64_t)(uint8_t)y : y);
      }
      acc[r * cols + c] = (int32_t)(uint32_t)(uint64_t)sum;
    }
}

static const Shape int_shapes[] = {
    {1, 1, 1, false, 0},   {3, 5, 7, false, 2},    {8, 64, 9, false, 0},   {9, 65, 13, false, 1},
    {4, 64, 4, false, 0},  {5, 128, 66, true, 3},  {1, 128, 257, false, 0}, {2, 70, 3, false, 5},
    {7, 192, 67, true, 0}, {8, 64, 0, false, 0},   {11, 17, 21, false, 5}, {6, 130, 255, true, 1},
    {16, 64, 64, false, 0}, {8, 150, 70, false, 0}, {3, 1, 5, true, 0},    {13, 64, 129, false, 64},
};

/* Runs a copy of an 8-bit kernel (A, B int8, or uint8 as unsigned_ says:
 * 'a' or 'b') and the header's scalar form against reference_int on one
 * shape; the number of sums that differ. */
static int
compare_int(CgKernFn copy, char unsigned_, const Shape *s, uint64_t seed, bool extreme)
{
  int64_t a_row = s->transposed ? 1 : s->k + 3, a_k = s->transposed ? s->rows + 1 : 1;
  int64_t b_k = s->cols + s->b_pad;
  size_t na = (size_t)(s->transposed ? (s->k + 1) * (s->rows + 1) : (s->rows + 1) * (s->k + 3));
  size_t nb = (size_t)((s->k + 1) * b_k), nacc = (size_t)(s->rows * s->cols);
  int8_t *a = malloc(na), *b = malloc(nb);
  int32_t *want = malloc((nacc + 1) * sizeof *want), *got = malloc((nacc + 1) * sizeof *got);
  int32_t *scalar = malloc((nacc + 1) * sizeof *scalar);
  uint64_t st = seed;
  for (size_t i = 0; i < na; i++)
    a[i] = extreme ? (unsigned_ == 'a' ? -1 : -128) : random_byte(&st);
  for (size_t i = 0; i < nb; i++)
    b[i] = extreme ? (unsigned_ == 'b' ? -1 : -128) : random_byte(&st);
  for (size_t i = 0; i < nacc; i++) {
    st = st * 6364136223846793005u + 1442695040888963407u;
    want[i] = got[i] = scalar[i] = (int32_t)(uint32_t)(st >> 32);
  }
  reference_int(want, a, unsigned_, a_row, a_k, b, b_k, s->k, s->rows, s->cols);
  if (unsigned_ == 'a') {
    ((CgKernGemmU8I8I32)copy)(got, (uint8_t *)a, a_row, a_k, b, b_k, s->k, s->rows, s->cols);
    rxc_k_gemm_u8i8_i32(scalar, (uint8_t *)a, a_row, a_k, b, b_k, s->k, s->rows, s->cols);
  } else if (unsigned_ == 'b') {
    ((CgKernGemmI8U8I32)copy)(got, a, a_row, a_k, (uint8_t *)b, b_k, s->k, s->rows, s->cols);
    rxc_k_gemm_i8u8_i32(scalar, a, a_row, a_k, (uint8_t *)b, b_k, s->k, s->rows, s->cols);
  } else {
    ((CgKernGemmI8I8I32)copy)(got, a, a_row, a_k, b, b_k, s->k, s->rows, s->cols);
    rxc_k_gemm_i8i8_i32(scalar, a, a_row, a_k, b, b_k, s->k, s->rows, s->cols);
  }
  int differ = 0;
  for (size_t i = 0; i < nacc; i++)
    differ += (want[i] != got[i]) + (want[i] != scalar[i]);
  free(a);
  free(b);
  free(want);
  free(got);
  free(scalar);
  return differ;
}

static void
test_int_copies_exact(void **state)
{
  (void)state;
  int n, tested = 0;
  const CgKernCopy *copies = cg_kern_copies(&n);
  bool vnni = false;
  for (int i = 0; i < n; i++) {
    char u8 = strcmp(copies[i].kernel, "rxc_k_gemm_u8i8_i32") == 0   ? 'a'
              : strcmp(copies[i].kernel, "rxc_k_gemm_i8u8_i32") == 0 ? 'b'
                                                                      : 0;
    if (!u8 && strcmp(copies[i].kernel, "rxc_k_gemm_i8i8_i32") != 0)
      continue;
    if (!cg_kern_usable(&copies[i])) {
      print_message("  %s %s: not run by this CPU, skipped\n", copies[i].kernel, copies[i].level);
      continue;
    }
    for (size_t j = 0; j < sizeof int_shapes / sizeof int_shapes[0]; j++)
      for (uint64_t seed = 1; seed <= 3; seed++) {
        int differ = compare_int(copies[i].fn, u8, &int_shapes[j], seed * 1000 + j, seed == 3);
        if (differ)
          print_message("  %s %s: %d sums differ, shape %d seed %d\n", copies[i].kernel,
                        copies[i].level, differ, (int)j, (int)seed);
        assert_int_equal(differ, 0);
      }
    /* 2^17 + 8 products of (-128) * (-128) (255 * -128 with a uint8):
     * past 2^31, so the sums wrap */
    Shape wrap = {3, 64, 131080, false, 0};
    assert_int_equal(compare_int(copies[i].fn, u8, &wrap, 7, true), 0);
    vnni |= strstr(copies[i].level, "vnni") != NULL;
    print_message("  %s %s: exact\n", copies[i].kernel, copies[i].level);
    tested++;
  }
  assert_true(tested >= 3);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512vnni"))
    assert_true(vnni); /* this CPU has VNNI: its copies ran */
#endif
}

/* --- int32 x int32, products wrapping -------------------------------- */

/* A random int32, one in three an extreme (INT32_MIN, INT32_MAX, -1). */
static int32_t
random_word(uint64_t *state)
{
  static const int32_t extremes[] = {INT32_MIN, INT32_MAX, -1, 0};
  *state = *state * 6364136223846793005u + 1442695040888963407u;
  uint32_t r = (uint32_t)(*state >> 32);
  return r % 3 == 0 ? extremes[(r >> 8) % 4] : (int32_t)r;
}

/* Runs a copy of rxc_k_gemm_i32i32_i32 and the scalar form against the
 * definition in uint64 (each product and sum modulo 2^64, so modulo 2^32
 * too); the number of sums that differ. */
static int
compare_i32(CgKernGemmI32I32I32 copy, const Shape *s, uint64_t seed)
{
  int64_t a_row = s->transposed ? 1 : s->k + 3, a_k = s->transposed ? s->rows + 1 : 1;
  int64_t b_k = s->cols + s->b_pad;
  size_t na = (size_t)(s->transposed ? (s->k + 1) * (s->rows + 1) : (s->rows + 1) * (s->k + 3));
  size_t nb = (size_t)((s->k + 1) * b_k), nacc = (size_t)(s->rows * s->cols);
  int32_t *a = malloc(na * 4), *b = malloc(nb * 4), *got = malloc((nacc + 1) * 4);
  int32_t *scalar = malloc((nacc + 1) * 4), *start = malloc((nacc + 1) * 4);
  uint64_t st = seed;
  for (size_t i = 0; i < na; i++)
    a[i] = random_word(&st);
  for (size_t i = 0; i < nb; i++)
    b[i] = random_word(&st);
  for (size_t i = 0; i < nacc; i++)
    start[i] = got[i] = scalar[i] = random_word(&st);
  copy(got, a, a_row, a_k, b, b_k, s->k, s->rows, s->cols);
  rxc_k_gemm_i32i32_i32(scalar, a, a_row, a_k, b, b_k, s->k, s->rows, s->cols);
  int differ = 0;
  for (int64_t r = 0; r < s->rows; r++)
    for (int64_t c = 0; c < s->cols; c++) {
      uint64_t sum = (uint64_t)(int64_t)start[r * s->cols + c];
      for (int64_t t = 0; t < s->k; t++)
        sum += (uint64_t)(int64_t)a[r * a_row + t * a_k] * (uint64_t)(int64_t)b[t * b_k + c];
      int32_t want = (int32_t)(uint32_t)sum;
      differ += (want != got[r * s->cols + c]) + (want != scalar[r * s->cols + c]);
    }
  free(a);
  free(b);
  free(got);
  free(scalar);
  free(start);
  return differ;
}

static void
test_i32_copies_exact(void **state)
{
  (void)state;
  int n, tested = 0;
  const CgKernCopy *copies = cg_kern_copies(&n);
  for (int i = 0; i < n; i++) {
    if (strcmp(copies[i].kernel, "rxc_k_gemm_i32i32_i32") != 0 || !cg_kern_usable(&copies[i]))
      continue;
    for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++)
      for (uint64_t seed = 1; seed <= 2; seed++) {
        int differ = compare_i32((CgKernGemmI32I32I32)copies[i].fn, &shapes[j], seed * 100 + j);
        if (differ)
          print_message("  %s: %d sums differ, shape %d\n", copies[i].level, differ, (int)j);
        assert_int_equal(differ, 0);
      }
    print_message("  rxc_k_gemm_i32i32_i32 %s: exact\n", copies[i].level);
    tested++;
  }
  assert_true(tested >= 1);
}

/* --- copies ------------------------------------------------------------ */

/* One im2col geometry: channels planes of in_h x in_w, a band of rows x
 * ow outputs at (y0, x0), window kh x kw, strides, dilations, and the
 * panel's row width past rows * ow. */
typedef struct {
  int64_t channels, in_h, in_w, y0, x0, rows, ow, kh, kw, sh, sw, dh, dw, extra;
} Im2col;

/* The panel im2col writes, element by element from its definition (size
 * bytes an element); the bytes past it left as they are. */
static void
reference_im2col(int8_t *dst, const int8_t *src, size_t size, const Im2col *g)
{
  int64_t width = g->rows * g->ow + g->extra;
  for (int64_t c = 0; c < g->channels; c++)
    for (int64_t ky = 0; ky < g->kh; ky++)
      for (int64_t kx = 0; kx < g->kw; kx++) {
        int64_t t = (c * g->kh + ky) * g->kw + kx;
        for (int64_t j = 0; j < width; j++) {
          int64_t r = j / g->ow, z = j % g->ow;
          int64_t iy = g->y0 + r * g->sh + ky * g->dh, ix = g->x0 + z * g->sw + kx * g->dw;
          int8_t *d = dst + (size_t)(t * width + j) * size;
          if (r < g->rows && iy >= 0 && iy < g->in_h && ix >= 0 && ix < g->in_w)
            memcpy(d, src + (size_t)((c * g->in_h + iy) * g->in_w + ix) * size, size);
          else
            memset(d, 0, size);
        }
      }
}

/* Every copy of the im2col kernels (and the scalar form) writes exactly
 * the panel of its definition, padding and columns past the band zero,
 * nothing past the panel, for bands at the top, inside and at the bottom
 * of the planes, windows wider than the plane, strides and dilations. */
static void
test_im2col_copies_exact(void **state)
{
  (void)state;
  static const Im2col geoms[] = {
      {2, 5, 7, -1, -1, 2, 7, 3, 3, 1, 1, 1, 1, 2},  /* top band, same padding */
      {2, 5, 7, 1, -1, 3, 7, 3, 3, 1, 1, 1, 1, 0},   /* bottom rows outside */
      {1, 9, 9, -1, -1, 2, 5, 3, 3, 2, 2, 1, 1, 6},  /* stride 2 */
      {3, 6, 70, -2, -2, 2, 70, 5, 5, 1, 1, 1, 1, 2}, /* long rows: 64-byte blocks */
      {1, 7, 7, -2, -2, 3, 7, 3, 3, 1, 1, 2, 2, 0},  /* dilation 2 */
      {2, 2, 3, -3, -4, 2, 4, 5, 7, 1, 2, 1, 1, 1},  /* window past the plane */
      {4, 3, 3, 0, 0, 3, 3, 1, 1, 1, 1, 1, 1, 0},    /* pointwise */
  };
  int n, tested = 0;
  const CgKernCopy *copies = cg_kern_copies(&n);
  enum { SRC = 4 * 3 * 6 * 70, DST = 4 * 3 * 25 * (2 * 70 + 2) + 64 };
  static int8_t src[SRC], dst[DST], want[DST];
  uint64_t st = 9;
  for (size_t i = 0; i < sizeof src; i++)
    src[i] = random_byte(&st);
  for (int i = 0; i < n; i++) {
    if (strncmp(copies[i].kernel, "rxc_k_im2col_", 13) != 0 || !cg_kern_usable(&copies[i]))
      continue;
    const char *dt = copies[i].kernel + 13;
    size_t size = strcmp(dt, "f32") == 0 || strcmp(dt, "i32") == 0 ? 4 : 1;
    for (size_t k = 0; k < sizeof geoms / sizeof geoms[0]; k++) {
      const Im2col *g = &geoms[k];
      int64_t width = g->rows * g->ow + g->extra;
      memset(want, 0x5a, sizeof want);
      reference_im2col(want, src, size, g);
      for (int form = 0; form < 2; form++) {
        memset(dst, 0x5a, sizeof dst);
        if (form == 0) /* same ABI for every dtype */
          ((CgKernIm2colI8)copies[i].fn)(dst, src, g->channels, g->in_h, g->in_w, g->y0, g->x0,
                                         g->rows, g->ow, g->kh, g->kw, g->sh, g->sw, g->dh, g->dw,
                                         width);
        else if (size == 1)
          rxc_k_im2col_i8(dst, src, g->channels, g->in_h, g->in_w, g->y0, g->x0, g->rows, g->ow,
                          g->kh, g->kw, g->sh, g->sw, g->dh, g->dw, width);
        else
          rxc_k_im2col_i32((int32_t *)(void *)dst, (const int32_t *)(const void *)src,
                           g->channels, g->in_h, g->in_w, g->y0, g->x0, g->rows, g->ow, g->kh,
                           g->kw, g->sh, g->sw, g->dh, g->dw, width);
        assert_memory_equal(dst, want, sizeof dst);
      }
    }
    print_message("  %s %s: exact\n", copies[i].kernel, copies[i].level);
    tested++;
  }
  assert_true(tested >= 4);
}

/* One shape of rxc_k_conv_f32: rows x cols sums over channels x kh x kw
 * terms, b's plane b_c apart, its rows y_step apart, its columns x_step. */
typedef struct {
  int64_t rows, cols, channels, kh, kw, y_step, x_step;
} ConvShape;

/* Every copy of rxc_k_conv_f32, and its scalar form, gives the bits of
 * rxc_k_gemm_f32's scalar form over the panel it stands for (row t =
 * (c * kh + ky) * kw + kx of the panel: b from c * b_c + ky * y_step +
 * kx * x_step, cols elements), whatever the rows (1, 8, not a multiple of
 * 8), the columns (vector blocks and tails), the terms (past a chunk of
 * RXC_K_CONV_TERMS, so sums go back to acc between chunks) and the steps
 * (a dilation's); from acc or, fresh, from 0 with acc's garbage unread
 * (every other shape); and writes no element past acc. */
static void
test_conv_copies_exact(void **state)
{
  (void)state;
  static const ConvShape shapes_c[] = {
      {1, 1, 1, 1, 1, 1, 1},       {8, 16, 3, 3, 3, 18, 1},   {9, 70, 2, 3, 3, 20, 1},
      {1, 73, 1, 5, 5, 11, 1},     {1, 130, 1, 3, 3, 58, 1},  {17, 33, 5, 3, 3, 9, 2},
      {32, 128, 40, 3, 3, 130, 1}, {3, 5, 31, 3, 3, 7, 1},    {16, 64, 1, 7, 7, 70, 1},
      {24, 17, 300, 1, 1, 1, 1},   {7, 48, 2, 1, 7, 60, 1},   {5, 19, 2, 7, 1, 25, 1},
  };
  int n, tested = 0;
  const CgKernCopy *copies = cg_kern_copies(&n);
  for (int i = -1; i < n; i++) {
    if (i >= 0 && (strcmp(copies[i].kernel, "rxc_k_conv_f32") != 0 || !cg_kern_usable(&copies[i])))
      continue;
    for (size_t j = 0; j < sizeof shapes_c / sizeof shapes_c[0]; j++) {
      const ConvShape *s = &shapes_c[j];
      int64_t k = s->channels * s->kh * s->kw, a_row = k + 1, a_k = 1;
      int64_t plane = (s->kh - 1) * s->y_step + (s->kw - 1) * s->x_step + s->cols + 3;
      size_t na = (size_t)(s->rows * a_row), nb = (size_t)(s->channels * plane);
      size_t nacc = (size_t)(s->rows * s->cols);
      float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
      float *panel = malloc((size_t)(k * s->cols + 1) * sizeof *panel);
      float *want = malloc((nacc + 16) * sizeof *want), *got = malloc((nacc + 16) * sizeof *got);
      uint64_t st = 77 + j;
      for (size_t x = 0; x < na; x++)
        a[x] = random_float(&st);
      for (size_t x = 0; x < nb; x++)
        b[x] = random_float(&st);
      for (size_t x = 0; x < nacc + 16; x++)
        want[x] = got[x] = random_float(&st);
      for (int64_t c = 0; c < s->channels; c++)
        for (int64_t ky = 0; ky < s->kh; ky++)
          for (int64_t kx = 0; kx < s->kw; kx++)
            for (int64_t col = 0; col < s->cols; col++)
              panel[((c * s->kh + ky) * s->kw + kx) * s->cols + col] =
                  b[c * plane + ky * s->y_step + kx * s->x_step + col];
      int64_t fresh = (int64_t)(j % 2); /* from 0: acc's garbage is never read */
      if (fresh)
        for (size_t x = 0; x < nacc; x++)
          want[x] = 0.0f;
      rxc_k_gemm_f32(want, a, a_row, a_k, panel, s->cols, k, s->rows, s->cols);
      if (i < 0)
        rxc_k_conv_f32(got, a, a_row, a_k, b, plane, s->channels, s->kh, s->kw, s->y_step,
                       s->x_step, s->rows, s->cols, fresh);
      else
        ((CgKernConvF32)copies[i].fn)(got, a, a_row, a_k, b, plane, s->channels, s->kh, s->kw,
                                      s->y_step, s->x_step, s->rows, s->cols, fresh);
      assert_memory_equal(got, want, (nacc + 16) * sizeof *got);
      free(a);
      free(b);
      free(panel);
      free(want);
      free(got);
    }
    print_message("  rxc_k_conv_f32 %s: the panel's bits\n", i < 0 ? "scalar" : copies[i].level);
    tested++;
  }
  assert_true(tested >= 2);
}

/* The wrap shape above does wrap: the reference's sum is not the int64 one. */
static void
test_int_wrap_reached(void **state)
{
  (void)state;
  int64_t k = 131080;
  int8_t *a = malloc((size_t)k), *b = malloc((size_t)k);
  memset(a, 0x80, (size_t)k);
  memset(b, 0x80, (size_t)k);
  int32_t acc = 0;
  reference_int(&acc, a, 0, 0, 1, b, 1, k, 1, 1);
  assert_int_equal(acc, (int32_t)(uint32_t)((uint64_t)k * 16384));
  assert_true((int64_t)acc != k * 16384);
  free(a);
  free(b);
}

/* --- the JIT's conv2d: rxc_k_conv_f32 in place of the panels ----------- */

/* One conv2d: input (1, c, h, w), weight (o, c / groups, kh, kw). */
typedef struct {
  int c, h, w, o, kh, kw, groups, sh, sw, dh, dw;
  int pad[4];  /* top, left, bottom, right */
  bool direct; /* the JIT's C calls rxc_k_conv_f32 (stride 1) */
} JitConv;

/* The conv as a plain loop over (ci, ky, kx) from 0 in float32, as the
 * panel's product and rxc_k_conv_f32 sum it (this file is built without
 * contraction): the same bits. */
static void
reference_conv(const JitConv *v, const float *x, const float *wt, float *y, int oh, int ow)
{
  int ci = v->c / v->groups, og = v->o / v->groups;
  for (int o = 0; o < v->o; o++)
    for (int r = 0; r < oh; r++)
      for (int z = 0; z < ow; z++) {
        float s = 0;
        for (int c = 0; c < ci; c++)
          for (int ky = 0; ky < v->kh; ky++)
            for (int kx = 0; kx < v->kw; kx++) {
              int iy = r * v->sh - v->pad[0] + ky * v->dh, ix = z * v->sw - v->pad[1] + kx * v->dw;
              float in = iy >= 0 && iy < v->h && ix >= 0 && ix < v->w
                             ? x[((o / og) * ci + c) * v->h * v->w + iy * v->w + ix]
                             : 0.0f;
              s = s + wt[((o * ci + c) * v->kh + ky) * v->kw + kx] * in;
            }
        y[(o * oh + r) * ow + z] = s;
      }
}

/* The JIT's C (libtcc) of stride-1 convs calls rxc_k_conv_f32, reading
 * the padded band in place, and gives the panel's bits: every padding,
 * dilation, window, group count (depthwise, with 1 or 2 output channels
 * a channel), output channels past a block of 32 with a remainder, rows
 * from 1 to many a band; stride-2 convs keep their own paths (panels,
 * the depthwise rows), with the same results. */
static void
test_jit_conv_direct(void **state)
{
  (void)state;
  static const JitConv convs[] = {
      {5, 9, 7, 6, 3, 3, 1, 1, 1, 1, 1, {1, 1, 1, 1}, true},
      {3, 12, 70, 40, 3, 3, 1, 1, 1, 1, 1, {1, 1, 1, 1}, true},   /* a row past a band */
      {4, 11, 9, 33, 5, 5, 1, 1, 1, 1, 1, {2, 2, 2, 2}, true},    /* 32 + 1 channels */
      {2, 10, 10, 3, 3, 3, 1, 1, 1, 2, 2, {2, 2, 2, 2}, true},    /* dilation 2 */
      {3, 8, 9, 5, 3, 2, 1, 1, 1, 1, 1, {0, 1, 2, 0}, true},      /* uneven padding */
      {2, 6, 6, 4, 3, 3, 1, 1, 1, 1, 1, {0, 0, 0, 0}, true},      /* none */
      {6, 7, 7, 4, 3, 3, 2, 1, 1, 1, 1, {1, 1, 1, 1}, true},      /* 2 groups of 3 */
      {16, 5, 5, 16, 3, 3, 2, 1, 1, 1, 1, {1, 1, 1, 1}, true},    /* 2 groups of 8 */
      {4, 9, 9, 6, 3, 3, 1, 2, 2, 1, 1, {1, 1, 1, 1}, false},     /* stride 2: a panel */
      {4, 9, 9, 4, 3, 3, 4, 1, 1, 1, 1, {1, 1, 1, 1}, true},      /* depthwise */
      {3, 7, 30, 6, 5, 5, 3, 1, 1, 1, 1, {2, 2, 2, 2}, true},     /* depthwise, 2 a channel */
      {2, 60, 61, 2, 3, 3, 2, 1, 1, 1, 1, {1, 1, 1, 1}, true},    /* depthwise, bands */
      {4, 9, 9, 4, 3, 3, 4, 2, 2, 1, 1, {1, 1, 1, 1}, false},     /* depthwise, stride 2 */
  };
  for (size_t i = 0; i < sizeof convs / sizeof convs[0]; i++) {
    const JitConv *v = &convs[i];
    int oh = (v->h + v->pad[0] + v->pad[2] - v->dh * (v->kh - 1) - 1) / v->sh + 1;
    int ow = (v->w + v->pad[1] + v->pad[3] - v->dw * (v->kw - 1) - 1) / v->sw + 1;
    char text[2048];
    snprintf(text, sizeof text,
             "# from tvm.script import ir as I\n# from tvm.script import relax as R\n\n"
             "@I.ir_module\nclass Module:\n    @R.function\n"
             "    def main(x: R.Tensor((1, %d, %d, %d), dtype=\"float32\"), w: R.Tensor((%d, %d, "
             "%d, %d), dtype=\"float32\")):\n"
             "        gv = R.nn.conv2d(x, w, strides=[%d, %d], padding=[%d, %d, %d, %d], "
             "dilation=[%d, %d], groups=%d)\n        return gv\n",
             v->c, v->h, v->w, v->o, v->c / v->groups, v->kh, v->kw, v->sh, v->sw, v->pad[0],
             v->pad[1], v->pad[2], v->pad[3], v->dh, v->dw, v->groups);
    /* the C the JIT compiles */
    IrCtx *ctx = ir_ctx_new();
    CfgOptions cfg;
    cfg_defaults(&cfg);
    assert_int_equal(cfg.jit.compiler, CFG_JIT_TCC);
    RxcRoadIn in = {.path = "conv.py", .text = text, .cfg = &cfg, .name = "m", .jit = true};
    RxcRoadOut out;
    assert_true(rxc_road(ctx, &in, RXC_STAGE_GENERATE, &out));
    bool calls = false;
    for (int f = 0; f < out.out->nfiles; f++)
      calls = calls || strstr(out.out->files[f].text.data, "rxc_k_conv_f32(&") != NULL;
    assert_int_equal(calls, v->direct);
    cg_output_free(out.out);
    ir_ctx_free(ctx);
    /* its results */
    size_t nx = (size_t)(v->c * v->h * v->w), nw = (size_t)(v->o * (v->c / v->groups) * v->kh * v->kw);
    size_t ny = (size_t)(v->o * oh * ow);
    float *x = malloc(nx * sizeof *x), *wt = malloc(nw * sizeof *wt);
    float *y = malloc(ny * sizeof *y), *want = malloc(ny * sizeof *want);
    uint64_t st = 5 + i;
    for (size_t j = 0; j < nx; j++)
      x[j] = random_float(&st);
    for (size_t j = 0; j < nw; j++)
      wt[j] = random_float(&st);
    reference_conv(v, x, wt, want, oh, ow);
    RxcModel *m = rxc_jit_string("conv.py", text, NULL, stderr);
    assert_non_null(m);
    int64_t dims[1] = {0};
    size_t bytes;
    assert_int_equal(rxc_model_arena_bytes_for(m, "main", dims, &bytes), 0);
    size_t align = rxc_model_arena_align(m);
    void *arena = aligned_alloc(align, (bytes / align + 1) * align);
    void *tensors[] = {x, wt, y};
    assert_int_equal(rxc_model_entry(m, "main")(arena, bytes, tensors, dims), 0);
    assert_memory_equal(y, want, ny * sizeof *y);
    free(arena);
    rxc_model_free(m);
    free(x);
    free(wt);
    free(y);
    free(want);
  }
}

/* --- the kernels' text in generated C ----------------------------------- */

/* A module whose tiles call every kernel of rt/ (with [opt] kernels). */
static const char STRICT_MODULE[] =
    "# from tvm.script import ir as I\n"
    "# from tvm.script import relax as R\n\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((1, 5, 6, 7), dtype=\"int32\"), w: R.Tensor((9, 5, 3, 3), "
    "dtype=\"int32\"), y: R.Tensor((19, 37), dtype=\"int32\"), z: R.Tensor((37, 35), "
    "dtype=\"int32\"), u: R.Tensor((1, 5, 9, 9), dtype=\"uint8\"), v: R.Tensor((6, 5, 3, 3), "
    "dtype=\"int8\"), f: R.Tensor((2, 3, 9, 9), dtype=\"float32\"), g: R.Tensor((4, 3, 3, 3), "
    "dtype=\"float32\"), p: R.Tensor((2, 9, 70), dtype=\"int8\"), q: R.Tensor((70, 66), "
    "dtype=\"int8\"), s: R.Tensor((9, 70), dtype=\"uint8\")):\n"
    "        with R.dataflow():\n"
    "            a = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])\n"
    "            b = R.matmul(y, z)\n"
    "            c = R.nn.conv2d(u, v, strides=[2, 2], padding=[1, 1, 1, 1], out_dtype=\"int32\")\n"
    "            d = R.nn.conv2d(f, g, padding=[1, 1, 1, 1])\n"
    "            e = R.matmul(p, q, out_dtype=\"int32\")\n"
    "            h = R.matmul(s, q, out_dtype=\"int32\")\n"
    "            gv = (a, b, c, d, e, h)\n"
    "            R.output(gv)\n"
    "        return gv\n";

/* The generated C carrying every kernel's text compiles with no warning
 * under -std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding at every
 * optimization level and x86 level that picks another form (vectors,
 * vpmaddwd with AVX2, vpdpbusd with VNNI), by gcc and clang, and by tcc:
 * gcc -O3 once warned of loops whose bounds it could not see once a
 * tile's constants were inlined.  Each header of rt/ is carried once. */
static void
test_generated_strict(void **state)
{
  (void)state;
  static const char *const kernels[] = { /* calls, as codegen writes them */
      "rxc_k_gemm_f32(&",        "rxc_k_gemm_i8i8_i32(&", "rxc_k_gemm_u8i8_i32(&",
      "rxc_k_gemm_i8u8_i32(&",   "rxc_k_gemm_i32i32_i32(&"};
  static const char *const flags[] = {"-O0", "-O2", "-O3", "-Os", "-O3 -march=x86-64-v3",
                                      "-O3 -march=x86-64-v4", "-O2 -march=native"};
  const char *rxc = getenv("RXC") ? getenv("RXC") : "build/rxc";
  char dir[] = "/tmp/rxc-kern-XXXXXX", cmd[1024], path[256];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/all.py", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(STRICT_MODULE, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s compile %s -o %s --set opt.kernels=true > /dev/null", rxc, path, dir);
  assert_int_equal(system(cmd), 0);
  snprintf(path, sizeof path, "%s/all.c", dir);
  f = fopen(path, "r");
  assert_non_null(f);
  static char text[1 << 20];
  size_t len = fread(text, 1, sizeof text - 1, f);
  text[len] = 0;
  fclose(f);
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
    if (!strstr(text, kernels[i]))
      fail_msg("the module calls no %s", kernels[i]);
  /* a header defining several of the kernels called is carried once */
  static const char *const guards[] = {"#define RXC_RT_KERN_GEMM_H", "#define RXC_RT_KERN_GEMM_INT_H"};
  for (size_t i = 0; i < sizeof guards / sizeof guards[0]; i++) {
    const char *at = strstr(text, guards[i]);
    assert_non_null(at);
    assert_null(strstr(at + 1, guards[i]));
  }
  bool x86 = false;
#if defined(__x86_64__)
  x86 = true;
#endif
  for (int c = 0; c < 2; c++) {
    const char *cc = c ? "clang" : "gcc";
    snprintf(cmd, sizeof cmd, "command -v %s > /dev/null", cc);
    if (system(cmd) != 0)
      continue;
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
      if (!x86 && strstr(flags[i], "-march=x86"))
        continue;
      snprintf(cmd, sizeof cmd,
               "%s -std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding %s -c -o %s/all.o %s",
               cc, flags[i], dir, path);
      int rc = system(cmd);
      if (rc)
        print_error("failed: %s\n", cmd);
      assert_int_equal(rc, 0);
    }
  }
  if (system("command -v tcc > /dev/null") == 0) {
    snprintf(cmd, sizeof cmd, "tcc -Wall -Werror -c -o %s/all.o %s", dir, path);
    assert_int_equal(system(cmd), 0);
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
}

/* The chosen copy is the first usable one, and a name not of rt/ has none. */
static void
test_chosen(void **state)
{
  (void)state;
  int n;
  const CgKernCopy *copies = cg_kern_copies(&n);
  int first = 0;
  while (first < n && !cg_kern_usable(&copies[first]))
    first++;
  assert_true(first < n);
  assert_string_equal(copies[first].kernel, "rxc_k_gemm_f32"); /* its copies first */
  assert_ptr_equal(cg_kern_chosen("rxc_k_gemm_f32"), copies[first].fn);
  assert_null(cg_kern_chosen("rxc_k_nothing"));
#if defined(__x86_64__)
  assert_string_equal(copies[n - 1].level, "x86-64"); /* the baseline, always usable */
#endif
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_copies_equal_scalar),
      cmocka_unit_test(test_int_copies_exact),
      cmocka_unit_test(test_int_wrap_reached),
      cmocka_unit_test(test_i32_copies_exact),
      cmocka_unit_test(test_im2col_copies_exact),
      cmocka_unit_test(test_conv_copies_exact),
      cmocka_unit_test(test_jit_conv_direct),
      cmocka_unit_test(test_generated_strict),
      cmocka_unit_test(test_chosen),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
