/* The input check of hyla's NaN/Inf policy (hyla.h, "NaN and Inf") on
 * device-resident data: the backend's nonfinite op runs where the data is,
 * and one int comes back. */
#include "core/internal.h"

int hyla_check_finite_dev(hyla_t *ctx, int dev, hyla_dtype t, int uplo, int64_t off, int64_t m,
                          int64_t n, const void *A, int64_t lda) {
    if (m == 0 || n == 0) return 0;
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    hyla_dev_workspace *ws;
    int *dbad = NULL, bad = 0;
    int rc = hyla_workspace_get(ctx, dev, 0, 0, &ws);
    if (rc) return rc;
    hyla_queue *q = ws->q_comp;
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, sizeof *dbad, (void **)&dbad));
    HYLA_TRY(o->nonfinite(q, t, uplo, off, m, n, A, lda, dbad));
    HYLA_TRY(o->copy_2d(q, &bad, sizeof bad, dbad, sizeof bad, sizeof bad, 1, HYLA_COPY_D2H));
    HYLA_TRY(o->queue_sync(q));
    if (bad) rc = HYLA_ERR_NAN;
cleanup:;
    const int rs = o->queue_sync(q); /* nothing in flight reads dbad */
    if (!rc) rc = rs;
    o->mem_free(d, HYLA_MEM_DEVICE, dbad);
    return rc;
}
