/* The divide-and-conquer merge ops on the GPU: the backend's dc_secular and
 * dc_vectors ops (backend.h, backend/ops/dc.h). The arithmetic is
 * backend/ops/t_dc_merge.h's, shared with the host; the host backend's version
 * (backend/host/host_dc.c) is the reference.
 *
 * One warp per root: its lanes split the sums over the k poles (a stride of
 * 32) and every lane gets each sum by shuffles, so the iteration's control
 * flow is the warp's, not a lane's. Every lane of a warp reads the same
 * poles at the same time, so dl and w come through the cache as broadcasts.
 * Work: O(k^2) per iteration of the secular solve (a handful of iterations),
 * O(k^2) for zh and for the eigenvector entries; the merge matrix is n^2
 * stores (zeros), k^2 scattered ones (the rows nd), and two loads and two
 * stores per column and rotation. */
#include <cfloat>
#include <cstdint>
#include <cuda_runtime.h>

#define hyla_complex_float float2
#define hyla_complex_double double2
#include "hyla.h"

#include "backend/cuda/k_dc.h"
#include "backend/ops/dc.h"

namespace {

const int WARPS = 4; /* warps (roots) per block */

template <typename R> __device__ __forceinline__ R warp_sum(R x) {
    for (int o = 16; o > 0; o /= 2) x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

template <typename R> __device__ __forceinline__ R warp_prod(R x) {
    for (int o = 16; o > 0; o /= 2) x *= __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}

} // namespace

#define DCM_HD __device__
#define DCM_J0 ((int64_t)(threadIdx.x & 31))
#define DCM_JS 32
#define DCM_SUM(x) warp_sum(x)
#define DCM_PROD(x) warp_prod(x)
#define DCM_SIMD(clause)

#include "backend/ops/dc_merge.h"

namespace {

/* the shared arithmetic by overloading on the type */
__device__ __forceinline__ int root(int64_t k, int64_t i, const float *dl, const float *w,
                                    float r2, int64_t *org, float *tau) {
    return secular_root_s(k, i, dl, w, r2, org, tau);
}
__device__ __forceinline__ int root(int64_t k, int64_t i, const double *dl, const double *w,
                                    double r2, int64_t *org, double *tau) {
    return secular_root_d(k, i, dl, w, r2, org, tau);
}
__device__ __forceinline__ float loewner(int64_t k, int64_t m, const float *dl, const float *w,
                                         float r2, const int64_t *org, const float *tau) {
    return loewner_one_s(k, m, dl, w, r2, org, tau);
}
__device__ __forceinline__ double loewner(int64_t k, int64_t m, const double *dl,
                                          const double *w, double r2, const int64_t *org,
                                          const double *tau) {
    return loewner_one_d(k, m, dl, w, r2, org, tau);
}
__device__ __forceinline__ float entry(float zhm, float dlm, float oi, float ti) {
    return vec_entry_s(zhm, dlm, oi, ti);
}
__device__ __forceinline__ double entry(double zhm, double dlm, double oi, double ti) {
    return vec_entry_d(zhm, dlm, oi, ti);
}

/* one warp per root: org, tau; info := 1 when one fails */
template <typename R>
__global__ void __launch_bounds__(32 * WARPS)
    k_roots(int k, const R *__restrict__ dl, const R *__restrict__ w, R r2, int64_t *org, R *tau,
            int *info) {
    const int i = blockIdx.x * WARPS + (int)(threadIdx.x >> 5);
    if (i >= k) return;
    int64_t o;
    R t;
    const int fail = root(k, i, dl, w, r2, &o, &t);
    if ((threadIdx.x & 31) == 0) {
        org[i] = o;
        tau[i] = t;
        if (fail) *info = 1;
    }
}

/* one warp per pole: zh (after every root) */
template <typename R>
__global__ void __launch_bounds__(32 * WARPS)
    k_loewner(int k, const R *__restrict__ dl, const R *__restrict__ w, R r2,
              const int64_t *__restrict__ org, const R *__restrict__ tau, R *zh) {
    const int m = blockIdx.x * WARPS + (int)(threadIdx.x >> 5);
    if (m >= k) return;
    const R z = loewner(k, m, dl, w, r2, org, tau);
    if ((threadIdx.x & 31) == 0) zh[m] = z;
}

/* one warp per root: its normalized eigenvector into column pos[i] of M on
 * the rows nd (M zero beforehand; M holds the columns c0 .. c1 - 1) */
template <typename R>
__global__ void __launch_bounds__(32 * WARPS)
    k_columns(int k, const R *__restrict__ dl, const int64_t *__restrict__ org,
              const R *__restrict__ tau, const R *__restrict__ zh, const int64_t *__restrict__ nd,
              const int64_t *__restrict__ pos, R *M, int64_t ldm, int64_t c0, int64_t c1) {
    const int i = blockIdx.x * WARPS + (int)(threadIdx.x >> 5), lane = threadIdx.x & 31;
    if (i >= k || pos[i] < c0 || pos[i] >= c1) return;
    const R oi = dl[org[i]], ti = tau[i];
    R nrm = 0;
    for (int m = lane; m < k; m += 32) {
        const R u = entry(zh[m], dl[m], oi, ti);
        nrm += u * u;
    }
    nrm = 1 / sqrt(warp_sum(nrm));
    R *col = M + (pos[i] - c0) * ldm;
    for (int m = lane; m < k; m += 32) col[nd[m]] = entry(zh[m], dl[m], oi, ti) * nrm;
}

/* the deflated unit columns */
template <typename R>
__global__ void k_units(int n, int k, const int64_t *__restrict__ defl,
                        const int64_t *__restrict__ pos, R *M, int64_t ldm, int64_t c0,
                        int64_t c1) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n - k && pos[k + t] >= c0 && pos[k + t] < c1) M[defl[t] + (pos[k + t] - c0) * ldm] = 1;
}

