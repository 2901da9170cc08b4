/*
 * test_rows.c - the row kernel ([codegen] rows): rt/rt_kern_row.h's
 * evaluator and the code generator's use of it (codegen/gen_row.c).
 *
 * The kernel: its scalar form (the one tcc compiles, RXC_K_VECTOR 0, here
 * compiled by the system compiler) and every precompiled copy this CPU
 * runs (codegen/kern.c) give, element by element, the bits of the same
 * expression written in plain C, on programs that use every opcode, with
 * every remainder of the 16 lanes, strided, broadcast and in-place
 * operands, a dst stride of 2, and three rows at once (a nest of two
 * loops, with loads that move per row only); and nothing outside the
 * rows is touched (canaries around and between them).  Blocks across
 * rows: every form, and the kernel built at 16 and 256 lanes a block by
 * gcc, clang and tcc, against the loops on 1 to 20 rows of 1 to 1000
 * lanes laid out flat, apart, strided, broadcast, in place, transposed,
 * overwriting and accumulating across rows, each operand ending at a
 * PROT_NONE page (a read past its last element faults).
 * The generator: the C of tests/codegen/rows_tir.py calls the kernel for
 * the loops without a loop-carried dependence (acc_max, in place at its
 * own index with a strided load; scale) and keeps the loops of cumsum (a
 * load of the element the previous iteration stored) and first_plus (a
 * load of DST at another index), and guarded's loop under an if becomes a
 * call over the elements its condition lets through, and grid's nest of
 * two loops one call over its rows; rows = off keeps every loop, auto writes
 * both forms under RXC_ROWS.
 * End to end: tests/agree/rows_bits.py compares the bits of tcc and cc
 * with rows against the plain loops and the interpreter.
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS */
#include <dlfcn.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../codegen/cg_int.h"
#include "testutil.h"

#define RXC_K_VECTOR 0 /* the scalar form, as tcc would compile it */
#include "../../rt/rt_types.h"
#include "../../rt/rt_math_base.h"
#include "../../rt/rt_math_exp.h"
#include "../../rt/rt_math_trig.h"
#include "../../rt/rt_kern_row.h"

/* --- the kernel against plain C -------------------------------------------- */

enum { MAXN = 41, PAD = 8 };

/* The operands of one test: p[0..2] rows read at strides, s[0..1] scalars. */
typedef struct {
  const float *p[3];
  int64_t stride[3];
  float s[2];
} Operands;

/* One program and the same expression in plain C, element j. */
typedef struct {
  const char *what;
  unsigned char prog[96];
  float (*expect)(const Operands *o, int64_t j);
} Case;

#define P(k) o->p[k][j * o->stride[k]]

static float
e_arith(const Operands *o, int64_t j)
{
  float a = P(0), b = P(1);
  return ((a + b) * (a - o->s[0])) / (-b) - b;
}

static float
e_clip(const Operands *o, int64_t j) /* the NaN-propagating clip the C has */
{
  float x = P(0) + o->s[0], lo = o->s[1], hi = P(1);
  float m = x != x ? x : (lo != lo ? lo : (x > lo ? x : lo)); /* rxc_max_f32 */
  return m != m ? m : (m < hi ? m : hi);                      /* rxc_min_f32 */
}

static float
e_logic(const Operands *o, int64_t j)
{
  float a = P(0), b = P(1), c = P(2);
  int t = (a < b && !(b >= c)) || (a == c) || (a <= b && b > c) || a != b;
  return t ? a : c;
}

static float
e_math1(const Operands *o, int64_t j)
{
  float a = P(0);
  return rxc_expf(a) + rxc_logf(a) + rxc_sqrtf(a) + rxc_tanhf(a) + rxc_erff(a) + rxc_fabsf(a);
}

static float
e_math2(const Operands *o, int64_t j)
{
  float a = P(0);
  return rxc_floorf(a) - rxc_ceilf(a) + rxc_nearbyintf(a) * rxc_truncf(a) + rxc_sinf(a) -
         rxc_cosf(a);
}

static float
e_sigmoid(const Operands *o, int64_t j) /* tir.sigmoid's C form, with s0 for 1.0f */
{
  return o->s[0] / (o->s[0] + rxc_expf(-P(0)));
}

