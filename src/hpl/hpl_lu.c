/*
 * HPL's solve on a P x Q process grid: right-looking LU with partial
 * pivoting of the N x (N+1) matrix [A b], 2-D block-cyclic in nb x nb
 * blocks, so that b is transformed with A and only U x = y remains.
 *
 * Per panel k (global columns j .. j+jb-1, owned by process column pc and,
 * for its diagonal block, process row pr):
 *  1. pc factors its local panel on the host: per column, the pivot search
 *     is one allreduce over the process column whose record carries the
 *     pivot row and the diagonal row (max |value|, the lowest global row on
 *     ties), so every rank swaps, scales and updates (DGER, within the
 *     column's block of PANEL_BW columns) its own rows, and all of them hold
 *     the factored jb x jb diagonal block; after each block, its U rows by
 *     TRSM on that block and one GEMM on the local rows below. With one
 *     process row this is LAPACK's getrf on the panel.
 *  2. The panel, its pivots and the diagonal block go along the process row
 *     (broadcast from pc).
 *  3. Row interchanges of the trailing columns: every row the jb swaps touch
 *     (rows j .. j+jb-1 and the pivot rows) is gathered over the process
 *     column (allgatherv); each rank writes the rows it owns with their new
 *     contents and builds the U row block, jb x (its trailing columns).
 *  4. On the device: U := L11^-1 U (TRSM), written back on pr, then the
 *     trailing update A22 -= L21 U (GEMM).
 * Lookahead (depth >= 1): the owner of panel k+1 updates those columns
 * first on a second queue, then factors panel k+1 on the host while the
 * rest of the trailing update of panel k runs on the device.
 *
 * One process row (factorize_p1, also one rank): every row is local, so the
 * owner factors the panel on the device (getrf op) and the pivots are
 * applied on the device (laswp op); the panel goes along the row through
 * pinned host memory into one of two device buffers, whose upload overlaps
 * the update still running from the previous panel; U is solved and the
 * trailing matrix updated in place. Lookahead as above, with the next panel
 * factored on the device's second (high-priority) queue.
 *
 * Solve: y (the last column) is summed into a vector replicated on every
 * rank; for each block from the last, the owner of the diagonal block solves
 * it (TRSV on the host) and broadcasts x_k, the process column holding
 * block column k computes U(0:j, k) x_k on the device, and one allreduce
 * subtracts it from y. x ends replicated on every rank.
 * Check: [A b] is regenerated block by block on the host; r = b - A x, the
 * row sums of |A| and b are summed over the grid, and the scaled residual
 * |r|oo / (eps (|A|oo |x|oo + |b|oo) N) is formed as netlib HPL does.
 */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "hpl/hpl.h"
#include "hpl/hpl_comm.h"

/* Column block of the host panel factorization of several process rows:
 * BLAS-2 work within a block, one TRSM and GEMM per block for the rest. */
#define PANEL_BW 32

typedef struct {
    hyla_dev *dev;
    const hyla_backend_ops *ops;
    int64_t lu_panel;    /* HYLA_OPT_LU_PANEL of the context */
    hyla_queue *q;       /* trailing update */
    hyla_queue *qla;     /* transfers, TRSM, the lookahead panel */
    hyla_event *ev;
    hpl_grid *g;
    int nprow, npcol, myrow, mycol;
    int64_t n, nb, mloc, nloc, ld, ldl;
    double *dA, *dU, *dL, *dD, *dX, *dW;        /* device */
    int64_t *dpiv;       /* device pivots of a panel, local 1-based (one process row) */
    double *dL2;         /* one process row: the received panels alternate in dL, dL2 */
    int xb;              /* one process row: panels go device to device (hpl_row_bcast_dev) */
    double *dS;          /* xb: the owner's panel, packed (mp x jb, ld mp) */
    hyla_queue *qc;      /* xb: the broadcasts */
    int64_t *dpivr;      /* and their pivots in dpivr, dpivr + nb */
    hyla_event *ev_l[2]; /* the update that last read dL / dL2 */
    int64_t nrecv;       /* panels received so far */
    int *dinfo;          /* device info of a panel factorization */
    double *hB;          /* pinned: [info, ipiv (nb), D (nb x nb), panel (mloc x nb)] */
    double *hsend, *hrecv, *hU, *rec;           /* host */
    int64_t *spos, *sorig, *scount;             /* swap bookkeeping, 2 nb and nprow */
    int64_t info;        /* first zero pivot, 1-based; 0 none */
} hpl_job;

/* ---- block-cyclic index helpers (source process 0) ---- */

static int owner(int64_t gi, int64_t nb, int np) { return (int)((gi / nb) % np); }
static int64_t g2l(int64_t gi, int64_t nb, int np) { return (gi / (nb * np)) * nb + gi % nb; }
static int64_t l2g(int64_t li, int64_t nb, int p, int np) {
    return ((li / nb) * np + p) * nb + li % nb;
}
/* local indices of process p below global index gi */
static int64_t lcount(int64_t gi, int64_t nb, int p, int np) { return hyla_hpl_numroc(gi, nb, p, np); }

/* ---- device helpers ---- */

static int up(hpl_job *J, hyla_queue *q, double *dst, int64_t ldd, const double *src, int64_t lds,
              int64_t m, int64_t ncol) {
    if (m <= 0 || ncol <= 0) return 0;
    return J->ops->copy_2d(q, dst, (size_t)ldd * 8, src, (size_t)lds * 8, (size_t)m * 8,
                           (size_t)ncol, HYLA_COPY_H2D);
}

static int down(hpl_job *J, hyla_queue *q, double *dst, int64_t ldd, const double *src,
                int64_t lds, int64_t m, int64_t ncol) {
    if (m <= 0 || ncol <= 0) return 0;
    return J->ops->copy_2d(q, dst, (size_t)ldd * 8, src, (size_t)lds * 8, (size_t)m * 8,
                           (size_t)ncol, HYLA_COPY_D2H);
}

