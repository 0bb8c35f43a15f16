/* hyla gemm: C := alpha op(A) op(B) + beta C on generated or user matrices,
 * timed, checked and compared with the vendor BLAS.
 *
 * The check is Freivalds' test with one random vector x, O(mn + nk + mk):
 * error = |C x - (alpha op(A) (op(B) x) + beta C0 x)|_inf
 *         / ((|alpha| |op(A)|_inf |op(B)|_inf + |beta| |C0|_inf) |x|_inf eps max(k, 1)). */
#include "cmd.h"

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "matgen.h"
#include "output.h"
#include "runloop.h"
#include "vendor.h"

enum { ID_A = 1, ID_B = 2, ID_C = 3, ID_X = 4, VEC_PAD = 8 };

static const double THRESHOLD = 10;

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

/* Check vectors, zeroed, with a zero tail: OpenBLAS's gemv kernels read a
 * little past the end of x. */
static void *vec_alloc(hyla_dtype t, int64_t len, const char *what) {
    return mat_alloc(t, len + VEC_PAD, 1, true, what);
}

/* Shape of X as stored when op(X) is rows x cols; also the reverse map. */
static void stored_shape(char trans, int64_t rows, int64_t cols, int64_t *r, int64_t *c) {
    *r = trans == 'N' ? rows : cols;
    *c = trans == 'N' ? cols : rows;
}

static int call_hyla(hyla_t *ctx, const gemm_problem *p) {
    switch (p->dtype) {
    case HYLA_S:
        return hyla_sgemm(ctx, p->transa, p->transb, p->m, p->n, p->k, (float)p->alpha, p->A,
                          p->lda, p->B, p->ldb, (float)p->beta, p->C, p->ldc);
    case HYLA_D:
        return hyla_dgemm(ctx, p->transa, p->transb, p->m, p->n, p->k, p->alpha, p->A, p->lda,
                          p->B, p->ldb, p->beta, p->C, p->ldc);
    case HYLA_C:
        return hyla_cgemm(ctx, p->transa, p->transb, p->m, p->n, p->k,
                          (hyla_complex_float)(float)p->alpha, p->A, p->lda, p->B, p->ldb,
                          (hyla_complex_float)(float)p->beta, p->C, p->ldc);
    case HYLA_Z:
        return hyla_zgemm(ctx, p->transa, p->transb, p->m, p->n, p->k,
                          (hyla_complex_double)p->alpha, p->A, p->lda, p->B, p->ldb,
                          (hyla_complex_double)p->beta, p->C, p->ldc);
    }
    return HYLA_ERR_INTERNAL;
}

/* y := op(A) x, A stored rows x cols; y must be zeroed (BLAS leaves it
 * untouched when the inner dimension is 0). Sizes fit int (checked). */
static void gemv(hyla_dtype t, char trans, int64_t rows, int64_t cols, const void *a, int64_t lda,
                 const void *x, void *y) {
    CBLAS_TRANSPOSE op = cblas_trans(trans);
    int r = (int)rows, c = (int)cols, ld = (int)lda;
    const hyla_complex_float one_c = 1, zero_c = 0;
    const hyla_complex_double one_z = 1, zero_z = 0;
    switch (t) {
    case HYLA_S: cblas_sgemv(CblasColMajor, op, r, c, 1.0f, a, ld, x, 1, 0.0f, y, 1); break;
    case HYLA_D: cblas_dgemv(CblasColMajor, op, r, c, 1.0, a, ld, x, 1, 0.0, y, 1); break;
    case HYLA_C: cblas_cgemv(CblasColMajor, op, r, c, &one_c, a, ld, x, 1, &zero_c, y, 1); break;
    case HYLA_Z: cblas_zgemv(CblasColMajor, op, r, c, &one_z, a, ld, x, 1, &zero_z, y, 1); break;
    }
}

