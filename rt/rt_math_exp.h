/*
 * rt_math_exp.h - exponentials and logarithms: exp, exp2, exp10, expm1,
 * log, log2, log10, log1p, sinh, cosh, tanh, asinh, acosh, atanh, sigmoid,
 * erf, pow; float and double.  Requires rt_types.h and rt_math_base.h.
 *
 * Key ideas (textbook algorithms, constants derived by rt/tools/gen_consts.py):
 *  - exp: x = k ln2 + r with |r| <= ln2/2 (Cody and Waite: ln2 split in a
 *    short high part, so k * hi and x - k * hi are exact), exp(r) by its
 *    Taylor series (degree 7 for float: error 5e-9; 13 for double: 4e-18),
 *    then times 2^k with one rounding (rxc_scalef), overflow to inf and
 *    gradual underflow included.
 *  - log: x = 2^e m with m in [sqrt(1/2), sqrt(2)), f = m - 1, s = f/(2+f);
 *    log(1+f) = 2 atanh(s) = f - (f^2/2 - s (f^2/2 + R(s^2))) where R is the
 *    atanh series beyond its first term: the large terms are exact or nearly.
 *  - log1p adds the first-order correction of the rounding of 1 + x;
 *    expm1 writes 2^k exp(r) - 1 = 2^k expm1(r) + (2^k - 1), exact for small k.
 *  - asinh, acosh, atanh: log1p of an argument written without
 *    cancellation (fdlibm's forms), log(x) + ln 2 where x^2 is past the
 *    precision.
 *  - erf: x P(x^2) on [0, 1]; 1 - exp(-x^2) Q(x) beyond, with Q a
 *    near-minimax fit of erfc(x) exp(x^2) on a few intervals and x^2 split
 *    exactly (Dekker) so that exp(-x^2) keeps its accuracy.
 *  - pow (both precisions through double): ln|x| as a double-double, times y
 *    as a double-double, exp of a double-double; C99's special cases first.
 */
#ifndef RXC_RT_MATH_EXP_H
#define RXC_RT_MATH_EXP_H

/* exp(r) for |r| <= 0.35: Taylor to degree 7. */
RXC_INLINE float
rxc_exp_kernelf(float r)
{
  float p = 1.984126984e-04f;
  p = 1.388888889e-03f + r * p;
  p = 8.333333333e-03f + r * p;
  p = 4.166666667e-02f + r * p;
  p = 1.666666667e-01f + r * p;
  p = 0.5f + r * p;
  return 1.0f + (r + r * r * p);
}

/* exp(r) - 1 for |r| <= 0.35: Taylor to degree 8. */
RXC_INLINE float
rxc_expm1_kernelf(float r)
{
  float p = 2.480158730e-05f;
  p = 1.984126984e-04f + r * p;
  p = 1.388888889e-03f + r * p;
  p = 8.333333333e-03f + r * p;
  p = 4.166666667e-02f + r * p;
  p = 1.666666667e-01f + r * p;
  p = 0.5f + r * p;
  return r + r * r * p;
}

/* Taylor to degree 14: the degree-13 truncation of exp plus one term. */
RXC_INLINE double
rxc_expm1_kernel(double r)
{
  double p = 1.14707455977297245e-11;
  p = 1.60590438368216133e-10 + r * p;
  p = 2.08767569878681002e-09 + r * p;
  p = 2.50521083854417202e-08 + r * p;
  p = 2.75573192239858883e-07 + r * p;
  p = 2.75573192239858925e-06 + r * p;
  p = 2.48015873015873016e-05 + r * p;
  p = 1.98412698412698413e-04 + r * p;
  p = 1.38888888888888894e-03 + r * p;
  p = 8.33333333333333322e-03 + r * p;
  p = 4.16666666666666644e-02 + r * p;
  p = 1.66666666666666657e-01 + r * p;
  p = 0.5 + r * p;
  return r + r * r * p;
}

RXC_INLINE double rxc_exp_kernel(double r) { return 1.0 + rxc_expm1_kernel(r); }

/* k = nearest integer to x / ln2 and r = x - k ln2 (|x| < 200 float). */
RXC_INLINE float
rxc_exp_reducef(float x, int *k)
{
  float t = x * 1.442695022e+00f;
  *k = (int)(t + (t >= 0 ? 0.5f : -0.5f));
  return (x - (float)*k * 0.693145751953125f) - (float)*k * 1.428606765e-06f;
}

RXC_INLINE double
rxc_exp_reduce(double x, int *k)
{
  double t = x * 1.4426950408889634;
  *k = (int)(t + (t >= 0 ? 0.5 : -0.5));
  return (x - (double)*k * 0.6931471806019545) - (double)*k * -4.2009150726810846e-11;
}

/* b when take is 1, a when 0, chosen by a bit mask rather than ?:, which a
 * C compiler may turn into a branch. */
