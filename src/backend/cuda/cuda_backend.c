/* The CUDA backend: devices, memory, streams, events, copies, cuBLAS
 * BLAS-3 and cuSOLVER potrf behind hyla_backend_ops (backend.h).
 *
 * Ops are called from several host threads, so every op first makes its
 * device current (cudaSetDevice). Every CUDA, cuBLAS and cuSOLVER status is
 * checked: allocation failures map to HYLA_ERR_DEVICE_MEMORY, other CUDA
 * and cuSOLVER errors to HYLA_ERR_DEVICE, cuBLAS errors to HYLA_ERR_BLAS. A
 * failure of work enqueued on a queue sticks to the queue (queue_sync
 * returns it). */
#include "backend/cuda/k_rbt.h"
#include "backend/ops/ops.h"
#include "backend/registry.h"
#include "base/status.h"
#include "backend/cuda/kernels.h"
#include "backend/cuda/k_lu.h"
#include "backend/cuda/k_getrf_panel.h"
#include "backend/cuda/k_geqrf_panel.h"
#include "backend/cuda/k_hb2st.h"
#include "backend/cuda/k_q2.h"
#include "backend/cuda/k_cq.h"
#include "backend/cuda/k_bisect.h"
#include "backend/cuda/k_dc.h"
#include "backend/ops/tri_bisect.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#ifdef HYLA_HAVE_NCCL
#include <nccl.h>
#endif
#include <library_types.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- objects */

typedef struct {
    void *ptr;
    size_t bytes;
} cuda_block;

struct cuda_dev {
    hyla_dev base;
    int ordinal;
    int64_t mem_cap;         /* bytes, 0 = none */
    pthread_mutex_t lock;    /* guards allocated and blocks */
    size_t allocated;        /* bytes of HYLA_MEM_DEVICE live through this dev */
    cuda_block *blocks;      /* live device allocations, to know sizes at free */
    size_t nblocks, cap_blocks;
};

struct cuda_queue {
    hyla_queue base;
    cudaStream_t stream;
    cublasHandle_t blas;
    hyla_status status;      /* sticky first error */
    /* cuSOLVER, created by the first potrf, and its workspaces, grown on
     * demand; the device one is counted in the device's allocations */
    cusolverDnHandle_t solver;
    cusolverDnParams_t solver_params;
    void *work;
    size_t work_bytes;
    void *host_work;
    size_t host_work_bytes;
};

struct cuda_event {
    hyla_event base;
    cudaEvent_t ev;
    atomic_int status;       /* status of the queue it was last recorded on */
};

static struct cuda_dev *cdev(hyla_dev *d) { return (struct cuda_dev *)d; }
static struct cuda_queue *cqueue(hyla_queue *q) { return (struct cuda_queue *)q; }
static struct cuda_event *cevent(hyla_event *e) { return (struct cuda_event *)e; }

/* ---------------------------------------------------------------- status mapping */

/* Maps a CUDA runtime status; a failure is also cleared from the thread's
 * last-error slot so that a later launch check does not report it again. */
static int cuda_rc(cudaError_t e) {
    if (e == cudaSuccess) return 0;
    (void)cudaGetLastError();
    return e == cudaErrorMemoryAllocation ? HYLA_ERR_DEVICE_MEMORY : HYLA_ERR_DEVICE;
}

static int blas_rc(cublasStatus_t s) {
    if (s == CUBLAS_STATUS_SUCCESS) return 0;
    return s == CUBLAS_STATUS_ALLOC_FAILED ? HYLA_ERR_DEVICE_MEMORY : HYLA_ERR_BLAS;
}

static int solver_rc(cusolverStatus_t s) {
    if (s == CUSOLVER_STATUS_SUCCESS) return 0;
    return s == CUSOLVER_STATUS_ALLOC_FAILED ? HYLA_ERR_DEVICE_MEMORY : HYLA_ERR_DEVICE;
}

static int set_device(int ordinal) { return cuda_rc(cudaSetDevice(ordinal)); }

static int queue_enter(struct cuda_queue *q) {
    return set_device(cdev(q->base.dev)->ordinal);
}

/* Records rc (if a failure) as the queue's sticky status and returns rc. */
static int queue_fail(struct cuda_queue *q, int rc) {
    if (rc != 0) hyla_status_fail(&q->status, rc);
    return rc;
}

/* ---------------------------------------------------------------- device */

int hyla_cuda_device_count(void) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n > 0 ? n : 0;
}

static void cuda_dev_destroy(hyla_dev *d) {
    struct cuda_dev *dev = cdev(d);
    if (!dev) return;
    hyla_free(dev->blocks);
    pthread_mutex_destroy(&dev->lock);
    hyla_free(dev);
}

/* Makes room for one more entry in dev->blocks; called with dev->lock held. */
static int blocks_reserve(struct cuda_dev *dev) {
    if (dev->nblocks < dev->cap_blocks) return 0;
    size_t cap = dev->cap_blocks ? 2 * dev->cap_blocks : 32;
    cuda_block *b = hyla_malloc(cap * sizeof *b);
    if (!b) return HYLA_ERR_NO_MEMORY;
    if (dev->nblocks) memcpy(b, dev->blocks, dev->nblocks * sizeof *b);
    hyla_free(dev->blocks);
    dev->blocks = b;
    dev->cap_blocks = cap;
    return 0;
}

