/*
 * rt_math_trig.h - sin, cos, tan, asin, acos, atan, atan2; float and double.
 * Requires rt_types.h and rt_math_base.h.
 *
 * Key ideas:
 *  - Argument reduction for |x| > pi/4 is Payne and Hanek's, in integers:
 *    x = m 2^e, and x * 2/pi mod 4 needs only the bits of 2/pi from about
 *    2^-(e-2) on (earlier ones give multiples of 4), so seven 32-bit words
 *    of 2/pi times the significand give the quadrant and a 128-bit fraction
 *    with at least 2^-128 accuracy at every magnitude (the worst double
 *    lands 2^-61 from a multiple of pi/2).  The fraction, rounded to the
 *    nearest quadrant and normalized, times pi/4 in 64-bit fixed point
 *    gives r = x - q pi/2 in [-pi/4, pi/4] as an exact double-double.
 *  - sin and cos of r by their Taylor series (float: degree 9/10, error
 *    below 2e-9; double: 17/16, below 1e-19), tan as sin/cos.
 *  - atan: |x| reduced to |t| <= tan(pi/8) by atan x = pi/4 + atan((x-1)/(x+1))
 *    or pi/2 - atan(1/x); asin by asin x = pi/2 - 2 asin(sqrt((1-x)/2)) above
 *    1/2; near-minimax polynomials from rt/tools/gen_consts.py; atan2 by
 *    atan|y/x| and the quadrant.
 */
#ifndef RXC_RT_MATH_TRIG_H
#define RXC_RT_MATH_TRIG_H

/* 32 bits of the 288-bit little-endian number p starting at bit pos
 * (bits beyond either end are zero). */
RXC_INLINE rxc_u32
rxc_bits_at(const rxc_u32 *p, int pos)
{
  int w = (pos + 1024) / 32 - 32, b = pos - 32 * w;
  rxc_u32 lo = w >= 0 && w < 9 ? p[w] : 0, hi = w + 1 >= 0 && w + 1 < 9 ? p[w + 1] : 0;
  return b ? (lo >> b) | (hi << (32 - b)) : lo;
}

/* x * 2/pi for x = m 2^e (m < 2^53, x > pi/4): returns the quadrant q mod 4
 * of the nearest multiple and writes the 128-bit fraction x*2/pi - q (its
 * magnitude, in units of 2^-128) to f[3..0] (f[3] most significant) and its
 * sign to *neg. */
RXC_INLINE int
rxc_reduce_fraction(rxc_u64 m, int e, rxc_u32 *f, int *neg)
{
  static const rxc_u32 two_over_pi[40] = {
      0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu,
      0xdebbc561u, 0xb7246e3au, 0x424dd2e0u, 0x06492eeau, 0x09d1921cu, 0xfe1deb1cu, 0xb129a73eu,
      0xe88235f5u, 0x2ebb4484u, 0xe99c7026u, 0xb45f7e41u, 0x3991d639u, 0x835339f4u, 0x9c845f8bu,
      0xbdf9283bu, 0x1ff897ffu, 0xde05980fu, 0xef2f118bu, 0x5a0a6d1fu, 0x6d367ecfu, 0x27cb09b7u,
      0x4f463f66u, 0x9e5fea2du, 0x7527bac7u, 0xebe5f17bu, 0x3d0739f7u, 0x8a5292eau, 0x6bfb5fb1u,
      0x1f8d5d08u, 0x56033046u, 0xfc7b6babu, 0xf0cfbc20u, 0x9af4361du};
  rxc_u32 p[9], ml[2]; /* zeroed by a loop: tcc calls memset for = {0} */
  int j0 = e >= 34 ? (e - 2) / 32 : 0, i, k, q, s;
  for (i = 0; i < 9; i++)
    p[i] = 0;
  ml[0] = (rxc_u32)m;
  ml[1] = (rxc_u32)(m >> 32);
  for (i = 0; i < 2; i++) { /* p = m * words j0..j0+6 */
    rxc_u64 carry = 0;
    for (k = 0; k < 7; k++) {
      rxc_u64 t = (rxc_u64)ml[i] * two_over_pi[j0 + 6 - k] + p[i + k] + carry;
      p[i + k] = (rxc_u32)t;
      carry = t >> 32;
    }
    p[i + 7] = (rxc_u32)carry;
  }
  s = 32 * (j0 + 7) - e; /* p / 2^s = x * 2/pi minus a multiple of 4 */
  q = (int)(rxc_bits_at(p, s) & 3);
  for (i = 0; i < 4; i++)
    f[3 - i] = rxc_bits_at(p, s - 32 * (i + 1));
  *neg = (int)(f[3] >> 31);
  if (*neg) { /* round up to the next quadrant: fraction becomes 1 - f */
    rxc_u64 c = 1;
    q = (q + 1) & 3;
    for (i = 0; i < 4; i++) {
      c += (rxc_u32)~f[i];
      f[i] = (rxc_u32)c;
      c >>= 32;
    }
  }
  return q;
}

