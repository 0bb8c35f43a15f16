/* Context, device lists, options, error strings and the backend interface
 * (queues, events, copies, BLAS-3 and custom kernels) on the devices of
 * HYLA_DEVICES. Uses the internal headers to reach the backend directly. */
#include "core/internal.h"
#include "harness.h"
#include <cblas.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_specs(void) {
    hyla_t *h = (hyla_t *)1;
    const char *bad[] = {"", "gpu:", "cuda:a", "cpu:0", "cpu:65", "cpu:2x", "tpu", "cpu@",
                         "cpu@12Q", "cuda:1,", "cpu:3@0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        hyla_device_spec sp;
        int rc = hyla_parse_devices(bad[i], &sp);
        CHECK(rc == HYLA_ERR_DEVICE_SPEC, "spec '%s' rejected (%d)", bad[i], rc);
    }
    hyla_device_spec sp;
    CHECK(hyla_parse_devices("cuda:0,2", &sp) == 0 && sp.count == 2 && sp.ordinals[1] == 2, "cuda:0,2");
    CHECK(hyla_parse_devices("cuda:0,0", &sp) == 0 && sp.count == 2 && sp.ordinals[0] == 0 &&
              sp.ordinals[1] == 0, "cuda:0,0: one GPU as two logical devices");
    CHECK(hyla_parse_devices("cpu:3@64M", &sp) == 0 && sp.count == 3 && sp.mem_cap == 64 << 20, "cpu:3@64M");
    CHECK(hyla_parse_devices("host", &sp) == 0 && sp.count == 1 && sp.kind == HYLA_DEVICE_HOST, "host");
    CHECK(hyla_create(&h, "bogus") == HYLA_ERR_DEVICE_SPEC && h == NULL, "create bogus sets NULL");
    CHECK(hyla_create(NULL, "cpu") == -1, "create NULL");
    if (hyla_cuda_device_count() == 0) {
        int rc = hyla_create(&h, "cuda:0");
        CHECK((rc == HYLA_ERR_NO_DEVICE || rc == HYLA_ERR_UNSUPPORTED) && h == NULL, "no GPU: %d", rc);
    }
    CHECK(hyla_create(&h, "cpu:2@1M") == 0 && hyla_device_count(h) == 2, "cpu:2@1M");
    hyla_device_info info;
    CHECK(hyla_get_device_info(h, 1, &info) == 0 && info.memory_bytes == 1 << 20 &&
              info.kind == HYLA_DEVICE_HOST, "device info");
    CHECK(hyla_get_device_info(h, 2, &info) == -2 && hyla_get_device_info(NULL, 0, &info) == -1 &&
              hyla_get_device_info(h, 0, NULL) == -3, "device info args");
    void *p = NULL;
    CHECK(hyla_malloc_device(h, 0, 2 << 20, &p) == HYLA_ERR_DEVICE_MEMORY && p == NULL, "cap enforced");
    CHECK(hyla_malloc_device(h, 0, 1 << 19, &p) == 0 && p != NULL, "alloc under cap");
    hyla_free_device(h, 0, &p);
    CHECK(hyla_malloc_device(h, 0, 1 << 20, &p) == 0, "cap released by free");
    hyla_free_device(h, 0, &p);
    hyla_free_device(h, 0, &p); /* NULL is fine */
    CHECK(hyla_malloc_device(h, 5, 8, &p) == HYLA_ERR_NO_DEVICE, "bad device");
    CHECK(hyla_set_option(h, HYLA_OPT_GEMM_TILE, -1) == -3, "option range");
    CHECK(hyla_set_option(h, (hyla_option)77, 1) == -2, "option unknown");
    CHECK(hyla_set_option(NULL, HYLA_OPT_GEMM_TILE, 1) == -1, "option ctx");
    int64_t v;
    CHECK(hyla_set_option(h, HYLA_OPT_GEMM_CPU_SHARE, 250) == 0 &&
              hyla_get_option(h, HYLA_OPT_GEMM_CPU_SHARE, &v) == 0 && v == 250, "option roundtrip");
    hyla_destroy(&h);
    hyla_destroy(&h);
    hyla_destroy(NULL);
    CHECK(h == NULL, "destroy twice");
    const int codes[] = {0, -3, 2, HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE,
                         HYLA_ERR_BLAS, HYLA_ERR_NO_DEVICE, HYLA_ERR_DEVICE_SPEC, HYLA_ERR_UNSUPPORTED,
                         HYLA_ERR_IO, HYLA_ERR_FORMAT, HYLA_ERR_INVALID, HYLA_ERR_INTERNAL, -999};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        CHECK(hyla_strerror(codes[i]) && *hyla_strerror(codes[i]), "strerror %d", codes[i]);
    CHECK(strcmp(hyla_strerror(HYLA_ERR_IO), hyla_strerror(HYLA_ERR_FORMAT)) != 0, "distinct strings");
}

