/* Small dense factorizations in one CTA, for the chains of dependent
 * small steps that cuSOLVER and cuBLAS run as many kernels: the Householder
 * reconstruction of stage 1's CholeskyQR2 panels (backend/ops/cq.h states
 * the method and the outputs; the host code, backend/ops/t_cq_rebuild.c, is
 * the reference), the backend's potrf of order <= 64, and the triangular
 * factor of a block reflector from its Gram matrix (larft_gram).
 *
 * A k x k matrix (k <= KM = 64) lives in the registers of the CTA's 256
 * threads: thread (tx, ty) = (tid % 16, tid / 16) holds the 16 entries
 * (tx + 16a, ty + 16b), a, b = 0..3 (zero outside k x k). A factorization
 * or triangular solve is a loop of k steps, one barrier each: the threads
 * that hold the step's row (or column) publish it in a double-buffered
 * vector in shared memory, and after the barrier every thread updates its
 * own entries from it. Register arrays are indexed by unrolled constants
 * only (the owners test a == j / 16), so nothing spills.
 *
 * The reconstruction, in the host code's order: the tests on potrf's
 * info, R1's diagonal and G2 against I; G2 = R2^H R2 (R2's diagonal test
 * read off the pivots); Rt = S R2 R1 needs S, so it waits; Y = Qt R2^-1;
 * the LU of I - Y S with each sign chosen at its step; V1 out; U; T = U
 * V1^-H; U^-1; Rt; R2^-1; M = -R2^-1 S U^-1. Three k x k matrices in
 * shared memory carry the triangular factors the solves and products read
 * (SA: R2, then R2^-1; SB: V1's multipliers, then S U^-1; SC: U, then R1).
 * A first form of this kernel, with k-wide loops over shared memory
 * (three barriers a step, an integer division per entry) and the solves
 * done a thread a row, took 245-285 us at k = 64 in double on one H100
 * (Nsight Compute), as long as the host's round trip it replaced.
 * The products and solves differ from the host code's BLAS calls in their
 * order of operations (and divide by multiplying with an inverse): the two
 * agree to rounding, not bitwise. */
#include <cstdint>
#include <cuda_runtime.h>

#define hyla_complex_float float2
#define hyla_complex_double double2
#include "hyla.h"

#include "backend/cuda/k_cq.h"

namespace {

#include "backend/cuda/k_cx.cuh"

const int NT = 256; /* 16 x 16 threads */
const int KM = 64;  /* the largest order; the shared matrices have ld KM */
static_assert(KM == HYLA_CUDA_CQ_MAX_K && KM == HYLA_CUDA_POTRF_SMALL_MAX, "order limits");

/* real scalars of a type, the modulus, the division and a real factor */
template <typename R> __device__ __forceinline__ R real_of(R v, R) { return v; }
template <typename R> __device__ __forceinline__ cx<R> real_of(R v, cx<R>) { return {v, R(0)}; }
template <typename R> __device__ __forceinline__ R abs_of(R a) { return a < R(0) ? -a : a; }
template <typename R> __device__ __forceinline__ R abs_of(cx<R> a) {
    return sqrt(a.re * a.re + a.im * a.im);
}
template <typename R> __device__ __forceinline__ R div_of(R a, R b) { return a / b; }
template <typename R> __device__ __forceinline__ cx<R> div_of(cx<R> a, cx<R> b) {
    const R d = b.re * b.re + b.im * b.im;
    return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}
template <typename R> __device__ __forceinline__ R scale_of(R s, R a) { return s * a; }
template <typename R> __device__ __forceinline__ cx<R> scale_of(R s, cx<R> a) { return s * a; }

template <typename T> struct real_t { typedef T type; };
template <typename R> struct real_t<cx<R>> { typedef R type; };


/* the row and column of entry (a, b) of this thread's tile */
__device__ __forceinline__ int row_of(int a) { return (int)(threadIdx.x & 15) + 16 * a; }
__device__ __forceinline__ int col_of(int b) { return (int)(threadIdx.x >> 4) + 16 * b; }

/* v[s] for a run-time s in 0..3 by selects: an indexed read would put the
 * tile in local memory */
template <typename T> __device__ __forceinline__ T pick(T v0, T v1, T v2, T v3, int s) {
    T r = s == 1 ? v1 : v0;
    r = s == 2 ? v2 : r;
    return s == 3 ? v3 : r;
}

/* x(i, c) := f(i, c) inside k x k, zero outside */
template <typename T, typename F>
__device__ __forceinline__ void tile_set(T (&x)[4][4], int k, F f) {
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int i = row_of(a), c = col_of(b);
            x[a][b] = i < k && c < k ? f(i, c) : zero_of<T>();
        }
}

