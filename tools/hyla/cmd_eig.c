/* hyla syevd, heevd: the two-stage eigensolver on generated or user
 * matrices, timed, checked and compared with the vendor.
 *
 * Checks (LAPACK's measures; pass below 60): for n <= EIG_EXACT_CHECK_MAX,
 *   jobz V  |A - Z L Z^H|_1 / (n |A|_1 eps) and |I - Z^H Z|_1 / (n eps);
 *   both    max_k |w_k - w_k(LAPACKE ?syevd)| / (n |A|_1 eps);
 * beyond, O(n^2) probes with a random x:
 *   jobz V  |A (Z x) - Z (L x)|_inf / (n |A|_inf |x|_inf eps) and
 *           |Z^H (Z x) - x|_inf / (n |x|_inf eps);
 *   jobz N  |sum w - trace A| / (n |A|_1 eps) and
 *           |(sum w^2)^(1/2) - |A|_F| / (n |A|_F eps).
 * The reported error is the largest of these. */
#include "cmd.h"

#include <cblas.h>
#include <complex.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matgen.h"
#include "output.h"
#include "matgen_eig.h"
#include "runloop.h"
#include "vendor.h"

enum { EIG_EXACT_CHECK_MAX = 2048, ID_X = 31 };

static const double THRESHOLD = 60;

typedef struct {
    hyla_dtype t;
    char jobz, uplo;
    int64_t n;
    const char *matrix;          /* class name, or the input file */
    const void *A;               /* the matrix, both triangles (ld n) */
    void *Aw;                    /* work copy: A in, eigenvectors out */
    void *w;                     /* eigenvalues (real type) */
} eig_problem;

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }
static hyla_dtype real_of(hyla_dtype t) { return t == HYLA_C ? HYLA_S : t == HYLA_Z ? HYLA_D : t; }
static const char *rname(hyla_dtype t) { return dtype_is_complex(t) ? "heevd" : "syevd"; }

/* ---------------------------------------------------------------- hyla calls */

static int call_evd(hyla_t *ctx, const eig_problem *p, void *a, int64_t lda) {
    switch (p->t) {
    case HYLA_S: return hyla_ssyevd(ctx, p->jobz, p->uplo, p->n, a, lda, p->w);
    case HYLA_D: return hyla_dsyevd(ctx, p->jobz, p->uplo, p->n, a, lda, p->w);
    case HYLA_C: return hyla_cheevd(ctx, p->jobz, p->uplo, p->n, a, lda, p->w);
    case HYLA_Z: return hyla_zheevd(ctx, p->jobz, p->uplo, p->n, a, lda, p->w);
    }
    return HYLA_ERR_INTERNAL;
}

static int call_evd_gpu(hyla_t *ctx, const eig_problem *p, void *da, int64_t ldda) {
    switch (p->t) {
    case HYLA_S: return hyla_ssyevd_gpu(ctx, 0, p->jobz, p->uplo, p->n, da, ldda, p->w);
    case HYLA_D: return hyla_dsyevd_gpu(ctx, 0, p->jobz, p->uplo, p->n, da, ldda, p->w);
    case HYLA_C: return hyla_cheevd_gpu(ctx, 0, p->jobz, p->uplo, p->n, da, ldda, p->w);
    case HYLA_Z: return hyla_zheevd_gpu(ctx, 0, p->jobz, p->uplo, p->n, da, ldda, p->w);
    }
    return HYLA_ERR_INTERNAL;
}

/* ---------------------------------------------------------------- checks */

static double welem(const eig_problem *p, const void *w, int64_t k) {
    return creal(mat_elem(real_of(p->t), w, k));
}

static double scaled(double diff, double scale) {
    return diff == 0 && !isnan(scale) ? 0 : diff / scale;
}

