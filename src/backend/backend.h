/*
 * The backend interface: written once, implemented by the CUDA backend
 * (backend/cuda) and the host backend (backend/host).
 *
 * A backend is a table of function pointers (hyla_backend_ops). Objects are
 * kept apart as in ggml-backend: a device (hyla_dev), memory (device or
 * pinned host buffers, plain pointers obtained from the device), queues
 * (ordered, asynchronous streams of work) and events (recorded on a queue,
 * waited on by another queue or by the host). Each backend embeds these base
 * structs as the first member of its own.
 *
 * Every function returns 0 or a HYLA_ERR_* code. Work enqueued on a queue
 * that fails later makes the queue's status sticky: queue_sync and
 * event_sync return it, and it is never reset to success.
 */
#ifndef HYLA_BACKEND_H
#define HYLA_BACKEND_H

#include "base/base.h"
#include <stdint.h>
#include <stddef.h>

typedef enum { HYLA_NOTRANS = 0, HYLA_TRANS = 1, HYLA_CONJTRANS = 2 } hyla_op;
typedef enum { HYLA_LOWER = 0, HYLA_UPPER = 1 } hyla_uplo;
typedef enum { HYLA_LEFT = 0, HYLA_RIGHT = 1 } hyla_side;
typedef enum { HYLA_NONUNIT = 0, HYLA_UNIT = 1 } hyla_diag;

typedef enum { HYLA_MEM_DEVICE = 0, HYLA_MEM_PINNED = 1 } hyla_mem_kind;
typedef enum {
    HYLA_COPY_H2D = 0, HYLA_COPY_D2H = 1, HYLA_COPY_D2D = 2, HYLA_COPY_H2H = 3
} hyla_copy_kind;

typedef struct hyla_backend_ops hyla_backend_ops;
typedef struct hyla_dev hyla_dev;
typedef struct hyla_queue hyla_queue;
typedef struct hyla_event hyla_event;
typedef struct hyla_alg_ops hyla_alg_ops; /* algorithm-specific ops (backend/ops/ops.h) */
typedef struct hyla_xcomm hyla_xcomm;       /* device collectives between processes, below */

/* Bytes of the id that the processes of one hyla_xcomm share (NCCL's
 * ncclUniqueId is 128). */
enum { HYLA_XCOMM_ID_BYTES = 128 };

struct hyla_dev {
    const hyla_backend_ops *ops;
    hyla_device_info info;
    int index;               /* position in the context's device list */
    int64_t phys_memory;     /* the device's own memory in bytes, whatever the
                              * context's cap (the tuning table's family);
                              * 0 on the host backend */
};

struct hyla_queue { hyla_dev *dev; };
struct hyla_event { hyla_dev *dev; };

struct hyla_backend_ops {
    const char *name;
    /* What the algorithms ask of a backend instead of its kind.
     * mem_host: its device memory is host memory (a pointer from
     * mem_alloc is the host's, a copy is a memcpy), so data the caller
     * holds in host memory is already resident and a scan of it while it
     * goes up saves nothing. host_cores: its queues' work runs on the
     * host's cores, beside the calling thread, so lookahead or a host stage
     * overlapped with device work would only share those cores. The host
     * backend: both 1; CUDA: both 0. */
    int mem_host, host_cores;

    /* device */
    void (*dev_destroy)(hyla_dev *dev);
    int (*mem_alloc)(hyla_dev *dev, hyla_mem_kind kind, size_t bytes, void **ptr);
    void (*mem_free)(hyla_dev *dev, hyla_mem_kind kind, void *ptr);
    /* free and total device memory (after the context's cap) */
    int (*mem_info)(hyla_dev *dev, size_t *free_bytes, size_t *total_bytes);