/* r = x - q pi/2 for x = m 2^e > pi/4: *hi and *lo (a double-double), the
 * quadrant returned. */
RXC_INLINE int
rxc_reduce_pio2(rxc_u64 m, int e, double *hi, double *lo)
{
  rxc_u32 f[4];
  rxc_u64 a, a1, a0, c1 = 0xc90fdaa2u, c0 = 0x2168c234u, t00, t01, t10, mid, ph, pl;
  int neg, q = rxc_reduce_fraction(m, e, f, &neg), lz = 0, n;
  a = (rxc_u64)f[3] << 32 | f[2];
  a0 = (rxc_u64)f[1] << 32 | f[0];
  if (a == 0 && a0 == 0) {
    *hi = *lo = 0.0;
    return q;
  }
  for (; !(a >> 63); lz++) /* normalize the 128-bit fraction */
    a = a << 1 | a0 >> 63, a0 <<= 1;
  a1 = a >> 32; /* (a1:a0) times pi/4 = c1:c0 in 0.64 fixed point */
  a0 = a & 0xffffffffu;
  t00 = a0 * c0, t01 = a0 * c1, t10 = a1 * c0;
  mid = (t00 >> 32) + (t01 & 0xffffffffu) + (t10 & 0xffffffffu);
  pl = mid << 32 | (t00 & 0xffffffffu);
  ph = a1 * c1 + (t01 >> 32) + (t10 >> 32) + (mid >> 32);
  n = !(ph >> 63); /* r = (ph:pl) 2^(-127 - lz) */
  if (n)
    ph = ph << 1 | pl >> 63, pl <<= 1;
  e = -lz - n; /* r in [2^e, 2^(e+1)) */
  *hi = rxc_u2d((rxc_u64)(e + 1023) << 52 | (ph >> 11 & (((rxc_u64)1 << 52) - 1)));
  a = ph << 53 | pl >> 11; /* the next 64 bits, weight 2^(e - 116) */
  for (n = 0; a && !(a >> 63); n++)
    a <<= 1;
  *lo = a ? rxc_u2d((rxc_u64)(e - 53 - n + 1023) << 52 | (a >> 11 & (((rxc_u64)1 << 52) - 1)))
          : 0.0;
  if (neg)
    *hi = -*hi, *lo = -*lo;
  return q;
}

/* sin and cos of r + rl, |r| <= pi/4, rl tiny. */
RXC_INLINE double
rxc_sin_kernel(double r, double rl)
{
  double z = r * r, p = 2.81145725434552060e-15;
  p = -7.64716373181981641e-13 + z * p;
  p = 1.60590438368216133e-10 + z * p;
  p = -2.50521083854417202e-08 + z * p;
  p = 2.75573192239858925e-06 + z * p;
  p = -1.98412698412698413e-04 + z * p;
  p = 8.33333333333333322e-03 + z * p;
  p = -1.66666666666666657e-01 + z * p;
  return r + (r * z * p + rl * (1.0 - 0.5 * z));
}

