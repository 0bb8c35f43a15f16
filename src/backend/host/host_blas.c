/* Host BLAS-3 and potrf dispatch: one switch per operation over the four
 * dtypes. */
#include "backend/host/host_blas.h"
#include <cblas.h>
#include <complex.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
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

static void run_symm_cblas(const host_blas_call *c) {
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

/* Rows per diagonal block of the blocked SYMM below. */
#define SYMM_BLOCK 512

/* C := alpha A B + beta C, A symmetric or Hermitian on the left (m x m),
 * by column blocks of A: with few columns in B (stage 1 of the eigensolver
 * has kd), OpenBLAS's ?symm spends much of its time packing A element by
 * element from both triangles (its ?symm_*copy kernels), while ?gemm packs
 * a stored block with contiguous reads. So each diagonal block goes to
 * ?symm and the stored block beside it to two ?gemm, once as it is (the
 * rows it holds) and once transposed (the mirrored rows), and every stored
 * element of A is read by BLAS-3 at an inner dimension of n. beta applies
 * once per row of C: the first diagonal block and the block beside it cover
 * every row. */
static void run_symm(const host_blas_call *c) {
    if (c->side != HYLA_LEFT || c->m < 2 * SYMM_BLOCK) {
        run_symm_cblas(c);
        return;
    }
    const int single = c->t == HYLA_S || c->t == HYLA_C;
    const size_t es = hyla_dtype_size(c->t);
    const int lower = c->uplo != HYLA_UPPER, ct = c->herm ? HYLA_CONJTRANS : HYLA_TRANS;
    const int64_t m = c->m, nblk = HYLA_CEILDIV(m, SYMM_BLOCK);
    const unsigned char *A = c->A, *B = c->B;
    unsigned char *C = c->C;
    for (int64_t i = 0; i < nblk; i++) {
        /* lower: blocks from the top, the stored part below each; upper:
         * from the bottom, the stored part above */
        const int64_t jb = lower ? i : nblk - 1 - i, j = jb * SYMM_BLOCK;
        const int64_t w = HYLA_MIN(SYMM_BLOCK, m - j);
        const int64_t r = lower ? j + w : 0, h = lower ? m - j - w : j; /* stored rows beside */
        host_blas_call d = *c;
        d.m = w;
        d.A = A + (size_t)(j + j * c->lda) * es;
        d.B = B + (size_t)j * es;
        d.C = C + (size_t)j * es;
        if (i > 0) memcpy(d.beta, hyla_scalar(c->t, HYLA_SC_ONE), single ? 8 : 16);
        run_symm_cblas(&d);
        if (h == 0) continue;
        const unsigned char *Ab = A + (size_t)(r + j * c->lda) * es;
        host_blas_call g = {.kind = HB_GEMM, .t = c->t, .ta = HYLA_NOTRANS, .tb = HYLA_NOTRANS,
                            .m = h, .n = c->n, .k = w, .lda = c->lda, .ldb = c->ldb,
                            .ldc = c->ldc, .A = Ab, .B = d.B, .C = C + (size_t)r * es};
        memcpy(g.alpha, c->alpha, 16);
        memcpy(g.beta, d.beta, 16);
        run_gemm(&g);
        g.ta = ct, g.m = w, g.k = h, g.B = B + (size_t)r * es, g.C = d.C;
        memcpy(g.beta, hyla_scalar(c->t, HYLA_SC_ONE), single ? 8 : 16);
        run_gemm(&g);
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

/* C := alpha op(A) + beta C, element by element; beta == 0 does not read C */
static void run_geam(const host_blas_call *c) {
    unsigned char zero[16] = {0};
    const size_t esz = hyla_dtype_size(c->t);
    const int bz = memcmp(c->beta, zero, esz) == 0, tr = c->ta != HYLA_NOTRANS,
              cj = c->ta == HYLA_CONJTRANS;
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->m; i++) {
            const int64_t ia = tr ? j + i * c->lda : i + j * c->lda, ic = i + j * c->ldc;
            switch (c->t) {
            case HYLA_S: {
                float *y = (float *)c->C + ic, x = F(c->alpha) * ((const float *)c->A)[ia];
                *y = bz ? x : x + F(c->beta) * *y;
                break;
            }
            case HYLA_D: {
                double *y = (double *)c->C + ic, x = D(c->alpha) * ((const double *)c->A)[ia];
                *y = bz ? x : x + D(c->beta) * *y;
                break;
            }
            case HYLA_C: {
                float _Complex a = ((const float _Complex *)c->A)[ia], *y = (float _Complex *)c->C + ic;
                if (cj) a = conjf(a);
                a *= *(const float _Complex *)c->alpha;
                *y = bz ? a : a + *(const float _Complex *)c->beta * *y;
                break;
            }
            case HYLA_Z: {
                double _Complex a = ((const double _Complex *)c->A)[ia], *y = (double _Complex *)c->C + ic;
                if (cj) a = conj(a);
                a *= *(const double _Complex *)c->alpha;
                *y = bz ? a : a + *(const double _Complex *)c->beta * *y;
                break;
            }
            }
        }
}

/* herm_blocks (backend.h): the diagonal blocks of order k of the n x n
 * Hermitian A (lower triangle) as full matrices into C, block p at p k^2 */
static void run_herm_blocks(const host_blas_call *c) {
    const size_t es = hyla_dtype_size(c->t), hs = es / 2;
    const int cplx = c->t == HYLA_C || c->t == HYLA_Z;
    const int64_t b = c->k;
    for (int64_t p = 0; p * b < c->n; p++) {
        const int64_t o = p * b, r = HYLA_MIN(b, c->n - o);
        unsigned char *S = (unsigned char *)c->C + (size_t)(p * b * b) * es;
        for (int64_t j = 0; j < r; j++)
            for (int64_t i = 0; i < r; i++) {
                unsigned char *y = S + (size_t)(i + j * b) * es;
                const int64_t ia = i >= j ? o + i : o + j, ja = i >= j ? o + j : o + i;
                memcpy(y, (const unsigned char *)c->A + (size_t)(ia + ja * c->lda) * es, es);
                if (!cplx) continue;
                if (i == j) {
                    memset(y + hs, 0, hs);
                } else if (i < j) { /* conjugate: negate the imaginary part */
                    if (c->t == HYLA_C) ((float *)y)[1] = -((float *)y)[1];
                    else ((double *)y)[1] = -((double *)y)[1];
                }
            }
    }
}

/* LAPACKE's _work variant: no NaN scan of A, and no copy (column major) */
/* LAPACK's potrf stops at a pivot that is not positive or is NaN; OpenBLAS's
 * tests only `<= 0` and runs on through a NaN. A NaN pivot leaves NaN on
 * the factor's diagonal from its column on: the first NaN among the
 * columns factored (before `info`, the first pivot that stopped it) is
 * LAPACK's info. */
static int nan_pivot(const host_blas_call *c, int info) {
    const int64_t k = info > 0 ? info - 1 : c->n;
    const int single = c->t == HYLA_S || c->t == HYLA_C;
    const size_t es = hyla_dtype_size(c->t);
    for (int64_t j = 0; j < k; j++) {
        const void *p = hyla_elem(c->C, j, j, c->lda, es);
        if (single ? isnan(*(const float *)p) : isnan(*(const double *)p)) return (int)(j + 1);
    }
    return info;
}

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
    *c->info = nan_pivot(c, (int)info);
}

/* LU without pivoting, recursive on the columns (Toledo's recursive LU
 * without the row search): factor the left half, solve for the top right
 * block with its unit lower triangle, update the bottom right block, then
 * recurse on it. Returns 0 or the 1-based column of the first zero pivot,
 * where it stops. */
static int64_t lu_nopiv(hyla_dtype t, int64_t m, int64_t n, unsigned char *A, int64_t lda) {
    const int single = t == HYLA_S || t == HYLA_C;
    const size_t es = hyla_dtype_size(t);
    const int64_t k = HYLA_MIN(m, n);
    if (k == 0) return 0;
    if (k == 1) {
        unsigned char inv[16] = {0};
        int zero = 0;
        switch (t) {
        case HYLA_S: zero = F(A) == 0.0f; *(float *)inv = 1.0f / F(A); break;
        case HYLA_D: zero = D(A) == 0.0; *(double *)inv = 1.0 / D(A); break;
        case HYLA_C: zero = *(const float _Complex *)A == 0; *(float _Complex *)inv = 1.0f / *(const float _Complex *)A; break;
        case HYLA_Z: zero = *(const double _Complex *)A == 0; *(double _Complex *)inv = 1.0 / *(const double _Complex *)A; break;
        }
        if (zero) return 1;
        if (m > 1) {
            host_blas_call s = {.kind = HB_SCALE, .t = t, .m = m - 1, .n = 1, .lda = lda, .C = A + es};
            memcpy(s.alpha, inv, 16);
            host_blas_run(&s);
        }
        return 0;
    }
    const int64_t n1 = k / 2, n2 = n - n1;
    int64_t info = lu_nopiv(t, m, n1, A, lda);
    if (info) return info;
    unsigned char *A12 = A + (size_t)(n1 * lda) * es, *A21 = A + (size_t)n1 * es,
                  *A22 = A12 + (size_t)n1 * es;
    host_blas_call tr = {.kind = HB_TRSM, .t = t, .side = HYLA_LEFT, .uplo = HYLA_LOWER,
                         .ta = HYLA_NOTRANS, .diag = HYLA_UNIT, .m = n1, .n = n2, .lda = lda,
                         .ldb = lda, .A = A, .C = A12};
    memcpy(tr.alpha, hyla_scalar(t, HYLA_SC_ONE), single ? 8 : 16);
    host_blas_run(&tr);
    host_blas_call g = {.kind = HB_GEMM, .t = t, .ta = HYLA_NOTRANS, .tb = HYLA_NOTRANS,
                        .m = m - n1, .n = n2, .k = n1, .lda = lda, .ldb = lda, .ldc = lda,
                        .A = A21, .B = A12, .C = A22};
    memcpy(g.alpha, hyla_scalar(t, HYLA_SC_MONE), single ? 8 : 16);
    memcpy(g.beta, hyla_scalar(t, HYLA_SC_ONE), single ? 8 : 16);
    host_blas_run(&g);
    info = lu_nopiv(t, m - n1, n2, A22, lda);
    return info ? n1 + info : 0;
}

/* LAPACKE's _work variant writes lapack_int pivots; they are widened in
 * place to int64_t, from the last one down so no entry is overwritten
 * before it is read. */
static void run_getrf(const host_blas_call *c) {
    const lapack_int m = (lapack_int)c->m, n = (lapack_int)c->n, lda = (lapack_int)c->lda;
    lapack_int info = 0;
    if (m == 0 || n == 0) {
        *c->info = 0;
        return;
    }
    if (!c->ipiv) {
        *c->info = (int)lu_nopiv(c->t, c->m, c->n, c->C, c->lda);
        return;
    }
    lapack_int *ip = (lapack_int *)(void *)c->ipiv;
    switch (c->t) {
    case HYLA_S: info = LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, m, n, c->C, lda, ip); break;
    case HYLA_D: info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, m, n, c->C, lda, ip); break;
    case HYLA_C: info = LAPACKE_cgetrf_work(LAPACK_COL_MAJOR, m, n, c->C, lda, ip); break;
    case HYLA_Z: info = LAPACKE_zgetrf_work(LAPACK_COL_MAJOR, m, n, c->C, lda, ip); break;
    }
    for (int64_t i = HYLA_MIN(c->m, c->n) - 1; i >= 0; i--) {
        lapack_int v;
        memcpy(&v, (unsigned char *)c->ipiv + (size_t)i * sizeof v, sizeof v);
        c->ipiv[i] = (int64_t)v;
    }
    *c->info = (int)info;
}

