/* The LAPACK routines of libhyla_lapack, one source for s, d, c, z (included
 * by lapack.c through base/each_prec.h). Each checks its arguments as LAPACK
 * does, in LAPACK's order, answers workspace queries, then lets hl_begin
 * choose hyla or the next LAPACK. The entry points (t_entry.c) pass the
 * hl_fwd of their own name, so that a call forwards to the same name. */

static void PS(potrf)(hl_fwd *f, const char *uplo, const lapack_int *n, T *A,
                      const lapack_int *lda, lapack_int *info) {
    char u = up(uplo);
    int bad = u != 'U' && u != 'L' ? 1 : *n < 0 ? 2 : *lda < max1(*n) ? 4 : 0;
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    hyla_t *ctx;
    hl_path p = hl_begin(HL_POTRF, f, *n, NULL, HL_HOST_NO, &fn, &ctx);
    if (p == HL_SERVE) {
        /* A factorization may have written A before a failure: no retry */
        int code = PN(potrf)(ctx, u, *n, A, *lda);
        if (!hl_end(f, *n, code, fn, 0)) { *info = code; return; }
    } else if (p == HL_NONE) {
        *info = HYLA_ERR_UNSUPPORTED;
        return;
    }
    ((void (*)(const char *, const lapack_int *, T *, const lapack_int *, lapack_int *,
               size_t))fn)(uplo, n, A, lda, info, 1);
}

/* potrs (factor given) and posv (factor and solve) share their arguments. */
static void PS(potrs_posv)(hl_fwd *f, int posv, const char *uplo, const lapack_int *n,
                           const lapack_int *nrhs, T *A, const lapack_int *lda, T *B,
                           const lapack_int *ldb, lapack_int *info) {
    char u = up(uplo);
    int bad = u != 'U' && u != 'L' ? 1 : *n < 0 ? 2 : *nrhs < 0 ? 3 : *lda < max1(*n) ? 5
            : *ldb < max1(*n) ? 7 : 0;
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    hyla_t *ctx;
    hl_path p = hl_begin(posv ? HL_POSV : HL_POTRS, f, *n, NULL, HL_HOST_NO, &fn, &ctx);
    if (p == HL_SERVE) {
        int code = posv ? PN(posv)(ctx, u, *n, *nrhs, A, *lda, B, *ldb)
                        : PN(potrs)(ctx, u, *n, *nrhs, A, *lda, B, *ldb);
        if (!hl_end(f, *n, code, fn, 0)) { *info = code; return; }
    } else if (p == HL_NONE) {
        *info = HYLA_ERR_UNSUPPORTED;
        return;
    }
    ((void (*)(const char *, const lapack_int *, const lapack_int *, T *, const lapack_int *, T *,
               const lapack_int *, lapack_int *, size_t))fn)(uplo, n, nrhs, A, lda, B, ldb, info, 1);
}

static void PS(getrf)(hl_fwd *f, const lapack_int *m, const lapack_int *n, T *A,
                      const lapack_int *lda, lapack_int *ipiv, lapack_int *info) {
    int bad = *m < 0 ? 1 : *n < 0 ? 2 : *lda < max1(*m) ? 4 : 0;
    if (bad) { arg_error(f, info, bad); return; }
    int64_t mn = *m < *n ? *m : *n;
    void *fn;
    hyla_t *ctx;
    hl_path p = hl_begin(HL_GETRF, f, mn, NULL, HL_HOST_NO, &fn, &ctx);
    if (p == HL_SERVE) {
        int64_t *piv = piv_get(ipiv, mn, 0);
        int code = piv ? PN(getrf)(ctx, *m, *n, A, *lda, piv) : HYLA_ERR_NO_MEMORY;
        if (code >= 0) piv_put(ipiv, piv, mn);
        piv_free(ipiv, piv);
        if (!hl_end(f, mn, code, fn, piv == NULL)) { *info = code; return; }
    } else if (p == HL_NONE) {
        *info = HYLA_ERR_UNSUPPORTED;
        return;
    }
    ((void (*)(const lapack_int *, const lapack_int *, T *, const lapack_int *, lapack_int *,
               lapack_int *))fn)(m, n, A, lda, ipiv, info);
}

static void PS(getrs)(hl_fwd *f, const char *trans, const lapack_int *n, const lapack_int *nrhs,
                      const T *A, const lapack_int *lda, const lapack_int *ipiv, T *B,
                      const lapack_int *ldb, lapack_int *info) {
    char t = up(trans);
    int bad = t != 'N' && t != 'T' && t != 'C' ? 1 : *n < 0 ? 2 : *nrhs < 0 ? 3
            : *lda < max1(*n) ? 5 : *ldb < max1(*n) ? 8 : 0;
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    hyla_t *ctx;
    hl_path p = hl_begin(HL_GETRS, f, *n, NULL, HL_HOST_NO, &fn, &ctx);
    if (p == HL_SERVE) {
        int64_t *piv = piv_get((lapack_int *)ipiv, *n, 1);
        int code = piv ? PN(getrs)(ctx, t, *n, *nrhs, A, *lda, piv, B, *ldb) : HYLA_ERR_NO_MEMORY;
        piv_free((lapack_int *)ipiv, piv);
        if (!hl_end(f, *n, code, fn, piv == NULL)) { *info = code; return; }
    } else if (p == HL_NONE) {
        *info = HYLA_ERR_UNSUPPORTED;
        return;
    }
    ((void (*)(const char *, const lapack_int *, const lapack_int *, const T *, const lapack_int *,
               const lapack_int *, T *, const lapack_int *, lapack_int *, size_t))fn)(
        trans, n, nrhs, A, lda, ipiv, B, ldb, info, 1);
}

