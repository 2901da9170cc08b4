/*
 * tir.c - a scalar interpreter for T.prim_func bodies, and the evaluation of
 * symbolic dimensions at the Relax level.
 *
 * Loops of every kind run serially; a block binds its iterators, allocates
 * its buffers zeroed, and runs T.init when every reduce iterator is at the
 * minimum of its domain.  Every load and store checks every index against
 * the shape of the tensor bound to the buffer, so a wrong kernel is an
 * error naming the buffer, the index and the shape, never an access outside
 * the data.  Semantics: integers in exact int64 (wrapping, never undefined
 * behaviour), "//" and "%" floor, T.truncmod and T.truncdiv truncate;
 * floats are computed in double and rounded to their dtype at stores and
 * casts; intrinsics as their row of ir/tir_intrin.c says.  Variables and
 * buffers live on two stacks scanned from the top, which gives TIR's
 * lexical scoping without allocation per iteration.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "interp_int.h"

/* the kernels' one definition, which the generated C carries as text */
#include "../rt/rt_types.h"
#include "../rt/rt_math_base.h"
#include "../rt/rt_kern_base.h"
#include "../rt/rt_kern_gemm.h"
#include "../rt/rt_kern_gemm_int.h"
#include "../rt/rt_kern_copy.h"

typedef struct {
  const IrPrimExpr *var;
  Scalar v;
} VarSlot;

typedef struct {
  const IrBuffer *buf;
  IrTensorData *t;
  bool owned; /* t and its data are malloc'd by T.alloc_buffer */
  bool alias; /* t (not its data) is malloc'd by T.decl_buffer */
} BufSlot;

typedef struct {
  Interp *in;
  const char *func;   /* the prim_func's name, NULL for Relax dims */
  const Frame *frame; /* Relax symbolic values (dims only), or NULL */
  VarSlot *vars;
  int nvars, capvars;
  BufSlot *bufs;
  int nbufs, capbufs;
  IrLoc loc; /* the statement being run */
} Tir;

#define TIR_MAX_ALLOC ((int64_t)1 << 32) /* bytes of one T.alloc_buffer */

static void
tir_error(Tir *t, const char *fmt, ...)
{
  IrBuf b = {0};
  va_list ap;
  if (t->in->binding)
    ir_buf_printf(&b, "in binding '%s': ", t->in->binding);
  if (t->func)
    ir_buf_printf(&b, "in prim_func '%s': ", t->func);
  va_start(ap, fmt);
  ir_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  ir_error(t->in->ctx, t->loc.src ? t->loc : t->in->loc, "%s", b.data);
  ir_buf_free(&b);
}

static Scalar
mk_i(IrDType t, int64_t v)
{
  Scalar s = {t, v, (double)v};
  return s;
}

static Scalar
mk_f(IrDType t, double v)
{
  Scalar s = {t, 0, v};
  return s;
}

static double
as_f(Scalar s)
{
  if (interp_scalar_is_float(s.dtype))
    return s.f;
  return s.dtype.code == IR_DT_UINT ? (double)(uint64_t)s.i : (double)s.i;
}

/* A double converted to an integer by truncation, saturating (NaN is 0). */
static int64_t
to_int(double d)
{
  if (d != d)
    return 0;
  if (d >= 9.2233720368547758e18)
    return INT64_MAX;
  if (d <= -9.2233720368547758e18)
    return INT64_MIN;
  return (int64_t)d;
}

/* s converted to dtype t (T.Cast): floats rounded, integers wrapped. */
static Scalar
cast_to(IrDType t, Scalar s)
{
  if (interp_scalar_is_float(t))
    return mk_f(t, ir_float_round(t, as_f(s)));
  if (t.code == IR_DT_BOOL)
    return mk_i(t, interp_scalar_is_float(s.dtype) ? s.f != 0 : s.i != 0);
  int64_t v = interp_scalar_is_float(s.dtype) ? to_int(s.f) : s.i;
  if (t.bits < 64 && t.code == IR_DT_INT) {
    uint64_t m = (uint64_t)1 << (t.bits - 1), u = (uint64_t)v & (((uint64_t)1 << t.bits) - 1);
    v = (int64_t)((u ^ m) - m);
  } else if (t.bits < 64 && t.code == IR_DT_UINT) {
    v = (int64_t)((uint64_t)v & (((uint64_t)1 << t.bits) - 1));
  }
  return mk_i(t, v);
}

/* ---- the two stacks ---------------------------------------------------- */

