/*
 * gen_check.c - the run-time checks an entry makes for R.match_cast and for
 * the arguments of each prim_func call, so that the generated code refuses
 * exactly what the interpreter refuses (DESIGN.md).
 *
 * Key ideas:
 *  - R.match_cast is the one construct that states a shape relation to be
 *    checked: the user's own, and those LegalizeOps keeps for operators
 *    (a binding "y_check = R.match_cast(R.prim_value(k == m), R.Prim(value=
 *    T.bool(True)))").  Each dim of the pattern is matched as the
 *    interpreter does (interp/check.c): a bare var not yet known takes the
 *    value's dim (a C local, "const rxc_i64 m = ..."), every other dim must
 *    equal the value's.
 *  - Every dim of a value is an expression of the entry's dims, known
 *    before anything runs, so the checks and definitions are hoisted to
 *    the entry's prologue, before the first write (E->defs, E->checks).
 *    Inside an if branch, whose condition may depend on data, they stay in
 *    the branch, before its first statement.
 *  - The one exception is a dim that is tensor data: R.match_cast(s,
 *    R.Shape([k])) of s = R.tensor_to_shape(t) defines k in the body, a
 *    local read from t after the kernel that wrote t ran (E->late).  Its
 *    range, [0, tir_var_upper_bound] (which the memory planner planned
 *    every tensor using k at), is checked right there (NAME_ERR_DIM), and
 *    so is every check that uses k (the plan's too): before the first
 *    write that depends on k.  An arena whose size depends on a late var
 *    (one without an upper bound) is a compile-time error (gen_entry.c).
 *  - A relation the arithmetic proves costs nothing; one it disproves is a
 *    compile-time error naming the binding.
 */
#include <stdint.h>
#include <string.h>

#include "cg_int.h"

bool
cg_uses_late(const CgFunc *E, const IrPrimExpr *e)
{
  if (!e || !E->late.len)
    return false;
  if (e->kind == IR_PE_VAR) {
    for (int i = 0; i < E->late.len; i++)
      if (E->late.items[i] == e)
        return true;
    return false;
  }
  if (e->kind == IR_PE_SELECT)
    return cg_uses_late(E, e->u.select.cond) || cg_uses_late(E, e->u.select.a) ||
           cg_uses_late(E, e->u.select.b);
  if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_CAST)
    return cg_uses_late(E, e->u.bin.a) || cg_uses_late(E, e->u.bin.b);
  return false;
}

/* Where the code of a check of e goes: the prologue, or the branch (or
 * the place of a late var's definition). */
static IrBuf *
defs_out(CgFunc *E, IrBuf *here, const IrPrimExpr *e)
{
  return E->indent > 1 || cg_uses_late(E, e) ? here : &E->defs;
}

static IrBuf *
checks_out(CgFunc *E, IrBuf *here, const IrPrimExpr *e)
{
  return E->indent > 1 || cg_uses_late(E, e) ? here : &E->checks;
}

static void
indent(const CgFunc *E, IrBuf *o)
{
  for (int i = 0; i < (E->indent > 1 ? E->indent : 1); i++)
    ir_buf_puts(o, "  ");
}

static bool
is_true(const IrPrimExpr *e)
{
  int64_t v;
  return e->dtype.code == IR_DT_BOOL && ir_prim_is_int(e, &v) && v == 1;
}

/* "if (!(have == want)) return NAME_ERR_MATCH;" unless proved; false
 * after a compile-time error (proved false). */
static bool
emit_equal(CgFunc *E, const char *what, const IrPrimExpr *have, const IrPrimExpr *want, IrBuf *o)
{
  IrCtx *ctx = E->g->ctx;
  IrPrimExpr *cond = is_true(want) ? (IrPrimExpr *)have
                                   : ir_prim_bin(ctx, IR_PE_EQ, (IrPrimExpr *)have, (IrPrimExpr *)want);
  if (ir_prim_expr_equal(have, want))
    return true;
  IrProof p = ir_arith_prove(E->arith, cond);
  if (p == IR_PROVE_TRUE)
    return true;
  if (p == IR_PROVE_FALSE) {
    IrBuf h = {0}, w = {0};
    ir_prim_expr_print(have, &h);
    ir_prim_expr_print(want, &w);
    cg_fail(E->g, "%s never holds: %s is %s, expected %s", what, what, h.data ? h.data : "?",
            w.data ? w.data : "?");
    ir_buf_free(&h);
    ir_buf_free(&w);
    return false;
  }
  IrBuf *c = checks_out(E, o, cond);
  indent(E, c);
  ir_buf_printf(c, "if (!(");
  cg_emit_expr(E->g, &E->names, cond, c);
  ir_buf_printf(c, "))\n");
  indent(E, c);
  ir_buf_printf(c, "  return %s_ERR_MATCH; /* %s */\n", E->g->name, what);
  return true;
}

