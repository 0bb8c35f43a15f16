/* RBT solver public drivers: argument checks in LAPACK order, quick returns,
 * the host copies of the host-resident entry, then the one-device algorithm
 * (prbt.c); t_rbt.c once per precision. */
#include "lu/prbt.h"
#include <string.h>

/* gesv_rbt: 1 n, 2 nrhs, 3 A, 4 lda, 5 B, 6 ldb, 7 opts, 8 info; fills the
 * job's options (defaults for zero fields). */
static int rbt_check(hyla_t *ctx, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                     const void *B, int64_t ldb, const hyla_rbt_opts *opts, hyla_rbt_info *info,
                     int host, hyla_rbt_job *job) {
    if (n < 0) return -1;
    if (nrhs < 0) return -2;
    if (!A && n > 0) return -3;
    if (lda < HYLA_MAX(1, n)) return -4;
    if (!B && n > 0 && nrhs > 0) return -5;
    if (ldb < HYLA_MAX(1, n)) return -6;
    const hyla_rbt_opts none = {0};
    if (!opts) opts = &none;
    if (opts->depth < 0 || opts->depth > HYLA_RBT_MAX_DEPTH || opts->max_refine > 100) return -7;
    if (!info) return -8;
    if (host && (opts->dev < 0 || opts->dev >= ctx->ndev)) return HYLA_ERR_NO_DEVICE;
    job->n = n;
    job->nrhs = nrhs;
    job->depth = opts->depth ? opts->depth : 2;
    job->max_refine = opts->max_refine == 0 ? 10 : opts->max_refine < 0 ? 0 : opts->max_refine;
    job->seed = opts->seed;
    if (host) job->dev = opts->dev;
    memset(info, 0, sizeof *info);
    info->depth = job->depth;
    info->n_padded = hyla_rbt_padded(n, job->depth);
    return 0;
}

/* The host-resident entry: A and B to the device, the solver, X back. */
static int rbt_host(hyla_t *ctx, hyla_rbt_job *job, const void *A, int64_t lda, void *B,
                    int64_t ldb, hyla_rbt_info *info) {
    const double t0 = hyla_wtime();
    hyla_dev *d = ctx->devs[job->dev];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(job->t), col = (size_t)job->n * es;
    void *dA = NULL, *dB = NULL;
    hyla_dev_workspace *ws;
    int rc = hyla_workspace_get(ctx, job->dev, 0, 0, &ws);
    if (rc) return rc;
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, col * (size_t)job->n, &dA));
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, col * (size_t)job->nrhs, &dB));
    HYLA_TRY(o->copy_2d(ws->q_in, dA, col, A, (size_t)lda * es, col, (size_t)job->n,
                        HYLA_COPY_H2D));
    HYLA_TRY(o->copy_2d(ws->q_in, dB, col, B, (size_t)ldb * es, col, (size_t)job->nrhs,
                        HYLA_COPY_H2D));
    HYLA_TRY(o->queue_sync(ws->q_in));
    job->A = dA;
    job->lda = job->n;
    job->B = dB;
    job->ldb = job->n;
    double copy = hyla_wtime() - t0;
    rc = hyla_prbt(ctx, job, info);
    if (rc) goto cleanup;
    const double t1 = hyla_wtime();
    HYLA_TRY(o->copy_2d(ws->q_in, B, (size_t)ldb * es, dB, col, col, (size_t)job->nrhs,
                        HYLA_COPY_D2H));
    HYLA_TRY(o->queue_sync(ws->q_in));
    copy += hyla_wtime() - t1;
    info->t_copy = copy;
    info->t_total = hyla_wtime() - t0;
cleanup:
    if (rc) (void)o->queue_sync(ws->q_in);
    if (dA) o->mem_free(d, HYLA_MEM_DEVICE, dA);
    if (dB) o->mem_free(d, HYLA_MEM_DEVICE, dB);
    return rc;
}

#define HYLA_TEMPLATE "lu/t_rbt.c"
#include "core/each_prec.h"
