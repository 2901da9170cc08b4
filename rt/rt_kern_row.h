/*
 * rt_kern_row.h - the row kernel, rxc_k_row_f32: an innermost loop, or a
 * nest of two,
 *   for (i = 0; i < rows; i++)
 *     for (j = 0; j < n; j++) dst[i * dst_row + j * dst_stride] = EXPR(i, j);
 * of float32 arithmetic, evaluated by a small register program instead of
 * the loop body.  The code generator writes such a call for the C that
 * libtcc compiles ([codegen] rows, codegen/gen_row.c): tcc optimizes
 * little, and one call of a precompiled copy (codegen/kern.c, built at -O3
 * per x86 level) runs the loop a block of lanes at a time.
 *
 * The program (bytes): prog[0] the number of instructions, prog[1] the
 * register holding EXPR, prog[2] how many of the first instructions run
 * once per call rather than per block (RXC_R_SCALARs whose registers no
 * later instruction writes), then 5 bytes per instruction {op, d, a, b,
 * c}: register d gets op applied to registers a, b, c (for RXC_R_LOAD, a
 * is the pointer slot: ptrs[a][i * strides[2a + 1] + j * strides[2a]];
 * for RXC_R_SCALAR, a is the scalar slot: scalars[a], the same in every
 * lane).  A register holds the lanes of one block; a comparison gives
 * 1.0f or 0.0f per lane, and a select takes b where c is 0, else a.
 *
 * Key idea: dispatch once per instruction and block, then loop over the
 * block.  A block is up to RXC_K_ROW_BLOCK lanes (i, j) in the loops'
 * order, and spans rows where that cannot change what a load sees, so
 * 7x7 rows fill it too: its loads and its store walk the block's
 * pieces of rows, a unit-stride piece as vector moves, a strided one
 * element by element.  Rows that follow one another in every pointer
 * and in dst (row stride n times the element stride) are one long row;
 * a nest of rows of one element is one row along the rows.
 *
 * Same bits as the loop: each op is the very float32 operation of the
 * generated C (a + b, rxc_max_f32's a > b ? a : b, rxc_expf, ...), in the
 * order of the program, with no contraction (the precompiled copies are
 * built with -ffp-contract=off).  A lane past the block's end computes
 * garbage that is never stored; the loads and the stores touch exactly
 * the elements (i, j), i < rows, j < n, of the loop, nothing else.  dst
 * may be one of the ptrs (an in-place update at the same index): a block
 * is loaded before it is stored, and spans rows only when no lane of it
 * can load what an earlier lane of it stores (rxc_k_row_may_span).
 *
 * Where the compiler has GNU C vector extensions (gcc, clang) a register
 * is an array of vectors of 16 floats; tcc gets the same program over
 * plain arrays.  RXC_K_ROW_BLOCK (a multiple of 16) sets the stack: the
 * 17 registers take 68 bytes a lane and about 1.3 KB more, 10 KB at the
 * 128 lanes of x86-64 and AArch64 (of 64, 128 and 256, 128 ran a mix of
 * the CNNs' rows fastest), 1.4 KB at the 16 of other targets (a
 * Cortex-M's stack is small, and its scalar code gains little from
 * longer blocks); define it to choose.  With
 * RXC_KERN_EXTERN defined the header is the prototype only (the libtcc
 * JIT binds a precompiled copy, as for rt_kern_gemm.h).
 *
 * RXC_ROWS picks, in a NAME.c generated with [codegen] rows = auto, the
 * row calls (1) or the plain loops (0): by default 1 exactly under tcc.
 *
 * Requires rt_types.h, rt_math_base.h and the math pieces (rxc_expf, ...).
 * RXC_K_VECTOR and the float vectors from rt_kern_base.h.
 */
#ifndef RXC_RT_KERN_ROW_H
#define RXC_RT_KERN_ROW_H

#ifndef RXC_ROWS
#ifdef __TINYC__
#define RXC_ROWS 1
#else
#define RXC_ROWS 0
#endif
#endif

/* The opcodes of a program (codegen/gen_row.c writes them). */
enum {
  RXC_R_LOAD,    /* d = ptrs[a][i * strides[2a + 1] + j * strides[2a]] */
  RXC_R_SCALAR,  /* d = scalars[a] */
  RXC_R_ADD,     /* d = a + b */
  RXC_R_SUB,     /* d = a - b */
  RXC_R_MUL,     /* d = a * b */
  RXC_R_DIV,     /* d = a / b */
  RXC_R_NEG,     /* d = -a */
  RXC_R_MAX,     /* d = a > b ? a : b (rxc_max_f32) */
  RXC_R_MIN,     /* d = a < b ? a : b (rxc_min_f32) */
  RXC_R_EQ,      /* d = a == b ? 1 : 0 */
  RXC_R_NE,      /* d = a != b ? 1 : 0 */
  RXC_R_LT,      /* d = a < b ? 1 : 0 */
  RXC_R_LE,      /* d = a <= b ? 1 : 0 */
  RXC_R_GT,      /* d = a > b ? 1 : 0 */
  RXC_R_GE,      /* d = a >= b ? 1 : 0 */
  RXC_R_AND,     /* d = a != 0 && b != 0 ? 1 : 0 */
  RXC_R_OR,      /* d = a != 0 || b != 0 ? 1 : 0 */
  RXC_R_NOT,     /* d = a == 0 ? 1 : 0 */
  RXC_R_SELECT,  /* d = c != 0 ? a : b */
  RXC_R_MAXN,    /* d = a != a ? a : (a > b ? a : b): the ops' NaN-propagating max */
  RXC_R_MINN,    /* d = a != a ? a : (a < b ? a : b) */
  RXC_R_MADDL,   /* d = a + L * b, L the load of pointer slot c: two roundings, as written */
  RXC_R_EXP,     /* d = rxc_expf(a), and so on: rt's float32 math */
  RXC_R_LOG,
  RXC_R_SQRT,
  RXC_R_TANH,
  RXC_R_ERF,
  RXC_R_FABS,
  RXC_R_FLOOR,
  RXC_R_CEIL,
  RXC_R_NEARBYINT,
  RXC_R_TRUNC,
  RXC_R_SIN,
  RXC_R_COS,
  RXC_R_COUNT
};

