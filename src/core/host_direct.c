/* Cholesky and LU of host-resident matrices on a context of one host device
 * without a memory cap, by the backend's whole-matrix ops (LAPACK potrf and
 * getrf, BLAS trsm, laswp: on the host backend OpenBLAS's, on the caller's
 * matrices in place), in place of the tile engines (core/internal.h). The
 * tile engines copy the matrix into the device's memory and drive it panel
 * by panel, which one host device gains nothing from: on 2 cores against
 * LAPACKE on the same OpenBLAS in the same run, potrf n = 1000 / 2000 /
 * 4000 ran at 0.44 / 0.43 / 0.66x and getrf at 0.31 / 0.26 / 0.37x of
 * LAPACKE's speed through the engines, 0.75 to 1.06x here
 * (bench/results/host-direct.md). */
#include "core/internal.h"

#include <string.h>

int hyla_host_direct(const hyla_t *ctx, int dev, int nb_set) {
    return ctx && dev < 0 && ctx->ndev == 1 && ctx->devs[0]->ops->mem_host &&
           ctx->mem_cap == 0 && ctx->opt_host_lapack == 0 && !nb_set;
}

/* The queue and a device int for info on device 0 (the context's one host
 * device); *dinfo is freed with free_info. */
static int setup(hyla_t *ctx, hyla_queue **q, int **dinfo) {
    hyla_dev_workspace *ws;
    int rc = hyla_workspace_get(ctx, 0, 0, 0, &ws);
    if (rc) return rc;
    *q = ws->q_comp;
    hyla_dev *d = ctx->devs[0];
    return d->ops->mem_alloc(d, HYLA_MEM_DEVICE, sizeof **dinfo, (void **)dinfo);
}

static void free_info(hyla_t *ctx, int *dinfo) {
    if (dinfo) ctx->devs[0]->ops->mem_free(ctx->devs[0], HYLA_MEM_DEVICE, dinfo);
}

/* op^H: conjugate transpose for complex dtypes, transpose for real ones */
static hyla_op herm_op(hyla_dtype t) {
    return t == HYLA_C || t == HYLA_Z ? HYLA_CONJTRANS : HYLA_TRANS;
}

/* -1 and 1 in dtype t (re) or its real type (for herk's alpha and beta) */
static const void *scalar(hyla_dtype t, int minus, int real) {
    static const float sf[2] = {1, -1};
    static const double df[2] = {1, -1};
    static const float cf[2][2] = {{1, 0}, {-1, 0}};
    static const double zf[2][2] = {{1, 0}, {-1, 0}};
    if (t == HYLA_S || (real && t == HYLA_C)) return &sf[minus];
    if (t == HYLA_D || (real && t == HYLA_Z)) return &df[minus];
    return t == HYLA_C ? (const void *)cf[minus] : (const void *)zf[minus];
}

/* The panel width of the blocked Cholesky (LAPACK's left-looking order). */
enum { CHOL_NB = 256 };

/* Left-looking blocked Cholesky as LAPACK's potrf, in place. Each panel's
 * diagonal block is updated and factored before the rest of the panel is
 * touched, a copy of it saved to the workspace W (jb x jb) first: on a
 * minor that is not positive definite the block is put back, so that the
 * panels before it hold the factor and the rest of A is as passed
 * (hyla_?potrf's promise; LAPACK's own potrf leaves the failing block
 * updated). Lower: panel j0 is A[j0:n, j0:j0+jb]; upper: A[j0:j0+jb, j0:n],
 * its transpose. */
static int chol_factor(hyla_queue *q, const hyla_backend_ops *o, hyla_dtype t, int lower,
                       int64_t n, char *A, int64_t lda, char *W, int *dinfo, int *info) {
    const size_t es = hyla_dtype_size(t);
    const hyla_op h = herm_op(t);
    const void *m1 = scalar(t, 1, 0), *p1 = scalar(t, 0, 0);
    const void *rm1 = scalar(t, 1, 1), *rp1 = scalar(t, 0, 1);
#define AT(i, j) (A + ((size_t)(i) + (size_t)(j) * (size_t)lda) * es)
    for (int64_t j0 = 0; j0 < n; j0 += CHOL_NB) {
        const int64_t jb = HYLA_MIN((int64_t)CHOL_NB, n - j0), r = n - j0 - jb;
        const size_t db = (size_t)jb * es; /* a column of the diagonal block */
        int rc = o->copy_2d(q, W, db, AT(j0, j0), (size_t)lda * es, db, (size_t)jb,
                            HYLA_COPY_D2D);
        if (!rc && j0 > 0)
            rc = lower ? o->syrk(q, t, 1, HYLA_LOWER, HYLA_NOTRANS, jb, j0, rm1, AT(j0, 0), lda,
                                 rp1, AT(j0, j0), lda)
                       : o->syrk(q, t, 1, HYLA_UPPER, h, jb, j0, rm1, AT(0, j0), lda, rp1,
                                 AT(j0, j0), lda);
        if (!rc) rc = o->potrf(q, t, lower ? HYLA_LOWER : HYLA_UPPER, jb, AT(j0, j0), lda, dinfo);
        if (!rc) rc = o->queue_sync(q);
        if (rc) return rc;
        if (*dinfo) { /* the diagonal block as it was passed; the rest is untouched */
            *info = (int)(j0 + *dinfo);
            rc = o->copy_2d(q, AT(j0, j0), (size_t)lda * es, W, db, db, (size_t)jb,
                            HYLA_COPY_D2D);
            return rc ? rc : o->queue_sync(q);
        }
        if (r == 0) continue;
        if (lower) {
            if (j0 > 0)
                rc = o->gemm(q, t, HYLA_NOTRANS, h, r, jb, j0, m1, AT(j0 + jb, 0), lda, AT(j0, 0),
                             lda, p1, AT(j0 + jb, j0), lda);
            if (!rc)
                rc = o->trsm(q, t, HYLA_RIGHT, HYLA_LOWER, h, HYLA_NONUNIT, r, jb, p1, AT(j0, j0),
                             lda, AT(j0 + jb, j0), lda);
        } else {
            if (j0 > 0)
                rc = o->gemm(q, t, h, HYLA_NOTRANS, jb, r, j0, m1, AT(0, j0), lda, AT(0, j0 + jb),
                             lda, p1, AT(j0, j0 + jb), lda);
            if (!rc)
                rc = o->trsm(q, t, HYLA_LEFT, HYLA_UPPER, h, HYLA_NONUNIT, jb, r, p1, AT(j0, j0),
                             lda, AT(j0, j0 + jb), lda);
        }
        if (rc) return rc;
    }
#undef AT
    return o->queue_sync(q);
}

