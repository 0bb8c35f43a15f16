/* The eigenvectors of the two-stage eigensolver, from the reflectors of
 * both stages and the tridiagonal (d, e), in one of two orders:
 *
 *   direct     E := eigenvectors of T (stedc, host cores + device GEMMs),
 *              Z := Q1 (Q2 E) on the device: the back transformations wait
 *              for the tridiagonal solver;
 *   reordered  Q := Q1 Q2 built on the device (the back transformations
 *              applied to I) WHILE the host cores run stedc, then one GEMM
 *              Z := Q E. The back transformations leave the critical path
 *              at the price of that GEMM (2 n^3 real flops; a complex Q times
 *              the real E is one real GEMM on Q seen as a 2n x n real
 *              matrix) and of n^2 more device memory for Q plus n^2 reals
 *              for E.
 * By default the reordered order runs on a GPU for large n (where it was
 * measured faster) when the device has the memory, else the direct one. */
#include "eig/pvectors.h"
#include "core/xfer.h"
#include "eig/ptridiag.h"
#include <omp.h>
#include <pthread.h>
#include <string.h>

void hyla_eig_stedc_parts(const hyla_t *ctx, hyla_eig_stats *st) {
    st->stedc_lower = ctx->eig_stats.stedc_lower;
    st->stedc_deflate = ctx->eig_stats.stedc_deflate;
    st->stedc_secular = ctx->eig_stats.stedc_secular;
    st->stedc_gemm = ctx->eig_stats.stedc_gemm;
    st->stedc_copy = ctx->eig_stats.stedc_copy;
}

/* Z (host, real n x n, ld n) to dZ (device, type t) and the back
 * transformations there: the direct order. Zr NULL: dZ holds Z already. */
static int direct(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, const hyla_sy2sb_q *q1,
                  const hyla_sb2st_q *q2, const void *Zr, void *dZ, int64_t lddz,
                  hyla_eig_stats *st) {
    const size_t es = hyla_dtype_size(t);
    void *Zc = NULL;
    const void *src = Zr;
    int rc = 0;
    double tt = hyla_wtime();
    if (!Zr) goto back;
    if (t == HYLA_C || t == HYLA_Z) {
        Zc = hyla_malloc((size_t)(n * n) * es);
        if (!Zc) return HYLA_ERR_NO_MEMORY;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < n * n; i++) {
            if (t == HYLA_C)
                ((float *)Zc)[2 * i] = ((const float *)Zr)[i], ((float *)Zc)[2 * i + 1] = 0.0f;
            else
                ((double *)Zc)[2 * i] = ((const double *)Zr)[i], ((double *)Zc)[2 * i + 1] = 0.0;
        }
        src = Zc;
    }
    rc = hyla_xfer_matrix(ctx, dev, t, 1, n, n, (void *)src, n, dZ, lddz);
    hyla_free(Zc);
    st->transfers += hyla_wtime() - tt;
    if (rc) return rc;
back:
    tt = hyla_wtime();
    rc = hyla_eig_sb2st_back_count(ctx, dev, q2, n, dZ, lddz, 0, &st->back2_calls,
                                   &st->back2_flops);
    st->back2 = hyla_wtime() - tt;
    if (rc) return rc;
    tt = hyla_wtime();
    rc = hyla_eig_sy2sb_back(ctx, q1, 0, n, dZ, lddz);
    st->back1 = hyla_wtime() - tt;
    return rc;
}

typedef struct {
    hyla_t *ctx;
    int dev, rc;
    hyla_dtype t;
    int64_t n;
    const hyla_sy2sb_q *q1;
    const hyla_sb2st_q *q2;
    void *dQ;
    double back2, back1, back2_flops;
    int64_t back2_calls;
} build_q;

/* dQ := Q1 Q2 (the identity, then Q2, then Q1), on the device, on queues
 * of its own: the tridiagonal solver uses the context's at the same time
 * for its merge GEMMs. */
