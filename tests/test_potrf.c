/* Cholesky on the devices of HYLA_DEVICES (default one virtual host device):
 * hyla_?potrf, ?potrs, ?posv and the _gpu variants for the four precisions
 * and both triangles, against LAPACKE, with small panel widths so that many
 * panels meet several devices; near-singular and not positive definite
 * matrices; forced out-of-core; a device-memory cap that cannot hold the
 * factor; bad arguments; no leak after any call; and injected allocation
 * failures.
 *
 * `test_potrf --write-npy PREFIX` writes the small .npy inputs of the CLI
 * tests instead, and `test_potrf --same-npy A.npy B.npy` compares two of
 * their outputs (see tests/CMakeLists.txt). */
#include "hyla.h"
#include "test_util.h"
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#define THRESH 60.0     /* LAPACK's threshold for the scaled residuals */
#define SENTINEL 777.0  /* padding rows past n */

/* A = Q diag(cond^(-i/(n-1))) Q^H (full, ld n), Q from the QR factorization
 * of a random matrix: LAPACK dlatms's geometric mode. */
static void make_cond_d(double *A, int64_t n, double cond, unsigned long long *s) {
    double *Q = malloc(sizeof *Q * (size_t)(n * n)), *tau = malloc(sizeof *tau * (size_t)n);
    for (int64_t i = 0; i < n * n; i++) Q[i] = t_rand(s);
    LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (int)n, (int)n, Q, (int)n, tau);
    LAPACKE_dorgqr(LAPACK_COL_MAJOR, (int)n, (int)n, (int)n, Q, (int)n, tau);
    for (int64_t k = 0; k < n; k++) tau[k] = pow(cond, -(double)k / (double)(n - 1));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            double acc = 0;
            for (int64_t k = 0; k < n; k++) acc += Q[i + k * n] * tau[k] * Q[j + k * n];
            A[i + j * n] = A[j + i * n] = acc;
        }
    free(Q);
    free(tau);
}

static void make_cond_z(double complex *A, int64_t n, double cond, unsigned long long *s) {
    double complex *Q = malloc(sizeof *Q * (size_t)(n * n)), *tau = malloc(sizeof *tau * (size_t)n);
    for (int64_t i = 0; i < n * n; i++) Q[i] = t_rand(s) + t_rand(s) * I;
    LAPACKE_zgeqrf(LAPACK_COL_MAJOR, (int)n, (int)n, Q, (int)n, tau);
    LAPACKE_zungqr(LAPACK_COL_MAJOR, (int)n, (int)n, (int)n, Q, (int)n, tau);
    for (int64_t k = 0; k < n; k++) tau[k] = pow(cond, -(double)k / (double)(n - 1));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            double complex acc = 0;
            for (int64_t k = 0; k < n; k++) acc += Q[i + k * n] * tau[k] * conj(Q[j + k * n]);
            if (i == j) acc = creal(acc);
            A[i + j * n] = acc;
            A[j + i * n] = conj(acc);
        }
    free(Q);
    free(tau);
}

#define HYLA_TEMPLATE "t_test_potrf.c"
#include "base/each_prec.h"

/* A device-memory cap that holds panels but not the factor: out of core
 * without being asked. */
static void capped(int ndev, unsigned long long *s) {
    char spec[64];
    hyla_t *h = NULL;
    snprintf(spec, sizeof spec, "cpu:%d@256K", ndev);
    int rc = hyla_create(&h, spec);
    CHECK(rc == 0, "create %s: %d", spec, rc);
    if (rc) return;
    leak_baseline(h);
    hyla_chol_stats st;
    hyla_set_option(h, HYLA_OPT_POTRF_NB, 16);
    const int64_t n = 300; /* the factor: 720 KB in double */
    double *A0 = malloc(sizeof *A0 * n * n);
    hyla_dtp_spd(A0, n, s);
    for (int u = 0; u < 2; u++) {
        hyla_dtp_potrf_case(h, u ? 'U' : 'L', A0, n, 1, s, "cap 256K");
        hyla_get_chol_stats(h, &st);
        CHECK(st.out_of_core == 1 && st.resident_cols < n,
              "dpotrf under a 256K cap: out_of_core %d, resident columns %lld", st.out_of_core,
              (long long)st.resident_cols);
    }
    free(A0);
    hyla_set_option(h, HYLA_OPT_POTRF_NB, 8);
    hyla_ztp_solve_case(h, 'U', 200, 5, s, "cap 256K"); /* the factor: 640 KB */
    hyla_get_chol_stats(h, &st);
    CHECK(st.out_of_core == 1, "zposv under a 256K cap: out_of_core %d", st.out_of_core);
    hyla_ztp_notpd_case(h, 'L', 200, 150, s, "cap 256K");
    hyla_destroy(&h);
}

