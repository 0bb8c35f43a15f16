/* Stage 2 of the eigensolver on the devices of HYLA_DEVICES (default one
 * virtual host device): hyla_?sytrd_sb2st / ?hetrd_hb2st (band ->
 * tridiagonal by bulge chasing) and the back transformations
 * ?ormtr_sb2st / ?unmtr_hb2st for the four precisions: the tridiagonal's
 * eigenvalues (LAPACK sterf) against the band's (LAPACK sbev/hbev);
 * B = Q2 T Q2^H and Q2 unitary with Q2 from the back transformation on the
 * first and on the last device; the serial and the pipelined chase give
 * bitwise the same d, e and Q2; n = 0, 1, 2, 3, odd, n <= kd, kd = 0, 1, 2,
 * 5, 8, 16; zero, diagonal, tiny, huge and graded bands; a device-memory
 * cap that splits Z into column chunks; NaN and Inf input; bad arguments; no leak; injected allocation
 * failures.
 *
 * `test_sb2st --bench N KD [NB]` times dsytrd_sb2st against LAPACK's, and the
 * back transformation with block reflectors of NB sweeps (default KD), on
 * device 0 of HYLA_DEVICES (not a test). */
#include "hyla.h"
#include "test_util.h"
#include "eig/psb2st.h"
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#define THRESH 60.0
#define HYLA_TMIN(a, b) ((a) < (b) ? (a) : (b))
#define HYLA_TMAX(a, b) ((a) > (b) ? (a) : (b))

/* Classes of test bands: random entries in (-1, 1), zero, diagonal only,
 * scaled near underflow or overflow, graded (B(i, j) ~ 2^-(i+j)/2). */
enum { BAND_RANDOM, BAND_ZERO, BAND_DIAGONAL, BAND_TINY, BAND_HUGE, BAND_GRADED };
static const char *band_class_name[] = {"random", "zero", "diagonal", "tiny", "huge", "graded"};

#define HYLA_TEMPLATE "t_test_sb2st.c"
#include "base/each_prec.h"

/* Allocation failure k = 1, 2, ... in the reduction with vectors and the
 * host back transformation until a run has no failure: each failure is a
 * clean HYLA_ERR_NO_MEMORY (or device memory) and leaks nothing. */
static void injection(hyla_t *h) {
    enum { N = 40, KD = 4 };
    double AB[(KD + 1) * N], d[N], e[N], Z[N * 2];
    unsigned long long s = 11;
    make_band_d(AB, N, KD, KD + 1, &s);
    leak_baseline(h);
    int64_t k, failures = 0;
    int rc = 0;
    for (k = 1; k < 1000; k++) {
        hyla_sb2st_q *q = NULL;
        for (int i = 0; i < N * 2; i++) Z[i] = 1;
        hyla_debug_fail_alloc(k);
        rc = hyla_dsytrd_sb2st(h, 'V', N, KD, AB, KD + 1, d, e, &q);
        if (!rc) rc = hyla_dormtr_sb2st(h, q, 2, Z, N);
        hyla_debug_fail_alloc(0);
        hyla_sb2st_q_free(&q);
        if (!t_injected(h, "sb2st", k, rc)) break;
        failures++;
    }
    CHECK(rc == 0 && failures >= 3, "injection: %lld failures, last rc %d", (long long)failures, rc);
}

/* A device-memory cap that holds the reflectors but not all of Z: the
 * host back transformation goes through in column chunks and gives what
 * one pass on an uncapped device gives. */
static void capped(void) {
    enum { N = 90, KD = 16, NC = 700 };
    hyla_t *h = NULL, *hc = NULL;
    int rc = hyla_create(&h, "cpu:1");
    rc = rc ? rc : hyla_create(&hc, "cpu:1@320K");
    CHECK(rc == 0, "create capped contexts: %d", rc);
    double *AB = malloc(sizeof *AB * (KD + 1) * N), d[N], e[N];
    double *Z = malloc(sizeof *Z * N * NC), *Zc = malloc(sizeof *Z * N * NC);
    hyla_sb2st_q *q = NULL;
    unsigned long long s = 17;
    make_band_d(AB, N, KD, KD + 1, &s);
    for (int i = 0; i < N * NC; i++) Z[i] = Zc[i] = t_rand(&s);
    rc = rc ? rc : hyla_dsytrd_sb2st(h, 'V', N, KD, AB, KD + 1, d, e, &q);
    rc = rc ? rc : hyla_dormtr_sb2st(h, q, NC, Z, N);
    CHECK(rc == 0, "uncapped back transformation: %d", rc);
    rc = hyla_dormtr_sb2st(hc, q, NC, Zc, N);
    CHECK(rc == 0, "back transformation under a 320K cap: %d", rc);
    double diff = 0;
    for (int i = 0; i < N * NC; i++) diff = fmax(diff, fabs(Z[i] - Zc[i]));
    CHECK(diff <= 1e-13, "capped back transformation differs by %g", diff);
    hyla_sb2st_q_free(&q);
    free(AB);
    free(Z);
    free(Zc);
    hyla_destroy(&hc);
    hyla_destroy(&h);
}

