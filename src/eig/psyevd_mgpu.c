/* The eigensolver on several devices (see mgpu.h): the driver's tier 2,
 * and the back transformation of stage 1 on each device's columns of Z.
 *
 *   A (host) --columns dealt blockwise, uploaded--> stage 1 over all devices
 *     (psy2sb_mgpu.c) --> band (host) --> stage 2 on device 0 (or the host
 *     cores) --> tridiagonal --> eigenvalues (jobz N: done) / stedc (host
 *     cores, the large merges on device 0) --> E (host)
 *   E's columns dealt blockwise (even): on each device, a thread of its own
 *     uploads its columns, applies Q2 (the store copied to the device), then
 *     Q1 (the groups of reflectors streamed from their owners) and downloads
 *     its columns of Z into the caller's A.
 * No device ever holds more than its blocks of A and Z, the reflector
 * stores and n x nb workspaces. */
#include "eig/mgpu.h"
#include "eig/phb2st_dev.h"
#include "eig/ptridiag.h"
#include "eig/pvectors.h"
#include <pthread.h>
#include <string.h>

/* ---------------------------------------------------------------- Q1 */

int hyla_eig_sy2sb_back_mgpu(hyla_t *ctx, const hyla_sy2sb_qm *q, int g, int64_t ncols,
                             void *dZ, int64_t lddz, hyla_queue *qc, hyla_queue *qi) {
    if (q->npanels == 0 || ncols == 0) return 0;
    hyla_dev *d = ctx->devs[g];
    const hyla_backend_ops *o = d->ops;
    const hyla_dtype t = q->t;
    const size_t es = hyla_dtype_size(t);
    const int64_t n = q->n, kd = q->kd, gw = q->group * kd;
    const int64_t ngroups = HYLA_CEILDIV(q->npanels, q->group);
    hyla_dev_workspace wq, *ws = &wq;
    void *dWk = NULL, *dTg = NULL, *VS[2] = {NULL, NULL}, *TS[2] = {NULL, NULL};
    hyla_event *ev_in[2] = {NULL, NULL}, *ev_use[2] = {NULL, NULL};
    int rc = 0;
    if (qc) {
        wq.q_comp = qc, wq.q_in = qi;
    } else {
        rc = hyla_workspace_get(ctx, g, 0, 0, &ws);
        if (rc) return rc;
    }
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(gw * ncols) * es, &dWk));
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(gw * gw) * es, &dTg));
    for (int b = 0; b < 2; b++) {
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * gw) * es, &VS[b]));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(kd * gw) * es, &TS[b]));
        HYLA_TRY(o->event_create(d, 0, &ev_in[b]));
        HYLA_TRY(o->event_create(d, 0, &ev_use[b]));
    }
    /* Q1 Z = Q_0 (Q_1 (... Q_last Z)): the groups in reverse order. A group
     * held by another device is copied in on q_in (two buffers: the next
     * group's copy runs beside the current group's product on q_comp). */
    for (int64_t i = 0, nb_used = 0; i < ngroups; i++) {
        const int64_t gi = ngroups - 1 - i;
        const int64_t pa = gi * q->group, pb = HYLA_MIN(q->npanels, pa + q->group);
        const int64_t j0 = pa * kd, r0 = j0 + kd, m = n - r0;
        const int64_t kw = (pb - pa) * kd;
        const int w = hyla_eig_dist_owner(&q->dist, j0);
        const int64_t jl = j0 - q->dist.c[w];
        const void *V = hyla_elem(q->dA[w], r0, jl, q->lda[w], es), *Tp = hyla_elem(q->dT[w], 0, jl, kd, es);
        int64_t ldv = q->lda[w];
        if (w != g) {
            const int b = (int)(nb_used++ % 2);
            HYLA_TRY(o->queue_wait_event(ws->q_in, ev_use[b]));
            HYLA_TRY(o->copy_2d(ws->q_in, VS[b], (size_t)n * es, V, (size_t)ldv * es,
                                (size_t)m * es, (size_t)kw, HYLA_COPY_D2D));
            HYLA_TRY(o->copy_2d(ws->q_in, TS[b], (size_t)kd * es, Tp, (size_t)kd * es,
                                (size_t)kd * es, (size_t)kw, HYLA_COPY_D2D));
            HYLA_TRY(o->event_record(ev_in[b], ws->q_in));
            HYLA_TRY(o->queue_wait_event(ws->q_comp, ev_in[b]));
            V = VS[b], Tp = TS[b], ldv = n;
            HYLA_TRY(hyla_eig_q1_group(ws->q_comp, t, n, kd, pa, pb, V, ldv, Tp, 0, ncols, dZ,
                                       lddz, dTg, gw, dWk));
            HYLA_TRY(o->event_record(ev_use[b], ws->q_comp));
        } else {
            HYLA_TRY(hyla_eig_q1_group(ws->q_comp, t, n, kd, pa, pb, V, ldv, Tp, 0, ncols, dZ,
                                       lddz, dTg, gw, dWk));
        }
    }
    rc = o->queue_sync(ws->q_comp);
cleanup:
    if (rc) {
        o->queue_sync(ws->q_in);
        o->queue_sync(ws->q_comp);
    }
    for (int b = 0; b < 2; b++) {
        o->mem_free(d, HYLA_MEM_DEVICE, VS[b]);
        o->mem_free(d, HYLA_MEM_DEVICE, TS[b]);
        if (ev_in[b]) o->event_destroy(ev_in[b]);
        if (ev_use[b]) o->event_destroy(ev_use[b]);
    }
    o->mem_free(d, HYLA_MEM_DEVICE, dWk);
    o->mem_free(d, HYLA_MEM_DEVICE, dTg);
    return rc;
}

/* ---------------------------------------------------------------- vectors */

/* *use := the Q2 store q where device g applies it: q itself (a host store,
 * read where it is, or one in g's memory), or a copy in g's memory made
 * into *copy (freed by the caller) */
