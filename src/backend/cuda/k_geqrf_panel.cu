/* The fused QR panel: LAPACK geqrf (geqr2's column loop of larfg and larf)
 * of a tall m x n panel, n <= 64, in ONE cooperative launch: the stage-1
 * panels of the eigensolver (sy2sb, m x kd with kd = 32), where cuSOLVER's
 * geqrf took 0.61 ms at 16384 x 32 on one H100 (about 19 us per column).
 *
 * Layout as the LU panel kernel (k_getrf_panel.cu): G co-resident CTAs,
 * CTA b owning rows [b r, (b + 1) r), kept in shared memory when they fit.
 *
 * Column j, one grid barrier:
 *   before: each CTA publishes, over its rows i > j, the scaled sum of
 *     squares of column j (LAPACK lassq's (scale, ssq) pair, so no
 *     overflow or underflow in the norm) and the partial products
 *     S_k = sum_i conj(a_ij) a_ik for the columns k > j (warp w takes the
 *     columns j+1+w+8c, its lanes the rows: no block-wide reduction); row
 *     j's owner publishes row j;
 *   barrier;
 *   after: every warp of every CTA loads the G pairs and, for its columns,
 *     the G partial products at once (one L2 round trip) and combines them
 *     in the same order everywhere, so every CTA gets the same bits; it
 *     makes the reflector as larfg does (beta = -sign(alpha_r) |(alpha, x)|,
 *     tau = (beta - alpha) / beta, v = x / (alpha - beta)), then w_k = a_jk
 *     + conj(1 / (alpha - beta)) S_k = (v^H A)_k, and applies H^H = I -
 *     conj(tau) v v^H to its rows: a_ik -= v_i conj(tau) w_k (v_j = 1); the
 *     owner of row j puts beta on the diagonal. v itself is stored one
 *     column later, beside the next column's partial products.
 * Unlike larfg there is no rescaling loop for |beta| < sfmin (a column of
 * subnormal numbers); the norm itself is computed without under- or
 * overflow.
 *
 * Measured on one H100 (bench/probes/qr_probe.c, suite syevd-small-h100):
 * m x 64 double panels take 0.55 ms at m = 1024 to 1.3 ms at 16384 (0.98
 * ms on 66 CTAs) against cuSOLVER's 0.29 to 1.23 ms: about 8 us a column
 * whatever m, most of it the grid barrier and the dependent steps around
 * it, so the eigensolver keeps cuSOLVER for its stage-1 panels unless
 * HYLA_OPT_LU_PANEL forces this kernel. */
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
#include "backend/cuda/k_geqrf_panel.h"

namespace cg = cooperative_groups;

