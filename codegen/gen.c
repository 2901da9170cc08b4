/*
 * gen.c - cg_generate: a module with explicit memory and its plan become
 * NAME.h and NAME.c (and NAME_weights.c), and cg_write puts them on disk.
 *
 * Key idea: the pieces are generated into separate buffers (entries first,
 * because their call sites tell each prim_func what it needs; then the
 * prim_funcs; then constants and the helpers that were used) and put
 * together in a fixed order, so the output depends only on the input.
 * Also here: the C types of dtypes, C identifiers, name tables and the
 * on-demand helpers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cg_int.h"

void
cg_fail(CgGen *g, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  ir_diag_v(g->ctx, IR_DIAG_ERROR, g->loc, fmt, ap);
  va_end(ap);
  g->errors++;
}

/* --- C types ------------------------------------------------------------ */

static const char *const CTYPE_NAMES[CG_CT_COUNT] = {
    "rxc_bool", "rxc_i8",  "rxc_i16", "rxc_i32", "rxc_i64", "rxc_u8",   "rxc_u16",
    "rxc_u32",  "rxc_u64", "float",   "double",  "rxc_f16", "rxc_bf16",
};

/* Suffix of a helper's name for each C type: rxc_max_f32. */
static const char *const CTYPE_SUFFIX[CG_CT_COUNT] = {
    "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "f16", "bf16",
};

bool
cg_ctype(IrDType t, CgCType *out)
{
  if (t.lanes != 1)
    return false;
  int lg = t.bits == 8 ? 0 : t.bits == 16 ? 1 : t.bits == 32 ? 2 : t.bits == 64 ? 3 : -1;
  switch (t.code) {
  case IR_DT_BOOL:
    *out = CG_CT_BOOL;
    return true;
  case IR_DT_INT:
    *out = (CgCType)(CG_CT_I8 + lg);
    return lg >= 0;
  case IR_DT_UINT:
    *out = (CgCType)(CG_CT_U8 + lg);
    return lg >= 0;
  case IR_DT_FLOAT:
    *out = t.bits == 16 ? CG_CT_F16 : t.bits == 32 ? CG_CT_F32 : CG_CT_F64;
    return t.bits == 16 || t.bits == 32 || t.bits == 64;
  case IR_DT_BFLOAT:
    *out = CG_CT_BF16;
    return t.bits == 16;
  default:
    return false;
  }
}

const char *
cg_ctype_name(CgCType t)
{
  return CTYPE_NAMES[t];
}

const char *
cg_ctype_suffix(CgCType t)
{
  return CTYPE_SUFFIX[t];
}

const char *
cg_dtype_cname(CgGen *g, IrDType t)
{
  CgCType c;
  if (cg_ctype(t, &c))
    return CTYPE_NAMES[c];
  char buf[32];
  cg_fail(g, "C code generation does not support dtype %s", ir_dtype_str(t, buf));
  return NULL;
}

bool
cg_ctype_is_half(CgCType t)
{
  return t == CG_CT_F16 || t == CG_CT_BF16;
}

const char *
cg_value_cname(CgGen *g, IrDType t)
{
  CgCType c;
  if (cg_ctype(t, &c) && cg_ctype_is_half(c))
    return "rxc_f32";
  return cg_dtype_cname(g, t);
}

/* --- identifiers and name tables ---------------------------------------- */

static const char *const C_KEYWORDS[] = {
    "auto",     "break",  "case",   "char",     "const",      "continue", "default",     "do",
    "double",   "else",   "enum",   "extern",   "float",      "for",      "goto",        "if",
    "inline",   "int",    "long",   "register", "restrict",   "return",   "short",       "signed",
    "sizeof",   "static", "struct", "switch",   "typedef",    "union",    "unsigned",    "void",
    "volatile", "while",  "_Bool",  "_Complex", "_Imaginary", "arena",    "arena_bytes", "base",
    "tensors",  "dims",   "size_t", "NULL",     "offsetof",
};

