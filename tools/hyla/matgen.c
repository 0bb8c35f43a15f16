/* Host matrices for the tester. Random values come from splitmix64 used as a
 * counter-based generator: the state of column j is a hash of (seed, id, j)
 * and real component r of the column is a hash of state + r, so any block of
 * any column can be generated on its own, in parallel, with the same result. */
#include "matgen.h"

#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

bool mat_bytes(hyla_dtype t, int64_t rows, int64_t cols, size_t *bytes) {
    size_t es = dtype_size(t);
    if (rows < 0 || cols < 0) return false;
    if ((uint64_t)rows > SIZE_MAX / es) return false;
    if (cols != 0 && (uint64_t)rows * es > SIZE_MAX / (uint64_t)cols) return false;
    *bytes = (size_t)rows * es * (size_t)cols;
    return true;
}

bool host_fits(double bytes, const char *what) {
    double ram = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    if (ram <= 0 || bytes <= ram) return true;
    fprintf(stderr, "hyla: %s need %.2f GiB, the host has %.2f GiB\n", what, bytes / (1 << 30),
            ram / (1 << 30));
    return false;
}

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
