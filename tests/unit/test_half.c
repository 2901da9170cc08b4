/*
 * test_half.c - the float16 and bfloat16 conversions of rt/rt_half.h, which
 * generated code uses for every 16-bit float load, store and cast.
 *
 * The headers are included as they are (generated code carries the same
 * text).  Expectations come from elsewhere: a table of numpy's float16
 * conversions (float32 -> float16 and float64 -> float16, made by the
 * command quoted above the table), hand-known bit patterns, the compiler's
 * own ir_half_from_double / ir_half_to_double (frexp and ldexp, a different
 * method) over every half and over every midpoint between adjacent halves,
 * and, for bfloat16 and doubles, the defining property of rounding to
 * nearest even: no representable value is nearer, and a tie picks the even
 * pattern.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../ir/ir.h"
#include "../../rt/rt_types.h"
#include "../../rt/rt_math_base.h"
#include "../../rt/rt_half.h"

/* /usr/bin/python3 -c 'import numpy as np; v=...; print(np.float32(v).astype(np.float16)
 * .view(np.uint16), np.float64(v).astype(np.float16).view(np.uint16))' */
static const struct {
  double v;
  uint16_t from_f32, from_f64;
} NUMPY[] = {
    {1.0, 0x3c00, 0x3c00},
    {-2.0, 0xc000, 0xc000},
    {65504.0, 0x7bff, 0x7bff},
    {65519.99, 0x7bff, 0x7bff},
    {65520.0, 0x7c00, 0x7c00}, /* the tie above the largest half: to inf */
    {-65520.0, 0xfc00, 0xfc00},
    {100000.0, 0x7c00, 0x7c00},
    {5.960464477539063e-08, 0x0001, 0x0001},  /* smallest subnormal, 2^-24 */
    {2.9802322387695312e-08, 0x0000, 0x0000}, /* 2^-25: tie to even zero */
    {2.980232536792755e-08, 0x0001, 0x0001},
    {8.940696716308594e-08, 0x0002, 0x0002}, /* 1.5 * 2^-24: tie to even 2 */
    {6.103515625e-05, 0x0400, 0x0400},       /* smallest normal */
    {6.097555160522461e-05, 0x03ff, 0x03ff}, /* largest subnormal */
    {1.00048828125, 0x3c00, 0x3c00},         /* 1 + 2^-11: tie, down to even */
    {1.00146484375, 0x3c02, 0x3c02},         /* 1 + 3 * 2^-11: tie, up to even */
    {1.0004882821813226, 0x3c00, 0x3c01},    /* above the tie in double only */
    {2049.0, 0x6800, 0x6800},
    {2051.0, 0x6802, 0x6802},
    {0.1, 0x2e66, 0x2e66},
    {-0.0, 0x8000, 0x8000},
    {0.3333333333333333, 0x3555, 0x3555},
    {3.14159265, 0x4248, 0x4248},
    {INFINITY, 0x7c00, 0x7c00},
    {-INFINITY, 0xfc00, 0xfc00},
    {1e-10, 0x0000, 0x0000},
    {-7.152557373046875e-07, 0x800c, 0x800c},
};

static void
numpy_table(void **state)
{
  (void)state;
  for (size_t i = 0; i < sizeof NUMPY / sizeof NUMPY[0]; i++) {
    assert_int_equal(rxc_f16_from_f32((float)NUMPY[i].v), NUMPY[i].from_f32);
    assert_int_equal(rxc_f16_from_f64(NUMPY[i].v), NUMPY[i].from_f64);
  }
}

static void
hand_values(void **state)
{
  (void)state;
  assert_true(rxc_f16_to_f32(0x3c00) == 1.0f);
  assert_true(rxc_f16_to_f32(0x7bff) == 65504.0f);
  assert_true(rxc_f16_to_f32(0x0001) == 5.9604644775390625e-8f);
  assert_true(rxc_f16_to_f32(0x8001) == -5.9604644775390625e-8f);
  assert_true(rxc_f16_to_f32(0x03ff) == 6.097555160522461e-05f);
  assert_true(rxc_f16_to_f32(0xc000) == -2.0f);
  assert_true(isinf(rxc_f16_to_f32(0x7c00)) && rxc_f16_to_f32(0x7c00) > 0);
  assert_true(isinf(rxc_f16_to_f32(0xfc00)) && rxc_f16_to_f32(0xfc00) < 0);
  assert_true(isnan(rxc_f16_to_f32(0x7e00)) && isnan(rxc_f16_to_f32(0x7c01)));
  assert_true(signbit(rxc_f16_to_f32(0x8000)) && rxc_f16_to_f32(0x8000) == 0);
  /* NaN narrows to the quiet NaN, sign kept, whatever the payload */
  assert_int_equal(rxc_f16_from_f32(NAN), 0x7e00);
  assert_int_equal(rxc_f16_from_f32(-NAN), 0xfe00);
  assert_int_equal(rxc_f16_from_f32(rxc_u2f(0x7f800001u)), 0x7e00);
  assert_int_equal(rxc_f16_from_f64(rxc_u2d(0xfff0000000000001ull)), 0xfe00);
  /* float subnormals are far below the smallest half: signed zero */
  assert_int_equal(rxc_f16_from_f32(rxc_u2f(0x00000001u)), 0x0000);
  assert_int_equal(rxc_f16_from_f32(rxc_u2f(0x80400000u)), 0x8000);
  /* bfloat16: the upper half of a float, rounded */
  assert_int_equal(rxc_bf16_from_f32(1.0f), 0x3f80);
  assert_int_equal(rxc_bf16_from_f32(rxc_u2f(0x3f808000u)), 0x3f80); /* tie to even */
  assert_int_equal(rxc_bf16_from_f32(rxc_u2f(0x3f818000u)), 0x3f82); /* tie to even */
  assert_int_equal(rxc_bf16_from_f32(rxc_u2f(0x3f808001u)), 0x3f81);
  assert_int_equal(rxc_bf16_from_f32(rxc_u2f(0x7f7fffffu)), 0x7f80); /* FLT_MAX: to inf */
  assert_int_equal(rxc_bf16_from_f32(rxc_u2f(0x00008000u)), 0x0000); /* subnormal tie */
  assert_int_equal(rxc_bf16_from_f32(rxc_u2f(0x00018000u)), 0x0002);
  assert_int_equal(rxc_bf16_from_f32(NAN), 0x7fc0);
  assert_int_equal(rxc_bf16_from_f64(1e300), 0x7f80);
  assert_int_equal(rxc_bf16_from_f64(-1e-300), 0x8000);
  assert_true(rxc_bf16_to_f32(0x3f80) == 1.0f && rxc_bf16_to_f32(0xc040) == -3.0f);
}

