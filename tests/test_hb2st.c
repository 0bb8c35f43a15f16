/* Stage 2 on a device (eig/phb2st_dev.c and the backends' hb2st and
 * hb2st_v ops) on device 0 and the last device of HYLA_DEVICES, the four
 * precisions: the eigenvalues of the tridiagonal (LAPACK sterf) against
 * the band's (LAPACK sbev/hbev) within 60 n eps |B|, for kd = 0, 1, 2, 3,
 * 8, 32, 64 and n = 0, 1, 2, kd, kd+1, odd, not a multiple of kd, kd > n-1;
 * zero, diagonal and graded bands, and bands near either end of the
 * exponent range or spanning it (tiny, huge, steep); padded ldab; the band left unchanged;
 * NaN and Inf input; bad arguments of the driver and of the op; kd past
 * what the backend chases; no leak; injected allocation failures. With
 * the reflectors kept on the device (hyla_eig_sb2st_dev): d, |e| bitwise
 * those without, d, e near the host chase's, B = Q2 T Q2^H and Q2
 * orthogonal (t_test_hb2st.c's case_v), for n = 0, 1, 2, odd, not a
 * multiple of kd or nb, kd = 1 .. 64, nb = 1, kd/2, kd; bad arguments and
 * injected allocation failures of that path too.
 *
 * `test_hb2st --bench N KD [s|d|c|z]` times hyla_eig_hb2st_dev (device 0
 * of HYLA_DEVICES, best of three after a warm-up) against the host cores'
 * chase hyla_eig_sb2st (best of two) on one random band (default type d),
 * then both with the reflectors kept (hyla_eig_sb2st_dev, best of three;
 * hyla_eig_sb2st, one run), and compares the tridiagonals (not a test). */
#include "hyla.h"
#include "test_util.h"
#include "core/internal.h"
#include "eig/phb2st_dev.h"
#include "eig/psb2st.h"
#ifdef HYLA_HAVE_CUDA
#include "backend/cuda/k_hb2st.h"
#include <cuda_runtime_api.h>
#endif
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <omp.h>
#include <string.h>

#define THRESH 60.0
#define HYLA_TMIN(a, b) ((a) < (b) ? (a) : (b))
#define HYLA_TMAX(a, b) ((a) > (b) ? (a) : (b))

enum { BAND_RANDOM, BAND_ZERO, BAND_DIAGONAL, BAND_GRADED, BAND_TINY, BAND_HUGE, BAND_STEEP };
static const char *band_class_name[] = {"random", "zero",  "diagonal", "graded",
                                        "tiny",   "huge",  "steep"};

/* the HYLA_OPT_EIG_CHASE_STEP value the cases run under (their messages) */
static int chase_step;

#define HYLA_TEMPLATE "t_test_hb2st.c"
#include "base/each_prec.h"