/* The whole of A in double complex (ld n), from its full storage. */
static double complex *to_z(const eig_problem *p, const void *a) {
    int64_t n = p->n;
    double complex *z = malloc(sizeof *z * (size_t)max1(n * n));
    if (!z) return NULL;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n * n; i++) z[i] = mat_elem(p->t, a, i);
    return z;
}

static double norm1_z(int64_t m, int64_t n, const double complex *a) {
    double mx = 0;
    for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t i = 0; i < m; i++) s += cabs(a[i + j * m]);
        if (!(s <= mx)) mx = s;
    }
    return mx;
}

/* Eigenvalues of A by LAPACKE ?syevd/?heevd (jobz N) on a copy, in double. */
static int lapack_eigs(const eig_problem *p, double *wr) {
    int n = (int)p->n;
    double complex *z = to_z(p, p->A);
    if (!z) return -1;
    int info;
    if (dtype_is_complex(p->t)) {
        info = LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, z, n, wr);
    } else {
        double *d = (double *)z;
        for (int64_t i = 0; i < p->n * p->n; i++) d[i] = creal(z[i]);
        info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, d, n, wr);
    }
    free(z);
    return info ? -1 : 0;
}

static int check_exact(const eig_problem *p, double *err) {
    const int64_t n = p->n;
    const double eps = dtype_eps(p->t);
    double complex *a = to_z(p, p->A), *z = NULL, *c = NULL;
    double *wr = malloc(sizeof *wr * (size_t)max1(n));
    int rc = -1;
    if (!a || !wr || lapack_eigs(p, wr)) goto out;
    double anorm = norm1_z(n, n, a), worst = 0;
    for (int64_t k = 0; k < n; k++) {
        double e = scaled(fabs(welem(p, p->w, k) - wr[k]), (double)n * anorm * eps);
        if (!(e <= worst)) worst = e;
    }
    if (p->jobz == 'V') {
        z = to_z(p, p->Aw);
        c = malloc(sizeof *c * (size_t)max1(n * n));
        if (!z || !c) goto out;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) c[i + j * n] = z[i + j * n] * welem(p, p->w, j);
        const double complex one = 1, mone = -1, zero = 0;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, (int)n, (int)n, (int)n, &mone, c,
                    (int)n, z, (int)n, &one, a, (int)n);
        double e = scaled(norm1_z(n, n, a), (double)n * anorm * eps);
        if (!(e <= worst)) worst = e;
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, (int)n, (int)n, (int)n, &one, z,
                    (int)n, z, (int)n, &zero, c, (int)n);
        for (int64_t k = 0; k < n; k++) c[k + k * n] -= 1;
        e = scaled(norm1_z(n, n, c), (double)n * eps);
        if (!(e <= worst)) worst = e;
    }
    *err = worst;
    rc = 0;
out:
    if (rc) fputs("hyla: check: out of memory or LAPACKE failure\n", stderr);
    free(a), free(z), free(c), free(wr);
    return rc;
}

/* y := op(M) x for the n x n matrix M of type t in double complex, by rows
 * of M read in place (herm: y = M^H x). */
static void matvec(const eig_problem *p, const void *m, int herm, const double complex *x,
                   double complex *y) {
    const int64_t n = p->n;
    if (!herm) {
        memset(y, 0, sizeof *y * (size_t)n);
        for (int64_t j = 0; j < n; j++) {
            const char *col = (const char *)m + (size_t)(j * n) * dtype_size(p->t);
            for (int64_t i = 0; i < n; i++) y[i] += mat_elem(p->t, col, i) * x[j];
        }
        return;
    }
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < n; j++) {
        const char *col = (const char *)m + (size_t)(j * n) * dtype_size(p->t);
        double complex s = 0;
        for (int64_t i = 0; i < n; i++) s += conj(mat_elem(p->t, col, i)) * x[i];
        y[j] = s;
    }
}

static double maxabs(int64_t n, const double complex *v) {
    double m = 0;
    for (int64_t i = 0; i < n; i++)
        if (!(cabs(v[i]) <= m)) m = cabs(v[i]);
    return m;
}

