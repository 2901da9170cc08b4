/* test_wellformed.c - the well-formedness checker on modules built by hand:
 * a well-formed module gives no error, each rule fires on a module that
 * breaks it (with the count, the message naming function and binding, and
 * the location), and several violations are all reported. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

/* --- builders ----------------------------------------------------------- */

static IrLoc
at(int line)
{
  return (IrLoc){NULL, line, 1};
}

static IrPrimExpr *
i64(IrCtx *ctx, int64_t v)
{
  return ir_prim_int(ctx, IR_I64, v);
}

/* A tensor of n static dims d[]. */
static IrSInfo *
tensor(IrCtx *ctx, int n, const int64_t *d, IrDType t)
{
  IrPrimExpr **shape = n ? ir_alloc(ctx, sizeof *shape * (size_t)n) : NULL;
  for (int i = 0; i < n; i++)
    shape[i] = i64(ctx, d[i]);
  return ir_sinfo_tensor(ctx, shape, n, t, -1);
}

static IrSInfo *
vec4(IrCtx *ctx)
{
  return tensor(ctx, 1, (int64_t[]){4}, IR_F32);
}

static IrExpr *
var(IrCtx *ctx, const char *name, bool dataflow, int line)
{
  return ir_var_new(ctx, ir_sym(ctx, name), vec4(ctx), dataflow, at(line));
}

static IrExpr **
args(IrCtx *ctx, int n, IrExpr **a)
{
  IrExpr **out = ir_alloc(ctx, sizeof *out * (size_t)(n ? n : 1));
  if (n)
    memcpy(out, a, sizeof *out * (size_t)n);
  return out;
}

static IrExpr *
op(IrCtx *ctx, const char *name, int line, int n, IrExpr **a)
{
  const IrOpDef *def = &op_find(name)->syn;
  assert_non_null(def);
  return ir_call_op(ctx, def, args(ctx, n, a), n, NULL, at(line));
}

static IrExpr *
add(IrCtx *ctx, IrExpr *a, IrExpr *b, int line)
{
  return op(ctx, "R.add", line, 2, (IrExpr *[]){a, b});
}

static IrExpr *
global(IrCtx *ctx, const char *name, int line)
{
  IrExpr *g = ir_expr_new(ctx, IR_EX_GLOBAL, at(line));
  g->u.global = ir_sym(ctx, name);
  return g;
}

static IrExpr *
call(IrCtx *ctx, IrCallKind kind, IrExpr *callee, int line, int n, IrExpr **a)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_CALL, at(line));
  e->u.call.kind = kind;
  e->u.call.callee = callee;
  e->u.call.args = args(ctx, n, a);
  e->u.call.nargs = n;
  return e;
}

static IrBinding
bind(IrExpr *v, IrExpr *value, int line)
{
  return (IrBinding){v, value, NULL, at(line)};
}

static IrBindingBlock
block(IrCtx *ctx, bool dataflow, int n, const IrBinding *b)
{
  IrBinding *copy = ir_alloc(ctx, sizeof *copy * (size_t)(n ? n : 1));
  if (n)
    memcpy(copy, b, sizeof *copy * (size_t)n);
  return (IrBindingBlock){copy, n, dataflow, at(0)};
}

static IrExpr *
seq(IrCtx *ctx, int n, const IrBindingBlock *blocks, IrExpr *result)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_SEQ, at(0));
  IrBindingBlock *copy = ir_alloc(ctx, sizeof *copy * (size_t)(n ? n : 1));
  if (n)
    memcpy(copy, blocks, sizeof *copy * (size_t)n);
  e->u.seq.blocks = copy;
  e->u.seq.nblocks = n;
  e->u.seq.result = result;
  return e;
}

static IrFunction *
function(IrCtx *ctx, int nparams, IrExpr **params, IrExpr *body, bool pure, int line)
{
  IrFunction *f = ir_alloc(ctx, sizeof *f);
  f->params = args(ctx, nparams, params);
  f->nparams = nparams;
  f->body = body;
  f->pure = pure;
  f->loc = at(line);
  return f;
}

static IrExpr *
local(IrCtx *ctx, IrFunction *f)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_FUNC, f->loc);
  e->u.func = f;
  return e;
}

static IrGlobal
relax_global(IrCtx *ctx, const char *name, IrFunction *f)
{
  IrGlobal g = {ir_sym(ctx, name), IR_GLOBAL_RELAX, {.relax = f}};
  return g;
}

static IrGlobal
prim_global(IrCtx *ctx, const char *name, IrPrimFunc *f)
{
  IrGlobal g = {ir_sym(ctx, name), IR_GLOBAL_PRIM, {.prim = f}};
  return g;
}

static IrModule *
module(IrCtx *ctx, int n, const IrGlobal *globals)
{
  IrModule *m = ir_alloc(ctx, sizeof *m);
  IrGlobal *copy = ir_alloc(ctx, sizeof *copy * (size_t)n);
  memcpy(copy, globals, sizeof *copy * (size_t)n);
  m->name = ir_sym(ctx, "Module");
  m->globals = copy;
  m->nglobals = n;
  return m;
}

/* A module of one function "main" with parameter x and the given blocks. */
static IrModule *
main_module(IrCtx *ctx, IrExpr *x, int nblocks, const IrBindingBlock *blocks, IrExpr *result)
{
  IrFunction *f = function(ctx, 1, (IrExpr *[]){x}, seq(ctx, nblocks, blocks, result), true, 1);
  return module(ctx, 1, (IrGlobal[]){relax_global(ctx, "main", f)});
}

/* Asserts diagnostic i is an error at line with exactly msg. */
static void
expect_error(IrCtx *ctx, int i, int line, const char *msg)
{
  const IrDiag *d = ir_diag_get(ctx, i);
  assert_non_null(d);
  assert_int_equal(d->level, IR_DIAG_ERROR);
  assert_string_equal(d->msg, msg);
  assert_int_equal(d->loc.line, line);
}

/* Runs the checker; asserts it returns n and recorded n errors. */
static void
expect_count(IrCtx *ctx, const IrModule *m, int n)
{
  int got = ir_module_check(ctx, m);
  for (int i = 0; got != n && i < ir_diag_count(ctx); i++)
    print_message("  diag: %s\n", ir_diag_get(ctx, i)->msg);
  assert_int_equal(got, n);
  assert_int_equal(ir_error_count(ctx), n);
}

