/* hyla_?sygvd / ?hegvd and hyla_?sygvdx / ?hegvdx (eig/gv.c) on the
 * devices of HYLA_DEVICES, every precision, itype 1, 2, 3, uplo L and U (the
 * other triangle of A and B filled with garbage that must not be read),
 * jobz N and V, orders 0, 1, 2, 5 and orders of several reduction blocks
 * (37, 100), all eigenpairs and (sygvdx) a part by index and by value: the
 * eigenvalues against LAPACKE's ?sygvd (the part: the same indices, the
 * number found), the residual of the generalized problem, the
 * normalization of the eigenvectors (X^H B X = I, itype 3 X^H B^-1 X = I),
 * B's Cholesky factor against LAPACKE's; the first pair, all pairs by
 * index, an empty interval, ill-conditioned B (kappa about 1e10, d) and
 * B = I; B not positive definite (info n + k, A untouched), NaN in a
 * triangle read (HYLA_ERR_NAN, nothing written), NaN in the other triangle
 * (ignored), every bad argument; itype 1's trailing updates forced into
 * their block-column GEMM form; parts of the spectrum by the backend's
 * one-stage solver on the reduced matrix where it is. */
#include "test_util.h"

#define T_MAX(a, b) ((a) > (b) ? (a) : (b))
#define T_MIN(a, b) ((a) < (b) ? (a) : (b))
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 7;
static double urand(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 9007199254740992.0 - 0.5;
}

static int call(hyla_t *h, hyla_dtype t, int itype, char jobz, char uplo, int64_t n, void *A,
                int64_t lda, void *B, int64_t ldb, void *w) {
    switch (t) {
    case HYLA_S: return hyla_ssygvd(h, itype, jobz, uplo, n, A, lda, B, ldb, w);
    case HYLA_D: return hyla_dsygvd(h, itype, jobz, uplo, n, A, lda, B, ldb, w);
    case HYLA_C: return hyla_chegvd(h, itype, jobz, uplo, n, A, lda, B, ldb, w);
    default: return hyla_zhegvd(h, itype, jobz, uplo, n, A, lda, B, ldb, w);
    }
}

static int callx(hyla_t *h, hyla_dtype t, int itype, char jobz, char range, char uplo, int64_t n,
                 void *A, int64_t lda, void *B, int64_t ldb, double vl, double vu, int64_t il,
                 int64_t iu, int64_t *m, void *w, void *Z, int64_t ldz) {
    switch (t) {
    case HYLA_S:
        return hyla_ssygvdx(h, itype, jobz, range, uplo, n, A, lda, B, ldb, (float)vl, (float)vu, il,
                            iu, m, w, Z, ldz);
    case HYLA_D:
        return hyla_dsygvdx(h, itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z,
                            ldz);
    case HYLA_C:
        return hyla_chegvdx(h, itype, jobz, range, uplo, n, A, lda, B, ldb, (float)vl, (float)vu, il,
                            iu, m, w, Z, ldz);
    default:
        return hyla_zhegvdx(h, itype, jobz, range, uplo, n, A, lda, B, ldb, vl, vu, il, iu, m, w, Z,
                            ldz);
    }
}

static int lapacke_gvd(hyla_dtype t, int itype, char uplo, int n, void *A, void *B, void *w) {
    switch (t) {
    case HYLA_S: return LAPACKE_ssygvd(LAPACK_COL_MAJOR, itype, 'N', uplo, n, A, n, B, n, w);
    case HYLA_D: return LAPACKE_dsygvd(LAPACK_COL_MAJOR, itype, 'N', uplo, n, A, n, B, n, w);
    case HYLA_C: return LAPACKE_chegvd(LAPACK_COL_MAJOR, itype, 'N', uplo, n, A, n, B, n, w);
    default: return LAPACKE_zhegvd(LAPACK_COL_MAJOR, itype, 'N', uplo, n, A, n, B, n, w);
    }
}