RXC_INLINE double
rxc_cos_kernel(double r, double rl)
{
  double z = r * r, p = 4.77947733238738525e-14, h = 0.5 * z, w = 1.0 - h;
  p = -1.14707455977297245e-11 + z * p;
  p = 2.08767569878681002e-09 + z * p;
  p = -2.75573192239858883e-07 + z * p;
  p = 2.48015873015873016e-05 + z * p;
  p = -1.38888888888888894e-03 + z * p;
  p = 4.16666666666666644e-02 + z * p;
  return w + (((1.0 - w) - h) + (z * z * p - r * rl));
}

RXC_INLINE float
rxc_sin_kernelf(float r)
{
  float z = r * r, p = 2.755731922e-06f;
  p = -1.984126984e-04f + z * p;
  p = 8.333333333e-03f + z * p;
  p = -1.666666667e-01f + z * p;
  return r + r * z * p;
}

RXC_INLINE float
rxc_cos_kernelf(float r)
{
  float z = r * r, p = -2.755731922e-07f, h = 0.5f * z, w = 1.0f - h;
  p = 2.480158730e-05f + z * p;
  p = -1.388888889e-03f + z * p;
  p = 4.166666667e-02f + z * p;
  return w + (((1.0f - w) - h) + z * z * p);
}

/* |x| reduced: the quadrant, r (+ rl) in [-pi/4, pi/4]; NaN r for inf/NaN. */
RXC_INLINE int
rxc_trig_reduce(double x, double *r, double *rl)
{
  double a = rxc_fabs(x);
  rxc_u64 m;
  int e;
  *rl = 0.0;
  if (!(a <= 1.7976931348623157e308)) { /* inf or NaN */
    *r = x - x;
    return 0;
  }
  if (a <= 0.78539816339744828) {
    *r = a;
    return 0;
  }
  m = rxc_unpack(a, &e);
  return rxc_reduce_pio2(m, e, r, rl);
}

RXC_INLINE float
rxc_trig_reducef(float x, float *r)
{
  double hi, lo;
  float a = rxc_fabsf(x);
  rxc_u32 m;
  int e, q;
  if (!(a <= 3.40282347e38f)) {
    *r = x - x;
    return 0;
  }
  if (a <= 0.785398125f) {
    *r = a;
    return 0;
  }
  m = rxc_unpackf(a, &e);
  q = rxc_reduce_pio2(m, e, &hi, &lo);
  *r = (float)hi;
  return q;
}

RXC_INLINE double
rxc_sin(double x)
{
  double r, rl, s;
  int q = rxc_trig_reduce(x, &r, &rl);
  s = q & 1 ? rxc_cos_kernel(r, rl) : rxc_sin_kernel(r, rl);
  s = q & 2 ? -s : s;
  return x < 0 ? -s : s;
}

RXC_INLINE double
rxc_cos(double x)
{
  double r, rl, c;
  int q = rxc_trig_reduce(x, &r, &rl);
  c = q & 1 ? rxc_sin_kernel(r, rl) : rxc_cos_kernel(r, rl);
  return (q + 1) & 2 ? -c : c;
}

RXC_INLINE double
rxc_tan(double x)
{
  double r, rl, s, c, t;
  int q = rxc_trig_reduce(x, &r, &rl);
  s = rxc_sin_kernel(r, rl);
  c = rxc_cos_kernel(r, rl);
  t = q & 1 ? -c / s : s / c;
  return x < 0 ? -t : t;
}

RXC_INLINE float
rxc_sinf(float x)
{
  float r, s;
  int q = rxc_trig_reducef(x, &r);
  s = q & 1 ? rxc_cos_kernelf(r) : rxc_sin_kernelf(r);
  s = q & 2 ? -s : s;
  return x < 0 ? -s : s;
}

RXC_INLINE float
rxc_cosf(float x)
{
  float r, c;
  int q = rxc_trig_reducef(x, &r);
  c = q & 1 ? rxc_sin_kernelf(r) : rxc_cos_kernelf(r);
  return (q + 1) & 2 ? -c : c;
}

/* tan through the double kernels: s/c rounds twice, once is within an ulp. */
RXC_INLINE float
rxc_tanf(float x)
{
  return (float)rxc_tan((double)x);
}