static IrExpr *
tuple(IrCtx *ctx, int n, IrExpr **items, int line)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_TUPLE, at(line));
  e->u.tuple.items = args(ctx, n, items);
  e->u.tuple.n = n;
  return e;
}

static IrExpr *
if_expr(IrCtx *ctx, IrExpr *cond, IrExpr *then_, IrExpr *else_, int line)
{
  IrExpr *e = ir_expr_new(ctx, IR_EX_IF, at(line));
  e->u.branch.cond = cond;
  e->u.branch.then_ = then_;
  e->u.branch.else_ = else_;
  return e;
}

/* --- loop-level builders --------------------------------------------------- */

static IrBuffer *
buffer(IrCtx *ctx, const char *name, int ndim)
{
  IrBuffer *b = ir_alloc(ctx, sizeof *b);
  b->name = ir_sym(ctx, name);
  b->dtype = IR_F32;
  b->ndim = ndim;
  b->shape = ir_alloc(ctx, sizeof *b->shape * (size_t)(ndim ? ndim : 1));
  for (int i = 0; i < ndim; i++)
    b->shape[i] = i64(ctx, 4);
  b->scope = ir_sym(ctx, "global");
  return b;
}

static IrPrimExpr **
pargs(IrCtx *ctx, int n, IrPrimExpr **a)
{
  IrPrimExpr **out = ir_alloc(ctx, sizeof *out * (size_t)(n ? n : 1));
  if (n)
    memcpy(out, a, sizeof *out * (size_t)n);
  return out;
}

static IrPrimExpr *
load1(IrCtx *ctx, IrBuffer *b, IrPrimExpr *i)
{
  return ir_prim_load(ctx, b, pargs(ctx, 1, (IrPrimExpr *[]){i}), 1);
}

static IrStmt *
store(IrCtx *ctx, IrBuffer *b, int n, IrPrimExpr **idx, IrPrimExpr *value, int line)
{
  IrStmt *s = ir_stmt_new(ctx, IR_ST_STORE, at(line));
  s->u.store.buffer = b;
  s->u.store.indices = pargs(ctx, n, idx);
  s->u.store.n = n;
  s->u.store.value = value;
  return s;
}

static IrStmt *
store1(IrCtx *ctx, IrBuffer *b, IrPrimExpr *i, IrPrimExpr *value, int line)
{
  return store(ctx, b, 1, (IrPrimExpr *[]){i}, value, line);
}

static IrStmt *
loop(IrCtx *ctx, IrPrimExpr *v, IrStmt *body, int line)
{
  IrStmt *s = ir_stmt_new(ctx, IR_ST_FOR, at(line));
  s->u.loop.var = v;
  s->u.loop.min = i64(ctx, 0);
  s->u.loop.extent = i64(ctx, 4);
  s->u.loop.body = body;
  return s;
}

static IrStmt *
stmts(IrCtx *ctx, int n, IrStmt **list)
{
  IrStmt *s = ir_stmt_new(ctx, IR_ST_SEQ, at(0));
  s->u.seq.stmts = ir_alloc(ctx, sizeof *list * (size_t)n);
  memcpy(s->u.seq.stmts, list, sizeof *list * (size_t)n);
  s->u.seq.n = n;
  return s;
}

/* A block named name with one spatial iterator iter bound to binding,
 * optional allocations, and body. */
static IrStmt *
tir_block(IrCtx *ctx, const char *name, IrPrimExpr *iter, IrPrimExpr *binding, int nallocs,
          IrBuffer **allocs, IrStmt *body, int line)
{
  IrTirBlock *b = ir_alloc(ctx, sizeof *b);
  b->name = ir_sym(ctx, name);
  b->iters = ir_alloc(ctx, sizeof *b->iters);
  b->iters[0] = (IrIterVar){iter, {i64(ctx, 0), i64(ctx, 4)}, IR_ITER_SPATIAL, binding};
  b->niters = 1;
  if (nallocs) {
    b->allocs = ir_alloc(ctx, sizeof *allocs * (size_t)nallocs);
    memcpy(b->allocs, allocs, sizeof *allocs * (size_t)nallocs);
    b->nallocs = nallocs;
  }
  b->body = body;
  IrStmt *s = ir_stmt_new(ctx, IR_ST_BLOCK, at(line));
  s->u.block = b;
  return s;
}

static IrPrimFunc *
prim_func(IrCtx *ctx, int nbuffers, IrBuffer **buffers, IrStmt *body)
{
  IrPrimFunc *f = ir_alloc(ctx, sizeof *f);
  f->params = ir_alloc(ctx, sizeof *f->params * (size_t)nbuffers);
  for (int i = 0; i < nbuffers; i++)
    f->params[i] = (IrPrimParam){ir_prim_var(ctx, buffers[i]->name, IR_HANDLE), buffers[i]};
  f->nparams = nbuffers;
  f->body = body;
  f->loc = at(100);
  return f;
}

/* add_one(A, B): for i: block "B": vi = i; T = alloc; T[vi] = A[vi] + 1;
 * let t = T[vi] in B[vi] = t; and an allocation statement after the loop. */
static IrPrimFunc *
good_prim_func(IrCtx *ctx)
{
  IrBuffer *A = buffer(ctx, "A", 1), *B = buffer(ctx, "B", 1), *T = buffer(ctx, "T", 1),
           *U = buffer(ctx, "U", 1);
  IrPrimExpr *i = ir_prim_var(ctx, ir_sym(ctx, "i"), IR_I64);
  IrPrimExpr *vi = ir_prim_var(ctx, ir_sym(ctx, "vi"), IR_I64);
  IrPrimExpr *t = ir_prim_var(ctx, ir_sym(ctx, "t"), IR_F32);
  IrStmt *let = ir_stmt_new(ctx, IR_ST_LET, at(105));
  let->u.let.var = t;
  let->u.let.value = load1(ctx, T, vi);
  let->u.let.body = store1(ctx, B, vi, t, 106);
  IrPrimExpr *one = ir_prim_float(ctx, IR_F32, 1.0);
  IrStmt *body =
      stmts(ctx, 2,
            (IrStmt *[]){
                store1(ctx, T, vi, ir_prim_bin(ctx, IR_PE_ADD, load1(ctx, A, vi), one), 104), let});
  IrStmt *blk = tir_block(ctx, "B", vi, i, 1, (IrBuffer *[]){T}, body, 103);
  IrStmt *alloc = ir_stmt_new(ctx, IR_ST_ALLOC, at(107));
  alloc->u.alloc.buffer = U;
  alloc->u.alloc.body = store1(ctx, U, i64(ctx, 0), load1(ctx, B, i64(ctx, 0)), 108);
  return prim_func(ctx, 2, (IrBuffer *[]){A, B},
                   stmts(ctx, 2, (IrStmt *[]){loop(ctx, i, blk, 102), alloc}));
}

