/* The scan behind hyla's NaN/Inf policy (hyla.h, "NaN and Inf") on host
 * memory: the host-resident drivers call it on their input, the host
 * backend's nonfinite op on a virtual device's memory. */
#include "base/base.h"
#include <math.h>

/* 1 when one of the k values at p (float or double lanes) is NaN or Inf */
static int lanes_nonfinite(int single, const void *p, int64_t k) {
    int bad = 0;
    if (single) {
        const float *x = p;
        for (int64_t i = 0; i < k; i++) bad |= !isfinite(x[i]);
    } else {
        const double *x = p;
        for (int64_t i = 0; i < k; i++) bad |= !isfinite(x[i]);
    }
    return bad;
}

int hyla_nonfinite(hyla_dtype t, int uplo, int64_t off, int64_t m, int64_t n, const void *A,
                   int64_t lda) {
    const size_t es = hyla_dtype_size(t);
    const int single = t == HYLA_S || t == HYLA_C;
    const int64_t per = hyla_dtype_is_complex(t) ? 2 : 1;
    int bad = 0;
    /* a pass over memory: the threads pay once the matrix is large */
#pragma omp parallel for schedule(static) reduction(| : bad) if (m * n > (1 << 20))
    for (int64_t j = 0; j < n; j++) {
        int64_t lo = 0, hi = m;
        if (uplo == 0) lo = HYLA_MAX(0, HYLA_MIN(m, j + off));
        else if (uplo == 1) hi = HYLA_MAX(0, HYLA_MIN(m, j + off + 1));
        if (hi > lo) bad |= lanes_nonfinite(single, hyla_elem(A, lo, j, lda, es), (hi - lo) * per);
    }
    return bad;
}
