/* A part of the spectrum of a Hermitian (real: symmetric) matrix (hyla.h,
 * hyla_?syevdx / ?heevdx): the eigenvalues with index il..iu or in (vl,
 * vu], and optionally their eigenvectors, at a cost that drops with their
 * number m:
 *   1. dense -> band (hyla_?sytrd_sy2sb, on device 0), 4/3 n^3 flops;
 *   2. band -> real tridiagonal T (hyla_?sytrd_sb2st), O(n^2 kd);
 *   3. jobz N: the wanted eigenvalues of T by bisection (LAPACK ?stebz on
 *      the host cores, O(n m));
 *   4. jobz V, from n = EVX_MRRR_MIN on: where the wanted are at least the
 *      tuning table's eig_subset_dc_pct percent of n, all n pairs and the
 *      wanted kept: for range 'A' and 'I' (their number known) by
 *      hyla_?syevd in place of steps 1 to 4; for range 'V' (counted by
 *      Sturm sequences on T) T's by divide and conquer (hyla_eig_stedc,
 *      its large merges on the devices) and the back transformations on
 *      the wanted columns; else the wanted pairs alone by MRRR (?stemr, O(n m),
 *      no reorthogonalization). Below that order, or where MRRR fails,
 *      bisection and inverse iteration (?stebz, ?stein: O(n m) plus a
 *      reorthogonalization within clusters that costs O(n m^2) when the m
 *      eigenvalues lie close together, as a tenth of a large spectrum
 *      does). Then the two back transformations on the m columns only
 *      (hyla_?ormtr_sb2st and hyla_?ormtr_sy2sb on device 0), O(n^2 m)
 *      each, against O(n^3) for all n vectors.
 * The results are sorted ascending (?stein wants them by split block). */
#include "core/internal.h"
#include "eig/ptridiag.h"

#include <float.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* The band width of stage 1 here (any kd >= 1 gives the same results up
 * to rounding). */
enum { EVX_KD = 64 };

/* MRRR from this order on; below it inverse iteration costs little, and
 * the host LAPACK's ?stemr mishandles some tiny orders (n = 2 with range
 * 'I' returned garbage eigenvalues from OpenBLAS 0.3.26). */
enum { EVX_MRRR_MIN = 256 };

static int evx_sy2sb(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, int64_t kd, void *A,
                     int64_t lda, void *AB, void *tau) {
    switch (t) {
    case HYLA_S: return hyla_ssytrd_sy2sb(ctx, uplo, n, kd, A, lda, AB, kd + 1, tau);
    case HYLA_D: return hyla_dsytrd_sy2sb(ctx, uplo, n, kd, A, lda, AB, kd + 1, tau);
    case HYLA_C: return hyla_chetrd_he2hb(ctx, uplo, n, kd, A, lda, AB, kd + 1, tau);
    case HYLA_Z: return hyla_zhetrd_he2hb(ctx, uplo, n, kd, A, lda, AB, kd + 1, tau);
    }
    return HYLA_ERR_INVALID;
}

static int evx_sb2st(hyla_t *ctx, hyla_dtype t, char vect, int64_t n, int64_t kd, const void *AB,
                     void *d, void *e, hyla_sb2st_q **q) {
    switch (t) {
    case HYLA_S: return hyla_ssytrd_sb2st(ctx, vect, n, kd, AB, kd + 1, d, e, q);
    case HYLA_D: return hyla_dsytrd_sb2st(ctx, vect, n, kd, AB, kd + 1, d, e, q);
    case HYLA_C: return hyla_chetrd_hb2st(ctx, vect, n, kd, AB, kd + 1, d, e, q);
    case HYLA_Z: return hyla_zhetrd_hb2st(ctx, vect, n, kd, AB, kd + 1, d, e, q);
    }
    return HYLA_ERR_INVALID;
}