/* g(i, c, x(i, c)) for every entry inside k x k */
template <typename T, typename G>
__device__ __forceinline__ void tile_each(const T (&x)[4][4], int k, G g) {
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int i = row_of(a), c = col_of(b);
            if (i < k && c < k) g(i, c, x[a][b]);
        }
}

/* the whole 64 x 64 tile into S (ld KM); the caller synchronizes */
template <typename T> __device__ __forceinline__ void tile_store(const T (&x)[4][4], T *S) {
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++) S[row_of(a) + col_of(b) * KM] = x[a][b];
}

/* R^H R = X for the Hermitian X whose upper triangle x holds (entries below
 * the diagonal ignored): R into x (zero below the diagonal), with 1 / R(j,
 * j) into rinv[j] when rinv is not NULL, and the smallest and largest of R's
 * diagonal in lo and hi (the same in every thread; defined only where it
 * returns 0). Each step j: row j
 * unscaled (u) out, then X -= u^H u / u_jj on the trailing entries and row j
 * := u / sqrt(u_jj). Returns 0, or j + 1 when step j's pivot u_jj is not
 * positive or is NaN (LAPACK's info; every thread returns the same, rows
 * before j hold R's, the rest is partly updated). buf: 2 KM elements of
 * shared memory. Ends with a barrier. */
template <typename T>
__device__ __forceinline__ int chol_tile(T (&x)[4][4], int k, T *buf, T *rinv, typename real_t<T>::type &lo,
                         typename real_t<T>::type &hi) {
    typedef typename real_t<T>::type R;
    const int tx = threadIdx.x & 15;
    lo = hi = R(0);
    for (int j = 0; j < k; j++) {
        T *u = buf + (j & 1) * KM;
        if (tx == (j & 15)) {
#pragma unroll
            for (int b = 0; b < 4; b++)
                u[col_of(b)] = pick(x[0][b], x[1][b], x[2][b], x[3][b], j >> 4);
        }
        __syncthreads();
        const R d = re_of(u[j]);
        if (!(d > R(0))) return j + 1;
        /* one reciprocal square root on the step's chain (not a sqrt and
         * two divisions); the trailing entries lose (rs u_i)^H (rs u_c),
         * LAPACK's products of the scaled row, so that a subnormal pivot
         * (rs^2 past the largest number) overflows nothing; the owner of
         * the diagonal takes sqrt(d), which is Inf for an Inf pivot (rs
         * = 0 and d rs would be NaN); lo and hi track d, their roots
         * taken at the end */
        const R rs = rsqrt(d);
        lo = j == 0 || d < lo ? d : lo;
        hi = d > hi ? d : hi;
        if (rinv && threadIdx.x == 0) rinv[j] = real_of(rs, T());
        T us[4];
#pragma unroll
        for (int b = 0; b < 4; b++) us[b] = scale_of(rs, u[col_of(b)]);
#pragma unroll
        for (int a = 0; a < 4; a++) {
            const int i = row_of(a);
            if (i > j) {
                const T ui = scale_of(rs, conj_of(u[i]));
#pragma unroll
                for (int b = 0; b < 4; b++)
                    if (col_of(b) >= i) x[a][b] -= ui * us[b];
            } else if (i == j) {
#pragma unroll
                for (int b = 0; b < 4; b++) {
                    const int c = col_of(b);
                    x[a][b] = c > j    ? us[b]
                              : c == j ? real_of(sqrt(d), T())
                                       : zero_of<T>();
                }
            }
        }
    }
    lo = sqrt(lo);
    hi = sqrt(hi);
    __syncthreads();
    return 0;
}