/* The backend's gemm_strided_batched on device dev against one gemm per
 * item: A shared (stride 0), B and C items interleaved at a stride of fewer
 * rows than each has (C_i rows 6i .. 6i+4 of a 40 x 7 matrix), both
 * transposes; batch 0 does nothing; batch < 0 and negative strides are
 * refused. */
static void batched_op(hyla_t *h, int dev) {
    enum { M = 5, N = 7, K = 4, LDB = 40, LDC = 40, SC = 6, NB = 6 };
    hyla_dev *d = h->devs[dev];
    const hyla_backend_ops *o = d->ops;
    double A[K * M], B[LDB * N], C0[LDC * N], C1[LDC * N], C2[LDC * N];
    const double alpha = 0.75, beta = -0.5;
    unsigned long long s = 5;
    for (int i = 0; i < K * M; i++) A[i] = t_rand(&s);
    for (int i = 0; i < LDB * N; i++) B[i] = t_rand(&s);
    for (int i = 0; i < LDC * N; i++) C0[i] = t_rand(&s);
    void *dA = NULL, *dB = NULL, *dC = NULL;
    hyla_dev_workspace *ws = NULL;
    int rc = hyla_malloc_device(h, dev, sizeof A, &dA);
    rc = rc ? rc : hyla_malloc_device(h, dev, sizeof B, &dB);
    rc = rc ? rc : hyla_malloc_device(h, dev, sizeof C0, &dC);
    rc = rc ? rc : hyla_copy_to_device(h, dev, dA, A, sizeof A);
    rc = rc ? rc : hyla_copy_to_device(h, dev, dB, B, sizeof B);
    rc = rc ? rc : hyla_workspace_get(h, dev, 0, 0, &ws);
    for (int ta = 0; ta < 2 && !rc; ta++) {
        const hyla_op opa = ta ? HYLA_TRANS : HYLA_NOTRANS;
        const int64_t lda = ta ? K : M;
        /* one call, then item by item */
        rc = hyla_copy_to_device(h, dev, dC, C0, sizeof C0);
        rc = rc ? rc : o->gemm_strided_batched(ws->q_comp, HYLA_D, opa, HYLA_NOTRANS, M, N, K,
                                               &alpha, dA, lda, 0, dB, LDB, SC, &beta, dC, LDC,
                                               SC, NB);
        rc = rc ? rc : o->queue_sync(ws->q_comp);
        rc = rc ? rc : hyla_copy_from_device(h, dev, C1, dC, sizeof C1);
        rc = rc ? rc : hyla_copy_to_device(h, dev, dC, C0, sizeof C0);
        for (int i = 0; i < NB && !rc; i++)
            rc = o->gemm(ws->q_comp, HYLA_D, opa, HYLA_NOTRANS, M, N, K, &alpha, dA, lda,
                         (double *)dB + SC * i, LDB, &beta, (double *)dC + SC * i, LDC);
        rc = rc ? rc : o->queue_sync(ws->q_comp);
        rc = rc ? rc : hyla_copy_from_device(h, dev, C2, dC, sizeof C2);
        CHECK(rc == 0, "batched op, dev %d, ta %d: %d", dev, ta, rc);
        double diff = 0, changed = 0;
        for (int i = 0; i < LDC * N; i++) {
            diff = fmax(diff, fabs(C1[i] - C2[i]));
            changed = fmax(changed, fabs(C1[i] - C0[i]));
        }
        CHECK(diff <= 1e-14 && changed > 0.01, "batched op, dev %d, ta %d: differs by %g", dev,
              ta, diff);
        /* row 5 of each item's slot (6i + 5) and rows past the batch are C0's */
        int kept = 1;
        for (int j = 0; j < N; j++)
            for (int i = 0; i < LDC; i++)
                if ((i % SC == M || i >= SC * NB) && C1[i + j * LDC] != C0[i + j * LDC]) kept = 0;
        CHECK(kept, "batched op, dev %d, ta %d: wrote outside the items", dev, ta);
    }
    if (!rc) {
        rc = hyla_copy_to_device(h, dev, dC, C0, sizeof C0);
        rc = rc ? rc : o->gemm_strided_batched(ws->q_comp, HYLA_D, HYLA_NOTRANS, HYLA_NOTRANS, M,
                                               N, K, &alpha, dA, M, 0, dB, LDB, SC, &beta, dC,
                                               LDC, SC, 0);
        rc = rc ? rc : o->queue_sync(ws->q_comp);
        rc = rc ? rc : hyla_copy_from_device(h, dev, C1, dC, sizeof C1);
        CHECK(rc == 0 && memcmp(C0, C1, sizeof C0) == 0, "batched op, batch 0 wrote (rc %d)", rc);
        CHECK(o->gemm_strided_batched(ws->q_comp, HYLA_D, HYLA_NOTRANS, HYLA_NOTRANS, M, N, K,
                                      &alpha, dA, M, 0, dB, LDB, SC, &beta, dC, LDC, SC, -1) ==
                  HYLA_ERR_INVALID,
              "batched op: batch -1 accepted");
        CHECK(o->gemm_strided_batched(ws->q_comp, HYLA_D, HYLA_NOTRANS, HYLA_NOTRANS, M, N, K,
                                      &alpha, dA, M, 0, dB, LDB, -SC, &beta, dC, LDC, SC, 2) ==
                  HYLA_ERR_INVALID,
              "batched op: negative stride accepted");
        CHECK(o->queue_sync(ws->q_comp) == 0, "batched op: queue failed after refused calls");
    }
    hyla_free_device(h, dev, &dA);
    hyla_free_device(h, dev, &dB);
    hyla_free_device(h, dev, &dC);
}

