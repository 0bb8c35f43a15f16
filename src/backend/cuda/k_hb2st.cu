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
 * by one row and column; its rows from m' = m+2 on start at
 * i+(m+2)kd > i+(m+1)kd, past the last row of step m of sweep i. So step
 * m of sweep i may run once sweep i-1 has finished its steps 0 .. m+1 (all
 * of them if it has fewer): a lag of HB2ST_LAG = 2 steps. Sweep i-2 is then
 * at least at step m+3 (sweep i-1 waited for it), and so on up the chain.
 * No step of sweep i-1 that is still to run touches what step m of sweep
 * i does either (m' >= m+2), so the order of reads and writes is that of
 * the sequential loop: the results are those of the host reference up to
 * the rounding of the reductions.
 *
 * Scheduling: a block takes the next sweep from a ticket counter, runs its
 * steps in order, and publishes after each step the number of steps done
 * in progress[i]; before step m it waits (thread 0 polls progress[i-1]).
 * Sweeps are taken in increasing order by blocks that are running, so the
 * sweep waited on is always held by a running block, whose own wait
 * resolves by induction down to the lowest unfinished sweep, which never
 * waits: no deadlock, whatever the number of resident blocks. The grid is
 * what the occupancy API says fits at once (more would only queue).
 *
 * Memory: a step loads its windows (X = B(block m, block m-1), nv x kd, and
 * the Hermitian diagonal block, both triangles) into shared memory, works
 * there, and writes the results back. Global accesses to the band bypass
 * L1 (ld.global.cg / st.global.cg): other SMs write the band, and L1 is not
 * coherent. Publishing: the block synchronizes, then thread 0 fences
 * (__threadfence, cumulative over the stores the barrier ordered before it)
 * and writes the counter; waiting: thread 0 polls the counter (volatile),
 * fences, the block synchronizes (the pattern of cooperative groups' grid
 * barrier). */
#include <cfloat>
#include <cstdint>
#include <cuda_runtime.h>

#define hyla_complex_float float2
#define hyla_complex_double double2
#include "hyla.h"

#include "backend/cuda/k_hb2st.h"
#include "backend/backend.h"

namespace {

const int NT = 256;       /* threads per block: eight warps (two per row of a dot) */
const int HB2ST_LAG = 2;  /* steps by which sweep i trails sweep i-1 (see above) */

/* variants of the kernel (hyla_cuda_hb2st_probe's var) */
const unsigned VAR_RELEASE = HYLA_CUDA_HB2ST_RELEASE, VAR_SPIN = HYLA_CUDA_HB2ST_SPIN,
               VAR_NORM = HYLA_CUDA_HB2ST_FASTNORM, VAR_BULGE4 = HYLA_CUDA_HB2ST_BULGE4;

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
template <typename T, typename R>
__device__ T warp_larfg(int len, T *x, T *v, int lane, bool fast) {
    for (int k = 1 + lane; k < len; k += 32) v[k] = x[k];
    if (lane == 0) v[0] = make<T>::of(R(1), R(0));
    __syncwarp();
    T alpha = x[0];
    R xnorm = -1, beta = 0;
    if (fast) { /* the unscaled sums of squares, where they are safe */
        R ssq = 0;
        for (int k = 1 + lane; k < len; k += 32)
            ssq += re_of(v[k]) * re_of(v[k]) + im_of(v[k]) * im_of(v[k]);
        ssq = warp_sum(ssq);
        const R all = ssq + re_of(alpha) * re_of(alpha) + im_of(alpha) * im_of(alpha);
        const R lo = lim<R>::safmin(), hi = R(1) / lo;
        if (ssq == R(0)) {
            xnorm = 0;
            beta = -copysign(norm3(re_of(alpha), im_of(alpha), R(0)), re_of(alpha));
        } else if (ssq >= lo && all <= hi) {
            xnorm = sqrt(ssq);
            beta = -copysign(sqrt(all), re_of(alpha));
        }
    }
    if (xnorm < R(0)) {
        xnorm = warp_nrm2<T, R>(len, v, lane);
        beta = -copysign(norm3(re_of(alpha), im_of(alpha), xnorm), re_of(alpha));
    }
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
 * odd or conflict-free for the column sweeps) and the vectors of the
 * sweep. */
template <typename T> struct smem {
    T *X;      /* kd x kd: X, or for m = 0 the column B(st.., i) */
    T *A;      /* kd x kd: the diagonal block, both triangles */
    T *v;      /* 2 kd: the reflectors of the last two steps, by parity of m */
    T *w;      /* kd: X vprev taup */
    T *y;      /* kd: tau A v */
    T *z;      /* kd: conj(tau v^H X), by column of X */
    T *tau;    /* 2: the taus of the last two steps, by parity */
    int lds;
};

template <typename T> __host__ __device__ size_t smem_bytes(int kd) {
    return sizeof(T) * ((size_t)2 * kd * (kd + 1) + 5 * (size_t)kd + 2);
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
 * 2u, u = 0, 1, ..: a warp moves 32 consecutive elements of a column, and
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

/* x summed over the two lanes 2r, 2r+1 of a warp (both get the sum) */
template <typename R> __device__ __forceinline__ R pair_sum(R x) {
    return x + __shfl_xor_sync(0xffffffffu, x, 1);
}
template <typename R> __device__ __forceinline__ cx<R> pair_sum(cx<R> x) {
    return {pair_sum(x.re), pair_sum(x.im)};
}

/* sum_k a(k) b(k) over k < len, a and b strided (shared memory), four
 * partial sums so that the additions do not wait on each other */
template <typename T, typename R, bool conj_a>
__device__ __forceinline__ T dot(int len, const T *a, int sa, const T *b) {
    T p0 = make<T>::of(R(0), R(0)), p1 = p0, p2 = p0, p3 = p0;
    int k = 0;
    for (; k + 4 <= len; k += 4) {
        const T a0 = a[k * sa], a1 = a[(k + 1) * sa], a2 = a[(k + 2) * sa], a3 = a[(k + 3) * sa];
        p0 = p0 + (conj_a ? conj_of(a0) : a0) * b[k];
        p1 = p1 + (conj_a ? conj_of(a1) : a1) * b[k + 1];
        p2 = p2 + (conj_a ? conj_of(a2) : a2) * b[k + 2];
        p3 = p3 + (conj_a ? conj_of(a3) : a3) * b[k + 3];
    }
    for (; k < len; k++) p0 = p0 + (conj_a ? conj_of(a[k * sa]) : a[k * sa]) * b[k];
    return (p0 + p1) + (p2 + p3);
}

/* Step m of sweep i (all threads of the block; see host_hb2st.c). TR: thread
 * 0 adds the clock cycles of the step's phases to ph[1..5] (load, bulge,
 * reflector, products, update and stores). */
template <typename T, typename R, bool TR>
__device__ void step(int64_t n, int kd, T *W, int64_t ld, int64_t i, int m, const smem<T> &s,
                     const vstore<T> &q, long long *ph, unsigned var) {
    long long tk = TR ? clock64() : 0;
#define HB2ST_PHASE(k)                                                                          \
    do {                                                                                       \
        if (TR && threadIdx.x == 0) {                                                          \
            const long long now = clock64();                                                   \
            ph[k] += now - tk;                                                                 \
            tk = now;                                                                          \
        }                                                                                      \
    } while (0)
    const int tid = threadIdx.x, lane = tid & 31, lds = s.lds;
    const int tr = tid % 64, tc = tid / 64; /* the tile loops' mapping */
    const int64_t st = i + 1 + (int64_t)m * kd;
    const int nv = (int)min((int64_t)kd, n - st);
    T *vcur = s.v + (m & 1) * kd, *vprev = s.v + ((m + 1) & 1) * kd;
    T *gA = W + st + st * ld;
    T *gX = m == 0 ? W + st + i * ld : W + st + (st - kd) * ld;
    const int xcols = m == 0 ? 1 : kd;

    /* the diagonal block (Hermitian, both triangles) and X */
    load_tile<T, R, true>(gA, ld, nv, nv, s.A, lds);
    load_tile<T, R, false>(gX, ld, nv, xcols, s.X, lds);
    __syncthreads();
    HB2ST_PHASE(1);

    /* m >= 1: X := X (I - taup vprev vprev^H), the bulge */
    if (m > 0) {
        const T taup = s.tau[(m + 1) & 1];
        if (re_of(taup) != R(0) || im_of(taup) != R(0)) {
            if (var & VAR_BULGE4) { /* four threads a row, a quarter of the sum each */
                const int r = tid >> 2, h = tid & 3, q4 = (kd + 3) / 4, k0 = min(h * q4, kd),
                          len = r < nv ? min(q4, kd - k0) : 0;
                T p = dot<T, R, false>(len, s.X + r + k0 * lds, lds, vprev + k0);
                p = pair_sum(p);
                p = p + make<T>::of(__shfl_xor_sync(0xffffffffu, re_of(p), 2),
                                    __shfl_xor_sync(0xffffffffu, im_of(p), 2));
                if (h == 0 && r < nv) s.w[r] = taup * p;
            } else if (tid < 128) { /* two threads a row (warps 0-3), half of the sum each */
                const int r = tid >> 1, h = tid & 1, k0 = h ? kd / 2 : 0,
                          len = r < nv ? (h ? kd - kd / 2 : kd / 2) : 0;
                const T p = pair_sum(dot<T, R, false>(len, s.X + r + k0 * lds, lds, vprev + k0));
                if (h == 0 && r < nv) s.w[r] = taup * p;
            }
            __syncthreads();
            if (tr < nv)
                for (int c = tc; c < kd; c += TILE_COLS_PER_PASS)
                    s.X[tr + c * lds] = s.X[tr + c * lds] - s.w[tr] * conj_of(vprev[c]);
            __syncthreads();
        }
    }

    HB2ST_PHASE(2);

    /* the reflector from X(:, 0) (m = 0: the column itself) */
    if (tid < 32) {
        const T tau = warp_larfg<T, R>(nv, s.X, vcur, lane, (var & VAR_NORM) != 0);
        if (lane == 0) s.tau[m & 1] = tau;
    }
    __syncthreads();
    const T tau = s.tau[m & 1];

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

    /* z = conj(tau X(:, 1..)^H v) (warps 0-3) and y = tau A v (warps 4-7),
     * two threads a column or row, half of the sum each */
    {
        const int h = tid & 1, k0 = h ? nv / 2 : 0, half = h ? nv - nv / 2 : nv / 2;
        if (tid < 128) {
            const int c = (tid >> 1) + 1;
            const bool on = m > 0 && c < kd;
            const T p = pair_sum(dot<T, R, true>(on ? half : 0, s.X + c * lds + k0, 1, vcur + k0));
            if (h == 0 && on) s.z[c] = tau * p;
        } else {
            const int r = (tid - 128) >> 1;
            const bool on = r < nv;
            const T p = pair_sum(dot<T, R, false>(on ? half : 0, s.A + r + k0 * lds, lds, vcur + k0));
            if (h == 0 && on) s.y[r] = tau * p;
        }
    }
    __syncthreads();
    HB2ST_PHASE(4);

    /* alpha = -tau (y^H v) / 2, computed by every warp */
    T yv = make<T>::of(R(0), R(0));
    for (int r = lane; r < nv; r += 32) yv = yv + conj_of(s.y[r]) * vcur[r];
    yv = warp_sum(yv, R(0));
    const T alpha = R(-0.5) * (tau * yv);

    /* X(:, 1..) := H^H X(:, 1..) and X out; B(block, block) := H^H B H out */
    if (tr < nv) {
        const T vr = vcur[tr], yr = s.y[tr] + alpha * vr;
        for (int c = tc; c < xcols; c += TILE_COLS_PER_PASS) {
            T x = s.X[tr + c * lds];
            if (c > 0) x = x - vr * conj_of(s.z[c]);
            st_band(gX + tr + c * ld, x);
        }
        for (int c = tc; c <= tr; c += TILE_COLS_PER_PASS) {
            const T yc = s.y[c] + alpha * vcur[c];
            T a = s.A[tr + c * lds] - (vr * conj_of(yc) + yr * conj_of(vcur[c]));
            if (tr == c) a = make<T>::of(re_of(a), R(0));
            st_band(gA + tr + c * ld, a);
        }
    }
    HB2ST_PHASE(5);
#undef HB2ST_PHASE
}

/* the counter of a sweep: published with release semantics (after the
 * block's barrier, so cumulative over the block's stores), read with
 * acquire semantics (VAR_RELEASE); or by a fence and a relaxed exchange, a
 * volatile read and a fence */
__device__ __forceinline__ void publish(int *p, int v, unsigned var) {
    if (var & VAR_RELEASE) {
        asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
    } else {
        __threadfence();
        atomicExch(p, v);
    }
}
__device__ __forceinline__ int wait_for(const int *p, int need, unsigned var) {
    int seen;
    if (var & VAR_RELEASE) {
        for (;;) {
            asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(seen) : "l"(p) : "memory");
            if (seen >= need) return seen;
            if (!(var & VAR_SPIN)) __nanosleep(64);
        }
    }
    const volatile int *vp = p;
    while ((seen = *vp) < need)
        if (!(var & VAR_SPIN)) __nanosleep(64);
    __threadfence();
    return seen;
}

/* TR: the blocks add the clock cycles of the phases of the steps of sweeps
 * n/4 .. 3n/4 - 1 to trace[0..6] (wait, load, bulge, reflector, products,
 * update and stores, publish) and their number to trace[7]. */
template <typename T, typename R, bool TR>
__global__ void __launch_bounds__(NT) hb2st_kernel(int64_t n, int kd, T *W, int64_t ld,
                                                   int *progress, int *ticket, vstore<T> q,
                                                   unsigned var, long long *trace) {
    extern __shared__ __align__(16) unsigned char raw[];
    __shared__ int sweep;
    smem<T> s;
    s.lds = kd + 1;
    s.X = reinterpret_cast<T *>(raw);
    s.A = s.X + kd * s.lds;
    s.v = s.A + kd * s.lds;
    s.w = s.v + 2 * kd;
    s.y = s.w + kd;
    s.z = s.y + kd;
    s.tau = s.z + kd;
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
            if (i > 0) {
                const int need = min(m + HB2ST_LAG, Mp);
                if (threadIdx.x == 0 && seen < need) seen = wait_for(progress + (i - 1), need, var);
                __syncthreads();
            }
            if (sampled && threadIdx.x == 0) ph[0] += clock64() - t0;
            if (sampled)
                step<T, R, true>(n, kd, W, ld, i, m, s, q, ph, var);
            else
                step<T, R, false>(n, kd, W, ld, i, m, s, q, ph, var);
            t0 = sampled ? clock64() : 0;
            __syncthreads();
            if (threadIdx.x == 0) publish(progress + i, m + 1, var);
            if (sampled && threadIdx.x == 0) {
                ph[6] += clock64() - t0;
                ph[7]++;
            }
        }
    }
    if (TR && threadIdx.x == 0 && ph[7] > 0)
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
    __shared__ T g[HYLA_CUDA_HB2ST_MAX_KD];
    for (int64_t gi = blockIdx.x; gi < ngroups; gi += gridDim.x) {
        T *G = q.data + gi * q.gsz;
        build_t_group<T, R>(kd, q.nb, q.ldv, G, G + (int64_t)q.ldv * q.nb, g);
    }
}

