/*
 * gen_tir.c - a T.prim_func as a static C function.
 *
 * Buffers are pointers (one per buffer parameter, const when the body never
 * stores into it, restrict unless some call site passes two arguments that
 * may share bytes) indexed row-major with int64 arithmetic from the buffer
 * shapes.  Dims that appear only in the shapes of buffer parameters (n in
 * T.match_buffer(x, (n, 4))) become trailing int64 parameters: the caller
 * knows them from the Relax struct info.  Blocks become C blocks: iterator
 * bindings are local consts and T.init runs when every reduce iterator is
 * at the minimum of its domain.
 *
 * T.alloc_buffer: up to IR_LOCAL_SCRATCH_BYTES with a constant shape, a local
 * array (on the stack); otherwise (only when LiftWorkspaces has not run:
 * it moves such buffers into the arena) a static array sized at the upper
 * bounds of the dims, memory outside the arena in a function that is not
 * reentrant.
 *
 * A prim_func with a TIR assert returns int: 1 where a condition is false
 * (its message a comment), 0 at the end; its call sites turn 1 into
 * NAME_ERR_ASSERT.  Kernels without one stay void functions.
 *
 * Expressions follow the interpreter's semantics (interp/tir.c): min/max
 * as a < b ? a : b, floor division and modulo by helpers, casts to bool as
 * != 0, floats as exact hex literals (bit patterns for inf and nan),
 * intrinsics in the C form of their row of ir/tir_intrin.c.
 */
#include <stdlib.h>
#include <string.h>

#include "cg_int.h"

typedef struct {
  CgGen *g;
  CgNames names;
  IrArith *arith; /* bounds of the implicit dims and loop vars */
  int indent;
  const char *all_ok;  /* inside a check nest: the local its asserts and into */
  const IrPrimFunc *f; /* the prim_func being emitted */
  const CgPrim *p;     /* what its callers told about it */
} Tir;

static void emit_stmt(Tir *t, const IrStmt *s, IrBuf *o);
static void emit_loop(Tir *t, const IrStmt *s, const char *name, const char *ct, IrBuf *o);

/* --- what a prim_func needs from its callers ------------------------------ */

static IrWalkAction
find_assert(const IrStmt *s, void *user)
{
  if (s->kind != IR_ST_ASSERT)
    return IR_WALK_CONTINUE;
  *(bool *)user = true;
  return IR_WALK_STOP;
}

CgPrim *
cg_prim_info(CgGen *g, int global)
{
  CgPrim *p = &g->prims[global];
  if (p->known)
    return p;
  const IrPrimFunc *f = g->m->globals[global].u.prim;
  IrVec vars = {0};
  for (int i = 0; i < f->nparams; i++)
    if (f->params[i].buffer)
      for (int d = 0; d < f->params[i].buffer->ndim; d++)
        ir_prim_expr_vars(f->params[i].buffer->shape[d], &vars);
  p->dims = ir_xcalloc((size_t)vars.len + 1, sizeof *p->dims);
  p->dims_max = ir_xcalloc((size_t)vars.len + 1, sizeof *p->dims_max);
  p->written = ir_xcalloc((size_t)f->nparams + 1, sizeof *p->written);
  for (int i = 0; i < vars.len; i++) {
    bool param = false;
    for (int k = 0; k < f->nparams; k++)
      param = param || f->params[k].var == vars.items[i];
    if (!param)
      p->dims[p->ndims++] = vars.items[i];
  }
  for (int i = 0; i < f->nparams; i++)
    p->written[i] = f->params[i].buffer && ir_stmt_stores_into(f->body, f->params[i].buffer);
  IrTirVisitor find = {.enter = find_assert, .user = &p->can_fail};
  ir_tir_walk(f->body, &find);
  ir_vec_free(&vars);
  p->known = true;
  return p;
}

/* --- literals ------------------------------------------------------------- */

void
cg_emit_int(IrDType t, int64_t v, IrBuf *out)
{
  if (t.code == IR_DT_BOOL)
    ir_buf_puts(out, v ? "1" : "0");
  else if (t.code == IR_DT_UINT && t.bits == 64)
    ir_buf_printf(out, "%lluULL", (unsigned long long)v);
  else if (v == INT64_MIN)
    ir_buf_puts(out, "(-9223372036854775807LL - 1)");
  else if (v < 0)
    ir_buf_printf(out, v >= -2147483647 ? "(%lld)" : "(%lldLL)", (long long)v);
  else
    ir_buf_printf(out, v <= 2147483647 ? "%lld" : "%lldLL", (long long)v);
}

void
cg_emit_float(CgGen *g, IrDType t, double v, IrBuf *out)
{
  bool f32 = t.bits <= 32;    /* float16 and bfloat16 values are floats */
  if (v != v || v - v != 0) { /* nan or inf: by bit pattern */
    g->helpers[CG_H_FROM_BITS][f32 ? CG_CT_F32 : CG_CT_F64] = true;
    if (f32) {
      float f = (float)v;
      uint32_t bits;
      memcpy(&bits, &f, 4);
      ir_buf_printf(out, "rxc_from_bits_f32(0x%08lxu)", (unsigned long)bits);
    } else {
      uint64_t bits;
      memcpy(&bits, &v, 8);
      ir_buf_printf(out, "rxc_from_bits_f64(0x%016llxull)", (unsigned long long)bits);
    }
    return;
  }
  bool neg = v < 0 || (v == 0 && 1 / v < 0);
  ir_buf_printf(out, neg ? "(%a%s)" : "%a%s", v, f32 ? "f" : "");
}

/* --- expressions ---------------------------------------------------------- */

/* The C type of a value of dtype t (float16 and bfloat16 compute in float). */
static CgCType
ctype_of(CgGen *g, IrDType t)
{
  CgCType c = CG_CT_I64;
  if (!cg_ctype(t, &c))
    cg_dtype_cname(g, t); /* reports */
  return cg_ctype_is_half(c) ? CG_CT_F32 : c;
}

/* "f16" or "bf16" when dtype t is stored as 16-bit float bits, else NULL:
 * the name part of rt_half.h's conversions. */
static const char *
half_name(IrDType t)
{
  CgCType c;
  if (!cg_ctype(t, &c) || !cg_ctype_is_half(c))
    return NULL;
  return c == CG_CT_F16 ? "f16" : "bf16";
}

