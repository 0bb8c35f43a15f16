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
 * and TR x TJ (Z) outputs. Slabs are W = 64 columns wide for float
 * (256 threads), 32 for complex ones (128 threads).
 *
 * Double runs the three products on the FP64 tensor cores (mma m8n8k4,
 * apply_group_mma): slabs of W = 32 columns, sixteen warps. Every operand is
 * read from shared memory in the fragment's layout, so the buffers are
 * padded for distinct banks: V's columns are vld = roundup(ldv, 8) + 4
 * apart (vld = 4 mod 8 words), T's tld = nbp + 4, the window's rows and
 * W1, W2's W + 4; nbp = roundup(nb, 8) and the padding is zero, so the
 * fragments past nb columns or ldv rows multiply zeros. At kd = 64, nb = 32
 * a group on a slab is 800 mma (0.4 Mflop) over the CTA's sixteen warps. */
#include <cstdint>
#include <cuda_runtime.h>

#define hyla_complex_float float2
#define hyla_complex_double double2
#include "hyla.h"

#include "backend/cuda/k_q2.h"

namespace {

const int TC = 2, TJ = 4, TR = 4;

#include "backend/cuda/k_cx.cuh"

/* Slab width and threads per CTA of a type; MMA: the tensor-core products */
template <typename T> struct shape {
    static const int W = 64, NT = 256;
    static const bool MMA = false;
};
template <> struct shape<double> {
    static const int W = 32, NT = 512;
    static const bool MMA = true;
};
template <typename R> struct shape<cx<R>> {
    static const int W = 32, NT = 128;
    static const bool MMA = false;
};

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
    int nbp, vld, tld, zld, wsld; /* shared-memory layout (see the head of the file) */
};