static float
e_nanmax(const Operands *o, int64_t j) /* a clip between p1 and p2, as ops/ write it */
{
  float x = P(0), lo = P(1), hi = P(2);
  float m = x != x ? x : (lo != lo ? lo : (x > lo ? x : lo));
  return m != m ? m : (hi != hi ? hi : (m < hi ? m : hi));
}

static float
e_madd(const Operands *o, int64_t j) /* a depthwise conv's taps */
{
  float acc = P(0) * o->s[0];
  acc = acc + P(1) * o->s[1];
  return acc + P(2) * o->s[0];
}

static float
e_copy(const Operands *o, int64_t j)
{
  return P(2);
}

static float
e_fill(const Operands *o, int64_t j)
{
  (void)j;
  return o->s[1];
}

/* prog: {count, result, prologue, then op d a b c} */
static const Case cases[] = {
    {"copy", {1, 3, 0, RXC_R_LOAD, 3, 2, 0, 0}, e_copy}, /* a plain loop in the kernel */
    {"nanmax", {5, 2, 0, RXC_R_LOAD, 0, 0, 0, 0, RXC_R_LOAD, 1, 1, 0, 0, RXC_R_MAXN, 2, 0, 1, 0,
                RXC_R_LOAD, 3, 2, 0, 0, RXC_R_MINN, 2, 2, 3, 0},
     e_nanmax},
    {"fill", {1, 5, 0, RXC_R_SCALAR, 5, 1, 0, 0}, e_fill},
    {"madd", {6, 2, 2, RXC_R_SCALAR, 7, 0, 0, 0, RXC_R_SCALAR, 8, 1, 0, 0, RXC_R_LOAD, 2, 0, 0, 0,
              RXC_R_MUL, 2, 2, 7, 0, RXC_R_MADDL, 2, 2, 8, 1, RXC_R_MADDL, 2, 2, 7, 2},
     e_madd},
    /* s0 in register 5 once per call (a prologue of 1): kept over chunks and rows */
    {"prologue", {6, 0, 1, RXC_R_SCALAR, 5, 0, 0, 0, RXC_R_LOAD, 0, 0, 0, 0, RXC_R_NEG, 0, 0, 0, 0,
                  RXC_R_EXP, 0, 0, 0, 0, RXC_R_ADD, 0, 5, 0, 0, RXC_R_DIV, 0, 5, 0, 0},
     e_sigmoid},
    {"arith", {9, 4, 0, RXC_R_LOAD, 0, 0, 0, 0, RXC_R_LOAD, 1, 1, 0, 0, RXC_R_ADD, 2, 0, 1, 0,
               RXC_R_SCALAR, 3, 0, 0, 0, RXC_R_SUB, 3, 0, 3, 0, RXC_R_MUL, 2, 2, 3, 0,
               RXC_R_NEG, 3, 1, 0, 0, RXC_R_DIV, 2, 2, 3, 0, RXC_R_SUB, 4, 2, 1, 0},
     e_arith},
    {"clip", {13, 0, 0, RXC_R_LOAD, 0, 0, 0, 0, RXC_R_SCALAR, 1, 0, 0, 0, RXC_R_ADD, 0, 0, 1, 0,
              RXC_R_SCALAR, 1, 1, 0, 0, RXC_R_NE, 2, 0, 0, 0, RXC_R_NE, 3, 1, 1, 0,
              RXC_R_MAX, 4, 0, 1, 0, RXC_R_SELECT, 4, 1, 4, 3, RXC_R_SELECT, 0, 0, 4, 2,
              RXC_R_LOAD, 1, 1, 0, 0, RXC_R_NE, 2, 0, 0, 0, RXC_R_MIN, 3, 0, 1, 0,
              RXC_R_SELECT, 0, 0, 3, 2},
     e_clip},
    {"logic", {16, 0, 0, RXC_R_LOAD, 0, 0, 0, 0, RXC_R_LOAD, 1, 1, 0, 0, RXC_R_LOAD, 2, 2, 0, 0,
               RXC_R_LT, 3, 0, 1, 0, RXC_R_GE, 4, 1, 2, 0, RXC_R_NOT, 4, 4, 0, 0,
               RXC_R_AND, 3, 3, 4, 0, RXC_R_EQ, 4, 0, 2, 0, RXC_R_OR, 3, 3, 4, 0,
               RXC_R_LE, 4, 0, 1, 0, RXC_R_GT, 5, 1, 2, 0, RXC_R_AND, 4, 4, 5, 0,
               RXC_R_OR, 3, 3, 4, 0, RXC_R_NE, 4, 0, 1, 0, RXC_R_OR, 3, 3, 4, 0,
               RXC_R_SELECT, 0, 0, 2, 3},
     e_logic},
    {"math1", {12, 1, 0, RXC_R_LOAD, 0, 0, 0, 0, RXC_R_EXP, 1, 0, 0, 0, RXC_R_LOG, 2, 0, 0, 0,
               RXC_R_ADD, 1, 1, 2, 0, RXC_R_SQRT, 2, 0, 0, 0, RXC_R_ADD, 1, 1, 2, 0,
               RXC_R_TANH, 2, 0, 0, 0, RXC_R_ADD, 1, 1, 2, 0, RXC_R_ERF, 2, 0, 0, 0,
               RXC_R_ADD, 1, 1, 2, 0, RXC_R_FABS, 2, 0, 0, 0, RXC_R_ADD, 1, 1, 2, 0},
     e_math1},
    {"math2", {12, 1, 0, RXC_R_LOAD, 0, 0, 0, 0, RXC_R_FLOOR, 1, 0, 0, 0, RXC_R_CEIL, 2, 0, 0, 0,
               RXC_R_SUB, 1, 1, 2, 0, RXC_R_NEARBYINT, 2, 0, 0, 0, RXC_R_TRUNC, 3, 0, 0, 0,
               RXC_R_MUL, 2, 2, 3, 0, RXC_R_ADD, 1, 1, 2, 0, RXC_R_SIN, 2, 0, 0, 0,
               RXC_R_ADD, 1, 1, 2, 0, RXC_R_COS, 2, 0, 0, 0, RXC_R_SUB, 1, 1, 2, 0},
     e_math2},
    {"sigmoid", {6, 0, 0, RXC_R_LOAD, 0, 0, 0, 0, RXC_R_NEG, 0, 0, 0, 0, RXC_R_EXP, 0, 0, 0, 0,
                 RXC_R_SCALAR, 1, 0, 0, 0, RXC_R_ADD, 0, 1, 0, 0, RXC_R_DIV, 0, 1, 0, 0},
     e_sigmoid},
};

