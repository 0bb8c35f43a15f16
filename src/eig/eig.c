/* The eigensolver's drivers (tier 1), one source for s, d, c, z: ?syevd /
 * ?heevd (host, _gpu and _mgpu) through t_syevd.c, and stage 1 on its own
 * (?sytrd_sy2sb / ?ormtr_sy2sb, ?hetrd_he2hb / ?unmtr_he2hb) through
 * t_sy2sb.c.
 *
 *   A (device dev) --stage 1, psy2sb.c--> band B (host, lower band storage)
 *     --stage 2, psb2st.c (host cores) or phb2st_dev.c (device)--> real
 *     tridiagonal (d, e)
 *     --jobz N: sterf / jobz V: stedc (ptridiag.c)--> eigenvalues, real Z
 *     --stage 2, psb2st.c (host cores)--> real tridiagonal (d, e)
 *     --jobz N: sterf or bisection (ptridiag.c, pbisect.c) / jobz V: stedc
 *     (ptridiag.c)--> eigenvalues, real Z
 *   jobz V: pvectors.c: Z := Q1 (Q2 E) on the device, or Q := Q1 Q2 built
 *   while the host solves the tridiagonal, then Z := Q E.
 */
#include "eig/mgpu.h"
#include "eig/phb2st_dev.h"
#include "eig/pstages12.h"
#include "eig/ptridiag.h"
#include "eig/pvectors.h"
#include <math.h>
#include <string.h>

int hyla_get_eig_stats(const hyla_t *ctx, hyla_eig_stats *stats) {
    HYLA_SERIAL(ctx);
    if (!ctx) return -1;
    if (!stats) return -2;
    *stats = ctx->eig_stats;
    return 0;
}

/* syevd: 1 jobz, 2 uplo, 3 n, 4 A, 5 lda, 6 w */
static int syevd_check(char jobz, char uplo, int64_t n, const void *A, int64_t lda,
                       const void *w, int *vec, int *lower) {
    switch (jobz) {
    case 'N': case 'n': *vec = 0; break;
    case 'V': case 'v': *vec = 1; break;
    default: return -1;
    }
    switch (uplo) {
    case 'L': case 'l': *lower = 1; break;
    case 'U': case 'u': *lower = 0; break;
    default: return -2;
    }
    if (n < 0) return -3;
    if (!A && n > 0) return -4;
    if (lda < HYLA_MAX(1, n)) return -5;
    if (!w && n > 0) return -6;
    if (!hyla_size_ok(n, n, lda)) return -3;
    return 0;
}

/* How stages 1 and 2 run (hyla_eig_stages12's mode): the device chase
 * (keeping the reflectors on the device for jobz V) when asked for
 * (HYLA_OPT_EIG_CHASE 2) or, by default on a GPU, when it is the faster
 * (see below); else stage 2 on the host cores, beside stage 1 where that
 * pays. */
static int chase_mode(const hyla_t *ctx, const hyla_dev *d, int64_t n, int64_t kd) {
    if (ctx->opt_eig_chase == 2) return hyla_eig_dev_chase_takes(d, kd) ? 2 : -1;
    if (ctx->opt_eig_chase == 1) return -1;
    /* one H100, n = 16384, d, eigenvalues only: the device chase took
     * 0.31 s (kd 32) and 0.40 s (kd 64) against 0.69 s and 1.35 s on the
     * 16 host cores. With eigenvectors (keeping the reflectors) it added
     * 0.33 s after stage 1 against 0.97 s for the host chase beside it
     * (n = 16384, d), and 0.16 s against 0.36 s at 8192. */
    return hyla_eig_dev_chase_auto(d, n, kd) ? 2 : -1;
}

/* The lower triangle of A on device di: uploaded into a new n x n *dW
 * (up: A is host memory; check: the triangle read scanned for NaN and Inf
 * on the device as it came up), copied into one from the upper triangle (A
 * on the device, uplo U), or A itself (*dW stays NULL); *dA, *ldda where it
 * is. */