/* --- a well-formed module ---------------------------------------------------- */

/* helper(a) -> a + a */
static IrFunction *
helper_function(IrCtx *ctx, bool pure)
{
  IrExpr *a = var(ctx, "a", false, 50);
  IrExpr *r = var(ctx, "r", false, 51);
  IrBindingBlock b = block(ctx, false, 1, (IrBinding[]){bind(r, add(ctx, a, a, 51), 51)});
  return function(ctx, 1, (IrExpr *[]){a}, seq(ctx, 1, &b, r), pure, 50);
}

/* Every construct the rules look at, used correctly. */
static IrModule *
good_module(IrCtx *ctx)
{
  IrExpr *x = var(ctx, "x", false, 1);
  /* dataflow: lv = x + x; gv = call_tir(add_one, (lv,)); st = alloc_storage */
  IrExpr *lv = var(ctx, "lv", true, 2), *gv = var(ctx, "gv", false, 3);
  IrExpr *st = ir_var_new(ctx, ir_sym(ctx, "st"), ir_sinfo_object(ctx), true, at(4));
  IrExpr *ct =
      op(ctx, "R.call_tir", 3, 2, (IrExpr *[]){global(ctx, "add_one", 3), tuple(ctx, 1, &lv, 3)});
  IrExpr *alloc = op(ctx, "R.memory.alloc_storage", 4, 4,
                     (IrExpr *[]){ir_shape_expr(ctx, (IrPrimExpr *[]){i64(ctx, 16)}, 1, at(4)),
                                  ir_prim_value(ctx, i64(ctx, 0), at(4)),
                                  ir_str_imm(ctx, ir_sym(ctx, "global"), at(4)),
                                  ir_dtype_imm(ctx, IR_F32, at(4))});
  IrBindingBlock df =
      block(ctx, true, 3,
            (IrBinding[]){bind(lv, add(ctx, x, x, 2), 2), bind(gv, ct, 3), bind(st, alloc, 4)});
  /* local function f(p) { q = p + p; return q }, recursive g(u) { w = g(u); return w } */
  IrExpr *p = var(ctx, "p", false, 5), *q = var(ctx, "q", false, 6);
  IrBindingBlock fb = block(ctx, false, 1, (IrBinding[]){bind(q, add(ctx, p, p, 6), 6)});
  IrExpr *f = ir_var_new(ctx, ir_sym(ctx, "f"), NULL, false, at(5));
  IrExpr *fv = local(ctx, function(ctx, 1, &p, seq(ctx, 1, &fb, q), true, 5));
  IrExpr *u = var(ctx, "u", false, 7), *w = var(ctx, "w", false, 8);
  IrExpr *g = ir_var_new(ctx, ir_sym(ctx, "g"), NULL, false, at(7));
  IrBindingBlock gb =
      block(ctx, false, 1, (IrBinding[]){bind(w, call(ctx, IR_CALL_VAR, g, 8, 1, &u), 8)});
  IrExpr *gfun = local(ctx, function(ctx, 1, &u, seq(ctx, 1, &gb, w), true, 7));
  /* y = f(gv); c = if x: { t1 = y + y; t1 } else { y }; z = helper(c); m = match_cast(z) */
  IrExpr *y = var(ctx, "y", false, 9), *c = var(ctx, "c", false, 10),
         *t1 = var(ctx, "t1", false, 11);
  IrExpr *z = var(ctx, "z", false, 12), *m = var(ctx, "m", false, 13);
  IrBindingBlock tb = block(ctx, false, 1, (IrBinding[]){bind(t1, add(ctx, y, y, 11), 11)});
  IrExpr *branch = if_expr(ctx, x, seq(ctx, 1, &tb, t1), seq(ctx, 0, NULL, y), 10);
  IrBinding cast = bind(m, z, 13);
  cast.cast = ir_sinfo_tensor(ctx, NULL, 1, IR_F32, -1);
  IrBindingBlock plain = block(
      ctx, false, 6,
      (IrBinding[]){bind(f, fv, 5), bind(g, gfun, 7),
                    bind(y, call(ctx, IR_CALL_VAR, f, 9, 1, &gv), 9), bind(c, branch, 10),
                    bind(z, call(ctx, IR_CALL_GLOBAL, global(ctx, "helper", 12), 12, 1, &c), 12),
                    cast});
  IrFunction *main_fn = function(
      ctx, 1, &x,
      seq(ctx, 2, (IrBindingBlock[]){df, plain}, tuple(ctx, 2, (IrExpr *[]){m, gv}, 14)), true, 1);
  /* noisy(a) pure=False prints outside a dataflow block; forced(a) kills with
   * relax.force_pure */
  IrExpr *a1 = var(ctx, "a", false, 60),
         *pr = ir_var_new(ctx, ir_sym(ctx, "_"), NULL, false, at(61));
  IrBindingBlock nb =
      block(ctx, false, 1, (IrBinding[]){bind(pr, op(ctx, "R.print", 61, 1, &a1), 61)});
  IrFunction *noisy = function(ctx, 1, &a1, seq(ctx, 1, &nb, a1), false, 60);
  IrExpr *a2 = var(ctx, "a", false, 70),
         *k = ir_var_new(ctx, ir_sym(ctx, "_"), NULL, false, at(71));
  IrBindingBlock kb =
      block(ctx, false, 1, (IrBinding[]){bind(k, op(ctx, "R.memory.kill_tensor", 71, 1, &a2), 71)});
  IrFunction *forced = function(ctx, 1, &a2, seq(ctx, 1, &kb, a2), true, 70);
  forced->attrs = ir_attr_dict(ctx, (IrSym[]){ir_sym(ctx, "relax.force_pure")},
                               (IrAttr *[]){ir_attr_bool(ctx, true)}, 1);
  return module(ctx, 5,
                (IrGlobal[]){prim_global(ctx, "add_one", good_prim_func(ctx)),
                             relax_global(ctx, "helper", helper_function(ctx, true)),
                             relax_global(ctx, "noisy", noisy), relax_global(ctx, "forced", forced),
                             relax_global(ctx, "main", main_fn)});
}

