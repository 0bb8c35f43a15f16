/* GEMM tests for one precision (included by test_gemm.c with prec.h set):
 * every transpose pair, alpha/beta cases, odd sizes and lda > m, against a
 * naive reference computed in the same type with long double accumulation. */

static void PN(t_fill)(T *x, int64_t n, unsigned long long *s) {
    for (int64_t i = 0; i < n; i++) {
#if IS_CPLX
        x[i] = (R)t_rand(s) + (R)t_rand(s) * I;
#else
        x[i] = (R)t_rand(s);
#endif
    }
}

static T PN(t_op)(const T *X, int64_t ld, char tr, int64_t i, int64_t j) {
    if (tr == 'N') return X[i + j * ld];
    T v = X[j + i * ld];
#if IS_CPLX
    if (tr == 'C') v = conj(v);
#endif
    return v;
}

static double PN(t_abs)(T v) {
#if IS_CPLX
    return cabs(v);
#else
    return fabs((double)v);
#endif
}

/* Runs one case; returns the scaled error max|C - Cref| / ((|a| k + |b|) eps),
 * or -1 when a guard element past the matrix was overwritten. */
static double PN(t_case)(hyla_t *h, char ta, char tb, int64_t m, int64_t n, int64_t k, T alpha,
                         T beta, int64_t pad, int nan_c, unsigned long long *seed, int *info) {
    const int64_t ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m;
    const int64_t br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
    const int64_t lda = ar + pad, ldb = br + pad, ldc = m + pad;
    const int64_t na = lda * (ac > 0 ? ac : 1), nb = ldb * (bc > 0 ? bc : 1), nc = ldc * (n > 0 ? n : 1);
    T *A = malloc(sizeof(T) * (size_t)na), *B = malloc(sizeof(T) * (size_t)nb);
    T *C = malloc(sizeof(T) * (size_t)(nc + 1)), *C0 = malloc(sizeof(T) * (size_t)(nc + 1));
    double err = 0;
    PN(t_fill)(A, na, seed);
    PN(t_fill)(B, nb, seed);
    PN(t_fill)(C, nc + 1, seed);
    if (nan_c)
        for (int64_t i = 0; i < nc; i++) C[i] = (R)NAN;
    memcpy(C0, C, sizeof(T) * (size_t)(nc + 1));
    *info = PN(gemm)(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    if (*info == 0) {
        const double eps = sizeof(R) == 4 ? FLT_EPSILON : DBL_EPSILON;
        const double scale = (PN(t_abs)(alpha) * (double)(k > 0 ? k : 1) + PN(t_abs)(beta)) * eps;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                T ref = 0;
                for (int64_t l = 0; l < k; l++)
                    ref += PN(t_op)(A, lda, ta, i, l) * PN(t_op)(B, ldb, tb, l, j);
                ref = alpha * ref;
                if (beta != T_ZERO) ref += beta * C0[i + j * ldc];
                double e = PN(t_abs)(C[i + j * ldc] - ref) / scale;
                if (!(e <= err)) err = e; /* NaN propagates into err */
            }
        /* rows past m (lda padding) and the element past the end are untouched */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = m; i < ldc; i++)
                if (memcmp(&C[i + j * ldc], &C0[i + j * ldc], sizeof(T)) != 0) err = -1;
        if (memcmp(&C[nc], &C0[nc], sizeof(T)) != 0) err = -1;
    }
    free(A); free(B); free(C); free(C0);
    return err;
}

