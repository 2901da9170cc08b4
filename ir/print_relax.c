/*
 * print_relax.c - prints Relax functions, expressions and struct info as
 * TVMScript (docs/text-format.md, sections "Relax functions", "Struct info"
 * and "Relax expressions").
 *
 * Key ideas:
 *  - A function is scanned once before it is printed: the scan lists its
 *    symbolic variables in order of first appearance (declared at the top
 *    of the body, nested functions included) and finds whether it refers
 *    to another global (then "cls = Module" is printed).
 *  - A binding is checked before any of it is printed; one the text cannot
 *    express becomes a "# rxc: cannot print" line, so no line is left half
 *    written.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "print_int.h"

static void expr(Printer *p, const IrExpr *e);
static void seq_lines(Printer *p, const IrExpr *seq, const IrExpr **result);
static void function_def(Printer *p, const char *name, const IrFunction *f, bool top);

/* --- scan: symbolic variables and global references ------------------ */

typedef struct {
  PtrSet vars;      /* TIR variables in order of first appearance */
  bool uses_global; /* some cls.f appears */
} Scan;

static void
scan_prim(Scan *s, const IrPrimExpr *e)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_PE_VAR:
    ir_ptrset_add(&s->vars, e);
    break;
  case IR_PE_LOAD:
    for (int i = 0; i < e->u.load.n; i++)
      scan_prim(s, e->u.load.indices[i]);
    break;
  case IR_PE_SELECT:
    scan_prim(s, e->u.select.cond);
    scan_prim(s, e->u.select.a);
    scan_prim(s, e->u.select.b);
    break;
  case IR_PE_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      scan_prim(s, e->u.call.args[i]);
    break;
  case IR_PE_INT:
  case IR_PE_FLOAT:
  case IR_PE_STR:
    break;
  default:
    scan_prim(s, e->u.bin.a);
    scan_prim(s, e->u.bin.b);
    break;
  }
}

static void
scan_sinfo(Scan *s, const IrSInfo *si)
{
  if (!si)
    return;
  switch (si->kind) {
  case IR_SI_PRIM:
    scan_prim(s, si->u.prim.value);
    break;
  case IR_SI_SHAPE:
    for (int i = 0; si->u.shape.values && i < ir_sinfo_shape_len(si); i++)
      scan_prim(s, si->u.shape.values[i]);
    break;
  case IR_SI_TENSOR:
    for (int i = 0; si->u.tensor.shape && i < ir_sinfo_shape_len(si); i++)
      scan_prim(s, si->u.tensor.shape[i]);
    break;
  case IR_SI_TUPLE:
    for (int i = 0; i < si->u.tuple.n; i++)
      scan_sinfo(s, si->u.tuple.fields[i]);
    break;
  case IR_SI_FUNC:
    for (int i = 0; si->u.func.params && i < si->u.func.nparams; i++)
      scan_sinfo(s, si->u.func.params[i]);
    scan_sinfo(s, si->u.func.ret);
    break;
  case IR_SI_OBJECT:
    break;
  }
}

static void
scan_attr(Scan *s, const IrAttr *a)
{
  if (!a)
    return;
  if (a->kind == IR_AT_PRIM)
    scan_prim(s, a->u.prim);
  if (a->kind == IR_AT_LIST || a->kind == IR_AT_DICT)
    for (int i = 0; i < a->u.list.n; i++)
      scan_attr(s, a->u.list.items[i]);
}

static void scan_function(Scan *s, const IrFunction *f);

static void
scan_expr(Scan *s, const IrExpr *e)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      scan_expr(s, e->u.tuple.items[i]);
    break;
  case IR_EX_GET:
    scan_expr(s, e->u.get.tuple);
    break;
  case IR_EX_CALL:
    scan_expr(s, e->u.call.callee);
    for (int i = 0; i < e->u.call.nargs; i++)
      scan_expr(s, e->u.call.args[i]);
    scan_attr(s, e->u.call.attrs);
    for (int i = 0; i < e->u.call.nsinfo_args; i++)
      scan_sinfo(s, e->u.call.sinfo_args[i]);
    break;
  case IR_EX_SHAPE:
    for (int i = 0; i < e->u.shape.n; i++)
      scan_prim(s, e->u.shape.values[i]);
    break;
  case IR_EX_PRIM:
    scan_prim(s, e->u.prim);
    break;
  case IR_EX_GLOBAL:
    s->uses_global = true;
    break;
  case IR_EX_SEQ:
    for (int b = 0; b < e->u.seq.nblocks; b++)
      for (int i = 0; i < e->u.seq.blocks[b].n; i++) {
        const IrBinding *bd = &e->u.seq.blocks[b].bindings[i];
        if (bd->var)
          scan_sinfo(s, bd->var->sinfo);
        scan_expr(s, bd->value);
        scan_sinfo(s, bd->cast);
      }
    scan_expr(s, e->u.seq.result);
    break;
  case IR_EX_IF:
    scan_expr(s, e->u.branch.cond);
    scan_expr(s, e->u.branch.then_);
    scan_expr(s, e->u.branch.else_);
    break;
  case IR_EX_FUNC:
    scan_function(s, e->u.func);
    break;
  default:
    break;
  }
}