static int alloc_device(struct cuda_dev *dev, size_t bytes, void **ptr) {
    int rc = 0;
    pthread_mutex_lock(&dev->lock);
    if (dev->mem_cap > 0 &&
        (dev->allocated > (size_t)dev->mem_cap || bytes > (size_t)dev->mem_cap - dev->allocated)) {
        rc = HYLA_ERR_DEVICE_MEMORY;
    } else if ((rc = blocks_reserve(dev)) == 0) {
        if (hyla_alloc_admit() != 0) {
            rc = HYLA_ERR_DEVICE_MEMORY;
        } else if ((rc = cuda_rc(cudaMalloc(ptr, bytes))) != 0) {
            *ptr = NULL;
        } else {
            hyla_alloc_note(+1);
            dev->blocks[dev->nblocks].ptr = *ptr;
            dev->blocks[dev->nblocks].bytes = bytes;
            dev->nblocks++;
            dev->allocated += bytes;
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

/* Frees a block of alloc_device; the device must be current. */
static void free_device(struct cuda_dev *dev, void *ptr) {
    if (!ptr) return;
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < dev->nblocks; i++) {
        if (dev->blocks[i].ptr == ptr) {
            dev->allocated -= dev->blocks[i].bytes;
            dev->blocks[i] = dev->blocks[--dev->nblocks];
            break;
        }
    }
    pthread_mutex_unlock(&dev->lock);
    /* The pointer is dead to hyla even if the runtime reports an error. */
    (void)cuda_rc(cudaFree(ptr));
    hyla_alloc_note(-1);
}

static int cuda_mem_alloc(hyla_dev *d, hyla_mem_kind kind, size_t bytes, void **ptr) {
    struct cuda_dev *dev = cdev(d);
    if (!ptr) return HYLA_ERR_INVALID;
    *ptr = NULL;
    if (kind != HYLA_MEM_DEVICE && kind != HYLA_MEM_PINNED) return HYLA_ERR_INVALID;
    if (bytes == 0) return 0;
    int rc = set_device(dev->ordinal);
    if (rc) return rc;
    if (kind == HYLA_MEM_DEVICE) return alloc_device(dev, bytes, ptr);

    if (hyla_alloc_admit() != 0) return HYLA_ERR_DEVICE_MEMORY;
    rc = cuda_rc(cudaMallocHost(ptr, bytes));
    if (rc) {
        *ptr = NULL;
        return rc;
    }
    hyla_alloc_note(+1);
    return 0;
}

static void cuda_mem_free(hyla_dev *d, hyla_mem_kind kind, void *ptr) {
    struct cuda_dev *dev = cdev(d);
    if (!ptr) return;
    (void)set_device(dev->ordinal);
    if (kind == HYLA_MEM_PINNED) {
        (void)cuda_rc(cudaFreeHost(ptr));
        hyla_alloc_note(-1);
        return;
    }
    free_device(dev, ptr);
}

static int cuda_mem_info(hyla_dev *d, size_t *free_bytes, size_t *total_bytes) {
    struct cuda_dev *dev = cdev(d);
    size_t fr = 0, tot = 0;
    int rc = set_device(dev->ordinal);
    if (!rc) rc = cuda_rc(cudaMemGetInfo(&fr, &tot));
    if (rc) return rc;
    if (dev->mem_cap > 0) {
        size_t cap = (size_t)dev->mem_cap;
        pthread_mutex_lock(&dev->lock);
        size_t room = dev->allocated < cap ? cap - dev->allocated : 0;
        pthread_mutex_unlock(&dev->lock);
        if (fr > room) fr = room;
        if (tot > cap) tot = cap;
    }
    if (free_bytes) *free_bytes = fr;
    if (total_bytes) *total_bytes = tot;
    return 0;
}

static void cuda_queue_destroy(hyla_queue *qb) {
    struct cuda_queue *q = cqueue(qb);
    if (!q) return;
    (void)queue_enter(q);
    /* the workspaces may still be in use by the stream's last potrf */
    if (q->work || q->host_work) (void)cuda_rc(cudaStreamSynchronize(q->stream));
    if (q->solver_params) (void)cusolverDnDestroyParams(q->solver_params);
    if (q->solver) (void)cusolverDnDestroy(q->solver);
    free_device(cdev(q->base.dev), q->work);
    hyla_free(q->host_work);
    if (q->blas) (void)cublasDestroy(q->blas);
    if (q->stream) (void)cuda_rc(cudaStreamDestroy(q->stream));
    hyla_free(q);
}

/* A non-blocking stream (no implicit wait on the legacy default stream), of
 * the device's greatest priority when high. */
static int create_stream(int high, cudaStream_t *s) {
    int least = 0, greatest = 0, rc;
    if (!high) return cuda_rc(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking));
    rc = cuda_rc(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    if (!rc) rc = cuda_rc(cudaStreamCreateWithPriority(s, cudaStreamNonBlocking, greatest));
    return rc;
}

static int cuda_queue_create_prio(hyla_dev *d, int high, hyla_queue **out) {
    struct cuda_dev *dev = cdev(d);
    struct cuda_queue *q;
    int rc;
    if (!out) return HYLA_ERR_INVALID;
    *out = NULL;
    rc = set_device(dev->ordinal);
    if (rc) return rc;
    q = hyla_calloc(1, sizeof *q);
    if (!q) return HYLA_ERR_NO_MEMORY;
    q->base.dev = d;
    hyla_status_init(&q->status);
    rc = create_stream(high, &q->stream);
    if (rc) {
        q->stream = NULL;
        goto fail;
    }
    rc = blas_rc(cublasCreate(&q->blas));
    if (rc) {
        q->blas = NULL;
        goto fail;
    }
    rc = blas_rc(cublasSetStream(q->blas, q->stream));
    if (!rc) rc = blas_rc(cublasSetPointerMode(q->blas, CUBLAS_POINTER_MODE_HOST));
    if (!rc) rc = blas_rc(cublasSetMathMode(q->blas, CUBLAS_DEFAULT_MATH));
    if (rc) goto fail;
    *out = &q->base;
    return 0;
fail:
    cuda_queue_destroy(&q->base);
    return rc;
}

static int cuda_queue_create(hyla_dev *d, hyla_queue **out) {
    return cuda_queue_create_prio(d, 0, out);
}

static int cuda_queue_sync(hyla_queue *qb) {
    struct cuda_queue *q = cqueue(qb);
    int rc = queue_enter(q);
    if (!rc) rc = cuda_rc(cudaStreamSynchronize(q->stream));
    queue_fail(q, rc);
    return hyla_status_get(&q->status);
}

/* ---------------------------------------------------------------- events */

static int cuda_event_create(hyla_dev *d, int timing, hyla_event **out) {
    struct cuda_event *e;
    int rc;
    if (!out) return HYLA_ERR_INVALID;
    *out = NULL;
    rc = set_device(cdev(d)->ordinal);
    if (rc) return rc;
    e = hyla_calloc(1, sizeof *e);
    if (!e) return HYLA_ERR_NO_MEMORY;
    e->base.dev = d;
    atomic_init(&e->status, 0);
    rc = cuda_rc(cudaEventCreateWithFlags(&e->ev, timing ? cudaEventDefault
                                                         : cudaEventDisableTiming));
    if (rc) {
        hyla_free(e);
        return rc;
    }
    *out = &e->base;
    return 0;
}

static void cuda_event_destroy(hyla_event *eb) {
    struct cuda_event *e = cevent(eb);
    if (!e) return;
    (void)set_device(cdev(e->base.dev)->ordinal);
    (void)cuda_rc(cudaEventDestroy(e->ev));
    hyla_free(e);
}

static int cuda_event_record(hyla_event *eb, hyla_queue *qb) {
    struct cuda_event *e = cevent(eb);
    struct cuda_queue *q = cqueue(qb);
    int rc = queue_enter(q);
    if (!rc) rc = cuda_rc(cudaEventRecord(e->ev, q->stream));
    queue_fail(q, rc);
    atomic_store(&e->status, hyla_status_get(&q->status));
    return rc;
}

static int cuda_queue_wait_event(hyla_queue *qb, hyla_event *eb) {
    struct cuda_queue *q = cqueue(qb);
    int rc = queue_enter(q);
    if (!rc) rc = cuda_rc(cudaStreamWaitEvent(q->stream, cevent(eb)->ev, 0));
    return queue_fail(q, rc);
}

static int cuda_event_sync(hyla_event *eb) {
    struct cuda_event *e = cevent(eb);
    int rc = set_device(cdev(e->base.dev)->ordinal);
    if (!rc) rc = cuda_rc(cudaEventSynchronize(e->ev));
    if (rc) {
        int zero = 0;
        atomic_compare_exchange_strong(&e->status, &zero, rc);
    }
    return atomic_load(&e->status);
}

static int cuda_event_elapsed_ms(hyla_event *start, hyla_event *end, float *ms) {
    int rc;
    if (!ms) return HYLA_ERR_INVALID;
    *ms = 0.0f;
    rc = set_device(cdev(start->dev)->ordinal);
    if (!rc) rc = cuda_rc(cudaEventElapsedTime(ms, cevent(start)->ev, cevent(end)->ev));
    return rc;
}

static int cuda_host_fn(hyla_queue *qb, void (*fn)(void *), void *arg) {
    struct cuda_queue *q = cqueue(qb);
    int rc = queue_enter(q);
    if (!rc) rc = cuda_rc(cudaLaunchHostFunc(q->stream, fn, arg));
    return queue_fail(q, rc);
}

/* ---------------------------------------------------------------- copies */

static int cuda_copy_2d(hyla_queue *qb, void *dst, size_t dpitch, const void *src,
                        size_t spitch, size_t width_bytes, size_t height,
                        hyla_copy_kind kind) {
    static const enum cudaMemcpyKind kinds[] = {
        [HYLA_COPY_H2D] = cudaMemcpyHostToDevice,
        [HYLA_COPY_D2H] = cudaMemcpyDeviceToHost,
        [HYLA_COPY_D2D] = cudaMemcpyDefault, /* the pointers tell the devices: peer copies too */
        [HYLA_COPY_H2H] = cudaMemcpyHostToHost,
    };
    struct cuda_queue *q = cqueue(qb);
    int rc;
    if (width_bytes == 0 || height == 0) return 0;
    if ((unsigned)kind > HYLA_COPY_H2H) return HYLA_ERR_INVALID;
    rc = queue_enter(q);
    if (rc) return queue_fail(q, rc);
    /* One column, or columns that touch on both sides: a flat copy, which
     * also escapes the runtime's limit on 2-D pitches. */
    if (height == 1 || (dpitch == width_bytes && spitch == width_bytes))
        rc = cuda_rc(cudaMemcpyAsync(dst, src, width_bytes * height, kinds[kind], q->stream));
    else
        rc = cuda_rc(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width_bytes, height,
                                       kinds[kind], q->stream));
    return queue_fail(q, rc);
}

static int cuda_copy_peer(hyla_queue *qb, void *dst, hyla_dev *dst_dev, const void *src,
                          hyla_dev *src_dev, size_t bytes) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    if (bytes == 0) return 0;
    rc = queue_enter(q);
    if (!rc)
        rc = cuda_rc(cudaMemcpyPeerAsync(dst, cdev(dst_dev)->ordinal, src,
                                         cdev(src_dev)->ordinal, bytes, q->stream));
    return queue_fail(q, rc);
}

/* ---------------------------------------------------------------- BLAS-3 */

/* A host scalar of any dtype, copied out of the caller's value (whose
 * alignment may be less than that of cuComplex). */
typedef union {
    float s;
    double d;
    cuComplex c;
    cuDoubleComplex z;
} scalar;

static int dtype_ok(hyla_dtype t) { return (unsigned)t <= HYLA_Z; }

static scalar load_scalar(hyla_dtype t, const void *p) {
    scalar v;
    memset(&v, 0, sizeof v);
    if (p) memcpy(&v, p, hyla_dtype_size(t));
    return v;
}

/* For real dtypes 'C' means 'T'; cuBLAS's real symmetric routines do not
 * all take CUBLAS_OP_C. */
static cublasOperation_t op_of(hyla_op op, hyla_dtype t) {
    switch (op) {
    case HYLA_TRANS: return CUBLAS_OP_T;
    case HYLA_CONJTRANS: return hyla_dtype_is_complex(t) ? CUBLAS_OP_C : CUBLAS_OP_T;
    default: return CUBLAS_OP_N;
    }
}
static cublasFillMode_t fill_of(hyla_uplo u) {
    return u == HYLA_UPPER ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}
static cublasSideMode_t side_of(hyla_side s) {
    return s == HYLA_RIGHT ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
}
static cublasDiagType_t diag_of(hyla_diag d) {
    return d == HYLA_UNIT ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
}

/* Argument checks, those of cuBLAS: a call that cuBLAS would refuse is
 * refused here, with the code cuBLAS's refusal maps to, since cuBLAS would
 * also print "** On entry to ..." and hyla never prints. */