static float
random_float(uint64_t *state)
{
  *state = *state * 6364136223846793005u + 1442695040888963407u;
  uint32_t r = (uint32_t)(*state >> 33);
  static const float special[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.0f, -1.0f, 0.5f};
  if (r % 11 == 0)
    return special[(r >> 4) % 8];
  return (float)((int32_t)(r % 2000000) - 1000000) / 125000.0f; /* [-8, 8) */
}

/* Bits equal, or both NaN. */
static bool
same(float a, float b)
{
  return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b);
}

enum { ROWS = 3, DSTN = ROWS * (MAXN + 2) + 2 * PAD, INN = 4 * MAXN + 8 };

/* One layout of the operands for n elements a row (the row's offsets
 * in row[], in elements); false past the last. */
static bool
layout_of(int layout, int64_t n, int64_t *rows, int64_t *ds, int64_t *dr, int64_t stride[3],
          int64_t row[3], bool *in_place)
{
  static const int64_t strides[4][3] = {{1, 1, 1}, {3, 0, 2}, {1, 1, 1}, {1, 0, 2}};
  if (layout > 3)
    return false;
  /* 0: contiguous; 1: strides 3, 0, 2 and dst 2 apart; 2: p[0] is dst
   * itself (in place, at dst's index); 3: three rows, dst's n + 2 apart,
   * in place, p[1] one element per row (a broadcast in j), p[2] strided */
  *rows = layout == 3 ? ROWS : 1;
  *ds = layout == 1 ? 2 : 1;
  *dr = layout == 3 ? n + 2 : 0;
  memcpy(stride, strides[layout], sizeof strides[layout]);
  row[0] = *dr;
  row[1] = layout == 3 ? 1 : 0;
  row[2] = layout == 3 ? 3 : 0;
  *in_place = layout >= 2;
  return true;
}

/* Runs fn on case c for every n <= MAXN and operand layout; the number of
 * elements that differ from the plain C (or that fn wrote outside the
 * rows). */