static void
push_var(Tir *t, const IrPrimExpr *var, Scalar v)
{
  if (t->nvars == t->capvars) {
    t->capvars = t->capvars ? 2 * t->capvars : 32;
    t->vars = ir_xrealloc(t->vars, sizeof *t->vars * (size_t)t->capvars);
  }
  t->vars[t->nvars].var = var;
  t->vars[t->nvars++].v = v;
}

static void
push_buf(Tir *t, const IrBuffer *buf, IrTensorData *data, bool owned)
{
  if (t->nbufs == t->capbufs) {
    t->capbufs = t->capbufs ? 2 * t->capbufs : 16;
    t->bufs = ir_xrealloc(t->bufs, sizeof *t->bufs * (size_t)t->capbufs);
  }
  t->bufs[t->nbufs].buf = buf;
  t->bufs[t->nbufs].t = data;
  t->bufs[t->nbufs].alias = false;
  t->bufs[t->nbufs++].owned = owned;
}

/* Pops buffers down to n, freeing those T.alloc_buffer made. */
static void
pop_bufs(Tir *t, int n)
{
  while (t->nbufs > n) {
    BufSlot *b = &t->bufs[--t->nbufs];
    if (b->owned)
      free(b->t->data);
    if (b->owned || b->alias) {
      free(b->t->shape);
      free(b->t);
    }
  }
}

static bool
lookup_var(Tir *t, const IrPrimExpr *var, Scalar *out)
{
  for (int i = t->nvars - 1; i >= 0; i--)
    if (t->vars[i].var == var) {
      *out = t->vars[i].v;
      return true;
    }
  int64_t v;
  if (t->frame && interp_sym_get(t->frame, var, &v)) {
    *out = mk_i(var->dtype, v);
    return true;
  }
  return false;
}

static IrTensorData *
lookup_buf(Tir *t, const IrBuffer *buf)
{
  for (int i = t->nbufs - 1; i >= 0; i--)
    if (t->bufs[i].buf == buf)
      return t->bufs[i].t;
  tir_error(t, "buffer '%s' is not bound here", buf->name);
  return NULL;
}

/* ---- expressions ------------------------------------------------------- */

static bool eval(Tir *t, const IrPrimExpr *e, Scalar *out);

/* The flat element index of buf[idx...], checked against the shape. */
static bool
element_index(Tir *t, const IrBuffer *buf, IrPrimExpr **idx, int n, IrTensorData **data,
              int64_t *flat)
{
  IrTensorData *d = lookup_buf(t, buf);
  if (!d)
    return false;
  if (n != d->ndim) {
    tir_error(t, "buffer '%s' of %d dimensions indexed with %d", buf->name, d->ndim, n);
    return false;
  }
  int64_t at[64], f = 0;
  for (int i = 0; i < n; i++) {
    Scalar s;
    if (!eval(t, idx[i], &s))
      return false;
    at[i < 64 ? i : 63] = s.i;
    if (interp_scalar_is_float(s.dtype) || s.i < 0 || s.i >= d->shape[i] || i >= 64) {
      IrBuf b = {0};
      for (int k = 0; k <= i && k < 64; k++)
        ir_buf_printf(&b, k ? ", %lld" : "%lld", (long long)at[k]);
      ir_buf_puts(&b, i + 1 < n ? ", ..." : "");
      IrBuf shape = {0};
      for (int k = 0; k < d->ndim; k++)
        ir_buf_printf(&shape, k ? ", %lld" : "%lld", (long long)d->shape[k]);
      tir_error(t, "index [%s] of buffer '%s' is out of bounds for shape (%s)", b.data, buf->name,
                shape.data ? shape.data : "");
      ir_buf_free(&b);
      ir_buf_free(&shape);
      return false;
    }
    f = f * d->shape[i] + s.i;
  }
  *data = d;
  *flat = f;
  return true;
}

static bool
eval_load(Tir *t, const IrPrimExpr *e, Scalar *out)
{
  IrTensorData *d;
  int64_t i;
  if (!element_index(t, e->u.load.buffer, e->u.load.indices, e->u.load.n, &d, &i))
    return false;
  if (interp_scalar_is_float(d->dtype))
    *out = mk_f(d->dtype, op_get_f(d, i));
  else
    *out = mk_i(d->dtype, op_get_i(d, i));
  return true;
}

/* Integer binary operation on operands of dtype d (uint64's bits held in
 * int64: ordered and divided unsigned); false after an error (division by
 * zero). */
static bool
int_bin(Tir *t, IrDType d, IrPrimKind k, int64_t a, int64_t b, int64_t *r)
{
  bool u64 = d.code == IR_DT_UINT && d.bits == 64;
  if (!(u64 ? ir_uint64_binary(k, a, b, r) : ir_int_binary(k, a, b, r))) {
    tir_error(t, "integer division by zero");
    return false;
  }
  return true;
}

