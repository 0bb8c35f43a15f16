/* A part of the spectrum of a Hermitian (real: symmetric) matrix (hyla.h,
 * hyla_?syevdx / ?heevdx): the eigenvalues with index il..iu or in (vl,
 * vu], and optionally their eigenvectors, at a cost that drops with their
 * number m. The driver is hyla_?syevd's (eig.c, hyla_eig_part_run) up to
 * the tridiagonal T; then hyla_eig_part_solve (pvectors.c) takes the
 * wanted pairs of T, by divide and conquer on all of T where they are
 * many, else by this file's hyla_eig_tri_pairs on the host cores (MRRR,
 * or bisection and inverse iteration), and the back transformations on
 * their columns alone. This file: the arguments, the host LAPACK's
 * tridiagonal subset solvers and the Sturm count. */
#include "core/internal.h"
#include "eig/ptridiag.h"
#include "eig/pvectors.h"

#include <float.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <string.h>

static double rget(hyla_dtype rt, const void *v, int64_t i) {
    return rt == HYLA_S ? (double)((const float *)v)[i] : ((const double *)v)[i];
}

int64_t hyla_eig_sturm_below(hyla_dtype rt, int64_t n, const void *d, const void *e, double x) {
    double emax = 1;
    for (int64_t i = 0; i + 1 < n; i++) emax = fmax(emax, rget(rt, e, i) * rget(rt, e, i));
    const double pivmin = DBL_MIN * emax;
    int64_t c = 0;
    double q = 1;
    for (int64_t i = 0; i < n; i++) {
        const double ei = i == 0 ? 0 : rget(rt, e, i - 1);
        q = rget(rt, d, i) - x - (i == 0 ? 0 : ei * ei / q);
        if (fabs(q) < pivmin) q = -pivmin;
        c += q < 0;
    }
    return c;
}

/* ?stemr (MRRR) for il..iu on d, e (destroyed), Z n x (iu - il + 1) */
static lapack_int tri_stemr(hyla_dtype rt, lapack_int n, void *d, void *e, lapack_int il,
                            lapack_int iu, lapack_int *m, void *w, void *Z, lapack_int ldz,
                            lapack_int *isuppz) {
    lapack_logical tryrac = 1;
    if (rt == HYLA_S)
        return LAPACKE_sstemr(LAPACK_COL_MAJOR, 'V', 'I', n, d, e, 0, 0, il, iu, m, w, Z, ldz,
                              iu - il + 1, isuppz, &tryrac);
    return LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', n, d, e, 0, 0, il, iu, m, w, Z, ldz,
                          iu - il + 1, isuppz, &tryrac);
}

/* ?stebz (order 'B': grouped by split block) for il..iu */
static lapack_int tri_stebz(hyla_dtype rt, lapack_int n, lapack_int il, lapack_int iu,
                            const void *d, const void *e, lapack_int *m, lapack_int *nsplit,
                            void *w, lapack_int *iblock, lapack_int *isplit) {
    if (rt == HYLA_S)
        return LAPACKE_sstebz('I', 'B', n, 0, 0, il, iu, 2 * FLT_MIN, d, e, m, nsplit, w, iblock,
                              isplit);
    return LAPACKE_dstebz('I', 'B', n, 0, 0, il, iu, 2 * DBL_MIN, d, e, m, nsplit, w, iblock,
                          isplit);
}

static lapack_int tri_stein(hyla_dtype rt, lapack_int n, const void *d, const void *e,
                            lapack_int m, const void *w, const lapack_int *iblock,
                            const lapack_int *isplit, void *Z, lapack_int ldz, lapack_int *ifail) {
    if (rt == HYLA_S)
        return LAPACKE_sstein(LAPACK_COL_MAJOR, n, d, e, m, w, iblock, isplit, Z, ldz, ifail);
    return LAPACKE_dstein(LAPACK_COL_MAJOR, n, d, e, m, w, iblock, isplit, Z, ldz, ifail);
}

