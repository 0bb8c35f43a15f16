/* Bulge chasing for the eigenvalues only on the GPU: the backend's hb2st op
 * (backend.h). The tasks and their arithmetic are those of the host
 * reference (backend/host/host_hb2st.c, which states the algorithm); here
 * many sweeps run at once in one persistent kernel.
 *
 * Band: B(r, c) = W[r + c*ld] with ld = ldab - 1 (0 <= r-c < ldab), so
 * every block is a column-major matrix of leading dimension ld.
 *
 * Step m of sweep i (rows st = i+1+m*kd .., nv = min(kd, n-st) of them)
 * touches rows st .. st+kd-1 and columns st-kd .. st+kd-1 (m = 0: column i
 * and the diagonal block). Step m' of sweep i-1 touches the same shifted up
 * by one row and column. Its rows from m' = m+2 on start at
 * i+(m+2)kd > i+(m+1)kd, past the last row of step m of sweep i; step
 * m+1's rows start at i+(m+1)kd, the last row of step m of sweep i, and
 * that row (its row 0: X's and the diagonal element's) is all the two
 * share. Sweep i-1 stores its row 0 as soon as it has it, before the rest
 * of its update, and publishes it: the late-row handoff. So step m of sweep
 * i may run once sweep i-1 has finished its steps 0 .. m and handed off the
 * row 0 of its step m+1 (or finished all of its steps if it has fewer than
 * m+2): what step m+1 of sweep i-1 still writes after the handoff (its rows
 * 1..) and its later steps are past everything step m of sweep i touches,
 * so the order of reads and writes is that of the sequential loop: the
 * results are those of the host reference up to the rounding of the
 * reductions. A sweep trails the one before by a step and the part of a
 * step up to the handoff (the load, the bulge, the reflector with its
 * products), where a wait for the whole step m+1 made that two steps.
 *
 * Scheduling: a block takes the next sweep from a ticket counter, runs its
 * steps in order and publishes its progress in progress[i]: 2m+1 once step
 * m has handed off its row 0, 2m+2 once step m is done. Before step m it
 * waits (thread 0 polls progress[i-1]) for 2m+3, or for 2Mp where sweep i-1
 * has only Mp <= m+1 steps. Sweeps are taken in increasing order by blocks
 * that are running, so the sweep waited on is always held by a running
 * block, whose own wait resolves by induction down to the lowest unfinished
 * sweep, which never waits: no deadlock, whatever the number of resident
 * blocks. The grid is what the occupancy API says fits at once (more would
 * only queue).
 *
 * Memory: a step works on its windows (X = B(block m, block m-1), nv x
 * kd, and the Hermitian diagonal block, both triangles) in shared memory
 * and writes the results back. The window of step m+1 is final, but for
 * its last row, once sweep i-1 has finished its step m+1. Three ways to
 * use that (the launch's mode):
 *   - copied ahead (on Hopper the tuning table's choice for the real types;
 *     where not even the second X window fits in shared memory, the steps
 *     load after the wait instead): where the two windows of
 *     two steps fit in shared memory, step m checks once, after its
 *     products, that sweep i-1 is that far; where it is, step m copies the
 *     window into a second set of buffers (cp.async) while it updates and
 *     stores its own, and step m+1 loads only the last row after its wait;
 *     otherwise step m+1 loads its whole window after the wait;
 *   - loaded after the wait;
 *   - split at the late row (on Hopper the tuning table's choice for the
 *     complex types, step_split):
 *     step m waits only for sweep i-1's step m, loads the window without
 *     its last row and runs everything that does not read that row (the
 *     bulge of the other rows, the reflector's sums and the products over
 *     them), then waits for the handoff, reads the row and completes the
 *     sums. The handoff's wait then covers the completion instead of the
 *     load, the bulge and the products; the load stays on the step.
 * Stores to the band bypass L1 (st.global.cg).
 * Publishing: the threads that stored synchronize (the block, or warp 0 for
 * the handoff), then thread 0 stores the counter with release semantics
 * (cumulative over the stores the barrier ordered before it); waiting:
 * thread 0 polls the counter with acquire loads, the block synchronizes.
 * The acquire orders every later load of the block's threads after the
 * writes it observed, L1 included.
 *
 * The reflector: every thread forms its scalars from x = X(:, 0), scaled
 * by a power of two (fast_reflector), while the products y = tau A v and
 * z = conj(tau X^H v) run on x itself (v is x scaled, but for v(0) = 1);
 * where the scaling cannot be done safely, warp 0 forms v the way LAPACK's
 * larfg does and the products follow. */
#include <cfloat>
#include <cstdint>
#include <cuda_runtime.h>

#define hyla_complex_float float2
#define hyla_complex_double double2
#include "hyla.h"

#include "backend/cuda/k_hb2st.h"
#include "backend/backend.h"

