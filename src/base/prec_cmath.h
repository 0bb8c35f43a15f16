/* Scalar helpers of the current precision for templates on C99 complex
 * types (after base/prec.h has set HYLA_PREC_x, IS_CPLX, T and R): the
 * conjugate, the real and imaginary parts, and the real type's sqrt, fabs,
 * smallest normal and epsilon. Included again for each precision, so no
 * include guard. */
#undef TCONJ
#undef TRE
#undef TIM
#undef RSQRT
#undef RABS
#undef RMIN
#undef REPS
#if IS_CPLX
#if defined(HYLA_PREC_C)
#define TCONJ(x) conjf(x)
#define TRE(x) crealf(x)
#define TIM(x) cimagf(x)
#else
#define TCONJ(x) conj(x)
#define TRE(x) creal(x)
#define TIM(x) cimag(x)
#endif
#else
#define TCONJ(x) (x)
#define TRE(x) (x)
#define TIM(x) ((R)0)
#endif
#if defined(HYLA_PREC_S) || defined(HYLA_PREC_C)
#define RSQRT sqrtf
#define RABS fabsf
#define RMIN FLT_MIN
#define REPS FLT_EPSILON
#else
#define RSQRT sqrt
#define RABS fabs
#define RMIN DBL_MIN
#define REPS DBL_EPSILON
#endif