static void PS(gesv)(hl_fwd *f, const lapack_int *n, const lapack_int *nrhs, T *A,
                     const lapack_int *lda, lapack_int *ipiv, T *B, const lapack_int *ldb,
                     lapack_int *info) {
    int bad = *n < 0 ? 1 : *nrhs < 0 ? 2 : *lda < max1(*n) ? 4 : *ldb < max1(*n) ? 7 : 0;
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    hyla_t *ctx;
    hl_path p = hl_begin(HL_GESV, f, *n, NULL, HL_HOST_NO, &fn, &ctx);
    if (p == HL_SERVE) {
        int64_t *piv = piv_get(ipiv, *n, 0);
        int code = piv ? PN(gesv)(ctx, *n, *nrhs, A, *lda, piv, B, *ldb) : HYLA_ERR_NO_MEMORY;
        if (code >= 0) piv_put(ipiv, piv, *n);
        piv_free(ipiv, piv);
        if (!hl_end(f, *n, code, fn, piv == NULL)) { *info = code; return; }
    } else if (p == HL_NONE) {
        *info = HYLA_ERR_UNSUPPORTED;
        return;
    }
    ((void (*)(const lapack_int *, const lapack_int *, T *, const lapack_int *, lapack_int *, T *,
               const lapack_int *, lapack_int *))fn)(n, nrhs, A, lda, ipiv, B, ldb, info);
}

/* hyla's two-stage eigensolver for syevd / heevd, syev / heev and syevr /
 * heevr with range 'A': the same eigenvalues (ascending) and orthonormal
 * eigenvectors, so the three drivers' results have the same meaning. */
static int PS(eig)(hyla_t *ctx, char jobz, char uplo, int64_t n, T *A, int64_t lda, R *w) {
#if IS_CPLX
    return PN(heevd)(ctx, jobz, uplo, n, A, lda, w);
#else
    return PN(syevd)(ctx, jobz, uplo, n, A, lda, w);
#endif
}

/* The eigensolvers' kind for a context without a GPU: hyla's host backend
 * serves the eigenvalues alone (jobz N) from the sizes where it is faster
 * than LAPACK (lapack_rt.c); with eigenvectors LAPACK is faster there. */
static hl_host PS(host_values)(char jz) {
    return jz != 'N' ? HL_HOST_NO : IS_CPLX ? HL_HOST_CPLX_VALUES : HL_HOST_REAL_VALUES;
}

/* hl_begin's verdict on an eigensolver call of routine rt carried out:
 * returns 1 when the call is answered (*info: hyla's code, or
 * HYLA_ERR_UNSUPPORTED when there is neither a context nor a next library),
 * 0 when it goes to *fn, the next library's function (force_forward as for
 * hl_begin). */
static int PS(eig_call)(hl_routine rt, hl_fwd *f, const char *force_forward, char jz, char u,
                        int64_t n, T *A, int64_t lda, R *w, void **fn, lapack_int *info) {
    hyla_t *ctx;
    hl_path p = hl_begin(rt, f, n, force_forward, PS(host_values)(jz), fn, &ctx);
    if (p == HL_FORWARD) return 0;
    if (p == HL_NONE) {
        *info = HYLA_ERR_UNSUPPORTED;
        return 1;
    }
    int code = PS(eig)(ctx, jz, u, n, A, lda, w);
    if (hl_end(f, n, code, *fn, 0)) return 0;
    *info = code;
    return 1;
}

/* The workspace arguments of ?syevd / ?heevd (and ?sygvd / ?hegvd): LAPACK's
 * minimum for order N into lw, lrw (complex), liw; *query when any size is
 * -1. Returns 0, or the number of the first size below its minimum (lwork
 * is argument `at`, lrwork at + 2, liwork at + 2 or at + 4 for complex). */
static int PS(evd_work)(int64_t N, char jz, const lapack_int *lwork, const lapack_int *lrwork,
                        const lapack_int *liwork, int at, int64_t *lw, int64_t *lrw, int64_t *liw,
                        int *query) {
    *lw = *lrw = *liw = 1;
    if (N > 1 && jz == 'V') {
        *lw = IS_CPLX ? 2 * N + N * N : 1 + 6 * N + 2 * N * N;
        *lrw = 1 + 5 * N + 2 * N * N;
        *liw = 3 + 5 * N;
    } else if (N > 1) {
        *lw = IS_CPLX ? N + 1 : 2 * N + 1;
        *lrw = N;
    }
    *query = *lwork == -1 || *liwork == -1 || (IS_CPLX && *lrwork == -1);
    return *query ? 0 : *lwork < *lw ? at : IS_CPLX && *lrwork < *lrw ? at + 2
         : *liwork < *liw ? at + 2 + 2 * IS_CPLX : 0;
}

