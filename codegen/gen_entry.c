/*
 * gen_entry.c - a public Relax function (explicit memory) as an entry
 *   int NAME_FN(void *arena, size_t arena_bytes, const T *in..., rxc_i64 dim...,
 *               T *out...)
 * and its packed form NAME_FN_packed.
 *
 * Key ideas:
 *  - Every check (null pointers, dims within their bounds, shapes that the
 *    dims make negative, arena size and alignment, the plan's runtime
 *    preconditions) comes before the first statement that writes, so a
 *    wrong call returns a negative code and leaves memory untouched.
 *  - Storages are arena + the plan's offset; a storage that flows into the
 *    result (MpStorage.output) is the caller's output buffer, found by
 *    following alloc_tensor, aliases, tuples and if/else from the result
 *    back to the storages (a pre-pass).  A result that is not in place
 *    (an input, a constant, an if whose branches differ) is copied.
 *  - Tuples exist only at compile time: tuple vars map to their items.
 *  - Every local that its scope never reads gets "(void)x;" (found in the
 *    scope's text), so -Wunused stays quiet without a liveness analysis.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cg_int.h"

static void emit_seq(CgFunc *E, const IrExpr *seq, IrBuf *o);

static void
indent(const CgFunc *E, IrBuf *o)
{
  for (int i = 0; i < E->indent; i++)
    ir_buf_puts(o, "  ");
}

/* --- var table: each CgVar in the arena, so pointers to it stay valid --------- */

CgVar *
cg_var_add(CgFunc *E, const IrExpr *var, CgVarKind kind)
{
  if (E->nvars == E->capvars) {
    E->capvars = E->capvars ? 2 * E->capvars : 64;
    E->vars = ir_xrealloc(E->vars, sizeof *E->vars * (size_t)E->capvars);
  }
  CgVar *v = ir_alloc(E->g->ctx, sizeof *v); /* zeroed; never moves */
  E->vars[E->nvars++] = v;
  v->var = var;
  v->kind = kind;
  v->offset = -1;
  ir_map_put(&E->var_index, var, v); /* the latest of a var wins */
  return v;
}

CgVar *
cg_var_find(CgFunc *E, const IrExpr *var)
{
  return ir_map_get(&E->var_index, var);
}

/* A new C local for var, declared in the current scope. */
static const char *
local_name(CgFunc *E, const IrExpr *var)
{
  const char *s = cg_names_add(E->g, &E->names, var, var->u.var.name);
  if (E->scope)
    ir_vec_push(E->scope, (void *)s);
  return s;
}

/* --- leaves as C ------------------------------------------------------------ */

/* The C expression of a tensor leaf (var or constant); NULL after an error.
 * *info gets the var's info (NULL for constants). */
const char *
cg_tensor_leaf(CgFunc *E, const IrExpr *e, CgVar **info, bool *is_const)
{
  *info = NULL;
  if (e->kind == IR_EX_CONST) {
    *is_const = true;
    return cg_const_ref(E->g, e);
  }
  CgVar *v = e->kind == IR_EX_VAR ? cg_var_find(E, e) : NULL;
  if (!v || v->kind != CG_V_TENSOR) {
    cg_fail(E->g, "C code generation: '%s' is not a tensor here",
            e->kind == IR_EX_VAR ? e->u.var.name : "expression");
    return NULL;
  }
  *info = v;
  *is_const = v->is_const;
  return v->cname;
}

IrDType
cg_tensor_dtype(const IrExpr *e)
{
  if (e->kind == IR_EX_CONST)
    return e->u.constant.dtype;
  return e->sinfo && e->sinfo->kind == IR_SI_TENSOR ? e->sinfo->u.tensor.dtype : IR_VOID;
}

/* The shape entry d of a tensor leaf as an expression; NULL when unknown. */
IrPrimExpr *
cg_leaf_dim(CgFunc *E, const IrExpr *e, int d)
{
  if (e->kind == IR_EX_CONST)
    return d < e->u.constant.ndim ? ir_prim_int(E->g->ctx, IR_I64, e->u.constant.shape[d]) : NULL;
  const IrSInfo *s = e->sinfo;
  if (!s || s->kind != IR_SI_TENSOR || !s->u.tensor.shape || d >= s->u.tensor.ndim)
    return NULL;
  return s->u.tensor.shape[d];
}

/* --- bindings --------------------------------------------------------------- */