/* Column c of panel k, the host panel code of several process rows: the
 * pivot search over the process column (hpl_col_pivot), the row swap,
 * the pivot row into D and ipiv, the scaling, and the rank-1 update of the
 * panel columns c + 1 .. c1 - 1 (the rest of its column block). Rows keep
 * all jb columns, so the columns right of the block stay consistently
 * behind until the block's TRSM and GEMM. Returns the MPI status; a zero
 * pivot sets *info (the first one, 1-based) and skips the scaling. */
static int pivot_column(hpl_job *J, int64_t k, int64_t c, int64_t c1, double *P, int64_t ldp,
                        double *rec, double *ipiv, double *D, int64_t *info) {
    const int64_t nb = J->nb, j = k * nb, jb = HYLA_MIN(nb, J->n - j), w = jb;
    const int64_t ii = lcount(j, nb, J->myrow, J->nprow), mp = J->mloc - ii;
    const int64_t gc = j + c;
    const int64_t rstart = lcount(gc, nb, J->myrow, J->nprow) - ii;
    const int own_diag = owner(gc, nb, J->nprow) == J->myrow;
    int64_t best = -1;
    for (int64_t r = rstart; r < mp; r++)
        if (best < 0 || fabs(P[r + c * ldp]) > fabs(P[best + c * ldp])) best = r;
    rec[0] = best >= 0 ? P[best + c * ldp] : 0;
    rec[1] = best >= 0 ? (double)l2g(ii + best, nb, J->myrow, J->nprow) : -1;
    for (int64_t t = 0; t < w; t++) rec[2 + t] = best >= 0 ? P[best + t * ldp] : 0;
    rec[w + 2] = own_diag;
    for (int64_t t = 0; t < w; t++) rec[w + 3 + t] = own_diag ? P[rstart + t * ldp] : 0;
    int rc = hpl_col_pivot(J->g, rec, (int)w);
    if (rc) return rc;
    const int64_t gp = (int64_t)rec[1];
    const double pv = rec[0];
    ipiv[c] = (double)gp;
    for (int64_t t = 0; t < w; t++) D[c + t * jb] = rec[2 + t];
    if (pv == 0 && *info == 0) *info = gc + 1;
    if (gp != gc) {
        if (own_diag)
            for (int64_t t = 0; t < w; t++) P[rstart + t * ldp] = rec[2 + t];
        if (owner(gp, nb, J->nprow) == J->myrow) {
            int64_t rp = g2l(gp, nb, J->nprow) - ii;
            for (int64_t t = 0; t < w; t++) P[rp + t * ldp] = rec[w + 3 + t];
        }
    }
    const int64_t r0 = rstart + own_diag, m1 = mp - r0;
    if (pv != 0 && m1 > 0) {
        cblas_dscal((int)m1, 1.0 / pv, P + r0 + c * ldp, 1);
        if (c + 1 < c1)
            cblas_dger(CblasColMajor, (int)m1, (int)(c1 - c - 1), -1.0, P + r0 + c * ldp, 1,
                       rec + 3 + c, 1, P + r0 + (c + 1) * ldp, (int)ldp);
    }
    return 0;
}

/* ---- step 1: panel factorization on the host ---- */

/* Factors the local part of panel k (this rank is in its process column).
 * On return hB holds info, the global pivot rows, the diagonal block and the
 * factored panel, which is also back on the device. MPI calls are made even
 * after a local failure so that the other ranks do not wait forever. */
static int factor_panel(hpl_job *J, int64_t k) {
    const int64_t nb = J->nb, j = k * nb, jb = HYLA_MIN(nb, J->n - j);
    const int64_t ii = lcount(j, nb, J->myrow, J->nprow), mp = J->mloc - ii;
    const int64_t jjp = g2l(j, nb, J->npcol);
    double *ipiv = J->hB + 1, *D = J->hB + 1 + nb, *P = J->hB + 1 + nb + nb * nb;
    int64_t ldp = HYLA_MAX(1, mp);
    int rc = down(J, J->qla, P, ldp, J->dA + ii + jjp * J->ld, J->ld, mp, jb);
    if (!rc) rc = J->ops->queue_sync(J->qla);
    int64_t info = 0;
    if (J->nprow == 1) {
        lapack_int *piv = (lapack_int *)J->rec; /* rec holds 2 nb + 3 doubles */
        lapack_int linfo = rc ? 0
                              : LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, (lapack_int)mp,
                                                    (lapack_int)jb, P, (lapack_int)ldp, piv);
        if (linfo < 0) rc = HYLA_ERR_INTERNAL;
        if (linfo > 0) info = j + linfo;
        for (int64_t c = 0; c < jb; c++) {
            ipiv[c] = (double)(j + (rc ? c : piv[c] - 1));
            for (int64_t t = 0; t < jb; t++) D[c + t * jb] = P[c + t * ldp];
        }
    } else {
        /* by column blocks of PANEL_BW: the pivot search, swap, scaling
         * and rank-1 update of each column within its block only, then the
         * block's U rows (TRSM on the replicated diagonal rows D) and one
         * GEMM on the local rows below for the rest of the panel */
        double *rec = J->rec;
        for (int64_t c0 = 0; c0 < jb; c0 += PANEL_BW) {
            const int64_t c1 = HYLA_MIN(jb, c0 + PANEL_BW);
            for (int64_t c = c0; c < c1; c++) {
                int mrc = pivot_column(J, k, c, c1, P, ldp, rec, ipiv, D, &info);
                if (!rc) rc = mrc;
            }
            if (rc || c1 == jb) continue;
            /* U12 := L11^-1 A12 on D (every rank holds the same rows) */
            cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit,
                        (int)(c1 - c0), (int)(jb - c1), 1.0, D + c0 + c0 * jb, (int)jb,
                        D + c0 + c1 * jb, (int)jb);
            const int64_t rs = lcount(j + c0, nb, J->myrow, J->nprow) - ii;
            const int64_t rb = lcount(j + c1, nb, J->myrow, J->nprow) - ii;
            /* the block's diagonal rows (on one process row) take U12 */
            for (int64_t r = rs; r < rb; r++)
                for (int64_t t = c1; t < jb; t++) P[r + t * ldp] = D[(c0 + r - rs) + t * jb];
            if (mp - rb > 0)
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)(mp - rb),
                            (int)(jb - c1), (int)(c1 - c0), -1.0, P + rb + c0 * ldp, (int)ldp,
                            D + c0 + c1 * jb, (int)jb, 1.0, P + rb + c1 * ldp, (int)ldp);
        }
    }
    J->hB[0] = (double)info;
    if (!rc) rc = up(J, J->qla, J->dA + ii + jjp * J->ld, J->ld, P, ldp, mp, jb);
    if (!rc) rc = J->ops->queue_sync(J->qla);
    return rc;
}

