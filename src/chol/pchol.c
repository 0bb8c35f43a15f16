/* Multi-device Cholesky, left-looking by panels (see docs/ARCHITECTURE.md).
 *
 * The matrix is cut into panels ("groups") of nb columns of L (for uplo U,
 * nb rows of U = L^H; every operation below is written in terms of L and
 * translated to the stored triangle by the blk/at helpers, so both
 * triangles run the same code without transposing anything). Panel g is
 * factored by device g mod nd:
 *   q_comp  "old" update  A[g0:, g] -= L[g0:, panels <= g-2] L[g, same]^H
 *           (one HERK and one GEMM with a long k, from resident panels,
 *           plus one GEMM per streamed panel when out of core);
 *   q_aux   (high priority) the update from panel g-1, POTRF of the
 *           diagonal block, TRSM of the panel, then copies of the panel to
 *           the other devices (NVLink on a multi-GPU host).
 * The old update of g+1 runs on q_comp while q_aux factors g: that is the
 * lookahead which hides the diagonal factorization and the panel solve.
 * q_in uploads the panels (packed from the caller's pageable memory into
 * pinned slots by one upload thread per device, running ahead of the
 * computation); q_out downloads panel g as soon as it is final (issued by a
 * download thread), so both copy directions overlap the computation.
 *
 * In core, every device keeps all of L (n x n, column-major): resident
 * columns [0, cres) with cres = n. Out of core, only the leading cres
 * columns are resident; later panels are factored in one of NWORK work
 * buffers per device and reach other panels again by streaming from the
 * host copy (the leading columns, reused by every later panel, are the ones
 * worth keeping: the data-persistence idea).
 *
 * Solve (posv, potrs): the right-hand sides are split by columns over the
 * devices; each device does two TRSMs when all of L is resident, else a
 * blocked forward and backward sweep with streamed panels. */
#include "chol/pchol.h"
#include "core/panels.h"
#include "core/xfer.h"
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define NWORK 3
#define NSTREAM 3
#define NSLOTS 4

typedef struct {
    unsigned char *p;
    int64_t ld, r0, c0;          /* holds L(i, j) for i >= r0, j >= c0 */
} blk;

typedef struct plan plan;

typedef struct {
    plan *pl;
    int idx;
    hyla_dev *dev;
    const hyla_backend_ops *o;
    hyla_dev_workspace *ws;
    hyla_queue *q_in, *q_comp, *q_aux, *q_out;
    blk res;                     /* L columns [0, cres) */
    unsigned char *work[NWORK];
    int64_t work_owner[NWORK];
    int nwork_next;
    unsigned char *strm[NSTREAM];
    hyla_event *s_ready[NSTREAM], *s_free[NSTREAM], *ev_b, *ev_x, *ev_res;
    int s_used[NSTREAM], snext;
    unsigned char *bbuf;         /* right-hand-side chunk, ld = n */
    int64_t bcols;
    int *dinfo;                  /* device ints, one per panel */
    volatile int *pinfo;         /* pinned copies */
    hyla_xfer up, down, sup;     /* panel uploads, downloads, streamed panels */
    int xfer_ok;
    int64_t uploaded;
    pthread_t up_thread;
    int up_started;
    int64_t waited;              /* panels q_comp has waited for */
    int64_t panels;
} cdev;

typedef struct {
    plan *pl;
    int64_t g;
} skip_arg;

struct plan {
    hyla_t *ctx;
    hyla_dev **devs;             /* device e: devs[e]; the owner of panel g: devs[g mod nd] */
    const hyla_chol_job *job;
    hyla_dtype t;
    size_t es;
    int lower, nd, host, ooc, cplx;
    int64_t n, nb, ng, cres, gres;
    cdev *dv;
    hyla_event **ev_up, **ev_old, **ev_fact, **ev_bc, **ev_down;
    skip_arg *skips;
    int64_t bytes_peer;
    int64_t *applied;
    int *gbuf;            /* panels already applied to each panel (eager updates) */
    /* the download thread: issues panel g's download once its compute is issued */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int64_t computed, downloaded; /* panels issued by the driver / by the downloader */
    int dl_stop, dl_rc, dl_started, mu_ok;
    int ul_stop, ul_rc;          /* upload threads: stop request, first failure */
    pthread_t dl_thread;
};

/* ---------------------------------------------------------------- helpers */

static int owner(const plan *pl, int64_t g) { return (int)(g % pl->nd); }
static int64_t g0_of(const plan *pl, int64_t g) { return g * pl->nb; }
static int64_t gn_of(const plan *pl, int64_t g) { return HYLA_MIN(pl->nb, pl->n - g * pl->nb); }

static unsigned char *at(const plan *pl, blk b, int64_t i, int64_t j) {
    int64_t off = pl->lower ? (i - b.r0) + (j - b.c0) * b.ld : (j - b.c0) + (i - b.r0) * b.ld;
    return b.p + (size_t)off * pl->es;
}

static hyla_op hop(const plan *pl) { return pl->cplx ? HYLA_CONJTRANS : HYLA_TRANS; }
static hyla_uplo suplo(const plan *pl) { return pl->lower ? HYLA_LOWER : HYLA_UPPER; }

