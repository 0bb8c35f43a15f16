/* The divide-and-conquer merge ops on the host cores: the roots and zh one
 * OpenMP iteration each (the arithmetic of backend/t_dc_merge.h), the merge
 * matrix column by column. The CUDA backend's version is k_dc.cu. */
#include "backend/host/host_dc.h"
#include "core/internal.h"
#include <float.h>
#include <math.h>
#include <string.h>

#define DCM_HD
#define DCM_J0 0
#define DCM_JS 1
#define DCM_SUM(x) (x)
#define DCM_PROD(x) (x)
#define DCM_PRAGMA(x) _Pragma(#x)
#define DCM_SIMD(clause) DCM_PRAGMA(omp simd clause)

#define DCM(x) x##_s
#define R float
#define DCM_RF(fn) fn##f
#define DCM_EPS (FLT_EPSILON / 2)
#include "backend/t_dc_merge.h"
#include "backend/host/t_host_dc.c"
#undef DCM
#undef R
#undef DCM_RF
#undef DCM_EPS

#define DCM(x) x##_d
#define R double
#define DCM_RF(fn) fn
#define DCM_EPS (DBL_EPSILON / 2)
#include "backend/t_dc_merge.h"
#include "backend/host/t_host_dc.c"
#undef DCM
#undef R
#undef DCM_RF
#undef DCM_EPS

void hyla_host_dc_secular_run(hyla_dtype t, const hyla_dc_args *a) {
    if (t == HYLA_S)
        secular_s(a);
    else
        secular_d(a);
}

void hyla_host_dc_vectors_run(hyla_dtype t, const hyla_dc_args *a) {
    if (a->n == 0) return;
    if (t == HYLA_S)
        vectors_s(a);
    else
        vectors_d(a);
}