static int ld_ok(int64_t ld, int64_t rows) { return ld >= (rows > 1 ? rows : 1); }
static int op_ok(hyla_op op) { return (unsigned)op <= HYLA_CONJTRANS; }
static int flag_ok(int v) { return v == 0 || v == 1; } /* uplo, side, diag */
/* syrk/syr2k: complex symmetric takes N or T, Hermitian N or C; real any */
static int rank_k_op_ok(hyla_dtype t, int her, hyla_op op) {
    if (!op_ok(op)) return 0;
    if (!hyla_dtype_is_complex(t)) return 1;
    return op == HYLA_NOTRANS || op == (her ? HYLA_CONJTRANS : HYLA_TRANS);
}

/* Common prologue of the BLAS ops, in this order: dtype, sizes >= 0, empty
 * result (success, whatever the leading dimensions), other arguments, device.
 * Returns 1 when the op is over, with its code in *rc. */
static int blas_enter(struct cuda_queue *q, hyla_dtype t, int sizes_ok, int empty, int args_ok,
                      int *rc) {
    *rc = 0;
    if (!dtype_ok(t)) *rc = HYLA_ERR_INVALID;
    else if (!sizes_ok) *rc = HYLA_ERR_BLAS;
    else if (empty) return 1;
    else if (!args_ok) *rc = HYLA_ERR_BLAS;
    else *rc = queue_enter(q);
    return queue_fail(q, *rc) != 0;
}

static int blas_leave(struct cuda_queue *q, cublasStatus_t st) {
    return queue_fail(q, blas_rc(st));
}

static int cuda_gemm(hyla_queue *qb, hyla_dtype t, hyla_op ta, hyla_op tb, int64_t m,
                     int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
                     const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    const int64_t arows = ta == HYLA_NOTRANS ? m : k, brows = tb == HYLA_NOTRANS ? k : n;
    if (blas_enter(q, t, m >= 0 && n >= 0 && k >= 0, m == 0 || n == 0,
                   op_ok(ta) && op_ok(tb) && ld_ok(lda, arows) && ld_ok(ldb, brows) &&
                       ld_ok(ldc, m),
                   &rc))
        return rc;
    const scalar a = load_scalar(t, alpha), b = load_scalar(t, beta);
    const cublasOperation_t oa = op_of(ta, t), ob = op_of(tb, t);
    cublasStatus_t st;
    switch (t) {
    case HYLA_S:
        st = cublasSgemm_64(q->blas, oa, ob, m, n, k, &a.s, A, lda, B, ldb, &b.s, C, ldc);
        break;
    case HYLA_D:
        st = cublasDgemm_64(q->blas, oa, ob, m, n, k, &a.d, A, lda, B, ldb, &b.d, C, ldc);
        break;
    case HYLA_C:
        st = cublasCgemm_64(q->blas, oa, ob, m, n, k, &a.c, A, lda, B, ldb, &b.c, C, ldc);
        break;
    default:
        st = cublasZgemm_64(q->blas, oa, ob, m, n, k, &a.z, A, lda, B, ldb, &b.z, C, ldc);
        break;
    }
    return blas_leave(q, st);
}

static int cuda_gemm_strided_batched(hyla_queue *qb, hyla_dtype t, hyla_op ta, hyla_op tb,
                                     int64_t m, int64_t n, int64_t k, const void *alpha,
                                     const void *A, int64_t lda, int64_t sA, const void *B,
                                     int64_t ldb, int64_t sB, const void *beta, void *C,
                                     int64_t ldc, int64_t sC, int64_t batch) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    const int64_t arows = ta == HYLA_NOTRANS ? m : k, brows = tb == HYLA_NOTRANS ? k : n;
    if (batch < 0 || sA < 0 || sB < 0 || sC < 0) return HYLA_ERR_INVALID;
    if (blas_enter(q, t, m >= 0 && n >= 0 && k >= 0, m == 0 || n == 0 || batch == 0,
                   op_ok(ta) && op_ok(tb) && ld_ok(lda, arows) && ld_ok(ldb, brows) &&
                       ld_ok(ldc, m),
                   &rc))
        return rc;
    const scalar a = load_scalar(t, alpha), b = load_scalar(t, beta);
    const cublasOperation_t oa = op_of(ta, t), ob = op_of(tb, t);
    cublasStatus_t st;
    switch (t) {
    case HYLA_S:
        st = cublasSgemmStridedBatched_64(q->blas, oa, ob, m, n, k, &a.s, A, lda, sA, B, ldb, sB,
                                          &b.s, C, ldc, sC, batch);
        break;
    case HYLA_D:
        st = cublasDgemmStridedBatched_64(q->blas, oa, ob, m, n, k, &a.d, A, lda, sA, B, ldb, sB,
                                          &b.d, C, ldc, sC, batch);
        break;
    case HYLA_C:
        st = cublasCgemmStridedBatched_64(q->blas, oa, ob, m, n, k, &a.c, A, lda, sA, B, ldb, sB,
                                          &b.c, C, ldc, sC, batch);
        break;
    default:
        st = cublasZgemmStridedBatched_64(q->blas, oa, ob, m, n, k, &a.z, A, lda, sA, B, ldb, sB,
                                          &b.z, C, ldc, sC, batch);
        break;
    }
    return blas_leave(q, st);
}

static int cuda_syrk(hyla_queue *qb, hyla_dtype t, int herm, hyla_uplo uplo, hyla_op trans,
                     int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
                     const void *beta, void *C, int64_t ldc) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    const int her = herm && hyla_dtype_is_complex(t);
    const int64_t arows = trans == HYLA_NOTRANS ? n : k;
    if (blas_enter(q, t, n >= 0 && k >= 0, n == 0,
                   flag_ok(uplo) && rank_k_op_ok(t, her, trans) && ld_ok(lda, arows) &&
                       ld_ok(ldc, n),
                   &rc))
        return rc;
    /* herk: alpha and beta are real */
    const hyla_dtype st_ = her ? hyla_dtype_real(t) : t;
    const scalar a = load_scalar(st_, alpha), b = load_scalar(st_, beta);
    const cublasFillMode_t fu = fill_of(uplo);
    const cublasOperation_t op = op_of(trans, t);
    cublasStatus_t st;
    switch (t) {
    case HYLA_S:
        st = cublasSsyrk_64(q->blas, fu, op, n, k, &a.s, A, lda, &b.s, C, ldc);
        break;
    case HYLA_D:
        st = cublasDsyrk_64(q->blas, fu, op, n, k, &a.d, A, lda, &b.d, C, ldc);
        break;
    case HYLA_C:
        st = her ? cublasCherk_64(q->blas, fu, op, n, k, &a.s, A, lda, &b.s, C, ldc)
                 : cublasCsyrk_64(q->blas, fu, op, n, k, &a.c, A, lda, &b.c, C, ldc);
        break;
    default:
        st = her ? cublasZherk_64(q->blas, fu, op, n, k, &a.d, A, lda, &b.d, C, ldc)
                 : cublasZsyrk_64(q->blas, fu, op, n, k, &a.z, A, lda, &b.z, C, ldc);
        break;
    }
    return blas_leave(q, st);
}

static int cuda_syr2k(hyla_queue *qb, hyla_dtype t, int herm, hyla_uplo uplo, hyla_op trans,
                      int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
                      const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    const int her = herm && hyla_dtype_is_complex(t);
    const int64_t arows = trans == HYLA_NOTRANS ? n : k;
    if (blas_enter(q, t, n >= 0 && k >= 0, n == 0,
                   flag_ok(uplo) && rank_k_op_ok(t, her, trans) && ld_ok(lda, arows) &&
                       ld_ok(ldb, arows) && ld_ok(ldc, n),
                   &rc))
        return rc;
    /* her2k: alpha of the dtype, beta real */
    const scalar a = load_scalar(t, alpha), b = load_scalar(her ? hyla_dtype_real(t) : t, beta);
    const cublasFillMode_t fu = fill_of(uplo);
    const cublasOperation_t op = op_of(trans, t);
    cublasStatus_t st;
    switch (t) {
    case HYLA_S:
        st = cublasSsyr2k_64(q->blas, fu, op, n, k, &a.s, A, lda, B, ldb, &b.s, C, ldc);
        break;
    case HYLA_D:
        st = cublasDsyr2k_64(q->blas, fu, op, n, k, &a.d, A, lda, B, ldb, &b.d, C, ldc);
        break;
    case HYLA_C:
        st = her ? cublasCher2k_64(q->blas, fu, op, n, k, &a.c, A, lda, B, ldb, &b.s, C, ldc)
                 : cublasCsyr2k_64(q->blas, fu, op, n, k, &a.c, A, lda, B, ldb, &b.c, C, ldc);
        break;
    default:
        st = her ? cublasZher2k_64(q->blas, fu, op, n, k, &a.z, A, lda, B, ldb, &b.d, C, ldc)
                 : cublasZsyr2k_64(q->blas, fu, op, n, k, &a.z, A, lda, B, ldb, &b.z, C, ldc);
        break;
    }
    return blas_leave(q, st);
}

