/*
 * fuse_tir.c - FuseTIR: each Primitive Relax function (a group made by
 * FuseOps) becomes one T.prim_func, and its calls R.call_tir of it.
 *
 * Key idea: inline in order, through buffers.  The new prim_func has a
 * buffer parameter for each of the group's inputs and one for its result;
 * every other member's output is a T.alloc_buffer.  Each member's prim_func
 * body is copied (fuse_tir_copy.c) with its parameter buffers replaced by
 * those, and its shape vars unified with the new function's: a member
 * buffer's dim that is a bare var is mapped to the dim of the buffer it
 * now is, which comes from the Relax struct info (whose symbolic vars map
 * one to one to the new function's TIR vars); scalar params take their
 * tir_vars value.  Each member's stores and loads are unchanged and run in
 * the same order, so every element is computed as before.  Then
 * fuse_tir_inline.c moves each member that reads an intermediate only
 * where the members before it store it to those stores, and the
 * intermediate goes.
 *
 * A Primitive function this cannot handle (a binding that is not such a
 * call_tir, a var no dim binds, a reference other than a call) is left as
 * it is, with its calls.  The prim_func takes the function's name; the
 * prim_funcs only the fused functions called are removed.
 */
#include <stdint.h>
#include <string.h>

#include "../ops/tir_build.h"
#include "fuse_int.h"
#include "opt.h"

typedef struct {
  IrCtx *ctx;
  IrVec names;   /* IrSym: buffer names taken in the new function */
  IrVec blocks;  /* IrSym: block names taken there */
  IrMap bufs;    /* Relax var of the Primitive function -> IrBuffer */
  OpVarMap syms; /* its symbolic vars -> TIR vars of the new function */
  IrVec items;   /* IrStmt*: the body, as the reader lists statements */
  IrVec allocs;  /* IrBuffer*: intermediate tensors */
  IrVec params;  /* IrBuffer*: inputs, then the output */
} Builder;

static bool
known_tensor(const IrSInfo *s)
{
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.shape && s->u.tensor.ndim >= 0 &&
         s->u.tensor.dtype.code != IR_DT_VOID && s->shape_len == 0;
}

/* A buffer for a tensor of struct info s (vars renamed by syms; new ones
 * are added, which the caller detects). */
static IrBuffer *
new_buffer(Builder *bd, const IrSInfo *s, const char *name)
{
  IrBuffer *b = ir_alloc(bd->ctx, sizeof *b);
  b->name = opt_fuse_unique_name(bd->ctx, &bd->names, name);
  b->dtype = s->u.tensor.dtype;
  b->ndim = s->u.tensor.ndim;
  b->shape = ir_alloc(bd->ctx, (size_t)(b->ndim ? b->ndim : 1) * sizeof *b->shape);
  for (int d = 0; d < b->ndim; d++)
    b->shape[d] = op_prim_subst(bd->ctx, s->u.tensor.shape[d], &bd->syms, true);
  b->scope = ir_sym(bd->ctx, "global");
  return b;
}

/* Buffers for the params; false when one is not a tensor of known shape or
 * one of their symbolic vars is not a whole dim of some param. */
static bool
param_buffers(Builder *bd, const IrFunction *f)
{
  for (int i = 0; i < f->nparams; i++) {
    const IrExpr *p = f->params[i];
    if (!known_tensor(p->sinfo))
      return false;
    IrBuffer *b = new_buffer(bd, p->sinfo, p->u.var.name);
    ir_map_put(&bd->bufs, p, b);
    ir_vec_push(&bd->params, b);
  }
  for (int k = 0; k < bd->syms.to.len; k++) {
    bool bound = false;
    for (int i = 0; i < bd->params.len && !bound; i++) {
      const IrBuffer *b = bd->params.items[i];
      for (int d = 0; d < b->ndim && !bound; d++)
        bound = b->shape[d] == bd->syms.to.items[k];
    }
    if (!bound)
      return false;
  }
  return true;
}

/* Maps the member prim_func's parameter buffer pb to b, and its bare-var
 * dims to b's dims.  False when ranks or dtypes differ. */
