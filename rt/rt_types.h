/*
 * rt_types.h - the fixed-width types of generated code, without any libc
 * header (not even <stdint.h>; only the compiler's <stddef.h>).
 *
 * Key idea: take the compiler's own predefined type macros (__INT64_TYPE__,
 * which gcc, clang and tcc define) so that rxc_i64 is the very type
 * <stdint.h> calls int64_t and a caller's int64_t * converts without a
 * warning; fall back to the usual C99 types, and check every size at
 * compile time with a negative-array-size typedef, which C99 accepts.
 * Guarded, so that NAME.h and NAME.c may both carry it.
 */
#ifndef RXC_RT_TYPES_H
#define RXC_RT_TYPES_H

#include <stddef.h>

#if defined(__INT8_TYPE__) && defined(__UINT8_TYPE__)
typedef __INT8_TYPE__ rxc_i8;
typedef __UINT8_TYPE__ rxc_u8;
#else
typedef signed char rxc_i8;
typedef unsigned char rxc_u8;
#endif
#if defined(__INT16_TYPE__) && defined(__UINT16_TYPE__)
typedef __INT16_TYPE__ rxc_i16;
typedef __UINT16_TYPE__ rxc_u16;
#else
typedef short rxc_i16;
typedef unsigned short rxc_u16;
#endif
#if defined(__INT32_TYPE__) && defined(__UINT32_TYPE__)
typedef __INT32_TYPE__ rxc_i32;
typedef __UINT32_TYPE__ rxc_u32;
#else
typedef int rxc_i32;
typedef unsigned int rxc_u32;
#endif
#if defined(__INT64_TYPE__) && defined(__UINT64_TYPE__)
typedef __INT64_TYPE__ rxc_i64;
typedef __UINT64_TYPE__ rxc_u64;
#elif defined(__LP64__) || defined(_LP64)
typedef long rxc_i64; /* tcc defines no __INT64_TYPE__; glibc's int64_t is long */
typedef unsigned long rxc_u64;
#else
typedef long long rxc_i64;
typedef unsigned long long rxc_u64;
#endif
typedef float rxc_f32;
typedef double rxc_f64;
/* float16 (IEEE binary16) and bfloat16 tensors hold bit patterns
 * (rt_half.h converts them): C99 has no 16-bit float type. */
typedef rxc_u16 rxc_f16;
typedef rxc_u16 rxc_bf16;

/* Compile-time checks: a negative array size fails to compile. */
#define RXC_STATIC_ASSERT(name, cond) typedef char rxc_assert_##name[(cond) ? 1 : -1]
RXC_STATIC_ASSERT(u8_is_8_bits, (rxc_u8)255 == 255 && (rxc_u8)256 == 0);
RXC_STATIC_ASSERT(i8_size, sizeof(rxc_i8) == 1);
RXC_STATIC_ASSERT(i16_size, sizeof(rxc_i16) == 2 && sizeof(rxc_u16) == 2);
RXC_STATIC_ASSERT(i32_size, sizeof(rxc_i32) == 4 && sizeof(rxc_u32) == 4);
RXC_STATIC_ASSERT(i64_size, sizeof(rxc_i64) == 8 && sizeof(rxc_u64) == 8);
RXC_STATIC_ASSERT(signed_types, (rxc_i8)-1 < 0 && (rxc_i16)-1 < 0 && (rxc_i32)-1 < 0 &&
                                    (rxc_i64)-1 < 0);
RXC_STATIC_ASSERT(unsigned_types, (rxc_u16)-1 > 0 && (rxc_u32)-1 > 0 && (rxc_u64)-1 > 0);
RXC_STATIC_ASSERT(f32_size, sizeof(rxc_f32) == 4);
RXC_STATIC_ASSERT(f64_size, sizeof(rxc_f64) == 8);

#endif /* RXC_RT_TYPES_H */
