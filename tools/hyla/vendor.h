/* Vendor baselines for --vs vendor (GEMM: OpenBLAS on the host; cuBLASXt and
 * device-resident cuBLAS on GPUs. Cholesky: LAPACKE on the host; cuSOLVER on
 * one GPU and cusolverMg on several, both on device-resident copies) and
 * the vendor library versions. */
#ifndef HYLA_CLI_VENDOR_H
#define HYLA_CLI_VENDOR_H

#include <cblas.h>
#include <stdint.h>
#include <stdio.h>

#include "hyla.h"

/* One GEMM on host matrices stored contiguously (ld = max(1, rows)). */
typedef struct {
    hyla_dtype dtype;
    char transa, transb;            /* 'N', 'T' or 'C' */
    int64_t m, n, k;
    double alpha, beta;
    const void *A, *B;
    void *C;
    int64_t lda, ldb, ldc;
} gemm_problem;

/* Median seconds per call; NaN where the baseline could not run. */
typedef struct {
    double time_s;      /* OpenBLAS, or cuBLASXt on the host matrices; Cholesky: the vendor */
    double dev_time_s;  /* cuBLAS on device-resident copies (GPUs only) */
    const char *name;   /* the vendor routine, for the report */
} vendor_times;

/* Column tile of the cusolverMg baseline (1-D block-cyclic columns). */
enum { VENDOR_MG_TILE = 256 };

typedef enum { CHOL_POTRF, CHOL_POTRS, CHOL_POSV } chol_routine;

/* One Cholesky run on host matrices. The vendor reads A and B and works on
 * copies: Aw and Bw are host scratch of the same shapes it may overwrite. */
typedef struct {
    chol_routine routine;
    hyla_dtype dtype;
    char uplo;                      /* 'L' or 'U' */
    int64_t n, nrhs;
    const void *A;                  /* potrf, posv: the matrix; potrs: its factor */
    const void *B;                  /* potrs, posv: the right-hand sides */
    int64_t lda, ldb;
    void *Aw, *Bw;
} chol_problem;

CBLAS_TRANSPOSE cblas_trans(char op);

/* Prints "% ..." header lines with the vendor library versions. */
void vendor_print_versions(FILE *f);

/* Times the vendor GEMM on the devices of ctx with the same warm-up and
 * repeat counts as hyla. Overwrites p->C. Failures are reported on stderr
 * and leave NaN. */
void vendor_gemm(hyla_t *ctx, const gemm_problem *p, int warmup, int repeat, int xt_block,
                 vendor_times *out);

/* Times the vendor Cholesky routine on the devices of ctx (see the header
 * comment), warmup + repeat calls, each on a fresh copy of the input. Never
 * touches p->A or p->B. Failures are reported on stderr and leave NaN. */
void vendor_chol(hyla_t *ctx, const chol_problem *p, int warmup, int repeat, vendor_times *out);

#endif
