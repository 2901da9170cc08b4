/*
 * test_config.c - the build configuration (config/): defaults, each key's
 * effect on its field, every kind of bad file with its exact message and
 * line, command-line overrides, the print/load round trip, the shipped
 * shipped config files, and rxc's --config / --set / --print-config.
 *
 * Files live in tests/config/; scratch files go to build/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "../../api/road.h"
#include "../../config/cfg.h"
#include "../../memplan/mp.h"
#include "testutil.h"

/* ---- helpers ---------------------------------------------------------- */

static void
write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

/* Loads path over defaults into *o; returns cfg_load's result and leaves
 * the printed diagnostics in *diags (malloc'd). */
static bool
load(const char *path, CfgOptions *o, char **diags)
{
  IrCtx *ctx = ir_ctx_new();
  cfg_defaults(o);
  bool ok = cfg_load(ctx, path, o);
  *diags = tu_diag_text(ctx);
  ir_ctx_free(ctx);
  return ok;
}

/* The "error:" and "note:" header lines of a diagnostic text, joined with
 * newlines (the quoted source lines and carets dropped). */
static char *
headers(const char *diags)
{
  IrBuf b = {0};
  ir_buf_puts(&b, "");
  for (const char *p = diags; *p;) {
    const char *eol = strchr(p, '\n');
    size_t n = eol ? (size_t)(eol - p) : strlen(p);
    if (n > 0 && p[0] != ' ')
      ir_buf_printf(&b, "%.*s\n", (int)n, p);
    p += n + (eol ? 1 : 0);
  }
  return b.data;
}

/* Asserts that loading path fails with exactly these header lines. */
static void
expect_bad_file(const char *path, const char *want)
{
  CfgOptions o, before;
  char *diags;
  assert_false(load(path, &o, &diags));
  cfg_defaults(&before);
  assert_memory_equal(&o, &before, sizeof o); /* unchanged on error */
  char *got = headers(diags);
  if (strcmp(got, want) != 0)
    printf("%s: got\n%s\nwant\n%s\n", path, got, want);
  assert_string_equal(got, want);
  free(got);
  free(diags);
}

static void
assert_same_options(const CfgOptions *a, const CfgOptions *b)
{
  assert_int_equal(a->target.kind, b->target.kind);
  assert_int_equal(a->target.alignment, b->target.alignment);
  assert_int_equal(a->target.vector_bytes, b->target.vector_bytes);
  assert_int_equal(a->target.isa, b->target.isa);
  assert_string_equal(a->target.cc, b->target.cc);
  assert_int_equal(a->opt.level, b->opt.level);
  assert_int_equal(a->opt.npasses_add, b->opt.npasses_add);
  for (int i = 0; i < a->opt.npasses_add; i++)
    assert_string_equal(a->opt.passes_add[i], b->opt.passes_add[i]);
  assert_int_equal(a->opt.npasses_remove, b->opt.npasses_remove);
  for (int i = 0; i < a->opt.npasses_remove; i++)
    assert_string_equal(a->opt.passes_remove[i], b->opt.passes_remove[i]);
  assert_int_equal(a->opt.verify_each, b->opt.verify_each);
  assert_int_equal(a->opt.kernels, b->opt.kernels);
  assert_int_equal(a->memplan.algorithm, b->memplan.algorithm);
  assert_int_equal(a->memplan.arena_limit, b->memplan.arena_limit);
  assert_int_equal(a->memplan.default_upper_bound, b->memplan.default_upper_bound);
  assert_int_equal(a->memplan.require_static, b->memplan.require_static);
  assert_int_equal(a->memplan.budget_ms, b->memplan.budget_ms);
  assert_int_equal(a->memplan.nupper_bounds, b->memplan.nupper_bounds);
  for (int i = 0; i < a->memplan.nupper_bounds; i++) {
    assert_string_equal(a->memplan.upper_bounds[i].name, b->memplan.upper_bounds[i].name);
    assert_int_equal(a->memplan.upper_bounds[i].bound, b->memplan.upper_bounds[i].bound);
  }
  assert_string_equal(a->codegen.prefix, b->codegen.prefix);
  assert_int_equal(a->codegen.weights, b->codegen.weights);
  assert_int_equal(a->codegen.libm, b->codegen.libm);
  assert_int_equal(a->codegen.checks, b->codegen.checks);
  assert_int_equal(a->codegen.poison, b->codegen.poison);
  assert_int_equal(a->codegen.rows, b->codegen.rows);
  assert_int_equal(a->jit.compiler, b->jit.compiler);
  assert_string_equal(a->jit.cc_flags, b->jit.cc_flags);
}

static const char *
rxc(void)
{
  const char *p = getenv("RXC");
  return p && *p ? p : "build/rxc";
}

/* Runs `rxc args`, capturing stdout and stderr; returns the exit status. */
static int
run(const char *args, char **out, char **err)
{
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "%s %s >build/cfg.out 2>build/cfg.err </dev/null", rxc(), args);
  int status = system(cmd);
  *out = tu_read_file("build/cfg.out");
  *err = tu_read_file("build/cfg.err");
  assert_non_null(*out);
  assert_non_null(*err);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

/* ---- defaults and keys ------------------------------------------------ */