#define RXC_K_ROW_REGS 16 /* registers of a program */

#ifdef RXC_KERN_EXTERN
void rxc_k_row_f32(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, rxc_f32 *dst,
                   rxc_i64 dst_row, rxc_i64 dst_stride, const rxc_f32 *const *ptrs,
                   const rxc_i64 *strides, const rxc_f32 *scalars);
#else

#ifndef RXC_RT_KERN_BASE_H
#include "rt_kern_base.h" /* a NAME.c carries it before its kernels */
#endif

/* lanes of a block (the file comment says why these) */
#ifndef RXC_K_ROW_BLOCK
#if defined(__x86_64__) || defined(__aarch64__)
#define RXC_K_ROW_BLOCK 128
#else
#define RXC_K_ROW_BLOCK 16
#endif
#endif
RXC_STATIC_ASSERT(row_block_whole_vectors, RXC_K_ROW_BLOCK > 0 && RXC_K_ROW_BLOCK % 16 == 0);

/* d[l] = op(a[l]) for m lanes, op one of rt's unary math functions
 * (RXC_R_EXP .. RXC_R_COS): one switch, then a loop of direct calls,
 * which the compiler may inline and vectorize (rt's float32 functions
 * select rather than branch); d may be a (each lane is read before it is
 * written) */
RXC_INLINE void
rxc_k_row_map(int op, rxc_f32 *d, const rxc_f32 *a, rxc_i64 m)
{
  rxc_i64 l;
  switch (op) {
  case RXC_R_EXP:
    for (l = 0; l < m; l++)
      d[l] = rxc_expf(a[l]);
    return;
  case RXC_R_LOG:
    for (l = 0; l < m; l++)
      d[l] = rxc_logf(a[l]);
    return;
  case RXC_R_SQRT:
    for (l = 0; l < m; l++)
      d[l] = rxc_sqrtf(a[l]);
    return;
  case RXC_R_TANH:
    for (l = 0; l < m; l++)
      d[l] = rxc_tanhf(a[l]);
    return;
  case RXC_R_ERF:
    for (l = 0; l < m; l++)
      d[l] = rxc_erff(a[l]);
    return;
  case RXC_R_FABS:
    for (l = 0; l < m; l++)
      d[l] = rxc_fabsf(a[l]);
    return;
  case RXC_R_FLOOR:
    for (l = 0; l < m; l++)
      d[l] = rxc_floorf(a[l]);
    return;
  case RXC_R_CEIL:
    for (l = 0; l < m; l++)
      d[l] = rxc_ceilf(a[l]);
    return;
  case RXC_R_NEARBYINT:
    for (l = 0; l < m; l++)
      d[l] = rxc_nearbyintf(a[l]);
    return;
  case RXC_R_TRUNC:
    for (l = 0; l < m; l++)
      d[l] = rxc_truncf(a[l]);
    return;
  case RXC_R_SIN:
    for (l = 0; l < m; l++)
      d[l] = rxc_sinf(a[l]);
    return;
  default:
    for (l = 0; l < m; l++)
      d[l] = rxc_cosf(a[l]);
    return;
  }
}

#if RXC_K_VECTOR
#define RXC_K_ROW_UNIT 16 /* lanes an op's loop steps: one vector */
/* a register's unit of 16 lanes (the registers are float arrays: may_alias) */
typedef float rxc_k_row_v __attribute__((vector_size(64), may_alias));
typedef int rxc_k_row_m __attribute__((vector_size(64)));
typedef rxc_k_f32x16 rxc_k_row_u; /* a unit at any float address */
#define RXC_K_ROW_ZERO ((rxc_k_row_v){0})
#define RXC_K_ROW_ALIGNED __attribute__((aligned(64)))
/* m ? a : b per lane, m all ones or all zeros (bits, so no rounding);
 * macros, not functions: a 64-byte vector argument or result would
 * change the ABI without AVX-512 (gcc's -Wpsabi) */
#define RXC_K_ROW_PICK(m, a, b) ((rxc_k_row_v)(((m) & (rxc_k_row_m)(a)) | (~(m) & (rxc_k_row_m)(b))))

