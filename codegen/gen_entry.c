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
#include <stdlib.h>
#include <string.h>

#include "cg_int.h"

typedef enum {
  V_OTHER,   /* no C value: shapes, prim values, strings, dtypes */
  V_TENSOR,  /* cname: a typed pointer */
  V_STORAGE, /* cname: char * */
  V_TUPLE,   /* items: leaves, at compile time */
} VKind;

typedef struct {
  const IrExpr *var;
  VKind kind;
  const char *cname;
  bool is_const;            /* tensor: points to const data (input, constant) */
  const MpStorage *storage; /* storage var: its plan; tensor: the storage it views */
  const IrExpr *storage_var;/* tensor: the storage var it views, or NULL */
  int64_t offset;           /* tensor: byte offset in its storage (-1 unknown) */
  IrExpr **items;           /* tuple */
  int nitems;
} VarInfo;

/* Pre-pass: which storages a var may view. */
typedef struct {
  const IrExpr *var;
  IrVec storages; /* storage vars */
  IrExpr **items; /* tuple items */
  int nitems;
} Origin;

typedef struct {
  CgGen *g;
  const IrFunction *f;
  const MpFunctionPlan *fp;
  CgNames names;
  IrArith *arith;
  VarInfo *vars;
  int nvars, capvars;
  Origin *origins;
  int norigins, caporigins;
  const IrExpr **out_storage; /* storage var -> output index */
  int *out_index;
  int nout_storage;
  IrSInfo **outs; /* output struct infos */
  const char **out_names;
  int nouts;
  bool tuple_result; /* the result is a tuple (of nouts tensors) */
  const IrExpr **extra;   /* output storages that no output takes (a tuple of
                             which only some items are returned) */
  int64_t *extra_offset;  /* their place: after the plan's arena */
  int nextra;
  int64_t arena_bytes;    /* the plan's arena and the extra storages */
  IrVec *scope; /* names declared in the scope being emitted */
  int indent;
} Entry;

static void emit_seq(Entry *E, const IrExpr *seq, IrBuf *o);

static void
indent(const Entry *E, IrBuf *o)
{
  for (int i = 0; i < E->indent; i++)
    ir_buf_puts(o, "  ");
}

/* --- var table ------------------------------------------------------------ */

static VarInfo *
var_add(Entry *E, const IrExpr *var, VKind kind)
{
  if (E->nvars == E->capvars) {
    E->capvars = E->capvars ? 2 * E->capvars : 64;
    E->vars = realloc(E->vars, sizeof *E->vars * (size_t)E->capvars);
    if (!E->vars)
      UNREACHABLE();
  }
  VarInfo *v = &E->vars[E->nvars++];
  memset(v, 0, sizeof *v);
  v->var = var;
  v->kind = kind;
  v->offset = -1;
  return v;
}

static VarInfo *
var_find(Entry *E, const IrExpr *var)
{
  for (int i = E->nvars - 1; i >= 0; i--)
    if (E->vars[i].var == var)
      return &E->vars[i];
  return NULL;
}

/* A new C local for var, declared in the current scope. */
static const char *
local_name(Entry *E, const IrExpr *var)
{
  const char *s = cg_names_add(E->g, &E->names, var, var->u.var.name);
  if (E->scope)
    ir_vec_push(E->scope, (void *)s);
  return s;
}

/* --- the pre-pass: storages that flow into the result ---------------------- */

static Origin *
origin_find(Entry *E, const IrExpr *var)
{
  for (int i = E->norigins - 1; i >= 0; i--)
    if (E->origins[i].var == var)
      return &E->origins[i];
  return NULL;
}

static Origin *
origin_add(Entry *E, const IrExpr *var)
{
  if (E->norigins == E->caporigins) {
    E->caporigins = E->caporigins ? 2 * E->caporigins : 64;
    E->origins = realloc(E->origins, sizeof *E->origins * (size_t)E->caporigins);
    if (!E->origins)
      UNREACHABLE();
  }
  Origin *o = &E->origins[E->norigins++];
  memset(o, 0, sizeof *o);
  o->var = var;
  return o;
}

static void
origin_merge(Origin *to, const Origin *from)
{
  if (!from)
    return;
  for (int i = 0; i < from->storages.len; i++)
    ir_vec_push(&to->storages, from->storages.items[i]);
  if (from->nitems) {
    to->items = from->items;
    to->nitems = from->nitems;
  }
}

static void origins_seq(Entry *E, const IrExpr *seq);

static bool
is_op(const IrExpr *v, IrOpId id)
{
  return v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_OP && v->u.call.op->id == id;
}

