/* GEMM public drivers: the precision-independent checks, then t_gemm.c once
 * per precision. */
#include "gemm/pgemm.h"
#include <ctype.h>

static int parse_op(char c, hyla_op *op) {
    switch (toupper((unsigned char)c)) {
    case 'N': *op = HYLA_NOTRANS; return 0;
    case 'T': *op = HYLA_TRANS; return 0;
    case 'C': *op = HYLA_CONJTRANS; return 0;
    default: return -1;
    }
}

/* BLAS argument checks in xerbla order; 0 or -i. */
static int hyla_gemm_check_args(char transa, char transb, int64_t m, int64_t n, int64_t k,
                                int64_t lda, int64_t ldb, int64_t ldc, hyla_op *ta, hyla_op *tb) {
    if (parse_op(transa, ta)) return -1;
    if (parse_op(transb, tb)) return -2;
    if (m < 0) return -3;
    if (n < 0) return -4;
    if (k < 0) return -5;
    if (lda < HYLA_MAX(1, *ta == HYLA_NOTRANS ? m : k)) return -8;
    if (ldb < HYLA_MAX(1, *tb == HYLA_NOTRANS ? k : n)) return -10;
    if (ldc < HYLA_MAX(1, m)) return -13;
    /* a matrix that cannot exist: the size that counts its columns */
    if (*ta == HYLA_NOTRANS ? !hyla_size_ok(m, k, lda) : !hyla_size_ok(k, m, lda))
        return *ta == HYLA_NOTRANS ? -5 : -3;
    if (*tb == HYLA_NOTRANS ? !hyla_size_ok(k, n, ldb) : !hyla_size_ok(n, k, ldb))
        return *tb == HYLA_NOTRANS ? -4 : -5;
    if (!hyla_size_ok(m, n, ldc)) return -4;
    return 0;
}

/* The device-pointer GEMM: one call of the device BLAS, then a wait. */
static int hyla_gemm_on_device(hyla_t *ctx, int dev, hyla_dtype t, hyla_op ta, hyla_op tb,
                               int64_t m, int64_t n, int64_t k, const void *alpha, const void *A,
                               int64_t lda, const void *B, int64_t ldb, const void *beta, void *C,
                               int64_t ldc) {
    hyla_dev_workspace *ws;
    int rc = hyla_workspace_get(ctx, dev, 0, 0, &ws);
    if (rc) return rc;
    const hyla_backend_ops *o = ctx->devs[dev]->ops;
    rc = o->gemm(ws->q_comp, t, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    int rs = o->queue_sync(ws->q_comp);
    return rc ? rc : rs;
}

#define HYLA_TEMPLATE "gemm/t_gemm.c"
#include "base/each_prec.h"
