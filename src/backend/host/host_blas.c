/* Host BLAS-3 and potrf dispatch: one switch per operation over the four
 * dtypes. */
#include "backend/host/host_blas.h"
#include "core/internal.h"
#include <cblas.h>
#include <complex.h>
#include <lapacke.h>
#include <limits.h>
#include <string.h>

static enum CBLAS_TRANSPOSE cb_op(int op) {
    return op == HYLA_NOTRANS ? CblasNoTrans : op == HYLA_TRANS ? CblasTrans : CblasConjTrans;
}
static enum CBLAS_UPLO cb_uplo(int u) { return u == HYLA_UPPER ? CblasUpper : CblasLower; }
static enum CBLAS_SIDE cb_side(int s) { return s == HYLA_RIGHT ? CblasRight : CblasLeft; }
static enum CBLAS_DIAG cb_diag(int d) { return d == HYLA_UNIT ? CblasUnit : CblasNonUnit; }

void host_blas_scalar(hyla_dtype t, int real_only, const void *src, unsigned char dst[16]) {
    size_t sz = hyla_dtype_size(t);
    if (real_only && (t == HYLA_C || t == HYLA_Z)) sz /= 2;
    memset(dst, 0, 16);
    memcpy(dst, src, sz);
}

int host_blas_check(const host_blas_call *c) {
    const int64_t v[6] = {c->m, c->n, c->k, c->lda, c->ldb, c->ldc};
    for (int i = 0; i < 6; i++)
        if (v[i] > INT_MAX) return HYLA_ERR_UNSUPPORTED;
    return 0;
}

#define F(p) (*(const float *)(p))
#define D(p) (*(const double *)(p))

static void run_gemm(const host_blas_call *c) {
    const enum CBLAS_TRANSPOSE ta = cb_op(c->ta), tb = cb_op(c->tb);
    const int m = (int)c->m, n = (int)c->n, k = (int)c->k;
    const int lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    switch (c->t) {
    case HYLA_S: cblas_sgemm(CblasColMajor, ta, tb, m, n, k, F(c->alpha), c->A, lda, c->B, ldb, F(c->beta), c->C, ldc); break;
    case HYLA_D: cblas_dgemm(CblasColMajor, ta, tb, m, n, k, D(c->alpha), c->A, lda, c->B, ldb, D(c->beta), c->C, ldc); break;
    case HYLA_C: cblas_cgemm(CblasColMajor, ta, tb, m, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc); break;
    case HYLA_Z: cblas_zgemm(CblasColMajor, ta, tb, m, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc); break;
    }
}

static void run_syrk(const host_blas_call *c) {
    const enum CBLAS_UPLO u = cb_uplo(c->uplo);
    const enum CBLAS_TRANSPOSE tr = cb_op(c->ta);
    const int n = (int)c->n, k = (int)c->k, lda = (int)c->lda, ldc = (int)c->ldc;
    switch (c->t) {
    case HYLA_S: cblas_ssyrk(CblasColMajor, u, tr, n, k, F(c->alpha), c->A, lda, F(c->beta), c->C, ldc); break;
    case HYLA_D: cblas_dsyrk(CblasColMajor, u, tr, n, k, D(c->alpha), c->A, lda, D(c->beta), c->C, ldc); break;
    case HYLA_C:
        if (c->herm) cblas_cherk(CblasColMajor, u, tr, n, k, F(c->alpha), c->A, lda, F(c->beta), c->C, ldc);
        else cblas_csyrk(CblasColMajor, u, tr, n, k, c->alpha, c->A, lda, c->beta, c->C, ldc);
        break;
    case HYLA_Z:
        if (c->herm) cblas_zherk(CblasColMajor, u, tr, n, k, D(c->alpha), c->A, lda, D(c->beta), c->C, ldc);
        else cblas_zsyrk(CblasColMajor, u, tr, n, k, c->alpha, c->A, lda, c->beta, c->C, ldc);
        break;
    }
}