static void PN(t_suite)(hyla_t *h, unsigned long long *seed, int quick) {
    const char ops[3] = {'N', 'T', 'C'};
    const int64_t sizes[][3] = {{1, 1, 1}, {2, 3, 1}, {37, 29, 53}, {70, 65, 131}, {129, 67, 33}};
    const int ns = quick ? 3 : 5;
    const T alphas[3] = {T_ONE, (T)-0.5, (T)2};
    const T betas[3] = {T_ZERO, T_ONE, (T)0.75};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int s = 0; s < ns; s++) {
                int info;
                int cas = (a * 3 + b + s) % 3;
                double e = PN(t_case)(h, ops[a], ops[b], sizes[s][0], sizes[s][1], sizes[s][2],
                                      alphas[cas], betas[(cas + s) % 3], s % 2 ? 3 : 0, 0, seed, &info);
                CHECK(info == 0 && e >= 0 && e < 10, "%cgemm %c%c %lldx%lldx%lld: info %d err %g",
                      "sdcz"[DT], ops[a], ops[b], (long long)sizes[s][0], (long long)sizes[s][1],
                      (long long)sizes[s][2], info, e);
            }
    /* beta = 0 must not read C: NaN in C stays out of the result */
    int info;
    double e = PN(t_case)(h, 'N', 'N', 45, 38, 70, T_ONE, T_ZERO, 2, 1, seed, &info);
    CHECK(info == 0 && e >= 0 && e < 10, "%cgemm beta=0 with NaN C: err %g", "sdcz"[DT], e);
    /* alpha = 0 and k = 0: C = beta C, A and B not read (NULL allowed) */
    T c[6] = {1, 2, 3, 4, 5, 6};
    info = PN(gemm)(h, 'N', 'N', 2, 3, 4, T_ZERO, NULL, 2, NULL, 4, (T)2, c, 2);
    CHECK(info == 0 && c[0] == (T)2 && c[5] == (T)12, "%cgemm alpha=0: info %d", "sdcz"[DT], info);
    info = PN(gemm)(h, 'N', 'N', 2, 3, 0, T_ONE, NULL, 2, NULL, 1, T_ZERO, c, 2);
    CHECK(info == 0 && c[0] == T_ZERO && c[5] == T_ZERO, "%cgemm k=0 beta=0: info %d", "sdcz"[DT], info);
    /* m = 0 / n = 0: nothing touched */
    info = PN(gemm)(h, 'N', 'N', 0, 3, 4, T_ONE, NULL, 1, NULL, 4, T_ONE, NULL, 1);
    CHECK(info == 0, "%cgemm m=0: info %d", "sdcz"[DT], info);
    /* bad arguments: BLAS numbering */
    T a[4] = {0}, bb[4] = {0};
    CHECK(PN(gemm)(h, 'X', 'N', 1, 1, 1, T_ONE, a, 1, bb, 1, T_ONE, c, 1) == -1, "transa");
    CHECK(PN(gemm)(h, 'N', 'Q', 1, 1, 1, T_ONE, a, 1, bb, 1, T_ONE, c, 1) == -2, "transb");
    CHECK(PN(gemm)(h, 'N', 'N', -1, 1, 1, T_ONE, a, 1, bb, 1, T_ONE, c, 1) == -3, "m");
    CHECK(PN(gemm)(h, 'N', 'N', 1, -1, 1, T_ONE, a, 1, bb, 1, T_ONE, c, 1) == -4, "n");
    CHECK(PN(gemm)(h, 'N', 'N', 1, 1, -1, T_ONE, a, 1, bb, 1, T_ONE, c, 1) == -5, "k");
    CHECK(PN(gemm)(h, 'N', 'N', 3, 1, 1, T_ONE, a, 2, bb, 1, T_ONE, c, 3) == -8, "lda");
    CHECK(PN(gemm)(h, 'T', 'N', 1, 1, 3, T_ONE, a, 2, bb, 3, T_ONE, c, 1) == -8, "lda trans");
    CHECK(PN(gemm)(h, 'N', 'N', 1, 1, 3, T_ONE, a, 1, bb, 2, T_ONE, c, 1) == -10, "ldb");
    CHECK(PN(gemm)(h, 'N', 'N', 2, 1, 1, T_ONE, a, 2, bb, 1, T_ONE, c, 1) == -13, "ldc");
    CHECK(PN(gemm)(h, 'N', 'N', 1, 1, 1, T_ONE, NULL, 1, bb, 1, T_ONE, c, 1) == -7, "A NULL");
    CHECK(PN(gemm)(h, 'N', 'N', 1, 1, 1, T_ONE, a, 1, NULL, 1, T_ONE, c, 1) == -9, "B NULL");
    CHECK(PN(gemm)(h, 'N', 'N', 1, 1, 1, T_ONE, a, 1, bb, 1, T_ONE, NULL, 1) == -12, "C NULL");
    CHECK(PN(gemm)(NULL, 'N', 'N', 1, 1, 1, T_ONE, a, 1, bb, 1, T_ONE, c, 1) == HYLA_ERR_INVALID, "ctx");
}

/* The device-pointer entry point against the host one. */
static void PN(t_gpu)(hyla_t *h, unsigned long long *seed) {
    const int64_t m = 33, n = 21, k = 17;
    T *A = malloc(sizeof(T) * m * k), *B = malloc(sizeof(T) * k * n), *C = malloc(sizeof(T) * m * n);
    T *C2 = malloc(sizeof(T) * m * n);
    void *dA = NULL, *dB = NULL, *dC = NULL;
    PN(t_fill)(A, m * k, seed);
    PN(t_fill)(B, k * n, seed);
    PN(t_fill)(C, m * n, seed);
    memcpy(C2, C, sizeof(T) * m * n);
    int dev = hyla_device_count(h) - 1;
    int rc = hyla_malloc_device(h, dev, sizeof(T) * m * k, &dA);
    rc = rc ? rc : hyla_malloc_device(h, dev, sizeof(T) * k * n, &dB);
    rc = rc ? rc : hyla_malloc_device(h, dev, sizeof(T) * m * n, &dC);
    rc = rc ? rc : hyla_copy_to_device(h, dev, dA, A, sizeof(T) * m * k);
    rc = rc ? rc : hyla_copy_to_device(h, dev, dB, B, sizeof(T) * k * n);
    rc = rc ? rc : hyla_copy_to_device(h, dev, dC, C, sizeof(T) * m * n);
    rc = rc ? rc : PN(gemm_gpu)(h, dev, 'N', 'T', m, n, k, (T)0.5, dA, m, dB, n, T_ONE, dC, m);
    rc = rc ? rc : hyla_copy_from_device(h, dev, C, dC, sizeof(T) * m * n);
    int rc2 = PN(gemm)(h, 'N', 'T', m, n, k, (T)0.5, A, m, B, n, T_ONE, C2, m);
    double e = 0;
    for (int64_t i = 0; i < m * n; i++) e = fmax(e, PN(t_abs)(C[i] - C2[i]));
    CHECK(rc == 0 && rc2 == 0 && e < 1e-4, "%cgemm_gpu: rc %d/%d diff %g", "sdcz"[DT], rc, rc2, e);
    CHECK(PN(gemm_gpu)(h, 99, 'N', 'N', 1, 1, 1, T_ONE, dA, 1, dB, 1, T_ONE, dC, 1) == HYLA_ERR_NO_DEVICE, "bad dev");
    CHECK(PN(gemm_gpu)(h, dev, 'N', 'N', 1, 1, 1, T_ONE, dA, 0, dB, 1, T_ONE, dC, 1) == -8, "gpu lda");
    hyla_free_device(h, dev, &dA);
    hyla_free_device(h, dev, &dB);
    hyla_free_device(h, dev, &dC);
    CHECK(dA == NULL && dC == NULL, "free_device sets NULL");
    free(A); free(B); free(C); free(C2);
}
