/* Q2 of the bulge chase applied in one kernel: the backend's q2_apply op
 * (backend.h; the store's layout: backend/ops/q2_args.h). The host reference,
 * in the plain sequential order, is backend/host/t_host_q2.c.
 *
 * Why a kernel. Applied wave by wave with batched GEMMs (eig/psb2st.c), each
 * wave reads and writes the whole of Z once: n/nb + n/kd waves of 2 n^2
 * elements, bandwidth-bound (one H100 measured about 10 TFLOP/s), and the
 * GEMMs also multiply V's zeros (V is a staircase, half zero for nb = kd).
 * Here one CTA owns a slab of W columns of Z (columns are independent) and
 * walks the groups in a valid order, keeping a window of Z's rows in shared
 * memory across K sweep groups at a time, and skipping V's zeros:
 *   - flops: 4 kd nb W per group and slab (the staircase) plus 2 nb^2 W (T)
 *     instead of 4 ldv nb W;
 *   - Z traffic: every K sweep groups stream the slab once: n^2/(nb K) x
 *     2 n elements in all instead of (n/nb + n/kd) x 2 n^2;
 *   - V and T: read by every slab, n/W times in all, from L2 when the
 *     slabs run in step (they start together unless identity skips).
 *
 * Order. Within sweep groups [slo, shi], group (s, m) is applied at wave
 * t = nsg-1-s+m, waves in increasing order (the reordering eig/psb2st.c
 * proves valid); batches of K sweep groups go from the last sweep group to
 * the first, each completed before the next, which is the sequential
 * order between batches. At wave t the active groups are s in [sa, sb]
 * (m >= 0 and m < M(s): an interval, since m grows and M shrinks with s),
 * at rows row0(s, t) = s (nb+kd) + (t-nsg+1) kd + 1, nb+kd apart: disjoint.
 *
 * Window. Rows [lo, hi) of the slab are in shared memory, row r in slot
 * r mod H. Wave t needs [top(t), bot(t)) = [row0(sa, t), min(n, row0(sb,
 * t)+ldv)); rows above top(t+1) are done for this batch (later waves only
 * go down) and are written back at the end of wave t. The rows wave t+1
 * adds (below, and above while sweep groups join the batch) are requested
 * at the start of wave t, asynchronously (cp.async), so they arrive while
 * wave t computes. hi never exceeds row0(shi, t+1)+ldv <= top(t) +
 * (K-1)(nb+kd) + ldv + kd = top(t) + H, so slots are unique. Write-backs
 * finish (barrier) before requests reuse their slots.
 *
 * A group on the slab: its V and T (contiguous in the store) are requested
 * into one of two shared buffers while the group before computes; then
 * W1 = V^H Z(rows) over the staircase (column c: rows c..c+kd-1), W2 = T W1,
 * Z(rows) -= V W2, with threads owning register tiles of TC x TJ (W1, W2)
 * and TR x TJ (Z) outputs. Slabs are W = 64 columns wide for real types
 * (256 threads), 32 for complex ones (128 threads). */
#include <cstdint>
#include <cuda_runtime.h>

#define hyla_complex_float float2
#define hyla_complex_double double2
#include "hyla.h"

#include "backend/cuda/k_q2.h"

