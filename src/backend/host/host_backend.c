/* The host backend: virtual devices whose memory is host memory and whose
 * queues each run on their own worker thread, in order. It is a real
 * backend, not a mock: asynchrony, events and a missing wait behave as on a
 * GPU, so every algorithm, multi-device ones included, runs without one. */
#include "backend/host/host_blas.h"
#include "backend/host/host_rbt.h"
#include "backend/host/host_hb2st.h"
#include "backend/host/host_q2.h"
#include "backend/host/host_bisect.h"
#include "backend/host/host_dc.h"
#include "backend/ops/tri_bisect.h"
#include "backend/ops/ops.h"
#include <lapacke.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    hyla_dev base;
    int64_t mem_cap;            /* 0 = none */
    atomic_llong allocated;     /* device bytes in use */
} host_dev;

typedef struct host_task host_task;
struct host_task {
    host_task *next;
    void (*run)(host_task *t);
    union {
        host_blas_call blas;
        struct { void *dst; const void *src; size_t dpitch, spitch, width, height; } copy;
        struct { void (*fn)(void *); void *arg; } hostfn;
        struct { struct host_event *ev; uint64_t gen; } event;
        struct { hyla_dtype t; hyla_rbt_args a; } rbt;
        struct { hyla_dtype t; int64_t m, n, lda; const void *A; void *sums; } asum;
        struct { hyla_dtype t; int uplo; int64_t off, m, n, lda; const void *A; int *bad; } fin;
        struct { hyla_dtype t; uint64_t seed, offset; int64_t count; void *w; } diag;
        struct { hyla_dtype t; hyla_q2_args a; void *buf; } q2;
        struct host_cq { hyla_dtype t; hyla_cq_args a; void *buf; } cq;
        struct { hyla_dtype t; int64_t k, ldg, ldt; const void *G, *tau; void *T; } larft;
        struct {
            hyla_dtype t;
            int64_t n, kd, ldab;
            void *AB, *d, *e, *buf;
            int has_st;             /* hb2st_v: st is the store */
            hyla_hb2st_store st;
        } hb2st;
        struct { hyla_dtype t; int64_t n; const void *d, *e; void *w, *work; int *info; } bis;
        struct { hyla_dtype t; hyla_dc_args a; } dc;
    } u;
};

typedef struct {
    hyla_queue base;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;          /* signalled on new work and on completion */
    host_task *head, *tail;
    uint64_t submitted, finished;
    int stop;
} host_queue;

typedef struct host_event {
    hyla_event base;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t recorded, completed; /* generations */
    double t_complete;
} host_event;

/* ---------------------------------------------------------------- memory */

/* Each buffer carries a 64-byte header holding its size, so that a free
 * settles the device's account under the memory cap. */
enum { HDR = 64 };

static int host_mem_alloc(hyla_dev *d, hyla_mem_kind kind, size_t bytes, void **ptr) {
    host_dev *hd = (host_dev *)d;
    *ptr = NULL;
    if (bytes == 0) return 0;
    if (bytes > SIZE_MAX - HDR) return HYLA_ERR_DEVICE_MEMORY;
    if (kind == HYLA_MEM_DEVICE) {
        long long now = atomic_fetch_add(&hd->allocated, (long long)bytes) + (long long)bytes;
        if (hd->mem_cap > 0 && now > hd->mem_cap) {
            atomic_fetch_sub(&hd->allocated, (long long)bytes);
            return HYLA_ERR_DEVICE_MEMORY;
        }
    }
    void *p = NULL;
    if (hyla_alloc_admit() != 0 || posix_memalign(&p, HDR, bytes + HDR) != 0) {
        if (kind == HYLA_MEM_DEVICE) atomic_fetch_sub(&hd->allocated, (long long)bytes);
        return HYLA_ERR_DEVICE_MEMORY;
    }
    hyla_alloc_note(+1);
    *(size_t *)p = bytes;
    *ptr = (unsigned char *)p + HDR;
    return 0;
}

static void host_mem_free(hyla_dev *d, hyla_mem_kind kind, void *ptr) {
    if (!ptr) return;
    void *p = (unsigned char *)ptr - HDR;
    if (kind == HYLA_MEM_DEVICE) atomic_fetch_sub(&((host_dev *)d)->allocated, (long long)*(size_t *)p);
    free(p);
    hyla_alloc_note(-1);
}

static int host_mem_info(hyla_dev *d, size_t *free_bytes, size_t *total_bytes) {
    host_dev *hd = (host_dev *)d;
    size_t total = (size_t)hd->base.info.memory_bytes;
    long long used = atomic_load(&hd->allocated);
    *total_bytes = total;
    *free_bytes = (long long)total > used ? total - (size_t)used : 0;
    return 0;
}


/* ---------------------------------------------------------------- queues */

