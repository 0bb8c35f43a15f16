/* Stage 2 on a device (see phb2st_dev.h): the band goes up into a band of
 * 2 kd rows whose lower kd - 1 rows are zero (the bulge's room), the
 * backend chases it (with the reflectors: into a device-resident store),
 * d and e come back. */
#include "eig/phb2st_dev.h"
#include "eig/psb2st.h"
#include <complex.h>
#include <math.h>

/* 0 when every stored entry of the band is finite. */
static int band_finite(hyla_dtype t, int64_t n, int64_t kd, const void *AB, int64_t ldab) {
    const int cplx = t == HYLA_C || t == HYLA_Z, single = t == HYLA_S || t == HYLA_C;
    for (int64_t j = 0; j < n; j++) {
        const int64_t len = (HYLA_MIN(kd, n - 1 - j) + 1) * (cplx ? 2 : 1);
        const size_t off = (size_t)(j * ldab) * (cplx ? 2 : 1);
        for (int64_t r = 0; r < len; r++) {
            const double x = single ? ((const float *)AB)[off + (size_t)r]
                                    : ((const double *)AB)[off + (size_t)r];
            if (!isfinite(x)) return HYLA_ERR_NAN;
        }
    }
    return 0;
}

/* Both entries; q2 NULL: eigenvalues only. */
static int chase_dev(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, const void *AB,
                     int64_t ldab, void *d, void *e, hyla_sb2st_q **q2) {
    if (q2) *q2 = NULL;
    if (!ctx || (unsigned)t > HYLA_Z || n < 0 || kd < 0 || ldab < kd + 1 ||
        (n > 0 && (!AB || !d)) || (n > 1 && !e))
        return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    int rc = band_finite(t, n, kd, AB, ldab);
    if (rc) return rc;
    hyla_dev *dv = ctx->devs[dev];
    const hyla_backend_ops *o = dv->ops;
    if (q2 ? !o->alg->hb2st_v : !o->alg->hb2st) return HYLA_ERR_UNSUPPORTED;
    hyla_hb2st_store st;
    const int64_t kde = n > 0 ? HYLA_MIN(kd, n - 1) : 0;
    if (q2) {
        rc = hyla_sb2st_q_create_dev(ctx, dev, t, n, kde, q2, &st);
        if (rc) return rc;
    }
    if (n == 0) return 0;
    const size_t es = hyla_dtype_size(t), rs = es / (t == HYLA_C || t == HYLA_Z ? 2 : 1);
    const int64_t ldw = HYLA_MAX(1, 2 * kde);
    const size_t wbytes = HYLA_HB2ST_WORK_BYTES(n);
    void *dAB = NULL, *dd = NULL, *de = NULL, *dwork = NULL;
    unsigned char zero[16] = {0};
    hyla_dev_workspace *ws;
    if ((rc = hyla_workspace_get(ctx, dev, 0, 0, &ws)) != 0) {
        hyla_sb2st_q_free(q2);
        return rc;
    }
    hyla_queue *q = ws->q_comp;
    HYLA_TRY(o->mem_alloc(dv, HYLA_MEM_DEVICE, (size_t)(ldw * n) * es, &dAB));
    HYLA_TRY(o->mem_alloc(dv, HYLA_MEM_DEVICE, (size_t)n * rs, &dd));
    HYLA_TRY(o->mem_alloc(dv, HYLA_MEM_DEVICE, (size_t)HYLA_MAX(1, n - 1) * rs, &de));
    HYLA_TRY(o->mem_alloc(dv, HYLA_MEM_DEVICE, wbytes, &dwork));
    if (ldw > kde + 1)
        HYLA_TRY(o->laset(q, t, -1, ldw - kde - 1, n, zero, zero,
                          (char *)dAB + (size_t)(kde + 1) * es, ldw));
    /* the copy reads the caller's pageable memory as it is enqueued */
    HYLA_TRY(o->copy_2d(q, dAB, (size_t)ldw * es, AB, (size_t)ldab * es, (size_t)(kde + 1) * es,
                        (size_t)n, HYLA_COPY_H2D));
    const int step = (int)(ctx->opt_eig_chase_step ? ctx->opt_eig_chase_step
                                                   : hyla_tuning_for(dv)->eig_chase_step[t]);
    if (q2)
        HYLA_TRY(o->alg->hb2st_v(q, t, n, kde, dAB, ldw, dd, de, dwork, wbytes, step, &st));
    else
        HYLA_TRY(o->alg->hb2st(q, t, n, kde, dAB, ldw, dd, de, dwork, wbytes, step));
    HYLA_TRY(o->copy_2d(q, d, (size_t)n * rs, dd, (size_t)n * rs, (size_t)n * rs, 1,
                        HYLA_COPY_D2H));
    if (n > 1)
        HYLA_TRY(o->copy_2d(q, e, (size_t)(n - 1) * rs, de, (size_t)(n - 1) * rs,
                            (size_t)(n - 1) * rs, 1, HYLA_COPY_D2H));
cleanup:;
    int rs2 = o->queue_sync(q);
    if (!rc) rc = rs2;
    o->mem_free(dv, HYLA_MEM_DEVICE, dwork);
    o->mem_free(dv, HYLA_MEM_DEVICE, de);
    o->mem_free(dv, HYLA_MEM_DEVICE, dd);
    o->mem_free(dv, HYLA_MEM_DEVICE, dAB);
    if (rc && q2) hyla_sb2st_q_free(q2);
    return rc;
}

/* One H100, 16 host cores (suite syevd-small-h100, stage 2's time after
 * stage 1, bench/results/syevd.md): with eigenvectors, the host chase
 * (keeping its reflectors) took 0.013 / 0.022 / 0.082 / 0.157 s (d) and
 * 0.035 / 0.070 / 0.174 / 0.276 s (z) at n = 512 / 1024 / 2048 / 3000
 * against 0.009 / 0.019 / 0.038 / 0.057 s and 0.012 / 0.025 / 0.052 /
 * 0.077 s for the GPU kernel; values only, z: 0.032 / 0.062 / 0.153 /
 * 0.285 s against 0.011 / 0.024 / 0.050 / 0.075 s; values only, d, the
 * one case where the host was not slower: 0.007 / 0.018 s against 0.008 /
 * 0.018 s at 512 / 1024. The kernel's time grows as n whatever kd (about
 * 16 us a sweep, d, kd 64, since the late-row hand-off), the host chase's
 * as n^2 kd. */
int hyla_eig_dev_chase_takes(const hyla_dev *d, int64_t kd) {
    const int64_t top = d->ops->alg->hb2st_max_kd;
    return d->ops->alg->hb2st && (top == 0 || kd <= top);
}

int hyla_eig_dev_chase_auto(const hyla_dev *d, int64_t n, int64_t kd) {
    const int64_t from = hyla_tuning_for(d)->eig_chase_min_n;
    return from > 0 && hyla_eig_dev_chase_takes(d, kd) && n >= from;
}

int hyla_eig_hb2st_dev(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, const void *AB,
                       int64_t ldab, void *d, void *e) {
    return chase_dev(ctx, dev, t, n, kd, AB, ldab, d, e, NULL);
}

int hyla_eig_sb2st_dev(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, const void *AB,
                       int64_t ldab, void *d, void *e, hyla_sb2st_q **q) {
    if (!q) return HYLA_ERR_INVALID;
    return chase_dev(ctx, dev, t, n, kd, AB, ldab, d, e, q);
}
