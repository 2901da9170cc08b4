/*
 * rt_kern_gemm_int.h - the register tile of an 8-bit integer product as one
 * kernel, the integer twin of rt_kern_gemm.h: int8 x int8, uint8 x int8
 * and int8 x uint8 operands summed into int32 (quantized models:
 * FakeQuantizationToInteger's int8 layers; a uint8 activation with int8
 * weights, which is A for a matmul and B for a conv2d), which LegalizeOps
 * calls from the loop nest it writes ([opt] kernels, ops/gemm.c):
 *   T.call_extern("void", "rxc_k_gemm_i8i8_i32", T.address_of(acc[0]),
 *                 T.address_of(A[..]), a_row, a_k, T.address_of(B[..]), b_k,
 *                 k, rows, cols)
 * (rxc_k_gemm_u8i8_i32 likewise with A uint8, rxc_k_gemm_i8u8_i32 B uint8;
 * rxc_k_gemm_i32i32_i32 for int32 operands, ONNX's integer operators'
 * products of operands less their zero points, each product wrapping).  The interpreter runs this very
 * definition (interp/tir.c), the generated C carries it as text.
 *
 * What it computes: for r < rows, c < cols,
 *   acc[r * cols + c] += sum over t < k of a[r * a_row + t * a_k] * b[t * b_k + c]
 * each product exact in int32 (8 bits times 8 bits), each addition
 * wrapping modulo 2^32 (through uint32, as the loops it replaces add:
 * op_nn_sum_add), so the result is the same whatever the order of the
 * terms: the kernel may sum them in any order and any grouping, and every
 * form below gives the loops' values exactly.
 *
 * Four forms, each reading exactly the elements the loops read:
 *  - scalar (tcc, which has no vectors): one row at a time, 8 sums in
 *    locals over all of k;
 *  - GNU C vectors (gcc, clang): 8 rows x 16 columns of uint32 sums, each
 *    B row widened to 16 lanes once per term;
 *  - AVX-512 VNNI (a compiler that defines __AVX512VNNI__ and
 *    __AVX512BW__: gcc -march=native on such a CPU, or librxc's vnni copy,
 *    codegen/kern.c), whose vpdpbusd adds four uint8 x int8 products to
 *    each int32 lane.  B's rows t..t+3 are interleaved byte by byte in
 *    registers so that a lane holds a column's four terms, A's four terms
 *    of a row are one broadcast 32-bit word.  uint8 x int8 is vpdpbusd's
 *    own signedness, int8 x uint8 swaps the operands; for int8 x int8 A
 *    is offset to uint8 (a ^ 0x80 is a + 128) and 128 times each
 *    column's sum of B (itself a vpdpbusd of ones) is taken off at the
 *    end: (a + 128) * b - 128 * b = a * b, exact modulo 2^32.  Terms
 *    past the last whole four and columns past the last whole 64 go to
 *    the vector form;
 *  - AVX2 without VNNI (__AVX2__: the v3 and v4 copies, gcc -march=
 *    x86-64-v3): vpmaddwd adds two int16 products a lane, B's rows t and
 *    t + 1 interleaved and widened to int16 (sign- or zero-extended), so
 *    every signedness is exact with no correction; blocks of 16 columns
 *    and two terms.
 *
 * Requires rt_types.h and rt_math_base.h (RXC_INLINE).  RXC_KERN_EXTERN
 * as in rt_kern_gemm.h; RXC_K_VECTOR from rt_kern_base.h; RXC_K_VNNI
 * and RXC_K_MADD, when defined first, pick those forms or not (0: never).
 */
#ifndef RXC_RT_KERN_GEMM_INT_H
#define RXC_RT_KERN_GEMM_INT_H

#ifdef RXC_KERN_EXTERN
void rxc_k_gemm_i8i8_i32(rxc_i32 *acc, const rxc_i8 *a, rxc_i64 a_row, rxc_i64 a_k,
                         const rxc_i8 *b, rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols);
void rxc_k_gemm_u8i8_i32(rxc_i32 *acc, const rxc_u8 *a, rxc_i64 a_row, rxc_i64 a_k,
                         const rxc_i8 *b, rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols);