/* hyla_device_list_slot: one GPU of a list per process, host lists whole. */
static void test_list_slot(void) {
    char b[64];
    CHECK(hyla_device_list_slot("cuda:2,3@8G", 3, b, sizeof b) == 0 && strcmp(b, "cuda:3@8G") == 0,
          "slot 3 of cuda:2,3@8G: '%s'", b);
    CHECK(hyla_device_list_slot("gpu:5,0,0", 1, b, sizeof b) == 0 && strcmp(b, "cuda:0") == 0,
          "slot 1 of gpu:5,0,0: '%s'", b);
    CHECK(hyla_device_list_slot("cuda:7", 9, b, sizeof b) == 0 && strcmp(b, "cuda:7") == 0,
          "slot 9 of cuda:7: '%s'", b);
    CHECK(hyla_device_list_slot("cpu:3@1M", 5, b, sizeof b) == 0 && strcmp(b, "cpu:3@1M") == 0,
          "host list whole: '%s'", b);
    const int gpus = hyla_cuda_device_count();
    int rc = hyla_device_list_slot("cuda", 5, b, sizeof b);
    if (gpus > 0) {
        char want[32];
        snprintf(want, sizeof want, "cuda:%d", 5 % gpus);
        CHECK(rc == 0 && strcmp(b, want) == 0, "slot 5 of cuda on %d GPUs: '%s'", gpus, b);
    } else {
        CHECK(rc == HYLA_ERR_NO_DEVICE && b[0] == '\0', "cuda without a GPU: %d", rc);
    }
    CHECK(hyla_device_list_slot("cuda:a", 0, b, sizeof b) == HYLA_ERR_DEVICE_SPEC && b[0] == '\0',
          "malformed list");
    CHECK(hyla_device_list_slot("cuda:1", -1, b, sizeof b) == HYLA_ERR_INVALID, "slot < 0");
    CHECK(hyla_device_list_slot("cuda:1", 0, NULL, 8) == HYLA_ERR_INVALID, "buf NULL");
    CHECK(hyla_device_list_slot("cuda:1", 0, b, 0) == HYLA_ERR_INVALID, "len 0");
    CHECK(hyla_device_list_slot("cuda:12@8G", 0, b, 6) == HYLA_ERR_INVALID && b[0] == '\0',
          "result longer than len");
    /* NULL: HYLA_DEVICES, then the default list */
    const char *env = getenv("HYLA_DEVICES");
    char *saved = env ? strdup(env) : NULL;
    setenv("HYLA_DEVICES", "cuda:4,6", 1);
    CHECK(hyla_device_list_slot(NULL, 1, b, sizeof b) == 0 && strcmp(b, "cuda:6") == 0,
          "NULL reads HYLA_DEVICES: '%s'", b);
    unsetenv("HYLA_DEVICES");
    rc = hyla_device_list_slot("", 0, b, sizeof b);
    CHECK(rc == 0 && (gpus > 0 ? strcmp(b, "cuda:0") == 0 : strcmp(b, "cpu") == 0),
          "default list: %d '%s'", rc, b);
    if (saved) setenv("HYLA_DEVICES", saved, 1);
    free(saved);
}

typedef struct { double *x; int n; } slow_arg;
/* a slow host function: if queues did not wait, the copy after it would see stale data */
static void slow_fill(void *p) {
    slow_arg *a = p;
    usleep(20000);
    for (int i = 0; i < a->n; i++) a->x[i] = i + 1;
}