static int q2_here(hyla_t *ctx, const hyla_sb2st_q *q, int g, hyla_sb2st_q **copy,
                   const hyla_sb2st_q **use) {
    *use = q;
    if (hyla_sb2st_q_device(q) < 0 || hyla_sb2st_q_device(q) == g) return 0;
    const int rc = hyla_sb2st_q_copy(ctx, q, g, copy);
    if (!rc) *use = *copy;
    return rc;
}

static void phase_at(double ph[8][2], int p, double a, double b) {
    ph[p][0] = a, ph[p][1] = b;
}

/* The timeline of device g (absolute times ph) into the statistics,
 * relative to origin. */
static void timeline(hyla_eig_stats *st, int g, double ph[8][2], double origin) {
    if (g >= HYLA_EIG_TIMELINE_DEVS) return;
    for (int p = 0; p < 8; p++)
        if (ph[p][1] > 0)
            st->phase[g][p][0] = ph[p][0] - origin, st->phase[g][p][1] = ph[p][1] - origin;
}

typedef struct {
    hyla_t *ctx;
    int g, rc;
    hyla_dtype t;
    int64_t n, j0, w;    /* this device's columns of Z */
    const void *E;       /* host, real n x n, ld n */
    void *A;             /* host output: the caller's matrix (Z's columns go there) */
    int64_t lda;
    void *dZ;            /* device output: Z's block stays here (freed by the caller) */
    const hyla_sb2st_q *q2;
    const hyla_sy2sb_qm *q1;
    double up, back2, back1, down;
    double ph[8][2];     /* wall clock at the start and end of each phase */
} vec_job;

/* One device: E's columns up, Z := Q1 (Q2 E) there, Z's columns down to
 * the host (A non-NULL) or kept in j->dZ. */
static void *vec_main(void *arg) {
    vec_job *j = arg;
    hyla_t *ctx = j->ctx;
    hyla_dev *d = ctx->devs[j->g];
    const hyla_backend_ops *o = d->ops;
    const hyla_dtype t = j->t, rt = hyla_dtype_real(t);
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(rt);
    const int64_t n = j->n, w = j->w;
    hyla_sb2st_q *q2c = NULL;
    void *dZ = NULL, *Zc = NULL;
    int rc = 0;
    double t0 = hyla_wtime(), t1;
    if (w == 0) goto cleanup;
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * w) * es, &dZ));
    if (t == rt) {
        HYLA_TRY(hyla_xfer_matrix(ctx, j->g, t, 1, n, w,
                                      (void *)hyla_elem(j->E, 0, j->j0, n, rs), n, dZ, n));
    } else { /* complex Z from the real E: (re, 0) pairs built on the host */
        Zc = hyla_malloc((size_t)(n * w) * es);
        if (!Zc) HYLA_TRY(HYLA_ERR_NO_MEMORY);
        for (int64_t i = 0; i < n * w; i++) {
            const int64_t r = i % n, c = i / n;
            if (t == HYLA_C)
                ((float *)Zc)[2 * i] = *(const float *)hyla_elem(j->E, r, j->j0 + c, n, rs),
                                 ((float *)Zc)[2 * i + 1] = 0.0f;
            else
                ((double *)Zc)[2 * i] = *(const double *)hyla_elem(j->E, r, j->j0 + c, n, rs),
                                  ((double *)Zc)[2 * i + 1] = 0.0;
        }
        HYLA_TRY(hyla_xfer_matrix(ctx, j->g, t, 1, n, w, Zc, n, dZ, n));
    }
    t1 = hyla_wtime();
    j->up = t1 - t0;
    const hyla_sb2st_q *q2;
    HYLA_TRY(q2_here(ctx, j->q2, j->g, &q2c, &q2));
    HYLA_TRY(hyla_eig_sb2st_back(ctx, j->g, q2, w, dZ, n));
    hyla_sb2st_q_free(&q2c);
    j->back2 = hyla_wtime() - t1;
    phase_at(j->ph, HYLA_EIG_PHASE_BACK2, t1, t1 + j->back2);
    t1 = hyla_wtime();
    HYLA_TRY(hyla_eig_sy2sb_back_mgpu(ctx, j->q1, j->g, w, dZ, n, NULL, NULL));
    j->back1 = hyla_wtime() - t1;
    phase_at(j->ph, HYLA_EIG_PHASE_BACK1, t1, t1 + j->back1);
    if (!j->A) {
        j->dZ = dZ, dZ = NULL;
        goto cleanup;
    }
    t1 = hyla_wtime();
    HYLA_TRY(hyla_xfer_matrix(ctx, j->g, t, 0, n, w, hyla_elem(j->A, 0, j->j0, j->lda, es), j->lda,
                                  dZ, n));
    j->down = hyla_wtime() - t1;
    phase_at(j->ph, HYLA_EIG_PHASE_DOWNLOAD, t1, t1 + j->down);
cleanup:
    hyla_sb2st_q_free(&q2c);
    hyla_free(Zc);
    o->mem_free(d, HYLA_MEM_DEVICE, dZ);
    j->rc = rc;
    return NULL;
}

/* The reordered order: each device builds its block of columns of
 * Q = Q1 Q2 (the back transformations applied to its columns of the
 * identity) on queues of its own WHILE the host cores solve the tridiagonal
 * (divide and conquer, whose large merges share device 0); then Z = Q E by
 * blocks of columns, device k forming Z[:, k] = sum over the blocks h of Q
 * Q[:, h] E[h, k], the other devices' blocks of Q copied in by chunks
 * (double-buffered). The back transformations leave the critical path for a
 * GEMM of 2 n^3 / p flops per device and n^2 (p - 1) / p elements copied in
 * to each. */
