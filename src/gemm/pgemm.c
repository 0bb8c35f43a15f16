/*
 * Streaming GEMM on host-resident matrices over every device of the context,
 * with an optional CPU share (the CALDGEMM line of work).
 *
 * C is cut into tiles of mb x nb; each tile stays on one device for its
 * whole k loop, where it accumulates alpha op(A) op(B); the host adds beta C
 * while it writes the tile back, so C crosses the link only once. op(A) and op(B) are cut into chunks, A(i,l) of mb x kb and
 * B(l,j) of kb x nb, that cross the host link through pinned staging buffers
 * (a ring of `slots`, so packing, copies and compute overlap) into a
 * per-device chunk cache. The cache evicts the chunk whose next use lies
 * farthest ahead in the device's tile order (Belady's rule on the known
 * schedule), so that when memory allows every chunk crosses the link once
 * per device, and when it does not, the A row panel in use stays while B
 * streams.
 *
 * Per device, three queues: q_in (host -> device copies), q_comp (GEMMs),
 * q_out (device -> host copies of finished C tiles); events order them. One
 * host thread drives each device: it packs chunks into staging buffers and
 * enqueues copies and GEMMs; finished C tiles are unpacked into the caller's
 * C by host functions on q_out, so packing and unpacking overlap.
 *
 * Tiles are shared dynamically: each worker (device or CPU) owns a
 * contiguous range of the row-major tile list, sized by its rate; it takes
 * tiles from the front of its range and, when that is empty, steals from
 * the back of the largest remaining range. The CPU worker computes whole
 * tiles with OpenBLAS directly on the caller's arrays and steals only tiles
 * it can finish before their owner would reach them.
 */
#include "gemm/pgemm.h"
#include "core/xfer.h"
#include "backend/host/host_blas.h"
#include <complex.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

enum { MIN_SLOTS = 6, ALIGN = 256 };

/* ---------------------------------------------------------------- schedule */

typedef struct {
    pthread_mutex_t mu;
    int nw;                     /* workers: devices, then the CPU (if any) */
    int64_t lo[65], hi[65];     /* each worker's remaining range [lo, hi) */
    double tile_time[65];       /* predicted seconds per tile, for CPU steals */
    int cpu;                    /* index of the CPU worker, or -1 */
} schedule;

/* Next tile for worker w, or -1 when none is left. */
static int64_t sched_take(schedule *s, int w) {
    int64_t t = -1;
    pthread_mutex_lock(&s->mu);
    if (s->lo[w] < s->hi[w]) {
        t = s->lo[w]++;
    } else {
        int v = -1;
        int64_t most = 0;
        for (int i = 0; i < s->nw; i++)
            if (i != w && s->hi[i] - s->lo[i] > most) { most = s->hi[i] - s->lo[i]; v = i; }
        /* the slow CPU steals only what it can finish before the owner gets there */
        if (v >= 0 && w == s->cpu && (double)(most - 1) * s->tile_time[v] < 1.5 * s->tile_time[w])
            v = -1;
        if (v >= 0) t = --s->hi[v];
    }
    pthread_mutex_unlock(&s->mu);
    return t;
}

/* Remaining range of worker w, for the cache's look-ahead. */
static void sched_range(schedule *s, int w, int64_t *lo, int64_t *hi) {
    pthread_mutex_lock(&s->mu);
    *lo = s->lo[w];
    *hi = s->hi[w];
    pthread_mutex_unlock(&s->mu);
}

/* ---------------------------------------------------------------- plan */

typedef struct {
    const hyla_gemm_problem *p;
    size_t esz;
    int64_t mb, nb, kb, mt, nt, kt;
    size_t slot_bytes, ctile_bytes;
    int64_t nslots, nstage;
    int pack_threads;
    hyla_t *ctx;
    schedule sched;
    hyla_status status;
    atomic_llong tiles_done[65];
    atomic_llong bytes_h2d, bytes_d2h;
} plan;

static int64_t round_up(int64_t x, int64_t q) { return HYLA_CEILDIV(x, q) * q; }

/* Even split of n into pieces of at most b, rounded up to a multiple of 64
 * (of 8 for small blocks), which keeps device GEMMs on their fast paths. */
