/* Cholesky tests for one precision (included by test_potrf.c with prec.h
 * set). Reference: LAPACKE on the host. Each case builds its input in an
 * array with lda > n whose other triangle holds NaN and whose padding rows
 * hold a sentinel: both must come back bit for bit. */

#if defined(HYLA_PREC_S)
#define LP(x) LAPACKE_s##x
#elif defined(HYLA_PREC_D)
#define LP(x) LAPACKE_d##x
#elif defined(HYLA_PREC_C)
#define LP(x) LAPACKE_c##x
#else
#define LP(x) LAPACKE_z##x
#endif
#define CH "sdcz"[DT]
#define EPS ((double)(sizeof(R) == 4 ? FLT_EPSILON : DBL_EPSILON))

static double PN(tp_abs)(T v) {
#if IS_CPLX
    return cabs((double complex)v);
#else
    return fabs((double)v);
#endif
}

static T PN(tp_conj)(T v) {
#if IS_CPLX
    return conj(v);
#else
    return v;
#endif
}

static T PN(tp_rand)(unsigned long long *s) {
#if IS_CPLX
    double re = t_rand(s), im = t_rand(s);
    return (T)(re / sqrt(2.0) + im / sqrt(2.0) * I);
#else
    return (T)t_rand(s);
#endif
}

/* A full Hermitian n x n matrix (ld n): |a_ij| < 1 off the diagonal,
 * n + (-1, 1) on it, hence positive definite. */
static void PN(tp_spd)(T *A, int64_t n, unsigned long long *s) {
    for (int64_t j = 0; j < n; j++) {
        A[j + j * n] = (T)((double)n + t_rand(s));
        for (int64_t i = j + 1; i < n; i++) {
            A[i + j * n] = PN(tp_rand)(s);
            A[j + i * n] = PN(tp_conj)(A[i + j * n]);
        }
    }
}

/* Q D Q^H with eigenvalues cond^(-i/(n-1)), built in double precision. */
static void PN(tp_cond)(T *A, int64_t n, double cond, unsigned long long *s) {
#if IS_CPLX
    double complex *w = malloc(sizeof *w * (size_t)(n * n));
    make_cond_z(w, n, cond, s);
#else
    double *w = malloc(sizeof *w * (size_t)(n * n));
    make_cond_d(w, n, cond, s);
#endif
    for (int64_t i = 0; i < n * n; i++) A[i] = (T)w[i];
    free(w);
}

/* Entry (i, j) of the stored triangle of F as an entry of L (uplo U: L = U^H). */
static T PN(tp_L)(char uplo, const T *F, int64_t ld, int64_t i, int64_t k) {
    return uplo == 'L' ? F[i + k * ld] : PN(tp_conj)(F[k + i * ld]);
}

static int PN(tp_in_tri)(char uplo, int64_t i, int64_t j) { return uplo == 'L' ? i >= j : i <= j; }

/* The input array (ld lda): A0's uplo triangle, NaN in the other one, the
 * sentinel in the padding rows. */
static T *PN(tp_input)(char uplo, const T *A0, int64_t n, int64_t lda) {
    T *A = malloc(sizeof(T) * (size_t)(lda * (n > 0 ? n : 1)));
    for (int64_t j = 0; j < (n > 0 ? n : 1); j++)
        for (int64_t i = 0; i < lda; i++)
            A[i + j * lda] = i >= n ? (T)SENTINEL : PN(tp_in_tri)(uplo, i, j) ? A0[i + j * n] : (T)NAN;
    return A;
}

/* |A0 - L L^H| / (n |A0| eps): Frobenius norms for n <= 400, beyond that
 * |(A0 - L L^H) x|_inf / (n |A0|_inf |x|_inf eps) for three random x. */