static int lower_on_device(hyla_t *ctx, int di, hyla_dtype t, int lower, int64_t n, void *A,
                           int64_t lda, int up, int check, void **dW, void **dA,
                           int64_t *ldda) {
    hyla_dev *d = ctx->devs[di];
    int rc = 0;
    *dA = A, *ldda = lda;
    if (up) {
        rc = hyla_xfer_upload_lower(ctx, di, t, lower, n, A, lda, check, dW);
    } else if (!lower) {
        rc = d->ops->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * n) * hyla_dtype_size(t), dW);
        if (!rc) rc = hyla_lower_from_upper(ctx, di, t, n, A, lda, *dW, n);
    }
    if (*dW) *dA = *dW, *ldda = n;
    return rc;
}

/* 1 when the backend's one-stage solver takes order n (HYLA_OPT_EIG_ONE_STAGE,
 * else the tuning table's crossover; the measurements are in tuning.c). */
static int one_stage(const hyla_t *ctx, const hyla_dev *d, hyla_dtype t, int vec, int64_t n) {
    if (!d->ops->alg->heevd || ctx->opt_eig_one_stage == 1) return 0;
    const int64_t top = ctx->opt_eig_one_stage >= 2 ? ctx->opt_eig_one_stage
                                                    : hyla_tuning_for(d)->eig_one_stage[vec][t];
    return n <= top;
}

/* The one-stage path of eig_run (same arguments; st: its stats): the lower
 * triangle on the device (the caller's dA itself for a device-resident
 * uplo L), the backend's heevd op, w down, and the eigenvectors where the
 * caller expects them. */
static int eig_one(hyla_t *ctx, hyla_dtype t, int vec, int lower, int64_t n, void *A,
                   int64_t lda, void *w, int dev, int check, hyla_eig_stats *st) {
    const int host = dev < 0, di = host ? 0 : dev;
    hyla_dev *d = ctx->devs[di];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(hyla_dtype_real(t));
    hyla_dev_workspace *ws = NULL;
    void *dW = NULL, *dw = NULL, *dA = A;
    int64_t ldda = lda;
    int info = 0, rc = 0;
    double tt = hyla_wtime();
    HYLA_TRY(hyla_workspace_get(ctx, di, 0, 0, &ws));
    HYLA_TRY(lower_on_device(ctx, di, t, lower, n, A, lda, host, check, &dW, &dA, &ldda));
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)n * rs, &dw));
    st->transfers += hyla_wtime() - tt;
    tt = hyla_wtime();
    HYLA_TRY(o->alg->heevd(ws->q_comp, t, vec, n, dA, ldda, dw, &info));
    st->tridiag = hyla_wtime() - tt;
    tt = hyla_wtime();
    HYLA_TRY(o->copy_2d(ws->q_comp, w, (size_t)n * rs, dw, (size_t)n * rs, (size_t)n * rs, 1,
                        HYLA_COPY_D2H));
    /* the eigenvectors into the caller's A: down from the work copy, or
     * across from the lower copy of an upper-stored device matrix */
    if (vec && info == 0 && dW)
        HYLA_TRY(o->copy_2d(ws->q_comp, A, (size_t)lda * es, dW, (size_t)n * es, (size_t)n * es,
                            (size_t)n, host ? HYLA_COPY_D2H : HYLA_COPY_D2D));
    HYLA_TRY(o->queue_sync(ws->q_comp));
    st->transfers += hyla_wtime() - tt;
    rc = info; /* > 0: no convergence (LAPACK's info) */
cleanup:
    if (rc < 0 && ws) o->queue_sync(ws->q_comp);
    o->mem_free(d, HYLA_MEM_DEVICE, dw);
    o->mem_free(d, HYLA_MEM_DEVICE, dW);
    return rc;
}

/* The one-stage path for a part of the spectrum (the backend's heevr op;
 * arguments as eig_one's, p the part): the lower triangle on the device,
 * the op, the wanted eigenvalues and vectors down. */
