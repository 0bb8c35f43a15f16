/* Stage 1 of the eigensolver on several devices (see mgpu.h): dense
 * Hermitian -> band with the matrix distributed blockwise by columns.
 *
 * Panel p (columns j0 = p kd .., rows r0 = j0 + kd ..) is factored by the
 * device that holds its columns: A[r0:, panel] = Q_p R, Q_p = I - V T V^H
 * (QR on the device, T from the Gram matrix V^H V by the larft_gram op on
 * the same device, so that no panel waits for the host: the host enqueues
 * every panel's work at once, and the band rows and each QR's info come
 * down to pinned memory that it reads after the last). The two-sided update of the trailing matrix A22 = A[r0:, r0:],
 *     X = A22 V T,  W = X - 1/2 V (T^H (V^H X)),  A22 := A22 - V W^H - W V^H,
 * is delayed over a block of nb / kd panels (double blocking): a panel's
 * columns catch up with the block's earlier panels on their owner, and its
 * X is corrected for them, A22_true V = A22 V - Vacc (Wacc^H V) - Wacc
 * (Vacc^H V). Every device keeps Vacc and Wacc (n x nb) of the block.
 *
 * A22 V over distributed columns, two ways:
 *   half storage  (lower triangle only): device g multiplies its column
 *       block C = [a, b), a = max(r0, c_g): Y[a:b] = A[a:b, C] V[a:b]
 *       (HEMM on the diagonal block, by GEMMs: hyla_eig_symm_lower), Y[b:] = A[b:, C] V[a:b], Y[a:b] +=
 *       A[b:, C]^H V[b:]; the n x kd partial products Y_g are summed into
 *       every device (sum-allreduce, through host memory or device to
 *       device).
 *   full storage  (both triangles kept): row block C of A22 V is
 *       A22[C, :] V = A22[:, C]^H V, a GEMM on device g's own columns alone;
 *       the row blocks are gathered (allgather), no sum.
 * The update at the end of a block: each device its own columns, the lower
 * part (HER2K on the diagonal block, GEMMs below) or the whole trailing
 * height (two GEMMs).
 *
 * Queues: each device works on its workspace's compute queue; every
 * exchange is a copy that the receiving device enqueues on its own queue
 * after waiting for the sender's event, so one device's queue holds all of
 * its work in order. The all-to-all of A V at each panel orders the panels
 * across devices. */
#include "eig/mgpu.h"
#include "core/comm.h"
#include <limits.h>
#include <string.h>

static hyla_op ctr(hyla_dtype t) { return t == HYLA_C || t == HYLA_Z ? HYLA_CONJTRANS : HYLA_TRANS; }

/* ---------------------------------------------------------------- distribution */

static double weight_upto(int w, int64_t n, double j) {
    /* integral of the column weight from 0 to j */
    switch (w) {
    case HYLA_EIG_W_HALF: return (double)n * j * j / 2 - j * j * j / 3;
    case HYLA_EIG_W_FULL: return (double)n * j * j / 2 - j * j * j / 6;
    case HYLA_EIG_W_QBUILD: /* each half normalized to 1/2 of the total */
        return j / (2 * (double)n) +
               1.5 * ((double)n * j * j / 2 - j * j * j / 6) / ((double)n * n * n);
    default: return j;
    }
}

void hyla_eig_dist_make(int nd, int64_t n, int64_t align, int weight, hyla_eig_dist *d) {
    memset(d, 0, sizeof *d);
    d->nd = nd, d->n = n;
    const double total = weight_upto(weight, n, (double)n);
    int64_t prev = 0;
    for (int g = 1; g < nd; g++) {
        /* the column where the weight reaches g / nd of the total, by
         * bisection, rounded to the alignment */
        const double goal = total * g / nd;
        double lo = 0, hi = (double)n;
        for (int it = 0; it < 60; it++) {
            const double mid = (lo + hi) / 2;
            if (weight_upto(weight, n, mid) < goal) lo = mid;
            else hi = mid;
        }
        int64_t c = (int64_t)(lo / align + 0.5) * align;
        d->c[g] = prev = HYLA_MIN(n, HYLA_MAX(prev, c));
    }
    d->c[nd] = n;
}

int hyla_eig_dist_owner(const hyla_eig_dist *d, int64_t j) {
    int g = 0;
    while (g + 1 < d->nd && j >= d->c[g + 1]) g++;
    return g;
}

