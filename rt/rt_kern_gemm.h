/*
 * rt_kern_gemm.h - the register tile of a float32 product as one kernel,
 * rxc_k_gemm_f32, which LegalizeOps calls from the loop nest it writes
 * ([opt] kernels, ops/gemm.c) through the TIR intrinsic
 *   T.call_extern("void", "rxc_k_gemm_f32", T.address_of(acc[0]),
 *                 T.address_of(A[..]), a_row, a_k, T.address_of(B[..]), b_k,
 *                 k, rows, cols)
 * The interpreter runs this very definition (interp/tir.c includes this
 * header), the generated C carries it as text (codegen/runtime.c), so the
 * two cannot drift apart.
 *
 * What it computes: for r < rows, c < cols,
 *   acc[r * cols + c] += sum over t < k of a[r * a_row + t * a_k] * b[t * b_k + c]
 * each accumulator summed in float32 with t ascending, one rounded
 * multiply and one rounded add per term: the order of the loop nest it
 * replaces (for t: for r: for c: acc = acc + a * b), so a C compiler that
 * does not contract a * b + acc into a fused multiply-add gives the same
 * bits either way.  gcc contracts by default outside ISO mode when -march
 * has FMA (-ffp-contract=fast), and then the bits may differ: rt/README.md
 * ("Kernels") lists which builds give the interpreter's bits.
 *
 * Key idea: the order of the terms is fixed per accumulator, never across
 * accumulators, so the kernel is free to hold a block of sums in vector
 * registers.  Where the compiler has GNU C vector extensions (gcc, clang)
 * a sum is a vector of RXC_K_COLS floats (16, 8 or 4, as wide as the
 * target's registers), 8 rows at a time (8 independent chains, one
 * broadcast of a and one load of b per row and term); tcc has
 * none, and gets the scalar form.  Both read and write exactly the same
 * elements.  Vector loads and stores go through a 4-byte-aligned,
 * may_alias vector type: any float address works, and no memcpy is called.
 *
 * Requires rt_types.h and rt_math_base.h (RXC_INLINE).  Only a NAME.c
 * whose kernels call it carries it.
 *
 * With RXC_KERN_EXTERN defined, the header is one prototype and no body:
 * the definition comes from elsewhere.  The libtcc JIT defines it before
 * the text and binds the name to a copy precompiled into librxc at -O3
 * for the CPU's x86 level (codegen/kern.c); a build that links its own
 * copy may define it too.  RXC_K_VECTOR picks the form and the float
 * vectors come from rt_kern_base.h (included here unless carried
 * already).
 */
#ifndef RXC_RT_KERN_GEMM_H
#define RXC_RT_KERN_GEMM_H

#ifdef RXC_KERN_EXTERN
void rxc_k_gemm_f32(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_f32 *b,
                    rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols);
void rxc_k_conv_f32(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_f32 *b,
                    rxc_i64 b_c, rxc_i64 channels, rxc_i64 kh, rxc_i64 kw, rxc_i64 y_step,
                    rxc_i64 x_step, rxc_i64 rows, rxc_i64 cols, rxc_i64 fresh);
#else

#ifndef RXC_RT_KERN_BASE_H
#include "rt_kern_base.h" /* a NAME.c carries it before its kernels */
#endif

/* RXC_K_COLS: the columns an 8-row block holds in one vector a row, as
 * wide as the target's vector registers: 16 floats with AVX-512 (32
 * registers), 8 with AVX, else 4.  A 16-float vector on a narrower
 * target is split by the compiler into 2 or 4, and 8 rows of them no
 * longer fit 16 registers: under gcc 12 -O3 -march=x86-64-v3 squeezenet1_1
 * took 44 ms (resnet18 229 ms) against its loops' 11 ms (53 ms).  The
 * one-row blocks of 64 columns (4 vectors of 16) are kept for AVX-512
 * for the same reason. */
#ifndef RXC_K_COLS
#if defined(__AVX512F__)
#define RXC_K_COLS 16
#elif defined(__AVX__)
#define RXC_K_COLS 8
#else
#define RXC_K_COLS 4
#endif
#endif

