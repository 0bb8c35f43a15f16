/* hyla stedc, sterf: the tridiagonal eigensolvers on generated matrices,
 * timed, checked and compared with LAPACKE ?stedc / ?sterf (real types).
 *
 * stedc computes eigenvalues and eigenvectors (compz 'I'), sterf eigenvalues
 * only (stedc with compz 'N' is sterf). Generated T: the 1-2-1 matrix with its
 * diagonal perturbed by u/10, u uniform in (-1, 1) (few deflations, like the
 * tridiagonal of a dense matrix: the costly case of divide and conquer), or
 * with --cond X the tridiagonal (LAPACKE ?sytrd) of Q D Q^T with eigenvalues
 * 1 .. 1/X in geometric progression (O(n^3); n <= MAT_COND_MAX_N).
 * Checks (pass below 60): the largest of |w - w_ref|_inf / (n |T|_1 eps)
 * against LAPACKE ?sterf and, with vectors, |T Z - Z L|_1 / (n |T|_1 eps) and
 * |I - Z^T Z|_1 / (n eps) (Z^T Z by hyla_?gemm on the context's devices).
 * Rows use the Cholesky layout: uplo and nrhs are "-", Tflop/s counts a
 * nominal 4/3 n^3 for eigenvectors (divide and conquer without deflation)
 * and 30 n^2 for eigenvalues only. --timers: stedc's parts in the last run
 * (hyla_eig_stats' stedc_* fields). sterf --tri bisect times
 * hyla_?sterf_bisect instead (bisection on device 0, row "stebz"), against
 * the same LAPACKE ?sterf. */
#include "cmd.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matgen.h"
#include "runloop.h"
#include "vendor.h"

enum { ID_DIAG = 21, ID_Q = 22 };

static const double THRESHOLD = 60;

/* d, e and Z as double whatever the type; the calls convert. */
typedef struct {
    hyla_dtype t;
    int64_t n;
    bool vectors;
    bool bisect;            /* eigenvalues by hyla_?sterf_bisect (--tri bisect) */
    const double *d0, *e0;  /* the matrix */
    void *d, *e, *Z;        /* work, of type t */
} tri_problem;

static void to_type(hyla_dtype t, int64_t n, const double *x, void *y) {
    for (int64_t i = 0; i < n; i++) {
        if (t == HYLA_S) ((float *)y)[i] = (float)x[i];
        else ((double *)y)[i] = x[i];
    }
}

static double at(hyla_dtype t, const void *v, int64_t i) {
    return t == HYLA_S ? (double)((const float *)v)[i] : ((const double *)v)[i];
}

static int call_hyla(hyla_t *ctx, const tri_problem *p) {
    to_type(p->t, p->n, p->d0, p->d);
    to_type(p->t, p->n > 0 ? p->n - 1 : 0, p->e0, p->e);
    char compz = p->vectors ? 'I' : 'N';
    int64_t ldz = p->n > 0 ? p->n : 1;
    if (p->bisect)
        return p->t == HYLA_S ? hyla_ssterf_bisect(ctx, p->n, p->d, p->e)
                              : hyla_dsterf_bisect(ctx, p->n, p->d, p->e);
    if (p->t == HYLA_S)
        return p->vectors ? hyla_sstedc(ctx, compz, p->n, p->d, p->e, p->Z, ldz)
                          : hyla_ssterf(p->n, p->d, p->e);
    return p->vectors ? hyla_dstedc(ctx, compz, p->n, p->d, p->e, p->Z, ldz)
                      : hyla_dsterf(p->n, p->d, p->e);
}

static double tri_norm1(int64_t n, const double *d, const double *e) {
    double m = 0;
    for (int64_t j = 0; j < n; j++) {
        double c = fabs(d[j]) + (j > 0 ? fabs(e[j - 1]) : 0) + (j + 1 < n ? fabs(e[j]) : 0);
        m = c > m || isnan(c) ? c : m;
    }
    return m;
}

static double scaled(double diff, double scale) {
    return diff == 0 && !isnan(scale) ? 0 : diff / scale;
}