void rxc_k_gemm_i8u8_i32(rxc_i32 *acc, const rxc_i8 *a, rxc_i64 a_row, rxc_i64 a_k,
                         const rxc_u8 *b, rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols);
void rxc_k_gemm_i32i32_i32(rxc_i32 *acc, const rxc_i32 *a, rxc_i64 a_row, rxc_i64 a_k,
                           const rxc_i32 *b, rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols);
#else

#ifndef RXC_RT_KERN_BASE_H
#include "rt_kern_base.h" /* a NAME.c carries it before its kernels */
#endif

#ifndef RXC_K_VNNI
#if RXC_K_VECTOR && defined(__AVX512VNNI__) && defined(__AVX512BW__)
#define RXC_K_VNNI 1
#else
#define RXC_K_VNNI 0
#endif
#endif

#ifndef RXC_K_MADD
#if RXC_K_VECTOR && defined(__AVX2__) && !RXC_K_VNNI
#define RXC_K_MADD 1
#else
#define RXC_K_MADD 0
#endif
#endif

/* A's and B's elements are read through signed char pointers and masked:
 * a mask of 0xff reads them as uint8, -1 as int8 (one AND, no branch). */

#if RXC_K_VECTOR
/* 16 uint32 sums, 16 int8 at any address */
typedef rxc_u32 rxc_k_u32x16 __attribute__((vector_size(64), aligned(4), may_alias));
typedef rxc_i32 rxc_k_i32x16 __attribute__((vector_size(64), aligned(4), may_alias));
typedef rxc_i8 rxc_k_i8x16 __attribute__((vector_size(16), aligned(1), may_alias));

/* B's row t, columns [0, 16), widened to uint32 lanes (sign-extended) */
#define RXC_K_WIDEN(p)                                                                             \
  ((rxc_k_u32x16)__builtin_convertvector(*(const rxc_k_i8x16 *)(p), rxc_k_i32x16) & (rxc_u32)b_mask)

/* acc rows [0, 8), columns [0, 16): 8 chains of vectors */
RXC_INLINE void
rxc_k_gemm_i32_8x16(rxc_i32 *acc, const rxc_i8 *a, rxc_i32 a_mask, rxc_i64 a_row, rxc_i64 a_k,
                    const rxc_i8 *b, rxc_i32 b_mask, rxc_i64 b_k, rxc_i64 k, rxc_i64 cols)
{
  rxc_k_u32x16 s0 = *(rxc_k_u32x16 *)(acc + 0 * cols), s1 = *(rxc_k_u32x16 *)(acc + 1 * cols);
  rxc_k_u32x16 s2 = *(rxc_k_u32x16 *)(acc + 2 * cols), s3 = *(rxc_k_u32x16 *)(acc + 3 * cols);
  rxc_k_u32x16 s4 = *(rxc_k_u32x16 *)(acc + 4 * cols), s5 = *(rxc_k_u32x16 *)(acc + 5 * cols);
  rxc_k_u32x16 s6 = *(rxc_k_u32x16 *)(acc + 6 * cols), s7 = *(rxc_k_u32x16 *)(acc + 7 * cols);
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    const rxc_i8 *at = a + t * a_k;
    rxc_k_u32x16 v = RXC_K_WIDEN(b + t * b_k);
    s0 += (rxc_u32)(at[0 * a_row] & a_mask) * v;
    s1 += (rxc_u32)(at[1 * a_row] & a_mask) * v;
    s2 += (rxc_u32)(at[2 * a_row] & a_mask) * v;
    s3 += (rxc_u32)(at[3 * a_row] & a_mask) * v;
    s4 += (rxc_u32)(at[4 * a_row] & a_mask) * v;
    s5 += (rxc_u32)(at[5 * a_row] & a_mask) * v;
    s6 += (rxc_u32)(at[6 * a_row] & a_mask) * v;
    s7 += (rxc_u32)(at[7 * a_row] & a_mask) * v;
  }
  *(rxc_k_u32x16 *)(acc + 0 * cols) = s0;
  *(rxc_k_u32x16 *)(acc + 1 * cols) = s1;
  *(rxc_k_u32x16 *)(acc + 2 * cols) = s2;
  *(rxc_k_u32x16 *)(acc + 3 * cols) = s3;
  *(rxc_k_u32x16 *)(acc + 4 * cols) = s4;
  *(rxc_k_u32x16 *)(acc + 5 * cols) = s5;
  *(rxc_k_u32x16 *)(acc + 6 * cols) = s6;
  *(rxc_k_u32x16 *)(acc + 7 * cols) = s7;
}