/* x := x R^-1 (k x k) for the upper triangular R with R(i, c) = rv(i, c)
 * for i < c and 1 / R(c, c) = di(c) (UNIT: R(c, c) = 1, di not called).
 * Step c: column c scaled and out, then the columns right of it lose its
 * products. buf: 2 KM elements of shared memory. Ends with a barrier. */
template <typename T, bool UNIT, typename RV, typename DI>
__device__ __forceinline__ void trsm_tile(T (&x)[4][4], int k, T *buf, RV rv, DI di) {
    const int ty = threadIdx.x >> 4;
    for (int c = 0; c < k; c++) {
        T *w = buf + (c & 1) * KM;
        if (ty == (c & 15)) {
            const T s = UNIT ? zero_of<T>() : di(c);
#pragma unroll
            for (int a = 0; a < 4; a++) {
                T v = pick(x[a][0], x[a][1], x[a][2], x[a][3], c >> 4);
                if (!UNIT) {
                    v = v * s;
#pragma unroll
                    for (int b = 0; b < 4; b++) x[a][b] = b == c >> 4 ? v : x[a][b];
                }
                w[row_of(a)] = v;
            }
        }
        __syncthreads();
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int c2 = col_of(b);
            if (c2 > c && c2 < k) {
                const T r = rv(c, c2);
#pragma unroll
                for (int a = 0; a < 4; a++) x[a][b] -= w[row_of(a)] * r;
            }
        }
    }
    __syncthreads();
}

/* The LU without pivoting of I - Y S in place of x = Y (k x k), the sign
 * s_j (sg[j]) chosen at step j against Re y_jj so that the pivot 1 - s_j
 * y_jj (pv[j]) has modulus at least 1: the multipliers below the diagonal,
 * Y's updated entries above it (U(i, c) = -y_ic s_c). cb, rb: 2 KM
 * elements of shared memory each. Ends with a barrier. */
template <typename T>
__device__ __forceinline__ void lu_tile(T (&x)[4][4], int k, T *cb, T *rb, typename real_t<T>::type *sg, T *pv) {
    typedef typename real_t<T>::type R;
    const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    for (int j = 0; j < k; j++) {
        T *cw = cb + (j & 1) * KM, *rw = rb + (j & 1) * KM;
        if (tx == (j & 15))
#pragma unroll
            for (int b = 0; b < 4; b++)
                rw[col_of(b)] = pick(x[0][b], x[1][b], x[2][b], x[3][b], j >> 4);
        if (ty == (j & 15))
#pragma unroll
            for (int a = 0; a < 4; a++)
                cw[row_of(a)] = pick(x[a][0], x[a][1], x[a][2], x[a][3], j >> 4);
        __syncthreads();
        const T y = rw[j];
        const R s = re_of(y) >= R(0) ? R(-1) : R(1);
        const T piv = real_of(R(1), T()) - scale_of(s, y);
        const T f = div_of(real_of(-s, T()), piv);
        if (threadIdx.x == 0) sg[j] = s, pv[j] = piv;
#pragma unroll
        for (int a = 0; a < 4; a++) {
            const int i = row_of(a);
            if (i > j) {
                const T l = cw[i] * f;
#pragma unroll
                for (int b = 0; b < 4; b++) {
                    const int c = col_of(b);
                    if (c > j) x[a][b] -= l * rw[c];
                    else if (c == j) x[a][b] = l;
                }
            }
        }
    }
    __syncthreads();
}

/* x := P Q for k x k matrices in shared memory (ld KM) */
template <typename T> __device__ __forceinline__ void prod_tile(T (&x)[4][4], int k, const T *P, const T *Q) {
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++) x[a][b] = zero_of<T>();
    for (int l = 0; l < k; l++) {
        T p[4], q[4];
#pragma unroll
        for (int a = 0; a < 4; a++) p[a] = P[row_of(a) + l * KM];
#pragma unroll
        for (int b = 0; b < 4; b++) q[b] = Q[l + col_of(b) * KM];
#pragma unroll
        for (int a = 0; a < 4; a++)
#pragma unroll
            for (int b = 0; b < 4; b++) x[a][b] += p[a] * q[b];
    }
}

/* ------------------------------------------------ the reconstruction */