#if RXC_K_VECTOR
/* RXC_K_COLS floats: the 8-row blocks' vectors */
typedef float rxc_k_f32xv __attribute__((vector_size(4 * RXC_K_COLS), aligned(4), may_alias));

/* acc rows [r0, r0 + 8), columns [c, c + RXC_K_COLS): 8 chains of vectors */
RXC_INLINE void
rxc_k_gemm_f32_8xv(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k,
                   const rxc_f32 *b, rxc_i64 b_k, rxc_i64 k, rxc_i64 cols)
{
  rxc_k_f32xv s0 = *(rxc_k_f32xv *)(acc + 0 * cols), s1 = *(rxc_k_f32xv *)(acc + 1 * cols);
  rxc_k_f32xv s2 = *(rxc_k_f32xv *)(acc + 2 * cols), s3 = *(rxc_k_f32xv *)(acc + 3 * cols);
  rxc_k_f32xv s4 = *(rxc_k_f32xv *)(acc + 4 * cols), s5 = *(rxc_k_f32xv *)(acc + 5 * cols);
  rxc_k_f32xv s6 = *(rxc_k_f32xv *)(acc + 6 * cols), s7 = *(rxc_k_f32xv *)(acc + 7 * cols);
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    const rxc_f32 *at = a + t * a_k;
    rxc_k_f32xv v = *(const rxc_k_f32xv *)(b + t * b_k);
    s0 = s0 + at[0 * a_row] * v;
    s1 = s1 + at[1 * a_row] * v;
    s2 = s2 + at[2 * a_row] * v;
    s3 = s3 + at[3 * a_row] * v;
    s4 = s4 + at[4 * a_row] * v;
    s5 = s5 + at[5 * a_row] * v;
    s6 = s6 + at[6 * a_row] * v;
    s7 = s7 + at[7 * a_row] * v;
  }
  *(rxc_k_f32xv *)(acc + 0 * cols) = s0;
  *(rxc_k_f32xv *)(acc + 1 * cols) = s1;
  *(rxc_k_f32xv *)(acc + 2 * cols) = s2;
  *(rxc_k_f32xv *)(acc + 3 * cols) = s3;
  *(rxc_k_f32xv *)(acc + 4 * cols) = s4;
  *(rxc_k_f32xv *)(acc + 5 * cols) = s5;
  *(rxc_k_f32xv *)(acc + 6 * cols) = s6;
  *(rxc_k_f32xv *)(acc + 7 * cols) = s7;
}

/* acc rows [r0, r0 + 8), columns [c, c + 2 * RXC_K_COLS): 16 chains, two
 * vectors a row.  A term's 8 broadcasts of a then serve 16 multiply-adds
 * instead of 8, and 16 independent sums cover the latency of a
 * multiply-add on CPUs that start two a cycle (8 sums leave them
 * waiting): 8 x 32 floats ran 206 GFLOP/s against 8 x 16's 179 from L1
 * (k 384, gcc 12 -O3 -march=native, this project's AVX-512 EPYC). */
