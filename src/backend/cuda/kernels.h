/* Custom CUDA kernels of the CUDA backend (kernels.cu), callable from C.
 * dtype is a hyla_dtype value (0 s, 1 d, 2 c, 3 z); scalars point to host
 * values of that dtype and are read before the call returns. Both return 0,
 * HYLA_ERR_DEVICE (launch failed) or HYLA_ERR_INVALID (bad dtype or uplo). */
#ifndef HYLA_CUDA_KERNELS_H
#define HYLA_CUDA_KERNELS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A := offdiag in the uplo part of A (0 lower: i >= j, 1 upper: i <= j,
 * -1 all) and diag on its diagonal (LAPACK laset); A is m x n. */
int hyla_cuda_laset(cudaStream_t s, int dtype, int uplo, int64_t m, int64_t n,
                    const void *offdiag, const void *diag, void *A, int64_t lda);

/* A := alpha * A; alpha == 0 writes zeros without reading A. */
int hyla_cuda_scale(cudaStream_t s, int dtype, int64_t m, int64_t n, const void *alpha,
                    void *A, int64_t lda);

/* *bad := 1 when the part of the m x n matrix A selected by uplo (-1 all,
 * 0 lower: rows i >= j + off of column j, 1 upper: rows i <= j + off)
 * holds a NaN or an Inf, else 0 (bad: one device int, zeroed first). */
int hyla_cuda_nonfinite(cudaStream_t s, int dtype, int uplo, int64_t off, int64_t m, int64_t n,
                        const void *A, int64_t lda, int *bad);

/* A[0] := NaN (the real part for complex types) when the device int *flag
 * is nonzero; A is left alone otherwise. */
int hyla_cuda_nan_mark(cudaStream_t s, int dtype, const int *flag, void *A);

/* After a potrf of the n x n matrix A with its device info: *info := k + 1
 * for the first NaN pivot k (a NaN on the factor's diagonal) among the
 * columns factored, as LAPACK's potrf reports it (cuSOLVER's need not). */
int hyla_cuda_potrf_nan_pivot(cudaStream_t s, int dtype, int64_t n, const void *A, int64_t lda,
                              int *info);

/* The diagonal blocks of order b of the n x n Hermitian A (lower
 * triangle) as full matrices, block p into S + p b^2 (ld b); backend.h's
 * herm_blocks. */
int hyla_cuda_herm_blocks(cudaStream_t s, int dtype, int64_t n, int64_t b, const void *A,
                          int64_t lda, void *S);

#ifdef __cplusplus
}
#endif
#endif
