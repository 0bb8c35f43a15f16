/* The eigensolver drivers hyla_?syevd / ?heevd and their _gpu variants on
 * the devices of HYLA_DEVICES: all precisions, both triangles, jobz N and V,
 * sizes 0, 1, 2, odd and not multiples of kd or nb (kd and nb set small so
 * that many panels and blocks run), stage 2 on the host cores and on the
 * device (HYLA_OPT_EIG_CHASE; jobz V then keeps the reflectors in device
 * memory), the backend's one-stage solver below a crossover
 * (HYLA_OPT_EIG_ONE_STAGE), the dlatms-like matrix classes, NaN and
 * Inf input, bad arguments, no leaks, injected allocation failures.
 *
 * `test_syevd --write-npy PREFIX` writes the .npy inputs of the CLI tests
 * instead (tests/cli_eig.cmake). */
#include "hyla.h"
#include "core/internal.h"
#include "backend/ops/ops.h"
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

/* every allocation of a driver call fails in turn: clean error, no leak */
static void alloc_failures(hyla_t *h) {
    const int64_t n = 29;
    double A0[29 * 29], A[29 * 29], w[29];
    unsigned long long s = 11;
    hyla_dte_make(TE_RANDOM, n, A0, &s);
    for (int64_t k = 1; k < 200; k++) {
        memcpy(A, A0, sizeof A);
        hyla_debug_fail_alloc(k);
        int rc = hyla_dsyevd(h, 'V', 'U', n, A, n, w);
        hyla_debug_fail_alloc(0);
        if (!t_injected(h, "dsyevd", k, rc)) break;
    }
}

/* The backend's one-stage solver (HYLA_OPT_EIG_ONE_STAGE): every
 * precision, both entries, triangles and jobz, n = 1, 2, odd; the
 * crossover (n above it takes the two stages), off, refused values, NaN
 * input, injected allocation failures; the stats say which path ran. */