void hyla_eig_sy2sb_qm_free(hyla_t *ctx, hyla_sy2sb_qm **q) {
    if (!q || !*q) return;
    for (int g = 0; g < (*q)->dist.nd; g++)
        ctx->devs[g]->ops->mem_free(ctx->devs[g], HYLA_MEM_DEVICE, (*q)->dT[g]);
    hyla_free(*q);
    *q = NULL;
}

/* ---------------------------------------------------------------- stage 1 */

typedef struct {
    hyla_t *ctx;
    hyla_dtype t;
    size_t es;
    int nd, full, ar;
    int64_t n, kd, nb;
    const hyla_eig_dist *ds;
    void *const *A;
    const int64_t *lda;
    hyla_dev *d[HYLA_EIG_MAX_DEVS];
    hyla_queue *q[HYLA_EIG_MAX_DEVS];
    void *Va[HYLA_EIG_MAX_DEVS], *Wa[HYLA_EIG_MAX_DEVS]; /* n x nb, ld n */
    void *Tc[HYLA_EIG_MAX_DEVS];                         /* kd x kd: T of the panel */
    void *S[HYLA_EIG_MAX_DEVS];                          /* nb x kd small products */
    void *dqr[HYLA_EIG_MAX_DEVS]; /* the owner's QR results: G (kd x kd), tau, info */
    int64_t sleaf;                /* the diagonal block's A V by GEMMs (hyla_eig_symm_lower) */
    void *dSym[HYLA_EIG_MAX_DEVS];
    int cq;                       /* panels of 2 kd rows or more by CholeskyQR2 (cq_panel) */
    void *dcq[HYLA_EIG_MAX_DEVS]; /* its k x k blocks (CQ_*), potrf's info and the refusal */
    hyla_comm comm;
    hyla_sy2sb_mstats *ms;
} m1;

static int64_t lo_of(const m1 *s, int g) { return s->ds->c[g]; }
static int64_t hi_of(const m1 *s, int g) { return s->ds->c[g + 1]; }
/* element (i, j) of the matrix, j a column of device g */
static void *ael(const m1 *s, int g, int64_t i, int64_t j) {
    return hyla_elem(s->A[g], i, j - lo_of(s, g), s->lda[g], s->es);
}

/* Y := the part of A22 V (rows r0.., k columns, into Wa[g] column kacc)
 * that device g's columns give (see the head of the file). */
static int partial_av(const m1 *s, int g, int64_t r0, int64_t k, int64_t kacc) {
    const hyla_backend_ops *o = s->d[g]->ops;
    hyla_queue *q = s->q[g];
    const hyla_dtype t = s->t;
    const size_t es = s->es;
    const int64_t n = s->n, a = HYLA_MAX(r0, lo_of(s, g)), b = hi_of(s, g);
    const void *p1 = hyla_scalar(t, HYLA_SC_ONE), *z = hyla_scalar(t, HYLA_SC_ZERO);
    void *Y = hyla_elem(s->Wa[g], 0, kacc, n, es);
    const void *V = hyla_elem(s->Va[g], 0, kacc, n, es);
    int rc = 0;
    if (s->full) {
        if (a < b)
            rc = o->gemm(q, t, ctr(t), HYLA_NOTRANS, b - a, k, n - r0, p1, ael(s, g, r0, a),
                         s->lda[g], hyla_elem(V, r0, 0, n, es), n, z, hyla_elem(Y, a, 0, n, es), n);
        return rc;
    }
    if (a >= b) return o->scale(q, t, n - r0, k, z, hyla_elem(Y, r0, 0, n, es), n);
    if (a > r0) rc = o->scale(q, t, a - r0, k, z, hyla_elem(Y, r0, 0, n, es), n);
    if (!rc) rc = hyla_eig_symm_lower(o, q, t, s->sleaf, s->dSym[g], b - a, k, ael(s, g, a, a),
                                      s->lda[g], hyla_elem(V, a, 0, n, es), n,
                                      hyla_elem(Y, a, 0, n, es), n);
    if (!rc && b < n)
        rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, n - b, k, b - a, p1, ael(s, g, b, a),
                     s->lda[g], hyla_elem(V, a, 0, n, es), n, z, hyla_elem(Y, b, 0, n, es), n);
    if (!rc && b < n)
        rc = o->gemm(q, t, ctr(t), HYLA_NOTRANS, b - a, k, n - b, p1, ael(s, g, b, a), s->lda[g],
                     hyla_elem(V, b, 0, n, es), n, p1, hyla_elem(Y, a, 0, n, es), n);
    return rc;
}

