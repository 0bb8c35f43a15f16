/* Cholesky public drivers: argument checks in LAPACK order, quick returns,
 * then the multi-device algorithm (pchol.c); t_chol.c once per precision. */
#include "chol/pchol.h"
#include <ctype.h>

static int parse_uplo(char c, int *lower) {
    switch (toupper((unsigned char)c)) {
    case 'L': *lower = 1; return 0;
    case 'U': *lower = 0; return 0;
    default: return -1;
    }
}

/* potrf: 1 uplo, 2 n, 3 A, 4 lda */
static int potrf_check(char uplo, int64_t n, const void *A, int64_t lda, int *lower) {
    if (parse_uplo(uplo, lower)) return -1;
    if (n < 0) return -2;
    if (!A && n > 0) return -3;
    if (lda < HYLA_MAX(1, n)) return -4;
    if (!hyla_size_ok(n, n, lda)) return -2;
    return 0;
}

/* potrs/posv: 1 uplo, 2 n, 3 nrhs, 4 A, 5 lda, 6 B, 7 ldb */
static int potrs_check(char uplo, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                       const void *B, int64_t ldb, int *lower) {
    if (parse_uplo(uplo, lower)) return -1;
    if (n < 0) return -2;
    if (nrhs < 0) return -3;
    if (!A && n > 0) return -4;
    if (lda < HYLA_MAX(1, n)) return -5;
    if (!B && n > 0 && nrhs > 0) return -6;
    if (ldb < HYLA_MAX(1, n)) return -7;
    if (!hyla_size_ok(n, n, lda)) return -2;
    if (!hyla_size_ok(n, nrhs, ldb)) return -3;
    return 0;
}

static int chol_run(hyla_t *ctx, hyla_dtype t, int lower, int64_t n, void *A, int64_t lda,
                    int64_t nrhs, void *B, int64_t ldb, int factor, int solve, int dev) {
    hyla_chol_job job = {.t = t, .lower = lower, .n = n, .A = A, .lda = lda, .nrhs = nrhs,
                         .B = B, .ldb = ldb, .factor = factor, .solve = solve, .dev = dev};
    return hyla_pchol(ctx, &job);
}

#define HYLA_TEMPLATE "chol/t_chol.c"
#include "base/each_prec.h"