/* Allocation failure k = 1, 2, ... inside one call until a call runs with
 * no injection firing: each failure is a clean error and leaks nothing. */
static void injection(const char *devices, int posv, unsigned long long *s) {
    enum { N = 100 };
    hyla_t *h = NULL;
    int rc = hyla_create(&h, devices);
    CHECK(rc == 0, "create %s: %d", devices, rc);
    if (rc) return;
    hyla_set_option(h, HYLA_OPT_POTRF_NB, 16);
    if (posv) hyla_set_option(h, HYLA_OPT_POTRF_OOC, 1);
    double *A0 = malloc(sizeof *A0 * N * N), *A = malloc(sizeof *A * N * N);
    double B0[N * 2], B[N * 2];
    hyla_dtp_spd(A0, N, s);
    for (int i = 0; i < N * 2; i++) B0[i] = t_rand(s);
    leak_baseline(h);
    int64_t k, failures = 0;
    for (k = 1; k < 20000; k++) {
        memcpy(A, A0, sizeof *A * N * N);
        memcpy(B, B0, sizeof B);
        hyla_debug_fail_alloc(k);
        rc = posv ? hyla_dposv(h, 'L', N, 2, A, N, B, N) : hyla_dpotrf(h, 'L', N, A, N);
        hyla_debug_fail_alloc(0);
        if (t_injected(h, posv ? "dposv" : "dpotrf", k, rc)) {
            failures++;
            continue;
        }
        if (rc == 0) {
            double r = hyla_dtp_resid('L', A0, N, A, N, s);
            double e = posv ? hyla_dtp_solve_resid(A0, N, B0, B, N, 2) : 0;
            CHECK(r < THRESH && e < THRESH, "%s after the injection runs: residual %g, error %g",
                  posv ? "dposv" : "dpotrf", r, e);
        }
        break;
    }
    CHECK(failures > 5, "%s: %lld injected failures", posv ? "dposv" : "dpotrf",
          (long long)failures);
    printf("potrf: %s: %lld allocation points tried\n", posv ? "dposv out of core" : "dpotrf",
           (long long)k);
    free(A0);
    free(A);
    hyla_destroy(&h);
}

/* The CLI tests' inputs: PREFIX{spd,rhs,rect,rhs59,notspd}_d.npy and
 * PREFIX{spd,rhs}_z.npy. */
static int write_npy(const char *prefix) {
    enum { N = 60, NZ = 40 };
    unsigned long long s = 7;
    static double A[N * N], B[N * 3];
    static double complex Z[NZ * NZ], BZ[NZ * 2];
    hyla_dtp_spd(A, N, &s);
    hyla_ztp_spd(Z, NZ, &s);
    for (int i = 0; i < N * 3; i++) B[i] = t_rand(&s);
    for (int i = 0; i < NZ * 2; i++) BZ[i] = t_rand(&s) + t_rand(&s) * I;
    struct {
        const char *name;
        hyla_dtype t;
        int64_t rows, cols, ld;
        const void *data;
    } files[] = {{"spd_d", HYLA_D, N, N, N, A},      {"rhs_d", HYLA_D, N, 3, N, B},
                 {"rect_d", HYLA_D, N, N - 1, N, A}, {"rhs59_d", HYLA_D, N - 1, 3, N, B},
                 {"spd_z", HYLA_Z, NZ, NZ, NZ, Z},  {"rhs_z", HYLA_Z, NZ, 2, NZ, BZ},
                 {"notspd_d", HYLA_D, N, N, N, A}};
    int bad = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%s.npy", prefix, files[f].name);
        if (strcmp(files[f].name, "notspd_d") == 0) A[29 + 29 * N] = -1; /* minor 30 */
        int rc = hyla_npy_write(path, files[f].t, files[f].rows, files[f].cols, files[f].data,
                                files[f].ld);
        if (rc) {
            fprintf(stderr, "%s: %s\n", path, hyla_strerror(rc));
            bad = 1;
        }
    }
    return bad;
}

