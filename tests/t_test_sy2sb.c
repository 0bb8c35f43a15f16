/* Stage-1 tests for one precision (included by test_sy2sb.c with prec.h
 * set): the band keeps A's eigenvalues, Q1 is unitary and A = Q1 B Q1^H. */
#include "t_eig_util.c"

#if IS_CPLX
#define SY2SB PN(hetrd_he2hb)
#define ORMTR PN(unmtr_he2hb)
#else
#define SY2SB PN(sytrd_sy2sb)
#define ORMTR PN(ormtr_sy2sb)
#endif

static void PN(ts_case)(hyla_t *h, char uplo, int64_t n, int64_t kd, int64_t nb,
                        unsigned long long *s) {
    const int64_t lda = n + 2, ldab = kd + 2;
    const size_t nn = (size_t)HYLA_T_MAX(1, n * n);
    T *A0 = malloc(sizeof *A0 * nn), *A = malloc(sizeof *A * (size_t)(lda * HYLA_T_MAX(1, n)));
    T *AB = malloc(sizeof *AB * (size_t)(ldab * HYLA_T_MAX(1, n)));
    T *tau = malloc(sizeof *tau * (size_t)HYLA_T_MAX(1, n)), *B = calloc(nn, sizeof *B);
    T *Q = calloc(nn, sizeof *Q), *C = malloc(sizeof *C * nn), *D = malloc(sizeof *D * nn);
    R *wa = malloc(sizeof *wa * (size_t)HYLA_T_MAX(1, n)), *wb = malloc(sizeof *wb * (size_t)HYLA_T_MAX(1, n));
    PN(te_make)(TE_RANDOM, n, A0, s);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++) {
            int in = (uplo == 'L') ? i >= j : i <= j;
            A[i + j * lda] = i >= n ? (T)SENTINEL : in ? A0[i + j * n] : (T)NAN;
        }
    hyla_set_option(h, HYLA_OPT_EIG_NB, nb);
    int rc = SY2SB(h, uplo, n, kd, A, lda, AB, ldab, tau);
    CHECK(rc == 0, "%csy2sb uplo %c n %lld kd %lld nb %lld: rc %d", CH, uplo, (long long)n,
          (long long)kd, (long long)nb, rc);
    leak_check(h, "sy2sb");
    if (rc) goto done;
    /* the read triangle within the band, the other one and padding stay */
    int kept = 1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++) {
            T v = A[i + j * lda];
            if (i >= n) kept &= v == (T)SENTINEL;
            else if (uplo == 'L' ? i < j : (i > j && i <= j + kd)) kept &= isnan(creal((double complex)v));
            else if (i - j <= kd && j - i <= kd && (uplo == 'L' ? i >= j : i <= j))
                kept &= v == A0[i + j * n];
        }
    CHECK(kept, "%csy2sb uplo %c n %lld kd %lld: A changed outside the reflectors", CH, uplo,
          (long long)n, (long long)kd);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n && i <= j + kd; i++) {
            B[i + j * n] = AB[(i - j) + j * ldab];
            B[j + i * n] = PN(te_conj)(AB[(i - j) + j * ldab]);
        }
    double anorm = PN(te_norm1)(n, n, A0, n);
    PN(te_eig)(n, A0, wa);
    PN(te_eig)(n, B, wb);
    double ev = PN(te_eigdiff)(n, wa, wb, anorm);
    for (int64_t k = 0; k < n; k++) Q[k + k * n] = 1;
    rc = ORMTR(h, 'N', n, kd, n, A, lda, tau, Q, HYLA_T_MAX(1, n));
    CHECK(rc == 0, "%cormtr N: rc %d", CH, rc);
    leak_check(h, "ormtr");
    double orth = PN(te_orth)(n, Q);
    /* A0 - Q B Q^H */
    PN(te_mul)(n, Q, 0, B, 0, C);
    PN(te_mul)(n, C, 0, Q, 1, D);
    for (size_t i = 0; i < (size_t)(n * n); i++) D[i] = A0[i] - D[i];
    double res = n ? PN(te_norm1)(n, n, D, n) / ((double)n * (anorm > 0 ? anorm : 1) * EPS) : 0;
    /* Q^H Q through the conjugate-transpose path */
    memcpy(C, Q, sizeof *C * (size_t)(n * n));
    rc = ORMTR(h, 'C', n, kd, n, A, lda, tau, C, HYLA_T_MAX(1, n));
    CHECK(rc == 0, "%cormtr C: rc %d", CH, rc);
    for (int64_t k = 0; k < n; k++) C[k + k * n] -= 1;
    double qhq = n ? PN(te_norm1)(n, n, C, n) / ((double)n * EPS) : 0;
    CHECK(ev < THRESH && orth < THRESH && res < THRESH && qhq < THRESH,
          "%csy2sb uplo %c n %lld kd %lld nb %lld: eig %.3g orth %.3g resid %.3g QhQ %.3g", CH,
          uplo, (long long)n, (long long)kd, (long long)nb, ev, orth, res, qhq);