typedef struct {
    hyla_t *ctx;
    int g, rc;
    hyla_dtype t;
    int64_t n, j0, w;
    const hyla_sb2st_q *q2;
    const hyla_sy2sb_qm *q1;
    void *dQ;            /* n x w, ld n: this device's columns of Q */
    /* kept for qbuild_release after every device has ended (see
     * zgemm_alloc): the queues. The device's copy of Q2 goes as soon as
     * Q2 is applied: its room (about 1.5 n^2 elements) is what the
     * tridiagonal solver's device levels find beside the Q build; held to
     * the end, n = 65536 on four H200 ran past 90 s (36.7 s freed here). */
    hyla_queue *qc, *qi;
    hyla_sb2st_q *q2c;
    double back2, back1;
    double ph[8][2];
} qbuild_job;

static void *qbuild_main(void *arg) {
    qbuild_job *j = arg;
    hyla_t *ctx = j->ctx;
    hyla_dev *d = ctx->devs[j->g];
    const hyla_backend_ops *o = d->ops;
    const hyla_dtype t = j->t;
    const size_t es = hyla_dtype_size(t);
    const void *zero = hyla_scalar(t, HYLA_SC_ZERO), *one = hyla_scalar(t, HYLA_SC_ONE);
    hyla_queue *qc = NULL, *qi = NULL;
    const hyla_sb2st_q *q2;
    int rc = 0;
    double t0 = hyla_wtime(), t1 = t0;
    if (j->w == 0) goto cleanup;
    HYLA_TRY(o->queue_create(d, &j->qc));
    qc = j->qc;
    HYLA_TRY(o->queue_create(d, &j->qi));
    qi = j->qi;
    /* columns j0 .. j0 + w - 1 of the identity */
    HYLA_TRY(o->laset(qc, t, -1, j->n, j->w, zero, zero, j->dQ, j->n));
    HYLA_TRY(o->laset(qc, t, -1, j->w, j->w, zero, one, hyla_elem(j->dQ, j->j0, 0, j->n, es), j->n));
    HYLA_TRY(q2_here(ctx, j->q2, j->g, &j->q2c, &q2));
    /* the identity's columns j0 .. j0 + w - 1: each wave skips those it
     * cannot change yet */
    HYLA_TRY(hyla_eig_sb2st_back_q(ctx, j->g, q2, j->w, j->dQ, j->n, 0, NULL, NULL, qc, qi, 1,
                                   j->j0));
    if (j->q2c) { /* the copy's reflectors are read by the queues' work so far */
        HYLA_TRY(o->queue_sync(qc));
        HYLA_TRY(o->queue_sync(qi));
        hyla_sb2st_q_free(&j->q2c);
    }
    t1 = hyla_wtime();
    HYLA_TRY(hyla_eig_sy2sb_back_mgpu(ctx, j->q1, j->g, j->w, j->dQ, j->n, qc, qi));
cleanup:
    if (qc) {
        const int r = o->queue_sync(qc);
        if (!rc) rc = r;
    }
    if (qi) o->queue_sync(qi);
    j->back2 = t1 - t0;
    j->back1 = hyla_wtime() - t1;
    if (j->w > 0) {
        phase_at(j->ph, HYLA_EIG_PHASE_BACK2, t0, t1);
        phase_at(j->ph, HYLA_EIG_PHASE_BACK1, t1, t1 + j->back1);
    }
    j->rc = rc;
    return NULL;
}

/* What qbuild_main kept, once every device has ended. */
static void qbuild_release(hyla_t *ctx, qbuild_job *qj, int nd) {
    for (int g = 0; g < nd; g++) {
        const hyla_backend_ops *o = ctx->devs[g]->ops;
        if (qj[g].qc) o->queue_destroy(qj[g].qc);
        if (qj[g].qi) o->queue_destroy(qj[g].qi);
        qj[g].qc = qj[g].qi = NULL;
        hyla_sb2st_q_free(&qj[g].q2c);
    }
}

typedef struct {
    hyla_t *ctx;
    int g, rc;
    hyla_dtype t;
    int64_t n;
    const hyla_eig_dist *zd;
    const hyla_eig_dist *zo; /* Z's columns: device g forms and delivers zo's block g */
    void *const *dQ;     /* every device's block of Q (zd's layout, ld n) */
    const void *E;       /* host, real n x n, ld n (where rows has none) */
    const hyla_eig_zrows *rows; /* E by rows on the devices (nd 0: in E) */
    void *A;             /* host output (ld lda), or NULL: into dOut */
    int64_t lda;
    void *dOut;          /* device output (ld ldo) */
    int64_t ldo;
    /* the device's buffers, made by zgemm_alloc before any device starts
     * and freed by zgemm_free after all have ended: E's columns k (n x w,
     * real), Z's (host output only), two chunks of another device's Q and
     * the events between the copy and the GEMM queues */
    void *dE, *dZ, *S[2];
    hyla_event *ev_in[2], *ev_use[2];
    double gemm, up, down;
    double ph[8][2];
} zgemm_job;

enum { ZGEMM_CB = 2048 }; /* the columns of a chunk of Q */

/* The buffers of every device's zgemm_job, made while every device is idle:
 * a cudaMalloc or cudaFree of memory its peers may reach waits for them,
 * so one made on a device's thread while the others run their GEMMs holds
 * that device back until they are done (four H200: the devices' GEMM
 * phases, 0.3 s of work each at n = 32768, ended one after another up to
 * 0.85 s; bench/results/zqe-h200x4.md). */
static int zgemm_alloc(hyla_t *ctx, zgemm_job *zj, int nd) {
    int rc = 0;
    for (int g = 0; g < nd; g++) {
        zgemm_job *j = &zj[g];
        hyla_dev *d = ctx->devs[g];
        const hyla_backend_ops *o = d->ops;
        const size_t es = hyla_dtype_size(j->t), rs = hyla_dtype_size(hyla_dtype_real(j->t));
        const int64_t n = j->n, w = j->zo->c[g + 1] - j->zo->c[g];
        if (w == 0) continue;
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * w) * rs, &j->dE));
        if (j->A) HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * w) * es, &j->dZ));
        for (int b = 0; b < 2; b++) {
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * ZGEMM_CB) * es, &j->S[b]));
            HYLA_TRY(o->event_create(d, 0, &j->ev_in[b]));
            HYLA_TRY(o->event_create(d, 0, &j->ev_use[b]));
        }
    }