/* Is e the int literal v? */
static bool
is_literal(const IrPrimExpr *e, int64_t v)
{
  return e->kind == IR_PE_INT && e->u.int_value == v;
}

/* When index d - 1 is A + X // c (or X // c) and index d is X % c, with c
 * dim d's literal extent, the two add up to A * c + X in the flat offset:
 * (X // c) * c + X % c == X for floor division, whatever X's sign.  Then
 * *a gets A (NULL: none) and *x gets X.  So a kernel that walks a
 * buffer's last dims as one flat range (conv2d's panels) indexes it
 * without a division. */
bool
cg_flat_pair(const IrBuffer *b, IrPrimExpr *const *idx, int d, const IrPrimExpr **a,
             const IrPrimExpr **x)
{
  const IrPrimExpr *hi = idx[d - 1], *lo = idx[d], *c = b->shape[d], *div = hi;
  if (lo->kind != IR_PE_FLOORMOD || c->kind != IR_PE_INT ||
      !is_literal(lo->u.bin.b, c->u.int_value))
    return false;
  *a = NULL;
  if (hi->kind == IR_PE_ADD && hi->u.bin.b->kind == IR_PE_FLOORDIV) {
    *a = hi->u.bin.a;
    div = hi->u.bin.b;
  }
  if (div->kind != IR_PE_FLOORDIV || !is_literal(div->u.bin.b, c->u.int_value) ||
      !ir_prim_expr_equal(div->u.bin.a, lo->u.bin.a))
    return false;
  *x = lo->u.bin.a;
  return true;
}

static void
emit_index(CgGen *g, const CgNames *n, const IrBuffer *b, IrPrimExpr **idx, int k, IrBuf *o)
{
  if (k == 0) {
    ir_buf_puts(o, "0");
    return;
  }
  /* part[d]: what index d contributes (NULL: nothing) */
  const IrPrimExpr **part = ir_xmalloc(sizeof *part * (size_t)k);
  for (int d = 0; d < k; d++)
    part[d] = idx[d];
  for (int d = 1; d < k; d++) {
    const IrPrimExpr *a, *x;
    if (part[d - 1] == idx[d - 1] && cg_flat_pair(b, idx, d, &a, &x)) {
      part[d - 1] = a;
      part[d] = x;
    }
  }
  for (int d = 1; d < k; d++)
    ir_buf_puts(o, "(");
  if (part[0])
    cg_emit_expr(g, n, part[0], o);
  else
    ir_buf_puts(o, "0");
  for (int d = 1; d < k; d++) {
    ir_buf_puts(o, " * ");
    cg_emit_expr(g, n, b->shape[d], o);
    ir_buf_puts(o, " + ");
    if (part[d])
      cg_emit_expr(g, n, part[d], o);
    else
      ir_buf_puts(o, "0");
    ir_buf_puts(o, ")");
  }
  free(part);
}

static void
emit_access(CgGen *g, const CgNames *n, const IrBuffer *b, IrPrimExpr **idx, int k, IrBuf *o)
{
  const char *name = cg_names_find(n, b);
  if (!name) {
    cg_fail(g, "buffer '%s' is not in scope", b->name);
    name = "?";
  }
  if (k != b->ndim)
    cg_fail(g, "buffer '%s' of %d dims accessed with %d indices", b->name, b->ndim, k);
  ir_buf_printf(o, "%s[", name);
  emit_index(g, n, b, idx, k, o);
  ir_buf_puts(o, "]");
}

/* --- read-only scalars hoisted ---------------------------------------------- */

/* A load at literal indices, inside the literal shape, of a buffer
 * parameter the kernel never writes (a clip's bounds, a scalar weight) is
 * read once into a local at the kernel's entry: the loops then hold no
 * load in the arms of a ?: (which C compilers do not turn into a select,
 * a load may fault), so they vectorize.  The read is in bounds, so moving
 * it to the entry reads nothing the kernel could not; no argument of the
 * kernel shares bytes with another (else nothing is hoisted). */
typedef struct CgHoist {
  const IrBuffer **buffer;
  int64_t *offset; /* row-major element offset */
  const char **name;
  int n, cap;
} CgHoist;

typedef struct {
  const IrPrimFunc *f;
  const CgPrim *p;
  CgHoist *h;
} HoistScan;

/* The row-major offset of a load at literal, in-bounds indices, or -1. */
static int64_t
literal_offset(const IrPrimExpr *e)
{
  const IrBuffer *b = e->u.load.buffer;
  if (e->u.load.n != b->ndim)
    return -1;
  int64_t off = 0;
  for (int d = 0; d < b->ndim; d++) {
    const IrPrimExpr *i = e->u.load.indices[d], *dim = b->shape[d];
    if (i->kind != IR_PE_INT || dim->kind != IR_PE_INT || i->u.int_value < 0 ||
        i->u.int_value >= dim->u.int_value)
      return -1;
    off = off * dim->u.int_value + i->u.int_value;
  }
  return off;
}

/* The row-major offset of a hoistable load, or -1. */
static int64_t
hoist_offset(const IrPrimFunc *f, const CgPrim *p, const IrPrimExpr *e)
{
  const IrBuffer *b = e->u.load.buffer;
  bool param = false;
  for (int i = 0; i < f->nparams; i++)
    if (f->params[i].buffer == b && !p->written[i])
      param = true;
  if (!param || p->aliased || half_name(b->dtype) || b->dtype.lanes != 1)
    return -1;
  return literal_offset(e);
}

static int
hoist_find(const CgHoist *h, const IrBuffer *b, int64_t off)
{
  for (int i = 0; h && i < h->n; i++)
    if (h->buffer[i] == b && h->offset[i] == off)
      return i;
  return -1;
}