/* The first m < 16 floats from "from" to "to", in pieces of 8, 4, 2 and
 * 1 (a loop of m would become a call of memcpy) */
RXC_INLINE void
rxc_k_row_part(rxc_f32 *to, const rxc_f32 *from, rxc_i64 m)
{
  rxc_i64 o = 0;
  if (m & 8) {
    *(rxc_k_f32x8 *)(to + o) = *(const rxc_k_f32x8 *)(from + o);
    o += 8;
  }
  if (m & 4) {
    *(rxc_k_f32x4 *)(to + o) = *(const rxc_k_f32x4 *)(from + o);
    o += 4;
  }
  if (m & 2) {
    *(rxc_k_f32x2 *)(to + o) = *(const rxc_k_f32x2 *)(from + o);
    o += 2;
  }
  if (m & 1)
    to[o] = from[o];
}

/* len <= RXC_K_ROW_BLOCK floats from "from" to "to", both unit-stride:
 * whole vectors by a loop of a fixed count with a test (a loop of len / 16
 * would become a call of memmove), then the rest in pieces */
RXC_INLINE void
rxc_k_row_move_run(rxc_f32 *to, const rxc_f32 *from, rxc_i64 len)
{
  rxc_i64 k, whole = len / 16;
  for (k = 0; k < RXC_K_ROW_BLOCK / 16; k++)
    if (k < whole)
      ((rxc_k_row_u *)to)[k] = ((const rxc_k_row_u *)from)[k];
  rxc_k_row_part(to + 16 * whole, from + 16 * whole, len - 16 * whole);
}

/* to[l] = p[l * s], l < len: in runs of 16 lanes with a test, not a loop
 * of len (which gcc may turn into a call of memcpy); p[0] once for s = 0 */
RXC_INLINE void
rxc_k_row_in(rxc_f32 *to, const rxc_f32 *p, rxc_i64 s, rxc_i64 len)
{
  rxc_i64 l, k;
  if (s == 1) {
    rxc_k_row_move_run(to, p, len);
  } else if (s == 0) {
    rxc_k_row_v v = *p - RXC_K_ROW_ZERO; /* p - 0 is p, bits and all (0 + -0 would be +0) */
    for (l = 0; l + 16 <= len; l += 16)
      *(rxc_k_row_u *)(to + l) = v;
    rxc_k_row_part(to + l, (const rxc_f32 *)&v, len - l);
  } else if (s == 2) { /* a stride-2 pooling or conv: vector loads and shuffles */
    for (l = 0; l < len; l++)
      to[l] = p[2 * l];
  } else {
    for (l = 0; l < len; l += 16)
      for (k = 0; k < 16; k++)
        if (l + k < len)
          to[l + k] = p[(l + k) * s];
  }
}

/* q[l * s] = from[l], l < len, in order (the last lane wins for s = 0) */
RXC_INLINE void
rxc_k_row_out(rxc_f32 *q, rxc_i64 s, const rxc_f32 *from, rxc_i64 len)
{
  rxc_i64 l, k;
  if (s == 1) {
    rxc_k_row_move_run(q, from, len);
  } else {
    for (l = 0; l < len; l += 16)
      for (k = 0; k < 16; k++)
        if (l + k < len)
          q[(l + k) * s] = from[l + k];
  }
}
#else
#define RXC_K_ROW_UNIT 1 /* lanes an op's loop steps: one float */
typedef rxc_f32 rxc_k_row_v;
typedef rxc_f32 rxc_k_row_u;
#define RXC_K_ROW_ZERO 0.0f
#define RXC_K_ROW_ALIGNED
#define RXC_K_ROW_PICK(m, a, b) ((m) ? (a) : (b))

/* to[l] = p[l * s], l < len */
RXC_INLINE void
rxc_k_row_in(rxc_f32 *to, const rxc_f32 *p, rxc_i64 s, rxc_i64 len)
{
  rxc_i64 l;
  for (l = 0; l < len; l++)
    to[l] = p[l * s];
}

/* q[l * s] = from[l], l < len, in order */
RXC_INLINE void
rxc_k_row_out(rxc_f32 *q, rxc_i64 s, const rxc_f32 *from, rxc_i64 len)
{
  rxc_i64 l;
  for (l = 0; l < len; l++)
    q[l * s] = from[l];
}
#endif
/* 1.0f where m, else 0.0f */
#define RXC_K_ROW_TRUTH(m) RXC_K_ROW_PICK(m, one, zero)

/* A register of a block: its unit k is at[k * step].  A step of 0 when
 * every lane holds one value (a scalar, or a load that does not move
 * over the block): one unit then, not a block of them. */
typedef struct {
  const rxc_k_row_u *at;
  rxc_i64 step; /* 1, or 0 */
} rxc_k_row_reg;

/* d = op(a, b, c) on units [0, u) (not a load, not a scalar; for
 * RXC_R_MADDL, c holds the loaded L).  d may be the memory of a, b or c:
 * each unit is read before it is written; a register of step 0 is never
 * d's memory (rxc_k_row_regs' splats). */