/* The checks of the header comment on the result of call_hyla in p. */
static int check(hyla_t *ctx, const tri_problem *p, double *err) {
    hyla_dtype t = p->t;
    int64_t n = p->n;
    double eps = dtype_eps(t), tn = tri_norm1(n, p->d0, p->e0);
    *err = 0;
    if (n == 0) return 0;
    double *w = malloc(sizeof *w * (size_t)n), *e = malloc(sizeof *e * (size_t)n);
    void *dv = malloc(dtype_size(t) * (size_t)n), *ev = malloc(dtype_size(t) * (size_t)n);
    if (!w || !e || !dv || !ev) {
        fputs("hyla: out of memory for the check\n", stderr);
        free(w), free(e), free(dv), free(ev);
        return -1;
    }
    to_type(t, n, p->d0, dv);
    to_type(t, n - 1, p->e0, ev);
    int info = t == HYLA_S ? LAPACKE_ssterf((lapack_int)n, dv, ev)
                           : LAPACKE_dsterf((lapack_int)n, dv, ev);
    double diff = info ? NAN : 0;
    for (int64_t i = 0; i < n; i++) {
        double a = fabs(at(t, p->d, i) - at(t, dv, i));
        diff = a > diff || isnan(a) ? a : diff;
    }
    *err = scaled(diff, (double)n * tn * eps);
    if (p->vectors) {
        /* |T Z - Z L|_1, column by column */
        double res = 0;
        for (int64_t j = 0; j < n; j++) {
            double s = 0, lj = at(t, p->d, j);
            const size_t c = (size_t)j * (size_t)n;
            for (int64_t i = 0; i < n; i++) {
                double v = (p->d0[i] - lj) * at(t, p->Z, c + (size_t)i);
                if (i > 0) v += p->e0[i - 1] * at(t, p->Z, c + (size_t)i - 1);
                if (i + 1 < n) v += p->e0[i] * at(t, p->Z, c + (size_t)i + 1);
                s += fabs(v);
            }
            res = s > res || isnan(s) ? s : res;
        }
        double r = scaled(res, (double)n * tn * eps);
        *err = r > *err || isnan(r) ? r : *err;
        /* |I - Z^T Z|_1 with the product on the devices */
        void *G = mat_alloc(t, n, n, true, "the check matrix Z^T Z");
        if (!G) {
            free(w), free(e), free(dv), free(ev);
            return -1;
        }
        int rc = t == HYLA_S ? hyla_sgemm(ctx, 'T', 'N', n, n, n, 1.0f, p->Z, n, p->Z, n, 0.0f, G, n)
                             : hyla_dgemm(ctx, 'T', 'N', n, n, n, 1.0, p->Z, n, p->Z, n, 0.0, G, n);
        double o = rc ? NAN : 0;
        for (int64_t j = 0; j < n && !rc; j++) {
            double s = 0;
            for (int64_t i = 0; i < n; i++)
                s += fabs((i == j ? 1.0 : 0.0) - at(t, G, (size_t)j * (size_t)n + (size_t)i));
            o = s > o || isnan(s) ? s : o;
        }
        free(G);
        double q = o / ((double)n * eps);
        *err = q > *err || isnan(q) ? q : *err;
    }
    free(w), free(e), free(dv), free(ev);
    return 0;
}

/* The hooks of the run loop (runloop.h). */
typedef struct {
    hyla_t *ctx;
    const tri_problem *p;
    const char *routine;
} tri_run;

static int hook_call(hyla_t *ctx, void *arg) { return call_hyla(ctx, ((tri_run *)arg)->p); }

static void hook_error(void *arg, int info) {
    const tri_run *c = arg;
    fprintf(stderr, "hyla: hyla_%c%s(n=%lld) returned %d: %s\n", dtype_char(c->p->t), c->routine,
            (long long)c->p->n, info, hyla_strerror(info));
}

static const char *hook_noconv(void *arg, const report_row *row) {
    hook_error(arg, row->info);
    return "noconv";
}

static int hook_check(void *arg, double *err) {
    const tri_run *c = arg;
    return check(c->ctx, c->p, err);
}

