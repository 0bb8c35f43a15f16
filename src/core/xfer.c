/* Staged host <-> device transfers (see xfer.h). */
#include "core/xfer.h"
#include <string.h>
#include <unistd.h>

struct hyla_xfer_job {
    hyla_xfer *x;
    unsigned char *host;         /* element (sr, sc) of the piece, host side */
    int64_t ldh, sr, sc, rows, cols;
    int clip;
    const unsigned char *slot;
    hyla_xfer_skip_fn skip;
    void *skip_arg;
};

int hyla_pack_threads(hyla_t *ctx) {
    if (ctx->opt_pack_threads > 0) return (int)ctx->opt_pack_threads;
    if (ctx->devs[0]->ops->host_cores) return 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long t = (cores - ctx->ndev) / ctx->ndev;
    return (int)HYLA_MAX(1, HYLA_MIN(t, 12));
}

/* Threads for a copy of `bytes`: at most `threads`, and at least
 * PACK_MIN_BYTES for each, so that small copies (a row of z for each
 * divide-and-conquer merge, a leaf's block) run in the calling thread
 * instead of starting an OpenMP team of up to 12 threads for a few
 * kilobytes: one thread copies about 5 GB/s, 1 MB in 0.2 ms. With 4 MB a
 * thread, the 4.7 MB download pieces of a multi-device LU (one 768 x 768
 * block, unpacked by a host function on the device's download queue) went
 * to one thread and bounded the LU: two H200, host-resident dgetrf at n =
 * 32768, 1.79 s against 0.81 s with a team; 65536, 9.13 s against 3.88 s
 * (plu.c's DOWN_EVERY now makes those pieces four times larger). */
#define PACK_MIN_BYTES ((size_t)1 << 20)
static int pack_team(int threads, size_t bytes) {
    const size_t t = bytes / PACK_MIN_BYTES;
    return threads < 2 || t < 2 ? 1 : (int)HYLA_MIN((size_t)threads, t);
}

void hyla_pack_cols(unsigned char *dst, int64_t ldd, const unsigned char *src, int64_t lds,
                    int64_t rows, int64_t cols, size_t esz, int threads) {
    const size_t w = (size_t)rows * esz;
    threads = pack_team(threads, w * (size_t)cols);
    if ((ldd == rows && lds == rows) || cols == 1) {
        /* one contiguous block: split it evenly */
        const size_t total = w * (size_t)cols, piece = (size_t)1 << 22;
        const int64_t np = (int64_t)HYLA_CEILDIV(total, piece);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && np > 1)
        for (int64_t b = 0; b < np; b++) {
            size_t off = (size_t)b * piece;
            memcpy(dst + off, src + off, HYLA_MIN(piece, total - off));
        }
        return;
    }
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && cols > 1)
    for (int64_t j = 0; j < cols; j++)
        memcpy(dst + (size_t)j * (size_t)ldd * esz, src + (size_t)j * (size_t)lds * esz, w);
}

/* Rows [*lo, *hi) of local column j of a region at (sr, sc) inside the clip. */
static void clip_rows(int clip, int64_t sr, int64_t sc, int64_t rows, int64_t j, int64_t *lo,
                      int64_t *hi) {
    const int64_t gj = sc + j;
    *lo = 0;
    *hi = rows;
    if (clip == HYLA_XFER_LOWER) *lo = HYLA_MIN(rows, HYLA_MAX(0, gj - sr));
    else if (clip == HYLA_XFER_UPPER) *hi = HYLA_MAX(0, HYLA_MIN(rows, gj - sr + 1));
}

/* Copies the clipped part of a region between a strided matrix and a
 * contiguous piece (ld = rows); to_piece selects the direction. */