static int check_probe(const eig_problem *p, uint64_t seed, double *err) {
    const int64_t n = p->n;
    const double eps = dtype_eps(p->t);
    double complex *x = malloc(sizeof *x * (size_t)n), *u = malloc(sizeof *u * (size_t)n);
    double complex *v = malloc(sizeof *v * (size_t)n), *r = malloc(sizeof *r * (size_t)n);
    double *xr = malloc(sizeof *xr * (size_t)n);
    double anorm = 0, fro = 0, worst = 0;
    if (!x || !u || !v || !r || !xr) {
        fputs("hyla: check: out of memory\n", stderr);
        free(x), free(u), free(v), free(r), free(xr);
        return -1;
    }
    for (int64_t j = 0; j < n; j++) { /* |A|_1 = |A|_inf (Hermitian) and |A|_F */
        const char *col = (const char *)p->A + (size_t)(j * n) * dtype_size(p->t);
        double s = 0;
        for (int64_t i = 0; i < n; i++) {
            double e = cabs(mat_elem(p->t, col, i));
            s += e;
            fro += e * e;
        }
        if (!(s <= anorm)) anorm = s;
    }
    fro = sqrt(fro);
    if (p->jobz == 'V') {
        mat_fill_random(HYLA_D, n, 1, xr, n, seed, ID_X);
        for (int64_t i = 0; i < n; i++) x[i] = xr[i];
        matvec(p, p->Aw, 0, x, u);                        /* u = Z x */
        matvec(p, p->A, 0, u, r);                         /* r = A Z x */
        for (int64_t i = 0; i < n; i++) v[i] = welem(p, p->w, i) * x[i];
        matvec(p, p->Aw, 0, v, x);                        /* x := Z L x */
        for (int64_t i = 0; i < n; i++) r[i] -= x[i];
        for (int64_t i = 0; i < n; i++) x[i] = xr[i];
        worst = scaled(maxabs(n, r), (double)n * anorm * maxabs(n, x) * eps);
        matvec(p, p->Aw, 1, u, v);                        /* v = Z^H Z x */
        for (int64_t i = 0; i < n; i++) v[i] -= x[i];
        double e = scaled(maxabs(n, v), (double)n * maxabs(n, x) * eps);
        if (!(e <= worst)) worst = e;
    } else {
        double tr = 0, sw = 0, s2 = 0;
        for (int64_t k = 0; k < n; k++) {
            tr += creal(mat_elem(p->t, p->A, k + k * n));
            sw += welem(p, p->w, k);
            s2 += welem(p, p->w, k) * welem(p, p->w, k);
        }
        worst = scaled(fabs(sw - tr), (double)n * anorm * eps);
        double e = scaled(fabs(sqrt(s2) - fro), (double)n * fro * eps);
        if (!(e <= worst)) worst = e;
    }
    *err = worst;
    free(x), free(u), free(v), free(r), free(xr);
    return 0;
}

static int check_result(const eig_problem *p, uint64_t seed, double *err) {
    if (p->n == 0) {
        *err = 0;
        return 0;
    }
    return p->n <= EIG_EXACT_CHECK_MAX ? check_exact(p, err) : check_probe(p, seed, err);
}

/* A into the work copy Aw, before a call. */
static void fresh_copy(const eig_problem *p) {
    mat_copy(p->t, p->n, p->n, p->A, max1(p->n), p->Aw, max1(p->n));
}

/* The median of warmup + repeat calls of hyla's solver, each on a fresh
 * copy of A (untimed): hyla_?syevd_gpu on the device-resident dA, or with
 * dA NULL hyla_?syevd on the work copy p->Aw. NaN after a failure
 * (reported, `what` naming the run). */
