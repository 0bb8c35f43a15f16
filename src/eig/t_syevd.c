/* Public eigensolver drivers, one source for s, d, c, z (included by
 * syevd.c): ?syevd(_gpu) for the real types, ?heevd(_gpu) for the complex. */
#if IS_CPLX
#define EVD_NAME PN(heevd)
#define EVD_GPU_NAME PN(heevd_gpu)
#else
#define EVD_NAME PN(syevd)
#define EVD_GPU_NAME PN(syevd_gpu)
#endif

int EVD_NAME(hyla_t *ctx, char jobz, char uplo, int64_t n, T *A, int64_t lda, R *w) {
    if (!ctx) return HYLA_ERR_INVALID;
    int vec, lower, info = syevd_check(jobz, uplo, n, A, lda, w, &vec, &lower);
    if (info || n == 0) return info;
    return eig_run(ctx, DT, vec, lower, n, A, lda, w, -1);
}

int EVD_GPU_NAME(hyla_t *ctx, int dev, char jobz, char uplo, int64_t n, T *dA, int64_t ldda,
                 R *w) {
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    int vec, lower, info = syevd_check(jobz, uplo, n, dA, ldda, w, &vec, &lower);
    if (info || n == 0) return info;
    return eig_run(ctx, DT, vec, lower, n, dA, ldda, w, dev);
}

#undef EVD_NAME
#undef EVD_GPU_NAME