/* atan(t) / t as a polynomial in z = t^2, |t| <= tan(pi/8). */
RXC_INLINE float
rxc_atan_polyf(float z)
{
  float p = 4.707129655e-02f;
  p = -8.456089467e-02f + z * p;
  p = 1.104047101e-01f + z * p;
  p = -1.428158731e-01f + z * p;
  p = 1.999988380e-01f + z * p;
  p = -3.333333210e-01f + z * p;
  return z * p; /* minus the constant 1 */
}

RXC_INLINE double
rxc_atan_poly(double z)
{
  static const double c[11] = {
      -1.78038963948125642e-02, 3.79639031611108332e-02,  -5.03504979531243929e-02,
      5.84686675227513927e-02,  -6.66295024603679176e-02, 7.69204519456148095e-02,
      -9.09089680147281282e-02, 1.11111107446570989e-01,  -1.42857142792449682e-01,
      1.99999999999408373e-01,  -3.33333333333331205e-01};
  return z * rxc_horner(c, 11, z);
}

/* atan|x| = base + atan(t), base in {0, pi/4, pi/2} as hi + lo. */
RXC_INLINE float
rxc_atanf(float x)
{
  float a = rxc_fabsf(x), t, hi = 0.0f, lo = 0.0f, r;
  if (x != x)
    return x + x;
  if (a <= 0.41421356f) {
    t = a;
  } else if (a <= 2.41421356f) {
    t = (a - 1.0f) / (a + 1.0f);
    hi = 7.853981853e-01f, lo = -2.185569414e-08f;
  } else {
    t = -1.0f / a;
    hi = 1.570796371e+00f, lo = -4.371138829e-08f;
  }
  r = hi + (t + (t * rxc_atan_polyf(t * t) + lo));
  return rxc_copysignf(r, x);
}

RXC_INLINE double
rxc_atan(double x)
{
  double a = rxc_fabs(x), t, hi = 0.0, lo = 0.0, r;
  if (x != x)
    return x + x;
  if (a <= 0.41421356237309503) {
    t = a;
  } else if (a <= 2.4142135623730949) {
    t = (a - 1.0) / (a + 1.0);
    hi = 0.78539816339744828, lo = 3.061616997868383e-17;
  } else {
    t = -1.0 / a;
    hi = 1.5707963267948966, lo = 6.123233995736766e-17;
  }
  r = hi + (t + (t * rxc_atan_poly(t * t) + lo));
  return rxc_copysign(r, x);
}

/* atan2(y, x): C99's special cases (signed zeros, infinities), then
 * z = atan|y/x| (the quotient's rounding costs at most half an ulp: atan
 * is no steeper than the identity) and pi - z for x < 0, pi as hi + lo;
 * the sign of y. */
RXC_INLINE float
rxc_atan2f(float y, float x)
{
  float z;
  int left = rxc_copysignf(1.0f, x) < 0;
  if (x != x || y != y)
    return x + y;
  if (y == 0.0f)
    return left ? rxc_copysignf(3.141592741e+00f, y) : y;
  if (x == 0.0f)
    return rxc_copysignf(1.570796371e+00f, y);
  if (rxc_fabsf(x) == RXC_INFF) {
    z = rxc_fabsf(y) == RXC_INFF ? (left ? 2.356194496e+00f : 7.853981853e-01f)
                                 : (left ? 3.141592741e+00f : 0.0f);
    return rxc_copysignf(z, y);
  }
  z = rxc_atanf(rxc_fabsf(y / x));
  if (left)
    z = 3.141592741e+00f - (z + 8.742277657e-08f);
  return rxc_copysignf(z, y);
}

RXC_INLINE double
rxc_atan2(double y, double x)
{
  double z;
  int left = rxc_copysign(1.0, x) < 0;
  if (x != x || y != y)
    return x + y;
  if (y == 0.0)
    return left ? rxc_copysign(3.141592653589793, y) : y;
  if (x == 0.0)
    return rxc_copysign(1.5707963267948966, y);
  if (rxc_fabs(x) == RXC_INF) {
    z = rxc_fabs(y) == RXC_INF ? (left ? 2.356194490192345 : 0.7853981633974483)
                               : (left ? 3.141592653589793 : 0.0);
    return rxc_copysign(z, y);
  }
  z = rxc_atan(rxc_fabs(y / x));
  if (left)
    z = 3.141592653589793 - (z - 1.2246467991473532e-16);
  return rxc_copysign(z, y);
}