static cmd_status run_one(hyla_t *ctx, const cli_opts *o, const report *r, hyla_dtype t, int64_t n,
                          bool vectors) {
    double nn = (double)n;
    int64_t tri = 0;
    hyla_get_option(ctx, HYLA_OPT_EIG_TRIDIAG, &tri);
    const bool bisect = !vectors && tri == 2;
    report_row row = {.layout = ROW_CHOL,
                      .routine = vectors ? "stedc" : bisect ? "stebz" : "sterf", .type = t,
                      .uplo = '-', .n = n, .nrhs = -1,
                      .flops = vectors ? 4 * nn * nn * nn / 3 : 30 * nn * nn, .time_s = NAN,
                      .vendor_time_s = NAN, .vendor_dev_time_s = NAN, .ours_dev_time_s = NAN,
                      .status = "ok"};
    size_t bz = 0, es = dtype_size(t);
    if (vectors && mat_bytes(t, n, n, &bz) &&
        !host_fits_n(2.0 * (double)bz, "Z and its copy", n, 2))
        return CMD_ERROR;
    /* d, e, their copies and the check's or vendor's copies: 6 vectors */
    if (!host_fits_n(6.0 * 8.0 * (nn + 1), "the tridiagonal, its copies and the check's", n, 1))
        return CMD_ERROR;
    if ((o->check || o->vs_vendor) && sizeof(lapack_int) < 8 && n > INT32_MAX) {
        fprintf(stderr, "hyla: %s -n %lld: --check and --vs vendor call LAPACKE, whose sizes are "
                "32-bit here: n up to %d\n", row.routine, (long long)n, INT32_MAX);
        return CMD_USAGE;
    }
    cmd_status st = CMD_ERROR;
    tri_problem p = {.t = t, .n = n, .vectors = vectors, .bisect = bisect};
    double *d0 = malloc(sizeof *d0 * (size_t)(n + 1)), *e0 = malloc(sizeof *e0 * (size_t)(n + 1));
    p.d = malloc(es * (size_t)(n + 1));
    p.e = malloc(es * (size_t)(n + 1));
    p.Z = vectors ? mat_alloc(t, n, n, false, "Z") : NULL;
    if (!d0 || !e0 || !p.d || !p.e || (vectors && !p.Z)) {
        fputs("hyla: out of memory\n", stderr);
        goto out;
    }
    p.d0 = d0;
    p.e0 = e0;
    if (o->cond > 0) {
        double *A = mat_alloc(HYLA_D, n, n, false, "A");
        double *tau = malloc(sizeof *tau * (size_t)(n + 1));
        int bad = !A || !tau || mat_fill_hpd_cond(HYLA_D, n, A, n > 0 ? n : 1, o->cond, o->seed, ID_Q);
        if (!bad && n > 0)
            bad = LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', (lapack_int)n, A, (lapack_int)n, d0, e0,
                                 tau) != 0;
        free(A);
        free(tau);
        if (bad) goto out;
    } else {
        mat_fill_random(HYLA_D, n, 1, d0, n > 0 ? n : 1, o->seed, ID_DIAG);
        for (int64_t i = 0; i < n; i++) {
            d0[i] = 2 + d0[i] / 10;
            e0[i] = -1;
        }
    }
    tri_run run = {.ctx = ctx, .p = &p, .routine = row.routine};
    const run_hooks hooks = {.arg = &run, .call = hook_call, .print_error = hook_error,
                             .numerical = hook_noconv, .check = hook_check, .threshold = THRESHOLD};
    st = run_calls(ctx, o, r, o->check, &hooks, &row);
    if (st != CMD_OK) goto out;
    if (o->vs_vendor) {
        const tridiag_problem vp = {.dtype = t, .n = n, .vectors = vectors, .d = p.d0, .e = p.e0};
        vendor_times vt;
        vendor_tridiag(&vp, o->warmup, o->repeat, &vt);
        row.vendor_time_s = vt.time_s;
        row.vendor = vt.name;
    }
    st = run_finish(r, &row, THRESHOLD, false);
    hyla_eig_stats ts;
    if (o->timers && vectors && !r->json && hyla_get_eig_stats(ctx, &ts) == 0)
        printf("%%   timers (last run): leaves and lower levels %.4f  deflation %.4f  secular %.4f  "
               "gemm %.4f  zero/permute Z %.4f\n", ts.stedc_lower, ts.stedc_deflate,
               ts.stedc_secular, ts.stedc_gemm, ts.stedc_copy);
out:
    free(d0);
    free(e0);
    free(p.d);
    free(p.e);
    free(p.Z);
    return st;
}

static cmd_status run_all(hyla_t *ctx, const cli_opts *o, const report *r, bool eig_vectors) {
    if (o->ninputs || o->output) {
        fputs("hyla: stedc and sterf take generated matrices only (no --input, --output)\n", stderr);
        return CMD_USAGE;
    }
    for (int i = 0; i < o->n.count; i++)
        if (o->cond > 0 && o->n.v[i] > MAT_COND_MAX_N) {
            fprintf(stderr, "hyla: --cond builds T from Q D Q^T in O(n^3) time and takes n <= %d "
                    "(-n %lld)\n", MAT_COND_MAX_N, (long long)o->n.v[i]);
            return CMD_USAGE;
        }
    for (int k = 0; k < o->ntypes; k++)
        if (o->types[k] != HYLA_S && o->types[k] != HYLA_D) {
            fprintf(stderr, "hyla: the tridiagonal eigensolvers are real: --type s or d\n");
            return CMD_USAGE;
        }
    if (!r->json && o->vs_vendor)
        printf("%% vendor (tridiagonal): LAPACKE ?stedc compz I / ?sterf (OpenBLAS) on the host; "
               "ratio = vendor time / hyla time\n");
    if (!r->json && o->check)
        printf("%% check (tridiagonal): max of |w - w_sterf| / (n |T| eps), |T Z - Z L|_1 / "
               "(n |T|_1 eps), |I - Z^T Z|_1 / (n eps); pass < 60\n");
    cmd_status worst = CMD_OK;
    for (int k = 0; k < o->ntypes; k++)
        for (int i = 0; i < o->n.count; i++) {
            cmd_status st = run_one(ctx, o, r, o->types[k], cli_n(o, i), eig_vectors);
            if (st == CMD_ERROR || st == CMD_USAGE) return st;
            if (st == CMD_FAILED) worst = CMD_FAILED;
        }
    return worst;
}

cmd_status cmd_stedc(hyla_t *ctx, const cli_opts *o, const report *r) {
    return run_all(ctx, o, r, true);
}

cmd_status cmd_sterf(hyla_t *ctx, const cli_opts *o, const report *r) {
    return run_all(ctx, o, r, false);
}