/* one row, columns [0, 16) */
RXC_INLINE void
rxc_k_gemm_i32_1x16(rxc_i32 *acc, const rxc_i8 *a, rxc_i32 a_mask, rxc_i64 a_k, const rxc_i8 *b,
                    rxc_i32 b_mask, rxc_i64 b_k, rxc_i64 k)
{
  rxc_k_u32x16 s = *(rxc_k_u32x16 *)acc;
  rxc_i64 t;
  for (t = 0; t < k; t++)
    s += (rxc_u32)(a[t * a_k] & a_mask) * RXC_K_WIDEN(b + t * b_k);
  *(rxc_k_u32x16 *)acc = s;
}
#undef RXC_K_WIDEN
#endif

/* one row, columns [0, 8): 8 sums in locals over all of k */
RXC_INLINE void
rxc_k_gemm_i32_1x8(rxc_i32 *acc, const rxc_i8 *a, rxc_i32 a_mask, rxc_i64 a_k, const rxc_i8 *b,
                   rxc_i32 b_mask, rxc_i64 b_k, rxc_i64 k)
{
  rxc_u32 s0 = (rxc_u32)acc[0], s1 = (rxc_u32)acc[1], s2 = (rxc_u32)acc[2], s3 = (rxc_u32)acc[3];
  rxc_u32 s4 = (rxc_u32)acc[4], s5 = (rxc_u32)acc[5], s6 = (rxc_u32)acc[6], s7 = (rxc_u32)acc[7];
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    rxc_i32 x = *a & a_mask;
    s0 += (rxc_u32)(x * (b[0] & b_mask));
    s1 += (rxc_u32)(x * (b[1] & b_mask));
    s2 += (rxc_u32)(x * (b[2] & b_mask));
    s3 += (rxc_u32)(x * (b[3] & b_mask));
    s4 += (rxc_u32)(x * (b[4] & b_mask));
    s5 += (rxc_u32)(x * (b[5] & b_mask));
    s6 += (rxc_u32)(x * (b[6] & b_mask));
    s7 += (rxc_u32)(x * (b[7] & b_mask));
    a += a_k;
    b += b_k;
  }
  acc[0] = (rxc_i32)s0;
  acc[1] = (rxc_i32)s1;
  acc[2] = (rxc_i32)s2;
  acc[3] = (rxc_i32)s3;
  acc[4] = (rxc_i32)s4;
  acc[5] = (rxc_i32)s5;
  acc[6] = (rxc_i32)s6;
  acc[7] = (rxc_i32)s7;
}

/* One column's sum alone: acc += sum over t of a[t * a_k] * b[t * b_k]. */
RXC_INLINE void
rxc_k_gemm_i32_1x1(rxc_i32 *acc, const rxc_i8 *a, rxc_i32 a_mask, rxc_i64 a_k, const rxc_i8 *b,
                   rxc_i32 b_mask, rxc_i64 b_k, rxc_i64 k)
{
  rxc_u32 s = (rxc_u32)*acc;
  rxc_i64 t;
  for (t = 0; t < k; t++)
    s += (rxc_u32)((a[t * a_k] & a_mask) * (b[t * b_k] & b_mask));
  *acc = (rxc_i32)s;
}

/* The vector (or scalar) form of the kernel, acc's rows acc_row apart
 * (cols, or more where the caller took the last columns apart). */
