/*
 * tir_build.c - the builder that legalize hooks use to make T.prim_funcs
 * and the R.call_tir that calls them (see tir_build.h for the API).
 *
 * Key idea: the prim_func's parameters say everything about shapes.  Each
 * Relax symbolic var met in a buffer shape becomes one TIR var of the new
 * function; an input buffer whose shape has that var as a whole dim binds it
 * (T.match_buffer), and any var no input binds that way becomes a trailing
 * int64 scalar parameter, passed by the call's tir_vars.  Statements are
 * plain loops and stores, which every later stage reads without blocks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tir_build.h"

/* --- var substitution ------------------------------------------------------- */

IrPrimExpr *
op_var_map_get(const OpVarMap *m, const IrPrimExpr *var)
{
  for (int i = 0; i < m->from.len; i++)
    if (m->from.items[i] == var)
      return m->to.items[i];
  return NULL;
}

void
op_var_map_put(OpVarMap *m, const IrPrimExpr *var, IrPrimExpr *to)
{
  for (int i = 0; i < m->from.len; i++)
    if (m->from.items[i] == var) {
      m->to.items[i] = to;
      return;
    }
  ir_vec_push(&m->from, (void *)var);
  ir_vec_push(&m->to, to);
}

void
op_var_map_free(OpVarMap *m)
{
  ir_vec_free(&m->from);
  ir_vec_free(&m->to);
}

/* The operand slots of e (at most three, or the call's or load's list). */
static IrPrimExpr **
operands(IrPrimExpr *e, int *n)
{
  switch (e->kind) {
  case IR_PE_INT:
  case IR_PE_FLOAT:
  case IR_PE_STR:
  case IR_PE_VAR:
    *n = 0;
    return NULL;
  case IR_PE_LOAD:
    *n = e->u.load.n;
    return e->u.load.indices;
  case IR_PE_CALL:
    *n = e->u.call.n;
    return e->u.call.args;
  case IR_PE_SELECT:
    *n = 3;
    return &e->u.select.cond; /* cond, a, b are consecutive */
  case IR_PE_NOT:
  case IR_PE_CAST:
    *n = 1;
    return &e->u.bin.a;
  default:
    *n = 2;
    return &e->u.bin.a;
  }
}

IrPrimExpr *
op_prim_subst(IrCtx *ctx, IrPrimExpr *e, OpVarMap *m, bool fresh)
{
  if (!e)
    return e;
  if (e->kind == IR_PE_VAR) {
    IrPrimExpr *to = op_var_map_get(m, e);
    if (!to && fresh) {
      to = ir_prim_var(ctx, e->u.var, e->dtype);
      op_var_map_put(m, e, to);
    }
    return to ? to : e;
  }
  int n;
  IrPrimExpr **ops = operands(e, &n);
  IrPrimExpr *copy = NULL;
  for (int i = 0; i < n; i++) {
    IrPrimExpr *x = op_prim_subst(ctx, ops[i], m, fresh);
    if (x == ops[i])
      continue;
    if (!copy) {
      copy = ir_alloc(ctx, sizeof *copy);
      *copy = *e;
      if (e->kind == IR_PE_LOAD || e->kind == IR_PE_CALL) {
        IrPrimExpr **list = ir_alloc(ctx, (size_t)n * sizeof *list);
        memcpy(list, ops, (size_t)n * sizeof *list);
        *(e->kind == IR_PE_LOAD ? &copy->u.load.indices : &copy->u.call.args) = list;
      }
    }
    operands(copy, &n)[i] = x;
  }
  return copy ? copy : e;
}

bool
op_prim_vars_mapped(const IrPrimExpr *e, const OpVarMap *m)
{
  if (!e)
    return true;
  if (e->kind == IR_PE_VAR)
    return op_var_map_get(m, e) != NULL;
  int n;
  IrPrimExpr **ops = operands((IrPrimExpr *)e, &n);
  for (int i = 0; i < n; i++)
    if (!op_prim_vars_mapped(ops[i], m))
      return false;
  return true;
}

/* --- buffers -------------------------------------------------------------------- */

void
op_prim_begin(OpLegalize *lz, OpPrim *p, const char *name_hint)
{
  memset(p, 0, sizeof *p);
  p->lz = lz;
  p->name_hint = name_hint;
}

