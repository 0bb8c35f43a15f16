/* Bisection tests for one real precision (included by test_bisect.c with
 * prec.h set). Reference: LAPACKE ?sterf. */

#include "t_tridiag_util.c"

/* The test matrices: class c of order n into (d, e); the repeated class,
 * bisection's own, is diagonal with the values -1.5, -0.5, 0.5, 1.5 over
 * and over. */
static void PN(tb_make)(int c, int64_t n, R *d, R *e, unsigned long long *s) {
    if (c != MAT_REPEAT) {
        PN(tri_make)(c, n, d, e, s);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        d[i] = (R)((double)(i % 4) - 1.5);
        if (i + 1 < n) e[i] = (R)0;
    }
}

static void PN(tb_case)(hyla_t *h, int c, int64_t n, unsigned long long *s) {
    R *d0 = malloc(sizeof(R) * (size_t)(n + 1)), *e0 = malloc(sizeof(R) * (size_t)(n + 1));
    R *d = malloc(sizeof(R) * (size_t)(n + 1)), *e = malloc(sizeof(R) * (size_t)(n + 1));
    R *wr = malloc(sizeof(R) * (size_t)(n + 1)), *er = malloc(sizeof(R) * (size_t)(n + 1));
    PN(tb_make)(c, n, d0, e0, s);
    const double tn = PN(tri_norm)(n, d0, e0);
    char what[96];
    snprintf(what, sizeof what, "%c n=%lld %s", CH, (long long)n, mat_name[c]);

    memcpy(wr, d0, sizeof(R) * (size_t)n);
    memcpy(er, e0, sizeof(R) * (size_t)(n > 0 ? n - 1 : 0));
    int ri = n > 0 ? LP(sterf)((lapack_int)n, wr, er) : 0;
    CHECK(ri == 0, "%s: LAPACKE sterf info %d", what, ri);

    memcpy(d, d0, sizeof(R) * (size_t)n);
    memcpy(e, e0, sizeof(R) * (size_t)(n > 0 ? n - 1 : 0));
    d[n] = (R)777; /* past the end: untouched */
    int rc = PN(sterf_bisect)(h, n, d, n > 1 ? e : NULL);
    CHECK(rc == 0, "%s: sterf_bisect returned %d", what, rc);
    double m = 0;
    int sorted = 1, equal = 1;
    for (int64_t i = 0; i < n; i++) {
        m = fmax(m, fabs((double)d[i] - (double)wr[i]));
        if (i > 0) sorted &= d[i - 1] <= d[i];
        /* exactly equal eigenvalues (repeated diagonal entries, e = 0) */
        if (i > 0 && (c == MAT_REPEAT || c == MAT_ZERO) && wr[i - 1] == wr[i])
            equal &= d[i - 1] == d[i];
    }
    const double err = m == 0 ? 0 : tn == 0 ? INFINITY : m / ((double)n * tn * EPS);
    CHECK(err < THRESH, "%s: eigenvalue error %.3g (n |T| eps)", what, err);
    CHECK(sorted, "%s: not ascending", what);
    CHECK(equal, "%s: equal eigenvalues differ", what);
    CHECK(d[n] == (R)777 && (n < 2 || memcmp(e, e0, sizeof(R) * (size_t)(n - 1)) == 0),
          "%s: e modified or d overrun", what);
    if (c != MAT_HUGE && c != MAT_TINY && n > 0) {
        /* LAPACK's bisection (?stebz, default tolerance; its unscaled e^2
         * leaves out the huge and tiny matrices): both within a few |T| eps,
         * with no factor n */
        R *ws = malloc(sizeof(R) * (size_t)n);
        lapack_int *ib = malloc(sizeof *ib * (size_t)n), *is = malloc(sizeof *is * (size_t)n);
        lapack_int m_found = 0, nsplit = 0;
        ri = LP(stebz)('A', 'E', (lapack_int)n, 0, 0, 0, 0, 0, d0, e0, &m_found, &nsplit, ws, ib,
                       is);
        double x = 0;
        for (int64_t i = 0; i < n; i++) x = fmax(x, fabs((double)d[i] - (double)ws[i]));
        CHECK(ri == 0 && m_found == n && x <= 8 * tn * EPS,
              "%s: stebz info %d, error %.3g against stebz (|T| eps)", what, ri, x / (tn * EPS));
        free(ws);
        free(ib);
        free(is);
    }
    if (c == MAT_TOEPLITZ && n > 0) { /* exact: 2 - 2 cos(k pi / (n + 1)) */
        double x = 0;
        for (int64_t i = 0; i < n; i++)
            x = fmax(x, fabs((double)d[i] - (2 - 2 * cos((double)(i + 1) * M_PI / (double)(n + 1)))));
        CHECK(x <= 8 * tn * EPS, "%s: error %.3g against the exact eigenvalues (|T| eps)", what,
              x / (tn * EPS));
    }
    leak_check(h, what);
    free(d0);
    free(e0);
    free(d);
    free(e);
    free(wr);
    free(er);
}