static int lapacke_potrf(hyla_dtype t, char uplo, int n, void *B) {
    switch (t) {
    case HYLA_S: return LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, n, B, n);
    case HYLA_D: return LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, n, B, n);
    case HYLA_C: return LAPACKE_cpotrf(LAPACK_COL_MAJOR, uplo, n, B, n);
    default: return LAPACKE_zpotrf(LAPACK_COL_MAJOR, uplo, n, B, n);
    }
}

static hyla_dtype real_of(hyla_dtype t) { return t == HYLA_C ? HYLA_S : t == HYLA_Z ? HYLA_D : t; }

/* C (n x n, double complex) = X (n x n) Y */
static void mul(int64_t n, const zc *X, const zc *Y, zc *C) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            zc s = 0;
            for (int64_t k = 0; k < n; k++) s += X[i + k * n] * Y[k + j * n];
            C[i + j * n] = s;
        }
}

static double fnorm(int64_t n, const zc *X) {
    double s = 0;
    for (int64_t i = 0; i < n * n; i++) s += creal(X[i] * conj(X[i]));
    return sqrt(s);
}

/* X^{-1} by Gauss-Jordan with partial pivoting (the B of the tests is
 * well conditioned) */
static void inverse(int64_t n, const zc *X, zc *Inv) {
    zc *M = malloc(sizeof *M * (size_t)(n * n));
    memcpy(M, X, sizeof *M * (size_t)(n * n));
    for (int64_t i = 0; i < n * n; i++) Inv[i] = 0;
    for (int64_t i = 0; i < n; i++) Inv[i + i * n] = 1;
    for (int64_t c = 0; c < n; c++) {
        int64_t p = c;
        for (int64_t r = c + 1; r < n; r++)
            if (cabs(M[r + c * n]) > cabs(M[p + c * n])) p = r;
        for (int64_t j = 0; j < n; j++) {
            zc a = M[c + j * n], b = Inv[c + j * n];
            M[c + j * n] = M[p + j * n], Inv[c + j * n] = Inv[p + j * n];
            M[p + j * n] = a, Inv[p + j * n] = b;
        }
        zc d = M[c + c * n];
        for (int64_t j = 0; j < n; j++) M[c + j * n] /= d, Inv[c + j * n] /= d;
        for (int64_t r = 0; r < n; r++)
            if (r != c) {
                zc f = M[r + c * n];
                if (f == 0) continue;
                for (int64_t j = 0; j < n; j++) M[r + j * n] -= f * M[c + j * n], Inv[r + j * n] -= f * Inv[c + j * n];
            }
    }
    free(M);
}

static const double GARBAGE = 1e30;

/* One case: A Hermitian random, B = M M^H + n I (bcond > 0: B with
 * eigenvalues 1 .. 1/bcond geometrically, M's Q factor around them; B = I
 * for bcond < 0), garbage in the other triangles (lda = ldb = n + 1). sub
 * 0: every pair by hyla_?sygvd; 'I' or 'V': the pairs lo .. hi (0-based)
 * by hyla_?sygvdx, asked for by index or by an interval around their
 * eigenvalues (LAPACKE's); lo > hi with 'V': an interval holding none. */
