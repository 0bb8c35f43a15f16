/* A stand-in for pip's OpenBLAS builds in test_lapack_scan.c: an ILP64 name
 * (NumPy's scipy-openblas64) and an LP64 name (SciPy's scipy-openblas32)
 * with pip's prefix, which answer with marker infos. */
#include <stddef.h>
#include <stdint.h>

void scipy_dpotrf_64_(const char *uplo, const int64_t *n, double *A, const int64_t *lda,
                      int64_t *info, size_t uplo_len);
void scipy_dpotrf_64_(const char *uplo, const int64_t *n, double *A, const int64_t *lda,
                      int64_t *info, size_t uplo_len) {
    (void)uplo, (void)n, (void)A, (void)lda, (void)uplo_len;
    *info = 4242;
}

void scipy_dpotrf_(const char *uplo, const int *n, double *A, const int *lda, int *info,
                   size_t uplo_len);
void scipy_dpotrf_(const char *uplo, const int *n, double *A, const int *lda, int *info,
                   size_t uplo_len) {
    (void)uplo, (void)n, (void)A, (void)lda, (void)uplo_len;
    *info = 4343;
}
