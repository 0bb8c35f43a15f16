/* The generalized symmetric / Hermitian-definite eigenproblem (hyla.h,
 * hyla_?sygvd / ?hegvd): A x = lambda B x (itype 1), A B x = lambda x (2),
 * B A x = lambda x (3) with B positive definite.
 *
 *   1. B and A go to device 0 in lower storage, their triangles read alone
 *      and scanned for NaN and Inf there (hyla_xfer_upload_lower), and B is
 *      factored there, B = L L^H (uplo U: U^H U, L = U^H) by
 *      hyla_?potrf_gpu; the factor's triangle comes down into B as LAPACK
 *      leaves it while step 2 runs. Where device 0's memory is the host's
 *      (the host backend), A and B are scanned on the host and B is
 *      factored in place by hyla_?potrf and copied.
 *   2. A is reduced there to C = L^-1 A L^-H (itype 1) or C = L^H A L (2, 3) by
 *      the blocked two-sided algorithm of LAPACK's sygst: per block column
 *      of width nb, the diagonal block by two triangular solves (products)
 *      on its full Hermitian copy (the backend's herm_blocks op), the panel
 *      and the trailing (itype 1) or leading (2, 3) matrix by TRSM / TRMM,
 *      HEMM and HER2K: 1/3 n^3 (1) flops as LAPACK's, no solve on the whole.
 *   3. hyla_?syevd_gpu on C (device 0); where a host-resident hyla_?syevd
 *      of order n takes every device of the context (hyla_eig_all_devices:
 *      on several GPUs with vectors from n = 16384), C goes down into A
 *      and that solver runs on every device, its eigenvectors up again.
 *   4. jobz V: the eigenvectors X = L^-H Z (itype 1, 2) or L Z (3) by one
 *      TRSM or TRMM on the device, downloaded into A.
 * Every step runs on device 0 of the context (a GPU, or
 * the host backend's device, whose memory is the host's).
 *
 * A part of the spectrum (hyla_?sygvdx / ?hegvdx): steps 1 and 2 as above,
 * the wanted pairs of C where it is, on device 0 (hyla_?syevdx's path:
 * bisection, inverse iteration or divide and conquer with the wanted
 * columns, the back transformations on their m columns only; where a
 * host-resident hyla_?syevdx would take every device, C comes down and
 * goes that way), and step 4 applies to those m columns. */
#include "core/internal.h"
#include "core/xfer.h"
#include "eig/gv.h"
#include "eig/mgpu.h"
#include "eig/psy2sb.h"
#include "eig/pvectors.h"

#include <limits.h>
#include <string.h>

/* The block width of the reduction: 256, narrower below n = 768 (at least
 * three blocks from n = 48 on, so that small orders take the blocked path
 * too). */
static int64_t gv_nb(int64_t n) { return HYLA_MIN((int64_t)256, HYLA_MAX((int64_t)16, n / 3)); }

/* itype 1's deferred solves (reduce) by groups of this many columns: about
 * a quarter of n in whole blocks, from two blocks to eight (so that every
 * order from a few blocks on has several groups of several blocks), at
 * most n; the workspace S holds a group's square. */
static int64_t gv_group(int64_t n) {
    const int64_t nb = gv_nb(n), q = HYLA_CEILDIV(HYLA_CEILDIV(n, 4), nb) * nb;
    return HYLA_MIN(n, HYLA_MAX(2 * nb, HYLA_MIN(8 * nb, q)));
}

/* -1, -1/2, 1/2 or 1 (v) in dtype t, or in its real type (real) */
static const void *gv_scalar(hyla_dtype t, double v, int real) {
    static const float s[4] = {-1, -0.5f, 0.5f, 1};
    static const double d[4] = {-1, -0.5, 0.5, 1};
    static const float c[4][2] = {{-1, 0}, {-0.5f, 0}, {0.5f, 0}, {1, 0}};
    static const double z[4][2] = {{-1, 0}, {-0.5, 0}, {0.5, 0}, {1, 0}};
    const int i = v == -1.0 ? 0 : v == -0.5 ? 1 : v == 0.5 ? 2 : 3;
    if (t == HYLA_S || (real && t == HYLA_C)) return &s[i];
    if (t == HYLA_D || (real && t == HYLA_Z)) return &d[i];
    return t == HYLA_C ? (const void *)c[i] : (const void *)z[i];
}

/* hyla_?potrf on the host matrix B (uplo) of dtype t */
static int gv_potrf_host(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, void *B, int64_t ldb) {
    switch (t) {
    case HYLA_S: return hyla_spotrf(ctx, uplo, n, B, ldb);
    case HYLA_D: return hyla_dpotrf(ctx, uplo, n, B, ldb);
    case HYLA_C: return hyla_cpotrf(ctx, uplo, n, B, ldb);
    case HYLA_Z: return hyla_zpotrf(ctx, uplo, n, B, ldb);
    }
    return HYLA_ERR_INVALID;
}