RXC_INLINE void
rxc_k_gemm_f32_8x2v(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k,
                    const rxc_f32 *b, rxc_i64 b_k, rxc_i64 k, rxc_i64 cols)
{
  rxc_f32 *u = acc + RXC_K_COLS;
  rxc_k_f32xv s0 = *(rxc_k_f32xv *)(acc + 0 * cols), s1 = *(rxc_k_f32xv *)(acc + 1 * cols);
  rxc_k_f32xv s2 = *(rxc_k_f32xv *)(acc + 2 * cols), s3 = *(rxc_k_f32xv *)(acc + 3 * cols);
  rxc_k_f32xv s4 = *(rxc_k_f32xv *)(acc + 4 * cols), s5 = *(rxc_k_f32xv *)(acc + 5 * cols);
  rxc_k_f32xv s6 = *(rxc_k_f32xv *)(acc + 6 * cols), s7 = *(rxc_k_f32xv *)(acc + 7 * cols);
  rxc_k_f32xv u0 = *(rxc_k_f32xv *)(u + 0 * cols), u1 = *(rxc_k_f32xv *)(u + 1 * cols);
  rxc_k_f32xv u2 = *(rxc_k_f32xv *)(u + 2 * cols), u3 = *(rxc_k_f32xv *)(u + 3 * cols);
  rxc_k_f32xv u4 = *(rxc_k_f32xv *)(u + 4 * cols), u5 = *(rxc_k_f32xv *)(u + 5 * cols);
  rxc_k_f32xv u6 = *(rxc_k_f32xv *)(u + 6 * cols), u7 = *(rxc_k_f32xv *)(u + 7 * cols);
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    const rxc_f32 *at = a + t * a_k;
    rxc_k_f32xv v = *(const rxc_k_f32xv *)(b + t * b_k);
    rxc_k_f32xv w = *(const rxc_k_f32xv *)(b + t * b_k + RXC_K_COLS);
    rxc_f32 x;
    x = at[0 * a_row], s0 = s0 + x * v, u0 = u0 + x * w;
    x = at[1 * a_row], s1 = s1 + x * v, u1 = u1 + x * w;
    x = at[2 * a_row], s2 = s2 + x * v, u2 = u2 + x * w;
    x = at[3 * a_row], s3 = s3 + x * v, u3 = u3 + x * w;
    x = at[4 * a_row], s4 = s4 + x * v, u4 = u4 + x * w;
    x = at[5 * a_row], s5 = s5 + x * v, u5 = u5 + x * w;
    x = at[6 * a_row], s6 = s6 + x * v, u6 = u6 + x * w;
    x = at[7 * a_row], s7 = s7 + x * v, u7 = u7 + x * w;
  }
  *(rxc_k_f32xv *)(acc + 0 * cols) = s0;
  *(rxc_k_f32xv *)(acc + 1 * cols) = s1;
  *(rxc_k_f32xv *)(acc + 2 * cols) = s2;
  *(rxc_k_f32xv *)(acc + 3 * cols) = s3;
  *(rxc_k_f32xv *)(acc + 4 * cols) = s4;
  *(rxc_k_f32xv *)(acc + 5 * cols) = s5;
  *(rxc_k_f32xv *)(acc + 6 * cols) = s6;
  *(rxc_k_f32xv *)(acc + 7 * cols) = s7;
  *(rxc_k_f32xv *)(u + 0 * cols) = u0;
  *(rxc_k_f32xv *)(u + 1 * cols) = u1;
  *(rxc_k_f32xv *)(u + 2 * cols) = u2;
  *(rxc_k_f32xv *)(u + 3 * cols) = u3;
  *(rxc_k_f32xv *)(u + 4 * cols) = u4;
  *(rxc_k_f32xv *)(u + 5 * cols) = u5;
  *(rxc_k_f32xv *)(u + 6 * cols) = u6;
  *(rxc_k_f32xv *)(u + 7 * cols) = u7;
}

/* acc rows [r0, r0 + 8), columns [c, c + 4): the 8-row block's columns
 * left over after those of RXC_K_COLS (all of them where it is 4), 8
 * chains of 4-float vectors */
