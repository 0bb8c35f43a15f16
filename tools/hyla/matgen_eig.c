/* Hermitian test matrices for the eigensolver tester (see matgen_eig.h). */
#include "matgen_eig.h"

#include <cblas.h>
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matgen.h"

enum { ID_EIG = 21, ID_EIG_V = 22, NREFLECT = 8 };

const char *const eig_class_names[EIG_NCLASSES] = {"random", "clustered", "geometric", "arithmetic",
                                                   "onelarge", "graded", "diagonal", "zero"};

int eig_class_parse(const char *name) {
    for (int c = 0; c < EIG_NCLASSES; c++)
        if (strcmp(name, eig_class_names[c]) == 0) return c;
    return -1;
}

/* element (i, j) as a double complex */
static double complex get(hyla_dtype t, const void *a, int64_t lda, int64_t i, int64_t j) {
    return mat_elem(t, a, i + j * lda);
}

static void put(hyla_dtype t, void *a, int64_t lda, int64_t i, int64_t j, double complex v) {
    size_t k = (size_t)(i + j * lda);
    switch (t) {
    case HYLA_S: ((float *)a)[k] = (float)creal(v); break;
    case HYLA_D: ((double *)a)[k] = creal(v); break;
    case HYLA_C: ((hyla_complex_float *)a)[k] = (hyla_complex_float)v; break;
    case HYLA_Z: ((hyla_complex_double *)a)[k] = v; break;
    }
}

/* Upper triangle := conjugate of the lower one; real diagonal. */
static void hermitize(hyla_dtype t, int64_t n, void *a, int64_t lda) {
#pragma omp parallel for schedule(dynamic, 16)
    for (int64_t j = 0; j < n; j++) {
        put(t, a, lda, j, j, creal(get(t, a, lda, j, j)));
        for (int64_t i = j + 1; i < n; i++) put(t, a, lda, j, i, conj(get(t, a, lda, i, j)));
    }
}

/* D, then A := H A H for NREFLECT random reflectors H = I - tau v v^H,
 * tau = 2 / |v|^2 (Hermitian and unitary): with y = tau A v and
 * w = y - (tau/2)(v^H y) v, H A H = A - v w^H - w v^H (lower triangle). */
static int spectrum(hyla_dtype t, eig_class c, int64_t n, void *a, int64_t lda, uint64_t seed) {
    const bool cplx = dtype_is_complex(t);
    const hyla_dtype wt = cplx ? HYLA_Z : HYLA_D;
    const size_t es = cplx ? sizeof(double complex) : sizeof(double);
    void *W = calloc((size_t)(n * n), es);
    void *v = malloc((size_t)n * es), *y = malloc((size_t)n * es);
    if (!W || !v || !y) {
        fputs("hyla: cannot allocate the eigenvalue test matrix\n", stderr);
        free(W), free(v), free(y);
        return -1;
    }
    for (int64_t k = 0; k < n; k++) {
        double x = n > 1 ? (double)k / (double)(n - 1) : 0, d;
        switch (c) {
        case EIG_CLUSTERED: d = k == n - 1 ? 1 / EIG_COND : 1; break;
        case EIG_GEOMETRIC: d = pow(EIG_COND, -x); break;
        case EIG_ARITHMETIC: d = 1 - x * (1 - 1 / EIG_COND); break;
        default: d = k == 0 ? 1 : 1 / EIG_COND; break;
        }
        put(wt, W, n, k, k, d);
    }
    for (int r = 0; r < NREFLECT; r++) {
        mat_fill_random(wt, n, 1, v, n, seed, ID_EIG_V + (uint64_t)r);
        double nv = cplx ? cblas_dznrm2((int)n, v, 1) : cblas_dnrm2((int)n, v, 1);
        if (nv == 0) continue;
        double tau = 2 / (nv * nv);
        if (cplx) {
            double complex al = tau, be = 0, dot;
            cblas_zhemv(CblasColMajor, CblasLower, (int)n, &al, W, (int)n, v, 1, &be, y, 1);
            cblas_zdotc_sub((int)n, v, 1, y, 1, &dot);
            double complex s = -tau / 2 * dot, m1 = -1;
            cblas_zaxpy((int)n, &s, v, 1, y, 1);
            cblas_zher2(CblasColMajor, CblasLower, (int)n, &m1, v, 1, y, 1, W, (int)n);
        } else {
            cblas_dsymv(CblasColMajor, CblasLower, (int)n, tau, W, (int)n, v, 1, 0, y, 1);
            double s = -tau / 2 * cblas_ddot((int)n, v, 1, y, 1);
            cblas_daxpy((int)n, s, v, 1, y, 1);
            cblas_dsyr2(CblasColMajor, CblasLower, (int)n, -1, v, 1, y, 1, W, (int)n);
        }
    }
#pragma omp parallel for schedule(dynamic, 16)
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) put(t, a, lda, i, j, get(wt, W, n, i, j));
    free(W), free(v), free(y);
    return 0;
}

int mat_fill_eig(hyla_dtype t, eig_class c, int64_t n, void *a, int64_t lda, uint64_t seed) {
    const size_t es = dtype_size(t);
    switch (c) {
    case EIG_RANDOM:
    case EIG_GRADED:
        mat_fill_random(t, n, n, a, lda, seed, ID_EIG);
        if (c == EIG_GRADED) {
#pragma omp parallel for schedule(static)
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = j; i < n; i++) {
                    double e = n > 1 ? (double)(i + j) / (double)(2 * (n - 1)) : 0;
                    put(t, a, lda, i, j, get(t, a, lda, i, j) * pow(EIG_COND, -e));
                }
        }
        break;
    case EIG_DIAGONAL:
    case EIG_ZERO:
        for (int64_t j = 0; j < n; j++) memset((char *)a + (size_t)(j * lda) * es, 0, (size_t)n * es);
        if (c == EIG_DIAGONAL) {
            double *d = malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
            if (!d) {
                fputs("hyla: out of memory\n", stderr);
                return -1;
            }
            mat_fill_random(HYLA_D, n, 1, d, n > 0 ? n : 1, seed, ID_EIG);
            for (int64_t k = 0; k < n; k++) put(t, a, lda, k, k, d[k]);
            free(d);
        }
        return 0;
    default:
        if (spectrum(t, c, n, a, lda, seed)) return -1;
        break;
    }
    hermitize(t, n, a, lda);
    return 0;
}
