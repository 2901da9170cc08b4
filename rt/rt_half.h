/*
 * rt_half.h - float16 (IEEE binary16) and bfloat16 as 16-bit patterns:
 * conversions to and from float and double, without libc or an FPU's help.
 *
 * Key idea: generated code stores a float16 or bfloat16 tensor as rxc_u16
 * bit patterns (C99 has no half type) and computes in float: a load widens
 * (exact), a store narrows with one rounding to nearest, ties to even.  Both
 * narrowings are one integer routine, rxc_fp_narrow: the magnitude's
 * significand, with the exponent field above it, shifted right with
 * rounding; a carry out of the significand moves into the exponent, so
 * rounding up to the next binade and overflow to infinity need no case of
 * their own, and results below the smallest normal shift further (gradual
 * underflow).  NaN becomes the quiet NaN with the sign kept (the
 * interpreter's ir_half_from_double does the same).  Nothing depends on the
 * rounding mode.
 *
 * Requires rt_types.h and rt_math_base.h (bit access, RXC_INLINE).
 */
#ifndef RXC_RT_HALF_H
#define RXC_RT_HALF_H

/* v >> s rounded to nearest, ties to even (1 <= s). */
RXC_INLINE rxc_u64
rxc_shift_round(rxc_u64 v, int s)
{
  if (s > 63)
    return 0; /* v < 2^63: below half of the unit */
  rxc_u64 q = v >> s, r = v & (((rxc_u64)1 << s) - 1), h = (rxc_u64)1 << (s - 1);
  return r > h || (r == h && (q & 1)) ? q + 1 : q;
}

/* The bits of the binary format with ebits exponent and mbits fraction bits
 * nearest to x, given as the bits of a wider format (sebits, smbits) with
 * the sign at bit sebits + smbits.  Requires ebits <= sebits and
 * mbits < smbits. */
RXC_INLINE rxc_u32
rxc_fp_narrow(rxc_u64 x, int sebits, int smbits, int ebits, int mbits)
{
  rxc_u32 sign = (rxc_u32)(x >> (sebits + smbits) & 1) << (ebits + mbits);
  rxc_u32 inf = (((rxc_u32)1 << ebits) - 1) << mbits;
  rxc_u64 one = (rxc_u64)1 << smbits;
  int e = (int)(x >> smbits & (((rxc_u64)1 << sebits) - 1)); /* biased */
  rxc_u64 m = x & (one - 1);
  if (e == (1 << sebits) - 1 && m != 0)
    return sign | inf | (rxc_u32)1 << (mbits - 1); /* quiet NaN */
  if (e == 0)
    e = 1; /* subnormal source: no implicit bit */
  else
    m |= one;
  /* the destination's biased exponent */
  int de = e - ((1 << (sebits - 1)) - 1) + ((1 << (ebits - 1)) - 1);
  int shift = smbits - mbits;
  rxc_u64 r;
  if (de >= (1 << ebits) - 1)
    r = inf;
  else if (de >= 1) /* normal: (de - 1) above the significand with its bit */
    r = rxc_shift_round(((rxc_u64)(de - 1) << smbits) + m, shift);
  else /* subnormal: multiples of the smallest subnormal */
    r = rxc_shift_round(m, shift + 1 - de);
  return sign | (rxc_u32)(r > inf ? inf : r);
}

RXC_INLINE rxc_u16
rxc_f16_from_f64(double x)
{
  return (rxc_u16)rxc_fp_narrow(rxc_d2u(x), 11, 52, 5, 10);
}

RXC_INLINE rxc_u16
rxc_f16_from_f32(float x)
{
  return (rxc_u16)rxc_fp_narrow(rxc_f2u(x), 8, 23, 5, 10);
}

RXC_INLINE rxc_u16
rxc_bf16_from_f64(double x)
{
  return (rxc_u16)rxc_fp_narrow(rxc_d2u(x), 11, 52, 8, 7);
}

RXC_INLINE rxc_u16
rxc_bf16_from_f32(float x)
{
  return (rxc_u16)rxc_fp_narrow(rxc_f2u(x), 8, 23, 8, 7);
}

/* Exact: every float16 is a float (subnormals become normal floats). */
RXC_INLINE float
rxc_f16_to_f32(rxc_u16 h)
{
  rxc_u32 sign = (rxc_u32)(h & 0x8000u) << 16, e = (rxc_u32)(h >> 10 & 0x1fu), m = h & 0x3ffu;
  if (e == 0x1f)
    return rxc_u2f(sign | 0x7f800000u | m << 13); /* inf, NaN (payload kept) */
  if (e != 0)
    return rxc_u2f(sign | (e + 112) << 23 | m << 13);
  float f = (float)m * 5.9604644775390625e-8f; /* m * 2^-24, exact */
  return sign ? -f : f;
}

/* Exact: a bfloat16 is the upper half of a float. */
RXC_INLINE float
rxc_bf16_to_f32(rxc_u16 h)
{
  return rxc_u2f((rxc_u32)h << 16);
}

/* x rounded to float16 (bfloat16) precision, as a float. */
RXC_INLINE float
rxc_f16_round(float x)
{
  return rxc_f16_to_f32(rxc_f16_from_f32(x));
}

RXC_INLINE float
rxc_bf16_round(float x)
{
  return rxc_bf16_to_f32(rxc_bf16_from_f32(x));
}

#endif /* RXC_RT_HALF_H */