/* State of the check, computed before the first run. */
typedef struct {
    void *x, *c0x;              /* x (length n); C0 x (length m) if beta != 0 */
    double norm_a, norm_b, norm_c0, norm_x;
    bool uses_ab;               /* alpha != 0 and k > 0: A and B are read */
} gemm_check;

static void check_free(gemm_check *ck) {
    free(ck->x);
    free(ck->c0x);
}

/* CBLAS takes int sizes; beyond them the run is not checked. */
static bool check_possible(const gemm_problem *p) {
    const int64_t dims[] = {p->m, p->n, p->k, p->lda, p->ldb, p->ldc};
    for (int i = 0; i < 6; i++)
        if (dims[i] > INT_MAX) return false;
    return true;
}

static int check_prepare(gemm_check *ck, const gemm_problem *p, uint64_t seed) {
    int64_t ra, ca, rb, cb;
    stored_shape(p->transa, p->m, p->k, &ra, &ca);
    stored_shape(p->transb, p->k, p->n, &rb, &cb);
    *ck = (gemm_check){.uses_ab = p->alpha != 0 && p->k > 0};
    ck->x = vec_alloc(p->dtype, p->n, "the check vector x");
    if (!ck->x) return -1;
    mat_fill_random(p->dtype, p->n, 1, ck->x, max1(p->n), seed, ID_X);
    ck->norm_x = mat_norm_inf(p->dtype, 'N', p->n, 1, ck->x, max1(p->n));
    if (ck->uses_ab) {
        ck->norm_a = mat_norm_inf(p->dtype, p->transa, ra, ca, p->A, p->lda);
        ck->norm_b = mat_norm_inf(p->dtype, p->transb, rb, cb, p->B, p->ldb);
    }
    if (p->beta != 0) {
        ck->c0x = vec_alloc(p->dtype, p->m, "the check vector C0*x");
        if (!ck->c0x) return -1;
        ck->norm_c0 = mat_norm_inf(p->dtype, 'N', p->m, p->n, p->C, p->ldc);
        gemv(p->dtype, 'N', p->m, p->n, p->C, p->ldc, ck->x, ck->c0x);
    }
    return 0;
}

static int check_error(const gemm_check *ck, const gemm_problem *p, double *error) {
    hyla_dtype t = p->dtype;
    int64_t ra, ca, rb, cb;
    stored_shape(p->transa, p->m, p->k, &ra, &ca);
    stored_shape(p->transb, p->k, p->n, &rb, &cb);
    void *y = vec_alloc(t, p->m, "the check vector C*x");
    void *bx = ck->uses_ab ? vec_alloc(t, p->k, "the check vector op(B)*x") : NULL;
    void *abx = ck->uses_ab ? vec_alloc(t, p->m, "the check vector op(A)*op(B)*x") : NULL;
    int rc = -1;
    if (!y || (ck->uses_ab && (!bx || !abx))) goto out;
    gemv(t, 'N', p->m, p->n, p->C, p->ldc, ck->x, y);
    if (ck->uses_ab) {
        gemv(t, p->transb, rb, cb, p->B, p->ldb, ck->x, bx);
        gemv(t, p->transa, ra, ca, p->A, p->lda, bx, abx);
    }
    double diff = 0;
    for (int64_t i = 0; i < p->m; i++) {
        double complex ref = 0;
        if (abx) ref += p->alpha * mat_elem(t, abx, i);
        if (ck->c0x) ref += p->beta * mat_elem(t, ck->c0x, i);
        double d = cabs(mat_elem(t, y, i) - ref);
        if (isnan(d)) {
            diff = NAN;
            break;
        }
        diff = d > diff ? d : diff;
    }
    double scale = (fabs(p->alpha) * ck->norm_a * ck->norm_b + fabs(p->beta) * ck->norm_c0) *
                   ck->norm_x * dtype_eps(t) * (double)max1(p->k);
    *error = scaled_error(diff, scale);
    rc = 0;
out:
    free(y);
    free(bx);
    free(abx);
    return rc;
}

