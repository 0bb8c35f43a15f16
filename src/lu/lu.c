/* LU public drivers: argument checks in LAPACK order, quick returns, then
 * the multi-device algorithm (plu.c); t_lu.c once per precision. */
#include "lu/plu.h"
#include <ctype.h>

static int parse_trans(char c, hyla_op *op) {
    switch (toupper((unsigned char)c)) {
    case 'N': *op = HYLA_NOTRANS; return 0;
    case 'T': *op = HYLA_TRANS; return 0;
    case 'C': *op = HYLA_CONJTRANS; return 0;
    default: return -1;
    }
}

/* getrf: 1 m, 2 n, 3 A, 4 lda, 5 ipiv (pivot only) */
static int getrf_check(int64_t m, int64_t n, const void *A, int64_t lda, const int64_t *ipiv,
                       int pivot) {
    if (m < 0) return -1;
    if (n < 0) return -2;
    if (!A && m > 0 && n > 0) return -3;
    if (lda < HYLA_MAX(1, m)) return -4;
    if (pivot && !ipiv && m > 0 && n > 0) return -5;
    if (!hyla_size_ok(m, n, lda)) return -2;
    return 0;
}

/* getrs: 1 trans, 2 n, 3 nrhs, 4 A, 5 lda, [6 ipiv], 6|7 B, 7|8 ldb; gesv
 * is the same without trans (shift = 1). Pivots must lie in 1..n. */
static int getrs_check(int shift, char trans, int64_t n, int64_t nrhs, const void *A,
                       int64_t lda, const int64_t *ipiv, int pivot, const void *B, int64_t ldb,
                       hyla_op *op) {
    const int p = pivot ? 1 : 0;
    if (!shift && parse_trans(trans, op)) return -1;
    if (n < 0) return -(2 - shift);
    if (nrhs < 0) return -(3 - shift);
    if (!A && n > 0) return -(4 - shift);
    if (lda < HYLA_MAX(1, n)) return -(5 - shift);
    if (pivot && !ipiv && n > 0) return -(6 - shift);
    if (!B && n > 0 && nrhs > 0) return -(6 + p - shift);
    if (ldb < HYLA_MAX(1, n)) return -(7 + p - shift);
    if (!hyla_size_ok(n, n, lda)) return -(2 - shift);
    if (!hyla_size_ok(n, nrhs, ldb)) return -(3 - shift);
    return 0;
}

static int pivots_ok(int64_t n, const int64_t *ipiv) {
    for (int64_t i = 0; i < n; i++)
        if (ipiv[i] < 1 || ipiv[i] > n) return 0;
    return 1;
}

/* gesv's input check (hyla.h, "NaN and Inf"): 1 when A or B holds NaN or Inf */
static int gesv_nonfinite(hyla_dtype t, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                          const void *B, int64_t ldb) {
    return hyla_nonfinite(t, -1, 0, n, n, A, lda) || hyla_nonfinite(t, -1, 0, n, nrhs, B, ldb);
}

static int lu_run(hyla_t *ctx, hyla_dtype t, int64_t m, int64_t n, void *A, int64_t lda,
                  int pivot, int64_t *ipiv, hyla_op trans, int64_t nrhs, void *B, int64_t ldb,
                  int factor, int solve, int dev) {
    hyla_lu_job job = {.t = t, .m = m, .n = n, .A = A, .lda = lda, .pivot = pivot, .ipiv = ipiv,
                       .trans = trans, .nrhs = nrhs, .B = B, .ldb = ldb, .factor = factor,
                       .solve = solve, .dev = dev};
    return hyla_plu(ctx, &job);
}

#define HYLA_TEMPLATE "lu/t_lu.c"
#include "base/each_prec.h"
