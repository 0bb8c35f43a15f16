/* hyla getrf, getrs, gesv: LU factorization with partial pivoting and its
 * solves on generated or user matrices, timed, checked and compared with
 * the vendor.
 *
 * Checks (LAPACK's measures; pass below 60):
 *   getrf        |P A - L U|_1 / (max(m,n) |A|_1 eps) for max(m,n) <=
 *                LU_EXACT_CHECK_MAX; beyond, |P A x - L (U x)|_inf /
 *                (max(m,n) |A|_inf |x|_inf eps) with a random x, O(n^2);
 *   getrs, gesv  the largest over the columns j of
 *                |b_j - op(A) x_j|_inf / (n |op(A)|_inf |x_j|_inf eps).
 * Generated matrices have entries uniform in (-1, 1) (O(n^2)); getrs
 * factors its matrix with hyla_?getrf first, untimed, unless it is given a
 * factor (--input LU.npy,ipiv.npy,B.npy), whose check then compares against
 * A = P L U formed from it (O(n^3)).
 * Pivots go to and come from .npy files as float64 column vectors of the
 * 1-based LAPACK pivots (hyla_npy has no integer dtype; float64 holds every
 * index exactly up to 2^53). */
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

enum { ID_A = 21, ID_B = 22, ID_X = 23, VEC_PAD = 8 };

static const double THRESHOLD = 60;
static const char *const names[] = {"getrf", "getrs", "gesv"};

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }
static int64_t kmin(const lu_problem *p) { return p->m < p->n ? p->m : p->n; }
static bool factors(const lu_problem *p) { return p->routine != LU_GETRS; }
static bool solves(const lu_problem *p) { return p->routine != LU_GETRF; }

/* ---------------------------------------------------------------- hyla calls */

static int call_getrf(hyla_t *ctx, hyla_dtype t, int64_t m, int64_t n, void *a, int64_t lda,
                      int64_t *ipiv) {
    switch (t) {
    case HYLA_S: return hyla_sgetrf(ctx, m, n, a, lda, ipiv);
    case HYLA_D: return hyla_dgetrf(ctx, m, n, a, lda, ipiv);
    case HYLA_C: return hyla_cgetrf(ctx, m, n, a, lda, ipiv);
    case HYLA_Z: return hyla_zgetrf(ctx, m, n, a, lda, ipiv);
    }
    return HYLA_ERR_INTERNAL;
}

static int call_getrs(hyla_t *ctx, hyla_dtype t, char tr, int64_t n, int64_t nrhs, const void *a,
                      int64_t lda, const int64_t *ipiv, void *b, int64_t ldb) {
    switch (t) {
    case HYLA_S: return hyla_sgetrs(ctx, tr, n, nrhs, a, lda, ipiv, b, ldb);
    case HYLA_D: return hyla_dgetrs(ctx, tr, n, nrhs, a, lda, ipiv, b, ldb);
    case HYLA_C: return hyla_cgetrs(ctx, tr, n, nrhs, a, lda, ipiv, b, ldb);
    case HYLA_Z: return hyla_zgetrs(ctx, tr, n, nrhs, a, lda, ipiv, b, ldb);
    }
    return HYLA_ERR_INTERNAL;
}

static int call_gesv(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t nrhs, void *a, int64_t lda,
                     int64_t *ipiv, void *b, int64_t ldb) {
    switch (t) {
    case HYLA_S: return hyla_sgesv(ctx, n, nrhs, a, lda, ipiv, b, ldb);
    case HYLA_D: return hyla_dgesv(ctx, n, nrhs, a, lda, ipiv, b, ldb);
    case HYLA_C: return hyla_cgesv(ctx, n, nrhs, a, lda, ipiv, b, ldb);
    case HYLA_Z: return hyla_zgesv(ctx, n, nrhs, a, lda, ipiv, b, ldb);
    }
    return HYLA_ERR_INTERNAL;
}

static int call_getrf_gpu(hyla_t *ctx, hyla_dtype t, int64_t m, int64_t n, void *a, int64_t lda,
                          int64_t *ipiv) {
    switch (t) {
    case HYLA_S: return hyla_sgetrf_gpu(ctx, 0, m, n, a, lda, ipiv);
    case HYLA_D: return hyla_dgetrf_gpu(ctx, 0, m, n, a, lda, ipiv);
    case HYLA_C: return hyla_cgetrf_gpu(ctx, 0, m, n, a, lda, ipiv);
    case HYLA_Z: return hyla_zgetrf_gpu(ctx, 0, m, n, a, lda, ipiv);
    }
    return HYLA_ERR_INTERNAL;
}

