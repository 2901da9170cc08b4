/*
 * rt_kern_base.h - what the kernels of rt/ (rt_kern_*.h) share: the
 * choice of their form and the float vectors they load and store through.
 *
 * RXC_K_VECTOR picks the form: 1 where the compiler has GNU C vector
 * extensions (gcc, clang), 0 under tcc, which has none and gets each
 * kernel's scalar form; defined first, it forces one (tests compare the
 * two).  The typedefs are floats at any float address (aligned(4)) that
 * may alias float arrays, so a vector load or store needs no memcpy.
 *
 * One definition, so the kernels cannot disagree on the form: a NAME.c
 * carries this text once, before the first kernel it calls
 * (codegen/runtime.c); a file including a kernel's header directly gets
 * it through that header.  Requires rt_types.h.
 */
#ifndef RXC_RT_KERN_BASE_H
#define RXC_RT_KERN_BASE_H

#ifndef RXC_K_VECTOR
#if defined(__GNUC__) && !defined(__TINYC__)
#define RXC_K_VECTOR 1
#else
#define RXC_K_VECTOR 0
#endif
#endif

#if RXC_K_VECTOR
/* 16, 8, 4 and 2 floats at any float address */
typedef float rxc_k_f32x16 __attribute__((vector_size(64), aligned(4), may_alias));
typedef float rxc_k_f32x8 __attribute__((vector_size(32), aligned(4), may_alias));
typedef float rxc_k_f32x4 __attribute__((vector_size(16), aligned(4), may_alias));
typedef float rxc_k_f32x2 __attribute__((vector_size(8), aligned(4), may_alias));
#endif

#endif /* RXC_RT_KERN_BASE_H */
