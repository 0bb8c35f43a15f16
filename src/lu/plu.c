/* Multi-device LU, right-looking by panels with one panel of lookahead
 * (see docs/ARCHITECTURE.md).
 *
 * The n columns are cut into panels of nb columns, dealt to the devices
 * 1-D block-cyclically (panel j lives on device j mod nd, each device
 * keeping its panels side by side at full height m). Step k, for each
 * panel k < ceil(min(m, n) / nb):
 *   owner of k, q_aux (high priority): LU of the tall panel A[k0:m, k],
 *       recursively down to ib-wide getrf leaves (factor_rec), its pivots
 *       (local to their leaf) into the device's pivot array, then
 *       the panel and its pivots copied to every other device (NVLink or
 *       PCIe peer copies, into one of NRECV receive slots);
 *   owner of k+1, q_aux: the lookahead, the update of panel k+1 alone by
 *       panel k (row swaps, TRSM of its U block, GEMM below), so that panel
 *       k+1 is factored while the rest of step k's update runs;
 *   every device, q_comp: the same update of its other trailing columns,
 *       panel k+2 first (the next lookahead waits only for it), then the
 *       row swaps of step k applied to its columns left of panel k.
 * Host-resident matrices are uploaded once, panel by panel while the steps
 * run (late panels catch up on arrival, see upload_panel), and downloaded
 * once, by row blocks as they become final (see run_factor).
 * Pivots are kept local to their leaf on the devices and made global on
 * the host. The solve runs on the first device: row swaps of B, then two
 * triangular solves (or the transposed order). */
#include "lu/plu.h"
#include "core/panels.h"
#include "core/xfer.h"
#include <pthread.h>
#include <string.h>

#define NRECV 3
#define INV_MIN_PANELS 4         /* bulk updates this many panels wide use inv(L_kk) */
#define NSLOTS 4
#define UPLOAD_AHEAD 2           /* host-resident, one device: panels uploaded per step */
/* Host-resident, several devices: the final rows go down every DOWN_EVERY
 * steps. A device's panels are not adjacent in A, so each download piece
 * is one panel's rows: DOWN_EVERY row blocks of it (4 x 768 rows x 768
 * columns, 18.9 MB in double) keep the unpacking, a host function on the
 * device's download queue, on a team of pack threads (hyla_pack_cols: 1 MB
 * a thread), where one row block's 4.7 MB pieces were unpacked by one
 * thread with 4 MB a thread and bounded the LU on two H200 (host-resident
 * dgetrf at n = 32768: 1.79 s against 0.81 s before that rule). */
#define DOWN_EVERY 4

typedef struct {
    hyla_dev *dev;
    const hyla_backend_ops *o;
    hyla_dev_workspace *ws;
    hyla_queue *q_in, *q_comp, *q_aux, *q_out;
    unsigned char *a;            /* local columns (m x lcols, leading dimension ld) */
    int64_t ld, lcols;
    unsigned char *recv[NRECV];  /* panels of other devices, m x nb, ld m */
    hyla_event *ev_free[NRECV];  /* receive slot may be refilled */
    int free_rec[NRECV];
    hyla_event *ev_aux, *ev_done, *ev_b, *ev_row[2]; /* ev_row: after steps of each parity */
    int turn;                    /* queue of the next download piece: q_out, q_in */
    int64_t *dipiv;              /* min(m, n) pivots, local to their leaf */
    int64_t *dgpiv;              /* solve: n global pivots */
    int *dinfo;                  /* one per leaf of each step */
    volatile int *pinfo;         /* pinned copies */
    int64_t *ppiv;               /* pinned pivots */
    unsigned char *linv;         /* inverse of the unit L_kk of the step linv_step, ld nb */
    int64_t linv_step;
    unsigned char *wbuf;         /* U block row of the bulk update, nb x lcols, ld nb */
    unsigned char *lu;           /* solve: the factor on this device */
    int64_t ldlu;
    unsigned char *bbuf;         /* solve: right-hand-side chunk, ld n */
    int64_t bcols;
    hyla_xfer up, down;
    int xfer_ok;
} ldev;

typedef struct {
    hyla_t *ctx;
    hyla_dev **devs;             /* device e: devs[e]; the owner of panel j: devs[j mod nd] */
    const hyla_lu_job *job;
    hyla_dtype t;
    size_t es;
    int nd, host;
    int64_t m, n, nb, np, nk, kmin;
    int64_t ib, nleaf;           /* inner panel width; leaves per panel */
    int64_t nup;                 /* panels [0, nup) are on the devices */
    ldev *dv;
    hyla_event **ev_bc, **ev_la, **ev_up;
    hyla_event **ev_t0, **ev_t1;  /* timing: panel factorization k ran between them */
    int64_t panels_run;          /* panels whose timing events were recorded */
    int64_t bytes_h2d, bytes_d2h, bytes_peer; /* besides the staged copies of A and B */
    int64_t panels[16];          /* panels factored per device */
} plan;

/* ---------------------------------------------------------------- helpers */

static int owner(const plan *pl, int64_t j) { return (int)(j % pl->nd); }
static int64_t jb_of(const plan *pl, int64_t j) { return HYLA_MIN(pl->nb, pl->n - j * pl->nb); }
/* pivots (rows eliminated) of step k */
static int64_t kk_of(const plan *pl, int64_t k) { return HYLA_MIN(pl->nb, pl->kmin - k * pl->nb); }

/* First local column, on device e, of its panels j' >= j. */
static int64_t lcol(const plan *pl, int e, int64_t j) {
    int64_t cnt = j > e ? (j - e + pl->nd - 1) / pl->nd : 0;
    return cnt * pl->nb;
}

static unsigned char *loc(const plan *pl, const ldev *d, int64_t i, int64_t c) {
    return d->a + (size_t)(i + c * d->ld) * pl->es;
}