static void
test_defaults(void **state)
{
  (void)state;
  CfgOptions o;
  memset(&o, 0xA5, sizeof o);
  cfg_defaults(&o);
  assert_int_equal(o.target.kind, CFG_TARGET_HOST);
  assert_int_equal(o.target.alignment, 64);
  assert_int_equal(o.target.vector_bytes, 0); /* auto */
  assert_int_equal(cfg_vector_bytes(&o), 64); /* what it was before isa */
  assert_int_equal(o.target.isa, CFG_ISA_NONE);
  assert_string_equal(o.target.cc, "cc");
  assert_int_equal(o.opt.level, 2);
  assert_int_equal(o.opt.npasses_add, 0);
  assert_int_equal(o.opt.npasses_remove, 0);
  assert_false(o.opt.verify_each);
  assert_int_equal(o.memplan.algorithm, CFG_PLAN_BEST);
  assert_int_equal(o.memplan.arena_limit, 0);
  assert_int_equal(o.memplan.default_upper_bound, 0);
  assert_false(o.memplan.require_static);
  assert_int_equal(o.memplan.budget_ms, 1000);
  assert_int_equal(o.memplan.nupper_bounds, 0);
  assert_string_equal(o.codegen.prefix, "");
  assert_int_equal(o.codegen.weights, CFG_WEIGHTS_INLINE);
  assert_int_equal(o.codegen.libm, CFG_LIBM_BUILTIN);
  assert_true(o.codegen.checks);
  assert_false(o.codegen.poison);
  assert_int_equal(o.codegen.rows, CFG_ROWS_AUTO);
  assert_int_equal(o.jit.compiler, CFG_JIT_TCC);
  assert_string_equal(o.jit.cc_flags, "auto");
}

/* tests/config/all_keys.ini sets every key to a non-default value. */
static void
test_every_key(void **state)
{
  (void)state;
  CfgOptions o;
  char *diags;
  assert_true(load("tests/config/all_keys.ini", &o, &diags));
  assert_string_equal(diags, "");
  free(diags);
  assert_int_equal(o.target.kind, CFG_TARGET_RISCV);
  assert_int_equal(o.target.alignment, 128);
  assert_int_equal(o.target.vector_bytes, 16);
  assert_int_equal(o.target.isa, CFG_ISA_X86_64_V2);
  assert_string_equal(o.target.cc, "clang --target=riscv32 -O2");
  assert_int_equal(o.opt.level, 1);
  assert_int_equal(o.opt.npasses_add, 2);
  assert_string_equal(o.opt.passes_add[0], "FuseOps");
  assert_string_equal(o.opt.passes_add[1], "FuseTIR");
  assert_int_equal(o.opt.npasses_remove, 1);
  assert_string_equal(o.opt.passes_remove[0], "FoldConstant");
  assert_true(o.opt.verify_each);
  assert_false(o.opt.kernels);
  assert_int_equal(o.memplan.algorithm, CFG_PLAN_GREEDY_SIZE);
  assert_int_equal(o.memplan.arena_limit, 3 * 1024 * 1024);
  assert_int_equal(o.memplan.default_upper_bound, 4096);
  assert_int_equal(o.memplan.nupper_bounds, 2);
  assert_string_equal(o.memplan.upper_bounds[0].name, "n");
  assert_int_equal(o.memplan.upper_bounds[0].bound, 128);
  assert_string_equal(o.memplan.upper_bounds[1].name, "batch");
  assert_int_equal(o.memplan.upper_bounds[1].bound, 8);
  assert_true(o.memplan.require_static);
  assert_string_equal(o.codegen.prefix, "mlp_v2");
  assert_int_equal(o.codegen.weights, CFG_WEIGHTS_SEPARATE);
  assert_int_equal(o.codegen.libm, CFG_LIBM_SYSTEM);
  assert_false(o.codegen.checks);
  assert_true(o.codegen.poison);
  assert_int_equal(o.codegen.rows, CFG_ROWS_OFF);
  assert_int_equal(o.jit.compiler, CFG_JIT_CC);
  assert_string_equal(o.jit.cc_flags, "-O3 -march=native");
  assert_int_equal(o.print.dialect, IR_DIALECT_V0_23);
}

/* Value spellings through cfg_set: booleans, size suffixes, lists,
 * empty values, and a bound set twice. */