int launch_status() {
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
}

/* the chase kernel (TR: traced) on a grid of what fits at once */
template <typename T, typename R, bool TR>
int launch_chase(cudaStream_t st, int64_t n, int kd, T *AB, int64_t ldab, void *work,
                 const vstore<T> &q, unsigned var, long long *trace) {
    int *progress = static_cast<int *>(work), *ticket = progress + n;
    const size_t bytes = smem_bytes<T>(kd);
    int dev = 0, sms = 0, per_sm = 0;
    if (cudaMemsetAsync(work, 0, sizeof(int) * (size_t)(n + 1), st) != cudaSuccess ||
        cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaFuncSetAttribute(hb2st_kernel<T, R, TR>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)bytes) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hb2st_kernel<T, R, TR>, NT,
                                                      bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        return HYLA_ERR_DEVICE;
    }
    if (per_sm < 1) return HYLA_ERR_DEVICE;
    const int64_t grid = min((int64_t)per_sm * sms, n - 1);
    hb2st_kernel<T, R, TR><<<(unsigned)grid, NT, bytes, st>>>(n, kd, AB, ldab - 1, progress,
                                                               ticket, q, var, trace);
    return launch_status();
}

template <typename T, typename R>
int hb2st_typed(cudaStream_t st, int64_t n, int kd, T *AB, int64_t ldab, R *d, R *e,
                void *work, const hyla_hb2st_store *hs, unsigned var, long long *trace) {
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
        int rc = trace ? launch_chase<T, R, true>(st, n, kd, AB, ldab, work, q, var, trace)
                       : launch_chase<T, R, false>(st, n, kd, AB, ldab, work, q, var, nullptr);
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
                               const hyla_hb2st_store *st) {
    return hyla_cuda_hb2st_probe(s, dtype, n, kd, AB, ldab, d, e, work, st,
                                 HYLA_CUDA_HB2ST_DEFAULT, nullptr);
}