done:
    free(A0), free(A), free(AB), free(tau), free(B), free(Q), free(C), free(D), free(wa), free(wb);
}

static void PN(ts_all)(hyla_t *h, unsigned long long *s) {
    static const int64_t ns[] = {0, 1, 2, 3, 5, 8, 17, 30, 41};
    /* (kd, nb): nb = kd, multiples of kd, and 7 (rounded down to 6 for kd 3) */
    static const int64_t kds[][2] = {{1, 1}, {2, 6}, {3, 7}, {4, 8}, {5, 15}};
    for (int u = 0; u < 2; u++)
        for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
            for (size_t b = 0; b < sizeof kds / sizeof *kds; b++)
                PN(ts_case)(h, "LU"[u], ns[a], kds[b][0], kds[b][1], s);
    /* more panels than one block reflector of the back transformation takes
     * (host: 64 columns), the last group partial */
    PN(ts_case)(h, 'L', 150, 2, 4, s);
    PN(ts_case)(h, 'U', 141, 3, 3, s);
    /* bad arguments, in LAPACK order */
    T a[4] = {0}, ab[4] = {0}, tau[2] = {0};
    CHECK(SY2SB(h, 'X', 2, 1, a, 2, ab, 2, tau) == -1, "uplo");
    CHECK(SY2SB(h, 'L', -1, 1, a, 2, ab, 2, tau) == -2, "n");
    CHECK(SY2SB(h, 'L', 2, 0, a, 2, ab, 2, tau) == -3, "kd");
    CHECK(SY2SB(h, 'L', 2, 1, NULL, 2, ab, 2, tau) == -4, "A");
    CHECK(SY2SB(h, 'L', 2, 1, a, 1, ab, 2, tau) == -5, "lda");
    CHECK(SY2SB(h, 'L', 2, 1, a, 2, NULL, 2, tau) == -6, "AB");
    CHECK(SY2SB(h, 'L', 2, 1, a, 2, ab, 1, tau) == -7, "ldab");
    CHECK(SY2SB(h, 'L', 2, 1, a, 2, ab, 2, NULL) == -8, "tau");
    CHECK(SY2SB(NULL, 'L', 2, 1, a, 2, ab, 2, tau) == HYLA_ERR_INVALID, "ctx");
    CHECK(ORMTR(h, 'X', 2, 1, 2, a, 2, tau, ab, 2) == -1, "trans");
    CHECK(ORMTR(h, 'N', 2, 1, -1, a, 2, tau, ab, 2) == -4, "ncols");
    CHECK(ORMTR(h, 'N', 2, 1, 2, a, 2, tau, ab, 1) == -9, "ldc");
}

#undef SY2SB
#undef ORMTR
#undef LP
#undef LP_HEEV
#undef LP_UNGQR
#undef EPS