void
op_prim_abort(OpPrim *p)
{
  op_var_map_free(&p->syms);
  ir_vec_free(&p->inputs);
  ir_vec_free(&p->args);
  ir_vec_free(&p->outputs);
  ir_vec_free(&p->allocs);
  ir_vec_free(&p->body);
}

IrExpr *
op_prim_give_up(OpPrim *p)
{
  op_prim_abort(p);
  return NULL;
}

bool
op_prim_open(OpLegalize *lz, OpPrim *p, const char *name_hint, const IrExpr *call,
             const IrSInfo *result, const OpPrimParam *params, int n)
{
  op_prim_begin(lz, p, name_hint);
  bool ok = call->u.call.nargs >= n - 1;
  for (int k = 0; ok && k < n - 1; k++)
    ok = (*params[k].buf = op_prim_input(p, call->u.call.args[k], params[k].name)) != NULL;
  if (ok)
    ok = (*params[n - 1].buf = op_prim_output(p, result, params[n - 1].name)) != NULL;
  if (!ok)
    op_prim_abort(p);
  return ok;
}

IrPrimExpr *
op_prim_dim(OpPrim *p, IrPrimExpr *relax_dim)
{
  return op_prim_subst(p->lz->ctx, relax_dim, &p->syms, true);
}

static IrBuffer *
buffer_new(OpPrim *p, IrDType t, IrPrimExpr **shape, int ndim, const char *name)
{
  IrCtx *ctx = p->lz->ctx;
  IrBuffer *b = ir_alloc(ctx, sizeof *b);
  b->name = ir_sym(ctx, name);
  b->dtype = t;
  b->ndim = ndim;
  b->shape = ir_alloc(ctx, (size_t)(ndim ? ndim : 1) * sizeof *b->shape);
  for (int i = 0; i < ndim; i++)
    b->shape[i] = op_prim_dim(p, shape[i]);
  b->scope = ir_sym(ctx, "global");
  return b;
}

/* Is s a tensor whose shape and dtype are known? */
static bool
known_tensor(const IrSInfo *s)
{
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.shape && s->u.tensor.ndim >= 0 &&
         s->u.tensor.dtype.code != IR_DT_VOID && ir_sinfo_shape_len(s) == s->u.tensor.ndim;
}

IrBuffer *
op_prim_input(OpPrim *p, const IrExpr *arg, const char *name)
{
  const IrSInfo *s = arg ? arg->sinfo : NULL;
  if (!known_tensor(s))
    return NULL;
  IrBuffer *b = buffer_new(p, s->u.tensor.dtype, s->u.tensor.shape, s->u.tensor.ndim, name);
  ir_vec_push(&p->inputs, b);
  ir_vec_push(&p->args, (void *)arg);
  return b;
}

IrBuffer *
op_prim_output(OpPrim *p, const IrSInfo *s, const char *name)
{
  if (!known_tensor(s))
    return NULL;
  IrBuffer *b = buffer_new(p, s->u.tensor.dtype, s->u.tensor.shape, s->u.tensor.ndim, name);
  ir_vec_push(&p->outputs, b);
  return b;
}

IrBuffer *
op_prim_alloc(OpPrim *p, IrDType t, IrPrimExpr **shape, int ndim, const char *name)
{
  IrBuffer *b = buffer_new(p, t, shape, ndim, name);
  ir_vec_push(&p->allocs, b);
  return b;
}

IrPrimExpr *
op_prim_i64(IrCtx *ctx, IrPrimExpr *e)
{
  int64_t v;
  if (ir_prim_is_int(e, &v))
    return ir_prim_int(ctx, IR_I64, v);
  return ir_dtype_eq(e->dtype, IR_I64) ? e : ir_prim_cast(ctx, IR_I64, e);
}

/* x as unsigned u: a literal is its value modulo 2^bits (a uint literal is
 * never negative), anything else a cast. */
