/* Stage 1 of the two-stage eigensolver: dense Hermitian -> band (sy2sb /
 * he2hb) on one device, with the panel QR on the host, and its back
 * transformation. The public wrappers are in t_sy2sb.c.
 *
 * Panel p covers columns j0 = p kd .. j0 + kd - 1. Its rows below the band,
 * A[r0:n, j0:j0+kd] with r0 = j0 + kd, are downloaded and factored on the
 * host (LAPACK geqrt3, recursive, T included): A[r0:, panel] = Q_p R,
 * Q_p = I - V T V^H.
 * R and the kd x kd block above it are the panel's band columns. The
 * trailing matrix A22 = A[r0:, r0:] then becomes Q_p^H A22 Q_p, written as a
 * rank-2k update (the two-sided form of LAPACK sytrd / MAGMA's sy2sb):
 *     X = A22 V T,   W = X - 1/2 V (T^H (V^H X)),   A22 := A22 - V W^H - W V^H.
 * The update is delayed over a block of nb / kd panels (as LAPACK latrd does
 * for the tridiagonal reduction): panel p's columns first receive the
 * pending updates of the block's earlier panels (two GEMMs and a HER2K), and
 * its X is corrected for them,
 *     A22_true V = A22 V - Vacc (Wacc^H V) - Wacc (Vacc^H V),
 * so the trailing HER2K runs once per block with k = nb.
 *
 * Queues: q_comp runs X, W and the trailing HER2K; q_aux (high priority)
 * updates the next panel's columns as soon as the last W of a block exists,
 * downloads the panel and uploads V and T. So the host QR of the next panel
 * runs while the trailing HER2K of the block runs on the device (lookahead).
 * Only the lower triangle of A is referenced. */
/* Finite data only (NaN/Inf are refused first): complex products need no
 * C99 Annex G recovery. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("cx-limited-range")
#endif
#include "eig/psy2sb.h"
#include "backend/ops/ops.h"
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <string.h>


/* ---------------------------------------------------------------- helpers */

static hyla_op ctrans(hyla_dtype t) {
    return hyla_dtype_is_complex(t) ? HYLA_CONJTRANS : HYLA_TRANS;
}

/* address of element (i, j) of a column-major matrix of element size es */
static void *el(const void *p, int64_t i, int64_t j, int64_t ld, size_t es) {
    return (unsigned char *)p + (size_t)(i + j * ld) * es;
}

/* writes the value 0 or 1 into one element of type t */
static void put01(hyla_dtype t, void *p, int one) {
    switch (t) {
    case HYLA_S: *(float *)p = (float)one; break;
    case HYLA_D: *(double *)p = (double)one; break;
    case HYLA_C: ((float *)p)[0] = (float)one, ((float *)p)[1] = 0.0f; break;
    case HYLA_Z: ((double *)p)[0] = (double)one, ((double *)p)[1] = 0.0; break;
    }
}

static int lapack_rc(lapack_int info) {
    if (info == 0) return 0;
    return info == LAPACK_WORK_MEMORY_ERROR || info == LAPACK_TRANSPOSE_MEMORY_ERROR
               ? HYLA_ERR_NO_MEMORY
               : HYLA_ERR_INTERNAL;
}

/* T (k x k upper, ld ldt) of the forward, columnwise block reflector. */
static int host_larft(hyla_dtype t, int64_t m, int64_t k, const void *v, int64_t ldv,
                      const void *tau, void *T, int64_t ldt) {
    lapack_int M = (lapack_int)m, K = (lapack_int)k, LV = (lapack_int)ldv, LT = (lapack_int)ldt;
    switch (t) {
    case HYLA_S: return lapack_rc(LAPACKE_slarft_work(LAPACK_COL_MAJOR, 'F', 'C', M, K, v, LV, tau, T, LT));
    case HYLA_D: return lapack_rc(LAPACKE_dlarft_work(LAPACK_COL_MAJOR, 'F', 'C', M, K, v, LV, tau, T, LT));
    case HYLA_C: return lapack_rc(LAPACKE_clarft_work(LAPACK_COL_MAJOR, 'F', 'C', M, K, v, LV, tau, T, LT));
    case HYLA_Z: return lapack_rc(LAPACKE_zlarft_work(LAPACK_COL_MAJOR, 'F', 'C', M, K, v, LV, tau, T, LT));
    }
    return HYLA_ERR_INVALID;
}

/* V (m x k, ld ldv) explicit from the geqrf output a: unit diagonal, zeros
 * above, the stored vectors below. */
static void explicit_v(hyla_dtype t, size_t es, int64_t m, int64_t k, const void *a, int64_t lda,
                       void *v, int64_t ldv) {
    for (int64_t j = 0; j < k; j++) {
        for (int64_t i = 0; i < j && i < m; i++) put01(t, el(v, i, j, ldv, es), 0);
        if (j < m) put01(t, el(v, j, j, ldv, es), 1);
        if (m > j + 1)
            memcpy(el(v, j + 1, j, ldv, es), el(a, j + 1, j, lda, es), (size_t)(m - j - 1) * es);
    }
}

int64_t hyla_eig_sy2sb_npanels(int64_t n, int64_t kd) {
    /* panel p exists while it has at least two rows below the band */
    return n - kd - 1 > 0 ? HYLA_CEILDIV(n - kd - 1, kd) : 0;
}

void hyla_eig_sy2sb_sizes(const hyla_t *ctx, int dev, hyla_dtype t, int64_t *kd, int64_t *nb) {
    hyla_eig_sy2sb_sizes_jobz(ctx, dev, t, 1, kd, nb);
}

void hyla_eig_sy2sb_sizes_jobz(const hyla_t *ctx, int dev, hyla_dtype t, int vec, int64_t *kd,
                               int64_t *nb) {
    const hyla_tuning *tu = hyla_tuning_for(ctx->devs[dev]);
    /* the eigenvalues-only pair goes together: a kd set by the caller
     * takes the general nb */
    const int values = !vec && ctx->opt_eig_kd <= 0 && tu->eig_kd_values[t] > 0;
    int64_t k = ctx->opt_eig_kd > 0 ? ctx->opt_eig_kd
                : values             ? tu->eig_kd_values[t]
                                     : tu->eig_kd[t];
    int64_t b = ctx->opt_eig_nb > 0                  ? ctx->opt_eig_nb
                : values && tu->eig_nb_values[t] > 0 ? tu->eig_nb_values[t]
                                                     : tu->eig_nb[t];
    if (k < 1) k = 1;
    b = HYLA_MAX(k, b / k * k);
    *kd = k;
    *nb = b;
}

void hyla_eig_sy2sb_q_free(hyla_t *ctx, hyla_sy2sb_q **q) {
    if (!q || !*q) return;
    hyla_dev *d = ctx->devs[(*q)->dev];
    d->ops->mem_free(d, HYLA_MEM_DEVICE, (*q)->dV);
    d->ops->mem_free(d, HYLA_MEM_DEVICE, (*q)->dT);
    hyla_free(*q);
    *q = NULL;
}

/* A store for order n and half-bandwidth kd; dV zeroed on queue qz (which
 * the caller's later uploads follow or wait for). */
