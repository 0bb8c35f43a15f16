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
#include <float.h>
#include <math.h>
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

/* The real host matrix Zr (n x ncols, ld ldzr) into dZ (device dev, type t,
 * ld lddz): complex types receive zero imaginary parts (expanded on the
 * host first). */
static int upload_real(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t ncols,
                       const void *Zr, int64_t ldzr, void *dZ, int64_t lddz) {
    if (t == hyla_dtype_real(t))
        return hyla_xfer_matrix(ctx, dev, t, 1, n, ncols, (void *)Zr, ldzr, dZ, lddz);
    const size_t es = hyla_dtype_size(t);
    void *Zc = hyla_malloc((size_t)(n * ncols) * es);
    if (!Zc) return HYLA_ERR_NO_MEMORY;
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < ncols; j++)
        for (int64_t i = 0; i < n; i++) {
            if (t == HYLA_C) {
                float *z = (float *)Zc + 2 * (i + j * n);
                z[0] = ((const float *)Zr)[i + j * ldzr], z[1] = 0.0f;
            } else {
                double *z = (double *)Zc + 2 * (i + j * n);
                z[0] = ((const double *)Zr)[i + j * ldzr], z[1] = 0.0;
            }
        }
    const int rc = hyla_xfer_matrix(ctx, dev, t, 1, n, ncols, Zc, n, dZ, lddz);
    hyla_free(Zc);
    return rc;
}

/* The two back transformations on the device matrix dZ (n x ncols): Q2,
 * then Q1; their seconds into st. */
static int back_both(hyla_t *ctx, int dev, const hyla_sy2sb_q *q1, const hyla_sb2st_q *q2,
                     int64_t ncols, void *dZ, int64_t lddz, hyla_eig_stats *st) {
    double tt = hyla_wtime();
    int rc = hyla_eig_sb2st_back_count(ctx, dev, q2, ncols, dZ, lddz, 0, &st->back2_calls,
                                       &st->back2_flops);
    st->back2 = hyla_wtime() - tt;
    if (rc) return rc;
    tt = hyla_wtime();
    rc = hyla_eig_sy2sb_back(ctx, q1, 0, ncols, dZ, lddz);
    st->back1 = hyla_wtime() - tt;
    return rc;
}

/* Z (host, real n x n, ld n) to dZ (device, type t) and the back
 * transformations there: the direct order. Zr NULL: dZ holds Z already. */
