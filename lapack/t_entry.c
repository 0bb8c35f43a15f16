/* The exported names of one precision, with LAPACK's Fortran calling
 * convention: every argument by address, and for each character argument a
 * hidden length (size_t, gfortran's ABI) after the last argument, accepted
 * and never read (C callers often leave them out). HL_PREFIX and HL_SUFFIX
 * (lapack.c) make the names: dpotrf_, scipy_dpotrf_, dpotrf_64_,
 * scipy_dpotrf_64_. */
#undef HL_P
#if defined(HYLA_PREC_S)
#define HL_P s
#elif defined(HYLA_PREC_D)
#define HL_P d
#elif defined(HYLA_PREC_C)
#define HL_P c
#else
#define HL_P z
#endif
#undef SYM
#undef FWD
#undef DECL_FWD
#define SYM(x) HL_CAT4(HL_PREFIX, HL_P, x, HL_SUFFIX)
#define FWD(x) HL_CAT2(SYM(x), fwd)
#define DECL_FWD(x) static hl_fwd FWD(x) = {.name = HL_STR(SYM(x))}

DECL_FWD(potrf);
HL_EXPORT void SYM(potrf)(const char *uplo, const lapack_int *n, T *A, const lapack_int *lda,
                          lapack_int *info, size_t uplo_len) {
    hl_enter(&FWD(potrf), __builtin_return_address(0));
    (void)uplo_len;
    PS(potrf)(&FWD(potrf), uplo, n, A, lda, info);
}

DECL_FWD(potrs);
HL_EXPORT void SYM(potrs)(const char *uplo, const lapack_int *n, const lapack_int *nrhs,
                          const T *A, const lapack_int *lda, T *B, const lapack_int *ldb,
                          lapack_int *info, size_t uplo_len) {
    hl_enter(&FWD(potrs), __builtin_return_address(0));
    (void)uplo_len;
    PS(potrs_posv)(&FWD(potrs), 0, uplo, n, nrhs, (T *)A, lda, B, ldb, info);
}

DECL_FWD(posv);
HL_EXPORT void SYM(posv)(const char *uplo, const lapack_int *n, const lapack_int *nrhs, T *A,
                         const lapack_int *lda, T *B, const lapack_int *ldb, lapack_int *info,
                         size_t uplo_len) {
    hl_enter(&FWD(posv), __builtin_return_address(0));
    (void)uplo_len;
    PS(potrs_posv)(&FWD(posv), 1, uplo, n, nrhs, A, lda, B, ldb, info);
}

DECL_FWD(getrf);
HL_EXPORT void SYM(getrf)(const lapack_int *m, const lapack_int *n, T *A, const lapack_int *lda,
                          lapack_int *ipiv, lapack_int *info) {
    hl_enter(&FWD(getrf), __builtin_return_address(0));
    PS(getrf)(&FWD(getrf), m, n, A, lda, ipiv, info);
}

DECL_FWD(getrs);
HL_EXPORT void SYM(getrs)(const char *trans, const lapack_int *n, const lapack_int *nrhs,
                          const T *A, const lapack_int *lda, const lapack_int *ipiv, T *B,
                          const lapack_int *ldb, lapack_int *info, size_t trans_len) {
    hl_enter(&FWD(getrs), __builtin_return_address(0));
    (void)trans_len;
    PS(getrs)(&FWD(getrs), trans, n, nrhs, A, lda, ipiv, B, ldb, info);
}

DECL_FWD(gesv);
HL_EXPORT void SYM(gesv)(const lapack_int *n, const lapack_int *nrhs, T *A, const lapack_int *lda,
                         lapack_int *ipiv, T *B, const lapack_int *ldb, lapack_int *info) {
    hl_enter(&FWD(gesv), __builtin_return_address(0));
    PS(gesv)(&FWD(gesv), n, nrhs, A, lda, ipiv, B, ldb, info);
}