/* ---- step 3: row interchanges and the U block ---- */

static int64_t find_pos(const int64_t *pos, int64_t ns, int64_t row) {
    for (int64_t t = 0; t < ns; t++)
        if (pos[t] == row) return t;
    return -1;
}

/* Applies the pivots of panel k (in hB) to the trailing columns jj2 ..
 * nloc-1 and leaves the unsolved U block (jb x nt, ld jb) in hU. */
static int swap_rows(hpl_job *J, int64_t k, int64_t jj2, int rc) {
    const int64_t nb = J->nb, j = k * nb, jb = HYLA_MIN(nb, J->n - j), nt = J->nloc - jj2;
    const double *ipiv = J->hB + 1;
    int64_t *pos = J->spos, *orig = J->sorig, ns = 0;
    /* positions touched and, after the swaps, the old row each one holds */
    for (int64_t c = 0; c < jb; c++) {
        pos[ns] = orig[ns] = j + c;
        ns++;
    }
    for (int64_t c = 0; c < jb; c++) {
        int64_t gp = (int64_t)ipiv[c];
        if (find_pos(pos, ns, gp) < 0) {
            pos[ns] = orig[ns] = gp;
            ns++;
        }
    }
    for (int64_t c = 0; c < jb; c++) {
        int64_t a = find_pos(pos, ns, j + c), b = find_pos(pos, ns, (int64_t)ipiv[c]);
        int64_t t = orig[a];
        orig[a] = orig[b];
        orig[b] = t;
    }
    if (nt <= 0) return rc;
    /* send the old rows I own, in S order; they arrive grouped by process row */
    int64_t nsend = 0;
    for (int r = 0; r < J->nprow; r++) J->scount[r] = 0;
    for (int64_t t = 0; t < ns; t++) {
        int r = owner(pos[t], nb, J->nprow);
        J->scount[r] += nt;
        if (r != J->myrow) continue;
        int64_t lr = g2l(pos[t], nb, J->nprow);
        if (!rc)
            rc = J->ops->copy_2d(J->qla, J->hsend + nsend * nt, 8, J->dA + lr + jj2 * J->ld,
                                 (size_t)J->ld * 8, 8, (size_t)nt, HYLA_COPY_D2H);
        nsend++;
    }
    if (!rc) rc = J->ops->queue_sync(J->qla);
    int mrc = hpl_col_allgatherv(J->g, J->hsend, J->scount, J->hrecv);
    if (!rc) rc = mrc;
    if (rc) return rc;
    /* where the old row pos[t] landed in hrecv */
    int64_t *at = J->spos + 2 * nb; /* scratch: ns entries after pos */
    {
        int64_t *base = J->scount + J->nprow, off = 0;
        for (int r = 0; r < J->nprow; r++) {
            base[r] = off;
            off += J->scount[r] / nt;
        }
        for (int64_t t = 0; t < ns; t++) at[t] = base[owner(pos[t], nb, J->nprow)]++;
    }
    for (int64_t t = 0; t < ns; t++) {
        const double *src = J->hrecv + at[find_pos(pos, ns, orig[t])] * nt;
        if (pos[t] < j + jb) {
            double *u = J->hU + (pos[t] - j);
            for (int64_t c = 0; c < nt; c++) u[c * jb] = src[c];
        } else if (owner(pos[t], nb, J->nprow) == J->myrow && orig[t] != pos[t]) {
            int64_t lr = g2l(pos[t], nb, J->nprow);
            rc = J->ops->copy_2d(J->qla, J->dA + lr + jj2 * J->ld, (size_t)J->ld * 8, src, 8, 8,
                                 (size_t)nt, HYLA_COPY_H2D);
            if (rc) return rc;
        }
    }
    return J->ops->queue_sync(J->qla);
}

/* ---- the factorization ---- */