static void one_case_x(hyla_t *h, hyla_dtype t, int itype, char jobz, char uplo, int64_t n,
                       char sub, int64_t lo, int64_t hi, double bcond) {
    const int cplx = is_cplx(t);
    const double eps = eps_of(t);
    const int64_t ld = n + 1, es = (int64_t)(cplx ? 2 : 1) * (is_single(t) ? 4 : 8);
    zc *A0 = calloc((size_t)(n * n + 1), sizeof *A0), *B0 = calloc((size_t)(n * n + 1), sizeof *B0);
    zc *Mx = calloc((size_t)(n * n + 1), sizeof *Mx);
    char *A = calloc((size_t)(ld * n + 1), (size_t)es), *B = calloc((size_t)(ld * n + 1), (size_t)es);
    double *w = calloc((size_t)n + 1, sizeof(double) * 2);
    char what[128];
    snprintf(what, sizeof what, "%c itype %d jobz %c uplo %c n %lld%s%c %lld..%lld cond %g", "sdcz"[t],
             itype, jobz, uplo, (long long)n, sub ? " range " : "", sub ? sub : ' ', (long long)lo,
             (long long)hi, bcond);
    const int64_t want = sub ? T_MAX(0, hi - lo + 1) : n; /* the pairs asked for */
    /* ill-conditioned B: the factor, the reduced problem and so the
     * eigenpairs carry errors about sqrt(kappa(B)) times a well-conditioned
     * B's (the factor's condition is the square root of B's) */
    const double kb = bcond > 1 ? sqrt(bcond) : 1;
    char *Z = NULL;
    double *wall = calloc((size_t)n + 1, sizeof(double));
    int64_t m = -1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) Mx[i + j * n] = urand() + (cplx ? I * urand() : 0);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            zc a = urand() + (cplx && i != j ? I * urand() : 0);
            A0[i + j * n] = a, A0[j + i * n] = conj(a);
        }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            zc s = i == j ? (double)n : 0;
            for (int64_t k = 0; k < n; k++) s += Mx[i + k * n] * conj(Mx[j + k * n]);
            B0[i + j * n] = s;
        }
    for (int64_t j = 0; j < n; j++) B0[j + j * n] = creal(B0[j + j * n]);
    if (bcond != 0) {
        /* B = Q D Q^H, Q from the Gram-Schmidt of M's columns */
        for (int64_t j = 0; j < n; j++) {
            for (int64_t k = 0; k < j; k++) {
                zc s = 0;
                for (int64_t i = 0; i < n; i++) s += conj(Mx[i + k * n]) * Mx[i + j * n];
                for (int64_t i = 0; i < n; i++) Mx[i + j * n] -= s * Mx[i + k * n];
            }
            double nr = 0;
            for (int64_t i = 0; i < n; i++) nr += creal(Mx[i + j * n] * conj(Mx[i + j * n]));
            for (int64_t i = 0; i < n; i++) Mx[i + j * n] /= sqrt(nr);
        }
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                zc s = 0;
                for (int64_t k = 0; k < n; k++) {
                    const double dk = bcond < 0 ? 1 : pow(bcond, -(double)k / (double)T_MAX(1, n - 1));
                    s += Mx[i + k * n] * dk * conj(Mx[j + k * n]);
                }
                B0[i + j * n] = bcond < 0 ? (i == j ? 1 : 0) : s;
            }
        for (int64_t j = 0; j < n; j++) B0[j + j * n] = creal(B0[j + j * n]);
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const int in = uplo == 'L' ? i >= j : i <= j;
            put(t, A, i + j * ld, in ? A0[i + j * n] : GARBAGE);
            put(t, B, i + j * ld, in ? B0[i + j * n] : GARBAGE);
        }
    /* LAPACKE's eigenvalues (all of them, in dtype t's real type) */
    int lrc = 0;
    if (n > 0) {
        char *Ar = malloc((size_t)(n * n * es)), *Br = malloc((size_t)(n * n * es));
        for (int64_t i = 0; i < n * n; i++) put(t, Ar, i, A0[i]), put(t, Br, i, B0[i]);
        lrc = lapacke_gvd(t, itype, uplo, (int)n, Ar, Br, wall);
        free(Ar), free(Br);
    }
    CHECK(lrc == 0, "%s: LAPACKE's ?sygvd returned %d", what, lrc);
    int rc;
    if (!sub) {
        rc = call(h, t, itype, jobz, uplo, n, A, ld, B, ld, w);
        m = n;
    } else {
        double vl = 0, vu = 0;
        if (sub == 'V' && n > 0) {
            /* an interval around the eigenvalues lo .. hi, its ends halfway
             * to their neighbours */
            const int64_t a = T_MIN(lo, n - 1), b = T_MAX(0, T_MIN(hi, n - 1));
            const double wa = creal(get(real_of(t), wall, a)), wb = creal(get(real_of(t), wall, b));
            const double span = fmax(fabs(creal(get(real_of(t), wall, n - 1)) -
                                          creal(get(real_of(t), wall, 0))), 1);
            vl = a > 0 ? (creal(get(real_of(t), wall, a - 1)) + wa) / 2 : wa - span;
            vu = b < n - 1 ? (wb + creal(get(real_of(t), wall, b + 1))) / 2 : wb + span;
            if (lo > hi) vu = vl + (wa - vl) / 4; /* below eigenvalue a: none */
        }
        Z = calloc((size_t)(ld * n + 1), (size_t)es);
        rc = callx(h, t, itype, jobz, (char)sub, uplo, n, A, ld, B, ld, vl, vu, lo + 1, hi + 1, &m,
                   w, Z, ld);
        CHECK(rc != 0 || m == want, "%s: %lld eigenvalues found, %lld asked for", what,
              (long long)m, (long long)want);
    }
    CHECK(rc == 0, "%s: returned %d", what, rc);
    if (rc || n == 0 || m != want || lrc) goto out;

    /* eigenvalues against LAPACKE's */
    {
        double dmax = 0, wmax = 0;
        const int64_t off = sub ? lo : 0;
        for (int64_t i = 0; i < m; i++) {
            double a = creal(get(real_of(t), w, i)), b = creal(get(real_of(t), wall, off + i));
            dmax = fmax(dmax, fabs(a - b));
            if (i > 0) CHECK(a >= creal(get(real_of(t), w, i - 1)), "%s: w not ascending at %lld", what, (long long)i);
        }
        for (int64_t i = 0; i < n; i++) wmax = fmax(wmax, fabs(creal(get(real_of(t), wall, i))));
        CHECK(dmax <= 200 * n * eps * fmax(wmax, 1e-300) * kb + 1e-300,
              "%s: eigenvalues differ from LAPACKE's by %.3g (max |w| %.3g)", what, dmax, wmax);
    }
    /* B holds its Cholesky factor in the triangle uplo, the other triangle untouched */
    {
        char *Lr = malloc((size_t)(n * n * es));
        for (int64_t i = 0; i < n * n; i++) put(t, Lr, i, B0[i]);
        lapacke_potrf(t, uplo, (int)n, Lr);
        double d = 0, lmax = 0, gbuf[2];
        put(t, gbuf, 0, GARBAGE);
        const zc garbage = get(t, gbuf, 0); /* as stored in dtype t */
        int other = 1;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                const int in = uplo == 'L' ? i >= j : i <= j;
                if (in) {
                    d = fmax(d, cabs(get(t, B, i + j * ld) - get(t, Lr, i + j * n)));
                    lmax = fmax(lmax, cabs(get(t, Lr, i + j * n)));
                } else if (get(t, B, i + j * ld) != garbage) {
                    other = 0;
                }
            }
        CHECK(d <= 100 * n * eps * lmax * kb, "%s: B's factor differs by %.3g", what, d / (lmax * eps));
        CHECK(other, "%s: B's other triangle written", what);
        free(Lr);
    }
    /* jobz N (whole spectrum): A not written (hyla.h), whichever device
     * solved the reduced problem */
    if (jobz == 'N' && !sub) {
        int same = 1;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                const int in = uplo == 'L' ? i >= j : i <= j;
                double gb[4];
                put(t, gb, 0, in ? A0[i + j * n] : GARBAGE);
                same &= memcmp((const char *)A + (size_t)(i + j * ld) * es, gb, es) == 0;
            }
        CHECK(same, "%s: jobz N wrote A", what);
    }
    if (jobz == 'V') {
        zc *X = malloc(sizeof *X * (size_t)(n * n)), *P = malloc(sizeof *P * (size_t)(n * n));
        zc *Q = malloc(sizeof *Q * (size_t)(n * n)), *R = malloc(sizeof *R * (size_t)(n * n));
        /* the m vectors, zero columns after them */
        const char *src = sub ? Z : A;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) X[i + j * n] = j < m ? get(t, src, i + j * ld) : 0;
        /* residual: itype 1 A X - B X W; 2 A B X - X W; 3 B A X - X W */
        if (itype == 1) {
            mul(n, A0, X, P);
            mul(n, B0, X, Q);
        } else {
            mul(n, itype == 2 ? B0 : A0, X, R);
            mul(n, itype == 2 ? A0 : B0, R, P);
            memcpy(Q, X, sizeof *Q * (size_t)(n * n));
        }
        for (int64_t j = 0; j < m; j++) {
            double lam = creal(get(real_of(t), w, j));
            for (int64_t i = 0; i < n; i++) P[i + j * n] -= Q[i + j * n] * lam;
        }
        const double res =
            m ? fnorm(n, P) / (n * eps * fnorm(n, A0) * fnorm(n, B0) * fnorm(n, X)) : 0;
        CHECK(res < 60 * kb, "%s: residual %.3g", what, res);
        /* normalization: X^H B X = I (itype 1, 2), X^H B^-1 X = I (3) */
        zc *Bm = B0;
        if (itype == 3) {
            inverse(n, B0, R);
            Bm = R;
        }
        mul(n, Bm, X, Q);
        double worst = 0, xb = 0;
        for (int64_t j = 0; j < m; j++)
            for (int64_t i = 0; i < m; i++) {
                zc s = 0;
                for (int64_t k = 0; k < n; k++) s += conj(X[k + i * n]) * Q[k + j * n];
                worst = fmax(worst, cabs(s - (i == j ? 1 : 0)));
            }
        xb = fnorm(n, Bm) * fnorm(n, X) * fnorm(n, X);
        CHECK(worst / (n * eps * fmax(xb, 1)) < 60 * kb,
              "%s: normalization error %.3g", what, worst / (n * eps));
        free(X), free(P), free(Q), free(R);
    }