DECL_FWD(gemm);
HL_EXPORT void SYM(gemm)(const char *transa, const char *transb, const lapack_int *m,
                         const lapack_int *n, const lapack_int *k, const T *alpha, const T *A,
                         const lapack_int *lda, const T *B, const lapack_int *ldb, const T *beta,
                         T *C, const lapack_int *ldc, size_t transa_len, size_t transb_len) {
    hl_enter(&FWD(gemm), __builtin_return_address(0));
    (void)transa_len;
    (void)transb_len;
    PS(gemm)(&FWD(gemm), transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

#if IS_CPLX
DECL_FWD(hegvd);
HL_EXPORT void SYM(hegvd)(const lapack_int *itype, const char *jobz, const char *uplo,
                          const lapack_int *n, T *A, const lapack_int *lda, T *B,
                          const lapack_int *ldb, R *w, T *work, const lapack_int *lwork, R *rwork,
                          const lapack_int *lrwork, lapack_int *iwork, const lapack_int *liwork,
                          lapack_int *info, size_t jobz_len, size_t uplo_len) {
    hl_enter(&FWD(hegvd), __builtin_return_address(0));
    (void)jobz_len;
    (void)uplo_len;
    PS(gvd)(&FWD(hegvd), itype, jobz, uplo, n, A, lda, B, ldb, w, work, lwork, rwork, lrwork,
            iwork, liwork, info);
}
#else
DECL_FWD(sygvd);
HL_EXPORT void SYM(sygvd)(const lapack_int *itype, const char *jobz, const char *uplo,
                          const lapack_int *n, T *A, const lapack_int *lda, T *B,
                          const lapack_int *ldb, R *w, T *work, const lapack_int *lwork,
                          lapack_int *iwork, const lapack_int *liwork, lapack_int *info,
                          size_t jobz_len, size_t uplo_len) {
    hl_enter(&FWD(sygvd), __builtin_return_address(0));
    (void)jobz_len;
    (void)uplo_len;
    PS(gvd)(&FWD(sygvd), itype, jobz, uplo, n, A, lda, B, ldb, w, work, lwork, NULL, NULL, iwork,
            liwork, info);
}
#endif

#if IS_CPLX
DECL_FWD(hegv);
HL_EXPORT void SYM(hegv)(const lapack_int *itype, const char *jobz, const char *uplo,
                         const lapack_int *n, T *A, const lapack_int *lda, T *B,
                         const lapack_int *ldb, R *w, T *work, const lapack_int *lwork, R *rwork,
                         lapack_int *info, size_t jobz_len, size_t uplo_len) {
    hl_enter(&FWD(hegv), __builtin_return_address(0));
    (void)jobz_len;
    (void)uplo_len;
    PS(gv)(&FWD(hegv), itype, jobz, uplo, n, A, lda, B, ldb, w, work, lwork, rwork, info);
}

DECL_FWD(heevx);
HL_EXPORT void SYM(heevx)(const char *jobz, const char *range, const char *uplo,
                          const lapack_int *n, T *A, const lapack_int *lda, const R *vl,
                          const R *vu, const lapack_int *il, const lapack_int *iu,
                          const R *abstol, lapack_int *m, R *w, T *Z, const lapack_int *ldz,
                          T *work, const lapack_int *lwork, R *rwork, lapack_int *iwork,
                          lapack_int *ifail, lapack_int *info, size_t jobz_len, size_t range_len,
                          size_t uplo_len) {
    hl_enter(&FWD(heevx), __builtin_return_address(0));
    (void)jobz_len;
    (void)range_len;
    (void)uplo_len;
    PS(evx)(&FWD(heevx), jobz, range, uplo, n, A, lda, vl, vu, il, iu, abstol, m, w, Z, ldz, work,
            lwork, rwork, iwork, ifail, info);
}

DECL_FWD(hegvx);
HL_EXPORT void SYM(hegvx)(const lapack_int *itype, const char *jobz, const char *range,
                          const char *uplo, const lapack_int *n, T *A, const lapack_int *lda, T *B,
                          const lapack_int *ldb, const R *vl, const R *vu, const lapack_int *il,
                          const lapack_int *iu, const R *abstol, lapack_int *m, R *w, T *Z,
                          const lapack_int *ldz, T *work, const lapack_int *lwork, R *rwork,
                          lapack_int *iwork, lapack_int *ifail, lapack_int *info, size_t jobz_len,
                          size_t range_len, size_t uplo_len) {
    hl_enter(&FWD(hegvx), __builtin_return_address(0));
    (void)jobz_len;
    (void)range_len;
    (void)uplo_len;
    PS(gvx)(&FWD(hegvx), itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, abstol, m, w,
            Z, ldz, work, lwork, rwork, iwork, ifail, info);
}
#else
DECL_FWD(sygv);
HL_EXPORT void SYM(sygv)(const lapack_int *itype, const char *jobz, const char *uplo,
                         const lapack_int *n, T *A, const lapack_int *lda, T *B,
                         const lapack_int *ldb, R *w, T *work, const lapack_int *lwork,
                         lapack_int *info, size_t jobz_len, size_t uplo_len) {
    hl_enter(&FWD(sygv), __builtin_return_address(0));
    (void)jobz_len;
    (void)uplo_len;
    PS(gv)(&FWD(sygv), itype, jobz, uplo, n, A, lda, B, ldb, w, work, lwork, NULL, info);
}

DECL_FWD(syevx);
HL_EXPORT void SYM(syevx)(const char *jobz, const char *range, const char *uplo,
                          const lapack_int *n, T *A, const lapack_int *lda, const R *vl,
                          const R *vu, const lapack_int *il, const lapack_int *iu,
                          const R *abstol, lapack_int *m, R *w, T *Z, const lapack_int *ldz,
                          T *work, const lapack_int *lwork, lapack_int *iwork, lapack_int *ifail,
                          lapack_int *info, size_t jobz_len, size_t range_len, size_t uplo_len) {
    hl_enter(&FWD(syevx), __builtin_return_address(0));
    (void)jobz_len;
    (void)range_len;
    (void)uplo_len;
    PS(evx)(&FWD(syevx), jobz, range, uplo, n, A, lda, vl, vu, il, iu, abstol, m, w, Z, ldz, work,
            lwork, NULL, iwork, ifail, info);
}

DECL_FWD(sygvx);
HL_EXPORT void SYM(sygvx)(const lapack_int *itype, const char *jobz, const char *range,
                          const char *uplo, const lapack_int *n, T *A, const lapack_int *lda, T *B,
                          const lapack_int *ldb, const R *vl, const R *vu, const lapack_int *il,
                          const lapack_int *iu, const R *abstol, lapack_int *m, R *w, T *Z,
                          const lapack_int *ldz, T *work, const lapack_int *lwork,
                          lapack_int *iwork, lapack_int *ifail, lapack_int *info, size_t jobz_len,
                          size_t range_len, size_t uplo_len) {
    hl_enter(&FWD(sygvx), __builtin_return_address(0));
    (void)jobz_len;
    (void)range_len;
    (void)uplo_len;
    PS(gvx)(&FWD(sygvx), itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, abstol, m, w,
            Z, ldz, work, lwork, NULL, iwork, ifail, info);
}
#endif

#if IS_CPLX
DECL_FWD(heevd);
HL_EXPORT void SYM(heevd)(const char *jobz, const char *uplo, const lapack_int *n, T *A,
                          const lapack_int *lda, R *w, T *work, const lapack_int *lwork, R *rwork,
                          const lapack_int *lrwork, lapack_int *iwork, const lapack_int *liwork,
                          lapack_int *info, size_t jobz_len, size_t uplo_len) {
    hl_enter(&FWD(heevd), __builtin_return_address(0));
    (void)jobz_len;
    (void)uplo_len;
    PS(evd)(&FWD(heevd), jobz, uplo, n, A, lda, w, work, lwork, rwork, lrwork, iwork, liwork,
            info);
}

DECL_FWD(heev);
HL_EXPORT void SYM(heev)(const char *jobz, const char *uplo, const lapack_int *n, T *A,
                         const lapack_int *lda, R *w, T *work, const lapack_int *lwork, R *rwork,
                         lapack_int *info, size_t jobz_len, size_t uplo_len) {
    hl_enter(&FWD(heev), __builtin_return_address(0));
    (void)jobz_len;
    (void)uplo_len;
    PS(ev)(&FWD(heev), jobz, uplo, n, A, lda, w, work, lwork, rwork, info);
}

DECL_FWD(heevr);
HL_EXPORT void SYM(heevr)(const char *jobz, const char *range, const char *uplo,
                          const lapack_int *n, T *A, const lapack_int *lda, const R *vl,
                          const R *vu, const lapack_int *il, const lapack_int *iu,
                          const R *abstol, lapack_int *m, R *w, T *Z, const lapack_int *ldz,
                          lapack_int *isuppz, T *work, const lapack_int *lwork, R *rwork,
                          const lapack_int *lrwork, lapack_int *iwork, const lapack_int *liwork,
                          lapack_int *info, size_t jobz_len, size_t range_len, size_t uplo_len) {
    hl_enter(&FWD(heevr), __builtin_return_address(0));
    (void)jobz_len;
    (void)range_len;
    (void)uplo_len;
    PS(evr)(&FWD(heevr), jobz, range, uplo, n, A, lda, vl, vu, il, iu, abstol, m, w, Z, ldz,
            isuppz, work, lwork, rwork, lrwork, iwork, liwork, info);
}
#else
DECL_FWD(syevd);
HL_EXPORT void SYM(syevd)(const char *jobz, const char *uplo, const lapack_int *n, T *A,
                          const lapack_int *lda, R *w, T *work, const lapack_int *lwork,
                          lapack_int *iwork, const lapack_int *liwork, lapack_int *info,
                          size_t jobz_len, size_t uplo_len) {
    hl_enter(&FWD(syevd), __builtin_return_address(0));
    (void)jobz_len;
    (void)uplo_len;
    PS(evd)(&FWD(syevd), jobz, uplo, n, A, lda, w, work, lwork, NULL, NULL, iwork, liwork, info);
}

DECL_FWD(syev);
HL_EXPORT void SYM(syev)(const char *jobz, const char *uplo, const lapack_int *n, T *A,
                         const lapack_int *lda, R *w, T *work, const lapack_int *lwork,
                         lapack_int *info, size_t jobz_len, size_t uplo_len) {
    hl_enter(&FWD(syev), __builtin_return_address(0));
    (void)jobz_len;
    (void)uplo_len;
    PS(ev)(&FWD(syev), jobz, uplo, n, A, lda, w, work, lwork, NULL, info);
}

DECL_FWD(syevr);
HL_EXPORT void SYM(syevr)(const char *jobz, const char *range, const char *uplo,
                          const lapack_int *n, T *A, const lapack_int *lda, const R *vl,
                          const R *vu, const lapack_int *il, const lapack_int *iu,
                          const R *abstol, lapack_int *m, R *w, T *Z, const lapack_int *ldz,
                          lapack_int *isuppz, T *work, const lapack_int *lwork,
                          lapack_int *iwork, const lapack_int *liwork, lapack_int *info,
                          size_t jobz_len, size_t range_len, size_t uplo_len) {
    hl_enter(&FWD(syevr), __builtin_return_address(0));
    (void)jobz_len;
    (void)range_len;
    (void)uplo_len;
    PS(evr)(&FWD(syevr), jobz, range, uplo, n, A, lda, vl, vu, il, iu, abstol, m, w, Z, ldz,
            isuppz, work, lwork, NULL, NULL, iwork, liwork, info);
}
#endif