static double
float_bin(IrPrimKind k, double a, double b)
{
  switch (k) {
  case IR_PE_ADD:
    return a + b;
  case IR_PE_SUB:
    return a - b;
  case IR_PE_MUL:
    return a * b;
  case IR_PE_DIV:
    return a / b;
  case IR_PE_MOD:
    return fmod(a, b);
  case IR_PE_FLOORDIV:
    return floor(a / b);
  case IR_PE_FLOORMOD:
    return a - floor(a / b) * b;
  case IR_PE_MIN:
    return a < b ? a : b;
  case IR_PE_MAX:
    return a > b ? a : b;
  case IR_PE_EQ:
    return a == b;
  case IR_PE_NE:
    return a != b;
  case IR_PE_LT:
    return a < b;
  case IR_PE_LE:
    return a <= b;
  case IR_PE_GT:
    return a > b;
  case IR_PE_GE:
    return a >= b;
  default:
    UNREACHABLE();
  }
  return 0;
}

static bool
eval_bin(Tir *t, const IrPrimExpr *e, Scalar *out)
{
  Scalar a, b;
  IrPrimKind k = e->kind;
  if (!eval(t, e->u.bin.a, &a))
    return false;
  if (k == IR_PE_AND || k == IR_PE_OR) { /* short-circuit, as C does */
    bool x = interp_scalar_is_float(a.dtype) ? a.f != 0 : a.i != 0;
    if (x == (k == IR_PE_OR)) {
      *out = mk_i(IR_BOOL, x);
      return true;
    }
    if (!eval(t, e->u.bin.b, &b))
      return false;
    *out = mk_i(IR_BOOL, interp_scalar_is_float(b.dtype) ? b.f != 0 : b.i != 0);
    return true;
  }
  if (!eval(t, e->u.bin.b, &b))
    return false;
  bool cmp = k >= IR_PE_EQ && k <= IR_PE_GE;
  if (interp_scalar_is_float(a.dtype) || interp_scalar_is_float(b.dtype)) {
    double r = float_bin(k, as_f(a), as_f(b));
    *out = cmp ? mk_i(IR_BOOL, r != 0) : mk_f(e->dtype, r);
    return true;
  }
  int64_t r = 0;
  if (!int_bin(t, a.dtype, k, a.i, b.i, &r))
    return false;
  *out = mk_i(cmp ? IR_BOOL : e->dtype, r);
  return true;
}

/* T.max_value / T.min_value of dtype d. */
static Scalar
limit_value(IrDType d, bool max)
{
  if (interp_scalar_is_float(d)) {
    double v = d.bits == 16 ? 65504.0 : d.bits == 32 ? FLT_MAX : DBL_MAX;
    return mk_f(d, max ? v : -v);
  }
  if (d.code == IR_DT_BOOL)
    return mk_i(d, max);
  if (d.code == IR_DT_UINT)
    return mk_i(d, max ? (d.bits >= 64 ? -1 : (int64_t)(((uint64_t)1 << d.bits) - 1)) : 0);
  int64_t hi = d.bits >= 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << (d.bits - 1)) - 1);
  return mk_i(d, max ? hi : -hi - 1);
}

/* The value of call e of intrinsic in, its arguments evaluated into a
 * (eval_call itself does if_then_else, lazily, and the limits). */
static Scalar
eval_intrinsic(const IrTirIntrin *in, const IrPrimExpr *e, Scalar *a)
{
  switch (in->kind) {
  case IR_INTRIN_MATH:
    return mk_f(e->dtype,
                in->arity == 1 ? in->math1(as_f(a[0])) : in->math2(as_f(a[0]), as_f(a[1])));
  case IR_INTRIN_ABS:
    return interp_scalar_is_float(a[0].dtype)
               ? mk_f(e->dtype, in->math1(a[0].f))
               : mk_i(e->dtype, a[0].i < 0 ? (int64_t)(0 - (uint64_t)a[0].i) : a[0].i);
  case IR_INTRIN_POW:
    if (interp_scalar_is_float(e->dtype)) /* integers: by squaring, wrapping (was 0 always) */
      return mk_f(e->dtype, in->math2(as_f(a[0]), as_f(a[1])));
    return cast_to(e->dtype, mk_i(IR_I64, op_power_int(a[0].i, a[1].i)));
  case IR_INTRIN_ISNAN:
    return mk_i(IR_BOOL, isnan(as_f(a[0])) != 0);
  case IR_INTRIN_ISINF:
    return mk_i(IR_BOOL, isinf(as_f(a[0])) != 0); /* glibc: -1 for -inf */
  case IR_INTRIN_ISFINITE:
    return mk_i(IR_BOOL, isfinite(as_f(a[0])) != 0);
  case IR_INTRIN_BITS:
    return cast_to(e->dtype, mk_i(IR_I64, in->bits(e->dtype, a[0].i, in->arity == 2 ? a[1].i : 0)));
  case IR_INTRIN_LIKELY:
    return a[0];
  case IR_INTRIN_IF_THEN_ELSE:
  case IR_INTRIN_MAX_VALUE:
  case IR_INTRIN_MIN_VALUE:
    break;
  }
  UNREACHABLE();
  return a[0];
}