/* In the order the text shows them: params, return, attrs, body. */
static void
scan_function(Scan *s, const IrFunction *f)
{
  if (!f)
    return;
  for (int i = 0; i < f->nparams; i++)
    scan_sinfo(s, f->params[i]->sinfo);
  scan_sinfo(s, f->ret);
  scan_attr(s, f->attrs);
  scan_expr(s, f->body);
}

/* --- v0.26: call_tir's tir_vars move into its argument tuple --------- */

/* Whether e is a call_tir or call_tir_inplace of a global. */
static bool
is_call_tir(const IrExpr *e)
{
  if (e->kind != IR_EX_CALL || e->u.call.kind != IR_CALL_OP || e->u.call.nargs < 2)
    return false;
  IrOpId id = e->u.call.op->id;
  return (id == IR_OP_CALL_TIR || id == IR_OP_CALL_TIR_INPLACE) &&
         e->u.call.args[0]->kind == IR_EX_GLOBAL;
}

/* Records the call's split of its callee's parameters; a second call that
 * splits them otherwise marks the callee a conflict. */
static void
record_move(Printer *p, const IrExpr *e)
{
  const IrExpr *args = e->u.call.args[1];
  const IrExpr *vars = e->u.call.nargs > 2 ? e->u.call.args[2] : NULL;
  bool tuple = args->kind == IR_EX_TUPLE;
  int nscalars = vars && vars->kind == IR_EX_SHAPE ? vars->u.shape.n : 0;
  void **slot = ir_map_slot(&p->moved, e->u.call.args[0]->u.global);
  ScalarMove *m = *slot;
  if (!m) {
    m = ir_xcalloc(1, sizeof *m);
    m->ninputs = tuple ? args->u.tuple.n : -1;
    m->nscalars = nscalars;
    *slot = m;
  }
  if (!tuple || (vars && vars->kind != IR_EX_SHAPE) || m->ninputs != args->u.tuple.n ||
      m->nscalars != nscalars)
    m->conflict = true;
}

static void
scan_moves(Printer *p, const IrExpr *e)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      scan_moves(p, e->u.tuple.items[i]);
    break;
  case IR_EX_GET:
    scan_moves(p, e->u.get.tuple);
    break;
  case IR_EX_CALL: {
    bool tir = is_call_tir(e);
    if (tir)
      record_move(p, e);
    scan_moves(p, e->u.call.callee);
    for (int i = tir ? 1 : 0; i < e->u.call.nargs; i++)
      scan_moves(p, e->u.call.args[i]);
    break;
  }
  case IR_EX_GLOBAL: { /* called or passed otherwise: its order must stay */
    void **slot = ir_map_slot(&p->moved, e->u.global);
    if (!*slot)
      *slot = ir_xcalloc(1, sizeof(ScalarMove));
    ((ScalarMove *)*slot)->conflict = true;
    break;
  }
  case IR_EX_SEQ:
    for (int b = 0; b < e->u.seq.nblocks; b++)
      for (int i = 0; i < e->u.seq.blocks[b].n; i++)
        scan_moves(p, e->u.seq.blocks[b].bindings[i].value);
    scan_moves(p, e->u.seq.result);
    break;
  case IR_EX_IF:
    scan_moves(p, e->u.branch.then_);
    scan_moves(p, e->u.branch.else_);
    break;
  case IR_EX_FUNC:
    scan_moves(p, e->u.func ? e->u.func->body : NULL);
    break;
  default:
    break;
  }
}

void
ir_pr_scan_moves(Printer *p)
{
  const IrModule *m = p->mod;
  for (int i = 0; i < m->nglobals; i++)
    if (m->globals[i].kind == IR_GLOBAL_RELAX && m->globals[i].u.relax)
      scan_moves(p, m->globals[i].u.relax->body);
  for (int i = 0; i < m->nglobals; i++) { /* a move must fit the callee */
    ScalarMove *move = ir_map_get(&p->moved, m->globals[i].name);
    const IrPrimFunc *f = m->globals[i].kind == IR_GLOBAL_PRIM ? m->globals[i].u.prim : NULL;
    if (move && (!f || move->ninputs + move->nscalars > f->nparams))
      move->conflict = true;
  }
}

const ScalarMove *
ir_pr_move(const Printer *p, IrSym name)
{
  const ScalarMove *m = ir_map_get(&p->moved, name);
  return m && !m->conflict && m->nscalars > 0 ? m : NULL;
}

/* --- struct info ------------------------------------------------------ */

static bool
prim_has_var(const IrPrimExpr *e)
{
  Scan s = {0};
  scan_prim(&s, e);
  bool has = s.vars.count > 0;
  ir_ptrset_free(&s.vars);
  return has;
}

/* A symbolic dimension: quoted in a signature when it names a variable. */
static void
dim(Printer *p, const IrPrimExpr *e)
{
  bool quote = p->sig && prim_has_var(e);
  if (quote)
    ir_pr_puts(p, "\"");
  ir_pr_prim(p, e);
  if (quote)
    ir_pr_puts(p, "\"");
}

static void
dims(Printer *p, IrPrimExpr *const *v, int n)
{
  for (int i = 0; i < n; i++) {
    ir_pr_puts(p, i ? ", " : "");
    dim(p, v[i]);
  }
}

