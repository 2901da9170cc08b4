/*
 * parse_const.c - R.const(value, "dtype"): scalars and nested lists.
 *
 * Key idea: the value is read into a small tree first, because the dtype
 * comes after it; then the shape is taken from the first element at each
 * level, every list is checked against it (ragged lists are an error), and
 * each element is range-checked and stored little-endian.  float16 is stored
 * as IEEE half bits (ir_half_from_double).
 */
#include <math.h>
#include <string.h>

#include "fe_int.h"

typedef struct CVal CVal;
struct CVal {
  const Tok *at;   /* where the value starts */
  bool is_list;
  FeVec items;     /* CVal*, for lists */
  bool is_float;   /* f holds the value */
  bool is_bool;    /* True/False: mag is 0 or 1 */
  bool neg;        /* integer: negative */
  uint64_t mag;    /* integer magnitude */
  double f;
};

/* One scalar: [-] INT | FLOAT | True | False | "nan" | float("nan"). */
static void
scalar(Parser *P, CVal *v)
{
  bool neg = false;
  while (fe_is_op(fe_peek(P), "-") || fe_is_op(fe_peek(P), "+"))
    neg ^= fe_is_op(fe_next(P), "-");
  const Tok *t = fe_peek(P);
  if (t->kind == TK_INT) {
    fe_next(P);
    v->neg = neg && t->ival != 0;
    v->mag = t->ival;
  } else if (t->kind == TK_FLOAT) {
    fe_next(P);
    v->is_float = true;
    v->f = neg ? -t->fval : t->fval;
  } else if (!neg && (fe_is_name(t, "True") || fe_is_name(t, "False"))) {
    fe_next(P);
    v->is_bool = true;
    v->mag = fe_is_name(t, "True");
  } else if (t->kind == TK_STR) {
    fe_next(P);
    v->is_float = true;
    if (!fe_special_float(t->sym, &v->f))
      fe_fail(P, t, "expected a number, \"nan\" or \"inf\" in R.const but found '%s'", t->sym);
    v->f = neg ? -v->f : v->f;
  } else if (fe_is_name(t, "float")) {
    TExpr x = fe_texpr(P);
    if (x.e->kind != IR_PE_FLOAT)
      fe_fail(P, t, "expected a number, \"nan\" or \"inf\" in R.const");
    v->is_float = true;
    v->f = neg ? -x.e->u.float_value : x.e->u.float_value;
  } else {
    char found[48];
    fe_describe(t, found, sizeof found);
    fe_fail(P, t, "expected a number in R.const but found %s", found);
  }
}

static double
scalar_double(const CVal *v)
{
  return v->is_float ? v->f : v->neg ? -(double)v->mag : (double)v->mag;
}

/* A scalar, or Python's true division of scalars, `1.0 / 3.0` (a float,
 * as Python computes it: in double, rounded once to the dtype). */
static void
quotient(Parser *P, CVal *v)
{
  scalar(P, v);
  while (fe_is_op(fe_peek(P), "/")) {
    const Tok *op = fe_next(P);
    CVal d = {0};
    d.at = fe_peek(P);
    scalar(P, &d);
    if (v->is_bool || d.is_bool)
      fe_fail(P, op, "R.const divides numbers, not True or False");
    if (scalar_double(&d) == 0)
      fe_fail(P, op, "division by zero in R.const");
    v->f = scalar_double(v) / scalar_double(&d);
    v->is_float = true;
  }
}

static CVal *
value(Parser *P)
{
  CVal *v = ir_alloc(P->ctx, sizeof *v);
  v->at = fe_peek(P);
  if (!fe_is_op(v->at, "[") && !fe_is_op(v->at, "(")) {
    quotient(P, v);
    return v;
  }
  const char *close = fe_is_op(v->at, "[") ? "]" : ")";
  fe_enter(P);
  fe_next(P);
  v->is_list = true;
  while (!fe_is_op(fe_peek(P), close)) {
    fe_vec_ptr(P, &v->items, value(P));
    if (!fe_accept_op(P, ","))
      break;
  }
  fe_expect_op(P, close);
  fe_leave(P);
  return v;
}

/* Checks that v has the shape shape[level..ndim); reports a ragged list. */
static void
check_shape(Parser *P, const CVal *v, const int64_t *shape, int ndim, int level)
{
  if (level == ndim) {
    if (v->is_list)
      fe_fail(P, v->at, "ragged nested list in R.const: expected a number here");
    return;
  }
  if (!v->is_list)
    fe_fail(P, v->at, "ragged nested list in R.const: expected a list of %lld elements",
            (long long)shape[level]);
  if (v->items.len != shape[level])
    fe_fail(P, v->at, "ragged nested list in R.const: expected %lld elements but found %d",
            (long long)shape[level], v->items.len);
  for (int i = 0; i < v->items.len; i++)
    check_shape(P, ((CVal **)v->items.data)[i], shape, ndim, level + 1);
}

static void
leaf_kinds(const CVal *v, bool *any_float, bool *all_bool)
{
  if (!v->is_list) {
    *any_float |= v->is_float;
    *all_bool &= v->is_bool;
    return;
  }
  for (int i = 0; i < v->items.len; i++)
    leaf_kinds(((CVal **)v->items.data)[i], any_float, all_bool);
}

