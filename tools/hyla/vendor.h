/* Vendor comparison (--vs vendor), one module: the baselines (GEMM:
 * OpenBLAS on the host; cuBLASXt and device-resident cuBLAS on GPUs.
 * Cholesky and LU: LAPACKE on the host; cuSOLVER on one GPU and cusolverMg
 * on several, both on device-resident copies. Eigensolver: LAPACKE on the
 * host, cuSOLVER on one GPU, cusolverMg on several distinct GPUs) and the
 * vendor library versions.
 *
 * The commands and the report call into this module; it calls back into
 * neither (it uses only clock.h and matgen.h of the tester). vendor_impl.h
 * holds the helpers its files share, and is for them only. */
#ifndef HYLA_CLI_VENDOR_H
#define HYLA_CLI_VENDOR_H

#include <cblas.h>
#include <stdbool.h>
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

/* One Hermitian eigenproblem (?syevd, ?heevd) on a host matrix A, ld
 * max(1, n), both triangles. */
typedef struct {
    hyla_dtype dtype;
    char jobz, uplo;                /* 'N' or 'V'; 'L' or 'U' */
    int64_t n;
    const void *A;
} evd_problem;

/* Times the vendor eigensolver on the devices of ctx: LAPACKE ?syevd/?heevd
 * on host devices; on GPUs, cusolverDnXsyevd on a device-resident copy when
 * the context holds one GPU (listed once or several times, cuda:0,0), else
 * cusolverMgSyevd on its distinct GPUs (1-D block-cyclic columns of
 * VENDOR_MG_TILE, the lower triangle only: skipped for uplo U); warmup +
 * repeat calls, each on a fresh copy of A. Sets out->time_s (NaN where it
 * could not run, reported on stderr) and out->name. */
void vendor_evd(hyla_t *ctx, const evd_problem *p, int warmup, int repeat, vendor_times *out);

/* The triangle the LAPACKE calls of the eigensolvers' baselines and checks
 * read, for a problem hyla reads from triangle uplo: 'L' for the complex
 * types, whatever uplo (the matrices are generated with both triangles).
 * Debian's OpenBLAS 0.3.21 LAPACK reads past a workspace in the upper
 * triangle's Hermitian tridiagonalization (?hetrd by ?latrd and ?gemv:
 * valgrind's invalid read on a bare LAPACKE_cheevr / zheevr, uplo 'U',
 * n = 60), which under AddressSanitizer lands on an unmapped page now and
 * then. */
char vendor_lapacke_uplo(hyla_dtype t, char uplo);

/* One generalized Hermitian-definite eigenproblem (?sygvd, ?hegvd; range
 * 'I' or 'V': a part, ?sygvdx) on host matrices A and B (ld max(1, n),
 * both triangles; B positive definite); B NULL: the standard problem's
 * part (?syevdx). */
typedef struct {
    hyla_dtype dtype;
    int itype;
    char jobz, range, uplo;
    int64_t n, il, iu;
    double vl, vu;
    const void *A, *B;
} gv_problem;

/* Where device 0 of ctx is a GPU: times cuSOLVER's ?sygvd / ?hegvd (range
 * 'A') or ?sygvdx / ?hegvdx on that GPU (B NULL: cusolverDnXsyevdx), on
 * device-resident copies of A and B restored before each call (untimed; the call timed by CUDA events),
 * warmup + repeat calls; sets out->time_s (NaN where it could not run,
 * reported on stderr) and out->name, and returns true. Returns false (out
 * untouched) where device 0 is no GPU: the caller times LAPACKE. */
bool vendor_gv_gpu(hyla_t *ctx, const gv_problem *p, int warmup, int repeat, vendor_times *out);

/* One symmetric tridiagonal eigenproblem (real types): diagonal d (n) and
 * off-diagonal e (n - 1), in double whatever the type. */
typedef struct {
    hyla_dtype dtype;               /* HYLA_S or HYLA_D */
    int64_t n;
    bool vectors;                   /* ?stedc compz 'I'; else ?sterf */
    const double *d, *e;
} tridiag_problem;

/* Times LAPACKE ?stedc (vectors) or ?sterf on the host, warmup + repeat
 * calls, each on fresh copies of d and e converted to the type (the
 * conversion inside the time). Sets out->time_s (NaN where it could not
 * run, reported on stderr) and out->name. */
void vendor_tridiag(const tridiag_problem *p, int warmup, int repeat, vendor_times *out);

#endif