static void
tensor_sinfo(Printer *p, const IrSInfo *s)
{
  int parts = 0, n = ir_sinfo_shape_len(s);
  ir_pr_puts(p, "R.Tensor");
  if (s->u.tensor.shape && n >= 0) {
    ir_pr_puts(p, "((");
    dims(p, s->u.tensor.shape, n);
    ir_pr_puts(p, n == 1 ? ",)" : ")");
    parts++;
  }
  if (s->u.tensor.dtype.code != IR_DT_VOID) {
    ir_pr_puts(p, parts++ ? ", dtype=\"" : "(dtype=\"");
    ir_pr_dtype(p, s->u.tensor.dtype);
    ir_pr_puts(p, "\"");
  }
  /* ndim is printed when it is all there is, or when it contradicts the
   * shape as written (kept for the well-formedness check to report) */
  if ((!s->u.tensor.shape && s->u.tensor.ndim >= 0) || (s->u.tensor.shape && s->shape_len))
    ir_pr_printf(p, "%sndim=%d", parts++ ? ", " : "(", s->u.tensor.ndim);
  if (s->u.tensor.vdevice >= 0) {
    ir_pr_puts(p, parts++ ? ", vdevice=" : "(vdevice=");
    ir_pr_vdevice(p, s->u.tensor.vdevice);
  }
  if (parts)
    ir_pr_puts(p, ")");
}

static void
func_sinfo(Printer *p, const IrSInfo *s)
{
  if (s->u.func.packed) {
    ir_pr_puts(p, "R.PackedFunc");
    return;
  }
  if (s->u.func.derive_func) {
    ir_pr_printf(p, "R.Callable(derive_func=\"%s\", purity=%s)", s->u.func.derive_func,
                 s->u.func.pure ? "True" : "False");
    return;
  }
  if (!s->u.func.params || s->u.func.nparams < 0) {
    ir_pr_puts(p, "R.Callable");
    return;
  }
  ir_pr_puts(p, "R.Callable((");
  for (int i = 0; i < s->u.func.nparams; i++) {
    ir_pr_puts(p, i ? ", " : "");
    ir_pr_sinfo(p, s->u.func.params[i]);
  }
  ir_pr_puts(p, s->u.func.nparams == 1 ? ",), " : "), ");
  ir_pr_sinfo(p, s->u.func.ret);
  ir_pr_puts(p, s->u.func.pure ? ", True)" : ", False)");
}

void
ir_pr_sinfo(Printer *p, const IrSInfo *s)
{
  bool v26 = p->dialect == IR_DIALECT_V0_26;
  if (!s || s->kind == IR_SI_OBJECT) {
    ir_pr_puts(p, v26 ? "R.Any" : "R.Object");
    return;
  }
  switch (s->kind) {
  case IR_SI_PRIM:
    if (s->u.prim.value) {
      /* v0.26 prints the dtype alone; dropping the value would change the
       * module (a match_cast to R.Prim(value=T.bool(True)) is a check), so
       * both dialects print it */
      ir_pr_puts(p, "R.Prim(value=");
      dim(p, s->u.prim.value);
      ir_pr_puts(p, ")");
    } else if (v26) {
      ir_pr_puts(p, "T.");
      ir_pr_dtype(p, s->u.prim.dtype);
    } else {
      ir_pr_puts(p, "R.Prim(\"");
      ir_pr_dtype(p, s->u.prim.dtype);
      ir_pr_puts(p, "\")");
    }
    break;
  case IR_SI_SHAPE:
    if (s->u.shape.values && s->u.shape.ndim >= 0) {
      ir_pr_puts(p, "R.Shape([");
      dims(p, s->u.shape.values, ir_sinfo_shape_len(s));
      ir_pr_puts(p, "]");
      if (s->shape_len)
        ir_pr_printf(p, ", ndim=%d", s->u.shape.ndim);
      ir_pr_puts(p, ")");
    } else if (s->u.shape.ndim >= 0) {
      ir_pr_printf(p, "R.Shape(ndim=%d)", s->u.shape.ndim);
    } else {
      ir_pr_puts(p, "R.Shape");
    }
    break;
  case IR_SI_TENSOR:
    tensor_sinfo(p, s);
    break;
  case IR_SI_TUPLE:
    ir_pr_puts(p, s->u.tuple.n ? "R.Tuple(" : "R.Tuple");
    for (int i = 0; i < s->u.tuple.n; i++) {
      ir_pr_puts(p, i ? ", " : "");
      ir_pr_sinfo(p, s->u.tuple.fields[i]);
    }
    ir_pr_puts(p, s->u.tuple.n ? ")" : "");
    break;
  case IR_SI_FUNC:
    func_sinfo(p, s);
    break;
  default: /* IR_SI_OBJECT, above */
    break;
  }
}

/* --- constants ------------------------------------------------------------ */

static uint64_t
load_le(const unsigned char *d, int bytes)
{
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; i--)
    v = v << 8 | d[i];
  return v;
}

static void
float_element(Printer *p, double v, bool single)
{
  bool quote = isnan(v) || isinf(v);
  if (quote)
    ir_pr_puts(p, "\"");
  ir_pr_float_text(p->out, v, single);
  if (quote)
    ir_pr_puts(p, "\"");
}