out:
    free(A0), free(B0), free(Mx), free(A), free(B), free(w), free(Z), free(wall);
}

static void one_case(hyla_t *h, hyla_dtype t, int itype, char jobz, char uplo, int64_t n) {
    one_case_x(h, t, itype, jobz, uplo, n, 0, 0, 0, 0);
}

/* B not positive definite, NaN, bad arguments (d, n = 6) */
static void failures(hyla_t *h) {
    enum { N = 6 };
    double A[N * N], B[N * N], A1[N * N], B1[N * N], w[N];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) A[i + j * N] = i == j ? 2 : 0.1, B[i + j * N] = i == j ? 1 : 0;
    B[2 + 2 * N] = -1;
    memcpy(A1, A, sizeof A);
    int rc = hyla_dsygvd(h, 1, 'V', 'L', N, A, N, B, N, w);
    CHECK(rc == N + 3, "B not positive definite at 3: returned %d, want %d", rc, N + 3);
    CHECK(memcmp(A, A1, sizeof A) == 0, "B not positive definite: A changed");
    /* NaN in the triangle read: nothing written; in the other: ignored */
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) B[i + j * N] = i == j ? 1 : 0;
    A[4 + 1 * N] = NAN;
    memcpy(A1, A, sizeof A), memcpy(B1, B, sizeof B);
    rc = hyla_dsygvd(h, 1, 'V', 'L', N, A, N, B, N, w);
    CHECK(rc == HYLA_ERR_NAN, "NaN in A's lower triangle: returned %d", rc);
    CHECK(memcmp(A, A1, sizeof A) == 0 && memcmp(B, B1, sizeof B) == 0, "NaN: A or B written");
    rc = hyla_dsygvd(h, 2, 'N', 'U', N, A, N, B, N, w);
    CHECK(rc == 0, "NaN in A's lower triangle, uplo U: returned %d", rc);
    memcpy(A, A1, sizeof A);
    B[1 + 4 * N] = INFINITY;
    rc = hyla_dsygvd(h, 3, 'N', 'U', N, A, N, B, N, w);
    CHECK(rc == HYLA_ERR_NAN, "Inf in B's upper triangle: returned %d", rc);
    /* bad arguments, LAPACK's numbers */
    CHECK(hyla_dsygvd(h, 0, 'V', 'L', N, A, N, B, N, w) == -1, "itype 0");
    CHECK(hyla_dsygvd(h, 4, 'V', 'L', N, A, N, B, N, w) == -1, "itype 4");
    CHECK(hyla_dsygvd(h, 1, 'X', 'L', N, A, N, B, N, w) == -2, "jobz X");
    CHECK(hyla_dsygvd(h, 1, 'V', 'X', N, A, N, B, N, w) == -3, "uplo X");
    CHECK(hyla_dsygvd(h, 1, 'V', 'L', -1, A, N, B, N, w) == -4, "n -1");
    CHECK(hyla_dsygvd(h, 1, 'V', 'L', N, NULL, N, B, N, w) == -5, "A NULL");
    CHECK(hyla_dsygvd(h, 1, 'V', 'L', N, A, N - 1, B, N, w) == -6, "lda < n");
    CHECK(hyla_dsygvd(h, 1, 'V', 'L', N, A, N, NULL, N, w) == -7, "B NULL");
    CHECK(hyla_dsygvd(h, 1, 'V', 'L', N, A, N, B, N - 1, w) == -8, "ldb < n");
    CHECK(hyla_dsygvd(h, 1, 'V', 'L', N, A, N, B, N, NULL) == -9, "w NULL");
    CHECK(hyla_dsygvd(NULL, 1, 'V', 'L', N, A, N, B, N, w) == HYLA_ERR_INVALID, "ctx NULL");
    CHECK(hyla_dsygvd(h, 1, 'v', 'l', 0, NULL, 1, NULL, 1, NULL) == 0, "n 0, lower-case letters");
}