static int eig_one_part(hyla_t *ctx, hyla_dtype t, int lower, int64_t n, void *A, int64_t lda,
                        void *w, int dev, int check, const hyla_eig_part *p,
                        hyla_eig_stats *st) {
    const int host = dev < 0, di = host ? 0 : dev;
    hyla_dev *d = ctx->devs[di];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(hyla_dtype_real(t));
    const int vec = p->Z != NULL;
    const int64_t cols = p->range == 'I' ? p->iu - p->il + 1 : n;
    hyla_dev_workspace *ws = NULL;
    void *dW = NULL, *dw = NULL, *dZ = NULL, *dA = A;
    int64_t ldda = lda, m = 0;
    int info = 0, rc = 0;
    double tt = hyla_wtime();
    HYLA_TRY(hyla_workspace_get(ctx, di, 0, 0, &ws));
    HYLA_TRY(lower_on_device(ctx, di, t, lower, n, A, lda, host, check, &dW, &dA, &ldda));
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)n * rs, &dw));
    if (vec) HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * cols) * es, &dZ));
    st->transfers += hyla_wtime() - tt;
    tt = hyla_wtime();
    HYLA_TRY(o->alg->heevr(ws->q_comp, t, vec, p->range, p->vl, p->vu, p->il, p->iu, n, dA,
                           ldda, &m, dw, dZ, n, &info));
    st->tridiag = hyla_wtime() - tt;
    if (info) {
        rc = info; /* > 0: no convergence (LAPACK's info) */
        goto cleanup;
    }
    tt = hyla_wtime();
    HYLA_TRY(o->copy_2d(ws->q_comp, w, (size_t)n * rs, dw, (size_t)n * rs, (size_t)m * rs, 1,
                        HYLA_COPY_D2H));
    if (vec && m > 0)
        HYLA_TRY(o->copy_2d(ws->q_comp, p->Z, (size_t)p->ldz * es, dZ, (size_t)n * es,
                            (size_t)n * es, (size_t)m, HYLA_COPY_D2H));
    HYLA_TRY(o->queue_sync(ws->q_comp));
    st->transfers += hyla_wtime() - tt;
    *p->m = m;
cleanup:
    if (rc < 0 && ws) o->queue_sync(ws->q_comp);
    o->mem_free(d, HYLA_MEM_DEVICE, dZ);
    o->mem_free(d, HYLA_MEM_DEVICE, dw);
    o->mem_free(d, HYLA_MEM_DEVICE, dW);
    return rc;
}

/* hyla_eig_part_keep where the eigenvectors (A, ld lda) are in the memory
 * of device di: the wanted columns down into p->Z, the wanted values to the
 * front of w. */
static int part_keep_dev(hyla_t *ctx, int di, hyla_dtype t, int64_t n, const void *A,
                         int64_t lda, void *w, const hyla_eig_part *p) {
    hyla_dev *d = ctx->devs[di];
    const size_t es = hyla_dtype_size(t);
    hyla_dev_workspace *ws;
    int64_t j0, j1;
    hyla_eig_part_span(hyla_dtype_real(t), n, w, p, &j0, &j1);
    if (p->Z && j1 > j0) {
        int rc = hyla_workspace_get(ctx, di, 0, 0, &ws);
        if (!rc)
            rc = d->ops->copy_2d(ws->q_comp, p->Z, (size_t)p->ldz * es,
                                 hyla_elem(A, 0, j0, lda, es), (size_t)lda * es, (size_t)n * es,
                                 (size_t)(j1 - j0), HYLA_COPY_D2H);
        const int rs = rc ? 0 : d->ops->queue_sync(ws->q_comp);
        if (rc || rs) return rc ? rc : rs;
    }
    hyla_eig_part vals = *p;
    vals.Z = NULL;
    hyla_eig_part_keep(t, n, NULL, lda, w, &vals);
    return 0;
}

int hyla_eig_part_all_devices(const hyla_t *ctx, int vec, int64_t n, const hyla_eig_part *part) {
    const int64_t want = !part ? n
                         : part->range == 'A' ? n
                         : part->range == 'I' ? part->iu - part->il + 1
                                              : 0;
    return hyla_eig_all_devices(ctx, vec, n) &&
           want * 1000 >= hyla_tuning_for(ctx->devs[0])->eig_subset_mgpu_pml * n;
}