static void *build_q_main(void *arg) {
    build_q *b = arg;
    hyla_dev *d = b->ctx->devs[b->dev];
    const hyla_backend_ops *o = d->ops;
    hyla_queue *qc = NULL, *qi = NULL;
    double t0 = hyla_wtime(), t1 = t0;
    int rc = o->queue_create(d, &qc);
    if (!rc) rc = o->queue_create(d, &qi);
    if (!rc)
        rc = o->laset(qc, b->t, -1, b->n, b->n, hyla_scalar(b->t, HYLA_SC_ZERO),
                      hyla_scalar(b->t, HYLA_SC_ONE), b->dQ, b->n);
    if (!rc) rc = hyla_eig_sb2st_back_q(b->ctx, b->dev, b->q2, b->n, b->dQ, b->n, 0,
                                        &b->back2_calls, &b->back2_flops, qc, qi, 1, 0);
    t1 = hyla_wtime();
    if (!rc) rc = hyla_eig_sy2sb_back_q(b->ctx, b->q1, 0, b->n, b->dQ, b->n, qc);
    if (qc) {
        int rs = o->queue_sync(qc);
        if (!rc) rc = rs;
        o->queue_destroy(qc);
    }
    if (qi) {
        o->queue_sync(qi);
        o->queue_destroy(qi);
    }
    b->back2 = t1 - t0;
    b->back1 = hyla_wtime() - t1;
    b->rc = rc;
    return NULL;
}

/* Z := Q E by blocks of columns (the produce function of
 * hyla_xfer_download_behind). E is real: for complex Q, one real GEMM on
 * Q's (re, im) pairs, a 2n x n real matrix of leading dimension 2 ld. */
typedef struct {
    hyla_dev *d;
    hyla_dtype t;
    int64_t n, lddz;
    const void *dQ, *dE;
    void *dZ;
} q_times_e;

static int q_times_e_cols(void *arg, hyla_queue *q, int64_t c0, int64_t nc) {
    const q_times_e *g = arg;
    const hyla_dtype rt = hyla_dtype_real(g->t);
    const int64_t f = g->t == rt ? 1 : 2;
    const size_t rs = hyla_dtype_size(rt);
    return g->d->ops->gemm(q, rt, HYLA_NOTRANS, HYLA_NOTRANS, f * g->n, nc, g->n,
                           hyla_scalar(rt, HYLA_SC_ONE), g->dQ, f * g->n,
                           hyla_elem(g->dE, 0, c0, g->n, rs), g->n,
                           hyla_scalar(rt, HYLA_SC_ZERO),
                           hyla_elem(g->dZ, 0, c0, f * g->lddz, rs), f * g->lddz);
}