RXC_INLINE void
rxc_k_row_op(int op, rxc_k_row_v *d, rxc_k_row_reg ra, rxc_k_row_reg rb, rxc_k_row_reg rc,
             rxc_i64 u)
{
  const rxc_k_row_v zero = RXC_K_ROW_ZERO, one = zero + 1.0f;
  const rxc_k_row_u *a = ra.at, *b = rb.at, *c = rc.at;
  rxc_i64 sa = ra.step, sb = rb.step, sc = rc.step, k;
  switch (op) {
  case RXC_R_ADD:
    for (k = 0; k < u; k++)
      d[k] = a[k * sa] + b[k * sb];
    return;
  case RXC_R_SUB:
    for (k = 0; k < u; k++)
      d[k] = a[k * sa] - b[k * sb];
    return;
  case RXC_R_MUL:
    for (k = 0; k < u; k++)
      d[k] = a[k * sa] * b[k * sb];
    return;
  case RXC_R_DIV:
    for (k = 0; k < u; k++)
      d[k] = a[k * sa] / b[k * sb];
    return;
  case RXC_R_NEG:
    for (k = 0; k < u; k++)
      d[k] = -a[k * sa];
    return;
  case RXC_R_MAX:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_PICK(a[k * sa] > b[k * sb], a[k * sa], b[k * sb]);
    return;
  case RXC_R_MIN:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_PICK(a[k * sa] < b[k * sb], a[k * sa], b[k * sb]);
    return;
  case RXC_R_EQ:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_TRUTH(a[k * sa] == b[k * sb]);
    return;
  case RXC_R_NE:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_TRUTH(a[k * sa] != b[k * sb]);
    return;
  case RXC_R_LT:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_TRUTH(a[k * sa] < b[k * sb]);
    return;
  case RXC_R_LE:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_TRUTH(a[k * sa] <= b[k * sb]);
    return;
  case RXC_R_GT:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_TRUTH(a[k * sa] > b[k * sb]);
    return;
  case RXC_R_GE:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_TRUTH(a[k * sa] >= b[k * sb]);
    return;
  case RXC_R_AND:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_TRUTH((a[k * sa] != zero) & (b[k * sb] != zero));
    return;
  case RXC_R_OR:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_TRUTH((a[k * sa] != zero) | (b[k * sb] != zero));
    return;
  case RXC_R_NOT:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_TRUTH(a[k * sa] == zero);
    return;
  case RXC_R_SELECT:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_PICK(c[k * sc] != zero, a[k * sa], b[k * sb]);
    return;
  case RXC_R_MAXN:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_PICK((a[k * sa] != a[k * sa]) | (a[k * sa] > b[k * sb]), a[k * sa],
                            b[k * sb]);
    return;
  case RXC_R_MINN:
    for (k = 0; k < u; k++)
      d[k] = RXC_K_ROW_PICK((a[k * sa] != a[k * sa]) | (a[k * sa] < b[k * sb]), a[k * sa],
                            b[k * sb]);
    return;
  case RXC_R_MADDL:
    for (k = 0; k < u; k++)
      d[k] = a[k * sa] + c[k * sc] * b[k * sb];
    return;
  default: /* rt's math, lane by lane; of one value once, then copied */
    rxc_k_row_map(op, (rxc_f32 *)d, (const rxc_f32 *)a, (sa ? u : 1) * RXC_K_ROW_UNIT);
    for (k = 1; k < u && !sa; k++)
      d[k] = d[0];
    return;
  }
}

/* How the lanes are walked: rows of n lanes, lane (i, j) at i * the row
 * stride + j * the lane stride of each pointer slot and of dst */
typedef struct {
  rxc_i64 rows, n;
  int across; /* the lane stride of slot a is strides[2a + across]: 1 when the
                 walk's one row runs along the call's rows (n == 1) */
  int span;   /* a block may span rows */
} rxc_k_row_walk;

/* One block: m lanes from lane (row, j) of a walk on */
typedef struct {
  rxc_i64 row, j, m;
  rxc_i64 n; /* the walk's lanes a row */
} rxc_k_row_block;

/* What every block of a call reads */
typedef struct {
  const unsigned char *prog;
  const rxc_f32 *const *ptrs;
  const rxc_i64 *strides;
  const rxc_f32 *scalars;
  int across;        /* slot a's lane stride is strides[2a + across] (rxc_k_row_walk) */
  rxc_f32 *dst;      /* dst, its strides in the walk: */
  rxc_i64 dst_lane;  /* of a lane */
  rxc_i64 dst_row;   /* of a row */
} rxc_k_row_call;

/* The registers: RXC_K_ROW_REGS, and one more for RXC_R_MADDL's load */
typedef struct {
  rxc_f32 block[RXC_K_ROW_REGS + 1][RXC_K_ROW_BLOCK] RXC_K_ROW_ALIGNED; /* of step 1 */
#if RXC_K_ROW_BLOCK > RXC_K_ROW_UNIT
  rxc_k_row_v splat[RXC_K_ROW_REGS + 1]; /* of step 0 (a block of one unit keeps them in block) */
#endif
  rxc_k_row_reg reg[RXC_K_ROW_REGS + 1];                                /* where each is */
} rxc_k_row_regs;

/* Are a pointer's elements at the block's lanes one run at its lane
 * stride s from lane 0's (a block within one row, or rows that follow
 * one another: row stride rs = n * s)? */