static int factorize(hpl_job *J, int depth) {
    const int64_t nb = J->nb, n = J->n, npan = HYLA_CEILDIV(n, nb);
    const double one = 1.0, mone = -1.0;
    int rc = 0;
    if (npan > 0 && J->mycol == 0) rc = factor_panel(J, 0);
    for (int64_t k = 0; k < npan; k++) {
        const int64_t j = k * nb, jb = HYLA_MIN(nb, n - j);
        const int pc = owner(j, nb, J->npcol), pr = owner(j, nb, J->nprow);
        const int64_t ii = lcount(j, nb, J->myrow, J->nprow), mp = J->mloc - ii;
        const int64_t ii2 = lcount(j + jb, nb, J->myrow, J->nprow), mp2 = J->mloc - ii2;
        const int64_t jjp = g2l(j, nb, J->npcol);
        const int64_t jj2 = lcount(j + jb, nb, J->mycol, J->npcol), nt = J->nloc - jj2;
        if (!rc) rc = J->ops->queue_sync(J->q);
        if (depth == 0 && k > 0 && J->mycol == pc) {
            int frc = factor_panel(J, k);
            if (!rc) rc = frc;
        }
        /* 2: the panel along the process row */
        int mrc = hpl_row_bcast(J->g, J->hB, 1 + nb + nb * nb + HYLA_MAX(1, mp) * jb, pc);
        if (!rc) rc = mrc;
        if (!rc && J->hB[0] > 0 && J->info == 0) J->info = (int64_t)J->hB[0];
        /* 3: swaps and U */
        int src = swap_rows(J, k, jj2, rc);
        if (!rc) rc = src;
        /* 4: TRSM, U back on pr, GEMM */
        const double *L = J->dA + ii2 + jjp * J->ld;
        int64_t ldl = J->ld;
        if (!rc && nt > 0) {
            const double *D = J->hB + 1 + nb, *P = J->hB + 1 + nb + nb * nb;
            rc = up(J, J->qla, J->dD, jb, D, jb, jb, jb);
            if (!rc) rc = up(J, J->qla, J->dU, jb, J->hU, jb, jb, nt);
            if (!rc && J->mycol != pc) {
                rc = up(J, J->qla, J->dL, J->ldl, P + (ii2 - ii), HYLA_MAX(1, mp), mp2, jb);
                L = J->dL;
                ldl = J->ldl;
            }
            if (!rc)
                rc = J->ops->trsm(J->qla, HYLA_D, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_UNIT, jb,
                                  nt, &one, J->dD, jb, J->dU, jb);
            if (!rc && J->myrow == pr)
                rc = J->ops->copy_2d(J->qla, J->dA + ii + jj2 * J->ld, (size_t)J->ld * 8, J->dU,
                                     (size_t)jb * 8, (size_t)jb * 8, (size_t)nt, HYLA_COPY_D2D);
            /* host buffers are reused next: wait for the uploads */
            if (!rc) rc = J->ops->queue_sync(J->qla);
        }
        const int la = depth > 0 && k + 1 < npan && J->mycol == owner(j + jb, nb, J->npcol);
        const int64_t jb1 = la ? HYLA_MIN(nb, n - (j + jb)) : 0;
        if (!rc && nt > 0 && mp2 > 0 && la)
            rc = J->ops->gemm(J->qla, HYLA_D, HYLA_NOTRANS, HYLA_NOTRANS, mp2, jb1, jb, &mone, L,
                              ldl, J->dU, jb, &one, J->dA + ii2 + jj2 * J->ld, J->ld);
        if (!rc && nt - jb1 > 0 && mp2 > 0)
            rc = J->ops->gemm(J->q, HYLA_D, HYLA_NOTRANS, HYLA_NOTRANS, mp2, nt - jb1, jb, &mone, L,
                              ldl, J->dU + jb1 * jb, jb, &one, J->dA + ii2 + (jj2 + jb1) * J->ld,
                              J->ld);
        if (la) {
            if (!rc) rc = J->ops->queue_sync(J->qla);
            int frc = factor_panel(J, k + 1);
            if (!rc) rc = frc;
        }
        /* one failed rank stops every rank at the same panel */
        int agree = rc;
        mrc = hpl_grid_allmin_int(J->g, &agree);
        if (!rc) rc = mrc ? mrc : agree;
        if (rc) break;
    }
    if (!rc) rc = J->ops->queue_sync(J->q);
    return rc;
}

/* ---- one process row: the panel, the swaps and U stay on the device ---- */

/* Factors panel k on the device (getrf op on the tall local panel, queue
 * qla, after the work already there), then brings its pivots, info and,
 * when other process columns need it, the panel to hB. Returns with the
 * transfers enqueued; the caller syncs qla before reading hB. */
static int factor_panel_dev(hpl_job *J, int64_t k) {
    const int64_t nb = J->nb, j = k * nb, jb = HYLA_MIN(nb, J->n - j), mp = J->mloc - j;
    const int64_t jjp = g2l(j, nb, J->npcol);
    double *P = J->dA + j + jjp * J->ld;
    int rc = J->ops->getrf(J->qla, HYLA_D, mp, jb, P, J->ld, J->dpiv, J->dinfo, J->lu_panel);
    /* hB: [info, ipiv, (D unused), panel]; ints land in rec first */
    if (!rc)
        rc = J->ops->copy_2d(J->qla, J->rec, 8, J->dpiv, 8, 8, (size_t)jb, HYLA_COPY_D2H);
    if (!rc)
        rc = J->ops->copy_2d(J->qla, J->rec + jb, sizeof(int), J->dinfo, sizeof(int), sizeof(int), 1,
                             HYLA_COPY_D2H);
    if (!rc && J->npcol > 1 && !J->xb)
        rc = down(J, J->qla, J->hB + 1 + nb + nb * nb, mp, P, J->ld, mp, jb);
    return rc;
}

/* hB's info and pivots from the raw transfers of factor_panel_dev. */
static void panel_dev_finish(hpl_job *J, int64_t k) {
    const int64_t j = k * J->nb, jb = HYLA_MIN(J->nb, J->n - j);
    const int64_t *piv = (const int64_t *)J->rec;
    int info;
    memcpy(&info, J->rec + jb, sizeof info);
    J->hB[0] = info > 0 ? (double)(j + info) : 0;
    for (int64_t c = 0; c < jb; c++) J->hB[1 + c] = (double)piv[c];
}

/* xb: panel k along the process row device to device. The owner packs it
 * (its rows k nb .. n, ld mp) into dS and sends it; every other rank
 * receives it into the receive buffer b, whose last update it waits for
 * (every rank takes part, even one without trailing columns), with the
 * pivots from hB, and points *L, *ldl and *dpiv there. Returns with the
 * panel in place on the receivers (qc synced). */
static int panel_xb(hpl_job *J, int64_t k, int b, const double **L, int64_t *ldl,
                    int64_t **dpiv) {
    const int64_t nb = J->nb, j = k * nb, jb = HYLA_MIN(nb, J->n - j), mp = J->mloc - j;
    const int pc = owner(j, nb, J->npcol);
    const size_t bytes = (size_t)mp * (size_t)jb * 8;
    if (J->mycol == pc) {
        int rc = J->ops->copy_2d(J->qc, J->dS, (size_t)mp * 8, *L, (size_t)J->ld * 8,
                                 (size_t)mp * 8, (size_t)jb, HYLA_COPY_D2D);
        return rc ? rc : hpl_row_bcast_dev(J->g, J->qc, J->dS, bytes, pc);
    }
    J->nrecv++;
    int64_t *piv = (int64_t *)J->rec;
    double *dL = b ? J->dL2 : J->dL;
    for (int64_t c = 0; c < jb; c++) piv[c] = (int64_t)J->hB[1 + c];
    *dpiv = J->dpivr + b * nb;
    int rc = J->ops->queue_wait_event(J->qc, J->ev_l[b]);
    if (!rc) rc = hpl_row_bcast_dev(J->g, J->qc, dL, bytes, pc);
    if (!rc) rc = J->ops->copy_2d(J->qc, *dpiv, 8, piv, 8, 8, (size_t)jb, HYLA_COPY_H2D);
    if (!rc) rc = J->ops->queue_sync(J->qc);
    *L = dL;
    *ldl = mp;
    return rc;
}