/* Every device ends with the whole A22 V (rows r0.., k columns) in Wa[g]
 * column kacc: the partials summed, or the row blocks gathered. */
static int combine_av(m1 *s, int64_t r0, int64_t k, int64_t kacc) {
    const size_t es = s->es;
    const int64_t n = s->n;
    void *y[HYLA_EIG_MAX_DEVS];
    if (s->full) {
        int64_t r[HYLA_EIG_MAX_DEVS + 1];
        for (int g = 0; g < s->nd; g++) {
            y[g] = hyla_elem(s->Wa[g], 0, kacc, n, es);
            r[g] = HYLA_MIN(hi_of(s, g), HYLA_MAX(r0, lo_of(s, g)));
        }
        r[s->nd] = n;
        return hyla_comm_allgather_rows(&s->comm, s->t, r, k, y, n);
    }
    for (int g = 0; g < s->nd; g++) y[g] = hyla_elem(s->Wa[g], r0, kacc, n, es);
    return hyla_comm_allreduce(&s->comm, s->ar == HYLA_EIG_AR_HOST, s->t, n - r0, k, y, n);
}

/* On device g, A22 V in Wa[g] column kacc becomes W of the panel:
 * X = (A22 V - Vacc (Wacc^H V) - Wacc (Vacc^H V)) T,
 * W = X - 1/2 V (T^H (V^H X)). */
static int panel_w(const m1 *s, int g, int64_t r0, int64_t k, int64_t kacc) {
    const hyla_backend_ops *o = s->d[g]->ops;
    hyla_queue *q = s->q[g];
    const hyla_dtype t = s->t;
    const size_t es = s->es;
    const int64_t n = s->n, m = n - r0, ld = n, nb = s->nb;
    const void *m1c = hyla_scalar(t, HYLA_SC_MONE), *p1 = hyla_scalar(t, HYLA_SC_ONE),
               *z = hyla_scalar(t, HYLA_SC_ZERO);
    const void *V = hyla_elem(s->Va[g], r0, kacc, ld, es);
    void *X = hyla_elem(s->Wa[g], r0, kacc, ld, es);
    int rc = 0;
    if (kacc > 0) {
        const void *Va = hyla_elem(s->Va[g], r0, 0, ld, es), *Wa = hyla_elem(s->Wa[g], r0, 0, ld, es);
        rc = o->gemm(q, t, ctr(t), HYLA_NOTRANS, kacc, k, m, p1, Wa, ld, V, ld, z, s->S[g], nb);
        if (!rc) rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, m, k, kacc, m1c, Va, ld, s->S[g],
                              nb, p1, X, ld);
        if (!rc) rc = o->gemm(q, t, ctr(t), HYLA_NOTRANS, kacc, k, m, p1, Va, ld, V, ld, z, s->S[g],
                              nb);
        if (!rc) rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, m, k, kacc, m1c, Wa, ld, s->S[g],
                              nb, p1, X, ld);
    }
    if (!rc) rc = o->trmm(q, t, HYLA_RIGHT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, m, k, p1,
                          s->Tc[g], s->kd, X, ld);
    if (!rc) rc = o->gemm(q, t, ctr(t), HYLA_NOTRANS, k, k, m, p1, V, ld, X, ld, z, s->S[g], nb);
    if (!rc) rc = o->trmm(q, t, HYLA_LEFT, HYLA_UPPER, ctr(t), HYLA_NONUNIT, k, k, p1, s->Tc[g],
                          s->kd, s->S[g], nb);
    if (!rc)
        rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, m, k, k, hyla_scalar(t, HYLA_SC_MHALF), V,
                     ld, s->S[g], nb, p1, X, ld);
    return rc;
}

/* The owner's panel columns j0.. (rows j0..) catch up with the kp pending
 * reflectors of the block (Vacc, Wacc columns 0 .. kp - 1). */