static void
origins_binding(Entry *E, const IrBinding *b)
{
  const IrExpr *v = b->value;
  Origin *o = origin_add(E, b->var);
  if (is_op(v, IR_OP_MEMORY_ALLOC_STORAGE)) {
    ir_vec_push(&o->storages, (void *)b->var);
  } else if (is_op(v, IR_OP_MEMORY_ALLOC_TENSOR) && v->u.call.nargs > 0) {
    origin_merge(o, origin_find(E, v->u.call.args[0]));
  } else if (v->kind == IR_EX_VAR) {
    origin_merge(o, origin_find(E, v));
  } else if (v->kind == IR_EX_TUPLE) {
    o->items = v->u.tuple.items;
    o->nitems = v->u.tuple.n;
  } else if (v->kind == IR_EX_GET) {
    const Origin *t = origin_find(E, v->u.get.tuple);
    if (t && v->u.get.index < t->nitems && t->items[v->u.get.index]->kind == IR_EX_VAR)
      origin_merge(o, origin_find(E, t->items[v->u.get.index]));
  } else if (v->kind == IR_EX_IF) {
    origins_seq(E, v->u.branch.then_);
    origins_seq(E, v->u.branch.else_);
    /* origin_add may have moved the array: find o again */
    o = origin_find(E, b->var);
    const IrExpr *r[2] = {v->u.branch.then_->u.seq.result, v->u.branch.else_->u.seq.result};
    for (int i = 0; i < 2; i++)
      if (r[i]->kind == IR_EX_VAR) {
        Origin *from = origin_find(E, r[i]);
        Origin copy = from ? *from : (Origin){0};
        o = origin_find(E, b->var);
        origin_merge(o, from ? &copy : NULL);
      }
  }
}

static void
origins_seq(Entry *E, const IrExpr *seq)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      origins_binding(E, &seq->u.seq.blocks[i].bindings[j]);
}

/* The leaves of the result, one per output. */
static int
result_leaves(Entry *E, const IrExpr *res, IrExpr ***items)
{
  if (res->kind == IR_EX_TUPLE) {
    *items = res->u.tuple.items;
    return res->u.tuple.n;
  }
  const Origin *o = res->kind == IR_EX_VAR ? origin_find(E, res) : NULL;
  if (o && o->nitems && E->tuple_result) {
    *items = o->items;
    return o->nitems;
  }
  *items = ir_alloc(E->g->ctx, sizeof **items);
  (*items)[0] = (IrExpr *)res;
  return 1;
}

/* Output storages that no output of the result takes get bytes after the
 * plan's arena, so that they never share the caller's buffers. */
static void
place_extra(Entry *E)
{
  const MpFunctionPlan *fp = E->fp;
  int64_t align = E->g->plan->align > 0 ? E->g->plan->align : 1;
  E->arena_bytes = fp->arena_bytes;
  E->extra = ir_alloc(E->g->ctx, sizeof *E->extra * (size_t)(fp->noutputs + 1));
  E->extra_offset = ir_alloc(E->g->ctx, sizeof *E->extra_offset * (size_t)(fp->noutputs + 1));
  for (int s = 0; s < fp->noutputs; s++) {
    bool mapped = false;
    for (int j = 0; j < E->nout_storage; j++)
      mapped = mapped || E->out_storage[j] == fp->outputs[s].var;
    if (mapped)
      continue;
    if (fp->arena_expr || fp->outputs[s].bytes_max < 0) {
      cg_fail(E->g, "storage '%s' of the result has no output and no upper bound",
              fp->outputs[s].var->u.var.name);
      return;
    }
    int64_t off = (E->arena_bytes + align - 1) / align * align;
    E->extra[E->nextra] = fp->outputs[s].var;
    E->extra_offset[E->nextra++] = off;
    E->arena_bytes = off + fp->outputs[s].bytes_max;
  }
  E->arena_bytes = (E->arena_bytes + align - 1) / align * align;
}

static void
map_outputs(Entry *E)
{
  origins_seq(E, E->f->body);
  IrExpr **items;
  int n = result_leaves(E, E->f->body->u.seq.result, &items);
  E->out_storage = ir_alloc(E->g->ctx, sizeof *E->out_storage * (size_t)(E->fp->noutputs + 1));
  E->out_index = ir_alloc(E->g->ctx, sizeof *E->out_index * (size_t)(E->fp->noutputs + 1));
  for (int k = 0; k < n && k < E->nouts; k++) {
    const Origin *o = items[k]->kind == IR_EX_VAR ? origin_find(E, items[k]) : NULL;
    for (int i = 0; o && i < o->storages.len; i++)
      for (int s = 0; s < E->fp->noutputs; s++) {
        bool seen = false;
        for (int j = 0; j < E->nout_storage; j++)
          seen = seen || E->out_storage[j] == o->storages.items[i];
        if (!seen && E->fp->outputs[s].var == o->storages.items[i]) {
          E->out_storage[E->nout_storage] = o->storages.items[i];
          E->out_index[E->nout_storage++] = k;
        }
      }
  }
  for (int i = 0; i < E->norigins; i++)
    ir_vec_free(&E->origins[i].storages);
  place_extra(E);
}