static bool
hoist_visit(const IrPrimExpr *e, void *user)
{
  HoistScan *s = user;
  if (e->kind != IR_PE_LOAD)
    return false;
  int64_t off = hoist_offset(s->f, s->p, e);
  CgHoist *h = s->h;
  if (off < 0 || hoist_find(h, e->u.load.buffer, off) >= 0)
    return false;
  if (h->n == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 8;
    h->buffer = ir_xrealloc(h->buffer, sizeof *h->buffer * (size_t)h->cap);
    h->offset = ir_xrealloc(h->offset, sizeof *h->offset * (size_t)h->cap);
    h->name = ir_xrealloc(h->name, sizeof *h->name * (size_t)h->cap);
  }
  h->buffer[h->n] = e->u.load.buffer;
  h->offset[h->n] = off;
  h->name[h->n] = NULL;
  h->n++;
  return false;
}

static bool
hoist_expr(const IrPrimExpr *e, const IrStmt *st, void *user)
{
  (void)st;
  const IrTirKernel *k = ir_tir_kernel_of(e);
  for (int i = 0; k && i < k->nargs; i++) /* a kernel's pointees are addressed, not read */
    if (k->args[i] == IR_KARG_INT && ir_prim_walk(e->u.call.args[i + 1], hoist_visit, user))
      return true;
  return e && !k && ir_prim_walk(e, hoist_visit, user);
}

/* A load: float16 and bfloat16 bits widen to float (exactly). */
static void
emit_load(CgGen *g, const CgNames *n, const IrPrimExpr *e, IrBuf *o)
{
  const IrBuffer *b = e->u.load.buffer;
  int64_t off = g->hoist ? literal_offset(e) : -1;
  int k = off >= 0 ? hoist_find(g->hoist, b, off) : -1;
  if (k >= 0) {
    ir_buf_puts(o, g->hoist->name[k]);
    return;
  }
  const char *h = half_name(b->dtype);
  if (h)
    ir_buf_printf(o, "rxc_%s_to_f32(", h);
  emit_access(g, n, b, e->u.load.indices, e->u.load.n, o);
  if (h)
    ir_buf_puts(o, ")");
}

/* A store's value: into float16 and bfloat16 buffers, rounded to their bits
 * once (from double when the value is one, so that it rounds once). */
static void
emit_stored_value(CgGen *g, const CgNames *n, const IrBuffer *b, const IrPrimExpr *v, IrBuf *o)
{
  const char *h = half_name(b->dtype);
  if (h)
    ir_buf_printf(o, "rxc_%s_from_%s(", h, v->dtype.bits == 64 ? "f64" : "f32");
  cg_emit_expr(g, n, v, o);
  if (h)
    ir_buf_puts(o, ")");
}

static const char *const BINARY_OPS[] = {
    [IR_PE_ADD] = "+", [IR_PE_SUB] = "-",  [IR_PE_MUL] = "*", [IR_PE_DIV] = "/", [IR_PE_MOD] = "%",
    [IR_PE_EQ] = "==", [IR_PE_NE] = "!=",  [IR_PE_LT] = "<",  [IR_PE_LE] = "<=", [IR_PE_GT] = ">",
    [IR_PE_GE] = ">=", [IR_PE_AND] = "&&", [IR_PE_OR] = "||",
};

/* Marks helper h of e's C type as needed and writes its name. */
static void
emit_helper_name(CgGen *g, CgHelper h, const char *fn, const IrPrimExpr *e, IrBuf *o)
{
  CgCType t = ctype_of(g, e->dtype);
  g->helpers[h][t] = true;
  ir_buf_printf(o, "rxc_%s_%s", fn, cg_ctype_suffix(t));
}

static void
emit_helper_call(CgGen *g, const CgNames *n, CgHelper h, const char *fn, const IrPrimExpr *e,
                 IrBuf *o)
{
  emit_helper_name(g, h, fn, e, o);
  ir_buf_puts(o, "(");
  cg_emit_expr(g, n, e->u.bin.a, o);
  ir_buf_puts(o, ", ");
  cg_emit_expr(g, n, e->u.bin.b, o);
  ir_buf_puts(o, ")");
}

static bool
is_float(IrDType t)
{
  return t.code == IR_DT_FLOAT || t.code == IR_DT_BFLOAT;
}

/* A libm function by its double name ("exp") for dtype t: rxc_expf or
 * rxc_exp (float16 and bfloat16 compute in float). */
static void
emit_math_name(const char *base, IrDType t, IrBuf *o)
{
  ir_buf_printf(o, "rxc_%s%s", base, t.bits <= 32 ? "f" : "");
}

static void
emit_binary(CgGen *g, const CgNames *n, const IrPrimExpr *e, IrBuf *o)
{
  IrPrimKind k = e->kind;
  bool fl = is_float(e->u.bin.a->dtype);
  if (k == IR_PE_MIN || k == IR_PE_MAX) {
    emit_helper_call(g, n, k == IR_PE_MIN ? CG_H_MIN : CG_H_MAX, k == IR_PE_MIN ? "min" : "max", e,
                     o);
    return;
  }
  if (k == IR_PE_FLOORDIV || k == IR_PE_FLOORMOD) {
    emit_helper_call(g, n, k == IR_PE_FLOORDIV ? CG_H_FLOORDIV : CG_H_FLOORMOD,
                     k == IR_PE_FLOORDIV ? "floordiv" : "floormod", e, o);
    return;
  }
  if ((k == IR_PE_DIV || k == IR_PE_MOD) && !fl) { /* no trap on 0, as the interpreter */
    emit_helper_call(g, n, k == IR_PE_DIV ? CG_H_DIV : CG_H_MOD, k == IR_PE_DIV ? "div" : "mod", e,
                     o);
    return;
  }
  if (k == IR_PE_MOD && fl) {
    emit_math_name("fmod", e->dtype, o);
    ir_buf_puts(o, "(");
    cg_emit_expr(g, n, e->u.bin.a, o);
    ir_buf_puts(o, ", ");
    cg_emit_expr(g, n, e->u.bin.b, o);
    ir_buf_puts(o, ")");
    return;
  }
  if (k >= (int)(sizeof BINARY_OPS / sizeof BINARY_OPS[0]) || !BINARY_OPS[k])
    UNREACHABLE();
  ir_buf_puts(o, "(");
  cg_emit_expr(g, n, e->u.bin.a, o);
  ir_buf_printf(o, " %s ", BINARY_OPS[k]);
  cg_emit_expr(g, n, e->u.bin.b, o);
  ir_buf_puts(o, ")");
}