static int
run_case(CgKernRowF32 fn, const Case *c, uint64_t seed)
{
  static float in[3][INN], dst[DSTN], want[DSTN];
  uint64_t st = seed;
  int differ = 0;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < INN; i++)
      in[k][i] = random_float(&st);
  int64_t rows, ds, dr, stride[3], row[3];
  bool in_place;
  for (int layout = 0; layout_of(layout, 0, &rows, &ds, &dr, stride, row, &in_place); layout++)
    for (int64_t n = 0; n <= MAXN; n++) {
      layout_of(layout, n, &rows, &ds, &dr, stride, row, &in_place);
      for (int i = 0; i < DSTN; i++)
        want[i] = dst[i] = in_place ? random_float(&st) : -77.0f;
      float *d = dst + PAD;
      Operands o = {{in_place ? d : in[0], in[1], in[2]},
                    {in_place ? ds : stride[0], stride[1], stride[2]},
                    {random_float(&st), random_float(&st)}};
      for (int64_t r = 0; r < rows; r++) { /* the plain C, row by row */
        Operands at = o;
        for (int k = 0; k < 3; k++)
          at.p[k] = o.p[k] + r * row[k];
        for (int64_t j = 0; j < n; j++)
          want[PAD + r * dr + j * ds] = c->expect(&at, j);
      }
      const float *const ptrs[3] = {o.p[0], o.p[1], o.p[2]};
      const int64_t strides[6] = {o.stride[0], row[0], o.stride[1], row[1], o.stride[2], row[2]};
      fn(rows, n, c->prog, d, dr, ds, ptrs, strides, o.s);
      for (int i = 0; i < DSTN; i++)
        differ += !same(dst[i], want[i]);
    }
  return differ;
}

static void
scalar_form(CG_KERN_ROW_F32_PARAMS)
{
  rxc_k_row_f32(rows, n, prog, dst, dst_row, dst_stride, ptrs, strides, scalars);
}

static void
test_kernel_forms(void **state)
{
  (void)state;
  int n, tested = 0;
  const CgKernCopy *copies = cg_kern_copies(&n);
  for (int i = -1; i < n; i++) {
    CgKernRowF32 fn = scalar_form;
    const char *what = "scalar form";
    if (i >= 0) {
      if (strcmp(copies[i].kernel, "rxc_k_row_f32") != 0)
        continue;
      if (!cg_kern_usable(&copies[i])) {
        print_message("  %s: not run by this CPU, skipped\n", copies[i].level);
        continue;
      }
      fn = (CgKernRowF32)copies[i].fn;
      what = copies[i].level;
      tested++;
    }
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
      for (uint64_t seed = 1; seed <= 3; seed++) {
        int differ = run_case(fn, &cases[c], seed * 100 + c);
        if (differ)
          print_message("  %s: %s: %d elements differ\n", what, cases[c].what, differ);
        assert_int_equal(differ, 0);
      }
    print_message("  %s: the bits of plain C\n", what);
  }
  assert_true(tested >= 1);
  assert_non_null(cg_kern_chosen("rxc_k_row_f32"));
}

/* --- blocks across rows, against the loops, with guard pages --------------- */

/* More programs for the blocks: a chain of MADDLs that a product of the
 * sum itself ends; a MADDL adding to a product of its own destination; a
 * result that is one value over a block (a broadcast load); a scalar
 * overwritten by an op reading it. */
static float
e_chain(const Operands *o, int64_t j)
{
  float acc = P(0) * o->s[0];
  acc = acc + P(1) * o->s[1];
  acc = acc + P(2) * o->s[0];
  acc = acc + P(0) * o->s[1];
  return acc + P(1) * acc;
}

static float
e_madd_own(const Operands *o, int64_t j) /* d = a + L * d, then d = d + L * a */
{
  float a = P(1) - o->s[0], d = P(2);
  d = a + P(0) * d;
  return d + P(1) * a;
}

static float
e_load(const Operands *o, int64_t j)
{
  return P(1);
}

static float
e_scalar_reg(const Operands *o, int64_t j)
{
  return o->s[1] + P(0);
}

