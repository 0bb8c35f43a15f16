/* The host reconstruction of stage 1's CholeskyQR2 panels (backend/ops/cq.h;
 * the per-precision code in t_cq_rebuild.c): the host backend's cq_rebuild
 * op and the eigensolver's own path where a device does not take the
 * panel's width. */
/* Finite data only (the panels of a matrix with no NaN or Inf): complex
 * products need no C99 Annex G recovery. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("cx-limited-range")
#endif
#include "backend/ops/cq.h"
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#define HYLA_TEMPLATE "backend/ops/t_cq_rebuild.c"
#include "base/each_prec.h"

int hyla_cq_rebuild_host(hyla_dtype t, const hyla_cq_args *a, void *work) {
    switch (t) {
    case HYLA_S: return cq_rebuild_s(a, work, FLT_EPSILON);
    case HYLA_D: return cq_rebuild_d(a, work, DBL_EPSILON);
    case HYLA_C: return cq_rebuild_c(a, work, FLT_EPSILON);
    case HYLA_Z: return cq_rebuild_z(a, work, DBL_EPSILON);
    }
    return 1;
}

static void *cq_el(const void *p, int64_t i, int64_t j, int64_t ld, size_t es) {
    return (char *)(uintptr_t)p + ((size_t)i + (size_t)j * (size_t)ld) * es;
}

void hyla_larft_gram_host(hyla_dtype t, int64_t k, const void *G, int64_t ldg, const void *tau,
                          void *Tm, int64_t ldt) {
    const size_t es = hyla_dtype_size(t);
    const int K = (int)k, LT = (int)ldt;
    for (int j = 0; j < K; j++) {
        void *c = cq_el(Tm, 0, j, ldt, es);
        memset(c, 0, (size_t)k * es);
        memcpy(cq_el(Tm, j, j, ldt, es), cq_el(tau, j, 0, 1, es), es);
        if (j == 0) continue;
        memcpy(c, cq_el(G, 0, j, ldg, es), (size_t)j * es);
        switch (t) {
        case HYLA_S: {
            cblas_sscal(j, -*(const float *)cq_el(tau, j, 0, 1, es), c, 1);
            cblas_strmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, j, Tm, LT, c, 1);
            break;
        }
        case HYLA_D: {
            cblas_dscal(j, -*(const double *)cq_el(tau, j, 0, 1, es), c, 1);
            cblas_dtrmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, j, Tm, LT, c, 1);
            break;
        }
        case HYLA_C: {
            const float *tj = cq_el(tau, j, 0, 1, es);
            const float a[2] = {-tj[0], -tj[1]};
            cblas_cscal(j, a, c, 1);
            cblas_ctrmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, j, Tm, LT, c, 1);
            break;
        }
        case HYLA_Z: {
            const double *tj = cq_el(tau, j, 0, 1, es);
            const double a[2] = {-tj[0], -tj[1]};
            cblas_zscal(j, a, c, 1);
            cblas_ztrmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, j, Tm, LT, c, 1);
            break;
        }
        }
    }
}

