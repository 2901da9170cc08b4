/*
 * realize_vdevice.c - RealizeVDevice: propagates virtual devices from
 * R.hint_on_device and R.to_vdevice into the struct info of every tensor
 * var, and drops the hints.
 *
 * Key idea: tensors that meet in one call live on one device.  Every
 * tensor a var holds (the var itself, or each tensor field of a tuple var)
 * is a node of a union-find; a call other than hint_on_device/to_vdevice
 * joins the nodes of its arguments and its result, a trivial binding,
 * match_cast, tuple or tuple-get joins corresponding fields, an if joins its
 * var with both branch results.  Facts come, in program order, from
 * vdevices written in struct info (params, bindings, the return
 * annotation), from the outputs of hint_on_device and to_vdevice; two
 * different facts in one group are an error naming the binding that
 * brought them together.  Then the inputs of hint_on_device give their
 * device to groups that have none (TVM's second round), the first hint in
 * program order winning.  Each group's device is written into the struct
 * info of its vars, and `y = R.hint_on_device(x, dev)` becomes `y = x` when
 * x ends up on dev, else `y = R.to_vdevice(x, dev)`.
 *
 * Unlike TVM's pass (apache/tvm src/relax/transform/realize_vdevice.cc),
 * which updated its input module in place, the input is never changed:
 * the rewriter builds new vars and functions, and the module is a copy.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/op.h"
#include "opt.h"
#include "opt_int.h"

/* A growable array of ints on the heap. */
typedef struct {
  int *v;
  int n, cap;
} Ints;

static void
ints_push(Ints *a, int x)
{
  if (a->n == a->cap) {
    a->cap = a->cap ? 2 * a->cap : 16;
    a->v = ir_xrealloc(a->v, (size_t)a->cap * sizeof *a->v);
  }
  a->v[a->n++] = x;
}

typedef struct {
  IrCtx *ctx;
  const IrModule *mod;
  const char *func;  /* the global being analyzed, for messages */
  IrMap first;       /* var -> (first node + 1), as a pointer-sized int */
  Ints parent;       /* union-find parent of each node */
  Ints dev;          /* each root's vdevice, -1 unknown */
  IrVec src;         /* each root's IrSym: the var its device came from */
  Ints weak_node, weak_dev; /* hint inputs, in program order */
  int nerrors;
} Realize;

/* --- tensors in struct info ----------------------------------------------- */

/* How many tensors a value of struct info s holds (tuple fields count). */
static int
count_tensors(const IrSInfo *s)
{
  if (!s)
    return 0;
  if (s->kind == IR_SI_TENSOR)
    return 1;
  if (s->kind != IR_SI_TUPLE)
    return 0;
  int n = 0;
  for (int i = 0; i < s->u.tuple.n; i++)
    n += count_tensors(s->u.tuple.fields[i]);
  return n;
}

/* The vdevice of each tensor of s, in order, appended to out. */
static void
tensor_devices(const IrSInfo *s, Ints *out)
{
  if (!s)
    return;
  if (s->kind == IR_SI_TENSOR)
    ints_push(out, s->u.tensor.vdevice);
  else if (s->kind == IR_SI_TUPLE)
    for (int i = 0; i < s->u.tuple.n; i++)
      tensor_devices(s->u.tuple.fields[i], out);
}

/* s with the vdevices of its tensors taken from devs (starting at *k);
 * s itself when none changes. */
static IrSInfo *
with_devices(IrCtx *ctx, IrSInfo *s, const int *devs, int *k)
{
  if (!s)
    return s;
  if (s->kind == IR_SI_TENSOR) {
    int d = devs[(*k)++];
    if (d < 0 || d == s->u.tensor.vdevice)
      return s;
    IrSInfo *copy = ir_alloc(ctx, sizeof *copy);
    *copy = *s;
    copy->u.tensor.vdevice = d;
    return copy;
  }
  if (s->kind != IR_SI_TUPLE)
    return s;
  IrSInfo **fields = NULL;
  for (int i = 0; i < s->u.tuple.n; i++) {
    IrSInfo *f = with_devices(ctx, s->u.tuple.fields[i], devs, k);
    if (f != s->u.tuple.fields[i] && !fields) {
      fields = ir_alloc(ctx, (size_t)s->u.tuple.n * sizeof *fields);
      memcpy(fields, s->u.tuple.fields, (size_t)s->u.tuple.n * sizeof *fields);
    }
    if (fields)
      fields[i] = f;
  }
  if (!fields)
    return s;
  IrSInfo *copy = ir_alloc(ctx, sizeof *copy);
  *copy = *s;
  copy->u.tuple.fields = fields;
  return copy;
}