static int q_alloc(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, hyla_queue *qz,
                   hyla_sy2sb_q **out) {
    hyla_dev *d = ctx->devs[dev];
    size_t es = hyla_dtype_size(t);
    hyla_sy2sb_q *q = hyla_calloc(1, sizeof *q);
    if (!q) return HYLA_ERR_NO_MEMORY;
    q->t = t, q->dev = dev, q->n = n, q->kd = kd, q->ldv = HYLA_MAX(1, n);
    q->npanels = hyla_eig_sy2sb_npanels(n, kd);
    const int64_t bnb = ctx->opt_eig_back1_nb > 0 ? ctx->opt_eig_back1_nb
                                                    : hyla_tuning_for(d)->eig_back_nb;
    q->group = HYLA_MAX(1, bnb / kd);
    int rc = 0;
    if (q->npanels > 0) {
        rc = d->ops->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * n) * es, &q->dV);
        if (!rc) rc = d->ops->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(kd * n) * es, &q->dT);
        if (!rc)
            rc = d->ops->laset(qz, t, -1, n, n, hyla_scalar(t, HYLA_SC_ZERO),
                               hyla_scalar(t, HYLA_SC_ZERO), q->dV, q->ldv);
    }
    if (rc) hyla_eig_sy2sb_q_free(ctx, &q);
    *out = q;
    return rc;
}

/* ---------------------------------------------------------------- stage 1 */

typedef struct {
    hyla_t *ctx;
    hyla_dev *d;
    const hyla_backend_ops *o;
    hyla_queue *qc, *qa;
    hyla_dtype t;
    size_t es;
    int64_t n, kd, nb, P;
    void *dA;
    int64_t lda;
    hyla_sy2sb_q *q;             /* the store, kept for Q1 (NULL with a ring) */
    void *dV, *dT;               /* V (ld ldv) and T (kd x n) of the panels */
    int64_t ldv, vring;          /* vring 0: V of the panel at column j0 is store
                                  * column j0; else column j0 % vring of a ring */
    void *dW, *dS;               /* Wacc (n x nb, ld n), small products (ld nb) */
    int64_t ldw, lds;
    void *dU;                    /* GEMM-form update: [V | Wacc | V] (n x 3 nb, ld
                                  * n), Wacc its middle block; NULL: HER2K */
    int upd_all;                 /* the GEMM form at every order (forced) */
    int64_t upd_min, upd_block;  /* its smallest order by default, its block columns */
    int64_t cq_panels;           /* panels factored by CholeskyQR2 */
    double t_wait, t_host;       /* seconds the host waited for a panel's results
                                  * from the device, and spent on its own part of
                                  * the panels (hyla_eig_stats.sy2sb_wait, _host) */
    int64_t sleaf;               /* A V by GEMMs with diagonal blocks of this order
                                  * (0: the backend's SYMM/HEMM) */
    void *dSym;                  /* their full copies (herm_blocks) */
} s1;

/* The order of the diagonal blocks of stage 1's A V by GEMMs
 * (HYLA_OPT_EIG_S1_SYMM), 0 for the backend's SYMM/HEMM. One H100, X = A V
 * with k = 64 at m = 16000 (bench/micro/symm_gemm.c, suite symm-h100):
 * cuBLAS SSYMM 11.8 TFLOP/s, DSYMM 29.5, CHEMM 29.9 and ZHEMM 60.4, where
 * its GEMM on the whole matrix runs at 48.8, 47.1, 54.1 and 62.6. */
int64_t hyla_eig_s1_symm_leaf(const hyla_t *ctx, const hyla_dev *d, hyla_dtype t) {
    const int64_t v = ctx->opt_eig_s1_symm, tab = hyla_tuning_for(d)->eig_s1_symm[t];
    if (v == 1) return 0;
    if (v == 2) return tab > 0 ? tab : 1024;
    return v >= 16 ? v : tab;
}

size_t hyla_eig_symm_ws_bytes(hyla_dtype t, int64_t leaf, int64_t mmax) {
    if (leaf <= 0 || mmax <= 0) return 0;
    const int64_t b = HYLA_MIN(leaf, mmax);
    return (size_t)((mmax + b - 1) / b * b * b) * hyla_dtype_size(t);
}

/* C[r0:r1] and C[rows of blocks p0 .. p1-1] receive the products of the
 * lower triangle's off-diagonal blocks among those block rows: the block
 * A21 below the first half's diagonal, as itself and as A21^H, then each
 * half the same way. */
static int symm_off(const hyla_backend_ops *o, hyla_queue *q, hyla_dtype t, int64_t m, int64_t b,
                    int64_t p0, int64_t p1, int64_t k, const void *A, int64_t lda, const void *B,
                    int64_t ldb, void *C, int64_t ldc) {
    if (p1 - p0 < 2) return 0;
    const size_t es = hyla_dtype_size(t);
    const void *p1s = hyla_scalar(t, HYLA_SC_ONE);
    const int64_t pm = p0 + (p1 - p0 + 1) / 2, r0 = p0 * b, rm = pm * b,
                  r1 = HYLA_MIN(m, p1 * b);
    const void *A21 = el(A, rm, r0, lda, es);
    int rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, r1 - rm, k, rm - r0, p1s, A21, lda,
                     el(B, r0, 0, ldb, es), ldb, p1s, el(C, rm, 0, ldc, es), ldc);
    if (!rc)
        rc = o->gemm(q, t, ctrans(t), HYLA_NOTRANS, rm - r0, k, r1 - rm, p1s, A21, lda,
                     el(B, rm, 0, ldb, es), ldb, p1s, el(C, r0, 0, ldc, es), ldc);
    if (!rc) rc = symm_off(o, q, t, m, b, p0, pm, k, A, lda, B, ldb, C, ldc);
    if (!rc) rc = symm_off(o, q, t, m, b, pm, p1, k, A, lda, B, ldb, C, ldc);
    return rc;
}

int hyla_eig_symm_lower(const hyla_backend_ops *o, hyla_queue *q, hyla_dtype t, int64_t leaf,
                        void *dSym, int64_t m, int64_t k, const void *A, int64_t lda,
                        const void *B, int64_t ldb, void *C, int64_t ldc) {
    const size_t es = hyla_dtype_size(t);
    const void *one = hyla_scalar(t, HYLA_SC_ONE), *zero = hyla_scalar(t, HYLA_SC_ZERO);
    if (leaf <= 0 || m <= 0)
        return o->symm(q, t, 1, HYLA_LEFT, HYLA_LOWER, m, k, one, A, lda, B, ldb, zero, C, ldc);
    const int64_t b = HYLA_MIN(leaf, m), nfull = m / b, r = m - nfull * b;
    int rc = o->herm_blocks(q, t, m, b, A, lda, dSym);
    if (!rc)
        rc = o->gemm_strided_batched(q, t, HYLA_NOTRANS, HYLA_NOTRANS, b, k, b, one, dSym, b,
                                     b * b, B, ldb, b, zero, C, ldc, b, nfull);
    if (!rc && r > 0)
        rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, r, k, r, one,
                     el(dSym, nfull * b * b, 0, 1, es), b, el(B, nfull * b, 0, ldb, es), ldb,
                     zero, el(C, nfull * b, 0, ldc, es), ldc);
    if (!rc) rc = symm_off(o, q, t, m, b, 0, nfull + (r > 0), k, A, lda, B, ldb, C, ldc);
    return rc;
}

/* C := A B on q, A the m x m Hermitian trailing matrix at A (its lower
 * triangle), B and C m x k (hyla_eig_symm_lower with s->sleaf). */
