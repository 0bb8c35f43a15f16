/* The fused LU panel: LAPACK getrf with partial pivoting (getf2's
 * right-looking column loop) of a tall m x n panel, n <= 128, in ONE
 * cooperative launch.
 *
 * Why: cuSOLVER's getrf on the panels of the blocked LU launches kernels
 * per column; they are latency-bound, about 4.7 us per column whatever the
 * height (measured on one H100), so the panel chain of an n = 16384 LU
 * costs about n x 4.7 us.
 *
 * Layout: a grid of G CTAs, all resident (cooperative launch), CTA b owning
 * the rows [b r, (b + 1) r) of the panel, r = ceil(m / G). When the G row
 * blocks fit in shared memory (r n elements per CTA) each CTA copies its rows
 * in once, factors them there and copies them back: the panel crosses HBM
 * twice. Otherwise each CTA works on its rows in place in global memory (L2
 * when the panel fits there). Only a row's owner reads or writes it, so
 * global rows need no coherence beyond the owner's own accesses.
 *
 * Column j, one grid barrier:
 *   before: each CTA finds its candidate (largest |a_ij| of its rows i >= j,
 *     complex |re| + |im| as LAPACK's i?amax, the lower row on ties, NaN
 *     counted as +Inf so every CTA sees the same total order) and publishes
 *     (value, row) and the whole candidate row; the owner of row j also
 *     publishes row j. The exchange buffers are double-buffered by the
 *     parity of j: a CTA can be at most one barrier ahead of another.
 *   barrier (cooperative_groups grid sync);
 *   after: every CTA reduces the G candidates to the same winner p, reads
 *     row p (the U row), the owners of rows j and p swap them (from the
 *     published copies), and each CTA scales its part of column j by
 *     1 / u_jj (a division when |u_jj| < sfmin, as LAPACK) and does the
 *     rank-1 update of its rows i > j.
 * A zero pivot (then p = j, the column being zero from row j down) is
 * recorded as info (the first one) and skips the scaling, as LAPACK's getf2.
 * With ipiv NULL the candidate is row j itself (no pivoting).
 * Exchange buffers read after the barrier are loaded with ld.global.cg
 * (L2): L1 is not coherent between SMs.
 *
 * Cost, estimates (not measured): one barrier per column; with G = 132 CTAs
 * a grid sync is of the order of 1 us on an H100, and each column adds two
 * L2 round trips (candidates, then the pivot row) and two block reductions,
 * so about 1.5-2 us per column against cuSOLVER's 4.7, i.e. an estimated
 * 0.2-0.26 ms for a 16384 x 128 double leaf. Bytes in shared-memory mode:
 * 2 m n es from HBM (32 MiB for 16384 x 128 doubles, ~11 us at 3 TB/s);
 * flops m n^2 - n^3 / 3 (2.7e8 FMAs for 16384 x 128, spread over 132 SMs:
 * negligible next to the barriers). Fewer CTAs make the barrier cheaper and
 * leave SMs to concurrent work (the trailing GEMM), more CTAs give more
 * shared memory and bandwidth: the CTA count is a parameter of the plan
 * (hyla_cuda_getrf_panel_plan, max_ctas). The grid must be co-resident, so a
 * cooperative launch waits for free SMs: it does not overlap with a GEMM that
 * fills the device the way cuSOLVER's small kernels do. */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

#include <complex>
/* hyla.h's documented way to include it from C++ */
#define hyla_complex_float std::complex<float>
#define hyla_complex_double std::complex<double>
#include "hyla.h"
#include "backend/cuda/k_getrf_panel.h"

namespace cg = cooperative_groups;