static void test_backend(hyla_t *h) {
    hyla_dev *d0 = h->devs[0], *d1 = h->devs[h->ndev - 1];
    const hyla_backend_ops *o = d0->ops;
    hyla_queue *q0, *q1;
    hyla_event *e0, *e1, *t0, *t1;
    CHECK(o->queue_create(d0, &q0) == 0 && o->queue_create(d1, &q1) == 0, "queues");
    CHECK(o->event_create(d0, 0, &e0) == 0 && o->event_create(d1, 0, &e1) == 0, "events");
    CHECK(o->event_create(d0, 1, &t0) == 0 && o->event_create(d0, 1, &t1) == 0, "timing events");
    enum { N = 1000 };
    /* pinned: a copy from pageable memory may read it when enqueued (CUDA) */
    double *host = NULL, back[N];
    void *dbuf0, *dbuf1, *pin = NULL;
    CHECK(o->mem_alloc(d0, HYLA_MEM_PINNED, N * sizeof(double), &pin) == 0, "pinned buffer");
    if (!pin) return;
    host = pin;
    CHECK(o->mem_alloc(d0, HYLA_MEM_DEVICE, sizeof back, &dbuf0) == 0 &&
              d1->ops->mem_alloc(d1, HYLA_MEM_DEVICE, sizeof back, &dbuf1) == 0, "device buffers");
    slow_arg arg = {host, N};
    memset(host, 0, sizeof back);
    /* q0: slow fill, then copy to d0, record e0; q1 waits e0, peer copy, copy back */
    o->event_record(t0, q0);
    o->host_fn(q0, slow_fill, &arg);
    o->copy_2d(q0, dbuf0, sizeof back, host, sizeof back, sizeof back, 1, HYLA_COPY_H2D);
    o->event_record(e0, q0);
    o->event_record(t1, q0);
    o->queue_wait_event(q1, e0);
    o->copy_peer(q1, dbuf1, d1, dbuf0, d0, sizeof back);
    o->copy_2d(q1, back, sizeof back, dbuf1, sizeof back, sizeof back, 1, HYLA_COPY_D2H);
    o->event_record(e1, q1);
    CHECK(o->event_sync(e1) == 0, "event sync");
    int ok = 1;
    for (int i = 0; i < N; i++) ok &= back[i] == i + 1;
    CHECK(ok, "cross-queue ordering through events");
    float ms = -1;
    o->event_sync(t1); /* t1 follows e0 on q0: e1's completion does not imply it */
    CHECK(o->event_elapsed_ms(t0, t1, &ms) == 0 && ms >= 15.0f, "elapsed %g ms", ms);
    /* 2-D copies: a 3x4 block out of a 5-row matrix */
    double m5[20], blk[12];
    for (int i = 0; i < 20; i++) m5[i] = i;
    o->copy_2d(q0, dbuf0, 3 * sizeof(double), m5 + 1, 5 * sizeof(double), 3 * sizeof(double), 4, HYLA_COPY_H2D);
    o->copy_2d(q0, blk, 3 * sizeof(double), dbuf0, 3 * sizeof(double), 3 * sizeof(double), 4, HYLA_COPY_D2H);
    o->queue_sync(q0);
    CHECK(blk[0] == 1 && blk[3] == 6 && blk[11] == 18, "copy_2d");

    /* BLAS-3 and kernels on the device against CBLAS on the host */
    enum { M = 7, K = 5 };
    double A[M * M], B[M * K], Bref[M * K], C[M * M], Cref[M * M];
    unsigned long long s = 7;
    for (int i = 0; i < M * M; i++) A[i] = t_rand(&s) + (i % (M + 1) == 0 ? 4 : 0);
    for (int i = 0; i < M * K; i++) B[i] = Bref[i] = t_rand(&s);
    for (int i = 0; i < M * M; i++) C[i] = Cref[i] = t_rand(&s);
    const double one = 1, half = 0.5;
    double *dA = dbuf0, *dB = dA + M * M, *dC = dB + M * K;
    o->copy_2d(q0, dA, 8 * M * M, A, 8 * M * M, 8 * M * M, 1, HYLA_COPY_H2D);
    o->copy_2d(q0, dB, 8 * M * K, B, 8 * M * K, 8 * M * K, 1, HYLA_COPY_H2D);
    o->copy_2d(q0, dC, 8 * M * M, C, 8 * M * M, 8 * M * M, 1, HYLA_COPY_H2D);
    o->syrk(q0, HYLA_D, 0, HYLA_LOWER, HYLA_NOTRANS, M, K, &half, dB, M, &one, dC, M);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, M, K, 0.5, Bref, M, 1.0, Cref, M);
    o->syr2k(q0, HYLA_D, 0, HYLA_UPPER, HYLA_NOTRANS, M, K, &half, dB, M, dB, M, &one, dC, M);
    cblas_dsyr2k(CblasColMajor, CblasUpper, CblasNoTrans, M, K, 0.5, Bref, M, Bref, M, 1.0, Cref, M);
    o->trsm(q0, HYLA_D, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_NONUNIT, M, K, &one, dA, M, dB, M);
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, M, K, 1.0, A, M, Bref, M);
    o->trmm(q0, HYLA_D, HYLA_LEFT, HYLA_UPPER, HYLA_TRANS, HYLA_UNIT, M, K, &half, dA, M, dB, M);
    cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasUnit, M, K, 0.5, A, M, Bref, M);
    o->symm(q0, HYLA_D, 0, HYLA_RIGHT, HYLA_LOWER, K, M, &one, dA, M, dB, K, &half, dC, K);
    cblas_dsymm(CblasColMajor, CblasRight, CblasLower, K, M, 1.0, A, M, Bref, K, 0.5, Cref, K);
    o->copy_2d(q0, C, 8 * M * M, dC, 8 * M * M, 8 * M * M, 1, HYLA_COPY_D2H);
    o->copy_2d(q0, B, 8 * M * K, dB, 8 * M * K, 8 * M * K, 1, HYLA_COPY_D2H);
    o->queue_sync(q0);
    double e = 0;
    for (int i = 0; i < M * M; i++) e = fmax(e, fabs(C[i] - Cref[i]));
    for (int i = 0; i < M * K; i++) e = fmax(e, fabs(B[i] - Bref[i]));
    CHECK(e < 1e-12 && fabs(C[0] - Cref[0]) < 1e-12, "syrk/syr2k/trsm/trmm/symm match CBLAS: %g", e);
    /* complex herk: real alpha/beta; the diagonal stays real */
    double _Complex Z[4] = {1 + 2 * I, 3 - I, 2, -1 + I}, H[4] = {0};
    /* on q0's own device: another GPU's memory is not reachable without peer access */
    void *dZ = (unsigned char *)dbuf0 + 2048;
    double _Complex *dH = (double _Complex *)dZ + 4;
    const double done = 1, dzero = 0;
    o->copy_2d(q0, dZ, 64, Z, 64, 64, 1, HYLA_COPY_H2D);
    o->syrk(q0, HYLA_Z, 1, HYLA_LOWER, HYLA_NOTRANS, 2, 2, &done, dZ, 2, &dzero, dH, 2);
    o->copy_2d(q0, H, 64, dH, 64, 64, 1, HYLA_COPY_D2H);
    o->queue_sync(q0);
    CHECK(cabs(H[0] - 9) < 1e-12 && cabs(H[1] - ((3 - I) * (1 - 2 * I) + (-1 + I) * 2)) < 1e-12 && cimag(H[3]) == 0 &&
              cabs(H[3] - 12) < 1e-12, "zherk diag %g %g", creal(H[0]), creal(H[3]));
    /* laset and scale */
    const double off = 7, dia = 1, two = 2, zero = 0;
    double L[9];
    for (int i = 0; i < 9; i++) L[i] = -1;
    o->copy_2d(q0, dA, 72, L, 72, 72, 1, HYLA_COPY_H2D);
    o->laset(q0, HYLA_D, HYLA_LOWER, 3, 3, &off, &dia, dA, 3);
    o->scale(q0, HYLA_D, 3, 1, &two, dA + 3, 3);
    o->copy_2d(q0, L, 72, dA, 72, 72, 1, HYLA_COPY_D2H);
    o->queue_sync(q0);
    CHECK(L[0] == 1 && L[1] == 7 && L[3] == -2 && L[4] == 2 && L[5] == 14 && L[6] == -1 && L[8] == 1,
          "laset/scale");
    for (int i = 0; i < 9; i++) L[i] = NAN;
    o->copy_2d(q0, dA, 72, L, 72, 72, 1, HYLA_COPY_H2D);
    o->scale(q0, HYLA_D, 3, 3, &zero, dA, 3);
    o->copy_2d(q0, L, 72, dA, 72, 72, 1, HYLA_COPY_D2H);
    o->queue_sync(q0);
    CHECK(L[0] == 0 && L[8] == 0, "scale by 0 clears NaN");
    o->mem_free(d0, HYLA_MEM_DEVICE, dbuf0);
    o->mem_free(d0, HYLA_MEM_PINNED, pin);
    d1->ops->mem_free(d1, HYLA_MEM_DEVICE, dbuf1);
    o->event_destroy(e0);
    d1->ops->event_destroy(e1);
    o->event_destroy(t0);
    o->event_destroy(t1);
    o->queue_destroy(q0);
    d1->ops->queue_destroy(q1);
}