static IrPrimExpr *
to_unsigned(IrCtx *ctx, IrDType u, IrPrimExpr *x)
{
  if (x->kind != IR_PE_INT)
    return ir_dtype_eq(x->dtype, u) ? x : ir_prim_cast(ctx, u, x);
  uint64_t v = (uint64_t)x->u.int_value;
  return ir_prim_int(ctx, u, (int64_t)(u.bits < 64 ? v & (((uint64_t)1 << u.bits) - 1) : v));
}

/* A signed sum or product that overflows is undefined in C (UBSan reports
 * it), and so is a product of 16-bit values promoted to int, so integers
 * narrower than 64 bits compute in uint32, wider ones in uint64, and
 * convert back (two's complement, as TVM's LLVM code wraps). */
IrPrimExpr *
op_prim_wrapping(IrCtx *ctx, IrPrimKind kind, IrDType t, IrPrimExpr *a, IrPrimExpr *b)
{
  IrDType u = {IR_DT_UINT, t.bits > 32 ? 64 : 32, 1};
  if (ir_dtype_is_float(t) || t.code == IR_DT_BOOL || ir_dtype_eq(t, u))
    return ir_prim_bin(ctx, kind, a, b);
  IrPrimExpr *v = ir_prim_bin(ctx, kind, to_unsigned(ctx, u, a), to_unsigned(ctx, u, b));
  return ir_prim_cast(ctx, t, v);
}

/* --- statements ------------------------------------------------------------------ */

void
op_prim_emit(OpPrim *p, IrStmt *s)
{
  IrStmt **slot = ir_alloc(p->lz->ctx, sizeof *slot);
  *slot = s;
  ir_vec_push(&p->body, slot);
}

IrStmt **
op_prim_loop_nest(OpPrim *p, IrPrimExpr **extents, int n, IrPrimExpr ***index, IrStmt **nest)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **vars = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof *vars);
  IrStmt **slot = nest;
  for (int k = 0; k < n; k++) {
    IrDType t = extents[k]->dtype;
    char name[32];
    snprintf(name, sizeof name, "i%d", p->nloops++);
    vars[k] = ir_prim_var(ctx, ir_sym(ctx, name), t);
    IrStmt *loop = ir_stmt_new(ctx, IR_ST_FOR, p->lz->loc);
    loop->u.loop.var = vars[k];
    loop->u.loop.min = ir_prim_int(ctx, t, 0);
    loop->u.loop.extent = extents[k];
    loop->u.loop.kind = IR_FOR_SERIAL;
    *slot = loop;
    slot = &loop->u.loop.body;
  }
  *index = vars;
  return slot;
}

IrStmt **
op_prim_loops(OpPrim *p, IrPrimExpr **extents, int n, IrPrimExpr ***index)
{
  IrStmt **nest = ir_alloc(p->lz->ctx, sizeof *nest);
  IrStmt **slot = op_prim_loop_nest(p, extents, n, index, nest);
  ir_vec_push(&p->body, nest);
  return slot;
}

/* --- checks of data ------------------------------------------------------------- */

IrStmt **
op_prim_check_loops(OpPrim *p, IrPrimExpr **extents, int n, IrPrimExpr ***index, IrPrimExpr *guard)
{
  IrCtx *ctx = p->lz->ctx;
  IrStmt **nest = ir_alloc(ctx, sizeof *nest);
  IrStmt **slot = op_prim_loop_nest(p, extents, n, index, nest);
  int64_t v;
  if (guard && ir_prim_is_int(guard, &v) && !v)
    return slot; /* never runs: not emitted */
  if (guard && !ir_prim_is_int(guard, &v)) {
    IrStmt *branch = ir_stmt_new(ctx, IR_ST_IF, p->lz->loc);
    branch->u.branch.cond = guard;
    branch->u.branch.then_ = *nest;
    *nest = branch;
    if (n == 0)
      slot = &branch->u.branch.then_;
  }
  /* inserted after the checks made so far, before every other statement */
  ir_vec_push(&p->body, nest);
  for (int i = p->body.len - 1; i > p->nchecks; i--) {
    void *t = p->body.items[i];
    p->body.items[i] = p->body.items[i - 1];
    p->body.items[i - 1] = t;
  }
  p->nchecks++;
  return slot;
}