static const MpStorage *
plan_storage(CgFunc *E, const IrExpr *var)
{
  for (int i = 0; i < E->fp->nstorages; i++)
    if (E->fp->storages[i].var == var)
      return &E->fp->storages[i];
  for (int i = 0; i < E->fp->noutputs; i++)
    if (E->fp->outputs[i].var == var)
      return &E->fp->outputs[i];
  return NULL;
}

static void
emit_alloc_storage(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  const MpStorage *s = plan_storage(E, b->var);
  if (!s) {
    cg_fail(E->g, "storage '%s' is not in the memory plan", b->var->u.var.name);
    return;
  }
  CgVar *v = cg_var_add(E, b->var, CG_V_STORAGE);
  v->storage = s;
  v->cname = local_name(E, b->var);
  indent(E, o);
  if (s->output) {
    int k = -1;
    for (int i = 0; i < E->nout_storage; i++)
      if (E->out_storage[i] == b->var)
        k = E->out_index[i];
    for (int i = 0; k < 0 && i < E->nextra; i++)
      if (E->extra[i] == b->var) {
        ir_buf_printf(
            o, "char *%s = base + %lld; /* in the result: copied at the end, or not returned */\n",
            v->cname, (long long)E->extra_offset[i]);
        return;
      }
    if (k < 0) {
      cg_fail(E->g, "storage '%s' flows into the result in a way C code generation cannot follow",
              b->var->u.var.name);
      return;
    }
    ir_buf_printf(o, "char *%s = (char *)%s; /* the caller's output */\n", v->cname,
                  E->out_names[k]);
  } else if (s->offset_expr) {
    ir_buf_printf(o, "char *%s = base + ", v->cname);
    cg_emit_expr(E->g, &E->names, s->offset_expr, o);
    ir_buf_puts(o, ";\n");
  } else {
    ir_buf_printf(o, "char *%s = base + %lld; /* %lld bytes */\n", v->cname, (long long)s->offset,
                  (long long)s->bytes_max);
  }
}

static void
emit_alloc_tensor(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *c = b->value;
  CgVar *st = c->u.call.nargs >= 2 && c->u.call.args[0]->kind == IR_EX_VAR
                  ? cg_var_find(E, c->u.call.args[0])
                  : NULL;
  const char *ct = cg_dtype_cname(E->g, cg_tensor_dtype(b->var));
  if (!st || st->kind != CG_V_STORAGE || c->u.call.args[1]->kind != IR_EX_PRIM || !ct) {
    if (ct)
      cg_fail(E->g, "alloc_tensor '%s': expected a storage var and an offset", b->var->u.var.name);
    return;
  }
  CgVar *v = cg_var_add(E, b->var, CG_V_TENSOR);
  v->storage = st->storage;
  v->storage_var = st->var;
  const IrPrimExpr *off = c->u.call.args[1]->u.prim;
  int64_t k;
  v->offset = ir_prim_is_int(off, &k) ? k : -1;
  v->cname = local_name(E, b->var);
  indent(E, o);
  ir_buf_printf(o, "%s *%s = (%s *)(%s + ", ct, v->cname, ct, st->cname);
  cg_emit_expr(E->g, &E->names, off, o);
  ir_buf_puts(o, ");\n");
}

/* May two tensor arguments share bytes? */
static bool
may_overlap(const CgFunc *E, const IrExpr *a, const CgVar *va, const IrExpr *b, const CgVar *vb)
{
  (void)E;
  if (a == b)
    return true;
  if (!va || !vb || !va->storage || !vb->storage)
    return false; /* inputs and constants: the caller promises distinct buffers */
  if (va->storage_var == vb->storage_var)
    return true;
  const MpStorage *x = va->storage, *y = vb->storage;
  if (x->output || y->output)
    return false;
  if (x->offset_expr || y->offset_expr || x->bytes_max < 0 || y->bytes_max < 0)
    return true;
  return x->offset < y->offset + y->bytes_max && y->offset < x->offset + x->bytes_max;
}

/* The value of implicit dim v of the callee from its argument shapes:
 * a shape entry v, v * c, c * v, v + c or v - c of some buffer param. */
