/* LU tests for one precision (included by test_getrf.c with prec.h set).
 * Inputs live in arrays with lda > m whose padding rows hold a sentinel,
 * which must come back bit for bit. Residuals are computed in double
 * (complex) from the returned factors. */

#define CH "sdcz"[DT]
#define EPS ((double)(sizeof(R) == 4 ? FLT_EPSILON : DBL_EPSILON))

#include "t_rand_elem.h"

/* m x n in an array of ld rows: random entries (diagonally dominant when
 * dom), the sentinel in rows m .. ld-1. */
static T *PN(tl_make)(int64_t m, int64_t n, int64_t ld, int dom, unsigned long long *s) {
    const int64_t cols = n > 0 ? n : 1;
    T *A = malloc(sizeof(T) * (size_t)(ld * cols));
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < ld; i++)
            A[i + j * ld] = i >= m || j >= n ? (T)SENTINEL : PN(rand_elem)(s);
    if (dom)
        for (int64_t i = 0; i < HYLA_TMIN(m, n); i++) A[i + i * ld] += (T)(2.0 * (double)HYLA_TMAX(m, n));
    return A;
}

static T *PN(tl_copy)(const T *A, int64_t ld, int64_t n) {
    const size_t bytes = sizeof(T) * (size_t)(ld * (n > 0 ? n : 1));
    T *C = malloc(bytes);
    memcpy(C, A, bytes);
    return C;
}

static double PN(tl_norm1)(const T *A, int64_t m, int64_t n, int64_t ld) {
    double r = 0;
    for (int64_t j = 0; j < n; j++) {
        double c = 0;
        for (int64_t i = 0; i < m; i++) c += cabs((double complex)A[i + j * ld]);
        r = fmax(r, c);
    }
    return r;
}

/* |P A0 - L U|_1 / (max(m,n) |A0|_1 eps) (LAPACK's getrf measure), with the
 * factors F and pivots ipiv (NULL: none) as getrf returns them. */
static double PN(tl_resid)(const T *A0, const T *F, int64_t m, int64_t n, int64_t ld,
                           const int64_t *ipiv) {
    if (m == 0 || n == 0) return 0;
    const int64_t k = HYLA_TMIN(m, n);
    double complex *PA = malloc(sizeof *PA * (size_t)(m * n));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) PA[i + j * m] = A0[i + j * ld];
    if (ipiv)
        for (int64_t i = 0; i < k; i++) {
            const int64_t p = ipiv[i] - 1;
            if (p < 0 || p >= m) {
                free(PA);
                return 1e30;
            }
            for (int64_t j = 0; j < n; j++) {
                double complex t = PA[i + j * m];
                PA[i + j * m] = PA[p + j * m];
                PA[p + j * m] = t;
            }
        }
    double num = 0;
    for (int64_t j = 0; j < n; j++) {
        double c = 0;
        for (int64_t i = 0; i < m; i++) {
            double complex acc = 0;
            for (int64_t l = 0; l <= HYLA_TMIN(HYLA_TMIN(i, j), k - 1); l++) {
                double complex Lil = l == i ? 1 : (double complex)F[i + l * ld];
                acc += Lil * (double complex)F[l + j * ld];
            }
            c += cabs(PA[i + j * m] - acc);
        }
        num = fmax(num, c);
    }
    free(PA);
    const double na = PN(tl_norm1)(A0, m, n, ld);
    return na > 0 ? num / ((double)HYLA_TMAX(m, n) * na * EPS) : num;
}