/* C[i0:i0+m, j0:j0+nn] -= A[i0:i0+m, k0:k0+K] B[j0:j0+nn, k0:k0+K]^H */
static int upd_gemm(const plan *pl, hyla_queue *q, blk C, int64_t i0, int64_t j0, int64_t m,
                    int64_t nn, blk A, blk B, int64_t k0, int64_t K) {
    if (m <= 0 || nn <= 0 || K <= 0) return 0;
    const hyla_backend_ops *o = q->dev->ops;
    const void *m1 = hyla_scalar(pl->t, HYLA_SC_MONE), *p1 = hyla_scalar(pl->t, HYLA_SC_ONE);
    if (pl->lower)
        return o->gemm(q, pl->t, HYLA_NOTRANS, hop(pl), m, nn, K, m1, at(pl, A, i0, k0), A.ld,
                       at(pl, B, j0, k0), B.ld, p1, at(pl, C, i0, j0), C.ld);
    return o->gemm(q, pl->t, hop(pl), HYLA_NOTRANS, nn, m, K, m1, at(pl, B, j0, k0), B.ld,
                   at(pl, A, i0, k0), A.ld, p1, at(pl, C, i0, j0), C.ld);
}

/* Panel g -= A[g0:, k0:k0+K] A[g0:g0+gn, k0:k0+K]^H (HERK on the diagonal block). */
static int upd_panel(const plan *pl, hyla_queue *q, blk C, int64_t g, blk A, int64_t k0,
                     int64_t K) {
    if (K <= 0) return 0;
    const int64_t g0 = g0_of(pl, g), gn = gn_of(pl, g);
    const hyla_backend_ops *o = q->dev->ops;
    int rc = o->syrk(q, pl->t, 1, suplo(pl), pl->lower ? HYLA_NOTRANS : hop(pl), gn, K,
                     hyla_scalar(pl->t, HYLA_SC_MONE), at(pl, A, g0, k0), A.ld,
                     hyla_scalar(pl->t, HYLA_SC_ONE), at(pl, C, g0, g0), C.ld);
    if (rc) return rc;
    return upd_gemm(pl, q, C, g0 + gn, g0, pl->n - g0 - gn, gn, A, A, k0, K);
}

/* POTRF of the diagonal block of panel g, its info copied to pinned memory,
 * then the TRSM of the rest of the panel. */
static int factor_panel(const plan *pl, cdev *d, hyla_queue *q, blk C, int64_t g) {
    const int64_t g0 = g0_of(pl, g), gn = gn_of(pl, g), m = pl->n - g0 - gn;
    const hyla_backend_ops *o = d->o;
    int rc = o->potrf(q, pl->t, suplo(pl), gn, at(pl, C, g0, g0), C.ld, &d->dinfo[g]);
    if (!rc) rc = o->copy_2d(q, (void *)&d->pinfo[g], sizeof(int), &d->dinfo[g], sizeof(int),
                             sizeof(int), 1, HYLA_COPY_D2H);
    if (rc || m <= 0) return rc;
    if (pl->lower)
        return o->trsm(q, pl->t, HYLA_RIGHT, HYLA_LOWER, hop(pl), HYLA_NONUNIT, m, gn,
                       hyla_scalar(pl->t, HYLA_SC_ONE), at(pl, C, g0, g0), C.ld,
                       at(pl, C, g0 + gn, g0), C.ld);
    return o->trsm(q, pl->t, HYLA_LEFT, HYLA_UPPER, hop(pl), HYLA_NONUNIT, gn, m,
                   hyla_scalar(pl->t, HYLA_SC_ONE), at(pl, C, g0, g0), C.ld, at(pl, C, g0 + gn, g0),
                   C.ld);
}

/* Storage region of rows r.. of panel g, as (sr, sc, rows, cols) of the
 * stored matrix. */
static void region(const plan *pl, int64_t g, int64_t r, int64_t *sr, int64_t *sc,
                   int64_t *rows, int64_t *cols) {
    const int64_t g0 = g0_of(pl, g), gn = gn_of(pl, g);
    if (pl->lower) {
        *sr = r, *sc = g0, *rows = pl->n - r, *cols = gn;
    } else {
        *sr = g0, *sc = r, *rows = gn, *cols = pl->n - r;
    }
}

static unsigned char *host_at(const plan *pl, int64_t sr, int64_t sc) {
    return (unsigned char *)pl->job->A + (size_t)(sr + sc * pl->job->lda) * pl->es;
}

static int clip(const plan *pl) { return pl->lower ? HYLA_XFER_LOWER : HYLA_XFER_UPPER; }

/* Uploads rows r.. of panel g from the caller's matrix into b on q. */
static int panel_up(plan *pl, hyla_xfer *x, hyla_queue *q, blk b, int64_t g, int64_t r) {
    int64_t sr, sc, rows, cols;
    region(pl, g, r, &sr, &sc, &rows, &cols);
    return hyla_xfer_up(x, q, at(pl, b, r, g0_of(pl, g)), b.ld, host_at(pl, sr, sc),
                        pl->job->lda, sr, sc, rows, cols, clip(pl));
}

/* A download is skipped when any panel up to g failed: the caller's matrix
 * keeps its input from the failed panel on. */
static int skip_failed(void *arg) {
    skip_arg *s = arg;
    const plan *pl = s->pl;
    for (int64_t q = 0; q <= s->g; q++)
        if (pl->dv[owner(pl, q)].pinfo[q] != 0) return 1;
    return 0;
}

static blk res_blk(const cdev *d) { return d->res; }

static blk work_blk(const plan *pl, unsigned char *p, int64_t g) {
    blk b = {p, pl->lower ? pl->n - pl->cres : pl->nb, g0_of(pl, g), g0_of(pl, g)};
    return b;
}

/* The buffer holding panel g on its owner (resident or a work buffer; the
 * upload thread sets gbuf[g] before it publishes the upload). */