static void copy_clipped(unsigned char *piece, unsigned char *mat, int64_t ldm, int64_t sr,
                         int64_t sc, int64_t rows, int64_t cols, int clip, size_t esz,
                         int threads, int to_piece) {
    if (clip == HYLA_XFER_ALL) {
        if (to_piece) hyla_pack_cols(piece, rows, mat, ldm, rows, cols, esz, threads);
        else hyla_pack_cols(mat, ldm, piece, rows, rows, cols, esz, threads);
        return;
    }
    threads = pack_team(threads, (size_t)rows * (size_t)cols * esz);
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && cols > 1)
    for (int64_t j = 0; j < cols; j++) {
        int64_t lo, hi;
        clip_rows(clip, sr, sc, rows, j, &lo, &hi);
        if (hi <= lo) continue;
        unsigned char *p = piece + (size_t)(lo + j * rows) * esz;
        unsigned char *m = mat + (size_t)(lo + j * ldm) * esz;
        if (to_piece) memcpy(p, m, (size_t)(hi - lo) * esz);
        else memcpy(m, p, (size_t)(hi - lo) * esz);
    }
}

int hyla_xfer_init(hyla_xfer *x, hyla_dev *dev, void *pinned, int nslots, size_t slot_bytes,
                   size_t esz, int threads) {
    memset(x, 0, sizeof *x);
    x->dev = dev;
    x->mem = pinned;
    x->nslots = nslots;
    x->slot_bytes = slot_bytes;
    x->esz = esz;
    x->threads = threads;
    x->free_ev = hyla_calloc((size_t)nslots, sizeof *x->free_ev);
    x->used = hyla_calloc((size_t)nslots, 1);
    x->jobs = hyla_calloc((size_t)nslots, sizeof *x->jobs);
    x->pending = hyla_calloc((size_t)nslots, 1);
    if (!x->free_ev || !x->used || !x->jobs || !x->pending) {
        hyla_xfer_fini(x);
        return HYLA_ERR_NO_MEMORY;
    }
    for (int i = 0; i < nslots; i++) {
        int rc = dev->ops->event_create(dev, 0, &x->free_ev[i]);
        if (rc) {
            hyla_xfer_fini(x);
            return rc;
        }
    }
    return 0;
}

void hyla_xfer_fini(hyla_xfer *x) {
    if (x->free_ev)
        for (int i = 0; i < x->nslots; i++)
            if (x->free_ev[i]) x->dev->ops->event_destroy(x->free_ev[i]);
    hyla_free(x->free_ev);
    hyla_free(x->used);
    hyla_free(x->jobs);
    hyla_free(x->pending);
    x->free_ev = NULL;
    x->used = NULL;
    x->jobs = NULL;
    x->pending = NULL;
}

static void unpack_piece(void *arg);

/* Next slot, waiting until its previous use is over (and, with
 * caller_unpacks, unpacking what it holds). */
static int take_slot(hyla_xfer *x, int *s) {
    *s = x->next;
    x->next = (x->next + 1) % x->nslots;
    if (!x->used[*s]) return 0;
    int rc = x->dev->ops->event_sync(x->free_ev[*s]);
    if (!rc && x->pending[*s]) unpack_piece(&x->jobs[*s]);
    x->pending[*s] = 0;
    return rc;
}

int hyla_xfer_drain(hyla_xfer *x) {
    for (int k = 0; k < x->nslots; k++) { /* oldest first */
        const int s = (x->next + k) % x->nslots;
        if (!x->pending[s]) continue;
        const int rc = x->dev->ops->event_sync(x->free_ev[s]);
        if (rc) return rc;
        unpack_piece(&x->jobs[s]);
        x->pending[s] = 0;
    }
    return 0;
}

/* Piece shape: whole columns when they fit a slot, else row blocks. */
static void piece_shape(const hyla_xfer *x, int64_t rows, int64_t cols, int64_t *pr,
                        int64_t *pc) {
    const int64_t per_slot = (int64_t)(x->slot_bytes / x->esz);
    *pr = HYLA_MIN(rows, per_slot);
    *pc = HYLA_MAX(1, HYLA_MIN(cols, per_slot / *pr));
}