/* hyla_?potrf_gpu (lower) on device 0 of dtype t */
static int gv_potrf(hyla_t *ctx, hyla_dtype t, int64_t n, void *dB, int64_t lddb) {
    switch (t) {
    case HYLA_S: return hyla_spotrf_gpu(ctx, 0, 'L', n, dB, lddb);
    case HYLA_D: return hyla_dpotrf_gpu(ctx, 0, 'L', n, dB, lddb);
    case HYLA_C: return hyla_cpotrf_gpu(ctx, 0, 'L', n, dB, lddb);
    case HYLA_Z: return hyla_zpotrf_gpu(ctx, 0, 'L', n, dB, lddb);
    }
    return HYLA_ERR_INVALID;
}

/* hyla_?syevd of dtype t on the host matrix A (lower storage) */
static int gv_syevd_host(hyla_t *ctx, hyla_dtype t, char jobz, int64_t n, void *A, int64_t lda,
                         void *w) {
    switch (t) {
    case HYLA_S: return hyla_ssyevd(ctx, jobz, 'L', n, A, lda, w);
    case HYLA_D: return hyla_dsyevd(ctx, jobz, 'L', n, A, lda, w);
    case HYLA_C: return hyla_cheevd(ctx, jobz, 'L', n, A, lda, w);
    case HYLA_Z: return hyla_zheevd(ctx, jobz, 'L', n, A, lda, w);
    }
    return HYLA_ERR_INVALID;
}

static int gv_syevd_dev(hyla_t *ctx, hyla_dtype t, char jobz, int64_t n, void *dA, int64_t ld,
                        void *w) {
    switch (t) {
    case HYLA_S: return hyla_ssyevd_gpu(ctx, 0, jobz, 'L', n, dA, ld, w);
    case HYLA_D: return hyla_dsyevd_gpu(ctx, 0, jobz, 'L', n, dA, ld, w);
    case HYLA_C: return hyla_cheevd_gpu(ctx, 0, jobz, 'L', n, dA, ld, w);
    case HYLA_Z: return hyla_zheevd_gpu(ctx, 0, jobz, 'L', n, dA, ld, w);
    }
    return HYLA_ERR_INVALID;
}

static hyla_op gv_herm(hyla_dtype t) {
    return t == HYLA_C || t == HYLA_Z ? HYLA_CONJTRANS : HYLA_TRANS;
}

/* One triangle of an n x n host matrix as the conjugate transpose of the
 * other's: to_lower, Y(i, j) = conj(X(j, i)) for i >= j (X's upper into Y's
 * lower); else Y(j, i) = conj(X(i, j)) for i >= j (X's lower into Y's
 * upper). By blocks on the team; Y's other triangle is not written. */
static void ctrans_tri(hyla_dtype t, int to_lower, int64_t n, const char *X, int64_t ldx, char *Y,
                       int64_t ldy) {
    const size_t es = hyla_dtype_size(t);
    const int cplx = t == HYLA_C || t == HYLA_Z;
    enum { TB = 64 };
    const int64_t nbk = HYLA_CEILDIV(n, TB);
#pragma omp parallel for schedule(dynamic) if (n >= 256)
    for (int64_t bj = 0; bj < nbk; bj++)
        for (int64_t bi = bj; bi < nbk; bi++)
            for (int64_t j = bj * TB; j < HYLA_MIN(n, (bj + 1) * TB); j++)
                for (int64_t i = HYLA_MAX(j, bi * TB); i < HYLA_MIN(n, (bi + 1) * TB); i++) {
                    const int64_t si = to_lower ? j : i, sj = to_lower ? i : j;
                    char *dst = Y + ((size_t)(to_lower ? i : j) +
                                     (size_t)(to_lower ? j : i) * (size_t)ldy) * es;
                    memcpy(dst, X + ((size_t)si + (size_t)sj * (size_t)ldx) * es, es);
                    if (cplx) {
                        if (t == HYLA_C) ((float *)dst)[1] = -((float *)dst)[1];
                        else ((double *)dst)[1] = -((double *)dst)[1];
                    }
                }
}

/* B's factor in dL (device 0, ld n, its lower triangle) down into the
 * host B's triangle uplo as LAPACK leaves it: L itself, or U = L^H through
 * the host buffer T (n x n); B's other triangle is not written. On the
 * device's input queue, so that work queued on its compute queue runs
 * meanwhile. */
static int download_factor(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, char *dL, char *B,
                           int64_t ldb, char *T) {
    if (uplo == 'L') return hyla_xfer_triangle(ctx, 0, t, 0, 1, n, B, ldb, dL, n);
    int rc = hyla_xfer_triangle(ctx, 0, t, 0, 1, n, T, n, dL, n);
    if (!rc) ctrans_tri(t, 0, n, T, n, B, ldb);
    return rc;
}

/* itype 1's last step of every block column k of width kb, deferred:
 * A(k+kb:n, k) := L(k+kb:n, k+kb:n)^-1 A(k+kb:n, k) (LAPACK's sygst does it
 * at once, a TRSM of kb columns by the whole trailing triangle, which the
 * devices run at a fraction of their GEMM rate). Nothing later reads
 * A(k+kb:n, k), so the solves wait to the end, by groups of G columns
 * [c0, c1): the rows above c1 of each block column of the group by its own
 * small TRSM; those solved parts copied into W (G x G, zero elsewhere:
 * the group's diagonal blocks and upper part stay out); the rows below c1
 * of the group updated by one GEMM, A(c1:n, c0:c1) -= L(c1:n, c0:c1) W,
 * and solved by one TRSM of G columns, L(c1:n, c1:n)^-1 A(c1:n, c0:c1).
 * The same n^3 / 3 flops as the immediate solves. Queued on q. */