static int64_t even_block(int64_t n, int64_t b) {
    int64_t pieces = HYLA_CEILDIV(n, b);
    int64_t e = round_up(HYLA_CEILDIV(n, pieces), b >= 512 ? 64 : 8);
    return HYLA_MIN(e, n);
}

static size_t align_up(size_t x) { return (x + ALIGN - 1) / ALIGN * ALIGN; }

/* Device bytes for the C buffers and the minimum number of slots. */
static size_t min_dev_bytes(const plan *pl) {
    return 2 * align_up(pl->ctile_bytes) + MIN_SLOTS * align_up(pl->slot_bytes);
}

static void set_blocks(plan *pl, int64_t tile, int64_t kblock) {
    const hyla_gemm_problem *p = pl->p;
    pl->mb = even_block(p->m, tile);
    pl->nb = even_block(p->n, tile);
    pl->kb = even_block(p->k, kblock);
    pl->mt = HYLA_CEILDIV(p->m, pl->mb);
    pl->nt = HYLA_CEILDIV(p->n, pl->nb);
    pl->kt = HYLA_CEILDIV(p->k, pl->kb);
    pl->slot_bytes = (size_t)HYLA_MAX(pl->mb, pl->nb) * (size_t)pl->kb * pl->esz;
    pl->ctile_bytes = (size_t)pl->mb * (size_t)pl->nb * pl->esz;
}

/* ---------------------------------------------------------------- packing */

/* C := X + beta C for a tile X (contiguous, ld = rows) of the caller's C:
 * the device computed X = alpha op(A) op(B), so C never crosses the link
 * towards the device and is read once, here. */
static void merge_cols(hyla_dtype t, unsigned char *C, int64_t ldc, const unsigned char *X,
                       int64_t rows, int64_t cols, const void *beta, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && cols > 1)
    for (int64_t j = 0; j < cols; j++) {
        const size_t oc = (size_t)j * (size_t)ldc, ox = (size_t)j * (size_t)rows;
        switch (t) {
        case HYLA_S: {
            float *c = (float *)C + oc, b = *(const float *)beta;
            const float *x = (const float *)X + ox;
            for (int64_t i = 0; i < rows; i++) c[i] = x[i] + b * c[i];
        } break;
        case HYLA_D: {
            double *c = (double *)C + oc, b = *(const double *)beta;
            const double *x = (const double *)X + ox;
            for (int64_t i = 0; i < rows; i++) c[i] = x[i] + b * c[i];
        } break;
        case HYLA_C: {
            float _Complex *c = (float _Complex *)C + oc, b = *(const float _Complex *)beta;
            const float _Complex *x = (const float _Complex *)X + ox;
            for (int64_t i = 0; i < rows; i++) c[i] = x[i] + b * c[i];
        } break;
        case HYLA_Z: {
            double _Complex *c = (double _Complex *)C + oc, b = *(const double _Complex *)beta;
            const double _Complex *x = (const double _Complex *)X + ox;
            for (int64_t i = 0; i < rows; i++) c[i] = x[i] + b * c[i];
        } break;
        }
    }
}

/* Where chunk (which = 0: A(i,l); 1: B(l,j)) lies in the caller's matrix. */
typedef struct { const unsigned char *src; int64_t ld, rows, cols; } chunk_src;

static chunk_src chunk_where(const plan *pl, int which, int64_t panel, int64_t l) {
    const hyla_gemm_problem *p = pl->p;
    const int64_t k0 = l * pl->kb, kl = HYLA_MIN(pl->kb, p->k - k0);
    chunk_src c;
    if (which == 0) {
        const int64_t r0 = panel * pl->mb, rl = HYLA_MIN(pl->mb, p->m - r0);
        const int64_t off = p->ta == HYLA_NOTRANS ? r0 + k0 * p->lda : k0 + r0 * p->lda;
        c.src = (const unsigned char *)p->A + (size_t)off * pl->esz;
        c.ld = p->lda;
        c.rows = p->ta == HYLA_NOTRANS ? rl : kl;
        c.cols = p->ta == HYLA_NOTRANS ? kl : rl;
    } else {
        const int64_t c0 = panel * pl->nb, cl = HYLA_MIN(pl->nb, p->n - c0);
        const int64_t off = p->tb == HYLA_NOTRANS ? k0 + c0 * p->ldb : c0 + k0 * p->ldb;
        c.src = (const unsigned char *)p->B + (size_t)off * pl->esz;
        c.ld = p->ldb;
        c.rows = p->tb == HYLA_NOTRANS ? kl : cl;
        c.cols = p->tb == HYLA_NOTRANS ? cl : kl;
    }
    return c;
}