RXC_INLINE void
rxc_k_gemm_f32_8x4(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k,
                   const rxc_f32 *b, rxc_i64 b_k, rxc_i64 k, rxc_i64 cols)
{
  rxc_k_f32x4 s0 = *(rxc_k_f32x4 *)(acc + 0 * cols), s1 = *(rxc_k_f32x4 *)(acc + 1 * cols);
  rxc_k_f32x4 s2 = *(rxc_k_f32x4 *)(acc + 2 * cols), s3 = *(rxc_k_f32x4 *)(acc + 3 * cols);
  rxc_k_f32x4 s4 = *(rxc_k_f32x4 *)(acc + 4 * cols), s5 = *(rxc_k_f32x4 *)(acc + 5 * cols);
  rxc_k_f32x4 s6 = *(rxc_k_f32x4 *)(acc + 6 * cols), s7 = *(rxc_k_f32x4 *)(acc + 7 * cols);
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    const rxc_f32 *at = a + t * a_k;
    rxc_k_f32x4 v = *(const rxc_k_f32x4 *)(b + t * b_k);
    s0 = s0 + at[0 * a_row] * v;
    s1 = s1 + at[1 * a_row] * v;
    s2 = s2 + at[2 * a_row] * v;
    s3 = s3 + at[3 * a_row] * v;
    s4 = s4 + at[4 * a_row] * v;
    s5 = s5 + at[5 * a_row] * v;
    s6 = s6 + at[6 * a_row] * v;
    s7 = s7 + at[7 * a_row] * v;
  }
  *(rxc_k_f32x4 *)(acc + 0 * cols) = s0;
  *(rxc_k_f32x4 *)(acc + 1 * cols) = s1;
  *(rxc_k_f32x4 *)(acc + 2 * cols) = s2;
  *(rxc_k_f32x4 *)(acc + 3 * cols) = s3;
  *(rxc_k_f32x4 *)(acc + 4 * cols) = s4;
  *(rxc_k_f32x4 *)(acc + 5 * cols) = s5;
  *(rxc_k_f32x4 *)(acc + 6 * cols) = s6;
  *(rxc_k_f32x4 *)(acc + 7 * cols) = s7;
}

/* acc rows [r0, r0 + 8), column c: 8 scalar chains side by side (one
 * row's sum after another would be 8 chains of dependent adds in turn) */
RXC_INLINE void
rxc_k_gemm_f32_8x1(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k,
                   const rxc_f32 *b, rxc_i64 b_k, rxc_i64 k, rxc_i64 cols)
{
  rxc_f32 s0 = acc[0 * cols], s1 = acc[1 * cols], s2 = acc[2 * cols], s3 = acc[3 * cols];
  rxc_f32 s4 = acc[4 * cols], s5 = acc[5 * cols], s6 = acc[6 * cols], s7 = acc[7 * cols];
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    const rxc_f32 *at = a + t * a_k;
    rxc_f32 v = b[t * b_k];
    s0 = s0 + at[0 * a_row] * v;
    s1 = s1 + at[1 * a_row] * v;
    s2 = s2 + at[2 * a_row] * v;
    s3 = s3 + at[3 * a_row] * v;
    s4 = s4 + at[4 * a_row] * v;
    s5 = s5 + at[5 * a_row] * v;
    s6 = s6 + at[6 * a_row] * v;
    s7 = s7 + at[7 * a_row] * v;
  }
  acc[0 * cols] = s0;
  acc[1 * cols] = s1;
  acc[2 * cols] = s2;
  acc[3 * cols] = s3;
  acc[4 * cols] = s4;
  acc[5 * cols] = s5;
  acc[6 * cols] = s6;
  acc[7 * cols] = s7;
}

/* one row, columns [c, c + 64): 4 chains of vectors */
RXC_INLINE void
rxc_k_gemm_f32_1x64(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_k, const rxc_f32 *b, rxc_i64 b_k,
                    rxc_i64 k)
{
  rxc_k_f32x16 s0 = *(rxc_k_f32x16 *)(acc + 0), s1 = *(rxc_k_f32x16 *)(acc + 16);
  rxc_k_f32x16 s2 = *(rxc_k_f32x16 *)(acc + 32), s3 = *(rxc_k_f32x16 *)(acc + 48);
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    const rxc_f32 *bt = b + t * b_k;
    rxc_f32 x = a[t * a_k];
    s0 = s0 + x * *(const rxc_k_f32x16 *)(bt + 0);
    s1 = s1 + x * *(const rxc_k_f32x16 *)(bt + 16);
    s2 = s2 + x * *(const rxc_k_f32x16 *)(bt + 32);
    s3 = s3 + x * *(const rxc_k_f32x16 *)(bt + 48);
  }
  *(rxc_k_f32x16 *)(acc + 0) = s0;
  *(rxc_k_f32x16 *)(acc + 16) = s1;
  *(rxc_k_f32x16 *)(acc + 32) = s2;
  *(rxc_k_f32x16 *)(acc + 48) = s3;
}

