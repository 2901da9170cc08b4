/*
 * checks.c - the allowed values of a function's symbolic dims, and the
 * question "does this tensor fit its storage?" for every alloc_tensor.
 *
 * Allowed values come from the function's attributes (tir_var_upper_bound,
 * tir_non_negative_var, and tir_var_lower_bound), from the configuration
 * ([memplan] upper_bound.NAME, default_upper_bound) and from R.assert_op
 * preconditions of the simple form `R.assert_op(R.prim_value(n <= 16))`
 * that come before the first allocation.  A bound the configuration adds
 * is itself checked at run time (nothing in the IR promises it).
 *
 * The fit question offset + tensor bytes <= storage bytes is decided by
 * ir_arith_prove: TRUE needs nothing, FALSE (for every allowed value) is a
 * compile-time error, UNKNOWN becomes a runtime check, simplified by
 * dividing out the common factor of its terms ("m * 4 <= 16" -> "m <= 4").
 */
#include <stdlib.h>
#include <string.h>

#include "mp_int.h"

const char *
mp_binding_name(const IrBinding *b)
{
  return b->var && b->var->u.var.name ? b->var->u.var.name : "_";
}

IrPrimExpr *
mp_shape_bytes(IrCtx *ctx, IrPrimExpr **values, int n, int64_t elem_bytes)
{
  IrPrimExpr *acc = ir_prim_int(ctx, IR_I64, elem_bytes);
  for (int i = n - 1; i >= 0; i--) {
    IrPrimExpr *d = values[i];
    if (!ir_dtype_eq(d->dtype, IR_I64))
      d = ir_prim_cast(ctx, IR_I64, d);
    acc = ir_prim_bin(ctx, IR_PE_MUL, d, acc);
  }
  return acc;
}

static char *
prim_text(IrCtx *ctx, const IrPrimExpr *e)
{
  IrBuf b = {0};
  ir_prim_expr_print(e, &b);
  char *s = ir_strdup(ctx, b.data ? b.data : "", b.len);
  ir_buf_free(&b);
  return s;
}

static void
check_add(MpFunc *F, IrPrimExpr *cond, const char *what, IrLoc loc)
{
  MpCheck *c = ir_alloc(F->ctx, sizeof *c);
  *c = (MpCheck){cond, what, loc};
  ir_vec_push(&F->checks, c);
}

/* --- allowed values -------------------------------------------------- */

static void
collect_prim_vars(const IrPrimExpr *e, IrVec *vars)
{
  if (!e)
    return;
  if (e->kind == IR_PE_VAR) {
    for (int i = 0; i < vars->len; i++)
      if (vars->items[i] == e)
        return;
    ir_vec_push(vars, (void *)e);
  } else if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_CAST && e->kind != IR_PE_SELECT) {
    collect_prim_vars(e->u.bin.a, vars);
    collect_prim_vars(e->u.bin.b, vars);
  }
}

static void
collect_sinfo_vars(const IrSInfo *s, IrVec *vars)
{
  if (!s)
    return;
  if (s->kind == IR_SI_TENSOR && s->u.tensor.shape)
    for (int i = 0; i < s->u.tensor.ndim; i++)
      collect_prim_vars(s->u.tensor.shape[i], vars);
  if (s->kind == IR_SI_SHAPE && s->u.shape.values)
    for (int i = 0; i < s->u.shape.ndim; i++)
      collect_prim_vars(s->u.shape.values[i], vars);
  if (s->kind == IR_SI_PRIM)
    collect_prim_vars(s->u.prim.value, vars);
  if (s->kind == IR_SI_TUPLE)
    for (int i = 0; i < s->u.tuple.n; i++)
      collect_sinfo_vars(s->u.tuple.fields[i], vars);
}

