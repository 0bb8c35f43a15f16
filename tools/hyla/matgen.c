/* Host matrices for the tester. Random values come from splitmix64 used as a
 * counter-based generator: the state of column j is a hash of (seed, id, j)
 * and real component r of the column is a hash of state + r, so any block of
 * any column can be generated on its own, in parallel, with the same result. */
#include "matgen.h"

#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GOLDEN 0x9e3779b97f4a7c15ULL

enum { FILL_BLOCK = 1 << 16, NORM_BLOCK = 4096 };

size_t dtype_size(hyla_dtype t) {
    switch (t) {
    case HYLA_S: return sizeof(float);
    case HYLA_D: return sizeof(double);
    case HYLA_C: return sizeof(hyla_complex_float);
    case HYLA_Z: return sizeof(hyla_complex_double);
    }
    return 0;
}

char dtype_char(hyla_dtype t) { return "sdcz"[t]; }

bool dtype_is_complex(hyla_dtype t) { return t == HYLA_C || t == HYLA_Z; }

double dtype_eps(hyla_dtype t) {
    return (t == HYLA_S || t == HYLA_C) ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
}

double complex mat_elem(hyla_dtype t, const void *v, int64_t i) {
    switch (t) {
    case HYLA_S: return ((const float *)v)[i];
    case HYLA_D: return ((const double *)v)[i];
    case HYLA_C: return ((const hyla_complex_float *)v)[i];
    case HYLA_Z: return ((const hyla_complex_double *)v)[i];
    }
    return NAN;
}

bool mat_bytes(hyla_dtype t, int64_t rows, int64_t cols, size_t *bytes) {
    size_t es = dtype_size(t);
    if (rows < 0 || cols < 0) return false;
    if ((uint64_t)rows > SIZE_MAX / es) return false;
    if (cols != 0 && (uint64_t)rows * es > SIZE_MAX / (uint64_t)cols) return false;
    *bytes = (size_t)rows * es * (size_t)cols;
    return true;
}

bool host_fits_n(double bytes, const char *what, int64_t n, int power) {
    double ram = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (ram <= 0 || bytes <= ram) return true;
    fprintf(stderr, "hyla: %s need %.2f GiB, the host has %.2f GiB", what, bytes / (1 << 30),
            ram / (1 << 30));
    if (n > 0 && power > 0)
        fprintf(stderr, ": n up to about %.0f fits (n = %lld asked)", floor((double)n *
                pow(ram / bytes, 1.0 / power)), (long long)n);
    fputc('\n', stderr);
    return false;
}

bool host_fits(double bytes, const char *what) { return host_fits_n(bytes, what, 0, 0); }

void *mat_alloc(hyla_dtype t, int64_t rows, int64_t cols, bool zero, const char *what) {
    size_t bytes;
    if (!mat_bytes(t, rows, cols, &bytes)) {
        fprintf(stderr, "hyla: cannot allocate %s: %lld x %lld is too large\n", what,
                (long long)rows, (long long)cols);
        return NULL;
    }
    if (bytes == 0) bytes = dtype_size(t);
    void *p = zero ? calloc(1, bytes) : malloc(bytes);
    if (!p)
        fprintf(stderr, "hyla: cannot allocate %s: %lld x %lld %c matrix (%.2f GiB): out of memory\n",
                what, (long long)rows, (long long)cols, dtype_char(t),
                (double)bytes / (1 << 30));
    return p;
}

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Odd numerators below 2^bits in magnitude: exact in float (24) and double
 * (53), strictly inside (-1, 1). */
static inline double uniform_d(uint64_t state, uint64_t r) {
    int64_t x = (int64_t)(mix64(state + (r + 1) * GOLDEN) >> 11);
    return (double)(2 * x + 1 - (INT64_C(1) << 53)) * 0x1p-53;
}

static inline float uniform_s(uint64_t state, uint64_t r) {
    int32_t x = (int32_t)(mix64(state + (r + 1) * GOLDEN) >> 40);
    return (float)(2 * x + 1 - (INT32_C(1) << 24)) * 0x1p-24f;
}

/* Real components r0 <= r < r1 of one column: a complex entry i is the pair
 * of components 2i (real part) and 2i + 1 (imaginary part). */
static void fill_segment(hyla_dtype t, void *col, int64_t r0, int64_t r1, uint64_t state) {
    if (t == HYLA_S || t == HYLA_C)
        for (int64_t r = r0; r < r1; r++) ((float *)col)[r] = uniform_s(state, (uint64_t)r);
    else
        for (int64_t r = r0; r < r1; r++) ((double *)col)[r] = uniform_d(state, (uint64_t)r);
}

