/* Probe of the generalized drivers' steps on device 0 (eig/gv.c), each
 * on device-resident matrices so that no transfer enters its time: B's
 * Cholesky (hyla_?potrf_gpu), the reduction C = L^-1 A L^-H
 * (hyla_eig_gv_reduce_dev, itype 1) with its trailing HER2K updates one
 * per block column and then in their block-column GEMM form, each once as
 * it runs and once with every step waited for (the seconds of its kinds of
 * step), and the back-solve X = L^-H Z of n columns (one TRSM). A is
 * symmetric with entries uniform in (-1/2, 1/2), B the same with n on its
 * diagonal. The best of REPEAT runs after one warm-up; the two forms'
 * results compared: max |C_her2k - C_gemm| / max |C_her2k| over the lower
 * triangle. Built with -DHYLA_BENCH=ON as build/bin/gv_probe.
 * Usage: gv_probe N[,N...] [d|z [REPEAT]] */
#include "core/internal.h"
#include "core/xfer.h"
#include "eig/gv.h"
#include "hyla.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 2026;
static double urand(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 9007199254740992.0 - 0.5;
}

/* the host matrices (per real part; z: imaginary parts too, the diagonal real) */
static void fill(double *M, int64_t n, int cplx, double diag) {
    const int per = cplx ? 2 : 1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++)
            for (int c = 0; c < per; c++) {
                const double v = i == j ? (c ? 0 : diag + urand()) : urand();
                M[(i + j * n) * per + c] = v;
                M[(j + i * n) * per + c] = c ? -v : v;
            }
}

typedef struct {
    hyla_t *h;
    hyla_dtype t;
    int64_t n;
    size_t bytes;
    void *dA0, *dA, *dL;
    hyla_dev_workspace *ws;
} probe;

static int restore(const probe *p, void *dst, const void *src) {
    const hyla_backend_ops *o = p->h->devs[0]->ops;
    int rc = o->copy_2d(p->ws->q_comp, dst, p->bytes, src, p->bytes, p->bytes, 1,
                        HYLA_COPY_D2D);
    return rc ? rc : o->queue_sync(p->ws->q_comp);
}

/* the reduction in form her2k (0, 1), best of repeat: wall seconds, and
 * the parts of the last timed run */
static int time_reduce(const probe *p, int her2k, int repeat, double *best, hyla_gv_parts *pt) {
    *best = INFINITY;
    for (int r = 0; r <= repeat; r++) {
        int rc = restore(p, p->dA, p->dA0);
        const double t0 = hyla_wtime();
        if (!rc) rc = hyla_eig_gv_reduce_dev(p->h, p->t, 1, p->n, p->dA, p->dL, p->n, her2k, NULL);
        const double s = hyla_wtime() - t0;
        if (rc) return rc;
        if (r > 0 && s < *best) *best = s;
    }
    int rc = restore(p, p->dA, p->dA0);
    return rc ? rc : hyla_eig_gv_reduce_dev(p->h, p->t, 1, p->n, p->dA, p->dL, p->n, her2k, pt);
}