/* NaN/Inf in the band, bad arguments of the driver and of the backend op. */
static void bad_input(hyla_t *h) {
    enum { N = 12, KD = 3, LD = KD + 1 };
    double AB[LD * N], d[N], e[N];
    unsigned long long s = 5;
    make_band_d(AB, N, KD, LD, BAND_RANDOM, &s);
    const int ndev = hyla_device_count(h);
    int rc = hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, LD, d, e);
    CHECK(rc == 0, "valid call: %d", rc);
    AB[2 + 5 * LD] = NAN;
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, LD, d, e) == HYLA_ERR_NAN, "NaN");
    AB[2 + 5 * LD] = INFINITY;
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, LD, d, e) == HYLA_ERR_NAN, "Inf");
    AB[2 + 5 * LD] = 0.5;
    CHECK(hyla_eig_hb2st_dev(NULL, 0, HYLA_D, N, KD, AB, LD, d, e) == HYLA_ERR_INVALID, "NULL ctx");
    CHECK(hyla_eig_hb2st_dev(h, -1, HYLA_D, N, KD, AB, LD, d, e) == HYLA_ERR_NO_DEVICE, "dev -1");
    CHECK(hyla_eig_hb2st_dev(h, ndev, HYLA_D, N, KD, AB, LD, d, e) == HYLA_ERR_NO_DEVICE, "dev ndev");
    CHECK(hyla_eig_hb2st_dev(h, 0, (hyla_dtype)7, N, KD, AB, LD, d, e) == HYLA_ERR_INVALID, "dtype");
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, -1, KD, AB, LD, d, e) == HYLA_ERR_INVALID, "n < 0");
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, N, -1, AB, LD, d, e) == HYLA_ERR_INVALID, "kd < 0");
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, KD, d, e) == HYLA_ERR_INVALID, "ldab");
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, NULL, LD, d, e) == HYLA_ERR_INVALID, "AB");
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, LD, NULL, e) == HYLA_ERR_INVALID, "d");
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, LD, d, NULL) == HYLA_ERR_INVALID, "e");
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, 1, KD, AB, LD, d, NULL) == 0, "n = 1 without e");
    CHECK(d[0] == AB[0], "n = 1: d = B(0, 0)");
    CHECK(hyla_eig_hb2st_dev(h, 0, HYLA_D, 0, KD, NULL, LD, NULL, NULL) == 0, "n = 0");
    /* with the reflectors: q required, NULL on every failure */
    hyla_sb2st_q *sq = (hyla_sb2st_q *)1;
    CHECK(hyla_eig_sb2st_dev(h, 0, HYLA_D, N, KD, AB, LD, d, e, NULL) == HYLA_ERR_INVALID, "v: q");
    AB[2 + 5 * LD] = NAN;
    CHECK(hyla_eig_sb2st_dev(h, 0, HYLA_D, N, KD, AB, LD, d, e, &sq) == HYLA_ERR_NAN && !sq,
          "v: NaN");
    AB[2 + 5 * LD] = 0.5;
    sq = (hyla_sb2st_q *)1;
    CHECK(hyla_eig_sb2st_dev(h, ndev, HYLA_D, N, KD, AB, LD, d, e, &sq) == HYLA_ERR_NO_DEVICE &&
              !sq, "v: dev ndev");
    CHECK(hyla_eig_sb2st_dev(h, 0, HYLA_D, N, KD, AB, LD, d, NULL, &sq) == HYLA_ERR_INVALID && !sq,
          "v: e");
    CHECK(hyla_eig_sb2st_dev(h, 0, HYLA_D, 0, KD, NULL, LD, NULL, NULL, &sq) == 0 && sq,
          "v: n = 0");
    hyla_sb2st_q_free(&sq);
    if (ndev > 1) { /* a device-resident store is applied on its own device only */
        double Z[N];
        void *dZ = NULL;
        CHECK(hyla_eig_sb2st_dev(h, 0, HYLA_D, N, KD, AB, LD, d, e, &sq) == 0, "v: valid call");
        rc = hyla_malloc_device(h, 1, sizeof Z, &dZ);
        CHECK(rc == 0 && hyla_eig_sb2st_back(h, 1, sq, 1, dZ, N) == HYLA_ERR_INVALID,
              "v: store of device 0 applied on device 1");
        hyla_free_device(h, 1, &dZ);
        hyla_sb2st_q_free(&sq);
    }

    /* the op itself: nothing is enqueued on bad arguments */
    hyla_dev *dv = h->devs[0];
    const hyla_backend_ops *o = dv->ops;
    void *dAB = NULL, *dd = NULL, *de = NULL, *dw = NULL;
    const size_t wb = HYLA_HB2ST_WORK_BYTES(N);
    rc = o->mem_alloc(dv, HYLA_MEM_DEVICE, sizeof(double) * 2 * KD * N, &dAB);
    rc = rc ? rc : o->mem_alloc(dv, HYLA_MEM_DEVICE, sizeof(double) * N, &dd);
    rc = rc ? rc : o->mem_alloc(dv, HYLA_MEM_DEVICE, sizeof(double) * N, &de);
    rc = rc ? rc : o->mem_alloc(dv, HYLA_MEM_DEVICE, wb, &dw);
    CHECK(rc == 0, "op buffers: %d", rc);
    hyla_dev_workspace *ws = NULL;
    rc = rc ? rc : hyla_workspace_get(h, 0, 0, 0, &ws);
    if (rc == 0) {
        hyla_queue *q = ws->q_comp;
        CHECK(o->alg->hb2st(q, HYLA_D, N, KD, dAB, 2 * KD - 1, dd, de, dw, wb, 0) == HYLA_ERR_INVALID,
              "op: ldab < 2 kd");
        CHECK(o->alg->hb2st(q, HYLA_D, N, KD, dAB, 2 * KD, dd, de, dw, wb - 1, 0) == HYLA_ERR_INVALID,
              "op: work too small");
        CHECK(o->alg->hb2st(q, HYLA_D, N, KD, dAB, 2 * KD, dd, de, NULL, wb, 0) == HYLA_ERR_INVALID,
              "op: work NULL");
        CHECK(o->alg->hb2st(q, (hyla_dtype)9, N, KD, dAB, 2 * KD, dd, de, dw, wb, 0) == HYLA_ERR_INVALID,
              "op: dtype");
        CHECK(o->alg->hb2st(q, HYLA_D, -1, KD, dAB, 2 * KD, dd, de, dw, wb, 0) == HYLA_ERR_INVALID,
              "op: n < 0");
        CHECK(o->alg->hb2st(q, HYLA_D, 0, KD, NULL, 2 * KD, NULL, NULL, NULL, 0, 0) == 0, "op: n = 0");
        CHECK(o->alg->hb2st(q, HYLA_D, N, KD, dAB, 2 * KD, dd, de, dw, wb, -1) == HYLA_ERR_INVALID,
              "op: step -1");
        CHECK(o->alg->hb2st(q, HYLA_D, N, KD, dAB, 2 * KD, dd, de, dw, wb, 4) == HYLA_ERR_INVALID,
              "op: step 4");
        /* hb2st_v: the store must match n and kd */
        hyla_sb2st_q *sq = NULL;
        hyla_hb2st_store st;
        rc = hyla_sb2st_q_create_dev(h, 0, HYLA_D, N, KD, &sq, &st);
        CHECK(rc == 0 && sq, "store: %d", rc);
        if (rc == 0) {
            hyla_hb2st_store bad = st;
            CHECK(o->alg->hb2st_v(q, HYLA_D, N, KD, dAB, 2 * KD, dd, de, dw, wb, 0, NULL) ==
                      HYLA_ERR_INVALID, "op v: NULL store");
            CHECK(o->alg->hb2st_v(q, HYLA_D, N, KD + 1, dAB, 2 * KD + 2, dd, de, dw, wb, 0, &st) ==
                      HYLA_ERR_INVALID, "op v: store for another kd");
            CHECK(o->alg->hb2st_v(q, HYLA_D, N + 1, KD, dAB, 2 * KD, dd, de, dw, wb, 0, &st) ==
                      HYLA_ERR_INVALID, "op v: store for another n");
            bad.nb = KD + 1;
            CHECK(o->alg->hb2st_v(q, HYLA_D, N, KD, dAB, 2 * KD, dd, de, dw, wb, 0, &bad) ==
                      HYLA_ERR_INVALID, "op v: nb > kd");
            bad = st;
            bad.data = NULL;
            CHECK(o->alg->hb2st_v(q, HYLA_D, N, KD, dAB, 2 * KD, dd, de, dw, wb, 0, &bad) ==
                      HYLA_ERR_INVALID, "op v: NULL data");
            CHECK(o->alg->hb2st_v(q, HYLA_D, N, KD, dAB, 2 * KD, dd, de, NULL, wb, 0, &st) ==
                      HYLA_ERR_INVALID, "op v: work NULL");
            CHECK(o->alg->hb2st_v(q, HYLA_D, N, KD, dAB, 2 * KD, dd, de, dw, wb, 4, &st) ==
                      HYLA_ERR_INVALID, "op v: step 4");
        }
        hyla_sb2st_q_free(&sq);
        CHECK(!sq, "store freed and set to NULL");
        CHECK(hyla_sb2st_q_create_dev(h, 0, HYLA_D, N, N, &sq, &st) == HYLA_ERR_INVALID && !sq,
              "store: kd > n - 1");
        CHECK(o->queue_sync(q) == 0, "queue clean after the rejected calls");
    }
    o->mem_free(dv, HYLA_MEM_DEVICE, dw);
    o->mem_free(dv, HYLA_MEM_DEVICE, de);
    o->mem_free(dv, HYLA_MEM_DEVICE, dd);
    o->mem_free(dv, HYLA_MEM_DEVICE, dAB);
}