/* run_calls hooks: arg is a gemm_run. */
typedef struct {
    const gemm_problem *p;
    const gemm_check *ck;
    const cli_opts *o;
} gemm_run;

static int hook_call(hyla_t *ctx, void *arg) { return call_hyla(ctx, ((gemm_run *)arg)->p); }

static void hook_error(void *arg, int info) {
    const gemm_problem *p = ((gemm_run *)arg)->p;
    fprintf(stderr, "hyla: hyla_%cgemm(m=%lld, n=%lld, k=%lld) returned %d: %s\n",
            dtype_char(p->dtype), (long long)p->m, (long long)p->n, (long long)p->k, info,
            hyla_strerror(info));
}

static int hook_check(void *arg, double *err) {
    const gemm_run *g = arg;
    return check_error(g->ck, g->p, err);
}

static int hook_write(void *arg) {
    const gemm_run *g = arg;
    const gemm_problem *p = g->p;
    const out_item c = {p->dtype, p->m, p->n, p->ldc, p->C, false};
    return out_write(g->o, 1, &c);
}

/* Runs hyla on one problem (check, warm-up, timed repeats), then the vendor
 * baseline, and prints the row. */
static cmd_status run_problem(hyla_t *ctx, const cli_opts *o, const report *r, gemm_problem *p) {
    hyla_gemm_stats stats;
    report_row row = {.routine = "gemm", .type = p->dtype, .transa = p->transa,
                      .transb = p->transb, .m = p->m, .n = p->n, .k = p->k,
                      .flops = (dtype_is_complex(p->dtype) ? 8.0 : 2.0) * (double)p->m *
                               (double)p->n * (double)p->k,
                      .time_s = NAN, .vendor_time_s = NAN, .vendor_dev_time_s = NAN,
                      .status = "ok"};
    bool check = o->check && check_possible(p);
    if (o->check && !check) row.status = "nocheck";
    gemm_check ck = {0};
    gemm_run g = {.p = p, .ck = &ck, .o = o};
    const run_hooks h = {.arg = &g, .call = hook_call, .print_error = hook_error,
                         .check = hook_check, .write = hook_write, .threshold = THRESHOLD};
    cmd_status st = CMD_ERROR;
    if (check && check_prepare(&ck, p, o->seed)) goto out;
    if ((st = run_calls(ctx, o, r, check, &h, &row)) != CMD_OK) goto out;
    if (o->stats && hyla_get_gemm_stats(ctx, &stats) == 0) row.stats = &stats;
    if (o->vs_vendor) {
        vendor_times vt;
        vendor_gemm(ctx, p, o->warmup, o->repeat, o->xt_block, &vt);
        row.vendor_time_s = vt.time_s;
        row.vendor_dev_time_s = vt.dev_time_s;
    }
    st = run_finish(r, &row, THRESHOLD, false);
out:
    check_free(&ck);
    return st;
}

static cmd_status run_generated(hyla_t *ctx, const cli_opts *o, const report *r, hyla_dtype t,
                                int64_t m, int64_t n, int64_t k) {
    int64_t ra, ca, rb, cb;
    stored_shape(o->transa, m, k, &ra, &ca);
    stored_shape(o->transb, k, n, &rb, &cb);
    size_t ba, bb, bc;
    if (mat_bytes(t, ra, ca, &ba) && mat_bytes(t, rb, cb, &bb) && mat_bytes(t, m, n, &bc) &&
        !host_fits((double)ba + (double)bb + (double)bc, "A, B and C"))
        return CMD_ERROR;
    void *A = mat_alloc(t, ra, ca, false, "A");
    void *B = A ? mat_alloc(t, rb, cb, false, "B") : NULL;
    void *C = B ? mat_alloc(t, m, n, false, "C") : NULL;
    cmd_status st = CMD_ERROR;
    if (C) {
        gemm_problem p = {.dtype = t, .transa = o->transa, .transb = o->transb, .m = m, .n = n,
                          .k = k, .alpha = o->alpha, .beta = o->beta, .A = A, .lda = max1(ra),
                          .B = B, .ldb = max1(rb), .C = C, .ldc = max1(m)};
        mat_fill_random(t, ra, ca, A, p.lda, o->seed, ID_A);
        mat_fill_random(t, rb, cb, B, p.ldb, o->seed, ID_B);
        mat_fill_random(t, m, n, C, p.ldc, o->seed, ID_C);
        st = run_problem(ctx, o, r, &p);
    }
    free(A);
    free(B);
    free(C);
    return st;
}