static int s1_symm(const s1 *s, hyla_queue *q, int64_t m, int64_t k, const void *A, int64_t lda,
                   const void *B, int64_t ldb, void *C, int64_t ldc) {
    return hyla_eig_symm_lower(s->o, q, s->t, s->sleaf, s->dSym, m, k, A, lda, B, ldb, C, ldc);
}

/* Element (i, j) of V, j a column of the matrix (panel j0's V starts at
 * column j0). Stage 1 reads V only at rows at or below the first row of the
 * newest panel, which every panel of its block and of the previous one
 * reach: a ring of two blocks' columns holds all it reads. */
static void *vel(const s1 *s, int64_t i, int64_t j) {
    return el(s->dV, i, s->vring ? j % s->vring : j, s->ldv, s->es);
}

/* Columns j0 .. j0 + kd - 1 (rows j0..) of A -= Vacc Wacc^H + Wacc Vacc^H,
 * with the kp pending reflectors whose V starts at store column base. */
static int panel_catch_up(const s1 *s, hyla_queue *q, int64_t j0, int64_t base, int64_t kp) {
    const hyla_backend_ops *o = s->o;
    const size_t es = s->es;
    const int64_t kd = s->kd, r0 = j0 + kd, m = s->n - r0, ldv = s->ldv;
    const void *m1 = hyla_scalar(s->t, HYLA_SC_MONE), *p1 = hyla_scalar(s->t, HYLA_SC_ONE);
    int rc = o->syr2k(q, s->t, 1, HYLA_LOWER, HYLA_NOTRANS, kd, kp, m1,
                      vel(s, j0, base), ldv, el(s->dW, j0, 0, s->ldw, es), s->ldw,
                      p1, el(s->dA, j0, j0, s->lda, es), s->lda);
    if (rc || m <= 0) return rc;
    rc = o->gemm(q, s->t, HYLA_NOTRANS, ctrans(s->t), m, kd, kp, m1,
                 vel(s, r0, base), ldv, el(s->dW, j0, 0, s->ldw, es), s->ldw, p1,
                 el(s->dA, r0, j0, s->lda, es), s->lda);
    if (rc) return rc;
    return o->gemm(q, s->t, HYLA_NOTRANS, ctrans(s->t), m, kd, kp, m1,
                   el(s->dW, r0, 0, s->ldw, es), s->ldw, vel(s, j0, base), ldv, p1,
                   el(s->dA, r0, j0, s->lda, es), s->lda);
}

/* The GEMM-form trailing update: its block columns (the tuning table's
 * her2k_gemm_block; a quarter of the trailing order, at least kd, below
 * 2 blocks) and the smallest trailing order it takes by default
 * (her2k_gemm_min; below, one HER2K; forced, every order, which the
 * tests use). The measurements: docs/TUNING.md. */

/* The trailing update of a block, on q_comp: A[c:, c:] -= V W^H + W V^H
 * (lower triangle) with the block's kb reflectors, V from store column J,
 * W = Wacc. With dU, by hyla_eig_her2k_blocks on [V W V]: V is copied
 * beside Wacc on both sides, so both operands are contiguous. cuBLAS's HER2K/SYR2K runs well below its GEMM rate (one H100,
 * n = 16000, k = 128: 29 TFLOP/s, bench/results/raw/symm-gemm-h100.txt). */
static int trailing_update(const s1 *s, int64_t c, int64_t J, int64_t kb) {
    const hyla_backend_ops *o = s->o;
    hyla_queue *q = s->qc;
    const hyla_dtype t = s->t;
    const size_t es = s->es;
    const int64_t n = s->n, m = n - c, nb = s->nb, ldv = s->ldv, ldw = s->ldw;
    const void *m1 = hyla_scalar(t, HYLA_SC_MONE), *p1 = hyla_scalar(t, HYLA_SC_ONE);
    int rc = 0;
    if (m <= 0) return 0;
    if (!s->dU || (m < s->upd_min && !s->upd_all))
        return o->syr2k(q, t, 1, HYLA_LOWER, HYLA_NOTRANS, m, kb, m1, vel(s, c, J), ldv,
                        el(s->dW, c, 0, ldw, es), ldw, p1, el(s->dA, c, c, s->lda, es), s->lda);
    /* [V | W] from column nb - kb of dU, [W | V] from column nb */
    for (int side = 0; side < 2; side++)
        HYLA_TRY(o->copy_2d(q, el(s->dU, c, side ? nb + kb : nb - kb, n, es), (size_t)n * es,
                            vel(s, c, J), (size_t)ldv * es, (size_t)m * es, (size_t)kb,
                            HYLA_COPY_D2D));
    const int64_t b = m >= 2 * s->upd_block ? s->upd_block : HYLA_MAX(s->kd, (m + 3) / 4);
    rc = hyla_eig_her2k_blocks(o, q, t, m, kb, b, m1, el(s->dU, c, nb - kb, n, es), n,
                               el(s->dA, c, c, s->lda, es), s->lda);
cleanup:
    return rc;
}

int hyla_eig_her2k_blocks(const hyla_backend_ops *o, hyla_queue *q, hyla_dtype t, int64_t m,
                          int64_t k, int64_t b, const void *alpha, const void *U, int64_t ldu,
                          void *C, int64_t ldc) {
    const size_t es = hyla_dtype_size(t);
    const void *p1 = hyla_scalar(t, HYLA_SC_ONE);
    int rc = 0;
    for (int64_t j = 0; j < m && !rc; j += b) {
        const int64_t jb = HYLA_MIN(b, m - j), below = m - j - jb;
        rc = o->syr2k(q, t, 1, HYLA_LOWER, HYLA_NOTRANS, jb, k, alpha, el(U, j, 0, ldu, es), ldu,
                      el(U, j, k, ldu, es), ldu, p1, el(C, j, j, ldc, es), ldc);
        if (!rc && below > 0)
            rc = o->gemm(q, t, HYLA_NOTRANS, ctrans(t), below, jb, 2 * k, alpha,
                         el(U, j + jb, 0, ldu, es), ldu, el(U, j, k, ldu, es), ldu, p1,
                         el(C, j + jb, j, ldc, es), ldc);
    }
    return rc;
}

/* W of panel p (m x k, into Wacc column kacc, rows r0..), on q_comp:
 * X = (A22 V - corrections) T, W = X - 1/2 V (T^H (V^H X)). pre: X holds
 * A22 Q1 already (a CholeskyQR2 panel, cq_start), and A22 V = (A22 Q1) M +
 * A22(:, 0:k) U^-1 (backend/ops/cq.h) with M and U^-1 at dM and dUi (k x k, ld
 * k, upper). */