int hyla_host_chol(hyla_t *ctx, hyla_dtype t, int lower, int64_t n, void *A, int64_t lda,
                   int64_t nrhs, void *B, int64_t ldb, int factor, int solve) {
    hyla_queue *q = NULL;
    int *dinfo = NULL, info = 0;
    hyla_dev *d = ctx->devs[0];
    const hyla_backend_ops *o = d->ops;
    const hyla_uplo ul = lower ? HYLA_LOWER : HYLA_UPPER;
    void *W = NULL;
    int rc = setup(ctx, &q, &dinfo);
    if (!rc && factor) {
        const int64_t jb = HYLA_MIN((int64_t)CHOL_NB, n);
        rc = o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)jb * (size_t)jb * hyla_dtype_size(t), &W);
        if (!rc) rc = chol_factor(q, o, t, lower, n, A, lda, W, dinfo, &info);
    }
    if (!rc && !info && solve && nrhs > 0) {
        /* A = L L^H: L Y = B, L^H X = Y; A = U^H U: U^H Y = B, U X = Y */
        const void *one = scalar(t, 0, 0);
        rc = o->trsm(q, t, HYLA_LEFT, ul, lower ? HYLA_NOTRANS : herm_op(t), HYLA_NONUNIT, n, nrhs,
                     one, A, lda, B, ldb);
        if (!rc)
            rc = o->trsm(q, t, HYLA_LEFT, ul, lower ? herm_op(t) : HYLA_NOTRANS, HYLA_NONUNIT, n,
                         nrhs, one, A, lda, B, ldb);
        if (!rc) rc = o->queue_sync(q);
    }
    if (W) o->mem_free(d, HYLA_MEM_DEVICE, W);
    free_info(ctx, dinfo);
    hyla_chol_stats *st = &ctx->chol_stats;
    memset(st, 0, sizeof *st);
    st->nb = HYLA_MIN((int64_t)CHOL_NB, n);
    st->resident_cols = n;
    if (factor) st->panels_per_device[0] = HYLA_CEILDIV(n, st->nb > 0 ? st->nb : 1);
    return rc ? rc : info;
}

int hyla_host_lu(hyla_t *ctx, hyla_dtype t, int64_t m, int64_t n, void *A, int64_t lda,
                 int64_t *ipiv, hyla_op trans, int64_t nrhs, void *B, int64_t ldb, int factor,
                 int solve) {
    hyla_queue *q = NULL;
    int *dinfo = NULL, info = 0;
    const hyla_backend_ops *o = ctx->devs[0]->ops;
    int rc = setup(ctx, &q, &dinfo);
    if (!rc && factor) {
        rc = o->getrf(q, t, m, n, A, lda, ipiv, dinfo, ctx->opt_lu_panel);
        if (!rc) rc = o->queue_sync(q);
        if (!rc) info = *dinfo;
    }
    if (!rc && !info && solve && nrhs > 0) {
        /* A = P L U. op N: X = U^-1 L^-1 P^T B; op T or C: X = P L^-op U^-op B */
        const void *one = scalar(t, 0, 0);
        if (trans == HYLA_NOTRANS) {
            if (ipiv) rc = o->laswp(q, t, nrhs, B, ldb, 1, n, ipiv, 1);
            if (!rc)
                rc = o->trsm(q, t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_UNIT, n, nrhs, one, A,
                             lda, B, ldb);
            if (!rc)
                rc = o->trsm(q, t, HYLA_LEFT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, n, nrhs, one,
                             A, lda, B, ldb);
        } else {
            rc = o->trsm(q, t, HYLA_LEFT, HYLA_UPPER, trans, HYLA_NONUNIT, n, nrhs, one, A, lda, B,
                         ldb);
            if (!rc)
                rc = o->trsm(q, t, HYLA_LEFT, HYLA_LOWER, trans, HYLA_UNIT, n, nrhs, one, A, lda, B,
                             ldb);
            if (!rc && ipiv) rc = o->laswp(q, t, nrhs, B, ldb, 1, n, ipiv, -1);
        }
        if (!rc) rc = o->queue_sync(q);
    }
    free_info(ctx, dinfo);
    hyla_lu_stats *st = &ctx->lu_stats;
    memset(st, 0, sizeof *st);
    return rc ? rc : info;
}
