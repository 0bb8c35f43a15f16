/* LU on the devices of HYLA_DEVICES (default one virtual host device):
 * hyla_?getrf, ?getrs (trans N, T, C), ?gesv, the _gpu variants and the
 * nopiv variants for the four precisions; square and rectangular, sizes 0,
 * 1, 2, odd and past several small panel widths so that many panels meet
 * several devices; LAPACK's scaled residuals |PA - LU|/(max(m,n)|A|eps) and
 * |B - op(A)X|/(n|A||X|eps); zero columns (info k) and a zero leading entry
 * without pivoting (info 1); an ill-conditioned matrix; bad arguments; no
 * leak after any call; and injected allocation failures. */
#include "hyla.h"
#include "harness.h"
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define THRESH 60.0     /* LAPACK's threshold for the scaled residuals */
#define SENTINEL 777.0  /* padding rows past m */
#define HYLA_TMIN(a, b) ((a) < (b) ? (a) : (b))
#define HYLA_TMAX(a, b) ((a) > (b) ? (a) : (b))

static int64_t live_base;
static int release_each = 1;

/* As in test_potrf: the call freed what it took (on GPUs the cached
 * workspaces stay and must go away with a release). */
static void leak_check(hyla_t *h, const char *what) {
    int64_t live;
    if (release_each) hyla_release_workspace(h);
    hyla_debug_alloc_stats(&live, NULL);
    if (!release_each && live > live_base) {
        int64_t before = live_base;
        hyla_release_workspace(h);
        hyla_debug_alloc_stats(&live, NULL);
        CHECK(live <= before, "%s: %lld allocations left after the call and a release", what,
              (long long)(live - before));
    } else {
        CHECK(live == live_base, "%s: %lld allocations left after the call", what,
              (long long)(live - live_base));
    }
    live_base = live;
}

#define HYLA_TEMPLATE "t_test_getrf.c"
#include "core/each_prec.h"

/* A graded matrix, D1 R D2 with D spanning 10^±6: pivoting keeps the
 * residual small although kappa is about 1e12. */
static void ill_conditioned(hyla_t *h, unsigned long long *s) {
    enum { N = 90 };
    static double A0[N * N], A[N * N];
    int64_t ipiv[N];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
            A0[i + j * N] = t_rand(s) * pow(10.0, 6.0 * (2.0 * i / (N - 1) - 1)) *
                            pow(10.0, 6.0 * (1 - 2.0 * j / (N - 1)));
    memcpy(A, A0, sizeof A);
    hyla_set_option(h, HYLA_OPT_GETRF_NB, 8);
    int info = hyla_dgetrf(h, N, N, A, N, ipiv);
    double r = hyla_dtl_resid(A0, A, N, N, N, ipiv);
    CHECK(info == 0 && r < THRESH, "dgetrf graded: info %d residual %.3g", info, r);
    leak_check(h, "graded");
}

/* Allocation failure k = 1, 2, ... inside one gesv until a call runs with
 * no injection firing: each failure is a clean error and leaks nothing. */
static void injection(const char *devices, int pivot, unsigned long long *s) {
    enum { N = 60 };
    hyla_t *h = NULL;
    int rc = hyla_create(&h, devices);
    CHECK(rc == 0, "create %s: %d", devices, rc);
    if (rc) return;
    hyla_set_option(h, HYLA_OPT_GETRF_NB, 8);
    double *A0 = hyla_dtl_make(N, N, N, !pivot, s), *A = malloc(sizeof *A * N * N);
    double B0[N * 2], B[N * 2];
    int64_t ipiv[N];
    for (int i = 0; i < N * 2; i++) B0[i] = t_rand(s);
    hyla_release_workspace(h);
    hyla_debug_alloc_stats(&live_base, NULL);
    int64_t k, failures = 0;
    for (k = 1; k < 5000; k++) {
        memcpy(A, A0, sizeof *A * N * N);
        memcpy(B, B0, sizeof B);
        hyla_debug_fail_alloc(k);
        rc = pivot ? hyla_dgesv(h, N, 2, A, N, ipiv, B, N) : hyla_dgesv_nopiv(h, N, 2, A, N, B, N);
        hyla_debug_fail_alloc(0);
        int64_t live;
        hyla_release_workspace(h);
        hyla_debug_alloc_stats(&live, NULL);
        if (live != live_base) {
            CHECK(0, "dgesv: leak after failing allocation %lld: %lld live (rc %d)", (long long)k,
                  (long long)(live - live_base), rc);
            break;
        }
        if (rc == 0) {
            double e = hyla_dtl_solve_resid(A0, N, N, 'N', B0, B, N, 2);
            CHECK(e < THRESH, "dgesv after the injection runs: residual %g", e);
            break;
        }
        failures++;
        if (rc != HYLA_ERR_NO_MEMORY && rc != HYLA_ERR_DEVICE_MEMORY) {
            CHECK(0, "dgesv: failing allocation %lld gave %d (%s)", (long long)k, rc,
                  hyla_strerror(rc));
            break;
        }
    }
    CHECK(failures > 5, "dgesv: %lld injected failures", (long long)failures);
    printf("getrf: dgesv%s: %lld allocation points tried\n", pivot ? "" : "_nopiv", (long long)k);
    free(A0);
    free(A);
    hyla_destroy(&h);
}

