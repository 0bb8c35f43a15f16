/* The two-stage eigensolver drivers ?syevd / ?heevd (host and _gpu), one
 * source for s, d, c, z through t_syevd.c.
 *
 *   A (device dev) --stage 1, sy2sb.c--> band B (host, lower band storage)
 *     --stage 2, sb2st.c (host cores)--> real tridiagonal (d, e)
 *     --jobz N: sterf / jobz V: stedc (tridiag.c)--> eigenvalues, real Z
 *   jobz V: Z to the device as type t --Q2 (sb2st back)--> --Q1 (sy2sb back)--> eigenvectors.
 */
#include "eig/sb2st.h"
#include "eig/sy2sb.h"
#include "eig/tridiag.h"
#include <math.h>
#include <string.h>

int hyla_get_eig_stats(const hyla_t *ctx, hyla_eig_stats *stats) {
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
    return 0;
}

static hyla_dtype real_of(hyla_dtype t) { return t == HYLA_C ? HYLA_S : t == HYLA_Z ? HYLA_D : t; }

/* 1 when the referenced triangle of the host matrix holds NaN or Inf */
static int has_nonfinite(hyla_dtype t, int lower, int64_t n, const void *A, int64_t lda) {
    const int64_t per = (t == HYLA_C || t == HYLA_Z) ? 2 : 1;
    for (int64_t j = 0; j < n; j++) {
        int64_t i0 = lower ? j : 0, i1 = lower ? n : j + 1;
        if (t == HYLA_S || t == HYLA_C) {
            const float *c = (const float *)A + (i0 + j * lda) * per;
            for (int64_t i = 0; i < (i1 - i0) * per; i++)
                if (!isfinite(c[i])) return 1;
        } else {
            const double *c = (const double *)A + (i0 + j * lda) * per;
            for (int64_t i = 0; i < (i1 - i0) * per; i++)
                if (!isfinite(c[i])) return 1;
        }
    }
    return 0;
}

/* 1 when the band (lower band storage, ld kd + 1) holds NaN or Inf: a
 * device-resident input is not scanned, its non-finite entries reach the
 * band. */
static int band_nonfinite(hyla_dtype t, int64_t kd, int64_t n, const void *AB) {
    const int64_t per = (t == HYLA_C || t == HYLA_Z) ? 2 : 1;
    for (int64_t j = 0; j < n; j++) {
        const int64_t len = HYLA_MIN(kd + 1, n - j) * per, off = j * (kd + 1) * per;
        if (t == HYLA_S || t == HYLA_C) {
            for (int64_t i = 0; i < len; i++)
                if (!isfinite(((const float *)AB)[off + i])) return 1;
        } else {
            for (int64_t i = 0; i < len; i++)
                if (!isfinite(((const double *)AB)[off + i])) return 1;
        }
    }
    return 0;
}

/* Tier 2 of the driver (arguments checked, n > 0). dev >= 0: A is in the
 * memory of device dev; dev < 0: A is host memory and device 0 does the
 * work. w receives the eigenvalues (real type), ascending. */