RXC_INLINE int
rxc_k_row_one_piece(rxc_i64 s, rxc_i64 rs, const rxc_k_row_block *b)
{
  return b->j + b->m <= b->n || rs == b->n * s;
}

/* Lanes [0, m) of "to": a pointer's elements at the block's lanes (its
 * lane stride s, its row stride rs), row piece by row piece; in the
 * vector form the lanes of the last unit past m are 0, so that their
 * garbage is never a subnormal's slow path. */
RXC_INLINE void
rxc_k_row_gather(rxc_f32 *to, const rxc_f32 *p, rxc_i64 s, rxc_i64 rs, const rxc_k_row_block *b)
{
  rxc_i64 row = b->row, j = b->j, l = 0;
#if RXC_K_VECTOR
  ((rxc_k_row_v *)to)[(b->m - 1) / RXC_K_ROW_UNIT] = RXC_K_ROW_ZERO;
#endif
  if (rxc_k_row_one_piece(s, rs, b)) {
    rxc_k_row_in(to, p + row * rs + j * s, s, b->m);
    return;
  }
  while (l < b->m) {
    rxc_i64 len = b->n - j < b->m - l ? b->n - j : b->m - l;
    rxc_k_row_in(to + l, p + row * rs + j * s, s, len);
    l += len;
    j = 0;
    row++;
  }
}

/* dst's elements at the block's lanes = lanes [0, m) of "from" */
RXC_INLINE void
rxc_k_row_scatter(const rxc_k_row_call *c, const rxc_f32 *from, const rxc_k_row_block *b)
{
  rxc_i64 row = b->row, j = b->j, l = 0;
  while (l < b->m) {
    rxc_i64 len = b->n - j < b->m - l ? b->n - j : b->m - l;
    rxc_k_row_out(c->dst + row * c->dst_row + j * c->dst_lane, c->dst_lane, from + l, len);
    l += len;
    j = 0;
    row++;
  }
}

/* Register k = s in every lane (s - 0 is s, bits and all: 0 + -0 would be +0) */
RXC_INLINE void
rxc_k_row_set_scalar(rxc_k_row_regs *r, int k, rxc_f32 s)
{
#if RXC_K_ROW_BLOCK > RXC_K_ROW_UNIT
  rxc_k_row_v *at = &r->splat[k];
#else /* an op reads its one unit before it writes it: the block's own memory will do */
  rxc_k_row_v *at = (rxc_k_row_v *)r->block[k];
#endif
  *at = s - RXC_K_ROW_ZERO;
  r->reg[k].at = (const rxc_k_row_u *)at;
  r->reg[k].step = 0;
}

/* Register k = slot a's elements at the block's lanes: one value when
 * they are one element (a stride of 0 in the block's one row piece, or
 * in every row), else gathered */
RXC_INLINE void
rxc_k_row_load(rxc_k_row_regs *r, int k, const rxc_k_row_call *c, int a, const rxc_k_row_block *b)
{
  const rxc_f32 *p = c->ptrs[a];
  rxc_i64 s = c->strides[2 * a + c->across], rs = c->strides[2 * a + 1];
  if (s == 0 && rxc_k_row_one_piece(s, rs, b)) {
    rxc_k_row_set_scalar(r, k, p[b->row * rs]);
    return;
  }
  rxc_k_row_gather(r->block[k], p, s, rs, b);
  r->reg[k].at = (const rxc_k_row_u *)r->block[k];
  r->reg[k].step = 1;
}

/* Register in[1] = in[2] + L * in[3], L slot in[4]'s elements at the
 * block's lanes (u units).  One unit-stride row piece is read where it
 * is, but for a last partial unit, which is copied (not a float past
 * the block is read); other layouts are loaded first. */
RXC_INLINE void
rxc_k_row_madd(rxc_k_row_regs *r, const unsigned char *in, const rxc_k_row_call *c,
               const rxc_k_row_block *b, rxc_i64 u)
{
  const rxc_f32 *p = c->ptrs[in[4]];
  rxc_i64 s = c->strides[2 * in[4] + c->across], rs = c->strides[2 * in[4] + 1];
  rxc_k_row_v *d = (rxc_k_row_v *)r->block[in[1] % RXC_K_ROW_REGS];
  rxc_k_row_reg x = r->reg[in[2] % RXC_K_ROW_REGS], y = r->reg[in[3] % RXC_K_ROW_REGS], l;
  rxc_i64 whole = b->m / RXC_K_ROW_UNIT;
  if (s == 1 && rxc_k_row_one_piece(s, rs, b) && whole > 0) {
    l.at = (const rxc_k_row_u *)(p + b->row * rs + b->j);
    l.step = 1;
    rxc_k_row_op(RXC_R_MADDL, d, x, y, l, whole);
    if (whole < u) { /* the partial last unit */
      rxc_k_row_block tail = *b;
      tail.j += whole * RXC_K_ROW_UNIT;
      tail.m -= whole * RXC_K_ROW_UNIT;
      rxc_k_row_gather(r->block[RXC_K_ROW_REGS], p, s, rs, &tail);
      x.at += whole * x.step;
      y.at += whole * y.step;
      l.at = (const rxc_k_row_u *)r->block[RXC_K_ROW_REGS];
      rxc_k_row_op(RXC_R_MADDL, d + whole, x, y, l, 1);
    }
  } else {
    rxc_k_row_load(r, RXC_K_ROW_REGS, c, in[4], b);
    rxc_k_row_op(RXC_R_MADDL, d, x, y, r->reg[RXC_K_ROW_REGS], u);
  }
  r->reg[in[1] % RXC_K_ROW_REGS].at = (const rxc_k_row_u *)d;
  r->reg[in[1] % RXC_K_ROW_REGS].step = 1;
}

