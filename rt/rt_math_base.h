/*
 * rt_math_base.h - the exact operations of the runtime math: bit access,
 * fabs, trunc/floor/ceil/round/nearbyint, NaN-propagating max/min, sqrt,
 * fmod, and scaling by a power of two.  Pure C99 over rxc_u32/rxc_u64: no
 * libc, no libm, no assumption about the rounding mode or an FPU's sqrt.
 *
 * Key ideas: rounding functions clear the fraction bits below the binary
 * point, so they are exact and keep the sign of zero; sqrt is the
 * digit-by-digit (restoring) square root of the integer significand, two
 * radicand bits a step, rounded by the remainder (exact ties cannot occur),
 * so it is correctly rounded; fmod is binary long division of the
 * significands, also exact.  Every function is `static inline`, so the unused
 * ones cost nothing and draw no warning, and nothing clashes between units.
 *
 * Requires rt_types.h.  A unit carries either these pure pieces or
 * rt_libm.h (the same names over <math.h>), never both.
 */
#ifndef RXC_RT_MATH_BASE_H
#define RXC_RT_MATH_BASE_H

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF /* the exact splittings below must not become fma */
#endif

/* static inline: no symbol, no clash; marked unused because clang warns
 * about unused static inline functions in a main file (NAME.c is one).
 * On the 64-bit hosts, always inlined: gcc stops inlining into a function
 * grown past --param large-function-growth (an entry into which it has
 * inlined the prim_funcs called once), and a loop that calls rxc_expf
 * instead of holding it does not vectorize (efficientnet_b0 spent half its
 * time in such calls).  A Cortex-M build keeps its size. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__TINYC__) && \
    (defined(__x86_64__) || defined(__aarch64__))
#define RXC_INLINE static inline __attribute__((unused, always_inline))
#elif defined(__GNUC__) || defined(__clang__) || defined(__TINYC__)
#define RXC_INLINE static inline __attribute__((unused))
#else
#define RXC_INLINE static inline
#endif

typedef union {
  float f;
  rxc_u32 u;
} rxc_bits32;
typedef union {
  double f;
  rxc_u64 u;
} rxc_bits64;

RXC_INLINE rxc_u32
rxc_f2u(float x)
{
  rxc_bits32 b;
  b.f = x;
  return b.u;
}

RXC_INLINE float
rxc_u2f(rxc_u32 u)
{
  rxc_bits32 b;
  b.u = u;
  return b.f;
}

RXC_INLINE rxc_u64
rxc_d2u(double x)
{
  rxc_bits64 b;
  b.f = x;
  return b.u;
}

RXC_INLINE double
rxc_u2d(rxc_u64 u)
{
  rxc_bits64 b;
  b.u = u;
  return b.f;
}

#define RXC_INFF rxc_u2f(0x7f800000u)
#define RXC_NANF rxc_u2f(0x7fc00000u)
#define RXC_INF rxc_u2d((rxc_u64)0x7ff00000u << 32)
#define RXC_NAN rxc_u2d((rxc_u64)0x7ff80000u << 32)

RXC_INLINE int rxc_isnanf(float x) { return x != x; }
RXC_INLINE int rxc_isnan(double x) { return x != x; }
RXC_INLINE int rxc_isinff(float x) { return (rxc_f2u(x) & 0x7fffffffu) == 0x7f800000u; }
RXC_INLINE int rxc_isinf(double x) { return (rxc_d2u(x) << 1) == (rxc_u64)0xffe00000u << 32; }
RXC_INLINE int rxc_isfinitef(float x) { return (rxc_f2u(x) & 0x7f800000u) != 0x7f800000u; }
RXC_INLINE int rxc_isfinite(double x) { return ((rxc_d2u(x) >> 52) & 0x7ff) != 0x7ff; }

RXC_INLINE float rxc_fabsf(float x) { return rxc_u2f(rxc_f2u(x) & 0x7fffffffu); }
RXC_INLINE double rxc_fabs(double x) { return rxc_u2d(rxc_d2u(x) << 1 >> 1); }

/* |x| with the sign of s. */
RXC_INLINE float
rxc_copysignf(float x, float s)
{
  return rxc_u2f((rxc_f2u(x) & 0x7fffffffu) | (rxc_f2u(s) & 0x80000000u));
}