static void one_stage(hyla_t *h, unsigned long long *s) {
    hyla_eig_stats st;
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, 1 << 20) == 0, "one stage up to 2^20");
    for (int gpu = 0; gpu < 2; gpu++)
        for (int v = 0; v < 2; v++)
            for (int u = 0; u < 2; u++) {
                const char jz = "NV"[v], ul = "LU"[u];
                hyla_stv_case(h, gpu, jz, ul, 37, TE_CLUSTERED, s);
                hyla_dtv_case(h, gpu, jz, ul, 64, TE_GRADED, s);
                hyla_ctv_case(h, gpu, jz, ul, 2, TE_RANDOM, s);
                hyla_ztv_case(h, gpu, jz, ul, 41, TE_GEOMETRIC, s);
                hyla_dtv_case(h, gpu, jz, ul, 1, TE_RANDOM, s);
            }
    CHECK(hyla_get_eig_stats(h, &st) == 0 && st.kd == 0 && st.nb == 0 && st.sy2sb == 0,
          "one stage: stats kd %lld nb %lld", (long long)st.kd, (long long)st.nb);
    /* up to 40: 41 takes the two stages */
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, 40) == 0, "one stage up to 40");
    hyla_dtv_case(h, 0, 'V', 'L', 40, TE_RANDOM, s);
    CHECK(hyla_get_eig_stats(h, &st) == 0 && st.kd == 0, "n = 40: one stage, kd %lld",
          (long long)st.kd);
    hyla_dtv_case(h, 1, 'V', 'U', 41, TE_RANDOM, s);
    CHECK(hyla_get_eig_stats(h, &st) == 0 && st.kd > 0, "n = 41: two stages, kd %lld",
          (long long)st.kd);
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, 1) == 0, "one stage off");
    hyla_ztv_case(h, 0, 'N', 'L', 5, TE_RANDOM, s);
    CHECK(hyla_get_eig_stats(h, &st) == 0 && st.kd > 0, "off: two stages, kd %lld",
          (long long)st.kd);
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, -1) == -3, "one stage -1 refused");
    /* NaN and Inf are refused before either path */
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, 1 << 20) == 0, "one stage up to 2^20");
    double a[9] = {2, NAN, 0.5, 0.5, 2, 0.5, 0.5, 0.5, 2}, w[3];
    CHECK(hyla_dsyevd(h, 'V', 'L', 3, a, 3, w) == HYLA_ERR_NAN, "one stage: NaN");
    a[1] = INFINITY;
    CHECK(hyla_dsyevd(h, 'N', 'L', 3, a, 3, w) == HYLA_ERR_NAN, "one stage: Inf");
    CHECK(hyla_dsyevd(h, 'N', 'U', 3, a, 3, w) == 0, "one stage: Inf outside the triangle read");
    alloc_failures(h);
    hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, 0);
    /* the default (the tuning table's crossover): on a GPU every type and
     * jobz takes one stage at this order; on the host backend s and d with
     * eigenvectors take one stage at every order, c and z and the
     * eigenvalues alone the two stages */
    {
        const int host = h->devs[0]->info.kind == HYLA_DEVICE_HOST;
        const struct {
            char t, jz;
            int one;
        } dflt[] = {{'s', 'V', 1}, {'d', 'V', 1}, {'c', 'V', !host}, {'z', 'V', !host},
                    {'d', 'N', !host}, {'z', 'N', !host}};
        for (size_t k = 0; k < sizeof dflt / sizeof dflt[0]; k++) {
            switch (dflt[k].t) {
            case 's': hyla_stv_case(h, 0, dflt[k].jz, 'L', 50, TE_RANDOM, s); break;
            case 'd': hyla_dtv_case(h, 0, dflt[k].jz, 'U', 50, TE_RANDOM, s); break;
            case 'c': hyla_ctv_case(h, 0, dflt[k].jz, 'L', 50, TE_RANDOM, s); break;
            default: hyla_ztv_case(h, 0, dflt[k].jz, 'U', 50, TE_RANDOM, s); break;
            }
            CHECK(hyla_get_eig_stats(h, &st) == 0 && (st.kd == 0) == dflt[k].one,
                  "default %c %c n = 50: %s expected, kd %lld", dflt[k].t, dflt[k].jz,
                  dflt[k].one ? "one stage" : "two stages", (long long)st.kd);
        }
    }
    /* the op's arguments: nothing done on a bad one */
    hyla_dev *d = h->devs[0];
    const hyla_backend_ops *o = d->ops;
    hyla_dev_workspace *ws = NULL;
    void *dA = NULL, *dw = NULL;
    int info = -7;
    if (hyla_workspace_get(h, 0, 0, 0, &ws) == 0 &&
        o->mem_alloc(d, HYLA_MEM_DEVICE, sizeof(double) * 16, &dA) == 0 &&
        o->mem_alloc(d, HYLA_MEM_DEVICE, sizeof(double) * 4, &dw) == 0) {
        hyla_queue *q = ws->q_comp;
        CHECK(o->alg->heevd(q, (hyla_dtype)5, 1, 4, dA, 4, dw, &info) == HYLA_ERR_INVALID,
              "heevd op: dtype");
        CHECK(o->alg->heevd(q, HYLA_D, 2, 4, dA, 4, dw, &info) == HYLA_ERR_INVALID, "heevd op: vec");
        CHECK(o->alg->heevd(q, HYLA_D, 1, -1, dA, 4, dw, &info) == HYLA_ERR_INVALID, "heevd op: n");
        CHECK(o->alg->heevd(q, HYLA_D, 1, 4, dA, 3, dw, &info) == HYLA_ERR_INVALID, "heevd op: lda");
        CHECK(o->alg->heevd(q, HYLA_D, 1, 4, NULL, 4, dw, &info) == HYLA_ERR_INVALID, "heevd op: A");
        CHECK(o->alg->heevd(q, HYLA_D, 1, 4, dA, 4, NULL, &info) == HYLA_ERR_INVALID, "heevd op: w");
        CHECK(o->alg->heevd(q, HYLA_D, 1, 4, dA, 4, dw, NULL) == HYLA_ERR_INVALID, "heevd op: info");
        CHECK(o->alg->heevd(q, HYLA_D, 1, 0, NULL, 1, NULL, &info) == 0 && info == 0,
              "heevd op: n = 0");
        CHECK(o->queue_sync(q) == 0, "heevd op: queue clean");
    } else {
        CHECK(0, "heevd op: buffers");
    }
    o->mem_free(d, HYLA_MEM_DEVICE, dw);
    o->mem_free(d, HYLA_MEM_DEVICE, dA);
}

