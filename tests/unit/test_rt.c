/*
 * test_rt.c - the runtime text (codegen/runtime.c, from rt/): it compiles
 * freestanding under gcc, clang and tcc, references no symbol at all, and
 * its math agrees with the system's libm.
 *
 * The runtime functions are `static inline`, so the test writes the text
 * plus a non-static wrapper per function (t_exp calls rxc_expf, d_exp calls
 * rxc_exp) into a temporary directory, builds a shared object with the
 * system cc (-O2 -ffreestanding) and dlopens it.  Float functions are swept
 * over every 4099th bit pattern of the whole float range (a million inputs:
 * every binade, subnormals, infinities and NaNs) against libm in double,
 * rounded; double functions over two million inputs (random bit patterns
 * and uniform samples at four scales) against libm in long double.  The
 * error is measured in ulps of the correctly rounded result; the bounds
 * asserted are 4 ulp for both precisions (the figures reached are printed:
 * at most 3.3 ulp for float, 2.4 for double; pow 0.5 and 1.8).  Exact
 * functions (rounding, sqrt, fmod) must equal libm bit for bit, zero signs
 * included.  sigmoid, tanh and erf, rewritten without branches, must give
 * the bits of their previous, branching definitions (kept as the oracle).
 */
#include <dlfcn.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"

#include "../../codegen/cg.h"

/* The inexact unary functions: name, float reference, double reference. */
typedef struct {
  const char *name;
  double (*ref_f)(double);
  long double (*ref_d)(long double);
} MathFn;

static double
sigmoid_ref(double x)
{
  return 1.0 / (1.0 + exp(-x));
}
static long double
sigmoidl_ref(long double x)
{
  return 1.0L / (1.0L + expl(-x));
}
static double
rsqrt_ref(double x)
{
  return 1.0 / sqrt(x);
}
static long double
rsqrtl_ref(long double x)
{
  return 1.0L / sqrtl(x);
}
static double
exp10_ref(double x)
{
  return pow(10.0, x);
}
static long double
exp10l_ref(long double x)
{
  return powl(10.0L, x);
}

static const MathFn inexact[] = {
    {"exp", exp, expl},        {"exp2", exp2, exp2l},     {"exp10", exp10_ref, exp10l_ref},
    {"expm1", expm1, expm1l},  {"log", log, logl},        {"log2", log2, log2l},
    {"log10", log10, log10l},  {"log1p", log1p, log1pl},  {"sinh", sinh, sinhl},
    {"cosh", cosh, coshl},     {"tanh", tanh, tanhl},     {"sigmoid", sigmoid_ref, sigmoidl_ref},
    {"erf", erf, erfl},        {"sin", sin, sinl},        {"cos", cos, cosl},
    {"tan", tan, tanl},        {"asin", asin, asinl},     {"acos", acos, acosl},
    {"atan", atan, atanl},     {"rsqrt", rsqrt_ref, rsqrtl_ref}, {"asinh", asinh, asinhl},
    {"acosh", acosh, acoshl},  {"atanh", atanh, atanhl},
};
#define NINEXACT (sizeof inexact / sizeof inexact[0])

/* Exact unary functions: compared bit for bit. */
static const struct {
  const char *name;
  double (*ref)(double);
} exact[] = {{"fabs", fabs},   {"floor", floor}, {"ceil", ceil},           {"trunc", trunc},
             {"round", round}, {"sqrt", sqrt},   {"nearbyint", nearbyint}};
#define NEXACT (sizeof exact / sizeof exact[0])

static const char *const binary[] = {"pow", "fmod", "fmax", "fmin", "atan2"};
#define NBINARY (sizeof binary / sizeof binary[0])

typedef struct {
  char dir[64];
  void *so;
} Built;

/* Writes text to dir/name. */
static void
write_file(const char *dir, const char *name, const char *text)
{
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_int_equal(fputs(text, f) >= 0, 1);
  assert_int_equal(fclose(f), 0);
}