/* "llvm:0": how the printer names vdevice index i. */
static const char *
vdevice_name(const Realize *r, int i)
{
  IrBuf text = {0};
  ir_vdevice_name(r->mod, i, &text);
  const char *name = ir_strdup(r->ctx, text.data, text.len);
  ir_buf_free(&text);
  return name;
}

static int64_t
int_attr(const IrExpr *call, const char *name, int64_t fallback)
{
  const IrAttr *a = ir_attr_get(call->u.call.attrs, name);
  return a && a->kind == IR_AT_INT ? a->u.i : fallback;
}

/* The vdevice a hint names: the first in the module's global infos with its
 * device type and vdevice_id (TVM ignores the memory scope here too); -1
 * after an error. */
static int
hint_vdevice(Realize *r, const IrBinding *b, const IrExpr *call)
{
  int64_t type = int_attr(call, "dev_type", -1), index = int_attr(call, "index", 0);
  int i = ir_module_find_vdevice(r->mod, type, index);
  if (i >= 0)
    return i;
  ir_error(r->ctx, b->loc,
           "RealizeVDevice: binding '%s' in function '%s': no vdevice in "
           "I.module_global_infos matches R.device(dev_type=%lld, index=%lld)",
           b->var ? b->var->u.var.name : "?", r->func, (long long)type, (long long)index);
  r->nerrors++;
  return -1;
}

/* The index of the vdevice a string names as the parser reads it: "kind",
 * "kind:i" (the i-th of that kind), "kind:i:scope" or "vdevice:i"; -1 when
 * none. */
static int
named_vdevice(const IrModule *m, const char *s)
{
  const char *colon = strchr(s, ':');
  size_t klen = colon ? (size_t)(colon - s) : strlen(s);
  int want = colon ? atoi(colon + 1) : 0;
  if (klen == 7 && strncmp(s, "vdevice", 7) == 0)
    return want >= 0 && want < m->nvdevices ? want : -1;
  for (int i = 0, seen = 0; i < m->nvdevices; i++)
    if (m->vdevices[i].kind && strlen(m->vdevices[i].kind) == klen &&
        strncmp(m->vdevices[i].kind, s, klen) == 0 && seen++ == want)
      return i;
  return -1;
}

/* The vdevice R.to_vdevice names (an index or a string); -1 after an
 * error. */
static int
dst_vdevice(Realize *r, const IrBinding *b, const IrExpr *call)
{
  const IrAttr *a = ir_attr_get(call->u.call.attrs, "dst_vdevice");
  int d = -1;
  if (a && a->kind == IR_AT_INT && a->u.i >= 0 && a->u.i < r->mod->nvdevices)
    d = (int)a->u.i;
  else if (a && a->kind == IR_AT_STR)
    d = named_vdevice(r->mod, a->u.s);
  if (d >= 0)
    return d;
  ir_error(r->ctx, b->loc, "RealizeVDevice: binding '%s' in function '%s': R.to_vdevice names no "
           "vdevice of I.module_global_infos", b->var ? b->var->u.var.name : "?", r->func);
  r->nerrors++;
  return -1;
}

/* --- the union-find ---------------------------------------------------------- */

static int
find(Realize *r, int x)
{
  while (r->parent.v[x] != x) {
    r->parent.v[x] = r->parent.v[r->parent.v[x]];
    x = r->parent.v[x];
  }
  return x;
}

/* Nodes for the tensors of a var (once); returns the first. */
static int
var_nodes(Realize *r, const IrExpr *var)
{
  intptr_t first = (intptr_t)ir_map_get(&r->first, var);
  if (first)
    return (int)first - 1;
  int base = r->parent.n, n = count_tensors(var->sinfo);
  for (int i = 0; i < n; i++) {
    ints_push(&r->parent, base + i);
    ints_push(&r->dev, -1);
    ir_vec_push(&r->src, NULL);
  }
  ir_map_put(&r->first, var, (void *)(intptr_t)(base + 1));
  return base;
}