/* asin(x)/x - 1 as a polynomial in z = x^2 <= 1/4. */
RXC_INLINE float
rxc_asin_polyf(float z)
{
  float p = 3.767713834e-02f;
  p = 1.429525604e-02f + z * p;
  p = 3.185718889e-02f + z * p;
  p = 4.450870950e-02f + z * p;
  p = 7.500571381e-02f + z * p;
  p = 1.666665764e-01f + z * p;
  return z * p;
}

RXC_INLINE double
rxc_asin_poly(double z)
{
  static const double c[13] = {
      3.25793479669284208e-02, -2.09306583151824509e-02, 2.16680588690563586e-02,
      3.71805774832505371e-03, 1.07786751209959925e-02,  1.13988504084407555e-02,
      1.39808829921710103e-02, 1.73516006253434350e-02,  2.23722161060721479e-02,
      3.03819426423271866e-02, 4.46428571768632196e-02,  7.49999999996661115e-02,
      1.66666666666667962e-01};
  return z * rxc_horner(c, 13, z);
}

/* asin s for 0 <= s <= 1/2 written as hi + lo: s is split so that 2 asin s
 * = 2 s_hi + (2 s_lo + 2 s P) loses nothing in pi/2 - 2 asin s. */
RXC_INLINE float
rxc_asinf(float x)
{
  float a = rxc_fabsf(x), z, s, r;
  if (x != x)
    return x + x;
  if (a > 1.0f)
    return RXC_NANF;
  if (a <= 0.5f) {
    r = a + a * rxc_asin_polyf(a * a);
  } else {
    z = (1.0f - a) * 0.5f;
    s = rxc_sqrtf(z);
    r = 1.570796371e+00f - (2.0f * s + (2.0f * s * rxc_asin_polyf(z) + 4.371138829e-08f));
  }
  return rxc_copysignf(r, x);
}

RXC_INLINE double
rxc_asin(double x)
{
  double a = rxc_fabs(x), z, s, r;
  if (x != x)
    return x + x;
  if (a > 1.0)
    return RXC_NAN;
  if (a <= 0.5) {
    r = a + a * rxc_asin_poly(a * a);
  } else {
    z = (1.0 - a) * 0.5;
    s = rxc_sqrt(z);
    r = 1.5707963267948966 - (2.0 * s + (2.0 * s * rxc_asin_poly(z) - 6.123233995736766e-17));
  }
  return rxc_copysign(r, x);
}

/* acos x = pi/2 - asin x near 0; 2 asin(sqrt((1-x)/2)) near 1; pi minus
 * that near -1. */
RXC_INLINE float
rxc_acosf(float x)
{
  float a = rxc_fabsf(x), z, s, t;
  if (x != x)
    return x + x;
  if (a > 1.0f)
    return RXC_NANF;
  if (a <= 0.5f)
    return 1.570796371e+00f - (x + (x * rxc_asin_polyf(x * x) + 4.371138829e-08f));
  z = (1.0f - a) * 0.5f;
  s = rxc_sqrtf(z);
  t = 2.0f * s + 2.0f * s * rxc_asin_polyf(z);
  return x > 0 ? t : 3.141592741e+00f - (t + 8.742277657e-08f);
}

RXC_INLINE double
rxc_acos(double x)
{
  double a = rxc_fabs(x), z, s, t;
  if (x != x)
    return x + x;
  if (a > 1.0)
    return RXC_NAN;
  if (a <= 0.5)
    return 1.5707963267948966 - (x + (x * rxc_asin_poly(x * x) - 6.123233995736766e-17));
  z = (1.0 - a) * 0.5;
  s = rxc_sqrt(z);
  t = 2.0 * s + 2.0 * s * rxc_asin_poly(z);
  return x > 0 ? t : 3.141592653589793 - (t - 1.2246467991473532e-16);
}

#endif /* RXC_RT_MATH_TRIG_H */
