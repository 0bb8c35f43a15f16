/* One source for the four precisions (CHOLMOD's t_*.c pattern): a template
 * file is included once per precision with exactly one of HYLA_PREC_S,
 * HYLA_PREC_D, HYLA_PREC_C, HYLA_PREC_Z defined; this header then sets
 *   T         the scalar type;       R    its real type;
 *   DT        the hyla_dtype;        PN(x) the public name hyla_<p>x;
 *   IS_CPLX   1 for c and z;         T_ONE, T_ZERO;
 *   PS(x)     a file-local name x_<p> for the template's static helpers.
 * Include it right after defining the precision macro, or let
 * base/each_prec.h do both for every precision. */
#undef T
#undef R
#undef DT
#undef PN
#undef PS
#undef IS_CPLX
#undef T_ONE
#undef T_ZERO
#undef TREAL
#undef TABS

#if defined(HYLA_PREC_S)
#define T float
#define R float
#define DT HYLA_S
#define PN(x) hyla_s##x
#define PS(x) x##_s
#define IS_CPLX 0
#elif defined(HYLA_PREC_D)
#define T double
#define R double
#define DT HYLA_D
#define PN(x) hyla_d##x
#define PS(x) x##_d
#define IS_CPLX 0
#elif defined(HYLA_PREC_C)
#define T hyla_complex_float
#define R float
#define DT HYLA_C
#define PN(x) hyla_c##x
#define PS(x) x##_c
#define IS_CPLX 1
#elif defined(HYLA_PREC_Z)
#define T hyla_complex_double
#define R double
#define DT HYLA_Z
#define PN(x) hyla_z##x
#define PS(x) x##_z
#define IS_CPLX 1
#else
#error "define one of HYLA_PREC_S/D/C/Z before including prec.h"
#endif

#define T_ONE ((T)1)
#define T_ZERO ((T)0)
