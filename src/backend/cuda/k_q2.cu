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
 * asynchronously (cp.async) with the V and T of wave t's second group, as
 * its first group starts, so they arrive while wave t computes: a group
 * waits only for what was asked for one group before it. hi never exceeds row0(shi, t+1)+ldv <= top(t) +
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
 * a group on a slab is 800 mma (0.4 Mflop) over the CTA's sixteen warps.
 *
 * kd = 64, nb = 32 (the tuning table's default shape for double on Hopper)
 * has a kernel of its own (FIX): on sm_90 its products are m16n8k8 mma
 * (apply_group_k8: 184 of them a group, four times the work of m8n8k4 per
 * instruction, the shape sm_90 runs at its full FP64 rate), and the four
 * warps of each 8 columns synchronize among themselves within a group
 * (named barriers), the CTA once a group. Profiled on one H100 (n = 8192,
 * Nsight Compute): the m8n8k4 form issued 46 G instructions, 14 per mma,
 * and kept the DP pipe 41 % busy; apply_group_k8 with one CTA barrier per
 * group made Q2 of n = 16384 0.86 s against 1.02 s. What bounds it now is
 * the issue of the rest (address arithmetic, the cp.async copies of V and
 * T, 8 bytes each: ldv is odd) and the shared-memory queue, with one CTA of
 * sixteen warps on an SM (shared memory). */
#include <cstdint>
#include <cuda_runtime.h>

#define hyla_complex_float float2
#define hyla_complex_double double2
#include "hyla.h"

#include "backend/cuda/k_q2.h"

namespace {

const int TC = 2, TJ = 4, TR = 4;

#include "backend/cuda/k_cx.cuh"

/* Zeros after a group's V and T in its buffer (the CUDA-core products read
 * up to TR - 1 rows past the group's last, past T when nb^2 < TR - 1, which
 * without them is the other buffer, being filled) */
template <bool MMA> __host__ __device__ constexpr int gpad_of() { return MMA ? 0 : TR; }

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
    int64_t col0; /* identity: Z's first column's in the identity */
    int identity, K, H;
    unsigned long long hmag; /* ceil(2^64 / H): slot_of's division */
    int nbp, vld, tld, zld, wsld; /* shared-memory layout (see the head of the file) */
};

/* M(s): steps of sweep s*nb, the groups of sweep group s */
__device__ __forceinline__ int64_t steps_of(const geo &g, int64_t s) {
    /* 32-bit division: n < 2^31 (hyla_cuda_q2_apply) */
    return (int)(g.n - 1 - s * g.nb + g.kd - 1) / (int)g.kd;
}
/* the window slot of row r (0 <= r < 2^32): r mod H by a multiplication */
__device__ __forceinline__ int slot_of(const geo &g, int64_t r) {
    const unsigned long long q = __umul64hi((unsigned long long)r, g.hmag);
    return (int)(r - (int64_t)q * g.H);
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
__device__ __forceinline__ bool wave_of(const geo &g, int slo, int shi, int t, int *sa,
                                        int *sb) {
    const int first = (int)g.nsg - 1 - t; /* the sweep group at step 0 in wave t */
    *sa = slo > first ? slo : first;
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
    int sl = slot_of(g, i0);
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
    int sl = slot_of(g, i0);
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
    const int sbase = slot_of(g, r0); /* slot of row r0 + r: sbase + r, less H past the end */

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
                /* rows past ldv (up to TR - 1 of them) read T or the buffer's
                 * padding (gpad_of): their sums are dropped */
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
    const int sbase = slot_of(g, r0);
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

/* Barrier of the four warps that own columns j0 .. j0+7 (warps w with
 * w % 4 = j0 / 8): named barrier 1 + j0 / 8 of 128 threads. */
__device__ __forceinline__ void team_sync(int j0) {
    /* immediate barrier numbers: the kernel then reserves five, not all */
    switch (j0 >> 3) {
    case 0: asm volatile("bar.sync 1, 128;\n" ::: "memory"); break;
    case 1: asm volatile("bar.sync 2, 128;\n" ::: "memory"); break;
    case 2: asm volatile("bar.sync 3, 128;\n" ::: "memory"); break;
    default: asm volatile("bar.sync 4, 128;\n" ::: "memory"); break;
    }
}

/* D (16 x 8) += A (16 x 8) B (8 x 8), FP64 on sm_90's m16n8k8 shape: lane
 * l = 4 g + q holds A(g, q), A(g+8, q), A(g, q+4), A(g+8, q+4) in a0..a3,
 * B(q, g), B(q+4, g) in b0, b1 and D(g, 2q), D(g, 2q+1), D(g+8, 2q),
 * D(g+8, 2q+1) in d[0..3]. Four times the work of m8n8k4 per instruction,
 * and the shape the FP64 tensor cores of sm_90 run at their full rate
 * (m8n8k4 reached at most half of it: 41 % of the pipe at 13.5 TFLOP/s in
 * this kernel on one H100). Only called where __CUDA_ARCH__ >= 900. */
__device__ __forceinline__ void dmma16(double (&d)[4], double a0, double a1, double a2, double a3,
                                       double b0, double b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a0), "d"(a1), "d"(a2), "d"(a3), "d"(b0), "d"(b1));
#endif
}

/* apply_group_mma for kd = 64, nb = 32 on sm_90's m16n8k8 products (W =
 * 32, sixteen warps; warp w owns the columns j0 = 8 (w % 4) .. +7 and a =
 * w / 4). The shared-memory layout is apply_group_mma's (vld 100, tld 36,
 * rows of the window, W1s, W2s and W3s 36 apart); lane 4 g + q reads words
 * q + 4 g (mod 16) of a half warp's 128 bytes in every fragment: no bank
 * conflicts.
 *   W1 = V^H Z(rows) (32 x 32): row tile mt = a % 2 (V's columns 16 mt ..
 *     +15, nonzero in rows 16 mt .. 16 mt + 78) by the warp's columns,
 *     its 80 rows split in halves of five steps, half a / 2; the halves go
 *     to W1s and W3s (row 95 of V is the zero padding);
 *   -W2 = -T (W1s + W3s): warps a < 2, row tile a, the steps of T's zero
 *     blocks below the diagonal left out (4 and 2 steps);
 *   Z(rows) += V (-W2): row tiles b = a and a + 4 (< 6) of 16 rows, the
 *     staircase's zero blocks left out (tiles 0 and 5: 2 steps, the others
 *     4); rows from h on are not stored.
 * Every product reads and writes only the columns j0 .. j0+7 of the window
 * and of W1s, W2s, W3s (V and T are read only), so the four warps of those
 * columns (a team) synchronize among themselves only (team_sync), and the
 * teams drift apart within a group. The caller has synchronized the CTA
 * (V and T in); ends with a barrier of the team: the caller synchronizes
 * the CTA again before V and T's buffer is reused or rows are written
 * back. */
template <bool WRAP>
__device__ __forceinline__ void apply_group_k8_at(const geo &g, int r0, int sbase,
                                                  const double *Vs, double *W1s, double *W2s,
                                                  double *W3s, double *Zs) {
    constexpr int VLD = 100, TLD = 36, NBP = 32, ZLD = 36, WS = 36, LDV = 95;
    const int h = g.n - r0 < LDV ? (int)g.n - r0 : LDV;
    const int H = g.H;
    const double *Ts = Vs + VLD * NBP;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, gq = lane >> 2, q = lane & 3;
    const int a = warp >> 2, j0 = (warp & 3) * 8;
    /* the slot of row r0 + r, 0 <= r < 96 */
    auto slot = [&](int r) {
        int sl = sbase + r;
        if (WRAP) sl -= sl >= H ? H : 0;
        return sl;
    };

    /* W1's half */
    {
        const int mt = a & 1, kb = 16 * mt + 40 * (a >> 1) + q;
        const double *va = Vs + (16 * mt + gq) * VLD + kb;
        const double *zc = Zs + j0 + gq;
        double c[4] = {0.0, 0.0, 0.0, 0.0};
#pragma unroll
        for (int st = 0; st < 5; st++) {
            const double *v = va + 8 * st;
            /* row 95 (V's zero padding; the last step of the second half
             * of row tile 1) is read as row 94: past the group's rows the
             * window may be taking rows of the next wave */
            const int r1 = st < 4 ? kb + 8 * st + 4 : min(kb + 8 * st + 4, LDV - 1);
            dmma16(c, v[0], v[8 * VLD], v[4], v[4 + 8 * VLD], zc[slot(kb + 8 * st) * ZLD],
                   zc[slot(r1) * ZLD]);
        }
        double *w = ((a >> 1) ? W3s : W1s) + (16 * mt + gq) * WS + j0 + 2 * q;
        *reinterpret_cast<double2 *>(w) = make_double2(c[0], c[1]);
        *reinterpret_cast<double2 *>(w + 8 * WS) = make_double2(c[2], c[3]);
    }
    team_sync(j0);

    /* -W2 = -T W1 */
    if (a < 2) {
        double c[2][4] = {{0.0, 0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 0.0}};
        const double *ta = Ts + 16 * a + gq + q * TLD;
        const double *w1 = W1s + q * WS + j0 + gq, *w3 = W3s + q * WS + j0 + gq;
#pragma unroll
        for (int st = 0; st < 4; st++) {
            if (st < 2 * a) continue;
            const int k = 8 * st;
            dmma16(c[st & 1], ta[k * TLD], ta[8 + k * TLD], ta[(k + 4) * TLD],
                   ta[8 + (k + 4) * TLD], w1[k * WS] + w3[k * WS],
                   w1[(k + 4) * WS] + w3[(k + 4) * WS]);
        }
        double *w = W2s + (16 * a + gq) * WS + j0 + 2 * q;
        *reinterpret_cast<double2 *>(w) = make_double2(-(c[0][0] + c[1][0]), -(c[0][1] + c[1][1]));
        *reinterpret_cast<double2 *>(w + 8 * WS) =
            make_double2(-(c[0][2] + c[1][2]), -(c[0][3] + c[1][3]));
    }
    team_sync(j0);

    /* Z(rows) += V (-W2): the warp's one or two row tiles side by side */
    {
        const int nt = a < 2 ? 2 : 1;
        double c[2][4];
        int zo[2][2]; /* offsets in Zs of the rows g and g + 8 of each tile */
#pragma unroll
        for (int i = 0; i < 2; i++) {
            if (i >= nt) continue;
            const int r = 16 * (a + 4 * i) + gq;
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                zo[i][hh] = slot(r + 8 * hh) * ZLD + j0 + 2 * q;
                /* rows from h on are not stored, nor read */
                const double2 z = r + 8 * hh < h
                                      ? *reinterpret_cast<const double2 *>(Zs + zo[i][hh])
                                      : make_double2(0.0, 0.0);
                c[i][2 * hh] = z.x, c[i][2 * hh + 1] = z.y;
            }
        }
        const double *w2 = W2s + q * WS + j0 + gq;
#pragma unroll
        for (int st = 0; st < 4; st++) {
            const int k = 8 * st;
            const double b0 = w2[k * WS], b1 = w2[(k + 4) * WS];
#pragma unroll
            for (int i = 0; i < 2; i++) {
                if (i >= nt) continue;
                const int b = a + 4 * i;
                if ((b == 0 && st >= 2) || (b == 5 && st < 2)) continue;
                const double *v = Vs + 16 * b + gq + (k + q) * VLD;
                dmma16(c[i], v[0], v[8], v[4 * VLD], v[8 + 4 * VLD], b0, b1);
            }
        }
#pragma unroll
        for (int i = 0; i < 2; i++) {
            if (i >= nt) continue;
            const int r = 16 * (a + 4 * i) + gq;
#pragma unroll
            for (int hh = 0; hh < 2; hh++)
                if (r + 8 * hh < h)
                    *reinterpret_cast<double2 *>(Zs + zo[i][hh]) =
                        make_double2(c[i][2 * hh], c[i][2 * hh + 1]);
        }
    }
    team_sync(j0);
}
__device__ __forceinline__ void apply_group_k8(const geo &g, int64_t s, int64_t t,
                                               const double *Vs, double *W1s, double *W2s,
                                               double *W3s, double *Zs) {
    const int r0 = (int)row0_of(g, s, t), sbase = slot_of(g, r0);
    /* the 96 rows read from r0 on without a wrap of the window: constant
     * offsets from one base (most groups) */
    if (sbase + 96 <= g.H)
        apply_group_k8_at<false>(g, r0, sbase, Vs, W1s, W2s, W3s, Zs);
    else
        apply_group_k8_at<true>(g, r0, sbase, Vs, W1s, W2s, W3s, Zs);
}