static int call_getrs_gpu(hyla_t *ctx, hyla_dtype t, char tr, int64_t n, int64_t nrhs,
                          const void *a, int64_t lda, const int64_t *ipiv, void *b, int64_t ldb) {
    switch (t) {
    case HYLA_S: return hyla_sgetrs_gpu(ctx, 0, tr, n, nrhs, a, lda, ipiv, b, ldb);
    case HYLA_D: return hyla_dgetrs_gpu(ctx, 0, tr, n, nrhs, a, lda, ipiv, b, ldb);
    case HYLA_C: return hyla_cgetrs_gpu(ctx, 0, tr, n, nrhs, a, lda, ipiv, b, ldb);
    case HYLA_Z: return hyla_zgetrs_gpu(ctx, 0, tr, n, nrhs, a, lda, ipiv, b, ldb);
    }
    return HYLA_ERR_INTERNAL;
}

/* The routine of p on the work copies Aw, Bw (getrs: on the factor A). */
static int call_hyla(hyla_t *ctx, const lu_problem *p, int64_t *ipiv) {
    switch (p->routine) {
    case LU_GETRF: return call_getrf(ctx, p->dtype, p->m, p->n, p->Aw, p->lda, ipiv);
    case LU_GETRS:
        return call_getrs(ctx, p->dtype, p->trans, p->n, p->nrhs, p->A, p->lda, p->ipiv, p->Bw,
                          p->ldb);
    case LU_GESV: return call_gesv(ctx, p->dtype, p->n, p->nrhs, p->Aw, p->lda, ipiv, p->Bw, p->ldb);
    }
    return HYLA_ERR_INTERNAL;
}

static void restore(const lu_problem *p) {
    if (factors(p)) mat_copy(p->dtype, p->m, p->n, p->A, p->lda, p->Aw, p->lda);
    if (solves(p)) mat_copy(p->dtype, p->n, p->nrhs, p->B, p->ldb, p->Bw, p->ldb);
}

/* ---------------------------------------------------------------- BLAS helpers */

static const void *scal(hyla_dtype t, int v) {
    static const float s[3] = {-1, 0, 1};
    static const double d[3] = {-1, 0, 1};
    static const hyla_complex_float c[3] = {-1, 0, 1};
    static const hyla_complex_double z[3] = {-1, 0, 1};
    const void *p[4] = {&s[v + 1], &d[v + 1], &c[v + 1], &z[v + 1]};
    return p[t];
}

/* C := beta C + alpha op(A) B */
static void gemm(hyla_dtype t, CBLAS_TRANSPOSE ta, int64_t m, int64_t n, int64_t k, int alpha,
                 const void *a, int64_t lda, const void *b, int64_t ldb, int beta, void *c,
                 int64_t ldc) {
    const int M = (int)m, N = (int)n, K = (int)k, la = (int)lda, lb = (int)ldb, lc = (int)ldc;
    if (m == 0 || n == 0) return;
    switch (t) {
    case HYLA_S:
        cblas_sgemm(CblasColMajor, ta, CblasNoTrans, M, N, K, (float)alpha, a, la, b, lb,
                    (float)beta, c, lc);
        break;
    case HYLA_D:
        cblas_dgemm(CblasColMajor, ta, CblasNoTrans, M, N, K, alpha, a, la, b, lb, beta, c, lc);
        break;
    case HYLA_C:
        cblas_cgemm(CblasColMajor, ta, CblasNoTrans, M, N, K, scal(t, alpha), a, la, b, lb,
                    scal(t, beta), c, lc);
        break;
    case HYLA_Z:
        cblas_zgemm(CblasColMajor, ta, CblasNoTrans, M, N, K, scal(t, alpha), a, la, b, lb,
                    scal(t, beta), c, lc);
        break;
    }
}

/* x := op(T) x, T the k x k triangle (uplo, diag) of a. */
static void trmv(hyla_dtype t, CBLAS_UPLO u, CBLAS_DIAG dg, int64_t k, const void *a, int64_t lda,
                 void *x) {
    const int K = (int)k, la = (int)lda;
    if (k == 0) return;
    switch (t) {
    case HYLA_S: cblas_strmv(CblasColMajor, u, CblasNoTrans, dg, K, a, la, x, 1); break;
    case HYLA_D: cblas_dtrmv(CblasColMajor, u, CblasNoTrans, dg, K, a, la, x, 1); break;
    case HYLA_C: cblas_ctrmv(CblasColMajor, u, CblasNoTrans, dg, K, a, la, x, 1); break;
    case HYLA_Z: cblas_ztrmv(CblasColMajor, u, CblasNoTrans, dg, K, a, la, x, 1); break;
    }
}

