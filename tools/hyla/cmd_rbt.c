/* hyla gesv_rbt: the random butterfly solver (hyla_?gesv_rbt) on generated
 * or user matrices, timed, checked and compared with partial pivoting.
 *
 * Check (LAPACK's measure; pass below 60): the largest over the columns j
 * of |b_j - A x_j|_inf / (n |A|_inf |x_j|_inf eps). Each row is followed by
 * a "%   rbt:" line with what the solver reports: depth, padded order,
 * refinement steps, backward error, whether partial pivoting took over (the
 * row's status is then "fallback" when the check passes), and with --stats
 * the time of each part and the share of the randomization (diagonals and
 * every transform). Generated matrices: entries uniform in (-1, 1), or one
 * of the no-pivoting killers (--matrix). */
#include "cmd.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matgen.h"
#include "output.h"
#include "runloop.h"
#include "vendor.h"

enum { ID_A = 31, ID_B = 32 };

static const double THRESHOLD = 60;

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

static int call_rbt(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t nrhs, const void *a,
                    int64_t lda, void *b, int64_t ldb, const hyla_rbt_opts *op,
                    hyla_rbt_info *inf) {
    if (dev < 0) {
        switch (t) {
        case HYLA_S: return hyla_sgesv_rbt(ctx, n, nrhs, a, lda, b, ldb, op, inf);
        case HYLA_D: return hyla_dgesv_rbt(ctx, n, nrhs, a, lda, b, ldb, op, inf);
        case HYLA_C: return hyla_cgesv_rbt(ctx, n, nrhs, a, lda, b, ldb, op, inf);
        default: return hyla_zgesv_rbt(ctx, n, nrhs, a, lda, b, ldb, op, inf);
        }
    }
    switch (t) {
    case HYLA_S: return hyla_sgesv_rbt_gpu(ctx, dev, n, nrhs, a, lda, b, ldb, op, inf);
    case HYLA_D: return hyla_dgesv_rbt_gpu(ctx, dev, n, nrhs, a, lda, b, ldb, op, inf);
    case HYLA_C: return hyla_cgesv_rbt_gpu(ctx, dev, n, nrhs, a, lda, b, ldb, op, inf);
    default: return hyla_zgesv_rbt_gpu(ctx, dev, n, nrhs, a, lda, b, ldb, op, inf);
    }
}

static double col_max(hyla_dtype t, const void *v, int64_t len) {
    double m = 0;
    for (int64_t i = 0; i < len; i++) {
        double a = cabs(mat_elem(t, v, i));
        if (!(a <= m)) m = a;
    }
    return m;
}

/* r := r - A x by the host BLAS in the dtype. */
static void residual(hyla_dtype t, int64_t n, int64_t nrhs, const void *a, int64_t lda,
                     const void *x, int64_t ldx, void *r, int64_t ldr) {
    const float fm = -1, f1 = 1;
    const double dm = -1, d1 = 1;
    const float complex cm = -1, c1 = 1;
    const double complex zm = -1, z1 = 1;
    const int N = (int)n, R = (int)nrhs, la = (int)lda, lx = (int)ldx, lr = (int)ldr;
    switch (t) {
    case HYLA_S: cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, R, N, fm, a, la, x, lx, f1, r, lr); break;
    case HYLA_D: cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, R, N, dm, a, la, x, lx, d1, r, lr); break;
    case HYLA_C: cblas_cgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, R, N, &cm, a, la, x, lx, &c1, r, lr); break;
    default: cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, R, N, &zm, a, la, x, lx, &z1, r, lr); break;
    }
}

/* max_j |b_j - A x_j|_inf / (n |A|_inf |x_j|_inf eps) */
static int check_solve(hyla_dtype t, int64_t n, int64_t nrhs, const void *a, const void *b,
                       const void *x, double *err) {
    const size_t es = dtype_size(t);
    *err = 0;
    if (n == 0 || nrhs == 0) return 0;
    void *r = mat_alloc(t, n, nrhs, false, "the check residual");
    if (!r) return -1;
    mat_copy(t, n, nrhs, b, n, r, n);
    residual(t, n, nrhs, a, n, x, n, r, n);
    const double na = mat_norm_inf(t, 'N', n, n, a, n);
    for (int64_t j = 0; j < nrhs; j++) {
        const double rn = col_max(t, (const char *)r + (size_t)j * (size_t)n * es, n);
        const double xn = col_max(t, (const char *)x + (size_t)j * (size_t)n * es, n);
        const double d = (double)n * na * xn * dtype_eps(t);
        const double e = rn == 0 ? 0 : d > 0 ? rn / d : INFINITY;
        if (!(e <= *err)) *err = e;
    }
    free(r);
    return 0;
}

