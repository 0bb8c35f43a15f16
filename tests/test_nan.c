/* hyla's NaN/Inf policy (hyla.h, "NaN and Inf") on every routine it names,
 * the four precisions, on the devices of HYLA_DEVICES: a NaN and an Inf at
 * the first, a middle and the last element of the matrix (and of B for the
 * solvers), host-resident and device-resident entry points.
 *  - The solvers and eigensolvers (?posv, ?gesv, ?gesv_nopiv, ?gesv_rbt and
 *    _gpu, ?syevd / ?heevd, _gpu and _mgpu, ?sytrd_sb2st / ?hetrd_hb2st)
 *    return HYLA_ERR_NAN and leave the caller's data as passed; a NaN in
 *    the triangle a routine does not read changes nothing; huge finite
 *    entries are no NaN or Inf to ?gesv_rbt.
 *  - The factorizations (?potrf, ?getrf, ?getrf_nopiv and _gpu) propagate:
 *    a NaN in the triangle potrf reads gives info = k > 0 with k at most
 *    the row (uplo L) or column (U) of the NaN plus one, as LAPACK's NaN
 *    pivot test does; otherwise info >= 0 and the output holds a NaN or an
 *    Inf where info is 0.
 * The tridiagonal eigensolvers' checks are in test_tridiag and
 * test_bisect. Small blocks, so that the bad value sits in another panel
 * or on another device than the first. */
#include "hyla.h"
#include "test_util.h"
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NN 37     /* order of the matrices */
#define NRHS 3    /* right-hand sides */
#define KD 4      /* band width of the band reduction's input */
#define CH "sdcz"[DT]

static const char *const bad_name[2] = {"NaN", "Inf"};
static const char *const where_name[3] = {"first", "middle", "last"};

/* Element (i, j) that holds the bad value at place k (0 first, 1 middle,
 * 2 last) of an m x n matrix, or of its uplo triangle ('L', 'U'; 'G' for
 * the whole). */
static void place(char uplo, int64_t m, int64_t n, int k, int64_t *i, int64_t *j) {
    if (k == 0) *i = 0, *j = 0;
    else if (k == 2) *i = m - 1, *j = n - 1;
    else if (uplo == 'L') *j = n / 2, *i = n / 2 + 1;
    else if (uplo == 'U') *j = n / 2, *i = n / 2 - 1;
    else *i = m / 2, *j = n / 2;
}

static double bad_value(int b) { return b ? INFINITY : NAN; }

/* the largest of the two indices, plus one: the latest leading minor of a
 * Cholesky factorization that a NaN at (i, j) of its triangle reaches */
static int64_t minor_of(int64_t i, int64_t j) { return (i > j ? i : j) + 1; }

#define HYLA_TEMPLATE "t_test_nan.c"
#include "base/each_prec.h"

int main(void) {
    hyla_t *h = NULL;
    int rc = t_create(&h, test_devices(), "test_nan");
    if (rc) return rc;
    /* panels of 8 columns: the bad value is in the first and a later panel */
    hyla_set_option(h, HYLA_OPT_POTRF_NB, 8);
    hyla_set_option(h, HYLA_OPT_GETRF_NB, 8);
    hyla_set_option(h, HYLA_OPT_GETRF_IB, 4);
    hyla_set_option(h, HYLA_OPT_EIG_KD, 4);
    hyla_set_option(h, HYLA_OPT_EIG_NB, 8);
    leak_baseline(h);
    unsigned long long s = 7;
    hyla_snan_all(h, &s);
    hyla_dnan_all(h, &s);
    hyla_cnan_all(h, &s);
    hyla_znan_all(h, &s);
    return t_finish(&h, "test_nan");
}