static int one(hyla_t *h, hyla_dtype t, int64_t n, int repeat) {
    const int cplx = t == HYLA_Z;
    const size_t es = hyla_dtype_size(t), nn = (size_t)n * (size_t)n;
    const hyla_backend_ops *o = h->devs[0]->ops;
    probe p = {.h = h, .t = t, .n = n, .bytes = nn * es};
    double *A = malloc(nn * es), *B = malloc(nn * es), *C1 = malloc(nn * es);
    void *dB = NULL;
    int rc = !A || !B || !C1 ? HYLA_ERR_NO_MEMORY : 0;
    if (!rc) rc = hyla_workspace_get(h, 0, 0, 0, &p.ws);
    if (!rc) rc = hyla_malloc_device(h, 0, p.bytes, &p.dA0);
    if (!rc) rc = hyla_malloc_device(h, 0, p.bytes, &p.dA);
    if (!rc) rc = hyla_malloc_device(h, 0, p.bytes, &p.dL);
    if (!rc) rc = hyla_malloc_device(h, 0, p.bytes, &dB);
    if (!rc) {
        fill(A, n, cplx, 0);
        fill(B, n, cplx, (double)n);
        rc = hyla_xfer_matrix(h, 0, t, 1, n, n, A, n, p.dA0, n);
    }
    if (!rc) rc = hyla_xfer_matrix(h, 0, t, 1, n, n, B, n, dB, n);
    /* B = L L^H */
    double potrf = INFINITY;
    for (int r = 0; r <= repeat && !rc; r++) {
        rc = restore(&p, p.dL, dB);
        const double t0 = hyla_wtime();
        if (!rc) rc = t == HYLA_Z ? hyla_zpotrf_gpu(h, 0, 'L', n, p.dL, n)
                                  : hyla_dpotrf_gpu(h, 0, 'L', n, p.dL, n);
        if (r > 0) potrf = fmin(potrf, hyla_wtime() - t0);
    }
    /* the reduction in both forms, C of the first kept for the comparison */
    double red[2] = {0, 0}, diff = 0, cmax = 0;
    hyla_gv_parts parts[2];
    for (int f = 0; f < 2 && !rc; f++) {
        rc = time_reduce(&p, f, repeat, &red[f], &parts[f]);
        if (!rc) rc = hyla_xfer_matrix(h, 0, t, 0, n, n, f ? B : C1, n, p.dA, n);
    }
    if (!rc) {
        const int per = cplx ? 2 : 1;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = j; i < n; i++)
                for (int c = 0; c < per; c++) {
                    const size_t k = (size_t)(i + j * n) * (size_t)per + (size_t)c;
                    diff = fmax(diff, fabs(C1[k] - B[k]));
                    cmax = fmax(cmax, fabs(C1[k]));
                }
    }
    /* X = L^-H Z on n columns (Z: the reduced matrix's storage) */
    double back = INFINITY;
    static const double one_[2] = {1, 0};
    for (int r = 0; r <= repeat && !rc; r++) {
        const double t0 = hyla_wtime();
        rc = o->trsm(p.ws->q_comp, t, HYLA_LEFT, HYLA_LOWER, cplx ? HYLA_CONJTRANS : HYLA_TRANS,
                     HYLA_NONUNIT, n, n, one_, p.dL, n, p.dA, n);
        if (!rc) rc = o->queue_sync(p.ws->q_comp);
        if (r > 0) back = fmin(back, hyla_wtime() - t0);
    }
    if (!rc) {
        printf("gv_probe %c n=%lld potrf=%.4f back_trsm=%.4f diff=%.2e\n", "dz"[cplx],
               (long long)n, potrf, back, cmax > 0 ? diff / cmax : diff);
        for (int f = 0; f < 2; f++)
            printf("gv_probe %c n=%lld reduce[%s]=%.4f steps: diag=%.4f panel=%.4f her2k=%.4f "
                   "solves=%.4f\n",
                   "dz"[cplx], (long long)n, f ? "gemm" : "her2k", red[f], parts[f].diag,
                   parts[f].panel, parts[f].her2k, parts[f].solves);
        fflush(stdout);
    }
    hyla_free_device(h, 0, &p.dA0);
    hyla_free_device(h, 0, &p.dA);
    hyla_free_device(h, 0, &p.dL);
    hyla_free_device(h, 0, &dB);
    free(A), free(B), free(C1);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs("usage: gv_probe N[,N...] [d|z [REPEAT]]\n", stderr);
        return 2;
    }
    const hyla_dtype t = argc > 2 && argv[2][0] == 'z' ? HYLA_Z : HYLA_D;
    const int repeat = argc > 3 && atoi(argv[3]) > 0 ? atoi(argv[3]) : 2;
    const char *devs = getenv("HYLA_DEVICES");
    hyla_t *h = NULL;
    int rc = hyla_create(&h, devs && *devs ? devs : "cuda:0");
    if (rc) {
        fprintf(stderr, "gv_probe: hyla_create returned %d\n", rc);
        return 1;
    }
    for (char *s = argv[1]; *s && rc == 0;) {
        const int64_t n = strtoll(s, &s, 10);
        if (*s == ',') s++;
        if (n < 2) continue;
        rc = one(h, t, n, repeat);
        if (rc) fprintf(stderr, "gv_probe: n %lld: %d\n", (long long)n, rc);
    }
    hyla_destroy(&h);
    return rc ? 1 : 0;
}