static double PN(tp_resid)(char uplo, const T *A0, int64_t n, const T *F, int64_t ld,
                           unsigned long long *s) {
    if (n == 0) return 0;
    double num = 0, den = 0;
    if (n <= 400) {
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = j; i < n; i++) {
                double complex acc = 0;
                for (int64_t k = 0; k <= j; k++)
                    acc += (double complex)PN(tp_L)(uplo, F, ld, i, k) *
                           conj((double complex)PN(tp_L)(uplo, F, ld, j, k));
                double w = i == j ? 1 : 2, d = cabs(acc - (double complex)A0[i + j * n]);
                double a = cabs((double complex)A0[i + j * n]);
                num += w * d * d;
                den += w * a * a;
            }
        return sqrt(num) / ((double)n * sqrt(den) * EPS);
    }
    double worst = 0, norm_a = 0;
    for (int64_t i = 0; i < n; i++) {
        double r = 0;
        for (int64_t j = 0; j < n; j++) r += cabs((double complex)A0[i + j * n]);
        norm_a = fmax(norm_a, r);
    }
    double complex *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
    for (int v = 0; v < 3; v++) {
        double nx = 0, d = 0;
        for (int64_t i = 0; i < n; i++) x[i] = t_rand(s), nx = fmax(nx, cabs(x[i]));
        for (int64_t k = 0; k < n; k++) { /* y = L^H x */
            double complex acc = 0;
            for (int64_t i = k; i < n; i++)
                acc += conj((double complex)PN(tp_L)(uplo, F, ld, i, k)) * x[i];
            y[k] = acc;
        }
        for (int64_t i = 0; i < n; i++) { /* A0 x - L y */
            double complex acc = 0;
            for (int64_t k = 0; k <= i; k++) acc += (double complex)PN(tp_L)(uplo, F, ld, i, k) * y[k];
            for (int64_t j = 0; j < n; j++) acc -= (double complex)A0[i + j * n] * x[j];
            d = fmax(d, cabs(acc));
        }
        worst = fmax(worst, d / ((double)n * norm_a * nx * EPS));
    }
    free(x);
    free(y);
    return worst;
}

/* 1 / rcond of A0 from LAPACKE's factor Fref (ld ld); >= 1. */
static double PN(tp_kappa)(char uplo, const T *A0, int64_t n, const T *Fref, int64_t ld) {
    if (n == 0) return 1;
    double norm1 = 0;
    for (int64_t j = 0; j < n; j++) {
        double c = 0;
        for (int64_t i = 0; i < n; i++) c += cabs((double complex)A0[i + j * n]);
        norm1 = fmax(norm1, c);
    }
    R rcond = 0;
    lapack_int info = LP(pocon)(LAPACK_COL_MAJOR, uplo, (lapack_int)n, Fref, (lapack_int)ld,
                                (R)norm1, &rcond);
    return info == 0 && rcond > 0 ? fmax(1.0, 1.0 / (double)rcond) : 1e30;
}

/* max |F - Fref| / max |Fref| over columns [c0, c1) of L (for U: rows). */
static double PN(tp_diff)(char uplo, const T *F, const T *Fref, int64_t n, int64_t ld, int64_t c0,
                          int64_t c1) {
    double d = 0, m = 0;
    for (int64_t k = c0; k < c1; k++)
        for (int64_t i = k; i < n; i++) {
            double a = PN(tp_abs)(PN(tp_L)(uplo, F, ld, i, k) - PN(tp_L)(uplo, Fref, ld, i, k));
            if (!(a <= d)) d = a; /* NaN sticks */
            m = fmax(m, PN(tp_abs)(PN(tp_L)(uplo, Fref, ld, i, k)));
        }
    return m > 0 ? d / m : d;
}

/* Entries outside the factor's triangle (other triangle, padding) equal In. */
static int PN(tp_outside_same)(char uplo, const T *A, const T *In, int64_t n, int64_t ld) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ld; i++)
            if ((i >= n || !PN(tp_in_tri)(uplo, i, j)) &&
                memcmp(&A[i + j * ld], &In[i + j * ld], sizeof(T)) != 0)
                return 0;
    return 1;
}

