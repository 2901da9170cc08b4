/*
 * gemm.c - the loop schedule of a float32 or integer product C[i, j] =
 * sum_k A[i, k] * B[k, j] with static j and k extents, for legalizations
 * that reduce to it (matmul, conv2d; the caller gives how (i, k), (k, j)
 * and (i, j) index its buffers).
 *
 * Key idea: a register tile.  The rows are cut into blocks of GEMM_ROWS and
 * the columns into blocks of one vector of B (op_nn_gemm_cols: 16 float32
 * columns); for each block a small accumulator acc[GEMM_ROWS * cols] is
 * zeroed, then, for every k,
 * each of its rows gets A[i, k] times the contiguous run B[k, j..j+COLS),
 * and finally acc is stored.  Every inner trip count is a constant, the
 * innermost loop is unit stride in B and acc, so a C compiler unrolls the
 * tile completely, keeps acc in vector registers (8 x 16 floats: 8
 * independent FMA chains of one AVX-512 register each) and streams A and
 * B once per tile instead of once per output element.  Rows left over
 * (the row count may be symbolic) go one at a time with a wider column
 * block; columns left over form one narrower block.  Sums are float32, as
 * in BLAS's sgemm and numpy's float32 matmul (the generic lowering's
 * float64 accumulator costs half the vector width and two conversions per
 * product).  Integer operands (int8 x int8 -> int32: quantized models)
 * take the same schedule with an integer tile (op_nn_tile_type: int32,
 * each factor widened to it, so gcc vectorizes the widening multiply-add),
 * exact and without any float.
 *
 * With the float32 kernel in the C for gcc and clang a tile is two
 * vectors of B wide (8 x 32 floats, tile_shape: 16 sums, which the
 * kernel's 8 x 2-vector blocks hold in registers, each broadcast of A
 * serving two multiply-adds), and a B whose rows lie a multiple of
 * PACK_STRIDE bytes apart is copied panel by panel into contiguous
 * scratch before the tiles read it (pack_panel).
 *
 * With [opt] kernels (OpLegalize.kernels) the sums of a float32 tile are
 * one call of rt/rt_kern_gemm.h's kernel instead of the loop over (k,
 * rows, cols), T.call_extern("void", "rxc_k_gemm_f32", ...), and those of
 * an integer tile one of rt/rt_kern_gemm_int.h's (rxc_k_gemm_i8i8_i32,
 * _u8i8_i32, _i8u8_i32, _i32i32_i32: exact, wrapping), which adds the
 * same products to each sum in the same order and keeps the sums in
 * explicit vectors whatever optimizes the C (kernel_sums).  It needs the
 * addresses the callbacks read to be linear in the row, term and column
 * (found by reading the loads they build at fresh vars: step, which also
 * reads an index split into the digits of several dims, as a batched
 * matmul's flat rows and an OIHW weight's terms are: split_digits); a
 * tile whose loads are not (an HWIO weight input, its digits out of
 * order) keeps its loops.  In the C for libtcc (OP_KERNELS_TCC), which
 * optimizes nothing, such a tile need not fit the registers (the kernel
 * walks its own 8-row blocks): it is KERN_ROWS rows by as many columns as
 * keep its sums in L1 (tile_shape), so the glue around a call, acc's
 * initialization and the store of C with its fused epilogue, runs once
 * for 32 x 128 sums instead of 8 x 16.  op_nn_gemm_into makes all of a product one
 * such call, adding into the caller's buffer of sums in place (the
 * kernel walks its 8-row blocks over all the columns itself): a
 * conv2d's chunks after the first (conv_gemm.c), which then initialize
 * and copy no tile of sums.
 *
 * The accumulation reads as acc[t] = acc[t] + A[..] * B[..] with both
 * factors parameter loads (through casts: an integer sum wraps through
 * uint32), which is what FuseOps's pattern analysis
 * (opt/fuse_pattern.c) takes for an out-elementwise-fusable reduction, so
 * a bias and an activation still fuse after it.
 */
#include <string.h>

#include "nn_int.h"

