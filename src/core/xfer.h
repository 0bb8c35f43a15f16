/* Host <-> device transfers of sub-matrices of a caller's host matrix
 * through a ring of pinned staging slots (the caller's memory is pageable,
 * so it is packed by OpenMP threads into pinned slots, which the copy engine
 * then moves; the reverse for downloads, unpacked by a host function on the
 * queue). Regions may be clipped to one triangle of the matrix, so the
 * other triangle is neither read nor written. Used by the factorizations;
 * the packing helpers are shared with GEMM. */
#ifndef HYLA_XFER_H
#define HYLA_XFER_H
#include "core/internal.h"

/* Threads used to pack host panels per device (HYLA_OPT_PACK_THREADS or
 * automatic: the cores divided among the devices, at most 12). */
int hyla_pack_threads(hyla_t *ctx);

/* The staging slot of a ring of nslots slots for transfers of `total`
 * bytes in all on device d: the tuning table's slot, or for a smaller
 * problem its share of the ring (total / nslots, rounded up to 1 MB, at
 * least 1 MB), so that the ring's page-locked memory grows with the
 * problem instead of 4 x 32 MB (pchol: 12 x 32 MB) for a 300 x 300 matrix. */
size_t hyla_xfer_slot(const hyla_dev *d, size_t total, int nslots);

/* Copies `cols` columns of `rows` elements from src (column stride lds
 * elements) to dst (stride ldd), split over `threads` threads. */
void hyla_pack_cols(unsigned char *dst, int64_t ldd, const unsigned char *src, int64_t lds,
                    int64_t rows, int64_t cols, size_t esz, int threads);

/* Triangle clip of a region: element (i, j) of the whole matrix is inside
 * for XFER_ALL always, for XFER_LOWER when i >= j, for XFER_UPPER when i <= j. */
enum { HYLA_XFER_ALL = 0, HYLA_XFER_LOWER = 1, HYLA_XFER_UPPER = 2 };

typedef struct hyla_xfer_job hyla_xfer_job;

/* One direction of one device: `nslots` pinned slots of `slot_bytes`. */
typedef struct {
    hyla_dev *dev;
    unsigned char *mem;          /* nslots * slot_bytes pinned bytes (not owned) */
    size_t slot_bytes, esz;
    int nslots, next, threads;
    hyla_event **free_ev;        /* recorded when a slot may be refilled */
    unsigned char *used;         /* slot has a recorded free_ev */
    hyla_xfer_job *jobs;         /* one unpack job per slot */
    int caller_unpacks;          /* downloads: the calling thread unpacks (below) */
    unsigned char *pending;      /* that slot's unpack not yet done */
    int64_t bytes;               /* bytes moved so far */
} hyla_xfer;

/* Skip test of a download, run on the host thread just before unpacking: a
 * non-zero result leaves the caller's matrix untouched. */
typedef int (*hyla_xfer_skip_fn)(void *arg);

int hyla_xfer_init(hyla_xfer *x, hyla_dev *dev, void *pinned, int nslots, size_t slot_bytes,
                   size_t esz, int threads);
/* Destroys the events; the queues that used x must be synchronized first. */
void hyla_xfer_fini(hyla_xfer *x);

/* Host -> device on q: the rows x cols region whose top-left element is the
 * element (sr, sc) of the host matrix (host points at that element, stride
 * ldh) to dev (stride ldd elements), clipped to `clip`. May block the
 * calling thread while a slot is still in use. */
int hyla_xfer_up(hyla_xfer *x, hyla_queue *q, void *dev, int64_t ldd, const void *host,
                 int64_t ldh, int64_t sr, int64_t sc, int64_t rows, int64_t cols, int clip);

/* Device -> host on q, the same region description; each piece is unpacked
 * by a host function on q after its copy, unless skip(skip_arg) says not to.
 * Later work on q starts after the unpacking. With x->caller_unpacks set
 * (a download that the calling thread drives to its end), the calling
 * thread unpacks instead, each piece when its slot is taken again or at
 * hyla_xfer_drain: the stream then copies the next slots while the host
 * unpacks (on one H200 a host function on the stream left a 2 GB download
 * at about 10 GB/s, its copies and unpacks one after the other); later
 * work on q does not wait for the unpacking. */
