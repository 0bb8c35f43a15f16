/* Public stage-1 wrappers, one source for s, d, c, z (included by eig.c):
 * ?sytrd_sy2sb / ?ormtr_sy2sb for the real types, ?hetrd_he2hb /
 * ?unmtr_he2hb for the complex ones. */
#if IS_CPLX
#define SY2SB_NAME PN(hetrd_he2hb)
#define ORMTR_NAME PN(unmtr_he2hb)
#else
#define SY2SB_NAME PN(sytrd_sy2sb)
#define ORMTR_NAME PN(ormtr_sy2sb)
#endif

int SY2SB_NAME(hyla_t *ctx, char uplo, int64_t n, int64_t kd, T *A, int64_t lda, T *AB,
               int64_t ldab, T *tau) {
    HYLA_SERIAL(ctx);
    return sy2sb_public(ctx, DT, uplo, n, kd, A, lda, AB, ldab, tau);
}

int ORMTR_NAME(hyla_t *ctx, char trans, int64_t n, int64_t kd, int64_t ncols, const T *A,
               int64_t lda, const T *tau, T *C, int64_t ldc) {
    HYLA_SERIAL(ctx);
    return ormtr_public(ctx, DT, trans, n, kd, ncols, A, lda, tau, C, ldc);
}

#undef SY2SB_NAME
#undef ORMTR_NAME