static void *worker_main(void *arg) {
    host_queue *q = arg;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (!q->head && !q->stop) pthread_cond_wait(&q->cv, &q->mu);
        if (!q->head) break; /* stop requested and drained */
        host_task *t = q->head;
        q->head = t->next;
        if (!q->head) q->tail = NULL;
        pthread_mutex_unlock(&q->mu);
        t->run(t);
        hyla_free(t);
        pthread_mutex_lock(&q->mu);
        q->finished++;
        pthread_cond_broadcast(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

static host_task *task_new(void (*run)(host_task *)) {
    host_task *t = hyla_calloc(1, sizeof *t);
    if (t) t->run = run;
    return t;
}

/* A task whose run frees a workspace of `bytes` it owns: *buf and the task,
 * or NULL (nothing allocated) when either allocation fails. */
static host_task *task_with_buf(void (*run)(host_task *), size_t bytes, void **buf) {
    *buf = hyla_malloc(bytes);
    host_task *t = *buf ? task_new(run) : NULL;
    if (!t) {
        hyla_free(*buf);
        *buf = NULL;
    }
    return t;
}

static void enqueue(hyla_queue *hq, host_task *t) {
    host_queue *q = (host_queue *)hq;
    pthread_mutex_lock(&q->mu);
    if (q->tail) q->tail->next = t; else q->head = t;
    q->tail = t;
    q->submitted++;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

static int host_queue_create(hyla_dev *d, hyla_queue **out) {
    *out = NULL;
    host_queue *q = hyla_calloc(1, sizeof *q);
    if (!q) return HYLA_ERR_NO_MEMORY;
    q->base.dev = d;
    if (pthread_mutex_init(&q->mu, NULL) != 0) { hyla_free(q); return HYLA_ERR_DEVICE; }
    if (pthread_cond_init(&q->cv, NULL) != 0) {
        pthread_mutex_destroy(&q->mu);
        hyla_free(q);
        return HYLA_ERR_DEVICE;
    }
    if (pthread_create(&q->thread, NULL, worker_main, q) != 0) {
        pthread_cond_destroy(&q->cv);
        pthread_mutex_destroy(&q->mu);
        hyla_free(q);
        return HYLA_ERR_DEVICE;
    }
    *out = &q->base;
    return 0;
}

/* Worker threads have no priorities: every queue is a normal one. */
static int host_queue_create_prio(hyla_dev *d, int high, hyla_queue **out) {
    (void)high;
    return host_queue_create(d, out);
}

static void host_queue_destroy(hyla_queue *hq) {
    if (!hq) return;
    host_queue *q = (host_queue *)hq;
    pthread_mutex_lock(&q->mu);
    q->stop = 1;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    pthread_join(q->thread, NULL);
    pthread_cond_destroy(&q->cv);
    pthread_mutex_destroy(&q->mu);
    hyla_free(q);
}

static int host_queue_sync(hyla_queue *hq) {
    host_queue *q = (host_queue *)hq;
    pthread_mutex_lock(&q->mu);
    uint64_t target = q->submitted;
    while (q->finished < target) pthread_cond_wait(&q->cv, &q->mu);
    pthread_mutex_unlock(&q->mu);
    return 0;
}

/* ---------------------------------------------------------------- events */

static int host_event_create(hyla_dev *d, int timing, hyla_event **out) {
    (void)timing;
    *out = NULL;
    host_event *e = hyla_calloc(1, sizeof *e);
    if (!e) return HYLA_ERR_NO_MEMORY;
    e->base.dev = d;
    if (pthread_mutex_init(&e->mu, NULL) != 0) { hyla_free(e); return HYLA_ERR_DEVICE; }
    if (pthread_cond_init(&e->cv, NULL) != 0) {
        pthread_mutex_destroy(&e->mu);
        hyla_free(e);
        return HYLA_ERR_DEVICE;
    }
    *out = &e->base;
    return 0;
}

static void host_event_destroy(hyla_event *he) {
    if (!he) return;
    host_event *e = (host_event *)he;
    pthread_cond_destroy(&e->cv);
    pthread_mutex_destroy(&e->mu);
    hyla_free(e);
}

static void run_event_complete(host_task *t) {
    host_event *e = t->u.event.ev;
    pthread_mutex_lock(&e->mu);
    if (t->u.event.gen > e->completed) e->completed = t->u.event.gen;
    e->t_complete = hyla_wtime();
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
}

static int host_event_record(hyla_event *he, hyla_queue *q) {
    host_event *e = (host_event *)he;
    host_task *t = task_new(run_event_complete);
    if (!t) return HYLA_ERR_NO_MEMORY;
    pthread_mutex_lock(&e->mu);
    t->u.event.gen = ++e->recorded;
    pthread_mutex_unlock(&e->mu);
    t->u.event.ev = e;
    enqueue(q, t);
    return 0;
}

static void wait_generation(host_event *e, uint64_t gen) {
    pthread_mutex_lock(&e->mu);
    while (e->completed < gen) pthread_cond_wait(&e->cv, &e->mu);
    pthread_mutex_unlock(&e->mu);
}

static void run_event_wait(host_task *t) { wait_generation(t->u.event.ev, t->u.event.gen); }

/* As in CUDA, the queue waits for the most recent record at the time of the call. */
static int host_queue_wait_event(hyla_queue *q, hyla_event *he) {
    host_event *e = (host_event *)he;
    host_task *t = task_new(run_event_wait);
    if (!t) return HYLA_ERR_NO_MEMORY;
    pthread_mutex_lock(&e->mu);
    t->u.event.gen = e->recorded;
    pthread_mutex_unlock(&e->mu);
    t->u.event.ev = e;
    enqueue(q, t);
    return 0;
}

static int host_event_sync(hyla_event *he) {
    host_event *e = (host_event *)he;
    pthread_mutex_lock(&e->mu);
    uint64_t gen = e->recorded;
    pthread_mutex_unlock(&e->mu);
    wait_generation(e, gen);
    return 0;
}

static int host_event_elapsed_ms(hyla_event *a, hyla_event *b, float *ms) {
    host_event *ea = (host_event *)a, *eb = (host_event *)b;
    if (ea->completed == 0 || eb->completed == 0) return HYLA_ERR_INVALID;
    *ms = (float)((eb->t_complete - ea->t_complete) * 1e3);
    return 0;
}

static void run_host_fn(host_task *t) { t->u.hostfn.fn(t->u.hostfn.arg); }

static int host_host_fn(hyla_queue *q, void (*fn)(void *), void *arg) {
    host_task *t = task_new(run_host_fn);
    if (!t) return HYLA_ERR_NO_MEMORY;
    t->u.hostfn.fn = fn;
    t->u.hostfn.arg = arg;
    enqueue(q, t);
    return 0;
}

/* ---------------------------------------------------------------- copies */

static void run_copy(host_task *t) {
    unsigned char *d = t->u.copy.dst;
    const unsigned char *s = t->u.copy.src;
    if (t->u.copy.dpitch == t->u.copy.width && t->u.copy.spitch == t->u.copy.width) {
        memcpy(d, s, t->u.copy.width * t->u.copy.height);
        return;
    }
    for (size_t j = 0; j < t->u.copy.height; j++)
        memcpy(d + j * t->u.copy.dpitch, s + j * t->u.copy.spitch, t->u.copy.width);
}

static int host_copy_2d(hyla_queue *q, void *dst, size_t dpitch, const void *src, size_t spitch,
                        size_t width, size_t height, hyla_copy_kind kind) {
    (void)kind;
    if (width == 0 || height == 0) return 0;
    if (dpitch < width || spitch < width) return HYLA_ERR_INVALID;
    host_task *t = task_new(run_copy);
    if (!t) return HYLA_ERR_NO_MEMORY;
    t->u.copy.dst = dst;
    t->u.copy.src = src;
    t->u.copy.dpitch = dpitch;
    t->u.copy.spitch = spitch;
    t->u.copy.width = width;
    t->u.copy.height = height;
    enqueue(q, t);
    return 0;
}

static int host_copy_peer(hyla_queue *q, void *dst, hyla_dev *dd, const void *src, hyla_dev *sd,
                          size_t bytes) {
    (void)dd; (void)sd;
    return host_copy_2d(q, dst, bytes, src, bytes, bytes, 1, HYLA_COPY_D2D);
}

/* ---------------------------------------------------------------- BLAS */

static void run_blas(host_task *t) { host_blas_run(&t->u.blas); }

static int submit_blas(hyla_queue *q, const host_blas_call *c) {
    int rc = host_blas_check(c);
    if (rc) return rc;
    host_task *t = task_new(run_blas);
    if (!t) return HYLA_ERR_NO_MEMORY;
    t->u.blas = *c;
    enqueue(q, t);
    return 0;
}

static int host_gemm(hyla_queue *q, hyla_dtype t, hyla_op ta, hyla_op tb, int64_t m, int64_t n,
                     int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                     int64_t ldb, const void *beta, void *C, int64_t ldc) {
    host_blas_call c = {.kind = HB_GEMM, .t = t, .ta = ta, .tb = tb, .m = m, .n = n, .k = k,
                        .lda = lda, .ldb = ldb, .ldc = ldc, .A = A, .B = B, .C = C};
    host_blas_scalar(t, 0, alpha, c.alpha);
    host_blas_scalar(t, 0, beta, c.beta);
    return submit_blas(q, &c);
}

/* one gemm task per item, all checked before any is enqueued */
static int host_gemm_strided_batched(hyla_queue *q, hyla_dtype t, hyla_op ta, hyla_op tb,
                                     int64_t m, int64_t n, int64_t k, const void *alpha,
                                     const void *A, int64_t lda, int64_t sA, const void *B,
                                     int64_t ldb, int64_t sB, const void *beta, void *C,
                                     int64_t ldc, int64_t sC, int64_t batch) {
    host_blas_call c = {.kind = HB_GEMM, .t = t, .ta = ta, .tb = tb, .m = m, .n = n, .k = k,
                        .lda = lda, .ldb = ldb, .ldc = ldc, .A = A, .B = B, .C = C};
    if (batch < 0 || sA < 0 || sB < 0 || sC < 0) return HYLA_ERR_INVALID;
    host_blas_scalar(t, 0, alpha, c.alpha);
    host_blas_scalar(t, 0, beta, c.beta);
    int rc = host_blas_check(&c);
    if (rc || batch == 0 || m == 0 || n == 0) return rc;
    const size_t es = hyla_dtype_size(t);
    for (int64_t i = 0; i < batch && !rc; i++) {
        host_blas_call ci = c;
        ci.A = (const char *)A + (size_t)(i * sA) * es;
        ci.B = (const char *)B + (size_t)(i * sB) * es;
        ci.C = (char *)C + (size_t)(i * sC) * es;
        rc = submit_blas(q, &ci);
    }
    return rc;
}

static int host_syrk(hyla_queue *q, hyla_dtype t, int herm, hyla_uplo uplo, hyla_op trans,
                     int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
                     const void *beta, void *C, int64_t ldc) {
    host_blas_call c = {.kind = HB_SYRK, .t = t, .herm = herm, .uplo = uplo, .ta = trans, .n = n,
                        .k = k, .lda = lda, .ldc = ldc, .A = A, .C = C};
    host_blas_scalar(t, herm, alpha, c.alpha);
    host_blas_scalar(t, herm, beta, c.beta);
    return submit_blas(q, &c);
}

static int host_syr2k(hyla_queue *q, hyla_dtype t, int herm, hyla_uplo uplo, hyla_op trans,
                      int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
                      const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc) {
    host_blas_call c = {.kind = HB_SYR2K, .t = t, .herm = herm, .uplo = uplo, .ta = trans, .n = n,
                        .k = k, .lda = lda, .ldb = ldb, .ldc = ldc, .A = A, .B = B, .C = C};
    host_blas_scalar(t, 0, alpha, c.alpha);
    host_blas_scalar(t, herm, beta, c.beta);
    return submit_blas(q, &c);
}

static int host_symm(hyla_queue *q, hyla_dtype t, int herm, hyla_side side, hyla_uplo uplo,
                     int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
                     const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc) {
    host_blas_call c = {.kind = HB_SYMM, .t = t, .herm = herm, .side = side, .uplo = uplo, .m = m,
                        .n = n, .lda = lda, .ldb = ldb, .ldc = ldc, .A = A, .B = B, .C = C};
    host_blas_scalar(t, 0, alpha, c.alpha);
    host_blas_scalar(t, 0, beta, c.beta);
    return submit_blas(q, &c);
}

static int host_tri(host_blas_kind kind, hyla_queue *q, hyla_dtype t, hyla_side side,
                    hyla_uplo uplo, hyla_op ta, hyla_diag diag, int64_t m, int64_t n,
                    const void *alpha, const void *A, int64_t lda, void *B, int64_t ldb) {
    host_blas_call c = {.kind = kind, .t = t, .side = side, .uplo = uplo, .ta = ta, .diag = diag,
                        .m = m, .n = n, .lda = lda, .ldb = ldb, .A = A, .C = B};
    host_blas_scalar(t, 0, alpha, c.alpha);
    return submit_blas(q, &c);
}

static int host_trsm(hyla_queue *q, hyla_dtype t, hyla_side side, hyla_uplo uplo, hyla_op ta,
                     hyla_diag diag, int64_t m, int64_t n, const void *alpha, const void *A,
                     int64_t lda, void *B, int64_t ldb) {
    return host_tri(HB_TRSM, q, t, side, uplo, ta, diag, m, n, alpha, A, lda, B, ldb);
}

static int host_trmm(hyla_queue *q, hyla_dtype t, hyla_side side, hyla_uplo uplo, hyla_op ta,
                     hyla_diag diag, int64_t m, int64_t n, const void *alpha, const void *A,
                     int64_t lda, void *B, int64_t ldb) {
    return host_tri(HB_TRMM, q, t, side, uplo, ta, diag, m, n, alpha, A, lda, B, ldb);
}

/* laset: alpha holds the off-diagonal value, beta the diagonal one. */
static int host_laset(hyla_queue *q, hyla_dtype t, int uplo, int64_t m, int64_t n,
                      const void *offdiag, const void *diag, void *A, int64_t lda) {
    host_blas_call c = {.kind = HB_LASET, .t = t, .uplo = uplo, .m = m, .n = n, .lda = lda, .C = A};
    host_blas_scalar(t, 0, offdiag, c.alpha);
    host_blas_scalar(t, 0, diag, c.beta);
    return submit_blas(q, &c);
}

static int host_scale(hyla_queue *q, hyla_dtype t, int64_t m, int64_t n, const void *alpha,
                      void *A, int64_t lda) {
    host_blas_call c = {.kind = HB_SCALE, .t = t, .m = m, .n = n, .lda = lda, .C = A};
    host_blas_scalar(t, 0, alpha, c.alpha);
    return submit_blas(q, &c);
}

static int host_geam(hyla_queue *q, hyla_dtype t, hyla_op ta, int64_t m, int64_t n,
                     const void *alpha, const void *A, int64_t lda, const void *beta, void *C,
                     int64_t ldc) {
    if (hyla_dtype_size(t) == 0 || m < 0 || n < 0 || (unsigned)ta > HYLA_CONJTRANS ||
        lda < HYLA_MAX(1, ta == HYLA_NOTRANS ? m : n) || ldc < HYLA_MAX(1, m) ||
        (m > 0 && n > 0 && (!A || !C)))
        return HYLA_ERR_INVALID;
    if (m == 0 || n == 0) return 0;
    host_blas_call c = {.kind = HB_GEAM, .t = t, .ta = ta, .m = m, .n = n, .lda = lda,
                        .ldc = ldc, .A = A, .C = C};
    host_blas_scalar(t, 0, alpha, c.alpha);
    host_blas_scalar(t, 0, beta, c.beta);
    return submit_blas(q, &c);
}

static int host_herm_blocks(hyla_queue *q, hyla_dtype t, int64_t n, int64_t b, const void *A,
                            int64_t lda, void *S) {
    if (hyla_dtype_size(t) == 0 || n < 0 || b < 1 || lda < HYLA_MAX(1, n) ||
        (n > 0 && (!A || !S)))
        return HYLA_ERR_INVALID;
    if (n == 0) return 0;
    host_blas_call c = {.kind = HB_HERM_BLOCKS, .t = t, .n = n, .k = b, .lda = lda, .A = A,
                        .C = S};
    return submit_blas(q, &c);
}

/* ---------------------------------------------------------------- random butterflies */

static void run_rbt(host_task *t) { hyla_host_rbt_run(t->u.rbt.t, &t->u.rbt.a); }

static int host_rbt(hyla_queue *q, hyla_dtype t, const hyla_rbt_args *a) {
    int rc = hyla_rbt_check(t, a);
    if (rc || a->m == 0 || a->n == 0) return rc;
    host_task *k = task_new(run_rbt);
    if (!k) return HYLA_ERR_NO_MEMORY;
    k->u.rbt.t = t;
    k->u.rbt.a = *a;
    enqueue(q, k);
    return 0;
}

static void run_row_asum(host_task *t) {
    hyla_host_row_asum_run(t->u.asum.t, t->u.asum.m, t->u.asum.n, t->u.asum.A, t->u.asum.lda,
                           t->u.asum.sums);
}

static int host_row_asum(hyla_queue *q, hyla_dtype t, int64_t m, int64_t n, const void *A,
                         int64_t lda, void *sums) {
    if (hyla_dtype_size(t) == 0 || m < 0 || n < 0 || lda < HYLA_MAX(1, m) ||
        (m > 0 && (!sums || (n > 0 && !A))))
        return HYLA_ERR_INVALID;
    if (m == 0) return 0;
    host_task *k = task_new(run_row_asum);
    if (!k) return HYLA_ERR_NO_MEMORY;
    k->u.asum.t = t;
    k->u.asum.m = m;
    k->u.asum.n = n;
    k->u.asum.lda = lda;
    k->u.asum.A = A;
    k->u.asum.sums = sums;
    enqueue(q, k);
    return 0;
}

static void run_nonfinite(host_task *t) {
    *t->u.fin.bad = hyla_nonfinite(t->u.fin.t, t->u.fin.uplo, t->u.fin.off, t->u.fin.m,
                                   t->u.fin.n, t->u.fin.A, t->u.fin.lda);
}

static int host_nonfinite(hyla_queue *q, hyla_dtype t, int uplo, int64_t off, int64_t m,
                          int64_t n, const void *A, int64_t lda, int *bad) {
    if (hyla_dtype_size(t) == 0 || (uplo != -1 && uplo != HYLA_LOWER && uplo != HYLA_UPPER) ||
        m < 0 || n < 0 || lda < HYLA_MAX(1, m) || !bad || (m > 0 && n > 0 && !A))
        return HYLA_ERR_INVALID;
    host_task *k = task_new(run_nonfinite);
    if (!k) return HYLA_ERR_NO_MEMORY;
    k->u.fin.t = t;
    k->u.fin.uplo = uplo;
    k->u.fin.off = off;
    k->u.fin.m = m;
    k->u.fin.n = n;
    k->u.fin.lda = lda;
    k->u.fin.A = A;
    k->u.fin.bad = bad;
    enqueue(q, k);
    return 0;
}

static void run_rbt_diagonals(host_task *t) {
    hyla_rbt_diagonals(t->u.diag.t, t->u.diag.seed, t->u.diag.offset, t->u.diag.count,
                       t->u.diag.w);
}

static int host_rbt_diagonals(hyla_queue *q, hyla_dtype t, uint64_t seed, uint64_t offset,
                              int64_t count, void *w) {
    if (hyla_dtype_size(t) == 0 || count < 0 || (count > 0 && !w)) return HYLA_ERR_INVALID;
    if (count == 0) return 0;
    host_task *k = task_new(run_rbt_diagonals);
    if (!k) return HYLA_ERR_NO_MEMORY;
    k->u.diag.t = t;
    k->u.diag.seed = seed;
    k->u.diag.offset = offset;
    k->u.diag.count = count;
    k->u.diag.w = w;
    enqueue(q, k);
    return 0;
}

/* ---------------------------------------------------------------- bulge chasing */

static void run_hb2st(host_task *t) {
    hyla_host_hb2st_run(t->u.hb2st.t, t->u.hb2st.n, t->u.hb2st.kd, t->u.hb2st.AB,
                        t->u.hb2st.ldab, t->u.hb2st.d, t->u.hb2st.e, t->u.hb2st.buf,
                        t->u.hb2st.has_st ? &t->u.hb2st.st : NULL);
    hyla_free(t->u.hb2st.buf);
}

/* The chase's small workspace is taken here, so that a failure to get it is
 * reported at the call (the host queue has no status to carry it later).
 * st: NULL (hb2st) or the store (hb2st_v, copied into the task). */
static int hb2st_enqueue(hyla_queue *q, hyla_dtype t, int64_t n, int64_t kd, void *AB,
                         int64_t ldab, void *d, void *e, void *work, size_t work_bytes,
                         const hyla_hb2st_store *st) {
    void *buf;
    host_task *k = task_with_buf(run_hb2st, HYLA_HOST_HB2ST_BUF_BYTES(t, kd, st ? st->nb : 0), &buf);
    (void)work, (void)work_bytes;
    if (!k) return HYLA_ERR_NO_MEMORY;
    k->u.hb2st.t = t;
    k->u.hb2st.n = n;
    k->u.hb2st.kd = kd;
    k->u.hb2st.ldab = ldab;
    k->u.hb2st.AB = AB;
    k->u.hb2st.d = d;
    k->u.hb2st.e = e;
    k->u.hb2st.buf = buf;
    k->u.hb2st.has_st = st != NULL;
    if (st) k->u.hb2st.st = *st;
    enqueue(q, k);
    return 0;
}

/* ---------------------------------------------------------------- Q2 of the chase */

static void run_q2(host_task *t) {
    hyla_host_q2_run(t->u.q2.t, &t->u.q2.a, t->u.q2.buf);
    hyla_free(t->u.q2.buf);
}

static int host_q2_apply(hyla_queue *q, hyla_dtype t, const hyla_q2_args *a) {
    int rc = hyla_q2_check(t, a);
    if (rc || a->nsg == 0 || a->ncols == 0 || a->n < 2) return rc;
    void *buf;
    host_task *k = task_with_buf(run_q2, HYLA_HOST_Q2_BUF_BYTES(t, a), &buf);
    if (!k) return HYLA_ERR_NO_MEMORY;
    k->u.q2.t = t;
    k->u.q2.a = *a;
    k->u.q2.buf = buf;
    enqueue(q, k);
    return 0;
}

/* ------------------------------------------- CholeskyQR2's reconstruction */

static void run_cq(host_task *t) {
    *t->u.cq.a.bad = hyla_cq_rebuild_host(t->u.cq.t, &t->u.cq.a, t->u.cq.buf);
    hyla_free(t->u.cq.buf);
}

static int host_cq_rebuild(hyla_queue *q, hyla_dtype t, const hyla_cq_args *a) {
    int rc = hyla_cq_check(t, a);
    if (rc) return rc;
    void *buf; /* G2 and Q1's top block, copied: the host code works in them */
    host_task *k = task_with_buf(run_cq, (size_t)(2 * a->k * a->k) * hyla_dtype_size(t), &buf);
    if (k) {
        k->u.cq = (struct host_cq){.t = t, .a = *a, .buf = buf};
        enqueue(q, k);
    }
    return k ? 0 : HYLA_ERR_NO_MEMORY;
}

static void run_larft(host_task *t) {
    hyla_larft_gram_host(t->u.larft.t, t->u.larft.k, t->u.larft.G, t->u.larft.ldg,
                         t->u.larft.tau, t->u.larft.T, t->u.larft.ldt);
}

static int host_larft_gram(hyla_queue *q, hyla_dtype t, int64_t k, const void *G, int64_t ldg,
                           const void *tau, void *T, int64_t ldt) {
    const int rc = hyla_larft_gram_check(t, k, G, ldg, tau, T, ldt);
    if (rc || k == 0) return rc;
    host_task *w = task_new(run_larft);
    if (!w) return HYLA_ERR_NO_MEMORY;
    w->u.larft.t = t, w->u.larft.k = k, w->u.larft.ldg = ldg, w->u.larft.ldt = ldt;
    w->u.larft.G = G, w->u.larft.tau = tau, w->u.larft.T = T;
    enqueue(q, w);
    return 0;
}

/* ---------------------------------------------------------------- bisection */

static void run_tri_eigvals(host_task *t) {
    hyla_host_tri_eigvals_run(t->u.bis.t, t->u.bis.n, t->u.bis.d, t->u.bis.e, t->u.bis.w,
                              t->u.bis.work, t->u.bis.info);
}

static void run_info_zero(host_task *t) { *t->u.bis.info = 0; }

static int host_tri_eigvals(hyla_queue *q, hyla_dtype t, int64_t n, const void *d,
                            const void *e, void *w, void *work, size_t work_bytes, int *info) {
    int rc = hyla_tri_eigvals_check(t, n, d, e, w, work, work_bytes, info);
    if (rc) return rc;
    host_task *k = task_new(n == 0 ? run_info_zero : run_tri_eigvals);
    if (!k) return HYLA_ERR_NO_MEMORY;
    k->u.bis.t = t;
    k->u.bis.n = n;
    k->u.bis.d = d;
    k->u.bis.e = e;
    k->u.bis.w = w;
    k->u.bis.work = work;
    k->u.bis.info = info;
    enqueue(q, k);
    return 0;
}

/* ---------------------------------------------------------------- divide and conquer */

static void run_dc_secular(host_task *t) { hyla_host_dc_secular_run(t->u.dc.t, &t->u.dc.a); }
static void run_dc_vectors(host_task *t) { hyla_host_dc_vectors_run(t->u.dc.t, &t->u.dc.a); }

static int dc_enqueue(hyla_queue *q, hyla_dtype t, const hyla_dc_args *a, int vectors) {
    int rc = hyla_dc_check(t, a, vectors);
    if (rc) return rc;
    host_task *k = task_new(vectors ? run_dc_vectors : run_dc_secular);
    if (!k) return HYLA_ERR_NO_MEMORY;
    k->u.dc.t = t;
    k->u.dc.a = *a;
    enqueue(q, k);
    return 0;
}

static int host_dc_secular(hyla_queue *q, hyla_dtype t, const hyla_dc_args *a) {
    return dc_enqueue(q, t, a, 0);
}

static int host_dc_vectors(hyla_queue *q, hyla_dtype t, const hyla_dc_args *a) {
    return dc_enqueue(q, t, a, 1);
}

/* No device collectives between processes: HPL moves its panels through
 * host memory and MPI on host devices. */
static int host_xcomm_key(hyla_dev *dev, char *key, size_t len) {
    (void)dev;
    (void)key;
    (void)len;
    return HYLA_ERR_UNSUPPORTED;
}

static int host_xcomm_id(void *id) {
    (void)id;
    return HYLA_ERR_UNSUPPORTED;
}

static int host_xcomm_create(hyla_dev *dev, const void *id, int nranks, int rank, hyla_xcomm **c) {
    (void)dev;
    (void)id;
    (void)nranks;
    (void)rank;
    if (c) *c = NULL;
    return HYLA_ERR_UNSUPPORTED;
}

static int host_xcomm_bcast(hyla_queue *q, hyla_xcomm *c, void *buf, size_t bytes, int root) {
    (void)q;
    (void)c;
    (void)buf;
    (void)bytes;
    (void)root;
    return HYLA_ERR_UNSUPPORTED;
}

static void host_xcomm_destroy(hyla_xcomm *c) { (void)c; }

/* (the host chase has one order: step is checked and not used) */
static int host_hb2st(hyla_queue *q, hyla_dtype t, int64_t n, int64_t kd, void *AB,
                      int64_t ldab, void *d, void *e, void *work, size_t work_bytes, int step) {
    int rc = hyla_hb2st_check(t, n, kd, AB, ldab, d, e, work, work_bytes, step);
    if (rc || n == 0) return rc;
    return hb2st_enqueue(q, t, n, kd, AB, ldab, d, e, work, work_bytes, NULL);
}

static int host_hb2st_v(hyla_queue *q, hyla_dtype t, int64_t n, int64_t kd, void *AB,
                        int64_t ldab, void *d, void *e, void *work, size_t work_bytes, int step,
                        const hyla_hb2st_store *st) {
    int rc = hyla_hb2st_check(t, n, kd, AB, ldab, d, e, work, work_bytes, step);
    if (!rc) rc = hyla_hb2st_store_check(n, kd, st);
    if (rc || n == 0) return rc;
    return hb2st_enqueue(q, t, n, kd, AB, ldab, d, e, work, work_bytes, st);
}

/* ---------------------------------------------------------------- LAPACK */

/* Arguments are checked here, before anything is enqueued, so that LAPACK
 * never sees a bad one (its xerbla would print). */
static int host_potrf(hyla_queue *q, hyla_dtype t, hyla_uplo uplo, int64_t n, void *A,
                      int64_t lda, int *info) {
    if (hyla_dtype_size(t) == 0 || (uplo != HYLA_LOWER && uplo != HYLA_UPPER) || n < 0 ||
        lda < HYLA_MAX(1, n) || !info || (n > 0 && !A))
        return HYLA_ERR_INVALID;
    host_blas_call c = {.kind = HB_POTRF, .t = t, .uplo = uplo, .n = n, .lda = lda, .C = A,
                        .info = info};
    return submit_blas(q, &c);
}

static int host_getrf(hyla_queue *q, hyla_dtype t, int64_t m, int64_t n, void *A, int64_t lda,
                      int64_t *ipiv, int *info, int64_t panel) {
    (void)panel;
    if (hyla_dtype_size(t) == 0 || m < 0 || n < 0 || lda < HYLA_MAX(1, m) || !info ||
        (m > 0 && n > 0 && !A))
        return HYLA_ERR_INVALID;
    host_blas_call c = {.kind = HB_GETRF, .t = t, .m = m, .n = n, .lda = lda, .C = A,
                        .info = info, .ipiv = ipiv};
    return submit_blas(q, &c);
}

/* The workspace (host_geqrf_lwork) is taken here, so a failure to get it
 * is reported at the call. */
static int host_geqrf(hyla_queue *q, hyla_dtype t, int64_t m, int64_t n, void *A, int64_t lda,
                      void *tau, int *info, int64_t panel) {
    (void)panel;
    if (hyla_dtype_size(t) == 0 || m < 0 || n < 0 || lda < HYLA_MAX(1, m) || !info ||
        (m > 0 && n > 0 && (!A || !tau)))
        return HYLA_ERR_INVALID;
    host_blas_call c = {.kind = HB_GEQRF, .t = t, .m = m, .n = n, .lda = lda, .C = A,
                        .info = info, .tau = tau, .lwork = host_geqrf_lwork(n)};
    int rc = host_blas_check(&c);
    if (rc) return rc;
    c.work = hyla_malloc((size_t)c.lwork * hyla_dtype_size(t));
    if (!c.work) return HYLA_ERR_NO_MEMORY;
    rc = submit_blas(q, &c);
    if (rc) hyla_free(c.work);
    return rc;
}

static int host_laswp(hyla_queue *q, hyla_dtype t, int64_t n, void *A, int64_t lda, int64_t k1,
                      int64_t k2, const int64_t *ipiv, int inc) {
    if (hyla_dtype_size(t) == 0 || (inc != 1 && inc != -1) || n < 0 || k1 < 1)
        return HYLA_ERR_INVALID;
    if (n == 0 || k2 < k1) return 0;
    if (!A || !ipiv || lda < k2) return HYLA_ERR_INVALID;
    host_blas_call c = {.kind = HB_LASWP, .t = t, .n = n, .lda = lda, .C = A,
                        .ipiv = (int64_t *)ipiv, .k1 = k1, .k2 = k2, .inc = inc};
    return submit_blas(q, &c);
}

/* ---------------------------------------------------------------- device */

static void host_dev_destroy(hyla_dev *d) { hyla_free(d); }

/* The heevd op: LAPACK ?syevd / ?heevd in the calling thread once the
 * queue has drained (LAPACKE takes the workspace). */
static int host_heevd(hyla_queue *q, hyla_dtype t, int vec, int64_t n, void *A, int64_t lda,
                      void *w, int *info) {
    if ((unsigned)t > HYLA_Z || (vec != 0 && vec != 1) || n < 0 || lda < HYLA_MAX(1, n) ||
        !info || (n > 0 && (!A || !w)))
        return HYLA_ERR_INVALID;
    *info = 0;
    if (n == 0) return 0;
    if (n > INT32_MAX || lda > INT32_MAX) return HYLA_ERR_UNSUPPORTED;
    int rc = host_queue_sync(q);
    if (rc) return rc;
    const char jz = vec ? 'V' : 'N';
    const lapack_int N = (lapack_int)n, LDA = (lapack_int)lda;
    lapack_int r = 0;
    switch (t) {
    case HYLA_S: r = LAPACKE_ssyevd(LAPACK_COL_MAJOR, jz, 'L', N, A, LDA, w); break;
    case HYLA_D: r = LAPACKE_dsyevd(LAPACK_COL_MAJOR, jz, 'L', N, A, LDA, w); break;
    case HYLA_C: r = LAPACKE_cheevd(LAPACK_COL_MAJOR, jz, 'L', N, A, LDA, w); break;
    case HYLA_Z: r = LAPACKE_zheevd(LAPACK_COL_MAJOR, jz, 'L', N, A, LDA, w); break;
    }
    if (r == LAPACK_WORK_MEMORY_ERROR || r == LAPACK_TRANSPOSE_MEMORY_ERROR) return HYLA_ERR_NO_MEMORY;
    if (r < 0) return HYLA_ERR_INTERNAL;
    *info = (int)r;
    return 0;
}

/* The heevr op: LAPACK ?syevr / ?heevr in the calling thread once the
 * queue has drained (LAPACKE takes the workspace, isuppz here). */
static int host_heevr(hyla_queue *q, hyla_dtype t, int vec, char range, double vl, double vu,
                      int64_t il, int64_t iu, int64_t n, void *A, int64_t lda, int64_t *m,
                      void *w, void *Z, int64_t ldz, int *info) {
    if ((unsigned)t > HYLA_Z || (vec != 0 && vec != 1) || n < 0 || lda < HYLA_MAX(1, n) ||
        ldz < HYLA_MAX(1, n) || !info || !m || (n > 0 && (!A || !w || (vec && !Z))))
        return HYLA_ERR_INVALID;
    if (range != 'A' && range != 'I' && range != 'V') return HYLA_ERR_INVALID;
    if (range == 'I' && (il < 1 || iu < il || iu > n)) return HYLA_ERR_INVALID;
    if (range == 'V' && !(vl < vu)) return HYLA_ERR_INVALID;
    *info = 0, *m = 0;
    if (n == 0) return 0;
    if (n > INT32_MAX || lda > INT32_MAX || ldz > INT32_MAX) return HYLA_ERR_UNSUPPORTED;
    int rc = host_queue_sync(q);
    if (rc) return rc;
    const char jz = vec ? 'V' : 'N';
    const lapack_int N = (lapack_int)n, LDA = (lapack_int)lda, LDZ = (lapack_int)ldz;
    const lapack_int IL = range == 'I' ? (lapack_int)il : 1, IU = range == 'I' ? (lapack_int)iu : N;
    const int64_t cols = range == 'I' ? iu - il + 1 : n;
    lapack_int *isuppz = hyla_malloc(sizeof *isuppz * (size_t)(2 * cols));
    if (!isuppz) return HYLA_ERR_NO_MEMORY;
    lapack_int mm = 0, r = 0;
    switch (t) {
    case HYLA_S:
        r = LAPACKE_ssyevr(LAPACK_COL_MAJOR, jz, range, 'L', N, A, LDA, (float)vl, (float)vu, IL,
                           IU, 0.0f, &mm, w, Z, LDZ, isuppz);
        break;
    case HYLA_D:
        r = LAPACKE_dsyevr(LAPACK_COL_MAJOR, jz, range, 'L', N, A, LDA, vl, vu, IL, IU, 0.0, &mm,
                           w, Z, LDZ, isuppz);
        break;
    case HYLA_C:
        r = LAPACKE_cheevr(LAPACK_COL_MAJOR, jz, range, 'L', N, A, LDA, (float)vl, (float)vu, IL,
                           IU, 0.0f, &mm, w, Z, LDZ, isuppz);
        break;
    case HYLA_Z:
        r = LAPACKE_zheevr(LAPACK_COL_MAJOR, jz, range, 'L', N, A, LDA, vl, vu, IL, IU, 0.0, &mm,
                           w, Z, LDZ, isuppz);
        break;
    }
    hyla_free(isuppz);
    if (r == LAPACK_WORK_MEMORY_ERROR || r == LAPACK_TRANSPOSE_MEMORY_ERROR) return HYLA_ERR_NO_MEMORY;
    if (r < 0) return HYLA_ERR_INTERNAL;
    *info = (int)r;
    *m = r == 0 ? mm : 0;
    return 0;
}

static const hyla_alg_ops host_alg_ops = {
    .rbt = host_rbt,
    .rbt_diagonals = host_rbt_diagonals,
    .hb2st_max_kd = 0,
    .hb2st = host_hb2st,
    .heevd = host_heevd,
    .heevr = host_heevr,
    .q2_apply = host_q2_apply,
    .cq_rebuild = host_cq_rebuild,
    .larft_gram = host_larft_gram,
    .hb2st_v = host_hb2st_v,
    .tri_eigvals = host_tri_eigvals,
    .dc_secular = host_dc_secular,
    .dc_vectors = host_dc_vectors,
};

static const hyla_backend_ops host_ops = {
    .name = "host",
    .mem_host = 1,
    .host_cores = 1,
    .dev_destroy = host_dev_destroy,
    .mem_alloc = host_mem_alloc,
    .mem_free = host_mem_free,
    .mem_info = host_mem_info,
    .queue_create = host_queue_create,
    .queue_create_prio = host_queue_create_prio,
    .queue_destroy = host_queue_destroy,
    .queue_sync = host_queue_sync,
    .event_create = host_event_create,
    .event_destroy = host_event_destroy,
    .event_record = host_event_record,
    .queue_wait_event = host_queue_wait_event,
    .event_sync = host_event_sync,
    .event_elapsed_ms = host_event_elapsed_ms,
    .host_fn = host_host_fn,
    .copy_2d = host_copy_2d,
    .copy_peer = host_copy_peer,
    .gemm = host_gemm,
    .syrk = host_syrk,
    .syr2k = host_syr2k,
    .symm = host_symm,
    .trsm = host_trsm,
    .trmm = host_trmm,
    .row_asum = host_row_asum,
    .herm_blocks = host_herm_blocks,
    .nonfinite = host_nonfinite,
    .laset = host_laset,
    .scale = host_scale,
    .geam = host_geam,
    .potrf = host_potrf,
    .getrf = host_getrf,
    .laswp = host_laswp,
    .geqrf = host_geqrf,
    .gemm_strided_batched = host_gemm_strided_batched,
    .xcomm_key = host_xcomm_key,
    .xcomm_id = host_xcomm_id,
    .xcomm_create = host_xcomm_create,
    .xcomm_bcast = host_xcomm_bcast,
    .xcomm_destroy = host_xcomm_destroy,
    .alg = &host_alg_ops,
};

/* Without a cap, a virtual device reports 1/4 of physical memory per device
 * as its size, which algorithms use only for planning. */
int hyla_host_dev_create(int index, int64_t mem_cap, hyla_dev **out) {
    *out = NULL;
    host_dev *d = hyla_calloc(1, sizeof *d);
    if (!d) return HYLA_ERR_NO_MEMORY;
    d->base.ops = &host_ops;
    d->base.info.kind = HYLA_DEVICE_HOST;
    d->base.info.ordinal = index;
    snprintf(d->base.info.name, sizeof d->base.info.name, "host virtual device %d", index);
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    int64_t phys = (pages > 0 && psz > 0) ? (int64_t)pages * psz : (int64_t)1 << 32;
    d->base.info.memory_bytes = mem_cap > 0 ? mem_cap : phys / 4;
    d->base.info.multiprocessors = 1;
    d->mem_cap = mem_cap;
    atomic_init(&d->allocated, 0);
    *out = &d->base;
    return 0;
}