static void
const_element(Printer *p, const IrTensorData *c, size_t i)
{
  int bytes = ir_dtype_bytes(c->dtype);
  uint64_t raw = load_le((const unsigned char *)c->data + i * (size_t)bytes, bytes);
  switch (c->dtype.code) {
  case IR_DT_BOOL:
    ir_pr_puts(p, raw ? "True" : "False");
    break;
  case IR_DT_INT: {
    int shift = 64 - c->dtype.bits;
    int64_t v = (int64_t)(raw << shift) >> shift; /* sign-extends */
    ir_pr_printf(p, "%lld", (long long)v);
    break;
  }
  case IR_DT_UINT:
    ir_pr_printf(p, "%llu", (unsigned long long)raw);
    break;
  case IR_DT_FLOAT:
    if (c->dtype.bits == 16) {
      float_element(p, ir_half_to_double((uint16_t)raw), false);
    } else if (c->dtype.bits == 32) {
      uint32_t bits = (uint32_t)raw;
      float f;
      memcpy(&f, &bits, sizeof f);
      float_element(p, f, true);
    } else {
      double d;
      memcpy(&d, &raw, sizeof d);
      float_element(p, d, false);
    }
    break;
  case IR_DT_BFLOAT: {
    uint32_t bits = (uint32_t)raw << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    float_element(p, f, false);
    break;
  }
  default:
    ir_pr_puts(p, "None");
    break;
  }
}

static void
const_list(Printer *p, const IrTensorData *c, int axis, size_t *next)
{
  if (axis == c->ndim) {
    const_element(p, c, (*next)++);
    return;
  }
  ir_pr_puts(p, "[");
  for (int64_t i = 0; i < c->shape[axis]; i++) {
    ir_pr_puts(p, i ? ", " : "");
    const_list(p, c, axis + 1, next);
  }
  ir_pr_puts(p, "]");
}

/* Why c cannot be printed as R.const, or NULL when it can. */
static const char *
const_problem(const IrTensorData *c)
{
  IrDType t = c->dtype;
  bool known = t.code == IR_DT_BOOL || t.code == IR_DT_INT || t.code == IR_DT_UINT ||
               (t.code == IR_DT_FLOAT && t.bits >= 16) || (t.code == IR_DT_BFLOAT && t.bits == 16);
  if (!known || t.lanes != 1 || (t.code != IR_DT_BOOL && t.bits < 8))
    return "a constant of this dtype";
  if (c->ndim < 0 || (c->ndim > 0 && !c->shape))
    return "a constant without a shape";
  size_t count = 1;
  for (int i = 0; i < c->ndim; i++) {
    if (c->shape[i] < 0 || (c->shape[i] == 0 && i + 1 < c->ndim))
      return "a constant of this shape";
    if (c->shape[i] > 0 && count > SIZE_MAX / (size_t)c->shape[i] / 8)
      return "a constant this large";
    count *= (size_t)c->shape[i];
  }
  if (count * (size_t)ir_dtype_bytes(t) > c->nbytes || (count && !c->data))
    return "a constant with missing data";
  return NULL;
}

static void
constant(Printer *p, const IrTensorData *c)
{
  char name[32];
  size_t next = 0;
  ir_pr_puts(p, "R.const(");
  const_list(p, c, 0, &next);
  ir_pr_printf(p, ", \"%s\")", ir_dtype_str(c->dtype, name));
}

/* --- calls ------------------------------------------------------------------ */

/* Why call e cannot be printed, or NULL. */
static const char *
call_problem(const IrExpr *e)
{
  if (e->u.call.kind != IR_CALL_OP)
    return e->u.call.callee ? NULL : "a call without a callee";
  const IrOpDef *op = e->u.call.op;
  if (!op)
    return "a call of no operator";
  int positional = 0;
  for (int k = 0; k < op->nparams; k++) {
    IrParamKind kind = op->params[k].kind;
    if (kind == IR_PARAM_VARARGS)
      return NULL;
    if (kind != IR_PARAM_ATTR && kind != IR_PARAM_SINFO)
      positional++;
  }
  return e->u.call.nargs > positional ? "an operator call with too many arguments" : NULL;
}

/* Why e cannot be printed as an expression, or NULL. */
static const char *
expr_problem(const IrExpr *e)
{
  if (!e)
    return "a missing expression";
  switch (e->kind) {
  case IR_EX_CONST:
    return const_problem(&e->u.constant);
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++) {
      const char *why = expr_problem(e->u.tuple.items[i]);
      if (why)
        return why;
    }
    return NULL;
  case IR_EX_GET:
    return expr_problem(e->u.get.tuple);
  case IR_EX_CALL: {
    const char *why = call_problem(e);
    if (!why && e->u.call.callee)
      why = expr_problem(e->u.call.callee);
    for (int i = 0; !why && i < e->u.call.nargs; i++)
      why = expr_problem(e->u.call.args[i]);
    return why;
  }
  case IR_EX_SEQ:
    return "a nested sequence expression";
  case IR_EX_IF:
    return "an if expression inside an expression";
  case IR_EX_FUNC:
    return "a function inside an expression";
  default:
    return NULL;
  }
}