static blk panel_blk(const plan *pl, const cdev *d, int64_t g) {
    if (g < pl->gres) return res_blk(d);
    return work_blk(pl, d->work[pl->gbuf[g]], g);
}

/* Event meaning "panel q is factored and present on device d". */
static hyla_event *present(const plan *pl, const cdev *d, int64_t q) {
    return owner(pl, q) == d->idx ? pl->ev_fact[q] : pl->ev_bc[q];
}

/* Waits until the download of panel q is issued (its ev_down recorded). */
static int wait_downloaded(plan *pl, int64_t q) {
    if (!pl->dl_started) return 0;
    pthread_mutex_lock(&pl->mu);
    while (pl->downloaded <= q && !pl->dl_rc && !pl->ul_stop) pthread_cond_wait(&pl->cv, &pl->mu);
    int rc = pl->downloaded > q ? 0 : pl->dl_rc ? pl->dl_rc : HYLA_ERR_INVALID;
    pthread_mutex_unlock(&pl->mu);
    return rc;
}

/* Upload thread: waits until the driver has issued the compute of panel q
 * (its ev_fact recorded); non-zero when asked to stop. */
static int wait_computed(plan *pl, int64_t q) {
    pthread_mutex_lock(&pl->mu);
    while (pl->computed <= q && !pl->ul_stop) pthread_cond_wait(&pl->cv, &pl->mu);
    int rc = pl->computed > q ? 0 : HYLA_ERR_INVALID;
    pthread_mutex_unlock(&pl->mu);
    return rc;
}

/* Driver: waits until the upload of panel g is issued (ev_up recorded). */
static int wait_uploaded(plan *pl, cdev *d, int64_t g) {
    pthread_mutex_lock(&pl->mu);
    while (d->uploaded <= g && !pl->ul_rc) pthread_cond_wait(&pl->cv, &pl->mu);
    int rc = d->uploaded > g ? 0 : pl->ul_rc;
    pthread_mutex_unlock(&pl->mu);
    return rc;
}

/* Streams rows r.. of the factored panel q from the caller's matrix into a
 * stream buffer of d; returns the buffer and the slot, whose s_ready the
 * consumer waits for and whose s_free it records. */
static int stream_panel(plan *pl, cdev *d, int64_t q, int64_t r, blk *out, int *slot) {
    const hyla_backend_ops *o = d->o;
    int k = d->snext, rc;
    d->snext = (d->snext + 1) % NSTREAM;
    if (d->s_used[k] && (rc = o->queue_wait_event(d->q_in, d->s_free[k]))) return rc;
    if (pl->job->factor && ((rc = wait_downloaded(pl, q)) || (rc = o->event_sync(pl->ev_down[q]))))
        return rc; /* on the host now */
    blk b = {d->strm[k], pl->lower ? pl->n - pl->cres : pl->nb, r, g0_of(pl, q)};
    if ((rc = panel_up(pl, &d->sup, d->q_in, b, q, r))) return rc;
    if ((rc = o->event_record(d->s_ready[k], d->q_in))) return rc;
    d->s_used[k] = 1;
    *out = b;
    *slot = k;
    return 0;
}

/* ---------------------------------------------------------------- factor */

static int issue_upload(plan *pl, int64_t g) {
    cdev *d = &pl->dv[owner(pl, g)];
    const hyla_backend_ops *o = d->o;
    int rc;
    blk b;
    if (g < pl->gres) {
        b = res_blk(d);
    } else {
        int k = d->nwork_next;
        d->nwork_next = (k + 1) % NWORK;
        int64_t p = d->work_owner[k];
        if (p >= 0) { /* the previous occupant must be home and no longer read */
            if ((rc = wait_downloaded(pl, p))) return rc;
            if ((rc = o->queue_wait_event(d->q_in, pl->ev_down[p]))) return rc;
            if (pl->nd == 1 && p + 1 < pl->ng &&
                ((rc = wait_computed(pl, p + 1)) ||
                 (rc = o->queue_wait_event(d->q_in, pl->ev_fact[p + 1]))))
                return rc;
        }
        d->work_owner[k] = g;
        pl->gbuf[g] = k;
        b = work_blk(pl, d->work[k], g);
    }
    if ((rc = panel_up(pl, &d->up, d->q_in, b, g, g0_of(pl, g)))) return rc;
    return o->event_record(pl->ev_up[g], d->q_in);
}

/* Early in the factorization the update of panel g+1 is too small to hide
 * the factorization of panel g, so q_comp also applies the panels it has
 * (0 .. nres-1) to later resident panels of this device, until it holds
 * about twice the critical path's work. Device-resident matrices only: on
 * host-resident ones the later panels are not on the device yet. */
static int eager_updates(plan *pl, cdev *d, int64_t g, int64_t nres) {
    if (pl->host || nres <= 0) return 0;
    const double nb = (double)pl->nb, g0 = (double)g0_of(pl, g);
    const double target = 8.0 * ((double)pl->n - g0) * nb * nb;
    double have = 2.0 * HYLA_MAX(0.0, (double)pl->n - g0 - nb) * nb * (double)(nres - pl->applied[HYLA_MIN(g + 1, pl->ng - 1)] + 1) * nb;
    for (int64_t j = g + 1; j < pl->gres && have < target; j++) {
        if (owner(pl, j) != d->idx || pl->applied[j] >= nres) continue;
        const int64_t a = pl->applied[j];
        int rc = upd_panel(pl, d->q_comp, d->res, j, d->res, a * pl->nb, (nres - a) * pl->nb);
        if (rc) return rc;
        pl->applied[j] = nres;
        have += 2.0 * ((double)pl->n - (double)g0_of(pl, j)) * nb * (double)(nres - a) * nb;
    }
    return 0;
}

