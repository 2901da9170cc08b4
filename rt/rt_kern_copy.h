/*
 * rt_kern_copy.h - a conv2d's panel written in one call, one kernel per
 * dtype (rxc_k_im2col_f32, _i8, _u8, _i32), which LegalizeOps calls for
 * each band of output rows a conv packs, in the C for the libtcc JIT
 * (OP_KERNELS_TCC, ops/conv_gemm.c):
 *   T.call_extern("void", "rxc_k_im2col_f32", T.address_of(panel[0, 0]),
 *                 T.address_of(data[n, c0, 0, 0]), channels, in_h, in_w,
 *                 y0, x0, rows, ow, kh, kw, sh, sw, dh, dw, width)
 * The interpreter runs this very definition (interp/tir.c), the generated
 * C carries it as text, the libtcc JIT binds a copy precompiled into
 * librxc (codegen/kern.c).  What it computes: rxc_k_im2col's comment.  A
 * copy is exact, so every form gives the same values.
 *
 * Key idea: under tcc a copy loop costs a few instructions an element
 * (a panel is K x R*OW elements, as many as the conv's output times its
 * window), and a call a panel row with tcc's loops around it as much
 * again; compiled by gcc (-O3, the JIT's copy) the unit-stride runs go at
 * the speed of memory.  With vector types (gcc, clang) a unit-stride run
 * goes 64 bytes at a time through a 1-byte-aligned, may_alias vector
 * type, then element by element; a strided one element by element (gcc
 * vectorizes that itself where it pays).  dst and src share no element.
 *
 * Requires rt_types.h and rt_math_base.h (RXC_INLINE).  RXC_KERN_EXTERN
 * as in rt_kern_gemm.h; RXC_K_VECTOR from rt_kern_base.h.
 */
#ifndef RXC_RT_KERN_COPY_H
#define RXC_RT_KERN_COPY_H

#ifdef RXC_KERN_EXTERN
void rxc_k_im2col_f32(rxc_f32 *dst, const rxc_f32 *src, rxc_i64 channels, rxc_i64 in_h,
                      rxc_i64 in_w, rxc_i64 y0, rxc_i64 x0, rxc_i64 rows, rxc_i64 ow, rxc_i64 kh,
                      rxc_i64 kw, rxc_i64 sh, rxc_i64 sw, rxc_i64 dh, rxc_i64 dw, rxc_i64 width);
void rxc_k_im2col_i8(rxc_i8 *dst, const rxc_i8 *src, rxc_i64 channels, rxc_i64 in_h, rxc_i64 in_w,
                     rxc_i64 y0, rxc_i64 x0, rxc_i64 rows, rxc_i64 ow, rxc_i64 kh, rxc_i64 kw,
                     rxc_i64 sh, rxc_i64 sw, rxc_i64 dh, rxc_i64 dw, rxc_i64 width);
void rxc_k_im2col_u8(rxc_u8 *dst, const rxc_u8 *src, rxc_i64 channels, rxc_i64 in_h, rxc_i64 in_w,
                     rxc_i64 y0, rxc_i64 x0, rxc_i64 rows, rxc_i64 ow, rxc_i64 kh, rxc_i64 kw,
                     rxc_i64 sh, rxc_i64 sw, rxc_i64 dh, rxc_i64 dw, rxc_i64 width);
void rxc_k_im2col_i32(rxc_i32 *dst, const rxc_i32 *src, rxc_i64 channels, rxc_i64 in_h,
                      rxc_i64 in_w, rxc_i64 y0, rxc_i64 x0, rxc_i64 rows, rxc_i64 ow, rxc_i64 kh,
                      rxc_i64 kw, rxc_i64 sh, rxc_i64 sw, rxc_i64 dh, rxc_i64 dw, rxc_i64 width);
#else

#ifndef RXC_RT_KERN_BASE_H
#include "rt_kern_base.h" /* a NAME.c carries it before its kernels */
#endif

#if RXC_K_VECTOR
/* 64 bytes at any address */
typedef unsigned char rxc_k_bytes64 __attribute__((vector_size(64), aligned(1), may_alias));
#endif

/* The bytes of count elements of size bytes, unit stride; the bytes
 * past the last whole 64 one by one. */
RXC_INLINE void
rxc_k_copy_bytes(void *dst, const void *src, rxc_i64 bytes)
{
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  rxc_i64 i = 0;
#if RXC_K_VECTOR
  for (; i + 64 <= bytes; i += 64)
    *(rxc_k_bytes64 *)(d + i) = *(const rxc_k_bytes64 *)(s + i);
#endif
  for (; i < bytes; i++)
    d[i] = s[i];
}