/* HYLA_OPT_EIG_CHASE_STEP. On a GPU, each way a step gets its window
 * (loaded after the wait, copied ahead, split at the late row) runs the
 * eigenvalue suites (the hard bands included) and the reflector cases,
 * whatever the default takes for the type. The host chase has one order:
 * the same bits under every value. */
static void chase_steps(hyla_t *h, unsigned long long *s) {
    hyla_device_info info;
    hyla_get_device_info(h, 0, &info);
    if (info.kind == HYLA_DEVICE_HOST) {
        enum { N = 50, KD = 6 };
        double AB[(KD + 1) * N], d0[N], e0[N], d[N], e[N];
        make_band_d(AB, N, KD, KD + 1, BAND_RANDOM, s);
        const int rc0 = hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, KD + 1, d0, e0);
        CHECK(rc0 == 0, "host: auto: %d", rc0);
        for (chase_step = 1; chase_step <= 3 && rc0 == 0; chase_step++) {
            int rc = hyla_set_option(h, HYLA_OPT_EIG_CHASE_STEP, chase_step);
            rc = rc ? rc : hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, KD + 1, d, e);
            CHECK(rc == 0 && memcmp(d, d0, sizeof d) == 0 &&
                      memcmp(e, e0, sizeof e[0] * (N - 1)) == 0,
                  "host chase, step %d: rc %d, not the bits of the default", chase_step, rc);
        }
    } else {
        for (chase_step = 1; chase_step <= 3; chase_step++) {
            CHECK(hyla_set_option(h, HYLA_OPT_EIG_CHASE_STEP, chase_step) == 0, "step %d",
                  chase_step);
            suite_s(h, s);
            suite_d(h, s);
            suite_c(h, s);
            suite_z(h, s);
            suite_v_steps_s(h, s);
            suite_v_steps_d(h, s);
            suite_v_steps_c(h, s);
            suite_v_steps_z(h, s);
        }
    }
    chase_step = 0;
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_CHASE_STEP, 4) == -3, "step 4 refused");
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_CHASE_STEP, 0) == 0, "step back to auto");
}