/* Element (k0, k0) of panel k as seen by device e, and its leading dimension. */
static unsigned char *panel_at(const plan *pl, int e, int64_t k, int64_t *ldp) {
    const ldev *d = &pl->dv[e];
    const int64_t k0 = k * pl->nb;
    if (owner(pl, k) == e) {
        *ldp = d->ld;
        return loc(pl, d, k0, lcol(pl, e, k));
    }
    *ldp = pl->m;
    return d->recv[k % NRECV] + (size_t)k0 * pl->es;
}

/* Row interchanges of the leaves of step k that start at panel rows
 * [lo, hi), applied to the ncols columns at C (row 0, leading dimension
 * ld). Pivots are local to their leaf (see factor_rec). */
static int leaf_swaps(plan *pl, ldev *d, hyla_queue *q, int64_t k, int64_t lo, int64_t hi,
                      int64_t ncols, unsigned char *C, int64_t ld) {
    if (!pl->job->pivot || ncols <= 0) return 0;
    const int64_t k0 = k * pl->nb, kk = kk_of(pl, k);
    for (int64_t b = lo; b < hi && b < kk; b += pl->ib) {
        int rc = d->o->laswp(q, pl->t, ncols, C + (size_t)(k0 + b) * pl->es, ld, 1,
                             HYLA_MIN(pl->ib, kk - b), d->dipiv + k0 + b, 1);
        if (rc) return rc;
    }
    return 0;
}

/* Update of the local columns [c0, c0 + w) of device e by panel k, on q:
 * row swaps (unless swap is 0: applied already), U block by TRSM with the
 * unit lower L_kk, GEMM below. For the
 * wide bulk update on q_comp, the U block is instead inv(L_kk) times the
 * block (a GEMM: cuBLAS's TRSM with a 768-wide triangle runs at a fraction
 * of GEMM speed), formed once per step and device; with partial pivoting
 * |l_ij| <= 1, which keeps inv(L_kk) well scaled in practice (the usual
 * trade of GPU LU codes). */
static int update(plan *pl, int e, hyla_queue *q, int64_t k, int64_t c0, int64_t w, int swap) {
    if (w <= 0) return 0;
    ldev *d = &pl->dv[e];
    const hyla_backend_ops *o = d->o;
    const int64_t k0 = k * pl->nb, kk = kk_of(pl, k), below = pl->m - k0 - kk;
    const size_t es = pl->es;
    int64_t ldp;
    unsigned char *P = panel_at(pl, e, k, &ldp), *C = loc(pl, d, k0, c0);
    int rc;
    if (swap && (rc = leaf_swaps(pl, d, q, k, 0, kk, w, loc(pl, d, 0, c0), d->ld))) return rc;
    if (q == d->q_comp && w >= INV_MIN_PANELS * pl->nb) {
        const int64_t nb = pl->nb;
        if (d->linv_step != k) {
            if ((rc = o->laset(q, pl->t, -1, kk, kk, hyla_scalar(pl->t, HYLA_SC_ZERO),
                               hyla_scalar(pl->t, HYLA_SC_ONE), d->linv, nb)) ||
                (rc = o->trsm(q, pl->t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_UNIT, kk, kk,
                              hyla_scalar(pl->t, HYLA_SC_ONE), P, ldp, d->linv, nb)))
                return rc;
            d->linv_step = k;
        }
        if ((rc = o->gemm(q, pl->t, HYLA_NOTRANS, HYLA_NOTRANS, kk, w, kk,
                          hyla_scalar(pl->t, HYLA_SC_ONE), d->linv, nb, C, d->ld,
                          hyla_scalar(pl->t, HYLA_SC_ZERO), d->wbuf, nb)) ||
            (rc = o->copy_2d(q, C, (size_t)d->ld * es, d->wbuf, (size_t)nb * es, (size_t)kk * es,
                             (size_t)w, HYLA_COPY_D2D)))
            return rc;
        if (below <= 0) return 0;
        return o->gemm(q, pl->t, HYLA_NOTRANS, HYLA_NOTRANS, below, w, kk,
                       hyla_scalar(pl->t, HYLA_SC_MONE), P + (size_t)kk * es, ldp, d->wbuf, nb,
                       hyla_scalar(pl->t, HYLA_SC_ONE), C + (size_t)kk * es, d->ld);
    }
    if ((rc = o->trsm(q, pl->t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_UNIT, kk, w,
                      hyla_scalar(pl->t, HYLA_SC_ONE), P, ldp, C, d->ld)))
        return rc;
    if (below <= 0) return 0;
    return o->gemm(q, pl->t, HYLA_NOTRANS, HYLA_NOTRANS, below, w, kk,
                   hyla_scalar(pl->t, HYLA_SC_MONE), P + (size_t)kk * es, ldp, C, d->ld,
                   hyla_scalar(pl->t, HYLA_SC_ONE), C + (size_t)kk * es, d->ld);
}

/* Host-resident: uploads panel j to its owner and records ev_up[j]. */
static int upload(plan *pl, int64_t j) {
    const int e = owner(pl, j);
    ldev *d = &pl->dv[e];
    const int64_t j0 = j * pl->nb;
    int rc = hyla_xfer_up(&d->up, d->q_in, loc(pl, d, 0, lcol(pl, e, j)), d->ld,
                          (unsigned char *)pl->job->A + (size_t)(j0 * pl->job->lda) * pl->es,
                          pl->job->lda, 0, j0, pl->m, jb_of(pl, j), HYLA_XFER_ALL);
    if (rc) return rc;
    return d->o->event_record(pl->ev_up[j], d->q_in);
}

/* Host-resident: uploads panel j (the next one, nup) and brings it up to
 * date on its owner's q_comp with the steps [0, steps) enqueued so far, as
 * a left-looking LU would: the row swaps of all those steps first, then
 * their TRSM and GEMM in order. The L columns those steps use have had
 * every later step's swaps applied by now, like the panel's rows, and row
 * swaps commute with the row-wise update, so this equals the right-looking
 * updates it replaces. */