/* A 4-byte element whatever its dtype: a float32 run is copied as its
 * bits (no float load could quiet a NaN), and may alias it. */
#if defined(__GNUC__) && !defined(__TINYC__)
typedef rxc_u32 rxc_k_word __attribute__((may_alias));
#else
typedef rxc_u32 rxc_k_word;
#endif

/* dst[z] = src[z * step] for z < count, 4-byte elements. */
RXC_INLINE void
rxc_k_copy_words(void *dst, const void *src, rxc_i64 step, rxc_i64 count)
{
  rxc_k_word *d = (rxc_k_word *)dst;
  const rxc_k_word *s = (const rxc_k_word *)src;
  rxc_i64 z;
  if (step == 1) {
    rxc_k_copy_bytes(dst, src, count * 4);
    return;
  }
  for (z = 0; z < count; z++)
    d[z] = s[z * step];
}

#if RXC_K_VECTOR
/* 16 and 1 words at any address */
typedef rxc_u32 rxc_k_words16 __attribute__((vector_size(64), aligned(1), may_alias));
typedef rxc_u32 rxc_k_word1 __attribute__((aligned(1), may_alias));
#endif

/* bytes bytes of 0.  With vectors, 64 at a time, then words, then bytes,
 * all of a zero the compiler cannot see (an empty asm's output): a store
 * of a known 0 over a run becomes a call of memset, which a freestanding
 * build (the Cortex-M images) does not have, and so does a loop storing
 * any one byte value. */
RXC_INLINE void
rxc_k_zero_bytes(void *dst, rxc_i64 bytes)
{
  unsigned char *d = (unsigned char *)dst;
  rxc_i64 i = 0;
#if RXC_K_VECTOR
  rxc_u32 w = 0;
  rxc_k_words16 z;
  __asm__("" : "+r"(w));
  z = (rxc_k_words16){0} + w;
  for (; i + 64 <= bytes; i += 64)
    *(rxc_k_words16 *)(d + i) = z;
  for (; i + 4 <= bytes; i += 4)
    *(rxc_k_word1 *)(d + i) = w;
  if (i < bytes)
    d[i++] = (unsigned char)w;
  if (i < bytes)
    d[i++] = (unsigned char)w;
  if (i < bytes)
    d[i] = (unsigned char)w;
#else
  for (; i < bytes; i++)
    d[i] = 0;
#endif
}

/* dst[z] = src[z * step] for z < count, elements of size bytes (1 or 4). */
RXC_INLINE void
rxc_k_copy_sized(void *dst, const void *src, rxc_i64 size, rxc_i64 step, rxc_i64 count)
{
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  rxc_i64 z;
  if (size == 4)
    rxc_k_copy_words(dst, src, step, count);
  else if (step == 1)
    rxc_k_copy_bytes(dst, src, count);
  else
    for (z = 0; z < count; z++)
      d[z] = s[z * step];
}

/* The output columns z < ow whose input column off + z * step lies in
 * [0, in_w): [*lo, *hi) (step >= 1). */
RXC_INLINE void
rxc_k_im2col_inside(rxc_i64 off, rxc_i64 step, rxc_i64 in_w, rxc_i64 ow, rxc_i64 *lo, rxc_i64 *hi)
{
  *lo = off >= 0 ? 0 : (-off + step - 1) / step;
  *hi = in_w - off <= 0 ? 0 : (in_w - off + step - 1) / step;
  if (*hi > ow)
    *hi = ow;
  if (*lo > *hi)
    *lo = *hi;
}

/* The im2col kernels (rxc_k_im2col_f32, _i8, _u8, _i32): the window
 * columns of a conv2d's band of output rows, over channels planes of an
 * NCHW input (plane c at src + c * in_h * in_w), written as the panel
 * rows of their terms, term t = (c * kh + ky) * kw + kx at dst + t * width
 * (ops/conv_gemm.c):
 *   dst[t * width + r * ow + z] = src[(c * in_h + iy) * in_w + ix]
 *     for r < rows, z < ow, with iy = y0 + r * sh + ky * dh and
 *     ix = x0 + z * sw + kx * dw, or 0 where (iy, ix) lies outside the
 *     plane (the padding);
 *   dst[t * width + j] = 0 for rows * ow <= j < width.
 * One call a band and chunk of channels, where a copy a row of the panel
 * cost a call and tcc's loop around it (resnet18: 470,000 calls of about
 * 30 elements a run).  Only elements inside the planes are read.  size:
 * bytes of an element, 1 or 4.  Never inlined in gcc and clang, as
 * rxc_k_gemm_f32 (rt_kern_gemm.h): a body at each conv's call would take
 * the inliner's budget from the rest of the file. */