static double time_ours(hyla_t *ctx, const cli_opts *o, const eig_problem *p, void *dA,
                        const char *what) {
    size_t ba = (size_t)(p->n * p->n) * dtype_size(p->t);
    double med = NAN, *t = malloc(sizeof *t * (size_t)o->repeat);
    int rc = t ? 0 : HYLA_ERR_NO_MEMORY;
    for (int c = 0; !rc && c < o->warmup + o->repeat; c++) {
        if (dA) rc = hyla_copy_to_device(ctx, 0, dA, p->A, ba);
        else fresh_copy(p);
        double t0 = cli_now();
        if (!rc)
            rc = dA ? call_evd_gpu(ctx, p, dA, max1(p->n)) : call_evd(ctx, p, p->Aw, max1(p->n));
        if (!rc && c >= o->warmup) t[c - o->warmup] = cli_now() - t0;
    }
    if (rc) fprintf(stderr, "hyla: hyla_%c%s%s: %d: %s\n", dtype_char(p->t), rname(p->t), what, rc,
                    hyla_strerror(rc));
    else med = cli_median(t, o->repeat);
    free(t);
    return med;
}

/* hyla_?syevd_gpu on a device-resident copy (uploaded untimed); median. */
static double ours_device(hyla_t *ctx, const cli_opts *o, const eig_problem *p) {
    void *dA = NULL;
    int rc = hyla_malloc_device(ctx, 0, (size_t)(p->n * p->n) * dtype_size(p->t), &dA);
    if (rc) {
        fprintf(stderr, "hyla: hyla_%c%s_gpu: %d: %s\n", dtype_char(p->t), rname(p->t), rc,
                hyla_strerror(rc));
        return NAN;
    }
    double med = time_ours(ctx, o, p, dA, "_gpu");
    hyla_free_device(ctx, 0, &dA);
    return med;
}

/* hyla's one-device path (HYLA_OPT_EIG_DEVICES 1, restored after) on the
 * same context; median. For the runs on several devices; overwrites p->Aw
 * (the runs' own result is checked and written out before). */
static double ours_one_device(hyla_t *ctx, const cli_opts *o, const eig_problem *p) {
    int64_t was = 0;
    if (hyla_get_option(ctx, HYLA_OPT_EIG_DEVICES, &was) != 0 ||
        hyla_set_option(ctx, HYLA_OPT_EIG_DEVICES, 1) != 0) {
        fputs("hyla: cannot select the one-device eigensolver (HYLA_OPT_EIG_DEVICES)\n", stderr);
        return NAN;
    }
    double med = time_ours(ctx, o, p, NULL, " on one device");
    hyla_set_option(ctx, HYLA_OPT_EIG_DEVICES, was);
    return med;
}

/* ---------------------------------------------------------------- report */

static const char *num(char *b, const char *fmt, double v) {
    if (isnan(v)) snprintf(b, 32, "-");
    else snprintf(b, 32, fmt, v);
    return b;
}

#define jnum report_json_number

/* One run: what the run loop's hooks (runloop.h) need. */
typedef struct {
    const cli_opts *o;
    const report *r;
    const eig_problem *p;
    const hyla_eig_stats *timers; /* printed with the row; NULL: none */
    double one_dev_s;             /* several devices: the one-device path's time; NaN: none */
} eig_run;

/* The phases of the multi-device timeline: letter and JSON name. */
static const char phase_letter[8] = {'U', '1', '2', 'T', 'q', 'Q', 'G', 'D'};
static const char *const phase_name[8] = {"upload", "sy2sb", "sb2st", "tridiag",
                                          "back2",  "back1", "gemm",  "download"};

/* Several devices: the per-device timeline as a text Gantt chart (one
 * line per device, 60 columns for the whole call) or JSON. */