namespace {

const int THREADS = 256;
const int TX = 64;                 /* rows per pass of the rank-1 update */
const int TY = THREADS / TX;       /* columns per pass */
const int WARPS = THREADS / 32;
const int64_t MIN_ROWS = 64;       /* rows per CTA below which fewer CTAs are used */
const int64_t NO_ROW = INT64_MAX;  /* an empty candidate */

#include "backend/cuda/k_panel_scalar.cuh"
#include "backend/cuda/k_panel_grid.cuh"

/* the pivot key: NaN as +Inf, so that the order is total and a NaN column
 * picks a NaN pivot (it then propagates, rather than being skipped) */
template <typename R> __device__ __forceinline__ R key_of(R a) { return a != a ? (R)INFINITY : a; }

/* (v, i) := the better of (v, i) and (v2, i2): larger value, lower row on ties */
template <typename R>
__device__ __forceinline__ void better(R &v, int64_t &i, R v2, int64_t i2) {
    if (v2 > v || (v2 == v && i2 < i)) {
        v = v2;
        i = i2;
    }
}

/* Reduces every thread's (v, i) to the block's best, returned to all threads.
 * All threads of the block call it. */
template <typename R>
__device__ void block_best(R &v, int64_t &i, R *sv, int64_t *si) {
    for (int o = 16; o > 0; o >>= 1) {
        const R v2 = __shfl_down_sync(0xffffffffu, v, o);
        const long long i2 = __shfl_down_sync(0xffffffffu, (long long)i, o);
        better(v, i, v2, (int64_t)i2);
    }
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    __syncthreads(); /* sv, si free from the previous call */
    if (lane == 0) {
        sv[w] = v;
        si[w] = i;
    }
    __syncthreads();
    if (w == 0) {
        v = lane < WARPS ? sv[lane] : (R)-1;
        i = lane < WARPS ? si[lane] : NO_ROW;
        for (int o = 16; o > 0; o >>= 1) {
            const R v2 = __shfl_down_sync(0xffffffffu, v, o);
            const long long i2 = __shfl_down_sync(0xffffffffu, (long long)i, o);
            better(v, i, v2, (int64_t)i2);
        }
        if (lane == 0) {
            sv[WARPS] = v;
            si[WARPS] = i;
        }
    }
    __syncthreads();
    v = sv[WARPS];
    i = si[WARPS];
}

/* The exchange buffers in the workspace, each section 16-byte aligned:
 * values[2][G], rows[2][G], then 2 x (G + 1) rows of n elements: per parity
 * the candidate row of each CTA, then row j. */

template <typename T>
__global__ void __launch_bounds__(THREADS)
getrf_panel_kernel(int64_t m, int n, T *A, int64_t lda, int64_t *ipiv, int *info, int64_t rpc,
                   int in_smem, unsigned char *work, int64_t row_off, int accumulate) {
    typedef typename real_of<T>::type R;
    cg::grid_group grid = cg::this_grid();
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ R red_v[WARPS + 1];
    __shared__ int64_t red_i[WARPS + 1];

    const int G = gridDim.x, b = blockIdx.x, t = threadIdx.x;
    const int tx = t % TX, ty = t / TX;
    R *xv = reinterpret_cast<R *>(work);
    int64_t *xi = reinterpret_cast<int64_t *>(work + align16(2 * (size_t)G * sizeof(R)));
    T *xrow = reinterpret_cast<T *>(work + align16(2 * (size_t)G * sizeof(R)) +
                                    align16(2 * (size_t)G * sizeof(int64_t)));

    const int64_t r0 = min64(m, (int64_t)b * rpc), r1 = min64(m, r0 + rpc);
    T *s_u = reinterpret_cast<T *>(smem); /* the pivot row, n elements */
    T *W = A + r0;                        /* this CTA's rows: W[(i - r0) + k ldw] */
    int64_t ldw = lda;
    if (in_smem) {
        W = s_u + n;
        ldw = rpc;
        copy_rows(W, ldw, A + r0, lda, r1 - r0, n);
        __syncthreads();
    }

    const int kmax = (int)min64(m, (int64_t)n);
    int first_zero = 0;
    for (int j = 0; j < kmax; j++) {
        const int par = j & 1;
        R *cv = xv + par * G;
        int64_t *ci = xi + par * G;
        T *crow = xrow + (size_t)par * (G + 1) * n; /* G candidate rows, then row j */
        const bool own_j = j >= r0 && j < r1;

        /* this CTA's candidate */
        R v = (R)-1;
        int64_t p = NO_ROW;
        if (ipiv) {
            for (int64_t i = max64(r0, (int64_t)j) + t; i < r1; i += THREADS)
                better(v, p, key_of(abs1(W[(i - r0) + (int64_t)j * ldw])), i);
        } else if (own_j && t == 0) {
            v = key_of(abs1(W[(j - r0) + (int64_t)j * ldw]));
            p = j;
        }
        block_best(v, p, red_v, red_i);
        if (t == 0) {
            cv[b] = v;
            ci[b] = p;
        }
        if (p != NO_ROW)
            for (int k = t; k < n; k += THREADS) crow[(size_t)b * n + k] = W[(p - r0) + k * ldw];
        if (own_j)
            for (int k = t; k < n; k += THREADS) crow[(size_t)G * n + k] = W[(j - r0) + k * ldw];

        grid.sync();

        /* the same winner in every CTA (there is always one: row j's owner
         * has a candidate), and its row */
        v = (R)-1;
        p = NO_ROW;
        for (int c = t; c < G; c += THREADS) better(v, p, ldcg(cv + c), ldcg(ci + c));
        block_best(v, p, red_v, red_i);
        const int pb = (int)(p / rpc);
        for (int k = t; k < n; k += THREADS) s_u[k] = ldcg(crow + (size_t)pb * n + k);
        __syncthreads();
        const T piv = s_u[j];
        const bool zero = is_zero(piv);
        if (b == 0 && t == 0) {
            if (ipiv) ipiv[j] = p + 1 + row_off;
            if (zero && first_zero == 0) first_zero = j + 1;
        }

        /* rows j and p trade places: row j takes the pivot row, row p the
         * published copy of row j */
        if (p != j) {
            if (p >= r0 && p < r1)
                for (int k = t; k < n; k += THREADS)
                    W[(p - r0) + k * ldw] = ldcg(crow + (size_t)G * n + k);
            if (own_j)
                for (int k = t; k < n; k += THREADS) W[(j - r0) + k * ldw] = s_u[k];
            __syncthreads();
        }

        /* l := column j below the diagonal / u_jj, then A22 -= l u */
        const int64_t i0 = max64(r0, (int64_t)j + 1);
        if (!zero && i0 < r1) {
            T *colj = W + (int64_t)j * ldw; /* colj[i - r0] is a_ij */
            if (modulus(piv) >= sfmin(modulus(piv))) {
                const T rcp = dvd(one<T>(), piv);
                for (int64_t i = i0 + t; i < r1; i += THREADS) colj[i - r0] = mul(colj[i - r0], rcp);
            } else {
                for (int64_t i = i0 + t; i < r1; i += THREADS) colj[i - r0] = dvd(colj[i - r0], piv);
            }
            __syncthreads();
            for (int64_t i = i0 + tx; i < r1; i += TX) {
                const T l = colj[i - r0];
                T *row = W + (i - r0);
                for (int k = j + 1 + ty; k < n; k += TY) row[k * ldw] = fnms(l, s_u[k], row[k * ldw]);
            }
        }
        __syncthreads(); /* column j + 1 and the rows are read next */
    }

    if (in_smem) copy_rows(A + r0, lda, W, ldw, r1 - r0, n);
    if (b == 0 && t == 0) {
        if (!accumulate) *info = first_zero;
        else if (first_zero != 0 && *info == 0) *info = (int)(first_zero + row_off);
    }
}

template <typename T> size_t work_bytes(int G, int64_t n) {
    typedef typename real_of<T>::type R;
    return align16(2 * (size_t)G * sizeof(R)) + align16(2 * (size_t)G * sizeof(int64_t)) +
           2 * (size_t)(G + 1) * (size_t)n * sizeof(T);
}

template <typename T>
int plan_typed(int64_t m, int64_t n, int max_ctas, hyla_cuda_panel_plan *pl) {
    const int rc = plan_grid(getrf_panel_kernel<T>, m, n, sizeof(T), (size_t)n * sizeof(T),
                             max_ctas, pl);
    if (!rc) pl->work_bytes = work_bytes<T>(pl->ctas, n);
    return rc;
}

template <typename T>
int launch_typed(cudaStream_t s, const hyla_cuda_panel_plan *pl, void *A, int64_t lda,
                 int64_t *ipiv, int *info, void *work, int64_t row_off, int accumulate) {
    int64_t m = pl->m, rpc = pl->rows_per_cta;
    int n = (int)pl->n, in_smem = pl->in_smem;
    T *a = static_cast<T *>(A);
    unsigned char *w = static_cast<unsigned char *>(work);
    void *args[] = {&m, &n, &a, &lda, &ipiv, &info, &rpc, &in_smem, &w, &row_off, &accumulate};
    return launch_grid(getrf_panel_kernel<T>, pl, args, s);
}

} // namespace

extern "C" int hyla_cuda_getrf_panel_plan(int dtype, int64_t m, int64_t n, int max_ctas,
                                          hyla_cuda_panel_plan *plan) {
    if (!plan || m < 1 || n < 1) return HYLA_ERR_INVALID;
    if (n > HYLA_CUDA_GETRF_PANEL_MAX_N) return HYLA_ERR_UNSUPPORTED;
    plan->dtype = dtype;
    return by_dtype(dtype, [&](auto z) { return plan_typed<decltype(z)>(m, n, max_ctas, plan); });
}

extern "C" int hyla_cuda_getrf_panel(cudaStream_t s, const hyla_cuda_panel_plan *plan, void *A,
                                     int64_t lda, int64_t *ipiv, int *info, void *work,
                                     int64_t row_off, int accumulate) {
    if (!plan) return HYLA_ERR_INVALID;
    return by_dtype(plan->dtype, [&](auto z) {
        return launch_typed<decltype(z)>(s, plan, A, lda, ipiv, info, work, row_off, accumulate);
    });
}