/* The dims of a tensor, shape or prim struct info (*n of them); false
 * when they are not all known. */
static bool
dims_of(const IrSInfo *s, IrPrimExpr ***dims, int *n)
{
  *dims = NULL;
  *n = 0;
  if (s->kind == IR_SI_TENSOR) {
    *n = s->u.tensor.ndim;
    *dims = s->u.tensor.shape;
    return s->u.tensor.ndim >= 0 && (s->u.tensor.shape || s->u.tensor.ndim == 0);
  }
  if (s->kind == IR_SI_SHAPE) {
    *n = s->u.shape.ndim;
    *dims = s->u.shape.values;
    return s->u.shape.ndim >= 0 && (s->u.shape.values || s->u.shape.ndim == 0);
  }
  *n = 1;
  *dims = (IrPrimExpr **)&s->u.prim.value;
  return s->u.prim.value != NULL;
}

/* Kind, dtype and rank of have against want: false after an error. */
static bool
match_kind(CgFunc *E, const char *what, const IrSInfo *have, const IrSInfo *want)
{
  char a[16], b[16];
  if (!have || have->kind != want->kind) {
    cg_fail(E->g, "%s: C code generation cannot check a value of unknown kind against %s", what,
            want->kind == IR_SI_TENSOR ? "a tensor" : "this struct info");
    return false;
  }
  IrDType ht = have->kind == IR_SI_TENSOR ? have->u.tensor.dtype
               : have->kind == IR_SI_PRIM ? have->u.prim.dtype
                                          : IR_VOID;
  IrDType wt = want->kind == IR_SI_TENSOR ? want->u.tensor.dtype
               : want->kind == IR_SI_PRIM ? want->u.prim.dtype
                                          : IR_VOID;
  if (wt.code != IR_DT_VOID && ht.code != IR_DT_VOID && !ir_dtype_eq(ht, wt)) {
    cg_fail(E->g, "%s never holds: the dtype is %s, expected %s", what, ir_dtype_str(ht, a),
            ir_dtype_str(wt, b));
    return false;
  }
  if (wt.code != IR_DT_VOID && ht.code == IR_DT_VOID) {
    cg_fail(E->g, "%s: C code generation needs the value's dtype", what);
    return false;
  }
  int hn = have->kind == IR_SI_TENSOR ? have->u.tensor.ndim
           : have->kind == IR_SI_SHAPE ? have->u.shape.ndim
                                       : 1;
  int wn = want->kind == IR_SI_TENSOR ? want->u.tensor.ndim
           : want->kind == IR_SI_SHAPE ? want->u.shape.ndim
                                       : 1;
  if (wn >= 0 && hn >= 0 && wn != hn) {
    cg_fail(E->g, "%s never holds: the rank is %d, expected %d", what, hn, wn);
    return false;
  }
  if (wn >= 0 && hn < 0) {
    cg_fail(E->g, "%s: C code generation needs the value's rank", what);
    return false;
  }
  return true;
}

/* Pass 1 (define) or 2 (check) of have against want, fields of tuples in
 * turn; pass 1 adds the places (dim slots) where it defines a var to
 * defined, which pass 2 does not check.  False after an error. */