/* potrf on the context's devices for one case, against LAPACKE. */
static void PN(tp_potrf_case)(hyla_t *h, char uplo, const T *A0, int64_t n, double cond_hint,
                              unsigned long long *s, const char *what) {
    const int64_t lda = n + 3;
    T *In = PN(tp_input)(uplo, A0, n, lda);
    T *A = malloc(sizeof(T) * (size_t)(lda * (n > 0 ? n : 1)));
    T *Fref = malloc(sizeof(T) * (size_t)(lda * (n > 0 ? n : 1)));
    memcpy(A, In, sizeof(T) * (size_t)(lda * (n > 0 ? n : 1)));
    memcpy(Fref, In, sizeof(T) * (size_t)(lda * (n > 0 ? n : 1)));
    int info = PN(potrf)(h, uplo, n, A, lda);
    leak_check(h, what);
    lapack_int rinfo = n > 0 ? LP(potrf_work)(LAPACK_COL_MAJOR, uplo, (lapack_int)n, Fref,
                                              (lapack_int)lda) : 0;
    double res = PN(tp_resid)(uplo, A0, n, A, lda, s);
    double kappa = fmax(cond_hint, PN(tp_kappa)(uplo, A0, n, Fref, lda));
    double diff = PN(tp_diff)(uplo, A, Fref, n, lda, 0, n);
    double tol = 30 * (double)(n > 0 ? n : 1) * EPS * kappa;
    int64_t nb = -1;
    hyla_chol_stats st;
    if (hyla_get_chol_stats(h, &st) == 0) nb = st.nb;
    CHECK(info == 0 && rinfo == 0, "%cpotrf %s uplo %c n %lld: info %d (LAPACKE %d)", CH, what, uplo,
          (long long)n, info, (int)rinfo);
    CHECK(res < THRESH, "%cpotrf %s uplo %c n %lld nb %lld: residual %.3g", CH, what, uplo,
          (long long)n, (long long)nb, res);
    CHECK(diff <= tol, "%cpotrf %s uplo %c n %lld nb %lld: |L - L_lapacke| / |L| = %.3g > %.3g",
          CH, what, uplo, (long long)n, (long long)nb, diff, tol);
    CHECK(PN(tp_outside_same)(uplo, A, In, n, lda),
          "%cpotrf %s uplo %c n %lld: other triangle or padding changed", CH, what, uplo,
          (long long)n);
    free(In);
    free(A);
    free(Fref);
}

/* A leading minor of order k (1-based) that is not positive definite:
 * info = k, the panels before k's hold the factor, the rest is the input. */
static void PN(tp_notpd_case)(hyla_t *h, char uplo, int64_t n, int64_t k, unsigned long long *s,
                              const char *what) {
    const int64_t lda = n + 2;
    T *A0 = malloc(sizeof(T) * (size_t)(n * n));
    PN(tp_spd)(A0, n, s);
    T *Good = PN(tp_input)(uplo, A0, n, lda);
    A0[(k - 1) + (k - 1) * n] = (T)-1;
    T *In = PN(tp_input)(uplo, A0, n, lda);
    T *A = malloc(sizeof(T) * (size_t)(lda * n));
    memcpy(A, In, sizeof(T) * (size_t)(lda * n));
    int info = PN(potrf)(h, uplo, n, A, lda);
    leak_check(h, what);
    hyla_chol_stats st;
    hyla_get_chol_stats(h, &st);
    const int64_t nb = st.nb > 0 ? st.nb : 1, p0 = (k - 1) / nb * nb;
    /* the reference for the leading columns: the factor of the positive
     * definite matrix, which shares them */
    LP(potrf_work)(LAPACK_COL_MAJOR, uplo, (lapack_int)n, Good, (lapack_int)lda);
    double diff = PN(tp_diff)(uplo, A, Good, n, lda, 0, p0);
    int rest_same = 1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            int64_t col = uplo == 'L' ? j : i; /* the column of L holding (i, j) */
            if (PN(tp_in_tri)(uplo, i, j) && col >= p0 &&
                memcmp(&A[i + j * lda], &In[i + j * lda], sizeof(T)) != 0)
                rest_same = 0;
        }
    CHECK(info == (int)k, "%cpotrf %s uplo %c n %lld nb %lld, minor %lld not PD: info %d", CH,
          what, uplo, (long long)n, (long long)nb, (long long)k, info);
    CHECK(diff <= 30 * (double)n * EPS * 4,
          "%cpotrf %s uplo %c n %lld nb %lld k %lld: factor before column %lld differs by %.3g",
          CH, what, uplo, (long long)n, (long long)nb, (long long)k, (long long)p0, diff);
    CHECK(rest_same, "%cpotrf %s uplo %c n %lld nb %lld k %lld: A from column %lld on changed", CH,
          what, uplo, (long long)n, (long long)nb, (long long)k, (long long)p0);
    CHECK(PN(tp_outside_same)(uplo, A, In, n, lda),
          "%cpotrf %s uplo %c n %lld k %lld: other triangle or padding changed", CH, what, uplo,
          (long long)n, (long long)k);
    /* posv leaves B alone */
    const int64_t nrhs = 3, ldb = n + 1;
    T *B = malloc(sizeof(T) * (size_t)(ldb * nrhs)), *B0 = malloc(sizeof(T) * (size_t)(ldb * nrhs));
    for (int64_t i = 0; i < ldb * nrhs; i++) B0[i] = B[i] = PN(tp_rand)(s);
    memcpy(A, In, sizeof(T) * (size_t)(lda * n));
    info = PN(posv)(h, uplo, n, nrhs, A, lda, B, ldb);
    leak_check(h, what);
    CHECK(info == (int)k && memcmp(B, B0, sizeof(T) * (size_t)(ldb * nrhs)) == 0,
          "%cposv %s uplo %c n %lld k %lld: info %d, B %s", CH, what, uplo, (long long)n,
          (long long)k, info, memcmp(B, B0, sizeof(T) * (size_t)(ldb * nrhs)) ? "changed" : "kept");
    free(A0);
    free(Good);
    free(In);
    free(A);
    free(B);
    free(B0);
}