static int issue_compute(plan *pl, int64_t g) {
    cdev *d = &pl->dv[owner(pl, g)];
    const hyla_backend_ops *o = d->o;
    const int64_t g0 = g0_of(pl, g), gn = gn_of(pl, g);
    int rc;
    /* q_comp: the update from resident panels <= g-2, then streamed ones */
    if (pl->host && ((rc = wait_uploaded(pl, d, g)) ||
                     (rc = o->queue_wait_event(d->q_comp, pl->ev_up[g]))))
        return rc;
    blk C = panel_blk(pl, d, g);
    const int64_t nold = HYLA_MAX(0, g - 1), nres = HYLA_MIN(nold, pl->gres);
    for (; d->waited < nres; d->waited++)
        if (owner(pl, d->waited) != d->idx &&
            (rc = o->queue_wait_event(d->q_comp, pl->ev_bc[d->waited])))
            return rc;
    if (nres > 0) {
        /* own panels were factored on q_aux: wait for the newest of them */
        for (int64_t q = nres - 1; q >= 0 && q >= nres - pl->nd; q--)
            if (owner(pl, q) == d->idx) {
                if ((rc = o->queue_wait_event(d->q_comp, pl->ev_fact[q]))) return rc;
                break;
            }
        const int64_t a = HYLA_MIN(pl->applied[g], nres);
        if ((rc = upd_panel(pl, d->q_comp, C, g, res_blk(d), a * pl->nb, (nres - a) * pl->nb)))
            return rc;
        pl->applied[g] = nres;
    }
    for (int64_t q = pl->gres; q < nold; q++) {
        blk S;
        int k;
        if ((rc = stream_panel(pl, d, q, g0, &S, &k))) return rc;
        if ((rc = o->queue_wait_event(d->q_comp, d->s_ready[k]))) return rc;
        if ((rc = upd_panel(pl, d->q_comp, C, g, S, g0_of(pl, q), pl->nb))) return rc;
        if ((rc = o->event_record(d->s_free[k], d->q_comp))) return rc;
    }
    if ((rc = o->event_record(pl->ev_old[g], d->q_comp))) return rc;
    if ((rc = eager_updates(pl, d, g, nres))) return rc;

    /* q_aux: the update from panel g-1, then the factorization */
    if ((rc = o->queue_wait_event(d->q_aux, pl->ev_old[g]))) return rc;
    if (g >= 1) {
        const int64_t q = g - 1;
        if (q < pl->gres || owner(pl, q) == d->idx) {
            if (owner(pl, q) != d->idx && (rc = o->queue_wait_event(d->q_aux, present(pl, d, q))))
                return rc;
            if ((rc = upd_panel(pl, d->q_aux, C, g, panel_blk(pl, d, q), g0_of(pl, q), pl->nb)))
                return rc;
        } else {
            blk S;
            int k;
            if ((rc = stream_panel(pl, d, q, g0, &S, &k))) return rc;
            if ((rc = o->queue_wait_event(d->q_aux, d->s_ready[k]))) return rc;
            if ((rc = upd_panel(pl, d->q_aux, C, g, S, g0_of(pl, q), pl->nb))) return rc;
            if ((rc = o->event_record(d->s_free[k], d->q_aux))) return rc;
        }
    }
    if ((rc = factor_panel(pl, d, d->q_aux, C, g))) return rc;
    if ((rc = o->event_record(pl->ev_fact[g], d->q_aux))) return rc;
    if (g < pl->gres && pl->nd > 1) {
        int64_t sr, sc, rows, cols;
        region(pl, g, g0, &sr, &sc, &rows, &cols);
        for (int e = 0; e < pl->nd; e++) {
            if (e == d->idx) continue;
            cdev *x = &pl->dv[e];
            rc = o->copy_2d(d->q_aux, at(pl, x->res, g0, g0), (size_t)x->res.ld * pl->es,
                            at(pl, C, g0, g0), (size_t)C.ld * pl->es, (size_t)rows * pl->es,
                            (size_t)cols, HYLA_COPY_D2D);
            if (rc) return rc;
            pl->bytes_peer += rows * cols * (int64_t)pl->es;
        }
    }
    if ((rc = o->event_record(pl->ev_bc[g], d->q_aux))) return rc;
    d->panels++;
    (void)gn;
    return 0;
}

static int issue_download(plan *pl, int64_t g) {
    cdev *d = &pl->dv[owner(pl, g)];
    const hyla_backend_ops *o = d->o;
    int64_t sr, sc, rows, cols;
    int rc;
    blk C = panel_blk(pl, d, g);
    region(pl, g, g0_of(pl, g), &sr, &sc, &rows, &cols);
    if ((rc = o->queue_wait_event(d->q_out, pl->ev_fact[g]))) return rc;
    pl->skips[g] = (skip_arg){pl, g};
    rc = hyla_xfer_down(&d->down, d->q_out, host_at(pl, sr, sc), pl->job->lda,
                        at(pl, C, g0_of(pl, g), g0_of(pl, g)), C.ld, sr, sc, rows, cols,
                        clip(pl), skip_failed, &pl->skips[g]);
    if (rc) return rc;
    return o->event_record(pl->ev_down[g], d->q_out);
}

/* A failure already visible in pinned memory (a hint: the final info is
 * read after synchronizing). */
static int failure_seen(const plan *pl, int64_t upto) {
    for (int64_t q = 0; q < upto; q++)
        if (pl->dv[owner(pl, q)].pinfo[q] != 0) return 1;
    return 0;
}