/* one row, columns [c, c + 16) */
RXC_INLINE void
rxc_k_gemm_f32_1x16(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_k, const rxc_f32 *b, rxc_i64 b_k,
                    rxc_i64 k)
{
  rxc_k_f32x16 s = *(rxc_k_f32x16 *)acc;
  rxc_i64 t;
  for (t = 0; t < k; t++)
    s = s + a[t * a_k] * *(const rxc_k_f32x16 *)(b + t * b_k);
  *(rxc_k_f32x16 *)acc = s;
}

/* one row, columns [c, c + 4) */
RXC_INLINE void
rxc_k_gemm_f32_1x4(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_k, const rxc_f32 *b, rxc_i64 b_k,
                   rxc_i64 k)
{
  rxc_k_f32x4 s = *(rxc_k_f32x4 *)acc;
  rxc_i64 t;
  for (t = 0; t < k; t++)
    s = s + a[t * a_k] * *(const rxc_k_f32x4 *)(b + t * b_k);
  *(rxc_k_f32x4 *)acc = s;
}
#else
/* one row, columns [c, c + 8): 8 sums in locals over all of k (tcc keeps
 * them in its frame, but reads and writes no acc element per term: twice
 * the speed of a loop over acc's columns inside the loop over k) */
RXC_INLINE void
rxc_k_gemm_f32_1x8(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_k, const rxc_f32 *b, rxc_i64 b_k,
                   rxc_i64 k)
{
  rxc_f32 s0 = acc[0], s1 = acc[1], s2 = acc[2], s3 = acc[3];
  rxc_f32 s4 = acc[4], s5 = acc[5], s6 = acc[6], s7 = acc[7];
  rxc_i64 t;
  for (t = 0; t < k; t++) {
    rxc_f32 x = *a;
    s0 = s0 + x * b[0];
    s1 = s1 + x * b[1];
    s2 = s2 + x * b[2];
    s3 = s3 + x * b[3];
    s4 = s4 + x * b[4];
    s5 = s5 + x * b[5];
    s6 = s6 + x * b[6];
    s7 = s7 + x * b[7];
    a += a_k;
    b += b_k;
  }
  acc[0] = s0;
  acc[1] = s1;
  acc[2] = s2;
  acc[3] = s3;
  acc[4] = s4;
  acc[5] = s5;
  acc[6] = s6;
  acc[7] = s7;
}
#endif

/* acc[r * cols + c] += sum over t of a[r * a_row + t * a_k] * b[t * b_k + c]
 * for r < rows, c < cols, t < k, t ascending (the file comment).  acc
 * shares no element with a or b. */
#if RXC_K_VECTOR
/* Never inlined, in gcc and clang: its body, inlined at each call of a
 * model's kernels, took the budget of gcc 12's inliner (-O3
 * -march=native) from the rest of the file, and efficientnet_b0's
 * sigmoid epilogues then called rxc_expf instead of inlining and
 * vectorizing it: 25.7 ms against 16.0 with the loops.  What the call a
 * register tile costs: rt/README.md ("Kernels"). */