RXC_INLINE float
rxc_pickf(int take, float a, float b)
{
  rxc_u32 m = (rxc_u32)0 - (rxc_u32)take;
  return rxc_u2f((rxc_f2u(a) & ~m) | (rxc_f2u(b) & m));
}

RXC_INLINE double
rxc_pick(int take, double a, double b)
{
  rxc_u64 m = (rxc_u64)0 - (rxc_u64)take;
  return rxc_u2d((rxc_d2u(a) & ~m) | (rxc_d2u(b) & m));
}

/* Without a branch, so that a loop of expf vectorizes (softmax's rows):
 * x clamped into [-104, 89] (NaN to -104) for the reduction, and the
 * special cases chosen at the end.  Every operation runs unconditionally
 * and each ?: only picks a computed value: under -ftrapping-math (the
 * default) a C compiler keeps a branch around an operation that might
 * raise a flag, and a branch stops vectorization.  2^k is applied as two
 * exact factors 2^(k/2) 2^(k - k/2), the first keeping v normal for every
 * k of the range, so the result is rounded once, as rxc_scalef rounds it
 * (equal to it on every float, checked exhaustively). */
RXC_INLINE float
rxc_expf(float x)
{
  int k;
  float nan = x + x;
  int is_nan = x != x, over = x > 89.0f, under = x < -104.0f;
  float c = rxc_pickf(under | is_nan, rxc_pickf(over, x, 89.0f), -104.0f);
  float r = rxc_exp_reducef(c, &k);
  float y = rxc_exp_kernelf(r) * rxc_pow2f(k / 2) * rxc_pow2f(k - k / 2);
  return rxc_pickf(is_nan, rxc_pickf(over, rxc_pickf(under, y, 0.0f), RXC_INFF), nan);
}

RXC_INLINE double
rxc_exp(double x)
{
  int k;
  double r;
  if (x != x)
    return x + x;
  if (x > 710.0)
    return RXC_INF;
  if (x < -746.0)
    return 0.0;
  r = rxc_exp_reduce(x, &k);
  return rxc_scale(rxc_exp_kernel(r), k);
}

/* 2^x = 2^k 2^r with r = x - k exact, 2^r = exp(r ln2). */
RXC_INLINE float
rxc_exp2f(float x)
{
  float k;
  if (x != x)
    return x + x;
  if (x >= 128.0f)
    return RXC_INFF;
  if (x < -151.0f)
    return 0.0f;
  k = rxc_nearbyintf(x);
  return rxc_scalef(rxc_exp_kernelf((x - k) * 6.931471825e-01f), (int)k);
}

RXC_INLINE double
rxc_exp2(double x)
{
  double k, r;
  if (x != x)
    return x + x;
  if (x >= 1024.0)
    return RXC_INF;
  if (x < -1076.0)
    return 0.0;
  k = rxc_nearbyint(x);
  r = x - k;
  return rxc_scale(rxc_exp_kernel(r * 0.6931471805599453 + r * 2.3190468138462996e-17), (int)k);
}

/* 10^x = 2^k 10^r, x = k log10(2) + r (log10(2) split as for exp). */
RXC_INLINE float
rxc_exp10f(float x)
{
  int k;
  float t, r;
  if (x != x)
    return x + x;
  if (x > 39.0f)
    return RXC_INFF;
  if (x < -46.0f)
    return 0.0f;
  t = x * 3.321928024e+00f;
  k = (int)(t + (t >= 0 ? 0.5f : -0.5f));
  r = (x - (float)k * 0.301025390625f) - (float)k * 4.605039067e-06f;
  return rxc_scalef(rxc_exp_kernelf(r * 2.302585125e+00f + r * -3.197543563e-08f), k);
}

RXC_INLINE double
rxc_exp10(double x)
{
  int k;
  double t, r;
  if (x != x)
    return x + x;
  if (x > 309.0)
    return RXC_INF;
  if (x < -324.0)
    return 0.0;
  t = x * 3.321928094887362;
  k = (int)(t + (t >= 0 ? 0.5 : -0.5));
  r = (x - (double)k * 0.3010299956658855) - (double)k * -1.9043128467164274e-12;
  return rxc_scale(rxc_exp_kernel(r * 2.302585092994046 + r * -2.1707562233822494e-16), k);
}

/* exp(x) - 1 accurate near 0: 2^k expm1(r) + (2^k - 1), exact for small k. */
RXC_INLINE float
rxc_expm1f(float x)
{
  int k;
  float r, p, t;
  if (x != x)
    return x + x;
  if (x > 89.0f)
    return RXC_INFF;
  if (x < -18.0f)
    return -1.0f;
  if (rxc_fabsf(x) <= 0.3465f)
    return rxc_expm1_kernelf(x);
  r = rxc_exp_reducef(x, &k);
  p = rxc_expm1_kernelf(r);
  if (k > 24)
    return rxc_scalef(1.0f + p, k) - 1.0f;
  t = rxc_pow2f(k);
  return t * p + (t - 1.0f);
}