static int upload_caught_up(plan *pl, int64_t j, int64_t steps) {
    const int e = owner(pl, j);
    ldev *d = &pl->dv[e];
    const int64_t c0 = lcol(pl, e, j), w = jb_of(pl, j);
    int rc = upload(pl, j);
    if (!rc) rc = d->o->queue_wait_event(d->q_comp, pl->ev_up[j]);
    for (int64_t i = 0; !rc && i < steps; i++)
        rc = leaf_swaps(pl, d, d->q_comp, i, 0, kk_of(pl, i), w, loc(pl, d, 0, c0), d->ld);
    for (int64_t i = 0; !rc && i < steps; i++) rc = update(pl, e, d->q_comp, i, c0, w, 0);
    return rc;
}

static int upload_panel(plan *pl, int64_t j, int64_t steps) {
    int rc = upload_caught_up(pl, j, steps);
    if (!rc) pl->nup = j + 1;
    return rc;
}

/* Host-resident, several devices: every panel from nup on, caught up with
 * steps [0, steps), each device's panels on a thread of its own, so that
 * the devices' packing runs in parallel (each packs with its own OpenMP
 * team; one thread packing for all devices made the upload, which must end
 * before the receive slots of the first steps are reused, the longest part
 * of a two-GPU LU). Only device e's queues, staging and panels are touched
 * by its thread. */
typedef struct {
    plan *pl;
    int e;
    int64_t steps;
    int rc;
} upload_arg;

static void *upload_rest_dev(void *p) {
    upload_arg *a = p;
    for (int64_t j = a->pl->nup; j < a->pl->np && !a->rc; j++)
        if (owner(a->pl, j) == a->e) a->rc = upload_caught_up(a->pl, j, a->steps);
    return NULL;
}

static int upload_rest(plan *pl, int64_t steps) {
    upload_arg *a = hyla_calloc((size_t)pl->nd, sizeof *a);
    pthread_t *th = hyla_calloc((size_t)pl->nd, sizeof *th);
    unsigned char *started = hyla_calloc((size_t)pl->nd, 1);
    int rc = 0;
    if (!a || !th || !started) {
        rc = HYLA_ERR_NO_MEMORY;
        goto done;
    }
    for (int e = 0; e < pl->nd; e++) {
        a[e] = (upload_arg){.pl = pl, .e = e, .steps = steps};
        /* device 0 on this thread; a thread that cannot start runs here too */
        started[e] = e > 0 && pthread_create(&th[e], NULL, upload_rest_dev, &a[e]) == 0;
    }
    for (int e = 0; e < pl->nd; e++)
        if (!started[e]) upload_rest_dev(&a[e]);
    for (int e = 0; e < pl->nd; e++) {
        if (started[e]) pthread_join(th[e], NULL);
        if (!rc) rc = a[e].rc;
    }
    if (!rc) pl->nup = pl->np;
done:
    hyla_free(a);
    hyla_free(th);
    hyla_free(started);
    return rc;
}

/* ---------------------------------------------------------------- factor */

/* LU of the rows x cols block of panel k whose top-left element is the
 * panel's (r0, r0), on q, recursively (Toledo's recursive LU, cut at
 * multiples of ib): the left part, then its row swaps, TRSM and GEMM on
 * the right part, the right part, and its row swaps applied back to the
 * left part. The leaves, at most ib pivots wide, are getrf calls; their
 * pivots stay local to the leaf (row k0 + r0 of a leaf at r0) and their
 * info goes to one slot per leaf. The narrow leaves keep the library's
 * panel kernel in its fast range while the GEMMs of the recursion are
 * wide. */
static int factor_rec(plan *pl, ldev *d, hyla_queue *q, int64_t k, unsigned char *P0,
                      int64_t r0, int64_t rows, int64_t cols) {
    const hyla_backend_ops *o = d->o;
    const size_t es = pl->es;
    const int64_t k0 = k * pl->nb, ld = d->ld, piv = HYLA_MIN(rows, cols);
    unsigned char *P = P0 + (size_t)(r0 + r0 * ld) * es;
    int rc;
    if (piv <= pl->ib)
        return o->getrf(q, pl->t, rows, cols, P, ld, pl->job->pivot ? d->dipiv + k0 + r0 : NULL,
                        &d->dinfo[k * pl->nleaf + r0 / pl->ib], pl->ctx->opt_lu_panel);
    const int64_t c1 = HYLA_CEILDIV(piv, pl->ib) / 2 * pl->ib, c2 = cols - c1;
    unsigned char *R = P + (size_t)(c1 * ld) * es;
    if ((rc = factor_rec(pl, d, q, k, P0, r0, rows, c1))) return rc;
    if ((rc = leaf_swaps(pl, d, q, k, r0, r0 + c1, c2, P0 + (size_t)((r0 + c1) * ld) * es - (size_t)k0 * es, ld)))
        return rc;
    if ((rc = o->trsm(q, pl->t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_UNIT, c1, c2,
                      hyla_scalar(pl->t, HYLA_SC_ONE), P, ld, R, ld)))
        return rc;
    if ((rc = o->gemm(q, pl->t, HYLA_NOTRANS, HYLA_NOTRANS, rows - c1, c2, c1,
                      hyla_scalar(pl->t, HYLA_SC_MONE), P + (size_t)c1 * es, ld, R, ld,
                      hyla_scalar(pl->t, HYLA_SC_ONE), R + (size_t)c1 * es, ld)))
        return rc;
    if ((rc = factor_rec(pl, d, q, k, P0, r0 + c1, rows - c1, c2))) return rc;
    return leaf_swaps(pl, d, q, k, r0 + c1, r0 + piv, c1, P0 + (size_t)(r0 * ld) * es - (size_t)k0 * es, ld);
}