static const char *reason(const hyla_rbt_info *i) {
    return i->fallback_reason == HYLA_RBT_SMALL_PIVOT      ? "small pivot"
           : i->fallback_reason == HYLA_RBT_NOT_CONVERGED ? "no convergence"
                                                            : "";
}

/* The solver's own report under the row (JSON: one more object). */
static void print_info(const report *r, const cli_opts *o, const char *what,
                       const hyla_rbt_info *i) {
    const double share = i->t_total > 0 ? i->t_random / i->t_total : NAN;
    if (r->json) {
        printf("{\"routine\":\"gesv_rbt\",\"%s\":{\"depth\":%d,\"n_padded\":%lld,"
               "\"refine_steps\":%d,\"fallback\":%d,\"fallback_reason\":%d", what, i->depth,
               (long long)i->n_padded, i->refine_steps, i->fallback, i->fallback_reason);
        report_json_number("berr", i->berr);
        const struct { const char *key; double v; } t[] = {
            {"t_random", i->t_random}, {"t_factor", i->t_factor}, {"t_solve", i->t_solve},
            {"t_refine", i->t_refine}, {"t_copy", i->t_copy},     {"t_fallback", i->t_fallback},
            {"t_total", i->t_total},   {"random_share", share}};
        for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) report_json_number(t[k].key, t[k].v);
        printf(",\"berr_status\":\"%s\"}}\n", isfinite(i->berr) ? "ok" : "not finite");
        return;
    }
    printf("%%   %s: depth %d, np %lld, refinement steps %d, berr %.2e, fallback %s%s%s%s\n", what,
           i->depth, (long long)i->n_padded, i->refine_steps, i->berr, i->fallback ? "yes" : "no",
           i->fallback ? " (" : "", reason(i), i->fallback ? ")" : "");
    if (o->stats)
        printf("%%   %s: randomization %.3f ms (%.2f%% of %.3f ms), factor %.3f ms, solve %.3f ms, "
               "refinement %.3f ms, copies %.3f ms, fallback %.3f ms\n",
               what, i->t_random * 1e3, share * 100, i->t_total * 1e3, i->t_factor * 1e3,
               i->t_solve * 1e3, i->t_refine * 1e3, i->t_copy * 1e3, i->t_fallback * 1e3);
}

/* run_device hook: hyla_?gesv_rbt_gpu on the device copies (ld n). */
typedef struct {
    hyla_dtype t;
    int64_t n, nrhs;
    const hyla_rbt_opts *op;
    hyla_rbt_info *inf;
} rbt_dev;

static int hook_device(hyla_t *ctx, void *arg, void *dA, void *dB) {
    const rbt_dev *d = arg;
    return call_rbt(ctx, 0, d->t, d->n, d->nrhs, dA, d->n, dB, d->n, d->op, d->inf);
}

/* hyla_?gesv_rbt_gpu on device 0 with a copy of A (uploaded once: the
 * solver does not modify it) and of B (uploaded before each call). */
static double ours_device(hyla_t *ctx, const cli_opts *o, hyla_dtype t, int64_t n,
                          int64_t nrhs, const void *A, const void *B, const hyla_rbt_opts *op,
                          hyla_rbt_info *inf, bool *failed) {
    size_t ba = 0, bb = 0;
    if (n == 0 || nrhs == 0) return NAN;
    mat_bytes(t, n, n, &ba);
    mat_bytes(t, n, nrhs, &bb);
    rbt_dev d = {.t = t, .n = n, .nrhs = nrhs, .op = op, .inf = inf};
    const device_hooks h = {.arg = &d, .dtype = t, .name = "gesv_rbt", .A = A, .a_bytes = ba,
                            .B = B, .b_bytes = bb, .call = hook_device};
    return run_device(ctx, o, false, &h, failed);
}