static int cuda_symm(hyla_queue *qb, hyla_dtype t, int herm, hyla_side side, hyla_uplo uplo,
                     int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
                     const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    const int her = herm && hyla_dtype_is_complex(t);
    const int64_t ka = side == HYLA_LEFT ? m : n;
    if (blas_enter(q, t, m >= 0 && n >= 0, m == 0 || n == 0,
                   flag_ok(side) && flag_ok(uplo) && ld_ok(lda, ka) && ld_ok(ldb, m) &&
                       ld_ok(ldc, m),
                   &rc))
        return rc;
    const scalar a = load_scalar(t, alpha), b = load_scalar(t, beta);
    const cublasSideMode_t sd = side_of(side);
    const cublasFillMode_t fu = fill_of(uplo);
    cublasStatus_t st;
    switch (t) {
    case HYLA_S:
        st = cublasSsymm_64(q->blas, sd, fu, m, n, &a.s, A, lda, B, ldb, &b.s, C, ldc);
        break;
    case HYLA_D:
        st = cublasDsymm_64(q->blas, sd, fu, m, n, &a.d, A, lda, B, ldb, &b.d, C, ldc);
        break;
    case HYLA_C:
        st = her ? cublasChemm_64(q->blas, sd, fu, m, n, &a.c, A, lda, B, ldb, &b.c, C, ldc)
                 : cublasCsymm_64(q->blas, sd, fu, m, n, &a.c, A, lda, B, ldb, &b.c, C, ldc);
        break;
    default:
        st = her ? cublasZhemm_64(q->blas, sd, fu, m, n, &a.z, A, lda, B, ldb, &b.z, C, ldc)
                 : cublasZsymm_64(q->blas, sd, fu, m, n, &a.z, A, lda, B, ldb, &b.z, C, ldc);
        break;
    }
    return blas_leave(q, st);
}

static int cuda_trsm(hyla_queue *qb, hyla_dtype t, hyla_side side, hyla_uplo uplo, hyla_op ta,
                     hyla_diag diag, int64_t m, int64_t n, const void *alpha, const void *A,
                     int64_t lda, void *B, int64_t ldb) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    const int64_t ka = side == HYLA_LEFT ? m : n;
    if (blas_enter(q, t, m >= 0 && n >= 0, m == 0 || n == 0,
                   flag_ok(side) && flag_ok(uplo) && op_ok(ta) && flag_ok(diag) &&
                       ld_ok(lda, ka) && ld_ok(ldb, m),
                   &rc))
        return rc;
    const scalar a = load_scalar(t, alpha);
    const cublasSideMode_t sd = side_of(side);
    const cublasFillMode_t fu = fill_of(uplo);
    const cublasOperation_t op = op_of(ta, t);
    const cublasDiagType_t dg = diag_of(diag);
    cublasStatus_t st;
    switch (t) {
    case HYLA_S:
        st = cublasStrsm_64(q->blas, sd, fu, op, dg, m, n, &a.s, A, lda, B, ldb);
        break;
    case HYLA_D:
        st = cublasDtrsm_64(q->blas, sd, fu, op, dg, m, n, &a.d, A, lda, B, ldb);
        break;
    case HYLA_C:
        st = cublasCtrsm_64(q->blas, sd, fu, op, dg, m, n, &a.c, A, lda, B, ldb);
        break;
    default:
        st = cublasZtrsm_64(q->blas, sd, fu, op, dg, m, n, &a.z, A, lda, B, ldb);
        break;
    }
    return blas_leave(q, st);
}

/* cuBLAS trmm is out of place (C := alpha op(A) B); C = B, ldc = ldb runs it
 * in place, which cuBLAS allows. */
static int cuda_trmm(hyla_queue *qb, hyla_dtype t, hyla_side side, hyla_uplo uplo, hyla_op ta,
                     hyla_diag diag, int64_t m, int64_t n, const void *alpha, const void *A,
                     int64_t lda, void *B, int64_t ldb) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    const int64_t ka = side == HYLA_LEFT ? m : n;
    if (blas_enter(q, t, m >= 0 && n >= 0, m == 0 || n == 0,
                   flag_ok(side) && flag_ok(uplo) && op_ok(ta) && flag_ok(diag) &&
                       ld_ok(lda, ka) && ld_ok(ldb, m),
                   &rc))
        return rc;
    const scalar a = load_scalar(t, alpha);
    const cublasSideMode_t sd = side_of(side);
    const cublasFillMode_t fu = fill_of(uplo);
    const cublasOperation_t op = op_of(ta, t);
    const cublasDiagType_t dg = diag_of(diag);
    cublasStatus_t st;
    switch (t) {
    case HYLA_S:
        st = cublasStrmm_64(q->blas, sd, fu, op, dg, m, n, &a.s, A, lda, B, ldb, B, ldb);
        break;
    case HYLA_D:
        st = cublasDtrmm_64(q->blas, sd, fu, op, dg, m, n, &a.d, A, lda, B, ldb, B, ldb);
        break;
    case HYLA_C:
        st = cublasCtrmm_64(q->blas, sd, fu, op, dg, m, n, &a.c, A, lda, B, ldb, B, ldb);
        break;
    default:
        st = cublasZtrmm_64(q->blas, sd, fu, op, dg, m, n, &a.z, A, lda, B, ldb, B, ldb);
        break;
    }
    return blas_leave(q, st);
}

/* ---------------------------------------------------------------- custom kernels */

/* Checks the arguments (HYLA_ERR_INVALID) and makes the device current;
 * an empty matrix needs neither a valid lda nor the device. */
static int kernel_enter(struct cuda_queue *q, hyla_dtype t, int64_t m, int64_t n, int64_t lda) {
    int rc = 0;
    if (!dtype_ok(t) || m < 0 || n < 0) rc = HYLA_ERR_INVALID;
    else if (m == 0 || n == 0) return 0;
    else if (!ld_ok(lda, m)) rc = HYLA_ERR_INVALID;
    else rc = queue_enter(q);
    return queue_fail(q, rc);
}

static int cuda_laset(hyla_queue *qb, hyla_dtype t, int uplo, int64_t m, int64_t n,
                      const void *offdiag, const void *diag, void *A, int64_t lda) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    if ((rc = kernel_enter(q, t, m, n, lda)) != 0 || m == 0 || n == 0) return rc;
    return queue_fail(q, hyla_cuda_laset(q->stream, (int)t, uplo, m, n, offdiag, diag, A, lda));
}

static int cuda_scale(hyla_queue *qb, hyla_dtype t, int64_t m, int64_t n, const void *alpha,
                      void *A, int64_t lda) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    if ((rc = kernel_enter(q, t, m, n, lda)) != 0 || m == 0 || n == 0) return rc;
    return queue_fail(q, hyla_cuda_scale(q->stream, (int)t, m, n, alpha, A, lda));
}

static int cuda_nonfinite(hyla_queue *qb, hyla_dtype t, int uplo, int64_t off, int64_t m,
                          int64_t n, const void *A, int64_t lda, int *bad) {
    struct cuda_queue *q = cqueue(qb);
    if (!dtype_ok(t) || (uplo != -1 && uplo != HYLA_LOWER && uplo != HYLA_UPPER) || m < 0 ||
        n < 0 || !ld_ok(lda, m) || !bad || (m > 0 && n > 0 && !A))
        return HYLA_ERR_INVALID;
    int rc = queue_enter(q);
    if (!rc) rc = hyla_cuda_nonfinite(q->stream, (int)t, uplo, off, m, n, A, lda, bad);
    return queue_fail(q, rc);
}

static int cuda_geam(hyla_queue *qb, hyla_dtype t, hyla_op ta, int64_t m, int64_t n,
                     const void *alpha, const void *A, int64_t lda, const void *beta, void *C,
                     int64_t ldc) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    const int64_t arows = ta == HYLA_NOTRANS ? m : n;
    /* bad arguments: HYLA_ERR_INVALID with nothing enqueued, as on the host
     * backend (the queue stays usable) */
    if (!dtype_ok(t) || m < 0 || n < 0 || !op_ok(ta) || !ld_ok(lda, arows) || !ld_ok(ldc, m) ||
        (m > 0 && n > 0 && (!A || !C)))
        return HYLA_ERR_INVALID;
    if (blas_enter(q, t, 1, m == 0 || n == 0, 1, &rc)) return rc;
    const scalar a = load_scalar(t, alpha), b = load_scalar(t, beta);
    const cublasOperation_t oa = op_of(ta, t);
    cublasStatus_t st;
    /* beta == 0 must not read C (NaN there would come through as 0 * NaN):
     * C zeroed first, unless C is A itself (then C := alpha A reads only A) */
    const int beta0 = t == HYLA_S   ? b.s == 0.0f
                      : t == HYLA_D ? b.d == 0.0
                      : t == HYLA_C ? b.c.x == 0.0f && b.c.y == 0.0f
                                    : b.z.x == 0.0 && b.z.y == 0.0;
    if (beta0 && C != A &&
        cudaMemset2DAsync(C, (size_t)ldc * hyla_dtype_size(t), 0, (size_t)m * hyla_dtype_size(t),
                          (size_t)n, q->stream) != cudaSuccess)
        return queue_fail(q, HYLA_ERR_DEVICE);
    /* B is C itself (cuBLAS allows C == B with ldb == ldc, B not transposed) */
    switch (t) {
    case HYLA_S:
        st = cublasSgeam_64(q->blas, oa, CUBLAS_OP_N, m, n, &a.s, A, lda, &b.s, C, ldc, C, ldc);
        break;
    case HYLA_D:
        st = cublasDgeam_64(q->blas, oa, CUBLAS_OP_N, m, n, &a.d, A, lda, &b.d, C, ldc, C, ldc);
        break;
    case HYLA_C:
        st = cublasCgeam_64(q->blas, oa, CUBLAS_OP_N, m, n, &a.c, A, lda, &b.c, C, ldc, C, ldc);
        break;
    default:
        st = cublasZgeam_64(q->blas, oa, CUBLAS_OP_N, m, n, &a.z, A, lda, &b.z, C, ldc, C, ldc);
        break;
    }
    return blas_leave(q, st);
}