/* Runs a shell command; its exit status. */
static int
run(const char *fmt, ...)
{
  char cmd[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(cmd, sizeof cmd, fmt, ap);
  va_end(ap);
  return system(cmd);
}

/* The oracle for the branch-free rewrites of sigmoid, tanh and erf: the
 * previous definitions, with branches, kept verbatim (renamed ref_*) and
 * compiled in the same object as the runtime, with which every result must
 * agree bit for bit (NaNs included).  Appended to the pure runtime only. */
static const char ref_text[] =
    "static float ref_sigmoidf(float x) {\n"
    "  float e;\n"
    "  if (x >= 0)\n"
    "    return 1.0f / (1.0f + rxc_expf(-x));\n"
    "  e = rxc_expf(x);\n"
    "  return e / (1.0f + e);\n"
    "}\n"
    "static double ref_sigmoid(double x) {\n"
    "  double e;\n"
    "  if (x >= 0)\n"
    "    return 1.0 / (1.0 + rxc_exp(-x));\n"
    "  e = rxc_exp(x);\n"
    "  return e / (1.0 + e);\n"
    "}\n"
    "static float ref_tanhf(float x) {\n"
    "  float a = rxc_fabsf(x), t;\n"
    "  if (x != x)\n"
    "    return x + x;\n"
    "  if (a > 9.1f)\n"
    "    return rxc_copysignf(1.0f, x);\n"
    "  t = rxc_expm1f(2.0f * a);\n"
    "  return rxc_copysignf(t / (t + 2.0f), x);\n"
    "}\n"
    "static float ref_erff(float x) {\n"
    "  float a = rxc_fabsf(x), z, p, t;\n"
    "  if (x != x)\n"
    "    return x + x;\n"
    "  if (a <= 1.0f) {\n"
    "    z = x * x;\n"
    "    p = -9.667044571e-06f;\n"
    "    p = 1.126595903e-04f + z * p;\n"
    "    p = -8.484080406e-04f + z * p;\n"
    "    p = 5.221031808e-03f + z * p;\n"
    "    p = -2.686543073e-02f + z * p;\n"
    "    p = 1.128378250e-01f + z * p;\n"
    "    p = -3.761263847e-01f + z * p;\n"
    "    return x * 1.128379167e+00f + x * (z * p);\n"
    "  }\n"
    "  if (a >= 4.0f)\n"
    "    return rxc_copysignf(1.0f, x);\n"
    "  if (a < 2.25f) {\n"
    "    t = a - 1.625f;\n"
    "    p = 1.658352325e-05f;\n"
    "    p = -5.438910728e-05f + t * p;\n"
    "    p = 1.550398078e-04f + t * p;\n"
    "    p = -4.726155683e-04f + t * p;\n"
    "    p = 1.393905168e-03f + t * p;\n"
    "    p = -3.926548625e-03f + t * p;\n"
    "    p = 1.056147838e-02f + t * p;\n"
    "    p = -2.697788557e-02f + t * p;\n"
    "    p = 6.496207492e-02f + t * p;\n"
    "    p = -1.460302371e-01f + t * p;\n"
    "    p = 3.022612094e-01f + t * p;\n"
    "  } else {\n"
    "    t = a - 3.125f;\n"
    "    p = 2.351611452e-07f;\n"
    "    p = -1.029910044e-06f + t * p;\n"
    "    p = 3.924181538e-06f + t * p;\n"
    "    p = -1.639046733e-05f + t * p;\n"
    "    p = 6.725772959e-05f + t * p;\n"
    "    p = -2.678482939e-04f + t * p;\n"
    "    p = 1.038691340e-03f + t * p;\n"
    "    p = -3.915459332e-03f + t * p;\n"
    "    p = 1.431320696e-02f + t * p;\n"
    "    p = -5.060196661e-02f + t * p;\n"
    "    p = 1.724443521e-01f + t * p;\n"
    "  }\n"
    "  return rxc_copysignf(1.0f - rxc_exp_negsquaref(a) * p, x);\n"
    "}\n"
    "float r_sigmoid(float x);\nfloat r_sigmoid(float x) { return ref_sigmoidf(x); }\n"
    "double r_d_sigmoid(double x);\ndouble r_d_sigmoid(double x) { return ref_sigmoid(x); }\n"
    "float r_tanh(float x);\nfloat r_tanh(float x) { return ref_tanhf(x); }\n"
    "float r_erf(float x);\nfloat r_erf(float x) { return ref_erff(x); }\n";

/* The runtime text and a non-static wrapper per function (and, for the pure
 * runtime, the oracle above). */
static char *
wrapped_source(bool system_libm)
{
  size_t cap = strlen(cg_runtime_text(system_libm)) + sizeof ref_text + 16384, n;
  char *s = malloc(cap);
  assert_non_null(s);
  n = (size_t)snprintf(s, cap, "%s\n%s", cg_runtime_text(system_libm), system_libm ? "" : ref_text);
  for (size_t i = 0; i < NINEXACT + NEXACT; i++) {
    const char *f = i < NINEXACT ? inexact[i].name : exact[i - NINEXACT].name;
    n += (size_t)snprintf(s + n, cap - n,
                          "float t_%s(float x);\nfloat t_%s(float x) { return rxc_%sf(x); }\n"
                          "double d_%s(double x);\ndouble d_%s(double x) { return rxc_%s(x); }\n",
                          f, f, f, f, f, f);
  }
  for (size_t i = 0; i < NBINARY; i++)
    n += (size_t)snprintf(s + n, cap - n,
                          "float t_%s(float x, float y);\n"
                          "float t_%s(float x, float y) { return rxc_%sf(x, y); }\n"
                          "double d_%s(double x, double y);\n"
                          "double d_%s(double x, double y) { return rxc_%s(x, y); }\n",
                          binary[i], binary[i], binary[i], binary[i], binary[i], binary[i]);
  assert_true(n < cap);
  return s;
}

static int
setup_built(void **state, bool system_libm)
{
  Built *b = calloc(1, sizeof *b);
  strcpy(b->dir, "/tmp/rxc_rt_XXXXXX");
  if (!b || !mkdtemp(b->dir))
    return -1;
  char *src = wrapped_source(system_libm);
  write_file(b->dir, "rt.c", src);
  free(src);
  if (run("cc -O2 %s -fPIC -shared -o %s/rt.so %s/rt.c %s", system_libm ? "" : "-ffreestanding",
          b->dir, b->dir, system_libm ? "-lm" : "") != 0)
    return -1;
  char path[128];
  snprintf(path, sizeof path, "%s/rt.so", b->dir);
  b->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  *state = b;
  return b->so ? 0 : -1;
}

static int
setup_pure(void **state)
{
  return setup_built(state, false);
}

static int
setup_libm(void **state)
{
  return setup_built(state, true);
}

static int
teardown_built(void **state)
{
  Built *b = *state;
  if (b->so)
    dlclose(b->so);
  run("rm -rf %s", b->dir);
  free(b);
  return 0;
}

typedef float (*F1)(float);
typedef double (*D1)(double);
typedef float (*F2)(float, float);
typedef double (*D2)(double, double);

static void *
sym(Built *b, char prefix, const char *name)
{
  char s[64];
  snprintf(s, sizeof s, "%c_%s", prefix, name);
  void *p = dlsym(b->so, s);
  if (!p)
    fail_msg("missing %s", s);
  return p;
}

/* An ulp of the float nearest ref (the subnormal spacing at the bottom). */
static double
ulp_f(double ref)
{
  int e;
  frexp(ref == 0 ? 1e-45 : ref, &e);
  return fmax(ldexp(1.0, e - 24), ldexp(1.0, -149));
}

static long double
ulp_d(long double ref)
{
  int e;
  frexpl(ref == 0 ? 1e-300L : ref, &e);
  return fmaxl(ldexpl(1.0L, e - 53), ldexpl(1.0L, -1074));
}

/* Error of y against ref in float ulps; special values must match exactly
 * (NaN with NaN, inf with the same inf), else 1e9. */
static double
err_f(float y, double ref)
{
  float r = (float)ref;
  if (isnan(r) || isnan(y))
    return isnan(r) && isnan(y) ? 0 : 1e9;
  if (isinf(r) || isinf(y))
    return r == y ? 0 : 1e9;
  return fabs((double)y - ref) / ulp_f(ref);
}

static double
err_d(double y, long double ref)
{
  double r = (double)ref;
  if (isnan(r) || isnan(y))
    return isnan(r) && isnan(y) ? 0 : 1e9;
  if (isinf(r) || isinf(y))
    return r == y ? 0 : 1e9;
  return (double)(fabsl((long double)y - ref) / ulp_d(ref));
}

static float
float_of(uint32_t u)
{
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

static double
double_of(uint64_t u)
{
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* The i-th double sample: a random bit pattern, or uniform at a scale. */
static double
sample_d(uint64_t *seed, int i)
{
  static const double scale[4] = {1, 10, 800, 1e-3};
  *seed ^= *seed << 13, *seed ^= *seed >> 7, *seed ^= *seed << 17;
  if (i & 1)
    return double_of(*seed);
  return ((double)(*seed >> 11) / 9007199254740992.0 * 2 - 1) * scale[(i >> 1) & 3];
}

static void
test_float_accuracy(void **state)
{
  Built *b = *state;
  double worst_all = 0;
  for (size_t k = 0; k < NINEXACT; k++) {
    F1 f = (F1)sym(b, 't', inexact[k].name);
    double worst = 0;
    float at = 0;
    for (uint64_t u = 0; u <= 0xffffffffu; u += 4099) {
      float x = float_of((uint32_t)u);
      double e = err_f(f(x), inexact[k].ref_f(x));
      if (e > worst)
        worst = e, at = x;
    }
    printf("  float  %-8s max %.3f ulp (at %a)\n", inexact[k].name, worst, at);
    worst_all = fmax(worst_all, worst);
    assert_true(worst <= 4.0);
  }
  printf("  float: every function within %.3f ulp\n", worst_all);
}

static void
test_double_accuracy(void **state)
{
  Built *b = *state;
  double worst_all = 0;
  for (size_t k = 0; k < NINEXACT; k++) {
    D1 f = (D1)sym(b, 'd', inexact[k].name);
    uint64_t seed = 88172645463325252ull;
    double worst = 0, at = 0;
    for (int i = 0; i < 400000; i++) {
      double x = sample_d(&seed, i), e = err_d(f(x), inexact[k].ref_d(x));
      if (e > worst)
        worst = e, at = x;
    }
    printf("  double %-8s max %.3f ulp (at %a)\n", inexact[k].name, worst, at);
    worst_all = fmax(worst_all, worst);
    assert_true(worst <= 4.0);
  }
  printf("  double: every function within %.3f ulp\n", worst_all);
}

/* Rounding, sqrt and fabs: bit for bit as libm, over the float sweep and
 * the double samples (plus the halfway cases). */
static void
test_exact_functions(void **state)
{
  Built *b = *state;
  static const double halves[] = {0.5, -0.5, 1.5, -1.5, 2.5, -2.5, -0.0, 0.0, 4503599627370495.5};
  for (size_t k = 0; k < NEXACT; k++) {
    F1 f = (F1)sym(b, 't', exact[k].name);
    D1 d = (D1)sym(b, 'd', exact[k].name);
    uint64_t seed = 1;
    for (uint64_t u = 0; u <= 0xffffffffu; u += 4099) {
      float x = float_of((uint32_t)u), y = f(x), r = (float)exact[k].ref(x);
      if (!(isnan(y) && isnan(r)) && memcmp(&y, &r, sizeof y) != 0)
        fail_msg("%sf(%a) = %a, libm %a", exact[k].name, x, y, r);
    }
    for (int i = 0; i < 200000 + 9; i++) {
      double x = i < 9 ? halves[i] : sample_d(&seed, i), y = d(x), r = exact[k].ref(x);
      if (!(isnan(y) && isnan(r)) && memcmp(&y, &r, sizeof y) != 0)
        fail_msg("%s(%a) = %a, libm %a", exact[k].name, x, y, r);
    }
  }
  assert_true(((F1)sym(b, 't', "nearbyint"))(2.5f) == 2.0f); /* half to even */
  assert_true(((F1)sym(b, 't', "round"))(2.5f) == 3.0f);     /* half away */
}

/* pow (4 ulp) and fmod (exact) on pairs; fmax/fmin propagate NaN. */
static void
test_binary_functions(void **state)
{
  Built *b = *state;
  F2 powf_ = (F2)sym(b, 't', "pow"), fmodf_ = (F2)sym(b, 't', "fmod");
  D2 pow_ = (D2)sym(b, 'd', "pow"), fmod_ = (D2)sym(b, 'd', "fmod");
  uint64_t seed = 7;
  double worst_f = 0, worst_d = 0;
  for (int i = 0; i < 400000; i++) {
    double x = sample_d(&seed, i), y = sample_d(&seed, i >> 1);
    if (i % 3 == 0) /* near 1 with large exponents, and integral exponents */
      x = 1 + x * 1e-3, y = rint(y * 100);
    float xf = (float)x, yf = (float)y, mf = fmodf_(xf, yf), rf = fmodf(xf, yf);
    double md = fmod_(x, y), rd = fmod(x, y);
    worst_f = fmax(worst_f, err_f(powf_(xf, yf), pow((double)xf, (double)yf)));
    worst_d = fmax(worst_d, err_d(pow_(x, y), powl(x, y)));
    if (!(isnan(mf) && isnan(rf)) && memcmp(&mf, &rf, sizeof mf) != 0)
      fail_msg("fmodf(%a, %a) = %a, libm %a", xf, yf, mf, rf);
    if (!(isnan(md) && isnan(rd)) && memcmp(&md, &rd, sizeof md) != 0)
      fail_msg("fmod(%a, %a) = %a, libm %a", x, y, md, rd);
  }
  printf("  pow: float max %.3f ulp, double max %.3f ulp\n", worst_f, worst_d);
  assert_true(worst_f <= 4.0 && worst_d <= 4.0);
  static const double sp[] = {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -3.0, INFINITY, -INFINITY, NAN};
  for (size_t i = 0; i < 11; i++)
    for (size_t j = 0; j < 11; j++) {
      double r = pow(sp[i], sp[j]), y = pow_(sp[i], sp[j]);
      bool special = isnan(r) || isinf(r) || r == 0 || fabs(r) == 1; /* bit for bit */
      if (special ? !(isnan(r) && isnan(y)) && memcmp(&r, &y, sizeof r) != 0 : err_d(y, r) > 4)
        fail_msg("pow(%a, %a) = %a, libm %a", sp[i], sp[j], y, r);
    }
  F2 fmaxf_ = (F2)sym(b, 't', "fmax"), fminf_ = (F2)sym(b, 't', "fmin");
  assert_true(isnan(fmaxf_(NAN, 1.0f)) && isnan(fmaxf_(1.0f, NAN)));
  assert_true(isnan(fminf_(NAN, 1.0f)) && isnan(fminf_(1.0f, NAN)));
  assert_true(fmaxf_(-2.0f, 3.0f) == 3.0f && fminf_(-2.0f, 3.0f) == -2.0f);
}

/* atan2 (4 ulp) on pairs of the samples and of the float sweep, and
 * C99's special cases (signed zeros, infinities, NaN) bit for bit. */
static void
test_atan2(void **state)
{
  Built *b = *state;
  F2 f = (F2)sym(b, 't', "atan2");
  D2 d = (D2)sym(b, 'd', "atan2");
  uint64_t seed = 11;
  double worst_f = 0, worst_d = 0;
  for (int i = 0; i < 400000; i++) {
    double y = sample_d(&seed, i), x = sample_d(&seed, i >> 1);
    float yf = float_of((uint32_t)(i * 10739u)), xf = float_of((uint32_t)(i * 40009u + 7u));
    worst_f = fmax(worst_f, err_f(f(yf, xf), atan2((double)yf, (double)xf)));
    worst_d = fmax(worst_d, err_d(d(y, x), atan2l(y, x)));
  }
  printf("  atan2: float max %.3f ulp, double max %.3f ulp\n", worst_f, worst_d);
  assert_true(worst_f <= 4.0 && worst_d <= 4.0);
  static const double sp[] = {0.0, -0.0, 1.0, -1.0, 1e-300, -5.0, INFINITY, -INFINITY, NAN};
  for (size_t i = 0; i < 9; i++)
    for (size_t j = 0; j < 9; j++) {
      double r = atan2(sp[i], sp[j]), y = d(sp[i], sp[j]);
      float rf = atan2f((float)sp[i], (float)sp[j]), yf = f((float)sp[i], (float)sp[j]);
      if (!(isnan(r) && isnan(y)) && memcmp(&r, &y, sizeof r) != 0 && err_d(y, r) > 1)
        fail_msg("atan2(%a, %a) = %a, libm %a", sp[i], sp[j], y, r);
      if (!(isnan(rf) && isnan(yf)) && memcmp(&rf, &yf, sizeof rf) != 0 && err_f(yf, rf) > 1)
        fail_msg("atan2f(%a, %a) = %a, libm %a", sp[i], sp[j], yf, rf);
    }
}

/* The bit pattern of the float or double at p (n bytes). */
static uint64_t
bits_of(const void *p, size_t n)
{
  uint64_t u = 0;
  memcpy(&u, p, n);
  return u;
}

/* The float inputs that select a branch of the previous definitions: the
 * interval ends of erf (1, 2.25, 4, and 1.625, 3.125 where t = 0), of tanh
 * (9.1; 0.17325 where expm1's argument passes 0.3465; 8.491 where its k
 * passes 24), of exp (89, 104), each with both signs and 0 to 3 ulps either
 * side; then zeros, infinities, NaNs of both signs (quiet and signalling,
 * with payloads), subnormals and the largest finite. */
static size_t
special_floats(uint32_t *out)
{
  static const float ends[] = {1.0f,     2.25f,  4.0f,  9.1f,   1.625f, 3.125f,
                               0.17325f, 8.491f, 89.0f, 104.0f, 0.5f,   0.3465f};
  static const uint32_t fixed[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                   0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fc12345u, 0xffd00abcu,
                                   0x7fbfffffu, 0x7fffffffu, 0xffffffffu, 0x00000001u, 0x80000001u,
                                   0x00000002u, 0x00400000u, 0x807fffffu, 0x007fffffu, 0x00800000u,
                                   0x80800000u, 0x7f7fffffu, 0xff7fffffu};
  size_t n = 0;
  for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
    for (uint32_t sign = 0; sign < 2; sign++)
      for (int d = -3; d <= 3; d++)
        out[n++] = (((uint32_t)bits_of(&ends[i], 4) + (uint32_t)d) & 0x7fffffffu) | sign << 31;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    out[n++] = fixed[i];
  return n;
}

/* sigmoid, tanh and erf, rewritten without branches so that their loops
 * vectorize, give the very bits of the previous definitions (ref_text): on
 * the special floats and every 1031st bit pattern (4.2 million inputs per
 * function, a quarter of them tiny enough to make subnormal products, slow
 * in hardware: every 257th took 12 s; all 2^32 were checked once when they
 * were rewritten); double sigmoid on the same floats widened and on the
 * double samples. */
static void
test_branch_free_bits(void **state)
{
  Built *b = *state;
  static const char *const names[] = {"sigmoid", "tanh", "erf"};
  uint32_t sp[256];
  size_t nsp = special_floats(sp);
  for (size_t k = 0; k < 3; k++) {
    F1 f = (F1)sym(b, 't', names[k]), r = (F1)sym(b, 'r', names[k]);
    for (uint64_t i = 0; i < nsp + (1ull << 32) / 1031 + 1; i++) {
      uint32_t u = i < nsp ? sp[i] : (uint32_t)((i - nsp) * 1031);
      float x = float_of(u), y = f(x), want = r(x);
      if (bits_of(&y, 4) != bits_of(&want, 4))
        fail_msg("%sf(%a [0x%08x]) = 0x%08x, previous definition 0x%08x", names[k], x, u,
                 (unsigned)bits_of(&y, 4), (unsigned)bits_of(&want, 4));
    }
  }
  static const uint64_t nans[] = {0x7ff8000000000000ull, 0xfff8000000000000ull,
                                  0x7ff0000000000001ull, 0xfff0000000000001ull,
                                  0x7ff8123456789abcull, 0xffffffffffffffffull};
  D1 d = (D1)sym(b, 'd', "sigmoid"), rd = (D1)sym(b, 'r', "d_sigmoid");
  uint64_t seed = 3;
  for (int i = 0; i < 1000000; i++) {
    double x = i < 6              ? double_of(nans[i])
               : i < 6 + (int)nsp ? (double)float_of(sp[i - 6])
                                  : sample_d(&seed, i);
    double y = d(x), want = rd(x);
    if (bits_of(&y, 8) != bits_of(&want, 8))
      fail_msg("sigmoid(%a) = 0x%016llx, previous definition 0x%016llx", x,
               (unsigned long long)bits_of(&y, 8), (unsigned long long)bits_of(&want, 8));
  }
}

/* The system-libm variant: the same names, libm's values. */
static void
test_libm_variant(void **state)
{
  Built *b = *state;
  for (size_t k = 0; k < NINEXACT; k++) {
    F1 f = (F1)sym(b, 't', inexact[k].name);
    D1 d = (D1)sym(b, 'd', inexact[k].name);
    for (int i = -40; i <= 40; i++) {
      double x = i * 0.0625;
      if (err_f(f((float)x), inexact[k].ref_f((float)x)) > 4.0) /* glibc's floats: 2 ulp */
        fail_msg("%sf(%a) = %a", inexact[k].name, x, f((float)x));
      if (err_d(d(x), inexact[k].ref_d(x)) > 4.0)
        fail_msg("%s(%a) = %a", inexact[k].name, x, d(x));
    }
  }
}

/* A use of every function, so that the object really contains them. */
static const char uses[] =
    "double rxc_use_all(double x);\n"
    "double rxc_use_all(double x) {\n"
    "  float f = (float)x;\n"
    "  return rxc_expf(f) + rxc_exp2f(f) + rxc_exp10f(f) + rxc_expm1f(f) + rxc_logf(f)\n"
    "    + rxc_log2f(f) + rxc_log10f(f) + rxc_log1pf(f) + rxc_sinhf(f) + rxc_coshf(f)\n"
    "    + rxc_tanhf(f) + rxc_sigmoidf(f) + rxc_erff(f) + rxc_sinf(f) + rxc_cosf(f)\n"
    "    + rxc_tanf(f) + rxc_asinf(f) + rxc_acosf(f) + rxc_atanf(f) + rxc_sqrtf(f)\n"
    "    + rxc_rsqrtf(f) + rxc_powf(f, f) + rxc_fmodf(f, f) + rxc_roundf(f) + rxc_nearbyintf(f)\n"
    "    + rxc_asinhf(f) + rxc_acoshf(f) + rxc_atanhf(f) + rxc_atan2f(f, f)\n"
    "    + rxc_floorf(f) + rxc_ceilf(f) + rxc_truncf(f) + rxc_fmaxf(f, f) + rxc_fminf(f, f)\n"
    "    + rxc_exp(x) + rxc_exp2(x) + rxc_exp10(x) + rxc_expm1(x) + rxc_log(x) + rxc_log2(x)\n"
    "    + rxc_log10(x) + rxc_log1p(x) + rxc_sinh(x) + rxc_cosh(x) + rxc_tanh(x)\n"
    "    + rxc_sigmoid(x) + rxc_erf(x) + rxc_sin(x) + rxc_cos(x) + rxc_tan(x) + rxc_asin(x)\n"
    "    + rxc_acos(x) + rxc_atan(x) + rxc_sqrt(x) + rxc_rsqrt(x) + rxc_pow(x, x)\n"
    "    + rxc_asinh(x) + rxc_acosh(x) + rxc_atanh(x) + rxc_atan2(x, x)\n"
    "    + rxc_fmod(x, x) + rxc_round(x) + rxc_nearbyint(x) + rxc_floor(x) + rxc_ceil(x)\n"
    "    + rxc_trunc(x) + rxc_fmax(x, x) + rxc_fmin(x, x) + (double)(rxc_i64)x;\n"
    "}\n"
    "void rxc_start(void);\n"
    "void rxc_start(void) { volatile double v = rxc_use_all(0.5); (void)v; for (;;) {} }\n";

/* Whether a compiler is installed. */
static bool
have(const char *cc)
{
  return run("command -v %s >/dev/null 2>&1", cc) == 0;
}

/* The types, then the whole text (as NAME.h then NAME.c would), then the
 * uses: compiles with cc and flags, references no symbol (nm -u prints
 * nothing), and links with -nostdlib. */
static void
strict_compile(const char *cc, const char *flags)
{
  char dir[] = "/tmp/rxc_rtc_XXXXXX";
  assert_non_null(mkdtemp(dir));
  size_t cap = strlen(cg_runtime_text(false)) + strlen(cg_runtime_types_text()) + sizeof uses + 8;
  char *src = malloc(cap);
  assert_non_null(src);
  snprintf(src, cap, "%s%s%s", cg_runtime_types_text(), cg_runtime_text(false), uses);
  write_file(dir, "rt.c", src);
  free(src);
  assert_int_equal(run("%s %s -c -o %s/rt.o %s/rt.c", cc, flags, dir, dir), 0);
  assert_int_equal(run("test -z \"$(nm -u %s/rt.o)\" || { nm -u %s/rt.o; exit 1; }", dir, dir), 0);
  if (strcmp(cc, "tcc") != 0)
    assert_int_equal(run("%s -nostdlib -static -Wl,-e,rxc_start -o %s/rt.elf %s/rt.o", cc, dir, dir), 0);
  run("rm -rf %s", dir);
}

static void
test_freestanding_gcc(void **state)
{
  (void)state;
  if (!have("gcc")) /* platform: gcc may be absent (make deps installs it) */
    TU_PLATFORM_SKIP("gcc not on PATH");
  strict_compile("gcc", "-std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding -O2");
  strict_compile("gcc", "-std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding -O0");
}

static void
test_freestanding_clang(void **state)
{
  (void)state;
  if (!have("clang")) /* platform: clang may be absent (make deps installs it) */
    TU_PLATFORM_SKIP("clang not on PATH");
  strict_compile("clang", "-std=c99 -Wall -Wextra -Werror -pedantic -ffreestanding -O2");
}

static void
test_freestanding_tcc(void **state)
{
  (void)state;
  if (!have("tcc")) /* platform: tcc may be absent (make deps installs it) */
    TU_PLATFORM_SKIP("tcc not on PATH");
  strict_compile("tcc", "-Wall -Werror");
}

/* The libm variant and the types alone are strict C99 too; the types
 * agree with <stdint.h>'s (a pointer converts without a diagnostic). */
static void
test_libm_and_types_compile(void **state)
{
  (void)state;
  char dir[] = "/tmp/rxc_rtl_XXXXXX";
  assert_non_null(mkdtemp(dir));
  size_t cap = strlen(cg_runtime_text(true)) + 1024;
  char *src = malloc(cap);
  assert_non_null(src);
  snprintf(src, cap,
           "%s#include <stdint.h>\n"
           "int64_t *as64(rxc_i64 *p);\nint64_t *as64(rxc_i64 *p) { return p; }\n"
           "uint32_t *asu32(rxc_u32 *p);\nuint32_t *asu32(rxc_u32 *p) { return p; }\n"
           "float e(float x);\nfloat e(float x) { return rxc_expf(x) + rxc_erff(x); }\n",
           cg_runtime_text(true));
  write_file(dir, "rtl.c", src);
  free(src);
  const char *ccs[] = {"gcc", "clang"};
  for (int i = 0; i < 2; i++)
    if (have(ccs[i]))
      assert_int_equal(run("%s -std=c99 -Wall -Wextra -Werror -pedantic -c -o %s/rtl.o %s/rtl.c",
                           ccs[i], dir, dir),
                       0);
  if (have("tcc"))
    assert_int_equal(run("tcc -Wall -Werror -c -o %s/rtl.o %s/rtl.c", dir, dir), 0);
  run("rm -rf %s", dir);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_freestanding_gcc),
      cmocka_unit_test(test_freestanding_clang),
      cmocka_unit_test(test_freestanding_tcc),
      cmocka_unit_test(test_libm_and_types_compile),
      cmocka_unit_test_setup_teardown(test_float_accuracy, setup_pure, teardown_built),
      cmocka_unit_test_setup_teardown(test_double_accuracy, setup_pure, teardown_built),
      cmocka_unit_test_setup_teardown(test_exact_functions, setup_pure, teardown_built),
      cmocka_unit_test_setup_teardown(test_binary_functions, setup_pure, teardown_built),
      cmocka_unit_test_setup_teardown(test_atan2, setup_pure, teardown_built),
      cmocka_unit_test_setup_teardown(test_branch_free_bits, setup_pure, teardown_built),
      cmocka_unit_test_setup_teardown(test_libm_variant, setup_libm, teardown_built),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