/* Panels of at most this many columns (m >= n) go to the recursive ?geqrt3
 * rather than ?geqrf: at their width LAPACK's geqrf runs its unblocked
 * level-2 code, and geqrt3 took 0.92 ms against 1.06 ms for 4000 x 48 and
 * 0.23 ms against 0.31 ms for 1000 x 48 (d, OpenBLAS, 2 cores). */
#define GEQRT3_MAX 128

int64_t host_geqrf_lwork(int64_t n) {
    n = HYLA_MAX(1, n);
    return n * (n <= GEQRT3_MAX ? HYLA_MAX(32, n) : 32);
}

/* QR with the workspace taken at the call (host_geqrf_lwork elements); the
 * run frees it. ?geqrt3 leaves T (n x n) in the workspace, tau its
 * diagonal. */
static void run_geqrf(const host_blas_call *c) {
    const lapack_int m = (lapack_int)c->m, n = (lapack_int)c->n, lda = (lapack_int)c->lda,
                     lw = (lapack_int)c->lwork;
    lapack_int info = 0;
    if (m > 0 && n > 0 && m >= n && n <= GEQRT3_MAX) {
        const size_t es = hyla_dtype_size(c->t);
        switch (c->t) {
        case HYLA_S: info = LAPACKE_sgeqrt3_work(LAPACK_COL_MAJOR, m, n, c->C, lda, c->work, n); break;
        case HYLA_D: info = LAPACKE_dgeqrt3_work(LAPACK_COL_MAJOR, m, n, c->C, lda, c->work, n); break;
        case HYLA_C: info = LAPACKE_cgeqrt3_work(LAPACK_COL_MAJOR, m, n, c->C, lda, c->work, n); break;
        case HYLA_Z: info = LAPACKE_zgeqrt3_work(LAPACK_COL_MAJOR, m, n, c->C, lda, c->work, n); break;
        }
        for (int64_t j = 0; j < n; j++)
            memcpy((unsigned char *)c->tau + (size_t)j * es,
                   (const unsigned char *)c->work + (size_t)(j + j * n) * es, es);
    } else if (m > 0 && n > 0) {
        switch (c->t) {
        case HYLA_S: info = LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, m, n, c->C, lda, c->tau, c->work, lw); break;
        case HYLA_D: info = LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, c->C, lda, c->tau, c->work, lw); break;
        case HYLA_C: info = LAPACKE_cgeqrf_work(LAPACK_COL_MAJOR, m, n, c->C, lda, c->tau, c->work, lw); break;
        case HYLA_Z: info = LAPACKE_zgeqrf_work(LAPACK_COL_MAJOR, m, n, c->C, lda, c->tau, c->work, lw); break;
        }
    }
    hyla_free(c->work);
    *c->info = (int)info;
}

