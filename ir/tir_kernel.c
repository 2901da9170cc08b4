/*
 * tir_kernel.c - the kernels a prim_func may call (rt/rt_kern_*.h), one row
 * each: the one list of what a T.call_extern may name.
 *
 * A kernel call is TVM's spelling of a call to a C function,
 *   T.call_extern("void", "rxc_k_gemm_f32", T.address_of(acc[0]), ...)
 * evaluated for its effect.  A row says how each argument is passed and
 * which elements each pointer touches, which is what every user needs:
 * the interpreter checks those elements against the tensors before it
 * calls the kernel's one C definition (interp/tir.c), the code generator
 * writes the call and carries the definition (codegen/), the analyses
 * that ask what a prim_func reads and writes read the row (a kernel
 * writes its INOUT pointers: ir_stmt_stores_into; FuseOps's pattern:
 * opt/fuse_pattern.c), and legalization builds calls through
 * ir_prim_kernel_call, which checks the name against the table (ops/).
 * Adding a kernel is adding a row and its rt/ header.
 */
#include <string.h>

#include "ir.h"

/* |an integer argument| at most: no product of two overflows int64 */
#define KERNEL_LIMIT ((int64_t)1 << 31)

static bool
in_limit(int64_t v)
{
  return v >= -KERNEL_LIMIT && v <= KERNEL_LIMIT;
}

/* [lo, hi] of x * step for x in [0, count) (count >= 1). */
static void
stride_span(int64_t count, int64_t step, int64_t *lo, int64_t *hi)
{
  int64_t far = (count - 1) * step;
  *lo = far < 0 ? far : 0;
  *hi = far > 0 ? far : 0;
}

/* rxc_k_gemm_f32(acc, a, a_row, a_k, b, b_k, k, rows, cols):
 * acc[r * cols + c] += sum over t < k of a[r * a_row + t * a_k] * b[t * b_k + c].
 * The integer kernels (rxc_k_gemm_i8i8_i32, ...) take the same arguments. */
static bool
gemm_span(const int64_t *v, int i, int64_t *lo, int64_t *hi)
{
  int64_t a_row = v[2], a_k = v[3], b_k = v[5], k = v[6], rows = v[7], cols = v[8];
  for (int j = 2; j <= 8; j++)
    if (j != 4 && !in_limit(v[j]))
      return false;
  if (k < 0 || rows < 0 || cols < 0)
    return false;
  *lo = 1;
  *hi = 0;
  int64_t l2, h2;
  switch (i) {
  case 0: /* acc: rows x cols, row-major */
    if (rows && cols) {
      *lo = 0;
      *hi = rows * cols - 1;
    }
    return true;
  case 1: /* a: rows x k (read even for no column: a bound, not an exact set) */
    if (rows && k) {
      stride_span(rows, a_row, lo, hi);
      stride_span(k, a_k, &l2, &h2);
      *lo += l2;
      *hi += h2;
    }
    return true;
  case 4: /* b: k x cols, each row of it contiguous */
    if (rows && k && cols) {
      stride_span(k, b_k, lo, hi);
      *hi += cols - 1;
    }
    return true;
  default:
    return true;
  }
}

/* rxc_k_conv_f32(acc, a, a_row, a_k, b, b_c, channels, kh, kw, y_step,
 * x_step, rows, cols, fresh): gemm_span's acc and a over k = channels * kh * kw
 * terms; b's row t at c * b_c + ky * y_step + kx * x_step, each row cols
 * contiguous elements. */
static bool
conv_span(const int64_t *v, int i, int64_t *lo, int64_t *hi)
{
  for (int j = 2; j <= 13; j++)
    if (j != 4 && !in_limit(v[j]))
      return false;
  int64_t channels = v[6], kh = v[7], kw = v[8], rows = v[11], cols = v[12];
  if (channels < 0 || kh < 0 || kw < 0 || rows < 0 || cols < 0 || !in_limit(channels * kh * kw))
    return false;
  int64_t k = channels * kh * kw;
  *lo = 1;
  *hi = 0;
  int64_t l2, h2;
  if (i == 0 && rows && cols) {
    *lo = 0;
    *hi = rows * cols - 1;
  } else if (i == 1 && rows && k) {
    stride_span(rows, v[2], lo, hi);
    stride_span(k, v[3], &l2, &h2);
    *lo += l2;
    *hi += h2;
  } else if (i == 4 && rows && k && cols) {
    stride_span(channels, v[5], lo, hi);
    stride_span(kh, v[9], &l2, &h2);
    *lo += l2;
    *hi += h2;
    stride_span(kw, v[10], &l2, &h2);
    *lo += l2;
    *hi += h2 + cols - 1;
  }
  return true;
}