/* Every symbolic var of the signature and of the sizes in the body. */
static void
collect_seq_vars(const IrExpr *seq, IrVec *vars)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++) {
      const IrExpr *v = seq->u.seq.blocks[i].bindings[j].value;
      if (v->kind == IR_EX_IF) {
        collect_seq_vars(v->u.branch.then_, vars);
        collect_seq_vars(v->u.branch.else_, vars);
      }
      for (int k = 0; v->kind == IR_EX_CALL && k < v->u.call.nargs; k++) {
        const IrExpr *a = v->u.call.args[k];
        if (a->kind == IR_EX_SHAPE)
          for (int d = 0; d < a->u.shape.n; d++)
            collect_prim_vars(a->u.shape.values[d], vars);
        if (a->kind == IR_EX_PRIM)
          collect_prim_vars(a->u.prim, vars);
      }
    }
}

static bool
attr_int(const IrAttr *v, int64_t *out)
{
  if (v && v->kind == IR_AT_INT) {
    *out = v->u.i;
    return true;
  }
  return v && v->kind == IR_AT_PRIM && ir_prim_is_int(v->u.prim, out);
}

/* var <op> c or c <op> var (<=, <, >=, >), and conjunctions of them. */
static void
bound_from_cond(MpFunc *F, const IrPrimExpr *c)
{
  if (c->kind == IR_PE_AND) {
    bound_from_cond(F, c->u.bin.a);
    bound_from_cond(F, c->u.bin.b);
    return;
  }
  if (c->kind < IR_PE_LT || c->kind > IR_PE_GE)
    return;
  const IrPrimExpr *x = c->u.bin.a, *y = c->u.bin.b;
  IrPrimKind k = c->kind;
  int64_t v;
  if (x->kind != IR_PE_VAR) { /* c op var: mirror it */
    const IrPrimExpr *t = x;
    x = y;
    y = t;
    k = k == IR_PE_LT ? IR_PE_GT : k == IR_PE_LE ? IR_PE_GE : k == IR_PE_GT ? IR_PE_LT : IR_PE_LE;
  }
  if (x->kind != IR_PE_VAR || !ir_prim_is_int(y, &v))
    return;
  if (k == IR_PE_LE || k == IR_PE_LT)
    ir_arith_bound(F->arith, x, INT64_MIN, k == IR_PE_LT ? v - 1 : v);
  else
    ir_arith_bound(F->arith, x, k == IR_PE_GT ? v + 1 : v, INT64_MAX);
}

/* R.assert_op preconditions before the first allocation of the body. */
static void
bounds_from_asserts(MpFunc *F)
{
  const IrExpr *body = F->f->body;
  for (int i = 0; i < body->u.seq.nblocks; i++)
    for (int j = 0; j < body->u.seq.blocks[i].n; j++) {
      const IrExpr *v = body->u.seq.blocks[i].bindings[j].value;
      if (v->kind != IR_EX_CALL || v->u.call.kind != IR_CALL_OP)
        continue;
      IrOpId id = v->u.call.op->id;
      if (id == IR_OP_MEMORY_ALLOC_STORAGE || id == IR_OP_MEMORY_ALLOC_TENSOR ||
          id == IR_OP_BUILTIN_ALLOC_TENSOR)
        return;
      if (id == IR_OP_ASSERT_OP && v->u.call.nargs > 0 && v->u.call.args[0]->kind == IR_EX_PRIM)
        bound_from_cond(F, v->u.call.args[0]->u.prim);
    }
}

/* var <= bound, assumed by the plan and checked at run time. */
static void
assume_upper(MpFunc *F, const IrPrimExpr *var, int64_t bound, const char *from)
{
  ir_arith_bound(F->arith, var, INT64_MIN, bound);
  IrPrimExpr *v = (IrPrimExpr *)var;
  IrPrimExpr *cond = ir_prim_bin(F->ctx, IR_PE_LE, v, ir_prim_int(F->ctx, var->dtype, bound));
  check_add(F, cond,
            ir_printf(F->ctx, "the plan of '%s' assumes %s <= %lld (%s)", F->fname, var->u.var,
                      (long long)bound, from),
            F->f->loc);
}