/* getrf of panel k on its owner's q_aux, then the copies to the others. */
static int factor_panel(plan *pl, int64_t k) {
    const int e = owner(pl, k);
    ldev *d = &pl->dv[e];
    const hyla_backend_ops *o = d->o;
    const int64_t k0 = k * pl->nb, kb = jb_of(pl, k), kk = kk_of(pl, k);
    const size_t es = pl->es;
    hyla_queue *q = d->q_aux;
    int rc;
    if (pl->host && k == 0 && (rc = o->queue_wait_event(q, pl->ev_up[0]))) return rc;
    unsigned char *P = loc(pl, d, k0, lcol(pl, e, k));
    const int64_t nl = HYLA_CEILDIV(kk, pl->ib);
    if ((rc = o->event_record(pl->ev_t0[k], q))) return rc;
    if ((rc = factor_rec(pl, d, q, k, P, 0, pl->m - k0, kb))) return rc;
    if ((rc = o->event_record(pl->ev_t1[k], q))) return rc;
    pl->panels_run = k + 1;
    if (e < 16) pl->panels[e]++;
    pl->bytes_d2h += nl * (int64_t)sizeof(int);
    if ((rc = o->copy_2d(q, (void *)&d->pinfo[k * pl->nleaf], (size_t)nl * sizeof(int),
                         &d->dinfo[k * pl->nleaf], (size_t)nl * sizeof(int),
                         (size_t)nl * sizeof(int), 1, HYLA_COPY_D2H)))
        return rc;
    for (int x = 0; x < pl->nd; x++) {
        if (x == e) continue;
        ldev *r = &pl->dv[x];
        const int s = (int)(k % NRECV);
        if (r->free_rec[s] && (rc = o->queue_wait_event(q, r->ev_free[s]))) return rc;
        if ((rc = o->copy_2d(q, r->recv[s] + (size_t)k0 * es, (size_t)pl->m * es, P,
                             (size_t)d->ld * es, (size_t)(pl->m - k0) * es, (size_t)kb,
                             HYLA_COPY_D2D)))
            return rc;
        pl->bytes_peer += (pl->m - k0) * kb * (int64_t)es;
        if (pl->job->pivot) pl->bytes_peer += kk * (int64_t)sizeof(int64_t);
        if (pl->job->pivot &&
            (rc = o->copy_2d(q, r->dipiv + k0, (size_t)kk * sizeof(int64_t), d->dipiv + k0,
                             (size_t)kk * sizeof(int64_t), (size_t)kk * sizeof(int64_t), 1,
                             HYLA_COPY_D2D)))
            return rc;
    }
    return o->event_record(pl->ev_bc[k], q);
}

static int step(plan *pl, int64_t k) {
    const int64_t kk = kk_of(pl, k);
    int rc;
    if ((rc = factor_panel(pl, k))) return rc;
    /* lookahead: panel k+1 on its owner's high-priority queue */
    if (k + 1 < pl->np) {
        const int e = owner(pl, k + 1);
        ldev *d = &pl->dv[e];
        if ((rc = d->o->queue_wait_event(d->q_aux, pl->ev_bc[k]))) return rc;
        hyla_event *ready = k == 0 ? (pl->host ? pl->ev_up[1] : NULL) : pl->ev_la[k + 1];
        if (ready && (rc = d->o->queue_wait_event(d->q_aux, ready))) return rc;
        if ((rc = update(pl, e, d->q_aux, k, lcol(pl, e, k + 1), jb_of(pl, k + 1), 1))) return rc;
    }
    for (int e = 0; e < pl->nd; e++) {
        ldev *d = &pl->dv[e];
        if ((rc = d->o->queue_wait_event(d->q_comp, pl->ev_bc[k]))) return rc;
        if (k + 2 < pl->np && owner(pl, k + 2) == e) {
            if ((rc = update(pl, e, d->q_comp, k, lcol(pl, e, k + 2), jb_of(pl, k + 2), 1)))
                return rc;
            if ((rc = d->o->event_record(pl->ev_la[k + 2], d->q_comp))) return rc;
        }
        /* the panels on the device so far (nup: later ones catch up on arrival) */
        const int64_t c0 = lcol(pl, e, k + 3), c1 = HYLA_MIN(lcol(pl, e, pl->nup), d->lcols);
        if ((rc = update(pl, e, d->q_comp, k, c0, c1 - c0, 1))) return rc;
    }
    for (int e = 0; e < pl->nd; e++) {
        ldev *d = &pl->dv[e];
        if ((rc = leaf_swaps(pl, d, d->q_comp, k, 0, kk, lcol(pl, e, k), d->a, d->ld))) return rc;
        if (pl->nd > 1 && k >= 1) {
            const int s = (int)((k - 1) % NRECV);
            if ((rc = d->o->event_record(d->ev_free[s], d->q_comp))) return rc;
            d->free_rec[s] = 1;
        }
    }
    return 0;
}

/* Host-resident: downloads rows [r0, r0 + rows) of panels [j0, j1), once
 * the work on q_comp issued so far (recorded in ev) is done. The columns go
 * in slot-sized pieces (one device keeps its panels side by side as A does,
 * so a run of panels is one region), alternately on q_out and q_in once A
 * is up (until then q_in carries the uploads, which must not wait behind
 * downloads): the copy of one piece then overlaps the unpacking of the
 * previous one, which a host function runs on its queue. */