static void
emit_cast(CgGen *g, const CgNames *n, const IrPrimExpr *e, IrBuf *o)
{
  if (e->dtype.code == IR_DT_BOOL) {
    ir_buf_puts(o, "((rxc_bool)(");
    cg_emit_expr(g, n, e->u.bin.a, o);
    ir_buf_puts(o, " != 0))");
    return;
  }
  const char *h = half_name(e->dtype);
  if (h) { /* to the 16-bit format's precision, still a float */
    IrDType from = e->u.bin.a->dtype;
    IrPrimKind k = e->u.bin.a->kind;
    /* a no-op on a value already at that precision (a load, a constant, a
     * cast); arithmetic of that dtype runs in float and is rounded here */
    bool exact = from.code == e->dtype.code && from.bits == 16 &&
                 (k == IR_PE_LOAD || k == IR_PE_CAST || k == IR_PE_FLOAT || k == IR_PE_VAR);
    bool f32 = is_float(from) && from.bits <= 32;
    if (exact) {
      cg_emit_expr(g, n, e->u.bin.a, o);
      return;
    }
    if (f32)
      ir_buf_printf(o, "rxc_%s_round(", h);
    else /* from double or an integer: one rounding, as the interpreter */
      ir_buf_printf(o, "rxc_%s_to_f32(rxc_%s_from_f64((double)", h, h);
    cg_emit_expr(g, n, e->u.bin.a, o);
    ir_buf_puts(o, f32 ? ")" : "))");
    return;
  }
  const char *c = cg_value_cname(g, e->dtype);
  ir_buf_printf(o, "((%s)", c ? c : "?");
  cg_emit_expr(g, n, e->u.bin.a, o);
  ir_buf_puts(o, ")");
}

static void
emit_args(CgGen *g, const CgNames *n, const IrPrimExpr *e, IrBuf *o)
{
  ir_buf_puts(o, "(");
  for (int i = 0; i < e->u.call.n; i++) {
    if (i)
      ir_buf_puts(o, ", ");
    cg_emit_expr(g, n, e->u.call.args[i], o);
  }
  ir_buf_puts(o, ")");
}

/* Writes an intrinsic's C form (ir/tir_intrin.c): @i is argument i, $f the
 * float suffix of e's dtype (rxc_expf for float32 and the 16-bit floats,
 * which compute in float; rxc_exp for float64). */
static void
emit_form(CgGen *g, const CgNames *n, const IrPrimExpr *e, const char *form, IrBuf *o)
{
  for (const char *c = form; *c; c++) {
    if (c[0] == '@' && c[1] >= '0' && c[1] < '0' + e->u.call.n) {
      cg_emit_expr(g, n, e->u.call.args[*++c - '0'], o);
    } else if (c[0] == '$' && c[1] == 'f') {
      ir_buf_puts(o, e->dtype.bits <= 32 ? "f" : "");
      c++;
    } else {
      ir_buf_put(o, c, 1);
    }
  }
}

/* The largest finite value of float dtype d. */
static double
float_max(IrDType d)
{
  if (d.code == IR_DT_BFLOAT)
    return 3.3895313892515355e38; /* 0x7f7f */
  return d.bits == 16 ? 65504.0 : d.bits == 32 ? 3.4028234663852886e38 : 1.7976931348623157e308;
}

/* An intrinsic unknown, or not for this dtype. */
static void
refuse_call(CgGen *g, const IrPrimExpr *e)
{
  int na = e->u.call.n;
  cg_fail(g, "C code generation does not support intrinsic '%s' with %d argument%s", e->u.call.op,
          na, na == 1 ? "" : "s");
}

/* A kernel call (ir/tir_kernel.c): its C function on the pointers
 * &buf[index] and the integers as rxc_i64; NAME.c then carries the
 * kernel's definition (rt/rt_kern_*.h).  The pointee is addressed, never
 * loaded: no hoisted copy stands for it (hoist_expr skips it). */
static void
emit_kernel_call(CgGen *g, const CgNames *n, const IrPrimExpr *e, IrBuf *o)
{
  const IrTirKernel *k = ir_tir_kernel_of(e);
  int i = k ? cg_runtime_kernel(k->name) : -1;
  if (i < 0) {
    refuse_call(g, e);
    return;
  }
  g->kernels_used |= 1u << i;
  ir_buf_printf(o, "%s(", k->name);
  for (int a = 0; a < k->nargs; a++) {
    ir_buf_puts(o, a ? ", " : "");
    if (k->args[a] == IR_KARG_INT) {
      ir_buf_puts(o, "(rxc_i64)");
      cg_emit_expr(g, n, e->u.call.args[a + 1], o);
      continue;
    }
    const IrPrimExpr *load = ir_tir_kernel_pointee(e, a);
    if (!ir_dtype_eq(load->u.load.buffer->dtype, ir_tir_kernel_elem(k, a))) {
      cg_fail(g, "%s takes pointers to another dtype than buffer '%s''s", k->name,
              load->u.load.buffer->name);
      return;
    }
    ir_buf_puts(o, "&");
    emit_access(g, n, load->u.load.buffer, load->u.load.indices, load->u.load.n, o);
  }
  ir_buf_puts(o, ")");
}

