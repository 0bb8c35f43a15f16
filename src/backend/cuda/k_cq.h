/* Small factorizations in one CTA on the GPU (k_cq.cu), callable from C:
 * the Householder reconstruction of stage 1's CholeskyQR2 panels (the
 * backend's cq_rebuild op, backend/ops/ops.h, backend/ops/cq.h), the
 * backend's potrf of small order, and the larft_gram op. */
#ifndef HYLA_CUDA_K_CQ_H
#define HYLA_CUDA_K_CQ_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "backend/ops/cq.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Widest panel the kernel takes (its three k x k work matrices live in
 * shared memory). */
#define HYLA_CUDA_CQ_MAX_K 64

/* The cq_rebuild op on stream s (its device current), arguments checked
 * (hyla_cq_check), k <= HYLA_CUDA_CQ_MAX_K. dtype: a hyla_dtype value.
 * Returns 0, HYLA_ERR_UNSUPPORTED (k too large, or the device's shared
 * memory per block too small for the type's work matrices: nothing
 * enqueued), HYLA_ERR_DEVICE (attribute call or launch failed) or
 * HYLA_ERR_INVALID. */
int hyla_cuda_cq_rebuild(cudaStream_t s, int dtype, const hyla_cq_args *a);

/* Largest order hyla_cuda_potrf_small takes. */
#define HYLA_CUDA_POTRF_SMALL_MAX 64

/* LAPACK potrf of the n x n Hermitian A (ld lda, device memory) on stream
 * s, 1 <= n <= HYLA_CUDA_POTRF_SMALL_MAX, in one kernel: lower != 0 gives A
 * = L L^H in the lower triangle, else A = U^H U in the upper one; the other
 * triangle is neither read nor written. *info (device memory) receives 0,
 * or j when the leading minor of order j is not positive definite or its
 * pivot is NaN; the factor's first j - 1 rows of U (lower: columns of L)
 * are then written, the rest of the triangle keeps its input. dtype: a hyla_dtype value. Returns
 * 0, HYLA_ERR_DEVICE (launch failed), HYLA_ERR_UNSUPPORTED (n out of range)
 * or HYLA_ERR_INVALID (dtype). */
int hyla_cuda_potrf_small(cudaStream_t s, int dtype, int lower, int64_t n, void *A, int64_t lda,
                          int *info);

/* The larft_gram op (backend/ops/ops.h) on stream s (its device current),
 * arguments checked (hyla_larft_gram_check). dtype: a hyla_dtype value.
 * Returns 0, HYLA_ERR_DEVICE (launch failed), HYLA_ERR_UNSUPPORTED (k past
 * INT32_MAX / 2) or HYLA_ERR_INVALID (dtype). */
int hyla_cuda_larft_gram(cudaStream_t s, int dtype, int64_t k, const void *G, int64_t ldg,
                         const void *tau, void *T, int64_t ldt);

#ifdef __cplusplus
}
#endif
#endif