static void print_timeline(const hyla_eig_stats *s, bool json) {
    enum { W = 60 };
    if (json) {
        printf(",\"timeline\":[");
        for (int g = 0; g < s->ndev; g++) {
            printf("%s{\"device\":%d,\"cols\":%lld", g ? "," : "", g, (long long)s->cols[g]);
            for (int k = 0; k < 8; k++)
                if (s->phase[g][k][1] > s->phase[g][k][0])
                {
                    printf(",\"%s\":[", phase_name[k]);
                    report_json_value(s->phase[g][k][0]);
                    putchar(',');
                    report_json_value(s->phase[g][k][1]);
                    putchar(']');
                }
            printf("}");
        }
        printf("]");
        return;
    }
    printf("%%   timeline (s; U upload, 1 sy2sb, 2 sb2st, T tridiag, q Q2, Q Q1, G Z=QE, D "
           "download; %.3f s in %d columns)\n", s->total, W);
    for (int g = 0; g < s->ndev; g++) {
        char bar[W + 1];
        memset(bar, '.', W);
        bar[W] = '\0';
        for (int k = 0; k < 8; k++) {
            const double a = s->phase[g][k][0], b = s->phase[g][k][1];
            if (!(b > a) || !(s->total > 0)) continue;
            int c0 = (int)(a / s->total * W), c1 = (int)(b / s->total * W + 0.999);
            for (int c = c0 < 0 ? 0 : c0; c < c1 && c < W; c++) bar[c] = phase_letter[k];
        }
        printf("%%   dev %-2d |%s| %6lld cols", g, bar, (long long)s->cols[g]);
        for (int k = 0; k < 8; k++)
            if (s->phase[g][k][1] > s->phase[g][k][0])
                printf("  %c %.3f-%.3f", phase_letter[k], s->phase[g][k][0], s->phase[g][k][1]);
        printf("\n");
    }
}

/* The % lines that say what the vendor (routine `vendor`) and hyla's
 * other columns time (dev: ours-dev). */
static void print_legend(const report *r, const char *vendor, bool dev) {
    if (r->cuda && vendor && strcmp(vendor, "cusolverMgSyevd") == 0)
        printf("%% vendor (eig): cusolverMgSyevd on the distinct GPUs of the context, 1-D "
               "block-cyclic columns of %d, the lower triangle (skipped for uplo U); A uploaded "
               "untimed, the call timed up to the synchronization of every GPU\n", VENDOR_MG_TILE);
    else if (r->cuda)
        printf("%% vendor (eig): cusolverDnXsyevd (64-bit API) on a DEVICE-RESIDENT copy%s, the "
               "call alone timed with CUDA events\n",
               r->ndevices > 1 ? " on the one GPU that the context lists several times" : "");
    else
        printf("%% vendor (eig): LAPACKE ?syevd/?heevd (OpenBLAS) on a copy of the same host "
               "matrix\n");
    if (dev) printf("%% ours-dev: hyla_?syevd_gpu on a device-resident copy\n");
    if (r->ndevices > 1)
        printf("%% one-dev: hyla's one-device path (--eig-devices one) on the same context, "
               "host-resident as the time column\n");
    printf("%% %sratio = vendor time / hyla time\n",
           r->cuda ? "hyla's own time includes the host<->device copies; " : "");
}