/* The download thread: waiting for staging slots must not hold up the
 * driver, which keeps uploading and issuing work meanwhile. */
static void *downloader(void *arg) {
    plan *pl = arg;
    for (int64_t g = 0;; g++) {
        pthread_mutex_lock(&pl->mu);
        while (pl->computed <= g && !pl->dl_stop) pthread_cond_wait(&pl->cv, &pl->mu);
        int go = pl->computed > g;
        pthread_mutex_unlock(&pl->mu);
        if (!go) break;
        int rc = issue_download(pl, g);
        pthread_mutex_lock(&pl->mu);
        if (rc) pl->dl_rc = rc;
        else pl->downloaded = g + 1;
        pthread_cond_broadcast(&pl->cv);
        pthread_mutex_unlock(&pl->mu);
        if (rc) break;
    }
    return NULL;
}

static void set_computed(plan *pl, int64_t g, int stop) {
    pthread_mutex_lock(&pl->mu);
    if (g > pl->computed) pl->computed = g;
    if (stop) pl->dl_stop = 1;
    pthread_cond_broadcast(&pl->cv);
    pthread_mutex_unlock(&pl->mu);
}

/* One upload thread per device: packing one device's panels never waits
 * for another device's copies, and uploads run ahead of the computation
 * (bounded by the staging slots and, out of core, by the work buffers). */
static void *uploader(void *arg) {
    cdev *d = arg;
    plan *pl = d->pl;
    for (int64_t g = d->idx; g < pl->ng; g += pl->nd) {
        pthread_mutex_lock(&pl->mu);
        int stop = pl->ul_stop;
        pthread_mutex_unlock(&pl->mu);
        if (stop) break;
        int rc = issue_upload(pl, g);
        pthread_mutex_lock(&pl->mu);
        if (rc && !pl->ul_stop && !pl->ul_rc) pl->ul_rc = rc;
        if (!rc) d->uploaded = g + 1;
        pthread_cond_broadcast(&pl->cv);
        pthread_mutex_unlock(&pl->mu);
        if (rc) break;
    }
    return NULL;
}

static void stop_threads(plan *pl) {
    pthread_mutex_lock(&pl->mu);
    pl->ul_stop = 1;
    pl->dl_stop = 1;
    pthread_cond_broadcast(&pl->cv);
    pthread_mutex_unlock(&pl->mu);
    for (int e = 0; e < pl->nd; e++)
        if (pl->dv[e].up_started) {
            pthread_join(pl->dv[e].up_thread, NULL);
            pl->dv[e].up_started = 0;
        }
    if (pl->dl_started) {
        pthread_join(pl->dl_thread, NULL);
        pl->dl_started = 0;
    }
}

static int run_factor(plan *pl, int64_t *issued) {
    int rc = 0;
    *issued = 0;
    if (pl->host) {
        if (pthread_create(&pl->dl_thread, NULL, downloader, pl) != 0) return HYLA_ERR_NO_MEMORY;
        pl->dl_started = 1;
        for (int e = 0; e < pl->nd; e++) {
            if (pthread_create(&pl->dv[e].up_thread, NULL, uploader, &pl->dv[e]) != 0)
                HYLA_TRY(HYLA_ERR_NO_MEMORY);
            pl->dv[e].up_started = 1;
        }
    }
    for (int64_t g = 0; g < pl->ng; g++) {
        HYLA_TRY(issue_compute(pl, g));
        *issued = g + 1;
        set_computed(pl, g + 1, 0);
        pthread_mutex_lock(&pl->mu);
        rc = pl->dl_rc ? pl->dl_rc : pl->ul_rc;
        pthread_mutex_unlock(&pl->mu);
        if (rc) goto cleanup;
        if (failure_seen(pl, g)) break;
    }
    /* every computed panel is downloaded before the threads stop */
    if (pl->host) HYLA_TRY(wait_downloaded(pl, *issued - 1));
cleanup:
    if (pl->host) {
        stop_threads(pl);
        if (!rc) rc = pl->dl_rc;
    }
    return rc;
}

/* ---------------------------------------------------------------- solve */

