/* Instantiates a t_*.c template for the four precisions (CHOLMOD's pattern):
 *
 *   #define HYLA_TEMPLATE "lu/t_lu.c"
 *   #include "base/each_prec.h"
 *
 * includes HYLA_TEMPLATE once per precision s, d, c, z, each time with
 * exactly one of HYLA_PREC_S/D/C/Z defined and prec.h's macros set for it.
 * Define HYLA_TEMPLATE_REAL as well to instantiate s and d only. The header
 * undefines HYLA_TEMPLATE and HYLA_TEMPLATE_REAL when it is done, so it can
 * be included again for the next template. No include guard on purpose. */
#ifndef HYLA_TEMPLATE
#error "define HYLA_TEMPLATE (the template's file name) before including each_prec.h"
#endif

#define HYLA_PREC_S
#include "prec.h"
#include HYLA_TEMPLATE
#undef HYLA_PREC_S

#define HYLA_PREC_D
#include "prec.h"
#include HYLA_TEMPLATE
#undef HYLA_PREC_D

#ifndef HYLA_TEMPLATE_REAL
#define HYLA_PREC_C
#include "prec.h"
#include HYLA_TEMPLATE
#undef HYLA_PREC_C

#define HYLA_PREC_Z
#include "prec.h"
#include HYLA_TEMPLATE
#undef HYLA_PREC_Z
#endif

#undef HYLA_TEMPLATE
#undef HYLA_TEMPLATE_REAL