RXC_INLINE double
rxc_expm1(double x)
{
  int k;
  double r, p, t;
  if (x != x)
    return x + x;
  if (x > 710.0)
    return RXC_INF;
  if (x < -40.0)
    return -1.0;
  if (rxc_fabs(x) <= 0.3465)
    return rxc_expm1_kernel(x);
  r = rxc_exp_reduce(x, &k);
  p = rxc_expm1_kernel(r);
  if (k > 53)
    return rxc_scale(1.0 + p, k) - 1.0;
  t = rxc_pow2(k);
  return t * p + (t - 1.0);
}

/* Splits finite positive x as 2^e (1 + f), 1 + f in [sqrt(1/2), sqrt(2)). */
RXC_INLINE float
rxc_log_splitf(float x, int *e)
{
  rxc_u32 u = rxc_f2u(x);
  *e = 0;
  if (u < 0x00800000u) { /* subnormal */
    u = rxc_f2u(x * 33554432.0f);
    *e = -25;
  }
  *e += (int)(u >> 23) - 127;
  u = (u & 0x007fffffu) | 0x3f800000u;
  if (u > 0x3fb504f3u) { /* above sqrt(2) */
    u -= 0x00800000u;
    *e += 1;
  }
  return rxc_u2f(u) - 1.0f;
}

RXC_INLINE double
rxc_log_split(double x, int *e)
{
  rxc_u64 u = rxc_d2u(x);
  *e = 0;
  if (u < (rxc_u64)1 << 52) {
    u = rxc_d2u(x * 18014398509481984.0); /* 2^54 */
    *e = -54;
  }
  *e += (int)(u >> 52) - 1023;
  u = (u & (((rxc_u64)1 << 52) - 1)) | ((rxc_u64)0x3ff00000u << 32);
  if (u > ((rxc_u64)0x3ff6a09eu << 32 | 0x667f3bcdu)) { /* above sqrt(2) */
    u -= (rxc_u64)1 << 52;
    *e += 1;
  }
  return rxc_u2d(u) - 1.0;
}

/* log(1 + f) for f in [sqrt(1/2) - 1, sqrt(2) - 1]. */
RXC_INLINE float
rxc_log1p_kernelf(float f)
{
  float s = f / (2.0f + f), z = s * s, hfsq = 0.5f * f * f, r;
  r = 1.818181818e-01f;
  r = 2.222222222e-01f + z * r;
  r = 2.857142857e-01f + z * r;
  r = 4.000000000e-01f + z * r;
  r = 6.666666667e-01f + z * r;
  r *= z;
  return f - (hfsq - s * (hfsq + r));
}

/* (R(z) - 2z/3) / z^2 = 2/5 + 2z/7 + ... + 2z^8/21, where R(z) = 2z/3 +
 * 2z^2/5 + ... is the atanh series after 2s. */
RXC_INLINE double
rxc_log_tail(double z)
{
  double r = 9.52380952380952328e-02;
  r = 1.05263157894736836e-01 + z * r;
  r = 1.17647058823529410e-01 + z * r;
  r = 1.33333333333333331e-01 + z * r;
  r = 1.53846153846153855e-01 + z * r;
  r = 1.81818181818181823e-01 + z * r;
  r = 2.22222222222222210e-01 + z * r;
  r = 2.85714285714285698e-01 + z * r;
  return 4.00000000000000022e-01 + z * r;
}

RXC_INLINE double
rxc_log_series(double z)
{
  return z * (6.66666666666666630e-01 + z * rxc_log_tail(z));
}

RXC_INLINE double
rxc_log1p_kernel(double f)
{
  double s = f / (2.0 + f), hfsq = 0.5 * f * f;
  return f - (hfsq - s * (hfsq + rxc_log_series(s * s)));
}

/* NaN for NaN and negative x, -inf for 0, inf for inf; else 0 in *done. */
RXC_INLINE float
rxc_log_specialf(float x, int *done)
{
  *done = 1;
  if (x != x)
    return x + x;
  if (x < 0)
    return RXC_NANF;
  if (x == 0)
    return -RXC_INFF;
  if (x == RXC_INFF)
    return x;
  *done = 0;
  return 0.0f;
}

RXC_INLINE double
rxc_log_special(double x, int *done)
{
  *done = 1;
  if (x != x)
    return x + x;
  if (x < 0)
    return RXC_NAN;
  if (x == 0)
    return -RXC_INF;
  if (x == RXC_INF)
    return x;
  *done = 0;
  return 0.0;
}

RXC_INLINE float
rxc_logf(float x)
{
  int e, done;
  float s = rxc_log_specialf(x, &done), f, l;
  if (done)
    return s;
  f = rxc_log_splitf(x, &e);
  l = rxc_log1p_kernelf(f);
  return (float)e * 0.693145751953125f + ((float)e * 1.428606765e-06f + l);
}

