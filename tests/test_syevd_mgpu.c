/* The eigensolver on several devices (src/eig/mgpu.h): hyla_?syevd /
 * ?heevd on contexts of 2 and 4 virtual host devices (3 run in
 * syevd[cpu:3]), or on one GPU listed twice (cuda:0,0) and on every GPU,
 * in each stage-1 variant (half storage with the allreduce through the host
 * or device to device; full storage), all precisions and both triangles,
 * jobz N and V, n smaller than the device count, odd and not a multiple of
 * kd, nb or the device count, the hard matrix classes; against LAPACK with
 * the same measures and threshold as the one-device solver, and against the
 * one-device path of the same context. Also: the blockwise distribution's
 * balance, allocation failures at every point (a clean code, no leak), a
 * device whose memory is too small; the distributed entry point
 * hyla_?syevd_mgpu with hyla_dist_* (t_test_syevd_mgpu.c). */
#include "hyla.h"
#include "core/internal.h"
#include "eig/mgpu.h"
#include "test_util.h"
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#define THRESH 60.0
#define SENTINEL 777.0
#define HYLA_T_MAX(a, b) ((a) > (b) ? (a) : (b))
#define CH "sdcz"[DT]

#define HYLA_TEMPLATE "t_test_syevd.c"
#include "base/each_prec.h"
#define HYLA_TEMPLATE "t_test_syevd_mgpu.c"
#include "base/each_prec.h"

static const struct {
    int sbr, ar;
    const char *name;
} variants[] = {{HYLA_EIG_SBR_HALF, HYLA_EIG_AR_HOST, "half+host"},
                {HYLA_EIG_SBR_HALF, HYLA_EIG_AR_DEVICE, "half+device"},
                {HYLA_EIG_SBR_FULL, HYLA_EIG_AR_AUTO, "full"}};

static void dist_checks(void) {
    hyla_eig_dist d;
    for (int nd = 1; nd <= 5; nd++)
        for (int w = 0; w < 3; w++) {
            const int64_t n = 1000 + 37 * nd, al = 12;
            hyla_eig_dist_make(nd, n, al, w, &d);
            int ok = d.c[0] == 0 && d.c[nd] == n;
            for (int g = 1; g < nd; g++) ok &= d.c[g] >= d.c[g - 1] && d.c[g] % al == 0;
            for (int64_t j = 0; j < n; j += 97) {
                const int g = hyla_eig_dist_owner(&d, j);
                ok &= d.c[g] <= j && j < d.c[g + 1];
            }
            CHECK(ok, "distribution nd %d weight %d", nd, w);
        }
    /* half storage: column j costs j (n - j), symmetric: two devices split
     * in the middle; full storage: the later columns cost more */
    hyla_eig_dist_make(2, 1200, 12, HYLA_EIG_W_HALF, &d);
    CHECK(d.c[1] == 600, "half-storage split at %lld", (long long)d.c[1]);
    hyla_eig_dist_make(2, 1200, 12, HYLA_EIG_W_FULL, &d);
    CHECK(d.c[1] > 600, "full-storage split at %lld", (long long)d.c[1]);
    hyla_eig_dist_make(4, 2, 12, HYLA_EIG_W_HALF, &d);
    CHECK(d.c[4] == 2 && d.c[1] == 0, "n below the device count: %lld %lld", (long long)d.c[1],
          (long long)d.c[4]);
}

/* every allocation of a multi-device call fails in turn: clean code, no
 * leak */
static void alloc_failures(hyla_t *h, char jobz) {
    enum { N = 41 };
    static double A0[N * N], A[N * N], w[N];
    unsigned long long s = 17;
    hyla_dte_make(TE_RANDOM, N, A0, &s);
    for (int64_t k = 1; k < 400; k++) {
        memcpy(A, A0, sizeof A);
        hyla_debug_fail_alloc(k);
        int rc = hyla_dsyevd(h, jobz, 'L', N, A, N, w);
        hyla_debug_fail_alloc(0);
        if (!t_injected(h, "dsyevd multi-device", k, rc)) break;
    }
}