/* ---------------------------------------------------------------- device worker */

typedef struct {
    int valid, which, used;
    int64_t panel, l;
    unsigned char *mem;
    hyla_event *ready, *use;
} slot;

typedef struct {
    plan *pl;
    int w;                       /* worker index = device index */
    hyla_dev *dev;
    const hyla_backend_ops *ops;
    hyla_dev_workspace *ws;
    slot *slots;
    int64_t nslots;
    unsigned char *cbuf[2];
    unsigned char *cout_stage[2], **stage;
    hyla_event **stage_ev;
    int *stage_busy;
    int64_t stage_next;
    hyla_event *ev_cdone[2], *ev_cout[2];
    int64_t cur_tile, cur_l;
} dev_worker;

/* Position (in tile-step units) of the next use of a chunk by this device
 * after the current step; INT64_MAX when it has none. */
static int64_t next_use(dev_worker *dw, const slot *s, int64_t lo, int64_t hi) {
    const plan *pl = dw->pl;
    const int64_t kt = pl->kt, nt = pl->nt, t = dw->cur_tile;
    const int64_t ti = t / nt, tj = t % nt;
    if (s->which == 0 ? s->panel == ti : s->panel == tj) {
        if (s->l >= dw->cur_l) return t * kt + s->l; /* still needed by this tile */
    }
    int64_t start = HYLA_MAX(lo, t + 1), u;
    if (start >= hi) return INT64_MAX;
    if (s->which == 0) {
        const int64_t row0 = s->panel * nt, row1 = row0 + nt;
        if (row1 <= start || row0 >= hi) return INT64_MAX;
        u = HYLA_MAX(start, row0);
    } else {
        u = start + ((s->panel - start % nt) % nt + nt) % nt;
        if (u >= hi) return INT64_MAX;
    }
    return u * kt + s->l;
}

static slot *find_slot(dev_worker *dw, int which, int64_t panel, int64_t l) {
    for (int64_t i = 0; i < dw->nslots; i++) {
        slot *s = &dw->slots[i];
        if (s->valid && s->which == which && s->panel == panel && s->l == l) return s;
    }
    return NULL;
}

static slot *victim(dev_worker *dw) {
    int64_t lo, hi, best = -1;
    slot *v = NULL;
    sched_range(&dw->pl->sched, dw->w, &lo, &hi);
    for (int64_t i = 0; i < dw->nslots; i++) {
        slot *s = &dw->slots[i];
        if (!s->valid) return s;
        int64_t u = next_use(dw, s, lo, hi);
        if (u > best) { best = u; v = s; }
    }
    return v;
}

/* Takes the next staging buffer, waiting until its previous copy is done. */
static int stage_take(dev_worker *dw, int64_t *idx) {
    int64_t s = dw->stage_next;
    dw->stage_next = (s + 1) % dw->pl->nstage;
    if (dw->stage_busy[s]) {
        int rc = dw->ops->event_sync(dw->stage_ev[s]);
        if (rc) return rc;
        dw->stage_busy[s] = 0;
    }
    *idx = s;
    return 0;
}

/* Makes chunk (which, panel, l) resident; returns its slot. */
static int load_chunk(dev_worker *dw, int which, int64_t panel, int64_t l, slot **out) {
    plan *pl = dw->pl;
    const hyla_backend_ops *o = dw->ops;
    slot *s = find_slot(dw, which, panel, l);
    int rc = 0;
    if (s) { *out = s; return 0; }
    s = victim(dw);
    s->valid = 0;
    if (s->used) HYLA_TRY(o->queue_wait_event(dw->ws->q_in, s->use));
    chunk_src c = chunk_where(pl, which, panel, l);
    int64_t si;
    HYLA_TRY(stage_take(dw, &si));
    hyla_pack_cols(dw->stage[si], c.rows, c.src, c.ld, c.rows, c.cols, pl->esz, pl->pack_threads);
    const size_t w = (size_t)c.rows * pl->esz;
    HYLA_TRY(o->copy_2d(dw->ws->q_in, s->mem, w, dw->stage[si], w, w, (size_t)c.cols, HYLA_COPY_H2D));
    HYLA_TRY(o->event_record(dw->stage_ev[si], dw->ws->q_in));
    dw->stage_busy[si] = 1;
    HYLA_TRY(o->event_record(s->ready, dw->ws->q_in));
    atomic_fetch_add(&pl->bytes_h2d, (long long)(w * (size_t)c.cols));
    s->valid = 1;
    s->which = which;
    s->panel = panel;
    s->l = l;
    *out = s;
cleanup:
    return rc;
}

