/* The distributed entry point hyla_?syevd_mgpu for one precision (included
 * by test_syevd_mgpu.c with prec.h set, after t_test_syevd.c, whose te_*
 * helpers it uses): the matrix distributed with hyla_dist_set (the triangle
 * not read holds NaN), solved in place, gathered with hyla_dist_get and
 * checked as the host entry is: eigenvalues against LAPACKE, residual
 * |A - Z L Z^H| / (n |A| eps) and orthogonality |I - Z^H Z| / (n eps). */
#if IS_CPLX
#define EVD_M PN(heevd_mgpu)
#else
#define EVD_M PN(syevd_mgpu)
#endif
#define EPS_M ((double)(sizeof(R) == 4 ? FLT_EPSILON : DBL_EPSILON))

static void PN(dist_case)(hyla_t *h, char jobz, char uplo, int64_t n, int cls,
                          unsigned long long *s) {
    const size_t nn = (size_t)HYLA_T_MAX(1, n * n);
    T *A0 = malloc(sizeof *A0 * nn), *A = malloc(sizeof *A * nn), *C = malloc(sizeof *C * nn),
      *D = malloc(sizeof *D * nn);
    R *w = malloc(sizeof *w * (size_t)HYLA_T_MAX(1, n)), *wr = malloc(sizeof *wr * (size_t)HYLA_T_MAX(1, n));
    hyla_dist_matrix *M = NULL;
    PN(te_make)(cls, n, A0, s);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            A[i + j * n] = (uplo == 'L' ? i >= j : i <= j) ? A0[i + j * n] : (T)NAN;
    int rc = hyla_dist_create(h, DT, n, &M);
    if (!rc) rc = hyla_dist_set(h, M, A, HYLA_T_MAX(1, n));
    if (!rc) rc = EVD_M(h, jobz, uplo, M, w);
    if (!rc && jobz == 'V') rc = hyla_dist_get(h, M, A, HYLA_T_MAX(1, n));
    hyla_dist_destroy(h, &M);
    CHECK(rc == 0 && M == NULL, "%c%s_mgpu jobz %c uplo %c n %lld %s: rc %d", CH,
          IS_CPLX ? "heevd" : "syevd", jobz, uplo, (long long)n, te_class_name[cls], rc);
    leak_check(h, "syevd_mgpu");
    if (rc) goto done;
    double anorm = PN(te_norm1)(n, n, A0, n), res = 0, orth = 0;
    PN(te_eig)(n, A0, wr);
    double ev = PN(te_eigdiff)(n, w, wr, anorm);
    if (jobz == 'V') {
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) C[i + j * n] = A[i + j * n] * w[j];
        PN(te_mul)(n, C, 0, A, 1, D);
        for (size_t i = 0; i < (size_t)(n * n); i++) D[i] = A0[i] - D[i];
        res = n ? PN(te_norm1)(n, n, D, n) / ((double)n * (anorm > 0 ? anorm : 1) * EPS_M) : 0;
        orth = PN(te_orth)(n, A);
    }
    CHECK(ev < THRESH && res < THRESH && orth < THRESH,
          "%c%s_mgpu jobz %c uplo %c n %lld %s: eig %.3g resid %.3g orth %.3g", CH,
          IS_CPLX ? "heevd" : "syevd", jobz, uplo, (long long)n, te_class_name[cls], ev, res,
          orth);
done:
    free(A0), free(A), free(C), free(D), free(w), free(wr);
}

/* bad arguments, in order */
static void PN(dist_args)(hyla_t *h) {
    hyla_dist_matrix *M = NULL, *O = NULL;
    R w[4];
    CHECK(hyla_dist_create(h, DT, 4, &M) == 0, "%c dist_create", CH);
    CHECK(hyla_dist_create(h, (hyla_dtype)DT == HYLA_D ? HYLA_S : HYLA_D, 4, &O) == 0, "other type");
    CHECK(EVD_M(h, 'X', 'L', M, w) == -1, "%c _mgpu jobz", CH);
    CHECK(EVD_M(h, 'N', 'X', M, w) == -2, "%c _mgpu uplo", CH);
    CHECK(EVD_M(h, 'N', 'L', NULL, w) == -3, "%c _mgpu A NULL", CH);
    CHECK(EVD_M(h, 'N', 'L', O, w) == -3, "%c _mgpu A of another type", CH);
    CHECK(EVD_M(h, 'N', 'L', M, NULL) == -4, "%c _mgpu w", CH);
    CHECK(EVD_M(NULL, 'N', 'L', M, w) == HYLA_ERR_INVALID, "%c _mgpu ctx", CH);
    T a[16] = {0};
    CHECK(hyla_dist_set(h, M, a, 3) == -4 && hyla_dist_set(h, M, NULL, 4) == -3 &&
              hyla_dist_set(NULL, M, a, 4) == -1 && hyla_dist_get(h, NULL, a, 4) == -2,
          "%c dist_set/get arguments", CH);
    CHECK(hyla_dist_create(h, DT, -1, &O) == -3 && hyla_dist_create(h, (hyla_dtype)7, 3, &O) == -2 &&
              hyla_dist_create(h, DT, 3, NULL) == -4 && hyla_dist_create(NULL, DT, 3, &O) == -1,
          "%c dist_create arguments", CH);
    hyla_dist_destroy(h, &M);
    hyla_dist_destroy(h, &O);
    hyla_dist_destroy(h, &O); /* again: a no-op */
    CHECK(M == NULL && O == NULL, "dist_destroy sets NULL");
}

#undef EVD_M
#undef EPS_M