static int evx_back(hyla_t *ctx, hyla_dtype t, const hyla_sb2st_q *q, int64_t n, int64_t kd,
                    int64_t m, const void *A, int64_t lda, const void *tau, void *Z, int64_t ldz) {
    int rc;
    switch (t) {
    case HYLA_S:
        rc = hyla_sormtr_sb2st(ctx, q, m, Z, ldz);
        return rc ? rc : hyla_sormtr_sy2sb(ctx, 'N', n, kd, m, A, lda, tau, Z, ldz);
    case HYLA_D:
        rc = hyla_dormtr_sb2st(ctx, q, m, Z, ldz);
        return rc ? rc : hyla_dormtr_sy2sb(ctx, 'N', n, kd, m, A, lda, tau, Z, ldz);
    case HYLA_C:
        rc = hyla_cunmtr_hb2st(ctx, q, m, Z, ldz);
        return rc ? rc : hyla_cunmtr_he2hb(ctx, 'N', n, kd, m, A, lda, tau, Z, ldz);
    case HYLA_Z:
        rc = hyla_zunmtr_hb2st(ctx, q, m, Z, ldz);
        return rc ? rc : hyla_zunmtr_he2hb(ctx, 'N', n, kd, m, A, lda, tau, Z, ldz);
    }
    return HYLA_ERR_INVALID;
}

/* ?stebz in the real type (order 'B'), lapack_int arrays */
static lapack_int evx_stebz(hyla_dtype rt, char range, lapack_int n, double vl, double vu,
                            lapack_int il, lapack_int iu, const void *d, const void *e,
                            lapack_int *m, lapack_int *nsplit, void *w, lapack_int *iblock,
                            lapack_int *isplit) {
    if (rt == HYLA_S)
        return LAPACKE_sstebz(range, 'B', n, (float)vl, (float)vu, il, iu, 2 * FLT_MIN, d, e, m,
                              nsplit, w, iblock, isplit);
    return LAPACKE_dstebz(range, 'B', n, vl, vu, il, iu, 2 * DBL_MIN, d, e, m, nsplit, w, iblock,
                          isplit);
}

/* ?stein: the eigenvectors of T for w (n x m, in dtype t: complex types
 * receive real vectors with zero imaginary parts) */
static lapack_int evx_stein(hyla_dtype t, lapack_int n, const void *d, const void *e, lapack_int m,
                            const void *w, const lapack_int *iblock, const lapack_int *isplit,
                            void *Z, lapack_int ldz, lapack_int *ifail) {
    switch (t) {
    case HYLA_S:
        return LAPACKE_sstein(LAPACK_COL_MAJOR, n, d, e, m, w, iblock, isplit, Z, ldz, ifail);
    case HYLA_D:
        return LAPACKE_dstein(LAPACK_COL_MAJOR, n, d, e, m, w, iblock, isplit, Z, ldz, ifail);
    case HYLA_C:
        return LAPACKE_cstein(LAPACK_COL_MAJOR, n, d, e, m, w, iblock, isplit, Z, ldz, ifail);
    case HYLA_Z:
        return LAPACKE_zstein(LAPACK_COL_MAJOR, n, d, e, m, w, iblock, isplit, Z, ldz, ifail);
    }
    return -1;
}

/* ?stemr (MRRR, Dhillon and Parlett): the wanted eigenvalues of T and
 * their eigenvectors at once, O(n m) with no reorthogonalization (n x nzc
 * Z in dtype t: complex types receive real vectors). d and e (n entries)
 * are destroyed. Returns LAPACK's info (> 0: MRRR failed; the caller
 * falls back to bisection and inverse iteration). */
static lapack_int evx_stemr(hyla_dtype t, char range, lapack_int n, void *d, void *e, double vl,
                            double vu, lapack_int il, lapack_int iu, lapack_int *m, void *w,
                            void *Z, lapack_int ldz, lapack_int nzc, lapack_int *isuppz) {
    lapack_logical tryrac = 1;
    switch (t) {
    case HYLA_S:
        return LAPACKE_sstemr(LAPACK_COL_MAJOR, 'V', range, n, d, e, (float)vl, (float)vu, il, iu,
                              m, w, Z, ldz, nzc, isuppz, &tryrac);
    case HYLA_D:
        return LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', range, n, d, e, vl, vu, il, iu, m, w, Z, ldz,
                              nzc, isuppz, &tryrac);
    case HYLA_C:
        return LAPACKE_cstemr(LAPACK_COL_MAJOR, 'V', range, n, d, e, (float)vl, (float)vu, il, iu,
                              m, w, Z, ldz, nzc, isuppz, &tryrac);
    case HYLA_Z:
        return LAPACKE_zstemr(LAPACK_COL_MAJOR, 'V', range, n, d, e, vl, vu, il, iu, m, w, Z, ldz,
                              nzc, isuppz, &tryrac);
    }
    return -1;
}