static int deferred_solves(hyla_queue *q, const hyla_backend_ops *o, hyla_dtype t, int64_t n,
                           int64_t nb, char *dA, char *dL, int64_t ld, char *W) {
    const size_t es = hyla_dtype_size(t);
    const void *one = gv_scalar(t, 1, 0), *mone = gv_scalar(t, -1, 0);
    const void *zero = hyla_scalar(t, HYLA_SC_ZERO);
    const int64_t G = gv_group(n);
#define AT(M, i, j) ((M) + ((size_t)(i) + (size_t)(j) * (size_t)ld) * es)
    int rc = 0;
    for (int64_t c0 = 0; c0 < n && !rc; c0 += G) {
        const int64_t c1 = HYLA_MIN(n, c0 + G), g = c1 - c0, below = n - c1;
        if (below > 0) rc = o->laset(q, t, -1, g, g, zero, zero, W, G);
        for (int64_t k = c0; k < c1 && !rc; k += nb) {
            const int64_t kb = HYLA_MIN(nb, c1 - k), top = c1 - k - kb;
            if (top > 0)
                rc = o->trsm(q, t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_NONUNIT, top, kb, one,
                             AT(dL, k + kb, k + kb), ld, AT(dA, k + kb, k), ld);
            if (!rc && top > 0 && below > 0)
                rc = o->copy_2d(q, W + ((size_t)(k + kb - c0) + (size_t)(k - c0) * (size_t)G) * es,
                                (size_t)G * es, AT(dA, k + kb, k), (size_t)ld * es,
                                (size_t)top * es, (size_t)kb, HYLA_COPY_D2D);
        }
        if (!rc && below > 0)
            rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, below, g, g, mone, AT(dL, c1, c0), ld, W,
                         G, one, AT(dA, c1, c0), ld);
        if (!rc && below > 0)
            rc = o->trsm(q, t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_NONUNIT, below, g, one,
                         AT(dL, c1, c1), ld, AT(dA, c1, c0), ld);
    }
#undef AT
    return rc;
}

/* Where the reduction runs and how: device memory of q's device; S
 * (gv_group(n)^2 elements) and, for the trailing HER2K as GEMMs, U (n x
 * 3 nb, NULL: never) of workspace; the GEMM form from order umin on by
 * blocks of ub columns; parts: NULL, or the seconds of each kind of step,
 * each then waited for. */
typedef struct {
    hyla_queue *q;
    const hyla_backend_ops *o;
    char *S, *U;
    int64_t umin, ub;
    hyla_gv_parts *parts;
} gv_run;

/* A step's end: with parts, waited for and its seconds since t0 added to
 * *acc. Returns rc, or the wait's failure. */
static int step_end(const gv_run *r, int rc, double t0, double *acc) {
    if (rc || !r->parts) return rc;
    rc = r->o->queue_sync(r->q);
    *acc += hyla_wtime() - t0;
    return rc;
}

/* itype 1's trailing update A22 -= A21 L21^H + L21 A21^H (r x r, lower),
 * by one HER2K or, from order r->umin on, by hyla_eig_her2k_blocks on [L21
 * A21 L21] copied into U. */
static int trailing_her2k(const gv_run *r, hyla_dtype t, int64_t m, int64_t kb, const char *A21,
                          const char *L21, char *A22, int64_t ld) {
    const hyla_backend_ops *o = r->o;
    const void *mone = gv_scalar(t, -1, 0), *rone = gv_scalar(t, 1, 1);
    if (!r->U || m < r->umin)
        return o->syr2k(r->q, t, 1, HYLA_LOWER, HYLA_NOTRANS, m, kb, mone, A21, ld, L21, ld, rone,
                        A22, ld);
    const size_t es = hyla_dtype_size(t);
    const int64_t ldu = m; /* U packed to the trailing order */
    int rc = 0;
    for (int c = 0; c < 3 && !rc; c++)
        rc = o->copy_2d(r->q, r->U + (size_t)(c * kb) * (size_t)ldu * es, (size_t)ldu * es,
                        c == 1 ? A21 : L21, (size_t)ld * es, (size_t)m * es, (size_t)kb,
                        HYLA_COPY_D2D);
    const int64_t b = m >= 2 * r->ub ? r->ub : HYLA_MAX(kb, (m + 3) / 4);
    return rc ? rc : hyla_eig_her2k_blocks(o, r->q, t, m, kb, b, mone, r->U, ldu, A22, ld);
}

/* C = L^-1 A L^-H (itype 1) or L^H A L (2, 3) in the lower triangle of dA,
 * L the lower triangle of dL (both ld ld), as r says. Queued on r->q, not
 * waited for (with r->parts: every step waited for). */