static void
test_value_spellings(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CfgOptions o;
  cfg_defaults(&o);
  static const struct {
    const char *word;
    bool value;
  } bools[] = {{"true", 1}, {"false", 0}, {"on", 1}, {"off", 0},
               {"yes", 1},  {"no", 0},    {"1", 1},  {"0", 0}};
  for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++) {
    assert_true(cfg_set(ctx, &o, "opt", "verify_each", bools[i].word));
    assert_int_equal(o.opt.verify_each, bools[i].value);
    assert_true(cfg_set(ctx, &o, "codegen", "checks", bools[i].word));
    assert_int_equal(o.codegen.checks, bools[i].value);
  }
  assert_true(cfg_set(ctx, &o, "memplan", "arena_limit", "2k"));
  assert_int_equal(o.memplan.arena_limit, 2048);
  assert_true(cfg_set(ctx, &o, "memplan", "arena_limit", "5M"));
  assert_int_equal(o.memplan.arena_limit, 5 * 1048576);
  assert_true(cfg_set(ctx, &o, "memplan", "arena_limit", "1G"));
  assert_int_equal(o.memplan.arena_limit, 1073741824);
  assert_true(cfg_set(ctx, &o, "memplan", "arena_limit", "  65536 "));
  assert_int_equal(o.memplan.arena_limit, 65536);
  assert_true(cfg_set(ctx, &o, "target", "alignment", "1"));
  assert_int_equal(o.target.alignment, 1);
  assert_true(cfg_set(ctx, &o, "target", "alignment", "4096"));
  assert_int_equal(o.target.alignment, 4096);
  assert_true(cfg_set(ctx, &o, "target", "vector_bytes", "4"));
  assert_int_equal(o.target.vector_bytes, 4);
  assert_false(cfg_set(ctx, &o, "target", "vector_bytes", "48")); /* not a power of two */
  assert_true(cfg_set(ctx, &o, "target", "vector_bytes", "auto"));
  assert_int_equal(o.target.vector_bytes, 0);
  static const struct {
    const char *word;
    CfgIsa isa;
  } isas[] = {{"native", CFG_ISA_NATIVE},       {"x86-64", CFG_ISA_X86_64},
              {"x86-64-v2", CFG_ISA_X86_64_V2}, {"x86-64-v3", CFG_ISA_X86_64_V3},
              {"x86-64-v4", CFG_ISA_X86_64_V4}, {"armv7e-m", CFG_ISA_ARMV7E_M},
              {"none", CFG_ISA_NONE}};
  for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
    assert_true(cfg_set(ctx, &o, "target", "isa", isas[i].word));
    assert_int_equal(o.target.isa, isas[i].isa);
    if (isas[i].isa != CFG_ISA_NATIVE)
      assert_string_equal(cfg_isa_name(isas[i].isa), isas[i].word);
  }
  assert_false(cfg_set(ctx, &o, "target", "isa", "X86-64")); /* words are case-sensitive */
  assert_int_equal(o.target.isa, CFG_ISA_NONE);
  assert_true(cfg_set(ctx, &o, "opt", "passes_remove", "Normalize,LegalizeOps"));
  assert_int_equal(o.opt.npasses_remove, 2);
  assert_string_equal(o.opt.passes_remove[1], "LegalizeOps");
  assert_true(cfg_set(ctx, &o, "opt", "passes_remove", ""));
  assert_int_equal(o.opt.npasses_remove, 0);
  assert_true(cfg_set(ctx, &o, "codegen", "prefix", "_net1"));
  assert_string_equal(o.codegen.prefix, "_net1");
  assert_true(cfg_set(ctx, &o, "codegen", "prefix", ""));
  assert_string_equal(o.codegen.prefix, "");
  assert_true(cfg_set(ctx, &o, "memplan", "upper_bound.n", "64"));
  assert_true(cfg_set(ctx, &o, "memplan", "upper_bound.m", "2"));
  assert_true(cfg_set(ctx, &o, "memplan", "upper_bound.n", "32"));
  assert_int_equal(o.memplan.nupper_bounds, 2); /* n replaced, not added */
  assert_int_equal(o.memplan.upper_bounds[0].bound, 32);
  assert_true(cfg_set(ctx, &o, "target", "kind", "cortex-m"));
  assert_int_equal(o.target.kind, CFG_TARGET_CORTEX_M);
  assert_true(cfg_set(ctx, &o, "memplan", "algorithm", "greedy_breadth"));
  assert_int_equal(o.memplan.algorithm, CFG_PLAN_GREEDY_BREADTH);
  assert_true(cfg_set(ctx, &o, "memplan", "algorithm", "pooled"));
  assert_int_equal(o.memplan.algorithm, CFG_PLAN_POOLED);
  assert_true(cfg_set(ctx, &o, "memplan", "algorithm", "exact"));
  assert_int_equal(o.memplan.algorithm, CFG_PLAN_EXACT);
  assert_true(cfg_set(ctx, &o, "memplan", "algorithm", "local"));
  assert_int_equal(o.memplan.algorithm, CFG_PLAN_LOCAL);
  assert_int_equal(mp_algorithm_of(o.memplan.algorithm), MP_ALGO_LOCAL);
  assert_true(cfg_set(ctx, &o, "memplan", "budget_ms", "60000"));
  assert_int_equal(o.memplan.budget_ms, 60000);
  assert_false(cfg_set(ctx, &o, "memplan", "budget_ms", "0"));
  assert_int_equal(o.memplan.budget_ms, 60000);
  ir_diag_clear(ctx);
  assert_int_equal(ir_error_count(ctx), 0);
  ir_ctx_free(ctx);
}

/* ---- the instruction set ---------------------------------------------- */

/* The x86-64 level /proc/cpuinfo's flags make this machine, by the psABI's
 * definition of the levels (an expectation independent of config.c's
 * __builtin_cpu_supports checks); CFG_ISA_NONE off x86-64.  Not LZCNT's
 * "abm": a virtual AMD EPYC of this project's runs lists every other
 * flag of v3 and v4 but not it, though CPUID (gcc's
 * __builtin_cpu_supports("lzcnt")) reports the instruction. */