int hyla_eig_vectors(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, const hyla_sy2sb_q *q1,
                     const hyla_sb2st_q *q2, void *w, void *e, void *dZ, int64_t lddz,
                     void *hZ, int64_t ldhz, int order, hyla_eig_stats *st) {
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    const hyla_dtype rt = hyla_dtype_real(t);
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(rt);
    void *Zr = NULL, *dQ = NULL, *dE = NULL;
    int rc = 0;
    double tt;
    if (n == 0) return 0;
    Zr = hyla_malloc((size_t)(n * n) * rs);
    if (!Zr) return HYLA_ERR_NO_MEMORY;
    /* automatic: reordered from the tuning table's order (on a GPU n =
     * 4096, never on host devices); asked for explicitly, it runs anywhere
     * (tests use it on the host backend) */
    int reorder = order == HYLA_EIG_REORDERED ||
                  (order == HYLA_EIG_ORDER_AUTO && n >= hyla_tuning_for(d)->eig_reorder_min_n);
    if (reorder) {
        size_t fb = 0, tb = 0;
        /* the two buffers, with room for the tridiagonal solver's device
         * levels and a margin for the back transformations' */
        const size_t need = (size_t)(n * n) * (es + rs) + hyla_eig_stedc_rows_bytes(rt, 1, n);
        if (o->mem_info(d, &fb, &tb) != 0 || fb < need + need / 8 ||
            o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * n) * es, &dQ) != 0 ||
            o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * n) * rs, &dE) != 0)
            reorder = 0;
    }
    if (!reorder) {
        o->mem_free(d, HYLA_MEM_DEVICE, dQ);
        dQ = NULL;
        /* a real E straight into dZ when the tridiagonal solver's device
         * is this one (Zr its host workspace) */
        const int z_dev = t == rt && dev == 0;
        tt = hyla_wtime();
        HYLA_TRY(z_dev ? hyla_eig_stedc_dev(ctx, rt, n, w, e, Zr, n, dZ, lddz)
                       : hyla_eig_stedc(ctx, rt, n, w, e, Zr, n));
        st->tridiag = hyla_wtime() - tt;
        hyla_eig_stedc_parts(ctx, st);
        HYLA_TRY(direct(ctx, dev, t, n, q1, q2, z_dev ? NULL : Zr, dZ, lddz, st));
        if (hZ) {
            tt = hyla_wtime();
            HYLA_TRY(hyla_xfer_matrix(ctx, dev, t, 0, n, n, hZ, ldhz, dZ, lddz));
            st->transfers += hyla_wtime() - tt;
        }
        goto cleanup;
    }
    /* reordered: Q on a thread of its own (one core, queues of its own)
     * while the other cores run the tridiagonal solver, whose large merge
     * GEMMs share the device */
    /* E straight into dE when the tridiagonal solver's device is this one
     * (Zr is then its host workspace), else through Zr */
    const int e_dev = dev == 0;
    build_q b = {.ctx = ctx, .dev = dev, .t = t, .n = n, .q1 = q1, .q2 = q2, .dQ = dQ};
    pthread_t th;
    tt = hyla_wtime();
    if (pthread_create(&th, NULL, build_q_main, &b) != 0) {
        build_q_main(&b); /* no thread: one after the other */
        HYLA_TRY(b.rc);
        HYLA_TRY(e_dev ? hyla_eig_stedc_dev(ctx, rt, n, w, e, Zr, n, dE, n)
                       : hyla_eig_stedc(ctx, rt, n, w, e, Zr, n));
    } else {
        const int nt = omp_get_max_threads();
        if (nt > 2) omp_set_num_threads(nt - 1);
        rc = e_dev ? hyla_eig_stedc_dev(ctx, rt, n, w, e, Zr, n, dE, n)
                   : hyla_eig_stedc(ctx, rt, n, w, e, Zr, n);
        if (nt > 2) omp_set_num_threads(nt);
        st->tridiag = hyla_wtime() - tt;
        pthread_join(th, NULL);
        HYLA_TRY(rc);
        hyla_eig_stedc_parts(ctx, st);
        HYLA_TRY(b.rc);
    }
    st->back2 = b.back2, st->back1 = b.back1;
    st->back2_calls = b.back2_calls, st->back2_flops = b.back2_flops;
    /* Z := Q E, E real: for complex Q one real GEMM on Q's (re, im) pairs,
     * a 2n x n real matrix of leading dimension 2 ld */
    tt = hyla_wtime();
    if (!e_dev) HYLA_TRY(hyla_xfer_matrix(ctx, dev, rt, 1, n, n, Zr, n, dE, n));
    st->transfers += hyla_wtime() - tt;
    tt = hyla_wtime();
    {
        /* with a host destination, each block of Z goes down while the
         * GEMM of the next runs */
        enum { ZBLOCK = 2048 };
        q_times_e g = {.d = d, .t = t, .n = n, .lddz = lddz, .dQ = dQ, .dE = dE, .dZ = dZ};
        hyla_dev_workspace *ws;
        double t_gemm;
        HYLA_TRY(hyla_workspace_get(ctx, dev, 0, 0, &ws));
        if (hZ) {
            HYLA_TRY(hyla_xfer_download_behind(ctx, dev, t, n, n, ZBLOCK, hZ, ldhz, dZ, lddz,
                                               ws->q_comp, q_times_e_cols, &g, &t_gemm));
        } else {
            HYLA_TRY(q_times_e_cols(&g, ws->q_comp, 0, n));
            HYLA_TRY(o->queue_sync(ws->q_comp));
            t_gemm = hyla_wtime();
        }
        /* the GEMM counts with the last back transformation, the tail of
         * the download not hidden behind it with the transfers */
        st->back1 += t_gemm - tt;
        st->transfers += hyla_wtime() - t_gemm;
    }
cleanup:
    o->mem_free(d, HYLA_MEM_DEVICE, dQ);
    o->mem_free(d, HYLA_MEM_DEVICE, dE);
    hyla_free(Zr);
    return rc;
}