/* hyla_dsygvdx: B not positive definite, NaN, bad arguments (n = 6) */
static void failures_x(hyla_t *h) {
    enum { N = 6 };
    double A[N * N], B[N * N], A1[N * N], B1[N * N], w[N], Z[N * N];
    int64_t m = -1;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) A[i + j * N] = i == j ? 2 : 0.1, B[i + j * N] = i == j ? 1 : 0;
    B[2 + 2 * N] = -1;
    memcpy(A1, A, sizeof A);
    int rc = hyla_dsygvdx(h, 1, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 1, 2, &m, w, Z, N);
    CHECK(rc == N + 3, "sygvdx: B not positive definite at 3: returned %d, want %d", rc, N + 3);
    CHECK(memcmp(A, A1, sizeof A) == 0, "sygvdx: B not positive definite: A changed");
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) B[i + j * N] = i == j ? 1 : 0;
    A[4 + 1 * N] = NAN;
    memcpy(A1, A, sizeof A), memcpy(B1, B, sizeof B);
    rc = hyla_dsygvdx(h, 1, 'V', 'A', 'L', N, A, N, B, N, 0, 0, 1, N, &m, w, Z, N);
    CHECK(rc == HYLA_ERR_NAN, "sygvdx: NaN in A's lower triangle: returned %d", rc);
    CHECK(memcmp(A, A1, sizeof A) == 0 && memcmp(B, B1, sizeof B) == 0,
          "sygvdx: NaN: A or B written");
    A[4 + 1 * N] = 0.1;
    /* bad arguments, in order */