static void
emit_call(CgGen *g, const CgNames *n, const IrPrimExpr *e, IrBuf *o)
{
  if (ir_prim_is_call_extern(e)) {
    emit_kernel_call(g, n, e, o);
    return;
  }
  const IrTirIntrin *in = ir_tir_intrin_find(e->u.call.op, e->u.call.n);
  IrDType d = e->dtype;
  if (!in) {
    refuse_call(g, e);
    return;
  }
  switch (in->kind) {
  case IR_INTRIN_MAX_VALUE:
  case IR_INTRIN_MIN_VALUE: {
    bool max = in->kind == IR_INTRIN_MAX_VALUE;
    if (is_float(d))
      cg_emit_float(g, d, (max ? 1 : -1) * float_max(d), o);
    else if (d.code == IR_DT_BOOL || d.code == IR_DT_UINT)
      cg_emit_int(d, max ? (d.bits >= 64 ? -1 : (int64_t)(((uint64_t)1 << d.bits) - 1)) : 0, o);
    else {
      int64_t hi = d.bits >= 64 ? INT64_MAX : (int64_t)(((uint64_t)1 << (d.bits - 1)) - 1);
      cg_emit_int(d, max ? hi : -hi - 1, o);
    }
    return;
  }
  case IR_INTRIN_ISINF: /* rxc_isinf_f32 or _f64 by the argument */
  case IR_INTRIN_ISFINITE: {
    CgCType t = ctype_of(g, e->u.call.args[0]->dtype);
    bool inf = in->kind == IR_INTRIN_ISINF;
    g->helpers[inf ? CG_H_ISINF : CG_H_ISFINITE][t] = true;
    ir_buf_printf(o, "rxc_%s_%s", inf ? "isinf" : "isfinite", t == CG_CT_F32 ? "f32" : "f64");
    emit_args(g, n, e, o);
    return;
  }
  case IR_INTRIN_ABS:
    if (!is_float(e->u.call.args[0]->dtype)) {
      emit_helper_name(g, CG_H_ABS, "abs", e, o);
      emit_args(g, n, e, o);
      return;
    }
    break;
  case IR_INTRIN_POW:
    if (!is_float(d)) {
      emit_helper_name(g, CG_H_IPOW, "pow", e, o);
      emit_args(g, n, e, o);
      return;
    }
    break;
  default:
    break;
  }
  if (!in->c_form || (in->c_float_only && !is_float(d))) {
    refuse_call(g, e);
    return;
  }
  if (d.code == IR_DT_BOOL && strcmp(in->names[0], "tir.bitwise_not") == 0) {
    emit_form(g, n, e, "(!@0)", o); /* ~ of a bool promotes it: -1 or -2, both true */
    return;
  }
  emit_form(g, n, e, in->c_form, o);
}

void
cg_emit_expr(CgGen *g, const CgNames *n, const IrPrimExpr *e, IrBuf *o)
{
  switch (e->kind) {
  case IR_PE_INT:
    cg_emit_int(e->dtype, e->u.int_value, o);
    return;
  case IR_PE_FLOAT:
    cg_emit_float(g, e->dtype, e->u.float_value, o);
    return;
  case IR_PE_STR:
    cg_fail(g, "a string is not a value in C code generation");
    return;
  case IR_PE_VAR: {
    const char *s = cg_names_find(n, e);
    if (!s)
      cg_fail(g, "variable '%s' has no value in the generated C", e->u.var);
    ir_buf_puts(o, s ? s : "?");
    return;
  }
  case IR_PE_LOAD:
    emit_load(g, n, e, o);
    return;
  case IR_PE_NOT:
    ir_buf_puts(o, "(!");
    cg_emit_expr(g, n, e->u.bin.a, o);
    ir_buf_puts(o, ")");
    return;
  case IR_PE_CAST:
    emit_cast(g, n, e, o);
    return;
  case IR_PE_SELECT:
    ir_buf_puts(o, "(");
    cg_emit_expr(g, n, e->u.select.cond, o);
    ir_buf_puts(o, " ? ");
    cg_emit_expr(g, n, e->u.select.a, o);
    ir_buf_puts(o, " : ");
    cg_emit_expr(g, n, e->u.select.b, o);
    ir_buf_puts(o, ")");
    return;
  case IR_PE_CALL:
    emit_call(g, n, e, o);
    return;
  default:
    emit_binary(g, n, e, o);
  }
}

/* --- statements ----------------------------------------------------------- */

static void
indent(const Tir *t, IrBuf *o)
{
  for (int i = 0; i < t->indent; i++)
    ir_buf_puts(o, "  ");
}

/* Emits body into o after a declaration already in o; "(void)name;" when
 * the body never uses name. */
static void
emit_scoped(Tir *t, const char *name, const IrStmt *body, IrBuf *o)
{
  IrBuf b = {0};
  emit_stmt(t, body, &b);
  if (!cg_text_uses(&b, name)) {
    indent(t, o);
    ir_buf_printf(o, "(void)%s;\n", name);
  }
  if (b.len)
    ir_buf_put(o, b.data, b.len);
  ir_buf_free(&b);
}

/* The element count of buffer b at the upper bounds; -1 when unbounded. */
static int64_t
buffer_max_elems(Tir *t, const IrBuffer *b, bool *constant)
{
  int64_t total = 1;
  *constant = true;
  for (int d = 0; d < b->ndim; d++) {
    int64_t lo, hi, v;
    if (ir_prim_is_int(b->shape[d], &v)) {
      hi = v;
    } else {
      *constant = false;
      if (!ir_arith_range(t->arith, b->shape[d], &lo, &hi) || hi == INT64_MAX)
        return -1;
    }
    if (hi < 0)
      hi = 0;
    if (hi && total > INT64_MAX / hi)
      return -1;
    total *= hi;
  }
  return total;
}

/* A T.alloc_buffer: a local array, then the statements that see it. */
static void
emit_alloc(Tir *t, const IrBuffer *b, IrBuf *o)
{
  bool constant;
  int64_t n = buffer_max_elems(t, b, &constant);
  const char *ct = cg_dtype_cname(t->g, b->dtype);
  const char *name = cg_names_add(t->g, &t->names, b, b->name);
  if (n < 0 || !ct) {
    if (n < 0)
      cg_fail(t->g, "T.alloc_buffer '%s' has no upper bound: give its dims one", b->name);
    return;
  }
  bool small = constant && n * ir_dtype_bytes(b->dtype) <= IR_LOCAL_SCRATCH_BYTES;
  IrBuf shape = {0};
  for (int d = 0; d < b->ndim; d++) {
    ir_buf_puts(&shape, d ? ", " : "");
    ir_prim_expr_print(b->shape[d], &shape);
  }
  indent(t, o);
  ir_buf_printf(o, "%s%s %s[%lld]; /* (%s)%s */\n", small ? "" : "static ", ct, name,
                (long long)(n ? n : 1), shape.data ? shape.data : "",
                small ? "" : ": outside the arena, at the upper bounds");
  ir_buf_free(&shape);
}