static double rget(hyla_dtype rt, const void *v, int64_t i);

/* All n pairs by hyla_?syevd (A overwritten by its eigenvectors) and the
 * wanted run il .. il + k - 1 (1-based) kept: their eigenvalues into w,
 * their columns into Z, *m = k. Returns what hyla_?syevd returns. */
static int evx_full(hyla_t *ctx, hyla_dtype t, char uplo, int64_t n, void *A, int64_t lda,
                    int64_t il, int64_t k, int64_t *m, void *w, void *Z, int64_t ldz) {
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(hyla_dtype_real(t));
    void *wf = hyla_malloc((size_t)n * rs);
    if (!wf) return HYLA_ERR_NO_MEMORY;
    int rc;
    switch (t) {
    case HYLA_S: rc = hyla_ssyevd(ctx, 'V', uplo, n, A, lda, wf); break;
    case HYLA_D: rc = hyla_dsyevd(ctx, 'V', uplo, n, A, lda, wf); break;
    case HYLA_C: rc = hyla_cheevd(ctx, 'V', uplo, n, A, lda, wf); break;
    default: rc = hyla_zheevd(ctx, 'V', uplo, n, A, lda, wf); break;
    }
    if (!rc) {
#pragma omp parallel for schedule(static) if (n >= 512)
        for (int64_t j = 0; j < k; j++)
            memcpy((char *)Z + (size_t)j * (size_t)ldz * es,
                   (const char *)A + (size_t)(il - 1 + j) * (size_t)lda * es, (size_t)n * es);
        memcpy(w, (const char *)wf + (size_t)(il - 1) * rs, (size_t)k * rs);
        *m = k;
    }
    hyla_free(wf);
    return rc;
}

/* The number of eigenvalues of T below x (Sturm sequence of the LDL^T
 * factorization of T - x I), for the choice of the tridiagonal solver. */
static int64_t evx_count_below(hyla_dtype rt, int64_t n, const void *d, const void *e, double x) {
    double emax = 1;
    for (int64_t i = 0; i + 1 < n; i++) {
        const double v = rt == HYLA_S ? (double)((const float *)e)[i] : ((const double *)e)[i];
        emax = fmax(emax, v * v);
    }
    const double pivmin = DBL_MIN * emax;
    int64_t c = 0;
    double q = 1;
    for (int64_t i = 0; i < n; i++) {
        const double di = rt == HYLA_S ? (double)((const float *)d)[i] : ((const double *)d)[i];
        const double ei = i == 0 ? 0
                          : rt == HYLA_S ? (double)((const float *)e)[i - 1]
                                         : ((const double *)e)[i - 1];
        q = di - x - (i == 0 ? 0 : ei * ei / q);
        if (fabs(q) < pivmin) q = -pivmin;
        c += q < 0;
    }
    return c;
}

/* All of T's eigenpairs by divide and conquer (hyla_eig_stedc: its large
 * merges on the devices) and the wanted ones kept: eigenvalues into w,
 * their vectors into Z (complex types: zero imaginary parts), *mm their
 * number. d and e are left as they were. Returns 0, k > 0 (a QL leaf did
 * not converge: the caller falls back), or an error. */