/* |B0 - op(A0) X|_1 / (n |A0|_1 |X|_1 eps) */
static double PN(tl_solve_resid)(const T *A0, int64_t lda, int64_t n, char trans, const T *B0,
                                 const T *X, int64_t ldb, int64_t nrhs) {
    if (n == 0 || nrhs == 0) return 0;
    double num = 0, nx = PN(tl_norm1)(X, n, nrhs, ldb), na = PN(tl_norm1)(A0, n, n, lda);
    if (trans != 'N') {
        double r = 0; /* |A^T|_1 = |A|_inf */
        for (int64_t i = 0; i < n; i++) {
            double c = 0;
            for (int64_t j = 0; j < n; j++) c += cabs((double complex)A0[i + j * lda]);
            r = fmax(r, c);
        }
        na = r;
    }
    for (int64_t c = 0; c < nrhs; c++) {
        double col = 0;
        for (int64_t i = 0; i < n; i++) {
            double complex acc = B0[i + c * ldb];
            for (int64_t j = 0; j < n; j++) {
                double complex a = trans == 'N' ? (double complex)A0[i + j * lda]
                                                : (double complex)A0[j + i * lda];
                if (trans == 'C') a = conj(a);
                acc -= a * (double complex)X[j + c * ldb];
            }
            col += cabs(acc);
        }
        num = fmax(num, col);
    }
    return na > 0 && nx > 0 ? num / ((double)n * na * nx * EPS) : num;
}

static int PN(tl_padding_same)(const T *A, const T *In, int64_t m, int64_t n, int64_t ld) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = m; i < ld; i++)
            if (memcmp(&A[i + j * ld], &In[i + j * ld], sizeof(T)) != 0) return 0;
    return 1;
}

/* getrf (or getrf_nopiv on a diagonally dominant matrix), host-resident and
 * device-resident, m x n. */
static void PN(tl_getrf_case)(hyla_t *h, int64_t m, int64_t n, int pivot, unsigned long long *s,
                              const char *what) {
    const int64_t ld = m + 3, k = HYLA_TMIN(m, n);
    T *A0 = PN(tl_make)(m, n, ld, !pivot, s), *A = PN(tl_copy)(A0, ld, n);
    int64_t *ipiv = malloc(sizeof *ipiv * (size_t)(k + 1));
    int info = pivot ? PN(getrf)(h, m, n, A, ld, ipiv) : PN(getrf_nopiv)(h, m, n, A, ld);
    leak_check(h, what);
    double r = PN(tl_resid)(A0, A, m, n, ld, pivot ? ipiv : NULL);
    CHECK(info == 0 && r < THRESH, "%cgetrf%s %s m %lld n %lld: info %d residual %.3g", CH,
          pivot ? "" : "_nopiv", what, (long long)m, (long long)n, info, r);
    CHECK(PN(tl_padding_same)(A, A0, m, n, ld), "%cgetrf %s m %lld n %lld: padding changed", CH,
          what, (long long)m, (long long)n);
    /* the same on device 0 */
    if (m > 0 && n > 0) {
        void *dA = NULL;
        const size_t bytes = sizeof(T) * (size_t)(ld * n);
        memcpy(A, A0, bytes);
        int rc = hyla_malloc_device(h, 0, bytes, &dA);
        rc = rc ? rc : hyla_copy_to_device(h, 0, dA, A0, bytes);
        if (!rc) info = pivot ? PN(getrf_gpu)(h, 0, m, n, dA, ld, ipiv)
                              : PN(getrf_nopiv_gpu)(h, 0, m, n, dA, ld);
        rc = rc ? rc : hyla_copy_from_device(h, 0, A, dA, bytes);
        hyla_free_device(h, 0, &dA);
        leak_check(h, what);
        r = PN(tl_resid)(A0, A, m, n, ld, pivot ? ipiv : NULL);
        CHECK(rc == 0 && info == 0 && r < THRESH,
              "%cgetrf%s_gpu %s m %lld n %lld: rc %d info %d residual %.3g", CH,
              pivot ? "" : "_nopiv", what, (long long)m, (long long)n, rc, info, r);
    }
    free(A0);
    free(A);
    free(ipiv);
}

