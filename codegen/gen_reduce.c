/*
 * gen_reduce.c - a loop of independent reductions, several at a time
 * ([codegen] rows: the C that libtcc compiles; gen_row.c calls it).
 *
 *   for (c = min; c < min + C; c++) {
 *     acc[k] = INIT(c);
 *     for (i...) { const T v = V(c, i); acc[k] = U(acc[k], v, c, i); }
 *     DST[index(c)] = FINAL(acc[k], c);
 *   }
 * (a mean's or a sum's channels) becomes, L lanes dividing C,
 *   for (c = min; c < min + C; c += L) {
 *     T red[L];
 *     red[l] = INIT(c + l);                            each lane l
 *     for (i...) {
 *       { const T v = V(c + l, i); red[l] = U(red[l], v, c + l, i); }  each l
 *     }
 *     DST[index(c + l)] = FINAL(red[l], c + l);          each l
 *     acc[k] = red[L - 1];
 *   }
 *
 * Key idea: tcc keeps acc in memory, so one reduction is a chain of a
 * store, its forwarded load and the add (about 10 cycles an element); L
 * independent chains overlap, about 3x faster (the means of
 * efficientnet_b0's squeeze-excite blocks).  Each lane runs its
 * reduction's operations in their order: the same bits.  Legal when the
 * lanes are independent: the loop's body is exactly those three
 * statements, acc is a local buffer read only at acc[k], the nest stores
 * only acc[k], and nothing reads DST's memory or a buffer that may share
 * it (gen_row.c's rules); then only DST's stores move, after the nests,
 * in their order.  acc ends as the loop leaves it.
 */
#include "cg_int.h"

enum {
  RED_MAX_DEPTH = 8, /* loops of the nest */
};

typedef struct {
  CgGen *g;
  IrArith *arith;
  const IrPrimFunc *f;
  bool aliased;              /* two buffer parameters may share bytes (CgPrim) */
  const IrStmt *loop;        /* the loop over the reductions (c) */
  const IrStmt *init;        /* acc[k] = INIT */
  const IrStmt *nest[RED_MAX_DEPTH]; /* the reduction's loops, outermost first */
  int depth;
  const IrStmt *let;         /* the innermost body's let of v, or NULL */
  const IrStmt *update;      /* acc[k] = U */
  const IrStmt *final;       /* DST[index] = FINAL */
  const IrBuffer *acc;
  const IrBuffer *dst_root;  /* the memory DST is declared over */
  IrBuffer *red;             /* the lanes' sums, a buffer of the C only */
  IrPrimExpr *v;             /* the let's var in the lanes (a name of their own: gen_tir.c
                                names the let's var when it writes the loop) */
  int lanes;
} Red;

static bool
is_var(const IrPrimExpr *e, void *user)
{
  return e == user;
}

static bool
is_float(IrDType t)
{
  return t.code == IR_DT_FLOAT && (t.bits == 32 || t.bits == 64) && t.lanes == 1;
}

/* Is store s acc at literal indices?  Those of the first (r->init) set
 * r->acc; the others must be the same. */
static bool
acc_store(Red *r, const IrStmt *s)
{
  const IrBuffer *b = s->u.store.buffer;
  int64_t v;
  if (s->kind != IR_ST_STORE || !is_float(b->dtype) || s->u.store.n != b->ndim)
    return false;
  for (int d = 0; d < s->u.store.n; d++)
    if (!ir_prim_is_int(s->u.store.indices[d], &v))
      return false;
  if (!r->acc) { /* a local buffer of its own memory */
    if (cg_buffer_is_param(r->f, b) || cg_buffer_root(r->f, b) != b)
      return false;
    r->acc = b;
    return true;
  }
  if (b != r->acc)
    return false;
  for (int d = 0; d < b->ndim; d++)
    if (!ir_prim_expr_equal(s->u.store.indices[d], r->init->u.store.indices[d]))
      return false;
  return true;
}

/* Does e break the lanes' independence: a call that is no intrinsic
 * (an extern: it may have effects), or a load of acc's memory other than
 * acc[k], of DST's memory, or of a parameter that may share DST's bytes? */
static bool
load_conflicts(const IrPrimExpr *e, void *user)
{
  const Red *r = user;
  if (e->kind == IR_PE_CALL)
    return !ir_tir_intrin_find(e->u.call.op, e->u.call.n);
  if (e->kind != IR_PE_LOAD)
    return false;
  const IrBuffer *b = e->u.load.buffer, *root = cg_buffer_root(r->f, b);
  if (!root || root == r->dst_root)
    return true;
  if (root == r->acc) {
    if (b != r->acc)
      return true;
    for (int d = 0; d < e->u.load.n; d++)
      if (!ir_prim_expr_equal(e->u.load.indices[d], r->init->u.store.indices[d]))
        return true;
    return false;
  }
  return r->aliased && cg_buffer_is_param(r->f, root) && cg_buffer_is_param(r->f, r->dst_root);
}

