/*
 * rt_kern_row.h - the row kernel, rxc_k_row_f32: an innermost loop, or a
 * nest of two,
 *   for (i = 0; i < rows; i++)
 *     for (j = 0; j < n; j++) dst[i * dst_row + j * dst_stride] = EXPR(i, j);
 * of float32 arithmetic, evaluated by a small register program instead of
 * the loop body.  The code generator writes such a call for the C that
 * libtcc compiles ([codegen] rows, codegen/gen_row.c): tcc optimizes
 * little, and one call of a precompiled copy (codegen/kern.c, built at -O3
 * per x86 level) runs the loop a vector of lanes at a time.
 *
 * The program (bytes): prog[0] the number of instructions, prog[1] the
 * register holding EXPR, prog[2] how many of the first instructions run
 * once per call rather than per chunk (RXC_R_SCALARs whose registers no
 * later instruction writes), then 5 bytes per instruction {op, d, a, b,
 * c}: register d gets op applied to registers a, b, c (for RXC_R_LOAD, a
 * is the pointer slot: ptrs[a][i * strides[2a + 1] + j * strides[2a]];
 * for RXC_R_SCALAR, a is the scalar slot: scalars[a], the same in every
 * lane).  Registers hold
 * RXC_K_ROW_LANES consecutive elements j; a comparison gives 1.0f or
 * 0.0f per lane, and a select takes b where c is 0, else a.
 *
 * Same bits as the loop: each op is the very float32 operation of the
 * generated C (a + b, rxc_max_f32's a > b ? a : b, rxc_expf, ...), in the
 * order of the program, with no contraction (the precompiled copies are
 * built with -ffp-contract=off).  A lane past n computes garbage that is
 * never stored; the loads and the stores touch exactly the elements j < n
 * of the loop, nothing else.  dst may be one of the ptrs (an in-place
 * update at the same index): a chunk is loaded before it is stored.
 *
 * Where the compiler has GNU C vector extensions (gcc, clang) a register
 * is a vector of 16 floats; tcc gets the same program over plain arrays.
 * With RXC_KERN_EXTERN defined the header is the prototype only (the
 * libtcc JIT binds a precompiled copy, as for rt_kern_gemm.h).
 *
 * RXC_ROWS picks, in a NAME.c generated with [codegen] rows = auto, the
 * row calls (1) or the plain loops (0): by default 1 exactly under tcc.
 *
 * Requires rt_types.h, rt_math_base.h and the math pieces (rxc_expf, ...).
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

#define RXC_K_ROW_REGS 16  /* registers of a program */
#define RXC_K_ROW_LANES 16 /* elements per register */

#ifdef RXC_KERN_EXTERN
void rxc_k_row_f32(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, rxc_f32 *dst,
                   rxc_i64 dst_row, rxc_i64 dst_stride, const rxc_f32 *const *ptrs,
                   const rxc_i64 *strides, const rxc_f32 *scalars);
#else

#if !defined(RXC_K_VECTOR) && defined(__GNUC__) && !defined(__TINYC__)
#define RXC_K_VECTOR 1 /* as rt_kern_gemm.h: GNU vectors where there are */
#endif
#ifndef RXC_K_VECTOR
#define RXC_K_VECTOR 0
#endif

/* d = op(a) lane by lane, op one of rt's unary math functions (RXC_R_EXP
 * .. RXC_R_COS): one switch, then a loop of direct calls, which the
 * compiler may inline */
RXC_INLINE void
rxc_k_row_map(int op, rxc_f32 *d, const rxc_f32 *a)
{
  int l;
  switch (op) {
  case RXC_R_EXP:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_expf(a[l]);
    return;
  case RXC_R_LOG:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_logf(a[l]);
    return;
  case RXC_R_SQRT:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_sqrtf(a[l]);
    return;
  case RXC_R_TANH:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_tanhf(a[l]);
    return;
  case RXC_R_ERF:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_erff(a[l]);
    return;
  case RXC_R_FABS:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_fabsf(a[l]);
    return;
  case RXC_R_FLOOR:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_floorf(a[l]);
    return;
  case RXC_R_CEIL:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_ceilf(a[l]);
    return;
  case RXC_R_NEARBYINT:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_nearbyintf(a[l]);
    return;
  case RXC_R_TRUNC:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_truncf(a[l]);
    return;
  case RXC_R_SIN:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_sinf(a[l]);
    return;
  default:
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      d[l] = rxc_cosf(a[l]);
    return;
  }
}

