/* The RBT solver on one device (Parker; Baboulin, Dongarra et al.,
 * "Accelerating linear system solutions using randomization techniques").
 *
 *   Ar := U^T [A 0; 0 I] V            one fused pass (backend rbt op)
 *   Ar = L U                          no pivoting (hyla_?getrf_nopiv_gpu)
 *   x  = V (LU)^-1 U^T [b; 0]         first n rows
 *   repeat: r = b - A x (GEMM with the original A), berr from the
 *           inf-norms; x += V (LU)^-1 U^T r
 * A itself never changes, so the residual is exact up to rounding and the
 * refinement restores the accuracy the missing pivoting may cost. The
 * norms of r and x are taken on the host (n x nrhs values cross the bus per
 * step, O(n nrhs) next to the O(n^2) GEMM); |A|_inf comes from the device
 * (row_asum op). When the solution does not reach the bound, or the
 * factorization meets a zero pivot, the system is solved again with partial
 * pivoting (hyla_?gesv) on host copies: slow, but never a poor X. */
#include "lu/prbt.h"
#include "core/panels.h"
#include <float.h>
#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- padding */

int64_t hyla_rbt_padded(int64_t n, int depth) {
    const int64_t p = (int64_t)1 << depth;
    return (n + p - 1) / p * p;
}

/* ---------------------------------------------------------------- the LU capability */

/* The only calls into src/lu's LU: factor and solve without pivoting on the
 * device, and the pivoted host solver of the fallback. */
static int lu_factor(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, void *A, int64_t lda) {
    switch (t) {
    case HYLA_S: return hyla_sgetrf_nopiv_gpu(ctx, dev, n, n, A, lda);
    case HYLA_D: return hyla_dgetrf_nopiv_gpu(ctx, dev, n, n, A, lda);
    case HYLA_C: return hyla_cgetrf_nopiv_gpu(ctx, dev, n, n, A, lda);
    default: return hyla_zgetrf_nopiv_gpu(ctx, dev, n, n, A, lda);
    }
}

static int lu_solve(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t nrhs, const void *A,
                    int64_t lda, void *B, int64_t ldb) {
    switch (t) {
    case HYLA_S: return hyla_sgetrs_nopiv_gpu(ctx, dev, 'N', n, nrhs, A, lda, B, ldb);
    case HYLA_D: return hyla_dgetrs_nopiv_gpu(ctx, dev, 'N', n, nrhs, A, lda, B, ldb);
    case HYLA_C: return hyla_cgetrs_nopiv_gpu(ctx, dev, 'N', n, nrhs, A, lda, B, ldb);
    default: return hyla_zgetrs_nopiv_gpu(ctx, dev, 'N', n, nrhs, A, lda, B, ldb);
    }
}

static int lu_gesv(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t nrhs, void *A, int64_t lda,
                   int64_t *ipiv, void *B, int64_t ldb) {
    switch (t) {
    case HYLA_S: return hyla_sgesv(ctx, n, nrhs, A, lda, ipiv, B, ldb);
    case HYLA_D: return hyla_dgesv(ctx, n, nrhs, A, lda, ipiv, B, ldb);
    case HYLA_C: return hyla_cgesv(ctx, n, nrhs, A, lda, ipiv, B, ldb);
    default: return hyla_zgesv(ctx, n, nrhs, A, lda, ipiv, B, ldb);
    }
}

/* ---------------------------------------------------------------- host-side vectors */

/* |x_ij| of element (i, j) of a column-major n x nrhs host matrix, ld n */
static double absval(hyla_dtype t, const void *X, size_t k) {
    switch (t) {
    case HYLA_S: return fabs((double)((const float *)X)[k]);
    case HYLA_D: return fabs(((const double *)X)[k]);
    case HYLA_C: return hypot(((const float *)X)[2 * k], ((const float *)X)[2 * k + 1]);
    default: return hypot(((const double *)X)[2 * k], ((const double *)X)[2 * k + 1]);
    }
}

/* max(m, a), NaN from the first NaN on (a running maximum must not let a
 * later, larger value replace a NaN) */
static double max_nan(double m, double a) { return isnan(m) ? m : !(a <= m) ? a : m; }