static int reduce(const gv_run *r, hyla_dtype t, int itype, int64_t n, char *dA, char *dL,
                  int64_t ld) {
    const hyla_backend_ops *o = r->o;
    hyla_queue *q = r->q;
    char *S = r->S;
    hyla_gv_parts none, *pt = r->parts ? r->parts : &none;
    const size_t es = hyla_dtype_size(t);
    const hyla_op h = gv_herm(t);
    const void *one = gv_scalar(t, 1, 0), *rone = gv_scalar(t, 1, 1);
    const void *mhalf = gv_scalar(t, -0.5, 0), *half = gv_scalar(t, 0.5, 0);
#define AT(M, i, j) ((M) + ((size_t)(i) + (size_t)(j) * (size_t)ld) * es)
    int rc = 0;
    double t0;
    const int64_t nb = gv_nb(n);
    for (int64_t k = 0; k < n && !rc; k += nb) {
        const int64_t kb = HYLA_MIN(nb, n - k), m = n - k - kb;
        char *A11 = AT(dA, k, k), *L11 = AT(dL, k, k);
        t0 = hyla_wtime();
        if (itype != 1 && k > 0) {
            /* the leading k x k block and the row block A10 = A(k:k+kb, 0:k) */
            char *A10 = AT(dA, k, 0), *L10 = AT(dL, k, 0);
            rc = o->trmm(q, t, HYLA_RIGHT, HYLA_LOWER, HYLA_NOTRANS, HYLA_NONUNIT, kb, k, one, dL,
                         ld, A10, ld);
            if (!rc)
                rc = o->symm(q, t, 1, HYLA_LEFT, HYLA_LOWER, kb, k, half, A11, ld, L10, ld, one,
                             A10, ld);
            if (!rc)
                rc = o->syr2k(q, t, 1, HYLA_LOWER, h, k, kb, one, A10, ld, L10, ld, rone, dA, ld);
            if (!rc)
                rc = o->symm(q, t, 1, HYLA_LEFT, HYLA_LOWER, kb, k, half, A11, ld, L10, ld, one,
                             A10, ld);
            if (!rc)
                rc = o->trmm(q, t, HYLA_LEFT, HYLA_LOWER, h, HYLA_NONUNIT, kb, k, one, L11, ld, A10,
                             ld);
            rc = step_end(r, rc, t0, &pt->panel);
            t0 = hyla_wtime();
        }
        /* the diagonal block on its full Hermitian copy S (ld kb) */
        if (!rc) rc = o->herm_blocks(q, t, kb, kb, A11, ld, S);
        if (!rc && itype == 1) {
            rc = o->trsm(q, t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_NONUNIT, kb, kb, one, L11,
                         ld, S, kb);
            if (!rc)
                rc = o->trsm(q, t, HYLA_RIGHT, HYLA_LOWER, h, HYLA_NONUNIT, kb, kb, one, L11, ld, S,
                             kb);
        } else if (!rc) {
            rc = o->trmm(q, t, HYLA_LEFT, HYLA_LOWER, h, HYLA_NONUNIT, kb, kb, one, L11, ld, S, kb);
            if (!rc)
                rc = o->trmm(q, t, HYLA_RIGHT, HYLA_LOWER, HYLA_NOTRANS, HYLA_NONUNIT, kb, kb, one,
                             L11, ld, S, kb);
        }
        if (!rc)
            rc = o->copy_2d(q, A11, (size_t)ld * es, S, (size_t)kb * es, (size_t)kb * es,
                            (size_t)kb, HYLA_COPY_D2D);
        rc = step_end(r, rc, t0, &pt->diag);
        if (!rc && itype == 1 && m > 0) {
            /* the panel A21 and the trailing A22 */
            char *A21 = AT(dA, k + kb, k), *L21 = AT(dL, k + kb, k);
            t0 = hyla_wtime();
            rc = o->trsm(q, t, HYLA_RIGHT, HYLA_LOWER, h, HYLA_NONUNIT, m, kb, one, L11, ld, A21,
                         ld);
            if (!rc)
                rc = o->symm(q, t, 1, HYLA_RIGHT, HYLA_LOWER, m, kb, mhalf, A11, ld, L21, ld, one,
                             A21, ld);
            rc = step_end(r, rc, t0, &pt->panel);
            t0 = hyla_wtime();
            if (!rc) rc = trailing_her2k(r, t, m, kb, A21, L21, AT(dA, k + kb, k + kb), ld);
            rc = step_end(r, rc, t0, &pt->her2k);
            t0 = hyla_wtime();
            if (!rc)
                rc = o->symm(q, t, 1, HYLA_RIGHT, HYLA_LOWER, m, kb, mhalf, A11, ld, L21, ld, one,
                             A21, ld);
            rc = step_end(r, rc, t0, &pt->panel);
            /* A21 := L22^-1 A21: deferred_solves */
        }
    }
#undef AT
    t0 = hyla_wtime();
    if (!rc && itype == 1) rc = deferred_solves(q, o, t, n, nb, dA, dL, ld, S);
    return step_end(r, rc, t0, &pt->solves);
}

/* The workspace of reduce on device d for order n and the choice her2k
 * (hyla_eig_gv_reduce_dev's): *S, and *U where the GEMM form may run (NULL
 * otherwise); *umin, *ub its smallest order and block. */
