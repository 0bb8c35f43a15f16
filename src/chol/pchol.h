/* Tier 2 of Cholesky: the multi-device left-looking algorithm, written once
 * for the four dtypes and both triangles against the backend interface. */
#ifndef HYLA_PCHOL_H
#define HYLA_PCHOL_H
#include "core/internal.h"

typedef struct {
    hyla_dtype t;
    int lower;                  /* 1: A = L L^H in the lower triangle; 0: A = U^H U */
    int64_t n;
    void *A;                    /* host matrix, or device matrix when dev >= 0 */
    int64_t lda;
    int64_t nrhs;               /* right-hand sides (solve) */
    void *B;                    /* host, or device when dev >= 0 */
    int64_t ldb;
    int factor, solve;          /* factor A, then solve A X = B with the factor */
    int dev;                    /* -1: host-resident, all devices; else that device's memory */
} hyla_chol_job;

/* Runs the job (arguments already checked, n > 0). Returns 0, the LAPACK
 * info k > 0 of a failed factorization (the solve is then skipped), or a
 * HYLA_ERR_* code. */
int hyla_pchol(hyla_t *ctx, const hyla_chol_job *job);

#endif