/* A finished tile waiting in pinned memory, written into the caller's C by
 * a host function on q_out, off the driver thread (which keeps packing). */
typedef struct {
    plan *pl;
    int w;
    int64_t t;
    const unsigned char *stage;
} unpack_job;

static void unpack_tile(void *arg) {
    unpack_job *j = arg;
    plan *pl = j->pl;
    const hyla_gemm_problem *p = pl->p;
    const int64_t i0 = (j->t / pl->nt) * pl->mb, j0 = (j->t % pl->nt) * pl->nb;
    const int64_t mi = HYLA_MIN(pl->mb, p->m - i0), nj = HYLA_MIN(pl->nb, p->n - j0);
    unsigned char *dst = (unsigned char *)p->C + (size_t)(i0 + j0 * p->ldc) * pl->esz;
    if (p->beta_zero) hyla_pack_cols(dst, p->ldc, j->stage, mi, mi, nj, pl->esz, pl->pack_threads);
    else merge_cols(p->t, dst, p->ldc, j->stage, mi, nj, p->beta, pl->pack_threads);
    atomic_fetch_add(&pl->tiles_done[j->w], 1);
    hyla_free(j);
}

static int run_tile(dev_worker *dw, int64_t t, int64_t count) {
    plan *pl = dw->pl;
    const hyla_gemm_problem *p = pl->p;
    const hyla_backend_ops *o = dw->ops;
    hyla_dev_workspace *ws = dw->ws;
    const int b = (int)(count % 2);
    const int64_t ti = t / pl->nt, tj = t % pl->nt;
    const int64_t i0 = ti * pl->mb, j0 = tj * pl->nb;
    const int64_t mi = HYLA_MIN(pl->mb, p->m - i0), nj = HYLA_MIN(pl->nb, p->n - j0);
    const size_t wc = (size_t)mi * pl->esz;
    unsigned char one[16] = {0}, zero[16] = {0};
    int rc = 0;
    switch (p->t) {
    case HYLA_S: case HYLA_C: *(float *)one = 1.0f; break;
    case HYLA_D: case HYLA_Z: *(double *)one = 1.0; break;
    }
    dw->cur_tile = t;
    dw->cur_l = 0;
    /* cbuf[b] is free once the tile that used it two tiles ago left the device */
    if (count >= 2) HYLA_TRY(o->queue_wait_event(ws->q_comp, dw->ev_cout[b]));
    for (int64_t l = 0; l < pl->kt; l++) {
        if (hyla_status_get(&pl->status)) return hyla_status_get(&pl->status);
        slot *sa, *sb;
        dw->cur_l = l;
        HYLA_TRY(load_chunk(dw, 0, ti, l, &sa));
        HYLA_TRY(load_chunk(dw, 1, tj, l, &sb));
        HYLA_TRY(o->queue_wait_event(ws->q_comp, sa->ready));
        HYLA_TRY(o->queue_wait_event(ws->q_comp, sb->ready));
        const int64_t kl = HYLA_MIN(pl->kb, p->k - l * pl->kb);
        const int64_t lda = p->ta == HYLA_NOTRANS ? mi : kl, ldb = p->tb == HYLA_NOTRANS ? kl : nj;
        /* the device forms alpha op(A) op(B); beta C is added on the host */
        const void *beta = l == 0 ? zero : one;
        HYLA_TRY(o->gemm(ws->q_comp, p->t, p->ta, p->tb, mi, nj, kl, p->alpha, sa->mem, lda,
                         sb->mem, ldb, beta, dw->cbuf[b], mi));
        HYLA_TRY(o->event_record(sa->use, ws->q_comp));
        HYLA_TRY(o->event_record(sb->use, ws->q_comp));
        sa->used = sb->used = 1;
    }
    HYLA_TRY(o->event_record(dw->ev_cdone[b], ws->q_comp));
    HYLA_TRY(o->queue_wait_event(ws->q_out, dw->ev_cdone[b]));
    HYLA_TRY(o->copy_2d(ws->q_out, dw->cout_stage[b], wc, dw->cbuf[b], wc, wc, (size_t)nj, HYLA_COPY_D2H));
    HYLA_TRY(o->event_record(dw->ev_cout[b], ws->q_out));
    atomic_fetch_add(&pl->bytes_d2h, (long long)(wc * (size_t)nj));
    /* q_out runs in order, so cout_stage[b] is unpacked before tile count+2
     * copies into it */
    unpack_job *job = hyla_malloc(sizeof *job);
    if (!job) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    *job = (unpack_job){.pl = pl, .w = dw->w, .t = t, .stage = dw->cout_stage[b]};
    rc = o->host_fn(ws->q_out, unpack_tile, job);
    if (rc) hyla_free(job);
cleanup:
    return rc;
}