static int download_rows(plan *pl, hyla_event *const *ev_of, int64_t r0, int64_t rows,
                         int64_t j0, int64_t j1) {
    const size_t es = pl->es;
    int rc = 0;
    if (rows <= 0 || j1 <= j0) return 0;
    for (int e = 0; e < pl->nd; e++) {
        ldev *d = &pl->dv[e];
        hyla_queue *qs[2] = {d->q_out, pl->nup == pl->np ? d->q_in : d->q_out};
        HYLA_TRY(d->o->queue_wait_event(qs[0], ev_of[e]));
        if (qs[1] != qs[0]) HYLA_TRY(d->o->queue_wait_event(qs[1], ev_of[e]));
        const int64_t per = HYLA_MAX(1, (int64_t)(d->down.slot_bytes / ((size_t)rows * es)));
        const int64_t first = j0 + (e - j0 % pl->nd + pl->nd) % pl->nd; /* e's first panel */
        for (int64_t j = first; j < j1; j += pl->nd) {
            const int64_t c0 = j * pl->nb, lc = lcol(pl, e, j);
            const int64_t width = pl->nd == 1 ? HYLA_MIN(pl->n, j1 * pl->nb) - c0 : jb_of(pl, j);
            for (int64_t c = 0; c < width; c += per) {
                const int64_t w = HYLA_MIN(per, width - c);
                HYLA_TRY(hyla_xfer_down(&d->down, qs[d->turn],
                                        (unsigned char *)pl->job->A + (size_t)(r0 + (c0 + c) * pl->job->lda) * es,
                                        pl->job->lda, loc(pl, d, r0, lc + c), d->ld, r0, c0 + c,
                                        rows, w, HYLA_XFER_ALL, NULL, NULL));
                d->turn ^= 1;
            }
            if (pl->nd == 1) break; /* the one region covered the run */
        }
    }
cleanup:
    return rc;
}

/* Host-resident: downloads rows [dl[j], r1) of each panel j < j1 (rows
 * [0, dl[j]) are down already), runs of panels with the same dl at once,
 * once ev_of is reached; then dl[j] = r1. */
static int download_final(plan *pl, hyla_event *const *ev_of, int64_t *dl, int64_t j1,
                          int64_t r1) {
    for (int64_t a = 0, b; a < j1; a = b) {
        for (b = a + 1; b < j1 && dl[b] == dl[a];) b++;
        int rc = download_rows(pl, ev_of, dl[a], r1 - dl[a], a, b);
        if (rc) return rc;
    }
    for (int64_t j = 0; j < j1; j++) dl[j] = HYLA_MAX(dl[j], r1);
    return 0;
}

static int run_factor(plan *pl) {
    int rc = 0;
    hyla_event **evs = NULL;
    int64_t *dl = NULL;
    evs = hyla_calloc((size_t)pl->nd, sizeof *evs);
    dl = hyla_calloc((size_t)pl->np, sizeof *dl);
    if (!evs || !dl) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    /* Host-resident: panels go up in order while the steps run, UPLOAD_AHEAD
     * of them after each step (one device; with several, every panel after
     * step 0, one thread per device (upload_rest), as a late panel would
     * need old panels that other devices hold only for a few steps); step k
     * needs panels up to k + 2, later
     * ones catch up on arrival (upload_panel). Rows of row block i are final
     * once step i + 1 has run on a panel (later steps swap and update only
     * rows below it; step i + 1 waited for the lookahead of step i, which
     * wrote the U block of panel i + 1), so once step k is enqueued, the
     * panels that were up after step k - 1 (ev_row of that step, recorded
     * after their catch-up) are downloaded down to row block k - 2: a full
     * staging ring then blocks the host while the device still has step k
     * queued, instead of idling it. */
    const int64_t ahead = UPLOAD_AHEAD;
    int64_t nup_prev = 0;        /* panels up when the last ev_row was recorded */
    for (int64_t k = 0; k < pl->nk; k++) {
        while (pl->nup < HYLA_MIN(pl->np, k + 3)) HYLA_TRY(upload_panel(pl, pl->nup, k));
        HYLA_TRY(step(pl, k));
        if (!pl->host) continue;
        if (pl->nd > 1 && pl->nup < pl->np) HYLA_TRY(upload_rest(pl, k + 1));
        for (int64_t c = 0; c < ahead && pl->nup < pl->np; c++)
            HYLA_TRY(upload_panel(pl, pl->nup, k + 1));
        if (k >= 1 && (pl->nd == 1 || (k - 1) % DOWN_EVERY == 0)) {
            for (int e = 0; e < pl->nd; e++) evs[e] = pl->dv[e].ev_row[(k - 1) % 2];
            HYLA_TRY(download_final(pl, evs, dl, nup_prev, (k - 1) * pl->nb));
        }
        for (int e = 0; e < pl->nd; e++)
            HYLA_TRY(pl->dv[e].o->event_record(pl->dv[e].ev_row[k % 2], pl->dv[e].q_comp));
        nup_prev = pl->nup;
    }
    /* a wide matrix's panels right of the last step */
    while (pl->nup < pl->np) HYLA_TRY(upload_panel(pl, pl->nup, pl->nk));
    for (int e = 0; e < pl->nd; e++) {
        ldev *d = &pl->dv[e];
        HYLA_TRY(d->o->event_record(d->ev_aux, d->q_aux));
        HYLA_TRY(d->o->queue_wait_event(d->q_comp, d->ev_aux));
        HYLA_TRY(d->o->event_record(d->ev_done, d->q_comp));
        evs[e] = d->ev_done;
    }
    /* the rest: the last row blocks and, when m > n, the rows below the square */
    if (pl->host) HYLA_TRY(download_final(pl, evs, dl, pl->np, pl->m));
cleanup:
    hyla_free(evs);
    hyla_free(dl);
    return rc;
}

/* ---------------------------------------------------------------- solve */

/* op(A) X = B for the columns in Bd (ld ldbd, w of them) on q, with the
 * factor at lu (ld ldlu) and global pivots dgpiv (LAPACK getrs). */