/* A workspace query's answer: the next LAPACK's (forwarded, its answer in
 * work[0], rwork[0], iwork[0]) where larger, else LAPACK's minimum. */
static void PS(evd_answer)(int forwarded, T *work, R *rwork, lapack_int *iwork, int64_t lw,
                           int64_t lrw, int64_t liw) {
    work[0] = (T)(creal(work[0]) > (double)lw && forwarded ? creal(work[0]) : (double)lw);
    if (IS_CPLX) rwork[0] = (R)(rwork[0] > (R)lrw && forwarded ? rwork[0] : (R)lrw);
    iwork[0] = (lapack_int)(iwork[0] > liw && forwarded ? iwork[0] : liw);
}

/* syevd / heevd; rwork and lrwork are NULL for s and d. */
static void PS(evd)(hl_fwd *f, const char *jobz, const char *uplo, const lapack_int *n, T *A,
                    const lapack_int *lda, R *w, T *work, const lapack_int *lwork, R *rwork,
                    const lapack_int *lrwork, lapack_int *iwork, const lapack_int *liwork,
                    lapack_int *info) {
    char jz = up(jobz), u = up(uplo);
    int bad = jz != 'V' && jz != 'N' ? 1 : u != 'U' && u != 'L' ? 2 : *n < 0 ? 3
            : *lda < max1(*n) ? 5 : 0;
    if (bad) { arg_error(f, info, bad); return; }
    int64_t N = *n, lw, lrw, liw;
    int query;
    bad = PS(evd_work)(N, jz, lwork, lrwork, liwork, 8, &lw, &lrw, &liw, &query);
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    if (query) {
        fn = hl_next(f);
        hl_query(f, fn != NULL);
        if (fn) {
#if IS_CPLX
            ((void (*)(const char *, const char *, const lapack_int *, T *, const lapack_int *, R *,
                       T *, const lapack_int *, R *, const lapack_int *, lapack_int *,
                       const lapack_int *, lapack_int *, size_t, size_t))fn)(
                jobz, uplo, n, A, lda, w, work, lwork, rwork, lrwork, iwork, liwork, info, 1, 1);
#else
            ((void (*)(const char *, const char *, const lapack_int *, T *, const lapack_int *, R *,
                       T *, const lapack_int *, lapack_int *, const lapack_int *, lapack_int *,
                       size_t, size_t))fn)(jobz, uplo, n, A, lda, w, work, lwork, iwork, liwork,
                                           info, 1, 1);
#endif
        }
        PS(evd_answer)(fn != NULL, work, rwork, iwork, lw, lrw, liw);
        *info = 0;
        return;
    }
    if (PS(eig_call)(HL_SYEVD, f, NULL, jz, u, N, A, *lda, w, &fn, info)) return;
#if IS_CPLX
    ((void (*)(const char *, const char *, const lapack_int *, T *, const lapack_int *, R *, T *,
               const lapack_int *, R *, const lapack_int *, lapack_int *, const lapack_int *,
               lapack_int *, size_t, size_t))fn)(jobz, uplo, n, A, lda, w, work, lwork, rwork,
                                                 lrwork, iwork, liwork, info, 1, 1);
#else
    ((void (*)(const char *, const char *, const lapack_int *, T *, const lapack_int *, R *, T *,
               const lapack_int *, lapack_int *, const lapack_int *, lapack_int *, size_t,
               size_t))fn)(jobz, uplo, n, A, lda, w, work, lwork, iwork, liwork, info, 1, 1);
#endif
}

/* The generalized eigensolver for sygvd / hegvd and sygv / hegv (routine
 * rt's threshold): hyla_?sygvd / ?hegvd, whose results and info have
 * LAPACK's meaning (n + k: B's minor k not positive definite). Returns 1
 * when the call is answered (*info), 0 when it goes to *fn, the next
 * library's function (NaN or Inf: A and B untouched). */
static int PS(gv_call)(hl_routine rt, hl_fwd *f, lapack_int itype, char jz, char u, int64_t N,
                       T *A, lapack_int lda, T *B, lapack_int ldb, R *w, void **fn,
                       lapack_int *info) {
    hyla_t *ctx;
    hl_path p = hl_begin(rt, f, N, NULL, HL_HOST_NO, fn, &ctx);
    if (p == HL_FORWARD) return 0;
    if (p == HL_NONE) {
        *info = HYLA_ERR_UNSUPPORTED;
        return 1;
    }
#if IS_CPLX
    int code = PN(hegvd)(ctx, (int)itype, jz, u, N, A, lda, B, ldb, w);
#else
    int code = PN(sygvd)(ctx, (int)itype, jz, u, N, A, lda, B, ldb, w);
#endif
    if (hl_end(f, N, code, *fn, 0)) return 0;
    *info = code;
    return 1;
}

/* sygvd / hegvd (LAPACK's arguments; rwork and lrwork NULL for s and d):
 * hyla_?sygvd / ?hegvd, whose info has LAPACK's meaning (n + k: B's minor
 * k not positive definite). */
