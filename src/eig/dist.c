/* The distributed matrix (hyla.h: hyla_dist_matrix, hyla_dist_create /
 * destroy / set / get): an n x n matrix dealt by blocks of columns over the
 * devices of a context, in the layout stage 1 of the multi-device
 * eigensolver takes (hyla_eig_dist_make: boundaries on its update block,
 * the blocks weighted by the work of their columns); and the completion of
 * a Hermitian one stored by one triangle (hyla_eig_dist_mirror). */
#include "eig/mgpu.h"
#include <string.h>

/* The triangle of the distributed Hermitian matrix that is not stored
 * (lower: the upper one) := the conjugate transpose of the stored one, so
 * that both hold the matrix; the diagonal's imaginary parts are cleared.
 * Blocks of other devices are copied in by pieces of at most CB columns
 * into a staging buffer and transposed there (geam). */
int hyla_eig_dist_mirror(hyla_t *ctx, hyla_dtype t, int lower, const hyla_eig_dist *ds,
                         void **dA, const int64_t *ld) {
    enum { CB = 1024 };
    const size_t es = hyla_dtype_size(t);
    const int cplx = t == HYLA_C || t == HYLA_Z;
    const void *zero = hyla_scalar(t, HYLA_SC_ZERO), *onev = hyla_scalar(t, HYLA_SC_ONE);
    int rc = 0;
    for (int g = 0; g < ds->nd && !rc; g++) {
        const int64_t a = ds->c[g], b = ds->c[g + 1], wg = b - a;
        if (wg == 0) continue;
        hyla_dev *d = ctx->devs[g];
        const hyla_backend_ops *o = d->ops;
        hyla_dev_workspace *ws;
        void *S = NULL, *Z0 = NULL;
        HYLA_TRY(hyla_workspace_get(ctx, g, 0, 0, &ws));
        hyla_queue *q = ws->q_comp;
        rc = o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(HYLA_MAX(wg, CB) * wg) * es, &S);
        if (!rc && cplx) rc = o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)wg * es, &Z0);
        for (int h = 0; !rc && h < ds->nd; h++) {
            const int64_t c = ds->c[h], e = ds->c[h + 1];
            if (e == c) continue;
            if (h == g) {
                /* the diagonal block: S = its conjugate transpose, the
                 * missing triangle copied over column by column */
                rc = o->geam(q, t, cplx ? HYLA_CONJTRANS : HYLA_TRANS, wg, wg, onev,
                             hyla_elem(dA[g], a, 0, ld[g], es), ld[g], zero, S, wg);
                for (int64_t j = 0; !rc && j < wg; j++) {
                    const int64_t i0 = lower ? 0 : j + 1, i1 = lower ? j : wg;
                    if (i1 > i0)
                        rc = o->copy_2d(q, hyla_elem(dA[g], a + i0, j, ld[g], es), (size_t)ld[g] * es,
                                        hyla_elem(S, i0, j, wg, es), (size_t)wg * es,
                                        (size_t)(i1 - i0) * es, 1, HYLA_COPY_D2D);
                }
                if (!rc && cplx) /* imaginary parts of the diagonal: zero */
                    rc = o->scale(q, t, wg, 1, zero, Z0, wg);
                if (!rc && cplx)
                    rc = o->copy_2d(q, (unsigned char *)hyla_elem(dA[g], a, 0, ld[g], es) + es / 2,
                                    (size_t)(ld[g] + 1) * es, Z0, es, es / 2, (size_t)wg,
                                    HYLA_COPY_D2D);
                continue;
            }
            /* rows c..e of this block are missing when device h's columns
             * lie on the stored side: rows above (lower stored, h < g) or
             * below (upper stored, h > g); they are the conjugate transpose
             * of rows a..b of device h's block */
            if (lower ? h > g : h < g) continue;
            for (int64_t k0 = c; !rc && k0 < e; k0 += CB) {
                const int64_t kc = HYLA_MIN(CB, e - k0);
                rc = o->copy_2d(q, S, (size_t)wg * es, hyla_elem(dA[h], a, k0 - c, ld[h], es),
                                (size_t)ld[h] * es, (size_t)wg * es, (size_t)kc, HYLA_COPY_D2D);
                if (!rc)
                    rc = o->geam(q, t, cplx ? HYLA_CONJTRANS : HYLA_TRANS, kc, wg, onev, S, wg,
                                 zero, hyla_elem(dA[g], k0, 0, ld[g], es), ld[g]);
            }
        }
        const int rs = o->queue_sync(q);
        if (!rc) rc = rs;
        o->mem_free(d, HYLA_MEM_DEVICE, S);
        o->mem_free(d, HYLA_MEM_DEVICE, Z0);
    }
