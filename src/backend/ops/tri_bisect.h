/* Eigenvalues of a real symmetric tridiagonal matrix by bisection on Sturm
 * counts (the method of LAPACK's dstebz / dlaebz), the parts shared by the
 * host and the GPU implementation of the backend's tri_eigvals op (included
 * by backend/host/host_bisect.c and backend/cuda/k_bisect.cu).
 *
 * The plan: (d, e) are scaled by a power of two s so that max |T_ij| lies in
 * [1/2, 1) (exact, and e^2 neither overflows nor loses the matrix to
 * underflow), the Gershgorin interval [gl, gu] of the scaled matrix is
 * widened as dstebz widens it, and every eigenvalue index j starts from that
 * one interval. A step evaluates the Sturm count at HYLA_BISECT_POINTS = 3
 * points splitting [lo, hi] in four equal parts and keeps the part holding
 * eigenvalue j: two bits a step, the same number of steps for every j,
 * enough to bring the width below atol = 2 u max(|gl|, |gu|) (u the unit
 * roundoff; dstebz's default absolute tolerance). The result is the midpoint.
 *
 * The first steps are shared: every index starts from [gl, gu], so the
 * first ones evaluate the same few points for all. Instead one pass
 * evaluates the counts at the M = 3 min(n, HYLA_BISECT_GRID_MAX) points of
 * a grid, x_k = gl + k H (k = 1 .. M, H = (gu - gl) / (M + 1)), once for
 * all indices, and index j starts from [x_{f-1}, x_f], f the first grid
 * point whose count exceeds j (x_0 = gl, x_{M+1} = gu; hyla_bisect_grid_find).
 * That pass costs M n counts, about one step's n P n at n <= 16384, and
 * saves log_{P+1}(M + 1) steps: 4 of 15 in double at n = 16384.
 *
 * Count(x) = #{i : q_i < 0}, q_0 = d_0 - x, q_i = (d_i - x) - e_{i-1}^2 / q_{i-1},
 * a pivot of magnitude below pivmin = safmin max(1, max e_i^2) replaced by
 * -pivmin (dlaebz's guard: no division by zero, no overflow). In IEEE
 * arithmetic this count is monotone in x (Demmel, Dhillon and Ren, "On the
 * correctness of some bisection-like parallel eigenvalue algorithms in
 * floating point arithmetic", 1995). Since every index starts from the same
 * interval and the points depend only on the interval, two indices j < j'
 * then either share their interval (all their counts agree) or have
 * hi_j <= lo_j': the results come out ascending and equal eigenvalues come
 * out equal, with no sort. */
#ifndef HYLA_BACKEND_TRI_BISECT_H
#define HYLA_BACKEND_TRI_BISECT_H
#include "backend/backend.h"
#include "backend/ops/tridiag.h"
#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define HYLA_BISECT_HD __host__ __device__
#else
#define HYLA_BISECT_HD
#endif

#define HYLA_BISECT_POINTS 3

typedef struct {
    double gl, gu;      /* the starting interval (scaled matrix) */
    double pivmin;      /* smallest pivot magnitude kept in the Sturm count */
    double unscale;     /* 1 / s: the results are midpoints times this */
    double atol;        /* the width at which an interval is done */
    int steps;          /* bisection steps for every index */
} hyla_bisect_plan;

/* The power of two s with amax s in [1/2, 1); 1 for amax == 0. */
static inline HYLA_BISECT_HD double hyla_bisect_scale(double amax) {
    if (!(amax > 0)) return 1;
    int ex;
    (void)frexp(amax, &ex);
    return ldexp(1.0, -ex);
}

/* Points of the starting grid for order n (n >= 1): M = P min(n,
 * HYLA_BISECT_GRID_MAX). */
static inline HYLA_BISECT_HD int64_t hyla_bisect_grid(int64_t n) {
    return (int64_t)HYLA_BISECT_POINTS * (n < HYLA_BISECT_GRID_MAX ? n : HYLA_BISECT_GRID_MAX);
}

/* f for index j: the first k in 1 .. M with cnt[k-1] > j, M + 1 when none
 * (cnt, the grid's counts, is nondecreasing: the count is monotone in x
 * and the points ascend). */
static inline HYLA_BISECT_HD int64_t hyla_bisect_grid_find(const int64_t *cnt, int64_t M,
                                                          int64_t j) {
    int64_t a = 1, b = M + 1; /* cnt[a-2] <= j (a = 1: none), cnt[b-1] > j (b = M + 1: none) */
    while (a < b) {
        const int64_t m = a + (b - a) / 2;
        if (cnt[m - 1] > j) b = m;
        else a = m + 1;
    }
    return a;
}

/* The plan from the scaled matrix's Gershgorin bounds gl <= gu, the largest
 * scaled e_i^2, the order n, the unit roundoff u and the smallest normal
 * number safmin of the working type; s the scale. The step loop ends for any
 * input: a width that is not a finite number gives no steps. */
static inline HYLA_BISECT_HD void hyla_bisect_plan_make(double gl, double gu, double maxe2,
                                                        int64_t n, double u, double safmin,
                                                        double s, hyla_bisect_plan *p) {
    const double tnorm = fmax(fabs(gl), fabs(gu));
    const double pivmin = safmin * fmax(1.0, maxe2);
    const double widen = 2.1 * 2 * u * tnorm * (double)n + 2.1 * 2 * pivmin;
    const double atol = fmax(2 * u * tnorm, 4 * pivmin);
    p->pivmin = pivmin;
    p->unscale = 1 / s;
    p->atol = atol;
    p->steps = 0;
    if (tnorm == 0) { /* the zero matrix: every eigenvalue is 0, exactly */
        p->gl = p->gu = 0;
        return;
    }
    p->gl = gl - widen;
    p->gu = gu + widen;
    /* from the width of the starting grid's intervals */
    for (double w = (p->gu - p->gl) / (double)(hyla_bisect_grid(n) + 1);
         w > atol && p->steps < 64; w /= HYLA_BISECT_POINTS + 1)
        p->steps++;
}

/* The arguments of the tri_eigvals op (backend/ops/ops.h): 0 when valid, else
 * HYLA_ERR_INVALID; n == 0 is valid (nothing to do). */
static inline int hyla_tri_eigvals_check(hyla_dtype t, int64_t n, const void *d, const void *e,
                                         const void *w, const void *work, size_t work_bytes,
                                         const int *info) {
    if ((t != HYLA_S && t != HYLA_D) || n < 0 || !info) return HYLA_ERR_INVALID;
    if (n == 0) return 0;
    if (!d || (n > 1 && !e) || !w || !work || work_bytes < HYLA_TRI_EIGVALS_WORK_BYTES(n))
        return HYLA_ERR_INVALID;
    return 0;
}

#endif