static const Case block_cases[] = {
    {"chain", {8, 2, 2, RXC_R_SCALAR, 7, 0, 0, 0, RXC_R_SCALAR, 8, 1, 0, 0, RXC_R_LOAD, 2, 0, 0, 0,
               RXC_R_MUL, 2, 2, 7, 0, RXC_R_MADDL, 2, 2, 8, 1, RXC_R_MADDL, 2, 2, 7, 2,
               RXC_R_MADDL, 2, 2, 8, 0, RXC_R_MADDL, 2, 2, 2, 1},
     e_chain},
    {"madd_own", {6, 3, 0, RXC_R_LOAD, 1, 1, 0, 0, RXC_R_SCALAR, 4, 0, 0, 0, RXC_R_SUB, 1, 1, 4, 0,
                  RXC_R_LOAD, 3, 2, 0, 0, RXC_R_MADDL, 3, 1, 3, 0, RXC_R_MADDL, 3, 3, 1, 1},
     e_madd_own},
    {"load", {2, 1, 1, RXC_R_SCALAR, 0, 0, 0, 0, RXC_R_LOAD, 1, 1, 0, 0}, e_load},
    {"scalar_reg", {3, 5, 0, RXC_R_SCALAR, 5, 1, 0, 0, RXC_R_LOAD, 0, 0, 0, 0,
                    RXC_R_ADD, 5, 5, 0, 0},
     e_scalar_reg},
};

/* Where a call's operands lie: slot k's lane and row strides, dst's, and
 * whether slot 0 is dst itself (in place, at dst's index). */
typedef struct {
  const char *what;
  int64_t s[3], rs[3], ds, dr;
  bool in_place;
} Layout;

enum { LAYOUTS = 9 };

/* Layout l for rows of n lanes: rows that follow one another (one long
 * row), rows apart, strided, broadcasts (per row, constant, one row
 * for all), in place, each row overwriting the last, each row adding to
 * what the last stored (a dependence across rows), stored transposed. */
static Layout
layout_at(int l, int64_t rows, int64_t n)
{
  switch (l) {
  case 0:
    return (Layout){"flat", {1, 1, 1}, {n, n, n}, 1, n, false};
  case 1:
    return (Layout){"rows apart", {1, 1, 1}, {n + 2, n + 1, n}, 1, n + 3, false};
  case 2:
    return (Layout){"strided", {2, 3, 1}, {2 * n + 1, 3 * n, n}, 2, 2 * n + 5, false};
  case 3:
    return (Layout){"broadcast", {0, 0, 1}, {1, 0, 0}, 1, n, false};
  case 4:
    return (Layout){"in place", {1, 1, 2}, {n, n, 2 * n}, 1, n, true};
  case 5:
    return (Layout){"in place strided", {2, 0, 1}, {2 * n + 3, 1, n + 1}, 2, 2 * n + 3, true};
  case 6:
    return (Layout){"overwrite", {1, 1, 0}, {n, n, 1}, 1, 0, false};
  case 7:
    return (Layout){"accumulate", {1, 1, 0}, {0, n, 1}, 1, 0, true};
  default:
    return (Layout){"transposed", {rows, 1, 1}, {1, n, n + 1}, rows, 1, true};
  }
}

/* Floats from a pointer to its last element (i, j), i < rows, j < n */
static int64_t
extent(int64_t s, int64_t rs, int64_t rows, int64_t n)
{
  return (rows - 1) * rs + (n - 1) * s + 1;
}

/* count floats whose last is the last before a PROT_NONE page (and a
 * PROT_NONE page before the first page): a read or a write past the
 * last element faults */
typedef struct {
  char *map;
  size_t len;
} Guarded;

static float *
guarded_new(Guarded *g, int64_t count)
{
  size_t page = (size_t)sysconf(_SC_PAGESIZE), bytes = (size_t)count * sizeof(float);
  size_t data = (bytes + page - 1) / page * page;
  g->len = data + 2 * page;
  g->map = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(g->map != MAP_FAILED);
  assert_int_equal(mprotect(g->map, page, PROT_NONE), 0);
  assert_int_equal(mprotect(g->map + page + data, page, PROT_NONE), 0);
  return (float *)(g->map + page + data - bytes);
}

static void
guarded_free(Guarded *g)
{
  munmap(g->map, g->len);
}

/* One call's memory: the kernel's (guarded) and the loops' copy of it */
typedef struct {
  Guarded g[4];
  float *run[4], *ref[4]; /* slots 0..2, then dst */
  int64_t len[4];
} Memory;