/* 0 when two .npy files hold the same double matrix up to 1e-10 relative. */
static int same_npy(const char *a, const char *b) {
    hyla_npy x = {0}, y = {0};
    int rc = hyla_npy_read(a, &x, NULL, 0), rc2 = hyla_npy_read(b, &y, NULL, 0), bad = 1;
    if (rc || rc2) {
        fprintf(stderr, "cannot read %s\n", rc ? a : b);
    } else if (x.dtype != HYLA_D || y.dtype != HYLA_D || x.rows != y.rows || x.cols != y.cols) {
        fprintf(stderr, "%s and %s differ in type or shape\n", a, b);
    } else {
        const double *u = x.data, *v = y.data;
        double d = 0, m = 0;
        for (int64_t i = 0; i < x.rows * x.cols; i++) {
            d = fmax(d, fabs(u[i] - v[i]));
            m = fmax(m, fabs(v[i]));
        }
        bad = !(d <= 1e-10 * m);
        printf("%s vs %s: max difference %.3g (max entry %.3g)\n", a, b, d, m);
    }
    hyla_npy_free(&x);
    hyla_npy_free(&y);
    return bad;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--write-npy") == 0) return write_npy(argv[2]);
    if (argc == 4 && strcmp(argv[1], "--same-npy") == 0) return same_npy(argv[2], argv[3]);
    const char *devices = test_devices();
    unsigned long long seed = 2024;
    hyla_t *h = NULL;
    int64_t live0, live1;
    hyla_debug_alloc_stats(&live0, NULL);
    int rc = t_create(&h, devices, "potrf");
    if (rc) return rc;
    hyla_device_info info;
    hyla_get_device_info(h, 0, &info);
    const int cuda = info.kind == HYLA_DEVICE_CUDA;
    release_each = !cuda;
    /* Warm-up: what a device creates on its first use (library handles)
     * stays until hyla_destroy; the baseline counts it. */
    {
        double A0[100 * 100], A[100 * 100], B[200];
        void *dA = NULL, *dB = NULL;
        hyla_dtp_spd(A0, 100, &seed);
        memcpy(A, A0, sizeof A);
        for (int i = 0; i < 200; i++) B[i] = 1;
        hyla_set_option(h, HYLA_OPT_POTRF_NB, 8);
        rc = hyla_dposv(h, 'L', 100, 2, A, 100, B, 100);
        rc = rc ? rc : hyla_malloc_device(h, 0, sizeof A, &dA);
        rc = rc ? rc : hyla_copy_to_device(h, 0, dA, A0, sizeof A);
        rc = rc ? rc : hyla_dpotrf_gpu(h, 0, 'L', 100, dA, 100);
        rc = rc ? rc : hyla_malloc_device(h, 0, sizeof B, &dB);
        rc = rc ? rc : hyla_copy_to_device(h, 0, dB, B, sizeof B);
        rc = rc ? rc : hyla_dpotrs_gpu(h, 0, 'L', 100, 2, dA, 100, dB, 100);
        hyla_free_device(h, 0, &dA);
        hyla_free_device(h, 0, &dB);
        CHECK(rc == 0, "warm-up calls: %d", rc);
    }
    leak_baseline(h);

    hyla_stp_suite(h, &seed, cuda);
    hyla_dtp_suite(h, &seed, cuda);
    hyla_ctp_suite(h, &seed, cuda);
    hyla_ztp_suite(h, &seed, cuda);

    hyla_chol_stats st;
    CHECK(hyla_get_chol_stats(NULL, &st) == -1, "chol stats of NULL ctx");
    CHECK(hyla_get_chol_stats(h, NULL) == -2, "chol stats into NULL");
    CHECK(hyla_set_option(h, HYLA_OPT_POTRF_OOC, 2) == -3, "POTRF_OOC 2 is out of range");
    CHECK(hyla_set_option(h, HYLA_OPT_POTRF_NB, -1) == -3, "POTRF_NB -1 is out of range");
    hyla_destroy(&h);

    if (!cuda) {
        int ndev = 1;
        sscanf(devices, "cpu:%d", &ndev);
        capped(ndev, &seed);
        injection(devices, 0, &seed);
        injection(devices, 1, &seed);
    }
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld live allocations", (long long)(live1 - live0));
    return summary("potrf");
}