#if RXC_K_VECTOR
typedef float rxc_k_row_v __attribute__((vector_size(64)));
typedef int rxc_k_row_m __attribute__((vector_size(64)));
/* 16, 8, 4 and 2 floats at any float address */
typedef float rxc_k_row_u __attribute__((vector_size(64), aligned(4), may_alias));
typedef float rxc_k_row_u8 __attribute__((vector_size(32), aligned(4), may_alias));
typedef float rxc_k_row_u4 __attribute__((vector_size(16), aligned(4), may_alias));
typedef float rxc_k_row_u2 __attribute__((vector_size(8), aligned(4), may_alias));

/* The first m < 16 floats from "from" to "to", in pieces of 8, 4, 2 and
 * 1 (a loop of m would become a call of memcpy) */
RXC_INLINE void
rxc_k_row_part(rxc_f32 *to, const rxc_f32 *from, rxc_i64 m)
{
  rxc_i64 o = 0;
  if (m & 8) {
    *(rxc_k_row_u8 *)(to + o) = *(const rxc_k_row_u8 *)(from + o);
    o += 8;
  }
  if (m & 4) {
    *(rxc_k_row_u4 *)(to + o) = *(const rxc_k_row_u4 *)(from + o);
    o += 4;
  }
  if (m & 2) {
    *(rxc_k_row_u2 *)(to + o) = *(const rxc_k_row_u2 *)(from + o);
    o += 2;
  }
  if (m & 1)
    to[o] = from[o];
}

/* m ? a : b per lane, m all ones or all zeros (bits, so no rounding);
 * macros, not functions: a 64-byte vector argument or result would
 * change the ABI without AVX-512 (gcc's -Wpsabi) */
#define RXC_K_ROW_PICK(m, a, b) ((rxc_k_row_v)(((m) & (rxc_k_row_m)(a)) | (~(m) & (rxc_k_row_m)(b))))
/* 1.0f where m, else 0.0f */
#define RXC_K_ROW_TRUTH(m) RXC_K_ROW_PICK(m, one, zero)

/* elements [i, i + m) of row row of a pointer slot (its pointer p and
 * strides s[0] per element, s[1] per row) into d, 0 in the lanes past m */
RXC_INLINE void
rxc_k_row_load(rxc_k_row_v *d, const rxc_f32 *p, const rxc_i64 *s, rxc_i64 row, rxc_i64 i,
               rxc_i64 m)
{
  const rxc_k_row_v zero = {0};
  int l;
  p += row * s[1] + i * s[0];
  if (s[0] == 1 && m == RXC_K_ROW_LANES) {
    *d = *(const rxc_k_row_u *)p;
  } else if (s[0] == 1) {
    *d = zero;
    rxc_k_row_part((rxc_f32 *)d, p, m);
  } else {
    *d = zero; /* a fixed count with a test, not l < m: no memcpy call */
    for (l = 0; l < RXC_K_ROW_LANES; l++)
      if (l < m)
        (*d)[l] = p[l * s[0]];
  }
}