static void
args(Printer *p, IrExpr *const *a, int n, bool *first)
{
  for (int i = 0; i < n; i++) {
    ir_pr_puts(p, *first ? "" : ", ");
    *first = false;
    expr(p, a[i]);
  }
}

/* The keyword of the struct info arguments of a call: v0.26 renamed
 * sinfo_args to ty_args and out_sinfo to out_ty. */
static const char *
sinfo_key(const Printer *p, const char *key)
{
  if (p->dialect != IR_DIALECT_V0_26)
    return key;
  if (strcmp(key, "sinfo_args") == 0)
    return "ty_args";
  return strcmp(key, "out_sinfo") == 0 ? "out_ty" : key;
}

/* ", sinfo_args=(A,)": the form of R.call_packed and other calls. */
static void
sinfo_args_kw(Printer *p, const char *key, IrSInfo *const *s, int n, bool *first)
{
  if (n == 0)
    return;
  key = sinfo_key(p, key);
  ir_pr_printf(p, "%s%s=(", *first ? "" : ", ", key);
  *first = false;
  for (int i = 0; i < n; i++) {
    ir_pr_puts(p, i ? ", " : "");
    ir_pr_sinfo(p, s[i]);
  }
  ir_pr_puts(p, n == 1 ? ",)" : ")");
}

static void
attrs_kw(Printer *p, const IrAttr *attrs, bool *first)
{
  if (!attrs || attrs->kind != IR_AT_DICT)
    return;
  for (int i = 0; i < attrs->u.list.n; i++) {
    ir_pr_printf(p, "%s%s=", *first ? "" : ", ", attrs->u.list.keys[i]);
    *first = false;
    ir_pr_attr(p, attrs->u.list.items[i]);
  }
}

static void
call_packed(Printer *p, const IrExpr *e)
{
  bool first = false;
  ir_pr_puts(p, "R.call_packed(");
  ir_pr_string(p, e->u.call.callee->u.global);
  args(p, e->u.call.args, e->u.call.nargs, &first);
  attrs_kw(p, e->u.call.attrs, &first);
  sinfo_args_kw(p, "sinfo_args", e->u.call.sinfo_args, e->u.call.nsinfo_args, &first);
  ir_pr_puts(p, ")");
}

static void
hint_on_device(Printer *p, const IrExpr *e)
{
  const IrAttr *attrs = e->u.call.attrs;
  const IrAttr *dev_type = ir_attr_get(attrs, "dev_type"), *index = ir_attr_get(attrs, "index");
  const IrAttr *scope = ir_attr_get(attrs, "memory_scope");
  ir_pr_puts(p, "R.hint_on_device(");
  if (e->u.call.nargs > 0)
    expr(p, e->u.call.args[0]);
  ir_pr_puts(p, ", R.device(dev_type=");
  ir_pr_attr(p, dev_type);
  ir_pr_puts(p, ", index=");
  if (index)
    ir_pr_attr(p, index);
  else
    ir_pr_puts(p, "0");
  ir_pr_puts(p, ")");
  if (scope && !(scope->kind == IR_AT_STR && strcmp(scope->u.s, "global") == 0)) {
    ir_pr_puts(p, ", memory_scope=");
    ir_pr_attr(p, scope);
  }
  ir_pr_puts(p, ")");
}

static bool
is_table_attr(const IrOpDef *op, const char *key)
{
  for (int k = 0; k < op->nparams; k++)
    if (op->params[k].kind == IR_PARAM_ATTR && strcmp(op->params[k].name, key) == 0)
      return true;
  return false;
}

static void
op_attr(Printer *p, const IrExpr *e, const IrOpParam *param)
{
  const IrAttr *a = ir_attr_get(e->u.call.attrs, param->name);
  if (e->u.call.op->id == IR_OP_TO_VDEVICE && a && a->kind == IR_AT_INT)
    ir_pr_vdevice(p, (int)a->u.i);
  else if (a)
    ir_pr_attr(p, a);
  else
    ir_pr_puts(p, param->fallback ? param->fallback : "None");
}

static void
op_sinfo(Printer *p, const IrExpr *e, const IrOpParam *param, bool *first)
{
  int n = e->u.call.nsinfo_args;
  IrSInfo *const *s = e->u.call.sinfo_args;
  if (n == 0)
    return;
  if (strcmp(param->name, "out_sinfo") != 0) {
    sinfo_args_kw(p, param->name, s, n, first);
    return;
  }
  ir_pr_printf(p, "%s%s=%s", *first ? "" : ", ", sinfo_key(p, "out_sinfo"), n > 1 ? "[" : "");
  *first = false;
  for (int i = 0; i < n; i++) {
    ir_pr_puts(p, i ? ", " : "");
    ir_pr_sinfo(p, s[i]);
  }
  ir_pr_puts(p, n > 1 ? "]" : "");
}

/* One positional argument of an op call; a packed function's symbol prints
 * as its string. */