static int catch_up(const m1 *s, int g, int64_t j0, int64_t kp) {
    const hyla_backend_ops *o = s->d[g]->ops;
    hyla_queue *q = s->q[g];
    const hyla_dtype t = s->t;
    const size_t es = s->es;
    const int64_t n = s->n, kd = s->kd, r0 = j0 + kd;
    const void *m1c = hyla_scalar(t, HYLA_SC_MONE), *p1 = hyla_scalar(t, HYLA_SC_ONE);
    int rc = o->syr2k(q, t, 1, HYLA_LOWER, HYLA_NOTRANS, HYLA_MIN(kd, n - j0), kp, m1c,
                      hyla_elem(s->Va[g], j0, 0, n, es), n, hyla_elem(s->Wa[g], j0, 0, n, es), n, p1,
                      ael(s, g, j0, j0), s->lda[g]);
    if (rc || r0 >= n) return rc;
    rc = o->gemm(q, t, HYLA_NOTRANS, ctr(t), n - r0, kd, kp, m1c, hyla_elem(s->Va[g], r0, 0, n, es), n,
                 hyla_elem(s->Wa[g], j0, 0, n, es), n, p1, ael(s, g, r0, j0), s->lda[g]);
    if (rc) return rc;
    return o->gemm(q, t, HYLA_NOTRANS, ctr(t), n - r0, kd, kp, m1c, hyla_elem(s->Wa[g], r0, 0, n, es), n,
                   hyla_elem(s->Va[g], j0, 0, n, es), n, p1, ael(s, g, r0, j0), s->lda[g]);
}

/* Device g's columns from c on receive the block's kk reflectors. */
static int block_update(const m1 *s, int g, int64_t c, int64_t kk) {
    const hyla_backend_ops *o = s->d[g]->ops;
    hyla_queue *q = s->q[g];
    const hyla_dtype t = s->t;
    const size_t es = s->es;
    const int64_t n = s->n, a = HYLA_MAX(c, lo_of(s, g)), b = hi_of(s, g);
    const void *m1c = hyla_scalar(t, HYLA_SC_MONE), *p1 = hyla_scalar(t, HYLA_SC_ONE);
    if (a >= b) return 0;
    const void *Va = s->Va[g], *Wa = s->Wa[g];
    int rc = 0;
    if (s->full) {
        rc = o->gemm(q, t, HYLA_NOTRANS, ctr(t), n - c, b - a, kk, m1c, hyla_elem(Va, c, 0, n, es), n,
                     hyla_elem(Wa, a, 0, n, es), n, p1, ael(s, g, c, a), s->lda[g]);
        if (!rc) rc = o->gemm(q, t, HYLA_NOTRANS, ctr(t), n - c, b - a, kk, m1c,
                              hyla_elem(Wa, c, 0, n, es), n, hyla_elem(Va, a, 0, n, es), n, p1, ael(s, g, c, a),
                              s->lda[g]);
        return rc;
    }
    rc = o->syr2k(q, t, 1, HYLA_LOWER, HYLA_NOTRANS, b - a, kk, m1c, hyla_elem(Va, a, 0, n, es), n,
                  hyla_elem(Wa, a, 0, n, es), n, p1, ael(s, g, a, a), s->lda[g]);
    if (!rc && b < n)
        rc = o->gemm(q, t, HYLA_NOTRANS, ctr(t), n - b, b - a, kk, m1c, hyla_elem(Va, b, 0, n, es), n,
                     hyla_elem(Wa, a, 0, n, es), n, p1, ael(s, g, b, a), s->lda[g]);
    if (!rc && b < n)
        rc = o->gemm(q, t, HYLA_NOTRANS, ctr(t), n - b, b - a, kk, m1c, hyla_elem(Wa, b, 0, n, es), n,
                     hyla_elem(Va, a, 0, n, es), n, p1, ael(s, g, b, a), s->lda[g]);
    return rc;
}

/* CholeskyQR2 panels: the k x k blocks on the owner (after them potrf's
 * info and the refusal flag, two ints) */
enum { CQ_R1, CQ_G2, CQ_V1, CQ_T, CQ_RT, CQ_M, CQ_UI, CQ_NB };

static void *cqb(const m1 *s, int g, int i) {
    return (unsigned char *)s->dcq[g] + (size_t)(i * s->kd * s->kd) * s->es;
}

/* Panel A[r0:, j0:j0 + kd] (m = n - r0 >= 2 kd rows) on its owner w by
 * CholeskyQR2 with the Householder vectors reconstructed (backend/ops/cq.h),
 * in place and in order on w's queue, the host never waiting: G1 = A^H A =
 * R1^H R1, Q1 = A R1^-1, G2 = Q1^H Q1, the cq_rebuild op (V1, T, R, M),
 * V's rows below the top block Q1[k:, :] M; R over the top block while
 * the band rows (2 kd of them from row j0, ld 2 kd) go down to band, then
 * V1 over it; T into Tc[w]; the refusal flag down to *bad. A refused panel
 * leaves meaningless values (the caller starts over with Householder
 * panels). Returns 0, HYLA_ERR_UNSUPPORTED (the op does not take kd:
 * nothing of the panel enqueued past the products) or the backend's
 * codes. */
