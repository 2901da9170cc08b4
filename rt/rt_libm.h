/*
 * rt_libm.h - the runtime math over the system's <math.h> ([codegen]
 * system_libm): the same rxc_ names as rt_math_exp.h and rt_math_trig.h,
 * as wrappers, for targets whose libm is trusted or faster.  The exact
 * operations (rounding, sqrt, fmod, max/min) stay those of rt_math_base.h,
 * which this requires.  Note: under tcc, including a glibc header disables
 * __attribute__ (and so the alignment of the generated arrays); the pure
 * variant is the one that keeps tcc and the freestanding builds identical.
 */
#ifndef RXC_RT_LIBM_H
#define RXC_RT_LIBM_H

#include <math.h>

RXC_INLINE float rxc_expf(float x) { return expf(x); }
RXC_INLINE double rxc_exp(double x) { return exp(x); }
RXC_INLINE float rxc_exp2f(float x) { return exp2f(x); }
RXC_INLINE double rxc_exp2(double x) { return exp2(x); }
RXC_INLINE float rxc_expm1f(float x) { return expm1f(x); }
RXC_INLINE double rxc_expm1(double x) { return expm1(x); }
RXC_INLINE float rxc_logf(float x) { return logf(x); }
RXC_INLINE double rxc_log(double x) { return log(x); }
RXC_INLINE float rxc_log2f(float x) { return log2f(x); }
RXC_INLINE double rxc_log2(double x) { return log2(x); }
RXC_INLINE float rxc_log10f(float x) { return log10f(x); }
RXC_INLINE double rxc_log10(double x) { return log10(x); }
RXC_INLINE float rxc_log1pf(float x) { return log1pf(x); }
RXC_INLINE double rxc_log1p(double x) { return log1p(x); }
RXC_INLINE float rxc_sinhf(float x) { return sinhf(x); }
RXC_INLINE double rxc_sinh(double x) { return sinh(x); }
RXC_INLINE float rxc_coshf(float x) { return coshf(x); }
RXC_INLINE double rxc_cosh(double x) { return cosh(x); }
RXC_INLINE float rxc_tanhf(float x) { return tanhf(x); }
RXC_INLINE double rxc_tanh(double x) { return tanh(x); }
RXC_INLINE float rxc_asinhf(float x) { return asinhf(x); }
RXC_INLINE double rxc_asinh(double x) { return asinh(x); }
RXC_INLINE float rxc_acoshf(float x) { return acoshf(x); }
RXC_INLINE double rxc_acosh(double x) { return acosh(x); }
RXC_INLINE float rxc_atanhf(float x) { return atanhf(x); }
RXC_INLINE double rxc_atanh(double x) { return atanh(x); }
RXC_INLINE float rxc_erff(float x) { return erff(x); }
RXC_INLINE double rxc_erf(double x) { return erf(x); }
RXC_INLINE float rxc_sinf(float x) { return sinf(x); }
RXC_INLINE double rxc_sin(double x) { return sin(x); }
RXC_INLINE float rxc_cosf(float x) { return cosf(x); }
RXC_INLINE double rxc_cos(double x) { return cos(x); }
RXC_INLINE float rxc_tanf(float x) { return tanf(x); }
RXC_INLINE double rxc_tan(double x) { return tan(x); }
RXC_INLINE float rxc_asinf(float x) { return asinf(x); }
RXC_INLINE double rxc_asin(double x) { return asin(x); }
RXC_INLINE float rxc_acosf(float x) { return acosf(x); }
RXC_INLINE double rxc_acos(double x) { return acos(x); }
RXC_INLINE float rxc_atanf(float x) { return atanf(x); }
RXC_INLINE double rxc_atan(double x) { return atan(x); }
RXC_INLINE float rxc_atan2f(float y, float x) { return atan2f(y, x); }
RXC_INLINE double rxc_atan2(double y, double x) { return atan2(y, x); }
RXC_INLINE float rxc_powf(float x, float y) { return powf(x, y); }
RXC_INLINE double rxc_pow(double x, double y) { return pow(x, y); }
/* exp10 is a GNU extension: through pow. */
RXC_INLINE float rxc_exp10f(float x) { return powf(10.0f, x); }
RXC_INLINE double rxc_exp10(double x) { return pow(10.0, x); }
RXC_INLINE float rxc_sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }
RXC_INLINE double rxc_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

#endif /* RXC_RT_LIBM_H */