static void
op_arg(Printer *p, const IrExpr *e, int k, const IrExpr *arg)
{
  IrOpId id = e->u.call.op->id;
  bool packed = id == IR_OP_CALL_PURE_PACKED || id == IR_OP_CALL_DPS_PACKED ||
                id == IR_OP_CALL_INPLACE_PACKED || id == IR_OP_CALL_BUILTIN_WITH_CTX;
  if (packed && k == 0 && arg->kind == IR_EX_EXTERN)
    ir_pr_string(p, arg->u.global);
  else
    expr(p, arg);
}

/* R.op(args by parameter kind, attributes as keywords in table order); once
 * a keyword is printed the remaining arguments are keywords too. */
static void call_op(Printer *p, const IrExpr *e);

/* v0.26's call_tir with tir_vars: the same call with the scalars appended
 * to the argument tuple and no tir_vars.  False when its callee's
 * parameters are not moved (ir_pr_move). */
static bool
moved_call_tir(Printer *p, const IrExpr *e)
{
  if (p->dialect != IR_DIALECT_V0_26 || !is_call_tir(e) || e->u.call.nargs < 3 ||
      !ir_pr_move(p, e->u.call.args[0]->u.global))
    return false;
  const IrExpr *args = e->u.call.args[1], *vars = e->u.call.args[2];
  int n = args->u.tuple.n + vars->u.shape.n;
  IrExpr *scalars = ir_xcalloc((size_t)vars->u.shape.n + 1, sizeof *scalars);
  IrExpr **items = ir_xcalloc((size_t)n + 1, sizeof *items);
  for (int i = 0; i < args->u.tuple.n; i++)
    items[i] = args->u.tuple.items[i];
  for (int i = 0; i < vars->u.shape.n; i++) {
    scalars[i].kind = IR_EX_PRIM;
    scalars[i].u.prim = vars->u.shape.values[i];
    items[args->u.tuple.n + i] = &scalars[i];
  }
  IrExpr tuple = {.kind = IR_EX_TUPLE, .u.tuple = {.items = items, .n = n}};
  IrExpr *call_args[2] = {e->u.call.args[0], &tuple};
  IrExpr call = *e;
  call.u.call.args = call_args;
  call.u.call.nargs = 2;
  call_op(p, &call);
  free(items);
  free(scalars);
  p->inexact = true;
  return true;
}

static void
call_op(Printer *p, const IrExpr *e)
{
  const IrOpDef *op = e->u.call.op;
  if (moved_call_tir(p, e))
    return;
  bool first = true, keyword = false, has_sinfo = false;
  int next = 0, nargs = e->u.call.nargs;
  if (op->id == IR_OP_HINT_ON_DEVICE) {
    hint_on_device(p, e);
    return;
  }
  ir_pr_printf(p, "R.%s(", strncmp(op->name, "relax.", 6) == 0 ? op->name + 6 : op->name);
  for (int k = 0; k < op->nparams; k++) {
    const IrOpParam *param = &op->params[k];
    if (param->kind == IR_PARAM_ATTR) {
      ir_pr_printf(p, "%s%s=", first ? "" : ", ", param->name);
      op_attr(p, e, param);
      first = false;
      keyword = true;
    } else if (param->kind == IR_PARAM_SINFO) {
      op_sinfo(p, e, param, &first);
      keyword = has_sinfo = true;
    } else if (param->kind == IR_PARAM_VARARGS) {
      if (next < nargs) /* args is NULL when there are none: no NULL + 0 */
        args(p, e->u.call.args + next, nargs - next, &first);
      next = nargs;
    } else if (next < nargs) {
      ir_pr_puts(p, first ? "" : ", ");
      if (keyword)
        ir_pr_printf(p, "%s=", param->name);
      op_arg(p, e, k, e->u.call.args[next++]);
      first = false;
    }
  }
  const IrAttr *attrs = e->u.call.attrs;
  for (int i = 0; attrs && attrs->kind == IR_AT_DICT && i < attrs->u.list.n; i++)
    if (!is_table_attr(op, attrs->u.list.keys[i])) {
      ir_pr_printf(p, "%s%s=", first ? "" : ", ", attrs->u.list.keys[i]);
      ir_pr_attr(p, attrs->u.list.items[i]);
      first = false;
    }
  if (!has_sinfo)
    sinfo_args_kw(p, "sinfo_args", e->u.call.sinfo_args, e->u.call.nsinfo_args, &first);
  ir_pr_puts(p, ")");
}

static void
call(Printer *p, const IrExpr *e)
{
  const IrExpr *callee = e->u.call.callee;
  bool first = true;
  if (e->u.call.kind == IR_CALL_OP) {
    call_op(p, e);
    return;
  }
  bool typed = callee->sinfo && callee->sinfo->kind == IR_SI_FUNC;
  if (e->u.call.kind == IR_CALL_EXTERN && callee->kind == IR_EX_EXTERN && !typed) {
    call_packed(p, e);
    return;
  }
  expr(p, callee);
  ir_pr_puts(p, "(");
  args(p, e->u.call.args, e->u.call.nargs, &first);
  attrs_kw(p, e->u.call.attrs, &first);
  sinfo_args_kw(p, "sinfo_args", e->u.call.sinfo_args, e->u.call.nsinfo_args, &first);
  ir_pr_puts(p, ")");
}

/* --- expressions -------------------------------------------------------------- */