static void
conflict(Realize *r, const IrBinding *b, IrLoc loc, int dev, IrSym name, int other, IrSym from)
{
  ir_error(r->ctx, b ? b->loc : loc,
           "RealizeVDevice: %s%s%s in function '%s': vdevice %s of '%s' conflicts with vdevice %s "
           "of '%s'", b ? "binding '" : "the return value", b && b->var ? b->var->u.var.name : "",
           b ? "'" : "", r->func, vdevice_name(r, dev), name ? name : "?",
           vdevice_name(r, other), from ? from : "?");
  r->nerrors++;
}

/* Records that node x is on dev (a fact from name); a different device
 * already known for its group is a conflict at b. */
static void
fact(Realize *r, const IrBinding *b, IrLoc loc, int x, int dev, IrSym name)
{
  int root = find(r, x);
  if (dev < 0)
    return;
  if (r->dev.v[root] < 0) {
    r->dev.v[root] = dev;
    r->src.items[root] = (void *)name;
  } else if (r->dev.v[root] != dev) {
    conflict(r, b, loc, dev, name, r->dev.v[root], r->src.items[root]);
  }
}

static void
join(Realize *r, const IrBinding *b, int x, int y)
{
  int rx = find(r, x), ry = find(r, y);
  if (rx == ry)
    return;
  int dx = r->dev.v[rx], dy = r->dev.v[ry];
  if (dx >= 0 && dy >= 0 && dx != dy) {
    IrLoc none = {0};
    conflict(r, b, none, dy, r->src.items[ry], dx, r->src.items[rx]);
    return;
  }
  r->parent.v[ry] = rx;
  if (dx < 0) {
    r->dev.v[rx] = dy;
    r->src.items[rx] = r->src.items[ry];
  }
}

/* --- collecting ------------------------------------------------------------- */

/* The nodes of the tensors an expression holds, appended to out; false when
 * unknown (a leaf without var, a tuple-get of something not understood). */
static bool
expr_nodes(Realize *r, const IrExpr *e, Ints *out)
{
  if (!e)
    return false;
  switch (e->kind) {
  case IR_EX_VAR: {
    int base = var_nodes(r, e), n = count_tensors(e->sinfo);
    for (int i = 0; i < n; i++)
      ints_push(out, base + i);
    return true;
  }
  case IR_EX_TUPLE:
    for (int i = 0; i < e->u.tuple.n; i++)
      if (!expr_nodes(r, e->u.tuple.items[i], out))
        return false;
    return true;
  case IR_EX_GET: {
    const IrSInfo *t = e->u.get.tuple->sinfo;
    Ints all = {0};
    bool ok = t && t->kind == IR_SI_TUPLE && e->u.get.index >= 0 && e->u.get.index < t->u.tuple.n &&
              expr_nodes(r, e->u.get.tuple, &all) && all.n == count_tensors(t);
    if (ok) {
      int at = 0;
      for (int i = 0; i < e->u.get.index; i++)
        at += count_tensors(t->u.tuple.fields[i]);
      for (int i = 0; i < count_tensors(t->u.tuple.fields[e->u.get.index]); i++)
        ints_push(out, all.v[at + i]);
    }
    free(all.v);
    return ok;
  }
  default:
    return false;
  }
}

/* Joins the tensors of var with those of e field by field, when both are
 * known and have as many. */
static void
join_fields(Realize *r, const IrBinding *b, const IrExpr *var, const IrExpr *e)
{
  Ints x = {0}, y = {0};
  if (expr_nodes(r, var, &x) && expr_nodes(r, e, &y) && x.n == y.n)
    for (int i = 0; i < x.n; i++)
      join(r, b, x.v[i], y.v[i]);
  free(x.v);
  free(y.v);
}

/* Facts from the vdevices written in the struct info of var. */
static void
annotation_facts(Realize *r, const IrBinding *b, const IrExpr *var)
{
  Ints devs = {0};
  tensor_devices(var->sinfo, &devs);
  int base = var_nodes(r, var);
  for (int i = 0; i < devs.n; i++)
    fact(r, b, var->loc, base + i, devs.v[i], var->u.var.name);
  free(devs.v);
}

/* A call bound to var: hints and transfers give facts, other calls put
 * their arguments and result on one device. */
