/*
 * arith.c - symbolic integer arithmetic: variable bounds, and the public
 * questions asked of them (simplify, range, prove).
 *
 * The memory planner asks whether "tensor bytes <= storage bytes" holds
 * always, never, or depending on the input.  prove() moves both sides of a
 * comparison to one side, takes the canonical polynomial of the difference
 * (arith_simplify.c) and bounds it (arith_range.c).  When plain interval
 * bounds do not decide, it relaxes the polynomial with facts that hold for
 * every input: min(x, y) <= x and <= y, max(x, y) >= x and >= y,
 * x - k + 1 <= k * floordiv(x, k) <= x and floormod(x, k) = x -
 * k * floordiv(x, k) for k > 0; so min(n, 16) - n <= 0 is proven though
 * neither side alone is bounded.
 *
 * Key idea: every step is sound for mathematical integers, and any int64
 * overflow drops the bound, so TRUE or FALSE is only answered when it is
 * certain under the recorded bounds; everything else is UNKNOWN.
 */
#include <stdint.h>
#include <string.h>

#include "arith_int.h"

enum {
  RELAX_DEPTH = 2, /* facts combined in one proof */
};

IrArith *
ir_arith_new(IrCtx *ctx)
{
  IrArith *a = ir_alloc(ctx, sizeof *a);
  a->ctx = ctx;
  ir_map_init_arena(&a->memo, ctx); /* an IrArith has no free: it lives with ctx */
  return a;
}

/* --- memo ------------------------------------------------------------- */

bool
ir_arith_memo_get(const IrArith *a, const IrPrimExpr *e, ArithMemo *out)
{
  const ArithMemo *m = ir_map_get(&a->memo, e);
  if (m)
    *out = *m;
  return m != NULL;
}

/* The memo of e, created empty when absent. */
static ArithMemo *
memo_entry(IrArith *a, const IrPrimExpr *e)
{
  void **slot = ir_map_slot(&a->memo, e);
  if (!*slot)
    *slot = ir_alloc(a->ctx, sizeof(ArithMemo));
  return *slot;
}

void
ir_arith_memo_put_poly(IrArith *a, const IrPrimExpr *e, const Poly *p)
{
  ArithMemo *m = memo_entry(a, e);
  m->poly = *p;
  m->has_poly = true;
}

void
ir_arith_memo_put_range(IrArith *a, const IrPrimExpr *e, Interval r)
{
  ArithMemo *m = memo_entry(a, e);
  m->range = r;
  m->has_range = true;
}

/* --- bounds ------------------------------------------------------------- */

/* Facts accumulate: a second bound of the same var is intersected with the
 * first.  Contradictory bounds are kept and read as "no information". */
void
ir_arith_bound(IrArith *a, const IrPrimExpr *var, int64_t lo, int64_t hi)
{
  /* what was derived may change; the arena reclaims the old memo with ctx */
  ir_map_init_arena(&a->memo, a->ctx);
  for (int i = 0; i < a->nvars; i++) {
    if (a->vars[i].var != var)
      continue;
    if (lo > a->vars[i].lo)
      a->vars[i].lo = lo;
    if (hi < a->vars[i].hi)
      a->vars[i].hi = hi;
    return;
  }
  if (a->nvars == a->cap) {
    int cap = a->cap ? 2 * a->cap : 8;
    ArithVarBound *v = ir_alloc(a->ctx, sizeof *v * (size_t)cap);
    if (a->nvars)
      memcpy(v, a->vars, sizeof *v * (size_t)a->nvars);
    a->vars = v;
    a->cap = cap;
  }
  a->vars[a->nvars++] = (ArithVarBound){var, lo, hi};
}

/* --- bounds from a Relax function's signature ------------------------ */

static void
push_unique(IrVec *v, const IrPrimExpr *e)
{
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == e)
      return;
  ir_vec_push(v, (void *)e);
}

/* The symbolic vars of a signature's struct info into vars, and those that
 * are a whole dim of a tensor or shape (hence >= 0) into dims. */