static void unpack_piece(void *arg) {
    hyla_xfer_job *j = arg;
    if (j->skip && j->skip(j->skip_arg)) return;
    copy_clipped((unsigned char *)j->slot, j->host, j->ldh, j->sr, j->sc, j->rows, j->cols,
                 j->clip, j->x->esz, j->x->threads, 0);
}

/* Both directions: the region is cut into slot-sized pieces; an upload
 * packs a piece and copies it to the device, a download copies it to the
 * slot and unpacks it by a host function on q. */
static int xfer_run(hyla_xfer *x, hyla_queue *q, int up, unsigned char *dev, int64_t ldd,
                    unsigned char *host, int64_t ldh, int64_t sr, int64_t sc, int64_t rows,
                    int64_t cols, int clip, hyla_xfer_skip_fn skip, void *skip_arg) {
    if (rows <= 0 || cols <= 0) return 0;
    const hyla_backend_ops *o = x->dev->ops;
    const size_t es = x->esz;
    int64_t pr, pc;
    piece_shape(x, rows, cols, &pr, &pc);
    for (int64_t c = 0; c < cols; c += pc)
        for (int64_t r = 0; r < rows; r += pr) {
            const int64_t mr = HYLA_MIN(pr, rows - r), mc = HYLA_MIN(pc, cols - c);
            int s, rc = take_slot(x, &s);
            if (rc) return rc;
            unsigned char *slot = x->mem + (size_t)s * x->slot_bytes;
            unsigned char *h = host + (size_t)(r + c * ldh) * es, *d = dev + (size_t)(r + c * ldd) * es;
            if (up) {
                copy_clipped(slot, h, ldh, sr + r, sc + c, mr, mc, clip, es, x->threads, 1);
                rc = o->copy_2d(q, d, (size_t)ldd * es, slot, (size_t)mr * es, (size_t)mr * es,
                                (size_t)mc, HYLA_COPY_H2D);
            } else {
                hyla_xfer_job *j = &x->jobs[s];
                *j = (hyla_xfer_job){.x = x, .host = h, .ldh = ldh, .sr = sr + r, .sc = sc + c,
                                     .rows = mr, .cols = mc, .clip = clip, .slot = slot,
                                     .skip = skip, .skip_arg = skip_arg};
                rc = o->copy_2d(q, slot, (size_t)mr * es, d, (size_t)ldd * es, (size_t)mr * es,
                                (size_t)mc, HYLA_COPY_D2H);
                if (!rc && !x->caller_unpacks) rc = o->host_fn(q, unpack_piece, j);
                x->pending[s] = (unsigned char)(!rc && x->caller_unpacks);
            }
            if (!rc) rc = o->event_record(x->free_ev[s], q);
            if (rc) return rc;
            x->used[s] = 1;
            x->bytes += mr * mc * (int64_t)es;
        }
    return 0;
}

int hyla_xfer_up(hyla_xfer *x, hyla_queue *q, void *dev, int64_t ldd, const void *host,
                 int64_t ldh, int64_t sr, int64_t sc, int64_t rows, int64_t cols, int clip) {
    return xfer_run(x, q, 1, dev, ldd, (unsigned char *)host, ldh, sr, sc, rows, cols, clip,
                    NULL, NULL);
}

int hyla_xfer_down(hyla_xfer *x, hyla_queue *q, void *host, int64_t ldh, const void *dev,
                   int64_t ldd, int64_t sr, int64_t sc, int64_t rows, int64_t cols, int clip,
                   hyla_xfer_skip_fn skip, void *skip_arg) {
    return xfer_run(x, q, 0, (unsigned char *)dev, ldd, host, ldh, sr, sc, rows, cols, clip,
                    skip, skip_arg);
}

/* Page-locking memory is slow on some hosts: on a two-H200 virtual
 * machine whose memory grows as it is touched, three test programs that
 * took 33 to 90 s there before spent minutes in cudaMallocHost and
 * cudaFreeHost of their 128 and 384 MB staging rings (a 300 x 300 Cholesky
 * staged through 12 slots of 32 MB), every case of the tests that release
 * the workspace paying it again. */