static int panel_w(const s1 *s, int64_t j0, int64_t k, int64_t base, int64_t kacc, int pre,
                   const void *dM, const void *dUi) {
    const hyla_backend_ops *o = s->o;
    hyla_queue *q = s->qc;
    const hyla_dtype t = s->t;
    const size_t es = s->es;
    const int64_t r0 = j0 + s->kd, m = s->n - r0, ldv = s->ldv, ldw = s->ldw, lds = s->lds;
    const void *V = vel(s, r0, j0), *Tp = el(s->dT, 0, j0, s->kd, es);
    void *X = el(s->dW, r0, kacc, ldw, es);
    const void *m1 = hyla_scalar(t, HYLA_SC_MONE), *p1 = hyla_scalar(t, HYLA_SC_ONE),
               *z = hyla_scalar(t, HYLA_SC_ZERO);
    const void *A22 = el(s->dA, r0, r0, s->lda, es);
    int rc;
    if (pre) {
        rc = o->trmm(q, t, HYLA_RIGHT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, m, k, p1, dM, k, X,
                     ldw);
        if (!rc) rc = o->symm(q, t, 1, HYLA_LEFT, HYLA_LOWER, k, k, p1, A22, s->lda, dUi, k, p1, X,
                              ldw);
        if (!rc) rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, m - k, k, k, p1,
                              el(s->dA, r0 + k, r0, s->lda, es), s->lda, dUi, k, p1,
                              el(X, k, 0, ldw, es), ldw);
    } else {
        rc = s1_symm(s, q, m, k, A22, s->lda, V, ldv, X, ldw);
    }
    if (!rc && kacc > 0) {
        const void *Va = vel(s, r0, base), *Wa = el(s->dW, r0, 0, ldw, es);
        rc = o->gemm(q, t, ctrans(t), HYLA_NOTRANS, kacc, k, m, p1, Wa, ldw, V, ldv, z, s->dS, lds);
        if (!rc) rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, m, k, kacc, m1, Va, ldv, s->dS, lds,
                              p1, X, ldw);
        if (!rc) rc = o->gemm(q, t, ctrans(t), HYLA_NOTRANS, kacc, k, m, p1, Va, ldv, V, ldv, z,
                              s->dS, lds);
        if (!rc) rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, m, k, kacc, m1, Wa, ldw, s->dS, lds,
                              p1, X, ldw);
    }
    if (!rc) rc = o->trmm(q, t, HYLA_RIGHT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, m, k, p1, Tp,
                          s->kd, X, ldw);
    if (!rc) rc = o->gemm(q, t, ctrans(t), HYLA_NOTRANS, k, k, m, p1, V, ldv, X, ldw, z, s->dS, lds);
    if (!rc) rc = o->trmm(q, t, HYLA_LEFT, HYLA_UPPER, ctrans(t), HYLA_NONUNIT, k, k, p1, Tp, s->kd,
                          s->dS, lds);
    if (!rc)
        rc = o->gemm(q, t, HYLA_NOTRANS, HYLA_NOTRANS, m, k, k, hyla_scalar(t, HYLA_SC_MHALF), V,
                     ldv, s->dS, lds, p1, X, ldw);
    return rc;
}

/* Band columns j of the trailing block [c, n) from the device into AB. */
static int tail_band(const s1 *s, int64_t c, void *hbuf, void *AB, int64_t ldab) {
    const int64_t nt = s->n - c;
    const size_t es = s->es;
    if (nt <= 0) return 0;
    int rc = s->o->copy_2d(s->qa, hbuf, (size_t)nt * es, el(s->dA, c, c, s->lda, es),
                           (size_t)s->lda * es, (size_t)nt * es, (size_t)nt, HYLA_COPY_D2H);
    if (!rc) rc = s->o->queue_sync(s->qa);
    if (rc) return rc;
    for (int64_t j = 0; j < nt; j++) {
        int64_t len = HYLA_MIN(s->kd + 1, nt - j);
        memcpy(el(AB, 0, c + j, ldab, es), el(hbuf, j, j, nt, es), (size_t)len * es);
    }
    return 0;
}

/* Band columns j0 .. j1 - 1 are final: a Hermitian diagonal is real, so
 * imaginary parts the caller left there (not referenced, as in LAPACK) are
 * cleared before a reader sees the columns. */
void hyla_eig_band_publish(hyla_dtype t, int64_t j0, int64_t j1, void *AB, int64_t ldab,
                         hyla_band_feed *feed) {
    const size_t es = hyla_dtype_size(t);
    if (hyla_dtype_is_complex(t))
        for (int64_t j = j0; j < j1; j++)
            put01(t == HYLA_C ? HYLA_S : HYLA_D, (unsigned char *)el(AB, 0, j, ldab, es) + es / 2, 0);
    if (feed) atomic_store_explicit(&feed->ready, j1, memory_order_release);
}

/* Buffers of the CholeskyQR2 panels: on the host (pinned) nine k x k
 * blocks (R1, G2, Qt, V1, Rt, M, Ui and two of workspace), tau (k),
 * potrf's info and the refusal flag; on the device seven (G1 then R1, M,
 * G2, Ui, V1, T, Rt), info and the flag; two events: Q1 formed (on q_aux),
 * A22 Q1 formed (on q_comp); and where the reconstruction of the panel in
 * flight runs (on_dev: the backend's cq_rebuild op; else the host). */
typedef struct {
    void *h, *d;
    hyla_event *ev_q1, *ev_y;
    int on_dev;
} cq_buf;

enum { CQ_R1, CQ_G2, CQ_QT, CQ_V1, CQ_RT, CQ_M, CQ_UI, CQ_W, CQ_NH = CQ_W + 2 }; /* host */
enum { CQD_R1, CQD_M, CQD_G2, CQD_UI, CQD_V1, CQD_T, CQD_RT, CQD_N };            /* device */

static void *cqh(const s1 *s, const cq_buf *b, int i) {
    return (unsigned char *)b->h + (size_t)(i * s->kd * s->kd) * s->es;
}
static void *cqd(const s1 *s, const cq_buf *b, int i) {
    return (unsigned char *)b->d + (size_t)(i * s->kd * s->kd) * s->es;
}

/* Panel A[r0:n, j0:j0+kd] (m = n - r0 >= 2 kd rows) by CholeskyQR2 with the
 * Householder vectors reconstructed (backend/ops/cq.h), first half, on
 * q_aux: G1 = A^H A and its Cholesky factor R1, Q1 = A R1^-1 into the store
 * at dv (ev_q1 recorded), G2 = Q1^H Q1; then the reconstruction by the
 * backend's cq_rebuild op where it takes the panel (b->on_dev; its refusal
 * flag, Rt and T come to the host), else R1, G2, Q1's top block and potrf's
 * info come to the host for it; and the panel's top rows (rows of hp, ld n).
 * A is read, never written. The caller may start on A22 Q1 (q_comp, after
 * ev_q1) and record ev_y after it; cq_finish waits for it before dv
 * changes. */
