/* The Householder reconstruction of stage 1's CholeskyQR2 panels
 * (backend/ops/cq.h states the method and the outputs; the host code,
 * backend/ops/t_cq_rebuild.c, is the reference) in one CTA, so that the
 * panel's small factorizations need no round trip through the host.
 *
 * Three k x k work matrices in shared memory (ld k + 1): A holds G2, then
 * its Cholesky factor R2; B holds Q1's top block, then Qt R2^-1 (Y), then
 * the LU's multipliers, then U^-1; C holds U, then R2^-1. The steps, in
 * the host code's order:
 *   the tests on potrf's info and R1's diagonal, G2 within 0.1 of I;
 *   Cholesky of G2 (right-looking, one barrier a step), R2's diagonal test;
 *   Y := Qt R2^-1;
 *   the LU of I - Y S, the sign of each column chosen at its step (one
 *   thread), the multipliers and the trailing update (all threads);
 *   U; V1 out; T = U V1^-H in place in global memory;
 *   U^-1 and R2^-1 (each I R^-1); M = -R2^-1 (S U^-1) and Rt = S R2 R1 as
 *   products, every thread a few entries.
 * The triangular solves (trsm_rows) go by blocks of 16 columns: a product
 * with the blocks before, then a thread a row solves the block in
 * registers, so the chain of dependent steps is 16 long, not k. A first
 * form with a thread a row over all k columns (and T's rows read back from
 * global memory in that chain) took 285 us at k = 64 in double on one H100
 * (Nsight Compute), as long as the host's round trip it replaced.
 * The inverses and products differ from the host code's BLAS calls in
 * their order of operations: the two agree to rounding, not bitwise. */
#include <cstdint>
#include <cuda_runtime.h>

#define hyla_complex_float float2
#define hyla_complex_double double2
#include "hyla.h"

#include "backend/cuda/k_cq.h"