static void run_syr2k(const host_blas_call *c) {
    const enum CBLAS_UPLO u = cb_uplo(c->uplo);
    const enum CBLAS_TRANSPOSE tr = cb_op(c->ta);
    const int n = (int)c->n, k = (int)c->k, lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    switch (c->t) {
    case HYLA_S: cblas_ssyr2k(CblasColMajor, u, tr, n, k, F(c->alpha), c->A, lda, c->B, ldb, F(c->beta), c->C, ldc); break;
    case HYLA_D: cblas_dsyr2k(CblasColMajor, u, tr, n, k, D(c->alpha), c->A, lda, c->B, ldb, D(c->beta), c->C, ldc); break;
    case HYLA_C:
        if (c->herm) cblas_cher2k(CblasColMajor, u, tr, n, k, c->alpha, c->A, lda, c->B, ldb, F(c->beta), c->C, ldc);
        else cblas_csyr2k(CblasColMajor, u, tr, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc);
        break;
    case HYLA_Z:
        if (c->herm) cblas_zher2k(CblasColMajor, u, tr, n, k, c->alpha, c->A, lda, c->B, ldb, D(c->beta), c->C, ldc);
        else cblas_zsyr2k(CblasColMajor, u, tr, n, k, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc);
        break;
    }
}

static void run_symm(const host_blas_call *c) {
    const enum CBLAS_SIDE s = cb_side(c->side);
    const enum CBLAS_UPLO u = cb_uplo(c->uplo);
    const int m = (int)c->m, n = (int)c->n, lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    switch (c->t) {
    case HYLA_S: cblas_ssymm(CblasColMajor, s, u, m, n, F(c->alpha), c->A, lda, c->B, ldb, F(c->beta), c->C, ldc); break;
    case HYLA_D: cblas_dsymm(CblasColMajor, s, u, m, n, D(c->alpha), c->A, lda, c->B, ldb, D(c->beta), c->C, ldc); break;
    case HYLA_C:
        if (c->herm) cblas_chemm(CblasColMajor, s, u, m, n, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc);
        else cblas_csymm(CblasColMajor, s, u, m, n, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc);
        break;
    case HYLA_Z:
        if (c->herm) cblas_zhemm(CblasColMajor, s, u, m, n, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc);
        else cblas_zsymm(CblasColMajor, s, u, m, n, c->alpha, c->A, lda, c->B, ldb, c->beta, c->C, ldc);
        break;
    }
}

static void run_tri(const host_blas_call *c) {
    const enum CBLAS_SIDE s = cb_side(c->side);
    const enum CBLAS_UPLO u = cb_uplo(c->uplo);
    const enum CBLAS_TRANSPOSE ta = cb_op(c->ta);
    const enum CBLAS_DIAG d = cb_diag(c->diag);
    const int m = (int)c->m, n = (int)c->n, lda = (int)c->lda, ldb = (int)c->ldb;
    const int solve = c->kind == HB_TRSM;
    switch (c->t) {
    case HYLA_S:
        if (solve) cblas_strsm(CblasColMajor, s, u, ta, d, m, n, F(c->alpha), c->A, lda, c->C, ldb);
        else cblas_strmm(CblasColMajor, s, u, ta, d, m, n, F(c->alpha), c->A, lda, c->C, ldb);
        break;
    case HYLA_D:
        if (solve) cblas_dtrsm(CblasColMajor, s, u, ta, d, m, n, D(c->alpha), c->A, lda, c->C, ldb);
        else cblas_dtrmm(CblasColMajor, s, u, ta, d, m, n, D(c->alpha), c->A, lda, c->C, ldb);
        break;
    case HYLA_C:
        if (solve) cblas_ctrsm(CblasColMajor, s, u, ta, d, m, n, c->alpha, c->A, lda, c->C, ldb);
        else cblas_ctrmm(CblasColMajor, s, u, ta, d, m, n, c->alpha, c->A, lda, c->C, ldb);
        break;
    case HYLA_Z:
        if (solve) cblas_ztrsm(CblasColMajor, s, u, ta, d, m, n, c->alpha, c->A, lda, c->C, ldb);
        else cblas_ztrmm(CblasColMajor, s, u, ta, d, m, n, c->alpha, c->A, lda, c->C, ldb);
        break;
    }
}