/* Row interchanges, one column at a time (each column's swaps stay in cache). */
static void run_laswp(const host_blas_call *c) {
    const size_t es = hyla_dtype_size(c->t);
    unsigned char tmp[16];
    for (int64_t j = 0; j < c->n; j++) {
        unsigned char *col = (unsigned char *)c->C + (size_t)(j * c->lda) * es;
        for (int64_t s = 0; s <= c->k2 - c->k1; s++) {
            const int64_t i = c->inc > 0 ? c->k1 + s : c->k2 - s, p = c->ipiv[i - 1];
            if (p == i) continue;
            memcpy(tmp, col + (size_t)(i - 1) * es, es);
            memcpy(col + (size_t)(i - 1) * es, col + (size_t)(p - 1) * es, es);
            memcpy(col + (size_t)(p - 1) * es, tmp, es);
        }
    }
}

void host_blas_run(const host_blas_call *c) {
    /* potrf and getrf write info even when n == 0 */
    if (c->kind == HB_POTRF) {
        run_potrf(c);
        return;
    }
    if (c->kind == HB_GETRF) {
        run_getrf(c);
        return;
    }
    if (c->kind == HB_GEQRF) {
        run_geqrf(c);
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
    case HB_GEAM: run_geam(c); break;
    case HB_HERM_BLOCKS: run_herm_blocks(c); break;
    case HB_LASWP: run_laswp(c); break;
    case HB_POTRF:
    case HB_GETRF:
    case HB_GEQRF: break; /* handled above */
    }
}