static bool
reads_acc(const IrPrimExpr *e, void *user)
{
  const Red *r = user;
  return e->kind == IR_PE_LOAD && e->u.load.buffer == r->acc;
}

/* The reduction's perfect nest from s, its body a store of acc (under a
 * let); false when a loop's range depends on c or on the nest. */
static bool
nest_of(Red *r, const IrStmt *s)
{
  const IrPrimExpr *c = r->loop->u.loop.var;
  for (; s && s->kind == IR_ST_FOR; s = s->u.loop.body) {
    if (r->depth == RED_MAX_DEPTH || s->u.loop.kind == IR_FOR_THREAD_BINDING ||
        ir_prim_walk(s->u.loop.min, is_var, (void *)c) ||
        ir_prim_walk(s->u.loop.extent, is_var, (void *)c))
      return false;
    for (int k = 0; k < r->depth; k++) {
      const IrPrimExpr *v = r->nest[k]->u.loop.var;
      if (ir_prim_walk(s->u.loop.min, is_var, (void *)v) ||
          ir_prim_walk(s->u.loop.extent, is_var, (void *)v))
        return false;
    }
    r->nest[r->depth++] = s;
  }
  if (!s || r->depth == 0)
    return false;
  if (s->kind == IR_ST_LET) {
    r->let = s;
    s = s->u.let.body;
  }
  r->update = s;
  return s && acc_store(r, s);
}

/* Is loop the form of the file comment, with lanes dividing its literal
 * extent? */
static bool
reduce_form(Red *r, const IrStmt *loop)
{
  const IrStmt *body = loop->u.loop.body;
  int64_t n;
  if (loop->u.loop.kind == IR_FOR_THREAD_BINDING || !ir_prim_is_int(loop->u.loop.extent, &n) ||
      !body || body->kind != IR_ST_SEQ || body->u.seq.n != 3)
    return false;
  r->lanes = n % 8 == 0 ? 8 : n % 4 == 0 ? 4 : n % 2 == 0 ? 2 : 0;
  r->init = body->u.seq.stmts[0];
  r->final = body->u.seq.stmts[2];
  if (!r->lanes || !acc_store(r, r->init) || !nest_of(r, body->u.seq.stmts[1]))
    return false;
  const IrBuffer *dst = r->final->kind == IR_ST_STORE ? r->final->u.store.buffer : NULL;
  if (!dst || !is_float(dst->dtype) || r->final->u.store.n != dst->ndim)
    return false;
  r->dst_root = cg_buffer_root(r->f, dst);
  if (!r->dst_root || r->dst_root == r->acc)
    return false;
  const IrPrimExpr *values[4] = {r->init->u.store.value, r->update->u.store.value,
                                 r->final->u.store.value, r->let ? r->let->u.let.value : NULL};
  for (int k = 0; k < 4; k++)
    if (values[k] && ir_prim_walk(values[k], load_conflicts, r))
      return false;
  if (ir_prim_walk(r->init->u.store.value, reads_acc, r)) /* the previous reduction's acc */
    return false;
  for (int d = 0; d < r->final->u.store.n; d++) /* DST's index reads no memory */
    if (ir_prim_walk(r->final->u.store.indices[d], load_conflicts, r))
      return false;
  return true;
}

