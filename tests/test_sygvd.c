/* hyla_?sygvd / ?hegvd (eig/gv.c) on the devices of HYLA_DEVICES, every
 * precision, itype 1, 2, 3, uplo L and U (the other triangle of A and B
 * filled with garbage that must not be read), jobz N and V, orders 0, 1, 2,
 * 5 and orders of several reduction blocks (37, 100): the eigenvalues
 * against LAPACKE's ?sygvd, the residual of the generalized problem, the
 * normalization of the eigenvectors (X^H B X = I, itype 3 X^H B^-1 X = I),
 * B's Cholesky factor against LAPACKE's; B not positive definite (info n +
 * k, A untouched), NaN in a triangle read (HYLA_ERR_NAN, nothing written),
 * NaN in the other triangle (ignored), every bad argument. */
#include "test_util.h"
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

/* One case: A Hermitian random, B = M M^H + n I, garbage in the other
 * triangles (lda = ldb = n + 1). */
static void one_case(hyla_t *h, hyla_dtype t, int itype, char jobz, char uplo, int64_t n) {
    const int cplx = is_cplx(t);
    const double eps = eps_of(t);
    const int64_t ld = n + 1, es = (int64_t)(cplx ? 2 : 1) * (is_single(t) ? 4 : 8);
    zc *A0 = calloc((size_t)(n * n + 1), sizeof *A0), *B0 = calloc((size_t)(n * n + 1), sizeof *B0);
    zc *Mx = calloc((size_t)(n * n + 1), sizeof *Mx);
    char *A = calloc((size_t)(ld * n + 1), (size_t)es), *B = calloc((size_t)(ld * n + 1), (size_t)es);
    double *w = calloc((size_t)n + 1, sizeof(double) * 2);
    char what[128];
    snprintf(what, sizeof what, "%c itype %d jobz %c uplo %c n %lld", "sdcz"[t], itype, jobz, uplo,
             (long long)n);
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
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const int in = uplo == 'L' ? i >= j : i <= j;
            put(t, A, i + j * ld, in ? A0[i + j * n] : GARBAGE);
            put(t, B, i + j * ld, in ? B0[i + j * n] : GARBAGE);
        }
    int rc = call(h, t, itype, jobz, uplo, n, A, ld, B, ld, w);
    CHECK(rc == 0, "%s: returned %d", what, rc);
    if (rc || n == 0) goto out;

    /* eigenvalues against LAPACKE's */
    {
        char *Ar = malloc((size_t)(n * n * es)), *Br = malloc((size_t)(n * n * es));
        double *wr = malloc(sizeof(double) * (size_t)n);
        for (int64_t i = 0; i < n * n; i++) put(t, Ar, i, A0[i]), put(t, Br, i, B0[i]);
        int lrc = lapacke_gvd(t, itype, uplo, (int)n, Ar, Br, wr);
        double dmax = 0, wmax = 0;
        for (int64_t i = 0; i < n; i++) {
            double a = creal(get(real_of(t), w, i)), b = creal(get(real_of(t), wr, i));
            dmax = fmax(dmax, fabs(a - b)), wmax = fmax(wmax, fabs(b));
            if (i > 0) CHECK(a >= creal(get(real_of(t), w, i - 1)), "%s: w not ascending at %lld", what, (long long)i);
        }
        CHECK(lrc == 0 && dmax <= 200 * n * eps * fmax(wmax, 1e-300) + 1e-300,
              "%s: eigenvalues differ from LAPACKE's by %.3g (max |w| %.3g)", what, dmax, wmax);
        free(Ar), free(Br), free(wr);
    }
    /* B holds its Cholesky factor in the triangle uplo, the other triangle untouched */
    {
        char *Lr = malloc((size_t)(n * n * es));
        for (int64_t i = 0; i < n * n; i++) put(t, Lr, i, B0[i]);
        lapacke_potrf(t, uplo, (int)n, Lr);
        double d = 0, m = 0, gbuf[2];
        put(t, gbuf, 0, GARBAGE);
        const zc garbage = get(t, gbuf, 0); /* as stored in dtype t */
        int other = 1;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                const int in = uplo == 'L' ? i >= j : i <= j;
                if (in) {
                    d = fmax(d, cabs(get(t, B, i + j * ld) - get(t, Lr, i + j * n)));
                    m = fmax(m, cabs(get(t, Lr, i + j * n)));
                } else if (get(t, B, i + j * ld) != garbage) {
                    other = 0;
                }
            }
        CHECK(d <= 100 * n * eps * m, "%s: B's factor differs by %.3g", what, d / (m * eps));
        CHECK(other, "%s: B's other triangle written", what);
        free(Lr);
    }
    if (jobz == 'V') {
        zc *X = malloc(sizeof *X * (size_t)(n * n)), *P = malloc(sizeof *P * (size_t)(n * n));
        zc *Q = malloc(sizeof *Q * (size_t)(n * n)), *R = malloc(sizeof *R * (size_t)(n * n));
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) X[i + j * n] = get(t, A, i + j * ld);
        /* residual: itype 1 A X - B X W; 2 A B X - X W; 3 B A X - X W */
        if (itype == 1) {
            mul(n, A0, X, P);
            mul(n, B0, X, Q);
        } else {
            mul(n, itype == 2 ? B0 : A0, X, R);
            mul(n, itype == 2 ? A0 : B0, R, P);
            memcpy(Q, X, sizeof *Q * (size_t)(n * n));
        }
        for (int64_t j = 0; j < n; j++) {
            double lam = creal(get(real_of(t), w, j));
            for (int64_t i = 0; i < n; i++) P[i + j * n] -= Q[i + j * n] * lam;
        }
        const double res = fnorm(n, P) / (n * eps * fnorm(n, A0) * fnorm(n, B0) * fnorm(n, X));
        CHECK(res < 60, "%s: residual %.3g", what, res);
        /* normalization: X^H B X = I (itype 1, 2), X^H B^-1 X = I (3) */
        zc *Bm = B0;
        if (itype == 3) {
            inverse(n, B0, R);
            Bm = R;
        }
        mul(n, Bm, X, Q);
        double worst = 0, xb = 0;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                zc s = 0;
                for (int64_t k = 0; k < n; k++) s += conj(X[k + i * n]) * Q[k + j * n];
                worst = fmax(worst, cabs(s - (i == j ? 1 : 0)));
            }
        xb = fnorm(n, Bm) * fnorm(n, X) * fnorm(n, X);
        CHECK(worst / (n * eps * fmax(xb, 1)) < 60, "%s: normalization error %.3g", what,
              worst / (n * eps));
        free(X), free(P), free(Q), free(R);
    }
out:
    free(A0), free(B0), free(Mx), free(A), free(B), free(w);
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
    failures(h);
    leak_check(h, "sygvd");
    return t_finish(&h, "sygvd");
}