static bool
unify_buffer(FuseCopy *c, const IrBuffer *pb, IrBuffer *b)
{
  if (pb->ndim != b->ndim || !ir_dtype_eq(pb->dtype, b->dtype))
    return false;
  ir_map_put(&c->map, pb, b);
  for (int d = 0; d < pb->ndim; d++)
    if (pb->shape[d]->kind == IR_PE_VAR && !ir_map_get(&c->map, pb->shape[d]))
      ir_map_put(&c->map, pb->shape[d], b->shape[d]);
  return true;
}

/* The body of prim_func pf, called with buffers args (nin inputs, then the
 * output) and tir_vars (or NULL), appended to the items; false when it
 * cannot be inlined. */
static bool
inline_prim(Builder *bd, const IrPrimFunc *pf, IrBuffer **args, int nin, const IrExpr *tir_vars)
{
  int nscalars = tir_vars ? tir_vars->u.shape.n : 0;
  if (pf->nparams != nin + 1 + nscalars)
    return false;
  FuseCopy c = {bd->ctx, {0}, &bd->names, &bd->blocks, false};
  bool ok = true;
  for (int i = 0; i <= nin && ok; i++)
    ok = pf->params[i].buffer && unify_buffer(&c, pf->params[i].buffer, args[i]);
  for (int k = 0; k < nscalars && ok; k++) {
    const IrPrimParam *pp = &pf->params[nin + 1 + k];
    IrPrimExpr *v = tir_vars->u.shape.values[k];
    ok = !pp->buffer && op_prim_vars_mapped(v, &bd->syms);
    if (ok)
      ir_map_put(&c.map, pp->var, op_prim_subst(bd->ctx, v, &bd->syms, false));
  }
  IrStmt *body = ok ? opt_fuse_copy_stmt(&c, pf->body) : NULL;
  ok = ok && !c.unmapped;
  if (ok)
    opt_fuse_flatten(&bd->items, body);
  ir_map_free(&c.map);
  return ok;
}

/* One binding of the Primitive function: var = R.call_tir(cls.p, (vars...),
 * out_sinfo=tensor[, tir_vars=...]); its output goes to the result buffer
 * when var is the function's result, else to a new intermediate. */
static bool
add_member(Builder *bd, const IrMap *globals, const IrBinding *b, const IrExpr *result)
{
  const IrExpr *c = b->value;
  if (b->cast || !c || c->kind != IR_EX_CALL || c->u.call.kind != IR_CALL_OP ||
      c->u.call.op->id != IR_OP_CALL_TIR || c->u.call.nargs < 2 || c->u.call.nsinfo_args != 1)
    return false;
  const IrExpr *g = c->u.call.args[0], *t = c->u.call.args[1];
  const IrExpr *tv = c->u.call.nargs == 3 ? c->u.call.args[2] : NULL;
  const IrGlobal *callee = g->kind == IR_EX_GLOBAL ? ir_map_get(globals, g->u.global) : NULL;
  if (!callee || callee->kind != IR_GLOBAL_PRIM || t->kind != IR_EX_TUPLE ||
      (tv && tv->kind != IR_EX_SHAPE) || !known_tensor(c->u.call.sinfo_args[0]))
    return false;
  const IrPrimFunc *pf = callee->u.prim;
  int nin = t->u.tuple.n;
  IrBuffer **args = ir_alloc(bd->ctx, (size_t)(nin + 1) * sizeof *args);
  for (int i = 0; i < nin; i++)
    if (!(args[i] = ir_map_get(&bd->bufs, t->u.tuple.items[i])))
      return false;
  if (pf->nparams <= nin || !pf->params[nin].buffer)
    return false;
  const char *name = pf->params[nin].buffer->name;
  args[nin] = new_buffer(bd, c->u.call.sinfo_args[0], name ? name : "T_out");
  if (b->var == result)
    ir_vec_push(&bd->params, args[nin]);
  else
    ir_vec_push(&bd->allocs, args[nin]);
  ir_map_put(&bd->bufs, b->var, args[nin]);
  return inline_prim(bd, pf, args, nin, tv);
}

