/* Tridiagonal eigenvalues by bisection (hyla_?sterf_bisect, the backend's
 * tri_eigvals op on device 0 of HYLA_DEVICES) against LAPACKE ?sterf:
 * eigenvalues within 60 n eps |T|, ascending, exactly equal where they are
 * (repeated diagonal entries, e = 0), and within 8 eps |T| of LAPACKE
 * ?stebz's and of the exact eigenvalues of the 1-2-1 Toeplitz matrix; random, clustered, graded,
 * Wilkinson, glued Wilkinson, zero, diagonal (with repeated values), huge
 * and tiny matrices; n = 0, 1, 2, odd sizes and 2000; NaN and Inf input;
 * bad arguments; injected
 * allocation failures; the eigensolver ?syevd / ?heevd jobz N with the
 * bisection path (HYLA_OPT_EIG_TRIDIAG 2) against LAPACKE. */
#include "hyla.h"
#include "test_util.h"
#include "eig/ptridiag.h"
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#define THRESH 60.0
#define CH "sdcz"[DT]

enum { MAT_RANDOM, MAT_CLUSTER, MAT_GRADED, MAT_WILKINSON, MAT_GLUED, MAT_ZERO, MAT_DIAG,
       MAT_REPEAT, MAT_TOEPLITZ, MAT_HUGE, MAT_TINY, MAT_COUNT };
static const char *mat_name[] = {"random", "cluster", "graded", "wilkinson", "glued", "zero",
                                 "diagonal", "repeated", "toeplitz", "huge", "tiny"};

#define HYLA_TEMPLATE "t_test_bisect.c"
#define HYLA_TEMPLATE_REAL
#include "base/each_prec.h"

/* ?syevd / ?heevd jobz N with the tridiagonal eigenvalues by bisection
 * against LAPACKE ?syevd / ?heevd on random Hermitian matrices. */
static void syevd_case(hyla_t *h, hyla_dtype t, int64_t n, unsigned long long *s) {
    const int cplx = t == HYLA_Z;
    double *A = malloc(sizeof(double) * (size_t)(n * n) * (cplx ? 2 : 1));
    double *Ar = malloc(sizeof(double) * (size_t)(n * n) * (cplx ? 2 : 1));
    double *w = malloc(sizeof *w * (size_t)n), *wr = malloc(sizeof *wr * (size_t)n);
    double anorm = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            double re = t_rand(s), im = i == j || !cplx ? 0 : t_rand(s);
            if (cplx) {
                double complex *Z = (double complex *)A;
                Z[i + j * n] = re + im * I;
                Z[j + i * n] = re - im * I;
            } else {
                A[i + j * n] = A[j + i * n] = re;
            }
            anorm = fmax(anorm, hypot(re, im));
        }
    memcpy(Ar, A, sizeof(double) * (size_t)(n * n) * (cplx ? 2 : 1));
    int ri = cplx ? LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n,
                                   (lapack_complex_double *)Ar, (lapack_int)n, wr)
                  : LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, Ar, (lapack_int)n, wr);
    CHECK(ri == 0, "LAPACKE ?syevd n=%lld: %d", (long long)n, ri);
    for (int mode = 0; mode <= 2; mode++) {
        CHECK(hyla_set_option(h, HYLA_OPT_EIG_TRIDIAG, mode) == 0, "tridiag option %d", mode);
        memcpy(Ar, A, sizeof(double) * (size_t)(n * n) * (cplx ? 2 : 1));
        int rc = cplx ? hyla_zheevd(h, 'N', 'L', n, (hyla_complex_double *)Ar, n, w)
                      : hyla_dsyevd(h, 'N', 'L', n, Ar, n, w);
        double err = 0;
        int sorted = 1;
        for (int64_t i = 0; i < n; i++) {
            err = fmax(err, fabs(w[i] - wr[i]));
            if (i > 0) sorted &= w[i - 1] <= w[i];
        }
        err /= (double)n * (double)n * anorm * DBL_EPSILON;
        CHECK(rc == 0 && err < THRESH && sorted,
              "%c syevd jobz N n=%lld tridiag %d: rc %d, eigenvalue error %.3g, ascending %d",
              "sdcz"[t], (long long)n, mode, rc, err, sorted);
    }
    hyla_set_option(h, HYLA_OPT_EIG_TRIDIAG, 0);
    free(A);
    free(Ar);
    free(w);
    free(wr);
}

/* Allocation failure k = 1, 2, ... inside one call until a call runs with
 * no injection firing: each failure is a clean error and leaks nothing. */
