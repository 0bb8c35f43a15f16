/* Custom kernels of the CUDA backend: laset, scale, the NaN/Inf scan,
 * potrf's NaN pivot and herm_blocks on column-major matrices of the four
 * dtypes. Threads run along the rows of a column (the
 * contiguous direction), so accesses coalesce; both grid dimensions stride,
 * so any m and n work with a bounded grid. */
#include <complex>
#include <cstring>
#include <cuComplex.h>
#include <cuda_runtime.h>

/* hyla.h's documented way to include it from C++ */
#define hyla_complex_float std::complex<float>
#define hyla_complex_double std::complex<double>
#include "hyla.h"

#include "backend/cuda/kernels.h"

namespace {

const int BLOCK_X = 64; /* threads along rows */
const int BLOCK_Y = 4;  /* threads along columns */
const int64_t GRID_X_MAX = 512;
const int64_t GRID_Y_MAX = 4096; /* gridDim.y must stay <= 65535 */

__device__ __forceinline__ float mul(float a, float x) { return a * x; }
__device__ __forceinline__ double mul(double a, double x) { return a * x; }
__device__ __forceinline__ float2 mul(float2 a, float2 x) {
    return make_float2(a.x * x.x - a.y * x.y, a.x * x.y + a.y * x.x);
}
__device__ __forceinline__ double2 mul(double2 a, double2 x) {
    return make_double2(a.x * x.x - a.y * x.y, a.x * x.y + a.y * x.x);
}

inline bool is_value(float a, double re, double im) { return im == 0 && a == re; }
inline bool is_value(double a, double re, double im) { return im == 0 && a == re; }
inline bool is_value(float2 a, double re, double im) { return a.x == re && a.y == im; }
inline bool is_value(double2 a, double re, double im) { return a.x == re && a.y == im; }

template <typename T> T zero_value() {
    T v;
    std::memset(&v, 0, sizeof v);
    return v;
}

template <typename T> T load(const void *p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/* Rows [lo, hi) of column j form the part of the column to touch. */
__device__ __forceinline__ void part_rows(int uplo, int64_t m, int64_t j, int64_t *lo,
                                          int64_t *hi) {
    *lo = 0;
    *hi = m;
    if (uplo == 0) *lo = j;                         /* lower: i >= j */
    else if (uplo == 1) *hi = (j + 1 < m) ? j + 1 : m; /* upper: i <= j */
}

template <typename T>
__global__ void laset_kernel(int uplo, int64_t m, int64_t n, T offdiag, T diag, T *A,
                             int64_t lda) {
    const int64_t i0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t istep = (int64_t)gridDim.x * blockDim.x;
    const int64_t jstep = (int64_t)gridDim.y * blockDim.y;
    for (int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; j < n; j += jstep) {
        int64_t lo, hi;
        part_rows(uplo, m, j, &lo, &hi);
        T *col = A + j * lda;
        for (int64_t i = lo + i0; i < hi; i += istep) col[i] = (i == j) ? diag : offdiag;
    }
}

template <typename T>
__global__ void scale_kernel(int64_t m, int64_t n, T alpha, T *A, int64_t lda) {
    const int64_t i0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t istep = (int64_t)gridDim.x * blockDim.x;
    const int64_t jstep = (int64_t)gridDim.y * blockDim.y;
    for (int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; j < n; j += jstep) {
        T *col = A + j * lda;
        for (int64_t i = i0; i < m; i += istep) col[i] = mul(alpha, col[i]);
    }
}

__device__ __forceinline__ float re_part(float a) { return a; }
__device__ __forceinline__ double re_part(double a) { return a; }
__device__ __forceinline__ float re_part(float2 a) { return a.x; }
__device__ __forceinline__ double re_part(double2 a) { return a.x; }

__device__ __forceinline__ bool finite_value(float a) { return isfinite(a); }
__device__ __forceinline__ bool finite_value(double a) { return isfinite(a); }
__device__ __forceinline__ bool finite_value(float2 a) { return isfinite(a.x) && isfinite(a.y); }
__device__ __forceinline__ bool finite_value(double2 a) { return isfinite(a.x) && isfinite(a.y); }

/* *bad := 1 where an element of the selected part is not finite (*bad was
 * zeroed before the launch; every writer stores the same value) */
template <typename T>
__global__ void nonfinite_kernel(int uplo, int64_t off, int64_t m, int64_t n, const T *A,
                                 int64_t lda, int *bad) {
    const int64_t i0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t istep = (int64_t)gridDim.x * blockDim.x;
    const int64_t jstep = (int64_t)gridDim.y * blockDim.y;
    bool found = false;
    for (int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; j < n; j += jstep) {
        int64_t lo = 0, hi = m;
        if (uplo == 0) lo = max((int64_t)0, min(m, j + off));
        else if (uplo == 1) hi = max((int64_t)0, min(m, j + off + 1));
        const T *col = A + j * lda;
        for (int64_t i = lo + i0; i < hi; i += istep) found |= !finite_value(col[i]);
    }
    if (found) *bad = 1;
}

/* A[0] := NaN when *flag is set (one thread) */
__device__ __forceinline__ void set_nan(float *a) { *a = __int_as_float(0x7fc00000); }
__device__ __forceinline__ void set_nan(double *a) { *a = __longlong_as_double(0x7ff8000000000000LL); }
__device__ __forceinline__ void set_nan(float2 *a) { set_nan(&a->x); }
__device__ __forceinline__ void set_nan(double2 *a) { set_nan(&a->x); }
template <typename T> __global__ void nan_mark_kernel(const int *flag, T *A) {
    if (*flag) set_nan(A);
}

/* *info := k + 1 for the first NaN on the diagonal of the n x n factor
 * among the columns factored (those before a nonzero *info). One block. */
template <typename T>
__global__ void nan_pivot_kernel(int64_t n, const T *A, int64_t lda, int *info) {
    __shared__ unsigned long long first;
    if (threadIdx.x == 0) first = ~0ULL;
    __syncthreads();
    const int64_t k = *info > 0 ? *info - 1 : n;
    for (int64_t j = threadIdx.x; j < k; j += blockDim.x) {
        const T a = A[j + j * lda];
        if (isnan(re_part(a))) atomicMin(&first, (unsigned long long)j);
    }
    __syncthreads();
    if (threadIdx.x == 0 && first != ~0ULL) *info = (int)(first + 1);
}

__device__ __forceinline__ float conj_of(float a) { return a; }
__device__ __forceinline__ double conj_of(double a) { return a; }
__device__ __forceinline__ float2 conj_of(float2 a) { return make_float2(a.x, -a.y); }
__device__ __forceinline__ double2 conj_of(double2 a) { return make_double2(a.x, -a.y); }
__device__ __forceinline__ float real_of(float a) { return a; }
__device__ __forceinline__ double real_of(double a) { return a; }
__device__ __forceinline__ float2 real_of(float2 a) { return make_float2(a.x, 0.f); }
__device__ __forceinline__ double2 real_of(double2 a) { return make_double2(a.x, 0.0); }

const int HB_TILE = 32, HB_ROWS = 8; /* herm_blocks: 32 x 32 tiles, 32 x 8 threads */

/* herm_blocks (backend.h): diagonal block p of order r (<= b) into S + p
 * b^2. A CTA takes tile (ti, tj) of a block with ti >= tj: it copies the
 * lower tile and writes its conjugate transpose through shared memory as
 * tile (tj, ti); on a diagonal tile the upper half comes from the lower.
 * Every loop bound is uniform over the CTA, so the barriers are reached by
 * all of its threads. */
template <typename T>
__global__ void herm_blocks_kernel(int64_t n, int64_t b, const T *A, int64_t lda, T *S) {
    __shared__ T tile[HB_TILE][HB_TILE + 1];
    const int x = threadIdx.x;
    const int64_t nblk = (n + b - 1) / b;
    for (int64_t p = blockIdx.z; p < nblk; p += gridDim.z) {
        const int64_t o = p * b, r = min(b, n - o), nt = (r + HB_TILE - 1) / HB_TILE;
        const T *Ab = A + o + o * lda;
        T *Sb = S + p * b * b;
        for (int64_t tj = blockIdx.y; tj < nt; tj += gridDim.y)
            for (int64_t ti = tj + blockIdx.x; ti < nt; ti += gridDim.x) {
                const int64_t i = ti * HB_TILE + x;
                __syncthreads(); /* the tile of the last round is read */
                for (int y = threadIdx.y; y < HB_TILE; y += HB_ROWS) {
                    const int64_t j = tj * HB_TILE + y;
                    if (i < r && j < r && i >= j) {
                        const T a = Ab[i + j * lda];
                        const T v = i == j ? real_of(a) : a;
                        tile[y][x] = v;
                        Sb[i + j * b] = v;
                    }
                }
                __syncthreads();
                /* tile (tj, ti): element (tj*32 + x, ti*32 + y) = conj(A(ti*32 + y, tj*32 + x)) */
                for (int y = threadIdx.y; y < HB_TILE; y += HB_ROWS) {
                    const int64_t ii = tj * HB_TILE + x, jj = ti * HB_TILE + y;
                    if (ii < r && jj < r && ii < jj) Sb[ii + jj * b] = conj_of(tile[x][y]);
                }
            }
    }
}

template <typename T>
int herm_blocks_typed(cudaStream_t s, int64_t n, int64_t b, const void *A, int64_t lda,
                      void *S) {
    const int64_t nt = ((b < n ? b : n) + HB_TILE - 1) / HB_TILE,
                  nblk = (n + b - 1) / b;
    const dim3 grid((unsigned)(nt < 1024 ? nt : 1024), (unsigned)(nt < 1024 ? nt : 1024),
                    (unsigned)(nblk < 1024 ? nblk : 1024));
    (void)cudaGetLastError();
    herm_blocks_kernel<T><<<grid, dim3(HB_TILE, HB_ROWS, 1), 0, s>>>(
        n, b, static_cast<const T *>(A), lda, static_cast<T *>(S));
    return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
}

dim3 grid_for(int64_t m, int64_t n) {
    int64_t gx = (m + BLOCK_X - 1) / BLOCK_X, gy = (n + BLOCK_Y - 1) / BLOCK_Y;
    if (gx > GRID_X_MAX) gx = GRID_X_MAX;
    if (gy > GRID_Y_MAX) gy = GRID_Y_MAX;
    return dim3((unsigned)gx, (unsigned)gy, 1);
}

/* Reports the launch just made; stale errors were cleared before it. */
int launch_status() { return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE; }

template <typename T>
int laset_typed(cudaStream_t s, int uplo, int64_t m, int64_t n, T offdiag, T diag, void *A,
                int64_t lda) {
    (void)cudaGetLastError();
    laset_kernel<T><<<grid_for(m, n), dim3(BLOCK_X, BLOCK_Y, 1), 0, s>>>(
        uplo, m, n, offdiag, diag, static_cast<T *>(A), lda);
    return launch_status();
}

template <typename T>
int scale_typed(cudaStream_t s, int64_t m, int64_t n, const void *alpha_p, void *A,
                int64_t lda) {
    const T alpha = load<T>(alpha_p);
    if (is_value(alpha, 1, 0)) return 0;
    if (is_value(alpha, 0, 0)) { /* A is not read: NaN/Inf do not propagate */
        const T z = zero_value<T>();
        return laset_typed<T>(s, -1, m, n, z, z, A, lda);
    }
    (void)cudaGetLastError();
    scale_kernel<T><<<grid_for(m, n), dim3(BLOCK_X, BLOCK_Y, 1), 0, s>>>(
        m, n, alpha, static_cast<T *>(A), lda);
    return launch_status();
}

template <typename T>
int nonfinite_typed(cudaStream_t s, int uplo, int64_t off, int64_t m, int64_t n, const void *A,
                    int64_t lda, int *bad) {
    (void)cudaGetLastError();
    nonfinite_kernel<T><<<grid_for(m, n), dim3(BLOCK_X, BLOCK_Y, 1), 0, s>>>(
        uplo, off, m, n, static_cast<const T *>(A), lda, bad);
    return launch_status();
}

template <typename T> int nan_mark_typed(cudaStream_t s, const int *flag, void *A) {
    (void)cudaGetLastError();
    nan_mark_kernel<T><<<1, 1, 0, s>>>(flag, static_cast<T *>(A));
    return launch_status();
}

template <typename T> int nan_pivot_typed(cudaStream_t s, int64_t n, const void *A, int64_t lda,
                                          int *info) {
    (void)cudaGetLastError();
    nan_pivot_kernel<T><<<1, 256, 0, s>>>(n, static_cast<const T *>(A), lda, info);
    return launch_status();
}

} // namespace

extern "C" int hyla_cuda_laset(cudaStream_t s, int dtype, int uplo, int64_t m, int64_t n,
                               const void *offdiag, const void *diag, void *A, int64_t lda) {
    if (uplo != 0 && uplo != 1 && uplo != -1) return HYLA_ERR_INVALID;
    if (m <= 0 || n <= 0) return 0;
    switch (dtype) {
    case HYLA_S:
        return laset_typed<float>(s, uplo, m, n, load<float>(offdiag), load<float>(diag), A, lda);
    case HYLA_D:
        return laset_typed<double>(s, uplo, m, n, load<double>(offdiag), load<double>(diag), A,
                                   lda);
    case HYLA_C:
        return laset_typed<float2>(s, uplo, m, n, load<float2>(offdiag), load<float2>(diag), A,
                                   lda);
    case HYLA_Z:
        return laset_typed<double2>(s, uplo, m, n, load<double2>(offdiag), load<double2>(diag),
                                    A, lda);
    default:
        return HYLA_ERR_INVALID;
    }
}

extern "C" int hyla_cuda_scale(cudaStream_t s, int dtype, int64_t m, int64_t n,
                               const void *alpha, void *A, int64_t lda) {
    if (m <= 0 || n <= 0) return 0;
    switch (dtype) {
    case HYLA_S: return scale_typed<float>(s, m, n, alpha, A, lda);
    case HYLA_D: return scale_typed<double>(s, m, n, alpha, A, lda);
    case HYLA_C: return scale_typed<float2>(s, m, n, alpha, A, lda);
    case HYLA_Z: return scale_typed<double2>(s, m, n, alpha, A, lda);
    default: return HYLA_ERR_INVALID;
    }
}

extern "C" int hyla_cuda_nonfinite(cudaStream_t s, int dtype, int uplo, int64_t off, int64_t m,
                                   int64_t n, const void *A, int64_t lda, int *bad) {
    if (uplo != 0 && uplo != 1 && uplo != -1) return HYLA_ERR_INVALID;
    if (cudaMemsetAsync(bad, 0, sizeof *bad, s) != cudaSuccess) return HYLA_ERR_DEVICE;
    if (m <= 0 || n <= 0) return 0;
    switch (dtype) {
    case HYLA_S: return nonfinite_typed<float>(s, uplo, off, m, n, A, lda, bad);
    case HYLA_D: return nonfinite_typed<double>(s, uplo, off, m, n, A, lda, bad);
    case HYLA_C: return nonfinite_typed<float2>(s, uplo, off, m, n, A, lda, bad);
    case HYLA_Z: return nonfinite_typed<double2>(s, uplo, off, m, n, A, lda, bad);
    default: return HYLA_ERR_INVALID;
    }
}

extern "C" int hyla_cuda_nan_mark(cudaStream_t s, int dtype, const int *flag, void *A) {
    switch (dtype) {
    case HYLA_S: return nan_mark_typed<float>(s, flag, A);
    case HYLA_D: return nan_mark_typed<double>(s, flag, A);
    case HYLA_C: return nan_mark_typed<float2>(s, flag, A);
    case HYLA_Z: return nan_mark_typed<double2>(s, flag, A);
    default: return HYLA_ERR_INVALID;
    }
}

extern "C" int hyla_cuda_potrf_nan_pivot(cudaStream_t s, int dtype, int64_t n, const void *A,
                                         int64_t lda, int *info) {
    if (n <= 0) return 0;
    switch (dtype) {
    case HYLA_S: return nan_pivot_typed<float>(s, n, A, lda, info);
    case HYLA_D: return nan_pivot_typed<double>(s, n, A, lda, info);
    case HYLA_C: return nan_pivot_typed<float2>(s, n, A, lda, info);
    case HYLA_Z: return nan_pivot_typed<double2>(s, n, A, lda, info);
    default: return HYLA_ERR_INVALID;
    }
}

extern "C" int hyla_cuda_herm_blocks(cudaStream_t s, int dtype, int64_t n, int64_t b,
                                     const void *A, int64_t lda, void *S) {
    if (n <= 0) return 0;
    switch (dtype) {
    case HYLA_S: return herm_blocks_typed<float>(s, n, b, A, lda, S);
    case HYLA_D: return herm_blocks_typed<double>(s, n, b, A, lda, S);
    case HYLA_C: return herm_blocks_typed<float2>(s, n, b, A, lda, S);
    case HYLA_Z: return herm_blocks_typed<double2>(s, n, b, A, lda, S);
    default: return HYLA_ERR_INVALID;
    }
}
