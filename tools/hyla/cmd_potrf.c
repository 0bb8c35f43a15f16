/* hyla potrf, potrs, posv: Cholesky factorization and solves on generated or
 * user matrices, timed, checked and compared with the vendor.
 *
 * Checks (LAPACK's measures; pass below 60), written for uplo L (for U read
 * U^H U for L L^H):
 *   potrf        |A - L L^H|_F / (n |A|_F eps) for n <= CHOL_EXACT_CHECK_MAX;
 *                beyond, |(A - L L^H) x|_inf / (n |A|_inf |x|_inf eps) with a
 *                random x, O(n^2) (L L^H x = L (L^H x));
 *   potrs, posv  the largest over the columns j of
 *                |b_j - A x_j|_inf / (n |A|_inf |x_j|_inf eps); for potrs on a
 *                user factor (A unknown), A x_j is L (L^H x_j) and |A|_inf is
 *                bounded by |L|_1 |L|_inf.
 * Generated matrices: mat_fill_hpd (random, diagonally dominant, O(n^2)) or,
 * with --cond, mat_fill_hpd_cond (Q D Q^H, O(n^3)). */
#include "cmd.h"

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matgen.h"
#include "output.h"
#include "runloop.h"
#include "vendor.h"

enum { ID_A = 11, ID_B = 12, ID_X = 13, ID_Q = 14, VEC_PAD = 8 };

static const double THRESHOLD = 60;

static const char *const names[] = {"potrf", "potrs", "posv"};

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

static bool factors(const chol_problem *p) { return p->routine != CHOL_POTRS; }
static bool solves(const chol_problem *p) { return p->routine != CHOL_POTRF; }

/* ---------------------------------------------------------------- hyla calls */

static int call_potrf(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, void *a, int64_t lda) {
    switch (t) {
    case HYLA_S: return hyla_spotrf(ctx, uplo, n, a, lda);
    case HYLA_D: return hyla_dpotrf(ctx, uplo, n, a, lda);
    case HYLA_C: return hyla_cpotrf(ctx, uplo, n, a, lda);
    case HYLA_Z: return hyla_zpotrf(ctx, uplo, n, a, lda);
    }
    return HYLA_ERR_INTERNAL;
}