/* gesv, then getrs with each trans on the returned factor, host and device. */
static void PN(tl_solve_case)(hyla_t *h, int64_t n, int64_t nrhs, int pivot,
                              unsigned long long *s, const char *what) {
    const int64_t ld = n + 2, ldb = n + 1;
    T *A0 = PN(tl_make)(n, n, ld, !pivot, s), *A = PN(tl_copy)(A0, ld, n);
    T *B0 = PN(tl_make)(n, nrhs, ldb, 0, s), *B = PN(tl_copy)(B0, ldb, nrhs);
    int64_t *ipiv = malloc(sizeof *ipiv * (size_t)(n + 1));
    int info = pivot ? PN(gesv)(h, n, nrhs, A, ld, ipiv, B, ldb)
                     : PN(gesv_nopiv)(h, n, nrhs, A, ld, B, ldb);
    leak_check(h, what);
    double r = PN(tl_solve_resid)(A0, ld, n, 'N', B0, B, ldb, nrhs);
    CHECK(info == 0 && r < THRESH, "%cgesv%s %s n %lld nrhs %lld: info %d residual %.3g", CH,
          pivot ? "" : "_nopiv", what, (long long)n, (long long)nrhs, info, r);
    const char *trans = "NTC";
    for (int t = 0; t < 3 && info == 0; t++) {
        memcpy(B, B0, sizeof(T) * (size_t)(ldb * (nrhs > 0 ? nrhs : 1)));
        int rc = 0;
        if (pivot) {
            rc = PN(getrs)(h, trans[t], n, nrhs, A, ld, ipiv, B, ldb);
            leak_check(h, what);
            r = PN(tl_solve_resid)(A0, ld, n, trans[t], B0, B, ldb, nrhs);
            CHECK(rc == 0 && r < THRESH, "%cgetrs %s trans %c n %lld nrhs %lld: rc %d residual %.3g",
                  CH, what, trans[t], (long long)n, (long long)nrhs, rc, r);
        }
        if (n == 0 || nrhs == 0) continue;
        /* device-resident solve with the host factor */
        void *dA = NULL, *dB = NULL;
        const size_t ab = sizeof(T) * (size_t)(ld * n), bb = sizeof(T) * (size_t)(ldb * nrhs);
        memcpy(B, B0, bb);
        rc = hyla_malloc_device(h, 0, ab, &dA);
        rc = rc ? rc : hyla_malloc_device(h, 0, bb, &dB);
        rc = rc ? rc : hyla_copy_to_device(h, 0, dA, A, ab);
        rc = rc ? rc : hyla_copy_to_device(h, 0, dB, B0, bb);
        if (!rc) rc = pivot ? PN(getrs_gpu)(h, 0, trans[t], n, nrhs, dA, ld, ipiv, dB, ldb)
                            : PN(getrs_nopiv_gpu)(h, 0, trans[t], n, nrhs, dA, ld, dB, ldb);
        rc = rc ? rc : hyla_copy_from_device(h, 0, B, dB, bb);
        hyla_free_device(h, 0, &dA);
        hyla_free_device(h, 0, &dB);
        leak_check(h, what);
        r = PN(tl_solve_resid)(A0, ld, n, trans[t], B0, B, ldb, nrhs);
        CHECK(rc == 0 && r < THRESH, "%cgetrs%s_gpu %s trans %c n %lld nrhs %lld: rc %d residual %.3g",
              CH, pivot ? "" : "_nopiv", what, trans[t], (long long)n, (long long)nrhs, rc, r);
    }
    free(A0);
    free(A);
    free(B0);
    free(B);
    free(ipiv);
}

/* A zero column k (1-based): info k with pivoting (the factorization
 * completes: P A = L U still holds); without pivoting, a zero leading
 * entry gives info 1. gesv then leaves B untouched. */