RXC_INLINE double
rxc_log(double x)
{
  int e, done;
  double s = rxc_log_special(x, &done), f, l;
  if (done)
    return s;
  f = rxc_log_split(x, &e);
  l = rxc_log1p_kernel(f);
  return (double)e * 0.6931471806019545 + ((double)e * -4.2009150726810846e-11 + l);
}

/* log2 x = e + log(1+f) / ln2 and log10 x = e log10(2) + log(1+f) / ln10,
 * the constants split in a high and a low part. */
RXC_INLINE float
rxc_log2f(float x)
{
  int e, done;
  float s = rxc_log_specialf(x, &done), l;
  if (done)
    return s;
  l = rxc_log1p_kernelf(rxc_log_splitf(x, &e));
  return (float)e + (l * 1.442695022e+00f + l * 1.925963033e-08f);
}

RXC_INLINE double
rxc_log2(double x)
{
  int e, done;
  double s = rxc_log_special(x, &done), l;
  if (done)
    return s;
  l = rxc_log1p_kernel(rxc_log_split(x, &e));
  return (double)e + (l * 1.4426950408889634 + l * 2.0355273740931033e-17);
}

RXC_INLINE float
rxc_log10f(float x)
{
  int e, done;
  float s = rxc_log_specialf(x, &done), l;
  if (done)
    return s;
  l = rxc_log1p_kernelf(rxc_log_splitf(x, &e));
  return (float)e * 0.301025390625f +
         ((float)e * 4.605039067e-06f + (l * 4.342944920e-01f + l * -1.010304995e-08f));
}

RXC_INLINE double
rxc_log10(double x)
{
  int e, done;
  double s = rxc_log_special(x, &done), l;
  if (done)
    return s;
  l = rxc_log1p_kernel(rxc_log_split(x, &e));
  return (double)e * 0.3010299956658855 +
         ((double)e * -1.9043128467164274e-12 +
          (l * 0.4342944819032518 + l * 1.098319650216765e-17));
}

/* log(1 + x): u = 1 + x rounded, c = x - (u - 1) what the rounding lost;
 * log(1 + x) = log(u) + c / u to first order. */
RXC_INLINE float
rxc_log1pf(float x)
{
  int e, done;
  float u, c, f, s;
  if (x == -1.0f)
    return -RXC_INFF;
  s = rxc_log_specialf(1.0f + x, &done);
  if (done || rxc_fabsf(x) < 2.9802322e-08f) /* 2^-25: log1p(x) rounds to x */
    return done ? s : x;
  u = 1.0f + x;
  c = x - (u - 1.0f);
  f = rxc_log_splitf(u, &e);
  return (float)e * 0.693145751953125f +
         ((float)e * 1.428606765e-06f + (rxc_log1p_kernelf(f) + c / u));
}

RXC_INLINE double
rxc_log1p(double x)
{
  int e, done;
  double u, c, f, s;
  if (x == -1.0)
    return -RXC_INF;
  s = rxc_log_special(1.0 + x, &done);
  if (done || rxc_fabs(x) < 5.5511151231257827e-17) /* 2^-54 */
    return done ? s : x;
  u = 1.0 + x;
  c = x - (u - 1.0);
  f = rxc_log_split(u, &e);
  return (double)e * 0.6931471806019545 +
         ((double)e * -4.2009150726810846e-11 + (rxc_log1p_kernel(f) + c / u));
}

/* sinh x = (t + t/(t+1)) / 2 with t = expm1|x|; near overflow through
 * exp(|x|/2)^2 / 2, so that it overflows only when the result does. */
RXC_INLINE float
rxc_sinhf(float x)
{
  float a = rxc_fabsf(x), t, w;
  if (a >= 88.0f) {
    w = rxc_expf(0.5f * a);
    return rxc_copysignf((0.5f * w) * w, x);
  }
  t = rxc_expm1f(a);
  return rxc_copysignf(0.5f * (t + t / (t + 1.0f)), x);
}

RXC_INLINE double
rxc_sinh(double x)
{
  double a = rxc_fabs(x), t, w;
  if (a >= 709.0) {
    w = rxc_exp(0.5 * a);
    return rxc_copysign((0.5 * w) * w, x);
  }
  t = rxc_expm1(a);
  return rxc_copysign(0.5 * (t + t / (t + 1.0)), x);
}

RXC_INLINE float
rxc_coshf(float x)
{
  float a = rxc_fabsf(x), t, w;
  if (a >= 88.0f) {
    w = rxc_expf(0.5f * a);
    return (0.5f * w) * w;
  }
  t = rxc_expf(a);
  return 0.5f * (t + 1.0f / t);
}