static IrPrimFunc *
assemble(Builder *bd)
{
  IrCtx *ctx = bd->ctx;
  IrVec list = {0};
  opt_fuse_join_nests(ctx, &bd->items, &bd->allocs);
  for (int i = 0; i < bd->allocs.len; i++) {
    IrStmt *a = ir_stmt_new(ctx, IR_ST_ALLOC, (IrLoc){0});
    a->u.alloc.buffer = bd->allocs.items[i];
    ir_vec_push(&list, a);
  }
  for (int i = 0; i < bd->items.len; i++)
    ir_vec_push(&list, bd->items.items[i]);
  IrPrimFunc *f = ir_alloc(ctx, sizeof *f);
  f->body = opt_fuse_build_list(ctx, (IrStmt **)list.items, list.len);
  ir_vec_free(&list);
  f->nparams = bd->params.len;
  f->params = ir_alloc(ctx, (size_t)f->nparams * sizeof *f->params);
  for (int i = 0; i < f->nparams; i++) {
    IrBuffer *b = bd->params.items[i];
    f->params[i].buffer = b;
    f->params[i].var = ir_prim_var(ctx, b->name, IR_HANDLE);
  }
  IrSym key = ir_sym(ctx, "tir.noalias");
  IrAttr *yes = ir_attr_bool(ctx, true);
  f->attrs = ir_attr_dict(ctx, &key, &yes, 1);
  f->is_private = true;
  return f;
}

/* The prim_func computing Primitive function f, or NULL when f has a form
 * this pass does not handle (see the file comment). */
static IrPrimFunc *
fuse_function(IrCtx *ctx, const IrMap *globals, const IrFunction *f)
{
  const IrExpr *body = f->body;
  if (!body || !body->u.seq.result || body->u.seq.result->kind != IR_EX_VAR)
    return NULL;
  Builder bd;
  memset(&bd, 0, sizeof bd);
  bd.ctx = ctx;
  bool ok = param_buffers(&bd, f);
  int nsyms = bd.syms.from.len;
  int nparams = bd.params.len;
  for (int i = 0; ok && i < body->u.seq.nblocks; i++)
    for (int j = 0; ok && j < body->u.seq.blocks[i].n; j++)
      ok = add_member(&bd, globals, &body->u.seq.blocks[i].bindings[j], body->u.seq.result);
  /* exactly one output, and no symbolic var the params do not bind */
  ok = ok && bd.params.len == nparams + 1 && bd.syms.from.len == nsyms;
  IrPrimFunc *pf = ok ? assemble(&bd) : NULL;
  ir_vec_free(&bd.names);
  ir_vec_free(&bd.blocks);
  ir_map_free(&bd.bufs);
  op_var_map_free(&bd.syms);
  ir_vec_free(&bd.items);
  ir_vec_free(&bd.allocs);
  ir_vec_free(&bd.params);
  return pf;
}

/* --- references ----------------------------------------------------------- */

typedef struct {
  int total;  /* IR_EX_GLOBAL nodes naming the global */
  int callee; /* of those, the callees of calls */
} RefCount;

/* One walk over the Relax functions counts the references to every global
 * at once (linear in the module's size; one walk per global was quadratic
 * in the number of fused functions). */
typedef struct {
  IrMap *index;     /* global name -> its index + 1; NULL: count nothing */
  RefCount *counts; /* per global, the references from other functions */
  int self;         /* the index of the function walked */
  IrMap *all;       /* when not NULL: every name met is put here */
} Refs;

static void
refs_count(Refs *r, IrSym name, bool callee)
{
  if (r->all)
    ir_map_put(r->all, name, (void *)name);
  intptr_t k = r->index ? (intptr_t)ir_map_get(r->index, name) : 0;
  if (k == 0 || k - 1 == r->self)
    return;
  if (callee)
    r->counts[k - 1].callee++;
  else
    r->counts[k - 1].total++;
}

static void refs_seq(Refs *r, const IrExpr *seq);