enum {
  GEMM_ROWS = 8,        /* rows of a register tile */
  GEMM_VECTOR = 64,     /* bytes of B a tile's row reads per term (one AVX-512
                           vector), unless the target says otherwise */
  GEMM_TAIL_COLS = 128, /* columns of a one-row tile (rows left over), at least */
  KERN_ROWS = 32,       /* rows of a tile the kernel sums (tile_shape) */
  KERN_ACC = 16 * 1024, /* bytes of its sums, at most: they stay in L1 */
  KERN_VECTOR = 32      /* the least vector (bytes) that takes such tiles */
};

/* Columns of a register tile over a B of dtype b: one vector of B, 16
 * float32 (one FMA chain per row), 64 int8, at the default 64 bytes.  A
 * tile of int8 as narrow as float32's reads a quarter vector of B per
 * term, and gcc then widens and multiplies in 128-bit pieces (4 GOP/s
 * against 24 for 64 columns, on this project's AVX-512 machine, 256 x 256
 * x 256).  A target with narrow vectors or none (a Cortex-M's 4 bytes)
 * gets narrow tiles, whose accumulator stays a small local array instead
 * of arena scratch.  At least 4 columns. */
int64_t
op_nn_gemm_cols(const OpLegalize *lz, IrDType b)
{
  int bytes = b.bits < 8 ? 1 : b.bits / 8;
  int vector = lz && lz->vector_bytes > 0 ? lz->vector_bytes : GEMM_VECTOR;
  return vector / bytes > 4 ? vector / bytes : 4;
}

/* r * cols + c: where acc holds (r, c). */
static IrPrimExpr *
acc_index(OpPrim *p, IrPrimExpr *r, IrPrimExpr *c, int64_t cols)
{
  IrCtx *ctx = p->lz->ctx;
  return op_nn_add(ctx, op_nn_mul(ctx, r, op_nn_index(ctx, cols)), c);
}

static IrPrimExpr *
acc_at(OpPrim *p, const Gemm *g, IrPrimExpr *r, IrPrimExpr *c, int64_t cols)
{
  return op_prim_load_at(p, g->acc, acc_index(p, r, c, cols));
}

static IrStmt *
acc_store(OpPrim *p, const Gemm *g, IrPrimExpr *r, IrPrimExpr *c, int64_t cols, IrPrimExpr *v)
{
  return op_prim_store_at(p, g->acc, acc_index(p, r, c, cols), v);
}

/* A loop nest over (rows, cols) (over (k, rows, cols) when with_k), not
 * appended; *v gets the vars (literal 0 for a row loop of one trip, which
 * is left out), *nest the outermost statement. */
static IrStmt **
tile_nest(OpPrim *p, const Gemm *g, bool with_k, int64_t rows, int64_t cols, IrPrimExpr ***v,
          IrStmt **nest)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *ext[3], **got, **all = ir_alloc(ctx, sizeof *all * 3);
  int n = 0, first = with_k ? 0 : 1;
  if (with_k)
    ext[n++] = op_nn_index(ctx, g->k);
  if (rows != 1)
    ext[n++] = op_nn_index(ctx, rows);
  ext[n++] = op_nn_index(ctx, cols);
  IrStmt **slot = op_prim_loop_nest(p, ext, n, &got, nest);
  int at = 0;
  if (with_k)
    all[0] = got[at++];
  all[1] = rows != 1 ? got[at++] : op_nn_index(ctx, 0);
  all[2] = got[at];
  *v = all + first;
  return slot;
}

/* --- the kernel form ([opt] kernels) ------------------------------------ */

/* Does e use one of the tile's vars? */
static bool
is_tile_var(const IrPrimExpr *e, void *vars)
{
  IrPrimExpr **v = vars;
  return e == v[0] || e == v[1] || e == v[2];
}

/* The coefficient of var v in index e, free of the tile's vars (*vars),
 * when e is linear in v that way; else NULL.  Only sums, differences and
 * products by what the tile's vars leave alone count: a floordiv or a
 * floormod of a var is not linear (digits of one index are
 * split_digits's), and such a tile keeps its loops. */