static int cq_start(const s1 *s, cq_buf *b, int64_t j0, void *dv, void *hp, int64_t rows,
                    void *ht) {
    const hyla_backend_ops *o = s->o;
    const hyla_dtype t = s->t;
    const size_t es = s->es;
    const int64_t k = s->kd, n = s->n, r0 = j0 + k, m = n - r0, ldv = s->ldv;
    const void *one = hyla_scalar(t, HYLA_SC_ONE), *zero = hyla_scalar(t, HYLA_SC_ZERO);
    const void *dpa = el(s->dA, r0, j0, s->lda, es);
    const size_t kk = (size_t)(k * k) * es;
    int *dinfo = (int *)cqd(s, b, CQD_N);
    int *hinfo = (int *)((unsigned char *)cqh(s, b, CQ_NH) + (size_t)k * es);
    int rc = 0;
    HYLA_TRY(o->gemm(s->qa, t, ctrans(t), HYLA_NOTRANS, k, k, m, one, dpa, s->lda, dpa, s->lda,
                     zero, cqd(s, b, CQD_R1), k));
    HYLA_TRY(o->potrf(s->qa, t, HYLA_UPPER, k, cqd(s, b, CQD_R1), k, dinfo));
    HYLA_TRY(o->copy_2d(s->qa, dv, (size_t)ldv * es, dpa, (size_t)s->lda * es, (size_t)m * es,
                        (size_t)k, HYLA_COPY_D2D));
    HYLA_TRY(o->trsm(s->qa, t, HYLA_RIGHT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, m, k, one,
                     cqd(s, b, CQD_R1), k, dv, ldv));
    HYLA_TRY(o->event_record(b->ev_q1, s->qa));
    HYLA_TRY(o->gemm(s->qa, t, ctrans(t), HYLA_NOTRANS, k, k, m, one, dv, ldv, dv, ldv, zero,
                     cqd(s, b, CQD_G2), k));
    const hyla_cq_args a = {.k = k, .info = dinfo, .R1 = cqd(s, b, CQD_R1),
                            .G2 = cqd(s, b, CQD_G2), .Qt = dv, .ldq = ldv,
                            .V1 = cqd(s, b, CQD_V1), .Tr = cqd(s, b, CQD_T),
                            .Rt = cqd(s, b, CQD_RT), .M = cqd(s, b, CQD_M),
                            .Ui = cqd(s, b, CQD_UI), .bad = dinfo + 1};
    rc = o->alg->cq_rebuild ? o->alg->cq_rebuild(s->qa, t, &a) : HYLA_ERR_UNSUPPORTED;
    b->on_dev = rc == 0;
    if (rc && rc != HYLA_ERR_UNSUPPORTED) goto cleanup;
    rc = 0;
    if (b->on_dev) {
        HYLA_TRY(o->copy_2d(s->qa, hinfo + 1, sizeof(int), dinfo + 1, sizeof(int), sizeof(int), 1,
                            HYLA_COPY_D2H));
        HYLA_TRY(o->copy_2d(s->qa, cqh(s, b, CQ_RT), kk, cqd(s, b, CQD_RT), kk, kk, 1,
                            HYLA_COPY_D2H));
        HYLA_TRY(o->copy_2d(s->qa, ht, kk, cqd(s, b, CQD_T), kk, kk, 1, HYLA_COPY_D2H));
    } else {
        HYLA_TRY(o->copy_2d(s->qa, cqh(s, b, CQ_R1), kk, cqd(s, b, CQD_R1), kk, kk, 1,
                            HYLA_COPY_D2H));
        HYLA_TRY(o->copy_2d(s->qa, cqh(s, b, CQ_G2), kk, cqd(s, b, CQD_G2), kk, kk, 1,
                            HYLA_COPY_D2H));
        HYLA_TRY(o->copy_2d(s->qa, cqh(s, b, CQ_QT), (size_t)k * es, dv, (size_t)ldv * es,
                            (size_t)k * es, (size_t)k, HYLA_COPY_D2H));
        HYLA_TRY(o->copy_2d(s->qa, hinfo, sizeof(int), dinfo, sizeof(int), sizeof(int), 1,
                            HYLA_COPY_D2H));
    }
    HYLA_TRY(o->copy_2d(s->qa, hp, (size_t)n * es, el(s->dA, j0, j0, s->lda, es),
                        (size_t)s->lda * es, (size_t)rows * es, (size_t)k, HYLA_COPY_D2H));
cleanup:
    return rc;
}

/* Second half, after cq_start (and ev_y recorded): waits for q_aux, checks
 * and rebuilds on the host unless the device did, then on q_aux after ev_y:
 * V (unit lower) into the store at dv (V2 = Q1[k:, :] M by one TRMM, V1 on
 * top), M and U^-1 on the device (for panel_w), T (kd x kd, ld kd) in the
 * pinned ht, the band's R into hp (rows kd .. 2 kd - 1 of the panel's copy,
 * upper triangle), and with want_v V itself into hp's rows from kd on,
 * below R (the LAPACK-style output), tau = T's diagonal into htau. Returns
 * 0, 1 when the panel is too ill-conditioned for it (nothing written; q_aux
 * synchronized and waiting for ev_y, so the Householder QR may rewrite dv),
 * or an error. The uploads and the TRMM are left queued on q_aux. */
static int cq_finish(s1 *s, const cq_buf *b, int64_t j0, void *dv, void *hp, int want_v,
                     void *ht, void *htau) {
    const hyla_backend_ops *o = s->o;
    const hyla_dtype t = s->t;
    const size_t es = s->es;
    const int64_t k = s->kd, n = s->n, ldv = s->ldv, m = n - j0 - k;
    const void *one = hyla_scalar(t, HYLA_SC_ONE);
    const size_t kk = (size_t)(k * k) * es;
    const int *hinfo = (const int *)((unsigned char *)cqh(s, b, CQ_NH) + (size_t)k * es);
    int rc = 0, bad;
    double tt = hyla_wtime();
    HYLA_TRY(o->queue_sync(s->qa));
    const double tw = hyla_wtime();
    s->t_wait += tw - tt;
    if (b->on_dev) {
        bad = hinfo[1] != 0;
    } else {
        const hyla_cq_args a = {.k = k, .info = hinfo, .R1 = cqh(s, b, CQ_R1),
                                .G2 = cqh(s, b, CQ_G2), .Qt = cqh(s, b, CQ_QT), .ldq = k,
                                .V1 = cqh(s, b, CQ_V1), .Tr = ht, .Rt = cqh(s, b, CQ_RT),
                                .M = cqh(s, b, CQ_M), .Ui = cqh(s, b, CQ_UI), .bad = NULL};
        bad = hyla_cq_rebuild_host(t, &a, cqh(s, b, CQ_W));
    }
    s->t_host += hyla_wtime() - tw;
    /* dv still holds Q1, which A22 Q1 may be reading */
    HYLA_TRY(o->queue_wait_event(s->qa, b->ev_y));
    if (bad) return 1;
    if (!b->on_dev) {
        HYLA_TRY(o->copy_2d(s->qa, cqd(s, b, CQD_M), kk, cqh(s, b, CQ_M), kk, kk, 1,
                            HYLA_COPY_H2D));
        HYLA_TRY(o->copy_2d(s->qa, cqd(s, b, CQD_UI), kk, cqh(s, b, CQ_UI), kk, kk, 1,
                            HYLA_COPY_H2D));
    }
    HYLA_TRY(o->trmm(s->qa, t, HYLA_RIGHT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, m - k, k, one,
                     cqd(s, b, CQD_M), k, el(dv, k, 0, ldv, es), ldv));
    if (b->on_dev)
        HYLA_TRY(o->copy_2d(s->qa, dv, (size_t)ldv * es, cqd(s, b, CQD_V1), (size_t)k * es,
                            (size_t)k * es, (size_t)k, HYLA_COPY_D2D));
    else
        HYLA_TRY(o->copy_2d(s->qa, dv, (size_t)ldv * es, cqh(s, b, CQ_V1), (size_t)k * es,
                            (size_t)k * es, (size_t)k, HYLA_COPY_H2D));
    if (want_v) {
        HYLA_TRY(o->copy_2d(s->qa, el(hp, k, 0, n, es), (size_t)n * es, dv, (size_t)ldv * es,
                            (size_t)m * es, (size_t)k, HYLA_COPY_D2H));
        HYLA_TRY(o->queue_sync(s->qa));
        for (int64_t j = 0; j < k; j++) memcpy(el(htau, j, 0, 1, es), el(ht, j, j, k, es), es);
    }
    /* R (upper) over the panel's rows kd .. 2kd-1 in hp */
    for (int64_t j = 0; j < k; j++)
        memcpy(el(hp, k, j, n, es), el(cqh(s, b, CQ_RT), 0, j, k, es), (size_t)(j + 1) * es);
cleanup:
    return rc;
}