/* ---- kernel calls ------------------------------------------------------ */

static bool eval_int(Tir *t, const IrPrimExpr *e, int64_t *out);

/* A kernel's C definition, called with its arguments in order: pointers
 * as p[i], integers as v[i] (ir/tir_kernel.c says which is which). */
typedef void (*KernelRun)(void **p, const int64_t *v);

static void
run_gemm_f32(void **p, const int64_t *v)
{
  rxc_k_gemm_f32(p[0], p[1], v[2], v[3], p[4], v[5], v[6], v[7], v[8]);
}

static void
run_gemm_i8i8_i32(void **p, const int64_t *v)
{
  rxc_k_gemm_i8i8_i32(p[0], p[1], v[2], v[3], p[4], v[5], v[6], v[7], v[8]);
}

static void
run_gemm_u8i8_i32(void **p, const int64_t *v)
{
  rxc_k_gemm_u8i8_i32(p[0], p[1], v[2], v[3], p[4], v[5], v[6], v[7], v[8]);
}

static void
run_gemm_i8u8_i32(void **p, const int64_t *v)
{
  rxc_k_gemm_i8u8_i32(p[0], p[1], v[2], v[3], p[4], v[5], v[6], v[7], v[8]);
}

static void
run_gemm_i32i32_i32(void **p, const int64_t *v)
{
  rxc_k_gemm_i32i32_i32(p[0], p[1], v[2], v[3], p[4], v[5], v[6], v[7], v[8]);
}

static void
run_conv_f32(void **p, const int64_t *v)
{
  rxc_k_conv_f32(p[0], p[1], v[2], v[3], p[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12],
                 v[13]);
}

#define RUN_IM2COL(T, name)                                                                        \
  static void run_im2col_##name(void **p, const int64_t *v)                                        \
  {                                                                                                \
    rxc_k_im2col_##name((T *)p[0], (const T *)p[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8],     \
                        v[9], v[10], v[11], v[12], v[13], v[14], v[15]);                           \
  }
RUN_IM2COL(rxc_f32, f32)
RUN_IM2COL(rxc_i8, i8)
RUN_IM2COL(rxc_u8, u8)
RUN_IM2COL(rxc_i32, i32)

static const struct {
  const char *name;
  KernelRun run;
} kernel_runs[] = {{"rxc_k_gemm_f32", run_gemm_f32},
                   {"rxc_k_conv_f32", run_conv_f32},
                   {"rxc_k_gemm_i8i8_i32", run_gemm_i8i8_i32},
                   {"rxc_k_gemm_u8i8_i32", run_gemm_u8i8_i32},
                   {"rxc_k_gemm_i8u8_i32", run_gemm_i8u8_i32},
                   {"rxc_k_gemm_i32i32_i32", run_gemm_i32i32_i32},
                   {"rxc_k_im2col_f32", run_im2col_f32},
                   {"rxc_k_im2col_i8", run_im2col_i8},
                   {"rxc_k_im2col_u8", run_im2col_u8},
                   {"rxc_k_im2col_i32", run_im2col_i32}};

static KernelRun
kernel_run(const IrTirKernel *k)
{
  for (size_t i = 0; i < sizeof kernel_runs / sizeof kernel_runs[0]; i++)
    if (strcmp(kernel_runs[i].name, k->name) == 0)
      return kernel_runs[i].run;
  return NULL;
}

/* Where a pointer argument points and what it may touch. */
typedef struct {
  IrTensorData *d;
  int64_t at, lo, hi; /* element; touched: [at + lo, at + hi], none when lo > hi */
} KernelPtr;

static bool
overlap(const KernelPtr *x, const KernelPtr *y)
{
  return x->d->data == y->d->data && x->lo <= x->hi && y->lo <= y->hi &&
         x->at + x->lo <= y->at + y->hi && y->at + y->lo <= x->at + x->hi;
}

/* The kernel's arguments: integers into v, pointers into ptr and p (the
 * element each addresses checked in bounds, of the kernel's dtype). */