/* max_j |b_j - A0 x_j|_inf / (n |A0|_inf |x_j|_inf eps). */
static double PN(tp_solve_resid)(const T *A0, int64_t n, const T *B0, const T *X, int64_t ldb,
                                 int64_t nrhs) {
    if (n == 0) return 0;
    double norm_a = 0, worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double r = 0;
        for (int64_t j = 0; j < n; j++) r += cabs((double complex)A0[i + j * n]);
        norm_a = fmax(norm_a, r);
    }
    for (int64_t c = 0; c < nrhs; c++) {
        double d = 0, nx = 0;
        for (int64_t i = 0; i < n; i++) {
            double complex acc = (double complex)B0[i + c * ldb];
            for (int64_t j = 0; j < n; j++)
                acc -= (double complex)A0[i + j * n] * (double complex)X[j + c * ldb];
            double a = cabs(acc);
            if (!(a <= d)) d = a;
            nx = fmax(nx, cabs((double complex)X[i + c * ldb]));
        }
        double e = d == 0 ? 0 : d / ((double)n * norm_a * nx * EPS);
        if (!(e <= worst)) worst = e;
    }
    return worst;
}

/* potrs (with LAPACKE's factor) and posv for one case. */
static void PN(tp_solve_case)(hyla_t *h, char uplo, int64_t n, int64_t nrhs, unsigned long long *s,
                              const char *what) {
    const int64_t lda = n + 1, ldb = n + 2, nn = n > 0 ? n : 1, nr = nrhs > 0 ? nrhs : 1;
    T *A0 = malloc(sizeof(T) * (size_t)(nn * nn));
    PN(tp_spd)(A0, n, s);
    T *In = PN(tp_input)(uplo, A0, n, lda);
    T *F = malloc(sizeof(T) * (size_t)(lda * nn)), *F2 = malloc(sizeof(T) * (size_t)(lda * nn));
    T *B0 = malloc(sizeof(T) * (size_t)(ldb * nr)), *B = malloc(sizeof(T) * (size_t)(ldb * nr));
    for (int64_t i = 0; i < ldb * nr; i++) B0[i] = i % ldb >= n ? (T)SENTINEL : PN(tp_rand)(s);
    memcpy(F, In, sizeof(T) * (size_t)(lda * nn));
    if (n > 0) LP(potrf_work)(LAPACK_COL_MAJOR, uplo, (lapack_int)n, F, (lapack_int)lda);
    memcpy(F2, F, sizeof(T) * (size_t)(lda * nn));

    memcpy(B, B0, sizeof(T) * (size_t)(ldb * nr));
    int info = PN(potrs)(h, uplo, n, nrhs, F, lda, B, ldb);
    leak_check(h, what);
    double e = PN(tp_solve_resid)(A0, n, B0, B, ldb, nrhs);
    int pad = 1;
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = n; i < ldb; i++)
            if (memcmp(&B[i + c * ldb], &B0[i + c * ldb], sizeof(T)) != 0) pad = 0;
    CHECK(info == 0 && e < THRESH && pad, "%cpotrs %s uplo %c n %lld nrhs %lld: info %d err %.3g%s",
          CH, what, uplo, (long long)n, (long long)nrhs, info, e, pad ? "" : ", padding of B changed");
    CHECK(memcmp(F, F2, sizeof(T) * (size_t)(lda * nn)) == 0, "%cpotrs %s: the factor changed", CH,
          what);

    T *A = malloc(sizeof(T) * (size_t)(lda * nn));
    memcpy(A, In, sizeof(T) * (size_t)(lda * nn));
    memcpy(B, B0, sizeof(T) * (size_t)(ldb * nr));
    info = PN(posv)(h, uplo, n, nrhs, A, lda, B, ldb);
    leak_check(h, what);
    e = PN(tp_solve_resid)(A0, n, B0, B, ldb, nrhs);
    double r = PN(tp_resid)(uplo, A0, n, A, lda, s);
    pad = PN(tp_outside_same)(uplo, A, In, n, lda);
    for (int64_t c = 0; c < nrhs; c++)
        for (int64_t i = n; i < ldb; i++)
            if (memcmp(&B[i + c * ldb], &B0[i + c * ldb], sizeof(T)) != 0) pad = 0;
    CHECK(info == 0 && e < THRESH && r < THRESH && pad,
          "%cposv %s uplo %c n %lld nrhs %lld: info %d err %.3g factor residual %.3g%s", CH, what,
          uplo, (long long)n, (long long)nrhs, info, e, r, pad ? "" : ", outside data changed");
    free(A0);
    free(In);
    free(F);
    free(F2);
    free(B0);
    free(B);
    free(A);
}

