/* Tridiagonal eigenvalues by bisection on a device (the backend's
 * tri_eigvals op; method in backend/ops/tri_bisect.h): the public drivers
 * hyla_{s,d}sterf_bisect and the eigenvalues-only choice of the
 * eigensolver driver between it and the host cores' sterf (ptridiag.h). */
#include "eig/ptridiag.h"

int hyla_eig_tri_bisect(hyla_t *ctx, int dev, hyla_dtype rt, int64_t n, const void *d,
                        const void *e, void *w) {
    if (!ctx || (rt != HYLA_S && rt != HYLA_D) || n < 0 || (n > 0 && (!d || !w)) ||
        (n > 1 && !e))
        return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    if (n == 0) return 0;
    hyla_dev *dv = ctx->devs[dev];
    const hyla_backend_ops *o = dv->ops;
    if (!o->alg->tri_eigvals) return HYLA_ERR_UNSUPPORTED;
    const size_t rs = hyla_dtype_size(rt), vb = ((size_t)n * rs + 63) / 64 * 64;
    const size_t wb = (HYLA_TRI_EIGVALS_WORK_BYTES(n) + 63) / 64 * 64;
    hyla_dev_workspace *ws;
    unsigned char *buf = NULL;
    int info = 0, rc = hyla_workspace_get(ctx, dev, 0, 0, &ws);
    if (rc) return rc;
    hyla_queue *q = ws->q_comp;
    /* one allocation: the op's workspace, d, e, w, info */
    HYLA_TRY(o->mem_alloc(dv, HYLA_MEM_DEVICE, wb + 3 * vb + 64, (void **)&buf));
    unsigned char *dd = buf + wb, *de = dd + vb, *dw = de + vb;
    int *dinfo = (int *)(dw + vb);
    /* the copies read the caller's pageable memory as they are enqueued */
    HYLA_TRY(o->copy_2d(q, dd, (size_t)n * rs, d, (size_t)n * rs, (size_t)n * rs, 1,
                        HYLA_COPY_H2D));
    if (n > 1)
        HYLA_TRY(o->copy_2d(q, de, (size_t)(n - 1) * rs, e, (size_t)(n - 1) * rs,
                            (size_t)(n - 1) * rs, 1, HYLA_COPY_H2D));
    HYLA_TRY(o->alg->tri_eigvals(q, rt, n, dd, n > 1 ? de : NULL, dw, buf, wb, dinfo));
    HYLA_TRY(o->copy_2d(q, &info, sizeof info, dinfo, sizeof info, sizeof info, 1,
                        HYLA_COPY_D2H));
    HYLA_TRY(o->queue_sync(q));
    if (info) HYLA_TRY(HYLA_ERR_NAN);
    HYLA_TRY(o->copy_2d(q, w, (size_t)n * rs, dw, (size_t)n * rs, (size_t)n * rs, 1,
                        HYLA_COPY_D2H));
cleanup:;
    const int rs2 = o->queue_sync(q);
    if (!rc) rc = rs2;
    o->mem_free(dv, HYLA_MEM_DEVICE, buf);
    return rc;
}

int hyla_eig_tri_values(hyla_t *ctx, int dev, hyla_dtype rt, int64_t n, void *d, void *e) {
    const int64_t mode = ctx ? ctx->opt_eig_tridiag : 1;
    int bisect = mode == 2;
    if (mode == 0 && dev >= 0 && dev < ctx->ndev)
        /* from the tuning table's order (never on host devices) */
        bisect = n >= hyla_tuning_for(ctx->devs[dev])->eig_bisect_min_n &&
                 ctx->devs[dev]->ops->alg->tri_eigvals;
    return bisect ? hyla_eig_tri_bisect(ctx, dev, rt, n, d, e, d) : hyla_eig_sterf(rt, n, d, e);
}

/* sterf_bisect: 1 ctx, 2 n, 3 d, 4 e */
static int sterf_bisect_check(const hyla_t *ctx, int64_t n, const void *d, const void *e) {
    if (!ctx) return HYLA_ERR_INVALID;
    if (n < 0) return -2;
    if (!d && n > 0) return -3;
    if (!e && n > 1) return -4;
    return 0;
}

int hyla_ssterf_bisect(hyla_t *ctx, int64_t n, float *d, const float *e) {
    HYLA_SERIAL(ctx);
    int info = sterf_bisect_check(ctx, n, d, e);
    return info ? info : hyla_eig_tri_bisect(ctx, 0, HYLA_S, n, d, e, d);
}

int hyla_dsterf_bisect(hyla_t *ctx, int64_t n, double *d, const double *e) {
    HYLA_SERIAL(ctx);
    int info = sterf_bisect_check(ctx, n, d, e);
    return info ? info : hyla_eig_tri_bisect(ctx, 0, HYLA_D, n, d, e, d);
}