cleanup:
    return rc;
}

static void zgemm_free(hyla_t *ctx, zgemm_job *zj, int nd) {
    for (int g = 0; g < nd; g++) {
        zgemm_job *j = &zj[g];
        hyla_dev *d = ctx->devs[g];
        const hyla_backend_ops *o = d->ops;
        for (int b = 0; b < 2; b++) {
            o->mem_free(d, HYLA_MEM_DEVICE, j->S[b]);
            if (j->ev_in[b]) o->event_destroy(j->ev_in[b]);
            if (j->ev_use[b]) o->event_destroy(j->ev_use[b]);
            j->S[b] = NULL, j->ev_in[b] = j->ev_use[b] = NULL;
        }
        o->mem_free(d, HYLA_MEM_DEVICE, j->dE);
        o->mem_free(d, HYLA_MEM_DEVICE, j->dZ);
        j->dE = j->dZ = NULL;
    }
}

static void *zgemm_main(void *arg) {
    enum { CB = ZGEMM_CB };
    zgemm_job *j = arg;
    hyla_t *ctx = j->ctx;
    hyla_dev *d = ctx->devs[j->g];
    const hyla_backend_ops *o = d->ops;
    const hyla_dtype t = j->t, rt = hyla_dtype_real(t);
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(rt);
    const int64_t n = j->n, k0 = j->zo->c[j->g], w = j->zo->c[j->g + 1] - k0;
    /* a complex Q times the real E is one real GEMM on Q seen as a 2n x n
     * real matrix (its (re, im) pairs), ld 2n */
    const int64_t f = t == rt ? 1 : 2;
    const void *one = hyla_scalar(rt, HYLA_SC_ONE), *zero = hyla_scalar(rt, HYLA_SC_ZERO);
    hyla_dev_workspace *ws = NULL;
    void *dE = j->dE, *dZ = j->dZ, *const *S = j->S;
    hyla_event *const *ev_in = j->ev_in, *const *ev_use = j->ev_use;
    int rc = 0, first = 1;
    int64_t nbuf = 0;
    double t0 = hyla_wtime(), t1;
    (void)d;
    if (w == 0) goto cleanup;
    HYLA_TRY(hyla_workspace_get(ctx, j->g, 0, 0, &ws));
    void *Z = j->A ? dZ : j->dOut;
    const int64_t ldz = j->A ? n : j->ldo;
    if (j->rows->nd > 0) {
        /* E's columns k from every device's rows of them, peer to peer */
        for (int h = 0; h < j->rows->nd; h++)
            HYLA_TRY(o->copy_2d(ws->q_in, hyla_elem(dE, j->rows->r[h], 0, n, rs), (size_t)n * rs,
                                hyla_elem(j->rows->blk[h], 0, k0, j->rows->ld[h], rs),
                                (size_t)j->rows->ld[h] * rs,
                                (size_t)(j->rows->r[h + 1] - j->rows->r[h]) * rs, (size_t)w,
                                HYLA_COPY_D2D));
        HYLA_TRY(o->queue_sync(ws->q_in));
    } else {
        HYLA_TRY(hyla_xfer_matrix(ctx, j->g, rt, 1, n, w, (void *)hyla_elem(j->E, 0, k0, n, rs), n,
                                  dE, n));
    }
    t1 = hyla_wtime();
    j->up = t1 - t0;
    /* Z[:, k] = sum over the devices h, from this one on, of Q[:, h] E[h, k] */
    for (int i = 0; i < j->zd->nd; i++) {
        const int h = (j->g + i) % j->zd->nd;
        const int64_t h0 = j->zd->c[h], hw = j->zd->c[h + 1] - h0;
        for (int64_t c = 0; c < hw; c += CB) {
            const int64_t cw = HYLA_MIN(CB, hw - c);
            const void *Qc = hyla_elem(j->dQ[h], 0, c, n, es);
            if (h != j->g) {
                const int b = (int)(nbuf++ % 2);
                HYLA_TRY(o->queue_wait_event(ws->q_in, ev_use[b]));
                HYLA_TRY(o->copy_2d(ws->q_in, S[b], (size_t)(n * cw) * es, Qc,
                                    (size_t)(n * cw) * es, (size_t)(n * cw) * es, 1,
                                    HYLA_COPY_D2D));
                HYLA_TRY(o->event_record(ev_in[b], ws->q_in));
                HYLA_TRY(o->queue_wait_event(ws->q_comp, ev_in[b]));
                HYLA_TRY(o->gemm(ws->q_comp, rt, HYLA_NOTRANS, HYLA_NOTRANS, f * n, w, cw, one,
                                 S[b], f * n, hyla_elem(dE, h0 + c, 0, n, rs), n, first ? zero : one,
                                 Z, f * ldz));
                HYLA_TRY(o->event_record(ev_use[b], ws->q_comp));
            } else {
                HYLA_TRY(o->gemm(ws->q_comp, rt, HYLA_NOTRANS, HYLA_NOTRANS, f * n, w, cw, one, Qc,
                                 f * n, hyla_elem(dE, h0 + c, 0, n, rs), n, first ? zero : one,
                                 Z, f * ldz));
            }
            first = 0;
        }
    }
    HYLA_TRY(o->queue_sync(ws->q_comp));
    j->gemm = hyla_wtime() - t1;
    /* the GEMMs alone: E's columns gathered before them show as the gap
     * after the tridiagonal solver */
    phase_at(j->ph, HYLA_EIG_PHASE_GEMM, t1, t1 + j->gemm);
    if (j->A) {
        t1 = hyla_wtime();
        HYLA_TRY(hyla_xfer_matrix(ctx, j->g, t, 0, n, w, hyla_elem(j->A, 0, k0, j->lda, es), j->lda,
                                      dZ, n));
        j->down = hyla_wtime() - t1;
        phase_at(j->ph, HYLA_EIG_PHASE_DOWNLOAD, t1, t1 + j->down);
    }
cleanup:
    if (rc && ws) {
        o->queue_sync(ws->q_in);
        o->queue_sync(ws->q_comp);
    }
    j->rc = rc;
    return NULL;
}

