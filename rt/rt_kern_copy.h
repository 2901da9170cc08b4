/*
 * rt_kern_copy.h - a run of elements copied at a stride, one kernel per
 * dtype (rxc_k_copy_f32, _i8, _u8, _i32), which LegalizeOps calls for the
 * rows conv2d packs into its panel ([opt] kernels, ops/conv_gemm.c):
 *   T.call_extern("void", "rxc_k_copy_f32", T.address_of(panel[t, col]),
 *                 T.address_of(data[n, ci, iy, ix]), step, count)
 * The interpreter runs this very definition (interp/tir.c), the generated
 * C carries it as text, the libtcc JIT binds a copy precompiled into
 * librxc (codegen/kern.c).
 *
 * What it computes: dst[z] = src[z * step] for z < count.  A copy is
 * exact, so every form gives the same values.
 *
 * Key idea: under tcc a copy loop costs a few instructions an element
 * (a panel is K x R*OW elements, as many as the conv's output times its
 * window); compiled by gcc (-O3, the JIT's copy) the unit-stride copy runs
 * at the speed of memory.  With vector types (gcc, clang) a unit-stride
 * run goes 64 bytes at a time through a 1-byte-aligned, may_alias vector
 * type, then element by element; a strided one element by element (gcc
 * vectorizes that itself where it pays).  dst and src share no element.
 *
 * Requires rt_types.h and rt_math_base.h (RXC_INLINE).  RXC_KERN_EXTERN
 * as in rt_kern_gemm.h; RXC_K_VECTOR from rt_kern_base.h.
 */
#ifndef RXC_RT_KERN_COPY_H
#define RXC_RT_KERN_COPY_H

#ifdef RXC_KERN_EXTERN
void rxc_k_copy_f32(rxc_f32 *dst, const rxc_f32 *src, rxc_i64 step, rxc_i64 count);
void rxc_k_copy_i8(rxc_i8 *dst, const rxc_i8 *src, rxc_i64 step, rxc_i64 count);
void rxc_k_copy_u8(rxc_u8 *dst, const rxc_u8 *src, rxc_i64 step, rxc_i64 count);
void rxc_k_copy_i32(rxc_i32 *dst, const rxc_i32 *src, rxc_i64 step, rxc_i64 count);
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

/* dst[z] = src[z * step] for z < count (the file comment). */
RXC_INLINE void
rxc_k_copy_f32(rxc_f32 *dst, const rxc_f32 *src, rxc_i64 step, rxc_i64 count)
{
  rxc_k_copy_words(dst, src, step, count);
}

RXC_INLINE void
rxc_k_copy_i32(rxc_i32 *dst, const rxc_i32 *src, rxc_i64 step, rxc_i64 count)
{
  rxc_k_copy_words(dst, src, step, count);
}

RXC_INLINE void
rxc_k_copy_i8(rxc_i8 *dst, const rxc_i8 *src, rxc_i64 step, rxc_i64 count)
{
  rxc_i64 z;
  if (step == 1) {
    rxc_k_copy_bytes(dst, src, count);
    return;
  }
  for (z = 0; z < count; z++)
    dst[z] = src[z * step];
}

RXC_INLINE void
rxc_k_copy_u8(rxc_u8 *dst, const rxc_u8 *src, rxc_i64 step, rxc_i64 count)
{
  rxc_k_copy_i8((rxc_i8 *)dst, (const rxc_i8 *)src, step, count);
}
#endif /* RXC_KERN_EXTERN */

#endif /* RXC_RT_KERN_COPY_H */
