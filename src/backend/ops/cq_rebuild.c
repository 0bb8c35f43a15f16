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