static void
memory_new(Memory *m, const Layout *L, int64_t rows, int64_t n, uint64_t *st)
{
  for (int k = 0; k < 4; k++) {
    m->len[k] = k < 3 ? extent(L->s[k], L->rs[k], rows, n) : extent(L->ds, L->dr, rows, n);
    m->run[k] = guarded_new(&m->g[k], m->len[k]);
    m->ref[k] = malloc((size_t)m->len[k] * sizeof(float));
    for (int64_t i = 0; i < m->len[k]; i++)
      m->run[k][i] = m->ref[k][i] = k < 3 || L->in_place ? random_float(st) : -77.0f;
  }
}

static void
memory_free(Memory *m)
{
  for (int k = 0; k < 4; k++) {
    guarded_free(&m->g[k]);
    free(m->ref[k]);
  }
}

/* The loops, on ref: i outer, j inner, each element stored before the
 * next is computed (so a row reads what an earlier row stored) */
static void
loops(const Case *c, const Layout *L, Memory *m, int64_t rows, int64_t n, const float s[2])
{
  float *dst = m->ref[3];
  for (int64_t i = 0; i < rows; i++) {
    Operands at = {{0}, {L->s[0], L->s[1], L->s[2]}, {s[0], s[1]}};
    for (int k = 0; k < 3; k++)
      at.p[k] = (k == 0 && L->in_place ? dst : m->ref[k]) + i * L->rs[k];
    for (int64_t j = 0; j < n; j++)
      dst[i * L->dr + j * L->ds] = c->expect(&at, j);
  }
}

/* Elements of fn's result on case c that differ from the loops' (every
 * element of dst's memory, so also a write between the lanes) */
static int64_t
run_layout(CgKernRowF32 fn, const Case *c, const Layout *L, int64_t rows, int64_t n,
           uint64_t *st)
{
  Memory m;
  float s[2] = {random_float(st), random_float(st)};
  memory_new(&m, L, rows, n, st);
  loops(c, L, &m, rows, n, s);
  const float *const ptrs[3] = {L->in_place ? m.run[3] : m.run[0], m.run[1], m.run[2]};
  const int64_t strides[6] = {L->s[0], L->rs[0], L->s[1], L->rs[1], L->s[2], L->rs[2]};
  fn(rows, n, c->prog, m.run[3], L->dr, L->ds, ptrs, strides, s);
  int64_t differ = 0;
  for (int64_t i = 0; i < m.len[3]; i++)
    differ += !same(m.run[3][i], m.ref[3][i]);
  for (int k = 0; k < 3; k++) /* the sources untouched */
    differ += memcmp(m.run[k], m.ref[k], (size_t)m.len[k] * sizeof(float)) != 0 &&
              !(k == 0 && L->in_place);
  memory_free(&m);
  return differ;
}

/* fn against the loops on every case, lane count, row count and layout */
static int64_t
run_blocks(CgKernRowF32 fn, const char *what)
{
  static const int64_t ns[] = {1, 7, 14, 15, 16, 17, 100, 1000};
  const size_t ncases = sizeof cases / sizeof cases[0], nblock = sizeof block_cases / sizeof block_cases[0];
  int64_t total = 0;
  uint64_t st = 7;
  for (size_t ci = 0; ci < ncases + nblock; ci++) {
    const Case *c = ci < ncases ? &cases[ci] : &block_cases[ci - ncases];
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
      for (int64_t rows = 1; rows <= 20; rows += ns[ni] >= 100 ? 6 : 1)
        for (int l = 0; l < LAYOUTS; l++) {
          Layout L = layout_at(l, rows, ns[ni]);
          int64_t differ = run_layout(fn, c, &L, rows, ns[ni], &st);
          if (differ)
            print_message("  %s: %s, %s, %" PRId64 " rows of %" PRId64 ": %" PRId64 " differ\n",
                          what, c->what, L.what, rows, ns[ni], differ);
          total += differ;
        }
  }
  return total;
}

static void
test_kernel_blocks(void **state)
{
  (void)state;
  int n, tested = 0;
  const CgKernCopy *copies = cg_kern_copies(&n);
  assert_int_equal(run_blocks(scalar_form, "scalar form"), 0);
  for (int i = 0; i < n; i++) {
    if (strcmp(copies[i].kernel, "rxc_k_row_f32") != 0 || !cg_kern_usable(&copies[i]))
      continue;
    assert_int_equal(run_blocks((CgKernRowF32)copies[i].fn, copies[i].level), 0);
    tested++;
  }
  print_message("  the scalar form and %d copies: the loops' bits, nothing else touched\n", tested);
  assert_true(tested >= 1);
}