static int solve_ops(plan *pl, ldev *d, hyla_queue *q, unsigned char *Bd, int64_t ldbd,
                     int64_t w) {
    const hyla_backend_ops *o = d->o;
    const int64_t n = pl->n;
    const void *one = hyla_scalar(pl->t, HYLA_SC_ONE);
    const hyla_op tr = pl->job->trans;
    int rc;
    if (tr == HYLA_NOTRANS) {
        if (pl->job->pivot && (rc = o->laswp(q, pl->t, w, Bd, ldbd, 1, n, d->dgpiv, 1))) return rc;
        if ((rc = o->trsm(q, pl->t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_UNIT, n, w, one,
                          d->lu, d->ldlu, Bd, ldbd)))
            return rc;
        return o->trsm(q, pl->t, HYLA_LEFT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, n, w, one,
                       d->lu, d->ldlu, Bd, ldbd);
    }
    if ((rc = o->trsm(q, pl->t, HYLA_LEFT, HYLA_UPPER, tr, HYLA_NONUNIT, n, w, one, d->lu,
                      d->ldlu, Bd, ldbd)))
        return rc;
    if ((rc = o->trsm(q, pl->t, HYLA_LEFT, HYLA_LOWER, tr, HYLA_UNIT, n, w, one, d->lu, d->ldlu,
                      Bd, ldbd)))
        return rc;
    if (pl->job->pivot) return o->laswp(q, pl->t, w, Bd, ldbd, 1, n, d->dgpiv, -1);
    return 0;
}

static int run_solve(plan *pl) {
    const hyla_lu_job *job = pl->job;
    ldev *d = &pl->dv[0];
    const hyla_backend_ops *o = d->o;
    const size_t es = pl->es;
    const int64_t n = pl->n;
    int rc = 0;
    if (job->pivot) { /* the caller's global pivots, through pinned memory */
        memcpy(d->ppiv, job->ipiv, (size_t)n * sizeof(int64_t));
        HYLA_TRY(o->copy_2d(d->q_comp, d->dgpiv, (size_t)n * sizeof(int64_t), d->ppiv,
                            (size_t)n * sizeof(int64_t), (size_t)n * sizeof(int64_t), 1,
                            HYLA_COPY_H2D));
        pl->bytes_h2d += n * (int64_t)sizeof(int64_t);
    }
    if (!pl->host) {
        HYLA_TRY(solve_ops(pl, d, d->q_comp, job->B, job->ldb, job->nrhs));
        goto cleanup;
    }
    if (d->lu != d->a) {
        HYLA_TRY(hyla_xfer_up(&d->up, d->q_in, d->lu, d->ldlu, job->A, job->lda, 0, 0, n, n,
                              HYLA_XFER_ALL));
        HYLA_TRY(o->event_record(d->ev_b, d->q_in));
        HYLA_TRY(o->queue_wait_event(d->q_comp, d->ev_b));
    }
    for (int64_t c0 = 0; c0 < job->nrhs; c0 += d->bcols) {
        const int64_t w = HYLA_MIN(d->bcols, job->nrhs - c0);
        unsigned char *hb = (unsigned char *)job->B + (size_t)(c0 * job->ldb) * es;
        HYLA_TRY(hyla_xfer_up(&d->up, d->q_in, d->bbuf, n, hb, job->ldb, 0, c0, n, w,
                              HYLA_XFER_ALL));
        HYLA_TRY(o->event_record(d->ev_b, d->q_in));
        HYLA_TRY(o->queue_wait_event(d->q_comp, d->ev_b));
        HYLA_TRY(solve_ops(pl, d, d->q_comp, d->bbuf, n, w));
        HYLA_TRY(o->event_record(d->ev_done, d->q_comp));
        HYLA_TRY(o->queue_wait_event(d->q_out, d->ev_done));
        HYLA_TRY(hyla_xfer_down(&d->down, d->q_out, hb, job->ldb, d->bbuf, n, 0, c0, n, w,
                                HYLA_XFER_ALL, NULL, NULL));
        /* the next chunk reuses bbuf: its upload waits for this download */
        HYLA_TRY(o->event_record(d->ev_aux, d->q_out));
        HYLA_TRY(o->queue_wait_event(d->q_in, d->ev_aux));
    }
cleanup:
    return rc;
}

/* ---------------------------------------------------------------- setup */

/* Device bytes of device e with bcols right-hand-side columns (device 0). */
static size_t dev_bytes(const plan *pl, int e, int64_t bcols) {
    const hyla_lu_job *job = pl->job;
    const size_t es = pl->es;
    size_t b = hyla_pool_align((size_t)(pl->nk * pl->nleaf) * sizeof(int)) +
               hyla_pool_align((size_t)pl->kmin * sizeof(int64_t));
    if (pl->host) b += hyla_pool_align((size_t)pl->m * (size_t)pl->dv[e].lcols * es);
    if (pl->nd > 1) b += NRECV * hyla_pool_align((size_t)pl->m * (size_t)pl->nb * es);
    if (job->factor)
        b += hyla_pool_align((size_t)pl->nb * (size_t)pl->nb * es) +
             hyla_pool_align((size_t)pl->nb * (size_t)pl->dv[e].lcols * es);
    if (e == 0 && job->solve) {
        b += hyla_pool_align((size_t)pl->n * sizeof(int64_t));
        if (pl->host) {
            if (!job->factor || pl->nd > 1) b += hyla_pool_align((size_t)pl->n * (size_t)pl->n * es);
            b += hyla_pool_align((size_t)pl->n * (size_t)bcols * es);
        }
    }
    return b;
}

/* The staging slot of a host-resident call (A, and B for a solve) */
static size_t slot_bytes(const plan *pl, const ldev *d) {
    const int64_t cols = HYLA_MAX(pl->n, pl->job->solve ? pl->job->nrhs : 0);
    return hyla_xfer_slot(d->dev, (size_t)pl->m * (size_t)cols * pl->es, NSLOTS);
}