int hyla_xfer_down(hyla_xfer *x, hyla_queue *q, void *host, int64_t ldh, const void *dev,
                   int64_t ldd, int64_t sr, int64_t sc, int64_t rows, int64_t cols, int clip,
                   hyla_xfer_skip_fn skip, void *skip_arg);

/* With x->caller_unpacks: every piece still to unpack, once its copy is
 * done, unpacked by the calling thread. Returns 0 or the first failure of
 * a wait (the pieces after it are not unpacked). */
int hyla_xfer_drain(hyla_xfer *x);

/* Copies a rows x cols matrix between pageable host memory (ld ldh) and
 * device dev (ld ldd): up = 1 host -> device, 0 device -> host, through the
 * pinned staging ring above. Synchronous. */
int hyla_xfer_matrix(hyla_t *ctx, int dev, hyla_dtype t, int up, int64_t rows, int64_t cols,
                     void *host, int64_t ldh, void *dmem, int64_t ldd);

/* Enqueues on q the computation of columns c0 .. c0+nc-1 of a matrix that
 * hyla_xfer_download_behind then downloads; returns 0 or a HYLA_ERR_*. */
typedef int (*hyla_xfer_produce_fn)(void *arg, hyla_queue *q, int64_t c0, int64_t nc);

/* Device -> host copy of the rows x cols matrix dmem (device dev, ld ldd) to
 * host (pageable, ld ldh) by blocks of bc columns while they are computed:
 * produce(arg, qp, c0, nc) enqueues every block's computation on qp first,
 * then each block is downloaded (through the staging ring, on the device's
 * input queue) as soon as its computation is done, so block k's download
 * overlaps the computation of the blocks after it. *t_produced: the wall
 * time (hyla_wtime) at which the last block was computed. Synchronous:
 * returns when qp and the downloads are done, 0 or the first failure. */
int hyla_xfer_download_behind(hyla_t *ctx, int dev, hyla_dtype t, int64_t rows, int64_t cols,
                              int64_t bc, void *host, int64_t ldh, const void *dmem, int64_t ldd,
                              hyla_queue *qp, hyla_xfer_produce_fn produce, void *arg,
                              double *t_produced);

/* One triangle (lower: 1 lower, 0 upper, the diagonal included) of an n x n
 * matrix between host memory (pageable, ld ldh) and device dev (ld ldd):
 * up = 1 host -> device, 0 device -> host; half the bytes of the whole
 * matrix. A download writes the host's triangle alone; an upload may also
 * set the other part of each diagonal block of 512 columns on the device
 * (whatever the staging slot held). Synchronous. */
int hyla_xfer_triangle(hyla_t *ctx, int dev, hyla_dtype t, int up, int lower, int64_t n,
                       void *host, int64_t ldh, void *dmem, int64_t ldd);

/* *dA := a new n x n device buffer (ld n) on device dev holding the lower
 * triangle of the host matrix A (uplo L: copied; uplo U: rebuilt from the
 * upper triangle with hyla_lower_from_upper; on a GPU only the triangle
 * read goes up). check: the triangle read is scanned for NaN and Inf on the
 * device as it came up (hyla_check_finite_dev: one pass at the device's
 * bandwidth instead of one over the host's memory), HYLA_ERR_NAN if one
 * is there. On failure *dA is freed and NULL; A is only read. Synchronous. */
int hyla_xfer_upload_lower(hyla_t *ctx, int dev, hyla_dtype t, int lower, int64_t n,
                           const void *A, int64_t lda, int check, void **dA);

/* dL := the lower triangle of the Hermitian matrix whose upper triangle is
 * stored in dU (device dev): the backend's geam transposes (conjugates) all
 * of dU, one pass over n^2 elements; dU's strictly lower part, which nobody
 * reads, lands in dL's strictly upper one. It replaced dL = I, dL := U^H dL
 * (one TRMM, n^3 flops): on the host backend n = 3000, d, 2 cores, 0.03 s
 * against 0.6 s; on one H100 the TRMM took 0.095 s at n = 16384 in double
 * (bench/results/syevd-resident-h100.md). dL (ld lddl >= n) must not
 * overlap dU. Synchronous. */
int hyla_lower_from_upper(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, const void *dU,
                          int64_t lddu, void *dL, int64_t lddl);

#endif