/* The kernel at other block sizes and compilers (16 lanes, as on small
 * targets, where a register's one value shares its block; 256), compiled
 * here into a shared object and loaded: the vector form by gcc and
 * clang, the array form by tcc itself; the same bits and bounds as the
 * loops. */
static void
test_kernel_block_sizes(void **state)
{
  (void)state;
  static const char *const ccs[] = {"gcc", "clang", "tcc"};
  static const int blocks[] = {16, 256};
  char dir[] = "/tmp/rxc-rows-block-XXXXXX", cmd[1024], src[256], lib[256];
  int built = 0;
  assert_non_null(mkdtemp(dir));
  snprintf(src, sizeof src, "%s/row.c", dir);
  FILE *f = fopen(src, "w");
  assert_non_null(f);
  fputs("#include \"rt_types.h\"\n#include \"rt_math_base.h\"\n#include \"rt_math_exp.h\"\n"
        "#include \"rt_math_trig.h\"\n#include \"rt_kern_row.h\"\n"
        "void row(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, rxc_f32 *dst,\n"
        "         rxc_i64 dst_row, rxc_i64 dst_stride, const rxc_f32 *const *ptrs,\n"
        "         const rxc_i64 *strides, const rxc_f32 *scalars);\n"
        "void row(rxc_i64 rows, rxc_i64 n, const unsigned char *prog, rxc_f32 *dst,\n"
        "         rxc_i64 dst_row, rxc_i64 dst_stride, const rxc_f32 *const *ptrs,\n"
        "         const rxc_i64 *strides, const rxc_f32 *scalars)\n"
        "{ rxc_k_row_f32(rows, n, prog, dst, dst_row, dst_stride, ptrs, strides, scalars); }\n",
        f);
  fclose(f);
  for (int c = 0; c < 3; c++)
    for (int b = 0; b < 2; b++) {
      snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", ccs[c]);
      if (system(cmd) != 0) {
        print_message("  %s: not installed, skipped\n", ccs[c]);
        continue;
      }
      snprintf(lib, sizeof lib, "%s/row_%s_%d.so", dir, ccs[c], blocks[b]);
      snprintf(cmd, sizeof cmd,
               "%s -std=c99 -O2 -ffp-contract=off -Wall -Wextra -Werror -pedantic -fPIC -shared "
               "-DRXC_K_ROW_BLOCK=%d -Irt -o %s %s",
               ccs[c], blocks[b], lib, src);
      assert_int_equal(system(cmd), 0);
      void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
      assert_non_null(h);
      CgKernRowF32 fn;
      *(void **)&fn = dlsym(h, "row");
      assert_non_null(fn);
      snprintf(cmd, sizeof cmd, "%s, %d lanes a block", ccs[c], blocks[b]);
      assert_int_equal(run_blocks(fn, cmd), 0);
      dlclose(h);
      built++;
    }
  print_message("  %d builds: the loops' bits, nothing else touched\n", built);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
  assert_true(built >= 1);
}

/* --- the generated C ------------------------------------------------------ */

/* The C of tests/codegen/rows_tir.py with [codegen] rows = rows (heap). */
static char *
generated(const char *rows)
{
  const char *rxc = getenv("RXC") ? getenv("RXC") : "build/rxc";
  char dir[] = "/tmp/rxc-rows-XXXXXX", cmd[512], path[256];
  assert_non_null(mkdtemp(dir));
  snprintf(cmd, sizeof cmd,
           "%s --set codegen.rows=%s compile tests/codegen/rows_tir.py -o %s --name m -q", rxc,
           rows, dir);
  assert_int_equal(system(cmd), 0);
  snprintf(path, sizeof path, "%s/m.c", dir);
  char *c = tu_read_file(path);
  assert_non_null(c);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
  return c;
}

/* The text of static function m_NAME's definition in c (heap). */
static char *
function(const char *c, const char *name)
{
  char head[128];
  snprintf(head, sizeof head, "\nm_%s(", name);
  const char *s = strstr(c, head);
  assert_non_null(s);
  const char *e = strstr(s, "\n}\n");
  assert_non_null(e);
  size_t len = (size_t)(e - s);
  char *f = malloc(len + 1);
  memcpy(f, s, len);
  f[len] = 0;
  return f;
}

static bool
calls_row(const char *c, const char *name)
{
  char *f = function(c, name);
  bool r = strstr(f, "rxc_k_row_f32(") != NULL;
  free(f);
  return r;
}