static void
refs_expr(Refs *r, const IrExpr *e)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_EX_GLOBAL:
    refs_count(r, e->u.global, false);
    return;
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      refs_expr(r, e->u.tuple.items[i]);
    return;
  case IR_EX_GET:
    refs_expr(r, e->u.get.tuple);
    return;
  case IR_EX_CALL:
    if (e->u.call.kind == IR_CALL_GLOBAL)
      refs_count(r, e->u.call.callee->u.global, true);
    refs_expr(r, e->u.call.callee);
    for (int i = 0; i < e->u.call.nargs; i++)
      refs_expr(r, e->u.call.args[i]);
    return;
  case IR_EX_SEQ:
    refs_seq(r, e);
    return;
  case IR_EX_IF:
    refs_expr(r, e->u.branch.cond);
    refs_seq(r, e->u.branch.then_);
    refs_seq(r, e->u.branch.else_);
    return;
  case IR_EX_FUNC:
    if (e->u.func && e->u.func->body)
      refs_seq(r, e->u.func->body);
    return;
  default:
    return;
  }
}

static void
refs_seq(Refs *r, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      refs_expr(r, seq->u.seq.blocks[i].bindings[j].value);
  refs_expr(r, seq->u.seq.result);
}

/* For each global of m, the references to it from the Relax functions of
 * m other than itself (an array of m->nglobals counts, in ctx). */
static RefCount *
refs_to_all(IrCtx *ctx, const IrModule *m)
{
  IrMap index = {0};
  RefCount *counts = ir_alloc(ctx, (size_t)(m->nglobals ? m->nglobals : 1) * sizeof *counts);
  memset(counts, 0, (size_t)m->nglobals * sizeof *counts);
  for (int i = 0; i < m->nglobals; i++)
    ir_map_put(&index, m->globals[i].name, (void *)(intptr_t)(i + 1));
  Refs r = {&index, counts, -1, NULL};
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    r.self = i;
    if (g->kind == IR_GLOBAL_RELAX && g->u.relax && g->u.relax->body)
      refs_seq(&r, g->u.relax->body);
  }
  ir_map_free(&index);
  return counts;
}

/* --- the pass ------------------------------------------------------------- */

typedef struct {
  IrCtx *ctx;
  IrMap fused; /* the globals of the module whose Primitive functions became prim_funcs */
  int nerrors;
} CallRewrite;

/* A call of a fused function becomes R.call_tir of its prim_func. */
static bool
rewrite_call(Rewriter *rw, IrBinding *b)
{
  CallRewrite *cr = rw->user;
  const IrExpr *c = b->value;
  if (!c || c->kind != IR_EX_CALL || c->u.call.kind != IR_CALL_GLOBAL)
    return true;
  const IrGlobal *g = ir_map_get(&cr->fused, c->u.call.callee->u.global);
  if (!g || g->kind != IR_GLOBAL_PRIM)
    return true;
  IrSInfo *s = known_tensor(c->sinfo) ? c->sinfo : b->var ? b->var->sinfo : NULL;
  if (!known_tensor(s)) {
    ir_error(cr->ctx, c->loc,
             "FuseTIR: the call of '%s' has no tensor struct info; run Normalize first", g->name);
    return false;
  }
  IrCtx *ctx = rw->ctx;
  int n = c->u.call.nargs;
  IrExpr *tuple = ir_expr_new(ctx, IR_EX_TUPLE, c->loc);
  tuple->u.tuple.n = n;
  tuple->u.tuple.items = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof(IrExpr *));
  IrSInfo **fields = ir_alloc(ctx, (size_t)(n ? n : 1) * sizeof *fields);
  for (int i = 0; i < n; i++) {
    tuple->u.tuple.items[i] = c->u.call.args[i];
    fields[i] = c->u.call.args[i]->sinfo;
  }
  tuple->sinfo = ir_sinfo_tuple(ctx, fields, n);
  IrExpr **args = ir_alloc(ctx, 2 * sizeof *args);
  args[0] = c->u.call.callee;
  args[1] = tuple;
  IrExpr *e = ir_call_op(ctx, &op_def(IR_OP_CALL_TIR)->syn, args, 2, NULL, c->loc);
  e->u.call.nsinfo_args = 1;
  e->u.call.sinfo_args = ir_alloc(ctx, sizeof(IrSInfo *));
  e->u.call.sinfo_args[0] = s;
  e->sinfo = s;
  b->value = e;
  return true;
}