static void
put_le(unsigned char *out, uint64_t bits, int bytes)
{
  for (int i = 0; i < bytes; i++)
    out[i] = (unsigned char)(bits >> (8 * i));
}

static void
store_float(Parser *P, const CVal *v, IrDType t, unsigned char *out)
{
  double d = v->is_float ? v->f : v->neg ? -(double)v->mag : (double)v->mag;
  bool overflow = false;
  if (t.bits == 16) {
    uint16_t h = ir_half_from_double(d);
    overflow = isfinite(d) && (h & 0x7fff) == 0x7c00;
    put_le(out, h, 2);
  } else if (t.bits == 32) {
    float f = (float)d;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    overflow = isfinite(d) && isinf(f);
    put_le(out, bits, 4);
  } else {
    uint64_t bits;
    memcpy(&bits, &d, 8);
    put_le(out, bits, 8);
  }
  if (overflow) {
    char dt[16];
    fe_fail(P, v->at, "value %g is out of range for %s", d, ir_dtype_str(t, dt));
  }
}

/* Stores an integer or bool element after checking it fits t. */
static void
store_int(Parser *P, const CVal *v, IrDType t, unsigned char *out)
{
  char dt[16];
  ir_dtype_str(t, dt);
  uint64_t mag = v->mag;
  bool neg = v->neg;
  if (v->is_float) {
    if (v->f != floor(v->f) || fabs(v->f) >= 9.2e18)
      fe_fail(P, v->at, "expected an integer for dtype %s but found %g", dt, v->f);
    neg = v->f < 0;
    mag = (uint64_t)fabs(v->f);
  }
  if (t.code == IR_DT_BOOL) {
    if (neg || mag > 1)
      fe_fail(P, v->at, "expected True or False for dtype bool");
    out[0] = (unsigned char)mag;
    return;
  }
  uint64_t max = t.code == IR_DT_UINT ? (t.bits == 64 ? UINT64_MAX : ((uint64_t)1 << t.bits) - 1)
                                      : ((uint64_t)1 << (t.bits - 1)) - 1;
  bool fits = neg ? t.code == IR_DT_INT && mag <= max + 1 : mag <= max;
  if (!fits)
    fe_fail(P, v->at, "value %s%llu is out of range for %s", neg ? "-" : "", (unsigned long long)mag,
            dt);
  put_le(out, neg ? 0 - mag : mag, t.bits / 8);
}

static void
store_all(Parser *P, const CVal *v, IrDType t, unsigned char **out)
{
  if (v->is_list) {
    for (int i = 0; i < v->items.len; i++)
      store_all(P, ((CVal **)v->items.data)[i], t, out);
    return;
  }
  if (t.code == IR_DT_FLOAT)
    store_float(P, v, t, *out);
  else
    store_int(P, v, t, *out);
  *out += ir_dtype_bytes(t);
}

static IrDType
const_dtype(Parser *P, const CVal *v)
{
  IrDType t;
  if (fe_accept_op(P, ",") && !fe_is_op(fe_peek(P), ")")) {
    if (fe_is_name(fe_peek(P), "dtype") && fe_is_op(fe_peek_at(P, 1), "=")) {
      fe_next(P);
      fe_next(P);
    }
    const Tok *at = fe_peek(P);
    t = fe_dtype_str(P);
    bool ok = t.lanes == 1 && (t.code == IR_DT_FLOAT || t.code == IR_DT_INT ||
                               t.code == IR_DT_UINT || t.code == IR_DT_BOOL);
    if (ok && t.code != IR_DT_BOOL && t.bits < 8)
      ok = false;
    if (!ok) {
      char dt[16];
      fe_fail(P, at, "R.const does not support dtype '%s'", ir_dtype_str(t, dt));
    }
    fe_accept_op(P, ",");
    return t;
  }
  bool any_float = false, all_bool = true;
  leaf_kinds(v, &any_float, &all_bool);
  return any_float ? IR_F32 : all_bool ? IR_BOOL : IR_I32;
}

/* R.const(value[, dtype]); the '(' is current.  The constant's struct info
 * is a tensor of its shape and dtype. */
IrExpr *
fe_const(Parser *P, const Tok *at)
{
  fe_expect_op(P, "(");
  CVal *v = value(P);
  IrDType t = const_dtype(P, v);
  fe_expect_op(P, ")");
  int64_t shape[FE_MAX_DEPTH + 1];
  int ndim = 0;
  for (const CVal *c = v; c->is_list; c = ((CVal **)c->items.data)[0]) {
    shape[ndim++] = c->items.len;
    if (c->items.len == 0)
      break;
  }
  check_shape(P, v, shape, ndim, 0);
  size_t count = 1;
  for (int i = 0; i < ndim; i++)
    count *= (size_t)shape[i];
  IrTensorData d = {.dtype = t, .ndim = ndim};
  d.shape = ir_alloc(P->ctx, sizeof(int64_t) * (size_t)(ndim ? ndim : 1));
  memcpy(d.shape, shape, sizeof(int64_t) * (size_t)ndim);
  d.nbytes = count * (size_t)ir_dtype_bytes(t);
  d.data = ir_alloc(P->ctx, d.nbytes ? d.nbytes : 1);
  unsigned char *out = d.data;
  store_all(P, v, t, &out);
  return ir_const_new(P->ctx, &d, fe_loc(P, at));
}