/* Rows i and ipiv[i]-1 swapped for i < k in the n columns of a (ld lda). */
static void swap_rows(hyla_dtype t, int64_t k, const int64_t *ipiv, int64_t n, void *a,
                      int64_t lda) {
    const size_t es = dtype_size(t);
    unsigned char tmp[16];
    for (int64_t j = 0; j < n; j++) {
        unsigned char *col = (unsigned char *)a + (size_t)j * (size_t)lda * es;
        for (int64_t i = 0; i < k; i++) {
            const int64_t p = ipiv[i] - 1;
            if (p == i) continue;
            memcpy(tmp, col + (size_t)i * es, es);
            memcpy(col + (size_t)i * es, col + (size_t)p * es, es);
            memcpy(col + (size_t)p * es, tmp, es);
        }
    }
}

/* The same interchanges undone: rows i and ipiv[i]-1 for i = k-1 .. 0. */
static void swap_rows_back(hyla_dtype t, int64_t k, const int64_t *ipiv, int64_t n, void *a,
                           int64_t lda) {
    const size_t es = dtype_size(t);
    unsigned char tmp[16];
    for (int64_t j = 0; j < n; j++) {
        unsigned char *col = (unsigned char *)a + (size_t)j * (size_t)lda * es;
        for (int64_t i = k - 1; i >= 0; i--) {
            const int64_t p = ipiv[i] - 1;
            if (p == i) continue;
            memcpy(tmp, col + (size_t)i * es, es);
            memcpy(col + (size_t)i * es, col + (size_t)p * es, es);
            memcpy(col + (size_t)p * es, tmp, es);
        }
    }
}

/* ---------------------------------------------------------------- checks */

static bool check_possible(const lu_problem *p) {
    const int64_t dims[] = {p->m, p->n, p->nrhs, p->lda, p->ldb};
    for (int i = 0; i < 5; i++)
        if (dims[i] > INT_MAX) return false;
    return true;
}

static bool pivots_valid(const lu_problem *p, const int64_t *ipiv) {
    for (int64_t i = 0; i < kmin(p); i++)
        if (ipiv[i] < 1 || ipiv[i] > p->m) return false;
    return true;
}

/* |P A0 - L U|_1 / (max(m,n) |A0|_1 eps), F = the factors (ld lda). */
static int check_getrf_exact(const lu_problem *p, const void *a0, const void *f,
                             const int64_t *ipiv, double *err) {
    const hyla_dtype t = p->dtype;
    const int64_t m = p->m, n = p->n, k = kmin(p);
    const size_t es = dtype_size(t);
    void *L = mat_alloc(t, m, k, true, "the check factor L");
    void *U = L ? mat_alloc(t, k, n, true, "the check factor U") : NULL;
    void *W = U ? mat_alloc(t, m, n, false, "the check matrix P A") : NULL;
    if (!W) {
        free(L);
        free(U);
        return -1;
    }
    for (int64_t j = 0; j < k; j++) { /* L: unit diagonal, below it from f */
        memcpy((char *)L + ((size_t)j * (size_t)m + (size_t)j) * es, scal(t, 1), es);
        memcpy((char *)L + ((size_t)j * (size_t)m + (size_t)j + 1) * es,
               (const char *)f + ((size_t)j * (size_t)p->lda + (size_t)j + 1) * es,
               (size_t)(m - j - 1) * es);
    }
    for (int64_t j = 0; j < n; j++) {
        int64_t rows = j + 1 < k ? j + 1 : k;
        memcpy((char *)U + (size_t)j * (size_t)k * es, (const char *)f + (size_t)j * (size_t)p->lda * es,
               (size_t)rows * es);
    }
    mat_copy(t, m, n, a0, p->lda, W, max1(m));
    swap_rows(t, k, ipiv, n, W, max1(m));
    gemm(t, CblasNoTrans, m, n, k, -1, L, max1(m), U, max1(k), 1, W, max1(m));
    double diff = mat_norm_inf(t, 'T', m, n, W, max1(m));
    double norm = mat_norm_inf(t, 'T', m, n, a0, p->lda);
    *err = scaled_error(diff, (double)max1(m > n ? m : n) * norm * dtype_eps(t));
    free(L);
    free(U);
    free(W);
    return 0;
}