/* max_i |X(i, j)|; NaN when a value is NaN */
static double col_amax(hyla_dtype t, const void *X, int64_t n, int64_t j) {
    double m = 0;
    for (int64_t i = 0; i < n; i++) m = max_nan(m, absval(t, X, (size_t)(i + j * n)));
    return m;
}

/* X += D on n x nrhs host matrices (the real lanes add alike) */
static void add_to(hyla_dtype t, void *X, const void *D, int64_t count) {
    const int64_t lanes = (t == HYLA_C || t == HYLA_Z) ? 2 * count : count;
    if (t == HYLA_S || t == HYLA_C)
        for (int64_t k = 0; k < lanes; k++) ((float *)X)[k] += ((const float *)D)[k];
    else
        for (int64_t k = 0; k < lanes; k++) ((double *)X)[k] += ((const double *)D)[k];
}

/* ---------------------------------------------------------------- the plan */

typedef struct {
    hyla_t *ctx;
    const hyla_rbt_job *job;
    hyla_rbt_info *info;
    hyla_dev *dev;
    const hyla_backend_ops *o;
    hyla_queue *q;
    hyla_dtype t;
    size_t es, rs;
    int64_t n, nrhs, np;
    double eps, anorm;
    /* device */
    void *Ar, *w, *sums, *Bp, *B0, *X, *R;
    /* pinned host */
    void *pin;
    unsigned char *hX, *hR, *hD, *hXold, *hB0, *hsums, *hdiag;
    double *bnorm;               /* |b_j|_inf, hyla_malloc */
} plan;

static int dev_alloc(plan *pl, size_t bytes, void **p) {
    return pl->o->mem_alloc(pl->dev, HYLA_MEM_DEVICE, bytes ? bytes : 1, p);
}

/* hX := V (LU)^-1 U^T [S; 0] with S an n x nrhs device matrix (ld n):
 * the transforms count as randomization, the triangular solves as solve. */
static int apply_inverse(plan *pl, const void *S, void *hout, double *t_solve) {
    const hyla_rbt_job *job = pl->job;
    const hyla_backend_ops *o = pl->o;
    hyla_rbt_args a = {.mode = HYLA_RBT_LEFT_T, .depth = job->depth, .m = pl->np,
                       .n = pl->nrhs, .u = pl->w, .S = S, .lds = pl->n, .ms = pl->n,
                       .ns = pl->nrhs, .A = pl->Bp, .lda = pl->np};
    double t0 = hyla_wtime();
    int rc = o->alg->rbt(pl->q, pl->t, &a);
    if (!rc) rc = o->queue_sync(pl->q);
    double t1 = hyla_wtime();
    if (!rc) rc = lu_solve(pl->ctx, job->dev, pl->t, pl->np, pl->nrhs, pl->Ar, pl->np, pl->Bp,
                           pl->np);
    double t2 = hyla_wtime();
    if (rc) return rc;
    a.mode = HYLA_RBT_LEFT;
    a.u = (const unsigned char *)pl->w + (size_t)pl->np * (size_t)job->depth * pl->rs;
    a.S = pl->Bp;
    a.lds = pl->np;
    a.ms = pl->np;
    rc = o->alg->rbt(pl->q, pl->t, &a);
    if (!rc) rc = o->queue_sync(pl->q);
    double t3 = hyla_wtime();
    pl->info->t_random += (t1 - t0) + (t3 - t2);
    *t_solve += t2 - t1;
    if (rc) return rc;
    rc = o->copy_2d(pl->q, hout, (size_t)pl->n * pl->es, pl->Bp, (size_t)pl->np * pl->es,
                    (size_t)pl->n * pl->es, (size_t)pl->nrhs, HYLA_COPY_D2H);
    if (!rc) rc = o->queue_sync(pl->q);
    return rc;
}

/* R := B0 - A X for X = hX, downloaded to hR; *berr := max_j |r_j| /
 * (|A| |x_j| + |b_j|), NaN or Inf when anything is not finite. */
