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

/* Stage 1 on A of class cls (t_eig_util.c); returns the panels factored by
 * CholeskyQR2 (-1 when the call failed). */
static int64_t PN(ts_class)(hyla_t *h, int cls, char uplo, int64_t n, int64_t kd, int64_t nb,
                            unsigned long long *s) {
    const int64_t lda = n + 2, ldab = kd + 2;
    const size_t nn = (size_t)HYLA_T_MAX(1, n * n);
    T *A0 = malloc(sizeof *A0 * nn), *A = malloc(sizeof *A * (size_t)(lda * HYLA_T_MAX(1, n)));
    T *AB = malloc(sizeof *AB * (size_t)(ldab * HYLA_T_MAX(1, n)));
    T *tau = malloc(sizeof *tau * (size_t)HYLA_T_MAX(1, n)), *B = calloc(nn, sizeof *B);
    T *Q = calloc(nn, sizeof *Q), *C = malloc(sizeof *C * nn), *D = malloc(sizeof *D * nn);
    R *wa = malloc(sizeof *wa * (size_t)HYLA_T_MAX(1, n)), *wb = malloc(sizeof *wb * (size_t)HYLA_T_MAX(1, n));
    int64_t ncq = -1;
    PN(te_make)(cls, n, A0, s);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++) {
            int in = (uplo == 'L') ? i >= j : i <= j;
            A[i + j * lda] = i >= n ? (T)SENTINEL : in ? A0[i + j * n] : (T)NAN;
        }
    hyla_set_option(h, HYLA_OPT_EIG_NB, nb);
    int rc = SY2SB(h, uplo, n, kd, A, lda, AB, ldab, tau);
    CHECK(rc == 0, "%csy2sb %s uplo %c n %lld kd %lld nb %lld: rc %d", CH, te_class_name[cls],
          uplo, (long long)n, (long long)kd, (long long)nb, rc);
    leak_check(h, "sy2sb");
    if (rc) goto done;
    hyla_eig_stats st;
    hyla_get_eig_stats(h, &st);
    ncq = st.panels_cholqr;
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
          "%csy2sb %s uplo %c n %lld kd %lld nb %lld (%lld CholeskyQR2 panels): eig %.3g orth "
          "%.3g resid %.3g QhQ %.3g", CH, te_class_name[cls], uplo, (long long)n, (long long)kd,
          (long long)nb, (long long)ncq, ev, orth, res, qhq);
done:
    free(A0), free(A), free(AB), free(tau), free(B), free(Q), free(C), free(D), free(wa), free(wb);
    return ncq;
}

static void PN(ts_case)(hyla_t *h, char uplo, int64_t n, int64_t kd, int64_t nb,
                        unsigned long long *s) {
    PN(ts_class)(h, TE_RANDOM, uplo, n, kd, nb, s);
}

/* The panels by CholeskyQR2 with Householder vectors reconstructed
 * (HYLA_OPT_EIG_PANEL_QR 2): the same checks, on matrices whose panels it
 * takes (random: every panel of at least 2 kd rows; clustered: most) and
 * on ones it must hand to Householder QR (zero and diagonal: panels of
 * zeros; graded: ill-conditioned panels, taken or not). */
static void PN(ts_cholqr)(hyla_t *h, unsigned long long *s) {
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_PANEL_QR, 2) == 0, "HYLA_OPT_EIG_PANEL_QR 2");
    static const int64_t cases[][3] = {{41, 3, 6}, {60, 5, 5}, {150, 4, 8}, {97, 8, 16}};
    static const int classes[] = {TE_RANDOM, TE_CLUSTERED, TE_GRADED, TE_ZERO, TE_DIAGONAL};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t k = 0; k < sizeof classes / sizeof *classes; k++)
            for (int u = 0; u < 2; u++) {
                const int64_t n = cases[c][0], kd = cases[c][1];
                const int cls = classes[k];
                const int64_t got = PN(ts_class)(h, cls, "LU"[u], n, kd, cases[c][2], s);
                /* panels with at least 2 kd rows below the band */
                int64_t want = 0;
                for (int64_t j0 = 0; j0 + kd + 1 < n; j0 += kd) want += n - j0 - kd >= 2 * kd;
                /* random: all of them; clustered (A near a multiple of I
                 * plus a low-rank part): the last, nearly rank-deficient
                 * panels may go to Householder QR */
                if (cls == TE_RANDOM || cls == TE_CLUSTERED)
                    CHECK(cls == TE_RANDOM ? got == want : got > 0 && got <= want,
                          "%c CholeskyQR2 %s n %lld kd %lld: %lld panels, %lld expected", CH,
                          te_class_name[cls], (long long)n, (long long)kd, (long long)got,
                          (long long)want);
                if (cls == TE_ZERO || cls == TE_DIAGONAL)
                    CHECK(got == 0, "%c CholeskyQR2 %s n %lld: %lld panels of zeros taken", CH,
                          te_class_name[cls], (long long)n, (long long)got);
            }
    /* Householder QR when asked for */
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_PANEL_QR, 1) == 0, "HYLA_OPT_EIG_PANEL_QR 1");
    CHECK(PN(ts_class)(h, TE_RANDOM, 'L', 60, 5, 5, s) == 0, "%c Householder QR asked for", CH);
    hyla_set_option(h, HYLA_OPT_EIG_PANEL_QR, 0);
}