static IrPrimExpr *
linear(IrCtx *ctx, const IrPrimExpr *e, const IrPrimExpr *v, IrPrimExpr **vars)
{
  if (!ir_prim_walk(e, is_tile_var, vars))
    return op_nn_index(ctx, 0);
  if (e->kind == IR_PE_VAR)
    return op_nn_index(ctx, e == v ? 1 : 0);
  if (e->kind != IR_PE_ADD && e->kind != IR_PE_SUB && e->kind != IR_PE_MUL)
    return NULL;
  IrPrimExpr *a = e->u.bin.a, *b = e->u.bin.b;
  if (e->kind == IR_PE_MUL) {
    bool va = ir_prim_walk(a, is_tile_var, vars), vb = ir_prim_walk(b, is_tile_var, vars);
    IrPrimExpr *c = va && vb ? NULL : linear(ctx, va ? a : b, v, vars);
    return c ? op_nn_mul(ctx, c, op_nn_to(ctx, IR_I64, va ? b : a)) : NULL;
  }
  IrPrimExpr *ca = linear(ctx, a, v, vars), *cb = linear(ctx, b, v, vars);
  if (!ca || !cb)
    return NULL;
  return e->kind == IR_PE_ADD ? op_nn_add(ctx, ca, cb) : op_nn_sub(ctx, ca, cb);
}

static bool
is_index(const IrPrimExpr *e, int64_t want)
{
  int64_t v;
  return e && ir_prim_is_int(e, &v) && v == want;
}

/* e as a digit of some X: (X // *div) % *mod, *mod 0 for none (a plain
 * quotient), by the identities
 *   ((X // D) % M) % m  == (X // D) % m             (m divides M)
 *   ((X // D) % M) // q == (X // (D q)) % (M / q)   (q divides M)
 *   (X // D) // q       == X // (D q)
 * with X the first operand that is neither (*x; e itself: div 1, mod 0). */
static void
digit_of(const IrPrimExpr *e, const IrPrimExpr **x, int64_t *div, int64_t *mod)
{
  int64_t by;
  bool mod_op = e->kind == IR_PE_FLOORMOD, div_op = e->kind == IR_PE_FLOORDIV;
  if ((!mod_op && !div_op) || !ir_prim_is_int(e->u.bin.b, &by) || by < 1) {
    *x = e;
    *div = 1;
    *mod = 0;
    return;
  }
  digit_of(e->u.bin.a, x, div, mod);
  if (mod_op && (*mod == 0 || *mod % by == 0)) {
    *mod = by;
    return;
  }
  if (div_op && (*mod == 0 || *mod % by == 0) && *div <= INT64_MAX / by) {
    *div *= by;
    *mod = *mod ? *mod / by : 0;
    return;
  }
  *x = e; /* neither identity applies: e is its own X */
  *div = 1;
  *mod = 0;
}

/* When dims [first, d] of b are indexed by the row-major digits of X,
 *   index d      X % n_d
 *   index j      (X // (n_d ... n_{j+1})) % n_j      (first < j < d)
 *   index first  H + X // (n_d ... n_{first+1})      (or without H)
 * each n_j dim j's literal extent (a dim of extent 1 indexed 0 may come
 * between; digit_of reads the divisions in any of their spellings), the
 * indices add up to H * P + X in units of dim d's stride, P the extents
 * of (first, d] multiplied, since (X // n) * n + X % n == X: *high gets
 * H (NULL: none), *x gets X, *first and *p the first dim and P.  So a
 * tile whose rows or terms run across such dims stays linear: the flat
 * rows of a batched matmul (ops/linalg.c, set_row), conv2d's output rows
 * of a band, and its terms (ci, ky, kx) in an OIHW weight.  The code
 * generator indexes a pair of dims the same way (codegen/gen_tir.c,
 * flat_pair). */
static bool
split_digits(const IrBuffer *b, IrPrimExpr **idx, int d, IrPrimExpr **high, const IrPrimExpr **x,
             int *first, int64_t *p)
{
  const IrPrimExpr *base, *y;
  int64_t n, div, mod, v;
  digit_of(idx[d], &base, &div, &mod);
  if (div != 1 || mod < 1 || !ir_prim_is_int(b->shape[d], &n) || n != mod)
    return false;
  *p = n;
  for (int j = d - 1; j >= 0; j--) {
    IrPrimExpr *e = idx[j];
    if (ir_prim_is_int(b->shape[j], &v) && v == 1 && is_index(e, 0))
      continue; /* extent 1: adds nothing */
    digit_of(e, &y, &div, &mod);
    if (mod && ir_prim_is_int(b->shape[j], &v) && v == mod && div == *p &&
        ir_prim_expr_equal(y, base) && *p <= INT64_MAX / v) {
      *p *= v; /* one more digit */
      continue;
    }
    *high = NULL;
    if (e->kind == IR_PE_ADD) {
      *high = e->u.bin.a;
      digit_of(e->u.bin.b, &y, &div, &mod);
    }
    if (mod || div != *p || !ir_prim_expr_equal(y, base))
      return false;
    *x = base;
    *first = j;
    return true;
  }
  return false;
}