/* the multi-device and the one-device path of one context agree */
static void same_as_one_device(hyla_t *h, const char *devices) {
    enum { N = 53 };
    static double A0[N * N], A1[N * N], A2[N * N], w1[N], w2[N];
    unsigned long long s = 23;
    hyla_dte_make(TE_CLUSTERED, N, A0, &s);
    memcpy(A1, A0, sizeof A0), memcpy(A2, A0, sizeof A0);
    int r1 = hyla_dsyevd(h, 'V', 'U', N, A1, N, w1);
    /* the timeline: every device took part in stage 1, the columns of Z
     * add up to n, each phase ends after it starts and before the call */
    hyla_eig_stats st;
    hyla_get_eig_stats(h, &st);
    const int nd = hyla_device_count(h);
    int64_t cols = 0;
    int ok = st.ndev == (nd < HYLA_EIG_TIMELINE_DEVS ? nd : HYLA_EIG_TIMELINE_DEVS);
    for (int g = 0; g < st.ndev; g++) {
        cols += st.cols[g];
        ok &= st.phase[g][HYLA_EIG_PHASE_SY2SB][1] > st.phase[g][HYLA_EIG_PHASE_SY2SB][0];
        for (int p = 0; p < 8; p++)
            ok &= st.phase[g][p][1] >= st.phase[g][p][0] && st.phase[g][p][1] <= st.total;
    }
    ok &= st.phase[0][HYLA_EIG_PHASE_TRIDIAG][1] > 0;
    CHECK(ok && cols == N, "timeline: ndev %d, columns %lld", st.ndev, (long long)cols);
    hyla_set_option(h, HYLA_OPT_EIG_DEVICES, 1);
    int r2 = hyla_dsyevd(h, 'V', 'U', N, A2, N, w2);
    hyla_get_eig_stats(h, &st);
    CHECK(st.ndev == 0, "one-device path: no timeline (%d)", st.ndev);
    hyla_set_option(h, HYLA_OPT_EIG_DEVICES, 0);
    double dmax = 0, anorm = hyla_dte_norm1(N, N, A0, N);
    for (int i = 0; i < N; i++) dmax = fmax(dmax, fabs(w1[i] - w2[i]));
    CHECK(r1 == 0 && r2 == 0 && dmax <= THRESH * N * anorm * DBL_EPSILON,
          "multi-device against one device: rc %d %d, eigenvalues differ by %.3g", r1, r2, dmax);
    /* automatic: on GPUs at this order device 0 (no timeline) with or
     * without eigenvectors (several from n = 16384 with them, the tuning
     * table's eig_mgpu_min_n), on host devices every device */
    {
        int r3;
        const int gpu = strncmp(devices, "cpu", 3) != 0;
        for (int jz = 0; jz < 2; jz++) {
            memcpy(A2, A0, sizeof A0);
            r3 = hyla_dsyevd(h, "NV"[jz], 'L', N, A2, N, w2);
            hyla_get_eig_stats(h, &st);
            CHECK(r3 == 0 && (gpu ? st.ndev == 0 : st.ndev > 0),
                  "automatic devices, jobz %c: rc %d, timeline devices %d", "NV"[jz], r3, st.ndev);
        }
        hyla_set_option(h, HYLA_OPT_EIG_DEVICES, 2);
        memcpy(A2, A0, sizeof A0);
        r3 = hyla_dsyevd(h, 'N', 'L', N, A2, N, w2);
        hyla_get_eig_stats(h, &st);
        CHECK(r3 == 0 && st.ndev > 0, "every device asked for, eigenvalues only: rc %d, %d", r3,
              st.ndev);
    }
}