static int direct(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, const hyla_sy2sb_q *q1,
                  const hyla_sb2st_q *q2, const void *Zr, void *dZ, int64_t lddz,
                  hyla_eig_stats *st) {
    if (Zr) {
        const double tt = hyla_wtime();
        const int rc = upload_real(ctx, dev, t, n, n, Zr, n, dZ, lddz);
        st->transfers += hyla_wtime() - tt;
        if (rc) return rc;
    }
    return back_both(ctx, dev, q1, q2, n, dZ, lddz, st);
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

void hyla_eig_part_span(hyla_dtype rt, int64_t n, const void *w, const hyla_eig_part *p,
                        int64_t *j0, int64_t *j1) {
    *j0 = 0, *j1 = n;
    if (p->range == 'I') {
        *j0 = p->il - 1, *j1 = p->iu;
    } else if (p->range == 'V') {
        const int sgl = rt == HYLA_S;
#define W_AT(i) (sgl ? (double)((const float *)w)[i] : ((const double *)w)[i])
        while (*j0 < n && W_AT(*j0) <= p->vl) ++*j0;
        *j1 = *j0;
        while (*j1 < n && W_AT(*j1) <= p->vu) ++*j1;
#undef W_AT
    }
}

/* The wanted run j0 .. j1 - 1 of the n ascending eigenvalues in w moved to
 * its front; *p->m = its length. */
static void keep_values(hyla_dtype rt, void *w, int64_t j0, int64_t j1, const hyla_eig_part *p) {
    const size_t rs = hyla_dtype_size(rt);
    memmove(w, (char *)w + (size_t)j0 * rs, (size_t)(j1 - j0) * rs);
    *p->m = j1 - j0;
}

void hyla_eig_part_keep(hyla_dtype t, int64_t n, const void *A, int64_t lda, void *w,
                        const hyla_eig_part *p) {
    const hyla_dtype rt = hyla_dtype_real(t);
    const size_t es = hyla_dtype_size(t);
    int64_t j0, j1;
    hyla_eig_part_span(rt, n, w, p, &j0, &j1);
    if (p->Z) {
#pragma omp parallel for schedule(static) if (n >= 512)
        for (int64_t j = j0; j < j1; j++)
            memcpy((char *)p->Z + (size_t)(j - j0) * (size_t)p->ldz * es,
                   (const char *)A + (size_t)j * (size_t)lda * es, (size_t)n * es);
    }
    keep_values(rt, w, j0, j1, p);
}

/* The columns [*c0, *c1) of T's ascending eigenvectors that hold those
 * with eigenvalues in (vl, vu] of p (range V), with a margin: the Sturm
 * counts of T (d, e) below vl - g and vu + g, g = 64 n eps |T|_max, well
 * past the error of the computed eigenvalues that decide the range. */
static void part_window(hyla_dtype rt, int64_t n, const void *d, const void *e,
                        const hyla_eig_part *p, int64_t *c0, int64_t *c1) {
    const int sgl = rt == HYLA_S;
    double tmax = 0;
    for (int64_t i = 0; i < n; i++) {
        const double di = sgl ? (double)((const float *)d)[i] : ((const double *)d)[i];
        const double ei = i + 1 < n ? (sgl ? (double)((const float *)e)[i]
                                           : ((const double *)e)[i])
                                    : 0;
        tmax = fmax(tmax, fabs(di) + 2 * fabs(ei));
    }
    const double g = 64 * (double)n * (sgl ? FLT_EPSILON : DBL_EPSILON) * tmax;
    *c0 = hyla_eig_sturm_below(rt, n, d, e, p->vl - g);
    *c1 = HYLA_MAX(*c0 + 1, hyla_eig_sturm_below(rt, n, d, e, p->vu + g));
    *c1 = HYLA_MIN(*c1, n);
    *c0 = HYLA_MIN(*c0, *c1 - 1);
}

int hyla_eig_part_solve(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, const hyla_sy2sb_q *q1,
                        const hyla_sb2st_q *q2, void *w, void *e, const hyla_eig_part *p,
                        hyla_eig_stats *st) {
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    const hyla_dtype rt = hyla_dtype_real(t);
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(rt);
    void *Zr = NULL, *wk = NULL, *d0 = NULL, *e0 = NULL, *dE = NULL, *dZn = NULL, *dZ = NULL;
    int64_t j0, j1, lddz = n;
    int rc = 0;
    double tt = hyla_wtime();
    *p->m = 0;
    if (!p->Z) { /* eigenvalues only: all of them (bisection on a GPU), the wanted kept */
        HYLA_TRY(hyla_eig_tri_values(ctx, dev, rt, n, w, e));
        st->tridiag = hyla_wtime() - tt;
        hyla_eig_part_span(rt, n, w, p, &j0, &j1);
        keep_values(rt, w, j0, j1, p);
        return 0;
    }
    /* the wanted by index (range V: by Sturm counts on T) */
    int64_t il = 1, iu = n;
    if (p->range == 'I') {
        il = p->il, iu = p->iu;
    } else if (p->range == 'V') {
        il = hyla_eig_sturm_below(rt, n, w, e, p->vl) + 1;
        iu = hyla_eig_sturm_below(rt, n, w, e, p->vu);
    }
    if (iu < il) return 0;
    const int64_t pml = ctx->opt_eig_subset_dc > 0 ? ctx->opt_eig_subset_dc
                                                   : hyla_tuning_for(d)->eig_subset_dc_pml;
    if (n >= HYLA_EIG_MRRR_MIN && pml > 0 && pml <= 1000 && (iu - il + 1) * 1000 >= pml * n) {
        /* many: all of T's pairs by divide and conquer, on device 0 where
         * its memory takes E (the eigenvector matrices stay there), the
         * wanted columns kept; a failed leaf falls back to the few's way */
        d0 = hyla_malloc((size_t)n * rs), e0 = hyla_malloc((size_t)n * rs);
        Zr = hyla_malloc((size_t)(n * n) * rs);
        if (!d0 || !e0 || !Zr) HYLA_TRY(HYLA_ERR_NO_MEMORY);
        memcpy(d0, w, (size_t)n * rs);
        memcpy(e0, e, (size_t)(n - 1) * rs);
        if (dev != 0 || o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * n) * rs, &dE) != 0)
            dE = NULL;
        /* E's wanted columns alone where the top merge runs on the device:
         * by index, or by value within the Sturm counts of a range
         * widened by part_margin (checked below) */
        int64_t c0 = il - 1, c1 = iu;
        if (p->range == 'V') part_window(rt, n, w, e, p, &c0, &c1);
        rc = dE ? hyla_eig_stedc_cols(ctx, rt, n, w, e, Zr, n, dE, n, c0, c1, 0, 0)
                : hyla_eig_stedc(ctx, rt, n, w, e, Zr, n);
        if (rc == 0 && dE) {
            hyla_eig_part_span(rt, n, w, p, &j0, &j1);
            if (j0 < c0 || j1 > c1) { /* T's eigenvalues beyond the margin: all columns */
                memcpy(w, d0, (size_t)n * rs);
                memcpy(e, e0, (size_t)(n - 1) * rs);
                rc = hyla_eig_stedc_dev(ctx, rt, n, w, e, Zr, n, dE, n);
            }
        }
        st->tridiag = hyla_wtime() - tt;
        hyla_eig_stedc_parts(ctx, st);
        if (rc < 0) goto cleanup;
        if (rc == 0) {
            hyla_eig_part_span(rt, n, w, p, &j0, &j1);
            keep_values(rt, w, j0, j1, p);
            if (j1 == j0) goto cleanup;
            tt = hyla_wtime();
            if (dE && t == rt) { /* in place in E */
                dZ = (char *)dE + (size_t)(j0 * n) * rs;
            } else {
                /* E's wanted columns (down first from the device), up
                 * in type t */
                const void *src = (char *)Zr + (size_t)(j0 * n) * rs;
                if (dE) {
                    HYLA_TRY(hyla_xfer_matrix(ctx, dev, rt, 0, n, j1 - j0, Zr, n,
                                              (char *)dE + (size_t)(j0 * n) * rs, n));
                    src = Zr;
                }
                HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * (j1 - j0)) * es, &dZn));
                dZ = dZn;
                HYLA_TRY(upload_real(ctx, dev, t, n, j1 - j0, src, n, dZ, n));
            }
            st->transfers += hyla_wtime() - tt;
            goto back;
        }
        /* a leaf did not converge: T as it was, the few's way */
        memcpy(w, d0, (size_t)n * rs);
        memcpy(e, e0, (size_t)(n - 1) * rs);
        rc = 0;
        hyla_free(Zr);
        Zr = NULL;
        if (dE) o->mem_free(d, HYLA_MEM_DEVICE, dE);
        dE = NULL;
        tt = hyla_wtime();
    }
    /* few: the wanted pairs of T alone (MRRR on the host cores) */
    {
        const int64_t k = iu - il + 1;
        int64_t mm = 0;
        Zr = hyla_malloc((size_t)(n * k) * rs), wk = hyla_malloc((size_t)k * rs);
        if (!Zr || !wk) HYLA_TRY(HYLA_ERR_NO_MEMORY);
        HYLA_TRY(hyla_eig_tri_pairs(rt, n, w, e, il, iu, &mm, wk, Zr, n));
        st->tridiag += hyla_wtime() - tt;
        memcpy(w, wk, (size_t)mm * rs);
        *p->m = mm;
        j0 = 0, j1 = mm;
        if (mm == 0) goto cleanup;
        tt = hyla_wtime();
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * mm) * es, &dZn));
        dZ = dZn;
        HYLA_TRY(upload_real(ctx, dev, t, n, mm, Zr, n, dZ, n));
        st->transfers += hyla_wtime() - tt;
    }
back:
    /* the back transformations on the m columns, then down */
    HYLA_TRY(back_both(ctx, dev, q1, q2, j1 - j0, dZ, lddz, st));
    tt = hyla_wtime();
    HYLA_TRY(hyla_xfer_matrix(ctx, dev, t, 0, n, j1 - j0, p->Z, p->ldz, dZ, lddz));
    st->transfers += hyla_wtime() - tt;
cleanup:
    if (rc) *p->m = 0;
    o->mem_free(d, HYLA_MEM_DEVICE, dZn);
    o->mem_free(d, HYLA_MEM_DEVICE, dE);
    hyla_free(Zr), hyla_free(wk), hyla_free(d0), hyla_free(e0);
    return rc;
}