static int factorize_p1(hpl_job *J, int depth) {
    const int64_t nb = J->nb, n = J->n, npan = HYLA_CEILDIV(n, nb);
    const double one = 1.0, mone = -1.0;
    int rc = 0;
    if (npan > 0 && J->mycol == 0) {
        rc = factor_panel_dev(J, 0);
        if (!rc) rc = J->ops->queue_sync(J->qla);
        if (!rc) panel_dev_finish(J, 0);
    }
    for (int64_t k = 0; k < npan; k++) {
        const int64_t j = k * nb, jb = HYLA_MIN(nb, n - j), mp = J->mloc - j;
        const int pc = owner(j, nb, J->npcol);
        const int64_t jjp = g2l(j, nb, J->npcol);
        const int64_t jj2 = lcount(j + jb, nb, J->mycol, J->npcol), nt = J->nloc - jj2;
        if (depth == 0 && k > 0 && J->mycol == pc) {
            if (!rc) rc = J->ops->queue_sync(J->q);
            if (!rc) rc = factor_panel_dev(J, k);
            if (!rc) rc = J->ops->queue_sync(J->qla);
            if (!rc) panel_dev_finish(J, k);
        }
        /* the panel along the process row overlaps the last update; with
         * xb only info and the pivots go through MPI */
        int mrc = hpl_row_bcast(J->g, J->hB, 1 + nb + (J->xb ? 0 : nb * nb + mp * jb), pc);
        if (!rc) rc = mrc;
        if (!rc && J->hB[0] > 0 && J->info == 0) J->info = (int64_t)J->hB[0];
        const double *L = J->dA + j + jjp * J->ld;
        int64_t ldl = J->ld;
        int64_t *dpiv = J->dpiv;
        const int b = (int)(J->nrecv % 2);
        if (!rc && J->xb) {
            rc = panel_xb(J, k, b, &L, &ldl, &dpiv);
        } else if (!rc && J->mycol != pc && nt > 0) {
            J->nrecv++;
            /* into the buffer the update before last read: the upload
             * overlaps the last update, which is still running on q */
            int64_t *piv = (int64_t *)J->rec;
            double *dL = b ? J->dL2 : J->dL;
            dpiv = J->dpivr + b * nb;
            for (int64_t c = 0; c < jb; c++) piv[c] = (int64_t)J->hB[1 + c];
            rc = J->ops->queue_wait_event(J->qla, J->ev_l[b]);
            if (!rc) rc = up(J, J->qla, dL, J->ldl, J->hB + 1 + nb + nb * nb, mp, mp, jb);
            if (!rc) rc = J->ops->copy_2d(J->qla, dpiv, 8, piv, 8, 8, (size_t)jb, HYLA_COPY_H2D);
            if (!rc) rc = J->ops->queue_sync(J->qla);
            L = dL;
            ldl = J->ldl;
        }
        double *U = J->dA + j + jj2 * J->ld;
        if (!rc && nt > 0) rc = J->ops->laswp(J->q, HYLA_D, nt, U, J->ld, 1, jb, dpiv, 1);
        if (!rc && nt > 0)
            rc = J->ops->trsm(J->q, HYLA_D, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_UNIT, jb, nt,
                              &one, L, ldl, U, J->ld);
        const int la = depth > 0 && k + 1 < npan && J->mycol == owner(j + jb, nb, J->npcol);
        const int64_t jb1 = la ? HYLA_MIN(nb, n - (j + jb)) : 0, mp2 = mp - jb;
        if (!rc && la) {
            rc = J->ops->event_record(J->ev, J->q);
            if (!rc) rc = J->ops->queue_wait_event(J->qla, J->ev);
            if (!rc && mp2 > 0)
                rc = J->ops->gemm(J->qla, HYLA_D, HYLA_NOTRANS, HYLA_NOTRANS, mp2, jb1, jb, &mone,
                                  L + jb, ldl, U, J->ld, &one, U + jb, J->ld);
        }
        if (!rc && nt - jb1 > 0 && mp2 > 0)
            rc = J->ops->gemm(J->q, HYLA_D, HYLA_NOTRANS, HYLA_NOTRANS, mp2, nt - jb1, jb, &mone,
                              L + jb, ldl, U + jb1 * J->ld, J->ld, &one, U + jb + jb1 * J->ld,
                              J->ld);
        if (!rc && J->mycol != pc && nt > 0) rc = J->ops->event_record(J->ev_l[b], J->q);
        if (!rc && la) {
            rc = factor_panel_dev(J, k + 1);
            if (!rc) rc = J->ops->queue_sync(J->qla);
            if (!rc) panel_dev_finish(J, k + 1);
        }
        int agree = rc;
        mrc = hpl_grid_allmin_int(J->g, &agree);
        if (!rc) rc = mrc ? mrc : agree;
        if (rc) break;
    }
    int src = J->ops->queue_sync(J->q);
    if (!rc) rc = src;
    src = J->ops->queue_sync(J->qla);
    return rc ? rc : src;
}

/* ---- one rank: the library's device LU on [A b] ---- */

static int factorize_one(hyla_t *ctx, int dev, hpl_job *J, int64_t *ipiv) {
    int64_t nb_saved = 0;
    int rc = hyla_get_option(ctx, HYLA_OPT_GETRF_NB, &nb_saved);
    if (!rc) rc = hyla_set_option(ctx, HYLA_OPT_GETRF_NB, J->nb);
    if (rc) return HYLA_ERR_INVALID;
    rc = hyla_dgetrf_gpu(ctx, dev, J->n, J->n + 1, J->dA, J->ld, ipiv);
    hyla_set_option(ctx, HYLA_OPT_GETRF_NB, nb_saved);
    if (rc > 0) {
        J->info = rc;
        rc = 0;
    }
    return rc < 0 && rc > -100 ? HYLA_ERR_INTERNAL : rc;
}