/* A chain of MADDLs: d = a + L_0 * b_0, then d = d + L_t * b_t, unit by
 * unit over u units, the running sum held in a register instead of in d
 * between the links (the same operations in the same order, lane by
 * lane); l[t] the loads, b[t] a register other than d for t > 0 */
RXC_INLINE void
rxc_k_row_chain_op(rxc_k_row_v *d, rxc_k_row_reg a, const rxc_k_row_u *const *l,
                   const rxc_k_row_reg *b, int q, rxc_i64 u)
{
  rxc_i64 k;
  int t;
  for (k = 0; k < u; k++) {
    rxc_k_row_v sum = a.at[k * a.step];
    for (t = 0; t < q; t++)
      sum = sum + l[t][k] * b[t].at[k * b[t].step];
    d[k] = sum;
  }
}

/* How many instructions from in (of the count left) are one chain that
 * rxc_k_row_chain can run: MADDLs into one register d, each after the
 * first adding to d a product not of d, its load one unit-stride piece;
 * at most as many as the units of a register (the partial last unit of
 * each load is copied to one) */
RXC_INLINE int
rxc_k_row_chain_length(const unsigned char *in, int left, const rxc_k_row_call *c,
                       const rxc_k_row_block *b)
{
  int d = in[1] % RXC_K_ROW_REGS, q;
  for (q = 0; q < left && q < RXC_K_ROW_BLOCK / RXC_K_ROW_UNIT; q++, in += 5) {
    int a = in[4];
    if (in[0] != RXC_R_MADDL || c->strides[2 * a + c->across] != 1 ||
        !rxc_k_row_one_piece(1, c->strides[2 * a + 1], b))
      break;
    if (q > 0 && (in[1] % RXC_K_ROW_REGS != d || in[2] % RXC_K_ROW_REGS != d ||
                  in[3] % RXC_K_ROW_REGS == d))
      break;
  }
  return q;
}

/* The q MADDLs of a chain from in (rxc_k_row_chain_length) on the block's
 * u units: the loads read where they are, but for their partial last
 * unit, copied (not a float past the block is read) */
RXC_INLINE void
rxc_k_row_chain(rxc_k_row_regs *r, const unsigned char *in, int q, const rxc_k_row_call *c,
                const rxc_k_row_block *b, rxc_i64 u)
{
  const rxc_k_row_u *l[RXC_K_ROW_BLOCK / RXC_K_ROW_UNIT];
  rxc_k_row_reg y[RXC_K_ROW_BLOCK / RXC_K_ROW_UNIT], x = r->reg[in[2] % RXC_K_ROW_REGS];
  rxc_k_row_v *d = (rxc_k_row_v *)r->block[in[1] % RXC_K_ROW_REGS];
  rxc_i64 whole = b->m / RXC_K_ROW_UNIT;
  int t;
  for (t = 0; t < q; t++) {
    const unsigned char *at = in + 5 * t;
    l[t] = (const rxc_k_row_u *)(c->ptrs[at[4]] + b->row * c->strides[2 * at[4] + 1] + b->j);
    y[t] = r->reg[at[3] % RXC_K_ROW_REGS];
  }
  rxc_k_row_chain_op(d, x, l, y, q, whole);
  if (whole < u) { /* the partial last unit */
    rxc_k_row_block tail = *b;
    tail.j += whole * RXC_K_ROW_UNIT;
    tail.m -= whole * RXC_K_ROW_UNIT;
    for (t = 0; t < q; t++) {
      rxc_f32 *to = r->block[RXC_K_ROW_REGS] + t * RXC_K_ROW_UNIT;
      const unsigned char *at = in + 5 * t;
      rxc_k_row_gather(to, c->ptrs[at[4]], 1, c->strides[2 * at[4] + 1], &tail);
      l[t] = (const rxc_k_row_u *)to;
      y[t].at += whole * y[t].step;
    }
    x.at += whole * x.step;
    rxc_k_row_chain_op(d + whole, x, l, y, q, 1);
  }
  r->reg[in[1] % RXC_K_ROW_REGS].at = (const rxc_k_row_u *)d;
  r->reg[in[1] % RXC_K_ROW_REGS].step = 1;
}

/* The program on one block (its prologue already in r), then its value
 * to dst */