/* How far apart in memory (elements of the row-major buffer) load's
 * element is when v grows by one, or NULL when that is not a constant
 * of the tile (linear, split_digits). */
static IrPrimExpr *
step(OpPrim *p, const IrPrimExpr *load, const IrPrimExpr *v, IrPrimExpr **vars)
{
  IrCtx *ctx = p->lz->ctx;
  const IrBuffer *b = load->u.load.buffer;
  IrPrimExpr **idx = load->u.load.indices;
  IrPrimExpr *sum = op_nn_index(ctx, 0), *stride = op_nn_index(ctx, 1);
  for (int d = b->ndim - 1; d >= 0; d--) {
    IrPrimExpr *high, *c, *extent = op_nn_to(ctx, IR_I64, b->shape[d]);
    const IrPrimExpr *x;
    int first;
    int64_t span;
    if (split_digits(b, idx, d, &high, &x, &first, &span)) {
      /* H * P + X in units of dim d's stride, over dims [first, d] */
      IrPrimExpr *ch = high ? linear(ctx, high, v, vars) : op_nn_index(ctx, 0);
      IrPrimExpr *cx = linear(ctx, x, v, vars);
      c = ch && cx ? op_nn_add(ctx, op_nn_mul(ctx, ch, op_nn_index(ctx, span)), cx) : NULL;
      extent = op_nn_mul(ctx, op_nn_index(ctx, span), op_nn_to(ctx, IR_I64, b->shape[first]));
      d = first;
    } else {
      c = linear(ctx, idx[d], v, vars);
    }
    if (!c)
      return NULL;
    sum = op_nn_add(ctx, sum, op_nn_mul(ctx, c, stride));
    stride = op_nn_mul(ctx, stride, extent);
  }
  return p->lz->arith ? ir_arith_simplify(p->lz->arith, sum) : sum;
}

/* Is e a whole-element load of dtype t from a buffer of t? */
static bool
is_load_of(const IrPrimExpr *e, IrDType t)
{
  return e->kind == IR_PE_LOAD && ir_dtype_eq(e->dtype, t) &&
         ir_dtype_eq(e->u.load.buffer->dtype, t) && e->u.load.n == e->u.load.buffer->ndim;
}

/* rt/'s kernel for sums of dtype sum of loads a and b: float32 x float32
 * in float32 (rt_kern_gemm.h), int8 x int8, uint8 x int8, int8 x uint8
 * or int32 x int32 in int32 (rt_kern_gemm_int.h); NULL when none fits. */
static const char *
kernel_name(IrDType sum, const IrPrimExpr *a, const IrPrimExpr *b)
{
  static const IrDType i8 = {IR_DT_INT, 8, 1}, u8 = {IR_DT_UINT, 8, 1};
  if (ir_dtype_eq(sum, IR_F32))
    return is_load_of(a, IR_F32) && is_load_of(b, IR_F32) ? "rxc_k_gemm_f32" : NULL;
  if (!ir_dtype_eq(sum, IR_I32))
    return NULL;
  if (is_load_of(a, IR_I32))
    return is_load_of(b, IR_I32) ? "rxc_k_gemm_i32i32_i32" : NULL;
  if (is_load_of(a, i8))
    return is_load_of(b, i8)   ? "rxc_k_gemm_i8i8_i32"
           : is_load_of(b, u8) ? "rxc_k_gemm_i8u8_i32"
                               : NULL;
  return is_load_of(a, u8) && is_load_of(b, i8) ? "rxc_k_gemm_u8i8_i32" : NULL;
}

/* The kernel for the sums of tiles at row0, col0 (kernel_name), with
 * in st the steps of A's address by row and by term and of B's by term;
 * NULL when the switch is off or the tile does not fit the kernel: its A
 * and B must be loads of a kernel's dtypes whose place in memory is
 * linear in the row, term and column (found by reading the loads the
 * callbacks build at fresh vars), B's columns contiguous, and no guard. */