/* ---- the solve U x = y ---- */

static int solve(hpl_job *J, double *x, double *d) {
    const int64_t nb = J->nb, n = J->n, npan = HYLA_CEILDIV(n, nb);
    const double one = 1.0, zero = 0.0;
    int rc = 0;
    memset(x, 0, (size_t)n * sizeof *x);
    /* y: the last column, summed into a replicated vector */
    if (J->mycol == owner(n, nb, J->npcol) && J->mloc > 0) {
        rc = down(J, J->qla, d, J->mloc, J->dA + g2l(n, nb, J->npcol) * J->ld, J->ld, J->mloc, 1);
        if (!rc) rc = J->ops->queue_sync(J->qla);
        for (int64_t il = 0; !rc && il < J->mloc; il++) x[l2g(il, nb, J->myrow, J->nprow)] = d[il];
    }
    int mrc = hpl_grid_allsum(J->g, x, n);
    if (!rc) rc = mrc;
    for (int64_t k = npan - 1; k >= 0 && !rc; k--) {
        const int64_t j = k * nb, jb = HYLA_MIN(nb, n - j);
        const int pc = owner(j, nb, J->npcol), pr = owner(j, nb, J->nprow);
        const int64_t ii = lcount(j, nb, J->myrow, J->nprow), jjp = g2l(j, nb, J->npcol);
        if (J->myrow == pr && J->mycol == pc) {
            double *U = d; /* jb x jb */
            rc = down(J, J->qla, U, jb, J->dA + ii + jjp * J->ld, J->ld, jb, jb);
            if (!rc) rc = J->ops->queue_sync(J->qla);
            if (!rc)
                cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, (int)jb, U,
                            (int)jb, x + j, 1);
        }
        mrc = hpl_grid_bcast(J->g, x + j, jb, pr, pc);
        if (!rc) rc = mrc;
        if (j == 0) break;
        memset(d, 0, (size_t)j * sizeof *d);
        if (!rc && J->mycol == pc && ii > 0) {
            /* w = U(rows above j, block k) x_k, on the device */
            rc = up(J, J->qla, J->dX, jb, x + j, jb, jb, 1);
            if (!rc)
                rc = J->ops->gemm(J->qla, HYLA_D, HYLA_NOTRANS, HYLA_NOTRANS, ii, 1, jb, &one,
                                  J->dA + jjp * J->ld, J->ld, J->dX, jb, &zero, J->dW, ii);
            if (!rc) rc = down(J, J->qla, d + j, ii, J->dW, ii, ii, 1);
            if (!rc) rc = J->ops->queue_sync(J->qla);
            /* scatter in place: local rows il < ii all have global index < j */
            for (int64_t il = ii - 1; !rc && il >= 0; il--) {
                double v = d[j + il];
                d[j + il] = 0;
                d[l2g(il, nb, J->myrow, J->nprow)] = v;
            }
        }
        mrc = hpl_grid_allsum(J->g, d, j);
        if (!rc) rc = mrc;
        for (int64_t i = 0; i < j; i++) x[i] -= d[i];
        int agree = rc;
        mrc = hpl_grid_allmin_int(J->g, &agree);
        if (!rc) rc = mrc ? mrc : agree;
    }
    return rc;
}

/* ---- the residual check on the regenerated [A b] ---- */

static int check(hpl_job *J, const double *x, hyla_hpl_result *res) {
    const int64_t n = J->n, nb = J->nb, mloc = J->mloc, nloc = J->nloc;
    int rc = 0;
    /* global vectors: r = b - A x, row sums of |A|, b */
    double *v = hyla_calloc((size_t)(3 * n + 1), sizeof *v);
    const int64_t slab = HYLA_MAX(1, HYLA_MIN(nloc, ((int64_t)1 << 25) / HYLA_MAX(mloc, 1)));
    const int64_t m1 = HYLA_MAX(mloc, 1);
    /* one slab of columns, x of its columns, and per local row: -A x, |A| sums, b */
    double *A = hyla_malloc((size_t)(m1 * slab + slab + 3 * m1) * 8);
    if (!v || !A) rc = HYLA_ERR_NO_MEMORY;
    int agree = rc, mrc = hpl_grid_allmin_int(J->g, &agree);
    rc = mrc ? mrc : agree;
    if (rc) goto cleanup;
    double *xs = A + m1 * slab, *rl = xs + slab, *al = rl + m1, *bl = al + m1;
    memset(rl, 0, (size_t)(3 * m1) * 8);
    for (int64_t c0 = 0; c0 < nloc && mloc > 0; c0 += slab) {
        int64_t nc = HYLA_MIN(slab, nloc - c0), na = 0;
        hyla_hpl_matgen(n, n + 1, nb, J->myrow, J->mycol, J->nprow, J->npcol, HYLA_HPL_SEED, c0,
                        nc, A, mloc);
        for (int64_t c = 0; c < nc; c++) {
            int64_t gj = l2g(c0 + c, nb, J->mycol, J->npcol);
            if (gj < n) {
                xs[c] = x[gj];
                na = c + 1;
            } else {
                memcpy(bl, A + c * mloc, (size_t)mloc * sizeof *bl);
            }
        }
        /* the b column is the last global column, so the A columns come first */
        if (na > 0) {
            cblas_dgemv(CblasColMajor, CblasNoTrans, (int)mloc, (int)na, -1.0, A, (int)mloc, xs, 1,
                        1.0, rl, 1);
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < mloc; i++) {
                double s = 0;
                for (int64_t c = 0; c < na; c++) s += fabs(A[i + c * mloc]);
                al[i] += s;
            }
        }
    }
    for (int64_t i = 0; i < mloc; i++) {
        int64_t gi = l2g(i, nb, J->myrow, J->nprow);
        v[gi] = rl[i] + bl[i];
        v[n + gi] = al[i];
        v[2 * n + gi] = bl[i];
    }
    rc = hpl_grid_allsum(J->g, v, 3 * n);
    if (rc) goto cleanup;
    double rn = 0, an = 0, xn = 0, bn = 0;
    for (int64_t i = 0; i < n; i++) {
        rn = HYLA_MAX(rn, fabs(v[i]));
        an = HYLA_MAX(an, v[n + i]);
        bn = HYLA_MAX(bn, fabs(v[2 * n + i]));
        xn = HYLA_MAX(xn, fabs(x[i]));
    }
    const double eps = DBL_EPSILON / 2; /* HPL's eps: the relative machine precision */
    res->rnorm = rn;
    res->anorm = an;
    res->xnorm = xn;
    res->bnorm = bn;
    res->resid = n > 0 ? rn / (eps * (an * xn + bn) * (double)n) : 0;
    res->checked = 1;