static void run_list(const char *devices, unsigned long long *s) {
    hyla_t *h = NULL;
    if (t_create(&h, devices, "test_syevd_mgpu")) return;
    printf("devices %s: %d\n", devices, hyla_device_count(h));
    /* small blocks: many panels, several update blocks and reflector
     * groups per device */
    hyla_set_option(h, HYLA_OPT_EIG_KD, 4);
    hyla_set_option(h, HYLA_OPT_EIG_NB, 12);
    hyla_set_option(h, HYLA_OPT_EIG_BACK1_NB, 8);
    /* every device at every order and jobz: on GPUs the automatic choice
     * takes device 0 at these orders (same_as_one_device checks it) */
    hyla_set_option(h, HYLA_OPT_EIG_DEVICES, 2);
    leak_baseline(h);
    static const int64_t ns[] = {1, 2, 3, 5, 37, 61};
    for (size_t v = 0; v < 2 * sizeof variants / sizeof *variants; v++) {
        const size_t vi = v % (sizeof variants / sizeof *variants);
        /* both orders of the back transformations: direct (Z := Q1 (Q2 E)
         * on each device's columns) and reordered (Q's columns built beside
         * the tridiagonal solver, then Z = Q E) */
        const int order = v < sizeof variants / sizeof *variants ? 1 : 2;
        hyla_set_option(h, HYLA_OPT_EIG_SBR, variants[vi].sbr);
        hyla_set_option(h, HYLA_OPT_EIG_ALLREDUCE, variants[vi].ar);
        hyla_set_option(h, HYLA_OPT_EIG_ORDER, order);
        printf("variant %s, %s order\n", variants[vi].name, order == 1 ? "direct" : "reordered");
        for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
            for (int jz = 0; jz < 2; jz++)
                for (int u = 0; u < 2; u++) {
                    const char jobz = "NV"[jz], uplo = "LU"[u];
                    hyla_stv_case(h, 0, jobz, uplo, ns[a], TE_RANDOM, s);
                    hyla_dtv_case(h, 0, jobz, uplo, ns[a], TE_RANDOM, s);
                    hyla_ctv_case(h, 0, jobz, uplo, ns[a], TE_RANDOM, s);
                    hyla_ztv_case(h, 0, jobz, uplo, ns[a], TE_RANDOM, s);
                }
        for (int c = 0; c < TE_NCLASS; c++) {
            hyla_dtv_case(h, 0, 'V', "LU"[c % 2], 45, c, s);
            hyla_ztv_case(h, 0, 'V', "UL"[c % 2], 45, c, s);
        }
        /* the distributed entry point */
        static const int64_t nm[] = {0, 1, 3, 29, 50};
        for (size_t a = 0; a < sizeof nm / sizeof *nm; a++)
            for (int u = 0; u < 2; u++) {
                const char uplo = "LU"[u], jobz = "VN"[(a + u) % 2];
                hyla_sdist_case(h, jobz, uplo, nm[a], TE_RANDOM, s);
                hyla_ddist_case(h, 'V', uplo, nm[a], TE_GEOMETRIC, s);
                hyla_cdist_case(h, jobz, uplo, nm[a], TE_CLUSTERED, s);
                hyla_zdist_case(h, 'V', uplo, nm[a], TE_RANDOM, s);
            }
    }
    hyla_sdist_args(h);
    hyla_ddist_args(h);
    hyla_cdist_args(h);
    hyla_zdist_args(h);
    /* the defaults (tuning table's sizes and variants), every driver path
     * of one precision */
    hyla_set_option(h, HYLA_OPT_EIG_SBR, 0);
    hyla_set_option(h, HYLA_OPT_EIG_ALLREDUCE, 0);
    hyla_set_option(h, HYLA_OPT_EIG_ORDER, 0);
    hyla_dtv_all(h, s);
    for (int jz = 0; jz < 2; jz++) /* the layout for the default sizes, either jobz */
        hyla_ddist_case(h, "NV"[jz], "LU"[jz], 301, TE_RANDOM, s);
    hyla_set_option(h, HYLA_OPT_EIG_KD, 4);
    hyla_set_option(h, HYLA_OPT_EIG_NB, 12);
    /* stage 2 by the backend's chase on device 0 (its reflectors in device
     * 0's memory, copied to the others for the back transformations) */
    hyla_set_option(h, HYLA_OPT_EIG_CHASE, 2);
    for (int order = 1; order <= 2; order++) {
        hyla_set_option(h, HYLA_OPT_EIG_ORDER, order);
        hyla_dtv_case(h, 0, 'V', 'L', 61, TE_RANDOM, s);
        hyla_ztv_case(h, 0, 'V', 'U', 44, TE_CLUSTERED, s);
    }
    hyla_set_option(h, HYLA_OPT_EIG_CHASE, 0);
    /* the tridiagonal solver's merges from 16 rows on the devices, the
     * rows of E dealt over them: E gathered by columns for Z = Q E
     * (reordered), or downloaded (direct); classes that deflate much */
    hyla_set_option(h, HYLA_OPT_EIG_DC_MIN, 16);
    for (int order = 1; order <= 2; order++) {
        hyla_set_option(h, HYLA_OPT_EIG_ORDER, order);
        hyla_dtv_case(h, 0, 'V', 'L', 61, TE_RANDOM, s);
        hyla_ztv_case(h, 0, 'V', 'U', 44, TE_CLUSTERED, s);
        hyla_stv_case(h, 0, 'V', 'U', 70, TE_GEOMETRIC, s);
        hyla_ctv_case(h, 0, 'V', 'L', 33, TE_RANDOM, s);
        hyla_ddist_case(h, 'V', "LU"[order - 1], 83, TE_CLUSTERED, s);
    }
    if (strncmp(devices, "cpu", 3) == 0) {
        hyla_set_option(h, HYLA_OPT_EIG_ORDER, 2);
        alloc_failures(h, 'V');
    }
    hyla_set_option(h, HYLA_OPT_EIG_DC_MIN, 0);
    hyla_set_option(h, HYLA_OPT_EIG_ORDER, 0);
    same_as_one_device(h, devices);
    /* allocation failures at every point: all of them on the host backend;
     * on GPUs (each step re-creating device buffers) the direct order */
    alloc_failures(h, 'V');
    if (strncmp(devices, "cpu", 3) == 0) {
        alloc_failures(h, 'N');
        hyla_set_option(h, HYLA_OPT_EIG_ORDER, 2);
        alloc_failures(h, 'V');
        hyla_set_option(h, HYLA_OPT_EIG_ORDER, 0);
    }
    hyla_destroy(&h);
}