static bool
match(CgFunc *E, const char *what, const IrSInfo *have, const IrSInfo *want, bool define,
      IrVec *defined, IrBuf *o)
{
  if (!want || want->kind == IR_SI_OBJECT || want->kind == IR_SI_FUNC)
    return true;
  if (define && !match_kind(E, what, have, want))
    return false;
  if (want->kind == IR_SI_TUPLE) {
    for (int i = 0; i < want->u.tuple.n && i < have->u.tuple.n; i++) {
      const char *w = ir_printf(E->g->ctx, "%s, field %d", what, i);
      if (!match(E, w, have->u.tuple.fields[i], want->u.tuple.fields[i], define, defined, o))
        return false;
    }
    if (have->u.tuple.n != want->u.tuple.n) {
      cg_fail(E->g, "%s never holds: a tuple of %d fields, expected %d", what, have->u.tuple.n,
              want->u.tuple.n);
      return false;
    }
    return true;
  }
  IrPrimExpr **hd, **wd;
  int hn, wn;
  if (!dims_of(want, &wd, &wn))
    return true; /* nothing to match beyond kind, dtype and rank */
  if (!dims_of(have, &hd, &hn)) {
    cg_fail(E->g, "%s: C code generation needs the value's shape", what);
    return false;
  }
  if (want->kind == IR_SI_PRIM && (wd[0]->dtype.code == IR_DT_FLOAT || hd[0]->dtype.code == IR_DT_FLOAT))
    return true; /* the interpreter compares integer prim values only */
  for (int d = 0; d < wn; d++) {
    const char *w = want->kind == IR_SI_PRIM ? what : ir_printf(E->g->ctx, "%s, dimension %d", what, d);
    const IrPrimExpr *x = wd[d];
    /* the place that defined a var needs no check; its other places do */
    bool bare_new = x->kind == IR_PE_VAR && !cg_names_find(&E->names, x), again = false;
    for (int k = 0; k < defined->len; k++)
      again = again || defined->items[k] == (void *)&wd[d];
    if (define && bare_new) {
      ir_vec_push(defined, (void *)&wd[d]);
      IrBuf *b = defs_out(E, o, hd[d]);
      const char *name = cg_names_add(E->g, &E->names, x, x->u.var);
      indent(E, b);
      ir_buf_printf(b, "const rxc_i64 %s = ", name);
      cg_emit_expr(E->g, &E->names, hd[d], b);
      ir_buf_printf(b, "; /* %s */\n", what);
    } else if (!define && !again && !emit_equal(E, w, hd[d], x, o)) {
      return false;
    }
  }
  return true;
}

/* Are all the vars of e named in the entry? */
static bool
all_named(const CgFunc *E, const IrPrimExpr *e)
{
  if (!e)
    return true;
  if (e->kind == IR_PE_VAR)
    return cg_names_find(&E->names, e) != NULL;
  if (e->kind == IR_PE_SELECT)
    return all_named(E, e->u.select.cond) && all_named(E, e->u.select.a) &&
           all_named(E, e->u.select.b);
  if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_CAST)
    return all_named(E, e->u.bin.a) && all_named(E, e->u.bin.b);
  return true;
}

/* The plan's checks that use late vars, once all of theirs are defined. */
static void
emit_plan_checks_here(CgFunc *E, IrBuf *o)
{
  const MpFunctionPlan *fp = E->fp;
  if (!E->plan_done && fp->nchecks)
    E->plan_done = ir_alloc(E->g->ctx, sizeof *E->plan_done * (size_t)fp->nchecks);
  for (int i = 0; i < fp->nchecks; i++) {
    bool ready = !E->plan_done[i] && cg_uses_late(E, fp->checks[i].cond) &&
                 all_named(E, fp->checks[i].cond);
    if (!ready || !E->g->cfg->codegen.checks)
      continue;
    E->plan_done[i] = true;
    indent(E, o);
    ir_buf_printf(o, "/* %s */\n", fp->checks[i].what ? fp->checks[i].what : "");
    indent(E, o);
    ir_buf_puts(o, "if (!");
    cg_emit_expr(E->g, &E->names, fp->checks[i].cond, o);
    ir_buf_printf(o, ")\n");
    indent(E, o);
    ir_buf_printf(o, "  return %s_ERR_CHECK;\n", E->g->name);
  }
}

/* R.match_cast(s, R.Shape([...])) of s = R.tensor_to_shape(t): a bare new
 * var is a local read from t's element, checked against its range; every
 * other dim must equal t's element. */