void mat_fill_random(hyla_dtype t, int64_t rows, int64_t cols, void *a, int64_t lda,
                     uint64_t seed, uint64_t id) {
    size_t es = dtype_size(t);
    int64_t reals = dtype_is_complex(t) ? 2 * rows : rows; /* per column */
    int64_t per_col = (reals + FILL_BLOCK - 1) / FILL_BLOCK;
    int64_t blocks = per_col * cols;
    uint64_t base = mix64(mix64(seed) ^ (id + 1) * GOLDEN);
#pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < blocks; b++) {
        int64_t j = b / per_col, r0 = (b % per_col) * FILL_BLOCK;
        int64_t r1 = reals - r0 < FILL_BLOCK ? reals : r0 + FILL_BLOCK;
        fill_segment(t, (char *)a + (size_t)j * (size_t)lda * es, r0, r1,
                     mix64(base + (uint64_t)j * GOLDEN));
    }
}

void mat_copy(hyla_dtype t, int64_t rows, int64_t cols, const void *src, int64_t lds, void *dst,
              int64_t ldd) {
    size_t es = dtype_size(t);
    if (rows <= 0) return; /* nothing to copy; src may be NULL */
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < cols; j++)
        memcpy((char *)dst + (size_t)j * (size_t)ldd * es,
               (const char *)src + (size_t)j * (size_t)lds * es, (size_t)rows * es);
}

/* Stores re + i im (im ignored for real types) as element i of a column. */
static inline void store(hyla_dtype t, void *col, int64_t i, double re, double im) {
    switch (t) {
    case HYLA_S: ((float *)col)[i] = (float)re; break;
    case HYLA_D: ((double *)col)[i] = re; break;
    case HYLA_C: ((hyla_complex_float *)col)[i] = (float)re + (float)im * I; break;
    case HYLA_Z: ((hyla_complex_double *)col)[i] = re + im * I; break;
    }
}

void mat_fill_hpd(hyla_dtype t, int64_t n, void *a, int64_t lda, uint64_t seed, uint64_t id) {
    size_t es = dtype_size(t);
    bool cplx = dtype_is_complex(t), single = t == HYLA_S || t == HYLA_C;
    const double scale = cplx ? 1 / sqrt(2.0) : 1.0;
    uint64_t base = mix64(mix64(seed) ^ (id + 1) * GOLDEN);
#pragma omp parallel for schedule(dynamic, 16)
    for (int64_t j = 0; j < n; j++) {
        void *col = (char *)a + (size_t)j * (size_t)lda * es;
        uint64_t sj = mix64(base + (uint64_t)j * GOLDEN);
        for (int64_t i = 0; i < n; i++) {
            /* entry (hi, lo) of the lower triangle comes from column lo's stream */
            int64_t lo = i < j ? i : j, hi = i < j ? j : i;
            uint64_t st = lo == j ? sj : mix64(base + (uint64_t)lo * GOLDEN);
            uint64_t r = cplx ? 2 * (uint64_t)hi : (uint64_t)hi;
            double re = single ? uniform_s(st, r) : uniform_d(st, r);
            double im = !cplx ? 0 : single ? uniform_s(st, r + 1) : uniform_d(st, r + 1);
            if (i == j)
                store(t, col, i, (double)n + re, 0);
            else
                store(t, col, i, scale * re, i < j ? -scale * im : scale * im);
        }
    }
}