namespace {

/* threads per block: eight warps (two per row of a dot). Sixteen warps (four
 * a row) were measured slower on one H100 (bench/probes/chase_probe.c, per
 * step of the critical path at n = 16384: d 10.46 against 9.14 us, z 16.05
 * against 12.73, c 10.40 against 9.61; s 7.35 against 7.75): the shorter
 * dots and stores did not make up for the reflector's scalars and the
 * barriers among twice the warps. */
const int NT = 256;

/* ---- scalars: R real, cx<R> complex ---- */
#include "backend/cuda/k_cx.cuh"

/* T from its real and imaginary parts (the imaginary part dropped for real T) */
template <typename T> struct make;
template <> struct make<float> {
    static __device__ __forceinline__ float of(float r, float) { return r; }
};
template <> struct make<double> {
    static __device__ __forceinline__ double of(double r, double) { return r; }
};
template <typename R> struct make<cx<R>> {
    static __device__ __forceinline__ cx<R> of(R r, R i) { return {r, i}; }
};

/* band accesses through L2 only */
__device__ __forceinline__ float ld_band(const float *p) { return __ldcg(p); }
__device__ __forceinline__ double ld_band(const double *p) { return __ldcg(p); }
__device__ __forceinline__ cx<float> ld_band(const cx<float> *p) {
    const float2 v = __ldcg(reinterpret_cast<const float2 *>(p));
    return {v.x, v.y};
}
__device__ __forceinline__ cx<double> ld_band(const cx<double> *p) {
    const double2 v = __ldcg(reinterpret_cast<const double2 *>(p));
    return {v.x, v.y};
}
__device__ __forceinline__ void st_band(float *p, float v) { __stcg(p, v); }
__device__ __forceinline__ void st_band(double *p, double v) { __stcg(p, v); }
__device__ __forceinline__ void st_band(cx<float> *p, cx<float> v) {
    __stcg(reinterpret_cast<float2 *>(p), make_float2(v.re, v.im));
}
__device__ __forceinline__ void st_band(cx<double> *p, cx<double> v) {
    __stcg(reinterpret_cast<double2 *>(p), make_double2(v.re, v.im));
}

template <typename R> struct lim;
template <> struct lim<float> {
    static __device__ __forceinline__ float safmin() { return FLT_MIN / FLT_EPSILON; }
};
template <> struct lim<double> {
    static __device__ __forceinline__ double safmin() { return DBL_MIN / DBL_EPSILON; }
};

/* ---- warp reductions (every lane gets the result) ---- */
template <typename R> __device__ __forceinline__ R warp_sum(R x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
    return x;
}
template <typename R> __device__ __forceinline__ R warp_max(R x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x = max(x, __shfl_xor_sync(0xffffffffu, x, o));
    return x;
}
template <typename R> __device__ __forceinline__ R warp_sum(R x, R) { return warp_sum(x); }
template <typename R> __device__ __forceinline__ cx<R> warp_sum(cx<R> x, R) {
    return {warp_sum(x.re), warp_sum(x.im)};
}

/* |(a, b, c)| without overflow */
template <typename R> __device__ __forceinline__ R norm3(R a, R b, R c) {
    const R w = max(fabs(a), max(fabs(b), fabs(c)));
    if (w == R(0)) return R(0);
    a /= w;
    b /= w;
    c /= w;
    return w * sqrt(a * a + b * b + c * c);
}

/* 2-norm of v[1..len-1] by one warp, scaled by the largest modulus of a part
 * (as the host reference's) */
template <typename T, typename R> __device__ R warp_nrm2(int len, const T *v, int lane) {
    R scale = 0, ssq = 0;
    for (int k = 1 + lane; k < len; k += 32)
        scale = max(scale, max(fabs(re_of(v[k])), fabs(im_of(v[k]))));
    scale = warp_max(scale);
    if (scale == R(0)) return R(0);
    for (int k = 1 + lane; k < len; k += 32) {
        const R a = re_of(v[k]) / scale, b = im_of(v[k]) / scale;
        ssq += a * a + b * b;
    }
    return scale * sqrt(warp_sum(ssq));
}

/* Householder reflector by one warp (LAPACK larfg's definition, the host
 * reference's arithmetic): x[0..len-1] (shared memory) becomes
 * (beta, 0, ..), v[0..len-1] receives v (v(0) = 1); returns tau, the same
 * in every lane. */
template <typename T, typename R> __device__ T warp_larfg(int len, T *x, T *v, int lane) {
    for (int k = 1 + lane; k < len; k += 32) v[k] = x[k];
    if (lane == 0) v[0] = make<T>::of(R(1), R(0));
    __syncwarp();
    R xnorm = warp_nrm2<T, R>(len, v, lane);
    T alpha = x[0];
    R beta = -copysign(norm3(re_of(alpha), im_of(alpha), xnorm), re_of(alpha));
    if (xnorm == R(0) && im_of(alpha) == R(0)) return make<T>::of(R(0), R(0));
    const R safmin = lim<R>::safmin(), rsafmin = R(1) / safmin;
    int knt = 0;
    while (fabs(beta) < safmin && knt < 20) { /* near underflow: scale up, recompute */
        knt++;
        for (int k = 1 + lane; k < len; k += 32) v[k] = rsafmin * v[k];
        beta *= rsafmin;
        alpha = rsafmin * alpha;
    }
    if (knt > 0) {
        __syncwarp();
        xnorm = warp_nrm2<T, R>(len, v, lane);
        beta = -copysign(norm3(re_of(alpha), im_of(alpha), xnorm), re_of(alpha));
    }
    const T tau = make<T>::of((beta - re_of(alpha)) / beta, -im_of(alpha) / beta);
    /* 1 / (alpha - beta) by real divisions only */
    const T z = make<T>::of(re_of(alpha) - beta, im_of(alpha));
    const R az = norm3(re_of(z), im_of(z), R(0));
    const T zs = conj_of(make<T>::of(re_of(z) / az, im_of(z) / az));
    const T scal = make<T>::of(re_of(zs) / az, im_of(zs) / az);
    __syncwarp(); /* every lane has read x[0] before lane 0 overwrites it */
    for (int k = 1 + lane; k < len; k += 32) {
        v[k] = v[k] * scal;
        x[k] = make<T>::of(R(0), R(0));
    }
    for (int k = 0; k < knt; k++) beta *= safmin;
    if (lane == 0) x[0] = make<T>::of(beta, R(0));
    __syncwarp();
    return tau;
}

/* Shared memory of a block: the windows (leading dimension lds = kd + 1,
 * odd or conflict-free for the column sweeps): with pf, two of X and, where
 * they fit (pfa), two of the diagonal block, by parity of the step (step m
 * works in one while the next step's window arrives in the other, see
 * step); without pf one of each; and the vectors of the sweep. */
template <typename T> struct smem {
    T *X[2];   /* kd x kd: X, or for m = 0 the column B(st.., i) (X[1] = X[0] without pf) */
    T *A[2];   /* kd x kd: the diagonal block, both triangles (A[1] = A[0] without pfa) */
    T *v;      /* 2 kd: the reflectors of the last two steps, by parity of m */
    T *w;      /* kd: X vprev taup */
    T *y;      /* kd: tau A v */
    T *z;      /* kd: conj(tau v^H X), by column of X */
    T *tau;    /* 2: the taus of the last two steps, by parity */
    T *lastp;  /* 1: the split step's bulge sum of row kd-1 before the handoff */
    int *pre;  /* set by thread 0 in step m: the window of step m+1 is being copied */
    int lds;
    bool pf;   /* copy the next window ahead where it is final (see step) */
    bool pfa;  /* the diagonal blocks are copied ahead as well */
};

template <typename T> __host__ __device__ int smem_tiles(bool pf, bool pfa) {
    return pf ? (pfa ? 4 : 3) : 2;
}
template <typename T> __host__ __device__ size_t smem_bytes(int kd, int tiles) {
    return sizeof(T) * ((size_t)tiles * kd * (kd + 1) + 5 * (size_t)kd + 3);
}

/* The grouped reflector store (backend.h's hyla_hb2st_store; data NULL: no
 * reflectors kept). */
template <typename T> struct vstore {
    T *data;
    const int64_t *woff;
    int64_t gsz;
    int nb, ldv, nsg;
};

/* The tile loops map thread t to row r = t % 64 and columns c = t / 64 +
 * 4u, u = 0, 1, ..: a warp moves 32 consecutive elements of a column, and
 * the loads of a thread are issued load_batch<T>::u at a time before any is
 * used, so that their L2 latencies overlap: all of a kd = 64 tile at once
 * for real types, half of it for complex ones (register pressure). (kd <= 64
 * rows.) */
const int TILE_COLS_PER_PASS = NT / 64;
template <typename T> struct load_batch { static const int u = 32; };
template <typename R> struct load_batch<cx<R>> { static const int u = 16; };

/* s(r, c) := g(r, c) for r < rows, c < cols; herm: the lower triangle only
 * (r >= c), stored in both triangles of s (conjugated above, the diagonal
 * made real). g: the band (ld), read through L2. */
template <typename T, typename R, bool herm>
__device__ void load_tile(const T *g, int64_t ld, int rows, int cols, T *sm, int lds) {
    const int r = threadIdx.x % 64, c0 = threadIdx.x / 64;
    if (r >= rows) return;
    const int U = load_batch<T>::u;
    for (int u0 = 0; c0 + u0 * TILE_COLS_PER_PASS < cols; u0 += U) {
        T tmp[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int c = c0 + (u0 + u) * TILE_COLS_PER_PASS;
            if (c < cols && (!herm || r >= c)) tmp[u] = ld_band(g + r + c * ld);
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int c = c0 + (u0 + u) * TILE_COLS_PER_PASS;
            if (c >= cols || (herm && r < c)) continue;
            if (!herm) {
                sm[r + c * lds] = tmp[u];
            } else if (r == c) {
                sm[r + c * lds] = make<T>::of(re_of(tmp[u]), R(0));
            } else {
                sm[r + c * lds] = tmp[u];
                sm[c + r * lds] = conj_of(tmp[u]);
            }
        }
    }
}

/* One element from the band into shared memory by an asynchronous copy
 * (cp.async: no register holds it; it lands before the issuing thread's
 * cp.async.wait_all returns). 16-byte elements bypass L1; smaller ones may
 * be cached there, which the progress counters' acquire loads make safe (an
 * acquire at gpu scope orders the later loads after the writes it
 * observed). */
template <typename T> __device__ __forceinline__ void cp_async(T *dst, const T *src) {
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    if (sizeof(T) == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
    else if (sizeof(T) == 8)
        asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(d), "l"(src) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(d), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;" ::: "memory");
}
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_all;" ::: "memory"); }

/* s(r, c) := g(r, c) for r < rows, c < cols by asynchronous copies; herm:
 * the lower triangle only (r >= c), as read (mirror_tile completes it). */
template <typename T, bool herm>
__device__ void prefetch_tile(const T *g, int64_t ld, int rows, int cols, T *sm, int lds) {
    const int r = threadIdx.x % 64, c0 = threadIdx.x / 64;
    if (r >= rows) return;
    for (int c = c0; c < cols && (!herm || c <= r); c += TILE_COLS_PER_PASS)
        cp_async(sm + r + c * lds, g + r + c * ld);
}

/* the upper triangle of the Hermitian s (rows x rows) from its lower one,
 * the diagonal made real */
template <typename T, typename R> __device__ void mirror_tile(int rows, T *sm, int lds) {
    const int r = threadIdx.x % 64, c0 = threadIdx.x / 64;
    if (r >= rows) return;
    for (int c = c0; c <= r; c += TILE_COLS_PER_PASS) {
        const T a = sm[r + c * lds];
        if (r == c)
            sm[r + c * lds] = make<T>::of(re_of(a), R(0));
        else
            sm[c + r * lds] = conj_of(a);
    }
}

/* x summed over the two lanes 2r, 2r+1 of a warp (both get the sum) */
template <typename R> __device__ __forceinline__ R pair_sum(R x) {
    return x + __shfl_xor_sync(0xffffffffu, x, 1);
}
template <typename R> __device__ __forceinline__ cx<R> pair_sum(cx<R> x) {
    return {pair_sum(x.re), pair_sum(x.im)};
}

/* sum_k a(k) b(k) sb over k < len, a strided (shared memory), sb real,
 * four partial sums so that the additions do not wait on each other */
template <typename T, typename R, bool conj_a>
__device__ __forceinline__ T dot(int len, const T *a, int sa, const T *b, R sb) {
    T p0 = make<T>::of(R(0), R(0)), p1 = p0, p2 = p0, p3 = p0;
    int k = 0;
    for (; k + 4 <= len; k += 4) {
        const T a0 = a[k * sa], a1 = a[(k + 1) * sa], a2 = a[(k + 2) * sa], a3 = a[(k + 3) * sa];
        p0 = p0 + (conj_a ? conj_of(a0) : a0) * (sb * b[k]);
        p1 = p1 + (conj_a ? conj_of(a1) : a1) * (sb * b[k + 1]);
        p2 = p2 + (conj_a ? conj_of(a2) : a2) * (sb * b[k + 2]);
        p3 = p3 + (conj_a ? conj_of(a3) : a3) * (sb * b[k + 3]);
    }
    for (; k < len; k++) p0 = p0 + (conj_a ? conj_of(a[k * sa]) : a[k * sa]) * (sb * b[k]);
    return (p0 + p1) + (p2 + p3);
}

/* largest |re|, |im| of x[1..len-1] by one warp (every lane gets it) */
template <typename T, typename R> __device__ __forceinline__ R warp_amax(int len, const T *x) {
    R mx = 0;
    for (int k = 1 + (threadIdx.x & 31); k < len; k += 32)
        mx = max(mx, max(fabs(re_of(x[k])), fabs(im_of(x[k]))));
    return warp_max(mx);
}

/* sum of |x[k] sc|^2 over k in 1..len-1 by one warp (every lane gets it) */
template <typename T, typename R>
__device__ __forceinline__ R warp_ssq(int len, const T *x, R sc) {
    R ssq = 0;
    for (int k = 1 + (threadIdx.x & 31); k < len; k += 32) {
        const R a = re_of(x[k]) * sc, b = im_of(x[k]) * sc;
        ssq += a * a + b * b;
    }
    return warp_sum(ssq);
}

/* The reflector of x = X(:, 0) as every thread computes it without a
 * barrier: x[1..] scaled by the power of two sc = 2^-e, e the exponent of
 * their largest part, so that its sum of squares neither under- nor
 * overflows; beta = -sign(Re alpha) |(alpha, x[1..])|, tau = (beta -
 * alpha) / beta, and v[1..] = x[1..] / (alpha - beta) = (x[1..] sc) vs.
 * Returns false where the exponents are too far out for that (the caller
 * takes warp_larfg, which rescales as LAPACK's larfg does). */
template <typename T, typename R> struct refl {
    T tau, vs;
    R beta, sc;
};
/* The parts the two forms below share. big, small: the range of the
 * largest part of x[1..] their power-of-two scale takes. */
template <typename R> __device__ __forceinline__ R refl_big() {
    return R(sizeof(R) == 8 ? 0x1p+500 : 0x1p+60);
}
/* x[1..] all zero: 1 where H = I (alpha real; f set), -1 where alpha is
 * too small for the formulas (the caller falls back), 0 where the
 * formulas go on with f.sc = 1. */
template <typename T, typename R> __device__ __forceinline__ int refl_zero(R ar, R ai, refl<T, R> &f) {
    const R small = R(1) / refl_big<R>();
    f.sc = 1;
    if (ai == R(0)) {
        f.tau = make<T>::of(R(0), R(0));
        f.vs = f.tau;
        f.beta = ar;
        return 1;
    }
    return fabs(ar) < small && fabs(ai) < small ? -1 : 0;
}
/* beta, tau and vs from alpha = (ar, ai) and xn = |x[1..]| (f.sc set) */
template <typename T, typename R>
__device__ __forceinline__ void refl_finish(R ar, R ai, R xn, refl<T, R> &f) {
    const R beta = -copysign(hypot(hypot(ar, ai), xn), ar);
    const R rb = R(1) / beta;
    f.tau = make<T>::of((beta - ar) * rb, -ai * rb);
    /* 1 / (alpha - beta) = conj(alpha - beta) / |alpha - beta|^2 */
    const R zr = ar - beta, q = R(1) / (zr * zr + ai * ai);
    f.vs = make<T>::of(zr * q / f.sc, -ai * q / f.sc);
    f.beta = beta;
}

template <typename T, typename R> __device__ bool fast_reflector(int len, const T *x, refl<T, R> &f) {
    const T alpha = x[0];
    const R mx = warp_amax<T, R>(len, x);
    const R ar = re_of(alpha), ai = im_of(alpha);
    const R big = refl_big<R>(), small = R(1) / big;
    if (fabs(ar) > big || fabs(ai) > big) return false;
    if (mx == R(0)) {
        const int z = refl_zero<T, R>(ar, ai, f);
        if (z) return z > 0;
    } else {
        if (mx > big || mx < small) return false;
        f.sc = R(1) / exp2(R(ilogb(mx)));
    }
    refl_finish<T, R>(ar, ai, sqrt(warp_ssq<T, R>(len, x, f.sc)) / f.sc, f);
    return true;
}

/* fast_reflector's scalars from the two parts of x the split step
 * (step_split) has at different times: before the handoff, x[1..len-2] by
 * their largest part mx_pre and sum of squares ssq_pre scaled by sc_pre (1
 * / 2^ilogb(mx_pre), 1 where mx_pre is 0); after it, x[len-1] = xl. The
 * same tests and formulas as fast_reflector on the whole of x, with f.sc
 * from the largest part of all of it; rho = f.sc / sc_pre (a power of two)
 * rescales what was summed before. Returns false where fast_reflector
 * would, where mx_pre was out of the range sc_pre may come from, or where
 * xl's exponent exceeds mx_pre's by more than 60 (rho would lose the
 * earlier sums to underflow): the caller takes the whole step again. */
template <typename T, typename R>
__device__ bool split_reflector(T alpha, R mx_pre, R ssq_pre, T xl, refl<T, R> &f, R &rho) {
    const R ar = re_of(alpha), ai = im_of(alpha);
    const R big = refl_big<R>(), small = R(1) / big;
    const R mx = max(mx_pre, max(fabs(re_of(xl)), fabs(im_of(xl))));
    if (fabs(ar) > big || fabs(ai) > big) return false;
    rho = R(0);
    if (mx == R(0)) {
        const int z = refl_zero<T, R>(ar, ai, f);
        if (z) return z > 0;
    } else {
        if (mx > big || mx < small || (mx_pre != R(0) && mx_pre < small)) return false;
        const int e = ilogb(mx);
        f.sc = R(1) / exp2(R(e));
        if (mx_pre != R(0)) {
            const int ep = ilogb(mx_pre);
            if (e - ep > 60) return false;
            rho = exp2(R(ep - e));
        }
    }
    const R xr = re_of(xl) * f.sc, xi = im_of(xl) * f.sc;
    refl_finish<T, R>(ar, ai, sqrt(ssq_pre * rho * rho + (xr * xr + xi * xi)) / f.sc, f);
    return true;
}

/* the counter of a sweep: published by a release store after a barrier of
 * the threads that stored (so cumulative over their stores), read by
 * acquire loads */
__device__ __forceinline__ void publish(int *p, int v) {
    asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ int peek(const int *p) {
    int seen;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(seen) : "l"(p) : "memory");
    return seen;
}
__device__ __forceinline__ int wait_for(const int *p, int need) {
    for (;;) {
        const int seen = peek(p);
        if (seen >= need) return seen;
        __nanosleep(32);
    }
}

/* The bulge of rows 0 .. nv-1 of X (m >= 1, taup != 0), or with LATE of
 * rows 0 .. nv-2: X(r, 0) -= w(r), w(r) = taup X(r, :) vprev, into s.w;
 * two threads a row (warps 0-3), half of the sum each, the second writing
 * X(r, 0), which only the first read. With LATE row nv-1 (the split step's
 * late row) gets its sum alone, into *s.lastp. The caller synchronizes the
 * block afterwards. */
/* The reflector's products by the thread that holds them (step's layout:
 * threads below 128 column c of z, the others row r of y), from its scaled
 * sum ps = p vs, tau, the bulge's w0 and the previous reflector vprev. */
template <typename T, typename R>
__device__ __forceinline__ void store_yz(int tid, int c, int r, T tau, T ps, T w0, const T *vprev,
                                         const T *sX, const T *sA, int lds, const smem<T> &s) {
    if (tid < 128)
        s.z[c] = tau * (conj_of(sX[c * lds] - w0 * conj_of(vprev[c])) + ps);
    else
        s.y[r] = tau * (sA[r] + ps);
}

template <typename T, typename R, bool LATE>
__device__ __forceinline__ void bulge_rows(int kd, int nv, T taup, const T *vprev, T *sX,
                                           const smem<T> &s) {
    const int tid = threadIdx.x, lds = s.lds;
    if (tid < 128) {
        const int r = tid >> 1, h = tid & 1, k0 = h ? kd / 2 : 0,
                  len = r < nv ? (h ? kd - kd / 2 : kd / 2) : 0;
        const T p = pair_sum(dot<T, R, false>(len, sX + r + k0 * lds, lds, vprev + k0, R(1)));
        if (r < (LATE ? nv - 1 : nv)) {
            const T w = taup * p;
            if (h == 0)
                s.w[r] = w;
            else
                sX[r] = sX[r] - w;
        } else if (LATE && r == nv - 1 && h == 0) {
            *s.lastp = p;
        }
    }
}

/* thread 0 of a traced block adds the clock cycles since tk to ph[k] */
#define HB2ST_PHASE(k)                                                                          \
    do {                                                                                       \
        if (TR && threadIdx.x == 0) {                                                          \
            const long long now = clock64();                                                   \
            ph[k] += now - tk;                                                                 \
            tk = now;                                                                          \
        }                                                                                      \
    } while (0)

/* The rest of step m of sweep i once its reflector (vcur, tau) and the
 * products y, z are in shared memory: the look at sweep i-1 (s.pf), the
 * reflector's store, the update of the windows, their stores and row 0's
 * handoff (see step). */
template <typename T, typename R, bool TR>
__device__ __forceinline__ void step_tail(int64_t n, int kd, T *W, int64_t ld, int64_t i, int m,
                                          int M, int *progress, int &seen, const smem<T> &s,
                                          const vstore<T> &q, long long *ph, long long &tk,
                                          int nv, bool bulge, T beta) {
    const int tid = threadIdx.x, lane = tid & 31, lds = s.lds;
    const int tr = tid % 64, tc = tid / 64;
    const int64_t st = i + 1 + (int64_t)m * kd;
    const T *vcur = s.v + (m & 1) * kd, *vprev = s.v + ((m + 1) & 1) * kd;
    const T *sX = s.X[m & 1], *sA = s.A[m & 1];
    T *gA = W + st + st * ld;
    T *gX = m == 0 ? W + st + i * ld : W + st + (st - kd) * ld;
    const int xcols = m == 0 ? 1 : kd;
    if (tid == 0) { /* the next window: final but for its last row? (see above) */
        int pre = 0;
        if (s.pf && m + 1 < M) {
            const int need = 2 * (m + 2); /* sweep i-1's step m+1 done */
            pre = i == 0 || seen >= need || (seen = peek(progress + i - 1)) >= need;
        }
        *s.pre = pre;
    }
    __syncthreads();
    const T tau = s.tau[m & 1];
    if (*s.pre) { /* landing while this step updates and stores */
        const int64_t st1 = st + kd;
        const int nv1 = (int)min((int64_t)kd, n - st1);
        prefetch_tile<T, false>(W + st1 + st * ld, ld, nv1, kd, s.X[(m + 1) & 1], lds);
        if (s.pfa) prefetch_tile<T, true>(W + st1 + st1 * ld, ld, nv1, nv1, s.A[(m + 1) & 1], lds);
        cp_async_commit();
    }

    /* the reflector into column j of group (i / nb, m) of the store (the
     * host reference's hb2st: the same offsets) */
    if (q.data) {
        const int64_t sg = i / q.nb, u = q.nsg - 1 - sg, t = u + m;
        const int j = (int)(i % q.nb);
        T *V = q.data + __ldg(q.woff + t) + (min(t, (int64_t)q.nsg - 1) - u) * q.gsz;
        if (tid < nv) V[j + (int64_t)j * q.ldv + tid] = vcur[tid];
        if (tid == 0) V[(int64_t)q.ldv * q.nb + j + j * q.nb] = tau;
    }
    HB2ST_PHASE(3);

    /* alpha = -tau (y^H v) / 2, computed by every warp */
    T yv = make<T>::of(R(0), R(0));
    for (int r = lane; r < nv; r += 32) yv = yv + conj_of(s.y[r]) * vcur[r];
    yv = warp_sum(yv, R(0));
    const T alpha = R(-0.5) * (tau * yv);

    /* X(:, 0) := (beta, 0, ..); X(:, 1..) := H^H (X(:, 1..) - w vprev(1..)^H);
     * B(block, block) := H^H B H; element (r, c) of each, with vr = v(r),
     * yr = y(r) + alpha v(r) */
    auto x_out = [&](int r, int c, T vr) {
        if (c == 0) return r == 0 ? beta : make<T>::of(R(0), R(0));
        T x = sX[r + c * lds] - vr * conj_of(s.z[c]);
        if (bulge) x = x - s.w[r] * conj_of(vprev[c]);
        return x;
    };
    auto a_out = [&](int r, int c, T vr, T yr) {
        const T yc = s.y[c] + alpha * vcur[c];
        T a = sA[r + c * lds] - (vr * conj_of(yc) + yr * conj_of(vcur[c]));
        if (r == c) a = make<T>::of(re_of(a), R(0));
        return a;
    };
    /* row 0 first, by warp 0, and the handoff (see above) */
    if (tid < 32) {
        const T v0 = vcur[0];
        for (int c = lane; c < xcols; c += 32) st_band(gX + c * ld, x_out(0, c, v0));
        if (lane == 0) st_band(gA, a_out(0, 0, v0, s.y[0] + alpha * v0));
        __syncwarp();
        if (lane == 0) publish(progress + i, 2 * m + 1);
    }
    /* rows 1.. */
    if (tr > 0 && tr < nv) {
        const T vr = vcur[tr], yr = s.y[tr] + alpha * vr;
        for (int c = tc; c < xcols; c += TILE_COLS_PER_PASS) st_band(gX + tr + c * ld, x_out(tr, c, vr));
        for (int c = tc; c <= tr; c += TILE_COLS_PER_PASS) st_band(gA + tr + c * ld, a_out(tr, c, vr, yr));
    }
    HB2ST_PHASE(4);
}

/* Step m of sweep i (all threads of the block; see host_hb2st.c), M steps
 * in all; sweep i-1 has Mp; progress: the sweeps' counters (see above);
 * seen: thread 0's last reading of progress[i-1]. TR: thread 0 adds the
 * clock cycles of the step's phases to ph[1..4] (load, bulge, reflector
 * and products, update and stores).
 *
 * Prefetch (s.pf): the window of step m+1 (X and, with pfa, the diagonal
 * block) is final, but for its last row, once sweep i-1 has done its step
 * m+1. Thread 0 looks once, after the products (by then, in the steady
 * state, sweep i-1 has finished the step whose handoff this one waited
 * for); where it has, the block copies that window into the other buffers
 * (cp.async) while it updates and stores this one, and step m+1 reads only
 * the last row. Where it has not, step m+1 loads its whole window after its
 * wait. */
template <typename T, typename R, bool TR>
__device__ void step(int64_t n, int kd, T *W, int64_t ld, int64_t i, int m, int M, int Mp,
                     int *progress, int &seen, const smem<T> &s, const vstore<T> &q,
                     long long *ph) {
    long long tk = TR ? clock64() : 0;
    const int tid = threadIdx.x, lane = tid & 31, lds = s.lds;
    const int64_t st = i + 1 + (int64_t)m * kd;
    const int nv = (int)min((int64_t)kd, n - st);
    T *vcur = s.v + (m & 1) * kd, *vprev = s.v + ((m + 1) & 1) * kd;
    T *sX = s.X[m & 1], *sA = s.A[m & 1];
    T *gA = W + st + st * ld;
    T *gX = m == 0 ? W + st + i * ld : W + st + (st - kd) * ld;
    const int xcols = m == 0 ? 1 : kd;

    /* the diagonal block (Hermitian, both triangles) and X */
    if (m == 0 || !*s.pre) {
        load_tile<T, R, true>(gA, ld, nv, nv, sA, lds);
        load_tile<T, R, false>(gX, ld, nv, xcols, sX, lds);
    } else {
        /* the last row, which sweep i-1 wrote after the prefetch: all of
         * the diagonal block's and X's last element (read while the
         * prefetch is waited for) */
        T late = make<T>::of(R(0), R(0));
        if (tid < nv)
            late = ld_band(gA + (nv - 1) + tid * ld);
        else if (tid == 64)
            late = ld_band(gX + (nv - 1) + (kd - 1) * ld);
        cp_async_wait();
        __syncthreads();
        if (tid < nv) {
            if (s.pfa) {
                sA[nv - 1 + tid * lds] = tid == nv - 1 ? make<T>::of(re_of(late), R(0)) : late;
                if (tid < nv - 1) sA[tid + (nv - 1) * lds] = conj_of(late);
            }
        } else if (tid == 64) {
            sX[nv - 1 + (kd - 1) * lds] = late;
        }
        if (s.pfa)
            mirror_tile<T, R>(nv - 1, sA, lds);
        else
            load_tile<T, R, true>(gA, ld, nv, nv, sA, lds);
    }
    __syncthreads();
    HB2ST_PHASE(1);

    /* m >= 1: X := X (I - taup vprev vprev^H) = X - w vprev^H, the bulge,
     * w = taup X vprev. Only X(:, 0) is updated here (vprev(0) = 1); the
     * products below and the final update of X(:, 1..) take the rank-1
     * term into account. */
    bool bulge = false;
    if (m > 0) {
        const T taup = s.tau[(m + 1) & 1];
        bulge = re_of(taup) != R(0) || im_of(taup) != R(0);
        if (bulge) {
            bulge_rows<T, R, false>(kd, nv, taup, vprev, sX, s);
            __syncthreads();
        }
    }
    HB2ST_PHASE(2);

    /* The reflector H = I - tau v v^H of x = X(:, 0) (m = 0: the column
     * itself), y = tau A v and z = conj(tau X(:, 1..)^H v). The products
     * are linear in v(1..) = x(1..) vs, so they run on x while every thread
     * forms the reflector's scalars (fast_reflector); else warp 0 forms v
     * first (warp_larfg) and the products follow. */
    refl<T, R> f;
    const bool fast = fast_reflector<T, R>(nv, sX, f);
    T beta;
    {
        /* z (warps 0-3) and y (warps 4-7), two threads a column or row, half
         * of the sum each; rows and columns 1.. of x on the fast path */
        const int h = tid & 1, f0 = fast ? 1 : 0, k0 = h ? f0 + (nv - f0) / 2 : f0,
                  half = h ? nv - k0 : (nv - f0) / 2;
        const T *b = fast ? sX : vcur;
        if (!fast) {
            if (tid < 32) {
                const T tau = warp_larfg<T, R>(nv, sX, vcur, lane);
                if (lane == 0) s.tau[m & 1] = tau;
            }
            __syncthreads();
        }
        const int c = (tid >> 1) + 1, r = (tid - 128) >> 1;
        const bool on = tid < 128 ? m > 0 && c < kd : r < nv;
        const R sb = fast ? f.sc : R(1);
        T p = tid < 128
                  ? pair_sum(dot<T, R, true>(on ? half : 0, sX + c * lds + k0, 1, b + k0, sb))
                  : pair_sum(dot<T, R, false>(on ? half : 0, sA + r + k0 * lds, lds, b + k0, sb));
        /* X(:, c) - w conj(vprev(c)) in place of X(:, c): p -= vprev(c) g,
         * g = sum of conj(w) b sb over the same rows (each warp forms it) */
        T w0 = make<T>::of(R(0), R(0));
        if (tid < 128 && bulge) {
            T g = make<T>::of(R(0), R(0));
            for (int k = f0 + lane; k < nv; k += 32) g = g + conj_of(s.w[k]) * (sb * b[k]);
            g = warp_sum(g, R(0));
            if (on) p = p - vprev[c] * g;
            w0 = s.w[0];
        }
        if (fast) {
            const T tau = f.tau;
            const T ps = p * f.vs;
            if (h == 0 && on) store_yz<T, R>(tid, c, r, tau, ps, w0, vprev, sX, sA, lds, s);
            if (tid < nv)
                vcur[tid] = tid == 0 ? make<T>::of(R(1), R(0))
                                     : (f.sc * sX[tid]) * f.vs;
            if (tid == 0) s.tau[m & 1] = tau;
            beta = make<T>::of(f.beta, R(0));
        } else {
            const T tau = s.tau[m & 1];
            if (h == 0 && on) {
                if (tid < 128)
                    s.z[c] = tau * p;
                else
                    s.y[r] = tau * p;
            }
            beta = sX[0];
        }
    }
    step_tail<T, R, TR>(n, kd, W, ld, i, m, M, progress, seen, s, q, ph, tk, nv, bulge, beta);
}


/* Step m of sweep i split at the late row, where sweep i-1 has a step m+1
 * (nv = kd): the window's last row L = kd-1 (the diagonal block's row and
 * column L, X(L, lc) with lc = kd-1, or 0 for m = 0's column) is row 0 of
 * sweep i-1's step m+1, final only at its handoff; the rest of the window
 * is final once sweep i-1 has finished step m (the caller waits for that).
 * So the load, the bulge of rows 0..L-1, the largest part and the scaled
 * sum of squares of x[1..L-1], and y and z over those rows of x run before
 * the wait for the handoff (need); after it, the late row is read, x[L]
 * formed, and the scalars and products completed by their terms in x[L]
 * and the late row (split_reflector; y(L) whole). Sweep i then trails
 * sweep i-1 by a step and that completion instead of a step and the
 * larger part of a step up to the handoff. The arithmetic is step()'s
 * fast path with the sums over x taken in two parts. Returns false where
 * split_reflector does, after the wait and before any store: the caller
 * then runs step() on the whole window. */
template <typename T, typename R, bool TR>
__device__ bool step_split(int kd, T *W, int64_t ld, int64_t i, int m, int M, int need,
                           int *progress, int &seen, const smem<T> &s, const vstore<T> &q,
                           long long *ph, int64_t n) {
    long long tk = TR ? clock64() : 0;
    const int tid = threadIdx.x, lane = tid & 31, lds = s.lds;
    const int64_t st = i + 1 + (int64_t)m * kd;
    const int nv = kd, L = kd - 1, lc = m == 0 ? 0 : kd - 1;
    T *vcur = s.v + (m & 1) * kd, *vprev = s.v + ((m + 1) & 1) * kd;
    T *sX = s.X[0], *sA = s.A[0];
    T *gA = W + st + st * ld;
    T *gX = m == 0 ? W + st + i * ld : W + st + (st - kd) * ld;
    const int xcols = m == 0 ? 1 : kd;
    const T zero = make<T>::of(R(0), R(0));

    /* the window without its late row (zeros in its place) */
    load_tile<T, R, true>(gA, ld, L, L, sA, lds);
    load_tile<T, R, false>(gX, ld, nv, xcols, sX, lds);
    if (tid < nv) sA[L + tid * lds] = sA[tid + L * lds] = zero;
    /* by the thread that loaded it */
    if (tid % 64 == L && tid / 64 == lc % TILE_COLS_PER_PASS) sX[L + lc * lds] = zero;
    __syncthreads();
    HB2ST_PHASE(1);

    /* the bulge (see step) of rows 0..L-1; row L's sum without the late
     * X(L, kd-1) kept for later */
    bool bulge = false;
    T taup = zero;
    if (m > 0) {
        taup = s.tau[(m + 1) & 1];
        bulge = re_of(taup) != R(0) || im_of(taup) != R(0);
        if (bulge) {
            bulge_rows<T, R, true>(kd, nv, taup, vprev, sX, s);
            __syncthreads();
        }
    }
    HB2ST_PHASE(2);

    /* x[1..L-1]: its largest part and scaled sum of squares (every warp),
     * and the products over those rows (step's layout, row L left out) */
    const R big = refl_big<R>(), small = R(1) / big;
    const R mx_pre = warp_amax<T, R>(L, sX);
    const R sc_pre = mx_pre >= small && mx_pre <= big ? R(1) / exp2(R(ilogb(mx_pre))) : R(1);
    const R ssq_pre = warp_ssq<T, R>(L, sX, sc_pre);
    const int h = tid & 1, k0 = h ? 1 + L / 2 : 1, half = h ? L - k0 : L / 2;
    const int c = (tid >> 1) + 1, r = (tid - 128) >> 1;
    const bool on = tid < 128 ? m > 0 && c < kd : r < nv;
    T p = tid < 128
              ? pair_sum(dot<T, R, true>(on ? half : 0, sX + c * lds + k0, 1, sX + k0, sc_pre))
              : pair_sum(dot<T, R, false>(on ? half : 0, sA + r + k0 * lds, lds, sX + k0, sc_pre));
    T g = zero;
    if (tid < 128 && bulge) {
        for (int k = 1 + lane; k < L; k += 32) g = g + conj_of(s.w[k]) * (sc_pre * sX[k]);
        g = warp_sum(g, R(0));
    }
    HB2ST_PHASE(3);

    /* sweep i-1's handoff of its step m+1, then the late row */
    if (tid == 0 && seen < need) seen = wait_for(progress + (i - 1), need);
    __syncthreads();
    HB2ST_PHASE(0);
    if (tid < nv) {
        const T a = ld_band(gA + L + tid * ld);
        sA[L + tid * lds] = tid == L ? make<T>::of(re_of(a), R(0)) : a;
        if (tid < L) sA[tid + L * lds] = conj_of(a);
    } else if (tid == 64) {
        sX[L + lc * lds] = ld_band(gX + L + lc * ld);
    }
    __syncthreads();

    /* x[L] and the bulge's w(L) (every thread) */
    T wl = zero, xl = sX[L];
    if (bulge) {
        wl = taup * (*s.lastp + sX[L + (kd - 1) * lds] * vprev[kd - 1]);
        xl = xl - wl;
    }
    refl<T, R> f;
    R rho;
    if (!split_reflector<T, R>(sX[0], mx_pre, ssq_pre, xl, f, rho)) {
        __syncthreads(); /* all have read the window before step() loads it again */
        return false;
    }
    const T xs = f.sc * xl; /* x[L] scaled */
    /* the products: the earlier sums rescaled, and their terms in x[L]:
     * z(c) gains conj(X(L, c)) x[L], g conj(w(L)) x[L], y(r) A(r, L) x[L]
     * for r < L; y(L) is summed whole here, over the late row, by the warp
     * of its two threads (every lane two terms or so, then a warp sum) */
    T own = zero;
    if (tid < 128) {
        if (on && h == 0) own = conj_of(sX[L + c * lds]) * xs;
    } else if (r < L) {
        if (h == 0) own = sA[r + L * lds] * xs;
    }
    p = rho * p + pair_sum(own);
    if (tid >> 5 == (128 + 2 * L) >> 5) {
        T yl = zero;
        for (int k = 1 + lane; k < L; k += 32) yl = yl + sA[L + k * lds] * (f.sc * sX[k]);
        yl = warp_sum(yl, R(0));
        if (r == L) p = yl + sA[L + L * lds] * xs;
    }
    T w0 = zero;
    if (tid < 128 && bulge) {
        g = rho * g + conj_of(wl) * xs;
        if (on) p = p - vprev[c] * g;
        w0 = s.w[0];
    }
    {
        const T tau = f.tau, ps = p * f.vs;
        if (h == 0 && on) store_yz<T, R>(tid, c, r, tau, ps, w0, vprev, sX, sA, lds, s);
        if (tid < nv)
            vcur[tid] = tid == 0 ? make<T>::of(R(1), R(0))
                                 : (tid == L ? xs : f.sc * sX[tid]) * f.vs;
        if (tid == 0) {
            s.tau[m & 1] = tau;
            if (bulge) s.w[L] = wl;
        }
    }
    step_tail<T, R, TR>(n, kd, W, ld, i, m, M, progress, seen, s, q, ph, tk, nv, bulge,
                        make<T>::of(f.beta, R(0)));
    return true;
}

/* TR: the blocks add the clock cycles of the phases of the steps of sweeps
 * n/4 .. 3n/4 - 1 to trace[0..5] (wait, load, bulge, reflector and
 * products, update and stores, publish) and their number to trace[7], and
 * the number of split steps of any sweep that fell back to step() to
 * trace[6]. */
template <typename T, typename R, bool TR>
__global__ void __launch_bounds__(NT) hb2st_kernel(int64_t n, int kd, T *W, int64_t ld,
                                                   int *progress, int *ticket, vstore<T> q,
                                                   bool pf, bool pfa, bool split,
                                                   long long *trace) {
    extern __shared__ __align__(16) unsigned char raw[];
    __shared__ int sweep, pre;
    smem<T> s;
    s.pre = &pre;
    s.lds = kd + 1;
    s.pf = pf;
    s.pfa = pf && pfa;
    s.X[0] = reinterpret_cast<T *>(raw);
    s.X[1] = pf ? s.X[0] + kd * s.lds : s.X[0];
    s.A[0] = s.X[1] + kd * s.lds;
    s.A[1] = s.pfa ? s.A[0] + kd * s.lds : s.A[0];
    s.v = s.A[1] + kd * s.lds;
    s.w = s.v + 2 * kd;
    s.y = s.w + kd;
    s.z = s.y + kd;
    s.tau = s.z + kd;
    s.lastp = s.tau + 2;
    long long ph[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (;;) {
        if (threadIdx.x == 0) sweep = atomicAdd(ticket, 1);
        __syncthreads();
        const int64_t i = sweep;
        __syncthreads(); /* everyone has read `sweep` before thread 0 takes the next */
        if (i >= n - 1) break;
        const bool sampled = TR && i >= n / 4 && i < 3 * n / 4;
        const int M = (int)((n - 1 - i + kd - 1) / kd);
        const int Mp = i > 0 ? (int)((n - i + kd - 1) / kd) : 0;
        int seen = 0; /* thread 0: progress of sweep i-1 last read */
        for (int m = 0; m < M; m++) {
            long long t0 = sampled ? clock64() : 0;
            /* split: sweep i-1 has a step m+1, whose handoff the step waits
             * for halfway (step_split) */
            const bool late = split && i > 0 && kd >= 2 && m + 2 <= Mp;
            if (i > 0) {
                /* step m done (split), or step m+1's handoff, or all of
                 * sweep i-1 (see above) */
                const int need = late ? 2 * m + 2 : m + 2 <= Mp ? 2 * m + 3 : 2 * Mp;
                if (threadIdx.x == 0 && seen < need) seen = wait_for(progress + (i - 1), need);
                __syncthreads();
            }
            if (sampled && threadIdx.x == 0) ph[0] += clock64() - t0;
            bool done = false;
            if (late)
                done = sampled ? step_split<T, R, true>(kd, W, ld, i, m, M, 2 * m + 3, progress,
                                                        seen, s, q, ph, n)
                               : step_split<T, R, false>(kd, W, ld, i, m, M, 2 * m + 3,
                                                         progress, seen, s, q, ph, n);
            /* (traced: every split step that fell back, all sweeps) */
            if (TR && late && !done && threadIdx.x == 0) ph[6]++;
            if (done)
                ;
            else if (sampled)
                step<T, R, true>(n, kd, W, ld, i, m, M, Mp, progress, seen, s, q, ph);
            else
                step<T, R, false>(n, kd, W, ld, i, m, M, Mp, progress, seen, s, q, ph);
            t0 = sampled ? clock64() : 0;
            __syncthreads();
            if (threadIdx.x == 0) publish(progress + i, 2 * m + 2);
            if (sampled && threadIdx.x == 0) {
                ph[5] += clock64() - t0;
                ph[7]++;
            }
        }
    }
    if (TR && threadIdx.x == 0 && (ph[7] > 0 || ph[6] > 0))
        for (int k = 0; k < 8; k++)
            atomicAdd(reinterpret_cast<unsigned long long *>(trace + k),
                      static_cast<unsigned long long>(ph[k]));
}

/* d := Re diag, e := the subdiagonal (complex: its moduli, or with signed
 * set its real part, the imaginary part being zero; 0 for kd = 0) */
template <typename T, typename R>
__global__ void extract_kernel(int64_t n, int kd, const T *AB, int64_t ldab, R *d, R *e,
                               bool signed_e) {
    for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < n;
         j += (int64_t)gridDim.x * blockDim.x) {
        d[j] = re_of(AB[j * ldab]);
        if (j + 1 < n) {
            const T b = kd > 0 ? AB[1 + j * ldab] : make<T>::of(R(0), R(0));
            e[j] = sizeof(T) == sizeof(R) || signed_e ? re_of(b) : norm3(re_of(b), im_of(b), R(0));
        }
    }
}

/* T of one group of the store (LAPACK larft, forward columnwise; the host
 * reference's hb_build_t) by the block: G(l, j) = V(:, l)^H V(:, j), l < j,
 * over rows j .. l+kd-1 (where both columns can be nonzero) into T's
 * strict upper triangle, then column by column T(k, j) = -tau_j
 * sum_{l=k}^{j-1} T(k, l) G(l, j) by thread k (row k of T is read and
 * written by thread k alone; g: nb elements of shared memory). */
template <typename T, typename R>
__device__ void build_t_group(int kd, int nb, int ldv, const T *V, T *Tm, T *g) {
    const int tid = threadIdx.x;
    for (int p = tid; p < nb * nb; p += NT) {
        const int l = p % nb, j = p / nb;
        if (l >= j) continue;
        T acc = make<T>::of(R(0), R(0));
        for (int r = j; r < l + kd; r++) acc = acc + conj_of(V[r + l * ldv]) * V[r + j * ldv];
        Tm[l + j * nb] = acc;
    }
    __syncthreads();
    for (int j = 1; j < nb; j++) {
        const T tau = Tm[j + j * nb];
        if (tid < j) g[tid] = make<T>::of(R(0), R(0)) - tau * Tm[tid + j * nb];
        __syncthreads();
        if (tid < j) {
            T acc = make<T>::of(R(0), R(0));
            for (int l = tid; l < j; l++) acc = acc + Tm[tid + l * nb] * g[l];
            Tm[tid + j * nb] = acc;
        }
        __syncthreads();
    }
}

/* T of the groups blockIdx.x, + gridDim.x, .. of the store. */
template <typename T, typename R>
__global__ void __launch_bounds__(NT) build_t_kernel(int kd, vstore<T> q, int64_t ngroups) {
    __shared__ T g[NT]; /* nb <= hyla_hb2st_max_nb(kd) <= NT */
    for (int64_t gi = blockIdx.x; gi < ngroups; gi += gridDim.x) {
        T *G = q.data + gi * q.gsz;
        build_t_group<T, R>(kd, q.nb, q.ldv, G, G + (int64_t)q.ldv * q.nb, g);
    }
}

int launch_status() {
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
}

/* the chase kernel (TR: traced) on a grid of what fits at once, its steps
 * by mode (the probe's prefetch): 2 split at the late row (step_split), 1
 * with the windows copied ahead (the diagonal blocks too where the shared
 * memory allows), 0 loaded after the wait */
template <typename T, typename R, bool TR>
int launch_chase(cudaStream_t st, int64_t n, int kd, T *AB, int64_t ldab, void *work,
                 const vstore<T> &q, int prefetch, long long *trace) {
    int *progress = static_cast<int *>(work), *ticket = progress + n;
    int dev = 0, sms = 0, per_sm = 0, optin = 0;
    if (cudaMemsetAsync(work, 0, sizeof(int) * (size_t)(n + 1), st) != cudaSuccess ||
        cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess) {
        (void)cudaGetLastError();
        return HYLA_ERR_DEVICE;
    }
    /* the static shared memory (`sweep`) and a margin */
    const bool fits4 = smem_bytes<T>(kd, smem_tiles<T>(true, true)) + 64 <= (size_t)optin;
    const bool fits3 = smem_bytes<T>(kd, smem_tiles<T>(true, false)) + 64 <= (size_t)optin;
    /* (the library's choice per type is the tuning table's eig_chase_step)
     * copied ahead needs the second X window at least: where even that does
     * not fit (d at kd 64 below about 100 KB a block, z below about 200
     * KB), the steps load after the wait */
    const bool split = prefetch == 2, pf = prefetch == 1 && fits3, pfa = pf && fits4;
    const size_t bytes = smem_bytes<T>(kd, smem_tiles<T>(pf, pfa));
    if (cudaFuncSetAttribute(hb2st_kernel<T, R, TR>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)bytes) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hb2st_kernel<T, R, TR>, NT,
                                                      bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        return HYLA_ERR_DEVICE;
    }
    if (per_sm < 1) return HYLA_ERR_DEVICE;
    /* about 3 M0 / 4 sweeps (M0 steps the longest) run at once, sweep i
     * starting a step and a handoff (about two thirds of a step) after
     * sweep i-1, and up to M0 split (a step and a small part of one):
     * more blocks would only poll, and hold SMs that other queues' kernels
     * could use */
    const int64_t steps0 = (n - 2 + kd) / kd;
    const int64_t grid = min(min((int64_t)per_sm * sms, n - 1),
                             split ? steps0 + 2 : (3 * steps0 + 3) / 4 + 2);
    hb2st_kernel<T, R, TR><<<(unsigned)grid, NT, bytes, st>>>(
        n, kd, AB, ldab - 1, progress, ticket, q, pf, pfa, split, trace);
    return launch_status();
}

template <typename T, typename R>
int hb2st_typed(cudaStream_t st, int64_t n, int kd, T *AB, int64_t ldab, R *d, R *e,
                void *work, const hyla_hb2st_store *hs, int prefetch, long long *trace) {
    vstore<T> q = {nullptr, nullptr, 0, 1, 1, 0};
    if (hs && hs->ngroups > 0) {
        q.data = static_cast<T *>(hs->data);
        q.woff = hs->woff;
        q.gsz = hs->gsz;
        q.nb = (int)hs->nb;
        q.ldv = (int)hs->ldv;
        q.nsg = (int)hs->nsg;
    }
    (void)cudaGetLastError();
    if (q.data && cudaMemsetAsync(q.data, 0, sizeof(T) * (size_t)(hs->ngroups * hs->gsz), st) !=
                      cudaSuccess) {
        (void)cudaGetLastError();
        return HYLA_ERR_DEVICE;
    }
    if (kd > 0) {
        int rc = trace ? launch_chase<T, R, true>(st, n, kd, AB, ldab, work, q, prefetch, trace)
                       : launch_chase<T, R, false>(st, n, kd, AB, ldab, work, q, prefetch,
                                                   nullptr);
        if (rc) return rc;
        if (q.data && q.nb > 1) {
            const int64_t grid = min(hs->ngroups, (int64_t)1 << 20);
            build_t_kernel<T, R><<<(unsigned)grid, NT, 0, st>>>(kd, q, hs->ngroups);
            rc = launch_status();
            if (rc) return rc;
        }
    }
    const int64_t blocks = min((n + 255) / 256, (int64_t)1024);
    extract_kernel<T, R><<<(unsigned)blocks, 256, 0, st>>>(n, kd, AB, ldab, d, e, hs != nullptr);
    return launch_status();
}

} // namespace