static void
test_well_formed_module(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  expect_count(ctx, good_module(ctx), 0);
  /* checking twice gives the same answer: the checker keeps no state */
  expect_count(ctx, good_module(ctx), 0);
  ir_ctx_free(ctx);
}

static void
test_empty_and_null(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  assert_int_equal(ir_module_check(ctx, NULL), 0);
  /* a function without a body, a global without a function, NULL sinfo */
  IrFunction *f = function(ctx, 0, NULL, NULL, true, 1);
  IrGlobal g[] = {relax_global(ctx, "f", f),
                  relax_global(ctx, "none", NULL),
                  prim_global(ctx, "p", NULL),
                  {ir_sym(ctx, "ext"), IR_GLOBAL_EXTERN, {.extern_sym = ir_sym(ctx, "sym")}}};
  expect_count(ctx, module(ctx, 4, g), 0);
  ir_ctx_free(ctx);
}

/* --- rule 1: scoping, dataflow vars, normal form ------------------------------ */

static void
test_use_before_def(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", false, 1), *lv1 = var(ctx, "lv1", false, 2),
         *y = var(ctx, "y", false, 3);
  IrExpr *z = var(ctx, "z", false, 9); /* never bound in main */
  IrBindingBlock b = block(
      ctx, false, 2, (IrBinding[]){bind(lv1, add(ctx, x, y, 2), 2), bind(y, add(ctx, x, z, 3), 3)});
  IrModule *m = main_module(ctx, x, 1, &b, y);
  expect_count(ctx, m, 2);
  expect_error(ctx, 0, 2,
               "in function 'main', binding 'lv1': var 'y' is used before its definition");
  expect_error(ctx, 1, 3,
               "in function 'main', binding 'y': var 'z' is not defined in this function");
  ir_ctx_free(ctx);
}

static void
test_branch_and_local_scopes(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", false, 1);
  /* c = if x: { t = x + x; t } else { x };  d = t + x  (t gone) */
  IrExpr *t = var(ctx, "t", false, 3), *c = var(ctx, "c", false, 2), *d = var(ctx, "d", false, 5);
  IrBindingBlock tb = block(ctx, false, 1, (IrBinding[]){bind(t, add(ctx, x, x, 3), 3)});
  IrExpr *branch = if_expr(ctx, x, seq(ctx, 1, &tb, t), seq(ctx, 0, NULL, x), 2);
  /* f = local(p) { q = p + x; q }  (captures x: fine); e = q + x (q gone) */
  IrExpr *p = var(ctx, "p", false, 6), *q = var(ctx, "q", false, 7), *e = var(ctx, "e", false, 8);
  IrExpr *f = ir_var_new(ctx, ir_sym(ctx, "f"), NULL, false, at(6));
  IrBindingBlock fb = block(ctx, false, 1, (IrBinding[]){bind(q, add(ctx, p, x, 7), 7)});
  IrExpr *fv = local(ctx, function(ctx, 1, &p, seq(ctx, 1, &fb, q), true, 6));
  IrBindingBlock b = block(ctx, false, 4,
                           (IrBinding[]){bind(c, branch, 2), bind(d, add(ctx, t, x, 5), 5),
                                         bind(f, fv, 6), bind(e, add(ctx, q, p, 8), 8)});
  expect_count(ctx, main_module(ctx, x, 1, &b, c), 3);
  expect_error(ctx, 0, 5, "in function 'main', binding 'd': var 't' is used outside its scope");
  expect_error(ctx, 1, 8, "in function 'main', binding 'e': var 'q' is used outside its scope");
  expect_error(ctx, 2, 8, "in function 'main', binding 'e': var 'p' is used outside its scope");
  ir_ctx_free(ctx);
}

static void
test_local_function_errors_name_it(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", false, 1);
  /* f = local(p) { q = p + r; q }: r is bound after f in main */
  IrExpr *p = var(ctx, "p", false, 2), *q = var(ctx, "q", false, 3), *r = var(ctx, "r", false, 4);
  IrExpr *f = ir_var_new(ctx, ir_sym(ctx, "f"), NULL, false, at(2));
  IrBindingBlock fb = block(ctx, false, 1, (IrBinding[]){bind(q, add(ctx, p, r, 3), 3)});
  IrExpr *fv = local(ctx, function(ctx, 1, &p, seq(ctx, 1, &fb, q), true, 2));
  IrBindingBlock b =
      block(ctx, false, 2, (IrBinding[]){bind(f, fv, 2), bind(r, add(ctx, x, x, 4), 4)});
  expect_count(ctx, main_module(ctx, x, 1, &b, r), 1);
  expect_error(ctx, 0, 3,
               "in function 'main.f', binding 'q': var 'r' is used before its definition");
  ir_ctx_free(ctx);
}

static void
test_defined_twice(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", false, 1), *lv = var(ctx, "lv", false, 2);
  /* lv bound twice; the parameter x bound again */
  IrBindingBlock b =
      block(ctx, false, 3,
            (IrBinding[]){bind(lv, add(ctx, x, x, 2), 2), bind(lv, add(ctx, lv, x, 3), 3),
                          bind(x, add(ctx, lv, lv, 4), 4)});
  expect_count(ctx, main_module(ctx, x, 1, &b, lv), 2);
  expect_error(ctx, 0, 3, "in function 'main', binding 'lv': var 'lv' is defined twice");
  expect_error(ctx, 1, 4, "in function 'main', binding 'x': var 'x' is defined twice");
  ir_ctx_free(ctx);
}