cleanup:
    return rc;
}

int hyla_dist_create(hyla_t *ctx, hyla_dtype dtype, int64_t n, hyla_dist_matrix **out) {
    HYLA_SERIAL(ctx);
    if (!ctx) return -1;
    if ((unsigned)dtype > HYLA_Z) return -2;
    if (n < 0 || !hyla_size_ok(n, n, n)) return -3;
    if (!out) return -4;
    *out = NULL;
    hyla_dist_matrix *A = hyla_calloc(1, sizeof *A);
    if (!A) return HYLA_ERR_NO_MEMORY;
    int64_t kd, nb;
    int sbr, ar, rc = 0;
    const size_t es = hyla_dtype_size(dtype);
    hyla_eig_mgpu_sizes(ctx, dtype, 1, n, &kd, &nb);
    hyla_eig_mgpu_variants(ctx, &sbr, &ar);
    hyla_eig_dist ds;
    A->dtype = dtype, A->n = n, A->ndev = HYLA_MIN(ctx->ndev, HYLA_MAX_DEVICES), A->align = nb;
    hyla_eig_dist_make(A->ndev, n, nb, sbr == HYLA_EIG_SBR_FULL ? HYLA_EIG_W_FULL : HYLA_EIG_W_HALF,
                       &ds);
    memcpy(A->col, ds.c, sizeof(int64_t) * (size_t)(A->ndev + 1));
    for (int g = 0; g < A->ndev; g++) {
        hyla_dev *d = ctx->devs[g];
        const int64_t wg = A->col[g + 1] - A->col[g];
        A->ld[g] = HYLA_MAX(1, n);
        if (wg > 0) HYLA_TRY(d->ops->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * wg) * es, &A->block[g]));
    }
    *out = A, A = NULL;
cleanup:
    hyla_dist_destroy(ctx, &A);
    return rc;
}

void hyla_dist_destroy(hyla_t *ctx, hyla_dist_matrix **A) {
    HYLA_SERIAL(ctx);
    if (!A || !*A) return;
    for (int g = 0; ctx && g < (*A)->ndev && g < ctx->ndev; g++)
        ctx->devs[g]->ops->mem_free(ctx->devs[g], HYLA_MEM_DEVICE, (*A)->block[g]);
    hyla_free(*A);
    *A = NULL;
}

static int dist_xfer(hyla_t *ctx, const hyla_dist_matrix *A, int up, void *h, int64_t ld) {
    if (!ctx) return -1;
    if (!A || A->ndev != HYLA_MIN(ctx->ndev, HYLA_MAX_DEVICES)) return -2;
    if (!h && A->n > 0) return -3;
    if (ld < HYLA_MAX(1, A->n)) return -4;
    const size_t es = hyla_dtype_size(A->dtype);
    for (int g = 0; g < A->ndev; g++) {
        const int64_t wg = A->col[g + 1] - A->col[g];
        int rc = wg ? hyla_xfer_matrix(ctx, g, A->dtype, up, A->n, wg,
                                           hyla_elem(h, 0, A->col[g], ld, es), ld, A->block[g], A->ld[g])
                    : 0;
        if (rc) return rc;
    }
    return 0;
}

int hyla_dist_set(hyla_t *ctx, hyla_dist_matrix *A, const void *src, int64_t ld) {
    HYLA_SERIAL(ctx);
    return dist_xfer(ctx, A, 1, (void *)src, ld);
}

int hyla_dist_get(hyla_t *ctx, const hyla_dist_matrix *A, void *dst, int64_t ld) {
    HYLA_SERIAL(ctx);
    return dist_xfer(ctx, A, 0, dst, ld);
}