extern "C" int hyla_cuda_hb2st_probe(cudaStream_t s, int dtype, int64_t n, int64_t kd, void *AB,
                                     int64_t ldab, void *d, void *e, void *work,
                                     const hyla_hb2st_store *st, unsigned var,
                                     long long *trace) {
    if (n <= 0) return 0;
    const int64_t kde = kd < n - 1 ? kd : n - 1;
    if (kde < 0 || kde > HYLA_CUDA_HB2ST_MAX_KD || n >= INT32_MAX) return HYLA_ERR_INVALID;
    switch (dtype) {
    case HYLA_S:
        return hb2st_typed<float, float>(s, n, (int)kde, static_cast<float *>(AB), ldab,
                                         static_cast<float *>(d), static_cast<float *>(e), work,
                                         st, var, trace);
    case HYLA_D:
        return hb2st_typed<double, double>(s, n, (int)kde, static_cast<double *>(AB), ldab,
                                           static_cast<double *>(d), static_cast<double *>(e),
                                           work, st, var, trace);
    case HYLA_C:
        return hb2st_typed<cx<float>, float>(s, n, (int)kde, static_cast<cx<float> *>(AB), ldab,
                                             static_cast<float *>(d), static_cast<float *>(e),
                                             work, st, var, trace);
    case HYLA_Z:
        return hb2st_typed<cx<double>, double>(s, n, (int)kde, static_cast<cx<double> *>(AB),
                                               ldab, static_cast<double *>(d),
                                               static_cast<double *>(e), work, st, var, trace);
    default:
        return HYLA_ERR_INVALID;
    }
}