static int reduce_ws(hyla_dev *d, hyla_dtype t, int itype, int64_t n, int her2k, char **S,
                     char **U, int64_t *umin, int64_t *ub) {
    const hyla_tuning *tu = hyla_tuning_for(d);
    const size_t es = hyla_dtype_size(t), sb = (size_t)gv_group(n);
    *umin = her2k == 1 ? 0 : tu->her2k_gemm_min;
    *ub = tu->her2k_gemm_block;
    *U = NULL;
    int rc = d->ops->mem_alloc(d, HYLA_MEM_DEVICE, sb * sb * es, (void **)S);
    if (!rc && itype == 1 && her2k != 0 && n - 1 >= *umin)
        rc = d->ops->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)n * (size_t)(3 * gv_nb(n)) * es,
                               (void **)U);
    return rc;
}

int hyla_eig_gv_reduce_dev(hyla_t *ctx, hyla_dtype t, int itype, int64_t n, void *dA, void *dL,
                           int64_t ld, int her2k, hyla_gv_parts *parts) {
    hyla_dev *d = ctx->devs[0];
    hyla_dev_workspace *ws;
    gv_run r = {.o = d->ops, .parts = parts};
    if (parts) memset(parts, 0, sizeof *parts);
    int rc = hyla_workspace_get(ctx, 0, 0, 0, &ws);
    if (!rc) rc = reduce_ws(d, t, itype, n, her2k, &r.S, &r.U, &r.umin, &r.ub);
    if (!rc) {
        r.q = ws->q_comp;
        rc = reduce(&r, t, itype, n, dA, dL, ld);
        const int rs = d->ops->queue_sync(r.q);
        if (!rc) rc = rs;
    }
    if (r.S) d->ops->mem_free(d, HYLA_MEM_DEVICE, r.S);
    if (r.U) d->ops->mem_free(d, HYLA_MEM_DEVICE, r.U);
    return rc;
}

/* The generalized problem's state on device 0 between the steps. */
typedef struct {
    hyla_dev *d;
    const hyla_backend_ops *o;
    hyla_queue *q;
    char *dA, *dL, *S, *U, *T;
    int64_t umin, ub; /* reduce's GEMM form of the trailing HER2K (gv_run) */
    double t0, potrf, reduce, back; /* the call's start (hyla_wtime), the steps' seconds */
} gv_dev;

static void gv_release(gv_dev *g) {
    if (g->dA) g->o->mem_free(g->d, HYLA_MEM_DEVICE, g->dA);
    if (g->dL) g->o->mem_free(g->d, HYLA_MEM_DEVICE, g->dL);
    if (g->S) g->o->mem_free(g->d, HYLA_MEM_DEVICE, g->S);
    if (g->U) g->o->mem_free(g->d, HYLA_MEM_DEVICE, g->U);
    hyla_free(g->T);
    memset(g, 0, sizeof *g);
}

/* The steps' times into the context's statistics, after the standard
 * solve set its own (a failed call leaves what it reached). */
static void gv_stats(hyla_t *ctx, const gv_dev *g) {
    hyla_eig_stats *s = &ctx->eig_stats;
    s->gv_potrf = g->potrf;
    s->gv_reduce = g->reduce;
    s->gv_back = g->back;
    s->total = hyla_wtime() - g->t0;
}

/* Steps 1 and 2 (A and B checked for NaN / Inf first): B and A up to
 * device 0 in lower storage (dL, dA: n x n, ld n), B = L L^H by potrf there
 * and its factor down into B as LAPACK leaves it (L, or U = L^H), while A
 * is reduced there to C in the lower triangle of dA. Returns 0, n + k (B's
 * minor k not positive definite: B holds the partial factor, nothing is
 * left on the device), HYLA_ERR_NAN or an error; on any non-zero return g
 * holds nothing. */