static void injection(hyla_t *h, unsigned long long *s) {
    enum { N = 50 };
    double d0[N], e0[N], d[N];
    hyla_dtb_make(MAT_RANDOM, N, d0, e0, s);
    for (int64_t k = 1; k < 1000; k++) {
        memcpy(d, d0, sizeof d);
        hyla_debug_fail_alloc(k);
        int rc = hyla_dsterf_bisect(h, N, d, e0);
        hyla_debug_fail_alloc(0);
        if (!t_injected(h, "sterf_bisect", k, rc)) {
            CHECK(rc == 0 && k > 1, "sterf_bisect: %d after %lld injections", rc, (long long)k);
            break;
        }
    }
}

int main(void) {
    const char *devices = test_devices();
    unsigned long long seed = 2027;
    hyla_t *h = NULL;
    int rc = t_create(&h, devices, "bisect");
    if (rc) return rc;
    leak_baseline(h);

    /* the option */
    int64_t v = -1;
    CHECK(hyla_get_option(h, HYLA_OPT_EIG_TRIDIAG, &v) == 0 && v == 0, "tridiag default %lld",
          (long long)v);
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_TRIDIAG, 3) == -3, "tridiag 3 refused");
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_TRIDIAG, -1) == -3, "tridiag -1 refused");

    /* the backend op's argument checks (nothing is enqueued) */
    {
        hyla_dev *dv = h->devs[0];
        const hyla_backend_ops *o = dv->ops;
        hyla_dev_workspace *ws = NULL;
        CHECK(o->alg->tri_eigvals != NULL, "backend %s has tri_eigvals", o->name);
        CHECK(hyla_workspace_get(h, 0, 0, 0, &ws) == 0, "workspace");
        if (o->alg->tri_eigvals && ws) {
            hyla_queue *q = ws->q_comp;
            double x[4];
            int info;
            const size_t wb = HYLA_TRI_EIGVALS_WORK_BYTES(4);
            CHECK(o->alg->tri_eigvals(q, HYLA_Z, 4, x, x, x, x, wb, &info) == HYLA_ERR_INVALID,
                  "op: complex type");
            CHECK(o->alg->tri_eigvals(q, HYLA_D, -1, x, x, x, x, wb, &info) == HYLA_ERR_INVALID,
                  "op: n < 0");
            CHECK(o->alg->tri_eigvals(q, HYLA_D, 4, x, x, x, x, wb, NULL) == HYLA_ERR_INVALID,
                  "op: info NULL");
            CHECK(o->alg->tri_eigvals(q, HYLA_D, 4, x, x, x, x, wb - 1, &info) == HYLA_ERR_INVALID,
                  "op: work too small");
            CHECK(o->alg->tri_eigvals(q, HYLA_D, 4, NULL, x, x, x, wb, &info) == HYLA_ERR_INVALID,
                  "op: d NULL");
            CHECK(o->alg->tri_eigvals(q, HYLA_D, 4, x, NULL, x, x, wb, &info) == HYLA_ERR_INVALID,
                  "op: e NULL");
            CHECK(o->alg->tri_eigvals(q, HYLA_D, 4, x, x, NULL, x, wb, &info) == HYLA_ERR_INVALID,
                  "op: w NULL");
            CHECK(o->queue_sync(q) == 0, "op: queue status untouched");
        }
        double d[3] = {1, 2, 3}, e[2] = {1, 1};
        CHECK(hyla_eig_tri_bisect(h, 0, HYLA_Z, 3, d, e, d) == HYLA_ERR_INVALID,
              "driver: complex type");
        CHECK(hyla_eig_tri_bisect(h, h->ndev, HYLA_D, 3, d, e, d) == HYLA_ERR_NO_DEVICE,
              "driver: device out of range");
        CHECK(hyla_eig_tri_bisect(NULL, 0, HYLA_D, 3, d, e, d) == HYLA_ERR_INVALID,
              "driver: no context");
        leak_check(h, "argument checks");
    }

    hyla_stb_all(h, &seed);
    hyla_dtb_all(h, &seed);
    static const int64_t sn[] = {1, 2, 37, 150, 301};
    for (size_t k = 0; k < sizeof sn / sizeof *sn; k++) {
        syevd_case(h, HYLA_D, sn[k], &seed);
        syevd_case(h, HYLA_Z, sn[k], &seed);
    }
    leak_check(h, "syevd");
    injection(h, &seed);
    return t_finish(&h, "bisect");
}