RXC_INLINE void
rxc_k_gemm_i32_loops(rxc_i32 *acc, rxc_i64 acc_row, const rxc_i8 *a, rxc_i32 a_mask,
                     rxc_i64 a_row, rxc_i64 a_k, const rxc_i8 *b, rxc_i32 b_mask, rxc_i64 b_k,
                     rxc_i64 k, rxc_i64 rows, rxc_i64 cols)
{
  rxc_i64 r = 0, c, u;
#if RXC_K_VECTOR
  for (; r + 8 <= rows; r += 8) {
    for (c = 0; c + 16 <= cols; c += 16)
      rxc_k_gemm_i32_8x16(acc + r * acc_row + c, a + r * a_row, a_mask, a_row, a_k, b + c, b_mask,
                          b_k, k, acc_row);
    for (u = r; u < r + 8; u++) /* the columns left over, each row's sums alone */
      for (c = cols - cols % 16; c < cols; c++)
        rxc_k_gemm_i32_1x1(acc + u * acc_row + c, a + u * a_row, a_mask, a_k, b + c, b_mask, b_k,
                           k);
  }
#endif
  /* the rows left over start where written out (rt_kern_gemm.h's float
   * kernel says why) */
  for (r = RXC_K_VECTOR ? rows - rows % 8 : 0; r < rows; r++) {
    rxc_i32 *s = acc + r * acc_row;
    const rxc_i8 *ar = a + r * a_row;
    c = 0;
#if RXC_K_VECTOR
    for (; c + 16 <= cols; c += 16)
      rxc_k_gemm_i32_1x16(s + c, ar, a_mask, a_k, b + c, b_mask, b_k, k);
#endif
    for (; c + 8 <= cols; c += 8)
      rxc_k_gemm_i32_1x8(s + c, ar, a_mask, a_k, b + c, b_mask, b_k, k);
    for (; c < cols; c++)
      rxc_k_gemm_i32_1x1(s + c, ar, a_mask, a_k, b + c, b_mask, b_k, k);
  }
  (void)u;
}

/* --- int32 x int32 -> int32 (ONNX's integer operators: operands widened
 * to int32 less their zero points) -------------------------------------- */

#if RXC_K_VECTOR
/* acc rows [0, 8), columns [0, 16), int32 operands, products wrapping */
RXC_INLINE void
rxc_k_gemm_w32_8x16(rxc_i32 *acc, const rxc_i32 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_i32 *b,
                    rxc_i64 b_k, rxc_i64 k, rxc_i64 cols)
{
  rxc_k_u32x16 s0 = *(rxc_k_u32x16 *)(acc + 0 * cols), s1 = *(rxc_k_u32x16 *)(acc + 1 * cols);
  rxc_k_u32x16 s2 = *(rxc_k_u32x16 *)(acc + 2 * cols), s3 = *(rxc_k_u32x16 *)(acc + 3 * cols);
  rxc_k_u32x16 s4 = *(rxc_k_u32x16 *)(acc + 4 * cols), s5 = *(rxc_k_u32x16 *)(acc + 5 * cols);
  rxc_k_u32x16 s6 = *(rxc_k_u32x16 *)(acc + 6 * cols), s7 = *(rxc_k_u32x16 *)(acc + 7 * cols);
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    const rxc_i32 *at = a + t * a_k;
    rxc_k_u32x16 v = *(const rxc_k_u32x16 *)(b + t * b_k);
    s0 += (rxc_u32)at[0 * a_row] * v;
    s1 += (rxc_u32)at[1 * a_row] * v;
    s2 += (rxc_u32)at[2 * a_row] * v;
    s3 += (rxc_u32)at[3 * a_row] * v;
    s4 += (rxc_u32)at[4 * a_row] * v;
    s5 += (rxc_u32)at[5 * a_row] * v;
    s6 += (rxc_u32)at[6 * a_row] * v;
    s7 += (rxc_u32)at[7 * a_row] * v;
  }
  *(rxc_k_u32x16 *)(acc + 0 * cols) = s0;
  *(rxc_k_u32x16 *)(acc + 1 * cols) = s1;
  *(rxc_k_u32x16 *)(acc + 2 * cols) = s2;
  *(rxc_k_u32x16 *)(acc + 3 * cols) = s3;
  *(rxc_k_u32x16 *)(acc + 4 * cols) = s4;
  *(rxc_k_u32x16 *)(acc + 5 * cols) = s5;
  *(rxc_k_u32x16 *)(acc + 6 * cols) = s6;
  *(rxc_k_u32x16 *)(acc + 7 * cols) = s7;
}