/* The row of a run (the run loop's print hook): eig's own columns. */
static void print_row(void *arg, const report_row *w) {
    static bool header;
    const eig_run *run = arg;
    const report *r = run->r;
    const eig_problem *p = run->p;
    const bool dev = r->vs && r->cuda && r->ndevices == 1;
    const hyla_eig_stats *s = run->timers;
    if (r->json) {
        printf("{\"routine\":\"%s\",\"type\":\"%c\",\"jobz\":\"%c\",\"uplo\":\"%c\",\"n\":%lld,"
               "\"matrix\":\"%s\",\"devices\":\"%s\"", rname(p->t), dtype_char(p->t), p->jobz,
               p->uplo, (long long)p->n, p->matrix, r->devices);
        jnum("time_s", w->time_s);
        if (w->vendor) printf(",\"vendor\":\"%s\"", w->vendor);
        jnum("vendor_time_s", w->vendor_time_s);
        jnum("ratio", report_ratio(w->vendor_time_s, w->time_s, (double)p->n));
        jnum("ours_device_time_s", w->ours_dev_time_s);
        if (r->ndevices > 1) jnum("one_dev_time_s", run->one_dev_s);
        printf(",\"info\":%d", w->info);
        jnum("error", w->has_error ? w->error : NAN);
        printf(",\"status\":\"%s\"", w->status);
        if (s) report_eig_timers_json(s, true);
        if (s && s->ndev > 0) print_timeline(s, true);
        printf("}\n");
        fflush(stdout);
        return;
    }
    if (!header) {
        header = true;
        if (r->vs) print_legend(r, w->vendor, dev);
        if (r->check)
            printf("%% check (eig): n <= %d: max of |A - Z L Z^H|_1/(n |A|_1 eps), |I - Z^H Z|_1/(n "
                   "eps) and eigenvalues vs LAPACKE ?syevd/(n |A|_1 eps); beyond: random-vector "
                   "probes (V), trace and Frobenius norm (N); pass < 60\n", EIG_EXACT_CHECK_MAX);
        printf("%% %-7s %4s %4s %4s %9s %-10s %11s", "routine", "type", "jobz", "uplo", "n",
               "matrix", "time(s)");
        if (r->vs) printf(" %11s %7s", "vendor(s)", "ratio");
        if (dev) printf(" %11s", "ours-dev(s)");
        if (r->vs && r->ndevices > 1) printf(" %11s", "one-dev(s)");
        if (r->check) printf(" %9s", "error");
        printf(" %6s  status\n", "info");
    }
    char b[4][32];
    printf("  %-7s %4c %4c %4c %9lld %-10s %11s", rname(p->t), dtype_char(p->t), p->jobz, p->uplo,
           (long long)p->n, p->matrix, num(b[0], "%.6f", w->time_s));
    if (r->vs)
        printf(" %11s %7s", num(b[1], "%.6f", w->vendor_time_s),
               num(b[2], "%.2f", report_ratio(w->vendor_time_s, w->time_s, (double)p->n)));
    if (dev) printf(" %11s", num(b[3], "%.6f", w->ours_dev_time_s));
    if (r->vs && r->ndevices > 1) printf(" %11s", num(b[3], "%.6f", run->one_dev_s));
    if (r->check) printf(" %9s", w->has_error ? num(b[1], "%.2e", w->error) : "-");
    printf(" %6d  %s\n", w->info, w->status);
    if (s)
        printf("%%   timers: sy2sb %.4f  sb2st %.4f  %s %.4f  back2 %.4f  back1 %.4f  transfers "
               "%.4f  total %.4f  (kd %lld, nb %lld, CholeskyQR2 panels %lld)\n", s->sy2sb,
               s->sb2st, p->jobz == 'V' ? "stedc" : "sterf", s->tridiag, s->back2, s->back1,
               s->transfers, s->total, (long long)s->kd, (long long)s->nb,
               (long long)s->panels_cholqr);
    if (s && s->kd > 0)
        printf("%%   sy2sb: panels' waits for the device %.4f  host part of the panels %.4f\n",
               s->sy2sb_wait, s->sy2sb_host);
    if (s && p->jobz == 'V') {
        if (s->ndev == 0) /* counted on one device */
            printf("%%   back2: %lld device calls, %.4g Tflop\n", (long long)s->back2_calls,
                   s->back2_flops * 1e-12);
        printf("%%   stedc: leaves and lower levels %.4f  deflation %.4f  secular and merge "
               "matrices %.4f  gemm %.4f  copies %.4f\n", s->stedc_lower, s->stedc_deflate,
               s->stedc_secular, s->stedc_gemm, s->stedc_copy);
    }
    if (s && s->ndev > 0) print_timeline(s, false);
    fflush(stdout);
}