int main(void) {
    const char *env = test_devices();
    unsigned long long s = 5;
    dist_checks();
    if (strncmp(env, "cuda", 4) == 0 || strncmp(env, "gpu", 3) == 0) {
        /* one GPU as two logical devices, then every GPU where there are
         * several */
        run_list("cuda:0,0", &s);
        hyla_t *h = NULL;
        if (hyla_create(&h, "cuda") == 0 && hyla_device_count(h) > 1) {
            hyla_destroy(&h);
            run_list("cuda", &s);
        }
        hyla_destroy(&h);
    } else {
        hyla_t *h = NULL;
        const int one = hyla_create(&h, env) == 0 && hyla_device_count(h) == 1;
        hyla_destroy(&h);
        run_list(one ? "cpu:2" : "cpu:4", &s);
    }
    /* a device whose memory cannot take its block: a clean code */
    {
        hyla_t *h = NULL;
        enum { N = 300 };
        static double A[N * N], w[N];
        unsigned long long s2 = 9;
        hyla_dte_make(TE_RANDOM, N, A, &s2);
        if (hyla_create(&h, "cpu:2@256K") == 0) {
            int rc = hyla_dsyevd(h, 'V', 'L', N, A, N, w);
            CHECK(rc == HYLA_ERR_DEVICE_MEMORY || rc == HYLA_ERR_NO_MEMORY,
                  "capped devices: %d (%s)", rc, hyla_strerror(rc));
        }
        hyla_destroy(&h);
    }
    return summary("test_syevd_mgpu");
}