/* Every half to float and back, against ir_half_to_double; and every
 * midpoint between adjacent finite halves (a tie), and the floats just
 * beside it, narrowed as ir_half_from_double narrows them. */
static void
every_half(void **state)
{
  (void)state;
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = rxc_f16_to_f32((rxc_u16)h);
    double want = ir_half_to_double((uint16_t)h);
    if (isnan(want)) {
      assert_true(isnan(f));
      continue;
    }
    assert_true((double)f == want && !signbit(f) == !signbit(want));
    assert_int_equal(rxc_f16_from_f32(f), h);
    assert_int_equal(rxc_f16_from_f64(want), h);
    if ((h & 0x7fff) >= 0x7bff)
      continue;
    double mid = (want + ir_half_to_double((uint16_t)(h + 1))) / 2; /* exact in double */
    float fm = (float)mid;                                          /* exact: 12 bits */
    assert_true((double)fm == mid);
    float beside[3] = {nextafterf(fm, -INFINITY), fm, nextafterf(fm, INFINITY)};
    for (int k = 0; k < 3; k++) {
      assert_int_equal(rxc_f16_from_f32(beside[k]), ir_half_from_double(beside[k]));
      assert_int_equal(rxc_f16_from_f64(beside[k]), ir_half_from_double(beside[k]));
    }
    double dm[2] = {nextafter(mid, -INFINITY), nextafter(mid, INFINITY)};
    for (int k = 0; k < 2; k++)
      assert_int_equal(rxc_f16_from_f64(dm[k]), ir_half_from_double(dm[k]));
  }
}

/* b is the nearest pattern to x, ties to even (x finite, |x| below the
 * overflow threshold). */
static void
assert_nearest(double x, rxc_u16 b, float (*widen)(rxc_u16))
{
  double v = widen(b), up = widen((rxc_u16)(b + 1)), down = widen((rxc_u16)(b - 1));
  double err = fabs(x - v);
  if ((b & 0x7fff) != 0)
    assert_true(err <= fabs(x - down));
  if (!isinf(up))
    assert_true(err <= fabs(x - up));
  if ((b & 0x7fff) != 0 && err == fabs(x - down))
    assert_true((b & 1) == 0);
  if (!isinf(up) && err == fabs(x - up))
    assert_true((b & 1) == 0);
  assert_true(!signbit(x) == ((b & 0x8000) == 0));
}

/* Doubles and floats by bit pattern, with an LCG: the result is nearest. */
static void
nearest_property(void **state)
{
  (void)state;
  uint64_t s = 12345;
  for (int i = 0; i < 400000; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    double d = rxc_u2d(s);
    /* keep the exponent within the formats' range (plus their subnormals) */
    int e = (int)(s >> 52 & 0x7ff);
    if (e >= 1023 - 30 && e <= 1023 + 15 && fabs(d) < 65504.0)
      assert_nearest(d, rxc_f16_from_f64(d), rxc_f16_to_f32);
    if (e >= 1023 - 140 && e <= 1023 + 127 && fabs(d) < 3.3e38) {
      assert_nearest(d, rxc_bf16_from_f64(d), rxc_bf16_to_f32);
      float f = (float)d;
      if (!isinf(f) && fabs(f) < 3.3e38f)
        assert_nearest(f, rxc_bf16_from_f32(f), rxc_bf16_to_f32);
    }
  }
}

/* The interpreter's rounding (the reference of the generated code) agrees
 * with these conversions; bfloat16 was once left unrounded at casts. */
static void
interpreter_rounding(void **state)
{
  (void)state;
  IrDType bf16 = {IR_DT_BFLOAT, 16, 1}, f16 = {IR_DT_FLOAT, 16, 1};
  assert_true(ir_float_round(bf16, 1.00390625) == 1.0); /* tie: to even */
  assert_true(ir_float_round(bf16, 1.01171875) == 1.015625);
  assert_true(ir_float_round(bf16, 1.01) == 1.0078125);
  assert_true(isinf(ir_float_round(bf16, 3.4e38)));
  assert_true(isnan(ir_float_round(bf16, NAN)));
  uint64_t s = 99;
  for (int i = 0; i < 100000; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    float x = rxc_u2f((rxc_u32)(s >> 32));
    if (isnan(x))
      continue;
    assert_true(ir_float_round(bf16, x) == rxc_bf16_round(x));
    assert_true(ir_float_round(f16, x) == rxc_f16_round(x));
  }
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(numpy_table),          cmocka_unit_test(hand_values),
      cmocka_unit_test(every_half),           cmocka_unit_test(nearest_property),
      cmocka_unit_test(interpreter_rounding),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
