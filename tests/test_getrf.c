/* LU on the devices of HYLA_DEVICES (default one virtual host device):
 * hyla_?getrf, ?getrs (trans N, T, C), ?gesv, the _gpu variants and the
 * nopiv variants for the four precisions; square and rectangular, sizes 0,
 * 1, 2, odd and past several small panel widths so that many panels meet
 * several devices; LAPACK's scaled residuals |PA - LU|/(max(m,n)|A|eps) and
 * |B - op(A)X|/(n|A||X|eps); zero columns (info k) and a zero leading entry
 * without pivoting (info 1); an ill-conditioned matrix; bad arguments; no
 * leak after any call; injected allocation failures; and the statistics of
 * hyla_get_lu_stats (panels, bytes, lookahead) against their formulas. */
#include "test_util.h"
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define THRESH 60.0     /* LAPACK's threshold for the scaled residuals */
#define SENTINEL 777.0  /* padding rows past m */
#define HYLA_TMIN(a, b) ((a) < (b) ? (a) : (b))
#define HYLA_TMAX(a, b) ((a) > (b) ? (a) : (b))

#define HYLA_TEMPLATE "t_test_getrf.c"
#include "base/each_prec.h"

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

/* hyla_get_lu_stats after a factorization of m x n doubles with nb = 16 on
 * every device, a one-panel factorization, a solve and a bad call. The
 * byte counts are exact for host-resident matrices: A up once and down
 * once, each panel's leaf infos and the pivots down, panels and pivots to
 * every other device. */
static void stats(hyla_t *h, int cuda, unsigned long long *s) {
    enum { M = 100, N = 90, NB = 16 };
    hyla_lu_stats st, st2;
    int64_t ipiv[M];
    CHECK(hyla_get_lu_stats(NULL, &st) == -1, "lu stats of a NULL ctx");
    CHECK(hyla_get_lu_stats(h, NULL) == -2, "lu stats into NULL");
    double *A = hyla_dtl_make(M, N, M, 0, s);
    hyla_set_option(h, HYLA_OPT_GETRF_NB, NB);
    int rc = hyla_dgetrf(h, M, N, A, M, ipiv);
    CHECK(rc == 0 && hyla_get_lu_stats(h, &st) == 0, "dgetrf for stats: %d", rc);
    const int64_t np = (N + NB - 1) / NB, ndev = hyla_device_count(h);
    const int nd = (int)(ndev < np ? ndev : np);
    CHECK(st.nb == NB && st.ib >= 1 && st.ib <= NB && st.devices == nd && st.lookahead == 1,
          "stats: nb %lld ib %lld devices %d (want %d) lookahead %d", (long long)st.nb,
          (long long)st.ib, st.devices, nd, st.lookahead);
    int64_t infos = 0, peer = 0;
    for (int64_t k = 0; k < np; k++) {
        const int64_t k0 = k * NB, kb = HYLA_TMIN(NB, N - k0);
        infos += (kb + st.ib - 1) / st.ib;
        peer += (nd - 1) * ((M - k0) * kb * 8 + kb * 8);
    }
    for (int e = 0; e < nd; e++)
        CHECK(st.panels_per_device[e] == (np - e + nd - 1) / nd, "device %d factored %lld panels",
              e, (long long)st.panels_per_device[e]);
    CHECK(st.bytes_peer == peer, "peer bytes %lld, want %lld", (long long)st.bytes_peer,
          (long long)peer);
    CHECK(st.panel_time_s >= 0 && st.panel_time_s < 60, "panel time %g s", st.panel_time_s);
    if (!cuda) {
        const int64_t a = (int64_t)M * N * 8;
        CHECK(st.bytes_h2d == a && st.bytes_d2h == a + infos * 4 + N * 8,
              "host link bytes h2d %lld d2h %lld, want %lld and %lld", (long long)st.bytes_h2d,
              (long long)st.bytes_d2h, (long long)a, (long long)(a + infos * 4 + N * 8));
    }
    /* one panel: no lookahead, one device */
    rc = hyla_dgetrf(h, 10, 10, A, 10, ipiv);
    CHECK(rc == 0 && hyla_get_lu_stats(h, &st) == 0 && st.lookahead == 0 && st.devices == 1 &&
              st.nb == 10 && st.panels_per_device[0] == 1 && st.bytes_peer == 0,
          "one-panel stats: rc %d lookahead %d devices %d nb %lld panels %lld", rc, st.lookahead,
          st.devices, (long long)st.nb, (long long)st.panels_per_device[0]);
    /* a solve alone: the factor, B and the pivots up, B down, on one device */
    double *F = hyla_dtl_make(40, 40, 40, 1, s), B[40 * 3];
    for (int i = 0; i < 40 * 3; i++) B[i] = 1;
    rc = hyla_dgetrf(h, 40, 40, F, 40, ipiv);
    rc = rc ? rc : hyla_dgetrs(h, 'N', 40, 3, F, 40, ipiv, B, 40);
    CHECK(rc == 0 && hyla_get_lu_stats(h, &st) == 0 && st.lookahead == 0 && st.devices == 1 &&
              st.panels_per_device[0] == 0 && st.panel_time_s == 0,
          "getrs stats: rc %d lookahead %d devices %d panels %lld", rc, st.lookahead, st.devices,
          (long long)st.panels_per_device[0]);
    if (!cuda)
        CHECK(st.bytes_h2d == (40 * 40 + 40 * 3 + 40) * 8 && st.bytes_d2h == 40 * 3 * 8,
              "getrs host link bytes h2d %lld d2h %lld", (long long)st.bytes_h2d,
              (long long)st.bytes_d2h);
    /* a bad argument leaves them as they were */
    CHECK(hyla_dgetrf(h, 10, 10, A, 5, ipiv) == -4 && hyla_get_lu_stats(h, &st2) == 0 &&
              memcmp(&st, &st2, sizeof st) == 0,
          "a bad call changed the stats");
    free(A);
    free(F);
    leak_check(h, "stats");
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
    leak_baseline(h);

    hyla_stl_suite(h, &seed, cuda);
    hyla_dtl_suite(h, &seed, cuda);
    hyla_ctl_suite(h, &seed, cuda);
    hyla_ztl_suite(h, &seed, cuda);
    ill_conditioned(h, &seed);
    CHECK(hyla_set_option(h, HYLA_OPT_GETRF_NB, -1) == -3, "GETRF_NB -1 is out of range");
    int64_t v = -1;
    CHECK(hyla_get_option(h, HYLA_OPT_GETRF_NB, &v) == 0 && v == 8, "GETRF_NB reads back: %lld",
          (long long)v);
    stats(h, cuda, &seed);
    hyla_destroy(&h);

    if (!cuda) {
        injection(devices, 1, &seed);
        injection(devices, 0, &seed);
    }
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld live allocations", (long long)(live1 - live0));
    return summary("getrf");
}