static void destroy_events(dev_worker *dw) {
    const hyla_backend_ops *o = dw->ops;
    for (int64_t i = 0; dw->slots && i < dw->nslots; i++) {
        if (dw->slots[i].ready) o->event_destroy(dw->slots[i].ready);
        if (dw->slots[i].use) o->event_destroy(dw->slots[i].use);
    }
    for (int64_t i = 0; dw->stage_ev && i < dw->pl->nstage; i++)
        if (dw->stage_ev[i]) o->event_destroy(dw->stage_ev[i]);
    hyla_event *evs[4] = {dw->ev_cdone[0], dw->ev_cdone[1], dw->ev_cout[0], dw->ev_cout[1]};
    for (int i = 0; i < 4; i++)
        if (evs[i]) o->event_destroy(evs[i]);
}

static int setup_device(dev_worker *dw) {
    plan *pl = dw->pl;
    const hyla_backend_ops *o = dw->ops;
    int rc = 0;
    const size_t cb = align_up(pl->ctile_bytes), sb = align_up(pl->slot_bytes);
    const size_t pinned = 2 * cb + (size_t)pl->nstage * sb;
    HYLA_TRY(hyla_workspace_get(pl->ctx, dw->w, 2 * cb + (size_t)dw->nslots * sb, pinned, &dw->ws));
    unsigned char *dp = dw->ws->dev_pool, *hp = dw->ws->pinned;
    dw->cbuf[0] = dp;
    dw->cbuf[1] = dp + cb;
    dw->cout_stage[0] = hp;
    dw->cout_stage[1] = hp + cb;
    dw->slots = hyla_calloc((size_t)dw->nslots, sizeof *dw->slots);
    dw->stage = hyla_calloc((size_t)pl->nstage, sizeof *dw->stage);
    dw->stage_ev = hyla_calloc((size_t)pl->nstage, sizeof *dw->stage_ev);
    dw->stage_busy = hyla_calloc((size_t)pl->nstage, sizeof *dw->stage_busy);
    if (!dw->slots || !dw->stage || !dw->stage_ev || !dw->stage_busy) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    for (int64_t i = 0; i < dw->nslots; i++) {
        dw->slots[i].mem = dp + 2 * cb + (size_t)i * sb;
        HYLA_TRY(o->event_create(dw->dev, 0, &dw->slots[i].ready));
        HYLA_TRY(o->event_create(dw->dev, 0, &dw->slots[i].use));
    }
    for (int64_t i = 0; i < pl->nstage; i++) {
        dw->stage[i] = hp + 2 * cb + (size_t)i * sb;
        HYLA_TRY(o->event_create(dw->dev, 0, &dw->stage_ev[i]));
    }
    for (int b = 0; b < 2; b++) {
        HYLA_TRY(o->event_create(dw->dev, 0, &dw->ev_cdone[b]));
        HYLA_TRY(o->event_create(dw->dev, 0, &dw->ev_cout[b]));
    }
cleanup:
    return rc;
}