static CfgIsa
cpuinfo_level(void)
{
#if defined(__x86_64__)
  static const char *const levels[3][10] = {
      {"cx16", "lahf_lm", "popcnt", "pni", "sse4_1", "sse4_2", "ssse3"},
      {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "movbe", "xsave"},
      {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}};
  char *text = tu_read_file("/proc/cpuinfo");
  assert_non_null(text);
  char *flags = strstr(text, "\nflags");
  assert_non_null(flags);
  char *eol = strchr(flags + 1, '\n');
  if (eol)
    *eol = '\0';
  CfgIsa got = CFG_ISA_X86_64;
  for (int l = 0; l < 3; l++) {
    for (int i = 0; levels[l][i]; i++) {
      char word[32];
      snprintf(word, sizeof word, " %s", levels[l][i]);
      const char *at = strstr(flags, word);
      size_t n = strlen(word);
      if (!at || (at[n] != ' ' && at[n] != '\0')) {
        free(text);
        return got;
      }
    }
    got = (CfgIsa)(CFG_ISA_X86_64_V2 + l);
  }
  free(text);
  return got;
#else
  return CFG_ISA_NONE;
#endif
}

/* native resolves to the host's level; vector_bytes' auto follows the
 * isa, an explicit vector_bytes wins over it. */
static void
test_isa(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CfgOptions o;
  cfg_defaults(&o);
  assert_int_equal(cfg_isa(&o), CFG_ISA_NONE);
  assert_int_equal(cfg_isa_host(), cpuinfo_level());
  assert_true(cfg_set(ctx, &o, "target", "isa", "native"));
  assert_int_equal(cfg_isa(&o), cpuinfo_level());
  static const struct {
    const char *isa;
    int bytes;
  } widths[] = {{"none", 64},      {"x86-64", 16},    {"x86-64-v2", 16},
                {"x86-64-v3", 32}, {"x86-64-v4", 64}, {"armv7e-m", 4}};
  for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
    assert_true(cfg_set(ctx, &o, "target", "isa", widths[i].isa));
    assert_int_equal(cfg_isa(&o), o.target.isa);
    assert_int_equal(cfg_vector_bytes(&o), widths[i].bytes);
    assert_true(cfg_set(ctx, &o, "target", "vector_bytes", "8"));
    assert_int_equal(cfg_vector_bytes(&o), 8);
    assert_true(cfg_set(ctx, &o, "target", "vector_bytes", "auto"));
  }
  /* a printed native reads back as native, not as the level it resolved to */
  assert_true(cfg_set(ctx, &o, "target", "isa", "native"));
  IrBuf text = {0};
  cfg_print(&o, &text);
  assert_non_null(strstr(text.data, "\nisa = native\n"));
  assert_non_null(strstr(text.data, "\nvector_bytes = auto\n"));
  ir_buf_free(&text);
  assert_int_equal(ir_error_count(ctx), 0);
  ir_ctx_free(ctx);
}

/* ---- bad files -------------------------------------------------------- */

static void
test_unknown_key(void **state)
{
  (void)state;
  expect_bad_file("tests/config/unknown_key.ini",
                  "tests/config/unknown_key.ini:3:1: error: unknown key 'foo' in section [opt]\n"
                  "tests/config/unknown_key.ini: note: the keys of [opt] are level, passes_add, "
                  "passes_remove, verify_each, kernels\n");
  /* the source line and a caret under the key */
  CfgOptions o;
  char *diags;
  assert_false(load("tests/config/unknown_key.ini", &o, &diags));
  assert_non_null(strstr(diags, "\n  foo = 3\n  ^\n"));
  free(diags);
}

static void
test_unknown_section(void **state)
{
  (void)state;
  const char *note = "tests/config/unknown_section.ini: note: the sections are [target], [opt], "
                     "[memplan], [codegen], [jit]\n";
  IrBuf want = {0};
  ir_buf_printf(&want,
                "tests/config/unknown_section.ini:2:1: error: unknown section [optimise]\n%s"
                "tests/config/unknown_section.ini:7:1: error: unknown section "
                "[empty_unknown]\n%s",
                note, note);
  /* the key of the unknown section is not reported again; [jit] in
   * between is read */
  expect_bad_file("tests/config/unknown_section.ini", want.data);
  ir_buf_free(&want);
}