IrStmt *
op_prim_assert(OpPrim *p, IrPrimExpr *cond, const char *msg)
{
  IrCtx *ctx = p->lz->ctx;
  IrStmt *s = ir_stmt_new(ctx, IR_ST_ASSERT, p->lz->loc);
  s->u.check.cond = cond;
  s->u.check.kind = ir_sym(ctx, "RuntimeError");
  s->u.check.parts = ir_alloc(ctx, sizeof(IrSym));
  s->u.check.parts[0] = ir_sym(ctx, msg);
  s->u.check.nparts = 1;
  return s;
}

IrStmt *
op_prim_assert_index(OpPrim *p, IrPrimExpr *i, IrPrimExpr *n)
{
  IrCtx *ctx = p->lz->ctx;
  i = op_prim_i64(ctx, i);
  n = op_prim_i64(ctx, n);
  int64_t v;
  IrPrimExpr *low = ir_prim_is_int(n, &v)
                        ? ir_prim_int(ctx, IR_I64, -v)
                        : ir_prim_bin(ctx, IR_PE_SUB, ir_prim_int(ctx, IR_I64, 0), n);
  IrPrimExpr *ok = ir_prim_bin(ctx, IR_PE_AND, ir_prim_bin(ctx, IR_PE_LE, low, i),
                               ir_prim_bin(ctx, IR_PE_LT, i, n));
  return op_prim_assert(p, ok, "index out of range");
}

IrPrimExpr *
op_prim_nonempty(IrCtx *ctx, IrPrimExpr **extents, int n)
{
  IrPrimExpr *guard = NULL;
  for (int k = 0; k < n; k++) {
    int64_t v;
    if (ir_prim_is_int(extents[k], &v)) {
      if (v <= 0)
        return ir_prim_int(ctx, IR_BOOL, 0);
      continue;
    }
    IrPrimExpr *pos =
        ir_prim_bin(ctx, IR_PE_GT, extents[k], ir_prim_int(ctx, extents[k]->dtype, 0));
    guard = guard ? ir_prim_bin(ctx, IR_PE_AND, guard, pos) : pos;
  }
  return guard;
}

IrPrimExpr *
op_prim_load_bcast(OpPrim *p, IrBuffer *buf, IrPrimExpr **index, const IrBuffer *out)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **idx = ir_alloc(ctx, (size_t)(buf->ndim ? buf->ndim : 1) * sizeof *idx);
  int lead = out->ndim - buf->ndim;
  for (int k = 0; k < buf->ndim; k++) {
    IrPrimExpr *d = buf->shape[k], *o = out->shape[lead + k], *i = index[lead + k];
    IrPrimExpr *one = ir_prim_int(ctx, d->dtype.code ? d->dtype : IR_I64, 1);
    int64_t v;
    if (ir_prim_is_int(d, &v))
      idx[k] = v == 1 ? ir_prim_int(ctx, i->dtype, 0) : i; /* a literal other than 1 is o */
    else if (ir_prim_expr_equal(d, o) ||
             (p->lz->arith &&
              ir_arith_prove(p->lz->arith, ir_prim_bin(ctx, IR_PE_EQ, d, o)) == IR_PROVE_TRUE))
      idx[k] = i;
    else /* 1 or the output's: decided at run time, as the check of the call allows */
      idx[k] =
          ir_prim_select(ctx, ir_prim_bin(ctx, IR_PE_EQ, d, one), ir_prim_int(ctx, i->dtype, 0), i);
  }
  return ir_prim_load(ctx, buf, idx, buf->ndim);
}

IrPrimExpr *
op_prim_load(OpPrim *p, IrBuffer *buf, IrPrimExpr **index)
{
  return ir_prim_load(p->lz->ctx, buf, index, buf->ndim);
}

IrStmt *
op_prim_store(OpPrim *p, IrBuffer *buf, IrPrimExpr **index, IrPrimExpr *value)
{
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_STORE, p->lz->loc);
  s->u.store.buffer = buf;
  s->u.store.indices = index;
  s->u.store.n = buf->ndim;
  s->u.store.value = value;
  return s;
}

static IrPrimExpr **
one_index(OpPrim *p, IrPrimExpr *i)
{
  IrPrimExpr **idx = ir_alloc(p->lz->ctx, sizeof *idx);
  idx[0] = i;
  return idx;
}

