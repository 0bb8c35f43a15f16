/* Device memory for the *_gpu entry points. */
#include "core/internal.h"

int hyla_malloc_device(hyla_t *ctx, int dev, size_t bytes, void **ptr) {
    HYLA_SERIAL(ctx);
    if (!ctx) return -1;
    if (!ptr) return -4;
    *ptr = NULL;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    hyla_dev *d = ctx->devs[dev];
    return d->ops->mem_alloc(d, HYLA_MEM_DEVICE, bytes, ptr);
}

void hyla_free_device(hyla_t *ctx, int dev, void **ptr) {
    HYLA_SERIAL(ctx);
    if (!ctx || !ptr || !*ptr || dev < 0 || dev >= ctx->ndev) return;
    hyla_dev *d = ctx->devs[dev];
    d->ops->mem_free(d, HYLA_MEM_DEVICE, *ptr);
    *ptr = NULL;
}

static int copy_sync(hyla_t *ctx, int dev, void *dst, const void *src, size_t bytes,
                     hyla_copy_kind kind) {
    if (!ctx) return -1;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    if (bytes == 0) return 0;
    if (!dst) return -3;
    if (!src) return -4;
    hyla_dev_workspace *ws;
    int rc = hyla_workspace_get(ctx, dev, 0, 0, &ws);
    if (rc) return rc;
    const hyla_backend_ops *o = ctx->devs[dev]->ops;
    rc = o->copy_2d(ws->q_in, dst, bytes, src, bytes, bytes, 1, kind);
    int rs = o->queue_sync(ws->q_in);
    return rc ? rc : rs;
}

int hyla_copy_to_device(hyla_t *ctx, int dev, void *dst, const void *src, size_t bytes) {
    HYLA_SERIAL(ctx);
    return copy_sync(ctx, dev, dst, src, bytes, HYLA_COPY_H2D);
}

int hyla_copy_from_device(hyla_t *ctx, int dev, void *dst, const void *src, size_t bytes) {
    HYLA_SERIAL(ctx);
    return copy_sync(ctx, dev, dst, src, bytes, HYLA_COPY_D2H);
}