static bool
is_fusable_primitive(const IrGlobal *g)
{
  if (g->kind != IR_GLOBAL_RELAX || !g->u.relax)
    return false;
  const IrAttr *prim = ir_attr_get(g->u.relax->attrs, "Primitive");
  return prim && !ir_attr_get(g->u.relax->attrs, "Composite") &&
         !ir_attr_get(g->u.relax->attrs, "Codegen") && (prim->kind != IR_AT_BOOL || prim->u.b) &&
         (prim->kind != IR_AT_INT || prim->u.i);
}

/* A copy of m where each Primitive function that converts is replaced, in
 * place, by its prim_func; *n gets how many did. */
static IrModule *
convert_primitives(IrCtx *ctx, const IrModule *m, int *n)
{
  IrModule *out = opt_rw_module_copy(ctx, m, 0);
  RefCount *refs = refs_to_all(ctx, m);
  IrMap globals = {0};
  ir_module_index(m, &globals);
  *n = 0;
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    if (!is_fusable_primitive(g))
      continue;
    if (refs[i].total != refs[i].callee) /* passed as a value: keep it a function */
      continue;
    IrPrimFunc *pf = fuse_function(ctx, &globals, g->u.relax);
    if (!pf)
      continue;
    out->globals[i].kind = IR_GLOBAL_PRIM;
    out->globals[i].u.prim = pf;
    (*n)++;
  }
  ir_map_free(&globals);
  return out;
}

/* Puts into *names every global named in the Relax functions of m (when
 * converted is NULL) or in those of in that became prim_funcs in
 * converted: one walk for all names, so that deciding what to drop costs
 * linear, not quadratic, time in the module's size. */
static void
names_used(const IrModule *m, const IrModule *converted, IrMap *names)
{
  Refs r = {NULL, NULL, -1, names};
  for (int i = 0; i < m->nglobals; i++) {
    const IrGlobal *g = &m->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || !g->u.relax || !g->u.relax->body)
      continue;
    if (!converted || converted->globals[i].kind == IR_GLOBAL_PRIM)
      refs_seq(&r, g->u.relax->body);
  }
}

IrModule *
opt_fuse_tir(const OptContext *oc, const IrModule *m)
{
  int n;
  IrModule *out = convert_primitives(oc->ctx, m, &n);
  if (n == 0)
    return out;
  CallRewrite cr = {oc->ctx, {0}, 0};
  ir_module_index(out, &cr.fused);
  Rewriter rw;
  opt_rw_init(&rw, oc->ctx, &cr);
  rw.binding = rewrite_call;
  bool ok = true;
  for (int i = 0; i < out->nglobals && ok; i++) {
    IrGlobal *g = &out->globals[i];
    if (g->kind != IR_GLOBAL_RELAX || !g->u.relax)
      continue;
    IrFunction *f = opt_rw_function(&rw, g->u.relax, g->name);
    ok = f != NULL;
    g->u.relax = f ? f : g->u.relax;
  }
  opt_rw_free(&rw);
  ir_map_free(&cr.fused);
  if (!ok)
    return NULL;
  /* drop the prim_funcs the converted functions called that nothing calls now */
  IrMap members = {0}, used = {0};
  names_used(m, out, &members);
  names_used(out, NULL, &used);
  bool *drop = ir_alloc(oc->ctx, (size_t)(out->nglobals ? out->nglobals : 1) * sizeof *drop);
  for (int i = 0; i < out->nglobals; i++)
    drop[i] = out->globals[i].kind == IR_GLOBAL_PRIM && m->globals[i].kind == IR_GLOBAL_PRIM &&
              ir_map_get(&members, out->globals[i].name) &&
              !ir_map_get(&used, out->globals[i].name);
  ir_map_free(&members);
  ir_map_free(&used);
  int k = 0;
  for (int i = 0; i < out->nglobals; i++)
    if (!drop[i])
      out->globals[k++] = out->globals[i];
  out->nglobals = k;
  return out;
}