/* ---------------------------------------------------------------- runs */

/* --output W.npy (the eigenvalues, 1-D) [,Z.npy (--jobz V)]: all or none. */
static int write_outputs(const cli_opts *o, const eig_problem *p) {
    const out_item items[2] = {{real_of(p->t), p->n, 1, max1(p->n), p->w, true},
                               {p->t, p->n, p->n, max1(p->n), p->Aw, false}};
    return out_write(o, o->noutputs, items);
}

static void restore(void *arg) { fresh_copy(((eig_run *)arg)->p); }

static int hook_call(hyla_t *ctx, void *arg) {
    const eig_problem *p = ((eig_run *)arg)->p;
    return call_evd(ctx, p, p->Aw, max1(p->n));
}

static void hook_error(void *arg, int info) {
    const eig_problem *p = ((eig_run *)arg)->p;
    fprintf(stderr, "hyla: hyla_%c%s(jobz=%c, n=%lld) returned %d: %s\n", dtype_char(p->t),
            rname(p->t), p->jobz, (long long)p->n, info, hyla_strerror(info));
}

static const char *hook_noconv(void *arg, const report_row *row) {
    hook_error(arg, row->info);
    return "noconv";
}

static int hook_check(void *arg, double *err) {
    const eig_run *run = arg;
    return check_result(run->p, run->o->seed, err);
}

static int hook_write(void *arg) {
    const eig_run *run = arg;
    return write_outputs(run->o, run->p);
}

static cmd_status run_problem(hyla_t *ctx, const cli_opts *o, const report *r, eig_problem *p) {
    report_row row = {.time_s = NAN, .vendor_time_s = NAN, .vendor_dev_time_s = NAN,
                      .ours_dev_time_s = NAN, .status = "ok"};
    eig_run run = {.o = o, .r = r, .p = p, .one_dev_s = NAN};
    const run_hooks hooks = {.arg = &run, .restore = restore, .call = hook_call,
                             .print_error = hook_error, .numerical = hook_noconv,
                             .check = hook_check, .write = hook_write, .print = print_row,
                             .threshold = THRESHOLD};
    cmd_status st = run_calls(ctx, o, r, o->check, &hooks, &row);
    if (st != CMD_OK) return st;
    hyla_eig_stats stats;
    if (o->timers && hyla_get_eig_stats(ctx, &stats) == 0) run.timers = &stats;
    if (o->vs_vendor && r->cuda && r->ndevices == 1) row.ours_dev_time_s = ours_device(ctx, o, p);
    if (o->vs_vendor && r->ndevices > 1) run.one_dev_s = ours_one_device(ctx, o, p);
    if (o->vs_vendor) {
        vendor_times vt = {.time_s = NAN};
        const evd_problem vp = {.dtype = p->t, .jobz = p->jobz, .uplo = p->uplo, .n = p->n, .A = p->A};
        vendor_evd(ctx, &vp, o->warmup, o->repeat, &vt);
        row.vendor_time_s = vt.time_s;
        row.vendor = vt.name;
    }
    return run_finish_hooks(r, &hooks, &row, false);
}

static cmd_status run_one(hyla_t *ctx, const cli_opts *o, const report *r, hyla_dtype t,
                          char uplo, int64_t n, const void *A, const char *matrix) {
    eig_problem p = {.t = t, .jobz = o->jobz, .uplo = uplo, .n = n, .matrix = matrix, .A = A};
    p.Aw = mat_alloc(t, n, n, false, "the work copy of A");
    p.w = mat_alloc(real_of(t), n, 1, false, "the eigenvalues");
    cmd_status st = p.Aw && p.w ? run_problem(ctx, o, r, &p) : CMD_ERROR;
    free(p.Aw);
    free(p.w);
    return st;
}