cleanup:
    hyla_free(v);
    hyla_free(A);
    return rc;
}

/* ---- setup: workspace and the generated matrix on the device ---- */

static int job_alloc(hpl_job *J, int host_panel) {
    const int64_t nb = J->nb;
    /* the grid code needs U, L and D blocks on the device and the swap
     * buffers on the host; one process row on the device only L (received) */
    const int grid = host_panel || J->nprow > 1;
    const int64_t nl = HYLA_MAX(J->nloc, 1);
    size_t dbytes[6] = {(size_t)J->ld * (size_t)nl * 8,
                        grid ? (size_t)nb * (size_t)nl * 8 : 0,
                        grid || J->npcol > 1 ? (size_t)J->ldl * (size_t)nb * 8 : 0,
                        grid ? (size_t)nb * (size_t)nb * 8 : 0, (size_t)nb * 8,
                        (size_t)HYLA_MAX(J->mloc, 1) * 8};
    double **dptr[6] = {&J->dA, &J->dU, &J->dL, &J->dD, &J->dX, &J->dW};
    for (int i = 0; i < 6; i++) {
        if (!dbytes[i]) continue;
        int rc = J->ops->mem_alloc(J->dev, HYLA_MEM_DEVICE, dbytes[i], (void **)dptr[i]);
        if (rc) return rc;
    }
    int64_t rows = grid ? 2 * nb * nl : 1;
    const int64_t panel = grid || J->npcol > 1 ? HYLA_MAX(J->mloc, 1) * nb : 0;
    int prc = J->ops->mem_alloc(J->dev, HYLA_MEM_PINNED, (size_t)(1 + nb + nb * nb + panel) * 8,
                                (void **)&J->hB);
    if (prc) return prc;
    J->hsend = hyla_malloc((size_t)rows * 8);
    J->hrecv = hyla_malloc((size_t)rows * 8);
    J->hU = hyla_malloc((size_t)(grid ? nb * nl : 1) * 8);
    J->rec = hyla_malloc((size_t)(2 * nb + 3) * 8);
    J->spos = hyla_malloc((size_t)(6 * nb) * sizeof(int64_t));
    J->sorig = hyla_malloc((size_t)(2 * nb) * sizeof(int64_t));
    J->scount = hyla_malloc((size_t)J->nprow * 2 * sizeof(int64_t)); /* counts, bases */
    if (!J->hsend || !J->hrecv || !J->hU || !J->rec || !J->spos || !J->sorig ||
        !J->scount)
        return HYLA_ERR_NO_MEMORY;
    int rc = J->ops->mem_alloc(J->dev, HYLA_MEM_DEVICE, (size_t)nb * 8, (void **)&J->dpiv);
    if (!rc) rc = J->ops->mem_alloc(J->dev, HYLA_MEM_DEVICE, sizeof(int), (void **)&J->dinfo);
    if (!rc) rc = J->ops->queue_create(J->dev, &J->q);
    if (!rc) rc = J->ops->queue_create_prio(J->dev, 1, &J->qla);
    if (!rc) rc = J->ops->event_create(J->dev, 0, &J->ev);
    if (!rc && J->nprow == 1 && J->npcol > 1) {
        rc = J->ops->mem_alloc(J->dev, HYLA_MEM_DEVICE, (size_t)J->ldl * (size_t)nb * 8,
                               (void **)&J->dL2);
        if (!rc)
            rc = J->ops->mem_alloc(J->dev, HYLA_MEM_DEVICE, (size_t)nb * 16, (void **)&J->dpivr);
    }
    for (int b = 0; b < 2 && !rc; b++) rc = J->ops->event_create(J->dev, 0, &J->ev_l[b]);
    /* the first waits on them find them recorded */
    for (int b = 0; b < 2 && !rc; b++) rc = J->ops->event_record(J->ev_l[b], J->q);
    return rc;
}

static void job_free(hpl_job *J) {
    /* work still queued (after a failure) may record the events */
    if (J->q) J->ops->queue_sync(J->q);
    if (J->qla) J->ops->queue_sync(J->qla);
    if (J->qc) J->ops->queue_sync(J->qc);
    if (J->qc) J->ops->queue_destroy(J->qc);
    if (J->dS) J->ops->mem_free(J->dev, HYLA_MEM_DEVICE, J->dS);
    if (J->ev) J->ops->event_destroy(J->ev);
    for (int b = 0; b < 2; b++)
        if (J->ev_l[b]) J->ops->event_destroy(J->ev_l[b]);
    if (J->dL2) J->ops->mem_free(J->dev, HYLA_MEM_DEVICE, J->dL2);
    if (J->dpivr) J->ops->mem_free(J->dev, HYLA_MEM_DEVICE, J->dpivr);
    if (J->dpiv) J->ops->mem_free(J->dev, HYLA_MEM_DEVICE, J->dpiv);
    if (J->dinfo) J->ops->mem_free(J->dev, HYLA_MEM_DEVICE, J->dinfo);
    if (J->q) J->ops->queue_destroy(J->q);
    if (J->qla) J->ops->queue_destroy(J->qla);
    double *dptr[6] = {J->dA, J->dU, J->dL, J->dD, J->dX, J->dW};
    for (int i = 0; i < 6; i++)
        if (dptr[i]) J->ops->mem_free(J->dev, HYLA_MEM_DEVICE, dptr[i]);
    if (J->hB) J->ops->mem_free(J->dev, HYLA_MEM_PINNED, J->hB);
    hyla_free(J->hsend);
    hyla_free(J->hrecv);
    hyla_free(J->hU);
    hyla_free(J->rec);
    hyla_free(J->spos);
    hyla_free(J->sorig);
    hyla_free(J->scount);
}