/* LAPACK's dsytrd_sb2st (LAPACKE has no wrapper before 3.12) */
extern void dsytrd_sb2st_(const char *stage1, const char *vect, const char *uplo, const int *n,
                          const int *kd, double *ab, const int *ldab, double *d, double *e,
                          double *hous, const int *lhous, double *work, const int *lwork,
                          int *info);

/* CPU time of the process (all threads) */
static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Times the chase (pipelined on all OpenMP threads and in the serial
 * reference order, without and with vectors) against LAPACK's
 * dsytrd_sb2st, then the back transformation of an n x n identity on
 * device 0 of HYLA_DEVICES. Best of three runs (one past n = 6000): the
 * host may be shared. */
static int bench(int64_t n, int64_t kd, int64_t qnb) {
    hyla_t *h = NULL;
    if (hyla_create(&h, test_devices())) return 1;
    if (hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, qnb)) return 1;
    unsigned long long s = 3;
    const int64_t ldab = kd + 1;
    const int reps = n > 6000 ? 1 : 3;
    double *AB = malloc(sizeof *AB * (size_t)(ldab * n)), *A2 = malloc(sizeof *AB * (size_t)(ldab * n));
    double *d = malloc(sizeof *d * (size_t)n), *e = malloc(sizeof *e * (size_t)n);
    hyla_sb2st_q *qv = NULL;
    int rc = 0;
    make_band_d(AB, n, kd, ldab, &s);
    printf("%% n %lld kd %lld back nb %lld, %d OpenMP threads, devices %s\n", (long long)n,
           (long long)kd, (long long)qnb,
           omp_get_max_threads(), test_devices());
    for (int vect = 0; vect < 2; vect++)
        for (int nt = 0; nt <= 1; nt++) {
            double best = 1e30, cbest = 1e30;
            for (int rep = 0; rep < reps; rep++) {
                hyla_sb2st_q *q = NULL;
                double t0 = omp_get_wtime(), c0 = cpu_seconds();
                rc |= hyla_eig_sb2st_threads(h, HYLA_D, n, kd, AB, ldab, d, e, vect ? &q : NULL, nt);
                best = fmin(best, omp_get_wtime() - t0);
                cbest = fmin(cbest, cpu_seconds() - c0);
                if (vect && !qv) qv = q;
                else hyla_sb2st_q_free(&q);
            }
            printf("hyla   dsytrd_sb2st vect %c %-8s: %8.3f s, cpu %8.3f s\n", vect ? 'V' : 'N',
                   nt ? "serial" : "parallel", best, cbest);
        }
    int ni = (int)n, kdi = (int)kd, ldi = (int)ldab, info, lh = -1, lw = -1;
    double qh, qw;
    dsytrd_sb2st_("N", "N", "L", &ni, &kdi, A2, &ldi, d, e, &qh, &lh, &qw, &lw, &info);
    lh = (int)qh;
    lw = (int)qw;
    double *hous = malloc(sizeof *hous * (size_t)lh), *work = malloc(sizeof *work * (size_t)lw);
    double best = 1e30, cbest = 1e30;
    for (int rep = 0; rep < reps; rep++) {
        memcpy(A2, AB, sizeof *AB * (size_t)(ldab * n));
        double t0 = omp_get_wtime(), c0 = cpu_seconds();
        dsytrd_sb2st_("N", "N", "L", &ni, &kdi, A2, &ldi, d, e, hous, &lh, work, &lw, &info);
        best = fmin(best, omp_get_wtime() - t0);
        cbest = fmin(cbest, cpu_seconds() - c0);
    }
    printf("LAPACK dsytrd_sb2st vect N         : %8.3f s, cpu %8.3f s (info %d)\n", best, cbest, info);
    free(hous);
    free(work);
    /* Q2 applied to the identity on device 0 */
    void *dZ = NULL;
    const size_t bytes = sizeof(double) * (size_t)(n * n);
    double *Z = calloc((size_t)(n * n), sizeof *Z);
    for (int64_t i = 0; i < n; i++) Z[i + i * n] = 1;
    rc |= hyla_malloc_device(h, 0, bytes, &dZ);
    best = 1e30, cbest = 1e30;
    for (int rep = 0; rep < 2 && !rc; rep++) {
        rc |= hyla_copy_to_device(h, 0, dZ, Z, bytes);
        double t0 = omp_get_wtime(), c0 = cpu_seconds();
        rc |= hyla_dormtr_sb2st_gpu(h, 0, qv, n, dZ, n);
        best = fmin(best, omp_get_wtime() - t0);
        cbest = fmin(cbest, cpu_seconds() - c0);
    }
    printf("hyla   dormtr_sb2st_gpu, n x n     : %8.3f s, cpu %8.3f s, %.1f Gflop/s for 2 n^3 (rc %d)\n",
           best, cbest, 2.0 * (double)n * (double)n * (double)n / best * 1e-9, rc);
    hyla_free_device(h, 0, &dZ);
    hyla_sb2st_q_free(&qv);
    free(Z);
    free(AB);
    free(A2);
    free(d);
    free(e);
    hyla_destroy(&h);
    return rc != 0;
}