RXC_INLINE void
rxc_k_row_block_run(rxc_k_row_regs *r, const rxc_k_row_call *c, const rxc_k_row_block *b)
{
  const unsigned char *prog = c->prog, *in = prog + 3 + 5 * prog[2];
  rxc_i64 u = (b->m + RXC_K_ROW_UNIT - 1) / RXC_K_ROW_UNIT, k;
  rxc_k_row_reg v;
  int i;
  for (i = prog[2]; i < prog[0]; i++, in += 5) {
    int d = in[1] % RXC_K_ROW_REGS;
    if (in[0] == RXC_R_LOAD) {
      rxc_k_row_load(r, d, c, in[2], b);
    } else if (in[0] == RXC_R_SCALAR) {
      rxc_k_row_set_scalar(r, d, c->scalars[in[2]]);
    } else if (in[0] == RXC_R_MADDL) {
      int q = rxc_k_row_chain_length(in, prog[0] - i, c, b);
      if (q > 1) {
        rxc_k_row_chain(r, in, q, c, b, u);
        i += q - 1;
        in += 5 * (q - 1);
      } else {
        rxc_k_row_madd(r, in, c, b, u);
      }
    } else {
      rxc_k_row_op(in[0], (rxc_k_row_v *)r->block[d], r->reg[in[2] % RXC_K_ROW_REGS],
                   r->reg[in[3] % RXC_K_ROW_REGS], r->reg[in[4] % RXC_K_ROW_REGS], u);
      r->reg[d].at = (const rxc_k_row_u *)r->block[d];
      r->reg[d].step = 1;
    }
  }
  v = r->reg[prog[1] % RXC_K_ROW_REGS];
  if (v.step == 0) { /* one value: spread over the block to store it */
    rxc_k_row_v *t = (rxc_k_row_v *)r->block[RXC_K_ROW_REGS];
    for (k = 0; k < u; k++)
      t[k] = v.at[0];
    v.at = (const rxc_k_row_u *)t;
  }
  rxc_k_row_scatter(c, (const rxc_f32 *)v.at, b);
}

/* rxc_k_row_f32 of a program of one RXC_R_LOAD or RXC_R_SCALAR: the
 * value moves unchanged, so no registers: into a unit-stride dst, a
 * block at a time by rxc_k_row_in's vector moves; else a loop per row
 * (which compilers vectorize) */
RXC_INLINE void
rxc_k_row_move(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, rxc_f32 *dst, rxc_i64 dst_row,
               rxc_i64 dst_stride, const rxc_f32 *const *ptrs, const rxc_i64 *strides,
               const rxc_f32 *scalars)
{
  int a = prog[5], fill = prog[3] == RXC_R_SCALAR;
  rxc_i64 row, j, s = fill ? 0 : strides[2 * a];
  if (dst_row == n * dst_stride && (fill || strides[2 * a + 1] == n * s)) {
    n *= rows; /* rows that follow one another: one row (the same lanes in the same order) */
    rows = 1;
  }
  for (row = 0; row < rows; row++) {
    rxc_f32 *d = dst + row * dst_row;
    const rxc_f32 *p = fill ? &scalars[a] : ptrs[a] + row * strides[2 * a + 1];
    if (dst_stride == 1) {
      for (j = 0; j < n; j += RXC_K_ROW_BLOCK)
        rxc_k_row_in(d + j, p + j * s, s, n - j < RXC_K_ROW_BLOCK ? n - j : RXC_K_ROW_BLOCK);
    } else {
      for (j = 0; j < n; j++)
        d[j * dst_stride] = p[j * s];
    }
  }
}

RXC_INLINE rxc_i64
rxc_k_row_abs(rxc_i64 x)
{
  return x < 0 ? -x : x;
}

/* Does the byte range of the elements i * rs + j * s (i < rows, j < n)
 * from p meet that of q's (its strides qs, qrs)?  Addresses as integers:
 * the two need not be one object. */
RXC_INLINE int
rxc_k_row_meet(const rxc_f32 *p, rxc_i64 s, rxc_i64 rs, const rxc_f32 *q, rxc_i64 qs,
               rxc_i64 qrs, rxc_i64 rows, rxc_i64 n)
{
  rxc_i64 pa = (rxc_i64)(size_t)p, qa = (rxc_i64)(size_t)q;
  rxc_i64 p_lo = pa + 4 * ((rs < 0 ? rs : 0) * (rows - 1) + (s < 0 ? s : 0) * (n - 1));
  rxc_i64 p_hi = pa + 4 * ((rs > 0 ? rs : 0) * (rows - 1) + (s > 0 ? s : 0) * (n - 1)) + 4;
  rxc_i64 q_lo = qa + 4 * ((qrs < 0 ? qrs : 0) * (rows - 1) + (qs < 0 ? qs : 0) * (n - 1));
  rxc_i64 q_hi = qa + 4 * ((qrs > 0 ? qrs : 0) * (rows - 1) + (qs > 0 ? qs : 0) * (n - 1)) + 4;
  return p_lo < q_hi && q_lo < p_hi;
}

/* May a block span rows (rows > 1)?  When the lanes store to distinct
 * elements of dst, yes: a load of dst's memory is dst at the lane's own
 * index (codegen/gen_row.c's rule), read before that lane's store, and no
 * other lane stores there.  Otherwise (a row stride of 0: each row
 * overwrites the last), only when no pointer the program loads meets
 * dst's elements, since a row may read what an earlier row stored. */