static size_t pinned_bytes(const plan *pl, const ldev *d) {
    size_t b = hyla_pool_align((size_t)(pl->nk * pl->nleaf) * sizeof(int)) +
               hyla_pool_align((size_t)HYLA_MAX(pl->kmin, pl->n) * sizeof(int64_t));
    if (pl->host) b += 2 * NSLOTS * slot_bytes(pl, d);
    return b;
}

static int plan_memory(plan *pl) {
    const hyla_lu_job *job = pl->job;
    for (int e = 0; e < pl->nd; e++) {
        ldev *d = &pl->dv[e];
        int64_t c = 0;
        for (int64_t j = e; j < pl->np; j += pl->nd) c += jb_of(pl, j);
        d->lcols = c;
        const size_t budget = hyla_workspace_budget(pl->ctx, d->dev->index);
        int64_t bcols = 0;
        if (e == 0 && job->solve && pl->host && job->nrhs > 0) {
            const size_t fixed = dev_bytes(pl, e, 0), col = hyla_pool_align((size_t)pl->n * pl->es);
            bcols = budget > fixed ? (int64_t)((budget - fixed) / col) - 1 : 0;
            bcols = HYLA_MIN(bcols, job->nrhs);
            if (bcols < 1) return HYLA_ERR_DEVICE_MEMORY;
        }
        d->bcols = bcols;
        if (dev_bytes(pl, e, bcols) > budget) return HYLA_ERR_DEVICE_MEMORY;
    }
    return 0;
}

static int setup_device(plan *pl, int e) {
    ldev *d = &pl->dv[e];
    const hyla_lu_job *job = pl->job;
    const size_t es = pl->es;
    int rc = hyla_workspace_get(pl->ctx, d->dev->index, dev_bytes(pl, e, d->bcols),
                                pinned_bytes(pl, d), &d->ws);
    if (rc) return rc;
    d->o = d->dev->ops;
    d->q_in = d->ws->q_in, d->q_comp = d->ws->q_comp, d->q_aux = d->ws->q_aux,
    d->q_out = d->ws->q_out;
    unsigned char *p = d->ws->dev_pool, *h = d->ws->pinned;
    d->dinfo = (int *)p;
    p += hyla_pool_align((size_t)(pl->nk * pl->nleaf) * sizeof(int));
    d->dipiv = (int64_t *)p;
    p += hyla_pool_align((size_t)pl->kmin * sizeof(int64_t));
    d->pinfo = (volatile int *)h;
    memset(h, 0, (size_t)(pl->nk * pl->nleaf) * sizeof(int));
    h += hyla_pool_align((size_t)(pl->nk * pl->nleaf) * sizeof(int));
    d->ppiv = (int64_t *)h;
    h += hyla_pool_align((size_t)HYLA_MAX(pl->kmin, pl->n) * sizeof(int64_t));
    if (pl->host) {
        d->a = p, d->ld = pl->m;
        p += hyla_pool_align((size_t)pl->m * (size_t)d->lcols * es);
    } else {
        d->a = job->A, d->ld = job->lda;
    }
    if (pl->nd > 1)
        for (int s = 0; s < NRECV; s++, p += hyla_pool_align((size_t)pl->m * (size_t)pl->nb * es))
            d->recv[s] = p;
    d->linv_step = -1;
    if (job->factor) {
        d->linv = p;
        p += hyla_pool_align((size_t)pl->nb * (size_t)pl->nb * es);
        d->wbuf = p;
        p += hyla_pool_align((size_t)pl->nb * (size_t)d->lcols * es);
    }
    if (e == 0 && job->solve) {
        d->dgpiv = (int64_t *)p;
        p += hyla_pool_align((size_t)pl->n * sizeof(int64_t));
        d->lu = d->a, d->ldlu = d->ld;
        if (pl->host) {
            if (!job->factor || pl->nd > 1) {
                d->lu = p, d->ldlu = pl->n;
                p += hyla_pool_align((size_t)pl->n * (size_t)pl->n * es);
            }
            d->bbuf = p;
        }
    }
    if (pl->host) {
        const size_t slot = slot_bytes(pl, d);
        const int threads = hyla_pack_threads(pl->ctx);
        hyla_xfer *xs[] = {&d->up, &d->down};
        if ((rc = hyla_xfer_init_all(xs, 2, d->dev, h, NSLOTS, slot, es, threads))) return rc;
        d->xfer_ok = 1;
    }
    hyla_event **evs[] = {&d->ev_free[0], &d->ev_free[1], &d->ev_free[2], &d->ev_aux,
                          &d->ev_done, &d->ev_b, &d->ev_row[0], &d->ev_row[1]};
    return hyla_dev_events_create(d->dev, evs, sizeof evs / sizeof evs[0]);
}

static void destroy_device(ldev *d) {
    if (!d->o) return;
    hyla_event *evs[] = {d->ev_free[0], d->ev_free[1], d->ev_free[2], d->ev_aux, d->ev_done,
                         d->ev_b, d->ev_row[0], d->ev_row[1]};
    hyla_dev_events_destroy(evs, sizeof evs / sizeof evs[0]);
    hyla_xfer *xs[] = {&d->up, &d->down};
    if (d->xfer_ok) hyla_xfer_fini_all(xs, 2);
}

#define EVENT_ARRAYS(pl) {&(pl)->ev_bc, &(pl)->ev_la, &(pl)->ev_up, &(pl)->ev_t0, &(pl)->ev_t1}
#define NSETS 5
#define TIMED_FROM 3             /* ev_t0 and ev_t1 are timing events */

/* The pivots of device 0 (which holds every panel's), made global: each is
 * local to its leaf. */