static cmd_status run_matrices(hyla_t *ctx, const cli_opts *o, const report *r, hyla_dtype t,
                               int64_t n, int64_t nrhs, const void *A, const void *B) {
    const double mul = dtype_is_complex(t) ? 4 : 1, dn = (double)n;
    report_row row = {.layout = ROW_CHOL, .routine = "gesv_rbt", .type = t, .uplo = '-', .n = n,
                      .nrhs = nrhs, .flops = nrhs == 0 ? 0 /* nothing solved: no work */
                               : mul * (2 * dn * dn * dn / 3 + 2 * dn * dn * (double)nrhs),
                      .time_s = NAN, .vendor_time_s = NAN, .vendor_dev_time_s = NAN,
                      .ours_dev_time_s = NAN, .status = "ok"};
    const hyla_rbt_opts op = {.depth = o->rbt_depth > 0 ? o->rbt_depth : 0,
                              .max_refine = o->rbt_refine < 0 ? 0 : o->rbt_refine == 0 ? -1 : o->rbt_refine,
                              .seed = o->seed};
    hyla_rbt_info first = {0}, inf = {0}, dinf = {0};
    bool check = o->check && n > 0 && nrhs > 0, dev_failed = false;
    if (check) row.check = "residual";
    double *times = malloc((size_t)o->repeat * sizeof *times);
    void *Bw = mat_alloc(t, n, nrhs, false, "the copy of B");
    cmd_status st = CMD_ERROR;
    if (!times || !Bw) goto out;
    const int pre = o->warmup > 0 || !check ? o->warmup : 1;
    for (int c = 0; c < pre + o->repeat; c++) {
        mat_copy(t, n, nrhs, B, max1(n), Bw, max1(n));
        double t0 = cli_now();
        row.info = call_rbt(ctx, -1, t, n, nrhs, A, max1(n), Bw, max1(n), &op, &inf);
        double tm = cli_now() - t0;
        if (row.info < 0) {
            fprintf(stderr, "hyla: hyla_%cgesv_rbt(n=%lld) returned %d: %s\n", dtype_char(t),
                    (long long)n, row.info, hyla_strerror(row.info));
            row.status = "error";
            report_print(r, &row);
            goto out;
        }
        if (c >= pre) times[c - pre] = tm;
        if (c > 0) continue;
        first = inf;
        if (row.info > 0) {
            fprintf(stderr, "hyla: hyla_%cgesv_rbt(n=%lld): the matrix is singular (partial "
                    "pivoting: U(%d,%d) is exactly zero)\n", dtype_char(t), (long long)n,
                    row.info, row.info);
            row.status = "singular";
            report_print(r, &row);
            print_info(r, o, "rbt", &first);
            st = CMD_FAILED;
            goto out;
        }
        if (check) {
            if (check_solve(t, n, nrhs, A, B, Bw, &row.error)) goto out;
            row.has_error = true;
            row.status = row.error < THRESHOLD ? "pass" : "FAILED";
        }
        if (first.fallback && !(row.has_error && !(row.error < THRESHOLD))) row.status = "fallback";
        if (o->output && row.has_error && !(row.error < THRESHOLD) && !o->output_on_fail) {
            fputs("hyla: the check FAILED: no --output file written (--output-on-fail writes "
                  "them anyway)\n", stderr);
        } else if (o->output) {
            const out_item x = {t, n, nrhs, max1(n), Bw, false};
            if (out_write(o, 1, &x)) goto out;
        }
    }
    row.time_s = cli_median(times, o->repeat);
    const bool dev = o->vs_vendor && r->cuda && r->ndevices == 1;
    if (dev) row.ours_dev_time_s = ours_device(ctx, o, t, n, nrhs, A, B, &op, &dinf, &dev_failed);
    if (dev_failed) row.status = "FAILED";
    if (o->vs_vendor && n > 0 && nrhs > 0) {
        void *Aw = mat_alloc(t, n, n, false, "the vendor's copy of A");
        if (!Aw) goto out;
        lu_problem p = {.routine = LU_GESV, .dtype = t, .trans = 'N', .m = n, .n = n,
                        .nrhs = nrhs, .A = A, .B = B, .lda = max1(n), .ldb = max1(n), .Aw = Aw,
                        .Bw = Bw};
        vendor_times vt;
        vendor_lu(ctx, &p, o->warmup, o->repeat, &vt);
        free(Aw);
        row.vendor_time_s = vt.time_s;
        row.vendor = vt.name;
    }
    report_print(r, &row);
    if (n > 0 && nrhs > 0) {
        inf.refine_steps = first.refine_steps; /* timings of the last run, the rest of the first */
        print_info(r, o, "rbt", &inf);
        if (dev && !dev_failed) print_info(r, o, "rbt-dev", &dinf);
    }
    st = dev_failed || (row.has_error && !(row.error < THRESHOLD)) ? CMD_FAILED : CMD_OK;
out:
    free(times);
    free(Bw);
    return st;
}