int mat_fill_hpd_cond(hyla_dtype t, int64_t n, void *a, int64_t lda, double cond, uint64_t seed,
                      uint64_t id) {
    if (n > MAT_COND_MAX_N) {
        fprintf(stderr, "hyla: --cond builds A = Q D Q^H in O(n^3) time and takes n <= %d "
                "(n = %lld)\n", MAT_COND_MAX_N, (long long)n);
        return -1;
    }
    if (n == 0) return 0;
    bool cplx = dtype_is_complex(t);
    hyla_dtype wt = cplx ? HYLA_Z : HYLA_D;
    size_t es = dtype_size(t), wes = dtype_size(wt);
    int in = (int)n, rc = -1;
    void *q = mat_alloc(wt, n, n, false, "the --cond unitary factor");
    void *c = q ? mat_alloc(wt, n, n, false, "the --cond matrix") : NULL;
    void *tau = c ? mat_alloc(wt, n, 1, false, "the --cond reflectors") : NULL;
    if (!tau) goto out;
    mat_fill_random(wt, n, n, q, n, seed, id);
    lapack_int info = cplx ? LAPACKE_zgeqrf(LAPACK_COL_MAJOR, in, in, q, in, tau)
                           : LAPACKE_dgeqrf(LAPACK_COL_MAJOR, in, in, q, in, tau);
    if (!info)
        info = cplx ? LAPACKE_zungqr(LAPACK_COL_MAJOR, in, in, in, q, in, tau)
                    : LAPACKE_dorgqr(LAPACK_COL_MAJOR, in, in, in, q, in, tau);
    if (info) {
        fprintf(stderr, "hyla: --cond: the QR factorization of the random matrix failed (LAPACKE "
                "info %d)\n", (int)info);
        goto out;
    }
    /* W = Q D^(1/2), then A = W W^H in the lower triangle of c */
    for (int64_t j = 0; j < n; j++) {
        double sv = n > 1 ? pow(cond, -0.5 * (double)j / (double)(n - 1)) : 1;
        void *qj = (char *)q + (size_t)j * (size_t)n * wes;
        if (cplx) cblas_zdscal(in, sv, qj, 1);
        else cblas_dscal(in, sv, qj, 1);
    }
    if (cplx) cblas_zherk(CblasColMajor, CblasLower, CblasNoTrans, in, in, 1.0, q, in, 0.0, c, in);
    else cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, in, in, 1.0, q, in, 0.0, c, in);
#pragma omp parallel for schedule(dynamic, 16)
    for (int64_t j = 0; j < n; j++) {
        void *col = (char *)a + (size_t)j * (size_t)lda * es;
        for (int64_t i = 0; i < n; i++) {
            int64_t lo = i < j ? i : j, hi = i < j ? j : i;
            size_t k = (size_t)hi + (size_t)lo * (size_t)n;
            double complex v = cplx ? ((const double complex *)c)[k] : ((const double *)c)[k];
            if (i == j) v = creal(v);
            else if (i < j) v = conj(v);
            store(t, col, i, creal(v), cimag(v));
        }
    }
    rc = 0;
out:
    free(q);
    free(c);
    free(tau);
    return rc;
}

/* acc[i] += |col[i]| for 0 <= i < len. */
static void add_abs(hyla_dtype t, const void *col, int64_t len, double *acc) {
    switch (t) {
    case HYLA_S:
        for (int64_t i = 0; i < len; i++) acc[i] += fabsf(((const float *)col)[i]);
        break;
    case HYLA_D:
        for (int64_t i = 0; i < len; i++) acc[i] += fabs(((const double *)col)[i]);
        break;
    case HYLA_C:
        for (int64_t i = 0; i < len; i++) acc[i] += cabsf(((const hyla_complex_float *)col)[i]);
        break;
    case HYLA_Z:
        for (int64_t i = 0; i < len; i++) acc[i] += cabs(((const hyla_complex_double *)col)[i]);
        break;
    }
}

/* Sum of |col[i]| for 0 <= i < len. */
static double sum_abs(hyla_dtype t, const void *col, int64_t len) {
    double s = 0;
    switch (t) {
    case HYLA_S:
        for (int64_t i = 0; i < len; i++) s += fabsf(((const float *)col)[i]);
        break;
    case HYLA_D:
        for (int64_t i = 0; i < len; i++) s += fabs(((const double *)col)[i]);
        break;
    case HYLA_C:
        for (int64_t i = 0; i < len; i++) s += cabsf(((const hyla_complex_float *)col)[i]);
        break;
    case HYLA_Z:
        for (int64_t i = 0; i < len; i++) s += cabs(((const hyla_complex_double *)col)[i]);
        break;
    }
    return s;
}

double mat_norm_herm_inf(hyla_dtype t, char uplo, int64_t n, const void *a, int64_t lda) {
    size_t es = dtype_size(t);
    bool lower = uplo == 'L' || uplo == 'l';
    int64_t tasks = (n + NORM_BLOCK - 1) / NORM_BLOCK;
    double best = 0;
    int has_nan = 0;
    /* Row i of A: its stored part in row i of the triangle (summed by row
     * blocks across the columns) plus the stored part of column i (the
     * mirror of the rest of the row). */
#pragma omp parallel for schedule(dynamic) reduction(max : best) reduction(|| : has_nan)
    for (int64_t b = 0; b < tasks; b++) {
        double acc[NORM_BLOCK] = {0};
        int64_t i0 = b * NORM_BLOCK, i1 = n - i0 < NORM_BLOCK ? n : i0 + NORM_BLOCK;
        int64_t j0 = lower ? 0 : i0, j1 = lower ? i1 : n;
        for (int64_t j = j0; j < j1; j++) {
            /* rows of [i0, i1) in the stored triangle of column j */
            int64_t r0 = lower ? (j > i0 ? j : i0) : i0;
            int64_t r1 = lower ? i1 : (j + 1 < i1 ? j + 1 : i1);
            if (r1 > r0)
                add_abs(t, (const char *)a + ((size_t)j * (size_t)lda + (size_t)r0) * es, r1 - r0,
                        acc + (r0 - i0));
        }
        for (int64_t i = i0; i < i1; i++) {
            const char *col = (const char *)a + (size_t)i * (size_t)lda * es;
            double s = acc[i - i0] + (lower ? sum_abs(t, col + (size_t)(i + 1) * es, n - i - 1)
                                            : sum_abs(t, col, i));
            has_nan = has_nan || isnan(s);
            best = s > best ? s : best;
        }
    }
    return has_nan ? NAN : best;
}