static bool
kernel_args(Tir *t, const IrPrimExpr *e, const IrTirKernel *k, KernelPtr *ptr, void **p, int64_t *v)
{
  for (int i = 0; i < k->nargs; i++) {
    if (k->args[i] == IR_KARG_INT) {
      if (!eval_int(t, e->u.call.args[i + 1], &v[i]))
        return false;
      continue;
    }
    const IrPrimExpr *load = ir_tir_kernel_pointee(e, i);
    if (!element_index(t, load->u.load.buffer, load->u.load.indices, load->u.load.n, &ptr[i].d,
                       &ptr[i].at))
      return false;
    IrDType elem = ir_tir_kernel_elem(k, i);
    if (!ir_dtype_eq(ptr[i].d->dtype, elem)) {
      char want[32], got[32];
      tir_error(t, "%s takes %s elements, not the %s of buffer '%s'", k->name,
                ir_dtype_str(elem, want), ir_dtype_str(ptr[i].d->dtype, got),
                load->u.load.buffer->name);
      return false;
    }
    p[i] = (char *)ptr[i].d->data + ptr[i].at * ir_dtype_bytes(elem);
  }
  return true;
}

/* Every element each pointer reaches (the row's span) lies in its
 * tensor, and no range the kernel writes meets another pointer's. */
static bool
kernel_reach(Tir *t, const IrPrimExpr *e, const IrTirKernel *k, KernelPtr *ptr, const int64_t *v)
{
  for (int i = 0; i < k->nargs; i++) {
    if (k->args[i] == IR_KARG_INT)
      continue;
    if (!k->span(v, i, &ptr[i].lo, &ptr[i].hi)) {
      tir_error(t, "%s: arguments out of its domain", k->name);
      return false;
    }
    int64_t n = op_numel(ptr[i].d), lo = ptr[i].at + ptr[i].lo, hi = ptr[i].at + ptr[i].hi;
    if (ptr[i].lo <= ptr[i].hi && (lo < 0 || hi >= n)) {
      tir_error(t, "%s: argument %d reaches elements %lld to %lld of buffer '%s' of %lld", k->name,
                i + 1, (long long)lo, (long long)hi,
                ir_tir_kernel_pointee(e, i)->u.load.buffer->name, (long long)n);
      return false;
    }
  }
  for (int i = 0; i < k->nargs; i++)
    for (int j = 0; k->args[i] == IR_KARG_INOUT && j < k->nargs; j++)
      if (j != i && k->args[j] != IR_KARG_INT && overlap(&ptr[i], &ptr[j])) {
        tir_error(t, "%s: argument %d writes elements argument %d reaches", k->name, i + 1, j + 1);
        return false;
      }
  return true;
}

/* A kernel call: its arguments evaluated, every element each pointer
 * touches checked against the tensor it points into (and a written
 * range against every other pointer's), then the kernel's own C
 * definition runs on the tensors' bytes, as the generated C runs it. */
static bool
eval_kernel(Tir *t, const IrPrimExpr *e)
{
  const IrTirKernel *k = ir_tir_kernel_of(e);
  KernelRun run = k ? kernel_run(k) : NULL;
  if (!run) {
    const IrPrimExpr *name = e->u.call.n ? e->u.call.args[0] : NULL;
    tir_error(t, "unknown kernel '%s' with %d argument%s",
              name && name->kind == IR_PE_STR ? name->u.str : "?", e->u.call.n - 1,
              e->u.call.n == 2 ? "" : "s");
    return false;
  }
  KernelPtr ptr[IR_KERNEL_MAX_ARGS];
  void *p[IR_KERNEL_MAX_ARGS] = {0};
  int64_t v[IR_KERNEL_MAX_ARGS] = {0};
  if (!kernel_args(t, e, k, ptr, p, v) || !kernel_reach(t, e, k, ptr, v))
    return false;
  run(p, v);
  return true;
}

static bool
eval_call(Tir *t, const IrPrimExpr *e, Scalar *out)
{
  const char *op = e->u.call.op;
  int n = e->u.call.n;
  if (ir_prim_is_call_extern(e)) {
    *out = mk_i(IR_I32, 0);
    return eval_kernel(t, e);
  }
  const IrTirIntrin *in = ir_tir_intrin_find(op, n);
  if (in && in->kind == IR_INTRIN_IF_THEN_ELSE) { /* lazy: guards loads */
    Scalar c;
    if (!eval(t, e->u.call.args[0], &c))
      return false;
    return eval(t, e->u.call.args[c.i ? 1 : 2], out);
  }
  if (in && (in->kind == IR_INTRIN_MAX_VALUE || in->kind == IR_INTRIN_MIN_VALUE)) {
    *out = limit_value(e->dtype, in->kind == IR_INTRIN_MAX_VALUE);
    return true;
  }
  Scalar a[8];
  if (n > 8) {
    tir_error(t, "intrinsic '%s' with %d arguments is not supported", op, n);
    return false;
  }
  for (int i = 0; i < n; i++)
    if (!eval(t, e->u.call.args[i], &a[i]))
      return false;
  if (!in) {
    tir_error(t, "unknown intrinsic '%s' with %d argument%s", op, n, n == 1 ? "" : "s");
    return false;
  }
  *out = eval_intrinsic(in, e, a);
  return true;
}