static int eig_run(hyla_t *ctx, hyla_dtype t, int vec, int lower, int64_t n, void *A,
                   int64_t lda, void *w, int dev) {
    const int host = dev < 0, di = host ? 0 : dev;
    hyla_dev *d = ctx->devs[di];
    const hyla_backend_ops *o = d->ops;
    const hyla_dtype rt = real_of(t);
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(rt);
    hyla_eig_stats st = {0};
    hyla_sy2sb_q *q1 = NULL;
    hyla_sb2st_q *q2 = NULL;
    hyla_dev_workspace *ws = NULL;
    void *dW = NULL, *AB = NULL, *e = NULL, *Zr = NULL, *Zc = NULL;
    void *dZ = NULL;
    int64_t ldz = 0, kd, nb;
    int rc = 0;
    double t0 = hyla_wtime(), tt;

    if (host && has_nonfinite(t, lower, n, A, lda)) return HYLA_ERR_NAN;
    hyla_eig_sy2sb_sizes(ctx, di, t, &kd, &nb);
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
    const int inplace = host && vec && lower && d->info.kind == HYLA_DEVICE_HOST;
    tt = hyla_wtime();
    if (host && !inplace) {
        HYLA_TRY(hyla_eig_upload_lower(ctx, di, t, lower, n, A, lda, &dW));
        dA = dW, ldda = n;
    } else if (!lower) {
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * n) * es, &dW));
        HYLA_TRY(hyla_eig_lower_from_upper(ctx, di, t, n, A, lda, dW, n));
        dA = dW, ldda = n;
    }
    st.transfers += hyla_wtime() - tt;

    /* stage 1 */
    AB = hyla_calloc((size_t)((kd + 1) * n), es);
    e = hyla_malloc((size_t)n * rs);
    if (!AB || !e) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    tt = hyla_wtime();
    HYLA_TRY(hyla_eig_sy2sb(ctx, di, t, n, kd, nb, dA, ldda, AB, kd + 1, vec ? &q1 : NULL, NULL,
                            0, NULL));
    st.sy2sb = hyla_wtime() - tt;
    if (band_nonfinite(t, kd, n, AB)) HYLA_TRY(HYLA_ERR_NAN);

    /* stage 2 and the tridiagonal eigensolver on the host */
    tt = hyla_wtime();
    HYLA_TRY(hyla_eig_sb2st(ctx, t, n, kd, AB, kd + 1, w, e, vec ? &q2 : NULL));
    st.sb2st = hyla_wtime() - tt;
    tt = hyla_wtime();
    if (!vec) {
        HYLA_TRY(hyla_eig_sterf(rt, n, w, e));
        st.tridiag = hyla_wtime() - tt;
        goto cleanup;
    }
    Zr = hyla_malloc((size_t)(n * n) * rs);
    if (!Zr) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    HYLA_TRY(hyla_eig_stedc(ctx, rt, n, w, e, Zr, n));
    st.tridiag = hyla_wtime() - tt;
    st.stedc_lower = ctx->eig_stats.stedc_lower;
    st.stedc_deflate = ctx->eig_stats.stedc_deflate;
    st.stedc_secular = ctx->eig_stats.stedc_secular;
    st.stedc_gemm = ctx->eig_stats.stedc_gemm;
    st.stedc_copy = ctx->eig_stats.stedc_copy;

    /* Z to the device (as type t) where the eigenvectors will be: the
     * caller's dA, or the work copy for the host entry */
    tt = hyla_wtime();
    dZ = host && !inplace ? dW : A;
    ldz = host && !inplace ? n : lda;
    const void *Zsrc = Zr;
    if (t == HYLA_C || t == HYLA_Z) {
        Zc = hyla_malloc((size_t)(n * n) * es);
        if (!Zc) HYLA_TRY(HYLA_ERR_NO_MEMORY);
        for (int64_t i = 0; i < n * n; i++) {
            if (t == HYLA_C)
                ((float *)Zc)[2 * i] = ((float *)Zr)[i], ((float *)Zc)[2 * i + 1] = 0.0f;
            else
                ((double *)Zc)[2 * i] = ((double *)Zr)[i], ((double *)Zc)[2 * i + 1] = 0.0;
        }
        Zsrc = Zc;
    }
    HYLA_TRY(hyla_eig_xfer_matrix(ctx, di, t, 1, n, n, (void *)Zsrc, n, dZ, ldz));
    st.transfers += hyla_wtime() - tt;

    /* back transformations on the device: Z := Q1 (Q2 Z) */
    tt = hyla_wtime();
    HYLA_TRY(hyla_eig_sb2st_back(ctx, di, q2, n, dZ, ldz));
    st.back2 = hyla_wtime() - tt;
    tt = hyla_wtime();
    HYLA_TRY(hyla_eig_sy2sb_back(ctx, q1, 0, n, dZ, ldz));
    st.back1 = hyla_wtime() - tt;
    if (host && !inplace) {
        tt = hyla_wtime();
        HYLA_TRY(hyla_eig_xfer_matrix(ctx, di, t, 0, n, n, A, lda, dZ, n));
        st.transfers += hyla_wtime() - tt;
    }

cleanup:
    if (rc && ws) o->queue_sync(ws->q_in);
    hyla_eig_sy2sb_q_free(ctx, &q1);
    hyla_sb2st_q_free(&q2);
    o->mem_free(d, HYLA_MEM_DEVICE, dW);
    hyla_free(AB);
    hyla_free(e);
    hyla_free(Zr);
    hyla_free(Zc);
    st.total = hyla_wtime() - t0;
    ctx->eig_stats = st;
    return rc;
}

#define HYLA_TEMPLATE "eig/t_syevd.c"
#include "core/each_prec.h"