/* name with every character that cannot be in a C identifier replaced by
 * '_'; a leading digit, a keyword, a reserved prefix (rxc_, _) or one of the
 * entry's own parameter names gets a 'v_' prefix. */
const char *
cg_ident(CgGen *g, const char *hint)
{
  size_t n = hint && *hint ? strlen(hint) : 1;
  char *s = ir_alloc(g->ctx, n + 3);
  memcpy(s, "v_", 2);
  for (size_t i = 0; i < n; i++) {
    char c = hint && *hint ? hint[i] : 'v';
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
    s[2 + i] = ok ? c : '_';
  }
  bool prefix = (s[2] >= '0' && s[2] <= '9') || s[2] == '_' || strncmp(s + 2, "rxc_", 4) == 0;
  for (size_t i = 0; i < sizeof C_KEYWORDS / sizeof C_KEYWORDS[0]; i++)
    if (strcmp(s + 2, C_KEYWORDS[i]) == 0)
      prefix = true;
  return prefix ? s : s + 2;
}

/* --- name tables --------------------------------------------------------
 * The names themselves are an IrNames (fresh suffixes in linear time);
 * an IrMap finds a key's name in constant time. */

static uint32_t
hash_name(const char *s, size_t n)
{
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

const char *
cg_names_find(const CgNames *t, const void *key)
{
  return ir_map_get(&t->bykey, key);
}

/* A new unique name for key (hint, then hint_1, hint_2, ...).  Names that
 * start like the file's globals ("NAME_") get a 'v_' prefix. */
const char *
cg_names_add(CgGen *g, CgNames *t, const void *key, const char *hint)
{
  const char *base = cg_ident(g, hint);
  size_t n = strlen(g->name);
  if (strncmp(base, g->name, n) == 0 && base[n] == '_')
    base = ir_printf(g->ctx, "v_%s", base);
  const char *s = ir_printf(g->ctx, "%s", ir_names_unique(&t->taken, base, "_"));
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 32;
    t->names = ir_xrealloc(t->names, sizeof *t->names * (size_t)t->cap);
  }
  t->names[t->n++] = s;
  void **slot = ir_map_slot(&t->bykey, key);
  if (!*slot) /* a key named twice keeps its first name */
    *slot = (void *)s;
  return s;
}

void
cg_names_free(CgNames *t)
{
  free(t->names);
  ir_map_free(&t->bykey);
  ir_names_free(&t->taken);
  memset(t, 0, sizeof *t);
}

int
cg_global_index(const CgGen *g, IrSym name)
{
  const IrGlobal *found = ir_map_get(&g->globals, name);
  return found ? (int)(found - g->m->globals) : -1;
}