/* one row, columns [0, 16) */
RXC_INLINE void
rxc_k_gemm_w32_1x16(rxc_i32 *acc, const rxc_i32 *a, rxc_i64 a_k, const rxc_i32 *b, rxc_i64 b_k,
                    rxc_i64 k)
{
  rxc_k_u32x16 s = *(rxc_k_u32x16 *)acc;
  rxc_i64 t;
  for (t = 0; t < k; t++)
    s += (rxc_u32)a[t * a_k] * *(const rxc_k_u32x16 *)(b + t * b_k);
  *(rxc_k_u32x16 *)acc = s;
}
#endif

/* one row, columns [0, 4): 4 sums in locals over all of k */
RXC_INLINE void
rxc_k_gemm_w32_1x4(rxc_i32 *acc, const rxc_i32 *a, rxc_i64 a_k, const rxc_i32 *b, rxc_i64 b_k,
                   rxc_i64 k)
{
  rxc_u32 s0 = (rxc_u32)acc[0], s1 = (rxc_u32)acc[1], s2 = (rxc_u32)acc[2], s3 = (rxc_u32)acc[3];
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    rxc_u32 x = (rxc_u32)*a;
    s0 += x * (rxc_u32)b[0];
    s1 += x * (rxc_u32)b[1];
    s2 += x * (rxc_u32)b[2];
    s3 += x * (rxc_u32)b[3];
    a += a_k;
    b += b_k;
  }
  acc[0] = (rxc_i32)s0;
  acc[1] = (rxc_i32)s1;
  acc[2] = (rxc_i32)s2;
  acc[3] = (rxc_i32)s3;
}

/* acc[r * cols + c] += sum over t of a[r * a_row + t * a_k] * b[t * b_k + c]
 * for int32 operands, each product and sum wrapping modulo 2^32 (through
 * uint32, as the loops compute them: op_nn_product, op_nn_sum_add). */
RXC_INLINE void
rxc_k_gemm_i32i32_i32(rxc_i32 *acc, const rxc_i32 *a, rxc_i64 a_row, rxc_i64 a_k,
                      const rxc_i32 *b, rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols)
{
  rxc_i64 r = 0, c, t;
#if RXC_K_VECTOR
  for (; r + 8 <= rows; r += 8)
    for (c = 0; c + 16 <= cols; c += 16)
      rxc_k_gemm_w32_8x16(acc + r * cols + c, a + r * a_row, a_row, a_k, b + c, b_k, k, cols);
  if (cols % 16) /* the columns the 8-row blocks left, one row at a time */
    for (t = 0; t < r; t++)
      for (c = cols - cols % 16; c < cols; c++) {
        rxc_u32 s = (rxc_u32)acc[t * cols + c];
        rxc_i64 u;
        for (u = 0; u < k; u++)
          s += (rxc_u32)a[t * a_row + u * a_k] * (rxc_u32)b[u * b_k + c];
        acc[t * cols + c] = (rxc_i32)s;
      }
#endif
  for (r = RXC_K_VECTOR ? rows - rows % 8 : 0; r < rows; r++) {
    rxc_i32 *s = acc + r * cols;
    const rxc_i32 *ar = a + r * a_row;
    c = 0;
#if RXC_K_VECTOR
    for (; c + 16 <= cols; c += 16)
      rxc_k_gemm_w32_1x16(s + c, ar, a_k, b + c, b_k, k);
#endif
    for (; c + 4 <= cols; c += 4)
      rxc_k_gemm_w32_1x4(s + c, ar, a_k, b + c, b_k, k);
    for (; c < cols; c++) {
      rxc_u32 one = (rxc_u32)s[c];
      for (t = 0; t < k; t++)
        one += (rxc_u32)ar[t * a_k] * (rxc_u32)b[t * b_k + c];
      s[c] = (rxc_i32)one;
    }
  }
}

#if RXC_K_VNNI || RXC_K_MADD
#include <immintrin.h>
#endif