/* ---------------------------------------------------------------- random butterflies */

static int cuda_rbt(hyla_queue *qb, hyla_dtype t, const hyla_rbt_args *a) {
    struct cuda_queue *q = cqueue(qb);
    int rc = hyla_rbt_check(t, a);
    if (rc || a->m == 0 || a->n == 0) return rc;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    return queue_fail(q, hyla_cuda_rbt(q->stream, (int)t, (int)a->mode, a->depth, a->m, a->n,
                                       a->u, a->v, a->S, a->lds, a->ms, a->ns, a->A, a->lda));
}

static int cuda_row_asum(hyla_queue *qb, hyla_dtype t, int64_t m, int64_t n, const void *A,
                         int64_t lda, void *sums) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    if (!dtype_ok(t) || m < 0 || n < 0 || !ld_ok(lda, m) || (m > 0 && (!sums || (n > 0 && !A))))
        return HYLA_ERR_INVALID;
    if (m == 0) return 0;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    return queue_fail(q, hyla_cuda_row_asum(q->stream, (int)t, m, n, A, lda, sums));
}

static int cuda_herm_blocks(hyla_queue *qb, hyla_dtype t, int64_t n, int64_t b, const void *A,
                            int64_t lda, void *S) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    if (!dtype_ok(t) || n < 0 || b < 1 || !ld_ok(lda, n) || (n > 0 && (!A || !S)))
        return HYLA_ERR_INVALID;
    if (n == 0) return 0;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    return queue_fail(q, hyla_cuda_herm_blocks(q->stream, (int)t, n, b, A, lda, S));
}

static int cuda_rbt_diagonals(hyla_queue *qb, hyla_dtype t, uint64_t seed, uint64_t offset,
                              int64_t count, void *w) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    if (!dtype_ok(t) || count < 0 || (count > 0 && !w)) return HYLA_ERR_INVALID;
    if (count == 0) return 0;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    return queue_fail(q, hyla_cuda_rbt_diagonals(q->stream, (int)t, seed, offset, count, w));
}

/* ------------------------------------------- CholeskyQR2's reconstruction */

static int cuda_cq_rebuild(hyla_queue *qb, hyla_dtype t, const hyla_cq_args *a) {
    struct cuda_queue *q = cqueue(qb);
    int rc = hyla_cq_check(t, a);
    if (rc) return rc;
    if (a->k > HYLA_CUDA_CQ_MAX_K) return HYLA_ERR_UNSUPPORTED;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    rc = hyla_cuda_cq_rebuild(q->stream, (int)t, a);
    /* a block too large for this GPU enqueued nothing: the queue stays usable */
    return rc == HYLA_ERR_UNSUPPORTED ? rc : queue_fail(q, rc);
}

static int cuda_larft_gram(hyla_queue *qb, hyla_dtype t, int64_t k, const void *G, int64_t ldg,
                           const void *tau, void *T, int64_t ldt) {
    struct cuda_queue *q = cqueue(qb);
    int rc = hyla_larft_gram_check(t, k, G, ldg, tau, T, ldt);
    if (rc || k == 0) return rc;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    rc = hyla_cuda_larft_gram(q->stream, (int)t, k, G, ldg, tau, T, ldt);
    return rc == HYLA_ERR_UNSUPPORTED ? rc : queue_fail(q, rc);
}

/* ---------------------------------------------------------------- Q2 of the chase */

static int cuda_q2_apply(hyla_queue *qb, hyla_dtype t, const hyla_q2_args *a) {
    struct cuda_queue *q = cqueue(qb);
    int rc = hyla_q2_check(t, a);
    if (rc || a->nsg == 0 || a->ncols == 0 || a->n < 2) return rc;
    if (a->nb > HYLA_CUDA_Q2_MAX_NB || a->kd > HYLA_CUDA_Q2_MAX_KD || a->n >= INT32_MAX)
        return HYLA_ERR_UNSUPPORTED;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    rc = hyla_cuda_q2_apply(q->stream, (int)t, a->n, a->kd, a->nb, a->nsg, a->woff, a->store,
                            a->ncols, a->Z, a->ldz, a->identity, a->col0);
    /* a shape the kernel does not take leaves the queue usable (nothing was enqueued) */
    return rc == HYLA_ERR_UNSUPPORTED ? rc : queue_fail(q, rc);
}

/* ---------------------------------------------------------------- bisection */

static int cuda_tri_eigvals(hyla_queue *qb, hyla_dtype t, int64_t n, const void *d,
                            const void *e, void *w, void *work, size_t work_bytes, int *info) {
    struct cuda_queue *q = cqueue(qb);
    int rc = hyla_tri_eigvals_check(t, n, d, e, w, work, work_bytes, info);
    if (rc) return rc;
    if (n >= INT32_MAX) return HYLA_ERR_UNSUPPORTED;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    return queue_fail(q, hyla_cuda_tri_eigvals(q->stream, (int)t, n, d, e, w, work, info));
}

/* ---------------------------------------------------------------- divide and conquer */

static int cuda_dc_op(hyla_queue *qb, hyla_dtype t, const hyla_dc_args *a, int vectors) {
    struct cuda_queue *q = cqueue(qb);
    int rc = hyla_dc_check(t, a, vectors);
    if (rc) return rc;
    if (a->n >= INT32_MAX || a->nrot >= INT32_MAX) return HYLA_ERR_UNSUPPORTED;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    return queue_fail(q, vectors ? hyla_cuda_dc_vectors(q->stream, (int)t, a)
                                 : hyla_cuda_dc_secular(q->stream, (int)t, a));
}

static int cuda_dc_secular(hyla_queue *qb, hyla_dtype t, const hyla_dc_args *a) {
    return cuda_dc_op(qb, t, a, 0);
}

static int cuda_dc_vectors(hyla_queue *qb, hyla_dtype t, const hyla_dc_args *a) {
    return cuda_dc_op(qb, t, a, 1);
}

/* ---------------------------------------------------------------- bulge chasing */

static int cuda_hb2st(hyla_queue *qb, hyla_dtype t, int64_t n, int64_t kd, void *AB,
                      int64_t ldab, void *d, void *e, void *work, size_t work_bytes, int step) {
    struct cuda_queue *q = cqueue(qb);
    int rc = hyla_hb2st_check(t, n, kd, AB, ldab, d, e, work, work_bytes, step);
    if (rc || n == 0) return rc;
    if (HYLA_MIN(kd, n - 1) > HYLA_CUDA_HB2ST_MAX_KD || n >= INT32_MAX)
        return HYLA_ERR_UNSUPPORTED;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    return queue_fail(q,
                      hyla_cuda_hb2st(q->stream, (int)t, n, kd, AB, ldab, d, e, work, NULL, step));
}

static int cuda_hb2st_v(hyla_queue *qb, hyla_dtype t, int64_t n, int64_t kd, void *AB,
                        int64_t ldab, void *d, void *e, void *work, size_t work_bytes, int step,
                        const hyla_hb2st_store *st) {
    struct cuda_queue *q = cqueue(qb);
    int rc = hyla_hb2st_check(t, n, kd, AB, ldab, d, e, work, work_bytes, step);
    if (!rc) rc = hyla_hb2st_store_check(n, kd, st);
    if (rc || n == 0) return rc;
    if (kd > HYLA_CUDA_HB2ST_MAX_KD || n >= INT32_MAX) return HYLA_ERR_UNSUPPORTED;
    if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
    return queue_fail(q,
                      hyla_cuda_hb2st(q->stream, (int)t, n, kd, AB, ldab, d, e, work, st, step));
}

/* ---------------------------------------------------------------- cuSOLVER */

static const cudaDataType solver_types[] = {
    [HYLA_S] = CUDA_R_32F, [HYLA_D] = CUDA_R_64F, [HYLA_C] = CUDA_C_32F, [HYLA_Z] = CUDA_C_64F};

/* The queue's cuSOLVER handle, bound to its stream, made on first use. */
static int solver_get(struct cuda_queue *q) {
    cusolverDnHandle_t h = NULL;
    cusolverDnParams_t p = NULL;
    int rc;
    if (q->solver) return 0;
    rc = solver_rc(cusolverDnCreate(&h));
    if (rc) return rc;
    rc = solver_rc(cusolverDnSetStream(h, q->stream));
    if (!rc) rc = solver_rc(cusolverDnCreateParams(&p));
    if (rc) {
        (void)cusolverDnDestroy(h);
        return rc;
    }
    q->solver = h;
    q->solver_params = p;
    return 0;
}

/* Grows the queue's workspaces to at least the given sizes. Work already on
 * the stream may use the old buffers, so the stream drains before they go. */