/* |P A0 x - L (U x)|_inf / (max(m,n) |A0|_inf |x|_inf eps) with a random x. */
static int check_getrf_random(const lu_problem *p, const void *a0, const void *f,
                              const int64_t *ipiv, uint64_t seed, double *err) {
    const hyla_dtype t = p->dtype;
    const int64_t m = p->m, n = p->n, k = kmin(p), ld = p->lda;
    const size_t es = dtype_size(t);
    void *x = mat_alloc(t, n + VEC_PAD, 1, true, "the check vector x");
    void *y = x ? mat_alloc(t, m + VEC_PAD, 1, true, "the check vector P A x") : NULL;
    void *z = y ? mat_alloc(t, m + VEC_PAD, 1, true, "the check vector L U x") : NULL;
    if (!z) {
        free(x);
        free(y);
        return -1;
    }
    mat_fill_random(t, n, 1, x, max1(n), seed, ID_X);
    gemm(t, CblasNoTrans, m, 1, n, 1, a0, ld, x, max1(n), 0, y, max1(m));
    swap_rows(t, k, ipiv, 1, y, max1(m));
    /* z[0:k] = U[:, 0:k] x[0:k] + U[:, k:n] x[k:n] */
    memcpy(z, x, (size_t)k * es);
    trmv(t, CblasUpper, CblasNonUnit, k, f, ld, z);
    if (n > k) gemm(t, CblasNoTrans, k, 1, n - k, 1, (const char *)f + (size_t)k * (size_t)ld * es,
                    ld, (const char *)x + (size_t)k * es, max1(n - k), 1, z, max1(m));
    /* z[k:m] = L[k:m, 0:k] z[0:k] (before z[0:k] changes), z[0:k] = L[0:k, 0:k] z[0:k] */
    if (m > k) gemm(t, CblasNoTrans, m - k, 1, k, 1, (const char *)f + (size_t)k * es, ld, z,
                    max1(k), 0, (char *)z + (size_t)k * es, max1(m - k));
    trmv(t, CblasLower, CblasUnit, k, f, ld, z);
    for (int64_t i = 0; i < m; i++) { /* y -= z */
        switch (t) {
        case HYLA_S: ((float *)y)[i] -= ((float *)z)[i]; break;
        case HYLA_D: ((double *)y)[i] -= ((double *)z)[i]; break;
        case HYLA_C: ((hyla_complex_float *)y)[i] -= ((hyla_complex_float *)z)[i]; break;
        case HYLA_Z: ((hyla_complex_double *)y)[i] -= ((hyla_complex_double *)z)[i]; break;
        }
    }
    double scale = (double)max1(m > n ? m : n) * mat_norm_inf(t, 'N', m, n, a0, ld) *
                   mat_max_abs(t, x, n) * dtype_eps(t);
    *err = scaled_error(mat_max_abs(t, y, m), scale);
    free(x);
    free(y);
    free(z);
    return 0;
}

/* max_j |b_j - op(A0) x_j|_inf / (n |op(A0)|_inf |x_j|_inf eps) */
static int check_solve(const lu_problem *p, const void *a0, const void *x, double *err) {
    const hyla_dtype t = p->dtype;
    const int64_t n = p->n, nrhs = p->nrhs;
    void *r = mat_alloc(t, n, nrhs, false, "the check residual");
    if (!r) return -1;
    mat_copy(t, n, nrhs, p->B, p->ldb, r, max1(n));
    gemm(t, cblas_trans(p->trans), n, nrhs, n, -1, a0, p->lda, x, p->ldb, 1, r, max1(n));
    const double norm_a = mat_norm_inf(t, p->trans, n, n, a0, p->lda);
    *err = solve_error(t, n, nrhs, r, max1(n), x, p->ldb, norm_a);
    free(r);
    return 0;
}

/* a0: the matrix; the result is in Aw + ipiv (getrf) or Bw (solves). */
static int check_result(const lu_problem *p, const void *a0, const int64_t *ipiv, uint64_t seed,
                        double *err) {
    *err = 0;
    if (kmin(p) == 0 || (solves(p) && p->nrhs == 0)) return 0;
    if (solves(p)) return check_solve(p, a0, p->Bw, err);
    if (!pivots_valid(p, ipiv)) {
        *err = INFINITY;
        return 0;
    }
    if ((p->m > p->n ? p->m : p->n) <= LU_EXACT_CHECK_MAX)
        return check_getrf_exact(p, a0, p->Aw, ipiv, err);
    return check_getrf_random(p, a0, p->Aw, ipiv, seed, err);
}

/* ---------------------------------------------------------------- runs */

/* --output: getrf LU.npy[,ipiv.npy] (the 1-based pivots as a float64 1-D
 * array), the solves X.npy; all or none. Reports failures. */
static int write_outputs(const cli_opts *o, const lu_problem *p, const int64_t *ipiv) {
    if (p->routine != LU_GETRF) {
        const out_item x = {p->dtype, p->n, p->nrhs, p->ldb, p->Bw, false};
        return out_write(o, 1, &x);
    }
    const int64_t k = kmin(p);
    double *v = malloc(sizeof *v * (size_t)max1(k));
    if (!v) {
        fputs("hyla: cannot write the pivots: out of memory\n", stderr);
        return HYLA_ERR_NO_MEMORY;
    }
    for (int64_t i = 0; i < k; i++) v[i] = (double)ipiv[i];
    const out_item items[2] = {{p->dtype, p->m, p->n, p->lda, p->Aw, false},
                               {HYLA_D, k, 1, max1(k), v, true}};
    int rc = out_write(o, o->noutputs, items);
    free(v);
    return rc;
}