/* rxc_k_im2col_<dtype>(dst, src, channels, in_h, in_w, y0, x0, rows, ow,
 * kh, kw, sh, sw, dh, dw, width): channels * kh * kw panel rows of width
 * elements written; channels planes of in_h * in_w read (a bound: only
 * the elements inside the window are). */
static bool
im2col_span(const int64_t *v, int i, int64_t *lo, int64_t *hi)
{
  for (int j = 2; j <= 15; j++)
    if (!in_limit(v[j]) || (j != 5 && j != 6 && v[j] < 0))
      return false;
  int64_t channels = v[2], in_h = v[3], in_w = v[4], rows = v[7], ow = v[8], kh = v[9];
  int64_t kw = v[10], sh = v[11], sw = v[12], width = v[15];
  if (sh < 1 || sw < 1 || rows * ow > width)
    return false;
  *lo = 1;
  *hi = 0;
  if (i == 0 && channels && kh && kw && width) {
    *lo = 0;
    *hi = channels * kh * kw * width - 1;
  } else if (i == 1 && channels && in_h && in_w && rows && ow && kh && kw) {
    *lo = 0;
    *hi = channels * in_h * in_w - 1;
  }
  return true;
}

#define IM2COL_ROW(name, code, bits)                                                               \
  {                                                                                                \
    name, {code, bits, 1}, 16,                                                                     \
        {IR_KARG_INOUT, IR_KARG_IN,  IR_KARG_INT, IR_KARG_INT, IR_KARG_INT, IR_KARG_INT,           \
         IR_KARG_INT,   IR_KARG_INT, IR_KARG_INT, IR_KARG_INT, IR_KARG_INT, IR_KARG_INT,           \
         IR_KARG_INT,   IR_KARG_INT, IR_KARG_INT, IR_KARG_INT},                                    \
        im2col_span, false                                                                         \
  }


static const IrTirKernel kernels[] = {
    {"rxc_k_gemm_f32",
     {IR_DT_FLOAT, 32, 1},
     9,
     {IR_KARG_INOUT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT,
      IR_KARG_INT, IR_KARG_INT},
     gemm_span,
     true},
    /* rt/rt_kern_gemm_int.h: the same sums of 8-bit operands in int32 */
    {"rxc_k_gemm_i8i8_i32",
     {IR_DT_INT, 32, 1},
     9,
     {IR_KARG_INOUT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT,
      IR_KARG_INT, IR_KARG_INT},
     gemm_span,
     true},
    {"rxc_k_gemm_u8i8_i32",
     {IR_DT_INT, 32, 1},
     9,
     {IR_KARG_INOUT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT,
      IR_KARG_INT, IR_KARG_INT},
     gemm_span,
     true},
    {"rxc_k_gemm_i8u8_i32",
     {IR_DT_INT, 32, 1},
     9,
     {IR_KARG_INOUT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT,
      IR_KARG_INT, IR_KARG_INT},
     gemm_span,
     true},
    {"rxc_k_gemm_i32i32_i32",
     {IR_DT_INT, 32, 1},
     9,
     {IR_KARG_INOUT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT,
      IR_KARG_INT, IR_KARG_INT},
     gemm_span,
     true},
    /* rt/rt_kern_gemm.h: a stride-1 conv2d's product from its padded input */
    {"rxc_k_conv_f32",
     {IR_DT_FLOAT, 32, 1},
     14,
     {IR_KARG_INOUT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT, IR_KARG_IN, IR_KARG_INT, IR_KARG_INT,
      IR_KARG_INT, IR_KARG_INT, IR_KARG_INT, IR_KARG_INT, IR_KARG_INT, IR_KARG_INT, IR_KARG_INT},
     conv_span,
     true},
    /* rt/rt_kern_copy.h: a strided run copied (conv2d's panel rows) */
    /* and all the panel rows of a band at once, padding included */
    IM2COL_ROW("rxc_k_im2col_f32", IR_DT_FLOAT, 32),
    IM2COL_ROW("rxc_k_im2col_i8", IR_DT_INT, 8),
    IM2COL_ROW("rxc_k_im2col_u8", IR_DT_UINT, 8),
    IM2COL_ROW("rxc_k_im2col_i32", IR_DT_INT, 32),
};