extern "C" int hyla_cuda_hb2st(cudaStream_t s, int dtype, int64_t n, int64_t kd, void *AB,
                               int64_t ldab, void *d, void *e, void *work,
                               const hyla_hb2st_store *st, int step) {
    /* HYLA_CHASE_STEP_WAIT .. _SPLIT (1..3) are the probe's 0..2; AUTO is
     * the plain order, WAIT */
    if (step < HYLA_CHASE_STEP_AUTO || step > HYLA_CHASE_STEP_SPLIT) return HYLA_ERR_INVALID;
    const int pf = step == HYLA_CHASE_STEP_AUTO ? 0 : step - 1;
    return hyla_cuda_hb2st_probe(s, dtype, n, kd, AB, ldab, d, e, work, st, pf, nullptr);
}

extern "C" int hyla_cuda_hb2st_probe(cudaStream_t s, int dtype, int64_t n, int64_t kd, void *AB,
                                     int64_t ldab, void *d, void *e, void *work,
                                     const hyla_hb2st_store *st, int prefetch,
                                     long long *trace) {
    if (n <= 0) return 0;

    const int64_t kde = kd < n - 1 ? kd : n - 1;
    if (kde < 0 || kde > HYLA_CUDA_HB2ST_MAX_KD || n >= INT32_MAX || prefetch < 0 ||
        prefetch > 2)
        return HYLA_ERR_INVALID;
    switch (dtype) {
    case HYLA_S:
        return hb2st_typed<float, float>(s, n, (int)kde, static_cast<float *>(AB), ldab,
                                         static_cast<float *>(d), static_cast<float *>(e), work,
                                         st, prefetch, trace);
    case HYLA_D:
        return hb2st_typed<double, double>(s, n, (int)kde, static_cast<double *>(AB), ldab,
                                           static_cast<double *>(d), static_cast<double *>(e),
                                           work, st, prefetch, trace);
    case HYLA_C:
        return hb2st_typed<cx<float>, float>(s, n, (int)kde, static_cast<cx<float> *>(AB), ldab,
                                             static_cast<float *>(d), static_cast<float *>(e),
                                             work, st, prefetch, trace);
    case HYLA_Z:
        return hb2st_typed<cx<double>, double>(s, n, (int)kde, static_cast<cx<double> *>(AB),
                                               ldab, static_cast<double *>(d),
                                               static_cast<double *>(e), work, st, prefetch, trace);
    default:
        return HYLA_ERR_INVALID;
    }
}