static void *device_main(void *arg) {
    dev_worker *dw = arg;
    plan *pl = dw->pl;
    int rc = setup_device(dw);
    int64_t count = 0;
    while (rc == 0 && hyla_status_get(&pl->status) == 0) {
        int64_t t = sched_take(&pl->sched, dw->w);
        if (t < 0) break;
        rc = run_tile(dw, t, count++);
    }
    hyla_status_fail(&pl->status, rc);
    /* drain every queue before the events and buffers go away */
    if (dw->ws) {
        int q1 = dw->ops->queue_sync(dw->ws->q_in), q2 = dw->ops->queue_sync(dw->ws->q_comp),
            q3 = dw->ops->queue_sync(dw->ws->q_out);
        hyla_status_fail(&pl->status, q1 ? q1 : q2 ? q2 : q3);
    }
    destroy_events(dw);
    hyla_free(dw->slots);
    hyla_free(dw->stage);
    hyla_free(dw->stage_ev);
    hyla_free(dw->stage_busy);
    return NULL;
}

/* ---------------------------------------------------------------- CPU worker */

static host_blas_call cpu_tile_call(const plan *pl, int64_t t) {
    const hyla_gemm_problem *p = pl->p;
    const int64_t i0 = (t / pl->nt) * pl->mb, j0 = (t % pl->nt) * pl->nb;
    const int64_t a_off = p->ta == HYLA_NOTRANS ? i0 : i0 * p->lda;
    const int64_t b_off = p->tb == HYLA_NOTRANS ? j0 * p->ldb : j0;
    host_blas_call c = {.kind = HB_GEMM, .t = p->t, .ta = p->ta, .tb = p->tb,
                        .m = HYLA_MIN(pl->mb, p->m - i0), .n = HYLA_MIN(pl->nb, p->n - j0),
                        .k = p->k, .lda = p->lda, .ldb = p->ldb, .ldc = p->ldc,
                        .A = (const unsigned char *)p->A + (size_t)a_off * pl->esz,
                        .B = (const unsigned char *)p->B + (size_t)b_off * pl->esz,
                        .C = (unsigned char *)p->C + (size_t)(i0 + j0 * p->ldc) * pl->esz};
    host_blas_scalar(p->t, 0, p->alpha, c.alpha);
    host_blas_scalar(p->t, 0, p->beta, c.beta);
    return c;
}

static void *cpu_main(void *arg) {
    plan *pl = arg;
    const int w = pl->sched.cpu;
    while (hyla_status_get(&pl->status) == 0) {
        int64_t t = sched_take(&pl->sched, w);
        if (t < 0) break;
        host_blas_call c = cpu_tile_call(pl, t);
        host_blas_run(&c);
        atomic_fetch_add(&pl->tiles_done[w], 1);
    }
    return NULL;
}

double hyla_host_gemm_rate(hyla_t *ctx, hyla_dtype t) {
    pthread_mutex_lock(&ctx->lock);
    double r = ctx->cpu_rate[t];
    pthread_mutex_unlock(&ctx->lock);
    if (r > 0) return r;
    const int64_t n = 768;
    const size_t bytes = (size_t)(n * n) * hyla_dtype_size(t);
    unsigned char *a = hyla_calloc(1, bytes), *b = hyla_calloc(1, bytes), *c = hyla_calloc(1, bytes);
    if (a && b && c) {
        host_blas_call call = {.kind = HB_GEMM, .t = t, .m = n, .n = n, .k = n, .lda = n,
                               .ldb = n, .ldc = n, .A = a, .B = b, .C = c};
        host_blas_scalar(t, 0, hyla_scalar(t, HYLA_SC_ONE), call.alpha);
        host_blas_run(&call); /* warm-up: threads start */
        double t0 = hyla_wtime();
        host_blas_run(&call);
        double dt = hyla_wtime() - t0;
        r = (t == HYLA_C || t == HYLA_Z ? 8.0 : 2.0) * (double)n * n * n / (dt > 1e-9 ? dt : 1e-9);
    }
    hyla_free(a);
    hyla_free(b);
    hyla_free(c);
    pthread_mutex_lock(&ctx->lock);
    ctx->cpu_rate[t] = r;
    pthread_mutex_unlock(&ctx->lock);
    return r;
}