size_t hyla_xfer_slot(const hyla_dev *d, size_t total, int nslots) {
    const size_t tuned = hyla_tuning_for(d)->xfer_slot_bytes, mb = (size_t)1 << 20;
    size_t share = nslots > 0 ? total / (size_t)nslots + 1 : total;
    share = HYLA_MAX(mb, (share + mb - 1) / mb * mb);
    return HYLA_MIN(tuned, share);
}

/* The staging ring of the whole-matrix transfers below: NSLOTS slots of
 * hyla_xfer_slot's size for `total` bytes in the device's workspace's
 * pinned memory. */
enum { NSLOTS = 4 };
static int staging_init(hyla_t *ctx, int dev, size_t es, size_t total, hyla_dev_workspace **ws,
                        hyla_xfer *x) {
    hyla_dev *d = ctx->devs[dev];
    const size_t slot = hyla_xfer_slot(d, total, NSLOTS);
    int rc = hyla_workspace_get(ctx, dev, 0, NSLOTS * slot, ws);
    return rc ? rc : hyla_xfer_init(x, d, (*ws)->pinned, NSLOTS, slot, es, hyla_pack_threads(ctx));
}

int hyla_xfer_matrix(hyla_t *ctx, int dev, hyla_dtype t, int up, int64_t rows, int64_t cols,
                     void *host, int64_t ldh, void *dmem, int64_t ldd) {
    hyla_dev *d = ctx->devs[dev];
    hyla_dev_workspace *ws;
    hyla_xfer x;
    if (rows == 0 || cols == 0) return 0;
    if (d->ops->mem_host) { /* host memory on both sides: one copy, no staging */
        const size_t es = hyla_dtype_size(t);
        int rc = hyla_workspace_get(ctx, dev, 0, 0, &ws);
        if (!rc) rc = up ? d->ops->copy_2d(ws->q_in, dmem, (size_t)ldd * es, host,
                                           (size_t)ldh * es, (size_t)rows * es, (size_t)cols,
                                           HYLA_COPY_H2D)
                         : d->ops->copy_2d(ws->q_in, host, (size_t)ldh * es, dmem,
                                           (size_t)ldd * es, (size_t)rows * es, (size_t)cols,
                                           HYLA_COPY_D2H);
        int rs = rc ? 0 : d->ops->queue_sync(ws->q_in);
        return rc ? rc : rs;
    }
    int rc = staging_init(ctx, dev, hyla_dtype_size(t),
                          (size_t)rows * (size_t)cols * hyla_dtype_size(t), &ws, &x);
    if (rc) return rc;
    x.caller_unpacks = 1;
    rc = up ? hyla_xfer_up(&x, ws->q_in, dmem, ldd, host, ldh, 0, 0, rows, cols, HYLA_XFER_ALL)
            : hyla_xfer_down(&x, ws->q_in, host, ldh, dmem, ldd, 0, 0, rows, cols, HYLA_XFER_ALL,
                             NULL, NULL);
    if (!rc) rc = hyla_xfer_drain(&x);
    int rs = d->ops->queue_sync(ws->q_in);
    hyla_xfer_fini(&x);
    return rc ? rc : rs;
}