    /* queues and events */
    int (*queue_create)(hyla_dev *dev, hyla_queue **q);
    /* as queue_create; high != 0 asks for a queue whose work the device
     * schedules ahead of that of normal queues (CUDA: the greatest stream
     * priority), for short work on the critical path such as a panel
     * factorization. A backend without priorities (host) gives a normal
     * queue. Fails as queue_create. */
    int (*queue_create_prio)(hyla_dev *dev, int high, hyla_queue **q);
    void (*queue_destroy)(hyla_queue *q);
    int (*queue_sync)(hyla_queue *q);
    int (*event_create)(hyla_dev *dev, int timing, hyla_event **ev);
    void (*event_destroy)(hyla_event *ev);
    int (*event_record)(hyla_event *ev, hyla_queue *q);
    int (*queue_wait_event)(hyla_queue *q, hyla_event *ev);
    int (*event_sync)(hyla_event *ev);
    int (*event_elapsed_ms)(hyla_event *start, hyla_event *end, float *ms);
    /* runs fn(arg) on a host thread once all earlier work of q is done; later
     * work of q waits for it. fn must not call the backend. */
    int (*host_fn)(hyla_queue *q, void (*fn)(void *), void *arg);

    /* copies: height columns of width_bytes each, pitches in bytes. Host
     * memory must be pinned (HYLA_MEM_PINNED) for the copy to wait for earlier
     * work of q: CUDA reads pageable memory when the copy is enqueued. */
    /* HYLA_COPY_D2D may also copy between two devices of the same backend
     * (peer memory); it is enqueued on q, which may belong to either. */
    int (*copy_2d)(hyla_queue *q, void *dst, size_t dpitch, const void *src, size_t spitch,
                   size_t width_bytes, size_t height, hyla_copy_kind kind);
    /* device-to-device between two devices of the same backend */
    int (*copy_peer)(hyla_queue *q, void *dst, hyla_dev *dst_dev, const void *src,
                     hyla_dev *src_dev, size_t bytes);

    /* BLAS-3 on a queue; scalars point to host values of the dtype (for
     * herk/her2k, alpha of herk and beta of both are real values of the
     * real type, as in BLAS). herm = 1 selects the Hermitian variant
     * (herk/her2k/hemm) for complex dtypes and is ignored for real ones. */
    int (*gemm)(hyla_queue *q, hyla_dtype t, hyla_op ta, hyla_op tb, int64_t m, int64_t n,
                int64_t k, const void *alpha, const void *A, int64_t lda, const void *B,
                int64_t ldb, const void *beta, void *C, int64_t ldc);
    int (*syrk)(hyla_queue *q, hyla_dtype t, int herm, hyla_uplo uplo, hyla_op trans,
                int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
                const void *beta, void *C, int64_t ldc);
    int (*syr2k)(hyla_queue *q, hyla_dtype t, int herm, hyla_uplo uplo, hyla_op trans,
                 int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
                 const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc);
    int (*symm)(hyla_queue *q, hyla_dtype t, int herm, hyla_side side, hyla_uplo uplo,
                int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda,
                const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc);
    int (*trsm)(hyla_queue *q, hyla_dtype t, hyla_side side, hyla_uplo uplo, hyla_op ta,
                hyla_diag diag, int64_t m, int64_t n, const void *alpha, const void *A,
                int64_t lda, void *B, int64_t ldb);
    /* B := alpha op(A) B (or B op(A)), in place as in reference BLAS */
    int (*trmm)(hyla_queue *q, hyla_dtype t, hyla_side side, hyla_uplo uplo, hyla_op ta,
                hyla_diag diag, int64_t m, int64_t n, const void *alpha, const void *A,
                int64_t lda, void *B, int64_t ldb);