/* Runs fn(job g) for every device, device 0's on this thread, the others on
 * threads of their own (in turn where a thread cannot start). */
static void each_device(int nd, void *(*fn)(void *), void *jobs, size_t size) {
    pthread_t th[HYLA_EIG_MAX_DEVS];
    int started[HYLA_EIG_MAX_DEVS] = {0};
    for (int g = 1; g < nd; g++)
        started[g] = pthread_create(&th[g], NULL, fn, (char *)jobs + (size_t)g * size) == 0;
    fn(jobs);
    for (int g = 1; g < nd; g++) {
        if (started[g]) pthread_join(th[g], NULL);
        else fn((char *)jobs + (size_t)g * size);
    }
}

/* ---------------------------------------------------------------- driver */

void hyla_eig_mgpu_sizes(const hyla_t *ctx, hyla_dtype t, int vec, int64_t n, int64_t *kd,
                         int64_t *nb) {
    hyla_eig_sy2sb_sizes_jobz(ctx, 0, t, vec, kd, nb);
    /* on several GPUs every update block ends in an all-to-all exchange,
     * so the block is wider than one GPU's (where a panel's QR hides behind
     * the previous block's HER2K instead) */
    const int64_t nbk = hyla_tuning_for(ctx->devs[0])->eig_mgpu_nb_kd;
    if (ctx->opt_eig_nb <= 0 && nbk > 0) *nb = HYLA_MAX(*nb, nbk * *kd);
    if (*kd > n - 1) *kd = *nb = HYLA_MAX(1, n - 1);
}

void hyla_eig_mgpu_variants(const hyla_t *ctx, int *sbr, int *ar) {
    *sbr = ctx->opt_eig_sbr ? (int)ctx->opt_eig_sbr : HYLA_EIG_SBR_HALF;
    *ar = ctx->opt_eig_allreduce ? (int)ctx->opt_eig_allreduce : HYLA_EIG_AR_DEVICE;
}

/* Divide and conquer, its large merges on the devices by rows where every
 * device has room for its share (hyla_eig_stedc_rows_bytes), else every
 * level on the host cores. rows NULL: the eigenvectors into E (host, n x n,
 * ld n); else left on the devices in *rows where the device levels ran
 * (E then workspace), in E where they did not (rows->nd 0). */
static int stedc(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *E,
                 hyla_eig_zrows *rows) {
    const int nd = HYLA_MIN(ctx->ndev, HYLA_MAX_DEVICES);
    const size_t need = hyla_eig_stedc_rows_bytes(rt, nd, n);
    int room = 1;
    for (int g = 0; g < nd; g++) {
        size_t fb = 0, tb = 0;
        if (ctx->devs[g]->ops->mem_info(ctx->devs[g], &fb, &tb) != 0 || fb < need + need / 8)
            room = 0;
    }
    if (rows) memset(rows, 0, sizeof *rows);
    if (!room) return hyla_eig_stedc_tuned(ctx, rt, n, d, e, E, n, NULL, 0, 0, n + 1);
    return rows ? hyla_eig_stedc_rows(ctx, rt, n, d, e, E, n, 0, 0, 0, rows)
                : hyla_eig_stedc(ctx, rt, n, d, e, E, n);
}

/* every device's block of Q, one after the other's start (a thread beside
 * the tridiagonal solver) */
typedef struct {
    int nd;
    qbuild_job *jobs;
} qb_all;

static void *qbuild_all(void *arg) {
    qb_all *q = arg;
    each_device(q->nd, qbuild_main, q->jobs, sizeof *q->jobs);
    return NULL;
}

/* The reordered order where HYLA_OPT_EIG_ORDER asks for it, or by default
 * from the tuning table's order (as on one device; GPUs n = 4096) when every device has room for
 * its block of Q (zq's columns) next to its block of Z and E's columns
 * (zo's), its rows of E (from the tridiagonal solver, counted as the wider
 * of the two) and two chunks. */
static int reordered(const hyla_t *ctx, hyla_dtype t, int64_t n, const hyla_eig_dist *zq,
                     const hyla_eig_dist *zo) {
    if (ctx->opt_eig_order == HYLA_EIG_DIRECT) return 0;
    if (ctx->opt_eig_order == HYLA_EIG_REORDERED) return 1;
    if (n < hyla_tuning_for(ctx->devs[0])->eig_reorder_min_n) return 0;
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(hyla_dtype_real(t));
    for (int g = 0; g < zq->nd; g++) {
        size_t fb = 0, tb = 0;
        const size_t wq = (size_t)(zq->c[g + 1] - zq->c[g]), wo = (size_t)(zo->c[g + 1] - zo->c[g]);
        const size_t need =
            (size_t)n * (wq * es + wo * (es + rs) + HYLA_MAX(wq, wo) * rs + 2 * 2048 * es);
        if (ctx->devs[g]->ops->mem_info(ctx->devs[g], &fb, &tb) != 0 || fb < need + need / 8)
            return 0;
    }
    return 1;
}

/* the tridiagonal solver's interval, on device 0 (its large merges) */
static void mark_tridiag(hyla_eig_stats *st, double t0, double origin) {
    st->phase[0][HYLA_EIG_PHASE_TRIDIAG][0] = t0 - origin;
    st->phase[0][HYLA_EIG_PHASE_TRIDIAG][1] = t0 + st->tridiag - origin;
}