int hyla_xfer_download_behind(hyla_t *ctx, int dev, hyla_dtype t, int64_t rows, int64_t cols,
                              int64_t bc, void *host, int64_t ldh, const void *dmem, int64_t ldd,
                              hyla_queue *qp, hyla_xfer_produce_fn produce, void *arg,
                              double *t_produced) {
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(t);
    const int64_t nblk = bc > 0 && cols > 0 ? (cols + bc - 1) / bc : 0;
    hyla_dev_workspace *ws;
    hyla_event **ev = NULL;
    hyla_xfer x;
    *t_produced = hyla_wtime();
    if (nblk == 0 || rows == 0) return 0;
    int rc = staging_init(ctx, dev, es, (size_t)rows * (size_t)cols * es, &ws, &x);
    if (rc) return rc;
    x.caller_unpacks = 1;
    ev = hyla_calloc((size_t)nblk, sizeof *ev);
    if (!ev) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    for (int64_t k = 0; k < nblk; k++) { /* every block's production first */
        const int64_t c0 = k * bc, nc = HYLA_MIN(bc, cols - c0);
        HYLA_TRY(produce(arg, qp, c0, nc));
        HYLA_TRY(o->event_create(d, 0, &ev[k]));
        HYLA_TRY(o->event_record(ev[k], qp));
    }
    for (int64_t k = 0; k < nblk; k++) {
        const int64_t c0 = k * bc, nc = HYLA_MIN(bc, cols - c0);
        HYLA_TRY(o->queue_wait_event(ws->q_in, ev[k]));
        HYLA_TRY(hyla_xfer_down(&x, ws->q_in, hyla_elem(host, 0, c0, ldh, es), ldh,
                                hyla_elem(dmem, 0, c0, ldd, es), ldd, 0, c0, rows, nc,
                                HYLA_XFER_ALL, NULL, NULL));
    }
    HYLA_TRY(o->event_sync(ev[nblk - 1]));
    *t_produced = hyla_wtime();
    HYLA_TRY(hyla_xfer_drain(&x));
cleanup:;
    /* nothing of the staging ring or the events is released while queued */
    const int r1 = o->queue_sync(qp), r2 = o->queue_sync(ws->q_in);
    if (!rc) rc = r1 ? r1 : r2;
    hyla_xfer_fini(&x);
    if (ev)
        for (int64_t k = 0; k < nblk; k++)
            if (ev[k]) o->event_destroy(ev[k]);
    hyla_free(ev);
    return rc;
}

int hyla_xfer_triangle(hyla_t *ctx, int dev, hyla_dtype t, int up, int lower, int64_t n,
                       void *host, int64_t ldh, void *dmem, int64_t ldd) {
    enum { CB = 512 };
    const hyla_backend_ops *o = ctx->devs[dev]->ops;
    const size_t es = hyla_dtype_size(t);
    hyla_dev_workspace *ws;
    hyla_xfer x;
    int rc = 0;
    if (n == 0) return 0;
    if (o->mem_host) { /* host memory on both sides: column by column, no staging */
        if ((rc = hyla_workspace_get(ctx, dev, 0, 0, &ws))) return rc;
        for (int64_t j = 0; j < n && !rc; j++) {
            const int64_t i0 = lower ? j : 0, len = lower ? n - j : j + 1;
            char *h = hyla_elem(host, i0, j, ldh, es), *d = hyla_elem(dmem, i0, j, ldd, es);
            rc = o->copy_2d(ws->q_in, up ? d : h, (size_t)(up ? ldd : ldh) * es, up ? h : d,
                            (size_t)(up ? ldh : ldd) * es, (size_t)len * es, 1,
                            up ? HYLA_COPY_H2D : HYLA_COPY_D2H);
        }
        const int rs = o->queue_sync(ws->q_in);
        return rc ? rc : rs;
    }
    if ((rc = staging_init(ctx, dev, es, (size_t)n * (size_t)n * es, &ws, &x))) return rc;
    x.caller_unpacks = 1;
    for (int64_t j = 0; j < n && !rc; j += CB) {
        const int64_t cb = HYLA_MIN(CB, n - j), i0 = lower ? j : 0;
        const int64_t rows = lower ? n - j : j + cb;
        const int clip = lower ? HYLA_XFER_LOWER : HYLA_XFER_UPPER;
        void *h = hyla_elem(host, i0, j, ldh, es), *d = hyla_elem(dmem, i0, j, ldd, es);
        rc = up ? hyla_xfer_up(&x, ws->q_in, d, ldd, h, ldh, i0, j, rows, cb, clip)
                : hyla_xfer_down(&x, ws->q_in, h, ldh, d, ldd, i0, j, rows, cb, clip, NULL, NULL);
    }
    if (!rc) rc = hyla_xfer_drain(&x);
    const int rs = o->queue_sync(ws->q_in);
    hyla_xfer_fini(&x);
    return rc ? rc : rs;
}