static bool
is_ident_char(char c)
{
  return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* counts[i] = whole-token occurrences of names[i] in C text, outside
 * comments and strings: one scan of the text for all the names, which are
 * looked up in a hash table of their own. */
void
cg_text_counts(const IrBuf *text, const char *const *names, int n, int *counts)
{
  int cap = 16;
  while (cap < 2 * n)
    cap *= 2;
  int *slot = ir_xcalloc((size_t)cap, sizeof *slot), *first = ir_xcalloc((size_t)n, sizeof *first);
  for (int k = 0; k < n; k++) {
    int i = (int)(hash_name(names[k], strlen(names[k])) & (uint32_t)(cap - 1));
    while (slot[i] && strcmp(names[slot[i] - 1], names[k]) != 0)
      i = (i + 1) & (cap - 1);
    if (!slot[i])
      slot[i] = k + 1;
    first[k] = slot[i] - 1;
    counts[k] = 0;
  }
  const char *p = text->data, *end = p ? p + text->len : NULL;
  while (p && p < end) {
    if (p[0] == '/' && p + 1 < end && p[1] == '*') {
      const char *q = strstr(p + 2, "*/");
      p = q ? q + 2 : end;
    } else if (p[0] == '"') {
      for (p++; p < end && *p != '"'; p++)
        if (*p == '\\')
          p++;
      p++;
    } else if (is_ident_char(p[0])) {
      const char *q = p;
      while (q < end && is_ident_char(*q))
        q++;
      size_t len = (size_t)(q - p);
      int i = (int)(hash_name(p, len) & (uint32_t)(cap - 1));
      while (slot[i] && !(strncmp(names[slot[i] - 1], p, len) == 0 && names[slot[i] - 1][len] == 0))
        i = (i + 1) & (cap - 1);
      if (slot[i])
        counts[slot[i] - 1]++;
      p = q;
    } else {
      p++;
    }
  }
  for (int k = 0; k < n; k++)
    counts[k] = counts[first[k]];
  free(slot);
  free(first);
}

int
cg_text_count(const IrBuf *text, const char *name)
{
  int count;
  cg_text_counts(text, &name, 1, &count);
  return count;
}

bool
cg_text_uses(const IrBuf *text, const char *name)
{
  return cg_text_count(text, name) > 0;
}

/* --- helpers ------------------------------------------------------------ */

static bool
ctype_is_float(CgCType t)
{
  return t == CG_CT_F32 || t == CG_CT_F64;
}

static bool
ctype_is_signed(CgCType t)
{
  return t >= CG_CT_I8 && t <= CG_CT_I64;
}

static void
emit_helper(CgHelper h, CgCType t, IrBuf *o)
{
  const char *T = CTYPE_NAMES[t], *S = CTYPE_SUFFIX[t];
  const char *fl = t == CG_CT_F32 ? "rxc_floorf" : "rxc_floor";
  switch (h) {
  case CG_H_MIN:
  case CG_H_MAX:
    ir_buf_printf(o, "static %s\nrxc_%s_%s(%s a, %s b)\n{\n  return a %c b ? a : b;\n}\n\n", T,
                  h == CG_H_MIN ? "min" : "max", S, T, T, h == CG_H_MIN ? '<' : '>');
    break;
  case CG_H_FLOORDIV:
    ir_buf_printf(o, "static %s\nrxc_floordiv_%s(%s a, %s b)\n{\n", T, S, T, T);
    if (ctype_is_float(t))
      ir_buf_printf(o, "  return %s(a / b);\n}\n\n", fl);
    else if (ctype_is_signed(t)) /* defined for every b: 0 by 0 (which the interpreter
                                    refuses), -1 wrapping */
      ir_buf_printf(
          o,
          "  if (b == 0)\n    return 0;\n  if (b == -1)\n    return (%s)(0u - (rxc_u64)a);\n"
          "  %s q = (%s)(a / b);\n  return (%s)((a %% b != 0 && ((a < 0) != (b < 0))) ? "
          "q - 1 : q);\n}\n\n",
          T, T, T, T);
    else
      ir_buf_printf(o, "  return b == 0 ? 0 : (%s)(a / b);\n}\n\n", T);
    break;
  case CG_H_FLOORMOD:
    ir_buf_printf(o, "static %s\nrxc_floormod_%s(%s a, %s b)\n{\n", T, S, T, T);
    if (ctype_is_float(t))
      ir_buf_printf(o, "  return a - %s(a / b) * b;\n}\n\n", fl);
    else if (ctype_is_signed(t))
      ir_buf_printf(o,
                    "  if (b == 0 || b == -1)\n    return 0;\n"
                    "  %s r = (%s)(a %% b);\n  return (%s)((r != 0 && ((r < 0) != (b < 0))) ? r + "
                    "b : r);\n}\n\n",
                    T, T, T);
    else
      ir_buf_printf(o, "  return b == 0 ? 0 : (%s)(a %% b);\n}\n\n", T);
    break;
  case CG_H_DIV: /* the interpreter refuses b == 0; the C stays defined */
    ir_buf_printf(o, "static %s\nrxc_div_%s(%s a, %s b)\n{\n", T, S, T, T);
    if (ctype_is_signed(t))
      ir_buf_printf(o, "  if (b == -1)\n    return (%s)(0u - (rxc_u64)a);\n", T);
    ir_buf_printf(o, "  return b == 0 ? 0 : (%s)(a / b);\n}\n\n", T);
    break;
  case CG_H_MOD:
    ir_buf_printf(o, "static %s\nrxc_mod_%s(%s a, %s b)\n{\n", T, S, T, T);
    ir_buf_printf(o, "  return b == 0%s ? 0 : (%s)(a %% b);\n}\n\n",
                  ctype_is_signed(t) ? " || b == -1" : "", T);
    break;
  case CG_H_IPOW: /* ops/elementwise.c's power_int, in the operand type */
    ir_buf_printf(o, "static %s\nrxc_pow_%s(%s a, %s b)\n{\n  rxc_u64 r = 1, base = (rxc_u64)a;\n",
                  T, S, T, T);
    if (ctype_is_signed(t))
      ir_buf_printf(
          o, "  if (b < 0)\n    return (%s)(a == 1 ? 1 : a == -1 ? (b %% 2 ? -1 : 1) : 0);\n", T);
    ir_buf_printf(
        o,
        "  for (; b > 0; b >>= 1) {\n    if (b & 1)\n      r *= base;\n    base *= base;\n"
        "  }\n  return (%s)r;\n}\n\n",
        T);
    break;
  case CG_H_ABS:
    if (ctype_is_signed(t))
      ir_buf_printf(o, "static %s\nrxc_abs_%s(%s a)\n{\n  return a < 0 ? (%s)-a : a;\n}\n\n", T, S,
                    T, T);
    else
      ir_buf_printf(o, "static %s\nrxc_abs_%s(%s a)\n{\n  return a;\n}\n\n", T, S, T);
    break;
  case CG_H_ISINF:
    ir_buf_printf(o,
                  "static rxc_bool\nrxc_isinf_%s(%s a)\n{\n  return (rxc_bool)(a == a && a - a != "
                  "a - a);\n}\n\n",
                  S, T);
    break;
  case CG_H_ISFINITE:
    ir_buf_printf(
        o, "static rxc_bool\nrxc_isfinite_%s(%s a)\n{\n  return (rxc_bool)(a - a == a - a);\n}\n\n",
        S, T);
    break;
  case CG_H_FROM_BITS:
    ir_buf_printf(o,
                  "static %s\nrxc_from_bits_%s(%s bits)\n{\n  union {\n    %s u;\n    %s f;\n  } "
                  "x;\n  x.u = bits;\n  return x.f;\n}\n\n",
                  T, S, t == CG_CT_F32 ? "rxc_u32" : "rxc_u64",
                  t == CG_CT_F32 ? "rxc_u32" : "rxc_u64", T);
    break;
  default:
    UNREACHABLE();
  }
}

void
cg_emit_helpers(CgGen *g, IrBuf *out)
{
  for (int h = 0; h < CG_H_COUNT; h++)
    for (int t = 0; t < CG_CT_COUNT; t++)
      if (g->helpers[h][t])
        emit_helper((CgHelper)h, (CgCType)t, out);
  if (g->copy_used)
    ir_buf_puts(out, "static void\nrxc_copy(void *dst, const void *src, size_t n)\n{\n"
                     "  unsigned char *d = (unsigned char *)dst;\n"
                     "  const unsigned char *s = (const unsigned char *)src;\n"
                     "  while (n--)\n    *d++ = *s++;\n}\n\n");
  cg_emit_poison_helpers(g, out);
}

/* --- the whole output ------------------------------------------------- */

static void
file_set(CgOutput *res, IrCtx *ctx, const char *name, IrBuf *text)
{
  CgFile *f = &res->files[res->nfiles++];
  f->name = ir_strdup(ctx, name, strlen(name));
  f->text = *text;
  memset(text, 0, sizeof *text);
  if (!f->text.data)
    ir_buf_put(&f->text, "", 0);
}

static void
gen_free(CgGen *g)
{
  for (int i = 0; g->prims && i < g->m->nglobals; i++) {
    free(g->prims[i].dims);
    free(g->prims[i].dims_max);
    free(g->prims[i].written);
  }
  free(g->prims);
  free(g->consts);
  ir_map_free(&g->const_index);
  ir_map_free(&g->globals);
}

/* --- the instruction set ([target] isa) --------------------------------- */

/* The features of each x86-64 level past the baseline, spelled as gcc's and
 * clang's target attribute takes them (the psABI's definition less what
 * the attribute cannot name: CMPXCHG16B, LAHF/SAHF, XSAVE). */
static const char *
isa_features(CfgIsa isa)
{
  static const char v2[] = "sse3,ssse3,sse4.1,sse4.2,popcnt";
  static const char v3[] = "sse3,ssse3,sse4.1,sse4.2,popcnt,avx,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe";
  static const char v4[] = "sse3,ssse3,sse4.1,sse4.2,popcnt,avx,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,"
                           "avx512f,avx512bw,avx512cd,avx512dq,avx512vl";
  return isa == CFG_ISA_X86_64_V2   ? v2
         : isa == CFG_ISA_X86_64_V3 ? v3
         : isa == CFG_ISA_X86_64_V4 ? v4
                                    : NULL;
}

/* The features clang gets for isa: x86-64-v3's at most, because clang 14
 * with AVX-512 enabled vectorizes the generated loops with gathers, which
 * ran resnet18 8x slower than plain clang -O2 on the AMD EPYC measured
 * (and -march=native does the same); with AVX2's features it is 1.4x
 * faster than plain -O2. */
static const char *
isa_features_clang(CfgIsa isa)
{
  return isa_features(isa == CFG_ISA_X86_64_V4 ? CFG_ISA_X86_64_V3 : isa);
}

/* Opens the part of NAME.c built for the isa: a comment and RXC_ISA that
 * name it, then, for an x86 level, gcc's target and -O3 options (pushed;
 * the optimize pragma only when the build optimizes at all, so -O0 stays a
 * debug build) or clang's target attribute on every function (clang's -O2
 * already vectorizes; isa_features_clang says which features).  Guarded by compiler and
 * architecture, so tcc, other compilers and other targets build the same file as plain C.  isa none
 * writes nothing: the output is what it was without the key. */
static void
emit_isa_push(CgGen *g, IrBuf *c)
{
  CfgIsa isa = cfg_isa(g->cfg);
  if (isa == CFG_ISA_NONE)
    return;
  bool native = g->cfg->target.isa == CFG_ISA_NATIVE;
  ir_buf_printf(c, "/* Instruction set: %s ([target] isa = %s%s). */\n#define RXC_ISA \"%s\"\n",
                cfg_isa_name(isa), cfg_isa_name(g->cfg->target.isa),
                native ? ", the machine rxc ran on" : "", cfg_isa_name(isa));
  if (isa == CFG_ISA_ARMV7E_M) {
    ir_buf_puts(c, "/* The core's -mcpu/-mfpu say the architecture (and the float ABI a "
                   "pragma\n * must not change): the isa sets the vector width only. */\n\n");
    return;
  }
  const char *features = isa_features(isa);
  ir_buf_puts(c, "/* gcc and clang build the code below for it whatever -march the build "
                 "gives;\n * gcc also with -O3's vectorizer under any -O other than -O0. */\n");
  if (isa == CFG_ISA_X86_64_V4)
    ir_buf_puts(c, "/* clang: x86-64-v3's features, since clang 14 vectorizes this code with "
                   "slow\n * AVX-512 gathers. */\n");
  ir_buf_puts(c, "#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && "
                 "!defined(__TINYC__)\n#define RXC_ISA_GCC 1\n#pragma GCC push_options\n");
  if (features)
    ir_buf_printf(c, "#pragma GCC target(\"%s\")\n", features);
  ir_buf_puts(c, "#if defined(__OPTIMIZE__) && !defined(__OPTIMIZE_SIZE__)\n"
                 "#pragma GCC optimize(\"O3\")\n#endif\n");
  if (features)
    ir_buf_printf(c,
                  "#elif defined(__x86_64__) && defined(__clang__)\n#define RXC_ISA_CLANG 1\n"
                  "#pragma clang attribute push(__attribute__((target(\"%s\"))), "
                  "apply_to = function)\n",
                  isa_features_clang(isa));
  ir_buf_puts(c, "#endif\n\n");
}

/* Closes what emit_isa_push opened, at the end of NAME.c. */
static void
emit_isa_pop(CgGen *g, IrBuf *c)
{
  CfgIsa isa = cfg_isa(g->cfg);
  if (isa == CFG_ISA_NONE || isa == CFG_ISA_ARMV7E_M)
    return;
  ir_buf_puts(c, "\n#if defined(RXC_ISA_GCC)\n#pragma GCC pop_options\n");
  if (isa_features(isa))
    ir_buf_puts(c, "#elif defined(RXC_ISA_CLANG)\n#pragma clang attribute pop\n");
  ir_buf_puts(c, "#endif\n");
}

/* NAME.c from its parts. */
static void
assemble_c(CgGen *g, IrBuf *consts, IrBuf *prims, IrBuf *entries, IrBuf *c)
{
  ir_buf_printf(c,
                "/* %s.c - generated by rxc %s: do not edit.\n * Entries and error codes are "
                "documented in %s.h.",
                g->name, RXC_VERSION, g->name);
  if (cfg_isa(g->cfg) != CFG_ISA_NONE)
    ir_buf_printf(c, "\n * Written for the instruction set %s: see RXC_ISA below.",
                  cfg_isa_name(cfg_isa(g->cfg)));
  ir_buf_puts(c, " */\n");
  ir_buf_puts(c, cg_runtime_text(g->cfg->codegen.libm == CFG_LIBM_SYSTEM));
  ir_buf_printf(c, "#include \"%s.h\"\n\n", g->name);
  ir_buf_printf(c,
                "#ifdef %s_TRACE\n#define RXC_TRACE(name, ptr, bytes) %s_TRACE(name, ptr, bytes)\n"
                "#else\n#define RXC_TRACE(name, ptr, bytes) ((void)0)\n#endif\n\n",
                g->name, g->name);
  emit_isa_push(g, c);
  if (g->print_used)
    ir_buf_puts(c, cg_runtime_print_text());
  if (g->kernels_used)
    ir_buf_puts(c, cg_runtime_kernel_base_text());
  for (int i = 0; cg_runtime_kernel_text(i); i++)
    if (g->kernels_used & (1u << i))
      ir_buf_puts(c, cg_runtime_kernel_text(i));
  cg_emit_helpers(g, c);
  if (consts->len)
    ir_buf_put(c, consts->data, consts->len);
  if (prims->len)
    ir_buf_put(c, prims->data, prims->len);
  if (entries->len)
    ir_buf_put(c, entries->data, entries->len);
  cg_emit_strerror(g, c);
  emit_isa_pop(g, c);
}

static void
emit_all(CgGen *g, CgOutput *res, IrBuf *parts)
{
  IrBuf *entries = &parts[0], *decls = &parts[1], *docs = &parts[2], *prims = &parts[3];
  IrBuf *consts = &parts[4], *weights = &parts[5], *h = &parts[6], *c = &parts[7];
  IrBuf *blob = &parts[8];
  const MpPlan *p = g->plan;
  for (int i = 0; i < p->nfuncs && !g->errors; i++)
    cg_emit_entry(g, &p->funcs[i], &res->entries[i], decls, docs, entries);
  res->nentries = p->nfuncs;
  for (int i = 0; i < g->m->nglobals && !g->errors; i++)
    if (g->m->globals[i].kind == IR_GLOBAL_PRIM && g->prims[i].called)
      cg_emit_prim_func(g, i, prims);
  if (g->errors)
    return;
  g->weights_bytes = cg_emit_consts(g, consts, weights, blob);
  cg_emit_header(g, res, decls, docs, h);
  assemble_c(g, consts, prims, entries, c);
  if (g->errors)
    return;
  file_set(res, g->ctx, ir_printf(g->ctx, "%s.h", g->name), h);
  file_set(res, g->ctx, ir_printf(g->ctx, "%s.c", g->name), c);
  if (g->cfg->codegen.weights == CFG_WEIGHTS_SEPARATE)
    file_set(res, g->ctx, ir_printf(g->ctx, "%s_weights.c", g->name), weights);
  if (g->cfg->codegen.weights == CFG_WEIGHTS_BLOB) {
    res->blob = res->nfiles;
    res->set_weights = ir_printf(g->ctx, "%s_set_weights", g->name);
    file_set(res, g->ctx, ir_printf(g->ctx, "%s.weights.bin", g->name), blob);
  }
}

CgOutput *
cg_generate(IrCtx *ctx, const IrModule *m, const MpPlan *p, const CfgOptions *cfg, const char *name)
{
  CgGen g = {.ctx = ctx, .m = m, .plan = p, .cfg = cfg};
  const char *base = cfg->codegen.prefix[0] ? cfg->codegen.prefix : name;
  g.name = cg_ident(&g, base && *base ? base : "model");
  g.prims = ir_xcalloc((size_t)m->nglobals + 1, sizeof *g.prims);
  ir_module_index(m, &g.globals);
  CgOutput *res = ir_xcalloc(1, sizeof *res);
  res->entries = ir_alloc(ctx, sizeof *res->entries * (size_t)(p->nfuncs + 1));
  res->arena_align = p->align;
  IrBuf parts[9] = {{0}};
  emit_all(&g, res, parts);
  for (int i = 0; i < 9; i++)
    ir_buf_free(&parts[i]);
  gen_free(&g);
  if (g.errors) {
    cg_output_free(res);
    return NULL;
  }
  return res;
}

void
cg_output_free(CgOutput *out)
{
  if (!out)
    return;
  for (int i = 0; i < out->nfiles; i++)
    ir_buf_free(&out->files[i].text);
  free(out);
}

/* --- cg_write ----------------------------------------------------------- */

static bool
write_one(IrCtx *ctx, const char *dir, const CgFile *f, char **tmp)
{
  IrLoc none = {0};
  *tmp = ir_printf(ctx, "%s/.%s.tmp", dir, f->name);
  FILE *fp = fopen(*tmp, "wb");
  if (!fp) {
    ir_error(ctx, none, "cannot write '%s': %s", *tmp, strerror(errno));
    return false;
  }
  bool ok = fwrite(f->text.data, 1, f->text.len, fp) == f->text.len;
  ok = (fclose(fp) == 0) && ok;
  if (!ok) {
    ir_error(ctx, none, "cannot write '%s'", *tmp);
    remove(*tmp);
  }
  return ok;
}

/* Every file goes to a temporary first; only when all are written are
 * they renamed, so an error leaves no partial output. */
bool
cg_write(IrCtx *ctx, const CgOutput *out, const char *dir)
{
  IrLoc none = {0};
  char *tmp[3] = {0};
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    ir_error(ctx, none, "cannot create directory '%s': %s", dir, strerror(errno));
    return false;
  }
  bool ok = true;
  for (int i = 0; i < out->nfiles && ok; i++)
    ok = write_one(ctx, dir, &out->files[i], &tmp[i]);
  for (int i = 0; i < out->nfiles; i++) {
    if (!tmp[i])
      continue;
    const char *final = ir_printf(ctx, "%s/%s", dir, out->files[i].name);
    if (ok && rename(tmp[i], final) != 0) {
      ir_error(ctx, none, "cannot rename '%s' to '%s': %s", tmp[i], final, strerror(errno));
      ok = false;
    }
    if (!ok)
      remove(tmp[i]);
  }
  return ok;
}