static cmd_status run_generated(hyla_t *ctx, const cli_opts *o, const report *r, hyla_dtype t,
                                int64_t n, int64_t nrhs) {
    size_t ba, bb;
    if (mat_bytes(t, n, n, &ba) && mat_bytes(t, n, nrhs, &bb) &&
        !host_fits(2.0 * (double)ba + 3.0 * (double)bb, "A, its vendor copy, B and X"))
        return CMD_ERROR;
    const char *kind = o->matrix ? o->matrix : "random";
    void *A = mat_alloc(t, n, n, !strcmp(kind, "perm"), "A");
    void *B = A ? mat_alloc(t, n, nrhs, false, "B") : NULL;
    cmd_status st = CMD_ERROR;
    if (A && B) {
        const size_t es = dtype_size(t);
        const double one = 1, tiny = dtype_eps(t) * dtype_eps(t);
        if (!strcmp(kind, "perm")) { /* the real part of the element is the first value */
            for (int64_t j = 0; j < n; j++) {
                char *e = (char *)A + (size_t)((j + 1) % n + j * n) * es;
                if (t == HYLA_S || t == HYLA_C) *(float *)e = (float)one;
                else *(double *)e = one;
            }
        } else {
            mat_fill_random(t, n, n, A, max1(n), o->seed, ID_A);
            const double v = !strcmp(kind, "zero11") ? 0 : !strcmp(kind, "tiny") ? tiny : NAN;
            if (n > 0 && !isnan(v)) {
                memset(A, 0, es);
                if (t == HYLA_S || t == HYLA_C) *(float *)A = (float)v;
                else *(double *)A = v;
            }
        }
        mat_fill_random(t, n, nrhs, B, max1(n), o->seed, ID_B);
        st = run_matrices(ctx, o, r, t, n, nrhs, A, B);
    }
    free(A);
    free(B);
    return st;
}

/* --input A.npy,B.npy */
static cmd_status run_files(hyla_t *ctx, const cli_opts *o, const report *r) {
    hyla_npy in[2] = {{0}};
    cmd_status st = CMD_ERROR;
    if (o->ninputs != 2) {
        fputs("hyla: gesv_rbt --input takes A.npy,B.npy\n", stderr);
        return CMD_USAGE;
    }
    if ((st = (cmd_status)cli_read_inputs(o, in, 2)) != CMD_OK) goto out;
    st = CMD_USAGE;
    if (in[0].cols != in[0].rows) {
        fprintf(stderr, "hyla: %s (A) is %lld x %lld: a solve needs a square matrix\n",
                o->inputs[0], (long long)in[0].rows, (long long)in[0].cols);
        goto out;
    }
    if (in[1].dtype != in[0].dtype) {
        fprintf(stderr, "hyla: %s (B) is of type %c but %s (A) is of type %c\n", o->inputs[1],
                dtype_char(in[1].dtype), o->inputs[0], dtype_char(in[0].dtype));
        goto out;
    }
    if (in[1].rows != in[0].rows) {
        fprintf(stderr, "hyla: %s (B) has %lld rows but %s (A) is %lld x %lld\n", o->inputs[1],
                (long long)in[1].rows, o->inputs[0], (long long)in[0].rows, (long long)in[0].cols);
        goto out;
    }
    st = run_matrices(ctx, o, r, in[0].dtype, in[0].rows, in[1].cols, in[0].data, in[1].data);
out:
    for (int i = 0; i < 2; i++) hyla_npy_free(&in[i]);
    return st;
}

cmd_status cmd_gesv_rbt(hyla_t *ctx, const cli_opts *o, const report *r) {
    if (o->matrix && strcmp(o->matrix, "random") && strcmp(o->matrix, "zero11") &&
        strcmp(o->matrix, "tiny") && strcmp(o->matrix, "perm")) {
        fprintf(stderr, "hyla: gesv_rbt: --matrix %s: expected random, zero11, tiny or perm\n",
                o->matrix);
        return CMD_USAGE;
    }
    if (o->ninputs) {
        if (o->matrix) {
            fputs("hyla: --matrix applies to generated matrices only\n", stderr);
            return CMD_USAGE;
        }
        return run_files(ctx, o, r);
    }
    cmd_status worst = CMD_OK;
    for (int t = 0; t < o->ntypes; t++)
        for (int i = 0; i < cli_nrhs_runs(o); i++)
            if (run_merge(&worst, run_generated(ctx, o, r, o->types[t], cli_solve_n(o, i),
                                                cli_solve_nrhs(o, i))))
                return worst;
    return worst;
}