static void PN(tl_singular_case)(hyla_t *h, int64_t n, int64_t kz, unsigned long long *s) {
    const int64_t ld = n;
    T *A0 = PN(tl_make)(n, n, ld, 0, s), *A;
    for (int64_t i = 0; i < n; i++) A0[i + (kz - 1) * ld] = 0;
    A = PN(tl_copy)(A0, ld, n);
    int64_t *ipiv = malloc(sizeof *ipiv * (size_t)n);
    int info = PN(getrf)(h, n, n, A, ld, ipiv);
    leak_check(h, "singular");
    double r = PN(tl_resid)(A0, A, n, n, ld, ipiv);
    CHECK(info == kz && r < THRESH, "%cgetrf zero column %lld of %lld: info %d residual %.3g", CH,
          (long long)kz, (long long)n, info, r);
    /* gesv reads all n entries of B (the NaN/Inf check): B is n long */
    T *B = calloc((size_t)n, sizeof(T));
    B[0] = 1;
    B[n - 1] = 3;
    memcpy(A, A0, sizeof(T) * (size_t)(ld * n));
    info = PN(gesv)(h, n, 1, A, ld, ipiv, B, n);
    CHECK(info == kz && B[0] == (T)1 && B[n - 1] == (T)3, "%cgesv zero column %lld: info %d", CH,
          (long long)kz, info);
    free(B);
    /* nopiv: zero leading entry */
    T *D = PN(tl_make)(n, n, ld, 1, s);
    D[0] = 0;
    info = PN(getrf_nopiv)(h, n, n, D, ld);
    CHECK(info == 1, "%cgetrf_nopiv zero leading entry: info %d", CH, info);
    void *dA = NULL;
    T *D2 = PN(tl_make)(n, n, ld, 1, s);
    D2[0] = 0;
    int rc = hyla_malloc_device(h, 0, sizeof(T) * (size_t)(ld * n), &dA);
    rc = rc ? rc : hyla_copy_to_device(h, 0, dA, D2, sizeof(T) * (size_t)(ld * n));
    info = rc ? rc : PN(getrf_nopiv_gpu)(h, 0, n, n, dA, ld);
    hyla_free_device(h, 0, &dA);
    CHECK(info == 1, "%cgetrf_nopiv_gpu zero leading entry: info %d", CH, info);
    leak_check(h, "singular");
    free(A0);
    free(A);
    free(D);
    free(D2);
    free(ipiv);
}

static void PN(tl_bad_args)(hyla_t *h) {
    T a[4] = {1, 0, 0, 1}, b[2] = {1, 1};
    int64_t ip[2] = {1, 2}, bad_ip[2] = {3, 1};
    CHECK(PN(getrf)(h, -1, 2, a, 2, ip) == -1, "%cgetrf m -1", CH);
    CHECK(PN(getrf)(h, 2, -1, a, 2, ip) == -2, "%cgetrf n -1", CH);
    CHECK(PN(getrf)(h, 2, 2, NULL, 2, ip) == -3, "%cgetrf A NULL", CH);
    CHECK(PN(getrf)(h, 2, 2, a, 1, ip) == -4, "%cgetrf lda 1", CH);
    CHECK(PN(getrf)(h, 2, 2, a, 2, NULL) == -5, "%cgetrf ipiv NULL", CH);
    CHECK(PN(getrf)(NULL, 2, 2, a, 2, ip) == HYLA_ERR_INVALID, "%cgetrf ctx NULL", CH);
    CHECK(PN(getrs)(h, 'X', 2, 1, a, 2, ip, b, 2) == -1, "%cgetrs trans X", CH);
    CHECK(PN(getrs)(h, 'N', -1, 1, a, 2, ip, b, 2) == -2, "%cgetrs n", CH);
    CHECK(PN(getrs)(h, 'N', 2, -1, a, 2, ip, b, 2) == -3, "%cgetrs nrhs", CH);
    CHECK(PN(getrs)(h, 'N', 2, 1, NULL, 2, ip, b, 2) == -4, "%cgetrs A", CH);
    CHECK(PN(getrs)(h, 'N', 2, 1, a, 1, ip, b, 2) == -5, "%cgetrs lda", CH);
    CHECK(PN(getrs)(h, 'N', 2, 1, a, 2, NULL, b, 2) == -6, "%cgetrs ipiv", CH);
    CHECK(PN(getrs)(h, 'N', 2, 1, a, 2, bad_ip, b, 2) == -6, "%cgetrs ipiv out of range", CH);
    CHECK(PN(getrs)(h, 'N', 2, 1, a, 2, ip, NULL, 2) == -7, "%cgetrs B", CH);
    CHECK(PN(getrs)(h, 'N', 2, 1, a, 2, ip, b, 1) == -8, "%cgetrs ldb", CH);
    CHECK(PN(gesv)(h, -1, 1, a, 2, ip, b, 2) == -1, "%cgesv n", CH);
    CHECK(PN(gesv)(h, 2, 1, a, 2, NULL, b, 2) == -5, "%cgesv ipiv", CH);
    CHECK(PN(gesv)(h, 2, 1, a, 2, ip, b, 1) == -7, "%cgesv ldb", CH);
    CHECK(PN(getrf_gpu)(h, -1, 2, 2, a, 2, ip) == HYLA_ERR_NO_DEVICE, "%cgetrf_gpu dev -1", CH);
    CHECK(PN(getrf_gpu)(h, 0, 2, 2, a, 1, ip) == -4, "%cgetrf_gpu ldda", CH);
    CHECK(PN(getrs_gpu)(h, 99, 'N', 2, 1, a, 2, ip, b, 2) == HYLA_ERR_NO_DEVICE, "%cgetrs_gpu dev", CH);
    CHECK(PN(getrs_gpu)(h, 0, 'N', 2, 1, a, 2, ip, b, 1) == -8, "%cgetrs_gpu lddb", CH);
    CHECK(PN(getrf_nopiv)(h, 2, 2, a, 1) == -4, "%cgetrf_nopiv lda", CH);
    CHECK(PN(gesv_nopiv)(h, 2, 1, a, 2, NULL, 2) == -5, "%cgesv_nopiv B", CH);
    CHECK(PN(gesv_nopiv)(h, 2, 1, a, 2, b, 1) == -6, "%cgesv_nopiv ldb", CH);
    CHECK(PN(getrf_nopiv_gpu)(h, 0, 2, -2, a, 2) == -2, "%cgetrf_nopiv_gpu n", CH);
    CHECK(PN(getrs_nopiv_gpu)(h, 0, 'Q', 2, 1, a, 2, b, 2) == -1, "%cgetrs_nopiv_gpu trans", CH);
    CHECK(PN(getrs_nopiv_gpu)(h, 0, 'T', 2, 1, a, 2, NULL, 2) == -6, "%cgetrs_nopiv_gpu dB", CH);
    CHECK(PN(getrs_nopiv_gpu)(h, 0, 'T', 2, 1, a, 2, b, 1) == -7, "%cgetrs_nopiv_gpu lddb", CH);
}