static __attribute__((unused, noinline)) void
#else
RXC_INLINE void
#endif
rxc_k_gemm_f32(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_f32 *b,
               rxc_i64 b_k, rxc_i64 k, rxc_i64 rows, rxc_i64 cols)
{
  rxc_i64 r = 0, c, t;
#if RXC_K_VECTOR
  for (; r + 8 <= rows; r += 8) {
    rxc_i64 c4 = 0; /* where the blocks of 4 columns start */
#if RXC_K_COLS > 4
    c4 = cols - cols % (2 * RXC_K_COLS);
    for (c = 0; c < c4; c += 2 * RXC_K_COLS)
      rxc_k_gemm_f32_8x2v(acc + r * cols + c, a + r * a_row, a_row, a_k, b + c, b_k, k, cols);
    for (c4 = cols - cols % RXC_K_COLS; c < c4; c += RXC_K_COLS)
      rxc_k_gemm_f32_8xv(acc + r * cols + c, a + r * a_row, a_row, a_k, b + c, b_k, k, cols);
#endif
    for (c = c4; c < cols - cols % 4; c += 4)
      rxc_k_gemm_f32_8x4(acc + r * cols + c, a + r * a_row, a_row, a_k, b + c, b_k, k, cols);
    for (c = cols - cols % 4; c < cols; c++)
      rxc_k_gemm_f32_8x1(acc + r * cols + c, a + r * a_row, a_row, a_k, b + c, b_k, k, cols);
  }
  /* the rows left over start where written out, not carried over from
   * the loop before: gcc 12 -O3 -march=native, cloning the kernel for
   * the columns of conv_gemm.c's calls of all of a chunk's rows (208,
   * the rows varying), otherwise warns that iteration 2^64 / 208 of this
   * loop is undefined */
  for (r = rows - rows % 8; r < rows; r++) {
    rxc_f32 *s = acc + r * cols;
    const rxc_f32 *ar = a + r * a_row;
    /* each loop's start written out, not carried over from the loop
     * before: gcc 12 -O3 -march=native, inlining a call of 1 row x 12
     * columns (k 64, kws_dscnn's last matmul), otherwise warns that the
     * last loop's iteration 2^62 - 1 is undefined (an error under the
     * -Werror builds of tests/cortexm/freestanding.py) */
#if RXC_K_COLS == 16
    for (c = 0; c < cols - cols % 64; c += 64)
      rxc_k_gemm_f32_1x64(s + c, ar, a_k, b + c, b_k, k);
    for (c = cols - cols % 64; c < cols - cols % 16; c += 16)
#else
    for (c = 0; c < cols - cols % 16; c += 16)
#endif
      rxc_k_gemm_f32_1x16(s + c, ar, a_k, b + c, b_k, k);
    for (c = cols - cols % 16; c < cols - cols % 4; c += 4)
      rxc_k_gemm_f32_1x4(s + c, ar, a_k, b + c, b_k, k);
    for (c = cols - cols % 4; c < cols; c++)
      for (t = 0; t < k; t++)
        s[c] = s[c] + ar[t * a_k] * b[t * b_k + c];
  }
#else
  for (; r < rows; r++) {
    rxc_f32 *s = acc + r * cols;
    const rxc_f32 *ar = a + r * a_row;
    for (c = 0; c + 8 <= cols; c += 8)
      rxc_k_gemm_f32_1x8(s + c, ar, a_k, b + c, b_k, k);
    for (; c < cols; c++) {
      rxc_f32 one = s[c];
      for (t = 0; t < k; t++)
        one = one + ar[t * a_k] * b[t * b_k + c];
      s[c] = one;
    }
  }
#endif
}

/* rxc_k_conv_f32: a stride-1 conv2d's product straight from its padded
 * input, with no im2col panel (ops/conv_gemm.c, in the C for libtcc):
 *   acc[r * cols + j] += sum over c < channels, ky < kh, kx < kw of
 *     a[r * a_row + t * a_k] * b[c * b_c + ky * y_step + kx * x_step + j]
 * with t = (c * kh + ky) * kw + kx ascending (from 0 instead of acc when
 * fresh is not 0: acc is then only written, and needs no zeroing before):
 * the very terms, in the very order, of rxc_k_gemm_f32 over the im2col
 * panel of b (whose row t is
 * b + c * b_c + ky * y_step + kx * x_step), so the same bits.
 *
 * Key idea: the panel's kh * kw rows of a channel are shifted views of
 * one padded plane, so reading them in place saves writing and reading
 * a panel kh * kw times the input (in densenet121 under libtcc the copies
 * took as long as the products).  The terms go in chunks of
 * RXC_K_CONV_TERMS whose row offsets are computed once a chunk; a sum
 * goes back to acc between chunks, which is float32 either way, so the
 * chunks change no bit.  Its blocks are rxc_k_gemm_f32's with b's row
 * read from off[t] instead of t * b_k, written out twice on purpose: one
 * body for both would put that offset load into the inner loop of the
 * gemm kernel that every gcc build's products call. */
#define RXC_K_CONV_TERMS 256