static int solver_workspace(struct cuda_queue *q, size_t dev_bytes, size_t host_bytes) {
    int rc;
    if (dev_bytes <= q->work_bytes && host_bytes <= q->host_work_bytes) return 0;
    rc = cuda_rc(cudaStreamSynchronize(q->stream));
    if (rc) return rc;
    if (dev_bytes > q->work_bytes) {
        free_device(cdev(q->base.dev), q->work);
        q->work = NULL;
        q->work_bytes = 0;
        rc = alloc_device(cdev(q->base.dev), dev_bytes, &q->work);
        if (rc) {
            q->work = NULL;
            return rc;
        }
        q->work_bytes = dev_bytes;
    }
    if (host_bytes > q->host_work_bytes) {
        hyla_free(q->host_work);
        q->host_work_bytes = 0;
        q->host_work = hyla_malloc(host_bytes);
        if (!q->host_work) return HYLA_ERR_NO_MEMORY;
        q->host_work_bytes = host_bytes;
    }
    return 0;
}

/* The middle of a cuSOLVER call: s, the status of its bufferSize query,
 * which wrote *dev_bytes and *host_bytes, then the queue's workspaces grown
 * to those sizes. Returns 0 or the code of the first failure. */
static int solver_sized(struct cuda_queue *q, cusolverStatus_t s, const size_t *dev_bytes,
                        const size_t *host_bytes) {
    int rc = solver_rc(s);
    return rc ? rc : solver_workspace(q, *dev_bytes, *host_bytes);
}

/* Common start of a cuSOLVER call: the device made current, then info := 0
 * and nothing more for an empty problem, else the queue's handle. Returns 1
 * when the call is over (empty, or a failure left in *rc), 0 to go on. */
static int solver_begin(struct cuda_queue *q, int empty, int *info, int *rc) {
    *rc = queue_enter(q);
    if (!*rc && empty) *rc = cuda_rc(cudaMemsetAsync(info, 0, sizeof *info, q->stream));
    if (!*rc && !empty) *rc = solver_get(q);
    return *rc != 0 || empty;
}

/* Arguments are checked here: cuSOLVER prints on a bad one, and a bad
 * argument enqueues nothing, so it leaves the queue's status alone. Orders
 * up to HYLA_CUDA_POTRF_SMALL_MAX (stage 1's panel Gram matrices, small
 * tiles) run as one kernel of k_cq.cu, which needs no cuSOLVER workspace. */
static int cuda_potrf(hyla_queue *qb, hyla_dtype t, hyla_uplo uplo, int64_t n, void *A,
                      int64_t lda, int *info) {
    struct cuda_queue *q = cqueue(qb);
    size_t dev_bytes = 0, host_bytes = 0;
    int rc;
    if (!dtype_ok(t) || !flag_ok(uplo) || n < 0 || !ld_ok(lda, n) || !info || (n > 0 && !A))
        return HYLA_ERR_INVALID;
    if (n >= 1 && n <= HYLA_CUDA_POTRF_SMALL_MAX) { /* one kernel, where cuSOLVER takes seven */
        if ((rc = queue_enter(q)) != 0) return queue_fail(q, rc);
        return queue_fail(q, hyla_cuda_potrf_small(q->stream, (int)t, uplo == HYLA_LOWER, n, A,
                                                   lda, info));
    }
    if (solver_begin(q, n == 0, info, &rc)) return queue_fail(q, rc);
    const cudaDataType dt = solver_types[t];
    const cublasFillMode_t fu = fill_of(uplo);
    rc = solver_sized(q,
                      cusolverDnXpotrf_bufferSize(q->solver, q->solver_params, fu, n, dt, A, lda,
                                                  dt, &dev_bytes, &host_bytes),
                      &dev_bytes, &host_bytes);
    if (!rc)
        rc = solver_rc(cusolverDnXpotrf(q->solver, q->solver_params, fu, n, dt, A, lda, dt,
                                        q->work, q->work_bytes, q->host_work,
                                        q->host_work_bytes, info));
    if (!rc) rc = hyla_cuda_potrf_nan_pivot(q->stream, (int)t, n, A, lda, info);
    return queue_fail(q, rc);
}

/* The heevd op: cuSOLVER's Xsyevd on the lower triangle, its workspace and
 * its device info taken for the call (one block) and freed after the
 * stream has drained. */
static int cuda_heevd(hyla_queue *qb, hyla_dtype t, int vec, int64_t n, void *A, int64_t lda,
                      void *w, int *info) {
    struct cuda_queue *q = cqueue(qb);
    struct cuda_dev *dev = cdev(qb->dev);
    size_t dev_bytes = 0, host_bytes = 0;
    void *work = NULL, *hwork = NULL;
    int rc;
    if (!dtype_ok(t) || !flag_ok(vec) || n < 0 || !ld_ok(lda, n) || !info ||
        (n > 0 && (!A || !w)))
        return HYLA_ERR_INVALID;
    *info = 0;
    if (n == 0) return 0;
    if ((rc = queue_enter(q)) != 0 || (rc = solver_get(q)) != 0) return queue_fail(q, rc);
    const cudaDataType dt = solver_types[t], rt = solver_types[hyla_dtype_real(t)];
    const cusolverEigMode_t jz = vec ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    rc = solver_rc(cusolverDnXsyevd_bufferSize(q->solver, q->solver_params, jz,
                                               CUBLAS_FILL_MODE_LOWER, n, dt, A, lda, rt, w, dt,
                                               &dev_bytes, &host_bytes));
    const size_t at = (dev_bytes + 15) / 16 * 16; /* the device info after the workspace */
    if (!rc) rc = alloc_device(dev, at + 16, &work);
    if (!rc && host_bytes > 0 && !(hwork = hyla_malloc(host_bytes))) rc = HYLA_ERR_NO_MEMORY;
    if (!rc) {
        int *dinfo = (int *)((unsigned char *)work + at);
        rc = solver_rc(cusolverDnXsyevd(q->solver, q->solver_params, jz, CUBLAS_FILL_MODE_LOWER,
                                        n, dt, A, lda, rt, w, dt, work, dev_bytes, hwork,
                                        host_bytes, dinfo));
        if (!rc)
            rc = cuda_rc(cudaMemcpyAsync(info, dinfo, sizeof *info, cudaMemcpyDeviceToHost,
                                         q->stream));
        const int rs = cuda_rc(cudaStreamSynchronize(q->stream));
        if (!rc) rc = rs;
    }
    if (work) free_device(dev, work);
    hyla_free(hwork);
    return queue_fail(q, rc);
}

/* CTAs the fused panel kernel may use (0: its own choice), from
 * HYLA_OPT_LU_PANEL's value mode. */
static int panel_ctas(int64_t mode) {
    return mode >= 8 ? (int)HYLA_MIN(mode, INT32_MAX) : 0;
}

/* 1 when the fused panel kernel (k_getrf_panel.cu) factors this m x n
 * getrf instead of cuSOLVER, as HYLA_OPT_LU_PANEL's value mode says
 * (hyla.h): automatic takes panels of at most 128 columns and 1024 rows or
 * more that fit in shared memory; the forced kernel takes every panel,
 * those wider than 128 columns through panel_rec. *plan: the layout of a
 * panel of at most 128 columns. A panel the kernel cannot take (no
 * cooperative launch) goes to cuSOLVER in every mode. */
static int panel_kernel_takes(int64_t mode, hyla_dtype t, int64_t m, int64_t n,
                              hyla_cuda_panel_plan *plan) {
    /* automatic is cuSOLVER: on one H100 the fused kernel took 0.757 ms for
     * a 16384 x 128 leaf against cuSOLVER's 0.688 ms, and the LU at n =
     * 16384 ran at 16.3 TFLOP/s against 18.7 */
    if (mode == 0 || mode == 1 || m < 1 || n < 1) return 0;
    if (mode == 0 && (m < 1024 || n > HYLA_CUDA_GETRF_PANEL_MAX_N)) return 0;
    if (hyla_cuda_getrf_panel_plan((int)t, m, HYLA_MIN(n, HYLA_CUDA_GETRF_PANEL_MAX_N),
                                   panel_ctas(mode), plan) != 0)
        return 0;
    return mode != 0 || plan->in_smem;
}

/* LU of the rows x cols block whose top-left element is A(r0, r0) of the
 * op's A (A0), recursively (Toledo, as plu.c's factor_rec, cut at
 * multiples of 128 columns): the left part, its row swaps on the right
 * part, TRSM and GEMM, the right part, its row swaps back on the left part.
 * Leaves go to the fused kernel, which writes pivots relative to A0 (row
 * offset r0) and the first zero pivot into info (zeroed before). */