static int fetch_pivots(plan *pl) {
    ldev *d = &pl->dv[0];
    const size_t bytes = (size_t)pl->kmin * sizeof(int64_t);
    int rc = d->o->copy_2d(d->q_comp, d->ppiv, bytes, d->dipiv, bytes, bytes, 1, HYLA_COPY_D2H);
    if (!rc) rc = d->o->queue_sync(d->q_comp);
    if (rc) return rc;
    pl->bytes_d2h += (int64_t)bytes;
    for (int64_t i = 0; i < pl->kmin; i++) {
        const int64_t k0 = i / pl->nb * pl->nb;
        pl->job->ipiv[i] = d->ppiv[i] + k0 + (i - k0) / pl->ib * pl->ib;
    }
    return 0;
}

/* The context's LU statistics of this call (after hyla_panel_sync); panel times
 * only when the call succeeded (the timing events were then all reached). */
static void save_stats(plan *pl, int timed) {
    hyla_lu_stats *st = &pl->ctx->lu_stats;
    memset(st, 0, sizeof *st);
    st->nb = pl->nb;
    st->ib = pl->ib;
    st->devices = pl->nd;
    st->lookahead = pl->job->factor && pl->np > 1;
    st->bytes_h2d = pl->bytes_h2d;
    st->bytes_d2h = pl->bytes_d2h;
    st->bytes_peer = pl->bytes_peer;
    for (int e = 0; e < pl->nd; e++) {
        st->bytes_h2d += pl->dv[e].up.bytes;
        st->bytes_d2h += pl->dv[e].down.bytes;
        if (e < 16) st->panels_per_device[e] = pl->panels[e];
    }
    double ms = 0;
    for (int64_t k = 0; timed && k < pl->panels_run; k++) {
        float t = 0;
        if (pl->ev_t0[k]->dev->ops->event_elapsed_ms(pl->ev_t0[k], pl->ev_t1[k], &t)) {
            ms = 0;
            break;
        }
        ms += t;
    }
    st->panel_time_s = ms * 1e-3;
}

int hyla_plu(hyla_t *ctx, const hyla_lu_job *job) {
    if (hyla_host_direct(ctx, job->dev, ctx->opt_getrf_nb > 0 || ctx->opt_getrf_ib > 0))
        return hyla_host_lu(ctx, job->t, job->m, job->n, job->A, job->lda,
                            job->pivot ? job->ipiv : NULL, job->trans, job->nrhs, job->B, job->ldb,
                            job->factor, job->solve);
    int rc = 0, info = 0;
    plan *pl = hyla_calloc(1, sizeof *pl);
    if (!pl) return HYLA_ERR_NO_MEMORY;
    hyla_event ***sets[] = EVENT_ARRAYS(pl);
    pl->ctx = ctx;
    pl->job = job;
    pl->t = job->t;
    pl->es = hyla_dtype_size(job->t);
    pl->m = job->m;
    pl->n = job->n;
    pl->kmin = HYLA_MIN(job->m, job->n);
    pl->host = job->dev < 0;
    hyla_dev *first = ctx->devs[pl->host ? 0 : job->dev];
    int64_t nb = ctx->opt_getrf_nb > 0 ? ctx->opt_getrf_nb : hyla_tuning_for(first)->getrf_nb[job->t];
    pl->nb = HYLA_MAX(1, HYLA_MIN(nb, pl->kmin));
    int64_t ib = ctx->opt_getrf_ib > 0 ? ctx->opt_getrf_ib : hyla_tuning_for(first)->getrf_ib[job->t];
    pl->ib = HYLA_MAX(1, HYLA_MIN(ib, pl->nb));
    pl->nleaf = HYLA_CEILDIV(pl->nb, pl->ib);
    pl->np = HYLA_CEILDIV(pl->n, pl->nb);
    pl->nk = HYLA_CEILDIV(pl->kmin, pl->nb);
    pl->nd = pl->host && job->factor ? (int)HYLA_MIN((int64_t)ctx->ndev, pl->np) : 1;
    pl->nup = pl->host ? 0 : pl->np;
    pl->dv = hyla_calloc((size_t)pl->nd, sizeof *pl->dv);
    if (!pl->dv) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    pl->devs = &ctx->devs[pl->host ? 0 : job->dev];
    for (int e = 0; e < pl->nd; e++) pl->dv[e].dev = pl->devs[e];
    HYLA_TRY(plan_memory(pl));
    for (int e = 0; e < pl->nd; e++) HYLA_TRY(setup_device(pl, e));
    HYLA_TRY(hyla_panel_event_sets_create(sets, NSETS, TIMED_FROM, pl->np, pl->devs, pl->nd));
    hyla_log(ctx, "getrf: m=%lld n=%lld nb=%lld ib=%lld devices=%d %s", (long long)pl->m,
             (long long)pl->n, (long long)pl->nb, (long long)pl->ib, pl->nd,
             job->pivot ? "pivoting" : "no pivoting");
    if (job->factor) {
        rc = hyla_panel_sync(ctx, pl->devs, pl->nd, run_factor(pl));
        if (rc) goto cleanup;
        for (int64_t k = 0; k < pl->nk && !info; k++)
            for (int64_t j = 0; j < HYLA_CEILDIV(kk_of(pl, k), pl->ib) && !info; j++) {
                const int v = pl->dv[owner(pl, k)].pinfo[k * pl->nleaf + j];
                if (v > 0) info = (int)(k * pl->nb + j * pl->ib + v);
            }
        if (job->pivot) HYLA_TRY(fetch_pivots(pl));
    }
    if (job->solve && !info && job->nrhs > 0) {
        rc = hyla_panel_sync(ctx, pl->devs, pl->nd, run_solve(pl));
    }
cleanup:
    if (rc) hyla_panel_sync(ctx, pl->devs, pl->dv ? pl->nd : 0, rc);
    if (pl->dv) {
        save_stats(pl, !rc);
        hyla_panel_event_sets_destroy(sets, NSETS, pl->np);
        for (int e = 0; e < pl->nd; e++) destroy_device(&pl->dv[e]);
    }
    hyla_free(pl->dv);
    hyla_free(pl);
    return rc ? rc : info;
}