static double lu_flops(const lu_problem *p) {
    const double m = (double)p->m, n = (double)p->n, k = (double)kmin(p);
    const double mul = dtype_is_complex(p->dtype) ? 4 : 1;
    double f = 0;
    if (factors(p)) f += 2 * (m * n * k - (m + n) * k * k / 2 + k * k * k / 3);
    if (solves(p)) f += 2 * n * n * (double)p->nrhs;
    return mul * f;
}

/* run_calls hooks: arg is an lu_run. */
typedef struct {
    lu_problem *p;
    int64_t *ipiv;
    const void *a0;
    const cli_opts *o;
} lu_run;

static void hook_restore(void *arg) { restore(((lu_run *)arg)->p); }

static int hook_call(hyla_t *ctx, void *arg) {
    const lu_run *c = arg;
    return call_hyla(ctx, c->p, c->ipiv);
}

static void hook_error(void *arg, int info) {
    const lu_problem *p = ((lu_run *)arg)->p;
    char args[80];
    if (p->routine == LU_GETRF)
        snprintf(args, sizeof args, "m=%lld, n=%lld", (long long)p->m, (long long)p->n);
    else if (p->routine == LU_GETRS)
        snprintf(args, sizeof args, "trans=%c, n=%lld, nrhs=%lld", p->trans, (long long)p->n,
                 (long long)p->nrhs);
    else
        snprintf(args, sizeof args, "n=%lld, nrhs=%lld", (long long)p->n, (long long)p->nrhs);
    fprintf(stderr, "hyla: hyla_%c%s(%s) returned %d: %s\n", dtype_char(p->dtype),
            names[p->routine], args, info, hyla_strerror(info));
}

static const char *hook_numerical(void *arg, const report_row *row) {
    const lu_problem *p = ((lu_run *)arg)->p;
    fprintf(stderr, "hyla: hyla_%c%s(n=%lld): U(%d,%d) is exactly zero: the matrix is "
            "singular\n", dtype_char(p->dtype), names[p->routine], (long long)p->n, row->info,
            row->info);
    return row->has_error && !(row->error < THRESHOLD) ? "FAILED" : "singular";
}

static int hook_check(void *arg, double *err) {
    const lu_run *c = arg;
    return check_result(c->p, c->a0, c->ipiv, c->o->seed, err);
}

static int hook_write(void *arg) {
    const lu_run *c = arg;
    return write_outputs(c->o, c->p, c->ipiv);
}

static int hook_device(hyla_t *ctx, void *arg, void *dA, void *dB) {
    const lu_run *c = arg;
    const lu_problem *p = c->p;
    const int64_t ldd = max1(p->m);
    int rc = 0;
    if (factors(p)) rc = call_getrf_gpu(ctx, p->dtype, p->m, p->n, dA, ldd, c->ipiv);
    if (!rc && solves(p))
        rc = call_getrs_gpu(ctx, p->dtype, p->trans, p->n, p->nrhs, dA, ldd, c->ipiv, dB, p->n);
    return rc;
}

/* hyla_?getrf_gpu / ?getrs_gpu on device 0 with copies of the inputs
 * (run_device, after releasing hyla's cached workspaces), with pivots of
 * their own; the first result is checked. */
static double ours_device(hyla_t *ctx, const cli_opts *o, const lu_run *c, bool check,
                          bool *failed) {
    const lu_problem *p = c->p;
    size_t ba = 0, bb = 0;
    if (kmin(p) == 0) return NAN;
    int64_t *ipiv = malloc(sizeof *ipiv * (size_t)kmin(p));
    if (!ipiv) return NAN;
    if (!factors(p)) memcpy(ipiv, p->ipiv, sizeof *ipiv * (size_t)kmin(p));
    mat_bytes(p->dtype, max1(p->m), p->n, &ba);
    if (solves(p)) mat_bytes(p->dtype, p->n, p->nrhs, &bb);
    lu_run d = *c;
    d.ipiv = ipiv;
    const device_hooks h = {.arg = &d, .dtype = p->dtype, .name = names[p->routine], .A = p->A,
                            .a_bytes = ba, .a_each = factors(p), .B = solves(p) ? p->B : NULL,
                            .b_bytes = bb, .result = p->routine == LU_GETRF ? p->Aw : p->Bw,
                            .result_b = p->routine != LU_GETRF, .call = hook_device,
                            .check = hook_check, .threshold = THRESHOLD};
    hyla_release_workspace(ctx);
    double med = run_device(ctx, o, check, &h, failed);
    free(ipiv);
    return med;
}