static void
test_generated(void **state)
{
  (void)state;
  char *on = generated("on"), *off = generated("off"), *both = generated("auto");
  assert_true(calls_row(on, "acc_max"));
  assert_true(calls_row(on, "scale"));
  assert_false(calls_row(on, "cumsum"));     /* reads what the previous j stored */
  assert_false(calls_row(on, "first_plus")); /* reads DST at another index */
  char *f = function(on, "acc_max");
  assert_non_null(strstr(f, "if (n > 0) {")); /* a symbolic n: the glue only when it runs */
  assert_null(strstr(f, "for ("));
  free(f);
  f = function(on, "guarded"); /* if (j + 3 < n): min(40, n - 3) elements */
  assert_non_null(strstr(f, "rxc_i64 row_n = (rxc_i64)n - (rxc_i64)(j + 3);"));
  assert_non_null(strstr(f, "if (row_n > 40)"));
  assert_non_null(strstr(f, "rxc_k_row_f32(1, row_n, "));
  free(f);
  f = function(on, "grid"); /* two loops: n rows of 2, x and y per row */
  assert_non_null(strstr(f, "rxc_k_row_f32(n, 2, "));
  assert_non_null(strstr(f, "if (n > 0) {"));
  assert_null(strstr(f, "for ("));
  free(f);
  f = function(on, "cumsum");
  assert_non_null(strstr(f, "for ("));
  free(f);
  const char *names[] = {"acc_max", "scale", "cumsum", "first_plus"};
  for (int i = 0; i < 4; i++)
    assert_false(calls_row(off, names[i]));
  assert_null(strstr(off, "rxc_k_row_f32"));
  f = function(both, "acc_max");
  const char *row = strstr(f, "#if RXC_ROWS\n"), *loop = strstr(f, "#else\n");
  assert_non_null(row);
  assert_non_null(loop);
  assert_true(row < strstr(f, "rxc_k_row_f32(") && strstr(f, "rxc_k_row_f32(") < loop);
  assert_non_null(strstr(loop, "for ("));
  assert_non_null(strstr(loop, "#endif"));
  free(f);
  free(on);
  free(off);
  free(both);
}

/* The C with rows on (the calls, and the kernel's vector text inline) is
 * clean under the strict flags of gcc and clang, as any generated C. */
static void
test_strict(void **state)
{
  (void)state;
  const char *rxc = getenv("RXC") ? getenv("RXC") : "build/rxc";
  const char *files[] = {"rows_tir", "rows_elem", "rows_ops"};
  const char *ccs[] = {"gcc", "clang"};
  char dir[] = "/tmp/rxc-rows-strict-XXXXXX", cmd[768];
  assert_non_null(mkdtemp(dir));
  for (int f = 0; f < 3; f++) {
    snprintf(cmd, sizeof cmd,
             "%s --set codegen.rows=on --set opt.kernels=true compile tests/codegen/%s.py -o %s "
             "--name %s -q",
             rxc, files[f], dir, files[f]);
    assert_int_equal(system(cmd), 0);
    for (int c = 0; c < 2; c++) {
      snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", ccs[c]);
      if (system(cmd) != 0) {
        print_message("  %s: not installed, skipped\n", ccs[c]);
        continue;
      }
      snprintf(cmd, sizeof cmd,
               "%s -std=c99 -O2 -Wall -Wextra -Werror -pedantic -ffreestanding -c -o %s/%s.o "
               "%s/%s.c",
               ccs[c], dir, files[f], dir, files[f]);
      int rc = system(cmd);
      if (rc)
        print_error("%s failed\n", cmd);
      assert_int_equal(rc, 0);
    }
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
}

static void
test_bits(void **state)
{
  (void)state;
  const char *rxc = getenv("RXC") ? getenv("RXC") : "build/rxc";
  char cmd[512];
  snprintf(cmd, sizeof cmd, "RXC=%s /usr/bin/python3 tests/agree/rows_bits.py", rxc);
  assert_int_equal(system(cmd), 0);
}

int
main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernel_forms),
      cmocka_unit_test(test_kernel_blocks),
      cmocka_unit_test(test_kernel_block_sizes),
      cmocka_unit_test(test_generated),
      cmocka_unit_test(test_strict),
      cmocka_unit_test(test_bits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
