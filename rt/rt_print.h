/*
 * rt_print.h - numbers as text for R.print, without libc: what printf's
 * "%lld" and "%.9g" write, into a caller's buffer.
 *
 * Key idea: nine significant digits are the integer nearest to v * 10^s for
 * the s that puts it in [10^8, 10^9), rounded half to even; 10^s for
 * |s| <= 22 is exact in double, so the scaling rounds once and the digits
 * are printf's wherever v * 10^s is exact or not within an ulp of a
 * rounding tie (every float32 between 1e-13 and 1e22 whose digits end
 * before the 17th; beyond, the ninth digit may differ by one).  The
 * layout (fixed or exponent, trailing zeros dropped) is %g's.  NaN and the
 * infinities print as glibc does ("nan", "-nan", "inf", "-inf").
 *
 * Requires rt_types.h and rt_math_base.h (bit access, RXC_INLINE).  Only a
 * NAME.c with an R.print carries it.
 */
#ifndef RXC_RT_PRINT_H
#define RXC_RT_PRINT_H

/* v in decimal; buf has room for 21 bytes.  Returns buf. */
RXC_INLINE char *
rxc_fmt_i64(char *buf, rxc_i64 v)
{
  char tmp[20];
  int n = 0;
  rxc_u64 u = v < 0 ? (rxc_u64)0 - (rxc_u64)v : (rxc_u64)v;
  char *p = buf;
  do {
    tmp[n++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  if (v < 0)
    *p++ = '-';
  while (n)
    *p++ = tmp[--n];
  *p = 0;
  return buf;
}

/* v * 10^s, one rounding for |s| <= 22, more beyond. */
RXC_INLINE double
rxc_scale10(double v, int s)
{
  static const double p[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  for (; s > 22; s -= 22)
    v *= 1e22;
  for (; s < -22; s += 22)
    v /= 1e22;
  return s >= 0 ? v * p[s] : v / p[-s];
}

/* x rounded to the nearest integer, ties to even (0 <= x < 2^52). */
RXC_INLINE rxc_u64
rxc_round_even_u64(double x)
{
  rxc_u64 q = (rxc_u64)x;
  double r = x - (double)q;
  return r > 0.5 || (r == 0.5 && (q & 1)) ? q + 1 : q;
}

/* v as printf's "%.9g"; buf has room for 24 bytes.  Returns buf. */
RXC_INLINE char *
rxc_fmt_g9(char *buf, double v)
{
  char *p = buf, d[9];
  rxc_u64 bits = rxc_d2u(v);
  if (bits >> 63)
    *p++ = '-';
  if ((bits >> 52 & 0x7ff) == 0x7ff) {
    const char *s = (bits << 12) ? "nan" : "inf";
    while (*s)
      *p++ = *s++;
    *p = 0;
    return buf;
  }
  v = rxc_u2d(bits << 1 >> 1);
  if (v == 0) {
    p[0] = '0', p[1] = 0;
    return buf;
  }
  /* x: the decimal exponent, from the binary one (log10(2) ~ 0.30103) */
  int x = (int)(((int)(bits >> 52 & 0x7ff) - 1023) * 30103L / 100000L);
  /* the x with 10^8 <= v * 10^(8 - x) < 10^9, then the nine digits
   * rounded; once up from a scaling at 10^9, never back down */
  double t;
  int up = 0;
  for (;;) {
    t = rxc_scale10(v, 8 - x);
    if (t >= 1e9)
      x++, up = 1;
    else if (t < 1e8 && !up)
      x--;
    else
      break;
  }
  rxc_u64 m = rxc_round_even_u64(t);
  if (m < 100000000u) /* t a rounding below 10^8 after going up */
    m = 100000000u;
  if (m >= 1000000000u) /* rounded up to the next decade */
    m /= 10, x++;
  for (int i = 8; i >= 0; i--, m /= 10)
    d[i] = (char)('0' + (int)(m % 10));
  int last = 8; /* the last digit kept: trailing zeros go */
  while (last > 0 && d[last] == '0')
    last--;
  if (x < -4 || x >= 9) { /* d.ddde+xx */
    *p++ = d[0];
    if (last > 0)
      *p++ = '.';
    for (int i = 1; i <= last; i++)
      *p++ = d[i];
    *p++ = 'e';
    *p++ = x < 0 ? '-' : '+';
    int ax = x < 0 ? -x : x;
    if (ax >= 100)
      *p++ = (char)('0' + ax / 100);
    *p++ = (char)('0' + ax / 10 % 10);
    *p++ = (char)('0' + ax % 10);
  } else if (x >= 0) { /* the integer part is d[0..x] */
    for (int i = 0; i <= x; i++)
      *p++ = d[i];
    if (last > x)
      *p++ = '.';
    for (int i = x + 1; i <= last; i++)
      *p++ = d[i];
  } else { /* 0.000ddd */
    *p++ = '0', *p++ = '.';
    for (int i = -1; i > x; i--)
      *p++ = '0';
    for (int i = 0; i <= last; i++)
      *p++ = d[i];
  }
  *p = 0;
  return buf;
}

#endif