static void
collect_sinfo(const IrSInfo *s, IrVec *vars, IrVec *dims)
{
  if (!s)
    return;
  IrPrimExpr **values = NULL;
  int n = 0;
  if (s->kind == IR_SI_TENSOR) {
    values = s->u.tensor.shape;
    n = s->u.tensor.ndim;
  } else if (s->kind == IR_SI_SHAPE) {
    values = s->u.shape.values;
    n = s->u.shape.ndim;
  } else if (s->kind == IR_SI_PRIM) {
    ir_prim_expr_vars(s->u.prim.value, vars);
  } else if (s->kind == IR_SI_TUPLE) {
    for (int i = 0; i < s->u.tuple.n; i++)
      collect_sinfo(s->u.tuple.fields[i], vars, dims);
  }
  for (int i = 0; values && i < n; i++) {
    ir_prim_expr_vars(values[i], vars);
    if (values[i]->kind == IR_PE_VAR)
      push_unique(dims, values[i]);
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

static bool
listed(const IrAttr *list, IrSym name)
{
  if (!list || list->kind != IR_AT_LIST)
    return false;
  for (int i = 0; i < list->u.list.n; i++) {
    const IrAttr *item = list->u.list.items[i];
    if (item->kind == IR_AT_STR && strcmp(item->u.s, name) == 0)
      return true;
  }
  return false;
}

/* Bounds of one signature var.  As in TVM's StaticPlanBlockMemory
 * (SetTIRVarUpperBound), "tir_var_upper_bound": {"n": U} binds n to the range
 * with min 0 and extent U + 1: 0 <= n <= U, the bound inclusive; U must be a
 * positive integer (an error otherwise, and the entry is ignored).
 * "tir_non_negative_var": ["n"] gives n >= 0. */
static void
bound_signature_var(IrArith *a, const IrFunction *f, const IrPrimExpr *var, bool is_dim)
{
  const IrAttr *upper = ir_attr_get(ir_attr_get(f->attrs, "tir_var_upper_bound"), var->u.var);
  int64_t u;
  if (upper && attr_int(upper, &u) && u > 0) {
    ir_arith_bound(a, var, 0, u);
  } else if (upper) {
    ir_error(a->ctx, f->loc, "tir_var_upper_bound of '%s' must be a positive integer", var->u.var);
  }
  if (is_dim || listed(ir_attr_get(f->attrs, "tir_non_negative_var"), var->u.var))
    ir_arith_bound(a, var, 0, INT64_MAX);
}

/* The dims of a tensor or shape struct info (*n), or NULL. */
static IrPrimExpr **
sinfo_dims(const IrSInfo *s, int *n)
{
  *n = 0;
  if (s && s->kind == IR_SI_TENSOR && s->u.tensor.shape) {
    *n = s->u.tensor.ndim;
    return s->u.tensor.shape;
  }
  if (s && s->kind == IR_SI_SHAPE && s->u.shape.values) {
    *n = s->u.shape.ndim;
    return s->u.shape.values;
  }
  return NULL;
}

/* A var that an R.match_cast of seq defines (a bare dim of the pattern,
 * not a parameter's) takes the value's dim at its first place, so it lies
 * in that dim's range; its other places are checks, not facts.  A value
 * whose dims are unknown (R.tensor_to_shape's: tensor data) gives the var
 * the range tir_var_upper_bound states, checked where the var is defined
 * (the interpreter and the generated C).  params collects the vars bound
 * so far. */
static void
bound_match_casts(IrArith *a, const IrFunction *f, const IrExpr *seq, IrVec *params)
{
  for (int i = 0; seq && i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++) {
      const IrBinding *b = &seq->u.seq.blocks[i].bindings[j];
      if (b->value && b->value->kind == IR_EX_IF) {
        bound_match_casts(a, f, b->value->u.branch.then_, params);
        bound_match_casts(a, f, b->value->u.branch.else_, params);
      }
      int nw, nh;
      IrPrimExpr **want = b->cast ? sinfo_dims(b->cast, &nw) : NULL;
      IrPrimExpr **have = want ? sinfo_dims(b->value->sinfo, &nh) : NULL;
      for (int d = 0; want && d < nw && (!have || d < nh); d++) {
        bool param = false; /* or bound by an earlier place: only the first defines it */
        for (int k = 0; k < params->len; k++)
          param = param || params->items[k] == want[d];
        if (!param && want[d]->kind == IR_PE_VAR)
          ir_vec_push(params, want[d]);
        int64_t lo, hi;
        if (want[d]->kind != IR_PE_VAR || param)
          continue;
        if (have && ir_arith_range(a, have[d], &lo, &hi))
          ir_arith_bound(a, want[d], lo, hi);
        else if (!have && b->cast->kind == IR_SI_SHAPE)
          bound_signature_var(a, f, want[d], true);
        else if (b->cast->kind == IR_SI_TENSOR) /* a tensor's dim is never negative */
          ir_arith_bound(a, want[d], 0, INT64_MAX);
      }
    }
}

/* Only vars of the signature (params and return annotation) are bounded
 * by the attributes, matched by name, as TVM does; a var an R.match_cast
 * defines by the range of the value's dim. */
void
ir_arith_bound_function(IrArith *a, const IrFunction *f)
{
  IrVec vars = {0}, dims = {0};
  for (int i = 0; i < f->nparams; i++)
    collect_sinfo(f->params[i]->sinfo, &vars, &dims);
  IrVec params = {0};
  for (int i = 0; i < vars.len; i++)
    ir_vec_push(&params, vars.items[i]);
  collect_sinfo(f->ret, &vars, &dims);
  for (int i = 0; i < vars.len; i++) {
    bool is_dim = false;
    for (int j = 0; j < dims.len; j++)
      is_dim |= dims.items[j] == vars.items[i];
    bound_signature_var(a, f, vars.items[i], is_dim);
  }
  bound_match_casts(a, f, f->body, &params);
  ir_vec_free(&params);
  ir_vec_free(&vars);
  ir_vec_free(&dims);
}

/* --- bounds with relaxation ------------------------------------------ */

/* p <= q / scale for every input. */
typedef struct {
  Poly q;
  int64_t scale; /* > 0 */
} Relaxed;

/* p without term i, in order. */
static Poly
poly_without(IrCtx *ctx, const Poly *p, int i)
{
  Poly r = {ir_alloc(ctx, sizeof(Term) * (size_t)p->n), 0};
  for (int j = 0; j < p->n; j++)
    if (j != i)
      r.terms[r.n++] = p->terms[j];
  return r;
}

/* rest + c * x: false on overflow. */
static bool
add_scaled(IrCtx *ctx, const Poly *rest, const Poly *x, int64_t c, Poly *out)
{
  Poly cx;
  return ir_arith_poly_scale(ctx, x, c, &cx) && ir_arith_poly_add(ctx, rest, &cx, out);
}

/* Upper bounds of p obtained by replacing term i (c * atom) with a larger or
 * equal expression; returns how many were written to out. */
static int
relaxations(IrArith *a, const Poly *p, int i, Relaxed out[2])
{
  const Term *t = &p->terms[i];
  if (t->nfactors != 1 || t->factors[0].degree != 1)
    return 0;
  const IrPrimExpr *atom = t->factors[0].atom;
  int64_t c = t->coef, k;
  Poly rest = poly_without(a->ctx, p, i), x, y, krest;
  int n = 0;
  if ((atom->kind == IR_PE_MIN && c > 0) || (atom->kind == IR_PE_MAX && c < 0)) {
    for (int side = 0; side < 2; side++) {
      x = ir_arith_poly_of(a, side ? atom->u.bin.b : atom->u.bin.a);
      if (add_scaled(a->ctx, &rest, &x, c, &out[n].q))
        out[n++].scale = 1;
    }
    return n;
  }
  if (atom->kind != IR_PE_FLOORDIV && atom->kind != IR_PE_FLOORMOD)
    return 0;
  if (!ir_prim_is_int(atom->u.bin.b, &k) || k <= 0)
    return 0;
  x = ir_arith_poly_of(a, atom->u.bin.a);
  if (atom->kind == IR_PE_FLOORMOD) { /* floormod(x, k) = x - k * floordiv(x, k), exactly */
    IrPrimExpr *q = ir_prim_bin(a->ctx, IR_PE_FLOORDIV, atom->u.bin.a, atom->u.bin.b);
    Poly fq = ir_arith_poly_of(a, q), kq;
    if (ir_arith_poly_scale(a->ctx, &fq, -k, &kq) && ir_arith_poly_add(a->ctx, &x, &kq, &y) &&
        add_scaled(a->ctx, &rest, &y, c, &out[0].q)) {
      out[0].scale = 1;
      return 1;
    }
    return 0;
  }
  /* k * floordiv(x, k) lies in [x - k + 1, x]; so k*p <= k*rest + c*(x or x-k+1) */
  Poly shift = ir_arith_poly_const(a->ctx, 1 - k);
  if (c < 0 && !ir_arith_poly_add(a->ctx, &x, &shift, &x))
    return 0;
  if (!ir_arith_poly_scale(a->ctx, &rest, k, &krest) ||
      !add_scaled(a->ctx, &krest, &x, c, &out[0].q))
    return 0;
  out[0].scale = k;
  return 1;
}

/* The least upper bound of p found by interval bounds and up to depth
 * relaxations; false when none is finite. */
static bool
upper_bound(IrArith *a, const Poly *p, int depth, int64_t *hi)
{
  Interval r = ir_arith_range_poly(a, p);
  bool found = r.has_hi;
  *hi = r.hi;
  for (int i = 0; depth > 0 && i < p->n; i++) {
    Relaxed alt[2];
    int n = relaxations(a, p, i, alt);
    for (int j = 0; j < n; j++) {
      int64_t h;
      if (!upper_bound(a, &alt[j].q, depth - 1, &h))
        continue;
      h = ir_arith_floordiv(h, alt[j].scale);
      if (!found || h < *hi)
        *hi = h;
      found = true;
    }
  }
  return found;
}

/* Bounds of p on both sides (lower bound as minus the upper bound of -p). */
static Interval
bounds(IrArith *a, const Poly *p)
{
  Interval r = {0, 0, false, false};
  Poly neg;
  int64_t nlo;
  r.has_hi = upper_bound(a, p, RELAX_DEPTH, &r.hi);
  if (ir_arith_poly_scale(a->ctx, p, -1, &neg) && upper_bound(a, &neg, RELAX_DEPTH, &nlo) &&
      nlo != INT64_MIN) {
    r.lo = -nlo;
    r.has_lo = true;
  }
  return r;
}

IrProof
ir_arith_poly_le_zero(IrArith *a, const Poly *p, bool strict)
{
  Interval r = bounds(a, p);
  if (r.has_hi && (strict ? r.hi < 0 : r.hi <= 0))
    return IR_PROVE_TRUE;
  if (r.has_lo && (strict ? r.lo >= 0 : r.lo > 0))
    return IR_PROVE_FALSE;
  return IR_PROVE_UNKNOWN;
}

/* --- public questions ----------------------------------------------- */

static bool
is_integer_like(IrDType t)
{
  return t.lanes == 1 && (t.code == IR_DT_INT || t.code == IR_DT_UINT || t.code == IR_DT_BOOL);
}

static IrProof
negate(IrProof p)
{
  return p == IR_PROVE_TRUE ? IR_PROVE_FALSE : p == IR_PROVE_FALSE ? IR_PROVE_TRUE : p;
}

/* a OP b decided through d = a - b (or b - a for > and >=). */
static IrProof
prove_compare(IrArith *a, const IrPrimExpr *e)
{
  const IrPrimExpr *x = e->u.bin.a, *y = e->u.bin.b;
  if (!is_integer_like(x->dtype) || !is_integer_like(y->dtype))
    return IR_PROVE_UNKNOWN;
  bool flip = e->kind == IR_PE_GT || e->kind == IR_PE_GE;
  Poly px = ir_arith_poly_of(a, flip ? y : x), py = ir_arith_poly_of(a, flip ? x : y), d;
  if (!ir_arith_poly_sub(a->ctx, &px, &py, &d))
    return IR_PROVE_UNKNOWN;
  switch (e->kind) {
  case IR_PE_LE:
  case IR_PE_GE:
    return ir_arith_poly_le_zero(a, &d, false);
  case IR_PE_LT:
  case IR_PE_GT:
    return ir_arith_poly_le_zero(a, &d, true);
  default:
    break;
  }
  Interval r = bounds(a, &d);
  IrProof eq = IR_PROVE_UNKNOWN;
  if (d.n == 0 || (r.has_lo && r.has_hi && r.lo == 0 && r.hi == 0))
    eq = IR_PROVE_TRUE;
  else if ((r.has_lo && r.lo > 0) || (r.has_hi && r.hi < 0))
    eq = IR_PROVE_FALSE;
  return e->kind == IR_PE_EQ ? eq : negate(eq);
}

IrProof
ir_arith_prove(IrArith *a, const IrPrimExpr *cond)
{
  IrProof x, y;
  switch (cond->kind) {
  case IR_PE_INT:
    return cond->u.int_value ? IR_PROVE_TRUE : IR_PROVE_FALSE;
  case IR_PE_EQ:
  case IR_PE_NE:
  case IR_PE_LT:
  case IR_PE_LE:
  case IR_PE_GT:
  case IR_PE_GE:
    return prove_compare(a, cond);
  case IR_PE_NOT:
    return negate(ir_arith_prove(a, cond->u.bin.a));
  case IR_PE_AND:
    x = ir_arith_prove(a, cond->u.bin.a);
    y = ir_arith_prove(a, cond->u.bin.b);
    if (x == IR_PROVE_FALSE || y == IR_PROVE_FALSE)
      return IR_PROVE_FALSE;
    return x == IR_PROVE_TRUE && y == IR_PROVE_TRUE ? IR_PROVE_TRUE : IR_PROVE_UNKNOWN;
  case IR_PE_OR:
    x = ir_arith_prove(a, cond->u.bin.a);
    y = ir_arith_prove(a, cond->u.bin.b);
    if (x == IR_PROVE_TRUE || y == IR_PROVE_TRUE)
      return IR_PROVE_TRUE;
    return x == IR_PROVE_FALSE && y == IR_PROVE_FALSE ? IR_PROVE_FALSE : IR_PROVE_UNKNOWN;
  default:
    return IR_PROVE_UNKNOWN;
  }
}

/* A condition: a literal when proven, else the same test on simplified
 * operands. */
static IrPrimExpr *
simplify_condition(IrArith *a, const IrPrimExpr *e)
{
  IrProof p = ir_arith_prove(a, e);
  if (p != IR_PROVE_UNKNOWN)
    return ir_prim_int(a->ctx, IR_BOOL, p == IR_PROVE_TRUE);
  IrPrimExpr *x = ir_arith_simplify(a, e->u.bin.a);
  IrPrimExpr *y = e->u.bin.b ? ir_arith_simplify(a, e->u.bin.b) : NULL;
  if (x == e->u.bin.a && y == e->u.bin.b)
    return (IrPrimExpr *)e;
  return ir_prim_bin(a->ctx, e->kind, x, y);
}

IrPrimExpr *
ir_arith_simplify(IrArith *a, const IrPrimExpr *e)
{
  if (ir_arith_is_int_type(e->dtype)) {
    Poly p = ir_arith_poly_of(a, e);
    return ir_arith_poly_to_expr(a->ctx, &p, e->dtype);
  }
  if (e->kind >= IR_PE_EQ && e->kind <= IR_PE_NOT)
    return simplify_condition(a, e);
  return (IrPrimExpr *)e;
}

bool
ir_arith_range(IrArith *a, const IrPrimExpr *e, int64_t *lo, int64_t *hi)
{
  Interval r;
  if (ir_arith_is_int_type(e->dtype)) {
    Poly p = ir_arith_poly_of(a, e);
    r = bounds(a, &p);
  } else {
    r = ir_arith_range_expr(a, e);
  }
  if (!r.has_lo || !r.has_hi)
    return false;
  *lo = r.lo;
  *hi = r.hi;
  return true;
}