static IrPrimExpr *
solve_dim(CgFunc *E, const IrPrimFunc *f, const IrExpr *call, const IrPrimExpr *v)
{
  IrCtx *ctx = E->g->ctx;
  for (int i = 0; i < f->nparams; i++) {
    const IrBuffer *buf = f->params[i].buffer;
    for (int d = 0; buf && d < buf->ndim; d++) {
      const IrPrimExpr *s = buf->shape[d];
      IrPrimExpr *x = cg_leaf_dim(E, call->u.call.args[i], d);
      int64_t c;
      if (!x)
        continue;
      if (s == v)
        return x;
      bool bin = s->kind == IR_PE_MUL || s->kind == IR_PE_ADD || s->kind == IR_PE_SUB;
      if (!bin)
        continue;
      const IrPrimExpr *p = s->u.bin.a, *q = s->u.bin.b;
      if (s->kind == IR_PE_MUL && q == v && ir_prim_is_int(p, &c))
        p = q, q = s->u.bin.a;
      if (p != v || !ir_prim_is_int(q, &c) || (s->kind == IR_PE_MUL && c <= 0))
        continue;
      IrPrimKind k = s->kind == IR_PE_MUL   ? IR_PE_FLOORDIV
                     : s->kind == IR_PE_ADD ? IR_PE_SUB
                                            : IR_PE_ADD;
      return ir_prim_bin(ctx, k, x, ir_prim_int(ctx, x->dtype, c));
    }
  }
  cg_fail(E->g, "cannot tell the value of dim '%s' of '%s' from its arguments' shapes", v->u.var,
          call->u.call.callee->u.global);
  return NULL;
}

/* The values of the callee's implicit dims at this call (vals[i] for
 * p->dims[i]); false after an error. */
static bool
solve_dims(CgFunc *E, const IrPrimFunc *f, CgPrim *p, const IrExpr *call, IrPrimExpr **vals)
{
  for (int i = 0; i < p->ndims; i++) {
    IrPrimExpr *x = solve_dim(E, f, call, p->dims[i]);
    int64_t lo, hi;
    if (!x)
      return false;
    if (!ir_arith_range(E->arith, x, &lo, &hi))
      hi = INT64_MAX; /* an error only if a T.alloc_buffer needs it */
    p->dims_max[i] = hi > p->dims_max[i] ? hi : p->dims_max[i];
    vals[i] = x;
  }
  return true;
}

static void
emit_call_args(CgFunc *E, const IrPrimFunc *f, CgPrim *p, const IrExpr *call, IrPrimExpr **vals,
               IrBuf *o)
{
  CgVar **infos = ir_xcalloc((size_t)f->nparams + 1, sizeof *infos);
  for (int i = 0; i < f->nparams; i++) {
    const IrExpr *a = call->u.call.args[i];
    ir_buf_puts(o, i ? ", " : "");
    if (f->params[i].buffer) {
      bool is_const;
      const char *s = cg_tensor_leaf(E, a, &infos[i], &is_const);
      const char *ct = cg_dtype_cname(E->g, f->params[i].buffer->dtype);
      if (s && ct && p->written[i] && is_const)
        ir_buf_printf(o, "(%s *)%s", ct, s);
      else
        ir_buf_puts(o, s ? s : "?");
      for (int j = 0; j < i; j++)
        if (f->params[j].buffer && (p->written[i] || p->written[j]) &&
            may_overlap(E, a, infos[i], call->u.call.args[j], infos[j]))
          p->aliased = true;
    } else if (a->kind == IR_EX_PRIM) {
      const char *ct = cg_value_cname(E->g, f->params[i].var->dtype);
      ir_buf_printf(o, "(%s)", ct ? ct : "?");
      cg_emit_expr(E->g, &E->names, a->u.prim, o);
    } else {
      cg_fail(E->g, "argument %d of '%s': C code generation needs an R.prim_value", i,
              call->u.call.callee->u.global);
    }
  }
  for (int i = 0; i < p->ndims; i++) {
    ir_buf_puts(o, f->nparams + i ? ", " : "");
    cg_emit_expr(E->g, &E->names, vals[i], o);
  }
  free(infos);
}

/* The bytes of a tensor leaf as a C expression. */
void
cg_emit_bytes(CgFunc *E, const IrExpr *e, IrBuf *o)
{
  IrDType t = cg_tensor_dtype(e);
  int nd = e->kind == IR_EX_CONST
               ? e->u.constant.ndim
               : (e->sinfo && e->sinfo->kind == IR_SI_TENSOR ? e->sinfo->u.tensor.ndim : -1);
  ir_buf_printf(o, "(size_t)%d", ir_dtype_bytes(t));
  for (int d = 0; d < nd; d++) {
    IrPrimExpr *x = cg_leaf_dim(E, e, d);
    ir_buf_puts(o, " * (size_t)");
    if (x)
      cg_emit_expr(E->g, &E->names, x, o);
  }
}

