/* A stand-in for pip's OpenBLAS in test_lapack_scan.c: one ILP64 name with
 * pip's prefix, which answers with a marker info. */
#include <stddef.h>
#include <stdint.h>

void scipy_dpotrf_64_(const char *uplo, const int64_t *n, double *A, const int64_t *lda,
                      int64_t *info, size_t uplo_len);
void scipy_dpotrf_64_(const char *uplo, const int64_t *n, double *A, const int64_t *lda,
                      int64_t *info, size_t uplo_len) {
    (void)uplo, (void)n, (void)A, (void)lda, (void)uplo_len;
    *info = 4242;
}