RXC_INLINE double
rxc_cosh(double x)
{
  double a = rxc_fabs(x), t, w;
  if (a >= 709.0) {
    w = rxc_exp(0.5 * a);
    return (0.5 * w) * w;
  }
  t = rxc_exp(a);
  return 0.5 * (t + 1.0 / t);
}

/* rxc_expm1f(u) for u in [+0, 18.2], the same operations without a branch:
 * there k <= 26, so rxc_scalef is the one product by 2^k; for u <= 0.3465
 * (where rxc_expm1f skips the reduction) k = 0 and r = u, and 1 * p + 0 is
 * p again, u being non-negative.  Both of the k > 24 forms are computed and
 * one picked. */
RXC_INLINE float
rxc_expm1_posf(float u)
{
  int k;
  float r = rxc_exp_reducef(u, &k), p = rxc_expm1_kernelf(r), t = rxc_pow2f(k);
  return rxc_pickf(k > 24, t * p + (t - 1.0f), (1.0f + p) * t - 1.0f);
}

/* tanh |x| = t / (t + 2) with t = expm1(2|x|); 1 beyond where it rounds to
 * 1.  Branch-free as rxc_expf, so that a loop of it vectorizes: |x| clamped
 * to 9.1 (NaN too) for expm1, the special cases picked at the end. */
RXC_INLINE float
rxc_tanhf(float x)
{
  float a = rxc_fabsf(x), nan = x + x, t, y;
  int is_nan = x != x, big = a > 9.1f;
  t = rxc_expm1_posf(2.0f * rxc_pickf(big | is_nan, a, 9.1f));
  y = rxc_pickf(big, rxc_copysignf(t / (t + 2.0f), x), rxc_copysignf(1.0f, x));
  return rxc_pickf(is_nan, y, nan);
}

RXC_INLINE double
rxc_tanh(double x)
{
  double a = rxc_fabs(x), t;
  if (x != x)
    return x + x;
  if (a > 19.1)
    return rxc_copysign(1.0, x);
  t = rxc_expm1(2.0 * a);
  return rxc_copysign(t / (t + 2.0), x);
}
/* asinh |x| = log1p(a + a^2 / (1 + sqrt(1 + a^2))), whose two terms are
 * positive (no cancellation); log(a) + ln 2 where a^2 would be past the
 * precision; x itself where x^3/6 is below half an ulp. */
RXC_INLINE float
rxc_asinhf(float x)
{
  float a = rxc_fabsf(x), t;
  if (x != x || a == RXC_INFF)
    return x + x;
  if (a < 2.44140625e-04f) /* 2^-12 */
    return x;
  if (a > 4096.0f)
    return rxc_copysignf(rxc_logf(a) + 0.6931471806f, x);
  t = a * a;
  return rxc_copysignf(rxc_log1pf(a + t / (1.0f + rxc_sqrtf(1.0f + t))), x);
}

RXC_INLINE double
rxc_asinh(double x)
{
  double a = rxc_fabs(x), t;
  if (x != x || a == RXC_INF)
    return x + x;
  if (a < 3.7252902984619141e-09) /* 2^-28 */
    return x;
  if (a > 268435456.0)
    return rxc_copysign(rxc_log(a) + 0.6931471805599453, x);
  t = a * a;
  return rxc_copysign(rxc_log1p(a + t / (1.0 + rxc_sqrt(1.0 + t))), x);
}

/* acosh x for x >= 1: with t = x - 1 (exact below 2), log1p(t + sqrt(2t +
 * t^2)); below 2^28 (2^12 in float) log(2x - 1/(x + sqrt(x^2 - 1))); above,
 * log(x) + ln 2.  NaN below 1. */
RXC_INLINE float
rxc_acoshf(float x)
{
  float t;
  if (x != x)
    return x + x;
  if (x < 1.0f)
    return RXC_NANF;
  if (x > 4096.0f)
    return rxc_logf(x) + 0.6931471806f;
  if (x > 2.0f)
    return rxc_logf(2.0f * x - 1.0f / (x + rxc_sqrtf(x * x - 1.0f)));
  t = x - 1.0f;
  return rxc_log1pf(t + rxc_sqrtf(2.0f * t + t * t));
}

RXC_INLINE double
rxc_acosh(double x)
{
  double t;
  if (x != x)
    return x + x;
  if (x < 1.0)
    return RXC_NAN;
  if (x > 268435456.0)
    return rxc_log(x) + 0.6931471805599453;
  if (x > 2.0)
    return rxc_log(2.0 * x - 1.0 / (x + rxc_sqrt(x * x - 1.0)));
  t = x - 1.0;
  return rxc_log1p(t + rxc_sqrt(2.0 * t + t * t));
}

/* atanh |x| = log1p(2a / (1 - a)) / 2, 1 - a exact from 1/2 up; below 1/2
 * the argument is written 2a + 2a^2 / (1 - a) so its large term is exact.
 * +-inf at +-1, NaN beyond. */