/* Uploads the n x n host matrix A to a new device buffer holding its lower
 * triangle (for uplo U, rebuilt from the upper one). On the host backend,
 * uplo L, the upper triangle is left unset: nothing reads it. */
int hyla_xfer_upload_lower(hyla_t *ctx, int dev, hyla_dtype t, int lower, int64_t n,
                           const void *A, int64_t lda, int check, void **dA) {
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(t);
    const int host = d->ops->mem_host;
    hyla_dev_workspace *ws = NULL;
    void *dU = NULL;
    int rc = 0;
    *dA = NULL;
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * n) * es, dA));
    if (lower && host) {
        /* host memory on both sides: the lower triangle alone, by blocks of
         * columns (each from its diagonal down) dealt to two queues, whose
         * threads copy at the same time */
        enum { CB = 128 };
        HYLA_TRY(hyla_workspace_get(ctx, dev, 0, 0, &ws));
        for (int64_t j = 0; j < n; j += CB)
            HYLA_TRY(o->copy_2d((j / CB) % 2 ? ws->q_out : ws->q_in, hyla_elem(*dA, j, j, n, es),
                                (size_t)n * es, hyla_elem(A, j, j, lda, es), (size_t)lda * es,
                                (size_t)(n - j) * es, (size_t)HYLA_MIN(CB, n - j),
                                HYLA_COPY_H2D));
        const int r1 = o->queue_sync(ws->q_in), r2 = o->queue_sync(ws->q_out);
        ws = NULL; /* synchronized */
        HYLA_TRY(r1 ? r1 : r2);
    } else if (lower) {
        HYLA_TRY(hyla_xfer_triangle(ctx, dev, t, 1, 1, n, (void *)A, lda, *dA, n));
    } else if (host) {
        /* host memory on both sides: rebuilt from A itself, in one pass */
        HYLA_TRY(hyla_lower_from_upper(ctx, dev, t, n, A, lda, *dA, n));
    } else {
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * n) * es, &dU));
        HYLA_TRY(hyla_xfer_triangle(ctx, dev, t, 1, 0, n, (void *)A, lda, dU, n));
    }
    /* the triangle read, as it came up, before it is rebuilt (on the host
     * backend with uplo U: its conjugate transpose, already rebuilt) */
    if (check) HYLA_TRY(hyla_check_finite_dev(ctx, dev, t, lower || !dU ? 0 : 1, 0, n, n,
                                              dU ? dU : *dA, n));
    if (dU) HYLA_TRY(hyla_lower_from_upper(ctx, dev, t, n, dU, n, *dA, n));
cleanup:
    if (ws) { /* the split copies: done (or stopped) before *dA may go */
        const int r1 = o->queue_sync(ws->q_in), r2 = o->queue_sync(ws->q_out);
        if (!rc) rc = r1 ? r1 : r2;
    }
    o->mem_free(d, HYLA_MEM_DEVICE, dU);
    if (rc) {
        o->mem_free(d, HYLA_MEM_DEVICE, *dA);
        *dA = NULL;
    }
    return rc;
}

int hyla_lower_from_upper(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, const void *dU,
                          int64_t lddu, void *dL, int64_t lddl) {
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    hyla_dev_workspace *ws;
    int rc = hyla_workspace_get(ctx, dev, 0, 0, &ws);
    if (rc || n == 0) return rc;
    const hyla_op ct = hyla_dtype_is_complex(t) ? HYLA_CONJTRANS : HYLA_TRANS;
    const void *one = hyla_scalar(t, HYLA_SC_ONE), *zero = hyla_scalar(t, HYLA_SC_ZERO);
    rc = o->geam(ws->q_comp, t, ct, n, n, one, dU, lddu, zero, dL, lddl);
    int rs = o->queue_sync(ws->q_comp);
    return rc ? rc : rs;
}
