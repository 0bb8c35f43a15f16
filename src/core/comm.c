/* Collectives between the devices of one context (see comm.h). */
#include "core/comm.h"
#include <string.h>

static const hyla_backend_ops *ops(const hyla_comm *c, int g) { return c->ctx->devs[g]->ops; }

int hyla_comm_init(hyla_comm *c, hyla_t *ctx, int nd, hyla_queue *const *q) {
    memset(c, 0, sizeof *c);
    if (nd < 1 || nd > HYLA_COMM_MAX || nd > ctx->ndev) return HYLA_ERR_INVALID;
    c->ctx = ctx, c->nd = nd;
    int rc = 0;
    for (int g = 0; g < nd; g++) {
        hyla_dev *d = ctx->devs[g];
        c->q[g] = q[g];
        HYLA_TRY(d->ops->event_create(d, 0, &c->ready[g]));
        HYLA_TRY(d->ops->event_create(d, 0, &c->read[g]));
    }
    return 0;
cleanup:
    hyla_comm_fini(c);
    return rc;
}

void hyla_comm_fini(hyla_comm *c) {
    if (!c->ctx) return;
    for (int g = 0; g < c->nd; g++)
        if (c->q[g]) ops(c, g)->queue_sync(c->q[g]);
    hyla_dev *d0 = c->ctx->devs[0];
    for (int g = 0; g < c->nd; g++) {
        hyla_dev *d = c->ctx->devs[g];
        if (c->ready[g]) d->ops->event_destroy(c->ready[g]);
        if (c->read[g]) d->ops->event_destroy(c->read[g]);
        d0->ops->mem_free(d0, HYLA_MEM_DEVICE, c->recv[g]);
        d->ops->mem_free(d, HYLA_MEM_PINNED, c->host[g]);
    }
    memset(c, 0, sizeof *c);
}

/* device `only` (every device when only < 0) waits on its queue for ev[h]
 * of every other device h (h is done reading its buffer) */
static int wait_all(hyla_comm *c, hyla_event *const *ev, int only) {
    for (int g = 0; g < c->nd; g++) {
        if (only >= 0 && g != only) continue;
        for (int h = 0; h < c->nd; h++) {
            if (h == g) continue;
            int rc = ops(c, g)->queue_wait_event(c->q[g], ev[h]);
            if (rc) return rc;
        }
    }
    return 0;
}

int hyla_comm_bcast(hyla_comm *c, int root, hyla_dtype t, int64_t rows, int64_t cols,
                    void *const *buf, int64_t ld) {
    const size_t es = hyla_dtype_size(t);
    if (c->nd == 1 || rows == 0 || cols == 0) return 0;
    int rc = ops(c, root)->event_record(c->ready[root], c->q[root]);
    for (int g = 0; !rc && g < c->nd; g++) {
        if (g == root) continue;
        const hyla_backend_ops *o = ops(c, g);
        rc = o->queue_wait_event(c->q[g], c->ready[root]);
        if (!rc) rc = o->copy_2d(c->q[g], buf[g], (size_t)ld * es, buf[root], (size_t)ld * es,
                                 (size_t)rows * es, (size_t)cols, HYLA_COPY_D2D);
        if (!rc) rc = o->event_record(c->read[g], c->q[g]);
        c->bytes_peer += (double)(rows * cols) * (double)es;
    }
    /* the root's later work may overwrite its buffer once every copy is done */
    for (int g = 0; !rc && g < c->nd; g++)
        if (g != root) rc = ops(c, root)->queue_wait_event(c->q[root], c->read[g]);
    return rc;
}