/* --- leaves as C ------------------------------------------------------------ */

/* The C expression of a tensor leaf (var or constant); NULL after an error.
 * *info gets the var's info (NULL for constants). */
static const char *
tensor_leaf(Entry *E, const IrExpr *e, VarInfo **info, bool *is_const)
{
  *info = NULL;
  if (e->kind == IR_EX_CONST) {
    *is_const = true;
    return ir_printf(E->g->ctx, "%s.v", cg_const_name(E->g, e));
  }
  VarInfo *v = e->kind == IR_EX_VAR ? var_find(E, e) : NULL;
  if (!v || v->kind != V_TENSOR) {
    cg_fail(E->g, "C code generation: '%s' is not a tensor here",
            e->kind == IR_EX_VAR ? e->u.var.name : "expression");
    return NULL;
  }
  *info = v;
  *is_const = v->is_const;
  return v->cname;
}

static IrDType
tensor_dtype(const IrExpr *e)
{
  if (e->kind == IR_EX_CONST)
    return e->u.constant.dtype;
  return e->sinfo && e->sinfo->kind == IR_SI_TENSOR ? e->sinfo->u.tensor.dtype : IR_VOID;
}

/* The shape entry d of a tensor leaf as an expression; NULL when unknown. */
static IrPrimExpr *
leaf_dim(Entry *E, const IrExpr *e, int d)
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
plan_storage(Entry *E, const IrExpr *var)
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
emit_alloc_storage(Entry *E, const IrBinding *b, IrBuf *o)
{
  const MpStorage *s = plan_storage(E, b->var);
  if (!s) {
    cg_fail(E->g, "storage '%s' is not in the memory plan", b->var->u.var.name);
    return;
  }
  VarInfo *v = var_add(E, b->var, V_STORAGE);
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
        ir_buf_printf(o, "char *%s = base + %lld; /* in the result, not returned */\n", v->cname,
                      (long long)E->extra_offset[i]);
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
emit_alloc_tensor(Entry *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *c = b->value;
  VarInfo *st = c->u.call.nargs >= 2 && c->u.call.args[0]->kind == IR_EX_VAR
                    ? var_find(E, c->u.call.args[0])
                    : NULL;
  const char *ct = cg_dtype_cname(E->g, tensor_dtype(b->var));
  if (!st || st->kind != V_STORAGE || c->u.call.args[1]->kind != IR_EX_PRIM || !ct) {
    if (ct)
      cg_fail(E->g, "alloc_tensor '%s': expected a storage var and an offset", b->var->u.var.name);
    return;
  }
  VarInfo *v = var_add(E, b->var, V_TENSOR);
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
may_overlap(const Entry *E, const IrExpr *a, const VarInfo *va, const IrExpr *b, const VarInfo *vb)
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
solve_dim(Entry *E, const IrPrimFunc *f, const IrExpr *call, const IrPrimExpr *v)
{
  IrCtx *ctx = E->g->ctx;
  for (int i = 0; i < f->nparams; i++) {
    const IrBuffer *buf = f->params[i].buffer;
    for (int d = 0; buf && d < buf->ndim; d++) {
      const IrPrimExpr *s = buf->shape[d];
      IrPrimExpr *x = leaf_dim(E, call->u.call.args[i], d);
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
      IrPrimKind k = s->kind == IR_PE_MUL ? IR_PE_FLOORDIV : s->kind == IR_PE_ADD ? IR_PE_SUB : IR_PE_ADD;
      return ir_prim_bin(ctx, k, x, ir_prim_int(ctx, x->dtype, c));
    }
  }
  cg_fail(E->g, "cannot tell the value of dim '%s' of '%s' from its arguments' shapes", v->u.var,
          call->u.call.callee->u.global);
  return NULL;
}

static void
emit_call_args(Entry *E, const IrPrimFunc *f, CgPrim *p, const IrExpr *call, IrBuf *o)
{
  VarInfo **infos = calloc((size_t)f->nparams + 1, sizeof *infos);
  for (int i = 0; i < f->nparams; i++) {
    const IrExpr *a = call->u.call.args[i];
    ir_buf_puts(o, i ? ", " : "");
    if (f->params[i].buffer) {
      bool is_const;
      const char *s = tensor_leaf(E, a, &infos[i], &is_const);
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
      const char *ct = cg_dtype_cname(E->g, f->params[i].var->dtype);
      ir_buf_printf(o, "(%s)", ct ? ct : "?");
      cg_emit_expr(E->g, &E->names, a->u.prim, o);
    } else {
      cg_fail(E->g, "argument %d of '%s': C code generation needs an R.prim_value", i,
              call->u.call.callee->u.global);
    }
  }
  for (int i = 0; i < p->ndims; i++) {
    IrPrimExpr *x = solve_dim(E, f, call, p->dims[i]);
    int64_t lo, hi;
    if (!x)
      break;
    if (!ir_arith_range(E->arith, x, &lo, &hi))
      hi = INT64_MAX; /* an error only if a T.alloc_buffer needs it */
    p->dims_max[i] = hi > p->dims_max[i] ? hi : p->dims_max[i];
    ir_buf_puts(o, f->nparams + i ? ", " : "");
    cg_emit_expr(E->g, &E->names, x, o);
  }
  free(infos);
}

/* The bytes of a tensor leaf as a C expression. */
static void
emit_bytes(Entry *E, const IrExpr *e, IrBuf *o)
{
  IrDType t = tensor_dtype(e);
  int nd = e->kind == IR_EX_CONST ? e->u.constant.ndim
                                  : (e->sinfo && e->sinfo->kind == IR_SI_TENSOR ? e->sinfo->u.tensor.ndim : -1);
  ir_buf_printf(o, "(size_t)%d", ir_dtype_bytes(t));
  for (int d = 0; d < nd; d++) {
    IrPrimExpr *x = leaf_dim(E, e, d);
    ir_buf_puts(o, " * (size_t)");
    if (x)
      cg_emit_expr(E->g, &E->names, x, o);
  }
}

static void
emit_prim_call(Entry *E, const IrExpr *call, int global, IrBuf *o)
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
  indent(E, o);
  ir_buf_printf(o, "%s_%s(", E->g->name, cg_ident(E->g, callee));
  emit_call_args(E, f, p, call, o);
  ir_buf_puts(o, ");\n");
  for (int i = 0; i < f->nparams; i++) {
    const IrExpr *a = call->u.call.args[i];
    if (!p->written[i] || a->kind != IR_EX_VAR)
      continue;
    VarInfo *v = var_find(E, a);
    if (!v || v->kind != V_TENSOR)
      continue;
    indent(E, o);
    ir_buf_printf(o, "RXC_TRACE(\"%s\", %s, ", v->cname, v->cname);
    emit_bytes(E, a, o);
    ir_buf_puts(o, ");\n");
  }
}

static void
emit_op_call(Entry *E, const IrBinding *b, IrBuf *o)
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
    var_add(E, b->var, V_OTHER);
    return;
  default:
    cg_fail(E->g, "C code generation does not support %s (binding '%s'): run the pipeline first",
            v->u.call.op->name, b->var ? b->var->u.var.name : "_");
  }
}