static void
emit_for(Tir *t, const IrStmt *s, IrBuf *o)
{
  const IrPrimExpr *v = s->u.loop.var;
  const char *ct = cg_dtype_cname(t->g, v->dtype);
  if (s->u.loop.kind == IR_FOR_THREAD_BINDING) {
    cg_fail(t->g,
            "loop '%s' is bound to GPU thread axis '%s': the generated C runs on one CPU thread",
            v->u.var, s->u.loop.thread);
    return;
  }
  /* named already when the row kernel took this loop with its outer one
   * (gen_row.c) and rows = auto writes the loops too */
  const char *name = cg_names_find(&t->names, v);
  name = name ? name : cg_names_add(t->g, &t->names, v, v->u.var);
  int64_t mn, ext;
  if (ir_prim_is_int(s->u.loop.min, &mn) && ir_prim_is_int(s->u.loop.extent, &ext)) {
    ir_arith_bound(t->arith, v, mn, ext > 0 ? mn + ext - 1 : mn);
  } else {
    int64_t lo, hi, lo2, hi2;
    if (ir_arith_range(t->arith, s->u.loop.min, &lo, &hi) &&
        ir_arith_range(t->arith, s->u.loop.extent, &lo2, &hi2))
      ir_arith_bound(t->arith, v, lo, hi + (hi2 > 0 ? hi2 - 1 : 0));
  }
  /* [codegen] rows: the loop as a call of the row kernel (gen_row.c); with
   * auto, the loop too, for compilers other than tcc (RXC_ROWS) */
  IrBuf row = {0}, flat = {0};
  bool both = t->g->cfg->codegen.rows == CFG_ROWS_AUTO;
  if (cg_row_emit(t->g, &t->names, t->arith, t->f, t->p, s, t->indent, &row, both ? &flat : NULL)) {
    ir_buf_puts(o, both ? "#if RXC_ROWS\n" : "");
    ir_buf_put(o, row.data, row.len);
    ir_buf_free(&row);
    if (!both)
      return;
    ir_buf_puts(o, "#else\n");
    if (flat.len)
      ir_buf_put(o, flat.data, flat.len);
    else
      emit_loop(t, s, name, ct, o);
    ir_buf_free(&flat);
    ir_buf_puts(o, "#endif\n");
    return;
  }
  emit_loop(t, s, name, ct, o);
}

/* The C for loop of s, its var named name of C type ct. */
static void
emit_loop(Tir *t, const IrStmt *s, const char *name, const char *ct, IrBuf *o)
{
  int64_t mn;
  indent(t, o);
  ir_buf_printf(o, "for (%s %s = ", ct ? ct : "?", name);
  cg_emit_expr(t->g, &t->names, s->u.loop.min, o);
  ir_buf_printf(o, "; %s < ", name);
  if (ir_prim_is_int(s->u.loop.min, &mn) && mn == 0) {
    cg_emit_expr(t->g, &t->names, s->u.loop.extent, o);
  } else {
    ir_buf_puts(o, "(");
    cg_emit_expr(t->g, &t->names, s->u.loop.min, o);
    ir_buf_puts(o, " + ");
    cg_emit_expr(t->g, &t->names, s->u.loop.extent, o);
    ir_buf_puts(o, ")");
  }
  ir_buf_printf(o, "; %s++) {\n", name);
  t->indent++;
  emit_stmt(t, s->u.loop.body, o);
  t->indent--;
  indent(t, o);
  ir_buf_puts(o, "}\n");
}

/* The condition "every reduce iterator at its domain minimum" (NULL: none). */
static void
emit_init(Tir *t, const IrTirBlock *b, IrBuf *o)
{
  IrBuf cond = {0};
  for (int i = 0; i < b->niters; i++) {
    if (b->iters[i].kind != IR_ITER_REDUCE)
      continue;
    ir_buf_puts(&cond, cond.len ? " && " : "");
    ir_buf_printf(&cond, "%s == ", cg_names_find(&t->names, b->iters[i].var));
    cg_emit_expr(t->g, &t->names, b->iters[i].dom.min, &cond);
  }
  indent(t, o);
  ir_buf_printf(o, "if (%s) {\n", cond.len ? cond.data : "1");
  t->indent++;
  emit_stmt(t, b->init, o);
  t->indent--;
  indent(t, o);
  ir_buf_puts(o, "}\n");
  ir_buf_free(&cond);
}

static void
emit_block(Tir *t, const IrTirBlock *b, IrBuf *o)
{
  indent(t, o);
  ir_buf_printf(o, "{ /* block \"%s\" */\n", b->name ? b->name : "");
  t->indent++;
  IrBuf body = {0};
  for (int i = 0; i < b->nallocs; i++)
    emit_alloc(t, b->allocs[i], o);
  const char **names = ir_xcalloc((size_t)b->niters + 1, sizeof *names);
  for (int i = 0; i < b->niters; i++)
    names[i] = cg_names_add(t->g, &t->names, b->iters[i].var, b->iters[i].var->u.var);
  if (b->init)
    emit_init(t, b, &body);
  emit_stmt(t, b->body, &body);
  for (int i = 0; i < b->niters; i++) {
    const IrIterVar *it = &b->iters[i];
    const char *ct = cg_dtype_cname(t->g, it->var->dtype);
    indent(t, o);
    ir_buf_printf(o, "const %s %s = ", ct ? ct : "?", names[i]);
    cg_emit_expr(t->g, &t->names, it->binding, o);
    ir_buf_puts(o, ";\n");
    if (!cg_text_uses(&body, names[i])) {
      indent(t, o);
      ir_buf_printf(o, "(void)%s;\n", names[i]);
    }
  }
  if (body.len)
    ir_buf_put(o, body.data, body.len);
  ir_buf_free(&body);
  free(names);
  t->indent--;
  indent(t, o);
  ir_buf_puts(o, "}\n");
}

static void
emit_let(Tir *t, const IrStmt *s, IrBuf *o)
{
  const IrPrimExpr *v = s->u.let.var;
  const char *ct = cg_value_cname(t->g, v->dtype);
  indent(t, o);
  ir_buf_puts(o, "{\n");
  t->indent++;
  indent(t, o);
  IrBuf value = {0};
  cg_emit_expr(t->g, &t->names, s->u.let.value, &value); /* before the name is bound */
  const char *name = cg_names_add(t->g, &t->names, v, v->u.var);
  ir_buf_printf(o, "const %s %s = %s;\n", ct ? ct : "?", name, value.data ? value.data : "");
  ir_buf_free(&value);
  emit_scoped(t, name, s->u.let.body, o);
  t->indent--;
  indent(t, o);
  ir_buf_puts(o, "}\n");
}