/* Tier 2 of the driver (arguments checked, n > 0). dev >= 0: A is in the
 * memory of device dev; dev < 0: A is host memory and device 0 does the
 * work. w receives the eigenvalues (real type), ascending. */
/* Whether a host-resident call takes every device of the context
 * (HYLA_OPT_EIG_DEVICES): asked for, or automatic from the tuning table's
 * order for jobz (eig_mgpu_min_n: on GPUs with eigenvectors from n =
 * 16384, eigenvalues alone never; on host devices, whose multi-device path
 * the tests cover, always). */
int hyla_eig_all_devices(const hyla_t *ctx, int vec, int64_t n) {
    if (ctx->ndev < 2) return 0;
    if (ctx->opt_eig_devices != 0) return ctx->opt_eig_devices == 2;
    return n >= hyla_tuning_for(ctx->devs[0])->eig_mgpu_min_n[vec ? 1 : 0];
}

static int eig_run(hyla_t *ctx, hyla_dtype t, int vec, int lower, int64_t n, void *A,
                   int64_t lda, void *w, int dev, const hyla_eig_part *part) {
    const int host = dev < 0, di = host ? 0 : dev;
    hyla_dev *d = ctx->devs[di];
    const hyla_backend_ops *o = d->ops;
    const hyla_dtype rt = hyla_dtype_real(t);
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(rt);
    hyla_eig_stats st = {0};
    hyla_sy2sb_q *q1 = NULL;
    hyla_sb2st_q *q2 = NULL;
    hyla_dev_workspace *ws = NULL;
    void *dW = NULL, *AB = NULL, *e = NULL;
    void *dZ = NULL;
    int64_t ldz = 0, kd, nb;
    int rc = 0;
    double t0 = hyla_wtime(), tt;

    /* NaN or Inf in the triangle read: refused before any work (hyla.h,
     * "NaN and Inf"), scanned where A is; host-resident input for one GPU
     * on the GPU as the triangle comes up, the caller's A still only read
     * (the host cores' pass took 0.019 s of dsyevd's 0.70 s without vectors
     * at n = 16384, 0.040 s of zheevd's 1.16 s; one H100,
     * bench/results/syevd-resident-h100.md) */
    /* a part of the spectrum: every device (all pairs, the wanted kept)
     * only for a large share of it (eig_subset_mgpu_pml), else its own
     * path on device 0 */
    const int mgpu = host && hyla_eig_part_all_devices(ctx, vec, n, part);
    const int scan_up = host && !mgpu && !d->ops->mem_host;
    if (host && !scan_up && hyla_nonfinite(t, lower ? 0 : 1, 0, n, n, A, lda))
        return HYLA_ERR_NAN;
    if (!host) HYLA_TRY(hyla_check_finite_dev(ctx, di, t, lower ? 0 : 1, 0, n, n, A, lda));
    if (one_stage(ctx, d, t, vec, n)) {
        if (part && o->alg->heevr) {
            rc = eig_one_part(ctx, t, lower, n, A, lda, w, dev, scan_up, part, &st);
        } else {
            rc = eig_one(ctx, t, vec, lower, n, A, lda, w, dev, scan_up, &st);
            if (!rc && part && (host || o->mem_host)) hyla_eig_part_keep(t, n, A, lda, w, part);
            else if (!rc && part) rc = part_keep_dev(ctx, di, t, n, A, lda, w, part);
        }
        st.total = hyla_wtime() - t0;
        ctx->eig_stats = st;
        return rc;
    }
    if (mgpu) {
        rc = hyla_eig_syevd_mgpu(ctx, t, vec, lower, n, A, lda, w, &st);
        if (!rc && part) hyla_eig_part_keep(t, n, A, lda, w, part);
        ctx->eig_stats = st;
        return rc;
    }
    hyla_eig_sy2sb_sizes_jobz(ctx, di, t, vec, &kd, &nb);
    if (kd > n - 1) { /* the whole matrix is one band: no wider storage than needed */
        kd = HYLA_MAX(1, n - 1);
        nb = kd;
    }
    st.kd = kd, st.nb = nb;
    HYLA_TRY(hyla_workspace_get(ctx, di, 0, 0, &ws));

    /* the lower triangle on the device: the caller's dA itself (uplo L), or
     * a work copy */
    void *dA = A;
    int64_t ldda = lda;
    /* host backend, jobz V, uplo L: A is already in the device's memory and
     * is overwritten anyway; stage 1 and the back transformations work in
     * it directly, with no copy in or out */
    const int inplace = host && vec && lower && d->ops->mem_host;
    tt = hyla_wtime();
    HYLA_TRY(lower_on_device(ctx, di, t, lower, n, A, lda, host && !inplace, scan_up, &dW, &dA,
                             &ldda));
    st.transfers += hyla_wtime() - tt;

    /* stages 1 and 2 (at the same time on a GPU) */
    AB = hyla_calloc((size_t)((kd + 1) * n), es);
    e = hyla_malloc((size_t)n * rs);
    if (!AB || !e) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    HYLA_TRY(hyla_eig_stages12(ctx, di, t, n, kd, nb, dA, ldda, AB, kd + 1, vec ? &q1 : NULL, w,
                               e, vec ? &q2 : NULL, chase_mode(ctx, d, n, kd), &st.sy2sb,
                               &st.sb2st));
    st.panels_cholqr = ctx->eig_stats.panels_cholqr;
    st.sy2sb_wait = ctx->eig_stats.sy2sb_wait;
    st.sy2sb_host = ctx->eig_stats.sy2sb_host;

    /* a part of the spectrum: its own tridiagonal solve and the back
     * transformations on the wanted columns */
    if (part) {
        HYLA_TRY(hyla_eig_part_solve(ctx, di, t, n, q1, q2, w, e, part, &st));
        goto cleanup;
    }
    /* the tridiagonal eigensolver */
    tt = hyla_wtime();
    if (!vec) {
        HYLA_TRY(hyla_eig_tri_values(ctx, di, rt, n, w, e));
        st.tridiag = hyla_wtime() - tt;
        goto cleanup;
    }
    /* the eigenvectors where they will be returned: the caller's dA, or
     * the work copy for the host entry */
    dZ = host && !inplace ? dW : A;
    ldz = host && !inplace ? n : lda;
    HYLA_TRY(hyla_eig_vectors(ctx, di, t, n, q1, q2, w, e, dZ, ldz, host && !inplace ? A : NULL,
                              lda, (int)ctx->opt_eig_order, &st));

cleanup:
    if (rc && ws) o->queue_sync(ws->q_in);
    hyla_eig_sy2sb_q_free(ctx, &q1);
    hyla_sb2st_q_free(&q2);
    o->mem_free(d, HYLA_MEM_DEVICE, dW);
    hyla_free(AB);
    hyla_free(e);
    st.total = hyla_wtime() - t0;
    ctx->eig_stats = st;
    return rc;
}