IrPrimExpr *
op_prim_load_at(OpPrim *p, IrBuffer *buf, IrPrimExpr *i)
{
  return op_prim_load(p, buf, one_index(p, i));
}

IrStmt *
op_prim_store_at(OpPrim *p, IrBuffer *buf, IrPrimExpr *i, IrPrimExpr *value)
{
  return op_prim_store(p, buf, one_index(p, i), value);
}

IrStmt *
op_prim_kernel_stmt(OpPrim *p, const char *name, IrPrimExpr **args, int n)
{
  IrStmt *s = ir_stmt_new(p->lz->ctx, IR_ST_EVALUATE, p->lz->loc);
  s->u.eval = ir_prim_kernel_call(p->lz->ctx, name, args, n);
  return s;
}

/* --- the function and its call ------------------------------------------------------ */

/* Does an input buffer have the TIR var tvar as a whole dim (so that
 * T.match_buffer binds it)? */
static bool
bound_by_inputs(const OpPrim *p, const IrPrimExpr *tvar)
{
  for (int i = 0; i < p->inputs.len; i++) {
    const IrBuffer *b = p->inputs.items[i];
    for (int k = 0; k < b->ndim; k++)
      if (b->shape[k] == tvar)
        return true;
  }
  return false;
}

static bool
name_taken(const OpLegalize *lz, IrSym name)
{
  if (ir_module_find(lz->mod, name))
    return true;
  for (int i = 0; i < lz->new_globals->len; i++)
    if (((const IrGlobal *)lz->new_globals->items[i])->name == name)
      return true;
  return false;
}

/* The module's global names and those legalization has given: an IrNames,
 * so that naming N functions "add" costs O(N) tries, not O(N^2); and the
 * prim_funcs legalization has made, so that a call lowered to a function
 * equal to one made before calls that one (as TVM's BlockBuilder
 * deduplicates): 100,000 adds of one shape give one prim_func. */
struct OpGlobals {
  IrNames set;
  IrFuncSet made;
};

OpGlobals *
op_globals_new(const IrModule *m)
{
  OpGlobals *n = ir_xcalloc(1, sizeof *n);
  for (int i = 0; i < m->nglobals; i++)
    ir_names_add(&n->set, m->globals[i].name);
  return n;
}

void
op_globals_free(OpGlobals *n)
{
  if (!n)
    return;
  ir_names_free(&n->set);
  ir_func_set_free(&n->made);
  free(n);
}

/* hint, hint1, hint2, ...: the first name no global has. */
static IrSym
fresh_name(const OpLegalize *lz, const char *hint)
{
  if (lz->globals)
    return ir_sym(lz->ctx, ir_names_unique(&lz->globals->set, hint, ""));
  IrSym name = ir_sym(lz->ctx, hint);
  for (int k = 1; name_taken(lz, name); k++)
    name = ir_sym(lz->ctx, ir_printf(lz->ctx, "%s%d", hint, k));
  return name;
}

/* The statements in order, inside the T.alloc_buffer of every
 * intermediate buffer. */
static IrStmt *
body_stmt(OpPrim *p)
{
  IrCtx *ctx = p->lz->ctx;
  IrStmt *body;
  if (p->body.len == 1) {
    body = *(IrStmt **)p->body.items[0];
  } else {
    body = ir_stmt_new(ctx, IR_ST_SEQ, p->lz->loc);
    body->u.seq.n = p->body.len;
    body->u.seq.stmts = ir_alloc(ctx, (size_t)(p->body.len ? p->body.len : 1) * sizeof(IrStmt *));
    for (int i = 0; i < p->body.len; i++)
      body->u.seq.stmts[i] = *(IrStmt **)p->body.items[i];
  }
  for (int i = p->allocs.len - 1; i >= 0; i--) {
    IrStmt *a = ir_stmt_new(ctx, IR_ST_ALLOC, p->lz->loc);
    a->u.alloc.buffer = p->allocs.items[i];
    a->u.alloc.body = body;
    body = a;
  }
  return body;
}

/* The parameters: buffers of inputs and outputs (as handles), then a scalar
 * for each symbolic var no input binds; *tir_vars gets the Relax vars of
 * those scalars. */
