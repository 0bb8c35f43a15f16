/* Tridiagonal eigenvalues by bisection on the host cores (the method and
 * its plan: backend/ops/tri_bisect.h), one eigenvalue index per OpenMP
 * iteration. */
#include "backend/host/host_bisect.h"
#include "backend/ops/tri_bisect.h"
#include <float.h>
#include <math.h>

static double at(hyla_dtype t, const void *v, int64_t i) {
    return t == HYLA_S ? (double)((const float *)v)[i] : ((const double *)v)[i];
}

/* The Sturm counts at the HYLA_BISECT_POINTS points x of the scaled matrix
 * (ds, e2s): the number of eigenvalues below each. */
static void sturm_counts(int64_t n, const double *ds, const double *e2s, double pivmin,
                         const double *x, int64_t *c) {
    double q[HYLA_BISECT_POINTS];
    for (int m = 0; m < HYLA_BISECT_POINTS; m++) {
        q[m] = ds[0] - x[m];
        if (fabs(q[m]) < pivmin) q[m] = -pivmin;
        c[m] = q[m] < 0;
    }
    for (int64_t i = 1; i < n; i++)
        for (int m = 0; m < HYLA_BISECT_POINTS; m++) {
            q[m] = (ds[i] - x[m]) - e2s[i - 1] / q[m];
            if (fabs(q[m]) < pivmin) q[m] = -pivmin;
            c[m] += q[m] < 0;
        }
}

void hyla_host_tri_eigvals_run(hyla_dtype t, int64_t n, const void *d, const void *e, void *w,
                               void *work, int *info) {
    double *ds = work, *e2s = ds + n;
    double amax = 0;
    int finite = 1;
    for (int64_t i = 0; i < n; i++) {
        const double a = fabs(at(t, d, i)), b = i + 1 < n ? fabs(at(t, e, i)) : 0;
        finite &= a <= DBL_MAX && b <= DBL_MAX; /* false for NaN too */
        amax = fmax(amax, fmax(a, b));
    }
    if (!finite) {
        *info = 1;
        return;
    }
    const double s = hyla_bisect_scale(amax);
    double gl = INFINITY, gu = -INFINITY, maxe2 = 0;
    for (int64_t i = 0; i < n; i++) {
        const double ei = i + 1 < n ? at(t, e, i) * s : 0, ep = i > 0 ? at(t, e, i - 1) * s : 0;
        ds[i] = at(t, d, i) * s;
        e2s[i] = ei * ei;
        maxe2 = fmax(maxe2, e2s[i]);
        gl = fmin(gl, ds[i] - fabs(ep) - fabs(ei));
        gu = fmax(gu, ds[i] + fabs(ep) + fabs(ei));
    }
    const int single = t == HYLA_S;
    hyla_bisect_plan p;
    hyla_bisect_plan_make(gl, gu, maxe2, n, single ? FLT_EPSILON / 2 : DBL_EPSILON / 2,
                          single ? FLT_MIN : DBL_MIN, s, &p);
    /* the starting grid's counts, after ds and e2s */
    const int64_t M = hyla_bisect_grid(n);
    const double H = (p.gu - p.gl) / (double)(M + 1);
    int64_t *cnt = (int64_t *)(e2s + n);
#pragma omp parallel for schedule(static)
    for (int64_t k0 = 1; k0 <= M; k0 += HYLA_BISECT_POINTS) {
        double x[HYLA_BISECT_POINTS];
        int64_t c[HYLA_BISECT_POINTS];
        for (int m = 0; m < HYLA_BISECT_POINTS; m++) x[m] = p.gl + (double)(k0 + m) * H;
        sturm_counts(n, ds, e2s, p.pivmin, x, c);
        for (int m = 0; m < HYLA_BISECT_POINTS && k0 + m <= M; m++) cnt[k0 + m - 1] = c[m];
    }
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < n; j++) {
        const int64_t f = hyla_bisect_grid_find(cnt, M, j);
        double lo = f > 1 ? p.gl + (double)(f - 1) * H : p.gl;
        double hi = f <= M ? p.gl + (double)f * H : p.gu, x[HYLA_BISECT_POINTS];
        int64_t c[HYLA_BISECT_POINTS];
        for (int k = 0; k < p.steps; k++) {
            const double h = (hi - lo) / (HYLA_BISECT_POINTS + 1);
            for (int m = 0; m < HYLA_BISECT_POINTS; m++) x[m] = lo + (m + 1) * h;
            sturm_counts(n, ds, e2s, p.pivmin, x, c);
            /* the first point above eigenvalue j bounds it from above, the
             * one before it from below */
            int m = 0;
            while (m < HYLA_BISECT_POINTS && c[m] <= j) m++;
            if (m > 0) lo = fmax(lo, x[m - 1]);
            if (m < HYLA_BISECT_POINTS) hi = fmin(hi, x[m]);
        }
        const double r = (lo + (hi - lo) / 2) * p.unscale;
        if (single) ((float *)w)[j] = (float)r;
        else ((double *)w)[j] = r;
    }
    *info = 0;
}