static int call_potrs(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, int64_t nrhs, const void *a,
                      int64_t lda, void *b, int64_t ldb) {
    switch (t) {
    case HYLA_S: return hyla_spotrs(ctx, uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_D: return hyla_dpotrs(ctx, uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_C: return hyla_cpotrs(ctx, uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_Z: return hyla_zpotrs(ctx, uplo, n, nrhs, a, lda, b, ldb);
    }
    return HYLA_ERR_INTERNAL;
}

static int call_posv(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, int64_t nrhs, void *a,
                     int64_t lda, void *b, int64_t ldb) {
    switch (t) {
    case HYLA_S: return hyla_sposv(ctx, uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_D: return hyla_dposv(ctx, uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_C: return hyla_cposv(ctx, uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_Z: return hyla_zposv(ctx, uplo, n, nrhs, a, lda, b, ldb);
    }
    return HYLA_ERR_INTERNAL;
}

static int call_potrf_gpu(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, void *a, int64_t lda) {
    switch (t) {
    case HYLA_S: return hyla_spotrf_gpu(ctx, 0, uplo, n, a, lda);
    case HYLA_D: return hyla_dpotrf_gpu(ctx, 0, uplo, n, a, lda);
    case HYLA_C: return hyla_cpotrf_gpu(ctx, 0, uplo, n, a, lda);
    case HYLA_Z: return hyla_zpotrf_gpu(ctx, 0, uplo, n, a, lda);
    }
    return HYLA_ERR_INTERNAL;
}

static int call_potrs_gpu(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, int64_t nrhs,
                          const void *a, int64_t lda, void *b, int64_t ldb) {
    switch (t) {
    case HYLA_S: return hyla_spotrs_gpu(ctx, 0, uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_D: return hyla_dpotrs_gpu(ctx, 0, uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_C: return hyla_cpotrs_gpu(ctx, 0, uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_Z: return hyla_zpotrs_gpu(ctx, 0, uplo, n, nrhs, a, lda, b, ldb);
    }
    return HYLA_ERR_INTERNAL;
}

/* The routine of p on the work copies Aw, Bw (potrs: on the factor A). */
static int call_hyla(hyla_t *ctx, const chol_problem *p) {
    switch (p->routine) {
    case CHOL_POTRF: return call_potrf(ctx, p->dtype, p->uplo, p->n, p->Aw, p->lda);
    case CHOL_POTRS:
        return call_potrs(ctx, p->dtype, p->uplo, p->n, p->nrhs, p->A, p->lda, p->Bw, p->ldb);
    case CHOL_POSV:
        return call_posv(ctx, p->dtype, p->uplo, p->n, p->nrhs, p->Aw, p->lda, p->Bw, p->ldb);
    }
    return HYLA_ERR_INTERNAL;
}

/* Fresh work copies of what a call overwrites. */
static void restore(const chol_problem *p) {
    if (factors(p)) mat_copy(p->dtype, p->n, p->n, p->A, p->lda, p->Aw, p->lda);
    if (solves(p)) mat_copy(p->dtype, p->n, p->nrhs, p->B, p->ldb, p->Bw, p->ldb);
}

/* ---------------------------------------------------------------- BLAS helpers */

static CBLAS_UPLO cb_uplo(char uplo) { return uplo == 'L' ? CblasLower : CblasUpper; }

static const void *one_of(hyla_dtype t) {
    static const float s = 1;
    static const double d = 1;
    static const hyla_complex_float c = 1;
    static const hyla_complex_double z = 1;
    const void *v[4] = {&s, &d, &c, &z};
    return v[t];
}

static const void *zero_of(hyla_dtype t) {
    static const float s = 0;
    static const double d = 0;
    static const hyla_complex_float c = 0;
    static const hyla_complex_double z = 0;
    const void *v[4] = {&s, &d, &c, &z};
    return v[t];
}

static const void *minus_one_of(hyla_dtype t) {
    static const float s = -1;
    static const double d = -1;
    static const hyla_complex_float c = -1;
    static const hyla_complex_double z = -1;
    const void *v[4] = {&s, &d, &c, &z};
    return v[t];
}

/* B := op(A) B (CblasLeft) or B op(A) (CblasRight), A triangular (uplo). */
static void trmm(hyla_dtype t, CBLAS_SIDE side, char uplo, CBLAS_TRANSPOSE tr, int64_t m, int64_t n,
                 const void *a, int64_t lda, void *b, int64_t ldb) {
    int M = (int)m, N = (int)n, la = (int)lda, lb = (int)ldb;
    CBLAS_UPLO u = cb_uplo(uplo);
    switch (t) {
    case HYLA_S:
        cblas_strmm(CblasColMajor, side, u, tr, CblasNonUnit, M, N, 1.0f, a, la, b, lb);
        break;
    case HYLA_D:
        cblas_dtrmm(CblasColMajor, side, u, tr, CblasNonUnit, M, N, 1.0, a, la, b, lb);
        break;
    case HYLA_C:
        cblas_ctrmm(CblasColMajor, side, u, tr, CblasNonUnit, M, N, one_of(t), a, la, b, lb);
        break;
    case HYLA_Z:
        cblas_ztrmm(CblasColMajor, side, u, tr, CblasNonUnit, M, N, one_of(t), a, la, b, lb);
        break;
    }
}

/* x := op(A) x, A triangular (uplo). */
static void trmv(hyla_dtype t, char uplo, CBLAS_TRANSPOSE tr, int64_t n, const void *a, int64_t lda,
                 void *x) {
    int N = (int)n, la = (int)lda;
    CBLAS_UPLO u = cb_uplo(uplo);
    switch (t) {
    case HYLA_S: cblas_strmv(CblasColMajor, u, tr, CblasNonUnit, N, a, la, x, 1); break;
    case HYLA_D: cblas_dtrmv(CblasColMajor, u, tr, CblasNonUnit, N, a, la, x, 1); break;
    case HYLA_C: cblas_ctrmv(CblasColMajor, u, tr, CblasNonUnit, N, a, la, x, 1); break;
    case HYLA_Z: cblas_ztrmv(CblasColMajor, u, tr, CblasNonUnit, N, a, la, x, 1); break;
    }
}

/* y := A x, A Hermitian with its uplo triangle stored. */
static void hemv(hyla_dtype t, char uplo, int64_t n, const void *a, int64_t lda, const void *x,
                 void *y) {
    int N = (int)n, la = (int)lda;
    CBLAS_UPLO u = cb_uplo(uplo);
    switch (t) {
    case HYLA_S: cblas_ssymv(CblasColMajor, u, N, 1.0f, a, la, x, 1, 0.0f, y, 1); break;
    case HYLA_D: cblas_dsymv(CblasColMajor, u, N, 1.0, a, la, x, 1, 0.0, y, 1); break;
    case HYLA_C:
        cblas_chemv(CblasColMajor, u, N, one_of(t), a, la, x, 1, zero_of(t), y, 1);
        break;
    case HYLA_Z:
        cblas_zhemv(CblasColMajor, u, N, one_of(t), a, la, x, 1, zero_of(t), y, 1);
        break;
    }
}

/* C := C - A X, A Hermitian (uplo stored), X and C n x nrhs. */
static void hemm_sub(hyla_dtype t, char uplo, int64_t n, int64_t nrhs, const void *a, int64_t lda,
                     const void *x, int64_t ldx, void *c, int64_t ldc) {
    int N = (int)n, R = (int)nrhs, la = (int)lda, lx = (int)ldx, lc = (int)ldc;
    CBLAS_UPLO u = cb_uplo(uplo);
    switch (t) {
    case HYLA_S:
        cblas_ssymm(CblasColMajor, CblasLeft, u, N, R, -1.0f, a, la, x, lx, 1.0f, c, lc);
        break;
    case HYLA_D:
        cblas_dsymm(CblasColMajor, CblasLeft, u, N, R, -1.0, a, la, x, lx, 1.0, c, lc);
        break;
    case HYLA_C:
        cblas_chemm(CblasColMajor, CblasLeft, u, N, R, minus_one_of(t), a, la, x, lx, one_of(t), c,
                    lc);
        break;
    case HYLA_Z:
        cblas_zhemm(CblasColMajor, CblasLeft, u, N, R, minus_one_of(t), a, la, x, lx, one_of(t), c,
                    lc);
        break;
    }
}

/* w[i] -= a[i] for 0 <= i < len. */
static void sub_into(hyla_dtype t, void *w, const void *a, int64_t len) {
    switch (t) {
    case HYLA_S:
        for (int64_t i = 0; i < len; i++) ((float *)w)[i] -= ((const float *)a)[i];
        break;
    case HYLA_D:
        for (int64_t i = 0; i < len; i++) ((double *)w)[i] -= ((const double *)a)[i];
        break;
    case HYLA_C:
        for (int64_t i = 0; i < len; i++)
            ((hyla_complex_float *)w)[i] -= ((const hyla_complex_float *)a)[i];
        break;
    case HYLA_Z:
        for (int64_t i = 0; i < len; i++)
            ((hyla_complex_double *)w)[i] -= ((const hyla_complex_double *)a)[i];
        break;
    }
}

/* Rows [r0, r1) of column j in the uplo triangle of an n x n matrix. */
static void tri_rows(char uplo, int64_t n, int64_t j, int64_t *r0, int64_t *r1) {
    *r0 = uplo == 'L' ? j : 0;
    *r1 = uplo == 'L' ? n : j + 1;
}

/* |T|_1 |T|_inf of the triangle uplo of a (a bound on |T T^H|_inf). */
static double tri_norm_bound(hyla_dtype t, char uplo, int64_t n, const void *a, int64_t lda) {
    double *rows = calloc((size_t)max1(n), sizeof *rows), n1 = 0, ninf = 0;
    size_t es = dtype_size(t);
    if (!rows) return NAN;
    for (int64_t j = 0; j < n; j++) {
        int64_t r0, r1;
        tri_rows(uplo, n, j, &r0, &r1);
        const char *col = (const char *)a + (size_t)j * (size_t)lda * es;
        double s = 0;
        for (int64_t i = r0; i < r1; i++) {
            double v = cabs(mat_elem(t, col, i));
            s += v;
            rows[i] += v;
        }
        n1 = s > n1 || isnan(s) ? s : n1;
    }
    for (int64_t i = 0; i < n; i++) ninf = rows[i] > ninf || isnan(rows[i]) ? rows[i] : ninf;
    free(rows);
    return n1 * ninf;
}

/* ---------------------------------------------------------------- checks */

/* CBLAS takes int sizes; beyond them the run is not checked. */
static bool check_possible(const chol_problem *p) {
    const int64_t dims[] = {p->n, p->nrhs, p->lda, p->ldb};
    for (int i = 0; i < 4; i++)
        if (dims[i] > INT_MAX) return false;
    return true;
}

/* |A0 - F F^H|_F / (n |A0|_F eps), F the factor in the uplo triangle of f. */
static int check_potrf_exact(const chol_problem *p, const void *a0, const void *f, double *err) {
    hyla_dtype t = p->dtype;
    int64_t n = p->n, lda = p->lda;
    size_t es = dtype_size(t);
    void *w = mat_alloc(t, n, n, true, "the check matrix L L^H");
    if (!w) return -1;
    for (int64_t j = 0; j < n; j++) {
        int64_t r0, r1;
        tri_rows(p->uplo, n, j, &r0, &r1);
        memcpy((char *)w + ((size_t)j * (size_t)n + (size_t)r0) * es,
               (const char *)f + ((size_t)j * (size_t)lda + (size_t)r0) * es, (size_t)(r1 - r0) * es);
    }
    if (p->uplo == 'L') trmm(t, CblasRight, 'L', CblasConjTrans, n, n, f, lda, w, n);
    else trmm(t, CblasLeft, 'U', CblasConjTrans, n, n, f, lda, w, n);
    for (int64_t j = 0; j < n; j++) {
        int64_t r0, r1;
        tri_rows(p->uplo, n, j, &r0, &r1);
        sub_into(t, (char *)w + ((size_t)j * (size_t)n + (size_t)r0) * es,
                 (const char *)a0 + ((size_t)j * (size_t)lda + (size_t)r0) * es, r1 - r0);
    }
    double diff = mat_norm_herm_fro(t, p->uplo, n, w, n);
    double norm = mat_norm_herm_fro(t, p->uplo, n, a0, lda);
    *err = scaled_error(diff, (double)n * norm * dtype_eps(t));
    free(w);
    return 0;
}

/* |(A0 - F F^H) x|_inf / (n |A0|_inf |x|_inf eps) with a random x. */
static int check_potrf_random(const chol_problem *p, const void *a0, const void *f, uint64_t seed,
                              double *err) {
    hyla_dtype t = p->dtype;
    int64_t n = p->n;
    /* zeroed, with a zero tail: OpenBLAS's level-2 kernels read a little past x */
    void *x = mat_alloc(t, n + VEC_PAD, 1, true, "the check vector x");
    void *y = x ? mat_alloc(t, n + VEC_PAD, 1, true, "the check vector A x") : NULL;
    void *z = y ? mat_alloc(t, n + VEC_PAD, 1, true, "the check vector L L^H x") : NULL;
    if (!z) {
        free(x);
        free(y);
        return -1;
    }
    mat_fill_random(t, n, 1, x, max1(n), seed, ID_X);
    memcpy(z, x, (size_t)n * dtype_size(t));
    hemv(t, p->uplo, n, a0, p->lda, x, y);
    if (p->uplo == 'L') {
        trmv(t, 'L', CblasConjTrans, n, f, p->lda, z);
        trmv(t, 'L', CblasNoTrans, n, f, p->lda, z);
    } else {
        trmv(t, 'U', CblasNoTrans, n, f, p->lda, z);
        trmv(t, 'U', CblasConjTrans, n, f, p->lda, z);
    }
    sub_into(t, y, z, n);
    double scale = (double)n * mat_norm_herm_inf(t, p->uplo, n, a0, p->lda) *
                   mat_max_abs(t, x, n) * dtype_eps(t);
    *err = scaled_error(mat_max_abs(t, y, n), scale);
    free(x);
    free(y);
    free(z);
    return 0;
}

/* max_j |b_j - A x_j|_inf / (n |A|_inf |x_j|_inf eps), X in x (ld p->ldb);
 * A is a0 when known, else F F^H with the factor p->A. */
static int check_solve(const chol_problem *p, const void *a0, const void *x, double *err) {
    hyla_dtype t = p->dtype;
    int64_t n = p->n, nrhs = p->nrhs;
    size_t es = dtype_size(t);
    void *r = mat_alloc(t, n, nrhs, false, "the check residual");
    void *w = r && !a0 ? mat_alloc(t, n, nrhs, false, "the check product L L^H X") : NULL;
    double norm_a;
    if (!r || (!a0 && !w)) {
        free(r);
        return -1;
    }
    mat_copy(t, n, nrhs, p->B, p->ldb, r, max1(n));
    if (a0) {
        hemm_sub(t, p->uplo, n, nrhs, a0, p->lda, x, p->ldb, r, max1(n));
        norm_a = mat_norm_herm_inf(t, p->uplo, n, a0, p->lda);
    } else {
        mat_copy(t, n, nrhs, x, p->ldb, w, max1(n));
        CBLAS_TRANSPOSE first = p->uplo == 'L' ? CblasConjTrans : CblasNoTrans;
        CBLAS_TRANSPOSE second = p->uplo == 'L' ? CblasNoTrans : CblasConjTrans;
        trmm(t, CblasLeft, p->uplo, first, n, nrhs, p->A, p->lda, w, max1(n));
        trmm(t, CblasLeft, p->uplo, second, n, nrhs, p->A, p->lda, w, max1(n));
        for (int64_t j = 0; j < nrhs; j++)
            sub_into(t, (char *)r + (size_t)j * (size_t)max1(n) * es,
                     (char *)w + (size_t)j * (size_t)max1(n) * es, n);
        norm_a = tri_norm_bound(t, p->uplo, n, p->A, p->lda);
    }
    *err = solve_error(t, n, nrhs, r, max1(n), x, p->ldb, norm_a);
    free(r);
    free(w);
    return 0;
}

/* Checks the result of a call left in Aw (potrf) or Bw (potrs, posv);
 * a0 is the matrix, NULL for potrs on a user factor. */
static int check_result(const chol_problem *p, const void *a0, uint64_t seed, double *err) {
    if (p->n == 0 || (solves(p) && p->nrhs == 0)) {
        *err = 0;
        return 0;
    }
    if (solves(p)) return check_solve(p, a0, p->Bw, err);
    if (p->n <= CHOL_EXACT_CHECK_MAX) return check_potrf_exact(p, a0, p->Aw, err);
    return check_potrf_random(p, a0, p->Aw, seed, err);
}

/* Zeroes the triangle opposite to uplo, leaving the factor alone. */
static void zero_other(const chol_problem *p, void *a) {
    size_t es = dtype_size(p->dtype);
    for (int64_t j = 0; j < p->n; j++) {
        int64_t r0 = p->uplo == 'L' ? 0 : j + 1, r1 = p->uplo == 'L' ? j : p->n;
        memset((char *)a + ((size_t)j * (size_t)p->lda + (size_t)r0) * es, 0,
               (size_t)(r1 - r0) * es);
    }
}

/* ---------------------------------------------------------------- runs */

/* run_calls hooks: arg is a chol_run. */
typedef struct {
    chol_problem *p;
    const void *a0;
    uint64_t seed;
    const cli_opts *o;
} chol_run;

static void hook_restore(void *arg) { restore(((chol_run *)arg)->p); }

static int hook_call(hyla_t *ctx, void *arg) { return call_hyla(ctx, ((chol_run *)arg)->p); }

static void hook_error(void *arg, int info) {
    const chol_problem *p = ((chol_run *)arg)->p;
    char args[64];
    if (solves(p))
        snprintf(args, sizeof args, "n=%lld, nrhs=%lld", (long long)p->n, (long long)p->nrhs);
    else
        snprintf(args, sizeof args, "n=%lld", (long long)p->n);
    fprintf(stderr, "hyla: hyla_%c%s(%s) returned %d: %s\n", dtype_char(p->dtype),
            names[p->routine], args, info, hyla_strerror(info));
}

static const char *hook_numerical(void *arg, const report_row *row) {
    const chol_problem *p = ((chol_run *)arg)->p;
    fprintf(stderr, "hyla: hyla_%c%s(n=%lld): the leading minor of order %d is not "
            "positive definite\n", dtype_char(p->dtype), names[p->routine], (long long)p->n,
            row->info);
    return "notpd";
}

static int hook_check(void *arg, double *err) {
    const chol_run *c = arg;
    return check_result(c->p, c->a0, c->seed, err);
}

static int hook_write(void *arg) {
    const chol_run *c = arg;
    chol_problem *p = c->p;
    if (p->routine != CHOL_POTRF) {
        const out_item x = {p->dtype, p->n, p->nrhs, p->ldb, p->Bw, false};
        return out_write(c->o, 1, &x);
    }
    zero_other(p, p->Aw);
    const out_item l = {p->dtype, p->n, p->n, p->lda, p->Aw, false};
    return out_write(c->o, 1, &l);
}

static int hook_device(hyla_t *ctx, void *arg, void *dA, void *dB) {
    const chol_problem *p = ((chol_run *)arg)->p;
    int rc = 0;
    if (factors(p)) rc = call_potrf_gpu(ctx, p->dtype, p->uplo, p->n, dA, p->n);
    if (!rc && solves(p))
        rc = call_potrs_gpu(ctx, p->dtype, p->uplo, p->n, p->nrhs, dA, p->n, dB, p->n);
    return rc;
}

/* hyla's device-resident routines (hyla_?potrf_gpu, ?potrs_gpu) on device 0
 * with copies of the inputs (run_device, after releasing hyla's cached
 * workspaces); the first result is brought back into Aw / Bw and checked. */
static double ours_device(hyla_t *ctx, const cli_opts *o, const chol_run *c, bool check,
                          bool *failed) {
    const chol_problem *p = c->p;
    size_t ba = 0, bb = 0;
    if (p->n == 0) return NAN;
    mat_bytes(p->dtype, p->n, p->n, &ba); /* fits: the host copy exists; ld = n */
    if (solves(p)) mat_bytes(p->dtype, p->n, p->nrhs, &bb);
    const device_hooks h = {.arg = (void *)c, .dtype = p->dtype,
                            .name = p->routine == CHOL_POTRF ? "potrf" : "potrf/potrs",
                            .A = p->A, .a_bytes = ba, .a_each = factors(p),
                            .B = solves(p) ? p->B : NULL, .b_bytes = bb,
                            .result = p->routine == CHOL_POTRF ? p->Aw : p->Bw,
                            .result_b = p->routine != CHOL_POTRF, .call = hook_device,
                            .check = hook_check, .threshold = THRESHOLD};
    hyla_release_workspace(ctx);
    return run_device(ctx, o, check, &h, failed);
}

/* Runs hyla on one problem (check, warm-up, timed repeats), then the
 * device-resident variant and the vendor, and prints the row. a0 is the
 * matrix for the checks (NULL for potrs on a user factor). */
static cmd_status run_problem(hyla_t *ctx, const cli_opts *o, const report *r, chol_problem *p,
                              const void *a0) {
    hyla_chol_stats stats;
    double n = (double)p->n, mul = dtype_is_complex(p->dtype) ? 4 : 1;
    double f_fact = n * n * n / 3, f_solve = 2 * n * n * (double)p->nrhs;
    report_row row = {.layout = ROW_CHOL, .routine = names[p->routine], .type = p->dtype,
                      .uplo = p->uplo, .n = p->n, .nrhs = solves(p) ? p->nrhs : -1,
                      .flops = mul * ((factors(p) ? f_fact : 0) + (solves(p) ? f_solve : 0)),
                      .time_s = NAN, .vendor_time_s = NAN, .vendor_dev_time_s = NAN,
                      .ours_dev_time_s = NAN, .status = "ok"};
    bool check = o->check && check_possible(p), dev_failed = false;
    if (o->check && !check) row.status = "nocheck";
    if (check)
        row.check = solves(p) ? "residual" : p->n <= CHOL_EXACT_CHECK_MAX ? "exact" : "random";
    chol_run c = {.p = p, .a0 = a0, .seed = o->seed, .o = o};
    const run_hooks h = {.arg = &c, .restore = hook_restore, .call = hook_call,
                         .print_error = hook_error, .numerical = hook_numerical,
                         .check = hook_check, .write = hook_write, .threshold = THRESHOLD};
    cmd_status st = run_calls(ctx, o, r, check, &h, &row);
    if (st != CMD_OK) return st;
    if (o->stats && hyla_get_chol_stats(ctx, &stats) == 0) row.chol_stats = &stats;
    if (o->vs_vendor && r->cuda && r->ndevices == 1)
        row.ours_dev_time_s = ours_device(ctx, o, &c, check, &dev_failed);
    if (o->vs_vendor) {
        vendor_times vt;
        vendor_chol(ctx, p, o->warmup, o->repeat, &vt);
        row.vendor_time_s = vt.time_s;
        row.vendor = vt.name;
    }
    return run_finish(r, &row, THRESHOLD, dev_failed);
}

static cmd_status run_generated(hyla_t *ctx, const cli_opts *o, const report *r, chol_routine rt,
                                hyla_dtype t, char uplo, int64_t n, int64_t nrhs) {
    bool slv = rt != CHOL_POTRF;
    size_t ba, bb;
    if (mat_bytes(t, n, n, &ba) && mat_bytes(t, n, slv ? nrhs : 0, &bb) &&
        !host_fits(2.0 * (double)ba + 2.0 * (double)bb, "A, B and their work copies"))
        return CMD_ERROR;
    void *A0 = mat_alloc(t, n, n, false, "A");
    void *Aw = A0 ? mat_alloc(t, n, n, false, rt == CHOL_POTRS ? "the factor" : "the copy of A") : NULL;
    void *B0 = Aw && slv ? mat_alloc(t, n, nrhs, false, "B") : NULL;
    void *Bw = B0 ? mat_alloc(t, n, nrhs, false, "the copy of B") : NULL;
    cmd_status st = CMD_ERROR;
    if (!Aw || (slv && !Bw)) goto out;
    int64_t ld = max1(n);
    if (o->cond > 0) {
        if (mat_fill_hpd_cond(t, n, A0, ld, o->cond, o->seed, ID_Q)) goto out;
    } else {
        mat_fill_hpd(t, n, A0, ld, o->seed, ID_A);
    }
    if (slv) mat_fill_random(t, n, nrhs, B0, ld, o->seed, ID_B);
    chol_problem p = {.routine = rt, .dtype = t, .uplo = uplo, .n = n, .nrhs = slv ? nrhs : 0,
                      .A = A0, .B = B0, .lda = ld, .ldb = ld, .Aw = Aw, .Bw = Bw};
    if (rt == CHOL_POTRS) {
        /* the factor, by hyla, untimed */
        mat_copy(t, n, n, A0, ld, Aw, ld);
        int info = call_potrf(ctx, t, uplo, n, Aw, ld);
        if (info) {
            fprintf(stderr, "hyla: potrs: factoring the generated matrix: hyla_%cpotrf returned "
                    "%d: %s\n", dtype_char(t), info, hyla_strerror(info));
            st = info > 0 ? CMD_FAILED : CMD_ERROR;
            goto out;
        }
        p.A = Aw;
        p.Aw = NULL;
    }
    st = run_problem(ctx, o, r, &p, A0);
out:
    free(A0);
    free(Aw);
    free(B0);
    free(Bw);
    return st;
}

/* --input: potrf A.npy; posv A.npy,B.npy; potrs L.npy,B.npy (the factor in
 * the --uplo triangle). Type and sizes from the files. */
static cmd_status run_files(hyla_t *ctx, const cli_opts *o, const report *r, chol_routine rt) {
    static const char *const usage[] = {"potrf --input takes A.npy",
                                        "potrs --input takes L.npy,B.npy (the factor of A in the "
                                        "--uplo triangle, and the right-hand sides)",
                                        "posv --input takes A.npy,B.npy"};
    const char *what[2] = {rt == CHOL_POTRS ? "L" : "A", "B"};
    int want = rt == CHOL_POTRF ? 1 : 2;
    hyla_npy in[2] = {{0}};
    void *Aw = NULL, *Bw = NULL;
    cmd_status st = CMD_ERROR;
    if (o->ninputs != want) {
        fprintf(stderr, "hyla: %s\n", usage[rt]);
        return CMD_USAGE;
    }
    if ((st = (cmd_status)cli_read_inputs(o, in, want)) != CMD_OK) goto out;
    st = CMD_USAGE;
    int64_t n = in[0].rows;
    if (in[0].cols != n) {
        fprintf(stderr, "hyla: %s (%s) is %lld x %lld: %s must be square\n", o->inputs[0], what[0],
                (long long)in[0].rows, (long long)in[0].cols,
                rt == CHOL_POTRS ? "a Cholesky factor" : "a Hermitian positive definite matrix");
        goto out;
    }
    if (want == 2 && in[1].dtype != in[0].dtype) {
        fprintf(stderr, "hyla: %s (B) is of type %c but %s (%s) is of type %c\n", o->inputs[1],
                dtype_char(in[1].dtype), o->inputs[0], what[0], dtype_char(in[0].dtype));
        goto out;
    }
    if (want == 2 && in[1].rows != n) {
        fprintf(stderr, "hyla: %s (B) has %lld rows but %s (%s) is %lld x %lld\n", o->inputs[1],
                (long long)in[1].rows, o->inputs[0], what[0], (long long)n, (long long)n);
        goto out;
    }
    st = CMD_ERROR;
    hyla_dtype t = in[0].dtype;
    int64_t nrhs = want == 2 ? in[1].cols : 0;
    if (rt != CHOL_POTRS && !(Aw = mat_alloc(t, n, n, false, "the copy of A"))) goto out;
    if (want == 2 && !(Bw = mat_alloc(t, n, nrhs, false, "the copy of B"))) goto out;
    cmd_status worst = CMD_OK;
    for (int u = 0; u < o->nuplo; u++) {
        chol_problem p = {.routine = rt, .dtype = t, .uplo = o->uplo[u], .n = n, .nrhs = nrhs,
                          .A = in[0].data, .B = want == 2 ? in[1].data : NULL, .lda = max1(n),
                          .ldb = max1(n), .Aw = Aw, .Bw = Bw};
        if (run_merge(&worst, run_problem(ctx, o, r, &p, rt == CHOL_POTRS ? NULL : in[0].data)))
            break;
    }
    st = worst;
out:
    free(Aw);
    free(Bw);
    for (int i = 0; i < 2; i++) hyla_npy_free(&in[i]);
    return st;
}

static cmd_status run_all(hyla_t *ctx, const cli_opts *o, const report *r, chol_routine rt) {
    if (o->ninputs) return run_files(ctx, o, r, rt);
    int runs = rt == CHOL_POTRF ? o->n.count : cli_nrhs_runs(o);
    if (o->cond > 0)
        for (int i = 0; i < o->n.count; i++)
            if (o->n.v[i] > MAT_COND_MAX_N) {
                fprintf(stderr, "hyla: --cond builds A = Q D Q^H in O(n^3) time and takes n <= %d "
                        "(-n %lld)\n", MAT_COND_MAX_N, (long long)o->n.v[i]);
                return CMD_USAGE;
            }
    cmd_status worst = CMD_OK;
    for (int t = 0; t < o->ntypes; t++)
        for (int u = 0; u < o->nuplo; u++)
            for (int i = 0; i < runs; i++) {
                int64_t n = rt == CHOL_POTRF ? cli_n(o, i) : cli_solve_n(o, i);
                int64_t nrhs = rt == CHOL_POTRF ? 0 : cli_solve_nrhs(o, i);
                if (run_merge(&worst, run_generated(ctx, o, r, rt, o->types[t], o->uplo[u], n,
                                                    nrhs)))
                    return worst;
            }
    return worst;
}

cmd_status cmd_potrf(hyla_t *ctx, const cli_opts *o, const report *r) {
    return run_all(ctx, o, r, CHOL_POTRF);
}

cmd_status cmd_potrs(hyla_t *ctx, const cli_opts *o, const report *r) {
    return run_all(ctx, o, r, CHOL_POTRS);
}

cmd_status cmd_posv(hyla_t *ctx, const cli_opts *o, const report *r) {
    return run_all(ctx, o, r, CHOL_POSV);
}