/* The stages on blocks dA already in the storage that sbr needs (freed or
 * kept by the caller; destroyed). The eigenvectors go to the host matrix A
 * (ld lda), dealt evenly, or (A NULL) into dA itself in dist's layout. */
static int evd_core(hyla_t *ctx, hyla_dtype t, int vec, int64_t n, int64_t kd, int64_t nb,
                    int sbr, int ar, int cq, const hyla_eig_dist *dist, void **dA,
                    const int64_t *ldA, void *w, void *A, int64_t lda, double origin,
                    hyla_eig_stats *st) {
    const int nd = dist->nd;
    const hyla_dtype rt = hyla_dtype_real(t);
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(rt);
    hyla_sy2sb_qm *q1 = NULL;
    hyla_sb2st_q *q2 = NULL;
    hyla_sy2sb_mstats ms;
    vec_job jobs[HYLA_EIG_MAX_DEVS];
    void *AB = NULL, *e = NULL, *E = NULL, *dQ[HYLA_EIG_MAX_DEVS] = {0};
    hyla_eig_zrows zrows;
    int rc = 0;
    memset(&zrows, 0, sizeof zrows);
    double tt;
    memset(jobs, 0, sizeof jobs);
    st->kd = kd, st->nb = nb;
    st->ndev = HYLA_MIN(nd, HYLA_EIG_TIMELINE_DEVS);

    /* stage 1 over all devices, then stage 2 on device 0 (a GPU's chase, as
     * on one device) or the host cores */
    AB = hyla_calloc((size_t)((kd + 1) * n), es);
    e = hyla_malloc((size_t)n * rs);
    if (!AB || !e) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    tt = hyla_wtime();
    HYLA_TRY(hyla_eig_sy2sb_mgpu(ctx, t, n, kd, nb, dist, dA, ldA, AB, kd + 1, sbr, ar, cq,
                                 vec ? &q1 : NULL, &ms));
    st->sy2sb = hyla_wtime() - tt;
    st->sy2sb_wait = ms.wait, st->sy2sb_host = ms.host, st->panels_cholqr = ms.cq_panels;
    for (int g = 0; g < st->ndev; g++)
        st->phase[g][HYLA_EIG_PHASE_SY2SB][0] = tt - origin,
        st->phase[g][HYLA_EIG_PHASE_SY2SB][1] = tt + st->sy2sb - origin;
    tt = hyla_wtime();
    const int dev_chase = ctx->opt_eig_chase == 2 ||
                          (ctx->opt_eig_chase == 0 && hyla_eig_dev_chase_auto(ctx->devs[0], n, kd));
    if (dev_chase)
        HYLA_TRY(vec ? hyla_eig_sb2st_dev(ctx, 0, t, n, kd, AB, kd + 1, w, e, &q2)
                     : hyla_eig_hb2st_dev(ctx, 0, t, n, kd, AB, kd + 1, w, e));
    else
        HYLA_TRY(hyla_eig_sb2st(ctx, t, n, kd, AB, kd + 1, w, e, vec ? &q2 : NULL));
    st->sb2st = hyla_wtime() - tt;
    st->phase[0][HYLA_EIG_PHASE_SB2ST][0] = tt - origin;
    st->phase[0][HYLA_EIG_PHASE_SB2ST][1] = tt + st->sb2st - origin;
    hyla_free(AB);
    AB = NULL;

    tt = hyla_wtime();
    if (!vec) {
        HYLA_TRY(hyla_eig_tri_values(ctx, 0, rt, n, w, e));
        st->tridiag = hyla_wtime() - tt;
        goto cleanup;
    }
    E = hyla_malloc((size_t)(n * n) * rs);
    if (!E) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    /* zd: the columns each device transforms (direct) or builds of Q
     * (reordered); zo: the columns of Z each device delivers */
    hyla_eig_dist zd, zo;
    if (A) hyla_eig_dist_make(nd, n, 1, HYLA_EIG_W_EVEN, &zd);
    else zd = *dist;
    zo = zd;
    /* reordered with host output: Q's columns dealt by their cost, which
     * grows with the column (Q2 from the identity's columns skips what it
     * cannot reach yet), where every device has the room; Z = Q E stays
     * even (every column of Z costs the same 2 n^2: two H200 at n = 32768
     * spent 0.97 s and 0.61 s on it with Q's uneven split) */
    if (A && nd > 1 && reordered(ctx, t, n, &zd, &zo)) {
        hyla_eig_dist zq;
        hyla_eig_dist_make(nd, n, 1, HYLA_EIG_W_QBUILD, &zq);
        if (reordered(ctx, t, n, &zq, &zo)) zd = zq;
    }
    /* a device-resident Q2 is copied to every device that has room for it
     * beside its columns of Z; where one has not, it moves to host memory
     * once, and every device streams it from there */
    if (hyla_sb2st_q_device(q2) >= 0) {
        const size_t qb = hyla_sb2st_q_bytes(q2);
        int host = 0;
        for (int g = 0; g < nd; g++) {
            size_t fb = 0, tb = 0;
            const size_t zb =
                (size_t)(n * HYLA_MAX(zd.c[g + 1] - zd.c[g], zo.c[g + 1] - zo.c[g])) * (2 * es + rs);
            const size_t need = (g == hyla_sb2st_q_device(q2) ? 0 : qb) + zb;
            if (ctx->devs[g]->ops->mem_info(ctx->devs[g], &fb, &tb) != 0 || fb < need + need / 8)
                host = 1;
        }
        if (host) {
            hyla_sb2st_q *qh = NULL;
            HYLA_TRY(hyla_sb2st_q_copy(ctx, q2, -1, &qh));
            hyla_sb2st_q_free(&q2);
            q2 = qh;
        }
    }
    if (reordered(ctx, t, n, &zd, &zo)) {
        /* Q's blocks on the devices while the host solves the tridiagonal */
        qbuild_job qj[HYLA_EIG_MAX_DEVS];
        pthread_t th;
        int threaded;
        memset(qj, 0, sizeof qj);
        for (int g = 0; g < nd; g++) {
            qj[g] = (qbuild_job){.ctx = ctx, .g = g, .t = t, .n = n, .j0 = zd.c[g],
                                 .w = zd.c[g + 1] - zd.c[g], .q2 = q2, .q1 = q1};
            if (qj[g].w > 0)
                HYLA_TRY(ctx->devs[g]->ops->mem_alloc(ctx->devs[g], HYLA_MEM_DEVICE,
                                                      (size_t)(n * qj[g].w) * es, &dQ[g]));
            qj[g].dQ = dQ[g];
        }
        qb_all q = {.nd = nd, .jobs = qj};
        threaded = pthread_create(&th, NULL, qbuild_all, &q) == 0;
        if (!threaded) qbuild_all(&q);
        rc = stedc(ctx, rt, n, w, e, E, &zrows);
        st->tridiag = hyla_wtime() - tt;
        mark_tridiag(st, tt, origin);
        if (threaded) pthread_join(th, NULL);
        qbuild_release(ctx, qj, nd);
        for (int g = 0; g < nd; g++) {
            timeline(st, g, qj[g].ph, origin);
            if (g < st->ndev) st->cols[g] = qj[g].w;
            if (!rc) rc = qj[g].rc;
            st->back2 = HYLA_MAX(st->back2, qj[g].back2);
            st->back1 = HYLA_MAX(st->back1, qj[g].back1);
        }
        if (rc) goto cleanup;
        hyla_eig_stedc_parts(ctx, st);
        /* Z = Q E by blocks of columns (device output: into the blocks of A,
         * whose reflectors Q1 no longer needs) */
        zgemm_job zj[HYLA_EIG_MAX_DEVS];
        tt = hyla_wtime();
        for (int g = 0; g < nd; g++)
            zj[g] = (zgemm_job){.ctx = ctx, .g = g, .t = t, .n = n, .zd = &zd, .zo = &zo, .dQ = dQ, .E = E,
                                .rows = &zrows, .A = A, .lda = lda, .dOut = A ? NULL : dA[g], .ldo = ldA[g]};
        rc = zgemm_alloc(ctx, zj, nd);
        if (!rc) each_device(nd, zgemm_main, zj, sizeof *zj);
        zgemm_free(ctx, zj, nd);
        if (rc) goto cleanup;
        for (int g = 0; g < nd; g++) {
            timeline(st, g, zj[g].ph, origin);
            if (!rc) rc = zj[g].rc;
            st->transfers += zj[g].up + zj[g].down;
        }
        st->back1 += hyla_wtime() - tt; /* the GEMM counts with the last back transformation */
        goto cleanup;
    }
    HYLA_TRY(stedc(ctx, rt, n, w, e, E, NULL));
    st->tridiag = hyla_wtime() - tt;
    mark_tridiag(st, tt, origin);
    hyla_eig_stedc_parts(ctx, st);

    /* the direct order: each device its own columns, on a thread of its own */
    for (int g = 0; g < nd; g++)
        jobs[g] = (vec_job){.ctx = ctx, .g = g, .t = t, .n = n, .j0 = zd.c[g],
                            .w = zd.c[g + 1] - zd.c[g], .E = E, .A = A, .lda = lda, .q2 = q2,
                            .q1 = q1};
    each_device(nd, vec_main, jobs, sizeof *jobs);
    for (int g = 0; g < nd; g++) {
        timeline(st, g, jobs[g].ph, origin);
        if (g < st->ndev) st->cols[g] = jobs[g].w;
        if (!rc) rc = jobs[g].rc;
        st->back2 = HYLA_MAX(st->back2, jobs[g].back2);
        st->back1 = HYLA_MAX(st->back1, jobs[g].back1);
        st->transfers += jobs[g].up + jobs[g].down;
    }
    /* device output: every device has read the reflectors in dA; Z's
     * blocks take their place */
    for (int g = 0; !rc && !A && g < nd; g++) {
        hyla_dev *d = ctx->devs[g];
        hyla_dev_workspace *ws;
        if (!jobs[g].dZ) continue;
        HYLA_TRY(hyla_workspace_get(ctx, g, 0, 0, &ws));
        HYLA_TRY(d->ops->copy_2d(ws->q_in, dA[g], (size_t)ldA[g] * es, jobs[g].dZ,
                                 (size_t)n * es, (size_t)n * es, (size_t)jobs[g].w,
                                 HYLA_COPY_D2D));
        HYLA_TRY(d->ops->queue_sync(ws->q_in));
    }

cleanup:
    hyla_eig_zrows_free(ctx, &zrows);
    for (int g = 0; g < nd; g++) {
        ctx->devs[g]->ops->mem_free(ctx->devs[g], HYLA_MEM_DEVICE, jobs[g].dZ);
        ctx->devs[g]->ops->mem_free(ctx->devs[g], HYLA_MEM_DEVICE, dQ[g]);
    }
    hyla_eig_sy2sb_qm_free(ctx, &q1);
    hyla_sb2st_q_free(&q2);
    hyla_free(AB);
    hyla_free(e);
    hyla_free(E);
    return rc;
}

