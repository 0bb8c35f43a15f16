/* Vendor baselines of LU for --vs vendor: LAPACKE on host devices,
 * cuSOLVER (cusolverDnXgetrf/Xgetrs) on one GPU and cusolverMg on several,
 * both on device-resident copies, factorization/solve only. */
#ifndef HYLA_CLI_VENDOR_LU_H
#define HYLA_CLI_VENDOR_LU_H

#include <stdint.h>

#include "hyla.h"
#include "vendor.h"

typedef enum { LU_GETRF, LU_GETRS, LU_GESV } lu_routine;

/* One LU run on host matrices (ld lda, ldb). The vendor reads A and B and
 * works on copies: Aw and Bw are host scratch of the same shapes. */
typedef struct {
    lu_routine routine;
    hyla_dtype dtype;
    char trans;                     /* getrs: 'N', 'T' or 'C' */
    int64_t m, n, nrhs;             /* A is m x n (m == n for the solves) */
    const void *A;                  /* getrf, gesv: the matrix; getrs: its LU factor */
    const int64_t *ipiv;            /* getrs: the factor's pivots */
    const void *B;
    int64_t lda, ldb;
    void *Aw, *Bw;
} lu_problem;

/* Times the vendor LU routine on the devices of ctx, warmup + repeat calls,
 * each on a fresh copy of the input. Never touches p->A or p->B. Failures
 * are reported on stderr and leave NaN. */
void vendor_lu(hyla_t *ctx, const lu_problem *p, int warmup, int repeat, vendor_times *out);

#endif