/* Solves with the right-hand-side columns [c0, c0 + w) on device d. */
static int solve_chunk(plan *pl, cdev *d, unsigned char *Bd, int64_t ldbd, int64_t c0, int64_t w) {
    const hyla_backend_ops *o = d->o;
    const hyla_chol_job *job = pl->job;
    const size_t es = pl->es;
    const int64_t n = pl->n;
    hyla_queue *q = d->q_comp;
    int rc = 0;
    if (pl->host) {
        HYLA_TRY(hyla_xfer_up(&d->up, d->q_in, Bd, ldbd,
                              (unsigned char *)job->B + (size_t)(c0 * job->ldb) * es, job->ldb,
                              0, c0, n, w, HYLA_XFER_ALL));
        HYLA_TRY(o->event_record(d->ev_b, d->q_in));
        HYLA_TRY(o->queue_wait_event(q, d->ev_b));
    }
    const hyla_op fwd = pl->lower ? HYLA_NOTRANS : hop(pl), bwd = pl->lower ? hop(pl) : HYLA_NOTRANS;
    const void *one = hyla_scalar(pl->t, HYLA_SC_ONE), *m1 = hyla_scalar(pl->t, HYLA_SC_MONE);
    if (pl->gres >= pl->ng) {
        blk L = d->res;
        HYLA_TRY(o->trsm(q, pl->t, HYLA_LEFT, suplo(pl), fwd, HYLA_NONUNIT, n, w, one,
                         at(pl, L, 0, 0), L.ld, Bd, ldbd));
        HYLA_TRY(o->trsm(q, pl->t, HYLA_LEFT, suplo(pl), bwd, HYLA_NONUNIT, n, w, one,
                         at(pl, L, 0, 0), L.ld, Bd, ldbd));
    } else {
        for (int pass = 0; pass < 2; pass++)
            for (int64_t i = 0; i < pl->ng; i++) {
                const int64_t g = pass == 0 ? i : pl->ng - 1 - i;
                const int64_t g0 = g0_of(pl, g), gn = gn_of(pl, g), m = n - g0 - gn;
                blk S = d->res;
                int k = -1;
                if (g >= pl->gres) {
                    HYLA_TRY(stream_panel(pl, d, g, g0, &S, &k));
                    HYLA_TRY(o->queue_wait_event(q, d->s_ready[k]));
                }
                unsigned char *Bg = Bd + (size_t)g0 * es, *Bm = Bd + (size_t)(g0 + gn) * es;
                if (pass == 0) {
                    HYLA_TRY(o->trsm(q, pl->t, HYLA_LEFT, suplo(pl), fwd, HYLA_NONUNIT, gn, w, one,
                                     at(pl, S, g0, g0), S.ld, Bg, ldbd));
                    if (m > 0)
                        HYLA_TRY(o->gemm(q, pl->t, fwd, HYLA_NOTRANS, m, w, gn, m1,
                                         at(pl, S, g0 + gn, g0), S.ld, Bg, ldbd, one, Bm, ldbd));
                } else {
                    if (m > 0)
                        HYLA_TRY(o->gemm(q, pl->t, bwd, HYLA_NOTRANS, gn, w, m, m1,
                                         at(pl, S, g0 + gn, g0), S.ld, Bm, ldbd, one, Bg, ldbd));
                    HYLA_TRY(o->trsm(q, pl->t, HYLA_LEFT, suplo(pl), bwd, HYLA_NONUNIT, gn, w, one,
                                     at(pl, S, g0, g0), S.ld, Bg, ldbd));
                }
                if (k >= 0) HYLA_TRY(o->event_record(d->s_free[k], q));
            }
    }
    if (pl->host) {
        HYLA_TRY(o->event_record(d->ev_x, q));
        HYLA_TRY(o->queue_wait_event(d->q_out, d->ev_x));
        HYLA_TRY(hyla_xfer_down(&d->down, d->q_out,
                                (unsigned char *)job->B + (size_t)(c0 * job->ldb) * es, job->ldb,
                                Bd, ldbd, 0, c0, n, w, HYLA_XFER_ALL, NULL, NULL));
        /* the next chunk reuses Bd: its upload waits for this download */
        HYLA_TRY(o->event_record(d->ev_b, d->q_out));
        HYLA_TRY(o->queue_wait_event(d->q_in, d->ev_b));
    }
cleanup:
    return rc;
}

static int run_solve(plan *pl) {
    const hyla_chol_job *job = pl->job;
    int rc = 0;
    if (!pl->host) return solve_chunk(pl, &pl->dv[0], job->B, job->ldb, 0, job->nrhs);
    /* potrs: bring the resident columns of the factor to every device */
    if (!job->factor && pl->gres > 0)
        for (int e = 0; e < pl->nd; e++) {
            cdev *d = &pl->dv[e];
            const int64_t cres = HYLA_MIN(pl->cres, pl->n);
            int64_t sr = 0, sc = 0, rows = pl->lower ? pl->n : cres, cols = pl->lower ? cres : pl->n;
            HYLA_TRY(hyla_xfer_up(&d->up, d->q_in, d->res.p, d->res.ld, job->A, job->lda, sr, sc,
                                  rows, cols, clip(pl)));
            HYLA_TRY(d->o->event_record(d->ev_res, d->q_in));
            HYLA_TRY(d->o->queue_wait_event(d->q_comp, d->ev_res));
        }
    /* right-hand sides split by columns over the devices, in chunks */
    const int64_t per = HYLA_CEILDIV(job->nrhs, pl->nd);
    for (int e = 0; e < pl->nd; e++) {
        cdev *d = &pl->dv[e];
        const int64_t lo = e * per, hi = HYLA_MIN(job->nrhs, lo + per);
        for (int64_t c = lo; c < hi; c += d->bcols)
            HYLA_TRY(solve_chunk(pl, d, d->bbuf, pl->n, c, HYLA_MIN(d->bcols, hi - c)));
    }
cleanup:
    return rc;
}

/* ---------------------------------------------------------------- setup */

/* Device bytes for cres resident columns and bcols right-hand sides. */
static size_t dev_bytes(const plan *pl, int64_t cres, int64_t bcols) {
    const size_t es = pl->es;
    const int64_t n = pl->n, c = HYLA_MIN(cres, n);
    size_t b = hyla_pool_align((size_t)pl->ng * sizeof(int));
    if (pl->host) b += hyla_pool_align((size_t)n * (size_t)c * es);
    if (c < n) b += (NWORK + NSTREAM) * hyla_pool_align((size_t)(n - c) * (size_t)pl->nb * es);
    if (pl->host) b += hyla_pool_align((size_t)n * (size_t)bcols * es);
    return b;
}