/* One device's block of columns of the caller's A up to its own memory,
 * through its own staging (each device on a thread of its own: the links
 * run side by side). */
typedef struct {
    hyla_t *ctx;
    int g, rc;
    hyla_dtype t;
    int64_t n, c0, w, lda;
    const void *A;
    void *dA;
    double t0, t1;
} upload_job;

static void *upload_main(void *arg) {
    upload_job *j = arg;
    hyla_dev *d = j->ctx->devs[j->g];
    j->t0 = hyla_wtime();
    if (j->w > 0) {
        j->rc = d->ops->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(j->n * j->w) * hyla_dtype_size(j->t),
                                  &j->dA);
        if (j->rc) j->dA = NULL;
        else
            j->rc = hyla_xfer_matrix(j->ctx, j->g, j->t, 1, j->n, j->w,
                                     (void *)hyla_elem(j->A, 0, j->c0, j->lda,
                                                       hyla_dtype_size(j->t)),
                                     j->lda, j->dA, j->n);
    }
    j->t1 = hyla_wtime();
    return NULL;
}

int hyla_eig_syevd_mgpu(hyla_t *ctx, hyla_dtype t, int vec, int lower, int64_t n, void *A,
                        int64_t lda, void *w, hyla_eig_stats *st) {
    const int nd = HYLA_MIN(ctx->ndev, HYLA_EIG_MAX_DEVS);
    void *dA[HYLA_EIG_MAX_DEVS] = {0};
    int64_t ldA[HYLA_EIG_MAX_DEVS];
    int64_t kd, nb;
    int sbr, ar, rc = 0;
    double t0 = hyla_wtime(), tt;
    hyla_eig_mgpu_sizes(ctx, t, vec, n, &kd, &nb);
    hyla_eig_mgpu_variants(ctx, &sbr, &ar);
    hyla_eig_dist dist;
    hyla_eig_dist_make(nd, n, nb, sbr == HYLA_EIG_SBR_FULL ? HYLA_EIG_W_FULL : HYLA_EIG_W_HALF,
                       &dist);
    /* CholeskyQR2 panels where HYLA_OPT_EIG_PANEL_QR asks for them: a
     * refused panel starts the solver over from A with Householder panels */
    int cq = ctx->opt_eig_panel_qr == 2;
again:
    tt = hyla_wtime();
    {
        /* the columns as they are stored, every device's at once; the
         * triangle that is not is made on the devices below where the
         * variant reads it */
        upload_job uj[HYLA_EIG_MAX_DEVS];
        for (int g = 0; g < nd; g++) {
            ldA[g] = HYLA_MAX(1, n);
            uj[g] = (upload_job){.ctx = ctx, .g = g, .t = t, .n = n, .c0 = dist.c[g],
                                 .w = dist.c[g + 1] - dist.c[g], .lda = lda, .A = A};
        }
        each_device(nd, upload_main, uj, sizeof *uj);
        for (int g = 0; g < nd; g++) {
            dA[g] = uj[g].dA;
            if (!rc) rc = uj[g].rc;
            if (uj[g].w > 0 && g < HYLA_EIG_TIMELINE_DEVS)
                st->phase[g][HYLA_EIG_PHASE_UPLOAD][0] = uj[g].t0 - t0,
                st->phase[g][HYLA_EIG_PHASE_UPLOAD][1] = uj[g].t1 - t0;
        }
        if (rc) goto cleanup;
    }
    if (!lower || sbr == HYLA_EIG_SBR_FULL) HYLA_TRY(hyla_eig_dist_mirror(ctx, t, lower, &dist, dA, ldA));
    st->transfers += hyla_wtime() - tt;
    rc = evd_core(ctx, t, vec, n, kd, nb, sbr, ar, cq, &dist, dA, ldA, w, A, lda, t0, st);
    if (rc == HYLA_EIG_CQ_REFUSED && cq) {
        for (int g = 0; g < nd; g++) {
            ctx->devs[g]->ops->mem_free(ctx->devs[g], HYLA_MEM_DEVICE, dA[g]);
            dA[g] = NULL;
        }
        cq = 0, rc = 0;
        goto again;
    }
cleanup:
    for (int g = 0; g < nd; g++)
        ctx->devs[g]->ops->mem_free(ctx->devs[g], HYLA_MEM_DEVICE, dA[g]);
    st->total = hyla_wtime() - t0;
    return rc;
}