#if RXC_K_MADD
/* rows [0, nr) (nr 1 to 4, a constant where inlined), columns [0, 16),
 * terms [0, k2) (a multiple of 2) by vpmaddwd: B's rows t and t + 1
 * interleaved byte by byte and widened to int16 (sign- or zero-extended:
 * b_unsigned), so a 32-bit lane holds a column's two terms in column
 * order; A's two terms one broadcast word of two int16.  Each lane adds
 * two exact products (at most 2 * 255 * 128 in magnitude), whatever the
 * signedness, so nothing needs correcting. */
RXC_INLINE void
rxc_k_gemm_i32_madd(rxc_i32 *acc, const rxc_i8 *a, rxc_i32 a_mask, rxc_i64 a_row, rxc_i64 a_k,
                    const rxc_i8 *b, int b_unsigned, rxc_i64 b_k, rxc_i64 k2, rxc_i64 cols, int nr)
{
  __m256i s[4][2];
  int j;
  rxc_i64 t;
  for (j = 0; j < 4; j++)
    s[j][0] = s[j][1] = _mm256_setzero_si256();
  for (t = 0; t < k2; t += 2) {
    __m128i b0 = _mm_loadu_si128((const __m128i *)(b + t * b_k));
    __m128i b1 = _mm_loadu_si128((const __m128i *)(b + (t + 1) * b_k));
    __m128i lo = _mm_unpacklo_epi8(b0, b1), hi = _mm_unpackhi_epi8(b0, b1);
    __m256i p0 = b_unsigned ? _mm256_cvtepu8_epi16(lo) : _mm256_cvtepi8_epi16(lo);
    __m256i p1 = b_unsigned ? _mm256_cvtepu8_epi16(hi) : _mm256_cvtepi8_epi16(hi);
    for (j = 0; j < 4; j++)
      if (j < nr) {
        const rxc_i8 *at = a + j * a_row + t * a_k;
        rxc_u32 w = (rxc_u32)(rxc_u16)(at[0] & a_mask) | (rxc_u32)(at[a_k] & a_mask) << 16;
        __m256i q = _mm256_set1_epi32((int)w);
        s[j][0] = _mm256_add_epi32(s[j][0], _mm256_madd_epi16(q, p0));
        s[j][1] = _mm256_add_epi32(s[j][1], _mm256_madd_epi16(q, p1));
      }
  }
  for (j = 0; j < 4; j++)
    if (j < nr) {
      __m256i *row = (__m256i *)(acc + j * cols);
      _mm256_storeu_si256(row, _mm256_add_epi32(_mm256_loadu_si256(row), s[j][0]));
      _mm256_storeu_si256(row + 1, _mm256_add_epi32(_mm256_loadu_si256(row + 1), s[j][1]));
    }
}
#endif

#if RXC_K_VNNI

/* The signedness of the operands, which says how vpdpbusd (uint8 x int8)
 * takes them. */
enum {
  RXC_K_US = 0, /* A uint8, B int8: vpdpbusd's own */
  RXC_K_SS = 1, /* both int8: A + 128 as uint8, 128 * sum of B taken off */
  RXC_K_SU = 2  /* A int8, B uint8: the operands swapped */
};

/* Terms t..t+3 of a row of A as one word of four bytes, term t lowest
 * (vpdpbusd's order), XORed with flip. */
RXC_INLINE int
rxc_k_gemm_i32_quad(const rxc_i8 *a, rxc_i64 a_k, rxc_u32 flip)
{
  rxc_u32 w = (rxc_u32)(rxc_u8)a[0] | (rxc_u32)(rxc_u8)a[a_k] << 8 |
              (rxc_u32)(rxc_u8)a[2 * a_k] << 16 | (rxc_u32)(rxc_u8)a[3 * a_k] << 24;
  return (int)(w ^ flip);
}

/* rows [0, nr) (nr 1 to 4, a constant where inlined), columns [0, 64),
 * terms [0, k4) (a multiple of 4) by vpdpbusd, signs an RXC_K_ value.
 * Lane j of sum vector i (128 bits: 4 columns) holds columns
 * 16 j + 4 i + [0, 4): the order the byte and word interleaves leave B's
 * columns in. */