static void
match_data_shape(CgFunc *E, const char *what, const CgVar *src, const IrSInfo *want, IrBuf *o)
{
  IrCtx *ctx = E->g->ctx;
  for (int d = 0; d < want->u.shape.ndim; d++) {
    const IrPrimExpr *x = want->u.shape.values[d];
    const char *elem = ir_printf(ctx, "(rxc_i64)%s[%d]", src->shape_src, d);
    if (x->kind == IR_PE_VAR && !cg_names_find(&E->names, x)) {
      int64_t lo = 0, hi = INT64_MAX;
      ir_arith_range(E->arith, x, &lo, &hi);
      const char *name = cg_names_add(E->g, &E->names, x, x->u.var);
      ir_vec_push(&E->late, (void *)x);
      if (E->indent > 1)
        ir_vec_push(&E->late_nested, (void *)x);
      if (E->scope)
        ir_vec_push(E->scope, (void *)name);
      indent(E, o);
      ir_buf_printf(o, "const rxc_i64 %s = %s; /* %s: tensor data */\n", name, elem, what);
      if (E->g->cfg->codegen.checks) {
        indent(E, o);
        ir_buf_printf(o, "if (%s < %lld", name, (long long)(lo > 0 ? lo : 0));
        if (hi != INT64_MAX)
          ir_buf_printf(o, " || %s > %lldLL", name, (long long)hi);
        ir_buf_puts(o, ")\n");
        indent(E, o);
        ir_buf_printf(o, "  return %s_ERR_DIM;\n", E->g->name);
      }
      emit_plan_checks_here(E, o);
    } else if (E->g->cfg->codegen.checks) {
      indent(E, o);
      ir_buf_printf(o, "if (%s != (", elem);
      cg_emit_expr(E->g, &E->names, x, o);
      ir_buf_puts(o, "))\n");
      indent(E, o);
      ir_buf_printf(o, "  return %s_ERR_MATCH; /* %s, dimension %d */\n", E->g->name, what, d);
    }
  }
}

void
cg_emit_match_cast(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  const char *what =
      ir_printf(E->g->ctx, "R.match_cast of '%s'", b->var ? b->var->u.var.name : "_");
  const IrSInfo *have = b->value->sinfo;
  const CgVar *src = b->value->kind == IR_EX_VAR ? cg_var_find(E, b->value) : NULL;
  if (src && src->shape_src && b->cast->kind == IR_SI_SHAPE && b->cast->u.shape.values) {
    match_data_shape(E, what, src, b->cast, o);
    return;
  }
  IrVec defined = {0};
  if (match(E, what, have, b->cast, true, &defined, o))
    match(E, what, have, b->cast, false, &defined, o);
  ir_vec_free(&defined);
}

static const char *
data_dim_in(const IrExpr *seq, const IrPrimExpr *var)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++) {
      const IrBinding *b = &seq->u.seq.blocks[i].bindings[j];
      const IrExpr *v = b->value;
      if (v->kind == IR_EX_IF) {
        const char *n = data_dim_in(v->u.branch.then_, var);
        if (n || (n = data_dim_in(v->u.branch.else_, var)))
          return n;
      }
      const IrSInfo *h = v->sinfo;
      if (!b->cast || b->cast->kind != IR_SI_SHAPE || !b->cast->u.shape.values || !h ||
          h->kind != IR_SI_SHAPE || h->u.shape.values)
        continue;
      for (int d = 0; d < b->cast->u.shape.ndim; d++)
        if (b->cast->u.shape.values[d] == var)
          return b->var ? b->var->u.var.name : "_";
    }
  return NULL;
}

const char *
cg_data_dim_binding(CgFunc *E, const IrPrimExpr *var)
{
  return data_dim_in(E->f->body, var);
}

/* --- the arguments of a prim_func call ---------------------------------- */

/* e with the vars vars[i] replaced by vals[i] (other vars kept when keep,
 * else NULL); NULL when e has a form this does not follow. */