/* M(s): steps of sweep s*nb, the groups of sweep group s */
__device__ __forceinline__ int64_t steps_of(const geo &g, int64_t s) {
    /* 32-bit division: n < 2^31 (hyla_cuda_q2_apply) */
    return (int)(g.n - 1 - s * g.nb + g.kd - 1) / (int)g.kd;
}
/* first row of group (s, m) with m = t - (nsg-1-s) */
__device__ __forceinline__ int64_t row0_of(const geo &g, int64_t s, int64_t t) {
    return s * g.nb + (t - (g.nsg - 1 - s)) * g.kd + 1;
}
/* element offset of group (s, m) in the store, wo = woff[t] */
__device__ __forceinline__ int64_t group_of(const geo &g, int64_t s, int64_t t, int64_t wo) {
    const int64_t u = g.nsg - 1 - s, umax = t < g.nsg - 1 ? t : g.nsg - 1;
    return wo + (umax - u) * g.gsz;
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

/* requests rows [a, b) of the slab Zg into the window: NT/W threads per
 * column, each down every (NT/W)-th row (consecutive threads read
 * consecutive rows of Z), the slot tracked without a division per row */
template <typename T, int W, int NT>
__device__ __forceinline__ void load_rows(const geo &g, const T *Zg, T *Zs, int64_t a, int64_t b,
                                          int wc) {
    const int P = NT / W, j = threadIdx.x / P, i0 = (int)a + threadIdx.x % P;
    if (j >= wc) return;
    int sl = i0 % g.H;
    const T *src = Zg + (int64_t)j * g.ldz;
    for (int r = i0; r < (int)b; r += P) {
        cp_async<sizeof(T)>(Zs + sl * g.zld + j, src + r);
        sl += P;
        if (sl >= g.H) sl -= g.H;
    }
}
/* writes rows [a, b) of the window back to the slab (as load_rows) */
template <typename T, int W, int NT>
__device__ __forceinline__ void store_rows(const geo &g, T *Zg, const T *Zs, int64_t a, int64_t b,
                                           int wc) {
    const int P = NT / W, j = threadIdx.x / P, i0 = (int)a + threadIdx.x % P;
    if (j >= wc) return;
    int sl = i0 % g.H;
    T *dst = Zg + (int64_t)j * g.ldz;
    for (int r = i0; r < (int)b; r += P) {
        dst[r] = Zs[sl * g.zld + j];
        sl += P;
        if (sl >= g.H) sl -= g.H;
    }
}
/* requests group (s, t)'s V and T into Vs (wo = woff[t]): V's column c at
 * Vs + c vld, T at Vs + vld nbp, its column at tld (the padding is left
 * alone); warps take columns, lanes rows */
template <typename T, int NT>
__device__ __forceinline__ void load_group(const geo &g, const T *store, int64_t s, int64_t t,
                                           int64_t wo, T *Vs) {
    const T *src = store + group_of(g, s, t, wo);
    const int ldv = (int)g.ldv, nb = (int)g.nb, lane = threadIdx.x & 31;
    T *Ts = Vs + g.vld * g.nbp;
    for (int c = threadIdx.x >> 5; c < nb; c += NT / 32) {
        for (int r = lane; r < ldv; r += 32)
            cp_async<sizeof(T)>(Vs + r + c * g.vld, src + r + c * ldv);
        for (int r = lane; r < nb; r += 32)
            cp_async<sizeof(T)>(Ts + r + c * g.tld, src + ldv * nb + r + c * nb);
    }
}

/* Group (s, m = t-(nsg-1-s)) on the window, its V and T in Vs (ldv*nb, then
 * nb*nb), Ws nb*W. The caller has synchronized; ends with a barrier. */
template <typename T, int W, int NT>
__device__ __forceinline__ void apply_group(const geo &g, int64_t s, int64_t t, const T *Vs, T *Ws,
                                            T *Zs) {
    const int ZLD = g.zld;
    const int64_t r0 = row0_of(g, s, t);
    const int h = (int)(g.n - r0 < g.ldv ? g.n - r0 : g.ldv);
    const int nb = (int)g.nb, kd = (int)g.kd, ldv = g.vld, H = g.H;
    const T *Ts = Vs + ldv * g.nbp;
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
                const T tv = Ts[c + c2 * g.tld];
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

/* D (8 x 8) += A (8 x 4) B (4 x 8) on one warp, FP64: lane l holds A(l/4,
 * l%4), B(l%4, l/4) and D(l/4, 2(l%4) + {0, 1}). Before sm_80 the same
 * product through shuffles. */
__device__ __forceinline__ void dmma(double &d0, double &d1, double a, double b) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                 : "+d"(d0), "+d"(d1)
                 : "d"(a), "d"(b));
#else
    const int l = threadIdx.x & 31, i = l >> 2, j = 2 * (l & 3);
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const double ak = __shfl_sync(0xffffffffu, a, 4 * i + k);
        const double b0 = __shfl_sync(0xffffffffu, b, 4 * j + k);
        const double b1 = __shfl_sync(0xffffffffu, b, 4 * (j + 1) + k);
        d0 += ak * b0, d1 += ak * b1;
    }
#endif
}

/* apply_group for double on the tensor cores (W = 32, sixteen warps): the
 * same three products, W1 = V^H Z(rows), W2 = T W1, Z(rows) -= V W2, as
 * 8 x 8 output tiles. Warp w owns the tiles of columns 8 (w%4) .. +7 and,
 * for W1 and W2, the rows 8 (w/4) .. +7; for Z the row tiles w/4, w/4 + 4,
 * w/4 + 8. W1 (in W1s) and -W2 (in W2s) pass through shared memory, rows
 * of wsld. V's rows past the group's last (rows from n on) are zero in the
 * store, so window rows there (finite: zeros or rows of Z) add nothing,
 * and they are never written.
 *
 * KD = 64, NB = 32 (ldv 95, vld 100, tld 36; the tuning table's band width
 * with --back2-nb 32) run with no conditions around the products (one costs
 * a warp synchronization and a branch per product): every warp runs 18
 * steps for W1 (V's column i has rows i .. i+63: 71 rows from the tile's
 * first), 8 for W2 (T's zeros below its diagonal included) and 8 for each
 * of its three row tiles of Z (V's zeros outside the staircase included;
 * tiles past the group's last row compute and are not stored). KD = NB = 0:
 * any kd <= 64, nb <= 32 from g, the steps bounded by the staircases. The
 * caller has synchronized; ends with a barrier. */