/* --input A.npy,B.npy[,C.npy]: sizes from the shapes with the transposes
 * applied, type from the files; without C.npy, C starts as zeros. */
static cmd_status run_files(hyla_t *ctx, const cli_opts *o, const report *r) {
    static const char *const names[] = {"A", "B", "C"};
    hyla_npy in[3] = {{0}};
    void *zeros = NULL;
    cmd_status st = CMD_ERROR;
    if (o->ninputs < 2 || o->ninputs > 3) {
        fputs("hyla: gemm --input takes A.npy,B.npy or A.npy,B.npy,C.npy\n", stderr);
        return CMD_USAGE;
    }
    if ((st = (cmd_status)cli_read_inputs(o, in, o->ninputs)) != CMD_OK) goto out;
    st = CMD_USAGE;
    for (int i = 1; i < o->ninputs; i++)
        if (in[i].dtype != in[0].dtype) {
            fprintf(stderr, "hyla: %s (%s) is of type %c but %s (A) is of type %c\n",
                    o->inputs[i], names[i], dtype_char(in[i].dtype), o->inputs[0],
                    dtype_char(in[0].dtype));
            goto out;
        }
    int64_t m, k, kb, n;
    stored_shape(o->transa, in[0].rows, in[0].cols, &m, &k);
    stored_shape(o->transb, in[1].rows, in[1].cols, &kb, &n);
    if (kb != k) {
        fprintf(stderr, "hyla: op(A) is %lld x %lld but op(B) is %lld x %lld: inner sizes differ\n",
                (long long)m, (long long)k, (long long)kb, (long long)n);
        goto out;
    }
    if (o->ninputs == 3 && (in[2].rows != m || in[2].cols != n)) {
        fprintf(stderr, "hyla: C is %lld x %lld but op(A)*op(B) is %lld x %lld\n",
                (long long)in[2].rows, (long long)in[2].cols, (long long)m, (long long)n);
        goto out;
    }
    st = CMD_ERROR;
    void *C = o->ninputs == 3 ? in[2].data : (zeros = mat_alloc(in[0].dtype, m, n, true, "C"));
    if (!C) goto out;
    gemm_problem p = {.dtype = in[0].dtype, .transa = o->transa, .transb = o->transb, .m = m,
                      .n = n, .k = k, .alpha = o->alpha, .beta = o->beta, .A = in[0].data,
                      .lda = max1(in[0].rows), .B = in[1].data, .ldb = max1(in[1].rows), .C = C,
                      .ldc = max1(m)};
    st = run_problem(ctx, o, r, &p);
out:
    free(zeros);
    for (int i = 0; i < 3; i++) hyla_npy_free(&in[i]);
    return st;
}

cmd_status cmd_gemm(hyla_t *ctx, const cli_opts *o, const report *r) {
    if (o->ninputs) return run_files(ctx, o, r);
    cmd_status worst = CMD_OK;
    for (int t = 0; t < o->ntypes; t++)
        for (int i = 0; i < o->n.count; i++)
            if (run_merge(&worst, run_generated(ctx, o, r, o->types[t], cli_m(o, i), cli_n(o, i),
                                                cli_k(o, i))))
                return worst;
    return worst;
}