static cmd_status run_problem(hyla_t *ctx, const cli_opts *o, const report *r, lu_problem *p,
                              const void *a0) {
    report_row row = {.layout = ROW_CHOL, .routine = names[p->routine], .type = p->dtype,
                      .uplo = solves(p) ? p->trans : '-', .m = p->m, .n = p->n,
                      .nrhs = solves(p) ? p->nrhs : -1, .flops = lu_flops(p), .time_s = NAN,
                      .vendor_time_s = NAN, .vendor_dev_time_s = NAN, .ours_dev_time_s = NAN,
                      .status = "ok"};
    bool check = o->check && check_possible(p), dev_failed = false;
    hyla_lu_stats stats;
    if (o->check && !check) row.status = "nocheck";
    if (check)
        row.check = solves(p) ? "residual"
                    : (p->m > p->n ? p->m : p->n) <= LU_EXACT_CHECK_MAX ? "exact" : "random";
    int64_t *ipiv = malloc(sizeof *ipiv * (size_t)max1(kmin(p)));
    if (!ipiv) {
        fputs("hyla: out of memory\n", stderr);
        return CMD_ERROR;
    }
    lu_run c = {.p = p, .ipiv = ipiv, .a0 = a0, .o = o};
    const run_hooks h = {.arg = &c, .restore = hook_restore, .call = hook_call,
                         .print_error = hook_error, .numerical = hook_numerical,
                         .check_numerical = p->routine == LU_GETRF,
                         .write_numerical = p->routine == LU_GETRF, .check = hook_check,
                         .write = hook_write, .threshold = THRESHOLD};
    cmd_status st = run_calls(ctx, o, r, check, &h, &row);
    if (st != CMD_OK) goto out;
    if (o->stats && hyla_get_lu_stats(ctx, &stats) == 0) row.lu_stats = &stats;
    if (o->vs_vendor && r->cuda && r->ndevices == 1)
        row.ours_dev_time_s = ours_device(ctx, o, &c, check, &dev_failed);
    if (o->vs_vendor) {
        vendor_times vt;
        vendor_lu(ctx, p, o->warmup, o->repeat, &vt);
        row.vendor_time_s = vt.time_s;
        row.vendor = vt.name;
    }
    st = run_finish(r, &row, THRESHOLD, dev_failed);
out:
    free(ipiv);
    return st;
}

/* A (m x n, ld m) and, for the solves, B (n x nrhs); getrs factors A first
 * unless F0 (n x n, ld n) and piv0 give its factor. */
static cmd_status run_matrices(hyla_t *ctx, const cli_opts *o, const report *r, lu_routine rt,
                               hyla_dtype t, int64_t m, int64_t n, int64_t nrhs, const void *A0,
                               const void *B0, const void *F0, const int64_t *piv0) {
    const bool slv = rt != LU_GETRF;
    const int64_t ld = max1(m), k = m < n ? m : n;
    void *Aw = mat_alloc(t, m, n, false, rt == LU_GETRS ? "the factor" : "the copy of A");
    void *Bw = Aw && slv ? mat_alloc(t, n, nrhs, false, "the copy of B") : NULL;
    int64_t *ipiv = malloc(sizeof *ipiv * (size_t)max1(k));
    cmd_status st = CMD_ERROR;
    if (!Aw || (slv && !Bw) || !ipiv) goto out;
    lu_problem p = {.routine = rt, .dtype = t, .trans = o->transa, .m = m, .n = n,
                    .nrhs = slv ? nrhs : 0, .A = A0, .B = B0, .lda = ld, .ldb = max1(n),
                    .Aw = Aw, .Bw = Bw};
    if (rt == LU_GETRS && F0) {
        mat_copy(t, n, n, F0, ld, Aw, ld);
        memcpy(ipiv, piv0, sizeof *ipiv * (size_t)n);
        p.A = Aw;
        p.ipiv = ipiv;
        p.Aw = NULL;
    } else if (rt == LU_GETRS) { /* the factor, by hyla, untimed */
        mat_copy(t, n, n, A0, ld, Aw, ld);
        int info = call_getrf(ctx, t, n, n, Aw, ld, ipiv);
        if (info) {
            fprintf(stderr, "hyla: getrs: factoring the matrix: hyla_%cgetrf returned %d%s%s\n",
                    dtype_char(t), info, info > 0 ? " (singular)" : ": ",
                    info > 0 ? "" : hyla_strerror(info));
            st = info > 0 ? CMD_FAILED : CMD_ERROR;
            goto out;
        }
        p.A = Aw;
        p.ipiv = ipiv;
        p.Aw = NULL;
    }
    st = run_problem(ctx, o, r, &p, A0);
out:
    free(Aw);
    free(Bw);
    free(ipiv);
    return st;
}