/* ---------------------------------------------------------------- distributed */

/* The eigensolver on a hyla_dist_matrix (dist.c): the layout's blocks as
 * stage 1 takes them. */
int hyla_eig_syevd_dist(hyla_t *ctx, hyla_dtype t, int vec, int lower, hyla_dist_matrix *A,
                        void *w, hyla_eig_stats *st) {
    const int64_t n = A->n;
    int64_t kd, nb;
    int sbr, ar, rc;
    double t0 = hyla_wtime();
    hyla_eig_mgpu_sizes(ctx, t, vec, n, &kd, &nb);
    hyla_eig_mgpu_variants(ctx, &sbr, &ar);
    hyla_eig_dist dist = {.nd = A->ndev, .n = n};
    memcpy(dist.c, A->col, sizeof(int64_t) * (size_t)(A->ndev + 1));
    /* the layout's boundaries are multiples of its align, the update block
     * of the sizes with eigenvectors it was made for: without, a band width
     * of their own that does not divide it gives way to those sizes */
    if (n > 1 && A->align % kd) hyla_eig_mgpu_sizes(ctx, t, 1, n, &kd, &nb);
    if (n > 1 && (A->align < kd || A->align % kd)) return -3;
    nb = n > 1 ? A->align : nb;
    /* NaN or Inf in the triangle read: refused before any work (hyla.h,
     * "NaN and Inf"), each device scanning its block */
    for (int g = 0; g < A->ndev; g++) {
        rc = hyla_check_finite_dev(ctx, g, t, lower ? 0 : 1, A->col[g], n,
                                   A->col[g + 1] - A->col[g], A->block[g], A->ld[g]);
        if (rc) return rc;
    }
    if (!lower || sbr == HYLA_EIG_SBR_FULL) {
        /* half storage reads the lower triangle, full storage both */
        rc = hyla_eig_dist_mirror(ctx, t, lower, &dist, A->block, A->ld);
        if (rc) return rc;
    }
    /* Householder panels: the blocks are the caller's, nothing to start
     * over from */
    rc = evd_core(ctx, t, vec, n, kd, nb, sbr, ar, 0, &dist, A->block, A->ld, w, NULL, 0, t0, st);
    st->total = hyla_wtime() - t0;
    return rc;
}