static cmd_status run_generated(hyla_t *ctx, const cli_opts *o, const report *r, hyla_dtype t,
                                char uplo, int64_t n) {
    size_t ba;
    if (mat_bytes(t, n, n, &ba) && !host_fits(3.0 * (double)ba, "A, its copy and the check"))
        return CMD_ERROR;
    void *A = mat_alloc(t, n, n, false, "A");
    if (!A) return CMD_ERROR;
    cmd_status st = CMD_ERROR;
    if (mat_fill_eig(t, (eig_class)o->eig_matrix, n, A, max1(n), o->seed) == 0)
        st = run_one(ctx, o, r, t, uplo, n, A, eig_class_names[o->eig_matrix]);
    free(A);
    return st;
}

static cmd_status run_files(hyla_t *ctx, const cli_opts *o, const report *r) {
    hyla_npy in = {0};
    if (o->ninputs != 1) {
        fputs("hyla: syevd/heevd --input takes A.npy\n", stderr);
        return CMD_USAGE;
    }
    const int rd = cli_read_inputs(o, &in, 1);
    if (rd != CMD_OK) {
        hyla_npy_free(&in);
        return (cmd_status)rd;
    }
    if (in.rows != in.cols) {
        fprintf(stderr, "hyla: %s is %lld x %lld: a Hermitian matrix must be square\n",
                o->inputs[0], (long long)in.rows, (long long)in.cols);
        hyla_npy_free(&in);
        return CMD_USAGE;
    }
    cmd_status worst = CMD_OK;
    for (int u = 0; u < o->nuplo && worst != CMD_ERROR; u++) {
        /* the triangle read, mirrored, so that checks and vendor see one matrix */
        void *A = mat_alloc(in.dtype, in.rows, in.rows, false, "A");
        if (!A) return hyla_npy_free(&in), CMD_ERROR;
        mat_copy(in.dtype, in.rows, in.rows, in.data, max1(in.rows), A, max1(in.rows));
        size_t es = dtype_size(in.dtype);
        for (int64_t j = 0; j < in.rows; j++)
            for (int64_t i = j + 1; i < in.rows; i++) {
                int64_t si = o->uplo[u] == 'L' ? i : j, sj = o->uplo[u] == 'L' ? j : i;
                double complex v = conj(mat_elem(in.dtype, in.data, si + sj * in.rows));
                char *dst = (char *)A + (size_t)(sj + si * in.rows) * es;
                switch (in.dtype) {
                case HYLA_S: *(float *)dst = (float)creal(v); break;
                case HYLA_D: *(double *)dst = creal(v); break;
                case HYLA_C: *(hyla_complex_float *)dst = (hyla_complex_float)v; break;
                case HYLA_Z: *(hyla_complex_double *)dst = v; break;
                }
            }
        cmd_status st = run_one(ctx, o, r, in.dtype, o->uplo[u], in.rows, A, "file");
        free(A);
        if (st == CMD_ERROR || st == CMD_USAGE) worst = st;
        else if (st == CMD_FAILED) worst = CMD_FAILED;
    }
    hyla_npy_free(&in);
    return worst;
}

cmd_status cmd_syevd(hyla_t *ctx, const cli_opts *o, const report *r) {
    if (o->matrix && o->eig_matrix < 0) {
        fprintf(stderr, "hyla: --matrix %s is not an eigensolver matrix class\n", o->matrix);
        return CMD_USAGE;
    }
    if (o->ninputs) return run_files(ctx, o, r);
    cmd_status worst = CMD_OK;
    for (int t = 0; t < o->ntypes; t++)
        for (int u = 0; u < o->nuplo; u++)
            for (int i = 0; i < o->n.count; i++) {
                cmd_status st = run_generated(ctx, o, r, o->types[t], o->uplo[u], cli_n(o, i));
                if (st == CMD_ERROR || st == CMD_USAGE) return st;
                if (st == CMD_FAILED) worst = CMD_FAILED;
            }
    return worst;
}