static int residual(plan *pl, double *berr) {
    const hyla_backend_ops *o = pl->o;
    const size_t col = (size_t)pl->n * pl->es, all = col * (size_t)pl->nrhs;
    int rc = o->copy_2d(pl->q, pl->X, all, pl->hX, all, all, 1, HYLA_COPY_H2D);
    if (!rc) rc = o->copy_2d(pl->q, pl->R, all, pl->B0, all, all, 1, HYLA_COPY_D2D);
    if (!rc) rc = o->gemm(pl->q, pl->t, HYLA_NOTRANS, HYLA_NOTRANS, pl->n, pl->nrhs, pl->n,
                          hyla_scalar(pl->t, HYLA_SC_MONE), pl->job->A, pl->job->lda, pl->X, pl->n,
                          hyla_scalar(pl->t, HYLA_SC_ONE), pl->R, pl->n);
    if (!rc) rc = o->copy_2d(pl->q, pl->hR, all, pl->R, all, all, 1, HYLA_COPY_D2H);
    if (!rc) rc = o->queue_sync(pl->q);
    if (rc) return rc;
    double worst = 0;
    for (int64_t j = 0; j < pl->nrhs; j++) {
        const double rn = col_amax(pl->t, pl->hR, pl->n, j), xn = col_amax(pl->t, pl->hX, pl->n, j);
        const double den = pl->anorm * xn + pl->bnorm[j];
        double b = rn == 0 ? 0 : den > 0 ? rn / den : INFINITY;
        if (isnan(rn) || isnan(xn)) b = NAN;
        if (!(b <= worst)) worst = b;
        if (isnan(worst)) break;
    }
    *berr = worst;
    return 0;
}

/* *small := 1 when a pivot of the factor of U^T A V is zero or not finite
 * (the factorization may go on past a zero it does not report). Small
 * pivots are left to the refinement: the smallest pivot of a random matrix
 * falls like 1/n and the largest grows with it (1e-3 and 1e5 at n = 2000 in
 * single precision), so no bound on their ratio separates singular matrices
 * from well-conditioned ones; refinement that cannot converge does. */
static int pivots_small(plan *pl, int *small) {
    const hyla_backend_ops *o = pl->o;
    const size_t es = pl->es;
    int rc = o->copy_2d(pl->q, pl->Bp, es, pl->Ar, (size_t)(pl->np + 1) * es, es, (size_t)pl->np,
                        HYLA_COPY_D2D);
    if (!rc) rc = o->copy_2d(pl->q, pl->hdiag, (size_t)pl->np * es, pl->Bp, (size_t)pl->np * es,
                             (size_t)pl->np * es, 1, HYLA_COPY_D2H);
    if (!rc) rc = o->queue_sync(pl->q);
    if (rc) return rc;
    double lo = INFINITY, hi = 0;
    for (int64_t k = 0; k < pl->np; k++) {
        const double a = absval(pl->t, pl->hdiag, (size_t)k);
        if (!(a >= lo)) lo = a;
        hi = max_nan(hi, a);
    }
    *small = !(lo > 0) || !isfinite(hi);
    return 0;
}

static void plan_free(plan *pl) {
    void **dv[] = {&pl->Ar, &pl->w, &pl->sums, &pl->Bp, &pl->B0, &pl->X, &pl->R};
    for (size_t k = 0; k < sizeof dv / sizeof dv[0]; k++)
        if (*dv[k]) {
            pl->o->mem_free(pl->dev, HYLA_MEM_DEVICE, *dv[k]);
            *dv[k] = NULL;
        }
    if (pl->pin) pl->o->mem_free(pl->dev, HYLA_MEM_PINNED, pl->pin);
    pl->pin = NULL;
    hyla_free(pl->bnorm);
    pl->bnorm = NULL;
}

/* The pivoted solve of the original system on host copies; X to job->B and
 * hX. Returns gesv's info k > 0 for a singular A (job->B untouched). */
static int fallback(plan *pl) {
    const hyla_rbt_job *job = pl->job;
    const hyla_backend_ops *o = pl->o;
    const size_t col = (size_t)pl->n * pl->es, all = col * (size_t)pl->nrhs;
    int rc = 0;
    unsigned char *hA = hyla_malloc(col * (size_t)pl->n);
    int64_t *ipiv = hyla_malloc((size_t)pl->n * sizeof(int64_t));
    if (!hA || !ipiv) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    HYLA_TRY(o->copy_2d(pl->q, hA, col, job->A, (size_t)job->lda * pl->es, col, (size_t)pl->n,
                        HYLA_COPY_D2H));
    HYLA_TRY(o->queue_sync(pl->q));
    memcpy(pl->hX, pl->hB0, all);
    HYLA_TRY(lu_gesv(pl->ctx, pl->t, pl->n, pl->nrhs, hA, pl->n, ipiv, pl->hX, pl->n));
cleanup:
    hyla_free(hA);
    hyla_free(ipiv);
    return rc;
}