static IrPrimFunc *
prim_func(OpPrim *p, IrVec *tir_vars)
{
  IrCtx *ctx = p->lz->ctx;
  IrVec params = {0};
  for (int pass = 0; pass < 2; pass++) {
    IrVec *bufs = pass ? &p->outputs : &p->inputs;
    for (int i = 0; i < bufs->len; i++) {
      IrBuffer *b = bufs->items[i];
      IrPrimParam *pp = ir_alloc(ctx, sizeof *pp);
      pp->var = ir_prim_var(ctx, b->name, IR_HANDLE);
      pp->buffer = b;
      ir_vec_push(&params, pp);
    }
  }
  for (int i = 0; i < p->syms.from.len; i++) {
    IrPrimExpr *tvar = p->syms.to.items[i];
    if (bound_by_inputs(p, tvar))
      continue;
    IrPrimParam *pp = ir_alloc(ctx, sizeof *pp);
    pp->var = tvar;
    ir_vec_push(&params, pp);
    ir_vec_push(tir_vars, p->syms.from.items[i]);
  }
  IrPrimFunc *f = ir_alloc(ctx, sizeof *f);
  f->nparams = params.len;
  f->params = ir_alloc(ctx, (size_t)(params.len ? params.len : 1) * sizeof *f->params);
  for (int i = 0; i < params.len; i++)
    f->params[i] = *(IrPrimParam *)params.items[i];
  ir_vec_free(&params);
  f->body = body_stmt(p);
  IrSym keys[2] = {ir_sym(ctx, "tir.noalias"), ir_sym(ctx, "op_pattern")};
  IrAttr *values[2] = {ir_attr_bool(ctx, true), ir_attr_int(ctx, p->pattern)};
  f->attrs = ir_attr_dict(ctx, keys, values, p->pattern ? 2 : 1);
  f->is_private = true;
  return f;
}

/* R.call_tir(gv, (args...), out_sinfo=result[, tir_vars=R.shape([...])]). */
static IrExpr *
call_tir(OpPrim *p, IrSym name, const IrExpr *call, IrSInfo *result, IrVec *tir_vars)
{
  IrCtx *ctx = p->lz->ctx;
  IrLoc loc = call->loc;
  IrExpr *gv = ir_expr_new(ctx, IR_EX_GLOBAL, loc);
  gv->u.global = name;
  int n = p->args.len;
  IrExpr *tuple = ir_expr_new(ctx, IR_EX_TUPLE, loc);
  tuple->u.tuple.n = n;
  tuple->u.tuple.items = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof(IrExpr *));
  IrSInfo **fields = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof *fields);
  for (int i = 0; i < n; i++) {
    tuple->u.tuple.items[i] = p->args.items[i];
    fields[i] = tuple->u.tuple.items[i]->sinfo;
  }
  tuple->sinfo = ir_sinfo_tuple(ctx, fields, n);
  IrExpr *args[3] = {gv, tuple, NULL};
  if (tir_vars->len > 0) {
    int nv = tir_vars->len;
    IrPrimExpr **values = (IrPrimExpr **)ir_vec_freeze(ctx, tir_vars);
    args[2] = ir_shape_expr(ctx, values, nv, loc);
  }
  IrExpr **argv = ir_alloc(ctx, sizeof args);
  memcpy(argv, args, sizeof args);
  IrExpr *e = ir_call_op(ctx, &op_def(IR_OP_CALL_TIR)->syn, argv, args[2] ? 3 : 2, NULL, loc);
  bool multi = result->kind == IR_SI_TUPLE;
  e->u.call.nsinfo_args = multi ? result->u.tuple.n : 1;
  e->u.call.sinfo_args = multi ? result->u.tuple.fields : ir_alloc(ctx, sizeof(IrSInfo *));
  if (!multi)
    e->u.call.sinfo_args[0] = result;
  e->sinfo = result;
  return e;
}