#if RXC_K_VECTOR
/* acc rows [r0, r0 + 8), columns [j, j + RXC_K_COLS): the chunk's m terms */
RXC_INLINE void
rxc_k_conv_f32_8xv(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_f32 *b,
                   const rxc_i64 *off, rxc_i64 m, rxc_i64 cols, int zero)
{
  rxc_k_f32xv s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0}, s4 = {0}, s5 = {0}, s6 = {0}, s7 = {0};
  rxc_i64 t;
  if (!zero) {
    s0 = *(rxc_k_f32xv *)(acc + 0 * cols);
    s1 = *(rxc_k_f32xv *)(acc + 1 * cols);
    s2 = *(rxc_k_f32xv *)(acc + 2 * cols);
    s3 = *(rxc_k_f32xv *)(acc + 3 * cols);
    s4 = *(rxc_k_f32xv *)(acc + 4 * cols);
    s5 = *(rxc_k_f32xv *)(acc + 5 * cols);
    s6 = *(rxc_k_f32xv *)(acc + 6 * cols);
    s7 = *(rxc_k_f32xv *)(acc + 7 * cols);
  }
  for (t = 0; t < m; t++) {
    const rxc_f32 *at = a + t * a_k;
    rxc_k_f32xv v = *(const rxc_k_f32xv *)(b + off[t]);
    s0 = s0 + at[0 * a_row] * v;
    s1 = s1 + at[1 * a_row] * v;
    s2 = s2 + at[2 * a_row] * v;
    s3 = s3 + at[3 * a_row] * v;
    s4 = s4 + at[4 * a_row] * v;
    s5 = s5 + at[5 * a_row] * v;
    s6 = s6 + at[6 * a_row] * v;
    s7 = s7 + at[7 * a_row] * v;
  }
  *(rxc_k_f32xv *)(acc + 0 * cols) = s0;
  *(rxc_k_f32xv *)(acc + 1 * cols) = s1;
  *(rxc_k_f32xv *)(acc + 2 * cols) = s2;
  *(rxc_k_f32xv *)(acc + 3 * cols) = s3;
  *(rxc_k_f32xv *)(acc + 4 * cols) = s4;
  *(rxc_k_f32xv *)(acc + 5 * cols) = s5;
  *(rxc_k_f32xv *)(acc + 6 * cols) = s6;
  *(rxc_k_f32xv *)(acc + 7 * cols) = s7;
}

/* one row, columns [j, j + 64): 4 chains of vectors (a depthwise conv's
 * one output channel) */
RXC_INLINE void
rxc_k_conv_f32_1x64(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_k, const rxc_f32 *b,
                    const rxc_i64 *off, rxc_i64 m, int zero)
{
  rxc_k_f32x16 s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
  rxc_i64 t;
  if (!zero) {
    s0 = *(rxc_k_f32x16 *)(acc + 0);
    s1 = *(rxc_k_f32x16 *)(acc + 16);
    s2 = *(rxc_k_f32x16 *)(acc + 32);
    s3 = *(rxc_k_f32x16 *)(acc + 48);
  }
  for (t = 0; t < m; t++) {
    const rxc_f32 *bt = b + off[t];
    rxc_f32 x = a[t * a_k];
    s0 = s0 + x * *(const rxc_k_f32x16 *)(bt + 0);
    s1 = s1 + x * *(const rxc_k_f32x16 *)(bt + 16);
    s2 = s2 + x * *(const rxc_k_f32x16 *)(bt + 32);
    s3 = s3 + x * *(const rxc_k_f32x16 *)(bt + 48);
  }
  *(rxc_k_f32x16 *)(acc + 0) = s0;
  *(rxc_k_f32x16 *)(acc + 16) = s1;
  *(rxc_k_f32x16 *)(acc + 32) = s2;
  *(rxc_k_f32x16 *)(acc + 48) = s3;
}