RXC_INLINE float
rxc_atanhf(float x)
{
  float a = rxc_fabsf(x), r;
  if (x != x)
    return x + x;
  if (a > 1.0f)
    return RXC_NANF;
  if (a == 1.0f)
    return rxc_copysignf(RXC_INFF, x);
  if (a < 2.44140625e-04f)
    return x;
  if (a < 0.5f)
    r = 0.5f * rxc_log1pf(2.0f * a + 2.0f * a * a / (1.0f - a));
  else
    r = 0.5f * rxc_log1pf(2.0f * a / (1.0f - a));
  return rxc_copysignf(r, x);
}

RXC_INLINE double
rxc_atanh(double x)
{
  double a = rxc_fabs(x), r;
  if (x != x)
    return x + x;
  if (a > 1.0)
    return RXC_NAN;
  if (a == 1.0)
    return rxc_copysign(RXC_INF, x);
  if (a < 3.7252902984619141e-09)
    return x;
  if (a < 0.5)
    r = 0.5 * rxc_log1p(2.0 * a + 2.0 * a * a / (1.0 - a));
  else
    r = 0.5 * rxc_log1p(2.0 * a / (1.0 - a));
  return rxc_copysign(r, x);
}

/* 1 / (1 + exp(-x)); for x < 0 as e / (1 + e), e = exp(x), so that it
 * underflows gradually instead of dividing by an overflowed exp(-x).  Both
 * quotients are computed and one picked, without a branch, so that a loop
 * of it (SiLU) vectorizes; NaN, not >= 0, takes the second as it did. */
RXC_INLINE float
rxc_sigmoidf(float x)
{
  int pos = x >= 0;
  float e = rxc_expf(rxc_pickf(pos, x, -x)), d = 1.0f + e;
  return rxc_pickf(pos, e / d, 1.0f / d);
}

RXC_INLINE double
rxc_sigmoid(double x)
{
  int pos = x >= 0;
  double e = rxc_exp(rxc_pick(pos, x, -x)), d = 1.0 + e;
  return rxc_pick(pos, e / d, 1.0 / d);
}

/* exp(-x^2) with x^2 split exactly: exp(-hi) (1 - lo). */
RXC_INLINE float
rxc_exp_negsquaref(float x)
{
  float hi, lo;
  rxc_square2f(x, &hi, &lo);
  return rxc_expf(-hi) * (1.0f - lo);
}

RXC_INLINE double
rxc_exp_negsquare(double x)
{
  double hi, lo;
  rxc_mul2(x, x, &hi, &lo);
  return rxc_exp(-hi) * (1.0 - lo);
}

/* Without a branch, so that a loop of it (GELU) vectorizes: the result
 * on [0, 1] and the one beyond are both computed, and of the latter's two
 * intervals, whose fits have the same degree, each coefficient (and the
 * centre) is picked per element so that one Horner chain serves both, each
 * step the operations of the interval's own chain.  Then the result is
 * picked: the small one, that one, +-1 from 4 on, or x + x for NaN. */
RXC_INLINE float
rxc_erff(float x)
{
  float a = rxc_fabsf(x), z = x * x, s, p, t, y;
  int lo = a < 2.25f;
  s = -9.667044571e-06f;
  s = 1.126595903e-04f + z * s;
  s = -8.484080406e-04f + z * s;
  s = 5.221031808e-03f + z * s;
  s = -2.686543073e-02f + z * s;
  s = 1.128378250e-01f + z * s;
  s = -3.761263847e-01f + z * s;
  s = x * 1.128379167e+00f + x * (z * s);
  t = a - rxc_pickf(lo, 3.125f, 1.625f);
  p = rxc_pickf(lo, 2.351611452e-07f, 1.658352325e-05f);
  p = rxc_pickf(lo, -1.029910044e-06f, -5.438910728e-05f) + t * p;
  p = rxc_pickf(lo, 3.924181538e-06f, 1.550398078e-04f) + t * p;
  p = rxc_pickf(lo, -1.639046733e-05f, -4.726155683e-04f) + t * p;
  p = rxc_pickf(lo, 6.725772959e-05f, 1.393905168e-03f) + t * p;
  p = rxc_pickf(lo, -2.678482939e-04f, -3.926548625e-03f) + t * p;
  p = rxc_pickf(lo, 1.038691340e-03f, 1.056147838e-02f) + t * p;
  p = rxc_pickf(lo, -3.915459332e-03f, -2.697788557e-02f) + t * p;
  p = rxc_pickf(lo, 1.431320696e-02f, 6.496207492e-02f) + t * p;
  p = rxc_pickf(lo, -5.060196661e-02f, -1.460302371e-01f) + t * p;
  p = rxc_pickf(lo, 1.724443521e-01f, 3.022612094e-01f) + t * p;
  y = rxc_copysignf(1.0f - rxc_exp_negsquaref(a) * p, x);
  y = rxc_pickf(a >= 4.0f, y, rxc_copysignf(1.0f, x));
  return rxc_pickf(x != x, rxc_pickf(a <= 1.0f, y, s), x + x);
}

