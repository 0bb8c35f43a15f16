/* Random butterfly kernels of the CUDA backend (k_rbt.cu), callable from C.
 * dtype is a hyla_dtype value; the arguments are those of hyla_rbt_args
 * (backend.h), already checked by hyla_rbt_check. All return 0,
 * HYLA_ERR_DEVICE (a launch or memset failed) or HYLA_ERR_INVALID. */
#ifndef HYLA_CUDA_K_RBT_H
#define HYLA_CUDA_K_RBT_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A := U^T P V, U^T P, U P or P V (mode 0..3) with P the ms x ns source S
 * padded to m x n, as the backend's rbt op. */
int hyla_cuda_rbt(cudaStream_t s, int dtype, int mode, int depth, int64_t m, int64_t n,
                  const void *u, const void *v, const void *S, int64_t lds, int64_t ms,
                  int64_t ns, void *A, int64_t lda);

/* sums[i] := sum_j |A(i, j)| (real type of dtype), A m x n. */
int hyla_cuda_row_asum(cudaStream_t s, int dtype, int64_t m, int64_t n, const void *A,
                       int64_t lda, void *sums);

/* w[k] := the RBT diagonal of index offset + k, k < count, as the
 * backend's rbt_diagonals op (float for s/c, double for d/z). */
int hyla_cuda_rbt_diagonals(cudaStream_t s, int dtype, uint64_t seed, uint64_t offset,
                            int64_t count, void *w);

#ifdef __cplusplus
}
#endif
#endif