static bool
eval(Tir *t, const IrPrimExpr *e, Scalar *out)
{
  switch (e->kind) {
  case IR_PE_INT:
    *out = mk_i(e->dtype, e->u.int_value);
    return true;
  case IR_PE_FLOAT:
    *out = mk_f(e->dtype, e->u.float_value);
    return true;
  case IR_PE_STR:
    tir_error(t, "a string is not a value");
    return false;
  case IR_PE_VAR:
    if (lookup_var(t, e, out))
      return true;
    tir_error(t, "variable '%s' has no value", e->u.var);
    return false;
  case IR_PE_LOAD:
    return eval_load(t, e, out);
  case IR_PE_NOT:
    if (!eval(t, e->u.bin.a, out))
      return false;
    *out = mk_i(IR_BOOL, interp_scalar_is_float(out->dtype) ? out->f == 0 : out->i == 0);
    return true;
  case IR_PE_CAST:
    if (!eval(t, e->u.bin.a, out))
      return false;
    *out = cast_to(e->dtype, *out);
    return true;
  case IR_PE_SELECT: {
    Scalar c, a, b;
    if (!eval(t, e->u.select.cond, &c) || !eval(t, e->u.select.a, &a) ||
        !eval(t, e->u.select.b, &b))
      return false;
    *out = c.i ? a : b;
    return true;
  }
  case IR_PE_CALL:
    return eval_call(t, e, out);
  default:
    return eval_bin(t, e, out);
  }
}

/* ---- statements -------------------------------------------------------- */

static bool exec(Tir *t, const IrStmt *s);

static bool
eval_int(Tir *t, const IrPrimExpr *e, int64_t *out)
{
  Scalar s;
  if (!eval(t, e, &s))
    return false;
  *out = interp_scalar_is_float(s.dtype) ? to_int(s.f) : s.i;
  return true;
}

static bool
exec_for(Tir *t, const IrStmt *s)
{
  int64_t min, extent;
  if (!eval_int(t, s->u.loop.min, &min) || !eval_int(t, s->u.loop.extent, &extent))
    return false;
  int slot = t->nvars;
  push_var(t, s->u.loop.var, mk_i(s->u.loop.var->dtype, min));
  bool ok = true;
  for (int64_t i = 0; ok && i < extent; i++) {
    t->vars[slot].v = mk_i(s->u.loop.var->dtype, min + i);
    ok = exec(t, s->u.loop.body);
  }
  t->nvars = slot;
  return ok;
}

/* A tensor of buf's shape and dtype, malloc'd without data (nbytes set);
 * NULL after an error. */
static IrTensorData *
buffer_tensor(Tir *t, const IrBuffer *buf)
{
  int64_t count = 1, shape[64];
  int bytes = ir_dtype_bytes(buf->dtype);
  if (buf->ndim > 64 || bytes <= 0) {
    tir_error(t, "buffer '%s' cannot be allocated", buf->name);
    return NULL;
  }
  for (int i = 0; i < buf->ndim; i++) {
    if (!eval_int(t, buf->shape[i], &shape[i]))
      return NULL;
    if (shape[i] < 0 || (shape[i] > 0 && count > TIR_MAX_ALLOC / shape[i])) {
      tir_error(t, "buffer '%s': dimension %d of %lld is negative or too large", buf->name, i,
                (long long)shape[i]);
      return NULL;
    }
    count *= shape[i];
  }
  if (count > TIR_MAX_ALLOC / bytes) {
    tir_error(t, "buffer '%s' is too large to allocate", buf->name);
    return NULL;
  }
  IrTensorData *d = ir_xcalloc(1, sizeof *d);
  d->dtype = buf->dtype;
  d->ndim = buf->ndim;
  d->shape = ir_xcalloc((size_t)buf->ndim, sizeof(int64_t));
  memcpy(d->shape, shape, sizeof(int64_t) * (size_t)buf->ndim);
  d->nbytes = (size_t)(count * bytes);
  return d;
}

