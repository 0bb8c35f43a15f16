/* Tier 1 of LU, one source for s, d, c, z (included by lu.c). */

int PN(getrf)(hyla_t *ctx, int64_t m, int64_t n, T *A, int64_t lda, int64_t *ipiv) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    int info = getrf_check(m, n, A, lda, ipiv, 1);
    if (info || m == 0 || n == 0) return info;
    return lu_run(ctx, DT, m, n, A, lda, 1, ipiv, HYLA_NOTRANS, 0, NULL, 1, 1, 0, -1);
}

int PN(getrs)(hyla_t *ctx, char trans, int64_t n, int64_t nrhs, const T *A, int64_t lda,
              const int64_t *ipiv, T *B, int64_t ldb) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    hyla_op op;
    int info = getrs_check(0, trans, n, nrhs, A, lda, ipiv, 1, B, ldb, &op);
    if (info || n == 0 || nrhs == 0) return info;
    if (!pivots_ok(n, ipiv)) return -6;
    return lu_run(ctx, DT, n, n, (T *)A, lda, 1, (int64_t *)ipiv, op, nrhs, B, ldb, 0, 1, -1);
}

int PN(gesv)(hyla_t *ctx, int64_t n, int64_t nrhs, T *A, int64_t lda, int64_t *ipiv, T *B,
             int64_t ldb) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    hyla_op op = HYLA_NOTRANS;
    int info = getrs_check(1, 'N', n, nrhs, A, lda, ipiv, 1, B, ldb, &op);
    if (info || n == 0) return info;
    if (gesv_nonfinite(DT, n, nrhs, A, lda, B, ldb)) return HYLA_ERR_NAN;
    return lu_run(ctx, DT, n, n, A, lda, 1, ipiv, op, nrhs, B, ldb, 1, 1, -1);
}

int PN(getrf_gpu)(hyla_t *ctx, int dev, int64_t m, int64_t n, T *dA, int64_t ldda,
                  int64_t *ipiv) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    int info = getrf_check(m, n, dA, ldda, ipiv, 1);
    if (info || m == 0 || n == 0) return info;
    return lu_run(ctx, DT, m, n, dA, ldda, 1, ipiv, HYLA_NOTRANS, 0, NULL, 1, 1, 0, dev);
}

int PN(getrs_gpu)(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs, const T *dA,
                  int64_t ldda, const int64_t *ipiv, T *dB, int64_t lddb) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    hyla_op op;
    int info = getrs_check(0, trans, n, nrhs, dA, ldda, ipiv, 1, dB, lddb, &op);
    if (info || n == 0 || nrhs == 0) return info;
    if (!pivots_ok(n, ipiv)) return -6;
    return lu_run(ctx, DT, n, n, (T *)dA, ldda, 1, (int64_t *)ipiv, op, nrhs, dB, lddb, 0, 1,
                  dev);
}

int PN(getrf_nopiv)(hyla_t *ctx, int64_t m, int64_t n, T *A, int64_t lda) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    int info = getrf_check(m, n, A, lda, NULL, 0);
    if (info || m == 0 || n == 0) return info;
    return lu_run(ctx, DT, m, n, A, lda, 0, NULL, HYLA_NOTRANS, 0, NULL, 1, 1, 0, -1);
}

int PN(gesv_nopiv)(hyla_t *ctx, int64_t n, int64_t nrhs, T *A, int64_t lda, T *B, int64_t ldb) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    hyla_op op = HYLA_NOTRANS;
    int info = getrs_check(1, 'N', n, nrhs, A, lda, NULL, 0, B, ldb, &op);
    if (info || n == 0) return info;
    if (gesv_nonfinite(DT, n, nrhs, A, lda, B, ldb)) return HYLA_ERR_NAN;
    return lu_run(ctx, DT, n, n, A, lda, 0, NULL, op, nrhs, B, ldb, 1, 1, -1);
}

int PN(getrf_nopiv_gpu)(hyla_t *ctx, int dev, int64_t m, int64_t n, T *dA, int64_t ldda) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    int info = getrf_check(m, n, dA, ldda, NULL, 0);
    if (info || m == 0 || n == 0) return info;
    return lu_run(ctx, DT, m, n, dA, ldda, 0, NULL, HYLA_NOTRANS, 0, NULL, 1, 1, 0, dev);
}

int PN(getrs_nopiv_gpu)(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs, const T *dA,
                        int64_t ldda, T *dB, int64_t lddb) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    hyla_op op;
    int info = getrs_check(0, trans, n, nrhs, dA, ldda, NULL, 0, dB, lddb, &op);
    if (info || n == 0 || nrhs == 0) return info;
    return lu_run(ctx, DT, n, n, (T *)dA, ldda, 0, NULL, op, nrhs, dB, lddb, 0, 1, dev);
}