void
mp_func_bounds(MpFunc *F)
{
  IrVec vars = {0};
  ir_arith_bound_function(F->arith, F->f);
  for (int i = 0; i < F->f->nparams; i++)
    collect_sinfo_vars(F->f->params[i]->sinfo, &vars);
  collect_sinfo_vars(F->f->ret, &vars);
  collect_seq_vars(F->f->body, &vars);
  const IrAttr *lower = ir_attr_get(F->f->attrs, "tir_var_lower_bound");
  const CfgOptions *cfg = F->cfg;
  for (int i = 0; i < vars.len; i++) {
    const IrPrimExpr *var = vars.items[i];
    int64_t lo;
    if (attr_int(ir_attr_get(lower, var->u.var), &lo))
      ir_arith_bound(F->arith, var, lo, INT64_MAX);
    for (int k = 0; k < cfg->memplan.nupper_bounds; k++)
      if (strcmp(cfg->memplan.upper_bounds[k].name, var->u.var) == 0)
        assume_upper(F, var, cfg->memplan.upper_bounds[k].bound, "upper_bound in the configuration");
  }
  bounds_from_asserts(F);
  for (int i = 0; cfg->memplan.default_upper_bound > 0 && i < vars.len; i++) {
    int64_t lo, hi;
    if (!ir_arith_range(F->arith, vars.items[i], &lo, &hi) || hi == INT64_MAX)
      assume_upper(F, vars.items[i], cfg->memplan.default_upper_bound,
                   "default_upper_bound in the configuration");
  }
  F->vars = vars;
}

/* --- does the tensor fit? -------------------------------------------- */

/* Terms of a canonical sum (left-associated + and -, "x * k" terms). */
typedef struct {
  IrPrimExpr *atom[16]; /* NULL for the constant */
  int64_t coef[16];
  int n;
} Terms;

static bool
split_terms(const IrPrimExpr *e, int64_t sign, Terms *t)
{
  if (e->kind == IR_PE_ADD || e->kind == IR_PE_SUB)
    return split_terms(e->u.bin.a, sign, t) &&
           split_terms(e->u.bin.b, e->kind == IR_PE_SUB ? -sign : sign, t);
  if (t->n == 16)
    return false;
  int64_t k = 1, c;
  IrPrimExpr *atom = (IrPrimExpr *)e;
  if (ir_prim_is_int(e, &c)) {
    k = c;
    atom = NULL;
  } else if (e->kind == IR_PE_MUL && ir_prim_is_int(e->u.bin.b, &c)) {
    k = c;
    atom = e->u.bin.a;
  }
  if (k == INT64_MIN)
    return false;
  t->atom[t->n] = atom;
  t->coef[t->n++] = sign * k;
  return true;
}