static void PS(gvd)(hl_fwd *f, const lapack_int *itype, const char *jobz, const char *uplo,
                    const lapack_int *n, T *A, const lapack_int *lda, T *B, const lapack_int *ldb,
                    R *w, T *work, const lapack_int *lwork, R *rwork, const lapack_int *lrwork,
                    lapack_int *iwork, const lapack_int *liwork, lapack_int *info) {
    char jz = up(jobz), u = up(uplo);
    int bad = *itype < 1 || *itype > 3 ? 1 : jz != 'V' && jz != 'N' ? 2
            : u != 'U' && u != 'L' ? 3 : *n < 0 ? 4 : *lda < max1(*n) ? 6
            : *ldb < max1(*n) ? 8 : 0;
    if (bad) { arg_error(f, info, bad); return; }
    int64_t N = *n, lw, lrw, liw;
    int query; /* sygvd's workspace is syevd's */
    bad = PS(evd_work)(N, jz, lwork, lrwork, liwork, 11, &lw, &lrw, &liw, &query);
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    if (query) {
        fn = hl_next(f);
        hl_query(f, fn != NULL);
        if (fn) {
#if IS_CPLX
            ((void (*)(const lapack_int *, const char *, const char *, const lapack_int *, T *,
                       const lapack_int *, T *, const lapack_int *, R *, T *, const lapack_int *,
                       R *, const lapack_int *, lapack_int *, const lapack_int *, lapack_int *,
                       size_t, size_t))fn)(itype, jobz, uplo, n, A, lda, B, ldb, w, work, lwork,
                                           rwork, lrwork, iwork, liwork, info, 1, 1);
#else
            ((void (*)(const lapack_int *, const char *, const char *, const lapack_int *, T *,
                       const lapack_int *, T *, const lapack_int *, R *, T *, const lapack_int *,
                       lapack_int *, const lapack_int *, lapack_int *, size_t, size_t))fn)(
                itype, jobz, uplo, n, A, lda, B, ldb, w, work, lwork, iwork, liwork, info, 1, 1);
#endif
        }
        PS(evd_answer)(fn != NULL, work, rwork, iwork, lw, lrw, liw);
        *info = 0;
        return;
    }
    if (PS(gv_call)(HL_SYGVD, f, *itype, jz, u, N, A, *lda, B, *ldb, w, &fn, info)) return;
#if IS_CPLX
    ((void (*)(const lapack_int *, const char *, const char *, const lapack_int *, T *,
               const lapack_int *, T *, const lapack_int *, R *, T *, const lapack_int *, R *,
               const lapack_int *, lapack_int *, const lapack_int *, lapack_int *, size_t,
               size_t))fn)(itype, jobz, uplo, n, A, lda, B, ldb, w, work, lwork, rwork, lrwork,
                           iwork, liwork, info, 1, 1);
#else
    ((void (*)(const lapack_int *, const char *, const char *, const lapack_int *, T *,
               const lapack_int *, T *, const lapack_int *, R *, T *, const lapack_int *,
               lapack_int *, const lapack_int *, lapack_int *, size_t, size_t))fn)(
        itype, jobz, uplo, n, A, lda, B, ldb, w, work, lwork, iwork, liwork, info, 1, 1);
#endif
}

/* A workspace query of a routine with one workspace (lw: LAPACK's
 * minimum): the next LAPACK answers it (*fn, returns 0: call it), or
 * without one the minimum is the answer (returns 1). */
static int PS(query_next)(hl_fwd *f, void **fn, T *work, int64_t lw, lapack_int *info) {
    *fn = hl_next(f);
    hl_query(f, *fn != NULL);
    if (*fn) return 0;
    work[0] = (T)lw;
    *info = 0;
    return 1;
}

/* syev / heev; rwork (3n - 2 reals, no query) is NULL for s and d. */
static void PS(ev)(hl_fwd *f, const char *jobz, const char *uplo, const lapack_int *n, T *A,
                   const lapack_int *lda, R *w, T *work, const lapack_int *lwork, R *rwork,
                   lapack_int *info) {
    char jz = up(jobz), u = up(uplo);
    int64_t N = *n, lw = max1(IS_CPLX ? 2 * N - 1 : 3 * N - 1);
    int query = *lwork == -1;
    int bad = jz != 'V' && jz != 'N' ? 1 : u != 'U' && u != 'L' ? 2 : N < 0 ? 3
            : *lda < max1(N) ? 5 : !query && *lwork < lw ? 8 : 0;
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    if (!query) {
        if (PS(eig_call)(HL_SYEV, f, NULL, jz, u, N, A, *lda, w, &fn, info)) return;
    } else if (PS(query_next)(f, &fn, work, lw, info)) {
        return;
    }
#if IS_CPLX
    ((void (*)(const char *, const char *, const lapack_int *, T *, const lapack_int *, R *, T *,
               const lapack_int *, R *, lapack_int *, size_t, size_t))fn)(
        jobz, uplo, n, A, lda, w, work, lwork, rwork, info, 1, 1);
#else
    (void)rwork;
    ((void (*)(const char *, const char *, const lapack_int *, T *, const lapack_int *, R *, T *,
               const lapack_int *, lapack_int *, size_t, size_t))fn)(jobz, uplo, n, A, lda, w,
                                                                     work, lwork, info, 1, 1);
#endif
}

/* sygv / hegv (rwork, 3n - 2 reals without a size argument, NULL for s and
 * d): served by hyla_?sygvd / ?hegvd, the same eigenvalues and
 * B-orthonormal eigenvectors as LAPACK's QR-iteration driver computes. */