namespace {

const int TC = 2, TJ = 4, TR = 4;

#include "backend/cuda/k_cx.cuh"

/* Slab width and threads per CTA of a type */
template <typename T> struct shape { static const int W = 64, NT = 256; };
template <typename R> struct shape<cx<R>> { static const int W = 32, NT = 128; };

/* ---- asynchronous global -> shared copies of one element ---- */
template <int B> __device__ __forceinline__ void cp_async(void *dst, const void *src) {
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"(B));
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/* The store's geometry (backend/ops/q2_args.h) and the window's. */
struct geo {
    int64_t n, kd, nb, ldv, nsg, gsz, ncols, ldz;
    const int64_t *woff;
    int identity, K, H;
};

/* M(s): steps of sweep s*nb, the groups of sweep group s */
__device__ __forceinline__ int64_t steps_of(const geo &g, int64_t s) {
    return (g.n - 1 - s * g.nb + g.kd - 1) / g.kd;
}
/* first row of group (s, m) with m = t - (nsg-1-s) */
__device__ __forceinline__ int64_t row0_of(const geo &g, int64_t s, int64_t t) {
    return s * g.nb + (t - (g.nsg - 1 - s)) * g.kd + 1;
}
/* element offset of group (s, m) in the store */
__device__ __forceinline__ int64_t group_of(const geo &g, int64_t s, int64_t t) {
    const int64_t u = g.nsg - 1 - s, umax = t < g.nsg - 1 ? t : g.nsg - 1;
    return g.woff[t] + (umax - u) * g.gsz;
}
/* The active sweep groups [sa, sb] of wave t in the batch [slo, shi]; false
 * when there are none. */
__device__ __forceinline__ bool wave_of(const geo &g, int64_t slo, int64_t shi, int64_t t,
                                        int64_t *sa, int64_t *sb) {
    *sa = slo > g.nsg - 1 - t ? slo : g.nsg - 1 - t;
    *sb = shi;
    while (*sb >= *sa && t - (g.nsg - 1 - *sb) >= steps_of(g, *sb)) (*sb)--;
    return *sb >= *sa;
}

/* requests rows [a, b) of the slab Zg into the window (lanes run down a
 * column: coalesced in Z) */
template <typename T, int W, int NT>
__device__ void load_rows(const geo &g, const T *Zg, T *Zs, int64_t a, int64_t b, int wc) {
    const int L = (int)(b - a);
    for (int idx = threadIdx.x; idx < L * wc; idx += NT) {
        const int i = idx % L, j = idx / L, r = (int)a + i;
        cp_async<sizeof(T)>(Zs + (r % g.H) * (W + 1) + j, Zg + r + (int64_t)j * g.ldz);
    }
}
/* writes rows [a, b) of the window back to the slab */
template <typename T, int W, int NT>
__device__ void store_rows(const geo &g, T *Zg, const T *Zs, int64_t a, int64_t b, int wc) {
    const int L = (int)(b - a);
    for (int idx = threadIdx.x; idx < L * wc; idx += NT) {
        const int i = idx % L, j = idx / L, r = (int)a + i;
        Zg[r + (int64_t)j * g.ldz] = Zs[(r % g.H) * (W + 1) + j];
    }
}
/* requests group (s, t)'s V and T into Vs */
template <typename T, int NT>
__device__ void load_group(const geo &g, const T *store, int64_t s, int64_t t, T *Vs) {
    const T *src = store + group_of(g, s, t);
    for (int i = threadIdx.x; i < (int)g.gsz; i += NT) cp_async<sizeof(T)>(Vs + i, src + i);
}

/* Group (s, m = t-(nsg-1-s)) on the window, its V and T in Vs (ldv*nb, then
 * nb*nb), Ws nb*W. The caller has synchronized; ends with a barrier. */
template <typename T, int W, int NT>
__device__ void apply_group(const geo &g, int64_t s, int64_t t, const T *Vs, T *Ws, T *Zs) {
    const int ZLD = W + 1;
    const int64_t r0 = row0_of(g, s, t);
    const int h = (int)(g.n - r0 < g.ldv ? g.n - r0 : g.ldv);
    const int nb = (int)g.nb, kd = (int)g.kd, ldv = (int)g.ldv, H = g.H;
    const T *Ts = Vs + ldv * nb;
    const int sbase = (int)r0 % H; /* slot of row r0 + r: sbase + r, less H past the end */

    /* W1 = V^H Z(rows): one TC x TJ tile per thread (nb <= 32: 4 W tiles = NT) */
    /* a thread's columns are jl + njb jj, jj < TJ: the lanes of a warp read
     * consecutive elements of a row (no bank conflicts) */
    const int njb = W / TJ, ncb = (nb + TC - 1) / TC;
    const int cb = threadIdx.x / njb, ca = cb * TC, jl = threadIdx.x % njb;
    const bool mine = cb < ncb;
    if (mine) {
        T acc[TC][TJ];
#pragma unroll
        for (int i = 0; i < TC; i++)
#pragma unroll
            for (int jj = 0; jj < TJ; jj++) acc[i][jj] = zero_of<T>();
        const int rend = min(ca + TC - 1 + kd, h);
        for (int r = ca; r < rend; r++) {
            const int sl = sbase + r >= H ? sbase + r - H : sbase + r;
            const T *zr = Zs + sl * ZLD + jl;
            T z[TJ];
#pragma unroll
            for (int jj = 0; jj < TJ; jj++) z[jj] = zr[jj * njb];
#pragma unroll
            for (int i = 0; i < TC; i++) {
                const int c = ca + i;
                const T v = c < nb ? conj_of(Vs[r + c * ldv]) : zero_of<T>();
#pragma unroll
                for (int jj = 0; jj < TJ; jj++) acc[i][jj] += v * z[jj];
            }
        }
#pragma unroll
        for (int i = 0; i < TC; i++)
            if (ca + i < nb)
#pragma unroll
                for (int jj = 0; jj < TJ; jj++) Ws[(ca + i) * W + jl + jj * njb] = acc[i][jj];
    }
    __syncthreads();

    /* W2 = T W1 (T upper), through registers */
    T b[TC][TJ];
#pragma unroll
    for (int i = 0; i < TC; i++)
#pragma unroll
        for (int jj = 0; jj < TJ; jj++) b[i][jj] = zero_of<T>();
    if (mine) {
#pragma unroll
        for (int i = 0; i < TC; i++) {
            const int c = ca + i;
            if (c >= nb) continue;
            for (int c2 = c; c2 < nb; c2++) {
                const T tv = Ts[c + c2 * nb];
#pragma unroll
                for (int jj = 0; jj < TJ; jj++) b[i][jj] += tv * Ws[c2 * W + jl + jj * njb];
            }
        }
    }
    __syncthreads();
    if (mine) {
#pragma unroll
        for (int i = 0; i < TC; i++)
            if (ca + i < nb)
#pragma unroll
                for (int jj = 0; jj < TJ; jj++) Ws[(ca + i) * W + jl + jj * njb] = b[i][jj];
    }
    __syncthreads();

    /* Z(rows) -= V W2: TR x TJ tiles; row r takes columns c in [r-kd+1, r] */
    const int nrb = (h + TR - 1) / TR;
    for (int tl = threadIdx.x; tl < nrb * njb; tl += NT) {
        const int ra = (tl / njb) * TR, jz = tl % njb;
        T acc[TR][TJ];
#pragma unroll
        for (int i = 0; i < TR; i++)
#pragma unroll
            for (int jj = 0; jj < TJ; jj++) acc[i][jj] = zero_of<T>();
        const int clo = ra - kd + 1 > 0 ? ra - kd + 1 : 0;
        const int chi = ra + TR - 1 < nb - 1 ? ra + TR - 1 : nb - 1;
        for (int c = clo; c <= chi; c++) {
            T w[TJ];
#pragma unroll
            for (int jj = 0; jj < TJ; jj++) w[jj] = Ws[c * W + jz + jj * njb];
#pragma unroll
            for (int i = 0; i < TR; i++) {
                /* rows past ldv read T or the next buffer: their sums are dropped */
                const T v = Vs[ra + i + c * ldv];
#pragma unroll
                for (int jj = 0; jj < TJ; jj++) acc[i][jj] += v * w[jj];
            }
        }
#pragma unroll
        for (int i = 0; i < TR; i++) {
            if (ra + i >= h) break;
            const int sl = sbase + ra + i >= H ? sbase + ra + i - H : sbase + ra + i;
            T *zr = Zs + sl * ZLD + jz;
#pragma unroll
            for (int jj = 0; jj < TJ; jj++) zr[jj * njb] -= acc[i][jj];
        }
    }
    __syncthreads();
}

template <typename T, int W, int NT>
__global__ void __launch_bounds__(NT) q2_kernel(geo g, const T *__restrict__ store, T *Z) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *Vb[2];
    Vb[0] = reinterpret_cast<T *>(smem_raw);  /* V then T of a group, twice */
    Vb[1] = Vb[0] + g.gsz;
    T *Ws = Vb[1] + g.gsz;                    /* nb*W */
    T *Zs = Ws + g.nb * W;                    /* H*(W+1) */
    /* the widest slabs first: with identity they have the most work */
    const int64_t slab = (int64_t)gridDim.x - 1 - blockIdx.x, c0 = slab * W;
    const int wc = (int)(g.ncols - c0 < W ? g.ncols - c0 : W);
    int64_t smax = g.nsg - 1;
    if (g.identity) {
        /* sweep group s changes column j only once j >= s nb + 1 */
        const int64_t lim = c0 + wc - 2;
        if (lim < 0) return;
        smax = lim / g.nb < smax ? lim / g.nb : smax;
    }
    T *Zg = Z + c0 * g.ldz;
    int buf = 0;
    for (int64_t shi = smax; shi >= 0; shi -= g.K) {
        const int64_t slo = shi - g.K + 1 > 0 ? shi - g.K + 1 : 0;
        const int64_t t0 = g.nsg - 1 - shi, t1 = g.nsg - 1 - slo + steps_of(g, slo);
        int64_t sa, sb;
        wave_of(g, slo, shi, t0, &sa, &sb); /* wave t0 has sweep group shi, step 0 */
        int64_t lo = row0_of(g, sa, t0), hi = row0_of(g, sb, t0) + g.ldv;
        hi = hi < g.n ? hi : g.n;
        load_rows<T, W, NT>(g, Zg, Zs, lo, hi, wc);
        load_group<T, NT>(g, store, sb, t0, Vb[buf]);
        cp_commit();
        for (int64_t t = t0; t < t1; t++) {
            if (!wave_of(g, slo, shi, t, &sa, &sb)) continue;
            /* the rows wave t+1 adds, requested now */
            int64_t na = 0, nbw = -1;
            const bool more = t + 1 < t1 && wave_of(g, slo, shi, t + 1, &na, &nbw);
            int64_t top1 = hi;
            if (more) {
                top1 = row0_of(g, na, t + 1);
                int64_t bot1 = row0_of(g, nbw, t + 1) + g.ldv;
                bot1 = bot1 < g.n ? bot1 : g.n;
                if (top1 < lo) {
                    load_rows<T, W, NT>(g, Zg, Zs, top1, lo, wc);
                    lo = top1;
                }
                if (bot1 > hi) {
                    load_rows<T, W, NT>(g, Zg, Zs, hi, bot1, wc);
                    hi = bot1;
                }
            }
            cp_commit();
            for (int64_t s = sb; s >= sa; s--) {
                /* the next group's V and T into the other buffer */
                const bool next = s > sa || more;
                if (next) load_group<T, NT>(g, store, s > sa ? s - 1 : nbw, s > sa ? t : t + 1,
                                            Vb[buf ^ 1]);
                cp_commit();
                cp_wait<1>(); /* all but that request */
                __syncthreads();
                apply_group<T, W, NT>(g, s, t, Vb[buf], Ws, Zs);
                buf ^= 1;
            }
            /* rows above wave t+1's are done for this batch */
            if (top1 > lo) {
                const int64_t e = top1 < hi ? top1 : hi;
                store_rows<T, W, NT>(g, Zg, Zs, lo, e, wc);
                lo = top1;
                __syncthreads();
            }
        }
        cp_wait<0>();
        __syncthreads();
        store_rows<T, W, NT>(g, Zg, Zs, lo, hi, wc);
        __syncthreads();
    }
}

template <typename T>
int launch(cudaStream_t st, geo g, const void *store, void *Z) {
    const int W = shape<T>::W, NT = shape<T>::NT;
    int dev, optin = 0, per_sm = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess ||
        cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) !=
            cudaSuccess)
        return HYLA_ERR_DEVICE;
    const size_t es = sizeof(T), fixed = (size_t)(2 * g.gsz + g.nb * W) * es;
    const size_t row = (size_t)(W + 1) * es, step = (size_t)(g.nb + g.kd) * row;
    const size_t one = fixed + (size_t)(g.ldv + g.kd) * row; /* K = 1 */
    /* K sweep groups per window: as many as leave two CTAs per SM room,
     * or, when that is fewer than 3, as many as one CTA may take */
    const size_t budget2 = (size_t)per_sm / 2 - 2048, budget1 = (size_t)optin;
    if (one > budget1) return HYLA_ERR_UNSUPPORTED;
    int64_t K = one <= budget2 ? 1 + (int64_t)((budget2 - one) / step) : 0;
    if (K < 3) K = 1 + (int64_t)((budget1 - one) / step);
    if (K > g.nsg) K = g.nsg;
    if (K < 1) K = 1;
    g.K = (int)K;
    g.H = (int)((K - 1) * (g.nb + g.kd) + g.ldv + g.kd);
    const size_t smem = fixed + (size_t)g.H * row;
    if (cudaFuncSetAttribute(q2_kernel<T, W, NT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)smem) != cudaSuccess)
        return HYLA_ERR_DEVICE;
    const int64_t slabs = (g.ncols + W - 1) / W;
    q2_kernel<T, W, NT><<<(unsigned)slabs, NT, smem, st>>>(g, static_cast<const T *>(store),
                                                           static_cast<T *>(Z));
    return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
}

} // namespace

extern "C" int hyla_cuda_q2_apply(cudaStream_t s, int dtype, int64_t n, int64_t kd, int64_t nb,
                                  int64_t nsg, const int64_t *woff, const void *store,
                                  int64_t ncols, void *Z, int64_t ldz, int identity) {
    if (nb > HYLA_CUDA_Q2_MAX_NB || kd > HYLA_CUDA_Q2_MAX_KD || n >= INT32_MAX ||
        (ncols + 31) / 32 >= INT32_MAX)
        return HYLA_ERR_UNSUPPORTED;
    geo g;
    g.n = n, g.kd = kd, g.nb = nb, g.ldv = kd + nb - 1, g.nsg = nsg;
    g.gsz = g.ldv * nb + nb * nb, g.ncols = ncols, g.ldz = ldz;
    g.woff = woff, g.identity = identity, g.K = 1, g.H = (int)(g.ldv + kd);
    switch (dtype) {
    case HYLA_S: return launch<float>(s, g, store, Z);
    case HYLA_D: return launch<double>(s, g, store, Z);
    case HYLA_C: return launch<cx<float>>(s, g, store, Z);
    case HYLA_Z: return launch<cx<double>>(s, g, store, Z);
    default: return HYLA_ERR_INVALID;
    }
}
