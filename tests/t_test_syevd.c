/* Driver tests for one precision (included by test_syevd.c with prec.h
 * set): eigenvalues against LAPACKE ?syev/?heev, and for jobz V the
 * residual |A - Z L Z^H| / (n |A| eps) and |I - Z^H Z| / (n eps). */
#include "t_eig_util.c"

#if IS_CPLX
#define EVD PN(heevd)
#define EVD_GPU PN(heevd_gpu)
#else
#define EVD PN(syevd)
#define EVD_GPU PN(syevd_gpu)
#endif

/* one call; gpu: through device memory of the last device */
static void PN(tv_case)(hyla_t *h, int gpu, char jobz, char uplo, int64_t n, int cls,
                        unsigned long long *s) {
    const int64_t lda = n + 1;
    const size_t nn = (size_t)HYLA_T_MAX(1, n * n);
    T *A0 = malloc(sizeof *A0 * nn), *A = malloc(sizeof *A * (size_t)(lda * HYLA_T_MAX(1, n)));
    T *C = malloc(sizeof *C * nn), *D = malloc(sizeof *D * nn), *Z = malloc(sizeof *Z * nn);
    R *w = malloc(sizeof *w * (size_t)HYLA_T_MAX(1, n)), *wr = malloc(sizeof *wr * (size_t)HYLA_T_MAX(1, n));
    PN(te_make)(cls, n, A0, s);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++) {
            int in = uplo == 'L' ? i >= j : i <= j;
            A[i + j * lda] = i >= n ? (T)SENTINEL : in ? A0[i + j * n] : (T)NAN;
        }
#if IS_CPLX
    /* imaginary parts on the diagonal are not referenced (LAPACK) */
    for (int64_t j = 0; j < n; j++) A[j + j * lda] += (R)0.25 * I;
#endif
    int rc;
    int dev = hyla_device_count(h) - 1;
    if (gpu) {
        void *dA = NULL;
        size_t bytes = sizeof *A * (size_t)(lda * HYLA_T_MAX(1, n));
        rc = hyla_malloc_device(h, dev, bytes, &dA);
        if (!rc) rc = hyla_copy_to_device(h, dev, dA, A, bytes);
        if (!rc) rc = EVD_GPU(h, dev, jobz, uplo, n, dA, lda, w);
        if (!rc) rc = hyla_copy_from_device(h, dev, A, dA, bytes);
        hyla_free_device(h, dev, &dA);
    } else {
        rc = EVD(h, jobz, uplo, n, A, lda, w);
    }
    CHECK(rc == 0, "%c%s%s jobz %c uplo %c n %lld %s: rc %d", CH, IS_CPLX ? "heevd" : "syevd",
          gpu ? "_gpu" : "", jobz, uplo, (long long)n, te_class_name[cls], rc);
    leak_check(h, "syevd");
    if (rc) goto done;
    double anorm = PN(te_norm1)(n, n, A0, n);
    PN(te_eig)(n, A0, wr);
    double ev = PN(te_eigdiff)(n, w, wr, anorm), res = 0, orth = 0;
    int kept = 1;
    if (jobz == 'V') {
        for (int64_t j = 0; j < n; j++) memcpy(Z + j * n, A + j * lda, sizeof *Z * (size_t)n);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) C[i + j * n] = Z[i + j * n] * w[j];
        PN(te_mul)(n, C, 0, Z, 1, D);
        for (size_t i = 0; i < (size_t)(n * n); i++) D[i] = A0[i] - D[i];
        res = n ? PN(te_norm1)(n, n, D, n) / ((double)n * (anorm > 0 ? anorm : 1) * EPS) : 0;
        orth = PN(te_orth)(n, Z);
    }
    for (int64_t j = 0; j < n; j++) kept &= A[n + j * lda] == (T)SENTINEL;
    CHECK(ev < THRESH && res < THRESH && orth < THRESH && kept,
          "%c%s%s jobz %c uplo %c n %lld %s: eig %.3g resid %.3g orth %.3g padding %s", CH,
          IS_CPLX ? "heevd" : "syevd", gpu ? "_gpu" : "", jobz, uplo, (long long)n,
          te_class_name[cls], ev, res, orth, kept ? "kept" : "overwritten");
done:
    free(A0), free(A), free(C), free(D), free(Z), free(w), free(wr);
}

static void PN(tv_all)(hyla_t *h, unsigned long long *s) {
    static const int64_t ns[] = {0, 1, 2, 3, 7, 16, 33, 50};
    for (int gpu = 0; gpu < 2; gpu++)
        for (int v = 0; v < 2; v++)
            for (int u = 0; u < 2; u++)
                for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
                    PN(tv_case)(h, gpu, "NV"[v], "LU"[u], ns[a], TE_RANDOM, s);
    for (int c = 0; c < TE_NCLASS; c++)
        for (int v = 0; v < 2; v++) PN(tv_case)(h, 0, "NV"[v], "LU"[c % 2], 37, c, s);

    /* NaN or Inf on input: HYLA_ERR_NAN (host: scanned; device: seen in the band) */
    T a[9], b[9];
    R w[3];
    for (int k = 0; k < 9; k++) a[k] = (T)(k % 4 == 0 ? 2.0 : 0.5);
    a[1] = (T)NAN;
    memcpy(b, a, sizeof a);
    CHECK(EVD(h, 'V', 'L', 3, b, 3, w) == HYLA_ERR_NAN, "%c NaN (host)", CH);
    b[1] = (T)INFINITY;
    CHECK(EVD(h, 'N', 'L', 3, b, 3, w) == HYLA_ERR_NAN, "%c Inf (host)", CH);
    memcpy(b, a, sizeof a);
    CHECK(EVD(h, 'N', 'U', 3, b, 3, w) == 0, "%c NaN outside the triangle read", CH);
    void *dA = NULL;
    if (hyla_malloc_device(h, 0, sizeof a, &dA) == 0) {
        hyla_copy_to_device(h, 0, dA, a, sizeof a);
        CHECK(EVD_GPU(h, 0, 'V', 'L', 3, dA, 3, w) == HYLA_ERR_NAN, "%c NaN (device)", CH);
        hyla_free_device(h, 0, &dA);
    }
    leak_check(h, "NaN");

    /* bad arguments, in LAPACK order */
    CHECK(EVD(h, 'X', 'L', 2, a, 2, w) == -1, "jobz");
    CHECK(EVD(h, 'N', 'X', 2, a, 2, w) == -2, "uplo");
    CHECK(EVD(h, 'N', 'L', -1, a, 2, w) == -3, "n");
    CHECK(EVD(h, 'N', 'L', 2, NULL, 2, w) == -4, "A");
    CHECK(EVD(h, 'N', 'L', 2, a, 1, w) == -5, "lda");
    CHECK(EVD(h, 'N', 'L', 2, a, 2, NULL) == -6, "w");
    CHECK(EVD(NULL, 'N', 'L', 2, a, 2, w) == HYLA_ERR_INVALID, "ctx");
    CHECK(EVD_GPU(h, -1, 'N', 'L', 2, a, 2, w) == HYLA_ERR_NO_DEVICE, "dev");
    CHECK(EVD_GPU(h, 0, 'N', 'L', 2, a, 0, w) == -5, "ldda");
}

#undef EVD
#undef EVD_GPU
#undef LP
#undef LP_HEEV
#undef LP_UNGQR
#undef EPS