/* symm/hemm with A on the left past the host backend's column blocks (512
 * rows: it splits A into diagonal blocks for ?symm and the stored blocks
 * beside them for ?gemm) against CBLAS, both triangles, d and z, a leading
 * dimension above m, beta != 0 and a non-multiple of the block. */
static void test_symm_large(hyla_t *h) {
    hyla_dev *d = h->devs[0];
    const hyla_backend_ops *o = d->ops;
    enum { M = 1100, LD = M + 3, NR = 6 };
    const size_t na = (size_t)LD * M, nb = (size_t)LD * NR;
    double _Complex *A = malloc(na * sizeof *A), *B = malloc(nb * sizeof *B),
                    *C = malloc(nb * sizeof *C), *R = malloc(nb * sizeof *R);
    void *dA = NULL, *dB = NULL, *dC = NULL;
    hyla_queue *q = NULL;
    int ok = A && B && C && R && o->queue_create(d, &q) == 0 &&
             o->mem_alloc(d, HYLA_MEM_DEVICE, na * sizeof *A, &dA) == 0 &&
             o->mem_alloc(d, HYLA_MEM_DEVICE, nb * sizeof *B, &dB) == 0 &&
             o->mem_alloc(d, HYLA_MEM_DEVICE, nb * sizeof *C, &dC) == 0;
    CHECK(ok, "large symm: buffers");
    unsigned long long s = 11;
    for (int cplx = 0; ok && cplx < 2; cplx++)
        for (int up = 0; up < 2; up++) {
            const hyla_dtype t = cplx ? HYLA_Z : HYLA_D;
            const size_t es = cplx ? 16 : 8;
            double *a = (double *)A, *b = (double *)B, *c = (double *)C, *r = (double *)R;
            for (size_t i = 0; i < na * es / 8; i++) a[i] = t_rand(&s);
            for (size_t i = 0; i < nb * es / 8; i++) b[i] = t_rand(&s), c[i] = r[i] = t_rand(&s);
            const double alpha[2] = {0.75, cplx ? -0.25 : 0}, beta[2] = {-0.5, cplx ? 0.5 : 0};
            const hyla_uplo u = up ? HYLA_UPPER : HYLA_LOWER;
            o->copy_2d(q, dA, na * es, A, na * es, na * es, 1, HYLA_COPY_H2D);
            o->copy_2d(q, dB, nb * es, B, nb * es, nb * es, 1, HYLA_COPY_H2D);
            o->copy_2d(q, dC, nb * es, C, nb * es, nb * es, 1, HYLA_COPY_H2D);
            o->symm(q, t, 1, HYLA_LEFT, u, M, NR, alpha, dA, LD, dB, LD, beta, dC, LD);
            o->copy_2d(q, C, nb * es, dC, nb * es, nb * es, 1, HYLA_COPY_D2H);
            o->queue_sync(q);
            const enum CBLAS_UPLO cu = up ? CblasUpper : CblasLower;
            if (cplx)
                cblas_zhemm(CblasColMajor, CblasLeft, cu, M, NR, alpha, A, LD, B, LD, beta, R, LD);
            else
                cblas_dsymm(CblasColMajor, CblasLeft, cu, M, NR, alpha[0], a, LD, b, LD, beta[0],
                            r, LD);
            double e = 0, big = 0;
            for (int j = 0; j < NR; j++)
                for (int i = 0; i < M; i++) {
                    const size_t k = (size_t)i + (size_t)j * LD;
                    const double _Complex x = cplx ? C[k] : c[k], y = cplx ? R[k] : r[k];
                    e = fmax(e, cabs(x - y)), big = fmax(big, cabs(y));
                }
            CHECK(big > 1 && e < 1e-12 * M * big, "large %s %c: |C - CBLAS| %g", cplx ? "zhemm" : "dsymm",
                  up ? 'U' : 'L', e);
        }
    o->mem_free(d, HYLA_MEM_DEVICE, dA);
    o->mem_free(d, HYLA_MEM_DEVICE, dB);
    o->mem_free(d, HYLA_MEM_DEVICE, dC);
    if (q) o->queue_destroy(q);
    free(A), free(B), free(C), free(R);
}