#ifdef HYLA_HAVE_CUDA
/* The split step's fallback (k_hb2st.cu: where the rescaling of the sums
 * taken before the hand-off would not be exact, the step runs on the whole
 * window) through the probe's count of fallen-back steps (trace[6]), d and
 * z on device 0 of a GPU: none on a random band, where the split runs
 * throughout; some on a tiny band (largest parts below the split's range),
 * with the same n and kd, so with the same split steps. The traced
 * kernel's tridiagonal has the eigenvalues of the driver's under
 * HYLA_CHASE_STEP_SPLIT within THRESH n eps |B| (LAPACK sterf on both; not
 * bitwise: the traced kernel is compiled on its own, and the compiler may
 * contract its products into FMAs differently); the suites above check the
 * driver's against LAPACK. */
static void split_fallback(hyla_t *h, unsigned long long *s) {
    hyla_device_info info;
    hyla_get_device_info(h, 0, &info);
    if (info.kind != HYLA_DEVICE_CUDA || cudaSetDevice(info.ordinal) != cudaSuccess) return;
    enum { N = 400, KD = 16, LD = 2 * KD };
    for (int z = 0; z < 2; z++)
        for (int cls = BAND_RANDOM; cls <= BAND_TINY; cls += BAND_TINY - BAND_RANDOM) {
            const hyla_dtype t = z ? HYLA_Z : HYLA_D;
            const size_t es = z ? 16 : 8;
            unsigned char *AB = calloc((size_t)LD * N, es), *Ab = malloc((size_t)(KD + 1) * N * es);
            double d0[N], e0[N], d[N], e[N];
            long long tr[8] = {0};
            void *dAB = NULL, *dd = NULL, *de = NULL, *dw = NULL, *dtr = NULL;
            CHECK(AB && Ab, "fallback: host buffers");
            if (!AB || !Ab) {
                free(AB);
                free(Ab);
                return;
            }
            if (z) make_band_z((double complex *)Ab, N, KD, KD + 1, cls, s);
            else make_band_d((double *)Ab, N, KD, KD + 1, cls, s);
            for (int j = 0; j < N; j++) /* into 2 kd rows, the bulge's zeros below */
                memcpy(AB + (size_t)j * LD * es, Ab + (size_t)j * (KD + 1) * es, (KD + 1) * es);
            int rc = hyla_set_option(h, HYLA_OPT_EIG_CHASE_STEP, HYLA_CHASE_STEP_SPLIT);
            rc = rc ? rc : hyla_eig_hb2st_dev(h, 0, t, N, KD, Ab, KD + 1, d0, e0);
            hyla_set_option(h, HYLA_OPT_EIG_CHASE_STEP, 0);
            /* the first CUDA error, if any */
            cudaError_t crc = cudaMalloc(&dAB, (size_t)LD * N * es);
            if (!crc) crc = cudaMalloc(&dd, sizeof d);
            if (!crc) crc = cudaMalloc(&de, sizeof e);
            if (!crc) crc = cudaMalloc(&dw, HYLA_HB2ST_WORK_BYTES(N));
            if (!crc) crc = cudaMalloc(&dtr, sizeof tr);
            if (!crc) crc = cudaMemcpy(dAB, AB, (size_t)LD * N * es, cudaMemcpyHostToDevice);
            if (!crc) crc = cudaMemset(dtr, 0, sizeof tr);
            if (!rc && !crc)
                rc = hyla_cuda_hb2st_probe(0, t, N, KD, dAB, LD, dd, de, dw, NULL,
                                           HYLA_CHASE_STEP_SPLIT - 1, dtr);
            if (!crc) crc = cudaDeviceSynchronize();
            if (!crc) crc = cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost);
            if (!crc) crc = cudaMemcpy(e, de, sizeof e, cudaMemcpyDeviceToHost);
            if (!crc) crc = cudaMemcpy(tr, dtr, sizeof tr, cudaMemcpyDeviceToHost);
            if (crc) (void)cudaGetLastError();
            CHECK(rc == 0 && crc == cudaSuccess, "fallback %c %s: rc %d, CUDA %s", "dz"[z],
                  band_class_name[cls], rc, cudaGetErrorString(crc));
            if (rc == 0 && crc == cudaSuccess) {
                const double nrm = z ? band_norm1_z((double complex *)Ab, N, KD, KD + 1)
                                     : band_norm1_d((double *)Ab, N, KD, KD + 1);
                const int sinfo = LAPACKE_dsterf(N, d, e) | LAPACKE_dsterf(N, d0, e0);
                double diff = 0;
                for (int i = 0; i < N; i++) diff = fmax(diff, fabs(d[i] - d0[i]));
                const double ratio = nrm > 0 ? diff / (N * DBL_EPSILON * nrm) : diff;
                CHECK(sinfo == 0 && ratio < THRESH,
                      "fallback %c %s: eigenvalues %g n eps |B| from the driver's (sterf %d)",
                      "dz"[z], band_class_name[cls], ratio, sinfo);
                if (cls == BAND_RANDOM)
                    CHECK(tr[6] == 0, "fallback %c random: %lld steps fell back", "dz"[z], tr[6]);
                else
                    CHECK(tr[6] > 0, "fallback %c tiny: no step fell back", "dz"[z]);
            }
            cudaFree(dAB);
            cudaFree(dd);
            cudaFree(de);
            cudaFree(dw);
            cudaFree(dtr);
            free(AB);
            free(Ab);
        }
}
#endif