static int plan_memory(plan *pl) {
    hyla_t *ctx = pl->ctx;
    const hyla_chol_job *job = pl->job;
    const int64_t nb_rhs = job->solve ? HYLA_CEILDIV(job->nrhs, pl->nd) : 0;
    size_t budget = (size_t)-1;
    for (int e = 0; e < pl->nd; e++)
        budget = HYLA_MIN(budget, hyla_workspace_budget(ctx, pl->dv[e].dev->index));
    int64_t bcols = nb_rhs;
    if (!pl->host) {
        pl->cres = pl->n, pl->gres = pl->ng, pl->ooc = 0;
        return dev_bytes(pl, pl->n, 0) <= budget ? 0 : HYLA_ERR_DEVICE_MEMORY;
    }
    /* in core when all of L and the right-hand sides (or a chunk) fit */
    const int64_t bmin = HYLA_MIN(nb_rhs, 16);
    if (!ctx->opt_potrf_ooc && dev_bytes(pl, pl->n, bmin) <= budget) {
        pl->cres = pl->n, pl->gres = pl->ng, pl->ooc = 0;
    } else {
        /* narrower panels when even the streaming buffers do not fit */
        while (pl->nb > 1 && dev_bytes(pl, 0, bmin) > budget) {
            pl->nb = HYLA_CEILDIV(pl->nb, 2);
            pl->ng = HYLA_CEILDIV(pl->n, pl->nb);
        }
        int64_t g = ctx->opt_potrf_ooc ? pl->ng / 2 : pl->ng - 1;
        while (g > 0 && dev_bytes(pl, g * pl->nb, bmin) > budget) g--;
        if (dev_bytes(pl, g * pl->nb, bmin) > budget) return HYLA_ERR_DEVICE_MEMORY;
        pl->gres = g, pl->cres = g * pl->nb, pl->ooc = 1;
    }
    /* widen the right-hand-side chunk into what is left */
    const size_t fixed = dev_bytes(pl, pl->cres, 0), col = (size_t)pl->n * pl->es;
    if (budget > fixed && bcols > 0) bcols = HYLA_MAX(bmin, HYLA_MIN(bcols, (int64_t)((budget - fixed) / col) - 1));
    for (int e = 0; e < pl->nd; e++) pl->dv[e].bcols = nb_rhs > 0 ? HYLA_MAX(1, HYLA_MIN(bcols, nb_rhs)) : 0;
    return 0;
}

static int setup_device(plan *pl, cdev *d) {
    const size_t es = pl->es;
    const int64_t n = pl->n, c = HYLA_MIN(pl->cres, n);
    const size_t slot =
        hyla_xfer_slot(d->dev, (size_t)n * (size_t)HYLA_MAX(n, pl->job->solve ? pl->job->nrhs : 0) * es,
                       NSLOTS);
    const size_t pinned = pl->host ? 3 * NSLOTS * slot + hyla_pool_align((size_t)pl->ng * sizeof(int))
                                   : hyla_pool_align((size_t)pl->ng * sizeof(int));
    int rc = hyla_workspace_get(pl->ctx, d->dev->index, dev_bytes(pl, pl->cres, d->bcols), pinned,
                                &d->ws);
    if (rc) return rc;
    d->o = d->dev->ops;
    d->q_in = d->ws->q_in, d->q_comp = d->ws->q_comp, d->q_aux = d->ws->q_aux,
    d->q_out = d->ws->q_out;
    unsigned char *p = d->ws->dev_pool, *h = d->ws->pinned;
    d->dinfo = (int *)p;
    p += hyla_pool_align((size_t)pl->ng * sizeof(int));
    d->pinfo = (volatile int *)h;
    memset((void *)h, 0, (size_t)pl->ng * sizeof(int));
    h += hyla_pool_align((size_t)pl->ng * sizeof(int));
    if (pl->host) {
        d->res = (blk){p, pl->lower ? n : c, 0, 0};
        p += hyla_pool_align((size_t)n * (size_t)c * es);
    } else {
        d->res = (blk){pl->job->A, pl->job->lda, 0, 0};
    }
    for (int k = 0; k < NWORK; k++) d->work_owner[k] = -1;
    if (c < n) {
        const size_t wb = hyla_pool_align((size_t)(n - c) * (size_t)pl->nb * es);
        for (int k = 0; k < NWORK; k++, p += wb) d->work[k] = p;
        for (int k = 0; k < NSTREAM; k++, p += wb) d->strm[k] = p;
    }
    if (pl->host) {
        d->bbuf = p;
        int threads = hyla_pack_threads(pl->ctx);
        hyla_xfer *xs[] = {&d->up, &d->down, &d->sup};
        if ((rc = hyla_xfer_init_all(xs, 3, d->dev, h, NSLOTS, slot, es, threads))) return rc;
        d->xfer_ok = 1;
    }
    hyla_event **evs[] = {&d->s_ready[0], &d->s_ready[1], &d->s_ready[2], &d->s_free[0],
                          &d->s_free[1], &d->s_free[2], &d->ev_b, &d->ev_x, &d->ev_res};
    return hyla_dev_events_create(d->dev, evs, sizeof evs / sizeof evs[0]);
}

static void destroy_device(plan *pl, cdev *d) {
    (void)pl;
    if (!d->o) return;
    hyla_event *evs[] = {d->s_ready[0], d->s_ready[1], d->s_ready[2], d->s_free[0],
                         d->s_free[1], d->s_free[2], d->ev_b, d->ev_x, d->ev_res};
    hyla_dev_events_destroy(evs, sizeof evs / sizeof evs[0]);
    hyla_xfer *xs[] = {&d->up, &d->down, &d->sup};
    if (d->xfer_ok) hyla_xfer_fini_all(xs, 3);
}

#define EVENT_ARRAYS(pl) {&(pl)->ev_up, &(pl)->ev_old, &(pl)->ev_fact, &(pl)->ev_bc, &(pl)->ev_down}
#define NSETS 5                  /* none of them timing events */