static void
collect_call(Realize *r, const IrBinding *b, const IrExpr *var, const IrExpr *call)
{
  IrOpId id = call->u.call.kind == IR_CALL_OP ? call->u.call.op->id : IR_OP_COUNT;
  Ints x = {0};
  expr_nodes(r, var, &x);
  if (id == IR_OP_HINT_ON_DEVICE || id == IR_OP_TO_VDEVICE) {
    int dev = id == IR_OP_TO_VDEVICE ? dst_vdevice(r, b, call) : hint_vdevice(r, b, call);
    for (int i = 0; i < x.n; i++)
      fact(r, b, var->loc, x.v[i], dev, var->u.var.name);
    Ints in = {0};
    if (id == IR_OP_HINT_ON_DEVICE && dev >= 0 && call->u.call.nargs > 0 &&
        expr_nodes(r, call->u.call.args[0], &in))
      for (int i = 0; i < in.n; i++) {
        ints_push(&r->weak_node, in.v[i]);
        ints_push(&r->weak_dev, dev);
      }
    free(in.v);
    free(x.v);
    return;
  }
  if (call->u.call.kind == IR_CALL_VAR)
    expr_nodes(r, call->u.call.callee, &x);
  for (int i = 0; i < call->u.call.nargs; i++)
    expr_nodes(r, call->u.call.args[i], &x);
  for (int i = 1; i < x.n; i++)
    join(r, b, x.v[0], x.v[i]);
  free(x.v);
  annotation_facts(r, b, var); /* after: a conflict names the operands */
}

static void collect_function(Realize *r, const IrFunction *f);
static void collect_seq(Realize *r, const IrExpr *seq, const IrBinding *owner);

static void
collect_binding(Realize *r, const IrBinding *b)
{
  const IrExpr *v = b->value;
  if (!b->var || !v)
    return;
  if (v->kind == IR_EX_CALL && !b->cast) {
    collect_call(r, b, b->var, v);
    return;
  }
  if (v->kind == IR_EX_IF) {
    collect_seq(r, v->u.branch.then_, b);
    collect_seq(r, v->u.branch.else_, b);
  } else if (v->kind == IR_EX_FUNC && v->u.func) {
    collect_function(r, v->u.func);
  } else {
    join_fields(r, b, b->var, v);
  }
  annotation_facts(r, b, b->var);
}

/* The bindings of a seq; the result of an if branch (owner) is bound to the
 * if's var. */
static void
collect_seq(Realize *r, const IrExpr *seq, const IrBinding *owner)
{
  for (int i = 0; i < seq->u.seq.nblocks; i++)
    for (int j = 0; j < seq->u.seq.blocks[i].n; j++)
      collect_binding(r, &seq->u.seq.blocks[i].bindings[j]);
  const IrExpr *res = seq->u.seq.result;
  if (!owner || !res)
    return;
  if (res->kind == IR_EX_CALL)
    collect_call(r, owner, owner->var, res);
  else
    join_fields(r, owner, owner->var, res);
}

/* Facts from the return annotation, for the tensors of the result. */
static void
return_facts(Realize *r, const IrFunction *f)
{
  Ints x = {0}, devs = {0};
  tensor_devices(f->ret, &devs);
  if (expr_nodes(r, f->body->u.seq.result, &x) && x.n == devs.n)
    for (int i = 0; i < x.n; i++)
      fact(r, NULL, f->loc, x.v[i], devs.v[i], "the return annotation");
  free(x.v);
  free(devs.v);
}

static void
collect_function(Realize *r, const IrFunction *f)
{
  for (int i = 0; i < f->nparams; i++)
    annotation_facts(r, NULL, f->params[i]);
  if (!f->body)
    return;
  collect_seq(r, f->body, NULL);
  return_facts(r, f);
}

/* The second round: hinted inputs give their device to groups without one. */
static void
apply_hints(Realize *r)
{
  for (int i = 0; i < r->weak_node.n; i++) {
    int root = find(r, r->weak_node.v[i]);
    if (r->dev.v[root] < 0)
      r->dev.v[root] = r->weak_dev.v[i];
  }
}

/* --- rewriting ------------------------------------------------------------- */

