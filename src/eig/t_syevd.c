/* Public eigensolver drivers, one source for s, d, c, z (included by
 * eig.c): ?syevd(_gpu) for the real types, ?heevd(_gpu) for the complex. */
#if IS_CPLX
#define EVD_NAME PN(heevd)
#define EVD_GPU_NAME PN(heevd_gpu)
#define EVD_MGPU_NAME PN(heevd_mgpu)
#else
#define EVD_NAME PN(syevd)
#define EVD_GPU_NAME PN(syevd_gpu)
#define EVD_MGPU_NAME PN(syevd_mgpu)
#endif

int EVD_NAME(hyla_t *ctx, char jobz, char uplo, int64_t n, T *A, int64_t lda, R *w) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    int vec, lower, info = syevd_check(jobz, uplo, n, A, lda, w, &vec, &lower);
    if (info || n == 0) return info;
    return eig_run(ctx, DT, vec, lower, n, A, lda, w, -1, NULL);
}

int EVD_GPU_NAME(hyla_t *ctx, int dev, char jobz, char uplo, int64_t n, T *dA, int64_t ldda,
                 R *w) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    int vec, lower, info = syevd_check(jobz, uplo, n, dA, ldda, w, &vec, &lower);
    if (info || n == 0) return info;
    return eig_run(ctx, DT, vec, lower, n, dA, ldda, w, dev, NULL);
}

int EVD_MGPU_NAME(hyla_t *ctx, char jobz, char uplo, hyla_dist_matrix *A, R *w) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (!A || A->dtype != DT || A->ndev != HYLA_MIN(ctx->ndev, HYLA_MAX_DEVICES)) return -3;
    /* jobz and uplo as syevd's; the layout stands for A and lda */
    int vec, lower, info = syevd_check(jobz, uplo, A->n, A, HYLA_MAX(1, A->n), w, &vec, &lower);
    if (info) return info == -6 ? -4 : info;
    if (A->n == 0) return 0;
    if (A->ndev == 1) return eig_run(ctx, DT, vec, lower, A->n, A->block[0], A->ld[0], w, 0, NULL);
    hyla_eig_stats st = {0};
    int rc = hyla_eig_syevd_dist(ctx, DT, vec, lower, A, w, &st);
    ctx->eig_stats = st;
    return rc;
}

#undef EVD_NAME
#undef EVD_GPU_NAME
#undef EVD_MGPU_NAME
