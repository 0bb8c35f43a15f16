/* Sizes whose matrix cannot exist (hyla.h, "Sizes"): every driver that
 * takes a matrix refuses an order, a column count or a leading dimension
 * that would make its argument span more than 2^59 elements with -i for
 * the size argument, at once and before touching the (tiny) buffers it was
 * given, on the devices of HYLA_DEVICES: 2^40 (a matrix of 2^80 elements),
 * INT64_MAX (no overflow on the way) and a huge leading dimension with a
 * small order. The largest size that can exist still passes the check
 * (n = 0 work aside): hyla_size_ok's boundary. */
#include "hyla.h"
#include "test_util.h"
#include "base/base.h"
#include <stdint.h>
#include <string.h>

/* A buffer the calls may never read past its first few elements: were a
 * routine to start work on the absurd size, it would read outside and the
 * sanitizers (or the clock) would say so. */
static double buf[64], buf2[64], w[64];
static int64_t ipiv[64];

static void boundary(void) {
    const int64_t M = HYLA_MAX_ELEMS;
    CHECK(hyla_size_ok(M, 1, M), "one column of 2^59 elements fits");
    CHECK(!hyla_size_ok(M + 1, 1, M + 1), "2^59 + 1 rows do not");
    CHECK(hyla_size_ok(1 << 20, (int64_t)1 << 39, 1 << 20), "2^20 x 2^39 fits");
    CHECK(!hyla_size_ok(1 << 20, ((int64_t)1 << 39) + 1, 1 << 20), "one column more does not");
    CHECK(!hyla_size_ok(2, 2, INT64_MAX), "ld INT64_MAX with two columns does not");
    CHECK(hyla_size_ok(2, 1, INT64_MAX) == 0, "ld past 2^59 does not");
    CHECK(hyla_size_ok(0, INT64_MAX, INT64_MAX) && hyla_size_ok(5, 0, 5), "empty matrices fit");
    CHECK(!hyla_size_ok(INT64_MAX, INT64_MAX, INT64_MAX), "INT64_MAX squared does not");
}

static void drivers(hyla_t *h) {
    static const int64_t huge[] = {(int64_t)1 << 40, INT64_MAX};
    const hyla_rbt_opts none = {0};
    hyla_rbt_info ri;
    hyla_sb2st_q *q = NULL;
    for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
        const int64_t n = huge[i];
        const long long nn = (long long)n;
        CHECK(hyla_dpotrf(h, 'L', n, buf, n) == -2, "potrf n %lld", nn);
        CHECK(hyla_dpotrs(h, 'L', n, 1, buf, n, buf2, n) == -2, "potrs n %lld", nn);
        CHECK(hyla_dposv(h, 'L', n, 1, buf, n, buf2, n) == -2, "posv n %lld", nn);
        /* a count of columns beside an order of 2: 2 c elements, past 2^59
         * from c = 2^60 (2^40 columns of 2 would be 16 TB: a size that can
         * exist, left to the caller's buffer) */
        const int64_t c = n == INT64_MAX ? n : (int64_t)1 << 60;
        CHECK(hyla_dposv(h, 'L', 2, c, buf, 2, buf2, 2) == -3, "posv nrhs %lld", (long long)c);
        CHECK(hyla_dgetrf(h, n, n, buf, n, ipiv) == -2, "getrf n %lld", nn);
        CHECK(hyla_dgetrf_nopiv(h, n, n, buf, n) == -2, "getrf_nopiv n %lld", nn);
        CHECK(hyla_dgetrs(h, 'N', n, 1, buf, n, ipiv, buf2, n) == -2, "getrs n %lld", nn);
        CHECK(hyla_dgesv(h, n, 1, buf, n, ipiv, buf2, n) == -1, "gesv n %lld", nn);
        CHECK(hyla_dgesv(h, 2, c, buf, 2, ipiv, buf2, 2) == -2, "gesv nrhs %lld", (long long)c);
        CHECK(hyla_dgesv_rbt(h, n, 1, buf, n, buf2, n, &none, &ri) == -1, "gesv_rbt n %lld", nn);
        CHECK(hyla_dgemm(h, 'N', 'N', n, n, n, 1, buf, n, buf2, n, 0, w, n) < 0 &&
                  hyla_dgemm(h, 'N', 'N', n, n, n, 1, buf, n, buf2, n, 0, w, n) >= -5,
              "gemm m = n = k = %lld: a size argument", nn);
        CHECK(hyla_dgemm(h, 'N', 'N', 2, 2, c, 1, buf, 2, buf2, c, 0, w, 2) == -5,
              "gemm k %lld", (long long)c);
        CHECK(hyla_dsyevd(h, 'V', 'L', n, buf, n, w) == -3, "syevd n %lld", nn);
        CHECK(hyla_dstedc(h, 'I', n, buf, buf2, w, n) == -2, "stedc n %lld", nn);
        CHECK(hyla_dsytrd_sy2sb(h, 'L', n, 4, buf, n, buf2, 5, w) == -2, "sytrd_sy2sb n %lld", nn);
        CHECK(hyla_dormtr_sy2sb(h, 'N', n, 4, 1, buf, n, w, buf2, n) == -2, "ormtr_sy2sb n %lld",
              nn);
        CHECK(hyla_dsytrd_sb2st(h, 'N', c, 1, buf, 2, w, buf2, NULL) == -2, "sytrd_sb2st n %lld",
              (long long)c);
        hyla_dist_matrix *D = NULL;
        CHECK(hyla_dist_create(h, HYLA_D, n, &D) == -3 && D == NULL, "dist_create n %lld", nn);
    }
    /* a small order with a leading dimension past 2^59: the matrix spans
     * ld (n - 1) + n elements */
    CHECK(hyla_dpotrf(h, 'L', 3, buf, INT64_MAX) == -2, "potrf n 3, lda INT64_MAX");
    CHECK(hyla_dgetrf(h, 3, 3, buf, (int64_t)1 << 60, ipiv) == -2, "getrf n 3, lda 2^60");
    CHECK(hyla_dsyevd(h, 'N', 'U', 3, buf, INT64_MAX, w) == -3, "syevd n 3, lda INT64_MAX");
    CHECK(hyla_dsytrd_sb2st(h, 'N', (int64_t)1 << 59, 1, buf, 2, w, buf2, &q) == -2 && q == NULL,
          "sytrd_sb2st band of 2 x 2^59");
    /* in range, the same calls still work (a 2 x 2 problem) */
    double A[4] = {4, 1, 1, 3};
    CHECK(hyla_dpotrf(h, 'L', 2, A, 2) == 0 && A[0] == 2, "potrf of a 2 x 2");
}

int main(void) {
    hyla_t *h = NULL;
    int rc = t_create(&h, test_devices(), "sizes");
    if (rc) return rc;
    leak_baseline(h);
    boundary();
    drivers(h);
    leak_check(h, "sizes");
    return t_finish(&h, "sizes");
}