/* elements [i, i + m) of the rows, m <= RXC_K_ROW_LANES */
RXC_INLINE void
rxc_k_row_chunk(rxc_k_row_v *r, const unsigned char *prog, rxc_i64 i, rxc_i64 m, rxc_f32 *dst,
                rxc_i64 dst_stride, const rxc_f32 *const *ptrs, rxc_i64 row,
                const rxc_i64 *strides, const rxc_f32 *scalars)
{
  const rxc_k_row_v zero = {0}, one = zero + 1.0f;
  const unsigned char *in = prog + 3 + 5 * prog[2];
  int k, l;
  for (k = prog[2]; k < prog[0]; k++, in += 5) {
    rxc_k_row_v a = r[in[2] % RXC_K_ROW_REGS], b = r[in[3] % RXC_K_ROW_REGS];
    rxc_k_row_v *d = &r[in[1] % RXC_K_ROW_REGS];
    switch (in[0]) {
    case RXC_R_LOAD:
      rxc_k_row_load(d, ptrs[in[2]], strides + 2 * in[2], row, i, m);
      break;
    case RXC_R_MADDL: {
      rxc_k_row_v t;
      rxc_k_row_load(&t, ptrs[in[4]], strides + 2 * in[4], row, i, m);
      *d = a + t * b;
      break;
    }
    case RXC_R_SCALAR: /* s - 0 is s, bits and all (0 + -0 would be +0) */
      *d = scalars[in[2]] - zero;
      break;
    case RXC_R_ADD:
      *d = a + b;
      break;
    case RXC_R_SUB:
      *d = a - b;
      break;
    case RXC_R_MUL:
      *d = a * b;
      break;
    case RXC_R_DIV:
      *d = a / b;
      break;
    case RXC_R_NEG:
      *d = -a;
      break;
    case RXC_R_MAX:
      *d = RXC_K_ROW_PICK(a > b, a, b);
      break;
    case RXC_R_MIN:
      *d = RXC_K_ROW_PICK(a < b, a, b);
      break;
    case RXC_R_EQ:
      *d = RXC_K_ROW_TRUTH(a == b);
      break;
    case RXC_R_NE:
      *d = RXC_K_ROW_TRUTH(a != b);
      break;
    case RXC_R_LT:
      *d = RXC_K_ROW_TRUTH(a < b);
      break;
    case RXC_R_LE:
      *d = RXC_K_ROW_TRUTH(a <= b);
      break;
    case RXC_R_GT:
      *d = RXC_K_ROW_TRUTH(a > b);
      break;
    case RXC_R_GE:
      *d = RXC_K_ROW_TRUTH(a >= b);
      break;
    case RXC_R_AND:
      *d = RXC_K_ROW_TRUTH((a != zero) & (b != zero));
      break;
    case RXC_R_OR:
      *d = RXC_K_ROW_TRUTH((a != zero) | (b != zero));
      break;
    case RXC_R_NOT:
      *d = RXC_K_ROW_TRUTH(a == zero);
      break;
    case RXC_R_SELECT:
      *d = RXC_K_ROW_PICK(r[in[4] % RXC_K_ROW_REGS] != zero, a, b);
      break;
    case RXC_R_MAXN:
      *d = RXC_K_ROW_PICK((a != a) | (a > b), a, b);
      break;
    case RXC_R_MINN:
      *d = RXC_K_ROW_PICK((a != a) | (a < b), a, b);
      break;
    default: { /* rt's math, on arrays */
      rxc_f32 x[RXC_K_ROW_LANES], y[RXC_K_ROW_LANES];
      for (l = 0; l < RXC_K_ROW_LANES; l++)
        x[l] = a[l];
      rxc_k_row_map(in[0], y, x);
      for (l = 0; l < RXC_K_ROW_LANES; l++)
        (*d)[l] = y[l];
      break;
    }
    }
  }
  {
    rxc_k_row_v v = r[prog[1] % RXC_K_ROW_REGS];
    rxc_f32 *q = dst + i * dst_stride;
    if (dst_stride == 1 && m == RXC_K_ROW_LANES)
      *(rxc_k_row_u *)q = v;
    else if (dst_stride == 1)
      rxc_k_row_part(q, (const rxc_f32 *)&v, m);
    else
      for (l = 0; l < RXC_K_ROW_LANES; l++)
        if (l < m)
          q[l * dst_stride] = v[l];
  }
}
#else
/* elements [i, i + m) of the rows, m <= RXC_K_ROW_LANES: the same
 * program on arrays, lane by lane */