/* Horner's rule over n coefficients, highest degree first. */
RXC_INLINE double
rxc_horner(const double *c, int n, double t)
{
  double p = c[0];
  int i;
  for (i = 1; i < n; i++)
    p = c[i] + t * p;
  return p;
}

/* erfc(x) exp(x^2) for 1 <= x < 6: a fit per interval in t = x - mid. */
RXC_INLINE double
rxc_erfc_scaled(double x)
{
  static const double mid[7] = {1.25, 1.75, 2.25, 2.75, 3.375, 4.125, 5.25};
  static const double top[7] = {1.5, 2.0, 2.5, 3.0, 3.75, 4.5, 6.0};
  static const int len[7] = {14, 14, 13, 13, 14, 13, 15};
  static const double c[96] = {
      -1.66107670306251119e-06, 5.50170183982838698e-06, -1.73414592549775621e-05,
      5.40449150851440323e-05, -1.62960121111312221e-04, 4.73970700615345406e-04,
      -1.32578292723685431e-03, 3.55310989468329711e-03, -9.08162763295995885e-03,
      2.20113642509462380e-02, -5.02182743959074668e-02, 1.06795571496598449e-01,
      -2.08821875964609854e-01, 3.67822916452361093e-01,
      -2.31311324438099532e-07, 8.40644960856185332e-07, -2.92763224927802006e-06,
      1.00855186801041319e-05, -3.37553683055287799e-05, 1.09505338168400606e-04,
      -3.43533353184748028e-04, 1.03920452135691397e-03, -3.02097465142811463e-03,
      8.40431920734018706e-03, -2.22599952413883168e-02, 5.57636300870872278e-02,
      -1.30976345514485198e-01, 2.84972234737436381e-01,
      1.51327526231464291e-07, -5.88328265726303205e-07, 2.20287364391811162e-06,
      -8.14968062978239249e-06, 2.93532529303361416e-05, -1.02721103781297624e-04,
      3.48535421944119750e-04, -1.14372848324107747e-03, 3.61899535435887282e-03,
      -1.10020607564432719e-02, 3.19926274107062633e-02, -8.84865028087491456e-02,
      2.31087258730391876e-01,
      3.15424052530432568e-08, -1.34097179253576836e-07, 5.51949747253041879e-07,
      -2.24725821765983487e-06, 8.94015702656910973e-06, -3.46986139025604791e-05,
      1.31181800512587739e-04, -4.82195084902177073e-04, 1.71958188528935373e-03,
      -5.93433789699859306e-03, 1.97585929873228643e-02, -6.32376375606348434e-02,
      1.93662096279068691e-01,
      -1.11743881798490959e-09, 5.37573726523881946e-09, -2.48792224195055859e-08,
      1.15545109752305923e-07, -5.26898019023051684e-07, 2.35611536960762918e-06,
      -1.03229215263015042e-05, 4.42643132711756715e-05, -1.85522283051146761e-04,
      7.58930645419568918e-04, -3.02519663590958016e-03, 1.17278999370291539e-02,
      -4.41194572413378464e-02, 1.60631068126544402e-01,
      7.89451582907104969e-10, -4.20801667828243660e-09, 2.17461988934430688e-08,
      -1.12479265605493792e-07, 5.72767090435258989e-07, -2.86887384115639748e-06,
      1.41251681490249530e-05, -6.83073735884238905e-05, 3.24143420689075904e-04,
      -1.50786004441512910e-03, 6.86820952458735371e-03, -3.05931543555444559e-02,
      1.33064971241208252e-01,
      1.65475405327079079e-12, -1.06152845611526449e-11, 6.39061389036339397e-11,
      -4.00984046756588519e-10, 2.49140796923117247e-09, -1.52878175032003228e-08,
      9.27169066076828889e-08, -5.55558055448223067e-07, 3.28754768102802189e-06,
      -1.92040786773723677e-05, 1.10684056068980147e-04, -6.29101491042266927e-04,
      3.52415094011139735e-03, -1.94454446721486519e-02, 1.05612735468891800e-01};
  int i = 0, at = 0;
  while (i < 6 && x >= top[i])
    at += len[i++];
  return rxc_horner(c + at, len[i], x - mid[i]);
}

RXC_INLINE double
rxc_erf(double x)
{
  static const double small[13] = {
      5.95717614774891131e-11,  -1.13728488567916737e-09, 1.46597752740474363e-08,
      -1.63503127010546952e-07, 1.64610004841213676e-06,  -1.49255952668311818e-05,
      1.20553311116427105e-04,  -8.54832698083379003e-04, 5.22397762481801448e-03,
      -2.68661706450767923e-02, 1.12837916709548791e-01,  -3.76126389031837483e-01,
      1.12837916709551256e+00};
  double a = rxc_fabs(x);
  if (x != x)
    return x + x;
  if (a <= 1.0) {
    double z = x * x;
    return x * small[12] + x * (z * rxc_horner(small, 12, z));
  }
  if (a >= 6.0)
    return rxc_copysign(1.0, x);
  return rxc_copysign(1.0 - rxc_exp_negsquare(a) * rxc_erfc_scaled(a), x);
}