/* kd past the CUDA kernel's 64: chased on the host backend, refused with
 * HYLA_ERR_UNSUPPORTED on a GPU. */
static void wide_band(hyla_t *h, unsigned long long *s) {
    hyla_device_info info;
    hyla_get_device_info(h, 0, &info);
    if (info.kind == HYLA_DEVICE_HOST) {
        case_d(h, 0, 80, 70, 0, BAND_RANDOM, s);
        return;
    }
    enum { N = 80, KD = 70 };
    double *AB = malloc(sizeof *AB * (KD + 1) * N), d[N], e[N];
    make_band_d(AB, N, KD, KD + 1, BAND_RANDOM, s);
    int rc = hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, KD + 1, d, e);
    CHECK(rc == HYLA_ERR_UNSUPPORTED, "kd 70 on a GPU: %d", rc);
    free(AB);
}

/* Allocation failure k = 1, 2, ... in hyla_eig_hb2st_dev until a run has
 * none: each failure is a clean HYLA_ERR_NO_MEMORY or
 * HYLA_ERR_DEVICE_MEMORY and leaks nothing. */
static void injection(hyla_t *h) {
    enum { N = 30, KD = 4 };
    double AB[(KD + 1) * N], d[N], e[N];
    unsigned long long s = 13;
    make_band_d(AB, N, KD, KD + 1, BAND_RANDOM, &s);
    leak_baseline(h);
    int64_t k, failures = 0;
    int rc = 0;
    for (k = 1; k < 1000; k++) {
        hyla_debug_fail_alloc(k);
        rc = hyla_eig_hb2st_dev(h, 0, HYLA_D, N, KD, AB, KD + 1, d, e);
        hyla_debug_fail_alloc(0);
        if (!t_injected(h, "hb2st", k, rc)) break;
        failures++;
    }
    CHECK(rc == 0 && failures >= 4, "injection: %lld failures, last rc %d", (long long)failures, rc);
    /* with the reflectors, and Q2 applied to two columns */
    failures = 0;
    for (k = 1; k < 1000; k++) {
        hyla_sb2st_q *q = NULL;
        void *dZ = NULL;
        hyla_debug_fail_alloc(k);
        rc = hyla_eig_sb2st_dev(h, 0, HYLA_D, N, KD, AB, KD + 1, d, e, &q);
        if (!rc) rc = hyla_malloc_device(h, 0, sizeof(double) * N * 2, &dZ);
        if (!rc) rc = hyla_eig_sb2st_back(h, 0, q, 2, dZ, N);
        hyla_debug_fail_alloc(0);
        hyla_free_device(h, 0, &dZ);
        hyla_sb2st_q_free(&q);
        if (!t_injected(h, "sb2st_dev", k, rc)) break;
        failures++;
    }
    CHECK(rc == 0 && failures >= 6, "injection, reflectors: %lld failures, last rc %d",
          (long long)failures, rc);
}