int hyla_eig_sy2sb(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, int64_t nb,
                   void *dA, int64_t ldda, void *AB, int64_t ldab, hyla_sy2sb_q **qout, void *Vh,
                   int64_t ldvh, void *tau) {
    return hyla_eig_sy2sb_fed(ctx, dev, t, n, kd, nb, dA, ldda, AB, ldab, qout, Vh, ldvh, tau, NULL);
}

int hyla_eig_sy2sb_fed(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, int64_t nb,
                       void *dA, int64_t ldda, void *AB, int64_t ldab, hyla_sy2sb_q **qout,
                       void *Vh, int64_t ldvh, void *tau, hyla_band_feed *feed) {
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(t);
    const int64_t np = hyla_eig_sy2sb_npanels(n, kd);
    s1 s = {.ctx = ctx, .d = d, .o = o, .t = t, .es = es, .n = n, .kd = kd, .nb = nb,
            .P = HYLA_MAX(1, nb / kd), .dA = dA, .lda = ldda};
    void *hp = NULL, *ht = NULL, *hqr = NULL, *dqr = NULL, *dtau = NULL;
    const void *htau = NULL;
    int *dinfo = NULL;
    const int *hinfo = NULL;
    hyla_event *ev_v = NULL, *ev_w = NULL;
    hyla_dev_workspace *ws;
    cq_buf cq = {NULL, NULL, NULL, NULL, 0};
    void *cq_tau = NULL;
    /* the panel QR's small results, one block on the device and its pinned
     * mirror: G = V^H V (kd x kd), tau (kd), info (an int, 16 bytes kept) */
    const size_t qr_bytes = (size_t)(kd * kd + kd) * es + 16;
    int rc = 0;
    /* on the host backend the queues and the host QR share the same cores:
     * lookahead would only oversubscribe them, so each panel waits for the
     * previous block's update to finish */
    const int serial = d->ops->host_cores;
    if (qout) *qout = NULL;
    if (n > INT_MAX || ldda > INT_MAX) return HYLA_ERR_UNSUPPORTED;
    if (tau) memset(tau, 0, (size_t)n * es);
    HYLA_TRY(hyla_workspace_get(ctx, dev, 0, 0, &ws));
    s.qc = ws->q_comp, s.qa = ws->q_aux;
    if (serial && !qout) {
        /* nothing kept for Q1: V in a ring of two blocks, not an n x n store
         * zeroed first (which costs the host backend a pass over n^2
         * elements) */
        s.vring = 2 * s.P * kd, s.ldv = HYLA_MAX(1, n);
        if (np > 0) {
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * s.vring) * es, &s.dV));
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(kd * n) * es, &s.dT));
        }
    } else {
        HYLA_TRY(q_alloc(ctx, dev, t, n, kd, s.qa, &s.q));
        s.dV = s.q->dV, s.dT = s.q->dT, s.ldv = s.q->ldv;
    }
    /* host side: the panel with the kd rows above it (also the final
     * trailing block, at most (kd + 1)^2, or n^2 when there is no panel)
     * and T */
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_PINNED, (size_t)(HYLA_MAX(1, n) * (kd + 1)) * es, &hp));
    if (np > 0) {
        s.ldw = n, s.lds = s.nb;
        /* the trailing update as GEMMs: asked for, or by default for the
         * orders the tuning table gives it (never on the host backend) */
        const hyla_tuning *tu = hyla_tuning_for(d);
        s.upd_min = tu->her2k_gemm_min, s.upd_block = tu->her2k_gemm_block;
        const int gemm_update = ctx->opt_eig_s1_update == 2 ||
                                (ctx->opt_eig_s1_update == 0 && n - kd > s.upd_min);
        if (gemm_update) {
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(3 * n * s.nb) * es, &s.dU));
            s.dW = el(s.dU, 0, s.nb, n, es);
            s.upd_all = ctx->opt_eig_s1_update == 2;
        } else {
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * s.nb) * es, &s.dW));
        }
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(s.nb * kd) * es, &s.dS));
        /* A V by GEMMs: the full diagonal blocks of the largest trailing
         * matrix (order n - kd), ceil(m / b) of order b = min(leaf, m) */
        s.sleaf = hyla_eig_s1_symm_leaf(ctx, d, t);
        if (s.sleaf > 0)
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, hyla_eig_symm_ws_bytes(t, s.sleaf, n - kd),
                                  &s.dSym));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, qr_bytes, &dqr));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_PINNED, (size_t)(kd * kd) * es, &ht));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_PINNED, qr_bytes, &hqr));
        HYLA_TRY(o->event_create(d, 0, &ev_v));
        HYLA_TRY(o->event_create(d, 0, &ev_w));
        dtau = el(dqr, kd * kd, 0, 1, es);
        dinfo = (int *)el(dqr, kd * kd + kd, 0, 1, es);
        htau = el(hqr, kd * kd, 0, 1, es);
        hinfo = (const int *)el(hqr, kd * kd + kd, 0, 1, es);
        /* CholeskyQR2 panels: asked for, or by default where the tuning
         * table says (eig_panel_cholqr) */
        const int cholqr = ctx->opt_eig_panel_qr == 2 ||
                           (ctx->opt_eig_panel_qr == 0 && hyla_tuning_for(d)->eig_panel_cholqr);
        if (cholqr && n - kd >= 2 * kd) {
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_PINNED, (size_t)(CQ_NH * kd * kd + kd) * es + 16,
                                  &cq.h));
            HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(CQD_N * kd * kd) * es + 16, &cq.d));
            HYLA_TRY(o->event_create(d, 0, &cq.ev_q1));
            HYLA_TRY(o->event_create(d, 0, &cq.ev_y));
            cq_tau = el(cq.h, CQ_NH * kd * kd, 0, 1, es);
        }
    }

    for (int64_t p = 0; p < np; p++) {
        const int64_t j0 = p * kd, r0 = j0 + kd, m = n - r0, k = HYLA_MIN(m, kd);
        const int64_t J = p / s.P * s.P * kd, kacc = (p % s.P) * kd;
        const int last_in_block = p % s.P == s.P - 1 || p == np - 1;
        void *dpa = el(dA, r0, j0, ldda, es), *dv = vel(&s, r0, j0);
        /* this panel's columns receive the updates still pending for them:
         * the block's earlier panels, or at a block start the previous block
         * (whose HER2K left these columns out) */
        if (p > 0) {
            int64_t base = kacc > 0 ? J : J - s.P * kd, kp = kacc > 0 ? kacc : s.P * kd;
            if (serial) {
                const double tt = hyla_wtime();
                HYLA_TRY(o->queue_sync(s.qc));
                s.t_wait += hyla_wtime() - tt;
            }
            HYLA_TRY(o->queue_wait_event(s.qa, ev_w));
            HYLA_TRY(panel_catch_up(&s, s.qa, j0, base, kp));
        }
        /* the band columns need the panel's top 2 kd rows (the block on the
         * diagonal and R); the LAPACK-style output all of V */
        const int64_t rows = Vh ? n - j0 : HYLA_MIN(2 * kd, n - j0);
        /* CholeskyQR2 (T, V and R reconstructed), where it takes the panel:
         * asked for, or panels of the tuning table's eig_cholqr_min_m rows
         * or more, or every panel of 2 kd rows once the device rebuilt one */
        int hh = 1;
        if (cq.h && m >= 2 * kd &&
            (ctx->opt_eig_panel_qr == 2 || m >= hyla_tuning_for(d)->eig_cholqr_min_m || cq.on_dev)) {
            /* A22 Q1 on q_comp while the host rebuilds V (panel_w finishes
             * A22 V from it): the panel's largest product leaves the chain
             * of the host's round trip */
            HYLA_TRY(cq_start(&s, &cq, j0, dv, hp, rows, ht));
            HYLA_TRY(o->queue_wait_event(s.qc, cq.ev_q1));
            HYLA_TRY(s1_symm(&s, s.qc, m, k, el(dA, r0, r0, ldda, es), ldda, dv, s.ldv,
                             el(s.dW, r0, kacc, s.ldw, es), s.ldw));
            HYLA_TRY(o->event_record(cq.ev_y, s.qc));
            hh = cq_finish(&s, &cq, j0, dv, hp, Vh != NULL, ht, cq_tau);
            HYLA_TRY(hh < 0 ? hh : 0);
            s.cq_panels += hh == 0;
        }
        if (hh) {
            /* device: QR of the rows below the band (A[r0:, panel] = Q_p R,
             * R and V in place), V into the store with its unit upper
             * triangle, and the Gram matrix V^H V from which the host
             * builds T */
            HYLA_TRY(o->geqrf(s.qa, t, m, kd, dpa, ldda, dtau, dinfo, ctx->opt_lu_panel));
            HYLA_TRY(o->copy_2d(s.qa, dv, (size_t)s.ldv * es, dpa, (size_t)ldda * es,
                                (size_t)m * es, (size_t)k, HYLA_COPY_D2D));
            HYLA_TRY(o->laset(s.qa, t, HYLA_UPPER, k, k, hyla_scalar(t, HYLA_SC_ZERO),
                              hyla_scalar(t, HYLA_SC_ONE), dv, s.ldv));
            HYLA_TRY(o->gemm(s.qa, t, ctrans(t), HYLA_NOTRANS, k, k, m,
                             hyla_scalar(t, HYLA_SC_ONE), dv, s.ldv, dv, s.ldv,
                             hyla_scalar(t, HYLA_SC_ZERO), dqr, kd));
            HYLA_TRY(o->copy_2d(s.qa, hqr, qr_bytes, dqr, qr_bytes, qr_bytes, 1, HYLA_COPY_D2H));
            HYLA_TRY(o->copy_2d(s.qa, hp, (size_t)n * es, el(dA, j0, j0, ldda, es),
                                (size_t)ldda * es, (size_t)rows * es, (size_t)kd, HYLA_COPY_D2H));
            double tt = hyla_wtime();
            HYLA_TRY(o->queue_sync(s.qa));
            const double tw = hyla_wtime();
            s.t_wait += tw - tt;
            if (*hinfo != 0) HYLA_TRY(HYLA_ERR_INTERNAL);
            /* host: T */
            hyla_larft_gram_host(t, k, hqr, kd, htau, ht, kd);
            s.t_host += hyla_wtime() - tw;
        }

        /* host: the band columns, the LAPACK-style reflectors */
        void *pa = el(hp, kd, 0, n, es);
        for (int64_t jj = 0; jj < kd; jj++)
            memcpy(el(AB, 0, j0 + jj, ldab, es), el(hp, jj, jj, n, es),
                   (size_t)HYLA_MIN(kd + 1, n - j0 - jj) * es);
        hyla_eig_band_publish(t, j0, j0 + kd, AB, ldab, feed);
        if (Vh) {
            for (int64_t jj = 0; jj < k; jj++)
                if (m > jj + 1)
                    memcpy(el(Vh, r0 + jj + 1, j0 + jj, ldvh, es), el(pa, jj + 1, jj, n, es),
                           (size_t)(m - jj - 1) * es);
            memcpy(el(tau, j0, 0, 1, es), hh ? htau : cq_tau, (size_t)k * es);
        }
        HYLA_TRY(o->copy_2d(s.qa, el(s.dT, 0, j0, kd, es), (size_t)kd * es, ht, (size_t)kd * es,
                            (size_t)kd * es, (size_t)k, HYLA_COPY_H2D));
        HYLA_TRY(o->event_record(ev_v, s.qa));

        /* device: W of this panel, then at the end of a block the trailing
         * HER2K, leaving out the next panel's columns (q_aux updates them) */
        HYLA_TRY(o->queue_wait_event(s.qc, ev_v));
        HYLA_TRY(panel_w(&s, j0, k, J, kacc, !hh, hh ? NULL : cqd(&s, &cq, CQD_M),
                         hh ? NULL : cqd(&s, &cq, CQD_UI)));
        HYLA_TRY(o->event_record(ev_w, s.qc));
        if (last_in_block)
            HYLA_TRY(trailing_update(&s, p + 1 < np ? r0 + kd : r0, J, kacc + k));
    }
    HYLA_TRY(o->queue_sync(s.qc));
    ctx->eig_stats.panels_cholqr = s.cq_panels;
    ctx->eig_stats.sy2sb_wait = s.t_wait;
    ctx->eig_stats.sy2sb_host = s.t_host;
    HYLA_TRY(tail_band(&s, np * kd, hp, AB, ldab));
    hyla_eig_band_publish(t, np * kd, n, AB, ldab, feed);
    if (qout) *qout = s.q, s.q = NULL;