/* The CLI tests' inputs: PREFIX{a,rect,b,b59,sing}_d.npy and PREFIX{a,b}_z.npy
 * (sing_d: column 30 zero, so info 30). */
static int write_npy(const char *prefix) {
    enum { N = 60, NZ = 40 };
    unsigned long long s = 11;
    double *A = hyla_dtl_make(N, N, N, 0, &s), *B = hyla_dtl_make(N, 3, N, 0, &s);
    double complex *Z = hyla_ztl_make(NZ, NZ, NZ, 0, &s), *BZ = hyla_ztl_make(NZ, 2, NZ, 0, &s);
    double *S = hyla_dtl_make(N, N, N, 0, &s);
    for (int i = 0; i < N; i++) S[i + 29 * N] = 0;
    struct {
        const char *name;
        hyla_dtype t;
        int64_t rows, cols, ld;
        const void *data;
    } files[] = {{"a_d", HYLA_D, N, N, N, A},       {"rect_d", HYLA_D, N, N - 7, N, A},
                 {"b_d", HYLA_D, N, 3, N, B},       {"b59_d", HYLA_D, N - 1, 3, N, B},
                 {"sing_d", HYLA_D, N, N, N, S},    {"a_z", HYLA_Z, NZ, NZ, NZ, Z},
                 {"b_z", HYLA_Z, NZ, 2, NZ, BZ}};
    int bad = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%s.npy", prefix, files[f].name);
        int rc = hyla_npy_write(path, files[f].t, files[f].rows, files[f].cols, files[f].data,
                                files[f].ld);
        if (rc) {
            fprintf(stderr, "%s: %s\n", path, hyla_strerror(rc));
            bad = 1;
        }
    }
    free(A);
    free(B);
    free(Z);
    free(BZ);
    free(S);
    return bad;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--write-npy") == 0) return write_npy(argv[2]);
    const char *devices = test_devices();
    unsigned long long seed = 4242;
    hyla_t *h = NULL;
    int64_t live0, live1;
    hyla_debug_alloc_stats(&live0, NULL);
    int rc = hyla_create(&h, devices);
    if (rc == HYLA_ERR_NO_DEVICE || rc == HYLA_ERR_UNSUPPORTED) {
        printf("devices %s not available: skipped\n", devices);
        return 77;
    }
    CHECK(rc == 0, "hyla_create(%s): %s", devices, hyla_strerror(rc));
    if (rc) return summary("getrf");
    hyla_device_info info;
    hyla_get_device_info(h, 0, &info);
    const int cuda = info.kind == HYLA_DEVICE_CUDA;
    release_each = !cuda;
    /* Warm-up: library handles made on first use stay until hyla_destroy. */
    {
        double *A = hyla_dtl_make(40, 40, 40, 0, &seed), B[40];
        int64_t ipiv[40];
        for (int i = 0; i < 40; i++) B[i] = 1;
        hyla_set_option(h, HYLA_OPT_GETRF_NB, 8);
        rc = hyla_dgesv(h, 40, 1, A, 40, ipiv, B, 40);
        CHECK(rc == 0, "warm-up gesv: %d", rc);
        free(A);
    }
    if (release_each) hyla_release_workspace(h);
    hyla_debug_alloc_stats(&live_base, NULL);

    hyla_stl_suite(h, &seed, cuda);
    hyla_dtl_suite(h, &seed, cuda);
    hyla_ctl_suite(h, &seed, cuda);
    hyla_ztl_suite(h, &seed, cuda);
    ill_conditioned(h, &seed);
    CHECK(hyla_set_option(h, HYLA_OPT_GETRF_NB, -1) == -3, "GETRF_NB -1 is out of range");
    int64_t v = -1;
    CHECK(hyla_get_option(h, HYLA_OPT_GETRF_NB, &v) == 0 && v == 8, "GETRF_NB reads back: %lld",
          (long long)v);
    hyla_destroy(&h);

    if (!cuda) {
        injection(devices, 1, &seed);
        injection(devices, 0, &seed);
    }
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld live allocations", (long long)(live1 - live0));
    return summary("getrf");
}