IrExpr *
op_prim_finish(OpPrim *p, const IrExpr *call, IrSInfo *result)
{
  IrVec tir_vars = {0};
  IrPrimFunc *f = prim_func(p, &tir_vars);
  IrGlobal *g = ir_alloc(p->lz->ctx, sizeof *g);
  g->kind = IR_GLOBAL_PRIM;
  g->u.prim = f;
  const IrGlobal *same = NULL;
  uint64_t hash = 0;
  if (p->lz->globals)
    same = ir_func_set_find(&p->lz->globals->made, g, &hash);
  if (same) {
    g = (IrGlobal *)same;
  } else {
    g->name = fresh_name(p->lz, p->name_hint);
    ir_vec_push(p->lz->new_globals, g);
    if (p->lz->globals)
      ir_func_set_add(&p->lz->globals->made, g, hash);
  }
  IrExpr *e = call_tir(p, g->name, call, result, &tir_vars);
  ir_vec_free(&tir_vars);
  op_prim_abort(p);
  return e;
}

/* --- dims that are data ------------------------------------------------ */

int64_t
op_dim_upper(OpLegalize *lz, IrPrimExpr *e)
{
  int64_t lo, hi, v;
  if (ir_prim_is_int(e, &v))
    return v;
  if (lz->arith && ir_arith_range(lz->arith, e, &lo, &hi) && hi != INT64_MAX)
    return hi;
  return -1;
}

static IrBinding *
new_binding(OpLegalize *lz, const char *name, IrSInfo *sinfo, IrExpr *value)
{
  IrBinding *b = ir_alloc(lz->ctx, sizeof *b);
  b->var = ir_var_new(lz->ctx, ir_sym(lz->ctx, name), sinfo, lz->dataflow, lz->loc);
  b->value = value;
  b->loc = lz->loc;
  ir_vec_push(lz->before, b);
  return b;
}

IrPrimExpr **
op_data_dims(OpLegalize *lz, IrExpr *shape_call, int n, IrPrimExpr **bounds)
{
  IrCtx *ctx = lz->ctx;
  if (!lz->before || !lz->bounds)
    return NULL;
  int64_t *hi = ir_alloc(ctx, sizeof *hi * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    if ((hi[i] = op_dim_upper(lz, bounds[i])) < 0)
      return NULL;
  const char *base = lz->binding ? lz->binding : "lv";
  IrBinding *dims = new_binding(lz, ir_printf(ctx, "%s_dims", base), shape_call->sinfo, shape_call);
  IrExpr *arg[1] = {dims->var};
  IrExpr **argv = ir_alloc(ctx, sizeof arg);
  argv[0] = arg[0];
  IrExpr *to_shape = ir_call_op(ctx, &op_def(IR_OP_TENSOR_TO_SHAPE)->syn, argv, 1, NULL, lz->loc);
  to_shape->sinfo = ir_sinfo_shape(ctx, NULL, n);
  IrBinding *shape = new_binding(lz, ir_printf(ctx, "%s_shape", base), to_shape->sinfo, to_shape);
  IrPrimExpr **vars = ir_alloc(ctx, sizeof *vars * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    vars[i] = ir_prim_var(ctx, ir_sym(ctx, ir_printf(ctx, "%s_n%d", base, i)), IR_I64);
    OpDimBound *b = ir_alloc(ctx, sizeof *b);
    *b = (OpDimBound){vars[i]->u.var, hi[i] > 0 ? hi[i] : 1};
    ir_vec_push(lz->bounds, b);
  }
  IrSInfo *cast = ir_sinfo_shape(ctx, vars, n);
  IrBinding *bound = new_binding(lz, ir_printf(ctx, "%s_shape1", base), cast, shape->var);
  bound->cast = cast;
  return vars;
}

/* A tensor of known rank and shape. */
const IrSInfo *
op_data_known_tensor(const IrExpr *e)
{
  const IrSInfo *s = e->sinfo;
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.ndim >= 0 &&
                 (s->u.tensor.shape || s->u.tensor.ndim == 0) &&
                 s->u.tensor.dtype.code != IR_DT_VOID
             ? s
             : NULL;
}

IrSInfo *
op_data_i64_vector(IrCtx *ctx, int64_t n, int vdevice)
{
  IrPrimExpr **d = ir_alloc(ctx, sizeof *d);
  d[0] = ir_prim_int(ctx, IR_I64, n);
  return ir_sinfo_tensor(ctx, d, 1, IR_I64, vdevice);
}