static int gv_reduce(hyla_t *ctx, hyla_dtype t, int itype, char uplo, int64_t n, void *A,
                     int64_t lda, void *B, int64_t ldb, gv_dev *g) {
    memset(g, 0, sizeof *g);
    memset(&ctx->eig_stats, 0, sizeof ctx->eig_stats);
    const double t0 = hyla_wtime();
    /* where device 0's memory is the host's (mem_host), B is factored in
     * place by hyla_?potrf (the host cores' direct path) and then copied
     * (host backend cpu:1, 2 cores, dsygvd V n = 1000, three alternating
     * runs: 0.30-0.34 s in place against 0.32-0.42 s with the factorization
     * on the copy), A and B scanned for NaN and Inf on the host first; on
     * a GPU both go up first, the triangles read alone, scanned there as
     * they came up (hyla_xfer_upload_lower), so that nothing is written
     * before both passed */
    const int in_place = ctx->devs[0]->ops->mem_host, lower = uplo == 'L';
    if (in_place && (hyla_nonfinite(t, lower ? 0 : 1, 0, n, n, A, lda) ||
                     hyla_nonfinite(t, lower ? 0 : 1, 0, n, n, B, ldb)))
        return HYLA_ERR_NAN;
    g->d = ctx->devs[0];
    g->o = g->d->ops;
    const size_t es = hyla_dtype_size(t), nn = (size_t)n * (size_t)n;
    hyla_dev_workspace *ws;
    double potrf = 0, up_a = 0;
    int rc = hyla_workspace_get(ctx, 0, 0, 0, &ws);
    if (rc) goto out;
    g->q = ws->q_comp;
    const int her2k = ctx->opt_eig_s1_update == 2 ? 1 : ctx->opt_eig_s1_update == 1 ? 0 : -1;
    if ((rc = reduce_ws(g->d, t, itype, n, her2k, &g->S, &g->U, &g->umin, &g->ub)))
        goto out;
    if (!lower && !in_place && !(g->T = hyla_malloc(nn * es))) {
        rc = HYLA_ERR_NO_MEMORY;
        goto out;
    }
    /* 1. B = L L^H (uplo U: U^H U, L = U^H) on device 0 */
    if (in_place) {
        rc = gv_potrf_host(ctx, t, uplo, n, B, ldb);
        if (!rc) rc = hyla_xfer_upload_lower(ctx, 0, t, lower, n, B, ldb, 0, (void **)&g->dL);
        potrf = hyla_wtime() - t0;
        if (!rc) rc = hyla_xfer_upload_lower(ctx, 0, t, lower, n, A, lda, 0, (void **)&g->dA);
    } else {
        rc = hyla_xfer_upload_lower(ctx, 0, t, lower, n, B, ldb, 1, (void **)&g->dL);
        const double ta = hyla_wtime();
        if (!rc) rc = hyla_xfer_upload_lower(ctx, 0, t, lower, n, A, lda, 1, (void **)&g->dA);
        up_a = hyla_wtime() - ta;
        if (!rc) rc = gv_potrf(ctx, t, n, g->dL, n);
        potrf = hyla_wtime() - t0 - up_a;
    }
    if (rc > 0) { /* LAPACK: the leading minor rc of B; B its partial factor */
        const int r = in_place ? 0 : download_factor(ctx, t, uplo, n, g->dL, B, ldb, g->T);
        rc = r ? r : (int)(n + rc);
        goto out;
    }
    if (rc) goto out;
    /* 2. A reduced, the factor going down meanwhile */
    const gv_run run = {.q = g->q, .o = g->o, .S = g->S, .U = g->U, .umin = g->umin,
                        .ub = g->ub};
    rc = reduce(&run, t, itype, n, g->dA, g->dL, n);
    const int rd = in_place ? 0 : download_factor(ctx, t, uplo, n, g->dL, B, ldb, g->T);
    const int rs = g->o->queue_sync(g->q);
    if (!rc) rc = rd ? rd : rs;
out:
    if (rc) {
        if (g->q) g->o->queue_sync(g->q);
        gv_release(g);
        return rc;
    }
    g->t0 = t0;
    g->potrf = potrf;
    g->reduce = hyla_wtime() - t0 - potrf;
    return 0;
}

/* Step 4's products on columns c0 .. c0 + nc - 1 of dZ (ld n), queued:
 * L^-H Z (itype 1, 2) or L Z (3). */
typedef struct {
    const gv_dev *g;
    hyla_dtype t;
    int itype;
    int64_t n;
    char *dZ;
} gv_back_arg;

static int gv_back_cols(void *arg, hyla_queue *q, int64_t c0, int64_t nc) {
    const gv_back_arg *a = arg;
    const void *one = gv_scalar(a->t, 1, 0);
    char *Zc = a->dZ + (size_t)c0 * (size_t)a->n * hyla_dtype_size(a->t);
    return a->itype == 3 ? a->g->o->trmm(q, a->t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS,
                                         HYLA_NONUNIT, a->n, nc, one, a->g->dL, a->n, Zc, a->n)
                         : a->g->o->trsm(q, a->t, HYLA_LEFT, HYLA_LOWER, gv_herm(a->t),
                                         HYLA_NONUNIT, a->n, nc, one, a->g->dL, a->n, Zc, a->n);
}

/* Step 4 on the device: the k columns of dZ (ld n) := L^-H Z (itype 1, 2)
 * or L Z (3), by blocks of columns each downloaded into Z (ldz, host) while
 * the next is computed. */
static int gv_vectors(hyla_t *ctx, gv_dev *g, hyla_dtype t, int itype, int64_t n, int64_t k,
                      char *dZ, void *Z, int64_t ldz) {
    enum { BACK_COLS = 2048 };
    const double t0 = hyla_wtime();
    gv_back_arg a = {.g = g, .t = t, .itype = itype, .n = n, .dZ = dZ};
    double tp;
    const int rc = hyla_xfer_download_behind(ctx, 0, t, n, k, BACK_COLS, Z, ldz, dZ, n, g->q,
                                             gv_back_cols, &a, &tp);
    g->back += hyla_wtime() - t0;
    return rc;
}