namespace {

const int THREADS = 256;
const int TX = 64;                 /* rows per pass */
const int TY = THREADS / TX;       /* columns per pass */
const int WARPS = THREADS / 32;
const int64_t MIN_ROWS = 64;       /* rows per CTA below which fewer CTAs are used */
const int CPW = 8;                 /* columns per warp: WARPS * CPW >= the widest panel */
const int LPW = 8;                 /* CTAs per lane loaded at once after the barrier */

#include "backend/cuda/k_panel_scalar.cuh"
#include "backend/cuda/k_panel_grid.cuh"

template <typename T> __device__ __forceinline__ T zero();
template <> __device__ __forceinline__ float zero<float>() { return 0.0f; }
template <> __device__ __forceinline__ double zero<double>() { return 0.0; }
template <> __device__ __forceinline__ c8 zero<c8>() { return c8{0.0f, 0.0f}; }
template <> __device__ __forceinline__ c16 zero<c16>() { return c16{0.0, 0.0}; }

__device__ __forceinline__ float conj_(float a) { return a; }
__device__ __forceinline__ double conj_(double a) { return a; }
__device__ __forceinline__ c8 conj_(c8 a) { return c8{a.x, -a.y}; }
__device__ __forceinline__ c16 conj_(c16 a) { return c16{a.x, -a.y}; }

__device__ __forceinline__ float add(float a, float b) { return a + b; }
__device__ __forceinline__ double add(double a, double b) { return a + b; }
__device__ __forceinline__ c8 add(c8 a, c8 b) { return c8{a.x + b.x, a.y + b.y}; }
__device__ __forceinline__ c16 add(c16 a, c16 b) { return c16{a.x + b.x, a.y + b.y}; }

/* acc + conj(x) a */
__device__ __forceinline__ float cj_fma(float x, float a, float acc) { return fmaf(x, a, acc); }
__device__ __forceinline__ double cj_fma(double x, double a, double acc) { return fma(x, a, acc); }
template <typename C> __device__ __forceinline__ C ccj_fma(C x, C a, C acc) {
    C r;
    r.x = acc.x + (x.x * a.x + x.y * a.y);
    r.y = acc.y + (x.x * a.y - x.y * a.x);
    return r;
}
__device__ __forceinline__ c8 cj_fma(c8 x, c8 a, c8 acc) { return ccj_fma(x, a, acc); }
__device__ __forceinline__ c16 cj_fma(c16 x, c16 a, c16 acc) { return ccj_fma(x, a, acc); }

__device__ __forceinline__ float shfl_down(float a, int o) { return __shfl_down_sync(0xffffffffu, a, o); }
__device__ __forceinline__ double shfl_down(double a, int o) { return __shfl_down_sync(0xffffffffu, a, o); }
__device__ __forceinline__ c8 shfl_down(c8 a, int o) {
    return c8{__shfl_down_sync(0xffffffffu, a.x, o), __shfl_down_sync(0xffffffffu, a.y, o)};
}
__device__ __forceinline__ c16 shfl_down(c16 a, int o) {
    return c16{__shfl_down_sync(0xffffffffu, a.x, o), __shfl_down_sync(0xffffffffu, a.y, o)};
}

/* (s, q) := the lassq pair of the union of (s, q) and (s2, q2); the sum of
 * squares is s^2 q. (0, anything) is empty. NaN propagates. */
template <typename R> __device__ __forceinline__ void ssq_merge(R &s, R &q, R s2, R q2) {
    if (s2 == 0) return;
    if (s < s2) {
        const R r = s / s2;
        q = q2 + q * r * r;
        s = s2;
    } else {
        const R r = s2 / s;
        q += q2 * r * r;
    }
}
__device__ __forceinline__ void ssq_elem(float &s, float &q, float x) { ssq_merge(s, q, fabsf(x), 1.0f); }
__device__ __forceinline__ void ssq_elem(double &s, double &q, double x) { ssq_merge(s, q, fabs(x), 1.0); }
__device__ __forceinline__ void ssq_elem(float &s, float &q, c8 x) {
    ssq_merge(s, q, fabsf(x.x), 1.0f);
    ssq_merge(s, q, fabsf(x.y), 1.0f);
}
__device__ __forceinline__ void ssq_elem(double &s, double &q, c16 x) {
    ssq_merge(s, q, fabs(x.x), 1.0);
    ssq_merge(s, q, fabs(x.y), 1.0);
}

/* The warp's lassq pair: merged down a fixed tree (the same order in every
 * warp of every CTA, so every one gets the same bits) and given to every
 * lane; all lanes call it. */
template <typename R> __device__ __forceinline__ void warp_ssq(R &s, R &q) {
    for (int o = 16; o > 0; o >>= 1) {
        const R s2 = __shfl_down_sync(0xffffffffu, s, o), q2 = __shfl_down_sync(0xffffffffu, q, o);
        ssq_merge(s, q, s2, q2);
    }
    s = __shfl_sync(0xffffffffu, s, 0);
    q = __shfl_sync(0xffffffffu, q, 0);
}

/* a + the sum of a over the warp's lanes, in lane 0 */
template <typename T> __device__ __forceinline__ T warp_sum(T a) {
    for (int o = 16; o > 0; o >>= 1) a = add(a, shfl_down(a, o));
    return a;
}

/* sqrt(a^2 + b^2 + c^2) without overflow (LAPACK lapy3) */
template <typename R> __device__ __forceinline__ R lapy3(R a, R b, R c) {
    a = fabs(a);
    b = fabs(b);
    c = fabs(c);
    const R w = fmax(a, fmax(b, c));
    if (w == 0) return a + b + c;
    a /= w;
    b /= w;
    c /= w;
    return w * sqrt(a * a + b * b + c * c);
}

/* The reflector of larfg from alpha and |x|: tau, beta (the new diagonal)
 * and scal (v = scal x); 0 when H = I (tau = 0, nothing to apply). */
template <typename R>
__device__ __forceinline__ int larfg(R alpha, R xnorm, R &tau, R &beta, R &scal) {
    if (xnorm == 0) {
        tau = 0;
        beta = alpha;
        scal = 1;
        return 0;
    }
    const R r = lapy3(alpha, (R)0, xnorm), bt = alpha >= 0 ? -r : r;
    tau = (bt - alpha) / bt;
    scal = (R)1 / (alpha - bt);
    beta = bt;
    return 1;
}
template <typename C, typename R>
__device__ __forceinline__ int larfg_c(C alpha, R xnorm, C &tau, C &beta, C &scal) {
    if (xnorm == 0 && alpha.y == 0) {
        tau = C{0, 0};
        beta = alpha;
        scal = C{1, 0};
        return 0;
    }
    const R r = lapy3(alpha.x, alpha.y, xnorm), bt = alpha.x >= 0 ? -r : r;
    tau = C{(bt - alpha.x) / bt, -alpha.y / bt};
    scal = dvd(C{1, 0}, C{alpha.x - bt, alpha.y});
    beta = C{bt, 0};
    return 1;
}
__device__ __forceinline__ int larfg(c8 alpha, float xnorm, c8 &tau, c8 &beta, c8 &scal) {
    return larfg_c(alpha, xnorm, tau, beta, scal);
}
__device__ __forceinline__ int larfg(c16 alpha, double xnorm, c16 &tau, c16 &beta, c16 &scal) {
    return larfg_c(alpha, xnorm, tau, beta, scal);
}

/* Workspace, per parity of j: the G lassq pairs, the G x n partial
 * products, row j; sections 16-byte aligned. */
template <typename T> struct qr_work {
    typedef typename real_of<T>::type R;
    R *ss;     /* [2][G][2] */
    T *part;   /* [2][G][n] */
    T *row;    /* [2][n] */
    __host__ __device__ qr_work(unsigned char *w, int G, int n) {
        ss = reinterpret_cast<R *>(w);
        part = reinterpret_cast<T *>(w + align16(4 * (size_t)G * sizeof(R)));
        row = reinterpret_cast<T *>(w + align16(4 * (size_t)G * sizeof(R)) +
                                    align16(2 * (size_t)G * n * sizeof(T)));
    }
    static size_t bytes(int G, int n) {
        return align16(4 * (size_t)G * sizeof(R)) + align16(2 * (size_t)G * n * sizeof(T)) +
               2 * (size_t)n * sizeof(T);
    }
};

template <typename T>
__global__ void __launch_bounds__(THREADS)
geqrf_panel_kernel(int64_t m, int n, T *A, int64_t lda, T *tau, int *info, int64_t rpc,
                   int in_smem, unsigned char *work) {
    typedef typename real_of<T>::type R;
    cg::grid_group grid = cg::this_grid();
    extern __shared__ __align__(16) unsigned char smem[];

    const int G = gridDim.x, b = blockIdx.x, t = threadIdx.x;
    const int tx = t % TX, ty = t / TX, lane = t % 32, warp = t / 32;
    const qr_work<T> x(work, G, n);

    const int64_t r0 = min64(m, (int64_t)b * rpc), r1 = min64(m, r0 + rpc);
    T *s_w = reinterpret_cast<T *>(smem); /* conj(tau) w_k, n elements */
    T *W = A + r0;                        /* this CTA's rows: W[(i - r0) + k ldw] */
    int64_t ldw = lda;
    if (in_smem) {
        W = s_w + n;
        ldw = rpc;
        copy_rows(W, ldw, A + r0, lda, r1 - r0, n);
        __syncthreads();
    }

    /* column j's v = scal x is written into the panel one column late,
     * beside the next column's partial products (which do not read it):
     * the update of column j reads x itself */
    int64_t vj = -1;
    T vscal = one<T>();
    const int kmax = (int)min64(m, (int64_t)n);
    for (int j = 0; j < kmax; j++) {
        const int par = j & 1;
        R *css = x.ss + (size_t)par * G * 2;
        T *cpart = x.part + (size_t)par * G * n;
        T *crow = x.row + (size_t)par * n;
        const bool own_j = j >= r0 && j < r1;
        const int64_t i0 = max64(r0, (int64_t)j + 1);
        const T *colj = W + (int64_t)j * ldw; /* colj[i - r0] is a_ij */
        if (vj >= 0)
            for (int64_t i = max64(r0, vj + 1) + t; i < r1; i += THREADS)
                W[(i - r0) + vj * ldw] = mul(vscal, W[(i - r0) + vj * ldw]);

        /* this CTA's partial products S_k = sum_i conj(x_i) a_ik, x =
         * A(j+1:m, j): warp w takes the columns k = j+1+w+WARPS c, c <
         * CPW, its lanes the rows; warp 0 also the lassq pair of x */
        {
            T acc[CPW];
#pragma unroll
            for (int c = 0; c < CPW; c++) acc[c] = zero<T>();
            R s = 0, q = 0;
            for (int64_t i = i0 + lane; i < r1; i += 32) {
                const T xi = colj[i - r0];
                if (warp == 0) ssq_elem(s, q, xi);
#pragma unroll
                for (int c = 0; c < CPW; c++) {
                    const int k = j + 1 + warp + WARPS * c;
                    if (k < n) acc[c] = cj_fma(xi, W[(i - r0) + (int64_t)k * ldw], acc[c]);
                }
            }
#pragma unroll
            for (int c = 0; c < CPW; c++) {
                const int k = j + 1 + warp + WARPS * c;
                const T sum = warp_sum(acc[c]);
                if (k < n && lane == 0) cpart[(size_t)b * n + k] = sum;
            }
            if (warp == 0) {
                warp_ssq(s, q);
                if (lane == 0) {
                    css[2 * b] = s;
                    css[2 * b + 1] = q;
                }
            }
        }
        if (own_j)
            for (int k = j + t; k < n; k += THREADS) crow[k] = W[(j - r0) + (int64_t)k * ldw];

        grid.sync();

        /* every warp: the G lassq pairs and, for its columns, the sums of
         * the G partial products (loads issued together, one L2 round
         * trip; the same order in every CTA, so every CTA gets the same
         * bits), then the reflector */
        R s = 0, q = 0;
        T acc[CPW];
#pragma unroll
        for (int c = 0; c < CPW; c++) acc[c] = zero<T>();
        {
            R ls[LPW], lq[LPW];
#pragma unroll
            for (int u = 0; u < LPW; u++) {
                const int c = lane + 32 * u;
                ls[u] = 0;
                lq[u] = 0;
                if (c < G) {
                    ls[u] = ldcg(css + 2 * c);
                    lq[u] = ldcg(css + 2 * c + 1);
#pragma unroll
                    for (int cc = 0; cc < CPW; cc++) {
                        const int k = j + 1 + warp + WARPS * cc;
                        if (k < n) acc[cc] = add(acc[cc], ldcg(cpart + (size_t)c * n + k));
                    }
                }
            }
#pragma unroll
            for (int u = 0; u < LPW; u++) ssq_merge(s, q, ls[u], lq[u]);
            for (int c = lane + 32 * LPW; c < G; c += 32) { /* grids beyond 32 LPW CTAs */
                ssq_merge(s, q, ldcg(css + 2 * c), ldcg(css + 2 * c + 1));
#pragma unroll
                for (int cc = 0; cc < CPW; cc++) {
                    const int k = j + 1 + warp + WARPS * cc;
                    if (k < n) acc[cc] = add(acc[cc], ldcg(cpart + (size_t)c * n + k));
                }
            }
        }
        warp_ssq(s, q);
        const R xnorm = s == 0 ? (R)0 : s * sqrt(q);
        const T alpha = ldcg(crow + j);
        T tj, beta, scal;
        const int apply = larfg(alpha, xnorm, tj, beta, scal);
        if (b == 0 && t == 0) tau[j] = tj;
        /* conj(tau) w_k, w_k = a_jk + conj(scal) S_k = (v^H A)_k */
        const T ctau = conj_(tj), cscal = conj_(scal);
#pragma unroll
        for (int cc = 0; cc < CPW; cc++) {
            const int k = j + 1 + warp + WARPS * cc;
            const T sum = warp_sum(acc[cc]);
            if (k < n && lane == 0) s_w[k] = mul(ctau, add(ldcg(crow + k), mul(cscal, sum)));
        }
        __syncthreads();
        if (apply) {
            /* A(j+1:, j+1:) -= v conj(tau) w, v = scal x; row j: a_jk -=
             * conj(tau) w_k, beta */
            for (int64_t i = i0 + tx; i < r1; i += TX) {
                const T v = mul(scal, colj[i - r0]);
                T *row = W + (i - r0);
                for (int k = j + 1 + ty; k < n; k += TY) row[k * ldw] = fnms(v, s_w[k], row[k * ldw]);
            }
            if (own_j) {
                T *row = W + (j - r0);
                for (int k = j + 1 + t; k < n; k += THREADS) row[k * ldw] = fnms(one<T>(), s_w[k], row[k * ldw]);
                if (t == 0) row[(int64_t)j * ldw] = beta;
            }
        }
        vj = apply ? j : -1;
        vscal = scal;
        __syncthreads(); /* column j + 1's rows and s_w are used next */
    }
    if (vj >= 0)
        for (int64_t i = max64(r0, vj + 1) + t; i < r1; i += THREADS)
            W[(i - r0) + vj * ldw] = mul(vscal, W[(i - r0) + vj * ldw]);
    if (in_smem) {
        __syncthreads();
        copy_rows(A + r0, lda, W, ldw, r1 - r0, n);
    }
    if (b == 0 && t == 0) *info = 0;
}

template <typename T>
int plan_typed(int64_t m, int64_t n, int max_ctas, hyla_cuda_qr_plan *pl) {
    static_assert(WARPS * CPW >= HYLA_CUDA_GEQRF_PANEL_MAX_N, "a warp's columns");
    const int rc = plan_grid(geqrf_panel_kernel<T>, m, n, sizeof(T), (size_t)n * sizeof(T),
                             max_ctas, pl);
    if (!rc) pl->work_bytes = qr_work<T>::bytes(pl->ctas, (int)n);
    return rc;
}

template <typename T>
int launch_typed(cudaStream_t s, const hyla_cuda_qr_plan *pl, void *A, int64_t lda, void *tau,
                 int *info, void *work) {
    int64_t m = pl->m, rpc = pl->rows_per_cta;
    int n = (int)pl->n, in_smem = pl->in_smem;
    T *a = static_cast<T *>(A), *tp = static_cast<T *>(tau);
    unsigned char *w = static_cast<unsigned char *>(work);
    void *args[] = {&m, &n, &a, &lda, &tp, &info, &rpc, &in_smem, &w};
    return launch_grid(geqrf_panel_kernel<T>, pl, args, s);
}

} // namespace

extern "C" int hyla_cuda_geqrf_panel_plan(int dtype, int64_t m, int64_t n, int max_ctas,
                                          hyla_cuda_qr_plan *plan) {
    if (!plan || m < 1 || n < 1) return HYLA_ERR_INVALID;
    if (n > HYLA_CUDA_GEQRF_PANEL_MAX_N) return HYLA_ERR_UNSUPPORTED;
    plan->dtype = dtype;
    return by_dtype(dtype, [&](auto z) { return plan_typed<decltype(z)>(m, n, max_ctas, plan); });
}

extern "C" int hyla_cuda_geqrf_panel(cudaStream_t s, const hyla_cuda_qr_plan *plan, void *A,
                                     int64_t lda, void *tau, int *info, void *work) {
    if (!plan) return HYLA_ERR_INVALID;
    return by_dtype(plan->dtype, [&](auto z) {
        return launch_typed<decltype(z)>(s, plan, A, lda, tau, info, work);
    });
}