cleanup:
    if (rc && feed) {
        atomic_store_explicit(&feed->failed, 1, memory_order_relaxed);
        atomic_store_explicit(&feed->ready, n, memory_order_release);
    }
    /* s.qc and s.qa are still NULL when hyla_workspace_get failed (its
     * queues could not be created): nothing was enqueued then */
    if (rc && s.qc) {
        o->queue_sync(s.qc);
        o->queue_sync(s.qa);
    }
    if (ev_v) o->event_destroy(ev_v);
    if (ev_w) o->event_destroy(ev_w);
    o->mem_free(d, HYLA_MEM_PINNED, hp);
    o->mem_free(d, HYLA_MEM_PINNED, ht);
    o->mem_free(d, HYLA_MEM_PINNED, hqr);
    o->mem_free(d, HYLA_MEM_PINNED, cq.h);
    o->mem_free(d, HYLA_MEM_DEVICE, cq.d);
    if (cq.ev_q1) o->event_destroy(cq.ev_q1);
    if (cq.ev_y) o->event_destroy(cq.ev_y);
    o->mem_free(d, HYLA_MEM_DEVICE, dqr);
    o->mem_free(d, HYLA_MEM_DEVICE, s.dU ? s.dU : s.dW);
    o->mem_free(d, HYLA_MEM_DEVICE, s.dS);
    o->mem_free(d, HYLA_MEM_DEVICE, s.dSym);
    hyla_eig_sy2sb_q_free(ctx, &s.q);
    if (s.vring) {
        o->mem_free(d, HYLA_MEM_DEVICE, s.dV);
        o->mem_free(d, HYLA_MEM_DEVICE, s.dT);
    }
    return rc;
}

/* ---------------------------------------------------------------- Q1 */