/* the group's products: CUDA cores, or the tensor cores for double; FIX:
 * kd = 64, nb = 32 (the unrolled products, in a kernel of their own: beside
 * the general ones, the registers of the two spilled) */
template <typename T, int W, int NT, bool MMA, bool FIX> struct apply {
    static __device__ __forceinline__ void run(const geo &g, int64_t s, int64_t t, const T *Vs,
                                               T *Ws, T *, T *, T *Zs) {
        apply_group<T, W, NT>(g, s, t, Vs, Ws, Zs);
    }
};
template <int W, int NT, bool FIX> struct apply<double, W, NT, true, FIX> {
    static_assert(W == 32 && NT == 512, "the tensor-core products take W = 32, sixteen warps");
    static __device__ __forceinline__ void run(const geo &g, int64_t s, int64_t t,
                                               const double *Vs, double *Ws, double *Ws2,
                                               double *Ws3, double *Zs) {
        if (!FIX)
            apply_group_mma<0, 0>(g, s, t, Vs, Ws, Ws2, Zs);
        else
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
            apply_group_k8(g, s, t, Vs, Ws, Ws2, Ws3, Zs);
#else
            apply_group_mma<64, 32>(g, s, t, Vs, Ws, Ws2, Zs);
#endif
    }
};

template <typename T, int W, int NT, bool FIX>
__global__ void __launch_bounds__(NT)
    q2_kernel(geo g, const T *__restrict__ store, T *Z, unsigned long long *ctr) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int gbuf = (g.vld + g.tld) * g.nbp + gpad_of<shape<T>::MMA>(), wbuf = g.nbp * g.wsld;
    T *Vb[2];
    Vb[0] = reinterpret_cast<T *>(smem_raw);  /* V, T, zeros of a group, twice */
    Vb[1] = Vb[0] + gbuf;
    T *Ws = Vb[1] + gbuf;                     /* W1 (and W2 with MMA) */
    T *Ws2 = Ws + wbuf, *Ws3 = Ws2 + wbuf;
    T *Zs = Ws + (shape<T>::MMA ? 3 : 1) * wbuf; /* H rows of zld */
    /* zeros in every padding (and in the window, so that no product ever
     * meets uninitialized words) */
    {
        T *all = Vb[0];
        const int tot = 2 * gbuf + (shape<T>::MMA ? 3 : 1) * wbuf + g.H * g.zld;
        for (int i = threadIdx.x; i < tot; i += NT) all[i] = zero_of<T>();
        __syncthreads();
    }
    /* the slabs, widest first (with identity they have the most work).
     * With a counter (ctr, zero at launch) each CTA takes the next slab
     * when done with its last, in that order (the longest first: the CTAs
     * end within about one slab of each other, and an SM holding two CTAs
     * takes more slabs than one holding one). Without, in rounds of
     * gridDim.x: CTA b takes index b of the even rounds and gridDim.x-1-b
     * of the odd ones. With identity a slab's work grows with its first
     * column: at n = 16384 (512 slabs) on 116 CTAs, one to an SM, every
     * gridDim.x-th slab would leave the busiest CTA 1.17x the mean work, the
     * rounds 1.01x; with two CTAs on most SMs (complex double) the busiest
     * SM 1.4x the mean by every gridDim.x-th, 1.2x by rounds and 1.03x by
     * the counter (a model of these counts, not a measurement). */
    __shared__ unsigned long long next_slab;
    const int64_t nslab = (g.ncols + W - 1) / W, G = gridDim.x;
    for (int64_t r = 0;; r++) {
        int64_t idx;
        if (ctr) {
            __syncthreads(); /* every thread has read the last index */
            if (threadIdx.x == 0) next_slab = atomicAdd(ctr, 1ull);
            __syncthreads();
            idx = (int64_t)next_slab;
            if (idx >= nslab) break;
        } else {
            if (r * G >= nslab) break;
            idx = r * G + (r & 1 ? G - 1 - blockIdx.x : blockIdx.x);
            if (idx >= nslab) continue;
        }
        const int64_t slab = nslab - 1 - idx, c0 = slab * W;
        const int wc = (int)(g.ncols - c0 < W ? g.ncols - c0 : W);
        int64_t smax = g.nsg - 1;
        if (g.identity) {
            /* sweep group s changes column j only once j >= s nb + 1
             * (j the identity's column) */
            const int64_t lim = g.col0 + c0 + wc - 2;
            if (lim < 0) continue;
            smax = lim / g.nb < smax ? lim / g.nb : smax;
        }
        T *Zg = Z + c0 * g.ldz;
        int buf = 0;
        for (int shi = (int)smax; shi >= 0; shi -= g.K) {
            const int slo = shi - g.K + 1 > 0 ? shi - g.K + 1 : 0;
            const int t0 = (int)g.nsg - 1 - shi, t1 = (int)(g.nsg - 1 - slo + steps_of(g, slo));
            int sa, sb;
            wave_of(g, slo, shi, t0, &sa, &sb); /* wave t0 has sweep group shi, step 0 */
            int lo = (int)row0_of(g, sa, t0), hi = (int)(row0_of(g, sb, t0) + g.ldv);
            hi = hi < g.n ? hi : (int)g.n;
            load_rows<T, W, NT>(g, Zg, Zs, lo, hi, wc);
            int64_t wo = g.woff[t0]; /* woff[t] of the wave t below */
            load_group<T, NT>(g, store, sb, t0, wo, Vb[0] + buf * gbuf);
            cp_commit();
            for (int t = t0; t < t1; t++) {
                const int64_t wo1 = g.woff[t + 1]; /* t + 1 <= nw; asked early, used late */
                if (!wave_of(g, slo, shi, t, &sa, &sb)) {
                    wo = wo1;
                    continue;
                }
                /* the rows wave t+1 adds */
                int na = 0, nbw = -1;
                const bool more = t + 1 < t1 && wave_of(g, slo, shi, t + 1, &na, &nbw);
                int top1 = hi, bot1 = hi;
                if (more) {
                    top1 = (int)row0_of(g, na, t + 1);
                    bot1 = (int)(row0_of(g, nbw, t + 1) + g.ldv);
                    bot1 = bot1 < g.n ? bot1 : (int)g.n;
                }
                /* the rows of wave t+1, into slots written back before the
                 * last CTA barrier */
                auto request_rows = [&]() {
                    if (top1 < lo) {
                        load_rows<T, W, NT>(g, Zg, Zs, top1, lo, wc);
                        lo = top1;
                    }
                    if (bot1 > hi) {
                        load_rows<T, W, NT>(g, Zg, Zs, hi, bot1, wc);
                        hi = bot1;
                    }
                };
                for (int s = sb; s >= sa; s--) {
                    /* general shapes: the rows of wave t+1 are waited for at
                     * once (their products read a few rows past a group's
                     * last, which may be among them) */
                    if constexpr (!FIX)
                        if (s == sb) {
                            request_rows();
                            cp_commit();
                        }
                    /* this group's V and T (and any rows asked for) are in,
                     * for every thread; every team is done with the group
                     * before, so its buffer is free */
                    cp_wait<0>();
                    __syncthreads();
                    /* the next group's V and T into the other buffer */
                    const bool next = s > sa || more;
                    if (next) {
                        const int sn = s > sa ? s - 1 : nbw, tn = s > sa ? t : t + 1;
                        const int64_t won = s > sa ? wo : wo1;
                        load_group<T, NT>(g, store, sn, tn, won, Vb[0] + (buf ^ 1) * gbuf);
                    }
                    /* kd 64, nb 32: the rows of wave t+1 arrive while the
                     * first group of wave t computes (apply_group_k8 reads
                     * only its group's rows), waited for by the next group */
                    if constexpr (FIX)
                        if (s == sb) request_rows();
                    cp_commit();
                    /* Vb[0] + offset, not Vb[buf]: the compiler then keeps
                     * the loads in shared memory (no generic loads) */
                    apply<T, W, NT, shape<T>::MMA, FIX>::run(g, s, t, Vb[0] + buf * gbuf, Ws, Ws2,
                                                             Ws3, Zs);
                    buf ^= 1;
                }
                /* rows above wave t+1's are done for this batch, once every
                 * team is */
                if (top1 > lo) {
                    const int e = top1 < hi ? top1 : hi;
                    __syncthreads();
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
        (size_t)(2 * ((g.vld + g.tld) * g.nbp + gpad_of<shape<T>::MMA>()) +
                 (mma ? 3 : 1) * g.nbp * g.wsld) * es;
    const size_t row = (size_t)g.zld * es, step = (size_t)(g.nb + g.kd) * row;
    const size_t one = fixed + (size_t)(g.ldv + g.kd) * row; /* K = 1 */
    /* K sweep groups per window: as many as leave two CTAs per SM room,
     * or, when that is fewer than 3, as many as one CTA may take */
    /* (the kernel's static shared memory, 8 bytes, within the margins) */
    const size_t budget2 = (size_t)per_sm / 2 - 2048, budget1 = (size_t)optin - 64;
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
    g.hmag = ~0ull / (unsigned long long)g.H + 1;
    const size_t smem = fixed + (size_t)g.H * row;
    if (smem > budget1) return HYLA_ERR_UNSUPPORTED;
    /* the unrolled tensor-core products for kd = 64, nb = 32 (double) */
    void (*kern)(geo, const T *, T *, unsigned long long *) = q2_kernel<T, W, NT, false>;
    if constexpr (shape<T>::MMA)
        if (g.kd == 64 && g.nb == 32) kern = q2_kernel<T, W, NT, true>;
    if (cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)smem) != cudaSuccess)
        return HYLA_ERR_DEVICE;
    /* one CTA per slab, or, when Z starts as the identity (Q = Q1 Q2 built
     * beside the divide and conquer, eig/pvectors.c), at most one CTA per
     * SM on all but an eighth of the SMs, each taking several slabs: the
     * divide and conquer's merges run on the SMs left */
    int64_t grid = (g.ncols + W - 1) / W;
    unsigned long long *ctr = nullptr;
    if (g.identity) {
        int nsm = 0, per = 0;
        if (cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, NT, smem) !=
                cudaSuccess)
            return HYLA_ERR_DEVICE;
        const int64_t cap = (int64_t)(nsm - nsm / 8) * (per > 0 ? per : 1);
        if (grid > cap) grid = cap;
        /* the slab counter, stream-ordered; where the stream-ordered
         * allocator is missing the CTAs take the slabs in fixed rounds */
        if (grid < (g.ncols + W - 1) / W) {
            if (cudaMallocAsync(reinterpret_cast<void **>(&ctr), sizeof *ctr, st) != cudaSuccess) {
                (void)cudaGetLastError();
                ctr = nullptr;
            } else if (cudaMemsetAsync(ctr, 0, sizeof *ctr, st) != cudaSuccess) {
                (void)cudaFreeAsync(ctr, st);
                return HYLA_ERR_DEVICE;
            }
        }
    }
    kern<<<(unsigned)grid, NT, smem, st>>>(g, static_cast<const T *>(store), static_cast<T *>(Z),
                                           ctr);
    const bool launched = cudaGetLastError() == cudaSuccess;
    if (ctr && cudaFreeAsync(ctr, st) != cudaSuccess) return HYLA_ERR_DEVICE;
    return launched ? 0 : HYLA_ERR_DEVICE;
}

} // namespace