static void
test_bad_values(void **state)
{
  (void)state;
  const char *f = "tests/config/bad_values.ini:";
  IrBuf want = {0};
  ir_buf_printf(&want,
                "%s2:8: error: bad value 'arm' for key 'kind' in section [target]: expected one "
                "of host, cortex-m, riscv\n",
                f);
  ir_buf_printf(&want,
                "%s3:13: error: bad value '48' for key 'alignment' in section [target]: expected "
                "a power of two from 1 to 4096\n",
                f);
  ir_buf_printf(&want,
                "%s6:9: error: bad value '4' for key 'level' in section [opt]: expected an "
                "integer from 0 to 2\n",
                f);
  ir_buf_printf(&want,
                "%s7:15: error: bad value 'maybe' for key 'verify_each' in section [opt]: "
                "expected a boolean: true/false, on/off, yes/no or 1/0\n",
                f);
  ir_buf_printf(&want, "%s8:28: error: unknown pass 'Fold' in key 'passes_add' of section [opt]\n",
                f);
  ir_buf_printf(&want, "tests/config/bad_values.ini: note: the passes are ");
  for (int i = 0; opt_pass_at(i); i++)
    ir_buf_printf(&want, "%s%s", i ? ", " : "", opt_pass_at(i)->name);
  ir_buf_printf(&want,
                "\n%s9:17: error: bad value ',' for key 'passes_remove' in section [opt]: "
                "expected pass names separated by commas\n",
                f);
  ir_buf_printf(&want,
                "%s12:13: error: bad value 'fastest' for key 'algorithm' in section [memplan]: "
                "expected one of best, greedy_size, greedy_breadth, exact, pooled, greedy_length, "
                "greedy_area, greedy_glow, best_fit, local\n",
                f);
  ir_buf_printf(&want,
                "%s13:15: error: bad value '12q' for key 'arena_limit' in section [memplan]: "
                "expected a byte count >= 0 (suffix k, M or G: KiB, MiB, GiB)\n",
                f);
  ir_buf_printf(&want,
                "%s14:23: error: bad value '-1' for key 'default_upper_bound' in section "
                "[memplan]: expected an integer >= 0\n",
                f);
  ir_buf_printf(&want,
                "%s15:17: error: bad value '0' for key 'upper_bound.n' in section [memplan]: "
                "expected an integer >= 1\n",
                f);
  ir_buf_printf(&want,
                "%s16:1: error: bad dimension name '2x' in key 'upper_bound.2x': expected an "
                "identifier\n",
                f);
  ir_buf_printf(&want,
                "%s19:10: error: bad value '9lives' for key 'prefix' in section [codegen]: "
                "expected a C identifier of at most 63 characters, or nothing\n",
                f);
  ir_buf_printf(&want,
                "%s20:11: error: bad value 'external' for key 'weights' in section [codegen]: "
                "expected one of inline, separate, bytes, blob\n",
                f);
  ir_buf_printf(&want,
                "%s21:8: error: bad value 'glibc' for key 'libm' in section [codegen]: expected "
                "one of builtin, system\n",
                f);
  ir_buf_printf(&want,
                "%s22:10: error: bad value 'sometimes' for key 'checks' in section [codegen]: "
                "expected a boolean: true/false, on/off, yes/no or 1/0\n",
                f);
  ir_buf_printf(&want,
                "%s25:12: error: bad value 'gcc' for key 'compiler' in section [jit]: expected "
                "one of tcc, cc\n",
                f);
  ir_buf_printf(&want,
                "%s28:7: error: bad value 'x86-64-v5' for key 'isa' in section [target]: "
                "expected one of none, native, x86-64, x86-64-v2, x86-64-v3, x86-64-v4, "
                "armv7e-m\n",
                f);
  ir_buf_printf(&want,
                "%s29:16: error: bad value 'wide' for key 'vector_bytes' in section [target]: "
                "expected a power of two from 1 to 256, or auto\n",
                f);
  expect_bad_file("tests/config/bad_values.ini", want.data);
  ir_buf_free(&want);
}

/* Every syntax error is reported, not only inih's first, and keys after
 * them are still checked. */
static void
test_syntax_errors(void **state)
{
  (void)state;
  expect_bad_file(
      "tests/config/syntax.ini",
      "tests/config/syntax.ini:3:1: error: syntax error: expected 'key = value', '[section]' or a "
      "comment\n"
      "tests/config/syntax.ini:4:1: error: syntax error: '[' without a closing ']'\n"
      "tests/config/syntax.ini:5:1: error: unknown key 'arena_limit' in section [opt]\n"
      "tests/config/syntax.ini: note: the keys of [opt] are level, passes_add, passes_remove, "
      "verify_each, kernels\n"
      "tests/config/syntax.ini:6:3: error: indented line continues the value of key "
      "'arena_limit'; start each key at the beginning of its line\n");
}

static void
test_duplicate_and_outside(void **state)
{
  (void)state;
  expect_bad_file("tests/config/duplicate.ini",
                  "tests/config/duplicate.ini:1:1: error: key 'level' outside any section; put it "
                  "under its [section]\n"
                  "tests/config/duplicate.ini:4:1: error: duplicate key 'level' in section [opt]\n"
                  "tests/config/duplicate.ini:3:1: note: first set here\n");
}

static void
test_missing_file(void **state)
{
  (void)state;
  expect_bad_file(
      "tests/config/missing.ini",
      "rxc: error: cannot open 'tests/config/missing.ini': No such file or directory\n");
}

/* A line longer than inih's buffer is one error at its line; the lines
 * after it are read as usual (line 3's bad value is found). */