int hyla_eig_part_run(hyla_t *ctx, hyla_dtype t, int lower, int64_t n, void *A, int64_t lda,
                      void *w, const hyla_eig_part *p) {
    return eig_run(ctx, t, p->Z != NULL, lower, n, A, lda, w, -1, p);
}

int hyla_eig_part_run_dev(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, void *dA, int64_t ldda,
                          void *w, const hyla_eig_part *p) {
    return eig_run(ctx, t, p->Z != NULL, 1, n, dA, ldda, w, dev, p);
}

/* ---------------------------------------------------- stage 1 on its own */

static int parse_uplo(char c, int *lower) {
    switch (c) {
    case 'L': case 'l': *lower = 1; return 0;
    case 'U': case 'u': *lower = 0; return 0;
    default: return -1;
    }
}

/* sytrd_sy2sb: 1 uplo, 2 n, 3 kd, 4 A, 5 lda, 6 AB, 7 ldab, 8 tau */
static int sy2sb_public(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, int64_t kd, void *A,
                        int64_t lda, void *AB, int64_t ldab, void *tau) {
    int lower;
    if (!ctx) return HYLA_ERR_INVALID;
    if (parse_uplo(uplo, &lower)) return -1;
    if (n < 0) return -2;
    if (kd < 1) return -3;
    if (!A && n > 0) return -4;
    if (lda < HYLA_MAX(1, n)) return -5;
    if (!AB && n > 0) return -6;
    if (ldab < kd + 1) return -7;
    if (!tau && n > 0) return -8;
    if (!hyla_size_ok(n, n, lda) || !hyla_size_ok(kd + 1, n, ldab)) return -2;
    if (n == 0) return 0;
    int64_t kd0, nb;
    hyla_eig_sy2sb_sizes(ctx, 0, t, &kd0, &nb);
    nb = HYLA_MAX(kd, nb / kd * kd);
    void *dA = NULL;
    int rc = hyla_xfer_upload_lower(ctx, 0, t, lower, n, A, lda, 0, &dA);
    if (!rc) rc = hyla_eig_sy2sb(ctx, 0, t, n, kd, nb, dA, n, AB, ldab, NULL, A, lda, tau);
    ctx->devs[0]->ops->mem_free(ctx->devs[0], HYLA_MEM_DEVICE, dA);
    return rc;
}