static int gvd(hyla_t *ctx, hyla_dtype t, int itype, char jobz, char uplo, int64_t n, void *A,
               int64_t lda, void *B, int64_t ldb, void *w) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    jobz = (char)(jobz == 'v' ? 'V' : jobz == 'n' ? 'N' : jobz);
    uplo = (char)(uplo == 'l' ? 'L' : uplo == 'u' ? 'U' : uplo);
    if (itype < 1 || itype > 3) return -1;
    if (jobz != 'N' && jobz != 'V') return -2;
    if (uplo != 'L' && uplo != 'U') return -3;
    if (n < 0) return -4;
    if (n > 0 && !A) return -5;
    if (lda < HYLA_MAX(1, n) || !hyla_size_ok(n, n, lda)) return -6;
    if (n > 0 && !B) return -7;
    if (ldb < HYLA_MAX(1, n) || !hyla_size_ok(n, n, ldb)) return -8;
    if (n > 0 && !w) return -9;
    if (n == 0) return 0;
    gv_dev g;
    int rc = gv_reduce(ctx, t, itype, uplo, n, A, lda, B, ldb, &g);
    if (rc) return rc;
    const size_t es = hyla_dtype_size(t);
    if (hyla_eig_all_devices(ctx, jobz == 'V', n)) {
        /* 3. the standard problem on every device: C down into A (jobz
         * V; jobz N into a host copy: A is not written then), its device
         * copy freed for the solver's room, the multi-device solver there,
         * its eigenvectors up again for step 4 */
        void *C = A;
        int64_t ldc = lda;
        if (jobz == 'N') {
            ldc = n;
            if (!(C = hyla_malloc((size_t)n * (size_t)n * es))) rc = HYLA_ERR_NO_MEMORY;
        }
        if (!rc) rc = hyla_xfer_matrix(ctx, 0, t, 0, n, n, C, ldc, g.dA, n);
        g.o->mem_free(g.d, HYLA_MEM_DEVICE, g.dA);
        g.dA = NULL;
        if (!rc) rc = gv_syevd_host(ctx, t, jobz, n, C, ldc, w);
        if (C != A) hyla_free(C);
        if (!rc && jobz == 'V' &&
            !(rc = g.o->mem_alloc(g.d, HYLA_MEM_DEVICE, (size_t)n * (size_t)n * es,
                                  (void **)&g.dA)))
            rc = hyla_xfer_matrix(ctx, 0, t, 1, n, n, A, lda, g.dA, n);
    } else {
        /* 3. the standard problem on device 0 */
        rc = gv_syevd_dev(ctx, t, jobz, n, g.dA, n, w);
    }
    /* 4. X = L^-H Z (itype 1, 2) or L Z (3), into A */
    if (!rc && jobz == 'V') rc = gv_vectors(ctx, &g, t, itype, n, n, g.dA, A, lda);
    gv_stats(ctx, &g);
    gv_release(&g);
    return rc;
}

static int gv_syevdx(hyla_t *ctx, hyla_dtype t, char jobz, char range, int64_t n, void *C,
                     double vl, double vu, int64_t il, int64_t iu, int64_t *m, void *w, void *Z,
                     int64_t ldz) {
    switch (t) {
    case HYLA_S:
        return hyla_ssyevdx(ctx, jobz, range, 'L', n, C, n, (float)vl, (float)vu, il, iu, m, w, Z,
                            ldz);
    case HYLA_D: return hyla_dsyevdx(ctx, jobz, range, 'L', n, C, n, vl, vu, il, iu, m, w, Z, ldz);
    case HYLA_C:
        return hyla_cheevdx(ctx, jobz, range, 'L', n, C, n, (float)vl, (float)vu, il, iu, m, w, Z,
                            ldz);
    case HYLA_Z: return hyla_zheevdx(ctx, jobz, range, 'L', n, C, n, vl, vu, il, iu, m, w, Z, ldz);
    }
    return HYLA_ERR_INVALID;
}

