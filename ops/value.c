/*
 * value.c - interpreter values: constructors and element access.
 *
 * Tensors keep their elements in the dtype's own format so that a tensor
 * read from a .npy file, a constant of the module and a kernel's output all
 * share one layout; kernels go through op_get_* / op_set_*, which convert
 * to and from double or int64 (clear before fast: this is the oracle).
 */
#include <math.h>
#include <string.h>

#include "op.h"

static Value *
value_new(IrCtx *ctx, ValueKind kind)
{
  Value *v = ir_alloc(ctx, sizeof *v);
  v->kind = kind;
  return v;
}

/* A copy in the arena of n elements of size bytes (room for one when n
 * is 0). */
static void *
copy_array(IrCtx *ctx, const void *items, size_t size, int n)
{
  void *copy = ir_alloc(ctx, size * (size_t)(n ? n : 1));
  if (n > 0)
    memcpy(copy, items, size * (size_t)n);
  return copy;
}

/* d toward zero as int64; NaN, the infinities and what is past int64's
 * range give 0. */
static int64_t
double_to_int(double d)
{
  return isfinite(d) && fabs(d) < 9.2e18 ? (int64_t)d : 0;
}

Value *
op_tensor_new(IrCtx *ctx, IrDType t, int ndim, const int64_t *shape, IrLoc loc)
{
  int64_t count = 1;
  int bytes = ir_dtype_bytes(t);
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0) {
      ir_error(ctx, loc, "tensor dimension %d is negative (%lld)", i, (long long)shape[i]);
      return NULL;
    }
    if (shape[i] > 0 && count > INT64_MAX / shape[i]) {
      ir_error(ctx, loc, "tensor of %d dimensions is too large", ndim);
      return NULL;
    }
    count *= shape[i];
  }
  if (bytes <= 0 || count > (int64_t)(SIZE_MAX / 2) / bytes) {
    ir_error(ctx, loc, "tensor is too large or has no element type");
    return NULL;
  }
  Value *v = value_new(ctx, VAL_TENSOR);
  IrTensorData *d = &v->u.tensor.t;
  d->dtype = t;
  d->ndim = ndim;
  d->shape = copy_array(ctx, shape, sizeof(int64_t), ndim);
  d->nbytes = (size_t)count * (size_t)bytes;
  d->data = ir_alloc(ctx, d->nbytes ? d->nbytes : 1);
  return v;
}

Value *
op_tensor_from_data(IrCtx *ctx, const IrTensorData *d)
{
  Value *v = value_new(ctx, VAL_TENSOR);
  v->u.tensor.t = *d;
  return v;
}

Value *
op_tuple_new(IrCtx *ctx, Value **items, int n)
{
  Value *v = value_new(ctx, VAL_TUPLE);
  v->u.tuple.items = copy_array(ctx, items, sizeof(Value *), n);
  v->u.tuple.n = n;
  return v;
}

Value *
op_shape_new(IrCtx *ctx, const int64_t *dims, int n)
{
  Value *v = value_new(ctx, VAL_SHAPE);
  v->u.shape.dims = copy_array(ctx, dims, sizeof(int64_t), n);
  v->u.shape.n = n;
  return v;
}

Value *
op_prim_int(IrCtx *ctx, IrDType t, int64_t i)
{
  Value *v = value_new(ctx, VAL_PRIM);
  v->u.prim.dtype = t;
  v->u.prim.i = i;
  v->u.prim.f = (double)i;
  return v;
}

Value *
op_prim_float(IrCtx *ctx, IrDType t, double f)
{
  Value *v = value_new(ctx, VAL_PRIM);
  v->u.prim.dtype = t;
  v->u.prim.f = ir_float_round(t, f);
  v->u.prim.i = double_to_int(f);
  return v;
}

int64_t
op_numel(const IrTensorData *t)
{
  int64_t n = 1;
  for (int i = 0; i < t->ndim; i++)
    n *= t->shape[i];
  return n;
}