static void
emit_if(Tir *t, const IrStmt *s, IrBuf *o)
{
  indent(t, o);
  ir_buf_puts(o, "if (");
  cg_emit_expr(t->g, &t->names, s->u.branch.cond, o);
  ir_buf_puts(o, ") {\n");
  t->indent++;
  emit_stmt(t, s->u.branch.then_, o);
  t->indent--;
  indent(t, o);
  if (s->u.branch.else_) {
    ir_buf_puts(o, "} else {\n");
    t->indent++;
    emit_stmt(t, s->u.branch.else_, o);
    t->indent--;
    indent(t, o);
  }
  ir_buf_puts(o, "}\n");
}

/* The number of elements of b as an int64 expression. */
static IrPrimExpr *
elem_count(IrCtx *ctx, const IrBuffer *b)
{
  IrPrimExpr *n = ir_prim_int(ctx, IR_I64, 1);
  for (int d = 0; d < b->ndim; d++)
    n = ir_prim_bin(ctx, IR_PE_MUL, n, ir_prim_cast(ctx, IR_I64, b->shape[d]));
  return n;
}

/* T.decl_buffer / .view: a pointer to the source's first element, of the
 * same element type (another one would break C's aliasing rules), const
 * unless the body stores through it; the declared buffer must provably
 * fit in the source, so every access within its shape stays in bounds. */
static void
emit_decl(Tir *t, const IrStmt *s, IrBuf *o)
{
  const IrBuffer *b = s->u.decl.buffer, *src = s->u.decl.source;
  if (!ir_dtype_eq(b->dtype, src->dtype)) {
    cg_fail(t->g, "T.decl_buffer '%s' views '%s' as another dtype: not implemented in C", b->name,
            src->name);
    return;
  }
  IrCtx *ctx = t->g->ctx;
  IrPrimExpr *fits = ir_prim_bin(ctx, IR_PE_LE, elem_count(ctx, b), elem_count(ctx, src));
  if (ir_arith_prove(t->arith, fits) != IR_PROVE_TRUE) {
    cg_fail(t->g, "T.decl_buffer '%s': cannot prove it fits in '%s'", b->name, src->name);
    return;
  }
  const char *ct = cg_dtype_cname(t->g, b->dtype);
  const char *from = cg_names_find(&t->names, src);
  const char *name = cg_names_add(t->g, &t->names, b, b->name);
  indent(t, o);
  ir_buf_puts(o, "{\n");
  t->indent++;
  indent(t, o);
  ir_buf_printf(o, "%s%s *%s = %s; /* T.decl_buffer over %s */\n",
                ir_stmt_stores_into(s->u.decl.body, b) ? "" : "const ", ct ? ct : "?", name,
                from ? from : "?", src->name);
  emit_scoped(t, name, s->u.decl.body, o);
  t->indent--;
  indent(t, o);
  ir_buf_puts(o, "}\n");
}

/* The message of an assert, as a C comment. */
static void
emit_assert_comment(const IrStmt *s, IrBuf *o)
{
  ir_buf_puts(o, "/* assert: ");
  cg_comment_text(s->u.check.kind, o);
  ir_buf_puts(o, s->u.check.nparts ? ": " : "");
  for (int i = 0; i < s->u.check.nparts; i++)
    cg_comment_text(s->u.check.parts[i], o);
  ir_buf_puts(o, " */");
}

/* "all_ok &= (c);" for each conjunct c of cond: no && whose short circuit
 * would keep the loop from vectorizing (a condition has no effect). */
static void
emit_conjuncts(Tir *t, const IrPrimExpr *cond, IrBuf *o)
{
  if (cond->kind == IR_PE_AND) {
    emit_conjuncts(t, cond->u.bin.a, o);
    emit_conjuncts(t, cond->u.bin.b, o);
    return;
  }
  indent(t, o);
  ir_buf_printf(o, "%s &= (", t->all_ok);
  cg_emit_expr(t->g, &t->names, cond, o);
  ir_buf_puts(o, ");\n");
}

/* TVM's AssertStmt: a kernel that can fail returns 1 at the first false
 * condition (the caller returns NAME_ERR_ASSERT); the message is a comment.
 * In a check nest, the condition is and-ed into the nest's local instead. */
static void
emit_assert(Tir *t, const IrStmt *s, IrBuf *o)
{
  if (t->all_ok) {
    emit_conjuncts(t, s->u.check.cond, o);
    return;
  }
  indent(t, o);
  ir_buf_puts(o, "if (!(");
  cg_emit_expr(t->g, &t->names, s->u.check.cond, o);
  ir_buf_puts(o, ")) ");
  emit_assert_comment(s, o);
  ir_buf_puts(o, "\n");
  indent(t, o);
  ir_buf_puts(o, "  return 1;\n");
}

/* The assert at the bottom of a nest of serial loops with nothing else in
 * them (a check loop of ops/tir_build.h), or NULL. */
static const IrStmt *
check_nest_assert(const IrStmt *s)
{
  if (!s || s->kind != IR_ST_FOR)
    return NULL;
  while (s && s->kind == IR_ST_FOR && s->u.loop.kind == IR_FOR_SERIAL)
    s = s->u.loop.body;
  return s && s->kind == IR_ST_ASSERT ? s : NULL;
}

/* A check nest runs to its end with its conditions and-ed into a local,
 * then returns 1 once if one was false: the same outcome as the first
 * false condition returning (the nest has no effect), but a loop without
 * an exit, which a C compiler vectorizes. */
static void
emit_check_nest(Tir *t, const IrStmt *s, const IrStmt *check, IrBuf *o)
{
  indent(t, o);
  ir_buf_puts(o, "{\n");
  t->indent++;
  t->all_ok = cg_names_add(t->g, &t->names, check, "all_ok");
  indent(t, o);
  ir_buf_printf(o, "int %s = 1;\n", t->all_ok);
  emit_for(t, s, o);
  indent(t, o);
  ir_buf_printf(o, "if (!%s) ", t->all_ok);
  emit_assert_comment(check, o);
  ir_buf_puts(o, "\n");
  t->all_ok = NULL;
  indent(t, o);
  ir_buf_puts(o, "  return 1;\n");
  t->indent--;
  indent(t, o);
  ir_buf_puts(o, "}\n");
}

