/* The tridiagonal eigensolvers hyla_?sterf and hyla_?stedc (s and d) on the
 * devices of HYLA_DEVICES, against LAPACKE ?stedc: eigenvalues within
 * 60 n eps |T|, |T - Z L Z^T| / (n |T| eps) < 60 and |I - Z^T Z| / (n eps) < 60
 * for random, Wilkinson, glued Wilkinson, clustered, graded, diagonal, zero,
 * 1-2-1 Toeplitz (exact eigenvalues), huge and tiny matrices; sizes around the
 * leaf size; small leaves with every merge GEMM forced on the devices; sterf's
 * values-only divide and conquer forced on every size, and by default at n = 601; NaN and
 * Inf input; bad arguments; no leak; injected allocation failures. */
#include "hyla.h"
#include "test_util.h"
#include "eig/tridiag.h"
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#define THRESH 60.0
#define SENTINEL 777.0
#define CH "sdcz"[DT]

enum { MAT_RANDOM, MAT_WILKINSON, MAT_GLUED, MAT_CLUSTER, MAT_GRADED, MAT_DIAG, MAT_ZERO,
       MAT_TOEPLITZ, MAT_HUGE, MAT_TINY, MAT_GEOMETRIC, MAT_ONE_BIG, MAT_ARITHMETIC,
       MAT_CLUSTERED_SPECTRUM, MAT_COUNT };
static const char *mat_name[] = {"random", "wilkinson", "glued", "cluster", "graded",
                                 "diagonal", "zero", "toeplitz", "huge", "tiny",
                                 "geometric", "one-big", "arithmetic", "clustered"};

/* The tridiagonal (LAPACK sytrd) of Q diag(w) Q^T with a random orthogonal Q
 * and the eigenvalue distributions of LAPACK's dlatms (condition 1e6 for the
 * s tests, 1e12 for d): geometric 1 .. 1/cond with alternating signs, one
 * large and the rest 1/cond, arithmetic 1 .. 1/cond, clustered 1 + 1e-9 r. */
static void make_spectrum(int c, int64_t n, double cond, double *d, double *e,
                          unsigned long long *s) {
    if (n == 0) return;
    double *Q = malloc(sizeof *Q * (size_t)(n * n)), *A = malloc(sizeof *A * (size_t)(n * n));
    double *W = malloc(sizeof *W * (size_t)(n * n)), *tau = malloc(sizeof *tau * (size_t)n);
    for (int64_t i = 0; i < n * n; i++) Q[i] = t_rand(s);
    LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (int)n, (int)n, Q, (int)n, tau);
    LAPACKE_dorgqr(LAPACK_COL_MAJOR, (int)n, (int)n, (int)n, Q, (int)n, tau);
    for (int64_t j = 0; j < n; j++) {
        double f = n > 1 ? (double)j / (double)(n - 1) : 0, w = 1;
        switch (c) {
        case MAT_GEOMETRIC: w = (j % 2 ? -1 : 1) * pow(cond, -f); break;
        case MAT_ONE_BIG: w = j == 0 ? 1 : 1 / cond; break;
        case MAT_ARITHMETIC: w = 1 - f * (1 - 1 / cond); break;
        default: w = 1 + 1e-9 * t_rand(s); break;
        }
        for (int64_t i = 0; i < n; i++) W[i + j * n] = Q[i + j * n] * w;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)n, (int)n, (int)n, 1.0, W, (int)n, Q,
                (int)n, 0.0, A, (int)n);
    LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', (int)n, A, (int)n, d, e, tau);
    free(Q);
    free(A);
    free(W);
    free(tau);
}

#define HYLA_TEMPLATE "t_test_tridiag.c"
#define HYLA_TEMPLATE_REAL
#include "core/each_prec.h"

/* Allocation failure k = 1, 2, ... inside one stedc call until a call runs
 * with no injection firing: each failure is a clean error and leaks nothing. */
static void injection(hyla_t *h, unsigned long long *s) {
    enum { N = 90 };
    double d0[N], e0[N], d[N], e[N], Z[N * N];
    hyla_dtt_make(MAT_RANDOM, N, d0, e0, s);
    for (int64_t k = 1; k < 1000; k++) {
        memcpy(d, d0, sizeof d);
        memcpy(e, e0, sizeof e);
        hyla_debug_fail_alloc(k);
        int rc = hyla_eig_stedc_tuned(h, HYLA_D, N, d, e, Z, N, 8, 30);
        hyla_debug_fail_alloc(0);
        if (!t_injected(h, "stedc", k, rc)) break;
    }
    for (int64_t k = 1; k < 1000; k++) {
        memcpy(d, d0, sizeof d);
        memcpy(e, e0, sizeof e);
        hyla_debug_fail_alloc(k);
        int rc = hyla_eig_sterf_tuned(HYLA_D, N, d, e, 2, 8);
        hyla_debug_fail_alloc(0);
        if (!t_injected(h, "sterf divide and conquer", k, rc)) {
            CHECK(k > 1, "sterf divide and conquer: no allocation failed (k %lld)", (long long)k);
            break;
        }
    }
}

int main(void) {
    const char *devices = test_devices();
    unsigned long long seed = 2026;
    hyla_t *h = NULL;
    int rc = t_create(&h, devices, "tridiag");
    if (rc) return rc;
    leak_baseline(h);
    {
        /* the internal entry points of the driver: no context, bad type */
        double d[40], e[40], Z[40 * 40];
        hyla_dtt_make(MAT_TOEPLITZ, 40, d, e, &seed);
        rc = hyla_eig_stedc(NULL, HYLA_D, 40, d, e, Z, 40);
        CHECK(rc == 0 && fabs(d[0] - (2 - 2 * cos(M_PI / 41))) < 1e-13,
              "hyla_eig_stedc without a context: %d", rc);
        hyla_dtt_make(MAT_TOEPLITZ, 40, d, e, &seed);
        rc = hyla_eig_sterf(HYLA_D, 40, d, e);
        CHECK(rc == 0 && fabs(d[39] - (2 - 2 * cos(40 * M_PI / 41))) < 1e-13,
              "hyla_eig_sterf: %d", rc);
        CHECK(hyla_eig_sterf(HYLA_Z, 40, d, e) == HYLA_ERR_INVALID, "hyla_eig_sterf type z");
        CHECK(hyla_eig_stedc(h, HYLA_C, 40, d, e, Z, 40) == HYLA_ERR_INVALID,
              "hyla_eig_stedc type c");
        CHECK(hyla_eig_stedc(h, HYLA_D, 40, d, e, Z, 39) == HYLA_ERR_INVALID,
              "hyla_eig_stedc ldz < n");
    }
    hyla_stt_all(h, &seed);
    hyla_dtt_all(h, &seed);
    injection(h, &seed);
    return t_finish(&h, "tridiag");
}