/* laset and scale on raw bytes: every element is `esz` bytes; a complex or
 * real scalar product is done per dtype. */
static void run_laset(const host_blas_call *c) {
    const size_t esz = hyla_dtype_size(c->t);
    unsigned char *A = c->C;
    for (int64_t j = 0; j < c->n; j++) {
        int64_t i0 = 0, i1 = c->m;
        if (c->uplo == HYLA_LOWER) i0 = HYLA_MIN(j, c->m);
        if (c->uplo == HYLA_UPPER) i1 = HYLA_MIN(j + 1, c->m);
        for (int64_t i = i0; i < i1; i++)
            memcpy(A + (size_t)(i + j * c->lda) * esz, i == j ? c->beta : c->alpha, esz);
    }
}

static void run_scale(const host_blas_call *c) {
    unsigned char zero[16] = {0};
    const size_t esz = hyla_dtype_size(c->t);
    const int is_zero = memcmp(c->alpha, zero, esz) == 0;
    for (int64_t j = 0; j < c->n; j++) {
        unsigned char *col = (unsigned char *)c->C + (size_t)(j * c->lda) * esz;
        if (is_zero) { memset(col, 0, (size_t)c->m * esz); continue; }
        for (int64_t i = 0; i < c->m; i++) {
            switch (c->t) {
            case HYLA_S: ((float *)col)[i] *= F(c->alpha); break;
            case HYLA_D: ((double *)col)[i] *= D(c->alpha); break;
            case HYLA_C: ((float _Complex *)col)[i] *= *(const float _Complex *)c->alpha; break;
            case HYLA_Z: ((double _Complex *)col)[i] *= *(const double _Complex *)c->alpha; break;
            }
        }
    }
}

/* LAPACKE's _work variant: no NaN scan of A, and no copy (column major) */
static void run_potrf(const host_blas_call *c) {
    const char u = c->uplo == HYLA_UPPER ? 'U' : 'L';
    const lapack_int n = (lapack_int)c->n, lda = (lapack_int)c->lda;
    lapack_int info = 0;
    if (n == 0) {
        *c->info = 0;
        return;
    }
    switch (c->t) {
    case HYLA_S: info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, u, n, c->C, lda); break;
    case HYLA_D: info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, u, n, c->C, lda); break;
    case HYLA_C: info = LAPACKE_cpotrf_work(LAPACK_COL_MAJOR, u, n, c->C, lda); break;
    case HYLA_Z: info = LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, u, n, c->C, lda); break;
    }
    *c->info = (int)info;
}

void host_blas_run(const host_blas_call *c) {
    /* potrf writes info even when n == 0 */
    if (c->kind == HB_POTRF) {
        run_potrf(c);
        return;
    }
    /* empty products: nothing to do, and CBLAS must not see them (it prints) */
    const int mn = c->kind == HB_GEMM || c->kind == HB_SYMM || c->kind == HB_TRSM || c->kind == HB_TRMM;
    if ((mn && (c->m == 0 || c->n == 0)) || c->n == 0) return;
    switch (c->kind) {
    case HB_GEMM: run_gemm(c); break;
    case HB_SYRK: run_syrk(c); break;
    case HB_SYR2K: run_syr2k(c); break;
    case HB_SYMM: run_symm(c); break;
    case HB_TRSM:
    case HB_TRMM: run_tri(c); break;
    case HB_LASET: run_laset(c); break;
    case HB_SCALE: run_scale(c); break;
    case HB_POTRF: break; /* handled above */
    }
}