template <typename T>
__global__ void __launch_bounds__(NT, 1) cq_kernel(int k, const int *__restrict__ info,
                                                const T *__restrict__ R1, const T *__restrict__ G2,
                                                const T *__restrict__ Qt, int64_t ldq, T *V1,
                                                T *Tr, T *Rt, T *Mo, T *Ui, int *bad, double thr) {
    typedef typename real_t<T>::type R;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *SA = reinterpret_cast<T *>(smem_raw), *SB = SA + KM * KM, *SC = SB + KM * KM;
    T *b1 = SC + KM * KM, *b2 = b1 + 2 * KM, *dr = b2 + 2 * KM, *du = dr + KM, *pv = du + KM;
    R *sg = reinterpret_cast<R *>(pv + KM);
    __shared__ int wfail;
    const int tid = threadIdx.x;
    const T one = real_of(R(1), T()), zero = zero_of<T>();
    T x[4][4];

    /* potrf's info and R1's diagonal (smallest against thr times the
     * largest) by warp 0; G2's upper triangle within 0.1 of I by all; NaN
     * fails every test */
    if (tid < 32) {
        R lo = R(0), hi = R(0);
        int nan = 0, any = 0;
        for (int j = tid; j < k; j += 32) {
            const R d = abs_of(R1[j + (int64_t)j * k]);
            nan |= d != d;
            lo = !any || d < lo ? d : lo;
            hi = d > hi ? d : hi;
            any = 1;
        }
        for (int o = 16; o > 0; o >>= 1) {
            const R l2 = __shfl_xor_sync(0xffffffffu, lo, o), h2 = __shfl_xor_sync(0xffffffffu, hi, o);
            const int a2 = __shfl_xor_sync(0xffffffffu, any, o);
            lo = !any || (a2 && l2 < lo) ? l2 : lo;
            hi = h2 > hi ? h2 : hi;
            any |= a2;
        }
        nan = __any_sync(0xffffffffu, nan);
        if (tid == 0) wfail = *info != 0 || nan || !(hi > R(0) && lo >= R(thr) * hi);
    }
    int far = 0;
    tile_set(x, k, [&](int i, int c) {
        const T g = G2[i + c * k];
        if (i <= c && !(abs_of(g - (i == c ? one : zero)) <= R(0.1))) far = 1;
        return i <= c ? g : zero;
    });
    if (__syncthreads_or(far) || wfail) {
        if (tid == 0) *bad = 1;
        return;
    }

    /* G2 = R2^H R2; R2's smallest diagonal entry at least half its largest */
    R lo, hi;
    if (chol_tile(x, k, b1, dr, lo, hi) != 0 || !(lo >= R(0.5) * hi)) {
        if (tid == 0) *bad = 1;
        return;
    }
    tile_store(x, SA);

    /* Y := Qt R2^-1 */
    tile_set(x, k, [&](int i, int c) { return Qt[i + c * ldq]; });
    __syncthreads();
    const T *Sa = SA, *Sb = SB, *Sc = SC;
    const T *Dr = dr, *Du = du;
    auto r2 = [Sa](int i, int c) { return Sa[i + c * KM]; };
    trsm_tile<T, false>(x, k, b2, r2, [Dr](int c) { return Dr[c]; });

    /* LU of I - Y S */
    lu_tile(x, k, b1, b2, sg, pv);

    /* V1 out and its multipliers into SB; U into x and SC, 1 / U(j, j) */
    tile_each(x, k, [&](int i, int c, T v) {
        V1[i + c * k] = i < c ? zero : i == c ? one : v;
    });
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int i = row_of(a), c = col_of(b);
            SB[i + c * KM] = i > c ? x[a][b] : zero;
            x[a][b] = c >= k      ? zero
                      : i < c     ? scale_of(-sg[c], x[a][b])
                      : i == c    ? pv[i]
                                  : zero;
        }
    tile_store(x, SC);
    if (tid < k) du[tid] = div_of(one, pv[tid]);
    __syncthreads();

    /* T := U V1^-H, V1^H(i, c) = conj(V1(c, i)) unit upper */
    trsm_tile<T, true>(x, k, b1, [Sb](int i, int c) { return conj_of(Sb[c + i * KM]); },
                       [](int) { return zero_of<T>(); });
    tile_each(x, k, [&](int i, int c, T v) { Tr[i + c * k] = v; });

    /* U^-1 out, S U^-1 into SB, R1 into SC */
    tile_set(x, k, [&](int i, int c) { return i == c ? one : zero; });
    trsm_tile<T, false>(x, k, b2, [Sc](int i, int c) { return Sc[i + c * KM]; },
                        [Du](int c) { return Du[c]; });
