/* Helpers of the eigensolver tests for one precision (included by
 * test_sy2sb.c and test_syevd.c with prec.h set): random Hermitian matrices
 * with a chosen spectrum (LAPACK dlatms modes), norms, products, LAPACKE
 * references. Small sizes only (plain O(n^3) loops). */

#if defined(HYLA_PREC_S)
#define LP(x) LAPACKE_s##x
#define LP_HEEV LAPACKE_ssyev
#define LP_UNGQR LAPACKE_sorgqr
#elif defined(HYLA_PREC_D)
#define LP(x) LAPACKE_d##x
#define LP_HEEV LAPACKE_dsyev
#define LP_UNGQR LAPACKE_dorgqr
#elif defined(HYLA_PREC_C)
#define LP(x) LAPACKE_c##x
#define LP_HEEV LAPACKE_cheev
#define LP_UNGQR LAPACKE_cungqr
#else
#define LP(x) LAPACKE_z##x
#define LP_HEEV LAPACKE_zheev
#define LP_UNGQR LAPACKE_zungqr
#endif
#define EPS ((double)(sizeof(R) == 4 ? FLT_EPSILON : DBL_EPSILON))

static double PN(te_abs)(T v) {
#if IS_CPLX
    return cabs((double complex)v);
#else
    return fabs((double)v);
#endif
}

static T PN(te_conj)(T v) {
#if IS_CPLX
    return conj(v);
#else
    return v;
#endif
}

#include "t_rand_elem.h"

/* 1-norm of an m x n matrix */
static double PN(te_norm1)(int64_t m, int64_t n, const T *A, int64_t lda) {
    double mx = 0;
    for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t i = 0; i < m; i++) s += PN(te_abs)(A[i + j * lda]);
        if (s > mx) mx = s;
    }
    return mx;
}

/* C = op(A) op(B) with op = N or C (conjugate transpose), all n x n, ld n */
static void PN(te_mul)(int64_t n, const T *A, int ca, const T *B, int cb, T *C) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            T acc = 0;
            for (int64_t k = 0; k < n; k++) {
                T a = ca ? PN(te_conj)(A[k + i * n]) : A[i + k * n];
                T b = cb ? PN(te_conj)(B[j + k * n]) : B[k + j * n];
                acc += a * b;
            }
            C[i + j * n] = acc;
        }
}

#ifndef TE_CLASSES
#define TE_CLASSES
/* Eigenvalue distributions of the tests (dlatms modes and more). */
enum { TE_RANDOM, TE_CLUSTERED, TE_GEOMETRIC, TE_ARITHMETIC, TE_ONELARGE, TE_GRADED,
       TE_DIAGONAL, TE_ZERO, TE_NCLASS };
static const char *te_class_name[] = {"random", "clustered", "geometric", "arithmetic",
                                      "onelarge", "graded", "diagonal", "zero"};
#endif

/* Full Hermitian A (ld n, both triangles) of class c. */
static void PN(te_make)(int c, int64_t n, T *A, unsigned long long *s) {
    if (n == 0) return;
    if (c == TE_RANDOM || c == TE_GRADED) {
        /* graded: entry (i, j) scaled by g_i g_j, g_i = 1e6^(-i/(2(n-1))) */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = j; i < n; i++) {
                T v = PN(rand_elem)(s);
                if (i == j) v = (T)creal((double complex)v);
                if (c == TE_GRADED && n > 1) v *= (R)pow(1e6, -(double)(i + j) / (double)(2 * (n - 1)));
                A[i + j * n] = v;
                A[j + i * n] = PN(te_conj)(v);
            }
        return;
    }
    double *d = malloc(sizeof *d * (size_t)n);
    for (int64_t k = 0; k < n; k++) {
        double x = n > 1 ? (double)k / (double)(n - 1) : 0;
        switch (c) {
        case TE_CLUSTERED: d[k] = k == n - 1 ? 1e-6 : 1.0; break;
        case TE_GEOMETRIC: d[k] = pow(1e-6, x); break;
        case TE_ARITHMETIC: d[k] = 1.0 - x * (1 - 1e-6); break;
        case TE_ONELARGE: d[k] = k == 0 ? 1.0 : 1e-6; break;
        case TE_DIAGONAL: d[k] = t_rand(s); break;
        default: d[k] = 0; break;
        }
    }
    memset(A, 0, sizeof *A * (size_t)(n * n));
    if (c == TE_DIAGONAL || c == TE_ZERO) {
        for (int64_t k = 0; k < n; k++) A[k + k * n] = (T)d[k];
        free(d);
        return;
    }
    T *Q = malloc(sizeof *Q * (size_t)(n * n)), *tau = malloc(sizeof *tau * (size_t)n);
    for (int64_t i = 0; i < n * n; i++) Q[i] = PN(rand_elem)(s);
    LP(geqrf)(LAPACK_COL_MAJOR, (int)n, (int)n, Q, (int)n, tau);
    LP_UNGQR(LAPACK_COL_MAJOR, (int)n, (int)n, (int)n, Q, (int)n, tau);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            T acc = 0;
            for (int64_t k = 0; k < n; k++) acc += Q[i + k * n] * d[k] * PN(te_conj)(Q[j + k * n]);
            A[i + j * n] = acc;
        }
    for (int64_t j = 0; j < n; j++) {
        A[j + j * n] = (T)creal((double complex)A[j + j * n]);
        for (int64_t i = j + 1; i < n; i++) A[j + i * n] = PN(te_conj)(A[i + j * n]);
    }
    free(Q);
    free(tau);
    free(d);
}

/* Eigenvalues of the full Hermitian A (ld n, copied) by LAPACKE ?syev/?heev. */
static void PN(te_eig)(int64_t n, const T *A, R *w) {
    if (n == 0) return;
    T *B = malloc(sizeof *B * (size_t)(n * n));
    memcpy(B, A, sizeof *B * (size_t)(n * n));
    LP_HEEV(LAPACK_COL_MAJOR, 'N', 'L', (int)n, B, (int)n, w);
    free(B);
}

/* max |w1 - w2| / (n |A|_1 eps), for eigenvalue lists in ascending order */
static double PN(te_eigdiff)(int64_t n, const R *w1, const R *w2, double anorm) {
    double mx = 0;
    for (int64_t k = 0; k < n; k++) mx = fmax(mx, fabs((double)w1[k] - (double)w2[k]));
    double den = (double)HYLA_T_MAX(1, n) * (anorm > 0 ? anorm : 1) * EPS;
    return mx / den;
}

/* |I - Q^H Q|_1 / (n eps), Q n x k (ld n) */
static double PN(te_orth)(int64_t n, const T *Q) {
    T *C = malloc(sizeof *C * (size_t)(HYLA_T_MAX(1, n * n)));
    PN(te_mul)(n, Q, 1, Q, 0, C);
    for (int64_t k = 0; k < n; k++) C[k + k * n] -= 1;
    double r = PN(te_norm1)(n, n, C, n) / ((double)HYLA_T_MAX(1, n) * EPS);
    free(C);
    return r;
}