/* The tuning table's row by device: the host backend, CUDA below
 * capability 9, Hopper, and capability 9 with more than 100 GiB of its own
 * memory (HBM3e), whose row is Hopper's but for the one-stage crossovers,
 * which the H200's measurements moved up or kept; a context's memory cap
 * does not change the row. On a GPU, the context's first device gets the
 * row its memory says. */
static void test_tuning_rows(hyla_t *h) {
    hyla_dev d;
    memset(&d, 0, sizeof d);
    d.info.kind = HYLA_DEVICE_HOST;
    CHECK(strcmp(hyla_tuning_for(&d)->family, "host") == 0, "host row");
    d.info.kind = HYLA_DEVICE_CUDA;
    d.info.compute_major = 8;
    d.phys_memory = (int64_t)141 << 30;
    CHECK(strcmp(hyla_tuning_for(&d)->family, "cuda-generic") == 0, "capability 8 row");
    d.info.compute_major = 9;
    d.phys_memory = (int64_t)80 << 30;
    const hyla_tuning *hop = hyla_tuning_for(&d);
    CHECK(strcmp(hop->family, "hopper") == 0, "80 GiB Hopper row: %s", hop->family);
    d.phys_memory = ((int64_t)100 << 30) + 1;
    d.info.memory_bytes = (int64_t)1 << 30; /* a cap */
    const hyla_tuning *e = hyla_tuning_for(&d);
    CHECK(strcmp(e->family, "hopper-hbm3e") == 0 && e == hyla_tuning_for(&d),
          "HBM3e row: %s", e->family);
    d.phys_memory = (int64_t)100 << 30;
    CHECK(hyla_tuning_for(&d) == hop, "100 GiB: the Hopper row");
    hyla_tuning a, b;
    memcpy(&a, hop, sizeof a);
    memcpy(&b, e, sizeof b);
    int up = 1;
    for (int v = 0; v < 2; v++)
        for (int t = 0; t < 4; t++) up &= b.eig_one_stage[v][t] >= a.eig_one_stage[v][t];
    CHECK(up && b.eig_one_stage[0][HYLA_D] == 4096 && b.eig_one_stage[1][HYLA_D] == 5120 &&
              b.eig_one_stage[1][HYLA_Z] == 4096,
          "HBM3e crossovers: d %lld / %lld, z V %lld", (long long)b.eig_one_stage[0][HYLA_D],
          (long long)b.eig_one_stage[1][HYLA_D], (long long)b.eig_one_stage[1][HYLA_Z]);
    a.family = b.family = NULL;
    memcpy(b.eig_one_stage, a.eig_one_stage, sizeof a.eig_one_stage);
    CHECK(memcmp(&a, &b, sizeof a) == 0, "HBM3e row: the rest is Hopper's");
    const hyla_dev *d0 = h->devs[0];
    const char *want = d0->info.kind == HYLA_DEVICE_HOST       ? "host"
                       : d0->info.compute_major < 9            ? "cuda-generic"
                       : d0->phys_memory > ((int64_t)100 << 30) ? "hopper-hbm3e"
                                                                : "hopper";
    CHECK(strcmp(hyla_tuning_for(d0)->family, want) == 0 &&
              (d0->info.kind == HYLA_DEVICE_HOST) == (d0->phys_memory == 0),
          "device 0 (%s, %lld bytes): row %s", d0->info.name, (long long)d0->phys_memory,
          hyla_tuning_for(d0)->family);
}

int main(void) {
    int64_t live0, live1;
    hyla_debug_alloc_stats(&live0, NULL);
    test_specs();
    test_list_slot();
    hyla_t *h = NULL;
    int rc = hyla_create(&h, test_devices());
    if (rc == HYLA_ERR_NO_DEVICE || rc == HYLA_ERR_UNSUPPORTED) {
        printf("devices %s not available: skipped\n", test_devices());
        return 77;
    }
    CHECK(rc == 0, "create %s", test_devices());
    if (rc == 0) test_backend(h);
    if (rc == 0) test_symm_large(h);
    if (rc == 0) test_tuning_rows(h);
    hyla_destroy(&h);
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld", (long long)(live1 - live0));
    return summary("context");
}