/* potrf_gpu and potrs_gpu on device 0, memory from hyla_malloc_device. */
static void PN(tp_gpu_case)(hyla_t *h, char uplo, int64_t n, int64_t nrhs, unsigned long long *s) {
    const int64_t lda = n + 1, ldb = n + 1;
    T *A0 = malloc(sizeof(T) * (size_t)(n * n));
    PN(tp_spd)(A0, n, s);
    T *In = PN(tp_input)(uplo, A0, n, lda), *A = malloc(sizeof(T) * (size_t)(lda * n));
    T *B0 = malloc(sizeof(T) * (size_t)(ldb * nrhs)), *B = malloc(sizeof(T) * (size_t)(ldb * nrhs));
    for (int64_t i = 0; i < ldb * nrhs; i++) B0[i] = PN(tp_rand)(s);
    void *dA = NULL, *dB = NULL;
    const size_t ba = sizeof(T) * (size_t)(lda * n), bb = sizeof(T) * (size_t)(ldb * nrhs);
    int rc = hyla_malloc_device(h, 0, ba, &dA);
    rc = rc ? rc : hyla_malloc_device(h, 0, bb, &dB);
    rc = rc ? rc : hyla_copy_to_device(h, 0, dA, In, ba);
    rc = rc ? rc : hyla_copy_to_device(h, 0, dB, B0, bb);
    int info = rc ? rc : PN(potrf_gpu)(h, 0, uplo, n, dA, lda);
    int info2 = rc || info ? -999 : PN(potrs_gpu)(h, 0, uplo, n, nrhs, dA, lda, dB, ldb);
    rc = rc ? rc : hyla_copy_from_device(h, 0, A, dA, ba);
    rc = rc ? rc : hyla_copy_from_device(h, 0, B, dB, bb);
    double r = rc ? NAN : PN(tp_resid)(uplo, A0, n, A, lda, s);
    double e = rc ? NAN : PN(tp_solve_resid)(A0, n, B0, B, ldb, nrhs);
    CHECK(rc == 0 && info == 0 && info2 == 0 && r < THRESH && e < THRESH,
          "%cpotrf_gpu/potrs_gpu uplo %c n %lld nrhs %lld: rc %d info %d/%d residual %.3g err %.3g",
          CH, uplo, (long long)n, (long long)nrhs, rc, info, info2, r, e);
    CHECK(rc == 0 && PN(tp_outside_same)(uplo, A, In, n, lda),
          "%cpotrf_gpu uplo %c n %lld: other triangle or padding changed", CH, uplo, (long long)n);
    /* not positive definite: info is the order of the minor */
    if (n > 10) {
        In[9 + 9 * lda] = (T)-1;
        rc = hyla_copy_to_device(h, 0, dA, In, ba);
        info = rc ? rc : PN(potrf_gpu)(h, 0, uplo, n, dA, lda);
        CHECK(info == 10, "%cpotrf_gpu uplo %c n %lld, minor 10 not PD: info %d", CH, uplo,
              (long long)n, info);
    }
    /* bad arguments */
    CHECK(PN(potrf_gpu)(h, -1, uplo, n, dA, lda) == HYLA_ERR_NO_DEVICE, "potrf_gpu dev -1");
    CHECK(PN(potrf_gpu)(h, hyla_device_count(h), uplo, n, dA, lda) == HYLA_ERR_NO_DEVICE,
          "potrf_gpu dev count");
    CHECK(PN(potrs_gpu)(h, 99, uplo, n, 1, dA, lda, dB, ldb) == HYLA_ERR_NO_DEVICE, "potrs_gpu dev");
    CHECK(PN(potrf_gpu)(NULL, 0, uplo, n, dA, lda) == HYLA_ERR_INVALID, "potrf_gpu ctx");
    CHECK(PN(potrs_gpu)(NULL, 0, uplo, n, 1, dA, lda, dB, ldb) == HYLA_ERR_INVALID, "potrs_gpu ctx");
    CHECK(PN(potrf_gpu)(h, 0, 'X', n, dA, lda) == -1, "potrf_gpu uplo");
    CHECK(PN(potrf_gpu)(h, 0, uplo, -1, dA, lda) == -2, "potrf_gpu n");
    CHECK(PN(potrf_gpu)(h, 0, uplo, n, NULL, lda) == -3, "potrf_gpu dA");
    CHECK(PN(potrf_gpu)(h, 0, uplo, n, dA, n - 1) == -4, "potrf_gpu ldda");
    CHECK(PN(potrs_gpu)(h, 0, 'X', n, 1, dA, lda, dB, ldb) == -1, "potrs_gpu uplo");
    CHECK(PN(potrs_gpu)(h, 0, uplo, -1, 1, dA, lda, dB, ldb) == -2, "potrs_gpu n");
    CHECK(PN(potrs_gpu)(h, 0, uplo, n, -1, dA, lda, dB, ldb) == -3, "potrs_gpu nrhs");
    CHECK(PN(potrs_gpu)(h, 0, uplo, n, 1, NULL, lda, dB, ldb) == -4, "potrs_gpu dA");
    CHECK(PN(potrs_gpu)(h, 0, uplo, n, 1, dA, n - 1, dB, ldb) == -5, "potrs_gpu ldda");
    CHECK(PN(potrs_gpu)(h, 0, uplo, n, 1, dA, lda, NULL, ldb) == -6, "potrs_gpu dB");
    CHECK(PN(potrs_gpu)(h, 0, uplo, n, 1, dA, lda, dB, n - 1) == -7, "potrs_gpu lddb");
    hyla_free_device(h, 0, &dA);
    hyla_free_device(h, 0, &dB);
    leak_check(h, "gpu");
    free(A0);
    free(In);
    free(A);
    free(B0);
    free(B);
}