static void PS(gv)(hl_fwd *f, const lapack_int *itype, const char *jobz, const char *uplo,
                   const lapack_int *n, T *A, const lapack_int *lda, T *B, const lapack_int *ldb,
                   R *w, T *work, const lapack_int *lwork, R *rwork, lapack_int *info) {
    char jz = up(jobz), u = up(uplo);
    int64_t N = *n, lw = max1(IS_CPLX ? 2 * N - 1 : 3 * N - 1);
    int query = *lwork == -1;
    int bad = *itype < 1 || *itype > 3 ? 1 : jz != 'V' && jz != 'N' ? 2
            : u != 'U' && u != 'L' ? 3 : N < 0 ? 4 : *lda < max1(N) ? 6
            : *ldb < max1(N) ? 8 : !query && *lwork < lw ? 11 : 0;
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    if (!query) {
        if (PS(gv_call)(HL_SYGV, f, *itype, jz, u, N, A, *lda, B, *ldb, w, &fn, info)) return;
    } else if (PS(query_next)(f, &fn, work, lw, info)) {
        return;
    }
#if IS_CPLX
    ((void (*)(const lapack_int *, const char *, const char *, const lapack_int *, T *,
               const lapack_int *, T *, const lapack_int *, R *, T *, const lapack_int *, R *,
               lapack_int *, size_t, size_t))fn)(itype, jobz, uplo, n, A, lda, B, ldb, w, work,
                                                 lwork, rwork, info, 1, 1);
#else
    (void)rwork;
    ((void (*)(const lapack_int *, const char *, const char *, const lapack_int *, T *,
               const lapack_int *, T *, const lapack_int *, R *, T *, const lapack_int *,
               lapack_int *, size_t, size_t))fn)(itype, jobz, uplo, n, A, lda, B, ldb, w, work,
                                                 lwork, info, 1, 1);
#endif
}

/* Each of the ncols eigenvectors' support in Z (isuppz: its first and last
 * nonzero rows, 1-based, as LAPACK reports them). */
static void PS(support)(int64_t n, int64_t ncols, const T *Z, int64_t ldz, lapack_int *isuppz) {
    for (int64_t j = 0; j < ncols; j++) {
        const T *a = Z + j * ldz;
        int64_t first = n, last = -1;
        for (int64_t i = 0; i < n; i++)
            if (a[i] != T_ZERO) {
                if (first == n) first = i;
                last = i;
            }
        isuppz[2 * j] = (lapack_int)(last < 0 ? 1 : first + 1);
        isuppz[2 * j + 1] = (lapack_int)(last < 0 ? n : last + 1);
    }
}

/* syevr's eigenvectors from A to Z, and each one's support. */
static void PS(copy_support)(int64_t n, const T *A, int64_t lda, T *Z, int64_t ldz,
                             lapack_int *isuppz) {
    for (int64_t j = 0; j < n; j++) memcpy(Z + j * ldz, A + j * lda, sizeof *Z * (size_t)n);
    PS(support)(n, n, Z, ldz, isuppz);
}

/* syevr / heevr with range 'V' or 'I' served: hyla_?syevdx / ?heevdx,
 * eigenvectors straight into Z (abstol does not apply), isuppz written
 * where LAPACK's is. Returns 1 when answered (*info, *m set), 0 when the
 * call goes to *fn. */
static int PS(evr_part)(hl_routine rt, hl_fwd *f, char jz, char rg, char u, int64_t N, T *A,
                        lapack_int lda, R vl, R vu, lapack_int il, lapack_int iu, lapack_int *m,
                        R *w, T *Z, lapack_int ldz, lapack_int *isuppz, void **fn,
                        lapack_int *info) {
    hyla_t *ctx;
    hl_path p = hl_begin(rt, f, N, NULL, PS(host_values)(jz), fn, &ctx);
    if (p == HL_FORWARD) return 0;
    if (p == HL_NONE) {
        *info = HYLA_ERR_UNSUPPORTED;
        return 1;
    }
    int64_t mm = 0;
#if IS_CPLX
    int code = PN(heevdx)(ctx, jz, rg, u, N, A, lda, vl, vu, il, iu, &mm, w, Z, ldz);
#else
    int code = PN(syevdx)(ctx, jz, rg, u, N, A, lda, vl, vu, il, iu, &mm, w, Z, ldz);
#endif
    if (hl_end(f, N, code, *fn, 0)) return 0;
    *info = code;
    *m = (lapack_int)mm;
    /* LAPACK writes isuppz only for range I with IU - IL = N - 1 (its
     * callers size it for m = N only then: SciPy's is 2 max(1, m)) */
    if (isuppz && code == 0 && jz == 'V' && rg == 'I' && iu - il == N - 1)
        PS(support)(N, mm, Z, ldz, isuppz);
    return 1;
}

/* LAPACK's checks of syevr's and syevx's arguments before the workspace
 * (the same numbers in both): 0 or the first bad argument's number. */
