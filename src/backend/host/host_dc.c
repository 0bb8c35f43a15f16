/* The divide-and-conquer merge ops on the host cores: the roots and zh one
 * OpenMP iteration each (the arithmetic of backend/ops/t_dc_merge.h), the merge
 * matrix column by column. The CUDA backend's version is k_dc.cu. */
#include "backend/host/host_dc.h"
#include <math.h>
#include <string.h>

#include "backend/ops/dc_merge.h"

#define DCM(x) x##_s
#define R float
#define DCM_RF(fn) fn##f
#include "backend/host/t_host_dc.c"
#undef DCM
#undef R
#undef DCM_RF

#define DCM(x) x##_d
#define R double
#define DCM_RF(fn) fn
#include "backend/host/t_host_dc.c"
#undef DCM
#undef R
#undef DCM_RF

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