/* Bad arguments: LAPACK numbering after the handle. */
static void PN(tp_bad_args)(hyla_t *h) {
    T a[9] = {4, 1, 1, 1, 4, 1, 1, 1, 4}, b[3] = {1, 2, 3};
    CHECK(PN(potrf)(h, 'X', 3, a, 3) == -1, "%cpotrf uplo", CH);
    CHECK(PN(potrf)(h, 'L', -1, a, 3) == -2, "%cpotrf n", CH);
    CHECK(PN(potrf)(h, 'L', 3, NULL, 3) == -3, "%cpotrf A NULL", CH);
    CHECK(PN(potrf)(h, 'U', 3, a, 2) == -4, "%cpotrf lda", CH);
    CHECK(PN(potrf)(h, 'L', 0, a, 0) == -4, "%cpotrf lda 0 with n 0", CH);
    CHECK(PN(potrf)(NULL, 'L', 3, a, 3) == HYLA_ERR_INVALID, "%cpotrf ctx", CH);
    CHECK(PN(potrf)(h, 'L', 0, NULL, 1) == 0, "%cpotrf n 0", CH);
    CHECK(PN(potrf)(h, 'l', 0, NULL, 1) == 0, "%cpotrf lower case", CH);
    CHECK(PN(potrs)(h, 'X', 3, 1, a, 3, b, 3) == -1, "%cpotrs uplo", CH);
    CHECK(PN(potrs)(h, 'L', -1, 1, a, 3, b, 3) == -2, "%cpotrs n", CH);
    CHECK(PN(potrs)(h, 'L', 3, -1, a, 3, b, 3) == -3, "%cpotrs nrhs", CH);
    CHECK(PN(potrs)(h, 'L', 3, 1, NULL, 3, b, 3) == -4, "%cpotrs A NULL", CH);
    CHECK(PN(potrs)(h, 'L', 3, 1, a, 2, b, 3) == -5, "%cpotrs lda", CH);
    CHECK(PN(potrs)(h, 'L', 3, 1, a, 3, NULL, 3) == -6, "%cpotrs B NULL", CH);
    CHECK(PN(potrs)(h, 'L', 3, 1, a, 3, b, 2) == -7, "%cpotrs ldb", CH);
    CHECK(PN(potrs)(NULL, 'L', 3, 1, a, 3, b, 3) == HYLA_ERR_INVALID, "%cpotrs ctx", CH);
    CHECK(PN(potrs)(h, 'U', 3, 0, a, 3, NULL, 3) == 0, "%cpotrs nrhs 0", CH);
    CHECK(PN(posv)(h, 'X', 3, 1, a, 3, b, 3) == -1, "%cposv uplo", CH);
    CHECK(PN(posv)(h, 'L', -1, 1, a, 3, b, 3) == -2, "%cposv n", CH);
    CHECK(PN(posv)(h, 'L', 3, -1, a, 3, b, 3) == -3, "%cposv nrhs", CH);
    CHECK(PN(posv)(h, 'L', 3, 1, NULL, 3, b, 3) == -4, "%cposv A NULL", CH);
    CHECK(PN(posv)(h, 'L', 3, 1, a, 2, b, 3) == -5, "%cposv lda", CH);
    CHECK(PN(posv)(h, 'L', 3, 1, a, 3, NULL, 3) == -6, "%cposv B NULL", CH);
    CHECK(PN(posv)(h, 'L', 3, 1, a, 3, b, 2) == -7, "%cposv ldb", CH);
    CHECK(PN(posv)(NULL, 'L', 3, 1, a, 3, b, 3) == HYLA_ERR_INVALID, "%cposv ctx", CH);
    T a0[9] = {4, 1, 1, 1, 4, 1, 1, 1, 4};
    CHECK(memcmp(a, a0, sizeof a) == 0, "%c: bad calls left A alone", CH);
    leak_check(h, "bad arguments");
}