static const char *
kernel_of(OpPrim *p, const Gemm *g, IrPrimExpr *row0, IrPrimExpr *col0, IrPrimExpr *st[3])
{
  IrCtx *ctx = p->lz->ctx;
  if (!p->lz->kernels || g->guard)
    return NULL;
  IrPrimExpr *vars[3] = {ir_prim_var(ctx, ir_sym(ctx, "r"), IR_I64),
                         ir_prim_var(ctx, ir_sym(ctx, "k"), IR_I64),
                         ir_prim_var(ctx, ir_sym(ctx, "c"), IR_I64)};
  IrPrimExpr *a = g->load_a(p, g->env, op_nn_add(ctx, row0, vars[0]), vars[1]);
  IrPrimExpr *b = g->load_b(p, g->env, vars[1], op_nn_add(ctx, col0, vars[2]));
  const char *name = kernel_name(g->sum, a, b);
  if (!name)
    return NULL;
  st[0] = step(p, a, vars[0], vars);
  st[1] = step(p, a, vars[1], vars);
  st[2] = step(p, b, vars[1], vars);
  if (!st[0] || !st[1] || !st[2] || !is_index(step(p, a, vars[2], vars), 0) ||
      !is_index(step(p, b, vars[0], vars), 0) || !is_index(step(p, b, vars[2], vars), 1))
    return NULL;
  return name;
}

/* The sums of a tile as one call of rt/'s kernel,
 *   rxc_k_gemm_f32(acc, &A[row0, 0], a_row, a_k, &B[0, col0], b_k, K, rows, cols)
 * (acc: the address of the sums, rows of cols apart)
 * (or an integer twin: kernel_name) which adds the same products in the
 * same order as the loops it stands for (rt/rt_kern_gemm.h; integer sums
 * wrap, so any order gives the same), or NULL when the tile does not fit
 * it (kernel_of). */
static IrStmt *
kernel_sums(OpPrim *p, const Gemm *g, IrPrimExpr *acc, IrPrimExpr *row0, IrPrimExpr *rows,
            IrPrimExpr *col0, int64_t cols)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *st[3], *zero = op_nn_index(ctx, 0);
  const char *name = kernel_of(p, g, row0, col0, st);
  if (!name)
    return NULL;
  IrPrimExpr *b = g->panel ? op_prim_load_at(p, g->panel, zero) : g->load_b(p, g->env, zero, col0);
  IrPrimExpr *args[9] = {acc,
                         ir_prim_address_of(ctx, g->load_a(p, g->env, row0, zero)),
                         st[0],
                         st[1],
                         ir_prim_address_of(ctx, b),
                         g->panel ? op_nn_index(ctx, cols) : st[2],
                         op_nn_index(ctx, g->k),
                         op_nn_to(ctx, IR_I64, rows),
                         op_nn_index(ctx, cols)};
  return op_prim_kernel_stmt(p, name, args, 9);
}

/* The sums of a tile as loops: for k, rows, cols: acc += A * B. */
static IrStmt *
loop_sums(OpPrim *p, const Gemm *g, IrPrimExpr *row0, int64_t rows, IrPrimExpr *col0, int64_t cols)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **v;
  IrStmt *nest, **body = tile_nest(p, g, true, rows, cols, &v, &nest);
  IrPrimExpr *row = op_nn_add(ctx, row0, v[1]), *col = op_nn_add(ctx, col0, v[2]);
  IrPrimExpr *prod =
      op_nn_product(ctx, g->sum, g->load_a(p, g->env, row, v[0]), g->load_b(p, g->env, v[0], col));
  IrPrimExpr *cond = g->guard ? g->guard(p, g->env, v[0], col) : NULL;
  *body = op_nn_if(p, cond,
                   acc_store(p, g, v[1], v[2], cols,
                             op_nn_sum_add(ctx, g->sum, acc_at(p, g, v[1], v[2], cols), prod)));
  return nest;
}