#pragma unroll
    for (int a = 0; a < 4; a++)
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int i = row_of(a), c = col_of(b);
            if (i < k && c < k) Ui[i + c * k] = x[a][b];
            SB[i + c * KM] = i < k ? scale_of(sg[i], x[a][b]) : zero;
        }
    tile_set(x, k, [&](int i, int c) { return i <= c ? R1[i + c * k] : zero; });
    tile_store(x, SC);
    __syncthreads();

    /* Rt = S R2 R1 (upper) */
    prod_tile(x, k, SA, SC);
    tile_each(x, k, [&](int i, int c, T v) { Rt[i + c * k] = i <= c ? scale_of(sg[i], v) : zero; });

    /* R2^-1 into SC, then M = -R2^-1 (S U^-1) (upper) */
    tile_set(x, k, [&](int i, int c) { return i == c ? one : zero; });
    trsm_tile<T, false>(x, k, b1, r2, [Dr](int c) { return Dr[c]; });
    tile_store(x, SC);
    __syncthreads();
    prod_tile(x, k, SC, SB);
    tile_each(x, k, [&](int i, int c, T v) { Mo[i + c * k] = i <= c ? scale_of(R(-1), v) : zero; });
    if (tid == 0) *bad = 0;
}

template <typename T> int launch(cudaStream_t st, const hyla_cq_args *a, double eps) {
    typedef typename real_t<T>::type R;
    const size_t smem = (size_t)(3 * KM * KM + 7 * KM) * sizeof(T) + (size_t)KM * sizeof(R);
    /* 102 KB for s, d and c, 200 KB for z: more than some GPUs give a block
     * (99 KB on sm_86 and sm_89), where the panel is left to the host */
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess)
        return HYLA_ERR_DEVICE;
    if ((size_t)optin < smem) return HYLA_ERR_UNSUPPORTED;
    if (cudaFuncSetAttribute(cq_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)smem) != cudaSuccess)
        return HYLA_ERR_DEVICE;
    cq_kernel<T><<<1, NT, smem, st>>>(
        (int)a->k, a->info, static_cast<const T *>(a->R1), static_cast<const T *>(a->G2),
        static_cast<const T *>(a->Qt), a->ldq, static_cast<T *>(a->V1), static_cast<T *>(a->Tr),
        static_cast<T *>(a->Rt), static_cast<T *>(a->M), static_cast<T *>(a->Ui), a->bad,
        64.0 * sqrt(eps));
    return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
}

/* ------------------------------------------------ potrf of order <= 64 */

/* LAPACK potrf of the n x n A (uplo lower: A = L L^H, L = R^H with R the
 * upper factor of the matrix read through the lower triangle). On a
 * failure at step j the rows of R before j are written, the rest of the
 * triangle keeps its input; info = j + 1 (0: success). */
template <typename T>
__global__ void __launch_bounds__(NT) potrf_kernel(int lower, int n, T *A, int64_t lda, int *info) {
    typedef typename real_t<T>::type R;
    __shared__ T buf[2 * KM];
    T x[4][4];
    tile_set(x, n, [&](int i, int c) {
        return i > c ? zero_of<T>() : lower ? conj_of(A[c + i * lda]) : A[i + c * lda];
    });
    R lo, hi;
    const int fj = chol_tile(x, n, buf, static_cast<T *>(nullptr), lo, hi);
    const int done = fj ? fj - 1 : n;
    tile_each(x, n, [&](int i, int c, T v) {
        if (i <= c && i < done) {
            if (lower) A[c + i * lda] = conj_of(v);
            else A[i + c * lda] = v;
        }
    });
    if (threadIdx.x == 0) *info = fj;
}