static int64_t
gcd(int64_t a, int64_t b)
{
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    int64_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

static int64_t
floor_div(int64_t a, int64_t b)
{
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* need <= have as a readable condition: the symbolic terms of
 * need - have on the left divided by their common factor g, the constant
 * on the right rounded down (sum g*k_i*x_i <= c  <=>  sum k_i*x_i <= c / g). */
static IrPrimExpr *
fit_condition(MpFunc *F, IrPrimExpr *need, IrPrimExpr *have)
{
  IrCtx *ctx = F->ctx;
  IrPrimExpr *d = ir_arith_simplify(F->arith, ir_prim_bin(ctx, IR_PE_SUB, need, have));
  Terms t = {0};
  int64_t c = 0, g = 0;
  if (!split_terms(d, 1, &t))
    return ir_prim_bin(ctx, IR_PE_LE, ir_arith_simplify(F->arith, need),
                       ir_arith_simplify(F->arith, have));
  for (int i = 0; i < t.n; i++)
    if (t.atom[i])
      g = gcd(g, t.coef[i]);
    else
      c -= t.coef[i];
  IrPrimExpr *lhs = NULL;
  for (int i = 0; i < t.n; i++) {
    if (!t.atom[i])
      continue;
    IrPrimExpr *term = t.atom[i];
    if (t.coef[i] / g != 1)
      term = ir_prim_bin(ctx, IR_PE_MUL, term, ir_prim_int(ctx, IR_I64, t.coef[i] / g));
    lhs = lhs ? ir_prim_bin(ctx, IR_PE_ADD, lhs, term) : term;
  }
  if (!lhs || g == 0)
    return ir_prim_bin(ctx, IR_PE_LE, ir_prim_int(ctx, IR_I64, 0), ir_prim_int(ctx, IR_I64, c));
  lhs = ir_arith_simplify(F->arith, lhs);
  return ir_prim_bin(ctx, IR_PE_LE, lhs, ir_prim_int(ctx, IR_I64, floor_div(c, g)));
}

/* "m * 4 bytes (at most 4096)" or "64 bytes". */
static const char *
bytes_text(MpFunc *F, IrPrimExpr *e)
{
  int64_t v, lo, hi;
  IrPrimExpr *s = ir_arith_simplify(F->arith, e);
  if (ir_prim_is_int(s, &v))
    return ir_printf(F->ctx, "%lld bytes", (long long)v);
  if (ir_arith_range(F->arith, s, &lo, &hi))
    return ir_printf(F->ctx, "%s bytes (at most %lld)", prim_text(F->ctx, s), (long long)hi);
  return ir_printf(F->ctx, "%s bytes", prim_text(F->ctx, s));
}

void
mp_check_alloc(MpFunc *F, const IrBinding *b, int s, const IrExpr *call)
{
  const IrExpr *offset = call->u.call.args[1], *shape = call->u.call.args[2];
  const IrExpr *dtype = call->u.call.args[3];
  if (offset->kind != IR_EX_PRIM || shape->kind != IR_EX_SHAPE || dtype->kind != IR_EX_DTYPE) {
    ir_error(F->ctx, b->loc, "in function '%s', binding '%s': alloc_tensor needs a literal offset, shape and dtype",
             F->fname, mp_binding_name(b));
    F->failed = true;
    return;
  }
  IrCtx *ctx = F->ctx;
  IrPrimExpr *tensor = mp_shape_bytes(ctx, shape->u.shape.values, shape->u.shape.n,
                                      ir_dtype_bytes(dtype->u.dtype));
  IrPrimExpr *off = offset->u.prim;
  if (!ir_dtype_eq(off->dtype, IR_I64))
    off = ir_prim_cast(ctx, IR_I64, off);
  IrPrimExpr *need = ir_prim_bin(ctx, IR_PE_ADD, off, tensor);
  IrPrimExpr *have = F->storages[s].bytes;
  IrProof p = ir_arith_prove(F->arith, ir_prim_bin(ctx, IR_PE_LE, need, have));
  if (p == IR_PROVE_TRUE)
    return;
  int64_t o = 0;
  const char *at = ir_prim_is_int(off, &o) && o == 0
                       ? ""
                       : ir_printf(ctx, " at offset %s", prim_text(ctx, off));
  const char *what = ir_printf(ctx, "tensor of %s%s", bytes_text(F, tensor), at);
  const char *in = ir_printf(ctx, "storage of %s", bytes_text(F, have));
  if (p == IR_PROVE_FALSE) {
    ir_error(ctx, b->loc, "in function '%s', binding '%s': %s never fits in %s", F->fname,
             mp_binding_name(b), what, in);
    F->failed = true;
    return;
  }
  check_add(F, fit_condition(F, need, have),
            ir_printf(ctx, "in function '%s', binding '%s': %s in %s", F->fname, mp_binding_name(b),
                      what, in),
            b->loc);
}
