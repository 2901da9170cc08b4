/*
 * test_rt_print.c - the number formatting of rt/rt_print.h, which generated
 * code uses for R.print, against the C library's printf ("%lld", "%.9g"),
 * which the interpreter uses: the two must write the same text.
 *
 * The header is included as it is (generated code carries the same text).
 * Values: hand-picked edges (zeros, ties of the ninth digit, the layout
 * switch between fixed and exponent form, 2^-13 whose tenth digit is an
 * exact tie, subnormals, the largest double, NaN and infinities with either
 * sign), a million float32 bit patterns, and doubles over forty decades.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../rt/rt_types.h"
#include "../../rt/rt_math_base.h"
#include "../../rt/rt_print.h"

static void
same_g9(double v)
{
  char want[64], got[64];
  snprintf(want, sizeof want, "%.9g", v);
  rxc_fmt_g9(got, v);
  if (strcmp(want, got) != 0)
    fail_msg("%a: printf writes %s, rxc_fmt_g9 %s", v, want, got);
}

static void
hand_values(void **state)
{
  (void)state;
  static const double v[] = {
      0.0, -0.0, 1, -1, 0.5, 0.1, 100, 1e8, 99999999.5, 999999999.4, 999999999.5, 1e9,
      123456789, 1234567890, 1e-4, 1e-5, 9.99999999e-5, 12345.6789, 3.0517578125e-05,
      1.0 / 8192, 2.5e-5, 1e300, 1e-300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
      65504, 0.0999755859375, NAN, -NAN, INFINITY, -INFINITY,
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    same_g9(v[i]);
}

static void
float_patterns(void **state)
{
  (void)state;
  uint64_t s = 1;
  for (int i = 0; i < 1000000; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    same_g9((double)rxc_u2f((rxc_u32)(s >> 32)));
  }
}

static void
double_decades(void **state)
{
  (void)state;
  uint64_t s = 2;
  for (int i = 0; i < 400000; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double u = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    same_g9(u * pow(10, i % 40 - 20));
  }
}

static void
integers(void **state)
{
  (void)state;
  static const long long v[] = {0, 1, -1, 9, 10, -10, 1234567890123LL, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    char want[32], got[32];
    snprintf(want, sizeof want, "%lld", v[i]);
    assert_string_equal(rxc_fmt_i64(got, (rxc_i64)v[i]), want);
  }
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hand_values),
      cmocka_unit_test(float_patterns),
      cmocka_unit_test(double_decades),
      cmocka_unit_test(integers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