#define X(args, want, name) CHECK(hyla_dsygvdx args == (want), "sygvdx: " name)
    X((h, 0, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 1, 2, &m, w, Z, N), -1, "itype 0");
    X((h, 1, 'X', 'I', 'L', N, A, N, B, N, 0, 0, 1, 2, &m, w, Z, N), -2, "jobz X");
    X((h, 1, 'V', 'X', 'L', N, A, N, B, N, 0, 0, 1, 2, &m, w, Z, N), -3, "range X");
    X((h, 1, 'V', 'I', 'X', N, A, N, B, N, 0, 0, 1, 2, &m, w, Z, N), -4, "uplo X");
    X((h, 1, 'V', 'I', 'L', -1, A, N, B, N, 0, 0, 1, 2, &m, w, Z, N), -5, "n -1");
    X((h, 1, 'V', 'I', 'L', N, NULL, N, B, N, 0, 0, 1, 2, &m, w, Z, N), -6, "A NULL");
    X((h, 1, 'V', 'I', 'L', N, A, N - 1, B, N, 0, 0, 1, 2, &m, w, Z, N), -7, "lda < n");
    X((h, 1, 'V', 'I', 'L', N, A, N, NULL, N, 0, 0, 1, 2, &m, w, Z, N), -8, "B NULL");
    X((h, 1, 'V', 'I', 'L', N, A, N, B, N - 1, 0, 0, 1, 2, &m, w, Z, N), -9, "ldb < n");
    X((h, 1, 'V', 'V', 'L', N, A, N, B, N, 1, 1, 1, 2, &m, w, Z, N), -11, "vu <= vl");
    X((h, 1, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 0, 2, &m, w, Z, N), -12, "il 0");
    X((h, 1, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 3, 2, &m, w, Z, N), -13, "iu < il");
    X((h, 1, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 1, N + 1, &m, w, Z, N), -13, "iu > n");
    X((h, 1, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 1, 2, NULL, w, Z, N), -14, "m NULL");
    X((h, 1, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 1, 2, &m, NULL, Z, N), -15, "w NULL");
    X((h, 1, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 1, 2, &m, w, NULL, N), -16, "Z NULL");
    X((h, 1, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 1, 2, &m, w, Z, N - 1), -17, "ldz < n");
    X((h, 1, 'N', 'I', 'L', N, A, N, B, N, 0, 0, 1, 2, &m, w, NULL, 0), -17, "ldz 0");
    X((NULL, 1, 'V', 'I', 'L', N, A, N, B, N, 0, 0, 1, 2, &m, w, Z, N), HYLA_ERR_INVALID, "ctx NULL");
