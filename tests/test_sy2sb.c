/* Stage 1 of the eigensolver (dense -> band) on the devices of HYLA_DEVICES:
 * hyla_?sytrd_sy2sb / ?hetrd_he2hb and the back transformation
 * ?ormtr_sy2sb / ?unmtr_he2hb, all precisions, both triangles, sizes 0, 1,
 * 2, odd and not multiples of kd or nb, kd >= n - 1 (already band), against
 * LAPACKE ?syev/?heev; no leaks; injected allocation failures, also in the
 * internal hyla_eig_sy2sb called with no workspace yet. */
#include "hyla.h"
#include "test_util.h"
#include "eig/pstages12.h"
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#define THRESH 60.0
#define SENTINEL 777.0
#define HYLA_T_MAX(a, b) ((a) > (b) ? (a) : (b))
#define CH "sdcz"[DT]

#define HYLA_TEMPLATE "t_test_sy2sb.c"
#include "base/each_prec.h"

/* every allocation of a reduction fails in turn: clean error, no leak */
static void alloc_failures(hyla_t *h) {
    const int64_t n = 23;
    double A0[23 * 23], A[23 * 23], AB[5 * 23], tau[23];
    unsigned long long s = 7;
    hyla_dte_make(TE_RANDOM, n, A0, &s);
    hyla_set_option(h, HYLA_OPT_EIG_NB, 8);
    for (int64_t k = 1; k < 60; k++) {
        memcpy(A, A0, sizeof A);
        hyla_debug_fail_alloc(k);
        int rc = hyla_dsytrd_sy2sb(h, 'U', n, 4, A, n, AB, 5, tau);
        hyla_debug_fail_alloc(0);
        if (!t_injected(h, "dsytrd_sy2sb", k, rc)) break;
    }
}

/* hyla_eig_sy2sb on a context without workspace (released): its first
 * allocations create the device queues, so the early failures leave it
 * without queues, which its cleanup must not synchronize. */
static void internal_failures(hyla_t *h) {
    enum { N = 23, KD = 4 };
    double A0[N * N], AB[(KD + 1) * N];
    unsigned long long s = 9;
    void *dA = NULL;
    hyla_dte_make(TE_RANDOM, N, A0, &s);
    int rc = hyla_malloc_device(h, 0, sizeof A0, &dA);
    CHECK(rc == 0, "device matrix: %d", rc);
    if (rc) return;
    int64_t base;
    for (int64_t k = 1; k < 60; k++) {
        rc = hyla_copy_to_device(h, 0, dA, A0, sizeof A0);
        CHECK(rc == 0, "upload: %d", rc);
        hyla_release_workspace(h);
        hyla_debug_alloc_stats(&base, NULL);
        hyla_debug_fail_alloc(k);
        rc = hyla_eig_sy2sb(h, 0, HYLA_D, N, KD, 2 * KD, dA, N, AB, KD + 1, NULL, NULL, 0, NULL);
        hyla_debug_fail_alloc(0);
        int64_t live;
        hyla_release_workspace(h);
        hyla_debug_alloc_stats(&live, NULL);
        CHECK(live == base, "sy2sb: leak after failing allocation %lld (rc %d)", (long long)k, rc);
        CHECK(rc == 0 || rc == HYLA_ERR_NO_MEMORY || rc == HYLA_ERR_DEVICE_MEMORY,
              "sy2sb: allocation failure %lld: rc %d", (long long)k, rc);
        if (rc == 0) break;
    }
    hyla_free_device(h, 0, &dA);
}

/* Stages 1 and 2 at the same time (stage 2 reading the band as stage 1
 * finishes it) give bitwise what they give one after the other, with and
 * without the reflector stores; allocation failures inside stage 1 while
 * stage 2 waits leave no thread behind and no leak. */
static void stages_together(hyla_t *h) {
    enum { N = 157, KD = 5, NB = 15 };
    static double complex A0[N * N], A[N * N], AB[(KD + 1) * N];
    static double d0[N], e0[N], d1[N], e1[N];
    unsigned long long s = 17;
    void *dA = NULL;
    double t1, t2;
    hyla_zte_make(TE_RANDOM, N, A0, &s);
    int rc = hyla_malloc_device(h, 0, sizeof A0, &dA);
    CHECK(rc == 0, "device matrix: %d", rc);
    if (rc) return;
    for (int vec = 0; vec < 2; vec++) {
        for (int mode = 0; mode < 2; mode++) {
            hyla_sy2sb_q *q1 = NULL;
            hyla_sb2st_q *q2 = NULL;
            memcpy(A, A0, sizeof A);
            rc = hyla_copy_to_device(h, 0, dA, A, sizeof A);
            if (!rc)
                rc = hyla_eig_stages12(h, 0, HYLA_Z, N, KD, NB, dA, N, AB, KD + 1,
                                       vec ? &q1 : NULL, mode ? d1 : d0, mode ? e1 : e0,
                                       vec ? &q2 : NULL, mode, &t1, &t2);
            CHECK(rc == 0 && (!vec || (q1 && q2)), "stages12 vec %d mode %d: rc %d", vec, mode, rc);
            hyla_eig_sy2sb_q_free(h, &q1);
            hyla_sb2st_q_free(&q2);
        }
        CHECK(!memcmp(d0, d1, sizeof d0) && !memcmp(e0, e1, sizeof(double) * (N - 1)),
              "stages12 vec %d: together differs from one after the other", vec);
    }
    int64_t base, live;
    for (int64_t k = 1; k < 80; k++) {
        hyla_sy2sb_q *q1 = NULL;
        hyla_sb2st_q *q2 = NULL;
        rc = hyla_copy_to_device(h, 0, dA, A0, sizeof A0);
        CHECK(rc == 0, "upload: %d", rc);
        hyla_release_workspace(h);
        hyla_debug_alloc_stats(&base, NULL);
        hyla_debug_fail_alloc(k);
        rc = hyla_eig_stages12(h, 0, HYLA_Z, N, KD, NB, dA, N, AB, KD + 1, &q1, d1, e1, &q2, 1,
                               &t1, &t2);
        hyla_debug_fail_alloc(0);
        hyla_eig_sy2sb_q_free(h, &q1);
        hyla_sb2st_q_free(&q2);
        hyla_release_workspace(h);
        hyla_debug_alloc_stats(&live, NULL);
        CHECK(live == base, "stages12: leak after failing allocation %lld (rc %d)", (long long)k, rc);
        CHECK(rc == 0 || rc == HYLA_ERR_NO_MEMORY || rc == HYLA_ERR_DEVICE_MEMORY,
              "stages12: allocation failure %lld: rc %d", (long long)k, rc);
        if (rc == 0) break;
    }
    hyla_free_device(h, 0, &dA);
}

int main(void) {
    hyla_t *h = NULL;
    int rc = t_create(&h, test_devices(), "test_sy2sb");
    if (rc) return rc;
    leak_baseline(h);
    unsigned long long s = 1;
    hyla_sts_all(h, &s);
    hyla_dts_all(h, &s);
    hyla_cts_all(h, &s);
    hyla_zts_all(h, &s);
    alloc_failures(h);
    internal_failures(h);
    stages_together(h);
    hyla_destroy(&h);
    return summary("test_sy2sb");
}