static IrPrimExpr *
subst_vars(IrCtx *ctx, const IrPrimExpr *e, IrPrimExpr *const *vars, IrPrimExpr *const *vals,
           int n, bool keep)
{
  switch (e->kind) {
  case IR_PE_INT:
    return (IrPrimExpr *)e;
  case IR_PE_VAR:
    for (int i = 0; i < n; i++)
      if (vars[i] == e)
        return vals[i];
    return keep ? (IrPrimExpr *)e : NULL;
  case IR_PE_ADD:
  case IR_PE_SUB:
  case IR_PE_MUL:
  case IR_PE_FLOORDIV:
  case IR_PE_FLOORMOD:
  case IR_PE_MIN:
  case IR_PE_MAX:
  case IR_PE_EQ:
  case IR_PE_NE:
  case IR_PE_LT:
  case IR_PE_LE:
  case IR_PE_GT:
  case IR_PE_GE:
  case IR_PE_AND:
  case IR_PE_OR: {
    IrPrimExpr *a = subst_vars(ctx, e->u.bin.a, vars, vals, n, keep);
    IrPrimExpr *b = a ? subst_vars(ctx, e->u.bin.b, vars, vals, n, keep) : NULL;
    return b ? ir_prim_bin(ctx, e->kind, a, b) : NULL;
  }
  case IR_PE_SELECT: {
    IrPrimExpr *c = subst_vars(ctx, e->u.select.cond, vars, vals, n, keep);
    IrPrimExpr *a = c ? subst_vars(ctx, e->u.select.a, vars, vals, n, keep) : NULL;
    IrPrimExpr *b = a ? subst_vars(ctx, e->u.select.b, vars, vals, n, keep) : NULL;
    return b ? ir_prim_select(ctx, c, a, b) : NULL;
  }
  default:
    return NULL;
  }
}

IrSInfo *
cg_output_in_signature_dims(CgFunc *E, IrSInfo *s)
{
  IrCtx *ctx = E->g->ctx;
  IrVec vars = {0}, vals = {0};
  const IrExpr *body = E->f->body;
  /* the dims the function's top-level match_casts define, in order */
  for (int i = 0; i < body->u.seq.nblocks; i++)
    for (int j = 0; j < body->u.seq.blocks[i].n; j++) {
      const IrBinding *b = &body->u.seq.blocks[i].bindings[j];
      IrPrimExpr **hd, **wd;
      int hn, wn;
      if (!b->cast || b->cast->kind == IR_SI_PRIM || b->cast->kind == IR_SI_TUPLE ||
          !b->value->sinfo || b->value->sinfo->kind != b->cast->kind ||
          !dims_of(b->cast, &wd, &wn) || !dims_of(b->value->sinfo, &hd, &hn) || hn != wn)
        continue;
      for (int d = 0; d < wn; d++) {
        bool seen = wd[d]->kind != IR_PE_VAR || cg_names_find(&E->names, wd[d]);
        for (int k = 0; !seen && k < vars.len; k++)
          seen = vars.items[k] == wd[d];
        IrPrimExpr *v = seen ? NULL
                             : subst_vars(ctx, hd[d], (IrPrimExpr *const *)vars.items,
                                          (IrPrimExpr *const *)vals.items, vars.len, true);
        if (v) {
          ir_vec_push(&vars, wd[d]);
          ir_vec_push(&vals, v);
        }
      }
    }
  IrSInfo *out = s;
  if (vars.len && s->kind == IR_SI_TENSOR && s->u.tensor.shape) {
    IrPrimExpr **dims = ir_alloc(ctx, sizeof *dims * (size_t)(s->u.tensor.ndim + 1));
    for (int d = 0; d < s->u.tensor.ndim; d++) {
      dims[d] = subst_vars(ctx, s->u.tensor.shape[d], (IrPrimExpr *const *)vars.items,
                           (IrPrimExpr *const *)vals.items, vars.len, true);
      if (!dims[d])
        dims[d] = s->u.tensor.shape[d];
    }
    out = ir_sinfo_tensor(ctx, dims, s->u.tensor.ndim, s->u.tensor.dtype, s->u.tensor.vdevice);
  }
  ir_vec_free(&vars);
  ir_vec_free(&vals);
  return out;
}

void
cg_emit_call_checks(CgFunc *E, const IrPrimFunc *f, const IrExpr *call, IrPrimExpr *const *vars,
                    IrPrimExpr *const *vals, int n, IrBuf *o)
{
  const char *callee = call->u.call.callee->u.global;
  for (int i = 0; i < f->nparams && i < call->u.call.nargs; i++) {
    const IrBuffer *buf = f->params[i].buffer;
    for (int d = 0; buf && d < buf->ndim; d++) {
      IrPrimExpr *have = cg_leaf_dim(E, call->u.call.args[i], d);
      IrPrimExpr *want = have ? subst_vars(E->g->ctx, buf->shape[d], vars, vals, n, false) : NULL;
      if (!want)
        continue;
      const char *what = ir_printf(E->g->ctx, "argument %d of '%s' (buffer '%s'), dimension %d", i,
                                   callee, buf->name, d);
      if (!emit_equal(E, what, have, want, o))
        return;
    }
  }
}