/* Generates the local [A b] by column slabs on the host and uploads it. */
static int generate(hpl_job *J) {
    if (J->mloc == 0 || J->nloc == 0) return 0;
    int64_t slab = HYLA_MAX(1, HYLA_MIN(J->nloc, (int64_t)(1 << 25) / J->mloc));
    double *buf = hyla_malloc((size_t)(J->mloc * slab) * 8);
    if (!buf) return HYLA_ERR_NO_MEMORY;
    int rc = 0;
    for (int64_t c0 = 0; c0 < J->nloc && !rc; c0 += slab) {
        int64_t nc = HYLA_MIN(slab, J->nloc - c0);
        hyla_hpl_matgen(J->n, J->n + 1, J->nb, J->myrow, J->mycol, J->nprow, J->npcol,
                        HYLA_HPL_SEED, c0, nc, buf, J->mloc);
        rc = up(J, J->q, J->dA + c0 * J->ld, J->ld, buf, J->mloc, J->mloc, nc);
        if (!rc) rc = J->ops->queue_sync(J->q);
    }
    hyla_free(buf);
    return rc;
}

int hyla_hpl_run(hyla_t *ctx, int dev, const hyla_hpl_params *p, hyla_hpl_result *res,
                 double *x) {
    if (!res) return -4;
    memset(res, 0, sizeof *res);
    if (!ctx || dev < 0 || dev >= ctx->ndev) return -2;
    if (!p || p->n < 0 || p->nb < 1 || p->nprow < 1 || p->npcol < 1 || p->depth < 0 ||
        p->n > ((int64_t)1 << 31) - 2 || p->bcast < HYLA_HPL_BCAST_AUTO ||
        p->bcast > HYLA_HPL_BCAST_DEVICE)
        return -3;
    hpl_job J = {.dev = ctx->devs[dev], .ops = ctx->devs[dev]->ops, .lu_panel = ctx->opt_lu_panel,
                 .n = p->n, .nb = p->nb};
    double *xv = NULL, *d = NULL;
    int64_t *ipiv = NULL;
    int in_grid = 0;
    int rc = hpl_grid_create(p->nprow, p->npcol, p->pmap, &J.g, &in_grid);
    if (rc) return rc;
    res->in_grid = in_grid;
    if (!in_grid) goto cleanup;
    hpl_grid_coords(J.g, &J.myrow, &J.mycol, &res->grid_rank);
    J.nprow = p->nprow;
    J.npcol = p->npcol;
    J.nb = HYLA_MAX(1, HYLA_MIN(p->nb, HYLA_MAX(p->n, 1)));
    J.mloc = hyla_hpl_numroc(J.n, J.nb, J.myrow, J.nprow);
    J.nloc = hyla_hpl_numroc(J.n + 1, J.nb, J.mycol, J.npcol);
    J.ld = HYLA_MAX(1, J.mloc);
    J.ldl = J.ld;
    rc = job_alloc(&J, p->algo == HYLA_HPL_HOST_PANEL);
    if (!rc) {
        xv = hyla_malloc((size_t)HYLA_MAX(J.n, 1) * sizeof *xv);
        d = hyla_malloc((size_t)HYLA_MAX(HYLA_MAX(2 * J.n, J.nb * J.nb), 1) * sizeof *d);
        ipiv = hyla_malloc((size_t)HYLA_MAX(J.n, 1) * sizeof *ipiv);
        if (!xv || !d || !ipiv) rc = HYLA_ERR_NO_MEMORY;
    }
    if (!rc) rc = generate(&J);
    int agree = rc, mrc = hpl_grid_allmin_int(J.g, &agree);
    rc = mrc ? mrc : agree;
    if (rc) goto cleanup;
    if (J.nprow == 1 && J.npcol > 1 && p->algo != HYLA_HPL_HOST_PANEL) {
        rc = hpl_row_dev_init(J.g, J.dev, p->bcast, &J.xb);
        if (rc) goto cleanup;
        if (J.xb) {
            rc = J.ops->mem_alloc(J.dev, HYLA_MEM_DEVICE, (size_t)J.ldl * (size_t)J.nb * 8,
                                  (void **)&J.dS);
            if (!rc) rc = J.ops->queue_create_prio(J.dev, 1, &J.qc);
            agree = rc;
            mrc = hpl_grid_allmin_int(J.g, &agree);
            rc = mrc ? mrc : agree;
            if (rc) goto cleanup;
        }
    }
    res->bcast_device = J.xb;

    mrc = hpl_grid_barrier(J.g);
    if (mrc) {
        rc = mrc;
        goto cleanup;
    }
    double t0 = hyla_wtime();
    if (J.nprow * J.npcol == 1 && p->algo == HYLA_HPL_GETRF)
        rc = factorize_one(ctx, dev, &J, ipiv);
    else if (J.nprow == 1 && p->algo != HYLA_HPL_HOST_PANEL)
        rc = factorize_p1(&J, p->depth);
    else
        rc = factorize(&J, p->depth);
    res->info = J.info;
    if (!rc && J.info == 0) rc = solve(&J, xv, d);
    double t = hyla_wtime() - t0;
    mrc = hpl_grid_allmax(J.g, &t, 1);
    if (!rc) rc = mrc;
    if (rc) goto cleanup;
    res->time_s = t;
    double nn = (double)J.n;
    res->gflops = t > 0 ? (2.0 / 3.0 * nn * nn * nn + 1.5 * nn * nn) / t / 1e9 : 0;
    if (J.info == 0) {
        if (x) memcpy(x, xv, (size_t)J.n * sizeof *x);
        if (p->threshold > 0) {
            rc = check(&J, xv, res);
            res->passed = !rc && res->resid < p->threshold;
        }
    }
cleanup:
    job_free(&J);
    hyla_free(xv);
    hyla_free(d);
    hyla_free(ipiv);
    hpl_grid_destroy(&J.g);
    return rc;
}