/* ormtr_sy2sb: 1 trans, 2 n, 3 kd, 4 ncols, 5 A, 6 lda, 7 tau, 8 C, 9 ldc */
static int ormtr_public(hyla_t *ctx, hyla_dtype t, char trans, int64_t n, int64_t kd,
                        int64_t ncols, const void *A, int64_t lda, const void *tau, void *C,
                        int64_t ldc) {
    int conj;
    if (!ctx) return HYLA_ERR_INVALID;
    switch (trans) {
    case 'N': case 'n': conj = 0; break;
    case 'T': case 't': case 'C': case 'c': conj = 1; break;
    default: return -1;
    }
    if (n < 0) return -2;
    if (kd < 1) return -3;
    if (ncols < 0) return -4;
    if (!A && n > 0) return -5;
    if (lda < HYLA_MAX(1, n)) return -6;
    if (!tau && n > 0) return -7;
    if (!C && n > 0 && ncols > 0) return -8;
    if (ldc < HYLA_MAX(1, n)) return -9;
    if (!hyla_size_ok(n, n, lda)) return -2;
    if (!hyla_size_ok(n, ncols, ldc)) return -4;
    if (hyla_eig_sy2sb_npanels(n, kd) == 0 || ncols == 0) return 0;
    hyla_dev *d = ctx->devs[0];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(t);
    hyla_sy2sb_q *q = NULL;
    hyla_dev_workspace *ws;
    void *dC = NULL;
    int rc = 0;
    HYLA_TRY(hyla_workspace_get(ctx, 0, 0, 0, &ws));
    HYLA_TRY(hyla_eig_sy2sb_q_from_host(ctx, 0, t, n, kd, A, lda, tau, &q));
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * ncols) * es, &dC));
    HYLA_TRY(o->copy_2d(ws->q_in, dC, (size_t)n * es, C, (size_t)ldc * es, (size_t)n * es,
                        (size_t)ncols, HYLA_COPY_H2D));
    HYLA_TRY(o->queue_sync(ws->q_in));
    HYLA_TRY(hyla_eig_sy2sb_back(ctx, q, conj, ncols, dC, n));
    HYLA_TRY(o->copy_2d(ws->q_in, C, (size_t)ldc * es, dC, (size_t)n * es, (size_t)n * es,
                        (size_t)ncols, HYLA_COPY_D2H));
    HYLA_TRY(o->queue_sync(ws->q_in));
cleanup:
    o->mem_free(d, HYLA_MEM_DEVICE, dC);
    hyla_eig_sy2sb_q_free(ctx, &q);
    return rc;
}

#define HYLA_TEMPLATE "eig/t_syevd.c"
#include "base/each_prec.h"

#define HYLA_TEMPLATE "eig/t_sy2sb.c"
#include "base/each_prec.h"