/* NaN / Inf input, bad arguments, quick returns. */
static void PN(tb_bad)(hyla_t *h) {
    R d[8], e[8];
    for (int where = 0; where < 4; where++) {
        PN(tri_nonfinite)(where, d, e);
        R dd[8];
        memcpy(dd, d, sizeof d);
        int rc = PN(sterf_bisect)(h, 8, dd, e);
        CHECK(rc == HYLA_ERR_NAN && memcmp(dd, d, sizeof d) == 0,
              "%c sterf_bisect non-finite input (%d): %d", CH, where, rc);
    }
    d[0] = (R)NAN;
    CHECK(PN(sterf_bisect)(h, 1, d, NULL) == HYLA_ERR_NAN, "%c sterf_bisect n=1 NaN", CH);
    d[0] = 3;
    CHECK(PN(sterf_bisect)(h, 1, d, NULL) == 0 && fabs(d[0] - 3) <= 4 * 3 * EPS,
          "%c sterf_bisect n=1: %g", CH, (double)d[0]);
    CHECK(PN(sterf_bisect)(h, 0, NULL, NULL) == 0, "%c sterf_bisect n=0", CH);
    CHECK(PN(sterf_bisect)(NULL, 2, d, e) == HYLA_ERR_INVALID, "%c sterf_bisect NULL ctx", CH);
    CHECK(PN(sterf_bisect)(h, -1, d, e) == -2, "%c sterf_bisect n<0", CH);
    CHECK(PN(sterf_bisect)(h, 2, NULL, e) == -3, "%c sterf_bisect d NULL", CH);
    CHECK(PN(sterf_bisect)(h, 2, d, NULL) == -4, "%c sterf_bisect e NULL", CH);
    leak_check(h, "bad input");
}

/* Large orders without a LAPACK reference (whose bisection would take
 * minutes there): the (-1, 2, -1) matrix against its exact eigenvalues
 * 2 - 2 cos(k pi / (n + 1)), clustered at both ends. */
static void PN(tb_toeplitz)(hyla_t *h, int64_t n) {
    R *d = malloc(sizeof(R) * (size_t)(n + 1)), *e = malloc(sizeof(R) * (size_t)n);
    PN(tb_make)(MAT_TOEPLITZ, n, d, e, NULL);
    const double tn = PN(tri_norm)(n, d, e);
    d[n] = (R)777;
    const int rc = PN(sterf_bisect)(h, n, d, e);
    double x = 0;
    int sorted = 1;
    for (int64_t i = 0; i < n; i++) {
        x = fmax(x, fabs((double)d[i] - (2 - 2 * cos((double)(i + 1) * M_PI / (double)(n + 1)))));
        if (i > 0) sorted &= d[i - 1] <= d[i];
    }
    CHECK(rc == 0 && x <= 8 * tn * EPS && sorted && d[n] == (R)777,
          "%c n=%lld toeplitz: rc %d, error %.3g (|T| eps), ascending %d", CH, (long long)n, rc,
          x / (tn * EPS), sorted);
    free(d);
    free(e);
}

static void PN(tb_all)(hyla_t *h, unsigned long long *s) {
    static const int64_t sizes[] = {0, 1, 2, 3, 17, 64, 257};
    for (int c = 0; c < MAT_COUNT; c++)
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) PN(tb_case)(h, c, sizes[k], s);
    PN(tb_case)(h, MAT_RANDOM, 2000, s);
    PN(tb_case)(h, MAT_GLUED, 601, s);
    /* on a GPU, every lane count of the kernel (k_bisect.cu: about 64k
     * threads in all, so 8 lanes an index up to n = 8192, then 4, 2 and
     * 1); the host cores would take minutes over these */
    hyla_device_info info;
    if (hyla_get_device_info(h, 0, &info) == 0 && info.kind != HYLA_DEVICE_HOST) {
        PN(tb_case)(h, MAT_RANDOM, 9001, s);
        PN(tb_case)(h, MAT_GLUED, 9001, s);
        const int64_t big[] = {9001, 20000, 70000};
        for (size_t k = 0; k < sizeof big / sizeof *big; k++) PN(tb_toeplitz)(h, big[k]);
    }
    PN(tb_bad)(h);
}

#undef LP
#undef HUGE_SCALE
#undef EPS