static int evx_dc(hyla_t *ctx, hyla_dtype t, char range, int64_t n, const void *d, const void *e,
                  double vl, double vu, int64_t il, int64_t iu, lapack_int *mm, void *w, void *Z,
                  int64_t ldz) {
    const hyla_dtype rt = hyla_dtype_real(t);
    const size_t rs = hyla_dtype_size(rt), es = hyla_dtype_size(t);
    void *dd = hyla_malloc((size_t)n * rs), *ee = hyla_calloc((size_t)n, rs);
    void *E = hyla_malloc((size_t)n * (size_t)n * rs);
    int rc = 0;
    if (!dd || !ee || !E) {
        rc = HYLA_ERR_NO_MEMORY;
        goto out;
    }
    memcpy(dd, d, (size_t)n * rs);
    memcpy(ee, e, (size_t)(n - 1) * rs);
    if ((rc = hyla_eig_stedc(ctx, rt, n, dd, ee, E, n))) goto out;
    /* the wanted: a run of the ascending eigenvalues */
    int64_t j0 = 0, j1 = n;
    if (range == 'I') {
        j0 = il - 1, j1 = iu;
    } else if (range == 'V') {
        while (j0 < n && rget(rt, dd, j0) <= vl) j0++;
        j1 = j0;
        while (j1 < n && rget(rt, dd, j1) <= vu) j1++;
    }
#pragma omp parallel for schedule(static) if (n >= 512)
    for (int64_t j = j0; j < j1; j++) {
        const char *src = (const char *)E + (size_t)j * (size_t)n * rs;
        char *dst = (char *)Z + (size_t)(j - j0) * (size_t)ldz * es;
        if (t == rt) {
            memcpy(dst, src, (size_t)n * rs);
        } else {
            for (int64_t i = 0; i < n; i++) {
                memcpy(dst + (size_t)i * es, src + (size_t)i * rs, rs);
                memset(dst + (size_t)i * es + rs, 0, rs);
            }
        }
    }
    memcpy(w, (char *)dd + (size_t)j0 * rs, (size_t)(j1 - j0) * rs);
    *mm = (lapack_int)(j1 - j0);
out:
    hyla_free(E), hyla_free(ee), hyla_free(dd);
    return rc;
}

static double rget(hyla_dtype rt, const void *v, int64_t i) {
    return rt == HYLA_S ? (double)((const float *)v)[i] : ((const double *)v)[i];
}

