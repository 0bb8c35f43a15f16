/* BLAS-3 on host memory through CBLAS (OpenBLAS), and LAPACK potrf through
 * LAPACKE: the host backend's compute, also called directly by algorithms
 * that give the CPU a share. */
#ifndef HYLA_HOST_BLAS_H
#define HYLA_HOST_BLAS_H
#include "backend/backend.h"

typedef enum {
    HB_GEMM, HB_SYRK, HB_SYR2K, HB_SYMM, HB_TRSM, HB_TRMM, HB_LASET, HB_SCALE, HB_POTRF,
    HB_GETRF, HB_LASWP, HB_GEQRF, HB_GEAM, HB_HERM_BLOCKS
} host_blas_kind;

/* One BLAS call, with its scalars copied in (so it can wait in a queue). */
typedef struct {
    host_blas_kind kind;
    hyla_dtype t;
    int herm;
    int side, uplo, ta, tb, diag;
    int64_t m, n, k, lda, ldb, ldc;
    unsigned char alpha[16], beta[16];
    const void *A, *B;
    void *C;      /* output: C, or B for trsm/trmm, or A for laset/scale/potrf */
                  /* geam: C := alpha op(A) + beta C (ta, m x n C) */
                  /* herm_blocks: S, the blocks of order k of the n x n A */
    int *info;    /* potrf, getrf: receives LAPACK's info */
    int64_t *ipiv;               /* getrf: pivots (NULL: none); laswp: read */
    int64_t k1, k2;              /* laswp: the interchanges applied */
    int inc;                     /* laswp: 1 forward, -1 backward */
    void *tau;                   /* geqrf: the reflectors' scalars */
    void *work;                  /* geqrf: workspace of lwork elements, freed by the run */
    int64_t lwork;
} host_blas_call;

/* Checks that the call's sizes fit CBLAS's (and LAPACKE's) int; 0 or
 * HYLA_ERR_UNSUPPORTED. */
int host_blas_check(const host_blas_call *c);
/* Runs the call on the calling thread. */
void host_blas_run(const host_blas_call *c);
/* Workspace elements of a geqrf call with n columns. */
int64_t host_geqrf_lwork(int64_t n);
/* Stores a scalar of dtype t (or its real type when real_only) into dst. */
void host_blas_scalar(hyla_dtype t, int real_only, const void *src, unsigned char dst[16]);

#endif