static void
test_dataflow_var_escapes(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", false, 1), *lv = var(ctx, "lv", true, 3),
         *gv = var(ctx, "gv", false, 4);
  IrExpr *y = var(ctx, "y", false, 6), *bad = var(ctx, "bad", true, 7);
  IrBindingBlock df = block(
      ctx, true, 2, (IrBinding[]){bind(lv, add(ctx, x, x, 3), 3), bind(gv, add(ctx, lv, x, 4), 4)});
  /* y = lv + gv after the block; bad is a DataflowVar bound outside one */
  IrBindingBlock after =
      block(ctx, false, 2,
            (IrBinding[]){bind(y, add(ctx, lv, gv, 6), 6), bind(bad, add(ctx, gv, gv, 7), 7)});
  IrExpr *result = tuple(ctx, 2, (IrExpr *[]){y, lv}, 8);
  expect_count(ctx, main_module(ctx, x, 2, (IrBindingBlock[]){df, after}, result), 3);
  expect_error(
      ctx, 0, 6,
      "in function 'main', binding 'y': dataflow var 'lv' is used outside its dataflow block");
  expect_error(
      ctx, 1, 7,
      "in function 'main', binding 'bad': dataflow var 'bad' is defined outside a dataflow block");
  expect_error(
      ctx, 2, 8,
      "in function 'main', return value: dataflow var 'lv' is used outside its dataflow block");
  ir_ctx_free(ctx);
}

static void
test_dataflow_param(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", true, 1);
  expect_count(ctx, main_module(ctx, x, 0, NULL, x), 1);
  expect_error(
      ctx, 0, 1,
      "in function 'main', parameter 'x': dataflow var 'x' is defined outside a dataflow block");
  ir_ctx_free(ctx);
}

static void
test_non_leaf(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", false, 1);
  IrExpr *a = var(ctx, "a", false, 2), *t = var(ctx, "t", false, 3), *c = var(ctx, "c", false, 4);
  /* a = R.add(R.add(x, x), x); t = (x, R.add(x, x)); c = if R.add(x, x) ... */
  IrExpr *nested = add(ctx, add(ctx, x, x, 20), x, 21);
  IrExpr *tup = tuple(ctx, 2, (IrExpr *[]){x, add(ctx, x, x, 3)}, 3);
  IrExpr *branch = if_expr(ctx, add(ctx, x, x, 4), seq(ctx, 0, NULL, x), seq(ctx, 0, NULL, x), 4);
  IrBindingBlock b =
      block(ctx, false, 3, (IrBinding[]){bind(a, nested, 2), bind(t, tup, 3), bind(c, branch, 4)});
  /* the function returns a call */
  IrExpr *result = add(ctx, a, c, 5);
  expect_count(ctx, main_module(ctx, x, 1, &b, result), 4);
  expect_error(ctx, 0, 21, "in function 'main', binding 'a': argument 1 of the call is not a leaf");
  expect_error(ctx, 1, 3, "in function 'main', binding 't': field 1 of a tuple is not a leaf");
  expect_error(ctx, 2, 4, "in function 'main', binding 'c': the if condition is not a leaf");
  expect_error(ctx, 3, 5,
               "in function 'main', return value: the result is not a leaf or a tuple of leaves");
  ir_ctx_free(ctx);
}

/* --- rule 2: purity ------------------------------------------------------------ */

static IrExpr *
extern_call(IrCtx *ctx, const char *sym, IrExpr *arg, int line)
{
  IrExpr *callee = ir_expr_new(ctx, IR_EX_EXTERN, at(line));
  callee->u.global = ir_sym(ctx, sym);
  return call(ctx, IR_CALL_EXTERN, callee, line, 1, &arg);
}

static void
test_impure_in_dataflow(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", false, 1);
  IrExpr *v[8];
  const char *names[8] = {"p", "k", "s", "o", "e", "h", "l", "st"};
  for (int i = 0; i < 8; i++)
    v[i] = ir_var_new(ctx, ir_sym(ctx, names[i]), NULL, true, at(i + 2));
  IrExpr *st_alloc = op(ctx, "R.memory.alloc_storage", 9, 4,
                        (IrExpr *[]){ir_shape_expr(ctx, (IrPrimExpr *[]){i64(ctx, 16)}, 1, at(9)),
                                     ir_prim_value(ctx, i64(ctx, 0), at(9)),
                                     ir_str_imm(ctx, ir_sym(ctx, "global"), at(9)),
                                     ir_dtype_imm(ctx, IR_F32, at(9))});
  /* local function l (pure=False) bound before the dataflow block */
  IrExpr *lf = ir_var_new(ctx, ir_sym(ctx, "lf"), NULL, false, at(1));
  IrExpr *pa = var(ctx, "pa", false, 1);
  IrExpr *lfv = local(ctx, function(ctx, 1, &pa, seq(ctx, 0, NULL, pa), false, 1));
  IrBindingBlock pre = block(ctx, false, 1, (IrBinding[]){bind(lf, lfv, 1)});
  IrBindingBlock df = block(
      ctx, true, 8,
      (IrBinding[]){bind(v[0], op(ctx, "R.print", 2, 1, &x), 2),
                    bind(v[1], op(ctx, "R.memory.kill_tensor", 3, 1, &x), 3),
                    bind(v[2], op(ctx, "R.memory.kill_storage", 4, 1, &x), 4),
                    bind(v[3], op(ctx, "R.vm.kill_object", 5, 1, &x), 5),
                    bind(v[4], extern_call(ctx, "my_sym", x, 6), 6),
                    bind(v[5], call(ctx, IR_CALL_GLOBAL, global(ctx, "helper", 7), 7, 1, &x), 7),
                    bind(v[6], call(ctx, IR_CALL_VAR, lf, 8, 1, &x), 8), bind(v[7], st_alloc, 9)});
  IrFunction *main_fn = function(ctx, 1, &x, seq(ctx, 2, (IrBindingBlock[]){pre, df}, x), false, 1);
  IrModule *m = module(ctx, 2,
                       (IrGlobal[]){relax_global(ctx, "helper", helper_function(ctx, false)),
                                    relax_global(ctx, "main", main_fn)});
  expect_count(ctx, m, 7);
  expect_error(ctx, 0, 2,
               "in function 'main', binding 'p': impure call of R.print inside a dataflow block");
  expect_error(ctx, 1, 3,
               "in function 'main', binding 'k': impure call of R.memory.kill_tensor inside a "
               "dataflow block");
  expect_error(ctx, 2, 4,
               "in function 'main', binding 's': impure call of R.memory.kill_storage inside a "
               "dataflow block");
  expect_error(
      ctx, 3, 5,
      "in function 'main', binding 'o': impure call of R.vm.kill_object inside a dataflow block");
  expect_error(ctx, 4, 6,
               "in function 'main', binding 'e': impure call of extern function 'my_sym' inside a "
               "dataflow block");
  expect_error(ctx, 5, 7,
               "in function 'main', binding 'h': impure call of function 'helper' (pure=False) "
               "inside a dataflow block");
  expect_error(ctx, 6, 8,
               "in function 'main', binding 'l': impure call of local function 'lf' (pure=False) "
               "inside a dataflow block");
  ir_ctx_free(ctx);
}

