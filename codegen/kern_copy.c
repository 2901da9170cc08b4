/*
 * kern_copy.c - one precompiled copy of each kernel of rt/ (rt_kern_*.h),
 * for the libtcc JIT to call instead of compiling the kernel's scalar form
 * itself (codegen/kern.c chooses among the copies, jit.c binds them).
 *
 * Key idea: the Makefile compiles this one file several times, at -O3
 * and -ffp-contract=off, once per x86 level with that level's -m flags
 * and CG_KERN_LEVEL naming it (base, v3, v4, vnni; `host` on other machines,
 * at the build's own flags), so each copy is the header's very text
 * compiled for one instruction set.  No contraction of a * b + c into a
 * fused multiply-add, at any level: every copy gives the bits of the
 * interpreter's copy and of the kernel's text in the generated C built
 * without contraction (rt/README.md says which builds those are).
 */
#include "../rt/rt_types.h"
#include "../rt/rt_math_base.h"
#include "../rt/rt_math_exp.h"
#include "../rt/rt_math_trig.h"
#include "../rt/rt_kern_base.h"
#include "../rt/rt_kern_gemm.h"
#include "../rt/rt_kern_gemm_int.h"
#include "../rt/rt_kern_copy.h"
#include "../rt/rt_kern_row.h"

#include "cg_int.h"

#ifndef CG_KERN_LEVEL
#error "kern_copy.c is compiled by the Makefile with -DCG_KERN_LEVEL=base|v3|v4|vnni|host"
#endif

#define PASTE(a, b) a##b
#define NAMED(a, b) PASTE(a, b)

/* rxc_k_gemm_f32, rxc_k_conv_f32 and rxc_k_gemm_i32i32_i32, this level's copies (none at
 * the level of VNNI, which adds nothing to them: CG_KERN_VNNI) */
#ifndef CG_KERN_VNNI
void
NAMED(cg_kern_gemm_f32_, CG_KERN_LEVEL)(CG_KERN_GEMM_F32_PARAMS)
{
  rxc_k_gemm_f32(acc, a, a_row, a_k, b, b_k, k, rows, cols);
}

void
NAMED(cg_kern_conv_f32_, CG_KERN_LEVEL)(CG_KERN_CONV_F32_PARAMS)
{
  rxc_k_conv_f32(acc, a, a_row, a_k, b, b_c, channels, kh, kw, y_step, x_step, rows, cols, fresh);
}

void
NAMED(cg_kern_gemm_i32i32_i32_, CG_KERN_LEVEL)(CG_KERN_GEMM_I32I32_I32_PARAMS)
{
  rxc_k_gemm_i32i32_i32(acc, a, a_row, a_k, b, b_k, k, rows, cols);
}
#endif

/* rxc_k_gemm_i8i8_i32, _u8i8_i32 and _i8u8_i32 (rt/rt_kern_gemm_int.h):
 * exact integers, the same values at every level */
void
NAMED(cg_kern_gemm_i8i8_i32_, CG_KERN_LEVEL)(CG_KERN_GEMM_I8I8_I32_PARAMS)
{
  rxc_k_gemm_i8i8_i32(acc, a, a_row, a_k, b, b_k, k, rows, cols);
}

void
NAMED(cg_kern_gemm_u8i8_i32_, CG_KERN_LEVEL)(CG_KERN_GEMM_U8I8_I32_PARAMS)
{
  rxc_k_gemm_u8i8_i32(acc, a, a_row, a_k, b, b_k, k, rows, cols);
}

void
NAMED(cg_kern_gemm_i8u8_i32_, CG_KERN_LEVEL)(CG_KERN_GEMM_I8U8_I32_PARAMS)
{
  rxc_k_gemm_i8u8_i32(acc, a, a_row, a_k, b, b_k, k, rows, cols);
}

/* rt/rt_kern_copy.h's im2col kernels, at the baseline and off x86-64 only
 * (codegen/kern.c lists no others) */
#if defined(CG_KERN_BASE)
#define IM2COL_ARGS dst, src, channels, in_h, in_w, y0, x0, rows, ow, kh, kw, sh, sw, dh, dw, width

void
NAMED(cg_kern_im2col_f32_, CG_KERN_LEVEL)(CG_KERN_IM2COL_PARAMS(float))
{
  rxc_k_im2col_f32(IM2COL_ARGS);
}

void
NAMED(cg_kern_im2col_i8_, CG_KERN_LEVEL)(CG_KERN_IM2COL_PARAMS(int8_t))
{
  rxc_k_im2col_i8(IM2COL_ARGS);
}

void
NAMED(cg_kern_im2col_u8_, CG_KERN_LEVEL)(CG_KERN_IM2COL_PARAMS(uint8_t))
{
  rxc_k_im2col_u8(IM2COL_ARGS);
}

void
NAMED(cg_kern_im2col_i32_, CG_KERN_LEVEL)(CG_KERN_IM2COL_PARAMS(int32_t))
{
  rxc_k_im2col_i32(IM2COL_ARGS);
}
#endif

/* rxc_k_row_f32, this level's copy (none at VNNI's) */
#ifndef CG_KERN_VNNI
void
NAMED(cg_kern_row_f32_, CG_KERN_LEVEL)(CG_KERN_ROW_F32_PARAMS)
{
  rxc_k_row_f32(rows, n, prog, dst, dst_row, dst_stride, ptrs, strides, scalars);
}
#endif