static cmd_status run_generated(hyla_t *ctx, const cli_opts *o, const report *r, lu_routine rt,
                                hyla_dtype t, int64_t m, int64_t n, int64_t nrhs) {
    const bool slv = rt != LU_GETRF;
    size_t ba, bb;
    if (mat_bytes(t, m, n, &ba) && mat_bytes(t, n, slv ? nrhs : 0, &bb) &&
        !host_fits(2.0 * (double)ba + 2.0 * (double)bb, "A, B and their work copies"))
        return CMD_ERROR;
    void *A0 = mat_alloc(t, m, n, false, "A");
    void *B0 = A0 && slv ? mat_alloc(t, n, nrhs, false, "B") : NULL;
    cmd_status st = CMD_ERROR;
    if (A0 && (!slv || B0)) {
        mat_fill_random(t, m, n, A0, max1(m), o->seed, ID_A);
        if (slv) mat_fill_random(t, n, nrhs, B0, max1(n), o->seed, ID_B);
        st = run_matrices(ctx, o, r, rt, t, m, n, nrhs, A0, B0, NULL, NULL);
    }
    free(A0);
    free(B0);
    return st;
}

/* The pivots of an n x n factor from a float64 .npy vector (see the top of
 * the file): n integral values in 1 .. n. Reports failures. */
static int64_t *read_pivots(const char *path, const hyla_npy *v, int64_t n) {
    if (v->dtype != HYLA_D || (v->rows != 1 && v->cols != 1) || v->rows * v->cols != n) {
        fprintf(stderr, "hyla: %s (ipiv) must be a float64 vector of %lld pivots\n", path,
                (long long)n);
        return NULL;
    }
    int64_t *ipiv = malloc(sizeof *ipiv * (size_t)max1(n));
    if (!ipiv) {
        fputs("hyla: out of memory\n", stderr);
        return NULL;
    }
    const double *d = v->data;
    for (int64_t i = 0; i < n; i++) {
        if (!(d[i] >= 1 && d[i] <= (double)n && d[i] == floor(d[i]))) {
            fprintf(stderr, "hyla: %s (ipiv): entry %lld is %g, not a row in 1 .. %lld\n", path,
                    (long long)i, d[i], (long long)n);
            free(ipiv);
            return NULL;
        }
        ipiv[i] = (int64_t)d[i];
    }
    return ipiv;
}

/* A = P L U formed from the n x n factor F (ld n) and its pivots, for the
 * check of a given factor. NULL on failure (reported). */
static void *form_a(hyla_dtype t, int64_t n, const void *F, const int64_t *ipiv) {
    const size_t es = dtype_size(t);
    void *L = mat_alloc(t, n, n, true, "L"), *U = L ? mat_alloc(t, n, n, true, "U") : NULL;
    void *A = U ? mat_alloc(t, n, n, false, "A = P L U") : NULL;
    if (A) {
        for (int64_t j = 0; j < n; j++) {
            const unsigned char *f = (const unsigned char *)F + (size_t)(j * n) * es;
            unsigned char *l = (unsigned char *)L + (size_t)(j * n) * es;
            memcpy((unsigned char *)U + (size_t)(j * n) * es, f, (size_t)(j + 1) * es);
            memcpy(l + (size_t)j * es, scal(t, 1), es);
            memcpy(l + (size_t)(j + 1) * es, f + (size_t)(j + 1) * es, (size_t)(n - j - 1) * es);
        }
        gemm(t, CblasNoTrans, n, n, n, 1, L, n, U, n, 0, A, n);
        swap_rows_back(t, n, ipiv, n, A, n);
    }
    free(L);
    free(U);
    return A;
}

/* getrs --input LU.npy,ipiv.npy,B.npy: the solve with a given factor. */
static cmd_status run_factor_files(hyla_t *ctx, const cli_opts *o, const report *r) {
    hyla_npy in[3] = {{0}};
    int64_t *ipiv = NULL;
    void *A = NULL;
    cmd_status st = CMD_ERROR;
    if ((st = (cmd_status)cli_read_inputs(o, in, 3)) != CMD_OK) goto out;
    st = CMD_USAGE;
    const int64_t n = in[0].rows;
    if (in[0].cols != n) {
        fprintf(stderr, "hyla: %s (LU) is %lld x %lld: a solve needs a square factor\n",
                o->inputs[0], (long long)n, (long long)in[0].cols);
        goto out;
    }
    if (in[2].dtype != in[0].dtype || in[2].rows != n) {
        fprintf(stderr, "hyla: %s (B) must be of type %c with %lld rows, as %s (LU)\n",
                o->inputs[2], dtype_char(in[0].dtype), (long long)n, o->inputs[0]);
        goto out;
    }
    if (!(ipiv = read_pivots(o->inputs[1], &in[1], n))) goto out;
    st = CMD_ERROR;
    if (!(A = form_a(in[0].dtype, n, in[0].data, ipiv))) goto out;
    st = run_matrices(ctx, o, r, LU_GETRS, in[0].dtype, n, n, in[2].cols, A, in[2].data,
                      in[0].data, ipiv);
out:
    free(A);
    free(ipiv);
    for (int i = 0; i < 3; i++) hyla_npy_free(&in[i]);
    return st;
}

