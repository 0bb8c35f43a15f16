/* Probe of divide and conquer with its eigenvectors left on device 0, as
 * the eigensolver calls it (hyla_eig_stedc_dev, and hyla_eig_stedc_cols for
 * a part of the spectrum): no host copy of Z, so its time is the solver's
 * own (the CLI's `hyla stedc` takes and returns host memory). T is the
 * CLI's: the 1-2-1 matrix with its diagonal perturbed by u/10, u uniform in
 * (-1, 1), few deflations. For each n: the whole Z, then the columns of the
 * lowest PERMILLE / 1000 of the spectrum (0: skipped); the best of REPEAT
 * runs after one warm-up, stedc's parts of the last run (hyla_eig_stats),
 * and a check of 16 of the delivered columns: max_j |T z_j - l_j z_j|_1 /
 * (n |T|_1 eps) and the largest |z_i^T z_j - delta_ij| / (n eps) among
 * them. GEMM_MIN: the smallest merge run on the device (0: the tuning
 * table's). Built with -DHYLA_BENCH=ON as build/bin/stedc_probe.
 * Usage: stedc_probe N[,N...] [PERMILLE [REPEAT [GEMM_MIN]]] */
#include "core/internal.h"
#include "eig/ptridiag.h"
#include "hyla.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 2026;
static double urand(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return 2.0 * (double)(seed >> 11) / 9007199254740992.0 - 1.0;
}

/* The check of the head comment on 16 columns spread over c0 .. c1 - 1. */
static void check(hyla_t *h, int64_t n, const double *d0, const double *e0, const double *w,
                  const double *dZ, int64_t c0, int64_t c1, double *res, double *orth) {
    enum { NC = 16 };
    double *z = malloc(sizeof *z * (size_t)n * NC);
    int64_t col[NC];
    double tn = 0;
    for (int64_t i = 0; i < n; i++)
        tn = fmax(tn, fabs(d0[i]) + (i > 0 ? fabs(e0[i - 1]) : 0) + (i + 1 < n ? fabs(e0[i]) : 0));
    *res = *orth = INFINITY;
    const int nc = (int)(c1 - c0 < NC ? c1 - c0 : NC);
    for (int c = 0; c < nc; c++) {
        col[c] = c0 + (c1 - c0 - 1) * c / (nc > 1 ? nc - 1 : 1);
        if (hyla_copy_from_device(h, 0, z + (size_t)c * (size_t)n, dZ + col[c] * n,
                                  sizeof *z * (size_t)n))
            goto out;
    }
    double r = 0, o = 0;
    for (int c = 0; c < nc; c++) {
        const double *x = z + (size_t)c * (size_t)n, l = w[col[c]];
        double s = 0;
        for (int64_t i = 0; i < n; i++) {
            double v = (d0[i] - l) * x[i];
            if (i > 0) v += e0[i - 1] * x[i - 1];
            if (i + 1 < n) v += e0[i] * x[i + 1];
            s += fabs(v);
        }
        r = s > r || isnan(s) ? s : r;
        for (int c2 = 0; c2 < nc; c2++) {
            double g = 0;
            for (int64_t i = 0; i < n; i++) g += x[i] * z[(size_t)c2 * (size_t)n + (size_t)i];
            g = fabs(g - (c == c2));
            o = g > o || isnan(g) ? g : o;
        }
    }
    *res = r / ((double)n * tn * DBL_EPSILON);
    *orth = o / ((double)n * DBL_EPSILON);
out:
    free(z);
}

static int one(hyla_t *h, int64_t n, int64_t pml, int repeat, int64_t gemm_min) {
    double *d0 = malloc(sizeof *d0 * (size_t)n), *e0 = malloc(sizeof *e0 * (size_t)n);
    double *d = malloc(sizeof *d * (size_t)n), *e = malloc(sizeof *e * (size_t)n);
    double *Z = malloc(sizeof *Z * (size_t)n * (size_t)n);
    void *dZ = NULL;
    int rc = d0 && e0 && d && e && Z ? hyla_malloc_device(h, 0, sizeof(double) * (size_t)(n * n), &dZ)
                                     : HYLA_ERR_NO_MEMORY;
    for (int64_t i = 0; i < n; i++) {
        d0[i] = 2 + urand() / 10;
        e0[i] = 1;
    }
    for (int part = 0; part < 2 && rc == 0; part++) {
        const int64_t c0 = 0, c1 = part ? HYLA_MAX(1, n * pml / 1000) : n;
        if (part && pml <= 0) break;
        double best = INFINITY;
        for (int r = 0; r <= repeat && rc == 0; r++) {
            memcpy(d, d0, sizeof *d * (size_t)n);
            memcpy(e, e0, sizeof *e * (size_t)(n - 1));
            const double t0 = hyla_wtime();
            rc = part ? hyla_eig_stedc_cols(h, HYLA_D, n, d, e, Z, n, dZ, n, c0, c1, 0, gemm_min)
                      : hyla_eig_stedc_tuned(h, HYLA_D, n, d, e, Z, n, dZ, n, 0, gemm_min);
            const double t = hyla_wtime() - t0;
            if (r > 0 && t < best) best = t;
        }
        if (rc) break;
        hyla_eig_stats st;
        hyla_get_eig_stats(h, &st);
        double res, orth;
        check(h, n, d0, e0, d, dZ, c0, c1, &res, &orth);
        printf("stedc_dev d n %lld columns %lld..%lld: %.4f s  (lower %.4f deflation %.4f secular "
               "%.4f gemm %.4f copies %.4f)  residual %.3g orthogonality %.3g  %s\n",
               (long long)n, (long long)c0, (long long)c1 - 1, best, st.stedc_lower,
               st.stedc_deflate, st.stedc_secular, st.stedc_gemm, st.stedc_copy, res, orth,
               res < 60 && orth < 60 ? "pass" : "FAIL");
        if (!(res < 60 && orth < 60)) rc = 1;
    }
    hyla_free_device(h, 0, &dZ);
    free(d0), free(e0), free(d), free(e), free(Z);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs("usage: stedc_probe N[,N...] [PERMILLE [REPEAT [GEMM_MIN]]]\n", stderr);
        return 2;
    }
    const int64_t pml = argc > 2 ? atoll(argv[2]) : 100;
    const int repeat = argc > 3 ? atoi(argv[3]) : 2;
    const int64_t gemm_min = argc > 4 ? atoll(argv[4]) : 0;
    hyla_t *h = NULL;
    int rc = hyla_create(&h, "cuda:0");
    if (rc) {
        fprintf(stderr, "stedc_probe: hyla_create(cuda:0) returned %d\n", rc);
        return 1;
    }
    for (char *s = argv[1]; *s && rc == 0;) {
        const int64_t n = strtoll(s, &s, 10);
        if (*s == ',') s++;
        if (n < 2) continue;
        rc = one(h, n, pml, repeat < 1 ? 1 : repeat, gemm_min);
        if (rc) fprintf(stderr, "stedc_probe: n %lld: %d\n", (long long)n, rc);
    }
    hyla_destroy(&h);
    return rc ? 1 : 0;
}
