/* Tier 1 of Cholesky, one source for s, d, c, z (included by chol.c). */

int PN(potrf)(hyla_t *ctx, char uplo, int64_t n, T *A, int64_t lda) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    int lower, info = potrf_check(uplo, n, A, lda, &lower);
    if (info || n == 0) return info;
    return chol_run(ctx, DT, lower, n, A, lda, 0, NULL, 1, 1, 0, -1);
}

int PN(potrs)(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, const T *A, int64_t lda, T *B,
              int64_t ldb) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    int lower, info = potrs_check(uplo, n, nrhs, A, lda, B, ldb, &lower);
    if (info || n == 0 || nrhs == 0) return info;
    return chol_run(ctx, DT, lower, n, (T *)A, lda, nrhs, B, ldb, 0, 1, -1);
}

int PN(posv)(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, T *A, int64_t lda, T *B,
             int64_t ldb) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    int lower, info = potrs_check(uplo, n, nrhs, A, lda, B, ldb, &lower);
    if (info || n == 0) return info;
    if (hyla_nonfinite(DT, lower ? 0 : 1, 0, n, n, A, lda) ||
        hyla_nonfinite(DT, -1, 0, n, nrhs, B, ldb))
        return HYLA_ERR_NAN;
    return chol_run(ctx, DT, lower, n, A, lda, nrhs, B, ldb, 1, 1, -1);
}

int PN(potrf_gpu)(hyla_t *ctx, int dev, char uplo, int64_t n, T *dA, int64_t ldda) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    int lower, info = potrf_check(uplo, n, dA, ldda, &lower);
    if (info || n == 0) return info;
    return chol_run(ctx, DT, lower, n, dA, ldda, 0, NULL, 1, 1, 0, dev);
}

int PN(potrs_gpu)(hyla_t *ctx, int dev, char uplo, int64_t n, int64_t nrhs, const T *dA,
                  int64_t ldda, T *dB, int64_t lddb) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    int lower, info = potrs_check(uplo, n, nrhs, dA, ldda, dB, lddb, &lower);
    if (info || n == 0 || nrhs == 0) return info;
    return chol_run(ctx, DT, lower, n, (T *)dA, ldda, nrhs, dB, lddb, 0, 1, dev);
}