extern "C" int hyla_cuda_q2_apply(cudaStream_t s, int dtype, int64_t n, int64_t kd, int64_t nb,
                                  int64_t nsg, const int64_t *woff, const void *store,
                                  int64_t ncols, void *Z, int64_t ldz, int identity,
                                  int64_t col0) {
    if (nb > HYLA_CUDA_Q2_MAX_NB || kd > HYLA_CUDA_Q2_MAX_KD || n >= INT32_MAX ||
        (ncols + 31) / 32 >= INT32_MAX)
        return HYLA_ERR_UNSUPPORTED;
    geo g;
    g.n = n, g.kd = kd, g.nb = nb, g.ldv = kd + nb - 1, g.nsg = nsg;
    g.gsz = g.ldv * nb + nb * nb, g.ncols = ncols, g.ldz = ldz;
    g.woff = woff, g.identity = identity, g.col0 = identity ? col0 : 0, g.K = 1, g.H = (int)(g.ldv + kd);
    switch (dtype) {
    case HYLA_S: return launch<float>(s, g, store, Z);
    case HYLA_D: return launch<double>(s, g, store, Z);
    case HYLA_C: return launch<cx<float>>(s, g, store, Z);
    case HYLA_Z: return launch<cx<double>>(s, g, store, Z);
    default: return HYLA_ERR_INVALID;
    }
}