static int cq_panel(const m1 *s, int w, int64_t j0, void *band, int *bad) {
    const hyla_backend_ops *o = s->d[w]->ops;
    hyla_queue *q = s->q[w];
    const hyla_dtype t = s->t;
    const size_t es = s->es;
    const int64_t k = s->kd, n = s->n, r0 = j0 + k, m = n - r0, lda = s->lda[w];
    const void *one = hyla_scalar(t, HYLA_SC_ONE), *zero = hyla_scalar(t, HYLA_SC_ZERO);
    void *pa = ael(s, w, r0, j0);
    int *dinfo = (int *)cqb(s, w, CQ_NB);
    const size_t kb = (size_t)k * es;
    int rc = o->gemm(q, t, ctr(t), HYLA_NOTRANS, k, k, m, one, pa, lda, pa, lda, zero,
                     cqb(s, w, CQ_R1), k);
    if (!rc) rc = o->potrf(q, t, HYLA_UPPER, k, cqb(s, w, CQ_R1), k, dinfo);
    if (!rc) rc = o->trsm(q, t, HYLA_RIGHT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, m, k, one,
                          cqb(s, w, CQ_R1), k, pa, lda);
    if (!rc) rc = o->gemm(q, t, ctr(t), HYLA_NOTRANS, k, k, m, one, pa, lda, pa, lda, zero,
                          cqb(s, w, CQ_G2), k);
    if (rc) return rc;
    const hyla_cq_args a = {.k = k, .info = dinfo, .R1 = cqb(s, w, CQ_R1), .G2 = cqb(s, w, CQ_G2),
                            .Qt = pa, .ldq = lda, .V1 = cqb(s, w, CQ_V1), .Tr = cqb(s, w, CQ_T),
                            .Rt = cqb(s, w, CQ_RT), .M = cqb(s, w, CQ_M), .Ui = cqb(s, w, CQ_UI),
                            .bad = dinfo + 1};
    if ((rc = o->alg->cq_rebuild ? o->alg->cq_rebuild(q, t, &a) : HYLA_ERR_UNSUPPORTED)) return rc;
    rc = o->trmm(q, t, HYLA_RIGHT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, m - k, k, one,
                 cqb(s, w, CQ_M), k, hyla_elem(pa, k, 0, lda, es), lda);
    if (!rc) rc = o->copy_2d(q, pa, (size_t)lda * es, cqb(s, w, CQ_RT), kb, kb, (size_t)k,
                             HYLA_COPY_D2D);
    if (!rc) rc = o->copy_2d(q, band, (size_t)(2 * k) * es, ael(s, w, j0, j0), (size_t)lda * es,
                             (size_t)HYLA_MIN(2 * k, n - j0) * es, (size_t)k, HYLA_COPY_D2H);
    if (!rc) rc = o->copy_2d(q, pa, (size_t)lda * es, cqb(s, w, CQ_V1), kb, kb, (size_t)k,
                             HYLA_COPY_D2D);
    if (!rc) rc = o->copy_2d(q, s->Tc[w], kb, cqb(s, w, CQ_T), kb, kb, (size_t)k, HYLA_COPY_D2D);
    if (!rc) rc = o->copy_2d(q, bad, sizeof(int), dinfo + 1, sizeof(int), sizeof(int), 1,
                             HYLA_COPY_D2H);
    return rc;
}