template <typename T> int launch_potrf(cudaStream_t st, int lower, int n, void *A, int64_t lda,
                                       int *info) {
    potrf_kernel<T><<<1, NT, 0, st>>>(lower, n, static_cast<T *>(A), lda, info);
    return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
}

/* larft_gram: thread i forms row i of T alone. Row i of the recurrence
 * T(i, j) = -tau_j sum_{l = i}^{j - 1} T(i, l) G(l, j) reads only the row's
 * own earlier entries (and G, read-only), so the rows need no barrier; the
 * threads of a warp read the same G(l, j) at once (one broadcast). */
template <typename T>
__global__ void larft_gram_kernel(int k, const T *G, int64_t ldg, const T *tau, T *Tm,
                                  int64_t ldt) {
    for (int i = threadIdx.x; i < k; i += blockDim.x) {
        for (int j = 0; j < i; j++) Tm[i + j * ldt] = zero_of<T>();
        Tm[i + (int64_t)i * ldt] = tau[i];
        for (int j = i + 1; j < k; j++) {
            T acc = zero_of<T>();
            for (int l = i; l < j; l++) acc += Tm[i + (int64_t)l * ldt] * G[l + j * ldg];
            Tm[i + (int64_t)j * ldt] = zero_of<T>() - tau[j] * acc;
        }
    }
}

template <typename T> int launch_larft(cudaStream_t st, int k, const void *G, int64_t ldg,
                                       const void *tau, void *Tm, int64_t ldt) {
    const int threads = k < 32 ? 32 : (k < 128 ? (k + 31) / 32 * 32 : 128);
    larft_gram_kernel<T><<<1, threads, 0, st>>>(k, static_cast<const T *>(G), ldg,
                                                  static_cast<const T *>(tau), static_cast<T *>(Tm),
                                                  ldt);
    return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
}

} // namespace

extern "C" int hyla_cuda_cq_rebuild(cudaStream_t s, int dtype, const hyla_cq_args *a) {
    if (a->k > HYLA_CUDA_CQ_MAX_K) return HYLA_ERR_UNSUPPORTED;
    switch (dtype) {
    case HYLA_S: return launch<float>(s, a, 1.1920928955078125e-07);
    case HYLA_D: return launch<double>(s, a, 2.220446049250313e-16);
    case HYLA_C: return launch<cx<float>>(s, a, 1.1920928955078125e-07);
    case HYLA_Z: return launch<cx<double>>(s, a, 2.220446049250313e-16);
    default: return HYLA_ERR_INVALID;
    }
}

extern "C" int hyla_cuda_potrf_small(cudaStream_t s, int dtype, int lower, int64_t n, void *A,
                                     int64_t lda, int *info) {
    if (n < 1 || n > HYLA_CUDA_POTRF_SMALL_MAX) return HYLA_ERR_UNSUPPORTED;
    switch (dtype) {
    case HYLA_S: return launch_potrf<float>(s, lower, (int)n, A, lda, info);
    case HYLA_D: return launch_potrf<double>(s, lower, (int)n, A, lda, info);
    case HYLA_C: return launch_potrf<cx<float>>(s, lower, (int)n, A, lda, info);
    case HYLA_Z: return launch_potrf<cx<double>>(s, lower, (int)n, A, lda, info);
    default: return HYLA_ERR_INVALID;
    }
}

extern "C" int hyla_cuda_larft_gram(cudaStream_t s, int dtype, int64_t k, const void *G,
                                    int64_t ldg, const void *tau, void *T, int64_t ldt) {
    if (k > INT32_MAX / 2) return HYLA_ERR_UNSUPPORTED;
    if (k == 0) return 0;
    switch (dtype) {
    case HYLA_S: return launch_larft<float>(s, (int)k, G, ldg, tau, T, ldt);
    case HYLA_D: return launch_larft<double>(s, (int)k, G, ldg, tau, T, ldt);
    case HYLA_C: return launch_larft<cx<float>>(s, (int)k, G, ldg, tau, T, ldt);
    case HYLA_Z: return launch_larft<cx<double>>(s, (int)k, G, ldg, tau, T, ldt);
    default: return HYLA_ERR_INVALID;
    }
}