template <int KD, int NB>
__device__ __forceinline__ void apply_group_mma(const geo &g, int64_t s, int64_t t,
                                                const double *Vs, double *W1s, double *W2s,
                                                double *Zs) {
    constexpr bool FIX = KD > 0;
    static_assert(!FIX || (KD == 64 && NB == 32), "the unrolled shape is kd 64, nb 32");
    constexpr int NS1 = FIX ? 18 : (HYLA_CUDA_Q2_MAX_KD + 7 + 3) / 4;
    constexpr int NS2 = (HYLA_CUDA_Q2_MAX_NB + 7) / 8 * 2;
    const int kd = FIX ? 64 : (int)g.kd, ldv = FIX ? 95 : (int)g.ldv;
    const int nbp = FIX ? 32 : g.nbp, vld = FIX ? 100 : g.vld, tld = FIX ? 36 : g.tld;
    constexpr int ZLD = 36, WS = 36; /* W + 4 */
    const int r0 = (int)row0_of(g, s, t);
    const int h = g.n - r0 < ldv ? (int)g.n - r0 : ldv;
    const int H = g.H;
    const double *Ts = Vs + vld * nbp;
    const int sbase = r0 % H;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, lr = lane >> 2, lc = lane & 3;
    const int a = warp >> 2, j0 = (warp & 3) * 8; /* row tile (W1, W2), first column */

    /* W1 = V^H Z(rows): two chains of accumulators (even and odd steps) */
    if (FIX || 8 * a < nbp) {
        double c[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
        const int ns = FIX ? NS1 : (min(8 * a + 7 + kd, ldv) - 8 * a + 3) / 4;
        const double *vp = Vs + (8 * a + lr) * vld + 8 * a + lc;
        /* this lane's rows 8a + lc + 4 q: slots from sl, wrapping once */
        const int sl = sbase + 8 * a + lc, wrap = sl >= H ? NS1 + 1 : (H - sl + 3) / 4;
        const double *zp = Zs + (sl >= H ? sl - H : sl) * ZLD + j0 + lr;
#pragma unroll
        for (int q = 0; q < NS1; q++) {
            if (FIX || q < ns) {
                const double *z = zp + 4 * q * ZLD - (q >= wrap ? H * ZLD : 0);
                dmma(c[q & 1][0], c[q & 1][1], vp[4 * q], z[0]);
            }
        }
        double *w = W1s + (8 * a + lr) * WS + j0 + 2 * lc;
        w[0] = c[0][0] + c[1][0], w[1] = c[0][1] + c[1][1];
    }
    __syncthreads();

    /* -W2 = -T W1, T upper: row tile a needs W1's rows from 8a on */
    if (FIX || 8 * a < nbp) {
        double c[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
        const int k0 = FIX ? 0 : 8 * a, ns = (nbp - k0) / 4;
        const double *tp = Ts + (8 * a + lr) + (k0 + lc) * tld;
        const double *wp = W1s + (k0 + lc) * WS + j0 + lr;
#pragma unroll
        for (int q = 0; q < NS2; q++)
            if (FIX || q < ns) dmma(c[q & 1][0], c[q & 1][1], tp[4 * q * tld], wp[4 * q * WS]);
        double *w = W2s + (8 * a + lr) * WS + j0 + 2 * lc;
        w[0] = -(c[0][0] + c[1][0]), w[1] = -(c[0][1] + c[1][1]);
    }
    __syncthreads();

    /* Z(rows) += V (-W2): V's row r is zero outside columns r-kd+1 .. r;
     * the warp's three row tiles side by side */
    {
        const int mt = (h + 7) >> 3;
        double c[3][2];
        double *zp[3];
        const double *vp[3], *wp[3];
        int ns[3];
#pragma unroll
        for (int bq = 0; bq < 3; bq++) {
            const int b = a + 4 * bq, r = 8 * b + lr;
            const int sr = sbase + r >= H ? sbase + r - H : sbase + r;
            zp[bq] = Zs + sr * ZLD + j0 + 2 * lc;
            const int clo = FIX ? 0 : max(0, 8 * b - kd + 1) & ~3;
            const int chi = FIX ? 32 : min(nbp, 8 * b + 8);
            ns[bq] = FIX ? NS2 : b < mt ? (chi - clo) / 4 : 0;
            vp[bq] = Vs + r + (clo + lc) * vld;
            wp[bq] = W2s + (clo + lc) * WS + j0 + lr;
            /* (a tile past the last may lie past the window for a small H) */
            c[bq][0] = FIX || b < mt ? zp[bq][0] : 0.0;
            c[bq][1] = FIX || b < mt ? zp[bq][1] : 0.0;
        }
#pragma unroll
        for (int q = 0; q < NS2; q++)
#pragma unroll
            for (int bq = 0; bq < 3; bq++)
                if (FIX || q < ns[bq])
                    dmma(c[bq][0], c[bq][1], vp[bq][4 * q * vld], wp[bq][4 * q * WS]);
#pragma unroll
        for (int bq = 0; bq < 3; bq++)
            if (8 * (a + 4 * bq) + lr < h) zp[bq][0] = c[bq][0], zp[bq][1] = c[bq][1];
    }
    __syncthreads();
}

/* the group's products: CUDA cores, or the tensor cores for double */
template <typename T, int W, int NT, bool MMA> struct apply {
    static __device__ __forceinline__ void run(const geo &g, int64_t s, int64_t t, const T *Vs,
                                               T *Ws, T *, T *Zs) {
        apply_group<T, W, NT>(g, s, t, Vs, Ws, Zs);
    }
};
template <int W, int NT> struct apply<double, W, NT, true> {
    static_assert(W == 32 && NT == 512, "the tensor-core products take W = 32, sixteen warps");
    static __device__ __forceinline__ void run(const geo &g, int64_t s, int64_t t,
                                               const double *Vs, double *Ws, double *Ws2,
                                               double *Zs) {
        if (g.kd == 64 && g.nb == 32)
            apply_group_mma<64, 32>(g, s, t, Vs, Ws, Ws2, Zs);
        else
            apply_group_mma<0, 0>(g, s, t, Vs, Ws, Ws2, Zs);
    }
};

template <typename T, int W, int NT>
__global__ void __launch_bounds__(NT) q2_kernel(geo g, const T *__restrict__ store, T *Z) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int gbuf = (g.vld + g.tld) * g.nbp, wbuf = g.nbp * g.wsld;
    T *Vb[2];
    Vb[0] = reinterpret_cast<T *>(smem_raw);  /* V then T of a group, twice */
    Vb[1] = Vb[0] + gbuf;
    T *Ws = Vb[1] + gbuf;                     /* W1 (and W2 with MMA) */
    T *Ws2 = Ws + wbuf;
    T *Zs = Ws + (shape<T>::MMA ? 2 : 1) * wbuf; /* H rows of zld */
    /* zeros in every padding (and in the window, so that no product ever
     * meets uninitialized words) */
    {
        T *all = Vb[0];
        const int tot = 2 * gbuf + (shape<T>::MMA ? 2 : 1) * wbuf + g.H * g.zld;
        for (int i = threadIdx.x; i < tot; i += NT) all[i] = zero_of<T>();
        __syncthreads();
    }
    /* the slabs, widest first (with identity they have the most work),
     * each CTA taking every gridDim.x-th */
    const int64_t nslab = (g.ncols + W - 1) / W;
    for (int64_t idx = blockIdx.x; idx < nslab; idx += gridDim.x) {
        const int64_t slab = nslab - 1 - idx, c0 = slab * W;
        const int wc = (int)(g.ncols - c0 < W ? g.ncols - c0 : W);
        int64_t smax = g.nsg - 1;
        if (g.identity) {
            /* sweep group s changes column j only once j >= s nb + 1 */
            const int64_t lim = c0 + wc - 2;
            if (lim < 0) continue;
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
            int64_t wo = g.woff[t0]; /* woff[t] of the wave t below */
            load_group<T, NT>(g, store, sb, t0, wo, Vb[buf]);
            cp_commit();
            for (int64_t t = t0; t < t1; t++) {
                const int64_t wo1 = g.woff[t + 1]; /* t + 1 <= nw; asked early, used late */
                if (!wave_of(g, slo, shi, t, &sa, &sb)) {
                    wo = wo1;
                    continue;
                }
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
                    if (next)
                        load_group<T, NT>(g, store, s > sa ? s - 1 : nbw, s > sa ? t : t + 1,
                                          s > sa ? wo : wo1, Vb[buf ^ 1]);
                    cp_commit();
                    cp_wait<1>(); /* all but that request */
                    __syncthreads();
                    /* Vb[0] + offset, not Vb[buf]: the compiler then keeps
                     * the loads in shared memory (no generic loads) */
                    apply<T, W, NT, shape<T>::MMA>::run(g, s, t, Vb[0] + buf * gbuf, Ws, Ws2, Zs);
                    buf ^= 1;
                }
                /* rows above wave t+1's are done for this batch */
                if (top1 > lo) {
                    const int64_t e = top1 < hi ? top1 : hi;
                    store_rows<T, W, NT>(g, Zg, Zs, lo, e, wc);
                    lo = top1;
                    __syncthreads();
                }
                wo = wo1;
            }
            cp_wait<0>();
            __syncthreads();
            store_rows<T, W, NT>(g, Zg, Zs, lo, hi, wc);
            __syncthreads();
        }
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
    const bool mma = shape<T>::MMA;
    g.nbp = mma ? (int)((g.nb + 7) / 8 * 8) : (int)g.nb;
    g.vld = mma ? (int)((g.ldv + 7) / 8 * 8 + 4) : (int)g.ldv;
    g.tld = mma ? g.nbp + 4 : (int)g.nb;
    g.zld = mma ? W + 4 : W + 1;
    g.wsld = mma ? W + 4 : W;
    const size_t es = sizeof(T);
    const size_t fixed =
        (size_t)(2 * (g.vld + g.tld) * g.nbp + (mma ? 2 : 1) * g.nbp * g.wsld) * es;
    const size_t row = (size_t)g.zld * es, step = (size_t)(g.nb + g.kd) * row;
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
    /* the tensor-core products read up to vld + 7 rows from a group's
     * first: one wrap of the window at most */
    if (mma && g.H < g.vld + 8) g.H = g.vld + 8;
    const size_t smem = fixed + (size_t)g.H * row;
    if (smem > budget1) return HYLA_ERR_UNSUPPORTED;
    if (cudaFuncSetAttribute(q2_kernel<T, W, NT>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)smem) != cudaSuccess)
        return HYLA_ERR_DEVICE;
    /* one CTA per slab, or, when Z starts as the identity (Q = Q1 Q2 built
     * beside the divide and conquer, eig/pvectors.c), at most one CTA per
     * SM on all but an eighth of the SMs, each taking several slabs: the
     * divide and conquer's merges run on the SMs left */
    int64_t grid = (g.ncols + W - 1) / W;
    if (g.identity) {
        int nsm = 0, per = 0;
        if (cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, q2_kernel<T, W, NT>, NT, smem) !=
                cudaSuccess)
            return HYLA_ERR_DEVICE;
        const int64_t cap = (int64_t)(nsm - nsm / 8) * (per > 0 ? per : 1);
        if (grid > cap) grid = cap;
    }
    q2_kernel<T, W, NT><<<(unsigned)grid, NT, smem, st>>>(g, static_cast<const T *>(store),
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
