/* Tridiagonal eigenvalues by bisection on the GPU: the backend's
 * tri_eigvals op (backend.h). The method, its plan and why the results come
 * out ascending: backend/ops/tri_bisect.h; the host backend's version
 * (backend/host/host_bisect.c) is the reference.
 *
 * Three kernels on the stream: one block scans (d, e) for NaN/Inf and the
 * largest entry, writes the scaled diagonal and squared off-diagonal into
 * the workspace with their Gershgorin bounds, and the plan after them; one
 * thread per three points counts at the starting grid (bisect_grid,
 * tri_bisect.h); then G lanes per eigenvalue index, each from its grid
 * interval, bisect (bisect_run), each evaluating its
 * three points' Sturm counts side by side (three independent recurrences in
 * one pass over the matrix: the division latency of one hides behind the
 * others, and the matrix is read once for three counts). One H100, d: 0.010
 * / 0.024 / 0.053 / 0.143 s at n = 4096 / 8192 / 16384 / 32768 (G = 8, 8,
 * 4, 2; bench/results/raw/bisect-grid-h100.txt), 0.012 / 0.029 / 0.074 /
 * 0.196 s from [gl, gu] with no grid, 0.024 / 0.048 / 0.113 s with one
 * thread an index (suite syevd-s1-h100; bench/results/syevd.md). The matrix is read through the
 * read-only cache; every thread of a warp reads the same entry at once. The
 * arithmetic is the type's own (float for HYLA_S), every division IEEE
 * (nvcc's default -prec-div=true), as the monotone count needs. */
#include <cfloat>
#include <cstdint>
#include <cuda_runtime.h>

#define hyla_complex_float float2
#define hyla_complex_double double2
#include "hyla.h"

#include "backend/cuda/k_bisect.h"
#include "backend/ops/tri_bisect.h"