/* Little-endian unsigned load/store of `bytes` bytes. */
static uint64_t
load_le(const unsigned char *p, int bytes)
{
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static void
store_le(unsigned char *p, int bytes, uint64_t v)
{
  for (int i = 0; i < bytes; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* The address of element i. */
static unsigned char *
element(const IrTensorData *t, int64_t i)
{
  return (unsigned char *)t->data + (size_t)i * (size_t)ir_dtype_bytes(t->dtype);
}

/* The raw element bits and their width. */
static uint64_t
raw(const IrTensorData *t, int64_t i, int *bytes)
{
  *bytes = ir_dtype_bytes(t->dtype);
  return load_le(element(t, i), *bytes);
}

/* A float32 from its bits, and its bits. */
static float
float_from_bits(uint32_t u)
{
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint32_t
float_bits(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static int64_t
sign_extend(uint64_t v, int bits)
{
  if (bits >= 64)
    return (int64_t)v;
  uint64_t m = (uint64_t)1 << (bits - 1);
  v &= ((uint64_t)1 << bits) - 1;
  return (int64_t)((v ^ m) - m);
}

double
op_get_f(const IrTensorData *t, int64_t i)
{
  int bytes;
  uint64_t v = raw(t, i, &bytes);
  switch ((IrDTypeCode)t->dtype.code) {
  case IR_DT_FLOAT: {
    double d;
    if (bytes == 2)
      return ir_half_to_double((uint16_t)v);
    if (bytes == 4)
      return float_from_bits((uint32_t)v);
    memcpy(&d, &v, 8);
    return d;
  }
  case IR_DT_BFLOAT:
    return float_from_bits((uint32_t)v << 16);
  case IR_DT_INT:
    return (double)sign_extend(v, bytes * 8);
  case IR_DT_UINT:
    return (double)v;
  case IR_DT_BOOL:
    return v != 0;
  default:
    return 0;
  }
}

int64_t
op_get_i(const IrTensorData *t, int64_t i)
{
  if (ir_dtype_is_float(t->dtype))
    return double_to_int(op_get_f(t, i));
  int bytes;
  uint64_t v = raw(t, i, &bytes);
  switch ((IrDTypeCode)t->dtype.code) {
  case IR_DT_INT:
    return sign_extend(v, bytes * 8);
  case IR_DT_UINT:
    return (int64_t)v;
  case IR_DT_BOOL:
    return v != 0;
  default:
    return 0;
  }
}

void
op_set_f(IrTensorData *t, int64_t i, double v)
{
  int bytes = ir_dtype_bytes(t->dtype);
  unsigned char *p = element(t, i);
  switch ((IrDTypeCode)t->dtype.code) {
  case IR_DT_FLOAT:
    if (bytes == 2) {
      store_le(p, 2, ir_half_from_double(v));
    } else if (bytes == 4) {
      store_le(p, 4, float_bits((float)v));
    } else {
      uint64_t u;
      memcpy(&u, &v, 8);
      store_le(p, 8, u);
    }
    break;
  case IR_DT_BFLOAT: {
    uint32_t u = float_bits((float)v);
    store_le(p, 2, (u + 0x7fff + ((u >> 16) & 1)) >> 16); /* round to nearest even */
    break;
  }
  case IR_DT_BOOL:
    store_le(p, 1, v != 0);
    break;
  default:
    op_set_i(t, i, double_to_int(v));
  }
}

void
op_set_i(IrTensorData *t, int64_t i, int64_t v)
{
  if (ir_dtype_is_float(t->dtype))
    op_set_f(t, i, (double)v);
  else if (t->dtype.code == IR_DT_BOOL)
    store_le(element(t, i), 1, v != 0);
  else /* int, uint: the low bytes, which wraps */
    store_le(element(t, i), ir_dtype_bytes(t->dtype), (uint64_t)v);
}

static void
print_tensor(const IrTensorData *t, IrBuf *out)
{
  char dt[16];
  int64_t n = op_numel(t);
  ir_buf_printf(out, "tensor(%s, shape=(", ir_dtype_str(t->dtype, dt));
  for (int i = 0; i < t->ndim; i++)
    ir_buf_printf(out, i ? ", %lld" : "%lld", (long long)t->shape[i]);
  ir_buf_puts(out, t->ndim == 1 ? ",), [" : "), [");
  for (int64_t i = 0; i < n && i < 16; i++) {
    bool is_float = ir_dtype_is_float(t->dtype);
    if (is_float)
      ir_buf_printf(out, i ? ", %.9g" : "%.9g", op_get_f(t, i));
    else
      ir_buf_printf(out, i ? ", %lld" : "%lld", (long long)op_get_i(t, i));
  }
  ir_buf_puts(out, n > 16 ? ", ...])" : "])");
}

void
op_value_print(const Value *v, IrBuf *out)
{
  char dt[16];
  switch (v->kind) {
  case VAL_TENSOR:
    print_tensor(&v->u.tensor.t, out);
    break;
  case VAL_TUPLE:
    ir_buf_puts(out, "(");
    for (int i = 0; i < v->u.tuple.n; i++) {
      if (i)
        ir_buf_puts(out, ", ");
      op_value_print(v->u.tuple.items[i], out);
    }
    ir_buf_puts(out, v->u.tuple.n == 1 ? ",)" : ")");
    break;
  case VAL_SHAPE:
    ir_buf_puts(out, "R.shape([");
    for (int i = 0; i < v->u.shape.n; i++)
      ir_buf_printf(out, i ? ", %lld" : "%lld", (long long)v->u.shape.dims[i]);
    ir_buf_puts(out, "])");
    break;
  case VAL_PRIM:
    if (v->u.prim.dtype.code == IR_DT_FLOAT)
      ir_buf_printf(out, "%.9g", v->u.prim.f);
    else
      ir_buf_printf(out, "%lld", (long long)v->u.prim.i);
    break;
  case VAL_STR:
    ir_buf_puts(out, v->u.str);
    break;
  case VAL_DTYPE:
    ir_buf_puts(out, ir_dtype_str(v->u.dtype, dt));
    break;
  case VAL_STORAGE:
    ir_buf_printf(out, "storage(%zu bytes)", v->u.storage.nbytes);
    break;
  case VAL_FUNC:
    ir_buf_printf(out, "function %s", v->u.func.global ? v->u.func.global : "(local)");
    break;
  }
}
