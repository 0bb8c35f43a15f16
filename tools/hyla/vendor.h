/* Vendor baselines for --vs vendor (OpenBLAS on the host; cuBLASXt and
 * device-resident cuBLAS on GPUs) and the vendor library versions. */
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
    double time_s;      /* OpenBLAS, or cuBLASXt on the host matrices */
    double dev_time_s;  /* cuBLAS on device-resident copies (GPUs only) */
} vendor_times;

CBLAS_TRANSPOSE cblas_trans(char op);

/* Prints "% ..." header lines with the vendor library versions. */
void vendor_print_versions(FILE *f);

/* Times the vendor GEMM on the devices of ctx with the same warm-up and
 * repeat counts as hyla. Overwrites p->C. Failures are reported on stderr
 * and leave NaN. */
void vendor_gemm(hyla_t *ctx, const gemm_problem *p, int warmup, int repeat, int xt_block,
                 vendor_times *out);

#endif