static int panel_rec(struct cuda_queue *q, hyla_dtype t, unsigned char *A0, int64_t lda,
                     int64_t *ipiv, int *info, int64_t r0, int64_t rows, int64_t cols,
                     int64_t mode) {
    const int64_t W = HYLA_CUDA_GETRF_PANEL_MAX_N, piv = HYLA_MIN(rows, cols);
    const size_t es = hyla_dtype_size(t);
    unsigned char *P = A0 + (size_t)(r0 + r0 * lda) * es;
    hyla_cuda_panel_plan plan;
    int rc;
    if (cols <= W) {
        rc = hyla_cuda_getrf_panel_plan((int)t, rows, cols, panel_ctas(mode), &plan);
        if (!rc) rc = solver_workspace(q, plan.work_bytes, 0);
        if (!rc)
            rc = hyla_cuda_getrf_panel(q->stream, &plan, P, lda, ipiv ? ipiv + r0 : NULL, info,
                                       q->work, r0, 1);
        return rc;
    }
    const int64_t c1 = piv <= W ? piv : (piv + W - 1) / W / 2 * W, c2 = cols - c1;
    unsigned char *R = P + (size_t)(c1 * lda) * es;
    if ((rc = panel_rec(q, t, A0, lda, ipiv, info, r0, rows, c1, mode))) return rc;
    if (ipiv && (rc = hyla_cuda_laswp(q->stream, (int)t, c2, A0 + (size_t)((r0 + c1) * lda) * es,
                                      lda, r0 + 1, r0 + c1, ipiv, 1)))
        return rc;
    if ((rc = cuda_trsm(&q->base, t, HYLA_LEFT, HYLA_LOWER, HYLA_NOTRANS, HYLA_UNIT, c1, c2,
                        hyla_scalar(t, HYLA_SC_ONE), P, lda, R, lda)))
        return rc;
    if (rows == c1) return 0;
    if ((rc = cuda_gemm(&q->base, t, HYLA_NOTRANS, HYLA_NOTRANS, rows - c1, c2, c1,
                        hyla_scalar(t, HYLA_SC_MONE), P + (size_t)c1 * es, lda, R, lda,
                        hyla_scalar(t, HYLA_SC_ONE), R + (size_t)c1 * es, lda)))
        return rc;
    if ((rc = panel_rec(q, t, A0, lda, ipiv, info, r0 + c1, rows - c1, c2, mode))) return rc;
    if (ipiv)
        rc = hyla_cuda_laswp(q->stream, (int)t, c1, A0 + (size_t)(r0 * lda) * es, lda, r0 + c1 + 1,
                             r0 + piv, ipiv, 1);
    return rc;
}

/* LU (cusolverDnXgetrf, 64-bit pivots; ipiv NULL factors without
 * pivoting), or the fused panel kernel for tall panels of at most 128
 * columns (panel_kernel_takes), whose exchange buffers take the cuSOLVER
 * workspace of the queue. Arguments are checked here, as for potrf. */
static int cuda_getrf(hyla_queue *qb, hyla_dtype t, int64_t m, int64_t n, void *A, int64_t lda,
                      int64_t *ipiv, int *info, int64_t panel) {
    struct cuda_queue *q = cqueue(qb);
    size_t dev_bytes = 0, host_bytes = 0;
    hyla_cuda_panel_plan plan;
    int rc;
    if (!dtype_ok(t) || m < 0 || n < 0 || !ld_ok(lda, m) || !info || (m > 0 && n > 0 && !A))
        return HYLA_ERR_INVALID;
    if (solver_begin(q, m == 0 || n == 0, info, &rc)) return queue_fail(q, rc);
    if (panel_kernel_takes(panel, t, m, n, &plan)) {
        if (n > HYLA_CUDA_GETRF_PANEL_MAX_N) {
            rc = cuda_rc(cudaMemsetAsync(info, 0, sizeof *info, q->stream));
            if (!rc) rc = panel_rec(q, t, A, lda, ipiv, info, 0, m, n, panel);
            return queue_fail(q, rc);
        }
        rc = solver_workspace(q, plan.work_bytes, 0);
        if (!rc) rc = hyla_cuda_getrf_panel(q->stream, &plan, A, lda, ipiv, info, q->work, 0, 0);
        /* automatic: a grid the device refuses to launch (the launch
         * checks co-residency itself) leaves the panel to cuSOLVER */
        if (rc != HYLA_ERR_DEVICE || panel != 0) return queue_fail(q, rc);
    }
    /* cuSOLVER's getrf replaces a NaN of its input by finite values
     * (CUDA 13.0: a 37 x 37 dgetrf with one NaN returns a finite factor and
     * info 0). hyla's policy (hyla.h, "NaN and Inf") is that NaN and Inf show
     * in the factor: a flag after cuSOLVER's workspace records whether A
     * held one, and then U(0, 0) of this block is set to NaN afterwards; one
     * read of A, no synchronisation. */
    const cudaDataType dt = solver_types[t];
    rc = solver_rc(cusolverDnXgetrf_bufferSize(q->solver, q->solver_params, m, n, dt, A, lda,
                                                   dt, &dev_bytes, &host_bytes));
    const size_t flag_at = (dev_bytes + 255) / 256 * 256;
    if (!rc) rc = solver_workspace(q, flag_at + sizeof(int), host_bytes);
    int *flag = rc ? NULL : (int *)((unsigned char *)q->work + flag_at);
    if (!rc) rc = hyla_cuda_nonfinite(q->stream, (int)t, -1, 0, m, n, A, lda, flag);
    if (!rc)
        rc = solver_rc(cusolverDnXgetrf(q->solver, q->solver_params, m, n, dt, A, lda, ipiv, dt,
                                        q->work, flag_at, q->host_work, q->host_work_bytes,
                                        info));
    if (!rc) rc = hyla_cuda_nan_mark(q->stream, (int)t, flag, A);
    return queue_fail(q, rc);
}

/* QR (cusolverDnXgeqrf), or the fused QR panel kernel (k_geqrf_panel.cu)
 * for panels of at most 64 columns when HYLA_OPT_LU_PANEL (panel)
 * forces the fused kernels (automatic keeps cuSOLVER here). Arguments are
 * checked here, as for potrf. */
static int cuda_geqrf(hyla_queue *qb, hyla_dtype t, int64_t m, int64_t n, void *A, int64_t lda,
                      void *tau, int *info, int64_t panel) {
    struct cuda_queue *q = cqueue(qb);
    size_t dev_bytes = 0, host_bytes = 0;
    int rc;
    if (!dtype_ok(t) || m < 0 || n < 0 || !ld_ok(lda, m) || !info ||
        (m > 0 && n > 0 && (!A || !tau)))
        return HYLA_ERR_INVALID;
    if (solver_begin(q, m == 0 || n == 0, info, &rc)) return queue_fail(q, rc);
    hyla_cuda_qr_plan plan;
    if (panel >= 2 && n <= HYLA_CUDA_GEQRF_PANEL_MAX_N &&
        hyla_cuda_geqrf_panel_plan((int)t, m, n, panel_ctas(panel), &plan) == 0) {
        rc = solver_workspace(q, plan.work_bytes, 0);
        if (!rc) rc = hyla_cuda_geqrf_panel(q->stream, &plan, A, lda, tau, info, q->work);
        return queue_fail(q, rc);
    }
    const cudaDataType dt = solver_types[t];
    rc = solver_sized(q,
                      cusolverDnXgeqrf_bufferSize(q->solver, q->solver_params, m, n, dt, A, lda,
                                                  dt, tau, dt, &dev_bytes, &host_bytes),
                      &dev_bytes, &host_bytes);
    if (!rc)
        rc = solver_rc(cusolverDnXgeqrf(q->solver, q->solver_params, m, n, dt, A, lda, dt, tau,
                                        dt, q->work, q->work_bytes, q->host_work,
                                        q->host_work_bytes, info));
    return queue_fail(q, rc);
}

static int cuda_laswp(hyla_queue *qb, hyla_dtype t, int64_t n, void *A, int64_t lda, int64_t k1,
                      int64_t k2, const int64_t *ipiv, int inc) {
    struct cuda_queue *q = cqueue(qb);
    int rc;
    if (!dtype_ok(t) || (inc != 1 && inc != -1) || n < 0 || k1 < 1) return HYLA_ERR_INVALID;
    if (n == 0 || k2 < k1) return 0;
    if (!A || !ipiv || lda < k2) return HYLA_ERR_INVALID;
    rc = queue_enter(q);
    if (!rc) rc = hyla_cuda_laswp(q->stream, (int)t, n, A, lda, k1, k2, ipiv, inc);
    return queue_fail(q, rc);
}

/* ---------------------------------------------------------------- table and creation */

/* ---------------------------------------------------------------- collectives between processes */

#ifdef HYLA_HAVE_NCCL
struct hyla_xcomm {
    ncclComm_t comm;
    int ordinal;
    int nranks;
};

_Static_assert(sizeof(ncclUniqueId) == HYLA_XCOMM_ID_BYTES, "NCCL id size");

static int nccl_rc(ncclResult_t r) {
    if (r == ncclSuccess) return 0;
    return r == ncclSystemError ? HYLA_ERR_NO_MEMORY : HYLA_ERR_DEVICE;
}
#endif

static int cuda_xcomm_key(hyla_dev *d, char *key, size_t len) {
    if (!d || !key || len < 32) return HYLA_ERR_INVALID;
#ifdef HYLA_HAVE_NCCL
    return cuda_rc(cudaDeviceGetPCIBusId(key, (int)len, cdev(d)->ordinal));
#else
    return HYLA_ERR_UNSUPPORTED;
#endif
}

static int cuda_xcomm_id(void *id) {
    if (!id) return HYLA_ERR_INVALID;
#ifdef HYLA_HAVE_NCCL
    ncclUniqueId u;
    int rc = nccl_rc(ncclGetUniqueId(&u));
    if (!rc) memcpy(id, &u, sizeof u);
    return rc;
#else
    return HYLA_ERR_UNSUPPORTED;
#endif
}

