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
 * The accumulation reads as acc[t] = acc[t] + A[..] * B[..] with both
 * factors parameter loads (through casts: an integer sum wraps through
 * uint32), which is what FuseOps's pattern analysis
 * (opt/fuse_pattern.c) takes for an out-elementwise-fusable reduction, so
 * a bias and an activation still fuse after it.
 */
#include "nn_int.h"

enum {
  GEMM_ROWS = 8,        /* rows of a register tile */
  GEMM_VECTOR = 64,     /* bytes of B a tile's row reads per term (one AVX-512
                           vector), unless the target says otherwise */
  GEMM_TAIL_COLS = 128  /* columns of a one-row tile (rows left over), at least */
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

/* One tile: rows row0 + [0, rows) by columns col0 + [0, cols). */
static IrStmt *
gemm_tile(OpPrim *p, const Gemm *g, IrPrimExpr *row0, int64_t rows, IrPrimExpr *col0,
          int64_t cols)
{
  IrCtx *ctx = p->lz->ctx;
  IrPrimExpr **v;
  IrStmt *st[3];
  IrStmt **body = tile_nest(p, g, false, rows, cols, &v, &st[0]);
  *body = acc_store(p, g, v[0], v[1], cols,
                    g->load_c ? g->load_c(p, g->env, op_nn_add(ctx, row0, v[0]),
                                          op_nn_add(ctx, col0, v[1]))
                              : op_nn_lit(ctx, g->sum, 0.0));
  body = tile_nest(p, g, true, rows, cols, &v, &st[1]);
  IrPrimExpr *row = op_nn_add(ctx, row0, v[1]), *col = op_nn_add(ctx, col0, v[2]);
  IrPrimExpr *prod =
      op_nn_product(ctx, g->sum, g->load_a(p, g->env, row, v[0]), g->load_b(p, g->env, v[0], col));
  IrPrimExpr *cond = g->guard ? g->guard(p, g->env, v[0], col) : NULL;
  *body = op_nn_if(p, cond,
                   acc_store(p, g, v[1], v[2], cols,
                             op_nn_sum_add(ctx, g->sum, acc_at(p, g, v[1], v[2], cols), prod)));
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

/* The full row blocks (full of them) with the column blocks outermost:
 * for each block of columns, every block of rows, so the panel of B the
 * column block reads (k x cols values) stays in cache across all the
 * rows instead of all of B streaming once per block of rows.  NULL when
 * there is none. */
static IrStmt *
columns_outer(OpPrim *p, const Gemm *g, IrPrimExpr *full)
{
  IrCtx *ctx = p->lz->ctx;
  int64_t cols = g->n < g->cols ? g->n : g->cols;
  IrStmt *st[2];
  int n = 0;
  IrPrimExpr *i, *j;
  IrStmt *nest, **slot = block_loop(p, op_nn_index(ctx, g->n / cols), &j, &nest);
  IrStmt **inner = slot ? block_loop(p, full, &i, slot) : NULL;
  if (inner) {
    *inner = gemm_tile(p, g, op_nn_mul(ctx, i, op_nn_index(ctx, GEMM_ROWS)), GEMM_ROWS,
                       op_nn_mul(ctx, j, op_nn_index(ctx, cols)), cols);
    st[n++] = nest;
  }
  inner = g->n % cols ? block_loop(p, full, &i, &st[n]) : NULL;
  if (inner) {
    *inner = gemm_tile(p, g, op_nn_mul(ctx, i, op_nn_index(ctx, GEMM_ROWS)), GEMM_ROWS,
                       op_nn_index(ctx, g->n / cols * cols), g->n % cols);
    n++;
  }
  return n ? op_nn_seq(p, st, n) : NULL;
}

static IrStmt *
gemm(OpPrim *p, Gemm *g, bool cols_outer)
{
  IrCtx *ctx = p->lz->ctx;
  int64_t tail = g->cols > GEMM_TAIL_COLS ? g->cols : GEMM_TAIL_COLS;
  /* acc holds the widest tile used: no tile is wider than B (a narrow
   * product keeps a small acc, which stays a local array) */
  int64_t wide = g->n < g->cols ? g->n : g->cols, one = g->n < tail ? g->n : tail;
  int64_t size = GEMM_ROWS * wide > one ? GEMM_ROWS * wide : one;
  IrPrimExpr *shape[1] = {op_nn_index(ctx, size > 1 ? size : 1)};
  g->acc = op_prim_alloc(p, g->sum, shape, 1, "acc");
  IrStmt *st[2], *tile;
  int n = 0;
  IrPrimExpr *i, *full = op_nn_floordiv(ctx, g->m, op_nn_index(ctx, GEMM_ROWS));
  IrStmt **slot = NULL;
  if (cols_outer && (tile = columns_outer(p, g, full)))
    st[n++] = tile;
  else if (!cols_outer)
    slot = block_loop(p, full, &i, &st[n]);
  if (slot && (tile = row_block(p, g, op_nn_mul(ctx, i, op_nn_index(ctx, GEMM_ROWS)), GEMM_ROWS,
                                g->cols))) {
    *slot = tile;
    n++;
  }
  IrPrimExpr *done = op_nn_mul(ctx, full, op_nn_index(ctx, GEMM_ROWS));
  slot = block_loop(p, op_nn_sub(ctx, g->m, done), &i, &st[n]);
  if (slot && (tile = row_block(p, g, op_nn_add(ctx, done, i), 1, tail))) {
    *slot = tile;
    n++;
  }
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
op_nn_gemm_columns_outer(OpPrim *p, Gemm *g)
{
  return gemm(p, g, true);
}