int hyla_eig_sy2sb_mgpu(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t kd, int64_t nb,
                        const hyla_eig_dist *dist, void *const *dA, const int64_t *lda,
                        void *AB, int64_t ldab, int sbr, int ar, int cq, hyla_sy2sb_qm **qout,
                        hyla_sy2sb_mstats *ms) {
    const size_t es = hyla_dtype_size(t);
    const int nd = dist->nd;
    const int64_t np = hyla_eig_sy2sb_npanels(n, kd);
    m1 s = {.ctx = ctx, .t = t, .es = es, .nd = nd, .full = sbr == HYLA_EIG_SBR_FULL, .ar = ar,
            .n = n, .kd = kd, .nb = nb, .ds = dist, .A = dA, .lda = lda, .ms = ms, .cq = cq};
    hyla_sy2sb_qm *qm = NULL;
    void *hp = NULL, *hb = NULL;
    int *hinfo = NULL, *hbad = NULL;
    const size_t qr_bytes = (size_t)(kd * kd + kd) * es + 16;
    hyla_dev *d0 = ctx->devs[0];
    int rc = 0;
    if (qout) *qout = NULL;
    if (nd < 1 || nd > ctx->ndev || nd > HYLA_EIG_MAX_DEVS || kd < 1 || nb < kd || nb % kd ||
        (sbr != HYLA_EIG_SBR_HALF && sbr != HYLA_EIG_SBR_FULL) ||
        (ar != HYLA_EIG_AR_HOST && ar != HYLA_EIG_AR_DEVICE))
        return HYLA_ERR_INVALID;
    /* interior boundaries on whole update blocks; one at n (the devices
     * after it own no column, as hyla_eig_dist_make gives for n < nb)
     * splits nothing */
    for (int g = 1; g < nd; g++)
        if (dist->c[g] % nb && dist->c[g] != n) return HYLA_ERR_INVALID;
    if (n > INT_MAX) return HYLA_ERR_UNSUPPORTED;
    if (ms) memset(ms, 0, sizeof *ms), ms->sbr = sbr, ms->ar = ar;
    qm = hyla_calloc(1, sizeof *qm);
    if (!qm) return HYLA_ERR_NO_MEMORY;
    qm->t = t, qm->n = n, qm->kd = kd, qm->npanels = np, qm->dist = *dist;
    const int64_t bnb = ctx->opt_eig_back1_nb > 0 ? ctx->opt_eig_back1_nb
                                                    : hyla_tuning_for(d0)->eig_back_nb;
    qm->group = HYLA_MAX(1, HYLA_MIN(bnb / kd, nb / kd));
    while ((nb / kd) % qm->group) qm->group--; /* a group never straddles two owners */
    s.sleaf = hyla_eig_s1_symm_leaf(ctx, d0, t);
    for (int g = 0; g < nd; g++) {
        hyla_dev_workspace *ws;
        hyla_dev *d = ctx->devs[g];
        const hyla_backend_ops *o = d->ops;
        const int64_t w = dist->c[g + 1] - dist->c[g];
        s.d[g] = d;
        qm->dA[g] = dA[g], qm->lda[g] = lda[g];
        HYLA_TRY(hyla_workspace_get(ctx, g, 0, 0, &ws));
        s.q[g] = ws->q_comp;
        if (np == 0) continue;
        if (!o->alg || !o->alg->larft_gram) HYLA_TRY(HYLA_ERR_UNSUPPORTED);
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * nb) * es, &s.Va[g]));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * nb) * es, &s.Wa[g]));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(kd * kd) * es, &s.Tc[g]));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(nb * kd) * es, &s.S[g]));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, qr_bytes, &s.dqr[g]));
        if (s.cq && w > 0)
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE,
                                  (size_t)(CQ_NB * kd * kd) * es + 2 * sizeof(int), &s.dcq[g]));
        if (s.sleaf > 0 && !s.full && w > 0)
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, hyla_eig_symm_ws_bytes(t, s.sleaf, w),
                                  &s.dSym[g]));
        if (w > 0) HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(kd * w) * es, &qm->dT[g]));
    }
    if (np > 0) HYLA_TRY(hyla_comm_init(&s.comm, ctx, nd, s.q));
    HYLA_TRY(d0->ops->mem_alloc(d0, HYLA_MEM_PINNED, (size_t)(HYLA_MAX(1, n) * (kd + 1)) * es, &hp));
    if (np > 0) {
        /* every panel's band rows (2 kd x kd from its diagonal, ld 2 kd) and
         * its QR's info come down into memory of their own, read after the
         * last panel: the host never waits for a panel */
        HYLA_TRY(d0->ops->mem_alloc(d0, HYLA_MEM_PINNED, (size_t)(2 * kd * np * kd) * es, &hb));
        HYLA_TRY(d0->ops->mem_alloc(d0, HYLA_MEM_PINNED, sizeof(int) * (size_t)np, (void **)&hinfo));
        HYLA_TRY(d0->ops->mem_alloc(d0, HYLA_MEM_PINNED, sizeof(int) * (size_t)np, (void **)&hbad));
        memset(hinfo, 0, sizeof(int) * (size_t)np);
        memset(hbad, 0, sizeof(int) * (size_t)np);
    }

    const int64_t P = nb / kd;
    for (int64_t p = 0; p < np; p++) {
        const int64_t j0 = p * kd, r0 = j0 + kd, m = n - r0, k = HYLA_MIN(m, kd);
        const int64_t kacc = (p % P) * kd;
        const int last = p % P == P - 1 || p == np - 1;
        const int w = hyla_eig_dist_owner(dist, j0);
        hyla_dev *dw = s.d[w];
        const hyla_backend_ops *o = dw->ops;
        hyla_queue *qw = s.q[w];
        const int64_t jl = j0 - dist->c[w]; /* the panel's first local column */
        void *dpa = ael(&s, w, r0, j0), *vw = hyla_elem(s.Va[w], r0, kacc, n, es);
        void *dtau = hyla_elem(s.dqr[w], kd * kd, 0, 1, es);
        int *dinfo = (int *)hyla_elem(s.dqr[w], kd * kd + kd, 0, 1, es);
        double tq = hyla_wtime();
        if (kacc > 0) HYLA_TRY(catch_up(&s, w, j0, kacc));
        /* QR of the rows below the band (CholeskyQR2, or Householder QR
         * with T from the Gram matrix V^H V by larft_gram); the band rows
         * (diagonal block and R) and the QR's info or refusal down to the
         * host; V made explicit in place (zeros above it, unit diagonal),
         * kept there for Q1, copied to Vacc; T in Tc[w] */
        const int by_cq = s.cq && m >= 2 * kd;
        if (by_cq) {
            const int r = cq_panel(&s, w, j0, hyla_elem(hb, 0, j0, 2 * kd, es), hbad + p);
            /* a width the backend's reconstruction does not take: as refused */
            HYLA_TRY(r == HYLA_ERR_UNSUPPORTED ? HYLA_EIG_CQ_REFUSED : r);
            if (ms) ms->cq_panels++;
        } else {
            HYLA_TRY(o->geqrf(qw, t, m, kd, dpa, lda[w], dtau, dinfo, ctx->opt_lu_panel));
            HYLA_TRY(o->copy_2d(qw, hyla_elem(hb, 0, j0, 2 * kd, es), (size_t)(2 * kd) * es,
                                ael(&s, w, j0, j0), (size_t)lda[w] * es,
                                (size_t)HYLA_MIN(2 * kd, n - j0) * es, (size_t)kd, HYLA_COPY_D2H));
            HYLA_TRY(o->copy_2d(qw, hinfo + p, sizeof(int), dinfo, sizeof(int), sizeof(int), 1,
                                HYLA_COPY_D2H));
        }
        HYLA_TRY(o->laset(qw, t, -1, r0, kd, hyla_scalar(t, HYLA_SC_ZERO),
                          hyla_scalar(t, HYLA_SC_ZERO), hyla_elem(dA[w], 0, jl, lda[w], es), lda[w]));
        if (!by_cq)
            HYLA_TRY(o->laset(qw, t, HYLA_UPPER, k, k, hyla_scalar(t, HYLA_SC_ZERO),
                              hyla_scalar(t, HYLA_SC_ONE), dpa, lda[w]));
        if (k < kd) /* the last panel: no reflector in its last columns */
            HYLA_TRY(o->laset(qw, t, -1, m, kd - k, hyla_scalar(t, HYLA_SC_ZERO),
                              hyla_scalar(t, HYLA_SC_ZERO), ael(&s, w, r0, j0 + k), lda[w]));
        HYLA_TRY(o->copy_2d(qw, vw, (size_t)n * es, dpa, (size_t)lda[w] * es, (size_t)m * es,
                            (size_t)k, HYLA_COPY_D2D));
        if (!by_cq) {
            HYLA_TRY(o->gemm(qw, t, ctr(t), HYLA_NOTRANS, k, k, m, hyla_scalar(t, HYLA_SC_ONE), vw,
                             n, vw, n, hyla_scalar(t, HYLA_SC_ZERO), s.dqr[w], kd));
            HYLA_TRY(o->alg->larft_gram(qw, t, k, s.dqr[w], kd, dtau, s.Tc[w], kd));
        }
        HYLA_TRY(o->copy_2d(qw, hyla_elem(qm->dT[w], 0, jl, kd, es), (size_t)kd * es, s.Tc[w],
                            (size_t)kd * es, (size_t)kd * es, (size_t)k, HYLA_COPY_D2D));
        if (ms) ms->qr += hyla_wtime() - tq;
        /* V and T to every other device */
        {
            void *vb[HYLA_EIG_MAX_DEVS];
            for (int g = 0; g < nd; g++) vb[g] = hyla_elem(s.Va[g], r0, kacc, n, es);
            HYLA_TRY(hyla_comm_bcast(&s.comm, w, t, m, k, vb, n));
            HYLA_TRY(hyla_comm_bcast(&s.comm, w, t, kd, k, s.Tc, kd));
        }
        /* A22 V from every device's columns, combined; W on every device */
        for (int g = 0; g < nd; g++) HYLA_TRY(partial_av(&s, g, r0, k, kacc));
        HYLA_TRY(combine_av(&s, r0, k, kacc));
        for (int g = 0; g < nd; g++) HYLA_TRY(panel_w(&s, g, r0, k, kacc));
        if (last)
            for (int g = 0; g < nd; g++) HYLA_TRY(block_update(&s, g, r0, kacc + k));
    }
    {
        const double tw = hyla_wtime();
        for (int g = 0; g < nd; g++) HYLA_TRY(s.d[g]->ops->queue_sync(s.q[g]));
        const double th = hyla_wtime();
        if (ms) ms->wait += th - tw;
        for (int64_t p = 0; p < np; p++)
            if (hinfo[p] != 0) HYLA_TRY(HYLA_ERR_INTERNAL);
        /* a panel CholeskyQR2 refused: what followed it is meaningless */
        for (int64_t p = 0; p < np; p++)
            if (hbad[p] != 0) HYLA_TRY(HYLA_EIG_CQ_REFUSED);
        /* the panels' band columns */
        for (int64_t j = 0; j < np * kd; j++) {
            const int64_t jj = j % kd;
            memcpy(hyla_elem(AB, 0, j, ldab, es), hyla_elem(hb, jj, j, 2 * kd, es),
                   (size_t)HYLA_MIN(kd + 1, n - j) * es);
        }
        if (np > 0) hyla_eig_band_publish(t, 0, np * kd, AB, ldab, NULL);
        if (ms) ms->host += hyla_wtime() - th;
    }
    /* the trailing block (fewer than kd + 2 columns) into the band, column
     * by column from its owner */
    for (int64_t j = np * kd; j < n; j++) {
        const int g = hyla_eig_dist_owner(dist, j);
        const int64_t len = HYLA_MIN(kd + 1, n - j);
        HYLA_TRY(s.d[g]->ops->copy_2d(s.q[g], hp, (size_t)len * es, ael(&s, g, j, j),
                                      (size_t)lda[g] * es, (size_t)len * es, 1, HYLA_COPY_D2H));
        HYLA_TRY(s.d[g]->ops->queue_sync(s.q[g]));
        memcpy(hyla_elem(AB, 0, j, ldab, es), hp, (size_t)len * es);
    }
    hyla_eig_band_publish(t, np * kd, n, AB, ldab, NULL);
    if (qout) *qout = qm, qm = NULL;