#undef X
    m = -1;
    CHECK(hyla_dsygvdx(h, 1, 'n', 'i', 'l', 0, NULL, 1, NULL, 1, 0, 0, 1, 0, &m, NULL, NULL, 1) == 0 &&
              m == 0,
          "sygvdx: n 0, lower-case letters");
    /* jobz N: Z not referenced */
    rc = hyla_dsygvdx(h, 2, 'N', 'I', 'L', N, A, N, B, N, 0, 0, 2, 4, &m, w, NULL, 1);
    CHECK(rc == 0 && m == 3, "sygvdx: jobz N without Z: returned %d, m %lld", rc, (long long)m);
}

int main(void) {
    const char *devs = getenv("HYLA_DEVICES");
    hyla_t *h = NULL;
    int rc = t_create(&h, devs && *devs ? devs : "cpu", "sygvd");
    if (rc) return rc;
    leak_baseline(h);
    const hyla_dtype ts[] = {HYLA_S, HYLA_D, HYLA_C, HYLA_Z};
    const int64_t ns[] = {0, 1, 2, 5, 37, 100};
    for (int a = 0; a < 4; a++)
        for (int itype = 1; itype <= 3; itype++)
            for (int u = 0; u < 2; u++)
                for (size_t k = 0; k < sizeof ns / sizeof *ns; k++)
                    for (int jz = 0; jz < 2; jz++) {
                        /* the larger orders once per precision and itype with vectors */
                        if (ns[k] == 100 && (jz == 0 || u == 1)) continue;
                        one_case(h, ts[a], itype, jz ? 'V' : 'N', u ? 'U' : 'L', ns[k]);
                    }
    /* parts of the spectrum: about a quarter from a third of the way up */
    const int64_t nx[] = {1, 2, 5, 37, 100};
    for (int a = 0; a < 4; a++)
        for (int itype = 1; itype <= 3; itype++)
            for (int u = 0; u < 2; u++)
                for (size_t k = 0; k < sizeof nx / sizeof *nx; k++)
                    for (int jz = 0; jz < 2; jz++) {
                        const int64_t n = nx[k], lo = n / 3, hi = lo + n / 4 < n ? lo + n / 4 : n - 1;
                        if (n == 100 && (jz == 0 || u == 1 || itype != 1)) continue;
                        one_case_x(h, ts[a], itype, jz ? 'V' : 'N', u ? 'U' : 'L', n, 'I', lo, hi, 0);
                        one_case_x(h, ts[a], itype, jz ? 'V' : 'N', u ? 'U' : 'L', n, 'V', lo, hi, 0);
                    }
    /* the edges: the first pair, all pairs by index, an empty interval, ill-conditioned B
     * (the lowest 10 %), B = I */
    for (int a = 1; a < 4; a += 2)
        for (int itype = 1; itype <= 3; itype++) {
            one_case_x(h, ts[a], itype, 'V', 'L', 37, 'I', 0, 0, 0);
            one_case_x(h, ts[a], itype, 'V', 'U', 37, 'I', 0, 36, 0);
            one_case_x(h, ts[a], itype, 'V', 'L', 37, 'V', 5, 4, 0);
            one_case_x(h, ts[a], itype, 'V', 'L', 60, 'I', 0, 5, 1e10);
            one_case_x(h, ts[a], itype, 'V', 'U', 37, 'V', 3, 9, -1);
        }
    /* itype 1's trailing updates by block-column GEMMs at every order
     * (HYLA_OPT_EIG_S1_UPDATE 2), several GEMM blocks per update */
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_S1_UPDATE, 2) == 0, "HYLA_OPT_EIG_S1_UPDATE 2");
    for (int a = 0; a < 4; a++)
        for (int u = 0; u < 2; u++) {
            one_case(h, ts[a], 1, 'V', u ? 'U' : 'L', 100);
            one_case_x(h, ts[a], 1, 'V', u ? 'U' : 'L', 100, 'I', 10, 40, 0);
        }
    hyla_set_option(h, HYLA_OPT_EIG_S1_UPDATE, 0);
    /* the part of the spectrum of the reduced matrix by the backend's
     * one-stage solver, on device 0 where C is (host backend: its heevr
     * op; a GPU: the whole solve, the wanted columns down) */
    int64_t one_stage = 0;
    CHECK(hyla_get_option(h, HYLA_OPT_EIG_ONE_STAGE, &one_stage) == 0, "HYLA_OPT_EIG_ONE_STAGE");
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, 1000) == 0, "one stage up to 1000");
    for (int a = 1; a < 4; a += 2)
        for (int u = 0; u < 2; u++) {
            one_case_x(h, ts[a], 1, 'V', u ? 'U' : 'L', 100, 'I', 10, 40, 0);
            one_case_x(h, ts[a], 2, 'V', u ? 'U' : 'L', 37, 'V', 3, 9, 0);
            one_case_x(h, ts[a], 1, 'N', u ? 'U' : 'L', 37, 'I', 0, 36, 0);
        }
    hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, one_stage);
    failures(h);
    failures_x(h);
    leak_check(h, "sygvd");
    return t_finish(&h, "sygvd");
}