static void
emit_prim_call(CgFunc *E, const IrExpr *call, int global, IrBuf *o)
{
  const IrPrimFunc *f = E->g->m->globals[global].u.prim;
  CgPrim *p = cg_prim_info(E->g, global);
  const char *callee = call->u.call.callee->u.global;
  if (call->u.call.nargs != f->nparams) {
    cg_fail(E->g, "call of '%s' with %d arguments; it has %d parameters", callee,
            call->u.call.nargs, f->nparams);
    return;
  }
  p->called = true;
  IrPrimExpr **vals = ir_alloc(E->g->ctx, sizeof *vals * (size_t)(p->ndims + 1));
  if (!solve_dims(E, f, p, call, vals))
    return;
  cg_emit_call_checks(E, f, call, p->dims, vals, p->ndims, o);
  indent(E, o);
  ir_buf_printf(o, "%s%s_%s(", p->can_fail ? "if (" : "", E->g->name, cg_ident(E->g, callee));
  emit_call_args(E, f, p, call, vals, o);
  if (p->can_fail) { /* a TIR assert failed */
    E->g->assert_used = E->asserts = true;
    ir_buf_puts(o, ") != 0)\n");
    indent(E, o);
    ir_buf_printf(o, "  return %s_ERR_ASSERT;\n", E->g->name);
  } else {
    ir_buf_puts(o, ");\n");
  }
  for (int i = 0; i < f->nparams; i++) {
    const IrExpr *a = call->u.call.args[i];
    if (!p->written[i] || a->kind != IR_EX_VAR)
      continue;
    CgVar *v = cg_var_find(E, a);
    if (!v || v->kind != CG_V_TENSOR)
      continue;
    indent(E, o);
    ir_buf_printf(o, "RXC_TRACE(\"%s\", %s, ", v->cname, v->cname);
    cg_emit_bytes(E, a, o);
    ir_buf_puts(o, ");\n");
  }
}

static void
emit_op_call(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *v = b->value;
  switch (v->u.call.op->id) {
  case IR_OP_MEMORY_ALLOC_STORAGE:
    emit_alloc_storage(E, b, o);
    return;
  case IR_OP_MEMORY_ALLOC_TENSOR:
    emit_alloc_tensor(E, b, o);
    return;
  case IR_OP_MEMORY_KILL_STORAGE:
  case IR_OP_MEMORY_KILL_TENSOR:
    cg_var_add(E, b->var, CG_V_OTHER);
    return;
  case IR_OP_ASSERT_OP:
    cg_emit_assert(E, b, o);
    return;
  case IR_OP_PRINT:
    cg_emit_print(E, b, o);
    return;
  /* what only TVM's runtime has (README.md: operators rxc leaves out) */
  case IR_OP_CALL_PURE_PACKED:
  case IR_OP_CALL_INPLACE_PACKED:
  case IR_OP_CALL_BUILTIN_WITH_CTX:
  case IR_OP_NULL_VALUE:
  case IR_OP_MAKE_CLOSURE:
  case IR_OP_INVOKE_CLOSURE:
  case IR_OP_INVOKE_PURE_CLOSURE:
    cg_fail(E->g,
            "C code generation does not support %s (binding '%s'): not implemented, since packed "
            "functions, closures and the null object exist only in TVM's runtime",
            v->u.call.op->name, b->var ? b->var->u.var.name : "_");
    return;
  case IR_OP_TENSOR_TO_SHAPE: { /* its dims are read where a match_cast binds them */
    bool is_const;
    CgVar *info;
    const char *src = cg_tensor_leaf(E, v->u.call.args[0], &info, &is_const);
    CgVar *s = cg_var_add(E, b->var, CG_V_OTHER);
    s->shape_src = src;
    return;
  }
  default:
    cg_fail(E->g, "C code generation does not support %s (binding '%s'): run the pipeline first",
            v->u.call.op->name, b->var ? b->var->u.var.name : "_");
  }
}

/* x = leaf (alias, tuple item, constant, match_cast). */
static void
emit_alias(CgFunc *E, const IrBinding *b, const IrExpr *leaf, IrBuf *o)
{
  CgVar *src = leaf->kind == IR_EX_VAR ? cg_var_find(E, leaf) : NULL;
  if (src && src->kind != CG_V_TENSOR) {
    CgVar copy = *src;
    CgVar *v = cg_var_add(E, b->var, copy.kind);
    *v = copy;
    v->var = b->var;
    return;
  }
  bool is_const;
  CgVar *info;
  const char *s = cg_tensor_leaf(E, leaf, &info, &is_const);
  const char *ct = cg_dtype_cname(E->g, cg_tensor_dtype(leaf));
  if (!s || !ct)
    return;
  CgVar *v = cg_var_add(E, b->var, CG_V_TENSOR);
  if (info) {
    v->storage = info->storage;
    v->storage_var = info->storage_var;
    v->offset = info->offset;
  }
  v->is_const = is_const;
  v->cname = local_name(E, b->var);
  indent(E, o);
  ir_buf_printf(o, "%s%s *%s = %s;\n", is_const ? "const " : "", ct, v->cname, s);
}