/* One tile: rows row0 + [0, rows) by columns col0 + [0, cols). */
static IrStmt *
gemm_tile(OpPrim *p, const Gemm *g, IrPrimExpr *row0, int64_t rows, IrPrimExpr *col0, int64_t cols)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **v;
  IrStmt *st[3];
  IrStmt **body = tile_nest(p, g, false, rows, cols, &v, &st[0]);
  *body = acc_store(
      p, g, v[0], v[1], cols,
      g->load_c ? g->load_c(p, g->env, op_nn_add(ctx, row0, v[0]), op_nn_add(ctx, col0, v[1]))
                : op_nn_lit(ctx, g->sum, 0.0));
  IrPrimExpr *zero = op_nn_index(ctx, 0);
  if (!(st[1] = kernel_sums(p, g, ir_prim_address_of(ctx, acc_at(p, g, zero, zero, cols)), row0,
                            op_nn_index(ctx, rows), col0, cols)))
    st[1] = loop_sums(p, g, row0, rows, col0, cols);
  body = tile_nest(p, g, false, rows, cols, &v, &st[2]);
  *body = g->store_c(p, g->env, op_nn_add(ctx, row0, v[0]), op_nn_add(ctx, col0, v[1]),
                     acc_at(p, g, v[0], v[1], cols));
  return op_nn_seq(p, st, 3);
}

/* "for j in range(count): body" with *var the loop var, or the slot
 * itself (var 0) when count is 1; NULL when count is 0. */
static IrStmt **
block_loop(OpPrim *p, IrPrimExpr *count, IrPrimExpr **var, IrStmt **nest)
{
  int64_t c;
  bool known = ir_prim_is_int(count, &c);
  if (known && c == 0)
    return NULL;
  if (known && c == 1) {
    *var = op_nn_index(p->lz->ctx, 0);
    return nest;
  }
  IrPrimExpr **v;
  IrStmt **slot = op_prim_loop_nest(p, &count, 1, &v, nest);
  *var = v[0];
  return slot;
}

/* The tiles of rows row0 + [0, rows) over all columns: full blocks of
 * width cols, then one block of what is left.  NULL when there is none. */
static IrStmt *
row_block(OpPrim *p, const Gemm *g, IrPrimExpr *row0, int64_t rows, int64_t cols)
{
  IrCtx *ctx = p->lz->ctx;
  if (cols > g->n)
    cols = g->n;
  IrStmt *st[2];
  int n = 0;
  IrPrimExpr *j;
  IrStmt **slot = block_loop(p, op_nn_index(ctx, g->n / cols), &j, &st[n]);
  if (slot) {
    *slot = gemm_tile(p, g, row0, rows, op_nn_mul(ctx, j, op_nn_index(ctx, cols)), cols);
    n++;
  }
  if (g->n % cols)
    st[n++] = gemm_tile(p, g, row0, rows, op_nn_index(ctx, g->n / cols * cols), g->n % cols);
  return n ? op_nn_seq(p, st, n) : NULL;
}

/* Columns of a one-row tile: at least GEMM_TAIL_COLS. */
static int64_t
tail_cols(const Gemm *g)
{
  return g->cols > GEMM_TAIL_COLS ? g->cols : GEMM_TAIL_COLS;
}

/* The shape of the tiles: rows, and columns of a full one. */
typedef struct {
  int64_t rows, cols;
} Tiles;

/* In the C for libtcc, tiles the kernel sums need not be register-sized: the
 * kernel walks its own 8-row blocks, so a tile is the unit of the glue
 * around it, the initialization of acc and the store of C (a fused bias
 * and activation), which the libtcc JIT runs as calls of the row kernel
 * (codegen/gen_row.c) costing about a tenth of a microsecond each.  At
 * 8 x 16 that per-call cost was as much as the sums (squeezenet1_1's
 * 1x1 convs: 45% of the time in the gemm kernel, 40% in the glue).  So
 * with the kernel a tile is KERN_ROWS rows by as many columns (whole
 * register tiles) as keep its sums within KERN_ACC bytes: 32 x 128
 * float32.  Inside it the kernel reads the panel of B it spans (k x 128)
 * from cache for each of its 8-row blocks.  A target with narrower
 * vectors than KERN_VECTOR (a Cortex-M) keeps the register tiles and its
 * small acc, and so does a product of symbolic rows, whose acc is sized
 * for every count: its arena stays what a small count needs. */