RXC_INLINE double
rxc_copysign(double x, double s)
{
  return rxc_u2d((rxc_d2u(x) << 1 >> 1) | (rxc_d2u(s) >> 63 << 63));
}

/* 2^k as a float for k in [-126, 127] (a normal number, built exactly). */
RXC_INLINE float rxc_pow2f(int k) { return rxc_u2f((rxc_u32)(k + 127) << 23); }
/* 2^k as a double for k in [-1022, 1023]. */
RXC_INLINE double rxc_pow2(int k) { return rxc_u2d((rxc_u64)(k + 1023) << 52); }

/* v * 2^k with one rounding, for |v| in [0.5, 2] and k in [-160, 260]:
 * too large goes through two exact factors and overflows to inf; too small
 * is first made exact and normal, then rounded once into the subnormals. */
RXC_INLINE float
rxc_scalef(float v, int k)
{
  if (k > 127) {
    v *= rxc_pow2f(127);
    k -= 127;
    return k > 127 ? v * rxc_pow2f(127) : v * rxc_pow2f(k);
  }
  if (k < -126)
    return v * rxc_pow2f(k + 64) * rxc_pow2f(-64);
  return v * rxc_pow2f(k);
}

/* The same in double, for k in [-1200, 2100]. */
RXC_INLINE double
rxc_scale(double v, int k)
{
  if (k > 1023) {
    v *= rxc_pow2(1023);
    k -= 1023;
    return k > 1023 ? v * rxc_pow2(1023) : v * rxc_pow2(k);
  }
  if (k < -1022)
    return v * rxc_pow2(k + 200) * rxc_pow2(-200);
  return v * rxc_pow2(k);
}

/* x rounded toward zero: the fraction bits cleared (sign of zero kept). */
RXC_INLINE float
rxc_truncf(float x)
{
  rxc_u32 u = rxc_f2u(x);
  int e = (int)((u >> 23) & 0xff) - 127;
  if (e >= 23)
    return x; /* integral, inf or NaN */
  if (e < 0)
    return rxc_u2f(u & 0x80000000u);
  return rxc_u2f(u & ~(0x007fffffu >> e));
}

RXC_INLINE double
rxc_trunc(double x)
{
  rxc_u64 u = rxc_d2u(x);
  int e = (int)((u >> 52) & 0x7ff) - 1023;
  if (e >= 52)
    return x;
  if (e < 0)
    return rxc_u2d(u >> 63 << 63);
  return rxc_u2d(u & ~(((rxc_u64)1 << (52 - e)) - 1));
}

RXC_INLINE float
rxc_floorf(float x)
{
  float t = rxc_truncf(x);
  return t > x ? t - 1.0f : t;
}

RXC_INLINE double
rxc_floor(double x)
{
  double t = rxc_trunc(x);
  return t > x ? t - 1.0 : t;
}

RXC_INLINE float
rxc_ceilf(float x)
{
  float t = rxc_truncf(x);
  return t < x ? t + 1.0f : t;
}

RXC_INLINE double
rxc_ceil(double x)
{
  double t = rxc_trunc(x);
  return t < x ? t + 1.0 : t;
}

/* Nearest integer, halfway cases away from zero (C's round).  x - trunc(x)
 * is exact, so the comparison with 1/2 decides exactly. */
RXC_INLINE float
rxc_roundf(float x)
{
  float t = rxc_truncf(x), d = x - t;
  return d >= 0.5f ? t + 1.0f : d <= -0.5f ? t - 1.0f : t;
}

RXC_INLINE double
rxc_round(double x)
{
  double t = rxc_trunc(x), d = x - t;
  return d >= 0.5 ? t + 1.0 : d <= -0.5 ? t - 1.0 : t;
}

/* Nearest integer, halfway cases to even (nearbyint in the default mode,
 * numpy's round, TIR's round), independent of the current rounding mode. */
RXC_INLINE float
rxc_nearbyintf(float x)
{
  float t = rxc_truncf(x), d = x - t, a = rxc_fabsf(d);
  int away = a > 0.5f || (a == 0.5f && ((rxc_i32)t & 1));
  return away ? (d > 0 ? t + 1.0f : t - 1.0f) : t;
}