IrPrimExpr *
cg_prim_map(IrCtx *ctx, IrPrimExpr *e, IrPrimExpr *(*fn)(IrPrimExpr *e, void *user), void *user)
{
  IrPrimExpr *x = fn(e, user);
  if (x)
    return x;
  switch (e->kind) {
  case IR_PE_INT:
  case IR_PE_FLOAT:
  case IR_PE_STR:
  case IR_PE_VAR:
    return e;
  case IR_PE_LOAD: {
    IrPrimExpr **idx = ir_alloc(ctx, sizeof *idx * (size_t)(e->u.load.n ? e->u.load.n : 1));
    for (int d = 0; d < e->u.load.n; d++)
      idx[d] = cg_prim_map(ctx, e->u.load.indices[d], fn, user);
    return ir_prim_load(ctx, e->u.load.buffer, idx, e->u.load.n);
  }
  case IR_PE_NOT:
    return ir_prim_bin(ctx, IR_PE_NOT, cg_prim_map(ctx, e->u.bin.a, fn, user), NULL);
  case IR_PE_CAST:
    return ir_prim_cast(ctx, e->dtype, cg_prim_map(ctx, e->u.bin.a, fn, user));
  case IR_PE_SELECT:
    return ir_prim_select(ctx, cg_prim_map(ctx, e->u.select.cond, fn, user),
                          cg_prim_map(ctx, e->u.select.a, fn, user),
                          cg_prim_map(ctx, e->u.select.b, fn, user));
  case IR_PE_CALL: {
    IrPrimExpr **args = ir_alloc(ctx, sizeof *args * (size_t)(e->u.call.n ? e->u.call.n : 1));
    for (int i = 0; i < e->u.call.n; i++)
      args[i] = cg_prim_map(ctx, e->u.call.args[i], fn, user);
    return ir_prim_call(ctx, e->dtype, e->u.call.op, args, e->u.call.n);
  }
  default:
    return ir_prim_bin(ctx, e->kind, cg_prim_map(ctx, e->u.bin.a, fn, user),
                       cg_prim_map(ctx, e->u.bin.b, fn, user));
  }
}

typedef struct {
  Red *r;
  int l;
} Lane;

/* lane_expr's one node: c + l for c, the lanes' v for v, red[l] for
 * acc[k]; NULL for the others. */
static IrPrimExpr *
lane_node(IrPrimExpr *e, void *user)
{
  const Lane *a = user;
  Red *r = a->r;
  IrCtx *ctx = r->g->ctx;
  if (e->kind == IR_PE_VAR && r->let && e == r->let->u.let.var)
    return r->v;
  if (e->kind == IR_PE_VAR && e == r->loop->u.loop.var)
    return a->l == 0 ? e : ir_prim_bin(ctx, IR_PE_ADD, e, ir_prim_int(ctx, e->dtype, a->l));
  if (e->kind == IR_PE_LOAD && e->u.load.buffer == r->acc) {
    IrPrimExpr **at = ir_alloc(ctx, sizeof *at);
    at[0] = ir_prim_int(ctx, IR_I64, a->l);
    return ir_prim_load(ctx, r->red, at, 1);
  }
  return NULL;
}

/* e for lane l: c + l for c, red[l] for acc[k]. */
static IrPrimExpr *
lane_expr(Red *r, IrPrimExpr *e, int l)
{
  Lane a = {r, l};
  return cg_prim_map(r->g->ctx, e, lane_node, &a);
}

static void
indent(int n, IrBuf *o)
{
  for (int i = 0; i < n; i++)
    ir_buf_puts(o, "  ");
}

/* "BUF[index] = value;" of store s for lane l (value given): red[l] for
 * a store of acc, but with keep */
static void
emit_store(Red *r, const CgNames *names, const IrStmt *s, IrPrimExpr *value, int l, bool keep,
           int ind, IrBuf *o)
{
  IrPrimExpr *at = ir_prim_load(r->g->ctx, s->u.store.buffer, s->u.store.indices, s->u.store.n);
  indent(ind, o);
  cg_emit_expr(r->g, names, keep ? at : lane_expr(r, at, l), o);
  ir_buf_puts(o, " = ");
  cg_emit_expr(r->g, names, value, o);
  ir_buf_puts(o, ";\n");
}

/* "for (T var = min; var < min + extent; var += step) {" */
static void
emit_for(Red *r, CgNames *names, const IrStmt *loop, int step, int ind, IrBuf *o)
{
  IrCtx *ctx = r->g->ctx;
  const IrPrimExpr *v = loop->u.loop.var;
  const char *t = cg_dtype_cname(r->g, v->dtype);
  const char *name = cg_names_find(names, v);
  name = name ? name : cg_names_add(r->g, names, v, v->u.var);
  IrPrimExpr *end = ir_arith_simplify(
      r->arith, ir_prim_bin(ctx, IR_PE_ADD, ir_prim_cast(ctx, v->dtype, loop->u.loop.min),
                            ir_prim_cast(ctx, v->dtype, loop->u.loop.extent)));
  indent(ind, o);
  ir_buf_printf(o, "for (%s %s = ", t ? t : "?", name);
  cg_emit_expr(r->g, names, loop->u.loop.min, o);
  ir_buf_printf(o, "; %s < ", name);
  cg_emit_expr(r->g, names, end, o);
  if (step == 1)
    ir_buf_printf(o, "; %s++) {\n", name);
  else
    ir_buf_printf(o, "; %s += %d) {\n", name, step);
}

