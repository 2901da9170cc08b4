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
 * included.
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

/* The runtime text and a non-static wrapper per function. */
static char *
wrapped_source(bool system_libm)
{
  size_t cap = strlen(cg_runtime_text(system_libm)) + 16384, n;
  char *s = malloc(cap);
  assert_non_null(s);
  n = (size_t)snprintf(s, cap, "%s\n", cg_runtime_text(system_libm));
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
      cmocka_unit_test_setup_teardown(test_libm_variant, setup_libm, teardown_built),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