/* ---------------------------------------------------------------- driver */

static int cpu_share_fits_int(const hyla_gemm_problem *p) {
    return p->k <= INT_MAX && p->lda <= INT_MAX && p->ldb <= INT_MAX && p->ldc <= INT_MAX;
}

/* Fraction of the tiles given to the CPU at the start. */
static double cpu_fraction(hyla_t *ctx, const hyla_gemm_problem *p, double dev_rate_sum) {
    if (ctx->opt_cpu_share == 0 || !cpu_share_fits_int(p)) return 0.0;
    if (ctx->opt_cpu_share > 0) return (double)ctx->opt_cpu_share / 1000.0;
    if (ctx->devs[0]->ops->host_cores) return 0.0; /* the devices are the CPU */
    double r = hyla_host_gemm_rate(ctx, p->t);
    double f = r / (r + dev_rate_sum);
    /* below a few percent the gain is lost to the cores the packing needs */
    return f >= 0.05 ? f : 0.0;
}


int hyla_pgemm(hyla_t *ctx, const hyla_gemm_problem *p) {
    plan *pl = hyla_calloc(1, sizeof *pl);
    dev_worker *dws = NULL;
    pthread_t *threads = NULL, cpu_thread;
    int started = 0, cpu_started = 0, rc = 0, mutex_ok = 0;
    if (!pl) return HYLA_ERR_NO_MEMORY;
    const int nd = HYLA_MIN(ctx->ndev, 64);
    const hyla_tuning *tun = hyla_tuning_for(ctx->devs[0]);
    pl->p = p;
    pl->ctx = ctx;
    pl->esz = hyla_dtype_size(p->t);
    pl->nstage = tun->staging_slots;
    pl->pack_threads = hyla_pack_threads(ctx);
    hyla_status_init(&pl->status);

    /* blocks: the tuning table's, shrunk until the minimum fits every device */
    int64_t tile = ctx->opt_gemm_tile > 0 ? ctx->opt_gemm_tile : tun->gemm_tile[p->t];
    int64_t kblock = ctx->opt_gemm_kblock > 0 ? ctx->opt_gemm_kblock : tun->gemm_kblock[p->t];
    size_t budget = SIZE_MAX;
    for (int d = 0; d < nd; d++) budget = HYLA_MIN(budget, hyla_workspace_budget(ctx, d));
    /* enough tiles per device that start-up and tail stay short */
    while (tile > 2048 && HYLA_CEILDIV(p->m, tile) * HYLA_CEILDIV(p->n, tile) < 8 * nd) tile /= 2;
    for (;;) {
        set_blocks(pl, tile, kblock);
        if (min_dev_bytes(pl) <= budget) break;
        if (tile <= 16 && kblock <= 16) { rc = HYLA_ERR_DEVICE_MEMORY; goto cleanup; }
        tile = HYLA_MAX(16, tile / 2);
        kblock = HYLA_MAX(16, kblock / 2);
    }
    const int64_t ntiles = pl->mt * pl->nt, chunks = (pl->mt + pl->nt) * pl->kt;
    const size_t sb = align_up(pl->slot_bytes);
    pl->nslots = (int64_t)HYLA_MIN((size_t)chunks, (budget - 2 * align_up(pl->ctile_bytes)) / sb);
    pl->nslots = HYLA_MAX(pl->nslots, MIN_SLOTS);

    /* workers and their initial ranges, proportional to rates */
    double dev_rate = tun->gemm_rate[p->t];
    double f_cpu = cpu_fraction(ctx, p, dev_rate * nd);
    schedule *s = &pl->sched;
    if (pthread_mutex_init(&s->mu, NULL) != 0) { rc = HYLA_ERR_DEVICE; goto cleanup; }
    mutex_ok = 1;
    s->cpu = f_cpu > 0 ? nd : -1;
    s->nw = nd + (f_cpu > 0);
    int64_t cpu_tiles = f_cpu > 0 ? HYLA_MAX(1, (int64_t)(f_cpu * (double)ntiles + 0.5)) : 0;
    if (cpu_tiles >= ntiles) cpu_tiles = ntiles - 1;
    if (f_cpu > 0 && cpu_tiles <= 0) { s->cpu = -1; s->nw = nd; }
    const int64_t dev_tiles = ntiles - (s->cpu >= 0 ? cpu_tiles : 0);
    const double flops_tile = (p->t >= HYLA_C ? 8.0 : 2.0) * (double)pl->mb * (double)pl->nb * (double)p->k;
    for (int d = 0; d < nd; d++) {
        s->lo[d] = dev_tiles * d / nd;
        s->hi[d] = dev_tiles * (d + 1) / nd;
        s->tile_time[d] = flops_tile / dev_rate;
    }
    if (s->cpu >= 0) {
        s->lo[nd] = dev_tiles;
        s->hi[nd] = ntiles;
        double r = ctx->cpu_rate[p->t] > 0 ? ctx->cpu_rate[p->t] : dev_rate * f_cpu / (1 - f_cpu);
        s->tile_time[nd] = flops_tile / r;
    }
    hyla_log(ctx, "gemm %lldx%lldx%lld dtype %d: tiles %lldx%lld kb %lld (%lld x %lld x %lld), "
             "%lld slots of %zu B, %d pack threads, cpu tiles %lld",
             (long long)p->m, (long long)p->n, (long long)p->k, (int)p->t, (long long)pl->mb,
             (long long)pl->nb, (long long)pl->kb, (long long)pl->mt, (long long)pl->nt,
             (long long)pl->kt, (long long)pl->nslots, pl->slot_bytes, pl->pack_threads,
             (long long)(s->cpu >= 0 ? cpu_tiles : 0));

    dws = hyla_calloc((size_t)nd, sizeof *dws);
    threads = hyla_calloc((size_t)nd, sizeof *threads);
    if (!dws || !threads) { rc = HYLA_ERR_NO_MEMORY; goto cleanup; }
    for (int d = 0; d < nd; d++) {
        dws[d].pl = pl;
        dws[d].w = d;
        dws[d].dev = ctx->devs[d];
        dws[d].ops = ctx->devs[d]->ops;
        dws[d].nslots = pl->nslots;
    }
    /* the CPU starts first: its range would otherwise be stolen before it runs */
    if (s->cpu >= 0) {
        if (pthread_create(&cpu_thread, NULL, cpu_main, pl) == 0) cpu_started = 1;
        else {
            /* no CPU thread: hand its range to the devices by emptying it into theirs */
            pthread_mutex_lock(&s->mu);
            s->hi[nd - 1] = HYLA_MAX(s->hi[nd - 1], s->hi[nd]);
            s->lo[nd] = s->hi[nd];
            pthread_mutex_unlock(&s->mu);
        }
    }
    for (; started < nd; started++) {
        if (pthread_create(&threads[started], NULL, device_main, &dws[started]) != 0) {
            hyla_status_fail(&pl->status, HYLA_ERR_DEVICE);
            break;
        }
    }
    for (int d = 0; d < started; d++) pthread_join(threads[d], NULL);
    if (cpu_started) pthread_join(cpu_thread, NULL);
    rc = hyla_status_get(&pl->status);
    if (rc == 0) {
        int64_t done = 0;
        for (int w = 0; w < s->nw; w++) done += atomic_load(&pl->tiles_done[w]);
        if (done != ntiles) rc = HYLA_ERR_INTERNAL;
    }
    hyla_gemm_stats *st = &ctx->gemm_stats;
    memset(st, 0, sizeof *st);
    st->tiles_total = ntiles;
    st->tiles_cpu = s->cpu >= 0 ? atomic_load(&pl->tiles_done[nd]) : 0;
    for (int d = 0; d < nd && d < 16; d++) st->tiles_per_device[d] = atomic_load(&pl->tiles_done[d]);
    st->bytes_h2d = atomic_load(&pl->bytes_h2d);
    st->bytes_d2h = atomic_load(&pl->bytes_d2h);
    st->tile = HYLA_MAX(pl->mb, pl->nb);
    st->kblock = pl->kb;
    st->passes = pl->nslots >= chunks ? 1 : 0;
cleanup:
    if (mutex_ok) pthread_mutex_destroy(&pl->sched.mu);
    hyla_free(dws);
    hyla_free(threads);
    hyla_free(pl);
    return rc;
}