/* The struct info var has once every group's device is known. */
static IrSInfo *
realized_sinfo(Realize *r, const IrExpr *var)
{
  int n = count_tensors(var->sinfo);
  if (n == 0)
    return var->sinfo;
  int base = var_nodes(r, var), k = 0;
  int *devs = ir_xmalloc((size_t)n * sizeof *devs);
  for (int i = 0; i < n; i++)
    devs[i] = r->dev.v[find(r, base + i)];
  IrSInfo *s = with_devices(r->ctx, var->sinfo, devs, &k);
  free(devs);
  return s;
}

/* y = R.hint_on_device(x, dev) becomes y = x when x is on dev, else
 * y = R.to_vdevice(x, dev). */
static IrExpr *
drop_hint(Realize *r, const IrBinding *b, IrExpr *call)
{
  IrExpr *arg = call->u.call.nargs > 0 ? call->u.call.args[0] : NULL;
  int dev = hint_vdevice(r, b, call);
  if (!arg || dev < 0)
    return call;
  const IrSInfo *s = arg->kind == IR_EX_VAR ? arg->sinfo : NULL;
  if (s && s->kind == IR_SI_TENSOR && s->u.tensor.vdevice == dev)
    return arg;
  IrSym key = ir_sym(r->ctx, "dst_vdevice");
  IrAttr *value = ir_attr_str(r->ctx, ir_sym(r->ctx, vdevice_name(r, dev)));
  IrExpr **args = ir_alloc(r->ctx, sizeof *args);
  args[0] = arg;
  IrExpr *to = ir_call_op(r->ctx, &op_def(IR_OP_TO_VDEVICE)->syn, args, 1,
                          ir_attr_dict(r->ctx, &key, &value, 1), call->loc);
  to->sinfo = b->var ? b->var->sinfo : NULL;
  return to;
}

static bool
rewrite_binding(Rewriter *rw, IrBinding *b)
{
  Realize *r = rw->user;
  if (!rw->at_result && b->var) {
    IrSInfo *s = realized_sinfo(r, b->var);
    if (s != b->var->sinfo)
      b->var = opt_rw_var_recreate(rw, b->var, s);
  }
  IrExpr *v = b->value;
  if (v && v->kind == IR_EX_CALL && v->u.call.kind == IR_CALL_OP &&
      v->u.call.op->id == IR_OP_HINT_ON_DEVICE)
    b->value = drop_hint(r, b, v);
  return true;
}

/* f with its params' and bindings' struct info realized; NULL after an
 * error.  Params of local functions keep their struct info. */
static IrFunction *
rewrite_function(Realize *r, const IrFunction *f, IrSym name)
{
  Rewriter rw;
  opt_rw_init(&rw, r->ctx, r);
  rw.binding = rewrite_binding;
  IrExpr **params = NULL;
  for (int i = 0; i < f->nparams; i++) {
    IrSInfo *s = realized_sinfo(r, f->params[i]);
    if (s == f->params[i]->sinfo)
      continue;
    if (!params) {
      params = ir_alloc(r->ctx, (size_t)f->nparams * sizeof *params);
      memcpy(params, f->params, (size_t)f->nparams * sizeof *params);
    }
    params[i] = opt_rw_var_recreate(&rw, f->params[i], s);
  }
  IrFunction *out = opt_rw_function(&rw, f, name);
  opt_rw_free(&rw);
  if (out && params) {
    if (out == f) {
      out = ir_alloc(r->ctx, sizeof *out);
      *out = *f;
    }
    out->params = params;
  }
  return out;
}

/* One global: analysis, then rewriting; NULL after errors. */
static IrFunction *
realize_function(IrCtx *ctx, const IrFunction *f, const char *name, void *user)
{
  const IrModule *m = user;
  Realize r = {ctx, m, name, {0}, {0}, {0}, {0}, {0}, {0}, 0};
  collect_function(&r, f);
  apply_hints(&r);
  IrFunction *out = r.nerrors ? NULL : rewrite_function(&r, f, name);
  if (r.nerrors)
    out = NULL;
  ir_map_free(&r.first);
  free(r.parent.v);
  free(r.dev.v);
  ir_vec_free(&r.src);
  free(r.weak_node.v);
  free(r.weak_dev.v);
  return out;
}

IrModule *
opt_realize_vdevice(const OptContext *oc, const IrModule *m)
{
  IrModule *norm = opt_normalize(oc->ctx, m);
  if (!norm)
    return NULL;
  return opt_rw_module_functions(oc->ctx, norm, realize_function, norm);
}