int hyla_eig_sy2sb_back(hyla_t *ctx, const hyla_sy2sb_q *q, int conj, int64_t ncols, void *dZ,
                        int64_t lddz) {
    hyla_dev_workspace *ws;
    int rc = hyla_workspace_get(ctx, q->dev, 0, 0, &ws);
    return rc ? rc : hyla_eig_sy2sb_back_q(ctx, q, conj, ncols, dZ, lddz, ws->q_comp);
}

int hyla_eig_q1_group(hyla_queue *qc, hyla_dtype t, int64_t n, int64_t kd, int64_t pa,
                      int64_t pb, const void *V, int64_t ldv, const void *Tp, int conj,
                      int64_t ncols, void *dZ, int64_t lddz, void *dTg, int64_t gw, void *dWk) {
    const hyla_backend_ops *o = qc->dev->ops;
    const size_t es = hyla_dtype_size(t);
    const int64_t r0 = pa * kd + kd, m = n - r0;
    const int64_t kw = (pb - 1 - pa) * kd + HYLA_MIN(kd, n - pb * kd);
    const void *m1 = hyla_scalar(t, HYLA_SC_MONE), *p1 = hyla_scalar(t, HYLA_SC_ONE),
               *z = hyla_scalar(t, HYLA_SC_ZERO);
    int rc = o->laset(qc, t, -1, kw, kw, z, z, dTg, gw);
    /* T = [T_a, -T_a (V_a^H V_b) T_b; 0, T_b], panel by panel (LAPACK
     * larft's recurrence by blocks); V is zero above each panel's rows */
    for (int64_t p = pa; !rc && p < pb; p++) {
        const int64_t off = (p - pa) * kd, rq = p * kd + kd, mq = n - rq, kq = HYLA_MIN(kd, mq);
        void *Tc = el(dTg, 0, off, gw, es);
        rc = o->copy_2d(qc, el(dTg, off, off, gw, es), (size_t)gw * es, el(Tp, 0, off, kd, es),
                        (size_t)kd * es, (size_t)kq * es, (size_t)kq, HYLA_COPY_D2D);
        if (rc || off == 0) continue;
        rc = o->gemm(qc, t, ctrans(t), HYLA_NOTRANS, off, kq, mq, p1, el(V, rq - r0, 0, ldv, es),
                     ldv, el(V, rq - r0, off, ldv, es), ldv, z, Tc, gw);
        if (!rc) rc = o->trmm(qc, t, HYLA_LEFT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, off, kq,
                              m1, dTg, gw, Tc, gw);
        if (!rc) rc = o->trmm(qc, t, HYLA_RIGHT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, off, kq,
                              p1, el(dTg, off, off, gw, es), gw, Tc, gw);
    }
    void *Zp = el(dZ, r0, 0, lddz, es);
    if (!rc) rc = o->gemm(qc, t, ctrans(t), HYLA_NOTRANS, kw, ncols, m, p1, V, ldv, Zp, lddz, z,
                          dWk, gw);
    if (!rc) rc = o->trmm(qc, t, HYLA_LEFT, HYLA_UPPER, conj ? ctrans(t) : HYLA_NOTRANS,
                          HYLA_NONUNIT, kw, ncols, p1, dTg, gw, dWk, gw);
    if (!rc) rc = o->gemm(qc, t, HYLA_NOTRANS, HYLA_NOTRANS, m, ncols, kw, m1, V, ldv, dWk, gw,
                          p1, Zp, lddz);
    return rc;
}

int hyla_eig_sy2sb_back_q(hyla_t *ctx, const hyla_sy2sb_q *q, int conj, int64_t ncols, void *dZ,
                          int64_t lddz, hyla_queue *qc) {
    if (q->npanels == 0 || ncols == 0) return 0;
    hyla_dev *d = ctx->devs[q->dev];
    const hyla_backend_ops *o = d->ops;
    const hyla_dtype t = q->t;
    const size_t es = hyla_dtype_size(t);
    const int64_t kd = q->kd, gw = q->group * kd;
    const int64_t ngroups = HYLA_CEILDIV(q->npanels, q->group);
    void *dWk = NULL, *dTg = NULL;
    int rc = 0;
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(gw * ncols) * es, &dWk));
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(gw * gw) * es, &dTg));
    /* Q1 Z = Q_0 (Q_1 (... Q_last Z)): groups in reverse order; Q1^H Z:
     * forward, with T^H. The panels of a group form one block reflector. */
    for (int64_t i = 0; i < ngroups; i++) {
        const int64_t gi = conj ? i : ngroups - 1 - i;
        const int64_t pa = gi * q->group, pb = HYLA_MIN(q->npanels, pa + q->group);
        const int64_t j0 = pa * kd;
        HYLA_TRY(hyla_eig_q1_group(qc, t, q->n, kd, pa, pb, el(q->dV, j0 + kd, j0, q->ldv, es),
                                   q->ldv, el(q->dT, 0, j0, kd, es), conj, ncols, dZ, lddz, dTg,
                                   gw, dWk));
    }
    rc = o->queue_sync(qc);
cleanup:
    if (rc) o->queue_sync(qc);
    o->mem_free(d, HYLA_MEM_DEVICE, dWk);
    o->mem_free(d, HYLA_MEM_DEVICE, dTg);
    return rc;
}

int hyla_eig_sy2sb_q_from_host(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd,
                               const void *Vh, int64_t ldvh, const void *tau,
                               hyla_sy2sb_q **out) {
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(t);
    hyla_sy2sb_q *q = NULL;
    hyla_dev_workspace *ws;
    void *hv = NULL, *ht = NULL;
    int rc = 0;
    *out = NULL;
    if (n > INT_MAX || ldvh > INT_MAX) return HYLA_ERR_UNSUPPORTED;
    HYLA_TRY(hyla_workspace_get(ctx, dev, 0, 0, &ws));
    HYLA_TRY(q_alloc(ctx, dev, t, n, kd, ws->q_in, &q));
    if (q->npanels > 0) {
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_PINNED, (size_t)(n * kd) * es, &hv));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_PINNED, (size_t)(kd * kd) * es, &ht));
    }
    for (int64_t p = 0; p < q->npanels; p++) {
        const int64_t j0 = p * kd, r0 = j0 + kd, m = n - r0, k = HYLA_MIN(m, kd);
        /* the geqrf layout of the panel: vector jj below row jj of column jj */
        explicit_v(t, es, m, k, el(Vh, r0, j0, ldvh, es), ldvh, hv, n);
        memset(ht, 0, (size_t)(kd * kd) * es);
        HYLA_TRY(host_larft(t, m, k, hv, n, el(tau, j0, 0, 1, es), ht, kd));
        HYLA_TRY(o->copy_2d(ws->q_in, el(q->dV, r0, j0, q->ldv, es), (size_t)q->ldv * es, hv,
                            (size_t)n * es, (size_t)m * es, (size_t)k, HYLA_COPY_H2D));
        HYLA_TRY(o->copy_2d(ws->q_in, el(q->dT, 0, j0, kd, es), (size_t)kd * es, ht,
                            (size_t)kd * es, (size_t)kd * es, (size_t)k, HYLA_COPY_H2D));
        HYLA_TRY(o->queue_sync(ws->q_in));
    }
    *out = q, q = NULL;
cleanup:
    if (rc && ws) o->queue_sync(ws->q_in);
    o->mem_free(d, HYLA_MEM_PINNED, hv);
    o->mem_free(d, HYLA_MEM_PINNED, ht);
    hyla_eig_sy2sb_q_free(ctx, &q);
    return rc;
}