static void
emit_get(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *g = b->value;
  CgVar *t = g->u.get.tuple->kind == IR_EX_VAR ? cg_var_find(E, g->u.get.tuple) : NULL;
  const IrExpr *leaf = NULL;
  if (t && t->kind == CG_V_TUPLE && g->u.get.index >= 0 && g->u.get.index < t->nitems)
    leaf = t->items[g->u.get.index];
  else if (g->u.get.tuple->kind == IR_EX_TUPLE && g->u.get.index < g->u.get.tuple->u.tuple.n)
    leaf = g->u.get.tuple->u.tuple.items[g->u.get.index];
  if (!leaf) {
    cg_fail(E->g, "binding '%s': C code generation needs a tuple it can see", b->var->u.var.name);
    return;
  }
  emit_alias(E, b, leaf, o);
}

/* y = if cond: ... else: ...  The branches are emitted first (into their
 * own buffers) so that y's const-ness is known when it is declared. */
static void
emit_if(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *v = b->value;
  const char *ct = cg_dtype_cname(E->g, cg_tensor_dtype(b->var));
  if (!ct || !b->var->sinfo || b->var->sinfo->kind != IR_SI_TENSOR) {
    cg_fail(E->g, "binding '%s': C code generation supports if/else of one tensor only",
            b->var->u.var.name);
    return;
  }
  const char *name = local_name(E, b->var);
  IrBuf br[2] = {{0}};
  bool any_const = false;
  const IrExpr *seqs[2] = {v->u.branch.then_, v->u.branch.else_};
  E->indent++;
  for (int i = 0; i < 2; i++) {
    emit_seq(E, seqs[i], &br[i]);
    bool is_const = false;
    CgVar *info;
    const char *s = cg_tensor_leaf(E, seqs[i]->u.seq.result, &info, &is_const);
    any_const = any_const || is_const;
    indent(E, &br[i]);
    ir_buf_printf(&br[i], "%s = %s;\n", name, s ? s : "?");
  }
  E->indent--;
  CgVar *y = cg_var_add(E, b->var, CG_V_TENSOR);
  y->cname = name;
  y->is_const = any_const;
  indent(E, o);
  ir_buf_printf(o, "%s%s *%s = 0;\n", any_const ? "const " : "", ct, name);
  indent(E, o);
  ir_buf_puts(o, "if (");
  const IrExpr *c = v->u.branch.cond;
  if (c->kind == IR_EX_PRIM) {
    cg_emit_expr(E->g, &E->names, c->u.prim, o);
  } else {
    bool is_const;
    CgVar *info;
    const char *s = cg_tensor_leaf(E, c, &info, &is_const);
    ir_buf_printf(o, "%s[0]", s ? s : "?");
  }
  ir_buf_puts(o, ") {\n");
  ir_buf_put(o, br[0].data ? br[0].data : "", br[0].len);
  indent(E, o);
  ir_buf_puts(o, "} else {\n");
  ir_buf_put(o, br[1].data ? br[1].data : "", br[1].len);
  indent(E, o);
  ir_buf_puts(o, "}\n");
  ir_buf_free(&br[0]);
  ir_buf_free(&br[1]);
}