/* A_d.npy, A_z.npy (Hermitian, 60 x 60), rect_d.npy (5 x 4), nan_d.npy */
static int write_npy(const char *prefix) {
    enum { N = 60 };
    static double a[N * N], r[20];
    static double complex z[N * N];
    char path[4096];
    unsigned long long s = 5;
    int rc = 0;
    hyla_dte_make(TE_GEOMETRIC, N, a, &s);
    hyla_zte_make(TE_RANDOM, N, z, &s);
    snprintf(path, sizeof path, "%sA_d.npy", prefix);
    rc |= hyla_npy_write(path, HYLA_D, N, N, a, N);
    snprintf(path, sizeof path, "%sA_z.npy", prefix);
    rc |= hyla_npy_write(path, HYLA_Z, N, N, z, N);
    for (int i = 0; i < 20; i++) r[i] = i;
    snprintf(path, sizeof path, "%srect_d.npy", prefix);
    rc |= hyla_npy_write(path, HYLA_D, 5, 4, r, 5);
    a[3 + 7 * N] = a[7 + 3 * N] = NAN;
    snprintf(path, sizeof path, "%snan_d.npy", prefix);
    rc |= hyla_npy_write(path, HYLA_D, N, N, a, N);
    return rc ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--write-npy") == 0) return write_npy(argv[2]);
    hyla_t *h = NULL;
    int rc = t_create(&h, test_devices(), "test_syevd");
    if (rc) return rc;
    /* small blocks: many panels and several update blocks per matrix */
    hyla_set_option(h, HYLA_OPT_EIG_KD, 4);
    hyla_set_option(h, HYLA_OPT_EIG_NB, 12);
    leak_baseline(h);
    unsigned long long s = 3;
    hyla_stv_all(h, &s);
    hyla_dtv_all(h, &s);
    hyla_ctv_all(h, &s);
    hyla_ztv_all(h, &s);
    /* the tuning table's sizes */
    hyla_set_option(h, HYLA_OPT_EIG_KD, 0);
    hyla_set_option(h, HYLA_OPT_EIG_NB, 0);
    hyla_dtv_case(h, 0, 'V', 'L', 70, TE_RANDOM, &s);
    hyla_ztv_case(h, 1, 'V', 'U', 45, TE_GEOMETRIC, &s);
    hyla_eig_stats st;
    CHECK(hyla_get_eig_stats(h, &st) == 0 && st.kd > 0 && st.nb >= st.kd && st.total > 0,
          "eig stats: kd %lld nb %lld total %g", (long long)st.kd, (long long)st.nb, st.total);
    CHECK(hyla_get_eig_stats(NULL, &st) == -1 && hyla_get_eig_stats(h, NULL) == -2, "stats args");
    /* eigenvalues only: the table's pair for them where the row has one
     * (the host's, d), with vectors the general one; a kd option rules both */
    {
        const hyla_tuning *tu = hyla_tuning_for(h->devs[0]);
        const int64_t kv = tu->eig_kd_values[HYLA_D] > 0 ? tu->eig_kd_values[HYLA_D] : tu->eig_kd[HYLA_D];
        const int64_t bv = tu->eig_kd_values[HYLA_D] > 0 && tu->eig_nb_values[HYLA_D] > 0
                               ? tu->eig_nb_values[HYLA_D]
                               : tu->eig_nb[HYLA_D];
        hyla_dtv_case(h, 0, 'N', 'L', 2 * kv + 37, TE_RANDOM, &s);
        CHECK(hyla_get_eig_stats(h, &st) == 0 && st.kd == kv && st.nb == HYLA_T_MAX(kv, bv / kv * kv),
              "jobz N sizes: kd %lld nb %lld, table %lld %lld", (long long)st.kd, (long long)st.nb,
              (long long)kv, (long long)bv);
        hyla_dtv_case(h, 1, 'V', 'U', 2 * kv + 37, TE_RANDOM, &s);
        CHECK(hyla_get_eig_stats(h, &st) == 0 && st.kd == tu->eig_kd[HYLA_D],
              "jobz V kd %lld, table %lld", (long long)st.kd, (long long)tu->eig_kd[HYLA_D]);
        hyla_set_option(h, HYLA_OPT_EIG_KD, 5);
        hyla_dtv_case(h, 0, 'N', 'U', 61, TE_RANDOM, &s);
        CHECK(hyla_get_eig_stats(h, &st) == 0 && st.kd == 5, "jobz N, kd option: %lld",
              (long long)st.kd);
        hyla_set_option(h, HYLA_OPT_EIG_KD, 0);
    }
    hyla_set_option(h, HYLA_OPT_EIG_KD, 3);
    hyla_set_option(h, HYLA_OPT_EIG_NB, 6);
    /* several block reflectors in the Q1 back transformation */
    hyla_ztv_case(h, 0, 'V', 'L', 120, TE_RANDOM, &s);
    hyla_dtv_case(h, 1, 'V', 'U', 100, TE_ARITHMETIC, &s);
    /* both orders of the back transformations, every precision (the
     * reordered one multiplies a complex Q by the real E as one real GEMM) */
    for (int64_t order = 1; order <= 2; order++) {
        CHECK(hyla_set_option(h, HYLA_OPT_EIG_ORDER, order) == 0, "order %lld", (long long)order);
        hyla_stv_case(h, 0, 'V', 'L', 37, TE_CLUSTERED, &s);
        hyla_dtv_case(h, 1, 'V', 'U', 64, TE_GRADED, &s);
        hyla_ctv_case(h, 0, 'V', 'U', 41, TE_RANDOM, &s);
        hyla_ztv_case(h, 1, 'V', 'L', 53, TE_GEOMETRIC, &s);
    }
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_ORDER, 3) == -3, "order 3 refused");
    /* eigenvalues only with the chase on the device (the host backend runs
     * the op's sequential reference), then on the host cores */
    for (int64_t chase = 2; chase >= 1; chase--) {
        CHECK(hyla_set_option(h, HYLA_OPT_EIG_CHASE, chase) == 0, "chase %lld", (long long)chase);
        hyla_stv_case(h, 0, 'N', 'L', 37, TE_CLUSTERED, &s);
        hyla_dtv_case(h, 1, 'N', 'U', 64, TE_GRADED, &s);
        hyla_ctv_case(h, 0, 'N', 'U', 41, TE_RANDOM, &s);
        hyla_ztv_case(h, 1, 'N', 'L', 53, TE_GEOMETRIC, &s);
    }
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_CHASE, 3) == -3, "chase 3 refused");
    /* eigenvectors with the chase on the device (its reflectors stay in
     * device memory), both orders of the back transformations, n not a
     * multiple of kd = 3 or of nb */
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_CHASE, 2) == 0, "chase 2");
    for (int64_t order = 1; order <= 2; order++) {
        hyla_set_option(h, HYLA_OPT_EIG_ORDER, order);
        hyla_stv_case(h, 0, 'V', 'L', 37, TE_CLUSTERED, &s);
        hyla_dtv_case(h, 1, 'V', 'U', 64, TE_GRADED, &s);
        hyla_ctv_case(h, 0, 'V', 'U', 41, TE_RANDOM, &s);
        hyla_ztv_case(h, 1, 'V', 'L', 53, TE_GEOMETRIC, &s);
        hyla_dtv_case(h, 0, 'V', 'L', 2, TE_RANDOM, &s);
        hyla_ztv_case(h, 1, 'V', 'U', 1, TE_RANDOM, &s);
    }
    hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, 2);
    hyla_dtv_case(h, 0, 'V', 'U', 29, TE_ARITHMETIC, &s);
    hyla_ctv_case(h, 1, 'V', 'L', 30, TE_RANDOM, &s);
    hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, 0);
    /* Q1 block reflectors of 2 and of 7 panels (kd 3: 6 and 21 columns) */
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_BACK1_NB, 6) == 0, "back1 nb 6");
    hyla_dtv_case(h, 1, 'V', 'L', 61, TE_RANDOM, &s);
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_BACK1_NB, 21) == 0, "back1 nb 21");
    hyla_ztv_case(h, 0, 'V', 'U', 70, TE_CLUSTERED, &s);
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_BACK1_NB, -1) == -3, "back1 nb -1 refused");
    hyla_set_option(h, HYLA_OPT_EIG_BACK1_NB, 0);
    /* Q2 formed from the identity (reordered order) with waves of up to 100
     * groups (kd 3): on a GPU, batches of groups that each start at their
     * own first column */
    hyla_set_option(h, HYLA_OPT_EIG_ORDER, 2);
    hyla_dtv_case(h, 0, 'V', 'L', 300, TE_RANDOM, &s);
    hyla_ztv_case(h, 1, 'V', 'U', 211, TE_CLUSTERED, &s);
    alloc_failures(h);
    hyla_set_option(h, HYLA_OPT_EIG_CHASE, 0);
    hyla_set_option(h, HYLA_OPT_EIG_ORDER, 2);
    alloc_failures(h);
    hyla_set_option(h, HYLA_OPT_EIG_ORDER, 0);
    alloc_failures(h);
    one_stage(h, &s);
    hyla_destroy(&h);
    return summary("test_syevd");
}