    /* LAPACK on a queue */
    /* Cholesky factorization in place (LAPACK potrf) of the n x n Hermitian
     * (real: symmetric) positive definite matrix A, in memory of q's device:
     * A = L L^H with L in the lower triangle (uplo HYLA_LOWER) or A = U^H U
     * with U in the upper one (HYLA_UPPER); the other triangle is neither
     * read nor written. info points to one int in device memory of q's
     * device (mem_alloc HYLA_MEM_DEVICE), into which the work writes, in
     * order on q, 0 or k > 0 when the leading minor of order k is not
     * positive definite or its pivot is NaN (LAPACK's test: the
     * factorization then stopped, or, past a NaN, ran on with NaN; A is
     * partly overwritten). n == 0 writes 0. Workspace: the backend's own, kept
     * with the queue (CUDA: cuSOLVER's, counted against the device's memory
     * cap, freed by queue_destroy; growing it, on a call that needs more
     * than any earlier call on q, waits for q's earlier work).
     * Returns 0; HYLA_ERR_INVALID when t or uplo is not a valid value,
     * n < 0, lda < max(1, n), info is NULL, or A is NULL while n > 0, in
     * which case nothing is enqueued and the queue's status is untouched;
     * HYLA_ERR_UNSUPPORTED when n or lda exceeds what the host LAPACK takes;
     * HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY (workspace) or
     * HYLA_ERR_DEVICE (CUDA: these also stick to the queue). */
    int (*potrf)(hyla_queue *q, hyla_dtype t, hyla_uplo uplo, int64_t n, void *A, int64_t lda,
                 int *info);
    /* LU factorization in place (LAPACK getrf) of the m x n matrix A in
     * memory of q's device: A = P L U with L unit lower trapezoidal (below
     * the diagonal) and U upper trapezoidal. ipiv: min(m, n) int64_t in
     * device memory of q's device, receiving LAPACK's 1-based row
     * interchanges (row i was swapped with row ipiv[i-1], local to A); NULL
     * factors without pivoting (A = L U). info: one device int as in potrf,
     * receiving 0 or k > 0 when U(k, k) is exactly zero (with pivoting the
     * factorization completes, as LAPACK's; without, the entries from column
     * k on are undefined). m == 0 or n == 0 writes 0. Workspace: as potrf.
     * panel: the value of HYLA_OPT_LU_PANEL (hyla.h) of the calling
     * context; CUDA: cuSOLVER or the fused panel kernel (k_getrf_panel.cu),
     * as it selects; the host backend takes LAPACK whatever its value.
     * Returns 0; HYLA_ERR_INVALID when t is not a valid value, m < 0, n < 0,
     * lda < max(1, m), info is NULL, or A is NULL while m, n > 0 (nothing
     * enqueued, the queue's status untouched); HYLA_ERR_UNSUPPORTED when a
     * size exceeds what the host LAPACK takes; HYLA_ERR_NO_MEMORY,
     * HYLA_ERR_DEVICE_MEMORY or HYLA_ERR_DEVICE as potrf. */
    int (*getrf)(hyla_queue *q, hyla_dtype t, int64_t m, int64_t n, void *A, int64_t lda,
                 int64_t *ipiv, int *info, int64_t panel);
    /* Row interchanges (LAPACK laswp) on the n columns of A: for i = k1 ..
     * k2 (inc = 1) or i = k2 .. k1 (inc = -1), 1-based, rows i and ipiv[i-1]
     * are swapped; ipiv is in device memory of q's device and every entry
     * read must lie in 1 .. lda. k2 < k1 or n == 0 does nothing. Returns 0;
     * HYLA_ERR_INVALID when t or inc is not valid, n < 0, k1 < 1, or A or
     * ipiv is NULL while there is work (nothing enqueued); HYLA_ERR_NO_MEMORY
     * or HYLA_ERR_DEVICE (launch failure, sticks to the queue). */
    int (*laswp)(hyla_queue *q, hyla_dtype t, int64_t n, void *A, int64_t lda, int64_t k1,
                 int64_t k2, const int64_t *ipiv, int inc);

    /* custom kernels (backend/cuda/kernels.cu on the GPU) */
    /* A := offdiag everywhere in the uplo part (HYLA_UPPER, HYLA_LOWER or -1 for
     * all) and diag on the diagonal (LAPACK laset) */
    int (*laset)(hyla_queue *q, hyla_dtype t, int uplo, int64_t m, int64_t n,
                 const void *offdiag, const void *diag, void *A, int64_t lda);
    /* A := alpha * A, alpha of the dtype; alpha == 0 writes zeros without reading A */
    int (*scale)(hyla_queue *q, hyla_dtype t, int64_t m, int64_t n, const void *alpha,
                 void *A, int64_t lda);
    /* C := alpha op(A) + beta C for the m x n matrix C (BLAS-like extension
     * geam; op(A) is m x n, A is m x n or n x m). beta == 0 does not read C.
     * A and C must not overlap. Sums of partial products and out-of-place
     * transposes across devices use it. */
    int (*geam)(hyla_queue *q, hyla_dtype t, hyla_op ta, int64_t m, int64_t n,
                const void *alpha, const void *A, int64_t lda, const void *beta, void *C,
                int64_t ldc);