static int cuda_xcomm_create(hyla_dev *d, const void *id, int nranks, int rank, hyla_xcomm **c) {
    if (!c) return HYLA_ERR_INVALID;
    *c = NULL;
    if (!d || !id || nranks < 1 || rank < 0 || rank >= nranks) return HYLA_ERR_INVALID;
#ifdef HYLA_HAVE_NCCL
    struct hyla_xcomm *x = hyla_calloc(1, sizeof *x);
    if (!x) return HYLA_ERR_NO_MEMORY;
    ncclUniqueId u;
    memcpy(&u, id, sizeof u);
    x->ordinal = cdev(d)->ordinal;
    x->nranks = nranks;
    int rc = set_device(x->ordinal);
    if (!rc) rc = nccl_rc(ncclCommInitRank(&x->comm, nranks, u, rank));
    if (rc) {
        hyla_free(x);
        return rc;
    }
    *c = x;
    return 0;
#else
    return HYLA_ERR_UNSUPPORTED;
#endif
}

static int cuda_xcomm_bcast(hyla_queue *qb, hyla_xcomm *c, void *buf, size_t bytes, int root) {
    if (!qb || !c || (!buf && bytes)) return HYLA_ERR_INVALID;
#ifdef HYLA_HAVE_NCCL
    struct cuda_queue *q = cqueue(qb);
    if (root < 0 || root >= c->nranks || cdev(qb->dev)->ordinal != c->ordinal)
        return HYLA_ERR_INVALID;
    if (bytes == 0) return 0;
    int rc = queue_enter(q);
    if (!rc) rc = nccl_rc(ncclBroadcast(buf, buf, bytes, ncclInt8, root, c->comm, q->stream));
    return queue_fail(q, rc);
#else
    (void)root;
    return HYLA_ERR_UNSUPPORTED;
#endif
}

static void cuda_xcomm_destroy(hyla_xcomm *c) {
#ifdef HYLA_HAVE_NCCL
    if (!c) return;
    if (set_device(c->ordinal) == 0) ncclCommDestroy(c->comm);
    hyla_free(c);
#else
    (void)c;
#endif
}

static const hyla_alg_ops cuda_alg_ops = {
    .rbt = cuda_rbt,
    .rbt_diagonals = cuda_rbt_diagonals,
    .hb2st_max_kd = HYLA_CUDA_HB2ST_MAX_KD,
    .hb2st = cuda_hb2st,
    .heevd = cuda_heevd,
    .q2_apply = cuda_q2_apply,
    .cq_rebuild = cuda_cq_rebuild,
    .larft_gram = cuda_larft_gram,
    .hb2st_v = cuda_hb2st_v,
    .tri_eigvals = cuda_tri_eigvals,
    .dc_secular = cuda_dc_secular,
    .dc_vectors = cuda_dc_vectors,
};

static const hyla_backend_ops cuda_ops = {
    .name = "cuda",
    .mem_host = 0,
    .host_cores = 0,
    .dev_destroy = cuda_dev_destroy,
    .mem_alloc = cuda_mem_alloc,
    .mem_free = cuda_mem_free,
    .mem_info = cuda_mem_info,
    .queue_create = cuda_queue_create,
    .queue_create_prio = cuda_queue_create_prio,
    .queue_destroy = cuda_queue_destroy,
    .queue_sync = cuda_queue_sync,
    .event_create = cuda_event_create,
    .event_destroy = cuda_event_destroy,
    .event_record = cuda_event_record,
    .queue_wait_event = cuda_queue_wait_event,
    .event_sync = cuda_event_sync,
    .event_elapsed_ms = cuda_event_elapsed_ms,
    .host_fn = cuda_host_fn,
    .copy_2d = cuda_copy_2d,
    .copy_peer = cuda_copy_peer,
    .geam = cuda_geam,
    .gemm = cuda_gemm,
    .syrk = cuda_syrk,
    .syr2k = cuda_syr2k,
    .symm = cuda_symm,
    .trsm = cuda_trsm,
    .trmm = cuda_trmm,
    .row_asum = cuda_row_asum,
    .herm_blocks = cuda_herm_blocks,
    .nonfinite = cuda_nonfinite,
    .laset = cuda_laset,
    .scale = cuda_scale,
    .potrf = cuda_potrf,
    .getrf = cuda_getrf,
    .laswp = cuda_laswp,
    .geqrf = cuda_geqrf,
    .gemm_strided_batched = cuda_gemm_strided_batched,
    .xcomm_key = cuda_xcomm_key,
    .xcomm_id = cuda_xcomm_id,
    .xcomm_create = cuda_xcomm_create,
    .xcomm_bcast = cuda_xcomm_bcast,
    .xcomm_destroy = cuda_xcomm_destroy,
    .alg = &cuda_alg_ops,
};

int hyla_cuda_dev_create(int ordinal, int64_t mem_cap, hyla_dev **out) {
    struct cudaDeviceProp prop;
    struct cuda_dev *dev;
    int rc;
    if (!out) return HYLA_ERR_INVALID;
    *out = NULL;
    if (mem_cap < 0) return HYLA_ERR_INVALID;
    if (ordinal < 0 || ordinal >= hyla_cuda_device_count()) return HYLA_ERR_NO_DEVICE;
    rc = set_device(ordinal);
    if (!rc) rc = cuda_rc(cudaGetDeviceProperties(&prop, ordinal));
    if (rc) return rc;
    /* kernels that start while the device is busy with others, loaded now
     * rather than at their first launch (k_dc.h); a device they cannot load
     * on (a build for other architectures) stays usable for what it can
     * run, and their own launch reports the error later */
    if (hyla_cuda_dc_preload() != 0) (void)cudaGetLastError();
    /* direct copies to every peer GPU (NVLink or PCIe P2P) where possible, so
     * device-to-device copies between GPUs do not bounce through the host */
    for (int j = 0, nd = hyla_cuda_device_count(); j < nd; j++) {
        int can = 0;
        if (j == ordinal || cudaDeviceCanAccessPeer(&can, ordinal, j) != cudaSuccess || !can)
            continue;
        if (cudaDeviceEnablePeerAccess(j, 0) != cudaSuccess) (void)cudaGetLastError();
    }

    dev = hyla_calloc(1, sizeof *dev);
    if (!dev) return HYLA_ERR_NO_MEMORY;
    if (pthread_mutex_init(&dev->lock, NULL) != 0) {
        hyla_free(dev);
        return HYLA_ERR_DEVICE;
    }
    /* the table of live blocks lives as long as the device, so that the
     * first allocation through a context does not leave one of its own */
    if (blocks_reserve(dev) != 0) {
        pthread_mutex_destroy(&dev->lock);
        hyla_free(dev);
        return HYLA_ERR_NO_MEMORY;
    }
    dev->base.ops = &cuda_ops;
    dev->base.index = 0;
    dev->ordinal = ordinal;
    dev->mem_cap = mem_cap;

    hyla_device_info *info = &dev->base.info;
    info->kind = HYLA_DEVICE_CUDA;
    info->ordinal = ordinal;
    size_t nl = 0; /* prop.name may be longer than info->name: truncate */
    while (nl + 1 < sizeof info->name && nl < sizeof prop.name && prop.name[nl]) nl++;
    memcpy(info->name, prop.name, nl);
    info->name[nl] = '\0';
    int64_t total = (int64_t)prop.totalGlobalMem;
    dev->base.phys_memory = total;
    info->memory_bytes = (mem_cap > 0 && mem_cap < total) ? mem_cap : total;
    info->compute_major = prop.major;
    info->compute_minor = prop.minor;
    info->multiprocessors = prop.multiProcessorCount;

    *out = &dev->base;
    return 0;
}

/* ---------------------------------------------------------------- versions */

/* Built in (libhyla.a), or in libhyla_cuda.so once loaded: there. */
int hyla_cuda_available(char *why, size_t len) {
    if (why && len) why[0] = '\0';
    return 1;
}


void hyla_cuda_versions(char *buf, size_t len) {
    int rt = 0, drv = 0, bmaj = 0, bmin = 0, bpatch = 0;
    char rts[32], drvs[32];
    if (!buf || len == 0) return;

    if (cudaRuntimeGetVersion(&rt) == cudaSuccess && rt > 0)
        snprintf(rts, sizeof rts, "%d.%d", rt / 1000, (rt % 1000) / 10);
    else
        snprintf(rts, sizeof rts, "unknown");
    if (cudaDriverGetVersion(&drv) == cudaSuccess && drv > 0)
        snprintf(drvs, sizeof drvs, "%d.%d", drv / 1000, (drv % 1000) / 10);
    else
        snprintf(drvs, sizeof drvs, "none");
    (void)cudaGetLastError();

    /* cublasGetProperty needs no handle (so no GPU); fall back to the headers */
    if (cublasGetProperty(MAJOR_VERSION, &bmaj) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(MINOR_VERSION, &bmin) != CUBLAS_STATUS_SUCCESS ||
        cublasGetProperty(PATCH_LEVEL, &bpatch) != CUBLAS_STATUS_SUCCESS) {
        bmaj = CUBLAS_VER_MAJOR;
        bmin = CUBLAS_VER_MINOR;
        bpatch = CUBLAS_VER_PATCH;
    }
    snprintf(buf, len, "CUDA runtime %s, driver %s, cuBLAS %d.%d.%d", rts, drvs, bmaj, bmin,
             bpatch);
}