/* x = leaf (alias, tuple item, constant, match_cast). */
static void
emit_alias(Entry *E, const IrBinding *b, const IrExpr *leaf, IrBuf *o)
{
  VarInfo *src = leaf->kind == IR_EX_VAR ? var_find(E, leaf) : NULL;
  if (src && src->kind != V_TENSOR) {
    VarInfo copy = *src;
    VarInfo *v = var_add(E, b->var, copy.kind);
    *v = copy;
    v->var = b->var;
    return;
  }
  bool is_const;
  VarInfo *info;
  const char *s = tensor_leaf(E, leaf, &info, &is_const);
  const char *ct = cg_dtype_cname(E->g, tensor_dtype(leaf));
  if (!s || !ct)
    return;
  VarInfo *v = var_add(E, b->var, V_TENSOR);
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
emit_get(Entry *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *g = b->value;
  VarInfo *t = g->u.get.tuple->kind == IR_EX_VAR ? var_find(E, g->u.get.tuple) : NULL;
  const IrExpr *leaf = NULL;
  if (t && t->kind == V_TUPLE && g->u.get.index >= 0 && g->u.get.index < t->nitems)
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
emit_if(Entry *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *v = b->value;
  const char *ct = cg_dtype_cname(E->g, tensor_dtype(b->var));
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
    VarInfo *info;
    const char *s = tensor_leaf(E, seqs[i]->u.seq.result, &info, &is_const);
    any_const = any_const || is_const;
    indent(E, &br[i]);
    ir_buf_printf(&br[i], "%s = %s;\n", name, s ? s : "?");
  }
  E->indent--;
  VarInfo *y = var_add(E, b->var, V_TENSOR);
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
    VarInfo *info;
    const char *s = tensor_leaf(E, c, &info, &is_const);
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
emit_binding(Entry *E, const IrBinding *b, IrBuf *o)
{
  const IrExpr *v = b->value;
  E->g->loc = b->loc;
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
      var_add(E, b->var, V_OTHER);
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
    VarInfo *t = var_add(E, b->var, V_TUPLE);
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
    var_add(E, b->var, V_OTHER);
    return;
  default:
    cg_fail(E->g, "C code generation does not support binding '%s' (local functions, ...)",
            b->var->u.var.name);
  }
}

/* The bindings of seq in a scope of their own text; locals the scope never
 * reads get "(void)x;" at its end. */
static void
emit_seq(Entry *E, const IrExpr *seq, IrBuf *o)
{
  IrVec scope = {0}, *outer = E->scope;
  IrBuf b = {0};
  E->scope = &scope;
  for (int i = 0; i < seq->u.seq.nblocks && !E->g->errors; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n && !E->g->errors; j++)
      emit_binding(E, &seq->u.seq.blocks[i].bindings[j], &b);
  E->scope = outer;
  for (int i = 0; i < scope.len; i++)
    if (cg_text_count(&b, scope.items[i]) == 1) {
      indent(E, &b);
      ir_buf_printf(&b, "(void)%s;\n", (const char *)scope.items[i]);
    }
  if (b.len)
    ir_buf_put(o, b.data, b.len);
  ir_buf_free(&b);
  ir_vec_free(&scope);
}

/* --- signature, checks, result --------------------------------------------- */

static void
collect_dims(const IrPrimExpr *e, IrVec *out)
{
  if (!e)
    return;
  if (e->kind == IR_PE_VAR) {
    for (int i = 0; i < out->len; i++)
      if (out->items[i] == e)
        return;
    ir_vec_push(out, (void *)e);
    return;
  }
  if (e->kind >= IR_PE_ADD && e->kind <= IR_PE_NOT) {
    collect_dims(e->u.bin.a, out);
    collect_dims(e->u.bin.b, out);
  } else if (e->kind == IR_PE_CAST) {
    collect_dims(e->u.bin.a, out);
  } else if (e->kind == IR_PE_SELECT) {
    collect_dims(e->u.select.cond, out);
    collect_dims(e->u.select.a, out);
    collect_dims(e->u.select.b, out);
  }
}

static void
sinfo_dims(const IrSInfo *s, IrVec *out)
{
  if (!s)
    return;
  if (s->kind == IR_SI_TENSOR && s->u.tensor.shape)
    for (int d = 0; d < ir_sinfo_shape_len(s); d++)
      collect_dims(s->u.tensor.shape[d], out);
  else if (s->kind == IR_SI_SHAPE && s->u.shape.values)
    for (int d = 0; d < ir_sinfo_shape_len(s); d++)
      collect_dims(s->u.shape.values[d], out);
  else if (s->kind == IR_SI_PRIM)
    collect_dims(s->u.prim.value, out);
  else if (s->kind == IR_SI_TUPLE)
    for (int i = 0; i < s->u.tuple.n; i++)
      sinfo_dims(s->u.tuple.fields[i], out);
}

static void
print_shape(const IrSInfo *s, IrBuf *o)
{
  char buf[32];
  ir_buf_printf(o, "%s (", ir_dtype_str(s->u.tensor.dtype, buf));
  for (int d = 0; d < s->u.tensor.ndim; d++) {
    ir_buf_puts(o, d ? ", " : "");
    ir_prim_expr_print(s->u.tensor.shape[d], o);
  }
  ir_buf_puts(o, s->u.tensor.ndim == 1 ? ",)" : ")");
}

static bool
tensor_known(const IrSInfo *s)
{
  return s && s->kind == IR_SI_TENSOR && s->u.tensor.shape && s->u.tensor.ndim >= 0 &&
         s->u.tensor.dtype.code != IR_DT_VOID;
}

/* The entry's signature into decl; its inputs, dims and outputs into ent. */
static bool
signature(Entry *E, CgEntry *ent, IrBuf *decl, IrBuf *doc)
{
  CgGen *g = E->g;
  const IrFunction *f = E->f;
  IrVec dims = {0}, ins = {0};
  ir_buf_printf(decl, "int\n%s(void *arena, size_t arena_bytes", ent->symbol);
  for (int i = 0; i < f->nparams; i++) {
    const IrExpr *p = f->params[i];
    sinfo_dims(p->sinfo, &dims);
    if (p->sinfo && (p->sinfo->kind == IR_SI_SHAPE || p->sinfo->kind == IR_SI_PRIM)) {
      var_add(E, p, V_OTHER);
      continue;
    }
    if (!tensor_known(p->sinfo) || !cg_dtype_cname(g, p->sinfo->u.tensor.dtype)) {
      cg_fail(g, "parameter '%s' of '%s': C code generation needs a tensor of known dtype and "
                 "rank, a shape or a prim value", p->u.var.name, ent->fn);
      return false;
    }
    VarInfo *v = var_add(E, p, V_TENSOR);
    v->cname = cg_names_add(g, &E->names, p, p->u.var.name);
    v->is_const = true;
    ir_vec_push(&ins, p->sinfo);
    ir_buf_printf(decl, ", const %s *%s", cg_dtype_cname(g, p->sinfo->u.tensor.dtype), v->cname);
    ir_buf_printf(doc, " *   %-12s input,  ", v->cname);
    print_shape(p->sinfo, doc);
    ir_buf_puts(doc, "\n");
  }
  ent->ninputs = ins.len;
  ent->inputs = (const IrSInfo **)ir_vec_freeze(g->ctx, &ins);
  ent->ndims = dims.len;
  ent->dims = (IrPrimExpr **)ir_vec_freeze(g->ctx, &dims);
  for (int i = 0; i < ent->ndims; i++) {
    const char *s = cg_names_add(g, &E->names, ent->dims[i], ent->dims[i]->u.var);
    int64_t lo = 0, hi = INT64_MAX;
    ir_arith_range(E->arith, ent->dims[i], &lo, &hi);
    ir_buf_printf(decl, ", rxc_i64 %s", s);
    ir_buf_printf(doc, " *   %-12s dim,    %lld <= %s", s, (long long)(lo > 0 ? lo : 0), s);
    if (hi != INT64_MAX)
      ir_buf_printf(doc, " <= %lld", (long long)hi);
    ir_buf_puts(doc, "\n");
  }
  return true;
}

static bool
outputs(Entry *E, CgEntry *ent, IrBuf *decl, IrBuf *doc)
{
  CgGen *g = E->g;
  const IrSInfo *r = E->f->ret;
  if (!r || (r->kind == IR_SI_TENSOR && !tensor_known(r)))
    r = E->f->body->u.seq.result->sinfo;
  int n = r && r->kind == IR_SI_TUPLE ? r->u.tuple.n : 1;
  E->outs = ir_alloc(g->ctx, sizeof *E->outs * (size_t)(n + 1));
  E->out_names = ir_alloc(g->ctx, sizeof *E->out_names * (size_t)(n + 1));
  for (int k = 0; k < n; k++) {
    IrSInfo *s = r && r->kind == IR_SI_TUPLE ? r->u.tuple.fields[k] : (IrSInfo *)r;
    if (!tensor_known(s) || !cg_dtype_cname(g, s->u.tensor.dtype)) {
      cg_fail(g, "the result of '%s': C code generation needs tensors of known dtype and shape",
              ent->fn);
      return false;
    }
    IrVec vars = {0};
    sinfo_dims(s, &vars);
    for (int i = 0; i < vars.len; i++)
      if (!cg_names_find(&E->names, vars.items[i])) {
        cg_fail(g, "the result of '%s' has dim '%s' that no parameter gives", ent->fn,
                ((const IrPrimExpr *)vars.items[i])->u.var);
        ir_vec_free(&vars);
        return false;
      }
    ir_vec_free(&vars);
    E->outs[k] = s;
    E->out_names[k] = cg_names_add(g, &E->names, &E->outs[k], n == 1 ? "out" : ir_printf(g->ctx, "out%d", k));
    ir_buf_printf(decl, ", %s *%s", cg_dtype_cname(g, s->u.tensor.dtype), E->out_names[k]);
    ir_buf_printf(doc, " *   %-12s output, ", E->out_names[k]);
    print_shape(s, doc);
    ir_buf_puts(doc, "\n");
  }
  E->nouts = n;
  E->tuple_result = r && r->kind == IR_SI_TUPLE;
  ent->noutputs = n;
  ent->outputs = (const IrSInfo **)E->outs;
  ir_buf_puts(decl, ")");
  return true;
}

static void
emit_return_if(Entry *E, const char *err, IrBuf *o)
{
  ir_buf_printf(o, ")\n    return %s_ERR_%s;\n", E->g->name, err);
}

/* The shape dims of s that the dims could make negative. */
static void
emit_shape_checks(Entry *E, const IrSInfo *s, IrBuf *o)
{
  for (int d = 0; d < s->u.tensor.ndim; d++) {
    IrPrimExpr *x = s->u.tensor.shape[d];
    if (x->kind == IR_PE_VAR || x->kind == IR_PE_INT)
      continue;
    IrPrimExpr *ge = ir_prim_bin(E->g->ctx, IR_PE_GE, x, ir_prim_int(E->g->ctx, x->dtype, 0));
    if (ir_arith_prove(E->arith, ge) == IR_PROVE_TRUE)
      continue;
    ir_buf_puts(o, "  if (");
    cg_emit_expr(E->g, &E->names, x, o);
    ir_buf_puts(o, " < 0");
    emit_return_if(E, "SHAPE", o);
  }
}

static void
emit_checks(Entry *E, const CgEntry *ent, IrBuf *o)
{
  const MpFunctionPlan *fp = E->fp;
  bool arena = fp->arena_expr || E->arena_bytes > 0;
  ir_buf_puts(o, "  /* every check before anything is written */\n  if (");
  int k = 0;
  for (int i = 0; i < E->f->nparams; i++) {
    const VarInfo *v = var_find(E, E->f->params[i]);
    if (v && v->kind == V_TENSOR)
      ir_buf_printf(o, "%s!%s", k++ ? " || " : "", v->cname);
  }
  for (int i = 0; i < E->nouts; i++)
    ir_buf_printf(o, "%s!%s", k++ ? " || " : "", E->out_names[i]);
  if (arena)
    ir_buf_printf(o, "%s!arena", k++ ? " || " : "");
  if (!k)
    ir_buf_puts(o, "0");
  emit_return_if(E, "NULL", o);
  for (int i = 0; i < ent->ndims; i++) {
    const char *s = cg_names_find(&E->names, ent->dims[i]);
    int64_t lo = 0, hi = INT64_MAX;
    ir_arith_range(E->arith, ent->dims[i], &lo, &hi);
    ir_buf_printf(o, "  if (%s < %lld", s, (long long)(lo > 0 ? lo : 0));
    if (hi != INT64_MAX)
      ir_buf_printf(o, " || %s > %lldLL", s, (long long)hi);
    emit_return_if(E, "DIM", o);
  }
  for (int i = 0; i < ent->ninputs; i++)
    emit_shape_checks(E, ent->inputs[i], o);
  for (int i = 0; i < E->nouts; i++)
    emit_shape_checks(E, E->outs[i], o);
  if (arena) {
    ir_buf_puts(o, "  if (arena_bytes < (size_t)");
    if (fp->arena_expr)
      cg_emit_expr(E->g, &E->names, fp->arena_expr, o);
    else
      ir_buf_printf(o, "%lldu", (long long)E->arena_bytes);
    emit_return_if(E, "ARENA_SIZE", o);
    ir_buf_printf(o, "  if ((rxc_uptr)arena %% %lldu != 0", (long long)E->g->plan->align);
    emit_return_if(E, "ARENA_ALIGN", o);
  }
  for (int i = 0; i < fp->nchecks; i++) {
    ir_buf_printf(o, "  /* %s */\n  if (!", fp->checks[i].what ? fp->checks[i].what : "");
    cg_emit_expr(E->g, &E->names, fp->checks[i].cond, o);
    emit_return_if(E, "CHECK", o);
  }
}

/* Results not already in the caller's buffers are copied there. */
static void
emit_result(Entry *E, IrBuf *o)
{
  IrExpr **items;
  int n = result_leaves(E, E->f->body->u.seq.result, &items);
  if (n != E->nouts) {
    cg_fail(E->g, "the result of '%s' has %d tensors; its annotation %d", E->fp->name, n, E->nouts);
    return;
  }
  for (int k = 0; k < n; k++) {
    VarInfo *info;
    bool is_const;
    const char *s = tensor_leaf(E, items[k], &info, &is_const);
    if (!s)
      return;
    bool in_place = false;
    for (int i = 0; info && info->storage_var && i < E->nout_storage; i++)
      in_place = in_place || (E->out_storage[i] == info->storage_var && E->out_index[i] == k &&
                              info->offset == 0);
    if (in_place)
      continue;
    E->g->copy_used = true;
    ir_buf_printf(o, "  if ((const void *)%s != (const void *)%s)\n    rxc_copy(%s, %s, ", s,
                  E->out_names[k], E->out_names[k], s);
    emit_bytes(E, items[k], o);
    ir_buf_puts(o, ");\n");
  }
}

static void
emit_packed(Entry *E, const CgEntry *ent, IrBuf *o)
{
  CgGen *g = E->g;
  ir_buf_printf(o, "int\n%s(void *arena, size_t arena_bytes, void *const *tensors, const rxc_i64 *dims)\n{\n",
                ent->packed);
  int nt = ent->ninputs + ent->noutputs;
  if (nt || ent->ndims)
    ir_buf_printf(o, "  if (%s%s%s)\n    return %s_ERR_NULL;\n", nt ? "!tensors" : "",
                  nt && ent->ndims ? " || " : "", ent->ndims ? "!dims" : "", g->name);
  if (!nt)
    ir_buf_puts(o, "  (void)tensors;\n");
  if (!ent->ndims)
    ir_buf_puts(o, "  (void)dims;\n");
  ir_buf_printf(o, "  return %s(arena, arena_bytes", ent->symbol);
  for (int i = 0; i < ent->ninputs; i++)
    ir_buf_printf(o, ", (const %s *)tensors[%d]", cg_dtype_cname(g, ent->inputs[i]->u.tensor.dtype), i);
  for (int i = 0; i < ent->ndims; i++)
    ir_buf_printf(o, ", dims[%d]", i);
  for (int i = 0; i < ent->noutputs; i++)
    ir_buf_printf(o, ", (%s *)tensors[%d]", cg_dtype_cname(g, ent->outputs[i]->u.tensor.dtype),
                  ent->ninputs + i);
  ir_buf_puts(o, ");\n}\n\n");
}

static void
entry_bounds(Entry *E)
{
  const CfgOptions *cfg = E->g->cfg;
  IrVec vars = {0};
  ir_arith_bound_function(E->arith, E->f);
  for (int i = 0; i < E->f->nparams; i++)
    sinfo_dims(E->f->params[i]->sinfo, &vars);
  for (int i = 0; i < vars.len; i++) {
    const IrPrimExpr *v = vars.items[i];
    int64_t lo, hi;
    for (int k = 0; k < cfg->memplan.nupper_bounds; k++)
      if (strcmp(cfg->memplan.upper_bounds[k].name, v->u.var) == 0)
        ir_arith_bound(E->arith, v, INT64_MIN, cfg->memplan.upper_bounds[k].bound);
    if (cfg->memplan.default_upper_bound > 0 &&
        (!ir_arith_range(E->arith, v, &lo, &hi) || hi == INT64_MAX))
      ir_arith_bound(E->arith, v, INT64_MIN, cfg->memplan.default_upper_bound);
  }
  ir_vec_free(&vars);
}

static void
emit_body(Entry *E, const CgEntry *ent, const IrBuf *decl, IrBuf *out)
{
  IrBuf checks = {0}, body = {0};
  if (E->g->cfg->codegen.checks)
    emit_checks(E, ent, &checks);
  E->indent = 1;
  emit_seq(E, E->f->body, &body);
  if (!E->g->errors)
    emit_result(E, &body);
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
  for (int i = 0; i < E->names.n; i++)
    if (!cg_text_uses(&checks, E->names.names[i]))
      ir_buf_printf(out, "  (void)%s;\n", E->names.names[i]);
  ir_buf_put(out, checks.data, checks.len);
  ir_buf_free(&checks);
  ir_buf_free(&body);
}

void
cg_emit_entry(CgGen *g, const MpFunctionPlan *fp, CgEntry *ent, IrBuf *decls, IrBuf *docs,
              IrBuf *out)
{
  int gi = cg_global_index(g, fp->name);
  if (gi < 0 || g->m->globals[gi].kind != IR_GLOBAL_RELAX)
    UNREACHABLE();
  Entry E = {.g = g, .f = g->m->globals[gi].u.relax, .fp = fp, .arith = ir_arith_new(g->ctx)};
  g->loc = E.f->loc;
  ent->fn = fp->name;
  ent->symbol = ir_printf(g->ctx, "%s_%s", g->name, cg_ident(g, fp->name));
  ent->packed = ir_printf(g->ctx, "%s_packed", ent->symbol);
  entry_bounds(&E);
  IrBuf decl = {0}, doc = {0};
  if (signature(&E, ent, &decl, &doc) && outputs(&E, ent, &decl, &doc)) {
    map_outputs(&E);
    ent->arena_bytes = fp->arena_expr ? -1 : E.arena_bytes;
    emit_body(&E, ent, &decl, out);
    emit_packed(&E, ent, out);
    ir_buf_printf(docs, "/* %s: R.function %s.\n *   %-12s ", ent->symbol, fp->name, "arena");
    if (fp->arena_expr)
      ir_buf_puts(docs, "bytes depend on the dims");
    else
      ir_buf_printf(docs, "%lld bytes", (long long)E.arena_bytes);
    ir_buf_printf(docs, ", aligned to %lld\n", (long long)g->plan->align);
    ir_buf_put(docs, doc.data, doc.len);
    ir_buf_puts(docs, " * Returns 0, or before writing anything a negative error code. */\n");
    ir_buf_printf(docs, "#define %s_ARENA_BYTES %lldu\n", ent->symbol,
                  (long long)(E.arena_bytes > 0 ? E.arena_bytes : 0));
    ir_buf_printf(decls, "%s;\nint\n%s(void *arena, size_t arena_bytes, void *const *tensors, "
                         "const rxc_i64 *dims);\n",
                  decl.data, ent->packed);
  }
  ir_buf_free(&decl);
  ir_buf_free(&doc);
  free(E.vars);
  free(E.origins);
  cg_names_free(&E.names);
}
