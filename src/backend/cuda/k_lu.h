/* CUDA kernels of LU (k_lu.cu), callable from C. dtype is a hyla_dtype
 * value (0 s, 1 d, 2 c, 3 z). */
#ifndef HYLA_CUDA_K_LU_H
#define HYLA_CUDA_K_LU_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Row interchanges (LAPACK laswp) on the n columns of A (column-major,
 * leading dimension lda): for i = k1 .. k2 (inc = 1) or k2 .. k1 (inc = -1),
 * 1-based, rows i and ipiv[i-1] are swapped; ipiv is in device memory.
 * Returns 0, HYLA_ERR_INVALID (bad dtype) or HYLA_ERR_DEVICE (launch). */
int hyla_cuda_laswp(cudaStream_t s, int dtype, int64_t n, void *A, int64_t lda, int64_t k1,
                    int64_t k2, const int64_t *ipiv, int inc);

#ifdef __cplusplus
}
#endif
#endif