static void
emit_binding(CgFunc *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *v = b->value;
  E->g->loc = b->loc;
  if (b->cast)
    cg_emit_match_cast(E, b, o);
  if (b->cast && v->kind == IR_EX_VAR) {
    emit_alias(E, b, v, o);
    return;
  }
  switch (v->kind) {
  case IR_EX_CALL:
    if (v->u.call.kind == IR_CALL_OP) {
      emit_op_call(E, b, o);
    } else if (v->u.call.kind == IR_CALL_GLOBAL) {
      int gi = cg_global_index(E->g, v->u.call.callee->u.global);
      if (gi < 0 || E->g->m->globals[gi].kind != IR_GLOBAL_PRIM) {
        cg_fail(E->g, "C code generation supports calls of prim_funcs only ('%s')",
                v->u.call.callee->u.global);
        return;
      }
      emit_prim_call(E, v, gi, o);
      cg_var_add(E, b->var, CG_V_OTHER);
    } else {
      cg_fail(E->g, "C code generation does not support this call (binding '%s')",
              b->var->u.var.name);
    }
    return;
  case IR_EX_VAR:
  case IR_EX_CONST:
    emit_alias(E, b, v, o);
    return;
  case IR_EX_TUPLE: {
    CgVar *t = cg_var_add(E, b->var, CG_V_TUPLE);
    t->items = v->u.tuple.items;
    t->nitems = v->u.tuple.n;
    return;
  }
  case IR_EX_GET:
    emit_get(E, b, o);
    return;
  case IR_EX_IF:
    emit_if(E, b, o);
    return;
  case IR_EX_SHAPE:
  case IR_EX_PRIM:
  case IR_EX_STR:
  case IR_EX_DTYPE:
    cg_var_add(E, b->var, CG_V_OTHER);
    return;
  default:
    cg_fail(E->g, "C code generation does not support binding '%s' (local functions, ...)",
            b->var->u.var.name);
  }
}

/* The bindings of seq in a scope of their own text; locals the scope never
 * reads get "(void)x;" at its end. */
static void
emit_seq(CgFunc *E, const IrExpr *seq, IrBuf *o)
{
  IrVec scope = {0}, *outer = E->scope;
  IrBuf b = {0};
  E->scope = &scope;
  bool top = seq == E->f->body; /* poison code goes between top-level bindings */
  for (int i = 0; i < seq->u.seq.nblocks && !E->g->errors; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n && !E->g->errors; j++) {
      const IrBinding *bd = &seq->u.seq.blocks[i].bindings[j];
      if (top)
        cg_poison_before(E, bd, &b);
      emit_binding(E, bd, &b);
      if (top)
        cg_poison_after(E, bd, &b);
    }
  E->scope = outer;
  int *counts = ir_xmalloc((size_t)(scope.len ? scope.len : 1) * sizeof *counts);
  cg_text_counts(&b, (const char *const *)scope.items, scope.len, counts);
  for (int i = 0; i < scope.len; i++)
    if (counts[i] == 1) {
      indent(E, &b);
      ir_buf_printf(&b, "(void)%s;\n", (const char *)scope.items[i]);
    }
  free(counts);
  if (b.len)
    ir_buf_put(o, b.data, b.len);
  ir_buf_free(&b);
  ir_vec_free(&scope);
}

static void
emit_body(CgFunc *E, const CgEntry *ent, const IrBuf *decl, IrBuf *out)
{
  IrBuf checks = {0}, body = {0};
  E->indent = 1;
  cg_poison_begin(E, &body);
  emit_seq(E, E->f->body, &body); /* first: it fills E->defs and E->checks */
  for (int i = 0; i < E->late.len && E->fp->arena_expr && !E->g->errors; i++)
    if (cg_uses_late(E, E->fp->arena_expr)) {
      const IrPrimExpr *k = E->late.items[i];
      cg_fail(E->g,
              "the arena of '%s' depends on dim '%s', tensor data (R.match_cast of '%s'): give "
              "it an upper bound (tir_var_upper_bound) to plan the arena at",
              E->fp->name, k->u.var, cg_data_dim_binding(E, k));
      break;
    }
  if (!E->g->errors)
    cg_emit_result(E, &body);
  cg_poison_end(E, &body);
  for (int i = 0; i < ent->nresult_dims && !E->g->errors; i++) {
    for (int k = 0; k < E->late_nested.len; k++)
      if (E->late_nested.items[k] == ent->result_dims[i])
        cg_fail(E->g,
                "the result of '%s' has dim '%s', tensor data bound inside an if branch: not "
                "implemented (bind it before the if)",
                E->fp->name, ent->result_dims[i]->u.var);
    ir_buf_printf(&body, "  %s[%d] = %s;\n", E->result_dims_name, i,
                  cg_names_find(&E->names, ent->result_dims[i]));
  }
  if (E->g->cfg->codegen.checks)
    cg_emit_checks(E, ent, &checks);
  else if (E->defs.len)
    ir_buf_put(&checks, E->defs.data, E->defs.len);
  ir_buf_puts(&body, "  return 0;\n}\n\n");
  if (cg_text_uses(&body, "base"))
    ir_buf_puts(&checks, "  char *const base = (char *)arena;\n");
  if (checks.len)
    ir_buf_put(&checks, body.data, body.len);
  else
    checks = body, body = (IrBuf){0};
  ir_buf_printf(out, "/* R.function %s */\n%s\n{\n", E->fp->name, decl->data);
  if (!cg_text_uses(&checks, "arena"))
    ir_buf_puts(out, "  (void)arena;\n");
  if (!cg_text_uses(&checks, "arena_bytes"))
    ir_buf_puts(out, "  (void)arena_bytes;\n");
  int *counts = ir_xmalloc((size_t)(E->names.n ? E->names.n : 1) * sizeof *counts);
  cg_text_counts(&checks, E->names.names, E->names.n, counts);
  for (int i = 0; i < E->names.n; i++)
    if (counts[i] == 0)
      ir_buf_printf(out, "  (void)%s;\n", E->names.names[i]);
  free(counts);
  ir_buf_put(out, checks.data, checks.len);
  ir_buf_free(&checks);
  ir_buf_free(&body);
}