static const char *
var_name(Printer *p, const IrExpr *var)
{
  return ir_pr_name(p, var, var->u.var.name);
}

/* Prints a leaf, tuple or call (checked by expr_problem beforehand). */
static void
expr(Printer *p, const IrExpr *e)
{
  bool first = true;
  switch (e->kind) {
  case IR_EX_VAR:
    ir_pr_puts(p, var_name(p, e));
    break;
  case IR_EX_CONST:
    constant(p, &e->u.constant);
    break;
  case IR_EX_TUPLE:
    if (e->u.tuple.n == 0) {
      ir_pr_puts(p, "R.tuple()");
      break;
    }
    ir_pr_puts(p, "(");
    args(p, e->u.tuple.items, e->u.tuple.n, &first);
    ir_pr_puts(p, e->u.tuple.n == 1 ? ",)" : ")");
    break;
  case IR_EX_GET:
    expr(p, e->u.get.tuple);
    ir_pr_printf(p, "[%d]", e->u.get.index);
    break;
  case IR_EX_CALL:
    call(p, e);
    break;
  case IR_EX_SHAPE:
    ir_pr_puts(p, "R.shape([");
    dims(p, e->u.shape.values, e->u.shape.n);
    ir_pr_puts(p, "])");
    break;
  case IR_EX_PRIM: { /* v0.26 prints a Relax scalar as the bare TIR value,
                        * but for and/or/not, which Python reads as
                        * operators on Relax values */
    IrPrimKind k = e->u.prim->kind;
    bool bare = p->dialect == IR_DIALECT_V0_26 && k != IR_PE_AND && k != IR_PE_OR && k != IR_PE_NOT;
    ir_pr_puts(p, bare ? "" : "R.prim_value(");
    ir_pr_prim(p, e->u.prim);
    ir_pr_puts(p, bare ? "" : ")");
    break;
  }
  case IR_EX_STR:
    ir_pr_puts(p, "R.str(");
    ir_pr_string(p, e->u.str);
    ir_pr_puts(p, ")");
    break;
  case IR_EX_DTYPE:
    ir_pr_puts(p, "R.dtype(\"");
    ir_pr_dtype(p, e->u.dtype);
    ir_pr_puts(p, "\")");
    break;
  case IR_EX_GLOBAL:
    ir_pr_printf(p, "cls.%s", e->u.global);
    break;
  case IR_EX_EXTERN:
    ir_pr_puts(p, "R.ExternFunc(");
    ir_pr_string(p, e->u.global);
    if (e->sinfo && e->sinfo->kind == IR_SI_FUNC) { /* its R.Callable: purity, derive_func */
      ir_pr_puts(p, ", ");
      ir_pr_sinfo(p, e->sinfo);
    }
    ir_pr_puts(p, ")");
    break;
  default:
    ir_pr_puts(p, "None"); /* excluded by expr_problem */
    break;
  }
}

/* --- bindings ------------------------------------------------------------------ */

/* "name" or "name: annotation" of a binding's var. */
static void
var_def(Printer *p, const IrExpr *var)
{
  ir_pr_puts(p, var_name(p, var));
  if (var->sinfo) {
    ir_pr_puts(p, ": ");
    ir_pr_sinfo(p, var->sinfo);
  }
}

/* One branch of an if binding: its bindings, then "var = result". */
static void
branch(Printer *p, const IrExpr *var, const IrExpr *seq)
{
  const IrExpr *result = seq;
  p->indent++;
  if (seq && seq->kind == IR_EX_SEQ)
    seq_lines(p, seq, &result);
  const char *why = expr_problem(result);
  if (why) {
    ir_pr_cannot(p, "the result of a branch: %s", why);
  } else {
    ir_pr_indent(p);
    var_def(p, var);
    ir_pr_puts(p, " = ");
    expr(p, result);
    ir_pr_puts(p, "\n");
  }
  p->indent--;
}

static void
if_binding(Printer *p, const IrBinding *b)
{
  const IrExpr *v = b->value;
  const char *why = expr_problem(v->u.branch.cond);
  if (why) {
    ir_pr_cannot(p, "the condition of an if: %s", why);
    return;
  }
  ir_pr_indent(p);
  ir_pr_puts(p, "if ");
  expr(p, v->u.branch.cond);
  ir_pr_puts(p, ":\n");
  branch(p, b->var, v->u.branch.then_);
  ir_pr_indent(p);
  ir_pr_puts(p, "else:\n");
  branch(p, b->var, v->u.branch.else_);
}

static bool
is_underscore(const IrExpr *var)
{
  return var->u.var.name && strcmp(var->u.var.name, "_") == 0;
}

