/* Tier 1 of GEMM, one source for s, d, c, z (included by gemm.c): argument
 * checks, quick returns, then the streaming algorithm (pgemm.c) or, for
 * device pointers, the device BLAS directly. */

/* C := beta C on the host, not reading C when beta == 0 (the quick return
 * of BLAS when alpha == 0 or k == 0). */
static void PN(gemm_scale_c)(int64_t m, int64_t n, T beta, T *C, int64_t ldc) {
    if (beta == T_ONE) return;
    for (int64_t j = 0; j < n; j++) {
        T *c = C + j * ldc;
        if (beta == T_ZERO)
            for (int64_t i = 0; i < m; i++) c[i] = T_ZERO;
        else
            for (int64_t i = 0; i < m; i++) c[i] *= beta;
    }
}

int PN(gemm)(hyla_t *ctx, char transa, char transb, int64_t m, int64_t n, int64_t k, T alpha,
             const T *A, int64_t lda, const T *B, int64_t ldb, T beta, T *C, int64_t ldc) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    hyla_op ta, tb;
    int info = hyla_gemm_check_args(transa, transb, m, n, k, lda, ldb, ldc, &ta, &tb);
    if (info) return info;
    if (m == 0 || n == 0) return 0;
    if (!C) return -12;
    if (alpha == T_ZERO || k == 0) {
        PN(gemm_scale_c)(m, n, beta, C, ldc);
        return 0;
    }
    if (!A) return -7;
    if (!B) return -9;
    hyla_gemm_problem p = {.t = DT, .ta = ta, .tb = tb, .m = m, .n = n, .k = k,
                           .alpha = &alpha, .beta = &beta, .beta_zero = beta == T_ZERO,
                           .A = A, .B = B, .C = C, .lda = lda, .ldb = ldb, .ldc = ldc};
    return hyla_pgemm(ctx, &p);
}

int PN(gemm_gpu)(hyla_t *ctx, int dev, char transa, char transb, int64_t m, int64_t n, int64_t k,
                 T alpha, const T *dA, int64_t lda, const T *dB, int64_t ldb, T beta, T *dC,
                 int64_t ldc) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    hyla_op ta, tb;
    int info = hyla_gemm_check_args(transa, transb, m, n, k, lda, ldb, ldc, &ta, &tb);
    if (info) return info;
    if (m == 0 || n == 0) return 0;
    if (!dC) return -12;
    if (k > 0 && alpha != T_ZERO && (!dA || !dB)) return !dA ? -7 : -9;
    return hyla_gemm_on_device(ctx, dev, DT, ta, tb, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc);
}