static int PS(range_args)(char jz, char rg, char u, int64_t N, lapack_int lda, const R *vl,
                          const R *vu, const lapack_int *il, const lapack_int *iu,
                          lapack_int ldz) {
    if (jz != 'V' && jz != 'N') return 1;
    if (rg != 'A' && rg != 'V' && rg != 'I') return 2;
    if (u != 'U' && u != 'L') return 3;
    if (N < 0) return 4;
    if (lda < max1(N)) return 6;
    if (rg == 'V' && N > 0 && *vu <= *vl) return 8;
    if (rg == 'I' && (*il < 1 || *il > max1(N))) return 9;
    if (rg == 'I' && (*iu < (N < *il ? N : *il) || *iu > N)) return 10;
    if (ldz < 1 || (jz == 'V' && ldz < N)) return 15;
    return 0;
}

/* syevr / heevr: range 'A' served by hyla's full eigensolver, 'V' and 'I'
 * by hyla_?syevdx (above the threshold). rwork and lrwork are NULL for s
 * and d. */
static void PS(evr)(hl_fwd *f, const char *jobz, const char *range, const char *uplo,
                    const lapack_int *n, T *A, const lapack_int *lda, const R *vl, const R *vu,
                    const lapack_int *il, const lapack_int *iu, const R *abstol, lapack_int *m,
                    R *w, T *Z, const lapack_int *ldz, lapack_int *isuppz, T *work,
                    const lapack_int *lwork, R *rwork, const lapack_int *lrwork,
                    lapack_int *iwork, const lapack_int *liwork, lapack_int *info) {
    char jz = up(jobz), rg = up(range), u = up(uplo);
    int64_t N = *n;
    int bad = PS(range_args)(jz, rg, u, N, *lda, vl, vu, il, iu, *ldz);
    /* LAPACK's minimum: max(1, 26 n), ... also for n = 1 (its error exits test n = 1) */
    int64_t lw = max1(IS_CPLX ? 2 * N : 26 * N), lrw = max1(24 * N), liw = max1(10 * N);
    int query = *lwork == -1 || *liwork == -1 || (IS_CPLX && *lrwork == -1);
    if (!bad && !query)
        bad = *lwork < lw ? 18 : IS_CPLX && *lrwork < lrw ? 20 : *liwork < liw ? 20 + 2 * IS_CPLX : 0;
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    if (query) {
        fn = hl_next(f);
        hl_query(f, fn != NULL);
    } else if (rg != 'A') {
        if (PS(evr_part)(HL_SYEVR, f, jz, rg, u, N, A, *lda, vl ? *vl : 0, vu ? *vu : 0,
                         il ? *il : 1, iu ? *iu : 0, m, w, Z, *ldz, isuppz, &fn, info))
            return;
    } else {
        if (PS(eig_call)(HL_SYEVR, f, NULL, jz, u, N, A, *lda, w, &fn, info)) {
            /* info 0: hyla computed all n eigenpairs, in A */
            if (*info == 0) {
                *m = (lapack_int)N;
                if (jz == 'V') PS(copy_support)(N, A, *lda, Z, *ldz, isuppz);
            }
            return;
        }
    }
    if (fn) {
#if IS_CPLX
        ((void (*)(const char *, const char *, const char *, const lapack_int *, T *,
                   const lapack_int *, const R *, const R *, const lapack_int *, const lapack_int *,
                   const R *, lapack_int *, R *, T *, const lapack_int *, lapack_int *, T *,
                   const lapack_int *, R *, const lapack_int *, lapack_int *, const lapack_int *,
                   lapack_int *, size_t, size_t, size_t))fn)(
            jobz, range, uplo, n, A, lda, vl, vu, il, iu, abstol, m, w, Z, ldz, isuppz, work, lwork,
            rwork, lrwork, iwork, liwork, info, 1, 1, 1);
#else
        ((void (*)(const char *, const char *, const char *, const lapack_int *, T *,
                   const lapack_int *, const R *, const R *, const lapack_int *, const lapack_int *,
                   const R *, lapack_int *, R *, T *, const lapack_int *, lapack_int *, T *,
                   const lapack_int *, lapack_int *, const lapack_int *, lapack_int *, size_t,
                   size_t, size_t))fn)(jobz, range, uplo, n, A, lda, vl, vu, il, iu, abstol, m, w,
                                       Z, ldz, isuppz, work, lwork, iwork, liwork, info, 1, 1, 1);
#endif
    }
    if (query) {
        work[0] = (T)(creal(work[0]) > (double)lw && fn ? creal(work[0]) : (double)lw);
        if (IS_CPLX) rwork[0] = (R)(rwork[0] > (R)lrw && fn ? rwork[0] : (R)lrw);
        iwork[0] = (lapack_int)(iwork[0] > liw && fn ? iwork[0] : liw);
        *info = 0;
    }
}

/* syevx's and sygvx's range 'A' answered by a full solver: m = n, and
 * with jobz V the eigenvectors from A into Z and ifail's entries 0 (every
 * one converged). */
static void PS(all_to_z)(char jz, int64_t N, const T *A, lapack_int lda, T *Z, lapack_int ldz,
                         lapack_int *m, lapack_int *ifail) {
    *m = (lapack_int)N;
    if (jz != 'V') return;
    for (int64_t j = 0; j < N; j++) {
        memcpy(Z + j * ldz, A + j * lda, sizeof *Z * (size_t)N);
        ifail[j] = 0;
    }
}