static void
binding(Printer *p, const IrBinding *b)
{
  const IrExpr *v = b->value;
  if (!b->var || !v) {
    ir_pr_cannot(p, "a binding without a var or a value");
    return;
  }
  if (v->kind == IR_EX_IF && !b->cast) {
    if_binding(p, b);
    return;
  }
  if (v->kind == IR_EX_FUNC && !b->cast && v->u.func) {
    function_def(p, var_name(p, b->var), v->u.func, false);
    return;
  }
  const char *why = expr_problem(v);
  if (why) {
    ir_pr_cannot(p, "the binding of %s: %s", var_name(p, b->var), why);
    return;
  }
  ir_pr_indent(p);
  if (!b->cast && is_underscore(b->var) && !b->var->sinfo && v->kind == IR_EX_CALL) {
    expr(p, v); /* a bare statement */
    ir_pr_puts(p, "\n");
    return;
  }
  var_def(p, b->var);
  ir_pr_puts(p, " = ");
  if (b->cast)
    ir_pr_puts(p, "R.match_cast(");
  expr(p, v);
  if (b->cast) {
    ir_pr_puts(p, ", ");
    ir_pr_sinfo(p, b->cast);
    ir_pr_puts(p, ")");
  }
  ir_pr_puts(p, "\n");
}

static void
dataflow_block(Printer *p, const IrBindingBlock *blk)
{
  bool first = true;
  ir_pr_indent(p);
  ir_pr_puts(p, "with R.dataflow():\n");
  p->indent++;
  for (int i = 0; i < blk->n; i++)
    binding(p, &blk->bindings[i]);
  ir_pr_indent(p);
  ir_pr_puts(p, "R.output(");
  for (int i = 0; i < blk->n; i++) {
    const IrExpr *var = blk->bindings[i].var;
    if (!var || var->u.var.dataflow)
      continue;
    ir_pr_printf(p, "%s%s", first ? "" : ", ", var_name(p, var));
    first = false;
  }
  ir_pr_puts(p, ")\n");
  p->indent--;
}

/* Prints the blocks of seq; *result gets its result expression. */
static void
seq_lines(Printer *p, const IrExpr *seq, const IrExpr **result)
{
  for (int b = 0; b < seq->u.seq.nblocks; b++) {
    const IrBindingBlock *blk = &seq->u.seq.blocks[b];
    if (blk->dataflow) {
      dataflow_block(p, blk);
      continue;
    }
    for (int i = 0; i < blk->n; i++)
      binding(p, &blk->bindings[i]);
  }
  *result = seq->u.seq.result;
}

/* --- functions ----------------------------------------------------------------- */

static void
decorator(Printer *p, const IrFunction *f)
{
  ir_pr_indent(p);
  ir_pr_puts(p, "@R.function");
  if (!f->pure && f->is_private)
    ir_pr_puts(p, "(pure=False, private=True)");
  else if (!f->pure)
    ir_pr_puts(p, "(pure=False)");
  else if (f->is_private)
    ir_pr_puts(p, "(private=True)");
  ir_pr_puts(p, "\n");
}

static void
signature(Printer *p, const char *name, const IrFunction *f)
{
  ir_pr_indent(p);
  ir_pr_printf(p, "def %s(", name);
  p->sig = true;
  for (int i = 0; i < f->nparams; i++) {
    ir_pr_puts(p, i ? ", " : "");
    var_def(p, f->params[i]);
  }
  ir_pr_puts(p, ")");
  if (f->ret) {
    ir_pr_puts(p, " -> ");
    ir_pr_sinfo(p, f->ret);
  }
  p->sig = false;
  ir_pr_puts(p, ":\n");
}

/* Declarations "n = T.int64()" of every symbolic variable, in order. */
static void
declarations(Printer *p, const Scan *s)
{
  for (size_t i = 0; i < s->vars.count; i++) {
    const IrPrimExpr *v = s->vars.order[i];
    ir_pr_indent(p);
    ir_pr_printf(p, "%s = T.", ir_pr_name(p, v, v->u.var));
    ir_pr_dtype(p, v->dtype);
    ir_pr_puts(p, "()\n");
  }
}

/* A function definition; top is false for a local function, whose
 * symbolic variables the enclosing function declares. */
static void
function_def(Printer *p, const char *name, const IrFunction *f, bool top)
{
  Scan s = {0};
  decorator(p, f);
  signature(p, name, f);
  p->indent++;
  if (top) {
    scan_function(&s, f);
    declarations(p, &s);
  }
  if (f->attrs && !(f->attrs->kind == IR_AT_DICT && f->attrs->u.list.n == 0)) {
    ir_pr_indent(p);
    ir_pr_puts(p, "R.func_attr(");
    ir_pr_attr(p, f->attrs);
    ir_pr_puts(p, ")\n");
  }
  if (top && s.uses_global) {
    ir_pr_indent(p);
    ir_pr_printf(p, "cls = %s\n", p->mod && p->mod->name ? p->mod->name : "Module");
  }
  ir_ptrset_free(&s.vars);
  const IrExpr *result = f->body;
  if (f->body && f->body->kind == IR_EX_SEQ)
    seq_lines(p, f->body, &result);
  const char *why = expr_problem(result);
  if (why) {
    ir_pr_cannot(p, "the result of %s: %s", name, why);
    ir_pr_indent(p);
    ir_pr_puts(p, "return R.tuple()\n");
  } else {
    ir_pr_indent(p);
    ir_pr_puts(p, "return ");
    expr(p, result);
    ir_pr_puts(p, "\n");
  }
  p->indent--;
}

void
ir_pr_relax_function(Printer *p, IrSym name, const IrFunction *f)
{
  p->tir = false;
  if (!f) {
    ir_pr_cannot(p, "function %s without a body", name);
    return;
  }
  function_def(p, name, f, true);
}
