/* Tier 2 of LU: the multi-device right-looking algorithm with lookahead,
 * written once for the four dtypes against the backend interface. */
#ifndef HYLA_PLU_H
#define HYLA_PLU_H
#include "core/internal.h"

typedef struct {
    hyla_dtype t;
    int64_t m, n;               /* A is m x n (the solve needs m == n) */
    void *A;                    /* host matrix, or device matrix when dev >= 0 */
    int64_t lda;
    int pivot;                  /* 1: partial pivoting; 0: none (getrf_nopiv) */
    int64_t *ipiv;              /* host, min(m, n) global 1-based pivots (pivot only) */
    hyla_op trans;              /* solve with op(A) */
    int64_t nrhs;               /* right-hand sides (solve) */
    void *B;                    /* host, or device when dev >= 0 */
    int64_t ldb;
    int factor, solve;          /* factor A, then solve op(A) X = B with the factor */
    int dev;                    /* -1: host-resident, all devices; else that device's memory */
} hyla_lu_job;

/* Runs the job (arguments already checked, min(m, n) > 0). Returns 0, the
 * LAPACK info k > 0 of a factorization with U(k, k) exactly zero (the solve
 * is then skipped), or a HYLA_ERR_* code. */
int hyla_plu(hyla_t *ctx, const hyla_lu_job *job);

#endif