static Tiles
tile_shape(OpPrim *p, const Gemm *g)
{
  Tiles t = {GEMM_ROWS, g->cols};
  int vector = p->lz->vector_bytes > 0 ? p->lz->vector_bytes : GEMM_VECTOR;
  IrPrimExpr *zero = op_nn_index(p->lz->ctx, 0), *st[3];
  int64_t m;
  const char *name = vector >= KERN_VECTOR ? kernel_of(p, g, zero, zero, st) : NULL;
  if (p->lz->kernels == OP_KERNELS_ON && name && !strcmp(name, "rxc_k_gemm_f32") &&
      g->n >= 2 * g->cols) {
    t.cols = 2 * g->cols; /* the kernel's 8 x 2-vector blocks (rxc_k_gemm_f32_8x2v) */
    return t;
  }
  if (p->lz->kernels != OP_KERNELS_TCC || !name || !ir_prim_is_int(g->m, &m))
    return t;
  int64_t cols = KERN_ACC / (KERN_ROWS * (g->sum.bits / 8));
  t.rows = m < KERN_ROWS ? m : KERN_ROWS;
  t.cols = cols > g->cols ? cols - cols % g->cols : g->cols;
  return t;
}

/* The panel of B a column block of cols columns from col0 reads, packed
 * (panel[t * cols + c] = B[t, col0 + c]) before the block's row tiles, or
 * NULL when it stays where it is.
 *
 * Key idea: a column block's tiles read B's k x cols panel once per row
 * block, each term's cols values from a row of B, b_k apart.  With b_k
 * a multiple of a large power of two the panel's rows fall into a few
 * sets of the L1 cache and evict each other (a [384, 1536] float32
 * weight: rows 6144 bytes apart, 2 of the 64 sets, so every term of
 * every tile came from L2: convnext_tiny's MLP products ran at half
 * ONNX Runtime's speed).  Copied once into k * cols contiguous floats,
 * the panel streams in order for every row block.  The products and
 * their order are those of the unpacked tiles: the same bits.  Only for
 * float32 tiles of the kernel in the C for gcc and clang (the JIT's
 * tiles are 32 x 128 already, and a Cortex-M's acc stays small), and
 * only for a B not already contiguous by term. */
static IrBuffer *
pack_panel(OpPrim *p, const Gemm *g, int64_t cols, IrStmt **pack, IrPrimExpr *col0)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *zero = op_nn_index(ctx, 0), *st[3];
  int vector = p->lz->vector_bytes > 0 ? p->lz->vector_bytes : GEMM_VECTOR;
  const char *name = kernel_of(p, g, zero, zero, st);
  if (p->lz->kernels != OP_KERNELS_ON || vector < KERN_VECTOR || !name ||
      strcmp(name, "rxc_k_gemm_f32") != 0 || is_index(st[2], cols))
    return NULL;
  IrPrimExpr *shape[1] = {op_nn_index(ctx, g->k * cols)};
  IrBuffer *panel = op_prim_alloc(p, IR_F32, shape, 1, "panel");
  IrPrimExpr **v;
  IrStmt **body = tile_nest(p, g, true, 1, cols, &v, pack);
  IrPrimExpr *at = op_nn_add(ctx, op_nn_mul(ctx, v[0], op_nn_index(ctx, cols)), v[2]);
  *body = op_prim_store_at(p, panel, at, g->load_b(p, g->env, v[0], op_nn_add(ctx, col0, v[2])));
  return panel;
}

/* Row blocks first + [0, count) with the column blocks outermost: for
 * each block of columns, each of those blocks of rows, so the panel of B
 * the column block reads (k x cols values, packed where pack_panel
 * says) stays in cache across the rows instead of all of B streaming
 * once per block of rows.  NULL when there is none. */
static IrStmt *
columns_outer_rows(OpPrim *p, const Gemm *g, Tiles t, IrPrimExpr *first, IrPrimExpr *count)
{
  IrCtx *ctx = p->lz->ctx;
  int64_t cols = g->n < t.cols ? g->n : t.cols;
  IrStmt *st[2];
  int n = 0;
  IrPrimExpr *i, *j;
  IrStmt *nest, **slot = block_loop(p, op_nn_index(ctx, g->n / cols), &j, &nest);
  IrStmt *two[2]; /* the panel's packing, the row blocks */
  IrStmt **inner = slot ? block_loop(p, count, &i, &two[1]) : NULL;
  if (inner) {
    Gemm packed = *g;
    IrPrimExpr *col0 = op_nn_mul(ctx, j, op_nn_index(ctx, cols));
    packed.panel = pack_panel(p, g, cols, &two[0], col0);
    *inner = gemm_tile(p, &packed, op_nn_mul(ctx, op_nn_add(ctx, first, i), op_nn_index(ctx, t.rows)),
                       t.rows, col0, cols);
    *slot = packed.panel ? op_nn_seq(p, two, 2) : two[1];
    st[n++] = nest;
  }
  inner = g->n % cols ? block_loop(p, count, &i, &st[n]) : NULL;
  if (inner) {
    *inner = gemm_tile(p, g, op_nn_mul(ctx, op_nn_add(ctx, first, i), op_nn_index(ctx, t.rows)),
                       t.rows, op_nn_index(ctx, g->n / cols * cols), g->n % cols);
    n++;
  }
  return n ? op_nn_seq(p, st, n) : NULL;
}