/* main has one binding _ = R.print(x) outside a dataflow block. */
static IrModule *
print_module(IrCtx *ctx, bool pure, bool force)
{
  IrExpr *x = var(ctx, "x", false, 1), *u = ir_var_new(ctx, ir_sym(ctx, "_"), NULL, false, at(2));
  IrBindingBlock b = block(ctx, false, 1, (IrBinding[]){bind(u, op(ctx, "R.print", 2, 1, &x), 2)});
  IrFunction *f = function(ctx, 1, &x, seq(ctx, 1, &b, x), pure, 1);
  if (force)
    f->attrs = ir_attr_dict(ctx, (IrSym[]){ir_sym(ctx, "relax.force_pure")},
                            (IrAttr *[]){ir_attr_bool(ctx, true)}, 1);
  return module(ctx, 1, (IrGlobal[]){relax_global(ctx, "main", f)});
}

static void
test_impure_in_pure_function(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  expect_count(ctx, print_module(ctx, true, false), 1);
  expect_error(ctx, 0, 2,
               "in function 'main', binding '_': impure call of R.print in a pure function");
  ir_diag_clear(ctx);
  expect_count(ctx, print_module(ctx, true, true), 0);
  expect_count(ctx, print_module(ctx, false, false), 0);
  ir_ctx_free(ctx);
}

/* --- rule 3: globals ---------------------------------------------------------------- */

static void
test_globals(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", false, 1);
  IrExpr *a = var(ctx, "a", false, 2), *b = var(ctx, "b", false, 3), *c = var(ctx, "c", false, 4),
         *d = var(ctx, "d", false, 5);
  IrExpr *e = var(ctx, "e", false, 6);
  IrBindingBlock blk = block(
      ctx, false, 5,
      (IrBinding[]){
          bind(a, call(ctx, IR_CALL_GLOBAL, global(ctx, "missing", 2), 2, 1, &x), 2),
          bind(b, call(ctx, IR_CALL_GLOBAL, global(ctx, "helper", 3), 3, 2, (IrExpr *[]){x, x}), 3),
          bind(c,
               op(ctx, "R.call_tir", 4, 2,
                  (IrExpr *[]){global(ctx, "helper", 4), tuple(ctx, 1, &x, 4)}),
               4),
          bind(d,
               op(ctx, "R.call_tir", 5, 2,
                  (IrExpr *[]){global(ctx, "nowhere", 5), tuple(ctx, 1, &x, 5)}),
               5),
          bind(e, global(ctx, "gone", 6), 6)});
  IrFunction *main_fn = function(ctx, 1, &x, seq(ctx, 1, &blk, x), true, 1);
  IrModule *m = module(ctx, 2,
                       (IrGlobal[]){relax_global(ctx, "helper", helper_function(ctx, true)),
                                    relax_global(ctx, "main", main_fn)});
  expect_count(ctx, m, 5);
  expect_error(ctx, 0, 2,
               "in function 'main', binding 'a': global 'missing' is not defined in the module");
  expect_error(
      ctx, 1, 3,
      "in function 'main', binding 'b': function 'helper' takes 1 argument but is called with 2");
  expect_error(
      ctx, 2, 4,
      "in function 'main', binding 'c': the callee 'helper' of R.call_tir is not a prim_func");
  expect_error(ctx, 3, 5,
               "in function 'main', binding 'd': global 'nowhere' is not defined in the module");
  expect_error(ctx, 4, 6,
               "in function 'main', binding 'e': global 'gone' is not defined in the module");
  ir_ctx_free(ctx);
}

/* --- rule 4: struct info ------------------------------------------------------------ */

/* R.Tensor((2, 3), ndim=3) as the reader keeps it */
static IrSInfo *
rank_mismatch_tensor(IrCtx *ctx)
{
  IrSInfo *s = tensor(ctx, 2, (int64_t[]){2, 3}, IR_F32);
  s->u.tensor.ndim = 3;
  s->shape_len = 2;
  return s;
}

static void
test_sinfo_self_contradiction(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = ir_var_new(ctx, ir_sym(ctx, "x"), rank_mismatch_tensor(ctx), false, at(1));
  IrExpr *a = ir_var_new(ctx, ir_sym(ctx, "a"), rank_mismatch_tensor(ctx), false, at(2));
  IrSInfo *shape = ir_sinfo_shape(ctx, (IrPrimExpr *[]){i64(ctx, 1)}, 2);
  shape->shape_len = 1;
  IrExpr *s =
      ir_var_new(ctx, ir_sym(ctx, "s"), ir_sinfo_tuple(ctx, (IrSInfo *[]){shape}, 1), false, at(3));
  IrExpr *m = ir_var_new(ctx, ir_sym(ctx, "m"), NULL, false, at(4));
  IrBinding cast = bind(m, x, 4);
  cast.cast = rank_mismatch_tensor(ctx);
  /* a's value is a call (no sinfo); s's value is x (a tensor: the tuple
   * annotation is self-contradictory, so the value is not compared) */
  IrBindingBlock b =
      block(ctx, false, 3, (IrBinding[]){bind(a, add(ctx, x, x, 2), 2), bind(s, x, 3), cast});
  expect_count(ctx, main_module(ctx, x, 1, &b, x), 4);
  expect_error(ctx, 0, 1,
               "in function 'main', parameter 'x': struct info: tensor struct info has ndim=3 but "
               "a shape of 2 dims");
  expect_error(ctx, 1, 2,
               "in function 'main', binding 'a': annotation: tensor struct info has ndim=3 but a "
               "shape of 2 dims");
  expect_error(
      ctx, 2, 3,
      "in function 'main', binding 's': annotation: shape struct info has ndim=2 but 1 values");
  expect_error(ctx, 3, 4,
               "in function 'main', binding 'm': match_cast struct info: tensor struct info has "
               "ndim=3 but a shape of 2 dims");
  ir_ctx_free(ctx);
}

