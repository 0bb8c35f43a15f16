/* libhyla_lapack's entry points. Compiled twice: with HYLA_LAPACK_ILP64=0
 * for LAPACK's LP64 names (dpotrf_, and scipy_dpotrf_ as pip's SciPy calls
 * its OpenBLAS, scipy-openblas32), 32-bit integers, and with
 * HYLA_LAPACK_ILP64=1 for the ILP64 names (dpotrf_64_, and scipy_dpotrf_64_
 * as pip's NumPy calls its OpenBLAS, scipy-openblas64), 64-bit integers. The
 * routines (t_lapack.c) and the names (t_entry.c) are templates included
 * once per precision. */
#include "lapack_rt.h"
#include <complex.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#if HYLA_LAPACK_ILP64
typedef int64_t lapack_int;
#else
typedef int lapack_int;
#endif

static char up(const char *c) { return (char)toupper((unsigned char)*c); }

static int64_t max1(int64_t x) { return x > 1 ? x : 1; }

static void arg_error(const hl_fwd *f, lapack_int *info, int arg) { /* info first: XERBLA may read it */
    *info = -arg;
    hl_arg_error(f, arg);
}

/* hyla's pivots are int64_t, 1-based as LAPACK's: the ILP64 names pass the
 * caller's array, the LP64 names a copy (read: copied in). NULL when the
 * copy cannot be allocated. */
static int64_t *piv_get(lapack_int *ipiv, int64_t k, int read) {
#if HYLA_LAPACK_ILP64
    (void)k;
    (void)read;
    return ipiv;
#else
    int64_t *p = malloc((size_t)(k > 0 ? k : 1) * sizeof *p);
    if (p && read)
        for (int64_t i = 0; i < k; i++) p[i] = ipiv[i];
    return p;
#endif
}

static void piv_put(lapack_int *ipiv, const int64_t *p, int64_t k) {
    if ((const void *)p == (const void *)ipiv) return;
    for (int64_t i = 0; i < k; i++) ipiv[i] = (lapack_int)p[i];
}

static void piv_free(lapack_int *ipiv, int64_t *p) {
    if ((void *)p != (void *)ipiv) free(p);
}

#define HYLA_TEMPLATE "t_lapack.c"
#include "base/each_prec.h"

#define HL_CAT2_(a, b) a##b
#define HL_CAT2(a, b) HL_CAT2_(a, b)
#define HL_CAT4_(a, b, c, d) a##b##c##d
#define HL_CAT4(a, b, c, d) HL_CAT4_(a, b, c, d)
#define HL_STR_(x) #x
#define HL_STR(x) HL_STR_(x)
#define HL_EXPORT __attribute__((visibility("default")))

#if HYLA_LAPACK_ILP64
#define HL_PREFIX
#define HL_SUFFIX _64_
#define HYLA_TEMPLATE "t_entry.c"
#include "base/each_prec.h"
#undef HL_PREFIX
#define HL_PREFIX scipy_
#define HYLA_TEMPLATE "t_entry.c"
#include "base/each_prec.h"
#else
#define HL_PREFIX
#define HL_SUFFIX _
#define HYLA_TEMPLATE "t_entry.c"
#include "base/each_prec.h"
#undef HL_PREFIX
#define HL_PREFIX scipy_
#define HYLA_TEMPLATE "t_entry.c"
#include "base/each_prec.h"
#endif