#if RXC_K_VECTOR
static __attribute__((unused, noinline)) void
#else
RXC_INLINE void
#endif
rxc_k_im2col(void *dst, const void *src, rxc_i64 size, rxc_i64 channels, rxc_i64 in_h,
             rxc_i64 in_w, rxc_i64 y0, rxc_i64 x0, rxc_i64 rows, rxc_i64 ow, rxc_i64 kh,
             rxc_i64 kw, rxc_i64 sh, rxc_i64 sw, rxc_i64 dh, rxc_i64 dw, rxc_i64 width)
{
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  rxc_i64 c, ky, kx, r, lo, hi;
  for (c = 0; c < channels; c++)
    for (ky = 0; ky < kh; ky++)
      for (kx = 0; kx < kw; kx++) {
        unsigned char *row = d + ((c * kh + ky) * kw + kx) * width * size;
        rxc_i64 off = x0 + kx * dw;
        rxc_k_im2col_inside(off, sw, in_w, ow, &lo, &hi);
        for (r = 0; r < rows; r++, row += ow * size) {
          rxc_i64 iy = y0 + r * sh + ky * dh;
          if (iy < 0 || iy >= in_h) {
            rxc_k_zero_bytes(row, ow * size);
            continue;
          }
          rxc_k_zero_bytes(row, lo * size);
          rxc_k_copy_sized(row + lo * size, s + ((c * in_h + iy) * in_w + off + lo * sw) * size,
                           size, sw, hi - lo);
          rxc_k_zero_bytes(row + hi * size, (ow - hi) * size);
        }
        rxc_k_zero_bytes(row, (width - rows * ow) * size);
      }
}

RXC_INLINE void
rxc_k_im2col_f32(rxc_f32 *dst, const rxc_f32 *src, rxc_i64 channels, rxc_i64 in_h, rxc_i64 in_w,
                 rxc_i64 y0, rxc_i64 x0, rxc_i64 rows, rxc_i64 ow, rxc_i64 kh, rxc_i64 kw,
                 rxc_i64 sh, rxc_i64 sw, rxc_i64 dh, rxc_i64 dw, rxc_i64 width)
{
  rxc_k_im2col(dst, src, 4, channels, in_h, in_w, y0, x0, rows, ow, kh, kw, sh, sw, dh, dw, width);
}

RXC_INLINE void
rxc_k_im2col_i32(rxc_i32 *dst, const rxc_i32 *src, rxc_i64 channels, rxc_i64 in_h, rxc_i64 in_w,
                 rxc_i64 y0, rxc_i64 x0, rxc_i64 rows, rxc_i64 ow, rxc_i64 kh, rxc_i64 kw,
                 rxc_i64 sh, rxc_i64 sw, rxc_i64 dh, rxc_i64 dw, rxc_i64 width)
{
  rxc_k_im2col(dst, src, 4, channels, in_h, in_w, y0, x0, rows, ow, kh, kw, sh, sw, dh, dw, width);
}

RXC_INLINE void
rxc_k_im2col_i8(rxc_i8 *dst, const rxc_i8 *src, rxc_i64 channels, rxc_i64 in_h, rxc_i64 in_w,
                rxc_i64 y0, rxc_i64 x0, rxc_i64 rows, rxc_i64 ow, rxc_i64 kh, rxc_i64 kw,
                rxc_i64 sh, rxc_i64 sw, rxc_i64 dh, rxc_i64 dw, rxc_i64 width)
{
  rxc_k_im2col(dst, src, 1, channels, in_h, in_w, y0, x0, rows, ow, kh, kw, sh, sw, dh, dw, width);
}

RXC_INLINE void
rxc_k_im2col_u8(rxc_u8 *dst, const rxc_u8 *src, rxc_i64 channels, rxc_i64 in_h, rxc_i64 in_w,
                rxc_i64 y0, rxc_i64 x0, rxc_i64 rows, rxc_i64 ow, rxc_i64 kh, rxc_i64 kw,
                rxc_i64 sh, rxc_i64 sw, rxc_i64 dh, rxc_i64 dw, rxc_i64 width)
{
  rxc_k_im2col(dst, src, 1, channels, in_h, in_w, y0, x0, rows, ow, kh, kw, sh, sw, dh, dw, width);
}
#endif /* RXC_KERN_EXTERN */

#endif /* RXC_RT_KERN_COPY_H */