/* The trailing update by block-column GEMMs (HYLA_OPT_EIG_S1_UPDATE 2:
 * HER2K on each diagonal block, one GEMM of inner dimension 2 k below it,
 * blocks of a quarter of the trailing order at these sizes, so several
 * block columns with a partial last one): the same checks, the other
 * triangle and the padding untouched (ts_class), with both panel
 * factorizations. */
static void PN(ts_gemm_update)(hyla_t *h, unsigned long long *s) {
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_S1_UPDATE, 2) == 0, "HYLA_OPT_EIG_S1_UPDATE 2");
    static const int64_t cases[][3] = {{41, 3, 6}, {60, 5, 5}, {97, 4, 12}, {150, 8, 16}};
    static const int classes[] = {TE_RANDOM, TE_GRADED, TE_CLUSTERED};
    for (int qr = 1; qr <= 2; qr++) {
        hyla_set_option(h, HYLA_OPT_EIG_PANEL_QR, qr);
        for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
            for (size_t k = 0; k < sizeof classes / sizeof *classes; k++)
                for (int u = 0; u < 2; u++)
                    PN(ts_class)(h, classes[k], "LU"[u], cases[c][0], cases[c][1], cases[c][2], s);
    }
    hyla_set_option(h, HYLA_OPT_EIG_PANEL_QR, 0);
    hyla_set_option(h, HYLA_OPT_EIG_S1_UPDATE, 0);
}

/* A V by GEMMs (HYLA_OPT_EIG_S1_SYMM: diagonal blocks of order 16 and 17,
 * so trailing orders of one to nine blocks, a short last one and several
 * levels of halves; 2: the default order, one block at these sizes): the
 * same checks (ts_class), with both panel factorizations and both update
 * forms; and the values the option refuses. */
static void PN(ts_gemm_symm)(hyla_t *h, unsigned long long *s) {
    static const int64_t cases[][3] = {{41, 3, 6}, {97, 4, 12}, {150, 8, 16}};
    static const int classes[] = {TE_RANDOM, TE_GRADED, TE_CLUSTERED};
    static const int64_t leaves[] = {16, 17, 2};
    for (size_t l = 0; l < sizeof leaves / sizeof *leaves; l++) {
        CHECK(hyla_set_option(h, HYLA_OPT_EIG_S1_SYMM, leaves[l]) == 0, "HYLA_OPT_EIG_S1_SYMM %lld",
              (long long)leaves[l]);
        for (int qr = 1; qr <= 2; qr++) {
            hyla_set_option(h, HYLA_OPT_EIG_PANEL_QR, qr);
            hyla_set_option(h, HYLA_OPT_EIG_S1_UPDATE, qr);
            for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
                for (size_t k = 0; k < sizeof classes / sizeof *classes; k++)
                    for (int u = 0; u < 2; u++)
                        PN(ts_class)(h, classes[k], "LU"[u], cases[c][0], cases[c][1], cases[c][2],
                                     s);
        }
    }
    int64_t v = -1;
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_S1_SYMM, 3) == -3 &&
              hyla_set_option(h, HYLA_OPT_EIG_S1_SYMM, 15) == -3 &&
              hyla_set_option(h, HYLA_OPT_EIG_S1_SYMM, -1) == -3 &&
              hyla_get_option(h, HYLA_OPT_EIG_S1_SYMM, &v) == 0 && v == 2,
          "HYLA_OPT_EIG_S1_SYMM: a refused value accepted, or the option changed (%lld)",
          (long long)v);
    hyla_set_option(h, HYLA_OPT_EIG_S1_SYMM, 0);
    hyla_set_option(h, HYLA_OPT_EIG_PANEL_QR, 0);
    hyla_set_option(h, HYLA_OPT_EIG_S1_UPDATE, 0);
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
    PN(ts_cholqr)(h, s);
    PN(ts_gemm_update)(h, s);
    PN(ts_gemm_symm)(h, s);
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