static int64_t choose_nb(hyla_t *ctx, hyla_dev *dev, hyla_dtype t, int64_t n) {
    int64_t nb = ctx->opt_potrf_nb > 0 ? ctx->opt_potrf_nb : hyla_tuning_for(dev)->potrf_nb[t];
    return HYLA_MAX(1, HYLA_MIN(nb, n));
}

int hyla_pchol(hyla_t *ctx, const hyla_chol_job *job) {
    if (hyla_host_direct(ctx, job->dev, ctx->opt_potrf_nb > 0 || ctx->opt_potrf_ooc > 0))
        return hyla_host_chol(ctx, job->t, job->lower, job->n, job->A, job->lda, job->nrhs, job->B,
                              job->ldb, job->factor, job->solve);
    int rc = 0, info = 0;
    int64_t issued = 0;
    plan *pl = hyla_calloc(1, sizeof *pl);
    if (!pl) return HYLA_ERR_NO_MEMORY;
    hyla_event ***sets[] = EVENT_ARRAYS(pl);
    pl->ctx = ctx;
    pl->job = job;
    pl->t = job->t;
    pl->es = hyla_dtype_size(job->t);
    pl->cplx = job->t == HYLA_C || job->t == HYLA_Z;
    pl->lower = job->lower;
    pl->n = job->n;
    pl->host = job->dev < 0;
    if (pthread_mutex_init(&pl->mu, NULL) != 0) {
        hyla_free(pl);
        return HYLA_ERR_NO_MEMORY;
    }
    if (pthread_cond_init(&pl->cv, NULL) != 0) {
        pthread_mutex_destroy(&pl->mu);
        hyla_free(pl);
        return HYLA_ERR_NO_MEMORY;
    }
    pl->mu_ok = 1;
    hyla_dev *first = ctx->devs[pl->host ? 0 : job->dev];
    pl->nb = choose_nb(ctx, first, job->t, job->n);
    pl->ng = HYLA_CEILDIV(pl->n, pl->nb);
    pl->nd = pl->host ? (int)HYLA_MIN((int64_t)ctx->ndev, pl->ng) : 1;
    if (job->solve && !job->factor && pl->host)
        pl->nd = (int)HYLA_MAX(1, HYLA_MIN((int64_t)pl->nd, job->nrhs));
    pl->devs = &ctx->devs[pl->host ? 0 : job->dev];
    pl->dv = hyla_calloc((size_t)pl->nd, sizeof *pl->dv);
    if (!pl->dv) {
        rc = HYLA_ERR_NO_MEMORY;
        goto cleanup;
    }
    for (int e = 0; e < pl->nd; e++) {
        pl->dv[e].pl = pl;
        pl->dv[e].idx = e;
        pl->dv[e].dev = pl->devs[e];
    }
    HYLA_TRY(plan_memory(pl));
    pl->skips = hyla_calloc((size_t)pl->ng, sizeof *pl->skips);
    pl->applied = hyla_calloc((size_t)pl->ng, sizeof *pl->applied);
    pl->gbuf = hyla_calloc((size_t)pl->ng, sizeof *pl->gbuf);
    if (!pl->skips || !pl->applied || !pl->gbuf) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    for (int e = 0; e < pl->nd; e++) HYLA_TRY(setup_device(pl, &pl->dv[e]));
    HYLA_TRY(hyla_panel_event_sets_create(sets, NSETS, NSETS, pl->ng, pl->devs, pl->nd));
    hyla_log(ctx, "potrf: n=%lld nb=%lld devices=%d %s resident=%lld", (long long)pl->n,
             (long long)pl->nb, pl->nd, pl->ooc ? "out-of-core" : "in-core", (long long)pl->cres);
    if (job->factor) {
        rc = hyla_panel_sync(ctx, pl->devs, pl->nd, run_factor(pl, &issued));
        if (rc) goto cleanup;
        for (int64_t q = 0; q < issued && !info; q++)
            if (pl->dv[owner(pl, q)].pinfo[q] > 0) info = (int)(g0_of(pl, q) + pl->dv[owner(pl, q)].pinfo[q]);
    }
    if (job->solve && !info && job->nrhs > 0) {
        rc = hyla_panel_sync(ctx, pl->devs, pl->nd, run_solve(pl));
    }
cleanup:
    if (rc) hyla_panel_sync(ctx, pl->devs, pl->dv ? pl->nd : 0, rc);
    if (pl->dv) {
        hyla_chol_stats *st = &ctx->chol_stats;
        memset(st, 0, sizeof *st);
        st->out_of_core = pl->ooc;
        st->nb = pl->nb;
        st->resident_cols = HYLA_MIN(pl->cres, pl->n);
        st->bytes_peer = pl->bytes_peer;
        for (int e = 0; e < pl->nd; e++) {
            st->bytes_h2d += pl->dv[e].up.bytes + pl->dv[e].sup.bytes;
            st->bytes_d2h += pl->dv[e].down.bytes;
            if (e < 16) st->panels_per_device[e] = pl->dv[e].panels;
        }
        hyla_panel_event_sets_destroy(sets, NSETS, pl->ng);
        for (int e = 0; e < pl->nd; e++) destroy_device(pl, &pl->dv[e]);
    }
    hyla_free(pl->dv);
    hyla_free(pl->skips);
    hyla_free(pl->applied);
    hyla_free(pl->gbuf);
    if (pl->mu_ok) {
        pthread_mutex_destroy(&pl->mu);
        pthread_cond_destroy(&pl->cv);
    }
    hyla_free(pl);
    return rc ? rc : info;
}