cleanup:
    /* on a failure, every queue drains before anything it may still wait
     * for or read (another device's events and buffers) goes */
    for (int g = 0; rc && g < nd && g < HYLA_EIG_MAX_DEVS; g++)
        if (s.q[g]) s.d[g]->ops->queue_sync(s.q[g]);
    if (ms) {
        ms->bytes_peer += s.comm.bytes_peer, ms->bytes_host += s.comm.bytes_host;
        ms->combine += s.comm.host_seconds;
    }
    hyla_comm_fini(&s.comm);
    for (int g = 0; g < nd && g < HYLA_EIG_MAX_DEVS; g++) {
        hyla_dev *d = s.d[g];
        if (!d) continue;
        const hyla_backend_ops *o = d->ops;
        o->mem_free(d, HYLA_MEM_DEVICE, s.Va[g]);
        o->mem_free(d, HYLA_MEM_DEVICE, s.Wa[g]);
        o->mem_free(d, HYLA_MEM_DEVICE, s.Tc[g]);
        o->mem_free(d, HYLA_MEM_DEVICE, s.S[g]);
        o->mem_free(d, HYLA_MEM_DEVICE, s.dqr[g]);
        o->mem_free(d, HYLA_MEM_DEVICE, s.dSym[g]);
        o->mem_free(d, HYLA_MEM_DEVICE, s.dcq[g]);
    }
    d0->ops->mem_free(d0, HYLA_MEM_PINNED, hp);
    d0->ops->mem_free(d0, HYLA_MEM_PINNED, hb);
    d0->ops->mem_free(d0, HYLA_MEM_PINNED, hinfo);
    d0->ops->mem_free(d0, HYLA_MEM_PINNED, hbad);
    hyla_eig_sy2sb_qm_free(ctx, &qm);
    return rc;
}