namespace {

#include "backend/cuda/k_cx.cuh"

const int NT = 256;

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

/* X := X R^-1 for the k x k X (ld ldx, shared or global memory) and R
 * upper triangular with R(i, c) = rv(i, c) (i <= c; unit: R(c, c) = 1, not
 * read), blocked by 16 columns: the columns of block b first lose the
 * products of the blocks before (a GEMM, every thread a few entries), then a
 * thread a row solves the block's 16 columns in registers. Ends with a
 * barrier. */
template <typename T, bool UNIT, typename RV>
__device__ __forceinline__ void trsm_rows(T *X, int ldx, int k, RV rv) {
    const int tid = threadIdx.x;
    for (int b0 = 0; b0 < k; b0 += 16) {
        const int bw = k - b0 < 16 ? k - b0 : 16;
        if (b0 > 0)
            for (int e = tid; e < k * bw; e += NT) {
                const int r = e % k, c = b0 + e / k;
                T x = X[r + c * ldx];
                for (int i = 0; i < b0; i++) x -= X[r + i * ldx] * rv(i, c);
                X[r + c * ldx] = x;
            }
        __syncthreads();
        if (tid < k) {
            T x[16];
#pragma unroll
            for (int c = 0; c < 16; c++) x[c] = c < bw ? X[tid + (b0 + c) * ldx] : zero_of<T>();
#pragma unroll
            for (int c = 0; c < 16; c++) {
                if (c < bw) {
                    T v = x[c];
#pragma unroll
                    for (int i = 0; i < c; i++) v -= x[i] * rv(b0 + i, b0 + c);
                    x[c] = UNIT ? v : div_of(v, rv(b0 + c, b0 + c));
                }
            }
#pragma unroll
            for (int c = 0; c < 16; c++)
                if (c < bw) X[tid + (b0 + c) * ldx] = x[c];
        }
        __syncthreads();
    }
}

template <typename T>
__global__ void __launch_bounds__(NT) cq_kernel(int k, const int *__restrict__ info,
                                                const T *__restrict__ R1, const T *__restrict__ G2,
                                                const T *__restrict__ Qt, int64_t ldq, T *V1,
                                                T *Tr, T *Rt, T *Mo, T *Ui, int *bad, double thr) {
    typedef typename real_t<T>::type R;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int L = k + 1, tid = threadIdx.x;
    T *A = reinterpret_cast<T *>(smem_raw), *B = A + k * L, *C = B + k * L;
    R *sg = reinterpret_cast<R *>(C + k * L); /* the signs */
    __shared__ int fail;
    const T one = real_of(R(1), T()), zero = zero_of<T>();

    /* potrf's info, R1's diagonal (smallest against 64 sqrt(eps) times the
     * largest), G2 within 0.1 of I (upper triangle); NaN fails them all */
    if (tid == 0) {
        R lo = 0, hi = 0;
        for (int j = 0; j < k; j++) {
            const R d = abs_of(R1[j + j * k]);
            lo = j == 0 ? d : (d < lo ? d : lo);
            hi = d > hi ? d : hi;
        }
        fail = *info != 0 || !(hi > 0 && lo >= R(thr) * hi);
    }
    __syncthreads();
    for (int e = tid; e < k * k; e += NT) {
        const int i = e % k, j = e / k;
        const T g = G2[i + j * k];
        A[i + j * L] = i <= j ? g : zero;
        B[i + j * L] = Qt[i + j * ldq];
        if (i <= j && !(abs_of(g - (i == j ? one : zero)) <= R(0.1))) fail = 1;
    }
    __syncthreads();
    if (fail) {
        if (tid == 0) *bad = 1;
        return;
    }

    /* G2 = R2^H R2 in A's upper triangle */
    for (int j = 0; j < k; j++) {
        if (tid == 0) {
            const R d = re_of(A[j + j * L]);
            if (!(d > R(0))) fail = 1;
            else A[j + j * L] = real_of(sqrt(d), T());
        }
        __syncthreads();
        if (fail) break;
        const R rjj = re_of(A[j + j * L]);
        for (int c = j + 1 + tid; c < k; c += NT) A[j + c * L] = scale_of(R(1) / rjj, A[j + c * L]);
        __syncthreads();
        const int w = k - 1 - j; /* the trailing upper triangle, i <= c */
        for (int e = tid; e < w * w; e += NT) {
            const int i = j + 1 + e % w, c = j + 1 + e / w;
            if (i <= c) A[i + c * L] -= conj_of(A[j + i * L]) * A[j + c * L];
        }
        __syncthreads();
    }
    if (!fail && tid == 0) { /* R2's diagonal: smallest at least half the largest */
        R lo = 0, hi = 0;
        for (int j = 0; j < k; j++) {
            const R d = re_of(A[j + j * L]);
            lo = j == 0 ? d : (d < lo ? d : lo);
            hi = d > hi ? d : hi;
        }
        fail = !(hi > 0 && lo >= R(0.5) * hi);
    }
    __syncthreads();
    if (fail) {
        if (tid == 0) *bad = 1;
        return;
    }
    const T *Ac = A, *Bc = B, *Cc = C;
    auto r2 = [Ac, L](int i, int c) { return Ac[i + c * L]; };

    /* Y := Qt R2^-1 */
    trsm_rows<T, false>(B, L, k, r2);

    /* LU of I - Y S in place (multipliers below the diagonal), U's diagonal
     * (the pivots) into C */
    for (int j = 0; j < k; j++) {
        if (tid == 0) {
            const T y = B[j + j * L];
            const R s = re_of(y) >= R(0) ? R(-1) : R(1);
            sg[j] = s;
            C[j + j * L] = one - scale_of(s, y);
        }
        __syncthreads();
        const R s = sg[j];
        const T piv = C[j + j * L];
        for (int r = j + 1 + tid; r < k; r += NT)
            B[r + j * L] = div_of(scale_of(-s, B[r + j * L]), piv);
        __syncthreads();
        const int w = k - 1 - j;
        for (int e = tid; e < w * w; e += NT) {
            const int r = j + 1 + e % w, c = j + 1 + e / w;
            B[r + c * L] -= B[r + j * L] * B[j + c * L];
        }
        __syncthreads();
    }
    /* U in C (U_jc = -y_jc s_c above the diagonal, zeros below); V1 out;
     * T starts as U in Tr */
    for (int e = tid; e < k * k; e += NT) {
        const int r = e % k, c = e / k;
        if (r < c) C[r + c * L] = scale_of(-sg[c], B[r + c * L]);
        else if (r > c) C[r + c * L] = zero;
        V1[r + c * k] = r < c ? zero : r == c ? one : B[r + c * L];
        Tr[r + c * k] = C[r + c * L];
    }
    __syncthreads();
    /* T := U V1^-H: V1^H(i, c) = conj(V1(c, i)), unit upper */
    trsm_rows<T, true>(Tr, k, k, [Bc, L](int i, int c) { return conj_of(Bc[c + i * L]); });

    /* U^-1 into B (I U^-1), out as Ui */
    for (int e = tid; e < k * k; e += NT) B[e % k + (e / k) * L] = e % k == e / k ? one : zero;
    __syncthreads();
    trsm_rows<T, false>(B, L, k, [Cc, L](int i, int c) { return Cc[i + c * L]; });
    /* R2^-1 into C (I R2^-1) */
    for (int e = tid; e < k * k; e += NT) {
        const int r = e % k, c = e / k;
        Ui[r + c * k] = B[r + c * L];
        C[r + c * L] = r == c ? one : zero;
    }
    __syncthreads();
    trsm_rows<T, false>(C, L, k, r2);
    /* M = -R2^-1 S U^-1 and Rt = S R2 R1, both upper, out */
    for (int e = tid; e < k * k; e += NT) {
        const int i = e % k, j = e / k;
        T m = zero, x = zero;
        for (int l = i; l <= j; l++) {
            m += C[i + l * L] * scale_of(sg[l], B[l + j * L]);
            x += A[i + l * L] * R1[l + j * k];
        }
        Mo[i + j * k] = i <= j ? scale_of(R(-1), m) : zero;
        Rt[i + j * k] = i <= j ? scale_of(sg[i], x) : zero;
    }
    if (tid == 0) *bad = 0;
}

template <typename T> int launch(cudaStream_t st, const hyla_cq_args *a, double eps) {
    typedef typename real_t<T>::type R;
    const int k = (int)a->k;
    const size_t smem = (size_t)(3 * k * (k + 1)) * sizeof(T) + (size_t)k * sizeof(R);
    if (cudaFuncSetAttribute(cq_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             (int)smem) != cudaSuccess)
        return HYLA_ERR_DEVICE;
    cq_kernel<T><<<1, NT, smem, st>>>(
        k, a->info, static_cast<const T *>(a->R1), static_cast<const T *>(a->G2),
        static_cast<const T *>(a->Qt), a->ldq, static_cast<T *>(a->V1), static_cast<T *>(a->Tr),
        static_cast<T *>(a->Rt), static_cast<T *>(a->M), static_cast<T *>(a->Ui), a->bad,
        64.0 * sqrt(eps));
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