RXC_INLINE void
rxc_k_gemm_i32_vnni(rxc_i32 *acc, const rxc_i8 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_i8 *b,
                    rxc_i64 b_k, rxc_i64 k4, rxc_i64 cols, int signs, int nr)
{
  __m512i s[4][4], sum_b[4], ones = _mm512_set1_epi8(1);
  rxc_u32 flip = signs == RXC_K_SS ? 0x80808080u : 0;
  rxc_i32 lanes[64];
  int i, j, x;
  rxc_i64 t;
  for (i = 0; i < 4; i++) {
    sum_b[i] = _mm512_setzero_si512();
    for (j = 0; j < 4; j++)
      s[j][i] = _mm512_setzero_si512();
  }
  for (t = 0; t < k4; t += 4) {
    const rxc_i8 *bt = b + t * b_k;
    __m512i b0 = _mm512_loadu_si512(bt), b1 = _mm512_loadu_si512(bt + b_k);
    __m512i b2 = _mm512_loadu_si512(bt + 2 * b_k), b3 = _mm512_loadu_si512(bt + 3 * b_k);
    __m512i lo01 = _mm512_unpacklo_epi8(b0, b1), hi01 = _mm512_unpackhi_epi8(b0, b1);
    __m512i lo23 = _mm512_unpacklo_epi8(b2, b3), hi23 = _mm512_unpackhi_epi8(b2, b3);
    __m512i p[4];
    p[0] = _mm512_unpacklo_epi16(lo01, lo23);
    p[1] = _mm512_unpackhi_epi16(lo01, lo23);
    p[2] = _mm512_unpacklo_epi16(hi01, hi23);
    p[3] = _mm512_unpackhi_epi16(hi01, hi23);
    if (signs == RXC_K_SS)
      for (i = 0; i < 4; i++)
        sum_b[i] = _mm512_dpbusd_epi32(sum_b[i], ones, p[i]);
    for (j = 0; j < 4; j++)
      if (j < nr) {
        __m512i q = _mm512_set1_epi32(rxc_k_gemm_i32_quad(a + j * a_row + t * a_k, a_k, flip));
        for (i = 0; i < 4; i++)
          s[j][i] = signs == RXC_K_SU ? _mm512_dpbusd_epi32(s[j][i], p[i], q)
                                      : _mm512_dpbusd_epi32(s[j][i], q, p[i]);
      }
  }
  for (j = 0; j < 4; j++)
    if (j < nr) {
      for (i = 0; i < 4; i++) {
        /* (a + 128) * b summed, less 128 times b's sum: a * b */
        __m512i v = signs == RXC_K_SS ? _mm512_sub_epi32(s[j][i], _mm512_slli_epi32(sum_b[i], 7))
                                      : s[j][i];
        _mm_storeu_si128((__m128i *)(lanes + 4 * i + 0), _mm512_extracti32x4_epi32(v, 0));
        _mm_storeu_si128((__m128i *)(lanes + 4 * i + 16), _mm512_extracti32x4_epi32(v, 1));
        _mm_storeu_si128((__m128i *)(lanes + 4 * i + 32), _mm512_extracti32x4_epi32(v, 2));
        _mm_storeu_si128((__m128i *)(lanes + 4 * i + 48), _mm512_extracti32x4_epi32(v, 3));
      }
      for (x = 0; x < 64; x++)
        acc[j * cols + x] = (rxc_i32)((rxc_u32)acc[j * cols + x] + (rxc_u32)lanes[x]);
    }
}
#endif

#if RXC_K_VNNI || RXC_K_MADD
/* The kernel by blocks of rows x 64 columns x 4 terms (vpdpbusd) or x 16
 * columns x 2 terms (vpmaddwd), the vector form for the terms and
 * columns past the last whole block. */