/* The whole suite for this precision on the context h. */
static void PN(tp_suite)(hyla_t *h, unsigned long long *s, int cuda) {
    static const int64_t sizes[] = {0, 1, 2, 17, 64, 100, 203};
    static const int64_t nbs[] = {8, 32, 0};
    static const char uplos[] = {'L', 'U'};
    char what[64];
    for (int b = 0; b < 3; b++) {
        hyla_set_option(h, HYLA_OPT_POTRF_NB, nbs[b]);
        snprintf(what, sizeof what, "nb %lld", (long long)nbs[b]);
        for (int u = 0; u < 2; u++)
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                int64_t n = sizes[i];
                T *A0 = malloc(sizeof(T) * (size_t)(n > 0 ? n * n : 1));
                PN(tp_spd)(A0, n, s);
                PN(tp_potrf_case)(h, uplos[u], A0, n, 1, s, what);
                free(A0);
            }
    }
    /* near-singular: kappa 1e12 (d, z), 1e5 (s, c) */
    const double cond = sizeof(R) == 4 ? 1e5 : 1e12;
    hyla_set_option(h, HYLA_OPT_POTRF_NB, 16);
    for (int u = 0; u < 2; u++) {
        T *A0 = malloc(sizeof(T) * 100 * 100);
        PN(tp_cond)(A0, 100, cond, s);
        PN(tp_potrf_case)(h, uplos[u], A0, 100, cond, s, "near-singular");
        free(A0);
    }
    /* not positive definite: the minor in the first panel, a later one, the last */
    for (int b = 0; b < 2; b++) {
        hyla_set_option(h, HYLA_OPT_POTRF_NB, b == 0 ? 8 : 0);
        for (int u = 0; u < 2; u++) {
            const int64_t n = 100, ks[3] = {3, 21, n};
            for (int k = 0; k < 3; k++)
                PN(tp_notpd_case)(h, uplos[u], n, ks[k], s, b == 0 ? "nb 8" : "nb 0");
        }
    }
    /* solves */
    static const int64_t sn[] = {0, 1, 17, 100}, snrhs[] = {1, 3, 40};
    for (int b = 0; b < 2; b++) {
        hyla_set_option(h, HYLA_OPT_POTRF_NB, b == 0 ? 8 : 0);
        for (int u = 0; u < 2; u++)
            for (int i = 0; i < 4; i++)
                for (int r = 0; r < 3; r++)
                    PN(tp_solve_case)(h, uplos[u], sn[i], snrhs[r], s, b == 0 ? "nb 8" : "nb 0");
    }
    PN(tp_solve_case)(h, 'L', 50, 0, s, "nrhs 0");
    /* forced out of core */
    hyla_set_option(h, HYLA_OPT_POTRF_OOC, 1);
    hyla_set_option(h, HYLA_OPT_POTRF_NB, 16);
    for (int u = 0; u < 2; u++) {
        T *A0 = malloc(sizeof(T) * 150 * 150);
        PN(tp_spd)(A0, 150, s);
        PN(tp_potrf_case)(h, uplos[u], A0, 150, 1, s, "out-of-core");
        free(A0);
        hyla_chol_stats st;
        hyla_get_chol_stats(h, &st);
        CHECK(st.out_of_core == 1, "%cpotrf forced out of core: stats.out_of_core %d", CH,
              st.out_of_core);
        PN(tp_solve_case)(h, uplos[u], 150, 7, s, "out-of-core");
        hyla_get_chol_stats(h, &st);
        CHECK(st.out_of_core == 1, "%cposv forced out of core: stats.out_of_core %d", CH,
              st.out_of_core);
        PN(tp_notpd_case)(h, uplos[u], 150, 70, s, "out-of-core");
    }
    hyla_set_option(h, HYLA_OPT_POTRF_OOC, 0);
    /* device-resident entry points */
    for (int b = 0; b < 2; b++) {
        hyla_set_option(h, HYLA_OPT_POTRF_NB, b == 0 ? 16 : 0);
        for (int u = 0; u < 2; u++) {
            PN(tp_gpu_case)(h, uplos[u], 1, 1, s);
            PN(tp_gpu_case)(h, uplos[u], 150, 5, s);
        }
    }
    hyla_set_option(h, HYLA_OPT_POTRF_NB, 0);
    PN(tp_bad_args)(h);
    if (cuda) { /* sizes where the GPU tuning's panels matter */
        for (int u = 0; u < 2; u++)
            for (int i = 0; i < 2; i++) {
                const int64_t n = i == 0 ? 1000 : 3000;
                T *A0 = malloc(sizeof(T) * (size_t)(n * n));
                PN(tp_spd)(A0, n, s);
                PN(tp_potrf_case)(h, uplos[u], A0, n, 1, s, "cuda");
                free(A0);
            }
        PN(tp_solve_case)(h, 'L', 1000, 40, s, "cuda");
        PN(tp_solve_case)(h, 'U', 3000, 3, s, "cuda");
        PN(tp_gpu_case)(h, 'L', 3000, 40, s);
    }
}

#undef LP
#undef CH
#undef EPS