RXC_INLINE void
rxc_k_row_chunk(rxc_f32 (*r)[RXC_K_ROW_LANES], const unsigned char *prog, rxc_i64 i, rxc_i64 m,
                rxc_f32 *dst, rxc_i64 dst_stride, const rxc_f32 *const *ptrs, rxc_i64 row,
                const rxc_i64 *strides, const rxc_f32 *scalars)
{
  const unsigned char *in = prog + 3 + 5 * prog[2];
  int k, l;
  for (k = prog[2]; k < prog[0]; k++, in += 5) {
    rxc_f32 *d = r[in[1] % RXC_K_ROW_REGS], *a = r[in[2] % RXC_K_ROW_REGS];
    rxc_f32 *b = r[in[3] % RXC_K_ROW_REGS], *c = r[in[4] % RXC_K_ROW_REGS];
    int op = in[0];
    if (op == RXC_R_LOAD) {
      rxc_i64 s = strides[2 * in[2]];
      const rxc_f32 *p = ptrs[in[2]] + row * strides[2 * in[2] + 1] + i * s;
      for (l = 0; l < RXC_K_ROW_LANES; l++)
        d[l] = l < m ? p[l * s] : 0.0f;
      continue;
    }
    if (op == RXC_R_SCALAR) {
      for (l = 0; l < RXC_K_ROW_LANES; l++)
        d[l] = scalars[in[2]];
      continue;
    }
    if (op == RXC_R_MADDL) { /* d may be a or b: each lane is read before it is written */
      rxc_i64 s = strides[2 * in[4]];
      const rxc_f32 *p = ptrs[in[4]] + row * strides[2 * in[4] + 1] + i * s;
      for (l = 0; l < RXC_K_ROW_LANES; l++) {
        rxc_f32 t = l < m ? p[l * s] : 0.0f;
        d[l] = a[l] + t * b[l];
      }
      continue;
    }
    if (op >= RXC_R_EXP) { /* d may be a: each lane is read before it is written */
      rxc_k_row_map(op, d, a);
      continue;
    }
    for (l = 0; l < RXC_K_ROW_LANES; l++) {
      rxc_f32 x = a[l], y = b[l];
      switch (op) {
      case RXC_R_ADD:
        d[l] = x + y;
        break;
      case RXC_R_SUB:
        d[l] = x - y;
        break;
      case RXC_R_MUL:
        d[l] = x * y;
        break;
      case RXC_R_DIV:
        d[l] = x / y;
        break;
      case RXC_R_NEG:
        d[l] = -x;
        break;
      case RXC_R_MAX:
        d[l] = x > y ? x : y;
        break;
      case RXC_R_MIN:
        d[l] = x < y ? x : y;
        break;
      case RXC_R_EQ:
        d[l] = x == y ? 1.0f : 0.0f;
        break;
      case RXC_R_NE:
        d[l] = x != y ? 1.0f : 0.0f;
        break;
      case RXC_R_LT:
        d[l] = x < y ? 1.0f : 0.0f;
        break;
      case RXC_R_LE:
        d[l] = x <= y ? 1.0f : 0.0f;
        break;
      case RXC_R_GT:
        d[l] = x > y ? 1.0f : 0.0f;
        break;
      case RXC_R_GE:
        d[l] = x >= y ? 1.0f : 0.0f;
        break;
      case RXC_R_AND:
        d[l] = x != 0.0f && y != 0.0f ? 1.0f : 0.0f;
        break;
      case RXC_R_OR:
        d[l] = x != 0.0f || y != 0.0f ? 1.0f : 0.0f;
        break;
      case RXC_R_NOT:
        d[l] = x == 0.0f ? 1.0f : 0.0f;
        break;
      case RXC_R_SELECT:
        d[l] = c[l] != 0.0f ? x : y;
        break;
      case RXC_R_MAXN:
        d[l] = x != x ? x : (x > y ? x : y);
        break;
      case RXC_R_MINN:
        d[l] = x != x ? x : (x < y ? x : y);
        break;
      default: /* rxc_k_row_map, above */
        break;
      }
    }
  }
  {
    const rxc_f32 *v = r[prog[1] % RXC_K_ROW_REGS];
    rxc_f32 *q = dst + i * dst_stride;
    for (l = 0; l < m; l++)
      q[l * dst_stride] = v[l];
  }
}
#endif