    /* The diagonal blocks of order b of the n x n Hermitian (real:
     * symmetric) A, read from its lower triangle only, as full matrices:
     * block i (rows and columns i b .. min(n, (i + 1) b) - 1, i < ceil(n /
     * b)) into S + i b^2 elements (ld b), its strictly upper part the
     * conjugate transpose of its strictly lower part and its diagonal real
     * (imaginary parts dropped, as the BLAS's Hermitian routines ignore
     * them); a last block of order r < b fills the leading r x r corner of
     * its slot, the rest of the slot is not written. S (ceil(n / b) b^2
     * elements) must not overlap A. Stage 1's A V by GEMMs (eig/psy2sb.c)
     * multiplies these blocks. Returns 0 (n == 0 does nothing);
     * HYLA_ERR_INVALID for a bad dtype, n < 0, b < 1, lda < max(1, n), or A
     * or S NULL while n > 0 (nothing enqueued); HYLA_ERR_NO_MEMORY or
     * HYLA_ERR_DEVICE (launch failure, sticks to the queue). */
    int (*herm_blocks)(hyla_queue *q, hyla_dtype t, int64_t n, int64_t b, const void *A,
                       int64_t lda, void *S);
    /* sums[i] := sum_j |A(i, j)| for the m x n matrix A (complex: the modulus),
     * sums a device array of m values of the real type of t (the row sums
     * whose maximum is |A|_inf). Returns 0, HYLA_ERR_INVALID (bad dtype, m or
     * n < 0, lda < max(1, m), NULL pointer while m > 0) or failure codes. */
    int (*row_asum)(hyla_queue *q, hyla_dtype t, int64_t m, int64_t n, const void *A,
                    int64_t lda, void *sums);
    /* *bad := 1 when the part of the m x n matrix A selected by uplo and off
     * (base.h's hyla_nonfinite: -1 every element, HYLA_LOWER rows i >= j +
     * off of column j, HYLA_UPPER rows i <= j + off) holds a NaN or an Inf,
     * else 0; bad is one int in device memory of q's device, written in
     * order on q (m == 0 or n == 0 writes 0). The input check of hyla's
     * NaN/Inf policy on device-resident data. Returns 0, HYLA_ERR_INVALID
     * (bad dtype or uplo, m or n < 0, lda < max(1, m), bad NULL, A NULL
     * while m, n > 0; nothing enqueued) or failure codes. */
    int (*nonfinite)(hyla_queue *q, hyla_dtype t, int uplo, int64_t off, int64_t m, int64_t n,
                     const void *A, int64_t lda, int *bad);
    /* QR of the m x n matrix A (LAPACK geqrf): R in the upper triangle, the
     * vectors of the k = min(m, n) Householder reflectors H_i = I - tau_i
     * v_i v_i^H below the diagonal (v_i(i) = 1 implied), Q = H_0 ... H_{k-1}.
     * tau: k values of type t in memory of q's device; info: one device int
     * written 0 in order on q (m == 0 or n == 0 writes 0 and nothing else).
     * Workspace: the backend's own, as potrf's (the host backend takes its
     * at the call). CUDA: cuSOLVER, or the fused QR panel kernel
     * (k_geqrf_panel.cu) when panel (HYLA_OPT_LU_PANEL, as for getrf)
     * forces fused kernels.
     * Returns 0; HYLA_ERR_INVALID when t is not a valid value,
     * m < 0, n < 0, lda < max(1, m), info is NULL, or A or tau is NULL while
     * m, n > 0 (nothing enqueued, the queue's status untouched);
     * HYLA_ERR_UNSUPPORTED when a size exceeds what the host LAPACK takes;
     * HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY or HYLA_ERR_DEVICE as potrf. */
    int (*geqrf)(hyla_queue *q, hyla_dtype t, int64_t m, int64_t n, void *A, int64_t lda,
                 void *tau, int *info, int64_t panel);
    /* batch GEMMs of one shape in one call (CUDA: one cuBLAS strided-batched
     * launch): C_i := alpha op(A_i) op(B_i) + beta C_i for i = 0 .. batch-1,
     * where X_i = X + i * sX elements (strides may be 0 for A and B, and may
     * be smaller than a whole matrix as long as no two C_i share an element).
     * Arguments as gemm otherwise. batch == 0 (or m == 0 or n == 0) does
     * nothing. Returns what gemm returns, or HYLA_ERR_INVALID for batch < 0
     * or a negative stride (nothing enqueued). */
    int (*gemm_strided_batched)(hyla_queue *q, hyla_dtype t, hyla_op ta, hyla_op tb, int64_t m,
                                int64_t n, int64_t k, const void *alpha, const void *A,
                                int64_t lda, int64_t sA, const void *B, int64_t ldb, int64_t sB,
                                const void *beta, void *C, int64_t ldc, int64_t sC,
                                int64_t batch);
    /* Device collectives between processes (HPL's panel broadcast along a
     * process row; CUDA: NCCL over NVLink, PCIe or the network). The caller
     * moves the id between the processes (MPI) and checks, with xcomm_key,
     * that they own different devices. A backend without them (host, or
     * CUDA built without NCCL) returns HYLA_ERR_UNSUPPORTED from each, and
     * the caller moves the data through host memory instead.
     * xcomm_key: a NUL-terminated name of dev's physical device (CUDA: its
     *   PCI bus id) into key (len >= 32 bytes). HYLA_ERR_INVALID for a NULL
     *   key or a short len.
     * xcomm_id: a fresh id (HYLA_XCOMM_ID_BYTES bytes) into id, on the one
     *   process that makes it.
     * xcomm_create: collective over the nranks processes given the same id,
     *   this one being rank (0 <= rank < nranks): the communicator *c on dev.
     *   Blocks until every process has joined. HYLA_ERR_INVALID for bad
     *   arguments, HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE (*c NULL on failure).
     * xcomm_bcast: enqueues on q (a queue of c's device) the broadcast of
     *   bytes at buf (device memory) from rank root into buf on every other
     *   rank. Every rank of c must enqueue the same broadcasts in the same
     *   order. HYLA_ERR_INVALID for bad arguments (nothing enqueued),
     *   HYLA_ERR_DEVICE (sticks to the queue).
     * xcomm_destroy: frees c after its work is done; NULL is a no-op. */
    int (*xcomm_key)(hyla_dev *dev, char *key, size_t len);
    int (*xcomm_id)(void *id);
    int (*xcomm_create)(hyla_dev *dev, const void *id, int nranks, int rank, hyla_xcomm **c);
    int (*xcomm_bcast)(hyla_queue *q, hyla_xcomm *c, void *buf, size_t bytes, int root);
    void (*xcomm_destroy)(hyla_xcomm *c);

    /* the operations of one algorithm each (random butterflies, bulge
     * chasing, tridiagonal eigenvalues, divide and conquer): their own
     * table, backend/ops/ops.h */
    const hyla_alg_ops *alg;
};

/* Device-list parsing and creation (backend.c). */
typedef struct {
    hyla_device_kind kind;
    int count;               /* number of devices */
    int ordinals[64];        /* CUDA ordinals (kind CUDA) */
    int all;                 /* "cuda" with no list: every GPU */
    int64_t mem_cap;         /* bytes, 0 = none */
} hyla_device_spec;

int hyla_parse_devices(const char *spec, hyla_device_spec *out);

/* Host backend: creates virtual device `index` (index also in info.ordinal). */
int hyla_host_dev_create(int index, int64_t mem_cap, hyla_dev **dev);
/* CUDA backend: number of visible GPUs (0 when CUDA is absent or unbuilt). */
int hyla_cuda_device_count(void);
int hyla_cuda_dev_create(int ordinal, int64_t mem_cap, hyla_dev **dev);
/* Version strings of the backend libraries, for the CLI header. */
void hyla_cuda_versions(char *buf, size_t len);

#endif