/* See the header comment; type one of s, d, c, z. */
static int bench(int64_t n, int64_t kd, const char *type) {
    hyla_t *h = NULL;
    if (n < 1 || kd < 0 || strlen(type) != 1 || !strchr("sdcz", type[0]) ||
        hyla_create(&h, test_devices()))
        return 2;
    int rc = 1;
    switch (type[0]) {
    case 's': rc = bench_s(h, n, kd); break;
    case 'd': rc = bench_d(h, n, kd); break;
    case 'c': rc = bench_c(h, n, kd); break;
    default: rc = bench_z(h, n, kd); break;
    }
    hyla_destroy(&h);
    return rc;
}

int main(int argc, char **argv) {
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "--bench") == 0)
        return bench(atoll(argv[2]), atoll(argv[3]), argc == 5 ? argv[4] : "d");
    unsigned long long seed = 2027;
    hyla_t *h = NULL;
    int64_t live0, live1;
    hyla_debug_alloc_stats(&live0, NULL);
    int rc = t_create(&h, test_devices(), "hb2st");
    if (rc) return rc;
    {   /* warm-up: what a device creates on first use stays until hyla_destroy */
        double AB[3 * 9], d[9], e[9];
        make_band_d(AB, 9, 2, 3, BAND_RANDOM, &seed);
        for (int dev = 0; dev < hyla_device_count(h); dev++)
            CHECK(hyla_eig_hb2st_dev(h, dev, HYLA_D, 9, 2, AB, 3, d, e) == 0, "warm-up");
    }
    hyla_device_info info;
    hyla_get_device_info(h, 0, &info);
    release_each = info.kind == HYLA_DEVICE_HOST;
    leak_baseline(h);
    suite_s(h, &seed);
    suite_d(h, &seed);
    suite_c(h, &seed);
    suite_z(h, &seed);
    suite_v_s(h, &seed);
    suite_v_d(h, &seed);
    suite_v_c(h, &seed);
    suite_v_z(h, &seed);
    leak_check(h, "suites");
    chase_steps(h, &seed);
#ifdef HYLA_HAVE_CUDA
    split_fallback(h, &seed);
#endif
    leak_check(h, "chase steps");
    bad_input(h);
    wide_band(h, &seed);
    leak_check(h, "bad input");
    if (info.kind == HYLA_DEVICE_HOST) injection(h);
    hyla_destroy(&h);
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld live allocations", (long long)(live1 - live0));
    return summary("hb2st");
}