static void
test_long_line(void **state)
{
  (void)state;
  IrBuf text = {0};
  ir_buf_puts(&text, "[jit]\ncc_flags = ");
  for (int i = 0; i < 100; i++)
    ir_buf_puts(&text, "-g ");
  ir_buf_puts(&text, "\ncompiler = icc\n");
  write_file("build/cfg-long.ini", text.data);
  ir_buf_free(&text);
  CfgOptions o;
  char *diags;
  assert_false(load("build/cfg-long.ini", &o, &diags));
  char *got = headers(diags);
  assert_non_null(strstr(got, "build/cfg-long.ini:2:1: error: line longer than "));
  assert_non_null(strstr(got, "build/cfg-long.ini:3:12: error: bad value 'icc' for key "
                              "'compiler' in section [jit]"));
  free(got);
  free(diags);
}

/* Comments of both kinds, blank lines, a byte order mark, CRLF endings. */
static void
test_comments_bom_crlf(void **state)
{
  (void)state;
  write_file("build/cfg-bom.ini", "\xEF\xBB\xBF[opt]\r\n; c1\r\n# c2\r\n\r\n  ; indented "
                                  "comment\r\nlevel = 0 ; why\r\n");
  CfgOptions o;
  char *diags;
  assert_true(load("build/cfg-bom.ini", &o, &diags));
  assert_string_equal(diags, "");
  assert_int_equal(o.opt.level, 0);
  free(diags);
  /* an unknown section on the BOM line is still found */
  write_file("build/cfg-bom.ini", "\xEF\xBB\xBF[nope]\nx = 1\n");
  assert_false(load("build/cfg-bom.ini", &o, &diags));
  char *got = headers(diags);
  assert_non_null(strstr(got, "build/cfg-bom.ini:1:4: error: unknown section [nope]\n"));
  assert_null(strstr(got, "'x'"));
  free(got);
  free(diags);
}

/* ---- overrides -------------------------------------------------------- */