static void PN(tl_suite)(hyla_t *h, unsigned long long *s, int cuda) {
    static const int64_t mn[][2] = {{0, 0}, {0, 5}, {5, 0}, {1, 1}, {2, 2}, {1, 7}, {7, 1},
                                    {3, 3}, {37, 37}, {64, 64}, {101, 83}, {83, 101}, {130, 129},
                                    {64, 65}, {39, 40}}; /* [A b] as HPL factors it */
    const int64_t nbs[] = {0, 8, 13};
    for (size_t b = 0; b < sizeof nbs / sizeof nbs[0]; b++) {
        char what[32];
        snprintf(what, sizeof what, "nb %lld", (long long)nbs[b]);
        hyla_set_option(h, HYLA_OPT_GETRF_NB, nbs[b]);
        for (size_t i = 0; i < sizeof mn / sizeof mn[0]; i++)
            for (int pivot = 1; pivot >= 0; pivot--)
                PN(tl_getrf_case)(h, mn[i][0], mn[i][1], pivot, s, what);
        const int64_t ns[] = {0, 1, 2, 17, 75};
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (int pivot = 1; pivot >= 0; pivot--) {
                PN(tl_solve_case)(h, ns[i], 3, pivot, s, what);
                if (ns[i] == 17) PN(tl_solve_case)(h, ns[i], 0, pivot, s, what);
            }
    }
    hyla_set_option(h, HYLA_OPT_GETRF_NB, 8);
    PN(tl_singular_case)(h, 50, 1, s);
    PN(tl_singular_case)(h, 50, 20, s);
    PN(tl_singular_case)(h, 50, 50, s);
    if (cuda) { /* GPU: sizes past the tuning table's panel width */
        hyla_set_option(h, HYLA_OPT_GETRF_NB, 0);
        PN(tl_getrf_case)(h, 1100, 1000, 1, s, "cuda");
        PN(tl_getrf_case)(h, 1000, 1000, 0, s, "cuda");
    }
    PN(tl_bad_args)(h);
}

#undef CH
#undef EPS