/* M := G_1 ... G_nrot M, one thread per column (nc of them), the last
 * rotation first */
template <typename R>
__global__ void k_rotate(int nc, int nrot, const int64_t *__restrict__ rp,
                         const int64_t *__restrict__ rj, const R *__restrict__ rc,
                         const R *__restrict__ rs, R *M, int64_t ldm) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= nc) return;
    R *col = M + (int64_t)c * ldm;
    for (int r = nrot - 1; r >= 0; r--) {
        const int64_t p = rp[r], j = rj[r];
        const R x = col[p], y = col[j], cs = rc[r], sn = rs[r];
        col[p] = -sn * x + cs * y;
        col[j] = cs * x + sn * y;
    }
}

int launched(void) { return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE; }

template <typename R> int secular(cudaStream_t s, const hyla_dc_args *a) {
    if (cudaMemsetAsync(a->info, 0, sizeof(int), s) != cudaSuccess) return HYLA_ERR_DEVICE;
    const int k = (int)a->k;
    if (k == 0) return 0;
    const unsigned blocks = (unsigned)((k + WARPS - 1) / WARPS);
    const R *dl = static_cast<const R *>(a->dl), *w = static_cast<const R *>(a->w);
    R *tau = static_cast<R *>(a->tau);
    k_roots<R><<<blocks, 32 * WARPS, 0, s>>>(k, dl, w, (R)a->r2, a->org, tau, a->info);
    k_loewner<R><<<blocks, 32 * WARPS, 0, s>>>(k, dl, w, (R)a->r2, a->org, tau,
                                               static_cast<R *>(a->zh));
    return launched();
}

template <typename R> int vectors(cudaStream_t s, const hyla_dc_args *a) {
    const int n = (int)a->n, k = (int)a->k;
    const int64_t c0 = a->nc ? a->c0 : 0, nc = a->nc ? a->nc : n;
    if (n == 0) return 0;
    R *M = static_cast<R *>(a->M);
    if (cudaMemset2DAsync(M, sizeof(R) * (size_t)a->ldm, 0, sizeof(R) * (size_t)n, (size_t)nc, s) !=
        cudaSuccess)
        return HYLA_ERR_DEVICE;
    if (k > 0)
        k_columns<R><<<(unsigned)((k + WARPS - 1) / WARPS), 32 * WARPS, 0, s>>>(
            k, static_cast<const R *>(a->dl), a->org, static_cast<const R *>(a->tau),
            static_cast<const R *>(a->zh), a->nd, a->pos, M, a->ldm, c0, c0 + nc);
    if (k < n)
        k_units<R><<<(unsigned)((n - k + 255) / 256), 256, 0, s>>>(n, k, a->defl, a->pos, M,
                                                                    a->ldm, c0, c0 + nc);
    if (a->nrot > 0)
        k_rotate<R><<<(unsigned)((nc + 127) / 128), 128, 0, s>>>(
            (int)nc, (int)a->nrot, a->rp, a->rj, static_cast<const R *>(a->rc),
            static_cast<const R *>(a->rs), M, a->ldm);
    return launched();
}

/* Under CUDA's lazy loading (the default) a kernel is loaded at its first
 * launch, and loading one may wait for every kernel already running on the
 * device. The merges of divide and conquer start while the back
 * transformations keep the device busy for seconds; so their kernels are
 * loaded here, when the device is created. */
template <typename R> int preload_type(void) {
    cudaFuncAttributes fa;
    const void *const k[] = {(const void *)k_roots<R>, (const void *)k_loewner<R>,
                             (const void *)k_columns<R>, (const void *)k_units<R>,
                             (const void *)k_rotate<R>};
    for (const void *f : k)
        if (cudaFuncGetAttributes(&fa, f) != cudaSuccess) return HYLA_ERR_DEVICE;
    return 0;
}

} // namespace

extern "C" int hyla_cuda_dc_preload(void) {
    const int rc = preload_type<float>();
    return rc ? rc : preload_type<double>();
}

extern "C" int hyla_cuda_dc_secular(cudaStream_t s, int dtype, const hyla_dc_args *a) {
    return dtype == HYLA_S ? secular<float>(s, a) : secular<double>(s, a);
}

extern "C" int hyla_cuda_dc_vectors(cudaStream_t s, int dtype, const hyla_dc_args *a) {
    return dtype == HYLA_S ? vectors<float>(s, a) : vectors<double>(s, a);
}