/* size_t SYMBOL_arena_bytes(dims...): the arena the entry needs for these
 * dims (issue 5: with an unbounded dim the size is only known at run time;
 * with bounds it is the constant planned at the bounds). */
static void
emit_arena_bytes(CgFunc *E, const CgEntry *ent, IrBuf *decls, IrBuf *out)
{
  IrBuf sig = {0};
  ir_buf_printf(&sig, "size_t\n%s_arena_bytes(", ent->symbol);
  for (int i = 0; i < ent->ndims; i++)
    ir_buf_printf(&sig, "%srxc_i64 %s", i ? ", " : "", cg_names_find(&E->names, ent->dims[i]));
  ir_buf_puts(&sig, ent->ndims ? ")" : "void)");
  ir_buf_printf(decls, "%s;\n", sig.data);
  ir_buf_printf(out, "\n%s\n{\n", sig.data);
  for (int i = 0; i < ent->ndims; i++)
    ir_buf_printf(out, "  (void)%s;\n", cg_names_find(&E->names, ent->dims[i]));
  if (E->dim_cap >= 0) {
    ir_buf_puts(out, "  if (");
    cg_emit_cap_test(E, true, out);
    ir_buf_puts(out, ")\n    return (size_t)-1; /* refused, or more than any machine has */\n");
  }
  if (E->fp->arena_expr) { /* SIZE_MAX where size_t cannot count it */
    ir_buf_puts(out, "  rxc_u64 bytes = (rxc_u64)(");
    cg_emit_expr(E->g, &E->names, E->fp->arena_expr, out);
    ir_buf_puts(out, ");\n  return bytes > (rxc_u64)(size_t)-1 ? (size_t)-1 : (size_t)bytes;\n}\n");
  } else {
    ir_buf_printf(out, "  return (size_t)%lldu;\n}\n",
                  (long long)(E->arena_bytes > 0 ? E->arena_bytes : 0));
  }
  ir_buf_printf(decls, "size_t\n%s(const rxc_i64 *dims);\n", ent->arena_fn);
  ir_buf_printf(out, "\nsize_t\n%s(const rxc_i64 *dims)\n{\n", ent->arena_fn);
  if (ent->ndims)
    ir_buf_puts(out, "  if (!dims)\n    return 0;\n");
  else
    ir_buf_puts(out, "  (void)dims;\n");
  ir_buf_printf(out, "  return %s_arena_bytes(", ent->symbol);
  for (int i = 0; i < ent->ndims; i++)
    ir_buf_printf(out, "%sdims[%d]", i ? ", " : "", i);
  ir_buf_puts(out, ");\n}\n");
  ir_buf_free(&sig);
}

/* The header's arena line of an entry: the bytes, or with a dim without a
 * bound the function that computes them and the dims it grows with. */
static void
doc_arena(CgFunc *E, const CgEntry *ent, IrBuf *docs)
{
  const MpFunctionPlan *fp = E->fp;
  ir_buf_printf(docs, "/* %s: R.function %s.\n *   %-12s ", ent->symbol, fp->name, "arena");
  if (!fp->arena_expr) {
    ir_buf_printf(docs, "%lld bytes", (long long)E->arena_bytes);
  } else {
    ir_buf_printf(docs, "%s_arena_bytes(", ent->symbol);
    for (int i = 0; i < ent->ndims; i++)
      ir_buf_printf(docs, "%s%s", i ? ", " : "", cg_names_find(&E->names, ent->dims[i]));
    ir_buf_puts(docs, ") bytes (no upper bound on");
    for (int i = 0; i < fp->nunbounded; i++)
      ir_buf_printf(docs, "%s %s", i ? "," : "", fp->unbounded[i]);
    ir_buf_puts(docs, ")");
  }
  ir_buf_printf(docs, ", aligned to %lld\n", (long long)E->g->plan->align);
}