RXC_INLINE double
rxc_nearbyint(double x)
{
  double t = rxc_trunc(x), d = x - t, a = rxc_fabs(d);
  int away = a > 0.5 || (a == 0.5 && rxc_trunc(t * 0.5) != t * 0.5);
  return away ? (d > 0 ? t + 1.0 : t - 1.0) : t;
}

/* numpy's maximum/minimum: a NaN operand gives NaN (unlike C's fmax). */
RXC_INLINE float
rxc_fmaxf(float a, float b)
{
  return a != a ? a : b != b ? b : a > b ? a : b;
}

RXC_INLINE float
rxc_fminf(float a, float b)
{
  return a != a ? a : b != b ? b : a < b ? a : b;
}

RXC_INLINE double
rxc_fmax(double a, double b)
{
  return a != a ? a : b != b ? b : a > b ? a : b;
}

RXC_INLINE double
rxc_fmin(double a, double b)
{
  return a != a ? a : b != b ? b : a < b ? a : b;
}

/* Correctly rounded square root.  x = m 2^e with e even and m in [2^23, 2^25)
 * (as an integer); the root of N = m 2^23 is found bit by bit: bring down
 * two bits of N, try the next root bit (rem >= 4 q + 1), 24 steps.  The
 * remainder N - q^2 exceeds q exactly when the root is above q + 1/2. */
RXC_INLINE float
rxc_sqrtf(float x)
{
  rxc_u32 u = rxc_f2u(x), rem = 0, q = 0, m;
  rxc_u64 n;
  int e = (int)(u >> 23) - 127, i;
  if (x != x || x == 0 || u == 0x7f800000u)
    return x + x; /* NaN, +-0, +inf */
  if (u >> 31)
    return RXC_NANF;
  m = (u & 0x007fffffu) | 0x00800000u;
  if (e == -127) { /* subnormal: normalize */
    m = u & 0x007fffffu;
    for (e = -126; !(m & 0x00800000u); e--)
      m <<= 1;
  }
  if (e & 1) {
    m <<= 1;
    e -= 1;
  }
  n = (rxc_u64)m << 23;
  for (i = 0; i < 24; i++) {
    rxc_u32 t;
    rem = (rem << 2) | (rxc_u32)((n >> (46 - 2 * i)) & 3);
    t = (q << 2) | 1;
    q <<= 1;
    if (rem >= t) {
      rem -= t;
      q |= 1;
    }
  }
  q += rem > q;
  return rxc_u2f(((rxc_u32)(e / 2 + 126) << 23) + q);
}

/* The same in double: m in [2^52, 2^54), N = m 2^52, 53 steps. */
RXC_INLINE double
rxc_sqrt(double x)
{
  rxc_u64 u = rxc_d2u(x), rem = 0, q = 0, m;
  int e = (int)(u >> 52) - 1023, i;
  if (x != x || x == 0 || u == (rxc_u64)0x7ff00000u << 32)
    return x + x;
  if (u >> 63)
    return RXC_NAN;
  m = (u & (((rxc_u64)1 << 52) - 1)) | ((rxc_u64)1 << 52);
  if (e == -1023) {
    m = u & (((rxc_u64)1 << 52) - 1);
    for (e = -1022; !(m >> 52); e--)
      m <<= 1;
  }
  if (e & 1) {
    m <<= 1;
    e -= 1;
  }
  for (i = 0; i < 53; i++) {
    rxc_u64 t;
    rem = (rem << 2) | (i < 27 ? (m >> (52 - 2 * i)) & 3 : 0);
    t = (q << 2) | 1;
    q <<= 1;
    if (rem >= t) {
      rem -= t;
      q |= 1;
    }
  }
  q += rem > q;
  return rxc_u2d(((rxc_u64)(e / 2 + 1022) << 52) + q);
}

RXC_INLINE float rxc_rsqrtf(float x) { return 1.0f / rxc_sqrtf(x); }
RXC_INLINE double rxc_rsqrt(double x) { return 1.0 / rxc_sqrt(x); }

/* The significand (integer, implicit bit included) and exponent of a finite
 * nonzero float: |x| = m 2^e with m in [2^23, 2^24). */
RXC_INLINE rxc_u32
rxc_unpackf(float x, int *e)
{
  rxc_u32 u = rxc_f2u(x) & 0x7fffffffu, m = u & 0x007fffffu;
  if (u < 0x00800000u) {
    for (*e = -149; !(m & 0x00800000u); (*e)--)
      m <<= 1;
    return m;
  }
  *e = (int)(u >> 23) - 150;
  return m | 0x00800000u;
}