RXC_INLINE void
rxc_k_gemm_i32_blocks(rxc_i32 *acc, const rxc_i8 *a, rxc_i32 a_mask, rxc_i64 a_row, rxc_i64 a_k,
                      const rxc_i8 *b, rxc_i32 b_mask, rxc_i64 b_k, rxc_i64 k, rxc_i64 rows,
                      rxc_i64 cols)
{
#if RXC_K_VNNI
  const rxc_i64 width = 64, terms = 4;
  int signs = a_mask == 0xff ? RXC_K_US : b_mask == 0xff ? RXC_K_SU : RXC_K_SS;
#else
  const rxc_i64 width = 16, terms = 2;
#endif
  rxc_i64 kb = k / terms * terms, cb = cols / width * width, r, c;
  for (c = 0; kb && c < cb; c += width)
    for (r = 0; r < rows;) { /* 4 rows at a time, then one */
      rxc_i32 *s = acc + r * cols + c;
      const rxc_i8 *ar = a + r * a_row;
#if RXC_K_VNNI
      if (rows - r >= 4)
        rxc_k_gemm_i32_vnni(s, ar, a_row, a_k, b + c, b_k, kb, cols, signs, 4);
      else
        rxc_k_gemm_i32_vnni(s, ar, a_row, a_k, b + c, b_k, kb, cols, signs, 1);
#else
      if (rows - r >= 4)
        rxc_k_gemm_i32_madd(s, ar, a_mask, a_row, a_k, b + c, b_mask == 0xff, b_k, kb, cols, 4);
      else
        rxc_k_gemm_i32_madd(s, ar, a_mask, a_row, a_k, b + c, b_mask == 0xff, b_k, kb, cols, 1);
#endif
      r += rows - r >= 4 ? 4 : 1;
    }
  if (!cb)
    kb = 0;
  if (kb < k) /* the last terms, every column */
    rxc_k_gemm_i32_loops(acc, cols, a + kb * a_k, a_mask, a_row, a_k, b + kb * b_k, b_mask, b_k,
                         k - kb, rows, cb);
  if (cb < cols) /* the last columns, every term */
    rxc_k_gemm_i32_loops(acc + cb, cols, a, a_mask, a_row, a_k, b + cb, b_mask, b_k, k, rows,
                         cols - cb);
}
#endif

/* The kernel for A's and B's signedness (masks: 0xff uint8, -1 int8). */
RXC_INLINE void
rxc_k_gemm_i32(rxc_i32 *acc, const rxc_i8 *a, rxc_i32 a_mask, rxc_i64 a_row, rxc_i64 a_k,
               const rxc_i8 *b, rxc_i32 b_mask, rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols)
{
#if RXC_K_VNNI || RXC_K_MADD
  rxc_k_gemm_i32_blocks(acc, a, a_mask, a_row, a_k, b, b_mask, b_k, k, rows, cols);
#else
  rxc_k_gemm_i32_loops(acc, cols, a, a_mask, a_row, a_k, b, b_mask, b_k, k, rows, cols);
#endif
}

/* acc[r * cols + c] += sum over t of a[r * a_row + t * a_k] * b[t * b_k + c]
 * for r < rows, c < cols, t < k, wrapping modulo 2^32 (the file comment).
 * acc shares no element with a or b. */
RXC_INLINE void
rxc_k_gemm_i8i8_i32(rxc_i32 *acc, const rxc_i8 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_i8 *b,
                    rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols)
{
  rxc_k_gemm_i32(acc, a, -1, a_row, a_k, b, -1, b_k, k, rows, cols);
}

/* The same with A uint8 (a uint8 activation times int8 weights). */
RXC_INLINE void
rxc_k_gemm_u8i8_i32(rxc_i32 *acc, const rxc_u8 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_i8 *b,
                    rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols)
{
  rxc_k_gemm_i32(acc, (const rxc_i8 *)a, 0xff, a_row, a_k, b, -1, b_k, k, rows, cols);
}

/* The same with B uint8 (int8 weights times a uint8 activation: conv2d's
 * A is the weight matrix). */
RXC_INLINE void
rxc_k_gemm_i8u8_i32(rxc_i32 *acc, const rxc_i8 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_u8 *b,
                    rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols)
{
  rxc_k_gemm_i32(acc, a, -1, a_row, a_k, (const rxc_i8 *)b, 0xff, b_k, k, rows, cols);
}
#endif /* RXC_KERN_EXTERN */

#endif /* RXC_RT_KERN_GEMM_INT_H */