double mat_norm_herm_fro(hyla_dtype t, char uplo, int64_t n, const void *a, int64_t lda) {
    size_t es = dtype_size(t);
    bool lower = uplo == 'L' || uplo == 'l';
    double ss = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : ss)
    for (int64_t j = 0; j < n; j++) {
        const char *col = (const char *)a + (size_t)j * (size_t)lda * es;
        int64_t r0 = lower ? j : 0, r1 = lower ? n : j + 1;
        for (int64_t i = r0; i < r1; i++) {
            double v;
            switch (t) {
            case HYLA_S: v = ((const float *)col)[i]; v *= v; break;
            case HYLA_D: v = ((const double *)col)[i]; v *= v; break;
            case HYLA_C: v = cabsf(((const hyla_complex_float *)col)[i]); v *= v; break;
            default: v = cabs(((const hyla_complex_double *)col)[i]); v *= v; break;
            }
            ss += i == j ? v : 2 * v;
        }
    }
    return sqrt(ss);
}

double mat_norm_inf(hyla_dtype t, char trans, int64_t rows, int64_t cols, const void *a,
                    int64_t lda) {
    size_t es = dtype_size(t);
    bool by_rows = trans == 'N' || trans == 'n';
    /* Rows of op(A) are rows of A for 'N' (summed in blocks of NORM_BLOCK
     * rows across all columns) and columns of A for 'T'/'C'. */
    int64_t tasks = by_rows ? (rows + NORM_BLOCK - 1) / NORM_BLOCK : cols;
    double best = 0;
    int has_nan = 0;
#pragma omp parallel for schedule(static) reduction(max : best) reduction(|| : has_nan)
    for (int64_t b = 0; b < tasks; b++) {
        if (by_rows) {
            double acc[NORM_BLOCK] = {0};
            int64_t i0 = b * NORM_BLOCK;
            int64_t len = rows - i0 < NORM_BLOCK ? rows - i0 : NORM_BLOCK;
            for (int64_t j = 0; j < cols; j++)
                add_abs(t, (const char *)a + ((size_t)j * (size_t)lda + (size_t)i0) * es, len, acc);
            for (int64_t i = 0; i < len; i++) {
                has_nan = has_nan || isnan(acc[i]);
                best = acc[i] > best ? acc[i] : best;
            }
        } else {
            double s = sum_abs(t, (const char *)a + (size_t)b * (size_t)lda * es, rows);
            has_nan = has_nan || isnan(s);
            best = s > best ? s : best;
        }
    }
    return has_nan ? NAN : best;
}

double mat_max_abs(hyla_dtype t, const void *v, int64_t len) {
    double m = 0;
    for (int64_t i = 0; i < len; i++) {
        double a = cabs(mat_elem(t, v, i));
        if (isnan(a)) return NAN;
        m = a > m ? a : m;
    }
    return m;
}

double scaled_error(double diff, double scale) {
    return diff == 0 && !isnan(scale) ? 0 : diff / scale;
}

double solve_error(hyla_dtype t, int64_t n, int64_t nrhs, const void *r, int64_t ldr,
                   const void *x, int64_t ldx, double norm_a) {
    const size_t es = dtype_size(t);
    double worst = 0;
    for (int64_t j = 0; j < nrhs; j++) {
        double rn = mat_max_abs(t, (const char *)r + (size_t)j * (size_t)ldr * es, n);
        double xn = mat_max_abs(t, (const char *)x + (size_t)j * (size_t)ldx * es, n);
        double e = scaled_error(rn, (double)n * norm_a * xn * dtype_eps(t));
        if (!(e <= worst)) worst = e; /* NaN sticks */
    }
    return worst;
}