/* rxc_k_row_f32 of a program of one RXC_R_LOAD or RXC_R_SCALAR: the
 * value moves unchanged, so a loop per row does it (which compilers
 * vectorize) without the registers */
RXC_INLINE void
rxc_k_row_move(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, rxc_f32 *dst, rxc_i64 dst_row,
               rxc_i64 dst_stride, const rxc_f32 *const *ptrs, const rxc_i64 *strides,
               const rxc_f32 *scalars)
{
  int a = prog[5];
  rxc_i64 row, j;
  for (row = 0; row < rows; row++) {
    rxc_f32 *d = dst + row * dst_row;
    if (prog[3] == RXC_R_SCALAR) {
      rxc_f32 v = scalars[a];
      for (j = 0; j < n; j++)
        d[j * dst_stride] = v;
    } else {
      const rxc_f32 *p = ptrs[a] + row * strides[2 * a + 1];
      rxc_i64 s = strides[2 * a];
      for (j = 0; j < n; j++)
        d[j * dst_stride] = p[j * s];
    }
  }
}

/* dst[i * dst_row + j * dst_stride] = the program's value at (i, j), for
 * i < rows, j < n, row by row (the file comment); the pointers the
 * program loads are read at the elements i * strides[2a + 1] +
 * j * strides[2a], i < rows, j < n, and nothing else.  dst is written only
 * there, a row's chunk after the chunk's loads: a row may read what an
 * earlier row stored, as in the loops. */
RXC_INLINE void
rxc_k_row_f32(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, rxc_f32 *dst, rxc_i64 dst_row,
              rxc_i64 dst_stride, const rxc_f32 *const *ptrs, const rxc_i64 *strides,
              const rxc_f32 *scalars)
{
  /* the registers, not cleared (a row of a few elements would pay more
   * for it than for its work): a program reads a register only after
   * writing it, and an operand an op does not use is read but ignored */
#if RXC_K_VECTOR
  rxc_k_row_v r[RXC_K_ROW_REGS];
#else
  rxc_f32 r[RXC_K_ROW_REGS][RXC_K_ROW_LANES];
#endif
  rxc_i64 row, i;
  int k;
  if (prog[0] == 1 && prog[3] <= RXC_R_SCALAR) { /* a copy or a fill: plain loops */
    rxc_k_row_move(rows, n, prog, dst, dst_row, dst_stride, ptrs, strides, scalars);
    return;
  }
  for (k = 0; k < prog[2]; k++) { /* the scalars, once */
    const unsigned char *in = prog + 3 + 5 * k;
#if RXC_K_VECTOR
    const rxc_k_row_v zero = {0};
    r[in[1] % RXC_K_ROW_REGS] = scalars[in[2]] - zero; /* s - 0 is s, bits and all */
#else
    for (i = 0; i < RXC_K_ROW_LANES; i++)
      r[in[1] % RXC_K_ROW_REGS][i] = scalars[in[2]];
#endif
  }
  for (row = 0; row < rows; row++) {
    rxc_f32 *d = dst + row * dst_row;
    for (i = 0; i + RXC_K_ROW_LANES <= n; i += RXC_K_ROW_LANES)
      rxc_k_row_chunk(r, prog, i, RXC_K_ROW_LANES, d, dst_stride, ptrs, row, strides, scalars);
    if (i < n)
      rxc_k_row_chunk(r, prog, i, n - i, d, dst_stride, ptrs, row, strides, scalars);
  }
}
#endif /* RXC_KERN_EXTERN */

#endif /* RXC_RT_KERN_ROW_H */