/* one row, columns [j, j + 16) */
RXC_INLINE void
rxc_k_conv_f32_1x16(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_k, const rxc_f32 *b,
                    const rxc_i64 *off, rxc_i64 m, int zero)
{
  rxc_k_f32x16 s = {0};
  rxc_i64 t;
  if (!zero)
    s = *(rxc_k_f32x16 *)acc;
  for (t = 0; t < m; t++)
    s = s + a[t * a_k] * *(const rxc_k_f32x16 *)(b + off[t]);
  *(rxc_k_f32x16 *)acc = s;
}
#endif

/* acc[r * cols + j] for r in [r0, rows), j in [j0, cols): the chunk's m
 * terms one accumulator at a time (the blocks' edges, and all of it
 * without vectors) */
RXC_INLINE void
rxc_k_conv_f32_rest(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_f32 *b,
                    const rxc_i64 *off, rxc_i64 m, rxc_i64 r0, rxc_i64 rows, rxc_i64 j0,
                    rxc_i64 cols, int zero)
{
  rxc_i64 r, j, t;
  for (r = r0; r < rows; r++)
    for (j = j0; j < cols; j++) {
      rxc_f32 s = zero ? 0.0f : acc[r * cols + j];
      for (t = 0; t < m; t++)
        s = s + a[r * a_row + t * a_k] * b[off[t] + j];
      acc[r * cols + j] = s;
    }
}

/* The file comment above says what; acc shares no element with a or b.
 * Never inlined in gcc and clang, as rxc_k_gemm_f32. */
#if RXC_K_VECTOR
static __attribute__((unused, noinline)) void
#else
RXC_INLINE void
#endif
rxc_k_conv_f32(rxc_f32 *acc, const rxc_f32 *a, rxc_i64 a_row, rxc_i64 a_k, const rxc_f32 *b,
               rxc_i64 b_c, rxc_i64 channels, rxc_i64 kh, rxc_i64 kw, rxc_i64 y_step,
               rxc_i64 x_step, rxc_i64 rows, rxc_i64 cols, rxc_i64 fresh)
{
  rxc_i64 off[RXC_K_CONV_TERMS];
  rxc_i64 k = channels * kh * kw, t0, m, t, r;
  rxc_i64 c = 0, y = 0, x = 0; /* the next term's channel, row and column */
#if RXC_K_VECTOR
  rxc_i64 j;
#endif
  for (t0 = 0; t0 < k; t0 += m) {
    const rxc_f32 *at = a + t0 * a_k;
    int zero = fresh && t0 == 0; /* the sums start at 0, not at acc */
    m = k - t0 < RXC_K_CONV_TERMS ? k - t0 : RXC_K_CONV_TERMS;
    for (t = 0; t < m; t++) { /* counted, not divided: a depthwise call has 9 terms */
      off[t] = c * b_c + y * y_step + x * x_step;
      if (++x == kw) {
        x = 0;
        if (++y == kh) {
          y = 0;
          c++;
        }
      }
    }
    r = 0;
#if RXC_K_VECTOR
    for (; r + 8 <= rows; r += 8) {
      for (j = 0; j + RXC_K_COLS <= cols; j += RXC_K_COLS)
        rxc_k_conv_f32_8xv(acc + r * cols + j, at + r * a_row, a_row, a_k, b + j, off, m, cols,
                           zero);
      rxc_k_conv_f32_rest(acc, at, a_row, a_k, b, off, m, r, r + 8, j, cols, zero);
    }
    for (; r < rows; r++) {
      rxc_f32 *s = acc + r * cols;
      const rxc_f32 *ar = at + r * a_row;
      for (j = 0; j + 64 <= cols; j += 64)
        rxc_k_conv_f32_1x64(s + j, ar, a_k, b + j, off, m, zero);
      for (; j + 16 <= cols; j += 16)
        rxc_k_conv_f32_1x16(s + j, ar, a_k, b + j, off, m, zero);
      rxc_k_conv_f32_rest(acc, at, a_row, a_k, b, off, m, r, r + 1, j, cols, zero);
    }
#endif
    rxc_k_conv_f32_rest(acc, at, a_row, a_k, b, off, m, r, rows, 0, cols, zero);
  }
}
#endif /* RXC_KERN_EXTERN */

#endif /* RXC_RT_KERN_GEMM_H */