/* A zeroed tensor for T.alloc_buffer, malloc'd; NULL after an error. */
static IrTensorData *
alloc_buffer(Tir *t, const IrBuffer *buf)
{
  IrTensorData *d = buffer_tensor(t, buf);
  if (d)
    d->data = ir_xcalloc(d->nbytes, 1);
  return d;
}

/* T.decl_buffer: buf over the first bytes of source's tensor, which must
 * hold them all, for body. */
static bool
exec_decl(Tir *t, const IrStmt *s)
{
  const IrBuffer *buf = s->u.decl.buffer;
  IrTensorData *src = lookup_buf(t, s->u.decl.source);
  IrTensorData *d = src ? buffer_tensor(t, buf) : NULL;
  if (!d)
    return false;
  if (d->nbytes > src->nbytes) {
    tir_error(t, "T.decl_buffer '%s' covers %zu bytes but '%s' holds %zu", buf->name, d->nbytes,
              s->u.decl.source->name, src->nbytes);
    free(d->shape);
    free(d);
    return false;
  }
  d->data = src->data;
  int bufs = t->nbufs;
  push_buf(t, buf, d, false);
  t->bufs[t->nbufs - 1].alias = true;
  bool ok = exec(t, s->u.decl.body);
  pop_bufs(t, bufs);
  return ok;
}

static bool
push_alloc(Tir *t, const IrBuffer *buf)
{
  IrTensorData *d = alloc_buffer(t, buf);
  if (d)
    push_buf(t, buf, d, true);
  return d != NULL;
}

/* Are all reduce iterators of the block (pushed from `base`) at their
 * domain minimum? */
static bool
at_reduce_start(Tir *t, const IrTirBlock *b, int base, bool *ok)
{
  for (int i = 0; i < b->niters; i++) {
    if (b->iters[i].kind != IR_ITER_REDUCE)
      continue;
    int64_t min;
    if (!eval_int(t, b->iters[i].dom.min, &min)) {
      *ok = false;
      return false;
    }
    if (t->vars[base + i].v.i != min)
      return false;
  }
  return true;
}

static bool
exec_block(Tir *t, const IrTirBlock *b)
{
  int base = t->nvars, bufs = t->nbufs;
  bool ok = true;
  Scalar v[64];
  if (b->niters > 64) {
    tir_error(t, "block '%s' has too many iterators", b->name);
    return false;
  }
  for (int i = 0; ok && i < b->niters; i++) /* bindings see the outer vars only */
    ok = eval(t, b->iters[i].binding, &v[i]);
  for (int i = 0; ok && i < b->niters; i++)
    push_var(t, b->iters[i].var, cast_to(b->iters[i].var->dtype, v[i]));
  for (int i = 0; ok && i < b->nallocs; i++)
    ok = push_alloc(t, b->allocs[i]);
  if (ok && b->init && at_reduce_start(t, b, base, &ok) && ok)
    ok = exec(t, b->init);
  if (ok && b->body)
    ok = exec(t, b->body);
  t->nvars = base;
  pop_bufs(t, bufs);
  return ok;
}

static bool
exec_store(Tir *t, const IrStmt *s)
{
  IrTensorData *d;
  int64_t i;
  Scalar v;
  if (!eval(t, s->u.store.value, &v) ||
      !element_index(t, s->u.store.buffer, s->u.store.indices, s->u.store.n, &d, &i))
    return false;
  if (interp_scalar_is_float(v.dtype))
    op_set_f(d, i, v.f);
  else if (interp_scalar_is_float(d->dtype))
    op_set_f(d, i, as_f(v));
  else
    op_set_i(d, i, v.i);
  return true;
}

/* TVM's AssertStmt: the function fails with "Kind: message" (the parts
 * concatenated) when the condition is false. */
static bool
exec_assert(Tir *t, const IrStmt *s)
{
  Scalar c;
  if (!eval(t, s->u.check.cond, &c))
    return false;
  if (c.i)
    return true;
  IrBuf msg = {0};
  for (int i = 0; i < s->u.check.nparts; i++)
    ir_buf_puts(&msg, s->u.check.parts[i]);
  tir_error(t, "assertion failed: %s: %s", s->u.check.kind, msg.data ? msg.data : "");
  ir_buf_free(&msg);
  return false;
}