/* A stage 1 stand-in for the fed chase: publishes the band of src into dst
 * a few columns at a time, with pauses, as sy2sb does panel by panel; or
 * stops half-way as a failed stage 1 does (failed, then ready = n). */
typedef struct {
    const double *src;
    double *dst;
    int64_t n, kd, ldab, step;
    int fail;
    hyla_band_feed *feed;
} producer;

static void *produce(void *arg) {
    producer *p = arg;
    for (int64_t j = 0; j < p->n; j += p->step) {
        const int64_t j1 = j + p->step < p->n ? j + p->step : p->n;
        if (p->fail && j >= p->n / 2) {
            atomic_store(&p->feed->failed, 1);
            atomic_store_explicit(&p->feed->ready, p->n, memory_order_release);
            return NULL;
        }
        memcpy(p->dst + j * p->ldab, p->src + j * p->ldab, sizeof(double) * (size_t)((j1 - j) * p->ldab));
        atomic_store_explicit(&p->feed->ready, j1, memory_order_release);
        const struct timespec ts = {0, 200000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* The chase reading a band that arrives while it runs gives bitwise the
 * result of the chase on the whole band, serial and threaded; a NaN in a
 * late column is found; a producer that fails does not hang it. */
static void fed(hyla_t *h, unsigned long long *s) {
    enum { N = 203, KD = 6, LD = KD + 1 };
    static double src[LD * N], dst[LD * N], tmp[LD * N], d0[N], e0[N], d1[N], e1[N];
    make_band_d(src, N, KD, LD, s);
    memcpy(tmp, src, sizeof src);
    CHECK(hyla_eig_sb2st_threads(h, HYLA_D, N, KD, tmp, LD, d0, e0, NULL, 1) == 0, "plain chase");
    for (int nt = 1; nt <= 3; nt += 2)
        for (int step = 1; step <= 25; step += 12) {
            for (int fail = 0; fail < 2; fail++) {
                hyla_band_feed feed;
                atomic_init(&feed.ready, 0);
                atomic_init(&feed.failed, 0);
                memset(dst, 0, sizeof dst);
                producer p = {.src = src, .dst = dst, .n = N, .kd = KD, .ldab = LD, .step = step,
                              .fail = fail, .feed = &feed};
                hyla_sb2st_q *q = NULL;
                pthread_t th;
                CHECK(pthread_create(&th, NULL, produce, &p) == 0, "producer thread");
                int rc = hyla_eig_sb2st_fed(h, HYLA_D, N, KD, dst, LD, d1, e1, &q, &feed, nt);
                pthread_join(th, NULL);
                hyla_sb2st_q_free(&q);
                if (fail) continue; /* no hang is the check; the result is meaningless */
                CHECK(rc == 0 && !memcmp(d0, d1, sizeof d0) && !memcmp(e0, e1, sizeof(double) * (N - 1)),
                      "fed chase nt %d step %d: rc %d, differs from the plain chase", nt, step, rc);
            }
        }
    /* NaN in column N - 3 (read after most sweeps have run) */
    memcpy(tmp, src, sizeof src);
    tmp[1 + (N - 3) * LD] = NAN;
    hyla_band_feed feed;
    atomic_init(&feed.ready, 0);
    atomic_init(&feed.failed, 0);
    producer p = {.src = tmp, .dst = dst, .n = N, .kd = KD, .ldab = LD, .step = 40, .feed = &feed};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, produce, &p) == 0, "producer thread");
    int rc = hyla_eig_sb2st_fed(h, HYLA_D, N, KD, dst, LD, d1, e1, NULL, &feed, 3);
    pthread_join(th, NULL);
    CHECK(rc == HYLA_ERR_NAN, "fed chase with a NaN: rc %d", rc);
    CHECK(hyla_eig_sb2st_overlaps(16384, 32) && !hyla_eig_sb2st_overlaps(50, 4), "overlap sizes");
}

int main(int argc, char **argv) {
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "--bench") == 0)
        return bench(atoll(argv[2]), atoll(argv[3]), argc == 5 ? atoll(argv[4]) : 0);
    const char *devices = test_devices();
    unsigned long long seed = 2026;
    hyla_t *h = NULL;
    int64_t live0, live1;
    hyla_debug_alloc_stats(&live0, NULL);
    int rc = t_create(&h, devices, "sb2st");
    if (rc) return rc;
    /* Warm-up: what a device creates on its first use (library handles)
     * stays until hyla_destroy; the baseline counts it. */
    {
        enum { N = 9, KD = 2 };
        double AB[(KD + 1) * N], d[N], e[N], Q[N * N];
        hyla_sb2st_q *q = NULL;
        unsigned long long s = 1;
        make_band_d(AB, N, KD, KD + 1, &s);
        rc = hyla_dsytrd_sb2st(h, 'V', N, KD, AB, KD + 1, d, e, &q);
        for (int dev = 0; dev < hyla_device_count(h) && !rc; dev++)
            rc = explicit_q_d(h, dev, q, N, Q);
        hyla_sb2st_q_free(&q);
        CHECK(rc == 0, "warm-up calls: %d", rc);
    }
    leak_baseline(h);
    fed(h, &seed);
    leak_check(h, "fed chase");
    for (int dev = 0; dev < hyla_device_count(h); dev++) batched_op(h, dev);
    leak_check(h, "batched op");
    suite_s(h, &seed);
    suite_d(h, &seed);
    suite_c(h, &seed);
    suite_z(h, &seed);
    hyla_device_info info;
    hyla_get_device_info(h, 0, &info);
    if (info.kind == HYLA_DEVICE_HOST) injection(h);
    hyla_destroy(&h);
    if (info.kind == HYLA_DEVICE_HOST) capped();
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld live allocations", (long long)(live1 - live0));
    return summary("sb2st");
}