/* Two-sum: *s + *e = a + b exactly. */
RXC_INLINE void
rxc_add2(double a, double b, double *s, double *e)
{
  double t = a + b, bb = t - a;
  *s = t;
  *e = (a - (t - bb)) + (b - bb);
}

/* ln x for finite x > 0 as a double-double *hi + *lo (about 100 bits), for
 * pow, whose error is y ln x times that of ln x.  ln x = e ln2 + 2 atanh s
 * with s = f/(2+f) = sh + sl (its rounding error recovered with Dekker's
 * product); 2s and (2/3)s^3 are summed in double-double, the terms from
 * s^5 on, below 2^-10 of the result, in plain double. */
RXC_INLINE void
rxc_log_dd(double x, double *hi, double *lo)
{
  int e;
  double f = rxc_log_split(x, &e), d = 2.0 + f, dl = f - (d - 2.0), sh = f / d;
  double ph, pl, sl, zh, zl, ch, cl, th, tl, z, tail, a, ae, b, be;
  rxc_mul2(sh, d, &ph, &pl);
  sl = (((f - ph) - pl) - sh * dl) / d; /* f / (d + dl) = sh + sl */
  rxc_mul2(sh, sh, &zh, &zl);
  zl += 2.0 * sh * sl; /* s^2 = zh + zl */
  rxc_mul2(zh, sh, &ch, &cl);
  cl += zl * sh + zh * sl; /* s^3 = ch + cl */
  rxc_mul2(ch, 0.66666666666666663, &th, &tl);
  tl += cl * 0.66666666666666663 + ch * 3.7007434154171883e-17; /* (2/3) s^3 */
  z = zh;
  tail = sh * z * z * rxc_log_tail(z); /* s^5 on */
  rxc_add2((double)e * 0.6931471806019545, 2.0 * sh, &a, &ae);
  rxc_add2(a, th, &b, &be);
  rxc_add2(b, ae + be + (2.0 * sl + tl + tail + (double)e * -4.2009150726810846e-11), hi, lo);
}

/* |x|^y for finite x != 0 and finite y: exp(y ln|x|) in double-double. */
RXC_INLINE double
rxc_pow_core(double x, double y)
{
  double lh, ll, ph, pl;
  int k;
  rxc_log_dd(rxc_fabs(x), &lh, &ll);
  if (rxc_fabs(y) > 1e300 || rxc_fabs(y * lh) > 2000.0)
    return (y > 0) == (lh > 0) ? RXC_INF : 0.0;
  rxc_mul2(y, lh, &ph, &pl);
  pl += y * ll;
  if (ph > 710.0)
    return RXC_INF;
  if (ph < -746.0)
    return 0.0;
  ph = rxc_exp_reduce(ph, &k);
  return rxc_scale(rxc_exp_kernel(ph + pl), k);
}

/* 1 when y is an odd integer, 0 when an even one, -1 when not an integer. */
RXC_INLINE int
rxc_parity(double y)
{
  if (rxc_trunc(y) != y)
    return -1;
  if (rxc_fabs(y) >= 9007199254740992.0)
    return 0;
  return rxc_trunc(y * 0.5) != y * 0.5;
}

/* pow with C99's special cases (Annex F.9.4.4). */
RXC_INLINE double
rxc_pow(double x, double y)
{
  int odd = rxc_parity(y);
  double ax = rxc_fabs(x), r;
  if (y == 0 || x == 1.0)
    return 1.0;
  if (x != x || y != y)
    return x + y;
  if (y == RXC_INF || y == -RXC_INF) {
    if (ax == 1.0)
      return 1.0;
    return (ax > 1.0) == (y > 0) ? RXC_INF : 0.0;
  }
  if (x == 0 || ax == RXC_INF) { /* the sign of -0 counts: test the bit */
    r = (x == 0) == (y < 0) ? RXC_INF : 0.0;
    return odd == 1 && (rxc_d2u(x) >> 63) ? -r : r;
  }
  if (x < 0 && odd < 0)
    return RXC_NAN;
  r = rxc_pow_core(x, y);
  return x < 0 && odd == 1 ? -r : r;
}

/* Through double: |y ln x| needs more than float's precision, and the
 * result is rounded once from a double accurate to ~1e-16. */
RXC_INLINE float
rxc_powf(float x, float y)
{
  return (float)rxc_pow((double)x, (double)y);
}

#endif /* RXC_RT_MATH_EXP_H */