namespace {

const int PREP_NT = 1024;  /* threads of the scan's one block */
const int NT = 128;        /* threads per block of the bisection */
const int64_t HYLA_BISECT_THREADS = 65536; /* threads of the bisection, about */
const int PLAN_BYTES = 64; /* the plan's room at the start of the workspace */

static_assert(sizeof(hyla_bisect_plan) + sizeof(int) <= PLAN_BYTES, "plan room");

template <typename R> struct lim;
template <> struct lim<float> {
    static constexpr double u = FLT_EPSILON / 2, safmin = FLT_MIN;
};
template <> struct lim<double> {
    static constexpr double u = DBL_EPSILON / 2, safmin = DBL_MIN;
};

/* |x|, max and min in the type's own precision */
__device__ __forceinline__ float rabs(float x) { return fabsf(x); }
__device__ __forceinline__ double rabs(double x) { return fabs(x); }
__device__ __forceinline__ float rmax(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double rmax(double a, double b) { return fmax(a, b); }
__device__ __forceinline__ float rmin(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ double rmin(double a, double b) { return fmin(a, b); }

/* The plan and a flag: 1 when the input held NaN or Inf. */
struct plan_room {
    hyla_bisect_plan p;
    int bad;
};

template <typename R> __device__ R *scaled_d(void *work) {
    return reinterpret_cast<R *>(static_cast<unsigned char *>(work) + PLAN_BYTES);
}
/* the starting grid's counts, after the scaled diagonal and off-diagonal
 * (8-byte aligned: 64 + 2 n sizeof(R) bytes in) */
template <typename R> __device__ int64_t *grid_counts(void *work, int n) {
    return reinterpret_cast<int64_t *>(scaled_d<R>(work) + 2 * (int64_t)n);
}

enum { RED_MAX = 0, RED_MIN = 1 };

/* Reduction over the block (every thread gets the result). sh: PREP_NT / 32
 * doubles of shared memory; the block synchronizes on entry and exit. */
__device__ double block_reduce(double v, int op, double *sh) {
    for (int o = 16; o > 0; o /= 2) {
        const double x = __shfl_xor_sync(0xffffffffu, v, o);
        v = op == RED_MAX ? fmax(v, x) : fmin(v, x);
    }
    __syncthreads();
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x / 32] = v;
    __syncthreads();
    v = sh[0];
    for (int k = 1; k < PREP_NT / 32; k++) v = op == RED_MAX ? fmax(v, sh[k]) : fmin(v, sh[k]);
    __syncthreads();
    return v;
}

template <typename R>
__global__ void __launch_bounds__(PREP_NT) bisect_prep(int n, const R *d, const R *e,
                                                       void *work, int *info) {
    __shared__ double sh[PREP_NT / 32];
    plan_room *pr = static_cast<plan_room *>(work);
    R *ds = scaled_d<R>(work), *e2s = ds + n;
    double amax = 0, bad = 0;
    for (int i = threadIdx.x; i < n; i += PREP_NT) {
        const double a = fabs((double)d[i]), b = i + 1 < n ? fabs((double)e[i]) : 0;
        if (!(a <= DBL_MAX && b <= DBL_MAX)) bad = 1; /* NaN fails the test too */
        amax = fmax(amax, fmax(a, b));
    }
    bad = block_reduce(bad, RED_MAX, sh);
    amax = block_reduce(amax, RED_MAX, sh);
    if (bad != 0) {
        if (threadIdx.x == 0) {
            pr->bad = 1;
            *info = 1;
        }
        return;
    }
    const double s = hyla_bisect_scale(amax);
    double gl = INFINITY, gu = -INFINITY, maxe2 = 0;
    for (int i = threadIdx.x; i < n; i += PREP_NT) {
        /* a power-of-two scale is exact in either type */
        const R di = (R)((double)d[i] * s);
        const R ei = i + 1 < n ? (R)((double)e[i] * s) : R(0);
        const R ep = i > 0 ? (R)((double)e[i - 1] * s) : R(0);
        ds[i] = di;
        e2s[i] = ei * ei;
        maxe2 = fmax(maxe2, (double)(ei * ei));
        gl = fmin(gl, (double)di - fabs((double)ep) - fabs((double)ei));
        gu = fmax(gu, (double)di + fabs((double)ep) + fabs((double)ei));
    }
    gl = block_reduce(gl, RED_MIN, sh);
    gu = block_reduce(gu, RED_MAX, sh);
    maxe2 = block_reduce(maxe2, RED_MAX, sh);
    if (threadIdx.x == 0) {
        hyla_bisect_plan_make(gl, gu, maxe2, n, lim<R>::u, lim<R>::safmin, s, &pr->p);
        pr->bad = 0;
        *info = 0;
    }
}

/* One step of the three Sturm recurrences at row i (i >= 1). */
template <typename R>
__device__ __forceinline__ void sturm_row(R di, R e2, R pivmin, const R x[3], R q[3], int c[3]) {
#pragma unroll
    for (int m = 0; m < HYLA_BISECT_POINTS; m++) {
        R t = (di - x[m]) - e2 / q[m];
        if (rabs(t) < pivmin) t = -pivmin;
        q[m] = t;
        c[m] += t < R(0);
    }
}

/* The Sturm counts at the P points x (P = HYLA_BISECT_POINTS): c[m] is the
 * number of eigenvalues of the scaled matrix (ds, e2s) below x[m]. */
template <typename R>
__device__ __forceinline__ void sturm_counts(int n, const R *__restrict__ ds,
                                             const R *__restrict__ e2s, R pivmin,
                                             const R x[HYLA_BISECT_POINTS],
                                             int c[HYLA_BISECT_POINTS]) {
    const R d0 = __ldg(ds);
    R q[HYLA_BISECT_POINTS];
#pragma unroll
    for (int m = 0; m < HYLA_BISECT_POINTS; m++) {
        R t = d0 - x[m];
        if (rabs(t) < pivmin) t = -pivmin;
        q[m] = t;
        c[m] = t < R(0);
    }
#pragma unroll 4
    for (int i = 1; i < n; i++) sturm_row(__ldg(ds + i), __ldg(e2s + i - 1), pivmin, x, q, c);
}

/* The counts at the M points of the starting grid (tri_bisect.h), P a
 * thread, x_k = lo0 + k H in the type's own arithmetic (bisect_run forms
 * the same expressions). */
template <typename R>
__global__ void __launch_bounds__(NT) bisect_grid(int n, int M, void *work) {
    const int P = HYLA_BISECT_POINTS;
    const plan_room *pr = static_cast<const plan_room *>(work);
    const int k0 = (blockIdx.x * NT + threadIdx.x) * P + 1;
    if (pr->bad || k0 > M) return;
    const R *__restrict__ ds = scaled_d<R>(work);
    const R *__restrict__ e2s = ds + n;
    const R pivmin = (R)pr->p.pivmin, lo0 = (R)pr->p.gl, hi0 = (R)pr->p.gu;
    const R H = (hi0 - lo0) / R(M + 1);
    R x[P];
    int c[P];
#pragma unroll
    for (int m = 0; m < P; m++) x[m] = k0 + m <= M ? lo0 + R(k0 + m) * H : hi0;
    sturm_counts(n, ds, e2s, pivmin, x, c);
    int64_t *cnt = grid_counts<R>(work, n);
#pragma unroll
    for (int m = 0; m < P; m++)
        if (k0 + m <= M) cnt[k0 + m - 1] = c[m];
}

/* G lanes of a warp (G a power of two, at most 32) bisect one index
 * together: lane g evaluates points g P .. g P + P - 1 (P =
 * HYLA_BISECT_POINTS) of the G P points that split [lo, hi] in G P + 1
 * equal parts, and the lanes agree on the first point above eigenvalue j
 * through shuffles. A step then takes log2(G P + 1) bits instead of two, so
 * the chain of dependent divisions a thread runs (steps x n rows) is
 * shorter, and G times as many threads hide its latency, for G times as
 * many Sturm rows a step: the step count is the plan's rule with G P + 1
 * parts. The points depend only on the interval, as with one lane, so
 * indices that share an interval keep computing the same points. */
template <typename R, int G>
__global__ void __launch_bounds__(NT) bisect_run(int n, const void *work, R *w) {
    const int P = HYLA_BISECT_POINTS, NP = G * P;
    const plan_room *pr = static_cast<const plan_room *>(work);
    const int j = (blockIdx.x * NT + threadIdx.x) / G, g = threadIdx.x % G;
    /* the lanes of one index are in the same warp and leave together */
    if (pr->bad || j >= n) return;
    const unsigned mask = G == 32 ? 0xffffffffu
                                  : ((1u << G) - 1u) << (threadIdx.x & 31 & ~(G - 1));
    const R *__restrict__ ds = scaled_d<R>(const_cast<void *>(work));
    const R *__restrict__ e2s = ds + n;
    const int M = (int)hyla_bisect_grid(n);
    int steps = 0;
    for (double wd = (pr->p.gu - pr->p.gl) / (M + 1); wd > pr->p.atol && steps < 64;
         wd /= NP + 1)
        steps++;
    const R pivmin = (R)pr->p.pivmin;
    /* the starting interval from the grid (bisect_grid's expressions) */
    const R lo0 = (R)pr->p.gl, hi0 = (R)pr->p.gu, H = (hi0 - lo0) / R(M + 1);
    const int f = (int)hyla_bisect_grid_find(grid_counts<R>(const_cast<void *>(work), n), M, j);
    R lo = f > 1 ? lo0 + R(f - 1) * H : lo0, hi = f <= M ? lo0 + R(f) * H : hi0;
    for (int k = 0; k < steps; k++) {
        const R h = (hi - lo) / R(NP + 1);
        R x[P];
        int c[P];
#pragma unroll
        for (int m = 0; m < P; m++) x[m] = lo + R(g * P + m + 1) * h;
        sturm_counts(n, ds, e2s, pivmin, x, c);
        /* the first point above eigenvalue j (NP: none) bounds it from
         * above, the one before it from below */
        int m = 0;
        while (m < P && c[m] <= j) m++;
        int first = m < P ? g * P + m : NP;
#pragma unroll
        for (int o = G / 2; o > 0; o /= 2) first = min(first, __shfl_xor_sync(mask, first, o));
        /* the same expressions as the lane that owns the point */
        const R nlo = first > 0 ? lo + R(first) * h : lo;
        const R nhi = first < NP ? lo + R(first + 1) * h : hi;
        lo = rmax(lo, nlo);
        hi = rmin(hi, nhi);
    }
    /* unscaled in double: 1 / s may exceed the float range */
    if (g == 0) w[j] = (R)((double)(lo + (hi - lo) / R(2)) * pr->p.unscale);
}

template <typename R>
int tri_eigvals_typed(cudaStream_t s, int n, const R *d, const R *e, R *w, void *work,
                      int *info) {
    bisect_prep<R><<<1, PREP_NT, 0, s>>>(n, d, e, work, info);
    const int M = (int)hyla_bisect_grid(n), P = HYLA_BISECT_POINTS;
    bisect_grid<R><<<(M / P + NT - 1) / NT, NT, 0, s>>>(n, M, work);
    /* lanes per index: about 64k threads in all (the bisection is bound by
     * the latency of its divisions below that, by their throughput above) */
    const int64_t lanes = HYLA_BISECT_THREADS / n;
    if (lanes >= 8)
        bisect_run<R, 8><<<(int)((8 * (int64_t)n + NT - 1) / NT), NT, 0, s>>>(n, work, w);
    else if (lanes >= 4)
        bisect_run<R, 4><<<(int)((4 * (int64_t)n + NT - 1) / NT), NT, 0, s>>>(n, work, w);
    else if (lanes >= 2)
        bisect_run<R, 2><<<(int)((2 * (int64_t)n + NT - 1) / NT), NT, 0, s>>>(n, work, w);
    else
        bisect_run<R, 1><<<(n + NT - 1) / NT, NT, 0, s>>>(n, work, w);
    return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
}

} // namespace

extern "C" int hyla_cuda_tri_eigvals(cudaStream_t s, int dtype, int64_t n, const void *d,
                                     const void *e, void *w, void *work, int *info) {
    if (n < 0 || n >= INT32_MAX) return HYLA_ERR_INVALID;
    if (n == 0)
        return cudaMemsetAsync(info, 0, sizeof(int), s) == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
    switch (dtype) {
    case HYLA_S:
        return tri_eigvals_typed<float>(s, (int)n, static_cast<const float *>(d),
                                        static_cast<const float *>(e), static_cast<float *>(w),
                                        work, info);
    case HYLA_D:
        return tri_eigvals_typed<double>(s, (int)n, static_cast<const double *>(d),
                                         static_cast<const double *>(e), static_cast<double *>(w),
                                         work, info);
    default:
        return HYLA_ERR_INVALID;
    }
}