static int gvdx(hyla_t *ctx, hyla_dtype t, int itype, char jobz, char range, char uplo,
                int64_t n, void *A, int64_t lda, void *B, int64_t ldb, double vl, double vu,
                int64_t il, int64_t iu, int64_t *m, void *w, void *Z, int64_t ldz) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    jobz = (char)(jobz == 'v' ? 'V' : jobz == 'n' ? 'N' : jobz);
    range = (char)(range == 'a' ? 'A' : range == 'v' ? 'V' : range == 'i' ? 'I' : range);
    uplo = (char)(uplo == 'l' ? 'L' : uplo == 'u' ? 'U' : uplo);
    const int vec = jobz == 'V';
    if (itype < 1 || itype > 3) return -1;
    if (jobz != 'N' && jobz != 'V') return -2;
    if (range != 'A' && range != 'V' && range != 'I') return -3;
    if (uplo != 'L' && uplo != 'U') return -4;
    if (n < 0) return -5;
    if (n > 0 && !A) return -6;
    if (lda < HYLA_MAX(1, n) || !hyla_size_ok(n, n, lda)) return -7;
    if (n > 0 && !B) return -8;
    if (ldb < HYLA_MAX(1, n) || !hyla_size_ok(n, n, ldb)) return -9;
    const int bad = hyla_eig_subset_args(range, vec, n, vl, vu, il, iu, m, w, Z, ldz);
    if (bad) return -(10 + bad);
    *m = 0;
    if (n == 0) return 0;
    if (n > INT_MAX) return HYLA_ERR_UNSUPPORTED; /* as hyla_?syevdx's */
    gv_dev g;
    int rc = gv_reduce(ctx, t, itype, uplo, n, A, lda, B, ldb, &g);
    if (rc) return rc;
    const size_t es = hyla_dtype_size(t), nn = (size_t)n * (size_t)n;
    char *C = NULL, *dZ = NULL;
    int64_t mm = 0;
    const hyla_eig_part part = {.range = range, .vl = vl, .vu = vu, .il = il, .iu = iu,
                                .m = &mm, .Z = vec ? Z : NULL, .ldz = ldz};
    if (!hyla_eig_part_all_devices(ctx, vec, n, &part)) {
        /* 3. the wanted pairs of C where it is, on device 0 (its vectors
         * into Z) */
        rc = hyla_eig_part_run_dev(ctx, 0, t, n, g.dA, n, w, &part);
        if (rc) goto out;
    } else {
        /* 3. C down (lower storage), the device's copy freed for the room
         * of the solver on every device, the wanted pairs of C there */
        if (!(C = hyla_malloc(nn * es))) {
            rc = HYLA_ERR_NO_MEMORY;
            goto out;
        }
        double tt = hyla_wtime();
        if ((rc = hyla_xfer_matrix(ctx, 0, t, 0, n, n, C, n, g.dA, n))) goto out;
        g.reduce += hyla_wtime() - tt;
        g.o->mem_free(g.d, HYLA_MEM_DEVICE, g.dA);
        g.dA = NULL;
        rc = gv_syevdx(ctx, t, jobz, range, n, C, vl, vu, il, iu, &mm, w, Z, ldz);
        if (rc) goto out;
    }
    /* 4. the mm columns of Z through L */
    if (vec && mm > 0) {
        const double tt = hyla_wtime();
        if ((rc = g.o->mem_alloc(g.d, HYLA_MEM_DEVICE, (size_t)n * (size_t)mm * es, (void **)&dZ)) ||
            (rc = hyla_xfer_matrix(ctx, 0, t, 1, n, mm, Z, ldz, dZ, n)))
            goto out;
        g.back += hyla_wtime() - tt;
        if ((rc = gv_vectors(ctx, &g, t, itype, n, mm, dZ, Z, ldz))) goto out;
    }
    *m = mm;
out:
    if (dZ) g.o->mem_free(g.d, HYLA_MEM_DEVICE, dZ);
    hyla_free(C);
    gv_stats(ctx, &g);
    gv_release(&g);
    return rc;
}

int hyla_ssygvd(hyla_t *ctx, int itype, char jobz, char uplo, int64_t n, float *A, int64_t lda,
                float *B, int64_t ldb, float *w) {
    return gvd(ctx, HYLA_S, itype, jobz, uplo, n, A, lda, B, ldb, w);
}
int hyla_dsygvd(hyla_t *ctx, int itype, char jobz, char uplo, int64_t n, double *A, int64_t lda,
                double *B, int64_t ldb, double *w) {
    return gvd(ctx, HYLA_D, itype, jobz, uplo, n, A, lda, B, ldb, w);
}
int hyla_chegvd(hyla_t *ctx, int itype, char jobz, char uplo, int64_t n, hyla_complex_float *A,
                int64_t lda, hyla_complex_float *B, int64_t ldb, float *w) {
    return gvd(ctx, HYLA_C, itype, jobz, uplo, n, A, lda, B, ldb, w);
}
int hyla_zhegvd(hyla_t *ctx, int itype, char jobz, char uplo, int64_t n, hyla_complex_double *A,
                int64_t lda, hyla_complex_double *B, int64_t ldb, double *w) {
    return gvd(ctx, HYLA_Z, itype, jobz, uplo, n, A, lda, B, ldb, w);
}

int hyla_ssygvdx(hyla_t *ctx, int itype, char jobz, char range, char uplo, int64_t n, float *A,
                 int64_t lda, float *B, int64_t ldb, float vl, float vu, int64_t il, int64_t iu,
                 int64_t *m, float *w, float *Z, int64_t ldz) {
    return gvdx(ctx, HYLA_S, itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z,
                ldz);
}
int hyla_dsygvdx(hyla_t *ctx, int itype, char jobz, char range, char uplo, int64_t n, double *A,
                 int64_t lda, double *B, int64_t ldb, double vl, double vu, int64_t il, int64_t iu,
                 int64_t *m, double *w, double *Z, int64_t ldz) {
    return gvdx(ctx, HYLA_D, itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z,
                ldz);
}
int hyla_chegvdx(hyla_t *ctx, int itype, char jobz, char range, char uplo, int64_t n,
                 hyla_complex_float *A, int64_t lda, hyla_complex_float *B, int64_t ldb, float vl,
                 float vu, int64_t il, int64_t iu, int64_t *m, float *w, hyla_complex_float *Z,
                 int64_t ldz) {
    return gvdx(ctx, HYLA_C, itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z,
                ldz);
}
int hyla_zhegvdx(hyla_t *ctx, int itype, char jobz, char range, char uplo, int64_t n,
                 hyla_complex_double *A, int64_t lda, hyla_complex_double *B, int64_t ldb,
                 double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                 hyla_complex_double *Z, int64_t ldz) {
    return gvdx(ctx, HYLA_Z, itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z,
                ldz);
}