/* syevx / heevx (rwork, 7n reals, NULL for s and d; iwork 5n and ifail n
 * without size arguments): range 'A' served by hyla's full eigensolver
 * (the eigenvectors copied from A to Z), 'V' and 'I' by hyla_?syevdx, at
 * least as accurate as abstol asks (abstol does not apply); ifail's first
 * m entries 0 with eigenvectors, as LAPACK's when every one converged. */
static void PS(evx)(hl_fwd *f, const char *jobz, const char *range, const char *uplo,
                    const lapack_int *n, T *A, const lapack_int *lda, const R *vl, const R *vu,
                    const lapack_int *il, const lapack_int *iu, const R *abstol, lapack_int *m,
                    R *w, T *Z, const lapack_int *ldz, T *work, const lapack_int *lwork, R *rwork,
                    lapack_int *iwork, lapack_int *ifail, lapack_int *info) {
    char jz = up(jobz), rg = up(range), u = up(uplo);
    int64_t N = *n;
    int bad = PS(range_args)(jz, rg, u, N, *lda, vl, vu, il, iu, *ldz);
    const int64_t lw = N <= 1 ? 1 : IS_CPLX ? 2 * N : 8 * N;
    const int query = *lwork == -1;
    if (!bad && !query && *lwork < lw) bad = 17;
    if (bad) { arg_error(f, info, bad); return; }
    void *fn;
    if (query) {
        fn = hl_next(f);
        hl_query(f, fn != NULL);
    } else if (rg != 'A') {
        if (PS(evr_part)(HL_SYEVX, f, jz, rg, u, N, A, *lda, vl ? *vl : 0, vu ? *vu : 0,
                         il ? *il : 1, iu ? *iu : 0, m, w, Z, *ldz, NULL, &fn, info)) {
            if (*info == 0 && jz == 'V')
                for (lapack_int j = 0; j < *m; j++) ifail[j] = 0;
            return;
        }
    } else {
        if (PS(eig_call)(HL_SYEVX, f, NULL, jz, u, N, A, *lda, w, &fn, info)) {
            if (*info == 0) PS(all_to_z)(jz, N, A, *lda, Z, *ldz, m, ifail);
            return;
        }
    }
    if (fn) {
#if IS_CPLX
        ((void (*)(const char *, const char *, const char *, const lapack_int *, T *,
                   const lapack_int *, const R *, const R *, const lapack_int *, const lapack_int *,
                   const R *, lapack_int *, R *, T *, const lapack_int *, T *, const lapack_int *,
                   R *, lapack_int *, lapack_int *, lapack_int *, size_t, size_t, size_t))fn)(
            jobz, range, uplo, n, A, lda, vl, vu, il, iu, abstol, m, w, Z, ldz, work, lwork, rwork,
            iwork, ifail, info, 1, 1, 1);
#else
        (void)rwork;
        ((void (*)(const char *, const char *, const char *, const lapack_int *, T *,
                   const lapack_int *, const R *, const R *, const lapack_int *, const lapack_int *,
                   const R *, lapack_int *, R *, T *, const lapack_int *, T *, const lapack_int *,
                   lapack_int *, lapack_int *, lapack_int *, size_t, size_t, size_t))fn)(
            jobz, range, uplo, n, A, lda, vl, vu, il, iu, abstol, m, w, Z, ldz, work, lwork, iwork,
            ifail, info, 1, 1, 1);
#endif
    }
    if (query) {
        work[0] = (T)(creal(work[0]) > (double)lw && fn ? creal(work[0]) : (double)lw);
        *info = 0;
    }
}

/* sygvx / hegvx (rwork, 7n reals, NULL for s and d; iwork 5n and ifail n
 * without size arguments): range 'A' served by hyla_?sygvd / ?hegvd (the
 * eigenvectors copied from A to Z), 'V' and 'I' by hyla_?sygvdx / ?hegvdx,
 * at least as accurate as abstol asks (abstol does not apply); info n + k
 * for B's minor k not positive definite, ifail's first m entries 0 with
 * eigenvectors, as LAPACK's when every one converged. */