RXC_INLINE int
rxc_k_row_may_span(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, const rxc_f32 *dst,
                   rxc_i64 dr, rxc_i64 ds, const rxc_f32 *const *ptrs, const rxc_i64 *strides)
{
  rxc_i64 r = rxc_k_row_abs(dr), s = rxc_k_row_abs(ds);
  const unsigned char *in = prog + 3;
  int k;
  if (r != 0 && (r >= n * s || n == 1 || (s != 0 && s >= rows * r)))
    return 1; /* rows apart, or columns apart: every element once */
  for (k = 0; k < prog[0]; k++, in += 5) {
    int a = in[0] == RXC_R_LOAD ? in[2] : in[0] == RXC_R_MADDL ? in[4] : -1;
    if (a >= 0 && rxc_k_row_meet(ptrs[a], strides[2 * a], strides[2 * a + 1], dst, ds, dr, rows, n))
      return 0;
  }
  return 1;
}

/* Are the rows one long row, in dst and in every pointer the program
 * loads: a row stride of n times the lane stride? */
RXC_INLINE int
rxc_k_row_flat(rxc_i64 n, const unsigned char *prog, rxc_i64 dr, rxc_i64 ds,
               const rxc_i64 *strides)
{
  const unsigned char *in = prog + 3;
  int k;
  if (dr != n * ds)
    return 0;
  for (k = 0; k < prog[0]; k++, in += 5) {
    int a = in[0] == RXC_R_LOAD ? in[2] : in[0] == RXC_R_MADDL ? in[4] : -1;
    if (a >= 0 && strides[2 * a + 1] != n * strides[2 * a])
      return 0;
  }
  return 1;
}

/* The walk of a call: one long row where the rows follow one another, one
 * row along the rows where they are one lane each, blocks across rows
 * where rxc_k_row_may_span allows, else row by row */
RXC_INLINE rxc_k_row_walk
rxc_k_row_walk_of(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, const rxc_f32 *dst,
                  rxc_i64 dr, rxc_i64 ds, const rxc_f32 *const *ptrs, const rxc_i64 *strides)
{
  rxc_k_row_walk w;
  w.rows = rows;
  w.n = n;
  w.across = 0;
  w.span = 0;
  if (rows > 1 && rxc_k_row_may_span(rows, n, prog, dst, dr, ds, ptrs, strides)) {
    w.span = 1;
    if (n == 1) {
      w.rows = 1;
      w.n = rows;
      w.across = 1;
    } else if (rxc_k_row_flat(n, prog, dr, ds, strides)) {
      w.rows = 1;
      w.n = rows * n;
    }
  }
  return w;
}

/* dst[i * dst_row + j * dst_stride] = the program's value at (i, j), for
 * i < rows, j < n (the file comment); the pointers the program loads are
 * read at the elements i * strides[2a + 1] + j * strides[2a], i < rows,
 * j < n, and nothing else.  dst is written only there, a block after the
 * block's loads: a row may read what an earlier row stored, as in the
 * loops. */
RXC_INLINE void
rxc_k_row_f32(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, rxc_f32 *dst, rxc_i64 dst_row,
              rxc_i64 dst_stride, const rxc_f32 *const *ptrs, const rxc_i64 *strides,
              const rxc_f32 *scalars)
{
  /* the registers, not cleared (a row of a few elements would pay more
   * for it than for its work): a program reads a register only after
   * writing it, and an operand an op does not use is not read */
  rxc_k_row_regs r;
  rxc_k_row_walk w;
  rxc_k_row_call c;
  rxc_k_row_block b;
  rxc_i64 left;
  int k;
  if (rows <= 0 || n <= 0)
    return;
  if (prog[0] == 1 && prog[3] <= RXC_R_SCALAR) { /* a copy or a fill: plain loops */
    rxc_k_row_move(rows, n, prog, dst, dst_row, dst_stride, ptrs, strides, scalars);
    return;
  }
  w = rxc_k_row_walk_of(rows, n, prog, dst, dst_row, dst_stride, ptrs, strides);
  c.prog = prog;
  c.ptrs = ptrs;
  c.strides = strides;
  c.scalars = scalars;
  c.across = w.across;
  c.dst = dst;
  c.dst_lane = w.across ? dst_row : dst_stride;
  c.dst_row = dst_row;
  for (k = 0; k < prog[2]; k++) /* the scalars, once */
    rxc_k_row_set_scalar(&r, prog[3 + 5 * k + 1] % RXC_K_ROW_REGS, scalars[prog[3 + 5 * k + 2]]);
  b.row = 0;
  b.j = 0;
  b.n = w.n;
  left = w.span ? w.rows * w.n : w.n; /* lanes left in the row, or in all of them */
  for (;;) {
    b.m = left < RXC_K_ROW_BLOCK ? left : RXC_K_ROW_BLOCK;
    rxc_k_row_block_run(&r, &c, &b);
    left -= b.m;
    if (left == 0 && (w.span || ++b.row == w.rows))
      return;
    if (left == 0) { /* the next row */
      b.j = 0;
      left = w.n;
    } else if ((b.j += b.m) >= w.n) { /* on in a block across rows: divide only then */
      b.row += b.j / w.n;
      b.j %= w.n;
    }
  }
}
#endif /* RXC_KERN_EXTERN */

#endif /* RXC_RT_KERN_ROW_H */