/* The full row blocks (full of them) with the column blocks outermost
 * (columns_outer_rows).  NULL when there is none. */
static IrStmt *
columns_outer(OpPrim *p, const Gemm *g, Tiles t, IrPrimExpr *full)
{
  return columns_outer_rows(p, g, t, op_nn_index(p->lz->ctx, 0), full);
}

/* The rows left over after the full blocks, from row done on: with
 * literal rows and the kernel's tiles, one tile of them all (the kernel
 * takes any count); else one row at a time, each a tile of at least
 * GEMM_TAIL_COLS columns.  NULL when there is none. */
static IrStmt *
rest_rows(OpPrim *p, const Gemm *g, Tiles t, IrPrimExpr *done)
{
  IrCtx *ctx = p->lz->ctx;
  int64_t m;
  if (t.rows > GEMM_ROWS && ir_prim_is_int(g->m, &m))
    return m % t.rows ? row_block(p, g, done, m % t.rows, t.cols) : NULL;
  IrStmt *st;
  IrPrimExpr *i;
  IrStmt **slot = block_loop(p, op_nn_sub(ctx, g->m, done), &i, &st);
  IrStmt *tile = slot ? row_block(p, g, op_nn_add(ctx, done, i), 1, tail_cols(g)) : NULL;
  if (!tile)
    return NULL;
  *slot = tile;
  return st;
}

static IrStmt *
gemm(OpPrim *p, Gemm *g, bool cols_outer)
{
  IrCtx *ctx = p->lz->ctx;
  Tiles t = tile_shape(p, g);
  int64_t tail = tail_cols(g);
  /* acc holds the widest tile used: no tile is wider than B (a narrow
   * product keeps a small acc, which stays a local array) */
  int64_t wide = g->n < t.cols ? g->n : t.cols, one = g->n < tail ? g->n : tail;
  int64_t size = t.rows * wide > one ? t.rows * wide : one;
  IrPrimExpr *shape[1] = {op_nn_index(ctx, size > 1 ? size : 1)};
  g->acc = op_prim_alloc(p, g->sum, shape, 1, "acc");
  IrStmt *st[2], *tile;
  int n = 0;
  IrPrimExpr *i, *full = op_nn_floordiv(ctx, g->m, op_nn_index(ctx, t.rows));
  IrStmt **slot = NULL;
  if (cols_outer && (tile = columns_outer(p, g, t, full)))
    st[n++] = tile;
  else if (!cols_outer)
    slot = block_loop(p, full, &i, &st[n]);
  if (slot &&
      (tile = row_block(p, g, op_nn_mul(ctx, i, op_nn_index(ctx, t.rows)), t.rows, t.cols))) {
    *slot = tile;
    n++;
  }
  if ((tile = rest_rows(p, g, t, op_nn_mul(ctx, full, op_nn_index(ctx, t.rows)))))
    st[n++] = tile;
  if (n == 0)
    return NULL;
  return op_nn_seq(p, st, n);
}

IrStmt *
op_nn_gemm(OpPrim *p, Gemm *g)
{
  return gemm(p, g, false);
}

IrStmt *
op_nn_gemm_into(OpPrim *p, const Gemm *g, IrBuffer *sums)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr *zero = op_nn_index(ctx, 0), **at = ir_alloc(ctx, sizeof *at * 2);
  at[0] = at[1] = zero;
  return kernel_sums(p, g, ir_prim_address_of(ctx, op_prim_load(p, sums, at)), zero, g->m, zero,
                     g->n);
}

IrStmt *
op_nn_gemm_columns_outer(OpPrim *p, Gemm *g)
{
  return gemm(p, g, true);
}