/* --input: getrf A.npy (any shape); getrs and gesv A.npy,B.npy (A square;
 * getrs factors A first, untimed); getrs LU.npy,ipiv.npy,B.npy. */
static cmd_status run_files(hyla_t *ctx, const cli_opts *o, const report *r, lu_routine rt) {
    static const char *const usage[] = {
        "getrf --input takes A.npy",
        "getrs --input takes A.npy,B.npy (A is factored first) or LU.npy,ipiv.npy,B.npy",
        "gesv --input takes A.npy,B.npy"};
    const int want = rt == LU_GETRF ? 1 : 2;
    hyla_npy in[2] = {{0}};
    cmd_status st = CMD_ERROR;
    if (rt == LU_GETRS && o->ninputs == 3) return run_factor_files(ctx, o, r);
    if (o->ninputs != want) {
        fprintf(stderr, "hyla: %s\n", usage[rt]);
        return CMD_USAGE;
    }
    if ((st = (cmd_status)cli_read_inputs(o, in, want)) != CMD_OK) goto out;
    st = CMD_USAGE;
    if (want == 2 && in[0].cols != in[0].rows) {
        fprintf(stderr, "hyla: %s (A) is %lld x %lld: a solve needs a square matrix\n",
                o->inputs[0], (long long)in[0].rows, (long long)in[0].cols);
        goto out;
    }
    if (want == 2 && in[1].dtype != in[0].dtype) {
        fprintf(stderr, "hyla: %s (B) is of type %c but %s (A) is of type %c\n", o->inputs[1],
                dtype_char(in[1].dtype), o->inputs[0], dtype_char(in[0].dtype));
        goto out;
    }
    if (want == 2 && in[1].rows != in[0].rows) {
        fprintf(stderr, "hyla: %s (B) has %lld rows but %s (A) is %lld x %lld\n", o->inputs[1],
                (long long)in[1].rows, o->inputs[0], (long long)in[0].rows, (long long)in[0].cols);
        goto out;
    }
    st = run_matrices(ctx, o, r, rt, in[0].dtype, in[0].rows, in[0].cols,
                      want == 2 ? in[1].cols : 0, in[0].data, want == 2 ? in[1].data : NULL,
                      NULL, NULL);
out:
    for (int i = 0; i < 2; i++) hyla_npy_free(&in[i]);
    return st;
}

static cmd_status run_all(hyla_t *ctx, const cli_opts *o, const report *r, lu_routine rt) {
    if (rt != LU_GETRF && o->transa != 'N' && rt == LU_GESV) {
        fputs("hyla: gesv solves A X = B: --transa applies to getrs only\n", stderr);
        return CMD_USAGE;
    }
    if (o->ninputs) return run_files(ctx, o, r, rt);
    const int runs = rt == LU_GETRF ? o->n.count : cli_nrhs_runs(o);
    cmd_status worst = CMD_OK;
    for (int t = 0; t < o->ntypes; t++)
        for (int i = 0; i < runs; i++) {
            const int64_t n = rt == LU_GETRF ? cli_n(o, i) : cli_solve_n(o, i);
            const int64_t m = rt == LU_GETRF ? cli_m(o, i) : n;
            const int64_t nrhs = rt == LU_GETRF ? 0 : cli_solve_nrhs(o, i);
            if (run_merge(&worst, run_generated(ctx, o, r, rt, o->types[t], m, n, nrhs)))
                return worst;
        }
    return worst;
}

cmd_status cmd_getrf(hyla_t *ctx, const cli_opts *o, const report *r) {
    return run_all(ctx, o, r, LU_GETRF);
}

cmd_status cmd_getrs(hyla_t *ctx, const cli_opts *o, const report *r) {
    return run_all(ctx, o, r, LU_GETRS);
}

cmd_status cmd_gesv(hyla_t *ctx, const cli_opts *o, const report *r) {
    return run_all(ctx, o, r, LU_GESV);
}