/* The innermost body for each lane: "{ const T v = V; red[l] = U; }" */
static void
emit_updates(Red *r, CgNames *names, int ind, IrBuf *o)
{
  const char *v = NULL, *t = NULL;
  if (r->let) {
    r->v = ir_prim_var(r->g->ctx, r->let->u.let.var->u.var, r->let->u.let.var->dtype);
    v = cg_names_add(r->g, names, r->v, r->v->u.var);
    t = cg_value_cname(r->g, r->v->dtype);
  }
  for (int l = 0; l < r->lanes; l++) {
    indent(ind, o);
    ir_buf_puts(o, "{\n");
    if (r->let) {
      indent(ind + 1, o);
      ir_buf_printf(o, "const %s %s = ", t ? t : "?", v);
      cg_emit_expr(r->g, names, lane_expr(r, r->let->u.let.value, l), o);
      ir_buf_puts(o, ";\n");
    }
    emit_store(r, names, r->update, lane_expr(r, r->update->u.store.value, l), l, false, ind + 1,
               o);
    indent(ind, o);
    ir_buf_puts(o, "}\n");
  }
}

static void
emit_lanes(Red *r, CgNames *names, int ind, IrBuf *o)
{
  const IrPrimExpr *c = r->loop->u.loop.var;
  const char *red = cg_names_add(r->g, names, r->red, "red");
  const char *t = cg_dtype_cname(r->g, r->acc->dtype);
  indent(ind, o);
  ir_buf_printf(o, "{ /* the loop over %s, %d at a time: their reductions at once, each in its "
                   "order */\n", cg_names_find(names, c), r->lanes);
  emit_for(r, names, r->loop, r->lanes, ind + 1, o);
  indent(ind + 2, o);
  ir_buf_printf(o, "%s %s[%d];\n", t ? t : "?", red, r->lanes);
  for (int l = 0; l < r->lanes; l++) {
    indent(ind + 2, o);
    ir_buf_printf(o, "%s[%d] = ", red, l);
    cg_emit_expr(r->g, names, lane_expr(r, r->init->u.store.value, l), o);
    ir_buf_puts(o, ";\n");
  }
  for (int k = 0; k < r->depth; k++)
    emit_for(r, names, r->nest[k], 1, ind + 2 + k, o);
  emit_updates(r, names, ind + 2 + r->depth, o);
  for (int k = r->depth - 1; k >= 0; k--) {
    indent(ind + 2 + k, o);
    ir_buf_puts(o, "}\n");
  }
  for (int l = 0; l < r->lanes; l++)
    emit_store(r, names, r->final, lane_expr(r, r->final->u.store.value, l), l, false, ind + 2, o);
  IrPrimExpr **at = ir_alloc(r->g->ctx, sizeof *at);
  at[0] = ir_prim_int(r->g->ctx, IR_I64, r->lanes - 1);
  emit_store(r, names, r->init, ir_prim_load(r->g->ctx, r->red, at, 1), 0, true, ind + 2, o);
  indent(ind + 2, o); /* acc as the loop leaves it, maybe read nowhere (gcc would warn) */
  ir_buf_printf(o, "(void)%s;\n", cg_names_find(names, r->acc));
  indent(ind + 1, o);
  ir_buf_puts(o, "}\n");
  indent(ind, o);
  ir_buf_puts(o, "}\n");
}

bool
cg_reduce_emit(CgGen *g, CgNames *names, IrArith *arith, const IrPrimFunc *f, const CgPrim *p,
               const IrStmt *loop, int ind, IrBuf *o)
{
  if (g->cfg->codegen.rows == CFG_ROWS_OFF || loop->kind != IR_ST_FOR)
    return false;
  Red r = {.g = g, .arith = arith, .f = f, .aliased = p->aliased, .loop = loop};
  if (!reduce_form(&r, loop))
    return false;
  /* rt_kern_row.h defines RXC_ROWS, which picks this form under tcc */
  g->kernels_used |= 1u << cg_runtime_kernel("rxc_k_row_f32");
  IrCtx *ctx = g->ctx;
  r.red = ir_alloc(ctx, sizeof *r.red);
  *r.red = (IrBuffer){.name = ir_sym(ctx, "red"), .dtype = r.acc->dtype, .ndim = 1,
                      .scope = r.acc->scope, .loc = r.acc->loc};
  r.red->shape = ir_alloc(ctx, sizeof *r.red->shape);
  r.red->shape[0] = ir_prim_int(ctx, IR_I64, r.lanes);
  emit_lanes(&r, names, ind, o);
  return true;
}