static int run(plan *pl) {
    const hyla_rbt_job *job = pl->job;
    hyla_rbt_info *info = pl->info;
    const hyla_backend_ops *o = pl->o;
    const int64_t n = pl->n, nrhs = pl->nrhs, np = pl->np;
    const size_t es = pl->es, rs = pl->rs, col = (size_t)n * es, all = col * (size_t)nrhs;
    const size_t nw = (size_t)np * (size_t)job->depth;
    int rc = 0;

    /* NaN or Inf in A or B: refused before any work (hyla.h, "NaN and Inf"),
     * scanned where they are */
    HYLA_TRY(hyla_check_finite_dev(pl->ctx, job->dev, pl->t, -1, 0, n, n, job->A, job->lda));
    HYLA_TRY(hyla_check_finite_dev(pl->ctx, job->dev, pl->t, -1, 0, n, nrhs, job->B, job->ldb));

    /* device and pinned memory */
    HYLA_TRY(dev_alloc(pl, (size_t)np * (size_t)np * es, &pl->Ar));
    HYLA_TRY(dev_alloc(pl, 2 * nw * rs, &pl->w));
    HYLA_TRY(dev_alloc(pl, (size_t)n * rs, &pl->sums));
    HYLA_TRY(dev_alloc(pl, (size_t)np * (size_t)nrhs * es, &pl->Bp));
    HYLA_TRY(dev_alloc(pl, all, &pl->B0));
    HYLA_TRY(dev_alloc(pl, all, &pl->X));
    HYLA_TRY(dev_alloc(pl, all, &pl->R));
    const size_t pinned = 5 * all + (size_t)n * rs + (size_t)np * es;
    HYLA_TRY(o->mem_alloc(pl->dev, HYLA_MEM_PINNED, pinned, &pl->pin));
    pl->hX = pl->pin;
    pl->hR = pl->hX + all;
    pl->hD = pl->hR + all;
    pl->hXold = pl->hD + all;
    pl->hB0 = pl->hXold + all;
    pl->hsums = pl->hB0 + all;
    pl->hdiag = pl->hsums + (size_t)n * rs;
    pl->bnorm = hyla_malloc((size_t)nrhs * sizeof(double));
    if (!pl->bnorm) HYLA_TRY(HYLA_ERR_NO_MEMORY);

    /* randomization of A: diagonals of U then V, made on the device, and
     * one fused pass */
    double t0 = hyla_wtime();
    HYLA_TRY(o->alg->rbt_diagonals(pl->q, pl->t, job->seed, 0, (int64_t)(2 * nw), pl->w));
    const hyla_rbt_args a = {.mode = HYLA_RBT_BOTH, .depth = job->depth, .m = np, .n = np,
                             .u = pl->w, .v = (const unsigned char *)pl->w + nw * rs,
                             .S = job->A, .lds = job->lda, .ms = n, .ns = n, .A = pl->Ar,
                             .lda = np};
    HYLA_TRY(o->alg->rbt(pl->q, pl->t, &a));
    HYLA_TRY(o->queue_sync(pl->q));
    double t1 = hyla_wtime();
    info->t_random += t1 - t0;

    /* norms of A and B for the backward error, B kept for the residuals:
     * enqueued now, waited for after the factorization, which they overlap */
    HYLA_TRY(o->row_asum(pl->q, pl->t, n, n, job->A, job->lda, pl->sums));
    HYLA_TRY(o->copy_2d(pl->q, pl->hsums, (size_t)n * rs, pl->sums, (size_t)n * rs,
                        (size_t)n * rs, 1, HYLA_COPY_D2H));
    HYLA_TRY(o->copy_2d(pl->q, pl->B0, col, job->B, (size_t)job->ldb * es, col, (size_t)nrhs,
                        HYLA_COPY_D2D));
    HYLA_TRY(o->copy_2d(pl->q, pl->hB0, all, pl->B0, all, all, 1, HYLA_COPY_D2H));
    double t2 = hyla_wtime();
    info->t_refine += t2 - t1;

    /* factorization without pivoting */
    int finfo = lu_factor(pl->ctx, job->dev, pl->t, np, pl->Ar, np);
    if (finfo < 0) HYLA_TRY(finfo);
    if (finfo == 0) HYLA_TRY(pivots_small(pl, &finfo));
    double t3 = hyla_wtime();
    info->t_factor = t3 - t2;

    HYLA_TRY(o->queue_sync(pl->q));
    pl->anorm = 0;
    for (int64_t i = 0; i < n; i++)
        pl->anorm = max_nan(pl->anorm, rs == sizeof(float) ? ((float *)pl->hsums)[i]
                                                           : ((double *)pl->hsums)[i]);
    for (int64_t j = 0; j < nrhs; j++) pl->bnorm[j] = col_amax(pl->t, pl->hB0, n, j);
    info->t_refine += hyla_wtime() - t3;

    double berr = NAN;
    if (finfo == 0) {
        HYLA_TRY(apply_inverse(pl, pl->B0, pl->hX, &info->t_solve));
        double t4 = hyla_wtime();
        HYLA_TRY(residual(pl, &berr));
        const double random0 = info->t_random;
        double solves = 0;
        for (int step = 0; step < job->max_refine && !(berr <= pl->eps / 2) && isfinite(berr);
             step++) {
            memcpy(pl->hXold, pl->hX, all);
            HYLA_TRY(apply_inverse(pl, pl->R, pl->hD, &solves));
            add_to(pl->t, pl->hX, pl->hD, n * nrhs);
            info->refine_steps++;
            double next;
            HYLA_TRY(residual(pl, &next));
            if (!(next < berr)) { /* worse (or NaN): undo the step */
                memcpy(pl->hX, pl->hXold, all);
                break;
            }
            const int halved = next <= berr / 2;
            berr = next;
            if (!halved) break;
        }
        /* the transforms inside the steps count as randomization */
        info->t_refine += hyla_wtime() - t4 - (info->t_random - random0);
    }
    info->berr_rbt = berr;
    info->berr = berr;
    if (finfo > 0) info->fallback_reason = HYLA_RBT_SMALL_PIVOT;
    else if (!(berr <= sqrt((double)n) * pl->eps)) info->fallback_reason = HYLA_RBT_NOT_CONVERGED;

    if (info->fallback_reason != HYLA_RBT_OK) {
        /* the transformed factor is of no further use: room for the fallback */
        o->mem_free(pl->dev, HYLA_MEM_DEVICE, pl->Ar);
        pl->Ar = NULL;
        double t5 = hyla_wtime();
        info->fallback = 1;
        rc = fallback(pl);
        if (rc) goto cleanup;
        HYLA_TRY(residual(pl, &info->berr));
        info->t_fallback = hyla_wtime() - t5;
    }
    HYLA_TRY(o->copy_2d(pl->q, job->B, (size_t)job->ldb * es, pl->hX, col, col, (size_t)nrhs,
                        HYLA_COPY_H2D));
    HYLA_TRY(o->queue_sync(pl->q));
cleanup:
    return rc;
}

int hyla_prbt(hyla_t *ctx, const hyla_rbt_job *job, hyla_rbt_info *info) {
    const double t0 = hyla_wtime();
    plan pl = {.ctx = ctx, .job = job, .info = info, .t = job->t, .n = job->n,
               .nrhs = job->nrhs};
    pl.dev = ctx->devs[job->dev];
    pl.o = pl.dev->ops;
    pl.es = hyla_dtype_size(job->t);
    pl.rs = (job->t == HYLA_S || job->t == HYLA_C) ? sizeof(float) : sizeof(double);
    pl.np = hyla_rbt_padded(job->n, job->depth);
    pl.eps = pl.rs == sizeof(float) ? FLT_EPSILON : DBL_EPSILON;
    info->depth = job->depth;
    info->n_padded = pl.np;
    hyla_dev_workspace *ws;
    int rc = hyla_workspace_get(ctx, job->dev, 0, 0, &ws);
    if (!rc) {
        pl.q = ws->q_comp;
        rc = run(&pl);
        if (rc) (void)pl.o->queue_sync(pl.q); /* nothing in flight uses the buffers */
    }
    plan_free(&pl);
    info->t_total = hyla_wtime() - t0;
    return rc;
}