static void
emit_stmt(Tir *t, const IrStmt *s, IrBuf *o)
{
  if (!s)
    return;
  t->g->loc = s->loc;
  switch (s->kind) {
  case IR_ST_SEQ:
    for (int i = 0; i < s->u.seq.n; i++)
      emit_stmt(t, s->u.seq.stmts[i], o);
    return;
  case IR_ST_FOR:
    if (!t->all_ok && check_nest_assert(s))
      emit_check_nest(t, s, check_nest_assert(s), o);
    else
      emit_for(t, s, o);
    return;
  case IR_ST_BLOCK:
    emit_block(t, s->u.block, o);
    return;
  case IR_ST_STORE:
    indent(t, o);
    emit_access(t->g, &t->names, s->u.store.buffer, s->u.store.indices, s->u.store.n, o);
    ir_buf_puts(o, " = ");
    emit_stored_value(t->g, &t->names, s->u.store.buffer, s->u.store.value, o);
    ir_buf_puts(o, ";\n");
    return;
  case IR_ST_LET:
    emit_let(t, s, o);
    return;
  case IR_ST_IF:
    emit_if(t, s, o);
    return;
  case IR_ST_EVALUATE:
    indent(t, o);
    ir_buf_puts(o, "(void)");
    cg_emit_expr(t->g, &t->names, s->u.eval, o);
    ir_buf_puts(o, ";\n");
    return;
  case IR_ST_ALLOC:
    indent(t, o);
    ir_buf_puts(o, "{\n");
    t->indent++;
    emit_alloc(t, s->u.alloc.buffer, o);
    emit_scoped(t, cg_names_find(&t->names, s->u.alloc.buffer), s->u.alloc.body, o);
    t->indent--;
    indent(t, o);
    ir_buf_puts(o, "}\n");
    return;
  case IR_ST_ASSERT:
    emit_assert(t, s, o);
    return;
  case IR_ST_DECL:
    emit_decl(t, s, o);
    return;
  }
}

/* --- the function ------------------------------------------------------- */

/* "const float *restrict A" and the like, in o; names bound in t. */
static void
emit_params(Tir *t, const IrPrimFunc *f, const CgPrim *p, IrBuf *o)
{
  int k = 0;
  for (int i = 0; i < f->nparams; i++, k++) {
    const IrPrimParam *pr = &f->params[i];
    ir_buf_puts(o, k ? ", " : "");
    if (pr->buffer) {
      const char *ct = cg_dtype_cname(t->g, pr->buffer->dtype);
      const char *name = cg_names_add(t->g, &t->names, pr->buffer, pr->buffer->name);
      ir_buf_printf(o, "%s%s *%s%s", p->written[i] ? "" : "const ", ct ? ct : "?",
                    p->aliased ? "" : "restrict ", name);
    } else {
      const char *ct = cg_value_cname(t->g, pr->var->dtype);
      const char *name = cg_names_add(t->g, &t->names, pr->var, pr->var->u.var);
      ir_buf_printf(o, "%s %s", ct ? ct : "?", name);
    }
  }
  for (int i = 0; i < p->ndims; i++, k++) {
    const char *name = cg_names_add(t->g, &t->names, p->dims[i], p->dims[i]->u.var);
    ir_buf_printf(o, "%srxc_i64 %s", k ? ", " : "", name);
    ir_arith_bound(t->arith, p->dims[i], 0, p->dims_max[i]); /* INT64_MAX: unbounded */
  }
  if (!k)
    ir_buf_puts(o, "void");
}

void
cg_emit_prim_func(CgGen *g, int global, IrBuf *out)
{
  const IrGlobal *gl = &g->m->globals[global];
  const IrPrimFunc *f = gl->u.prim;
  CgPrim *p = cg_prim_info(g, global);
  Tir t = {.g = g, .arith = ir_arith_new(g->ctx), .indent = 1, .f = f, .p = p};
  g->loc = f->loc;
  IrBuf params = {0}, body = {0}, hoisted = {0};
  emit_params(&t, f, p, &params);
  CgHoist h = {0};
  HoistScan scan = {f, p, &h};
  IrTirVisitor visit = {.expr = hoist_expr, .user = &scan};
  ir_tir_walk(f->body, &visit);
  for (int i = 0; i < h.n; i++) {
    const char *ct = cg_dtype_cname(g, h.buffer[i]->dtype);
    const char *buf = cg_names_find(&t.names, h.buffer[i]);
    /* keyed by the name slot: one local per (buffer, offset) */
    h.name[i] =
        cg_names_add(g, &t.names, &h.name[i],
                     ir_printf(g->ctx, "%s_%lld", h.buffer[i]->name, (long long)h.offset[i]));
    ir_buf_printf(&hoisted, "  const %s %s = %s[%lld];\n", ct ? ct : "?", h.name[i],
                  buf ? buf : "?", (long long)h.offset[i]);
  }
  g->hoist = &h;
  emit_stmt(&t, f->body, &body);
  g->hoist = NULL;
  ir_buf_printf(out, "/* T.prim_func %s%s */\nstatic %s\n%s_%s(%s)\n{\n", gl->name,
                p->can_fail ? ": returns 1 when an assert fails, else 0" : "",
                p->can_fail ? "int" : "void", g->name, cg_ident(g, gl->name), params.data);
  int nnames = f->nparams + p->ndims;
  for (int i = 0; i < nnames && i < t.names.n; i++)
    if (!cg_text_uses(&body, t.names.names[i]) && !cg_text_uses(&hoisted, t.names.names[i]))
      ir_buf_printf(out, "  (void)%s;\n", t.names.names[i]);
  if (hoisted.len)
    ir_buf_put(out, hoisted.data, hoisted.len);
  if (body.len)
    ir_buf_put(out, body.data, body.len);
  ir_buf_puts(out, p->can_fail ? "  return 0;\n}\n\n" : "}\n\n");
  ir_buf_free(&params);
  ir_buf_free(&body);
  ir_buf_free(&hoisted);
  free(h.buffer);
  free(h.offset);
  free(h.name);
  cg_names_free(&t.names);
}