int hyla_comm_allreduce(hyla_comm *c, int via_host, hyla_dtype t, int64_t rows, int64_t cols,
                        void *const *buf, int64_t ld) {
    const size_t es = hyla_dtype_size(t), bytes = (size_t)(rows * cols) * es;
    hyla_dev *d0 = c->ctx->devs[0];
    const hyla_backend_ops *o0 = d0->ops;
    const void *one = hyla_scalar(t, HYLA_SC_ONE);
    int rc = 0;
    if (c->nd == 1 || rows == 0 || cols == 0) return 0;
    if (via_host) {
        const double t0 = hyla_wtime();
        if (c->host_bytes < bytes) {
            for (int g = 0; g < c->nd; g++) {
                hyla_dev *d = c->ctx->devs[g];
                d->ops->mem_free(d, HYLA_MEM_PINNED, c->host[g]);
                c->host[g] = NULL;
            }
            c->host_bytes = 0;
            for (int g = 0; g < c->nd; g++) {
                hyla_dev *d = c->ctx->devs[g];
                HYLA_TRY(d->ops->mem_alloc(d, HYLA_MEM_PINNED, bytes, &c->host[g]));
            }
            c->host_bytes = bytes;
        }
        const size_t colb = (size_t)rows * es;
        for (int g = 0; g < c->nd; g++)
            HYLA_TRY(ops(c, g)->copy_2d(c->q[g], c->host[g], colb, buf[g], (size_t)ld * es, colb,
                                        (size_t)cols, HYLA_COPY_D2H));
        for (int g = 0; g < c->nd; g++) HYLA_TRY(ops(c, g)->queue_sync(c->q[g]));
        /* the sum in the real type (a complex entry is two reals) */
        const int64_t cnt = rows * cols * ((t == HYLA_C || t == HYLA_Z) ? 2 : 1);
        if (t == HYLA_S || t == HYLA_C) {
            float *y0 = c->host[0];
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < cnt; i++)
                for (int g = 1; g < c->nd; g++) y0[i] += ((const float *)c->host[g])[i];
        } else {
            double *y0 = c->host[0];
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < cnt; i++)
                for (int g = 1; g < c->nd; g++) y0[i] += ((const double *)c->host[g])[i];
        }
        for (int g = 0; g < c->nd; g++)
            HYLA_TRY(ops(c, g)->copy_2d(c->q[g], buf[g], (size_t)ld * es, c->host[0], colb, colb,
                                        (size_t)cols, HYLA_COPY_H2D));
        /* host[0] is read by every device's upload: done before the next sum */
        for (int g = 0; g < c->nd; g++) HYLA_TRY(ops(c, g)->queue_sync(c->q[g]));
        c->bytes_host += 2.0 * c->nd * (double)bytes;
        c->host_seconds += hyla_wtime() - t0;
        return 0;
    }
    if (c->recv_bytes < bytes) {
        /* device 0's queue may still read the old buffers */
        HYLA_TRY(o0->queue_sync(c->q[0]));
        for (int g = 1; g < c->nd; g++) {
            o0->mem_free(d0, HYLA_MEM_DEVICE, c->recv[g]);
            c->recv[g] = NULL;
        }
        c->recv_bytes = 0;
        for (int g = 1; g < c->nd; g++)
            HYLA_TRY(o0->mem_alloc(d0, HYLA_MEM_DEVICE, bytes, &c->recv[g]));
        c->recv_bytes = bytes;
    }
    for (int g = 1; g < c->nd; g++) HYLA_TRY(ops(c, g)->event_record(c->ready[g], c->q[g]));
    for (int g = 1; g < c->nd; g++) {
        HYLA_TRY(o0->queue_wait_event(c->q[0], c->ready[g]));
        HYLA_TRY(o0->copy_2d(c->q[0], c->recv[g], (size_t)rows * es, buf[g], (size_t)ld * es,
                             (size_t)rows * es, (size_t)cols, HYLA_COPY_D2D));
        HYLA_TRY(o0->geam(c->q[0], t, HYLA_NOTRANS, rows, cols, one, c->recv[g], rows, one, buf[0],
                          ld));
    }
    HYLA_TRY(o0->event_record(c->ready[0], c->q[0]));
    for (int g = 1; g < c->nd; g++) {
        const hyla_backend_ops *o = ops(c, g);
        HYLA_TRY(o->queue_wait_event(c->q[g], c->ready[0]));
        HYLA_TRY(o->copy_2d(c->q[g], buf[g], (size_t)ld * es, buf[0], (size_t)ld * es,
                            (size_t)rows * es, (size_t)cols, HYLA_COPY_D2D));
        HYLA_TRY(o->event_record(c->read[g], c->q[g]));
    }
    HYLA_TRY(wait_all(c, c->read, 0));
    c->bytes_peer += 2.0 * (c->nd - 1) * (double)bytes;
cleanup:
    return rc;
}

int hyla_comm_allgather_rows(hyla_comm *c, hyla_dtype t, const int64_t *r, int64_t cols,
                             void *const *buf, int64_t ld) {
    const size_t es = hyla_dtype_size(t);
    int rc = 0;
    if (c->nd == 1 || cols == 0) return 0;
    for (int g = 0; g < c->nd; g++) HYLA_TRY(ops(c, g)->event_record(c->ready[g], c->q[g]));
    for (int h = 0; h < c->nd; h++) {
        const hyla_backend_ops *o = ops(c, h);
        for (int g = 0; g < c->nd; g++) {
            if (g == h || r[g + 1] <= r[g]) continue;
            HYLA_TRY(o->queue_wait_event(c->q[h], c->ready[g]));
            HYLA_TRY(o->copy_2d(c->q[h], hyla_elem(buf[h], r[g], 0, ld, es), (size_t)ld * es,
                                hyla_elem(buf[g], r[g], 0, ld, es), (size_t)ld * es,
                                (size_t)(r[g + 1] - r[g]) * es, (size_t)cols, HYLA_COPY_D2D));
            c->bytes_peer += (double)((r[g + 1] - r[g]) * cols) * (double)es;
        }
        HYLA_TRY(o->event_record(c->read[h], c->q[h]));
    }
    /* no device overwrites its rows before every other one has copied them */
    HYLA_TRY(wait_all(c, c->read, -1));
cleanup:
    return rc;
}