static void
test_set_errors(void **state)
{
  (void)state;
  static const struct {
    const char *arg, *msg;
  } cases[] = {
      {"optx.level=1", "unknown section [optx]"},
      {"opt.lvl=1", "unknown key 'lvl' in section [opt]"},
      {"opt.level=x", "bad value 'x' for key 'level' in section [opt]: expected an integer from "
                      "0 to 2"},
      /* there is no -O3: -O2 runs every pass that speeds up the code */
      {"opt.level=3", "bad value '3' for key 'level' in section [opt]: expected an integer from "
                      "0 to 2"},
      {"opt.level", "bad --set 'opt.level': expected section.key=value"},
      {"level=1", "bad --set 'level=1': expected section.key=value"},
      {"memplan.arena_limit=9999999999G",
       "bad value '9999999999G' for key 'arena_limit' in section [memplan]: expected a byte count "
       ">= 0 (suffix k, M or G: KiB, MiB, GiB)"},
      {"memplan.upper_bound.n=-3",
       "bad value '-3' for key 'upper_bound.n' in section [memplan]: expected an integer >= 1"},
      {"jit.cc_flags=-O2 ;-g", "bad value '-O2 ;-g' for key 'cc_flags' in section [jit]: expected "
                               "one line of at most 255 characters, without ' ;' (a comment)"},
      {"jit.cc_flags=;x", "bad value ';x' for key 'cc_flags' in section [jit]: expected one line "
                          "of at most 255 characters, without ' ;' (a comment)"},
      {"opt.passes_add=FoldConstant,", "bad value 'FoldConstant,' for key 'passes_add' in section "
                                       "[opt]: expected pass names separated by commas"},
      {"target.alignment=0", "bad value '0' for key 'alignment' in section [target]: expected a "
                             "power of two from 1 to 4096"},
      {"target.alignment=8192", "bad value '8192' for key 'alignment' in section [target]: "
                                "expected a power of two from 1 to 4096"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    IrCtx *ctx = ir_ctx_new();
    CfgOptions o, before;
    cfg_defaults(&o);
    memcpy(&before, &o, sizeof o);
    assert_false(cfg_set_arg(ctx, &o, cases[i].arg));
    assert_memory_equal(&o, &before, sizeof o);
    const IrDiag *d = ir_diag_get(ctx, 0);
    assert_non_null(d);
    assert_int_equal(d->level, IR_DIAG_ERROR);
    if (strcmp(d->msg, cases[i].msg) != 0)
      printf("--set %s: %s\n", cases[i].arg, d->msg);
    assert_string_equal(d->msg, cases[i].msg);
    ir_ctx_free(ctx);
  }
}

/* A value set after loading a file wins over the file; keys the file does
 * not give keep their earlier value. */
static void
test_overrides(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CfgOptions o;
  cfg_defaults(&o);
  assert_true(cfg_set_arg(ctx, &o, "jit.cc_flags=-O1"));
  assert_true(cfg_load(ctx, "tests/config/level0.ini", &o));
  assert_int_equal(o.opt.level, 0);
  assert_string_equal(o.jit.cc_flags, "-O1"); /* not in the file */
  assert_true(cfg_set_arg(ctx, &o, "opt.level=2"));
  assert_true(cfg_set_arg(ctx, &o, "memplan.upper_bound.seq_len=512"));
  assert_int_equal(o.opt.level, 2);
  assert_int_equal(o.opt.npasses_remove, 5); /* from the file */
  assert_string_equal(o.memplan.upper_bounds[0].name, "seq_len");
  assert_int_equal(ir_error_count(ctx), 0);
  ir_ctx_free(ctx);
}

static void
assert_pipeline(const CfgOptions *o, const char *const *names, int n)
{
  const OptPass *got[64];
  IrCtx *ctx = ir_ctx_new();
  int ngot = rxc_road_pipeline(ctx, o, got, 64);
  ir_ctx_free(ctx);
  assert_int_equal(ngot, n);
  for (int i = 0; i < n; i++)
    assert_string_equal(got[i]->name, names[i]);
}

static void
test_pipeline(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  CfgOptions o;
  cfg_defaults(&o);
  assert_true(cfg_set(ctx, &o, "opt", "level", "0"));
  static const char *const o0[] = {"Normalize",      "LegalizeOps",
                                   "ToNonDataflow",  "RemovePurityChecking",
                                   "CallTIRRewrite", "LiftWorkspaces",
                                   "KillAfterLastUse"};
  assert_pipeline(&o, o0, 7);
  assert_true(cfg_set(ctx, &o, "opt", "passes_remove",
                      "LegalizeOps, LiftWorkspaces, KillAfterLastUse"));
  assert_true(cfg_set(ctx, &o, "opt", "passes_add", "DeadCodeElimination,Normalize"));
  static const char *const edited[] = {
      "Normalize",      "ToNonDataflow",       "RemovePurityChecking",
      "CallTIRRewrite", "DeadCodeElimination", "Normalize"};
  assert_pipeline(&o, edited, 6);
  /* level 2 removes both DeadCodeElimination runs */
  assert_true(cfg_set(ctx, &o, "opt", "level", "2"));
  assert_true(cfg_set(ctx, &o, "opt", "passes_remove", "DeadCodeElimination"));
  assert_true(cfg_set(ctx, &o, "opt", "passes_add", ""));
  const OptPass *got[64];
  int n = rxc_road_pipeline(ctx, &o, got, 64);
  assert_int_equal(n, 14); /* the 16 passes of -O2 less two */
  for (int i = 0; i < n; i++)
    assert_string_not_equal(got[i]->name, "DeadCodeElimination");
  ir_ctx_free(ctx);
  /* the configuration holds names; one no pass has (only a hand-built
   * CfgOptions can hold it) is an error of the road */
  ctx = ir_ctx_new();
  strcpy(o.opt.passes_add[0], "Fold");
  o.opt.npasses_add = 1;
  assert_int_equal(rxc_road_pipeline(ctx, &o, got, 64), -1);
  assert_string_equal(ir_diag_get(ctx, 0)->msg,
                      "unknown pass 'Fold' in key 'passes_add' of section [opt]");
  ir_ctx_free(ctx);
}

/* ---- printing --------------------------------------------------------- */

/* print -> load gives the same options, and printing them again gives the
 * same text. */
static void
test_print_load_round_trip(void **state)
{
  (void)state;
  static const char *const files[] = {"tests/config/all_keys.ini", "config/default.ini",
                                      "config/cortex-m4.ini", "config/host.ini"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    CfgOptions a, b;
    char *diags;
    assert_true(load(files[i], &a, &diags));
    free(diags);
    IrBuf text = {0};
    cfg_print(&a, &text);
    write_file("build/cfg-roundtrip.ini", text.data);
    assert_true(load("build/cfg-roundtrip.ini", &b, &diags));
    assert_string_equal(diags, "");
    free(diags);
    assert_same_options(&a, &b);
    IrBuf again = {0};
    cfg_print(&b, &again);
    assert_string_equal(text.data, again.data);
    ir_buf_free(&text);
    ir_buf_free(&again);
  }
}

/* The shipped files load cleanly; default.ini states exactly the
 * built-in defaults. */
static void
test_shipped_files(void **state)
{
  (void)state;
  static const char *const files[] = {"config/default.ini", "config/cortex-m4.ini",
                                      "config/riscv.ini", "config/host.ini"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    CfgOptions o;
    char *diags;
    bool ok = load(files[i], &o, &diags);
    if (!ok)
      printf("%s:\n%s", files[i], diags);
    assert_true(ok);
    free(diags);
  }
  CfgOptions file, builtin;
  char *diags;
  assert_true(load("config/default.ini", &file, &diags));
  free(diags);
  cfg_defaults(&builtin);
  assert_same_options(&file, &builtin);
  CfgOptions m4;
  assert_true(load("config/cortex-m4.ini", &m4, &diags));
  free(diags);
  assert_int_equal(m4.target.kind, CFG_TARGET_CORTEX_M);
  assert_int_equal(m4.target.alignment, 8);
  assert_int_equal(m4.memplan.arena_limit, 128 * 1024);
}

/* ---- the command line ------------------------------------------------- */

static const char cortex_m4_printed[] =
    "; rxc configuration (rxc --print-config); read it back with --config\n"
    "\n"
    "[target]\n"
    "kind = cortex-m\n"
    "alignment = 8\n"
    "vector_bytes = 4\n"
    "isa = armv7e-m\n"
    "cc = arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16\n"
    "\n"
    "[opt]\n"
    "level = 2\n"
    "passes_add =\n"
    "passes_remove =\n"
    "verify_each = false\n"
    "kernels = true\n"
    "\n"
    "[memplan]\n"
    "algorithm = best\n"
    "arena_limit = 131072\n"
    "default_upper_bound = 0\n"
    "budget_ms = 1000\n"
    "require_static = true\n"
    "\n"
    "[codegen]\n"
    "prefix =\n"
    "weights = inline\n"
    "libm = builtin\n"
    "checks = on\n"
    "poison = false\n"
    "rows = auto\n"
    "\n"
    "[jit]\n"
    "compiler = tcc\n"
    "cc_flags = auto\n"
    "\n"
    "[print]\n"
    "dialect = v0.26\n";

static void
test_cli_print_config(void **state)
{
  (void)state;
  char *out, *err;
  assert_int_equal(run("--print-config --config config/cortex-m4.ini", &out, &err), 0);
  assert_string_equal(out, cortex_m4_printed);
  assert_string_equal(err, "");
  free(out);
  free(err);
  /* --set after the file wins, wherever it stands */
  assert_int_equal(run("--set opt.level=0 --config config/cortex-m4.ini --print-config "
                       "--set memplan.upper_bound.n=16",
                       &out, &err),
                   0);
  assert_non_null(strstr(out, "\nlevel = 0\n"));
  assert_non_null(strstr(out, "\nupper_bound.n = 16\n"));
  assert_non_null(strstr(out, "\nalignment = 8\n"));
  free(out);
  free(err);
}

static void
test_cli_errors(void **state)
{
  (void)state;
  char *out, *err;
  assert_int_equal(run("--print-config --config tests/config/unknown_key.ini", &out, &err), 1);
  assert_string_equal(out, "");
  assert_non_null(strstr(err, "tests/config/unknown_key.ini:3:1: error: unknown key 'foo' in "
                              "section [opt]\n  foo = 3\n  ^\n"));
  free(out);
  free(err);
  /* a bad isa: at its file:line:col, exit 1, as every other key */
  assert_int_equal(run("compile tests/cli/a.py -o build/cfg-isa --config tests/config/bad_isa.ini",
                       &out, &err),
                   1);
  assert_non_null(strstr(err, "tests/config/bad_isa.ini:2:7: error: bad value 'foo' for key 'isa' "
                              "in section [target]: expected one of none, native, x86-64, "
                              "x86-64-v2, x86-64-v3, x86-64-v4, armv7e-m\n  isa = foo\n"));
  free(out);
  free(err);
  assert_int_equal(run("--print-config --set opt.level=9", &out, &err), 2);
  assert_non_null(strstr(err, "rxc: error: bad value '9' for key 'level' in section [opt]"));
  free(out);
  free(err);
  assert_int_equal(run("--print-config check tests/cli/a.py", &out, &err), 2);
  assert_non_null(strstr(err, "--print-config takes no command"));
  free(out);
  free(err);
  assert_int_equal(run("--config a.ini --config b.ini --print-config", &out, &err), 2);
  assert_non_null(strstr(err, "give one --config FILE"));
  free(out);
  free(err);
}

/* rxc opt runs the configured pipeline when neither -O nor --passes is
 * given; -O overrides the level; --passes replaces the pipeline. */
static void
test_cli_opt_pipeline(void **state)
{
  (void)state;
  char *out, *err;
  assert_int_equal(
      run("opt tests/cli/a.py --config tests/config/level0.ini --time-passes", &out, &err), 0);
  assert_non_null(strstr(err, "rxc: Normalize "));
  assert_non_null(strstr(err, "rxc: LegalizeOps "));
  assert_null(strstr(err, "ToNonDataflow"));
  assert_null(strstr(err, "BindParams"));
  free(out);
  free(err);
  /* -O1 wins over level = 0; the file's passes_remove still applies
   * (whether the passes succeed is not this test's business) */
  run("opt tests/cli/a.py -O1 --config tests/config/level0.ini --time-passes", &out, &err);
  assert_non_null(strstr(err, "rxc: BindParams "));
  assert_null(strstr(err, "ToNonDataflow"));
  free(out);
  free(err);
  assert_int_equal(run("opt tests/cli/a.py --config tests/config/level0.ini --passes Normalize "
                       "--time-passes",
                       &out, &err),
                   0);
  assert_non_null(strstr(err, "rxc: Normalize "));
  assert_null(strstr(err, "LegalizeOps"));
  free(out);
  free(err);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_every_key),
      cmocka_unit_test(test_value_spellings),
      cmocka_unit_test(test_isa),
      cmocka_unit_test(test_unknown_key),
      cmocka_unit_test(test_unknown_section),
      cmocka_unit_test(test_bad_values),
      cmocka_unit_test(test_syntax_errors),
      cmocka_unit_test(test_duplicate_and_outside),
      cmocka_unit_test(test_missing_file),
      cmocka_unit_test(test_long_line),
      cmocka_unit_test(test_comments_bom_crlf),
      cmocka_unit_test(test_set_errors),
      cmocka_unit_test(test_overrides),
      cmocka_unit_test(test_pipeline),
      cmocka_unit_test(test_print_load_round_trip),
      cmocka_unit_test(test_shipped_files),
      cmocka_unit_test(test_cli_print_config),
      cmocka_unit_test(test_cli_errors),
      cmocka_unit_test(test_cli_opt_pipeline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