RXC_INLINE rxc_u64
rxc_unpack(double x, int *e)
{
  rxc_u64 u = rxc_d2u(x) << 1 >> 1, m = u & (((rxc_u64)1 << 52) - 1);
  if (u < (rxc_u64)1 << 52) {
    for (*e = -1074; !(m >> 52); (*e)--)
      m <<= 1;
    return m;
  }
  *e = (int)(u >> 52) - 1075;
  return m | ((rxc_u64)1 << 52);
}

/* The float m 2^e (exact: m < 2^24 and the value representable). */
RXC_INLINE float
rxc_packf(rxc_u32 m, int e)
{
  if (m == 0)
    return 0.0f;
  for (; m < 0x00800000u; e--)
    m <<= 1;
  if (e < -149) /* subnormal: the bits shifted out are zero */
    return rxc_u2f(m >> (-149 - e));
  return rxc_u2f(((rxc_u32)(e + 150) << 23) + (m & 0x007fffffu));
}

RXC_INLINE double
rxc_pack(rxc_u64 m, int e)
{
  if (m == 0)
    return 0.0;
  for (; !(m >> 52); e--)
    m <<= 1;
  if (e < -1074)
    return rxc_u2d(m >> (-1074 - e));
  return rxc_u2d(((rxc_u64)(e + 1075) << 52) + (m & (((rxc_u64)1 << 52) - 1)));
}

/* x - trunc(x / y) * y, exactly: long division of the significands, one
 * quotient bit per exponent step; the sign is x's. */
RXC_INLINE float
rxc_fmodf(float x, float y)
{
  rxc_u32 mx, my;
  int ex, ey;
  float ax = rxc_fabsf(x), ay = rxc_fabsf(y);
  if (x != x || y != y || y == 0 || ax == RXC_INFF)
    return RXC_NANF;
  if (ax < ay)
    return x;
  mx = rxc_unpackf(ax, &ex);
  my = rxc_unpackf(ay, &ey);
  for (; ex > ey; ex--) {
    if (mx >= my)
      mx -= my;
    mx <<= 1;
  }
  if (mx >= my)
    mx -= my;
  return rxc_copysignf(rxc_packf(mx, ey), x);
}

RXC_INLINE double
rxc_fmod(double x, double y)
{
  rxc_u64 mx, my;
  int ex, ey;
  double ax = rxc_fabs(x), ay = rxc_fabs(y);
  if (x != x || y != y || y == 0 || ax == RXC_INF)
    return RXC_NAN;
  if (ax < ay)
    return x;
  mx = rxc_unpack(ax, &ex);
  my = rxc_unpack(ay, &ey);
  for (; ex > ey; ex--) {
    if (mx >= my)
      mx -= my;
    mx <<= 1;
  }
  if (mx >= my)
    mx -= my;
  return rxc_copysign(rxc_pack(mx, ey), x);
}

/* Splittings x = hi + lo with both halves of 12 (float) or 26 (double)
 * significant bits, so that products of halves are exact (Dekker's
 * product): float truncates 12 bits; double needs Veltkamp's rounding split
 * (the sign of lo gives the 53rd bit), valid for |x| below 2^995. */
RXC_INLINE float
rxc_split_hif(float x)
{
  return rxc_u2f(rxc_f2u(x) & 0xfffff000u);
}

RXC_INLINE double
rxc_split_hi(double x)
{
  double c = 134217729.0 * x; /* 2^27 + 1 */
  return c - (c - x);
}

/* x * x (a * b) = *hi + *lo exactly (Dekker), barring overflow. */
RXC_INLINE void
rxc_square2f(float x, float *hi, float *lo)
{
  float xh = rxc_split_hif(x), xl = x - xh;
  *hi = x * x;
  *lo = ((xh * xh - *hi) + 2.0f * xh * xl) + xl * xl;
}

RXC_INLINE void
rxc_mul2(double a, double b, double *hi, double *lo)
{
  double ah = rxc_split_hi(a), al = a - ah, bh = rxc_split_hi(b), bl = b - bh;
  *hi = a * b;
  *lo = (((ah * bh - *hi) + ah * bl) + al * bh) + al * bl;
}

#endif /* RXC_RT_MATH_BASE_H */
