/* RBT solver public drivers: argument checks in LAPACK order, quick returns,
 * the host copies of the host-resident entry, then the one-device algorithm
 * (prbt.c); t_rbt.c once per precision. */
#include "lu/prbt.h"
#include "core/xfer.h"
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
    if (!hyla_size_ok(n, n, lda)) return -1;
    if (!hyla_size_ok(n, nrhs, ldb)) return -2;
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

#define NSLOTS 4

/* Host <-> device copies of the host-resident entry: through a ring of
 * pinned staging slots of the device's workspace (core/xfer), which the
 * pack threads fill from the caller's pageable memory while the copy engine
 * drains the previous slot; a direct copy from pageable memory runs at a
 * fraction of the bus rate. A fresh ring per direction, as the solver's
 * fallback may grow (and so move) the workspace's pinned memory. */
static int staged(hyla_t *ctx, int dev, int up, hyla_dtype t, void *devp, const void *host,
                  int64_t ldh, int64_t rows, int64_t cols) {
    hyla_dev *d = ctx->devs[dev];
    const size_t slot = hyla_xfer_slot(d, (size_t)rows * (size_t)cols * hyla_dtype_size(t), NSLOTS);
    hyla_dev_workspace *ws;
    hyla_xfer x;
    int rc = hyla_workspace_get(ctx, dev, 0, NSLOTS * slot, &ws);
    if (rc) return rc;
    rc = hyla_xfer_init(&x, d, ws->pinned, NSLOTS, slot, hyla_dtype_size(t),
                        hyla_pack_threads(ctx));
    if (rc) return rc;
    if (up) rc = hyla_xfer_up(&x, ws->q_in, devp, rows, host, ldh, 0, 0, rows, cols,
                              HYLA_XFER_ALL);
    else rc = hyla_xfer_down(&x, ws->q_in, (void *)host, ldh, devp, rows, 0, 0, rows, cols,
                             HYLA_XFER_ALL, NULL, NULL);
    const int rs = d->ops->queue_sync(ws->q_in); /* also when enqueueing failed */
    hyla_xfer_fini(&x);
    return rc ? rc : rs;
}

/* The host-resident entry: A and B to the device, the solver, X back. */
static int rbt_host(hyla_t *ctx, hyla_rbt_job *job, const void *A, int64_t lda, void *B,
                    int64_t ldb, hyla_rbt_info *info) {
    const double t0 = hyla_wtime();
    hyla_dev *d = ctx->devs[job->dev];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(job->t), col = (size_t)job->n * es;
    void *dA = NULL, *dB = NULL;
    int rc = 0;
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, col * (size_t)job->n, &dA));
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, col * (size_t)job->nrhs, &dB));
    HYLA_TRY(staged(ctx, job->dev, 1, job->t, dA, A, lda, job->n, job->n));
    HYLA_TRY(staged(ctx, job->dev, 1, job->t, dB, B, ldb, job->n, job->nrhs));
    job->A = dA;
    job->lda = job->n;
    job->B = dB;
    job->ldb = job->n;
    double copy = hyla_wtime() - t0;
    HYLA_TRY(hyla_prbt(ctx, job, info));
    const double t1 = hyla_wtime();
    HYLA_TRY(staged(ctx, job->dev, 0, job->t, dB, B, ldb, job->n, job->nrhs));
    copy += hyla_wtime() - t1;
    info->t_copy = copy;
    info->t_total = hyla_wtime() - t0;
cleanup:
    if (dA) o->mem_free(d, HYLA_MEM_DEVICE, dA);
    if (dB) o->mem_free(d, HYLA_MEM_DEVICE, dB);
    return rc;
}

#define HYLA_TEMPLATE "lu/t_rbt.c"
#include "base/each_prec.h"