const IrTirKernel *
ir_tir_kernel_find(const char *name)
{
  for (size_t i = 0; name && i < sizeof kernels / sizeof kernels[0]; i++)
    if (strcmp(kernels[i].name, name) == 0)
      return &kernels[i];
  return NULL;
}

/* The pointers whose elements are not their row's elem. */
static const struct {
  const char *kernel;
  int arg;
  IrDType elem;
} arg_elems[] = {
    {"rxc_k_gemm_i8i8_i32", 1, {IR_DT_INT, 8, 1}},  {"rxc_k_gemm_i8i8_i32", 4, {IR_DT_INT, 8, 1}},
    {"rxc_k_gemm_u8i8_i32", 1, {IR_DT_UINT, 8, 1}}, {"rxc_k_gemm_u8i8_i32", 4, {IR_DT_INT, 8, 1}},
    {"rxc_k_gemm_i8u8_i32", 1, {IR_DT_INT, 8, 1}},  {"rxc_k_gemm_i8u8_i32", 4, {IR_DT_UINT, 8, 1}},
};

IrDType
ir_tir_kernel_elem(const IrTirKernel *k, int i)
{
  for (size_t j = 0; j < sizeof arg_elems / sizeof arg_elems[0]; j++)
    if (arg_elems[j].arg == i && strcmp(arg_elems[j].kernel, k->name) == 0)
      return arg_elems[j].elem;
  return k->elem;
}

bool
ir_prim_is_call_extern(const IrPrimExpr *e)
{
  return e && e->kind == IR_PE_CALL && e->u.call.op && strcmp(e->u.call.op, "tir.call_extern") == 0;
}

static bool
is_address_of(const IrPrimExpr *e)
{
  return e->kind == IR_PE_CALL && strcmp(e->u.call.op, "tir.address_of") == 0 && e->u.call.n == 1 &&
         e->u.call.args[0]->kind == IR_PE_LOAD;
}

const IrTirKernel *
ir_tir_kernel_of(const IrPrimExpr *e)
{
  if (!ir_prim_is_call_extern(e) || e->u.call.n < 1 || e->u.call.args[0]->kind != IR_PE_STR)
    return NULL;
  const IrTirKernel *k = ir_tir_kernel_find(e->u.call.args[0]->u.str);
  if (!k || e->u.call.n != k->nargs + 1)
    return NULL;
  for (int i = 0; i < k->nargs; i++) {
    const IrPrimExpr *a = e->u.call.args[i + 1];
    bool pointer = k->args[i] != IR_KARG_INT;
    if (pointer ? !is_address_of(a) : a->dtype.code != IR_DT_INT || a->dtype.lanes != 1)
      return NULL;
  }
  return k;
}

const IrPrimExpr *
ir_tir_kernel_pointee(const IrPrimExpr *e, int i)
{
  return e->u.call.args[i + 1]->u.call.args[0];
}

IrPrimExpr *
ir_prim_address_of(IrCtx *ctx, IrPrimExpr *load)
{
  IrPrimExpr **args = ir_alloc(ctx, sizeof *args);
  args[0] = load;
  return ir_prim_call(ctx, IR_HANDLE, ir_sym(ctx, "tir.address_of"), args, 1);
}

IrPrimExpr *
ir_prim_kernel_call(IrCtx *ctx, const char *name, IrPrimExpr **args, int n)
{
  IrPrimExpr **all = ir_alloc(ctx, sizeof *all * (size_t)(n + 1));
  all[0] = ir_prim_str(ctx, ir_sym(ctx, name));
  memcpy(all + 1, args, sizeof *all * (size_t)n);
  IrPrimExpr *e = ir_prim_call(ctx, IR_VOID, ir_sym(ctx, "tir.call_extern"), all, n + 1);
  if (!ir_tir_kernel_of(e))
    UNREACHABLE(); /* a builder's mistake: every user would refuse the call */
  return e;
}