static void
test_annotation_contradicts_value(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrExpr *x = var(ctx, "x", false, 1); /* R.Tensor((4,), "float32") */
  IrExpr *k = ir_var_new(ctx, ir_sym(ctx, "k"), ir_sinfo_shape(ctx, NULL, 1), false, at(2));
  IrExpr *r =
      ir_var_new(ctx, ir_sym(ctx, "r"), tensor(ctx, 2, (int64_t[]){4, 1}, IR_F32), false, at(3));
  IrExpr *d =
      ir_var_new(ctx, ir_sym(ctx, "d"), tensor(ctx, 1, (int64_t[]){4}, IR_I32), false, at(4));
  IrExpr *s =
      ir_var_new(ctx, ir_sym(ctx, "s"), tensor(ctx, 1, (int64_t[]){5}, IR_F32), false, at(5));
  IrExpr *o = ir_var_new(ctx, ir_sym(ctx, "o"), ir_sinfo_object(ctx), false, at(6));
  IrExpr *n =
      ir_var_new(ctx, ir_sym(ctx, "n"), tensor(ctx, 1, (int64_t[]){4}, IR_VOID), false, at(7));
  IrExpr *sym =
      ir_var_new(ctx, ir_sym(ctx, "sym"),
                 ir_sinfo_tensor(ctx, (IrPrimExpr *[]){ir_prim_var(ctx, ir_sym(ctx, "n"), IR_I64)},
                                 1, IR_F32, -1),
                 false, at(8));
  IrExpr *sh = ir_var_new(ctx, ir_sym(ctx, "sh"),
                          ir_sinfo_shape(ctx, (IrPrimExpr *[]){i64(ctx, 3)}, 1), false, at(9));
  IrExpr *m =
      ir_var_new(ctx, ir_sym(ctx, "m"), tensor(ctx, 1, (int64_t[]){7}, IR_F32), false, at(10));
  IrBinding cast = bind(m, x, 10);
  cast.cast = tensor(ctx, 1, (int64_t[]){7}, IR_F32);
  IrBindingBlock b =
      block(ctx, false, 9,
            (IrBinding[]){bind(k, x, 2), bind(r, x, 3), bind(d, x, 4), bind(s, x, 5), bind(o, x, 6),
                          bind(n, x, 7), bind(sym, x, 8),
                          bind(sh, ir_shape_expr(ctx, (IrPrimExpr *[]){i64(ctx, 2)}, 1, at(9)), 9),
                          cast});
  expect_count(ctx, main_module(ctx, x, 1, &b, x), 5);
  expect_error(
      ctx, 0, 2,
      "in function 'main', binding 'k': annotation contradicts the value: R.Shape vs R.Tensor");
  expect_error(ctx, 1, 3,
               "in function 'main', binding 'r': annotation contradicts the value: rank 2 vs 1");
  expect_error(
      ctx, 2, 4,
      "in function 'main', binding 'd': annotation contradicts the value: dtype int32 vs float32");
  expect_error(
      ctx, 3, 5,
      "in function 'main', binding 's': annotation contradicts the value: dim 0 is 5 vs 4");
  expect_error(
      ctx, 4, 9,
      "in function 'main', binding 'sh': annotation contradicts the value: dim 0 is 3 vs 2");
  ir_ctx_free(ctx);
}

/* --- rule 5: prim_func ------------------------------------------------------------- */

static void
test_prim_func_buffers(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrBuffer *A = buffer(ctx, "A", 1), *B = buffer(ctx, "B", 2), *T = buffer(ctx, "T", 1),
           *D = buffer(ctx, "D", 1);
  IrPrimExpr *i = ir_prim_var(ctx, ir_sym(ctx, "i"), IR_I64),
             *vi = ir_prim_var(ctx, ir_sym(ctx, "vi"), IR_I64);
  /* block "b" allocates T; after the block, T[0] = A[0] and A[0] = T[0];
   * D is nobody's; B[vi] has one index for two dims */
  IrStmt *inner = stmts(ctx, 2,
                        (IrStmt *[]){store1(ctx, T, vi, load1(ctx, A, vi), 3),
                                     store1(ctx, B, vi, load1(ctx, D, vi), 4)});
  IrStmt *blk = tir_block(ctx, "b", vi, i, 1, &T, inner, 2);
  IrStmt *after = stmts(ctx, 2,
                        (IrStmt *[]){store1(ctx, T, i64(ctx, 0), load1(ctx, A, i64(ctx, 0)), 5),
                                     store1(ctx, A, i64(ctx, 0), load1(ctx, T, i64(ctx, 0)), 6)});
  IrPrimFunc *f = prim_func(ctx, 2, (IrBuffer *[]){A, B},
                            stmts(ctx, 2, (IrStmt *[]){loop(ctx, i, blk, 1), after}));
  expect_count(ctx, module(ctx, 1, (IrGlobal[]){prim_global(ctx, "k", f)}), 4);
  expect_error(ctx, 0, 4,
               "in function 'k', block 'b': store to buffer 'B' with 1 index but the buffer has 2 "
               "dimensions");
  expect_error(ctx, 1, 4,
               "in function 'k', block 'b': load from buffer 'D' that is not a parameter or an "
               "allocation in scope");
  expect_error(
      ctx, 2, 5,
      "in function 'k': store to buffer 'T' that is not a parameter or an allocation in scope");
  expect_error(
      ctx, 3, 6,
      "in function 'k': load from buffer 'T' that is not a parameter or an allocation in scope");
  ir_ctx_free(ctx);
}

static void
test_prim_func_var_scopes(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrBuffer *A = buffer(ctx, "A", 1);
  IrPrimExpr *i = ir_prim_var(ctx, ir_sym(ctx, "i"), IR_I64),
             *vi = ir_prim_var(ctx, ir_sym(ctx, "vi"), IR_I64);
  IrPrimExpr *t = ir_prim_var(ctx, ir_sym(ctx, "t"), IR_F32),
             *n = ir_prim_var(ctx, ir_sym(ctx, "n"), IR_I64);
  IrStmt *let = ir_stmt_new(ctx, IR_ST_LET, at(3));
  let->u.let.var = t;
  let->u.let.value = load1(ctx, A, vi);
  let->u.let.body = store1(ctx, A, vi, t, 4);
  IrStmt *blk = tir_block(ctx, "b", vi, i, 0, NULL, let, 2);
  /* after the loop: A[i] = t, A[vi] = 0, A[n] = 0 (n is free: fine) */
  IrPrimExpr *zero = ir_prim_float(ctx, IR_F32, 0.0);
  IrStmt *after = stmts(ctx, 3,
                        (IrStmt *[]){store1(ctx, A, i, t, 5), store1(ctx, A, vi, zero, 6),
                                     store1(ctx, A, n, zero, 7)});
  IrPrimFunc *f = prim_func(ctx, 1, &A, stmts(ctx, 2, (IrStmt *[]){loop(ctx, i, blk, 1), after}));
  expect_count(ctx, module(ctx, 1, (IrGlobal[]){prim_global(ctx, "k", f)}), 3);
  expect_error(ctx, 0, 5, "in function 'k': loop var 'i' is used outside its loop");
  expect_error(ctx, 1, 5, "in function 'k': let var 't' is used outside its let");
  expect_error(ctx, 2, 6, "in function 'k': block iter var 'vi' is used outside its block");
  ir_ctx_free(ctx);
}

