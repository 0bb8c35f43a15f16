/* Tier 2 of GEMM: the streaming, multi-device algorithm on host-resident
 * matrices, written once for the four dtypes against the backend interface. */
#ifndef HYLA_PGEMM_H
#define HYLA_PGEMM_H
#include "core/internal.h"

typedef struct {
    hyla_dtype t;
    hyla_op ta, tb;
    int64_t m, n, k;
    const void *alpha, *beta;   /* host scalars of dtype t */
    int beta_zero;              /* beta == 0: C is not read */
    const void *A, *B;
    void *C;
    int64_t lda, ldb, ldc;
} hyla_gemm_problem;

/* C := alpha op(A) op(B) + beta C with m, n, k > 0 and alpha != 0 (the
 * driver handles the quick returns). Returns 0 or a HYLA_ERR_* code. */
int hyla_pgemm(hyla_t *ctx, const hyla_gemm_problem *p);

/* Measured GEMM rate of the host CPU (OpenBLAS) for dtype t, flop/s,
 * calibrated once per context. */
double hyla_host_gemm_rate(hyla_t *ctx, hyla_dtype t);

#endif
