/* CUDA kernels of LU: row interchanges (laswp).
 *
 * One thread per column applies the interchanges in order (in general they
 * do not commute); the pivots are staged in shared memory in chunks, read
 * once per block instead of once per thread. With one thread per column
 * there are few threads, so the kernel is bound by memory latency: groups
 * of interchanges on distinct rows are issued together (swap_group). */
#include <complex>
#include <cuda_runtime.h>
#include <stdint.h>

/* hyla.h's documented way to include it from C++ */
#define hyla_complex_float std::complex<float>
#define hyla_complex_double std::complex<double>
#include "hyla.h"
#include "backend/cuda/k_lu.h"

namespace {

const int THREADS = 128;           /* columns per block */
const int CHUNK = 512;             /* pivots staged in shared memory at once */
const int G = 8;                   /* swaps issued together when their rows are distinct */
const int64_t GRID_MAX = 65535;

struct c8 { float x, y; };
struct c16 { double x, y; };

/* Swaps whose rows are all distinct commute, so a group of G of them can
 * load all its elements at once: a thread keeps 2G loads in flight instead
 * of two, which is what hides the memory latency with so few threads (one
 * per column). A group that touches some row twice runs in order. */
template <typename T>
__device__ __forceinline__ void swap_group(T *col, const int64_t *rows, const int64_t *piv) {
    bool distinct = true;
#pragma unroll
    for (int a = 0; a < G; a++)
#pragma unroll
        for (int b = 0; b < G; b++) {
            if (b > a && piv[a] == piv[b] && piv[a] != rows[a]) distinct = false;
            if (a != b && piv[a] == rows[b] && piv[a] != rows[a]) distinct = false;
        }
    if (distinct) {
        T x[G], y[G];
#pragma unroll
        for (int a = 0; a < G; a++) {
            x[a] = col[rows[a] - 1];
            y[a] = col[piv[a] - 1];
        }
#pragma unroll
        for (int a = 0; a < G; a++) {
            if (piv[a] == rows[a]) continue;
            col[rows[a] - 1] = y[a];
            col[piv[a] - 1] = x[a];
        }
        return;
    }
    for (int a = 0; a < G; a++) {
        if (piv[a] == rows[a]) continue;
        const T t = col[rows[a] - 1];
        col[rows[a] - 1] = col[piv[a] - 1];
        col[piv[a] - 1] = t;
    }
}

template <typename T>
__global__ void laswp_kernel(int64_t n, T *A, int64_t lda, int64_t k1, int64_t k2,
                             const int64_t *__restrict__ ipiv, int inc) {
    __shared__ int64_t piv[CHUNK], row[CHUNK];
    const int64_t count = k2 - k1 + 1;
    for (int64_t j0 = (int64_t)blockIdx.x * THREADS; j0 < n; j0 += (int64_t)gridDim.x * THREADS) {
        const int64_t j = j0 + threadIdx.x;
        for (int64_t c0 = 0; c0 < count; c0 += CHUNK) {
            const int64_t cn = count - c0 < CHUNK ? count - c0 : CHUNK;
            __syncthreads();
            for (int64_t s = threadIdx.x; s < cn; s += THREADS) {
                const int64_t step = c0 + s;
                const int64_t i = inc > 0 ? k1 + step : k2 - step;
                row[s] = i;
                piv[s] = ipiv[i - 1];
            }
            __syncthreads();
            if (j < n) {
                T *col = A + j * lda;
                int64_t s = 0;
                for (; s + G <= cn; s += G) swap_group(col, row + s, piv + s);
                for (; s < cn; s++) {
                    const int64_t i = row[s], p = piv[s];
                    if (p != i) {
                        const T a = col[i - 1];
                        col[i - 1] = col[p - 1];
                        col[p - 1] = a;
                    }
                }
            }
        }
    }
}

template <typename T>
int laswp_typed(cudaStream_t s, int64_t n, void *A, int64_t lda, int64_t k1, int64_t k2,
                const int64_t *ipiv, int inc) {
    int64_t blocks = (n + THREADS - 1) / THREADS;
    if (blocks > GRID_MAX) blocks = GRID_MAX;
    (void)cudaGetLastError();
    laswp_kernel<T><<<(unsigned)blocks, THREADS, 0, s>>>(n, static_cast<T *>(A), lda, k1, k2,
                                                        ipiv, inc);
    return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE;
}

} // namespace

extern "C" int hyla_cuda_laswp(cudaStream_t s, int dtype, int64_t n, void *A, int64_t lda,
                               int64_t k1, int64_t k2, const int64_t *ipiv, int inc) {
    if (n <= 0 || k2 < k1) return 0;
    switch (dtype) {
    case HYLA_S: return laswp_typed<float>(s, n, A, lda, k1, k2, ipiv, inc);
    case HYLA_D: return laswp_typed<double>(s, n, A, lda, k1, k2, ipiv, inc);
    case HYLA_C: return laswp_typed<c8>(s, n, A, lda, k1, k2, ipiv, inc);
    case HYLA_Z: return laswp_typed<c16>(s, n, A, lda, k1, k2, ipiv, inc);
    default: return HYLA_ERR_INVALID;
    }
}