/* An assert needs a bool condition; a declaration's source must be in
 * scope, and the declared buffer is in scope over its body (passes build
 * these; the reader refuses the first two itself). */
static void
test_prim_func_assert_and_decl(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  IrBuffer *A = buffer(ctx, "A", 1), *D = buffer(ctx, "D", 1), *V = buffer(ctx, "V", 1);
  IrStmt *check = ir_stmt_new(ctx, IR_ST_ASSERT, at(1));
  check->u.check.cond = load1(ctx, A, i64(ctx, 0)); /* float32, not bool */
  check->u.check.kind = ir_sym(ctx, "RuntimeError");
  IrStmt *decl = ir_stmt_new(ctx, IR_ST_DECL, at(2));
  decl->u.decl.buffer = V;
  decl->u.decl.source = D; /* nobody's */
  decl->u.decl.body = store1(ctx, V, i64(ctx, 0), load1(ctx, A, i64(ctx, 0)), 3);
  IrPrimFunc *f = prim_func(ctx, 1, &A, stmts(ctx, 2, (IrStmt *[]){check, decl}));
  expect_count(ctx, module(ctx, 1, (IrGlobal[]){prim_global(ctx, "k", f)}), 2);
  expect_error(ctx, 0, 1, "in function 'k': assert needs a bool condition");
  expect_error(ctx, 1, 2,
               "in function 'k': T.decl_buffer over buffer 'D' that is not a parameter or an "
               "allocation in scope");
  ir_ctx_free(ctx);
}

/* --- all violations, in every function -------------------------------------------- */

static void
test_every_violation_reported(void **state)
{
  (void)state;
  IrCtx *ctx = ir_ctx_new();
  /* helper: uses an undefined var; main: impure call in dataflow, a missing
   * global and a dataflow var escaping; a prim_func with a loop var escaping */
  IrExpr *a = var(ctx, "a", false, 50), *r = var(ctx, "r", false, 51),
         *ghost = var(ctx, "ghost", false, 99);
  IrBindingBlock hb = block(ctx, false, 1, (IrBinding[]){bind(r, add(ctx, a, ghost, 51), 51)});
  IrFunction *helper = function(ctx, 1, &a, seq(ctx, 1, &hb, r), true, 50);
  IrExpr *x = var(ctx, "x", false, 1), *lv = var(ctx, "lv", true, 2),
         *gv = var(ctx, "gv", false, 3), *y = var(ctx, "y", false, 4);
  IrBindingBlock df = block(
      ctx, true, 2,
      (IrBinding[]){bind(lv, op(ctx, "R.print", 2, 1, &x), 2),
                    bind(gv, call(ctx, IR_CALL_GLOBAL, global(ctx, "nope", 3), 3, 1, &x), 3)});
  IrBindingBlock after = block(ctx, false, 1, (IrBinding[]){bind(y, add(ctx, lv, gv, 4), 4)});
  IrFunction *main_fn =
      function(ctx, 1, &x, seq(ctx, 2, (IrBindingBlock[]){df, after}, y), true, 1);
  IrBuffer *A = buffer(ctx, "A", 1);
  IrPrimExpr *i = ir_prim_var(ctx, ir_sym(ctx, "i"), IR_I64);
  IrStmt *body =
      stmts(ctx, 2,
            (IrStmt *[]){loop(ctx, i, store1(ctx, A, i, ir_prim_float(ctx, IR_F32, 0), 101), 100),
                         store1(ctx, A, i, ir_prim_float(ctx, IR_F32, 1), 102)});
  IrModule *m =
      module(ctx, 3,
             (IrGlobal[]){relax_global(ctx, "helper", helper), relax_global(ctx, "main", main_fn),
                          prim_global(ctx, "fill", prim_func(ctx, 1, &A, body))});
  expect_count(ctx, m, 5);
  expect_error(ctx, 0, 51,
               "in function 'helper', binding 'r': var 'ghost' is not defined in this function");
  expect_error(ctx, 1, 2,
               "in function 'main', binding 'lv': impure call of R.print inside a dataflow block");
  expect_error(ctx, 2, 3,
               "in function 'main', binding 'gv': global 'nope' is not defined in the module");
  expect_error(
      ctx, 3, 4,
      "in function 'main', binding 'y': dataflow var 'lv' is used outside its dataflow block");
  expect_error(ctx, 4, 102, "in function 'fill': loop var 'i' is used outside its loop");
  ir_ctx_free(ctx);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_well_formed_module),
      cmocka_unit_test(test_empty_and_null),
      cmocka_unit_test(test_use_before_def),
      cmocka_unit_test(test_branch_and_local_scopes),
      cmocka_unit_test(test_local_function_errors_name_it),
      cmocka_unit_test(test_defined_twice),
      cmocka_unit_test(test_dataflow_var_escapes),
      cmocka_unit_test(test_dataflow_param),
      cmocka_unit_test(test_non_leaf),
      cmocka_unit_test(test_impure_in_dataflow),
      cmocka_unit_test(test_impure_in_pure_function),
      cmocka_unit_test(test_globals),
      cmocka_unit_test(test_sinfo_self_contradiction),
      cmocka_unit_test(test_annotation_contradicts_value),
      cmocka_unit_test(test_prim_func_buffers),
      cmocka_unit_test(test_prim_func_var_scopes),
      cmocka_unit_test(test_prim_func_assert_and_decl),
      cmocka_unit_test(test_every_violation_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