static bool
exec(Tir *t, const IrStmt *s)
{
  if (!s)
    return true;
  t->loc = s->loc;
  switch (s->kind) {
  case IR_ST_SEQ:
    for (int i = 0; i < s->u.seq.n; i++)
      if (!exec(t, s->u.seq.stmts[i]))
        return false;
    return true;
  case IR_ST_FOR:
    return exec_for(t, s);
  case IR_ST_BLOCK:
    return exec_block(t, s->u.block);
  case IR_ST_STORE:
    return exec_store(t, s);
  case IR_ST_LET: {
    Scalar v;
    if (!eval(t, s->u.let.value, &v))
      return false;
    int base = t->nvars;
    push_var(t, s->u.let.var, v);
    bool ok = exec(t, s->u.let.body);
    t->nvars = base;
    return ok;
  }
  case IR_ST_IF: {
    Scalar c;
    if (!eval(t, s->u.branch.cond, &c))
      return false;
    return exec(t, c.i ? s->u.branch.then_ : s->u.branch.else_);
  }
  case IR_ST_EVALUATE: {
    Scalar v;
    return eval(t, s->u.eval, &v);
  }
  case IR_ST_ALLOC: {
    int bufs = t->nbufs;
    bool ok = push_alloc(t, s->u.alloc.buffer) && exec(t, s->u.alloc.body);
    pop_bufs(t, bufs);
    return ok;
  }
  case IR_ST_ASSERT:
    return exec_assert(t, s);
  case IR_ST_DECL:
    return exec_decl(t, s);
  }
  return true;
}

/* ---- entry points ------------------------------------------------------ */

/* Binds parameter i: pass 0 scalars, pass 1 buffers' dtypes, ranks and bare
 * shape vars, pass 2 checks every dimension. */
static bool
bind_param(Tir *t, const IrPrimParam *p, int i, const Value *a, int pass)
{
  char x[16], y[16];
  if (!p->buffer) {
    if (pass != 0)
      return true;
    if (a->kind != VAL_PRIM) {
      tir_error(t, "parameter %d ('%s') is a scalar but the argument is not", i, p->var->u.var);
      return false;
    }
    Scalar s = interp_scalar_is_float(a->u.prim.dtype) ? mk_f(a->u.prim.dtype, a->u.prim.f)
                                                       : mk_i(a->u.prim.dtype, a->u.prim.i);
    push_var(t, p->var, cast_to(p->var->dtype, s));
    return true;
  }
  const IrBuffer *b = p->buffer;
  if (pass == 0)
    return true;
  if (a->kind != VAL_TENSOR) {
    tir_error(t, "buffer parameter '%s' needs a tensor argument", b->name);
    return false;
  }
  const IrTensorData *d = &a->u.tensor.t;
  if (pass == 1 && (!ir_dtype_eq(d->dtype, b->dtype) || d->ndim != b->ndim)) {
    tir_error(t, "buffer '%s' is %s of %d dimensions but the argument is %s of %d", b->name,
              ir_dtype_str(b->dtype, x), b->ndim, ir_dtype_str(d->dtype, y), d->ndim);
    return false;
  }
  for (int k = 0; k < b->ndim; k++) {
    Scalar s;
    if (pass == 1 && b->shape[k]->kind == IR_PE_VAR && !lookup_var(t, b->shape[k], &s))
      push_var(t, b->shape[k], mk_i(b->shape[k]->dtype, d->shape[k]));
    if (pass == 2 && !eval(t, b->shape[k], &s))
      return false;
    if (pass == 2 && s.i != d->shape[k]) {
      IrBuf text = {0};
      ir_prim_expr_print(b->shape[k], &text);
      tir_error(t, "buffer '%s' dimension %d is %s = %lld but the argument's is %lld", b->name, k,
                text.data ? text.data : "?", (long long)s.i, (long long)d->shape[k]);
      ir_buf_free(&text);
      return false;
    }
  }
  if (pass == 2)
    push_buf(t, b, (IrTensorData *)d, false);
  return true;
}

bool
interp_prim_call(Interp *in, const char *name, const IrPrimFunc *pf, Value **args, int nargs)
{
  Tir t = {in, name, NULL, NULL, 0, 0, NULL, 0, 0, {0}};
  if (nargs != pf->nparams) {
    tir_error(&t, "takes %d arguments, got %d", pf->nparams, nargs);
    return false;
  }
  bool ok = true;
  for (int pass = 0; pass < 3 && ok; pass++)
    for (int i = 0; i < nargs && ok; i++)
      ok = bind_param(&t, &pf->params[i], i, args[i], pass);
  if (ok)
    ok = exec(&t, pf->body);
  pop_bufs(&t, 0);
  free(t.vars);
  free(t.bufs);
  return ok;
}

bool
interp_eval_dim(Interp *in, const Frame *f, const IrPrimExpr *e, Scalar *out)
{
  Tir t = {in, NULL, f, NULL, 0, 0, NULL, 0, 0, {0}};
  bool ok = eval(&t, e, out);
  if (ok && interp_scalar_is_float(out->dtype))
    out->i = to_int(out->f);
  free(t.vars);
  free(t.bufs);
  return ok;
}
