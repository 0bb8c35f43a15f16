/* The host backend's tri_eigvals op (tridiagonal eigenvalues by bisection,
 * backend.h), run by a queue's worker thread on the OpenMP team. */
#ifndef HYLA_HOST_BISECT_H
#define HYLA_HOST_BISECT_H
#include "backend/backend.h"

/* The op's work, arguments already checked (hyla_tri_eigvals_check), n >= 1:
 * w := the eigenvalues of (d, e), *info := 0, or *info := 1 and w untouched
 * when d or e holds NaN or Inf. The arithmetic is double for both types
 * (float values convert exactly), with the float type's tolerance for
 * HYLA_S. work: HYLA_TRI_EIGVALS_WORK_BYTES(n) bytes. */
void hyla_host_tri_eigvals_run(hyla_dtype t, int64_t n, const void *d, const void *e, void *w,
                               void *work, int *info);

#endif