static void rswap(hyla_dtype rt, void *v, int64_t i, int64_t j) {
    if (rt == HYLA_S) {
        float *f = v, x = f[i];
        f[i] = f[j], f[j] = x;
    } else {
        double *f = v, x = f[i];
        f[i] = f[j], f[j] = x;
    }
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
    if (n > INT_MAX) return HYLA_ERR_UNSUPPORTED; /* the host LAPACK's ?stebz, ?stein */
    if (hyla_nonfinite(t, uplo == 'L' ? 0 : 1, 0, n, n, A, lda)) return HYLA_ERR_NAN;

    const hyla_dtype rt = hyla_dtype_real(t);
    const size_t es = hyla_dtype_size(t), rs = hyla_dtype_size(rt);
    /* many wanted pairs, their number known (range 'A', 'I'): the full
     * solver and the wanted columns kept */
    const int64_t pct = hyla_tuning_for(ctx->devs[0])->eig_subset_dc_pct;
    const int64_t want = range == 'A' ? n : range == 'I' ? iu - il + 1 : -1;
    if (vec && n >= EVX_MRRR_MIN && pct > 0 && want >= 0 && want * 100 >= pct * n)
        return evx_full(ctx, t, uplo, n, A, lda, range == 'I' ? il : 1, want, m, w, Z, ldz);
    const int64_t kd = HYLA_MAX(1, HYLA_MIN((int64_t)EVX_KD, n - 1));
    void *AB = hyla_calloc((size_t)((kd + 1) * n), es), *tau = hyla_calloc((size_t)n, es);
    void *d = hyla_malloc((size_t)n * rs), *e = hyla_calloc((size_t)n, rs);
    /* zeroed: LAPACKE's NaN scan of ?stein's w reads all n entries */
    void *wb = hyla_calloc((size_t)n, rs);
    lapack_int *iblock = hyla_malloc(sizeof *iblock * (size_t)n);
    lapack_int *isplit = hyla_malloc(sizeof *isplit * (size_t)n);
    lapack_int *ifail = hyla_malloc(sizeof *ifail * (size_t)n);
    hyla_sb2st_q *q = NULL;
    int rc = 0;
    if (!AB || !tau || !d || !e || !wb || !iblock || !isplit || !ifail) {
        rc = HYLA_ERR_NO_MEMORY;
        goto out;
    }
    /* 1, 2: A -> band -> T = (d, e) */
    if ((rc = evx_sy2sb(ctx, t, uplo, n, kd, A, lda, AB, tau)) ||
        (rc = evx_sb2st(ctx, t, vec ? 'V' : 'N', n, kd, AB, d, e, vec ? &q : NULL)))
        goto out;
    lapack_int mm = 0, nsplit = 0, info;
    /* 3, 4 for many pairs: all of T's by divide and conquer, the wanted
     * kept (where a leaf fails to converge, as for few) */
    if (vec && n >= EVX_MRRR_MIN && range == 'V') {
        const int64_t inside = evx_count_below(rt, n, d, e, vu) - evx_count_below(rt, n, d, e, vl);
        if (pct > 0 && inside * 100 >= pct * n) {
            rc = evx_dc(ctx, t, range, n, d, e, vl, vu, il, iu, &mm, wb, Z, ldz);
            if (rc < 0) goto out;
            if (rc == 0) {
                if (mm > 0 && (rc = evx_back(ctx, t, q, n, kd, mm, A, lda, tau, Z, ldz))) goto out;
                goto sorted;
            }
            rc = 0, mm = 0;
        }
    }
    /* 3, 4 by MRRR: the wanted pairs of T at once (on copies of d and e,
     * which it destroys); where it fails, bisection and inverse iteration */
    if (vec && n >= EVX_MRRR_MIN) {
        void *dc = hyla_malloc((size_t)n * rs), *ec = hyla_calloc((size_t)n, rs);
        lapack_int *isuppz = hyla_malloc(sizeof *isuppz * (size_t)(2 * n));
        if (!dc || !ec || !isuppz) {
            hyla_free(dc), hyla_free(ec), hyla_free(isuppz);
            rc = HYLA_ERR_NO_MEMORY;
            goto out;
        }
        memcpy(dc, d, (size_t)n * rs);
        memcpy(ec, e, (size_t)(n - 1) * rs);
        const lapack_int nzc = range == 'I' ? (lapack_int)(iu - il + 1) : (lapack_int)n;
        info = evx_stemr(t, range, (lapack_int)n, dc, ec, vl, vu, (lapack_int)il, (lapack_int)iu,
                         &mm, wb, Z, (lapack_int)ldz, nzc, isuppz);
        hyla_free(dc), hyla_free(ec), hyla_free(isuppz);
        if (info == 0) {
            if (mm > 0 && (rc = evx_back(ctx, t, q, n, kd, mm, A, lda, tau, Z, ldz))) goto out;
            goto sorted;
        }
        mm = 0;
        memset(wb, 0, (size_t)n * rs);
    }
    /* 3: the wanted eigenvalues, grouped by split block */
    info = evx_stebz(rt, range, (lapack_int)n, vl, vu, (lapack_int)il, (lapack_int)iu,
                                d, e, &mm, &nsplit, wb, iblock, isplit);
    if (info < 0) {
        rc = HYLA_ERR_INTERNAL;
        goto out;
    }
    if (info > 0) { /* bisection did not converge for some (LAPACK: info as ?syevx) */
        rc = (int)info;
        goto out;
    }
    /* 4: their eigenvectors of T, then of A on the mm columns */
    if (vec && mm > 0) {
        info = evx_stein(t, (lapack_int)n, d, e, mm, wb, iblock, isplit, Z, (lapack_int)ldz,
                         ifail);
        if (info < 0) {
            rc = HYLA_ERR_INTERNAL;
            goto out;
        }
        if (info > 0) { /* info vectors did not converge (LAPACK ?syevx's meaning) */
            rc = (int)info;
            goto out;
        }
        if ((rc = evx_back(ctx, t, q, n, kd, mm, A, lda, tau, Z, ldz))) goto out;
    }
    /* ascending order (selection sort as LAPACK's ?syevx: few swaps; MRRR's
     * are already) */
    for (int64_t j = 0; j + 1 < mm; j++) {
        int64_t k = j;
        for (int64_t i = j + 1; i < mm; i++)
            if (rget(rt, wb, i) < rget(rt, wb, k)) k = i;
        if (k == j) continue;
        rswap(rt, wb, j, k);
        if (vec) {
            char *zj = (char *)Z + (size_t)j * (size_t)ldz * es, *zk = (char *)Z + (size_t)k * (size_t)ldz * es;
            for (size_t b = 0; b < (size_t)n * es; b++) {
                char x = zj[b];
                zj[b] = zk[b], zk[b] = x;
            }
        }
    }
sorted:
    memcpy(w, wb, (size_t)mm * rs);
    *m = mm;
out:
    hyla_sb2st_q_free(&q);
    hyla_free(AB), hyla_free(tau), hyla_free(d), hyla_free(e), hyla_free(wb);
    hyla_free(iblock), hyla_free(isplit), hyla_free(ifail);
    return rc;
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