void
cg_emit_entry(CgGen *g, const MpFunctionPlan *fp, CgEntry *ent, IrBuf *decls, IrBuf *docs,
              IrBuf *out)
{
  int gi = cg_global_index(g, fp->name);
  if (gi < 0 || g->m->globals[gi].kind != IR_GLOBAL_RELAX)
    UNREACHABLE();
  CgFunc E = {.g = g, .f = g->m->globals[gi].u.relax, .fp = fp, .arith = ir_arith_new(g->ctx)};
  g->loc = E.f->loc;
  ent->fn = fp->name;
  ent->symbol = ir_printf(g->ctx, "%s_%s", g->name, cg_ident(g, fp->name));
  ent->packed = ir_printf(g->ctx, "%s_packed", ent->symbol);
  ent->arena_fn = ir_printf(g->ctx, "%s_arena_bytes_packed", ent->symbol);
  cg_entry_bounds(&E);
  cg_arena_cap(&E);
  IrBuf decl = {0}, doc = {0};
  if (cg_signature(&E, ent, &decl, &doc) && cg_outputs(&E, ent, &decl, &doc)) {
    cg_map_outputs(&E);
    cg_poison_setup(&E);
    ent->arena_bytes = fp->arena_expr ? -1 : E.arena_bytes;
    emit_body(&E, ent, &decl, out);
    cg_emit_packed(&E, ent, out);
    emit_arena_bytes(&E, ent, decls, out);
    doc_arena(&E, ent, docs);
    ir_buf_put(docs, doc.data, doc.len);
    ir_buf_puts(docs, " * Returns 0, or before writing anything a negative error code");
    if (E.asserts)
      ir_buf_printf(docs, ",\n * or %s_ERR_ASSERT where an R.assert_op or a prim_func's assert is false",
                    g->name);
    if (E.poison)
      ir_buf_printf(docs, ",\n * or %s_ERR_POISON where the poison mode finds a dead byte written", g->name);
    ir_buf_puts(docs, ". */\n");
    if (fp->arena_expr)
      ir_buf_printf(docs, "/* no %s_ARENA_BYTES: call %s_arena_bytes(...) */\n", ent->symbol,
                    ent->symbol);
    else
      ir_buf_printf(docs, "#define %s_ARENA_BYTES %lldu\n", ent->symbol,
                    (long long)(E.arena_bytes > 0 ? E.arena_bytes : 0));
    ir_buf_printf(decls,
                  "%s;\nint\n%s(void *arena, size_t arena_bytes, void *const *tensors, "
                  "const rxc_i64 *dims);\n",
                  decl.data, ent->packed);
  }
  ir_buf_free(&decl);
  ir_buf_free(&doc);
  free(E.vars);
  ir_map_free(&E.var_index);
  free(E.origins);
  ir_buf_free(&E.defs);
  ir_buf_free(&E.checks);
  ir_vec_free(&E.late);
  ir_vec_free(&E.late_nested);
  cg_names_free(&E.names);
}

/* ---- what C generation supports, for rxc list ---------------------------- */

/* Keep in step with emit_op_call: the ops it emits itself. */
bool
cg_op_native(IrOpId id)
{
  switch (id) {
  case IR_OP_MEMORY_ALLOC_STORAGE:
  case IR_OP_MEMORY_ALLOC_TENSOR:
  case IR_OP_MEMORY_KILL_STORAGE:
  case IR_OP_MEMORY_KILL_TENSOR:
  case IR_OP_TENSOR_TO_SHAPE:
  case IR_OP_ASSERT_OP:
  case IR_OP_PRINT:
    return true;
  default:
    return false;
  }
}

/* CallTIRRewrite (in every pipeline) turns these into calls of the
 * module's prim_funcs, which emit_binding emits (R.call_dps_packed of a
 * packed function's name becomes a call of it, which it refuses), or into
 * the R.memory ops that emit_op_call emits (TVM's later allocation forms). */
bool
cg_op_prim_call(IrOpId id)
{
  switch (id) {
  case IR_OP_CALL_TIR:
  case IR_OP_CALL_TIR_INPLACE:
  case IR_OP_CALL_DPS_PACKED:
  case IR_OP_BUILTIN_ALLOC_TENSOR:
  case IR_OP_VM_ALLOC_STORAGE:
  case IR_OP_VM_ALLOC_TENSOR:
  case IR_OP_VM_KILL_OBJECT:
    return true;
  default:
    return false;
  }
}
