/* Tier 1 of the RBT solver, one source for s, d, c, z (included by rbt.c). */

int PN(gesv_rbt)(hyla_t *ctx, int64_t n, int64_t nrhs, const T *A, int64_t lda, T *B,
                 int64_t ldb, const hyla_rbt_opts *opts, hyla_rbt_info *info) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    hyla_rbt_job job = {.t = DT};
    int rc = rbt_check(ctx, n, nrhs, A, lda, B, ldb, opts, info, 1, &job);
    if (rc || n == 0 || nrhs == 0) return rc;
    return rbt_host(ctx, &job, A, lda, B, ldb, info);
}

int PN(gesv_rbt_gpu)(hyla_t *ctx, int dev, int64_t n, int64_t nrhs, const T *dA, int64_t ldda,
                     T *dB, int64_t lddb, const hyla_rbt_opts *opts, hyla_rbt_info *info) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    hyla_rbt_job job = {.t = DT, .A = dA, .lda = ldda, .B = dB, .ldb = lddb, .dev = dev};
    int rc = rbt_check(ctx, n, nrhs, dA, ldda, dB, lddb, opts, info, 0, &job);
    if (rc || n == 0 || nrhs == 0) return rc;
    return hyla_prbt(ctx, &job, info);
}