static void PS(gvx)(hl_fwd *f, const lapack_int *itype, const char *jobz, const char *range,
                    const char *uplo, const lapack_int *n, T *A, const lapack_int *lda, T *B,
                    const lapack_int *ldb, const R *vl, const R *vu, const lapack_int *il,
                    const lapack_int *iu, const R *abstol, lapack_int *m, R *w, T *Z,
                    const lapack_int *ldz, T *work, const lapack_int *lwork, R *rwork,
                    lapack_int *iwork, lapack_int *ifail, lapack_int *info) {
    char jz = up(jobz), rg = up(range), u = up(uplo);
    int64_t N = *n;
    /* LAPACK's checks, in its order */
    int bad = *itype < 1 || *itype > 3 ? 1 : jz != 'V' && jz != 'N' ? 2
            : rg != 'A' && rg != 'V' && rg != 'I' ? 3 : u != 'U' && u != 'L' ? 4
            : N < 0 ? 5 : *lda < max1(N) ? 7 : *ldb < max1(N) ? 9
            : rg == 'V' && N > 0 && *vu <= *vl ? 11
            : rg == 'I' && (*il < 1 || *il > max1(N)) ? 12
            : rg == 'I' && (*iu < (N < *il ? N : *il) || *iu > N) ? 13
            : *ldz < 1 || (jz == 'V' && *ldz < N) ? 18 : 0;
    const int64_t lw = max1(IS_CPLX ? 2 * N : 8 * N);
    const int query = *lwork == -1;
    if (!bad && !query && *lwork < lw) bad = 20;
    if (bad) { arg_error(f, info, bad); return; }
    void *fn = NULL;
    if (query) {
        fn = hl_next(f);
        hl_query(f, fn != NULL);
    } else if (rg == 'A') {
        if (PS(gv_call)(HL_SYGVX, f, *itype, jz, u, N, A, *lda, B, *ldb, w, &fn, info)) {
            if (*info == 0) PS(all_to_z)(jz, N, A, *lda, Z, *ldz, m, ifail);
            return;
        }
    } else {
        hyla_t *ctx;
        hl_path p = hl_begin(HL_SYGVX, f, N, NULL, HL_HOST_NO, &fn, &ctx);
        if (p == HL_NONE) {
            *info = HYLA_ERR_UNSUPPORTED;
            return;
        }
        if (p != HL_FORWARD) {
            int64_t mm = 0;
#if IS_CPLX
            int code = PN(hegvdx)(ctx, (int)*itype, jz, rg, u, N, A, *lda, B, *ldb, *vl, *vu, *il,
                                  *iu, &mm, w, Z, *ldz);
#else
            int code = PN(sygvdx)(ctx, (int)*itype, jz, rg, u, N, A, *lda, B, *ldb, *vl, *vu, *il,
                                  *iu, &mm, w, Z, *ldz);
#endif
            if (!hl_end(f, N, code, fn, 0)) {
                *info = code;
                *m = (lapack_int)mm;
                if (code == 0 && jz == 'V')
                    for (int64_t j = 0; j < mm; j++) ifail[j] = 0;
                return;
            }
        }
    }
    if (fn) {
#if IS_CPLX
        ((void (*)(const lapack_int *, const char *, const char *, const char *,
                   const lapack_int *, T *, const lapack_int *, T *, const lapack_int *, const R *,
                   const R *, const lapack_int *, const lapack_int *, const R *, lapack_int *, R *,
                   T *, const lapack_int *, T *, const lapack_int *, R *, lapack_int *,
                   lapack_int *, lapack_int *, size_t, size_t, size_t))fn)(
            itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, abstol, m, w, Z, ldz,
            work, lwork, rwork, iwork, ifail, info, 1, 1, 1);
#else
        (void)rwork;
        ((void (*)(const lapack_int *, const char *, const char *, const char *,
                   const lapack_int *, T *, const lapack_int *, T *, const lapack_int *, const R *,
                   const R *, const lapack_int *, const lapack_int *, const R *, lapack_int *, R *,
                   T *, const lapack_int *, T *, const lapack_int *, lapack_int *, lapack_int *,
                   lapack_int *, size_t, size_t, size_t))fn)(
            itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, abstol, m, w, Z, ldz,
            work, lwork, iwork, ifail, info, 1, 1, 1);
#endif
    }
    if (query) {
        work[0] = (T)(creal(work[0]) > (double)lw && fn ? creal(work[0]) : (double)lw);
        *info = 0;
    }
}

/* BLAS gemm. BLAS has no info: an argument error leaves C as it is and
 * calls the program's XERBLA, as BLAS does. */
static void PS(gemm)(hl_fwd *f, const char *transa, const char *transb, const lapack_int *m,
                     const lapack_int *n, const lapack_int *k, const T *alpha, const T *A,
                     const lapack_int *lda, const T *B, const lapack_int *ldb, const T *beta, T *C,
                     const lapack_int *ldc) {
    char ta = up(transa), tb = up(transb);
    int64_t rows_a = ta == 'N' ? *m : *k, rows_b = tb == 'N' ? *k : *n;
    int bad = ta != 'N' && ta != 'T' && ta != 'C' ? 1 : tb != 'N' && tb != 'T' && tb != 'C' ? 2
            : *m < 0 ? 3 : *n < 0 ? 4 : *k < 0 ? 5 : *lda < max1(rows_a) ? 8
            : *ldb < max1(rows_b) ? 10 : *ldc < max1(*m) ? 13 : 0;
    if (bad) {
        hl_arg_error(f, bad);
        return;
    }
    int64_t size = *m < *n ? *m : *n;
    size = size < *k ? size : *k;
    void *fn;
    hyla_t *ctx;
    hl_path p = hl_begin(HL_GEMM, f, size, NULL, HL_HOST_NO, &fn, &ctx);
    if (p == HL_SERVE) {
        int code = PN(gemm)(ctx, ta, tb, *m, *n, *k, *alpha, A, *lda, B, *ldb, *beta, C, *ldc);
        hl_end(f, size, code, NULL, 0);
        return;
    }
    if (p == HL_NONE) return;
    ((void (*)(const char *, const char *, const lapack_int *, const lapack_int *,
               const lapack_int *, const T *, const T *, const lapack_int *, const T *,
               const lapack_int *, const T *, T *, const lapack_int *, size_t, size_t))fn)(
        transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, 1, 1);
}