int hyla_eig_tri_pairs(hyla_dtype rt, int64_t n, const void *d, const void *e, int64_t il,
                       int64_t iu, int64_t *m, void *w, void *Z, int64_t ldz) {
    const size_t rs = hyla_dtype_size(rt);
    const int64_t k = iu - il + 1;
    *m = 0;
    if (n > INT_MAX || ldz > INT_MAX) return HYLA_ERR_UNSUPPORTED;
    if (k <= 0) return 0;
    /* copies: ?stemr destroys d and e, LAPACKE's NaN scan of ?stein's w
     * reads all n entries (zeroed past m) */
    void *dc = hyla_malloc((size_t)n * rs), *ec = hyla_calloc((size_t)n, rs);
    void *wb = hyla_calloc((size_t)n, rs);
    lapack_int *iw = hyla_malloc(sizeof *iw * (size_t)(3 * n));
    lapack_int mm = 0, nsplit = 0, info;
    int rc = 0;
    if (!dc || !ec || !wb || !iw) {
        rc = HYLA_ERR_NO_MEMORY;
        goto out;
    }
    if (n >= HYLA_EIG_MRRR_MIN) {
        memcpy(dc, d, (size_t)n * rs);
        memcpy(ec, e, (size_t)(n - 1) * rs);
        info = tri_stemr(rt, (lapack_int)n, dc, ec, (lapack_int)il, (lapack_int)iu, &mm, wb, Z,
                         (lapack_int)ldz, iw);
        if (info == 0) goto sorted; /* ascending already */
        mm = 0;
        memset(wb, 0, (size_t)n * rs);
    }
    /* bisection: the wanted eigenvalues grouped by split block, then their
     * vectors by inverse iteration */
    lapack_int *iblock = iw, *isplit = iw + n, *ifail = iw + 2 * n;
    info = tri_stebz(rt, (lapack_int)n, (lapack_int)il, (lapack_int)iu, d, e, &mm, &nsplit, wb,
                     iblock, isplit);
    if (info == 0 && mm > 0)
        info = tri_stein(rt, (lapack_int)n, d, e, mm, wb, iblock, isplit, Z, (lapack_int)ldz,
                         ifail);
    if (info != 0) {
        rc = info < 0 ? HYLA_ERR_INTERNAL : (int)info; /* > 0: LAPACK ?syevx's meaning */
        mm = 0;
        goto out;
    }
    /* ascending (selection sort as LAPACK's ?syevx: few swaps) */
    for (int64_t j = 0; j + 1 < mm; j++) {
        int64_t s = j;
        for (int64_t i = j + 1; i < mm; i++)
            if (rget(rt, wb, i) < rget(rt, wb, s)) s = i;
        if (s == j) continue;
        char *zj = (char *)Z + (size_t)(j * ldz) * rs, *zs = (char *)Z + (size_t)(s * ldz) * rs;
        char *a = (char *)wb + (size_t)j * rs, *b = (char *)wb + (size_t)s * rs;
        for (size_t x = 0; x < rs; x++) {
            const char c = a[x];
            a[x] = b[x], b[x] = c;
        }
        for (size_t x = 0; x < (size_t)n * rs; x++) {
            const char c = zj[x];
            zj[x] = zs[x], zs[x] = c;
        }
    }
sorted:
    memcpy(w, wb, (size_t)mm * rs);
    *m = mm;
out:
    hyla_free(dc), hyla_free(ec), hyla_free(wb), hyla_free(iw);
    return rc;
}

int hyla_eig_subset_args(char range, int vec, int64_t n, double vl, double vu, int64_t il,
                         int64_t iu, const int64_t *m, const void *w, const void *Z, int64_t ldz) {
    if (range == 'V' && n > 0 && !(vl < vu)) return 1; /* LAPACK's check */
    if (range == 'I' && (il < 1 || il > HYLA_MAX(1, n))) return 2;
    if (range == 'I' && (iu < HYLA_MIN(n, il) || iu > n)) return 3;
    if (!m) return 4;
    if (n > 0 && !w) return 5;
    if (vec && n > 0 && !Z) return 6;
    if (ldz < 1 || (vec && (ldz < n || !hyla_size_ok(n, n, ldz)))) return 7;
    return 0;
}

static int evdx(hyla_t *ctx, hyla_dtype t, char jobz, char range, char uplo, int64_t n, void *A,
                int64_t lda, double vl, double vu, int64_t il, int64_t iu, int64_t *m, void *w,
                void *Z, int64_t ldz) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    jobz = (char)(jobz == 'v' ? 'V' : jobz == 'n' ? 'N' : jobz);
    range = (char)(range == 'a' ? 'A' : range == 'v' ? 'V' : range == 'i' ? 'I' : range);
    uplo = (char)(uplo == 'l' ? 'L' : uplo == 'u' ? 'U' : uplo);
    const int vec = jobz == 'V';
    if (jobz != 'N' && jobz != 'V') return -1;
    if (range != 'A' && range != 'V' && range != 'I') return -2;
    if (uplo != 'L' && uplo != 'U') return -3;
    if (n < 0) return -4;
    if (n > 0 && !A) return -5;
    if (lda < HYLA_MAX(1, n) || !hyla_size_ok(n, n, lda)) return -6;
    const int bad = hyla_eig_subset_args(range, vec, n, vl, vu, il, iu, m, w, Z, ldz);
    if (bad) return -(7 + bad);
    *m = 0;
    if (n == 0) return 0;
    if (n > INT_MAX) return HYLA_ERR_UNSUPPORTED; /* the host LAPACK's ?stemr, ?stebz, ?stein */
    const hyla_eig_part p = {.range = range, .vl = vl, .vu = vu, .il = il, .iu = iu, .m = m,
                             .Z = vec ? Z : NULL, .ldz = ldz};
    return hyla_eig_part_run(ctx, t, uplo == 'L', n, A, lda, w, &p);
}

int hyla_ssyevdx(hyla_t *ctx, char jobz, char range, char uplo, int64_t n, float *A, int64_t lda,
                 float vl, float vu, int64_t il, int64_t iu, int64_t *m, float *w, float *Z,
                 int64_t ldz) {
    return evdx(ctx, HYLA_S, jobz, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz);
}
int hyla_dsyevdx(hyla_t *ctx, char jobz, char range, char uplo, int64_t n, double *A, int64_t lda,
                 double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w, double *Z,
                 int64_t ldz) {
    return evdx(ctx, HYLA_D, jobz, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz);
}
int hyla_cheevdx(hyla_t *ctx, char jobz, char range, char uplo, int64_t n, hyla_complex_float *A,
                 int64_t lda, float vl, float vu, int64_t il, int64_t iu, int64_t *m, float *w,
                 hyla_complex_float *Z, int64_t ldz) {
    return evdx(ctx, HYLA_C, jobz, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz);
}
int hyla_zheevdx(hyla_t *ctx, char jobz, char range, char uplo, int64_t n, hyla_complex_double *A,
                 int64_t lda, double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                 hyla_complex_double *Z, int64_t ldz) {
    return evdx(ctx, HYLA_Z, jobz, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz);
}
