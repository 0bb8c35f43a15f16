/* Stage 2 of the two-stage eigensolver: Hermitian band -> real symmetric
 * tridiagonal by bulge chasing on the host cores (psb2st.c), and its back
 * transformation applied on a device (Q2). Signatures fixed by the shared
 * eigensolver contract. Band storage: LAPACK lower band storage, always:
 * AB[(i-j) + j*ldab] = B(i, j) for j <= i <= min(n-1, j+kd), 0-based. */
#ifndef HYLA_EIG_PSB2ST_H
#define HYLA_EIG_PSB2ST_H
#include "core/internal.h"
#include "backend/ops/ops.h"
#include "eig/psy2sb.h"

/* opaque: Householder vectors of stage 2, in host memory (hyla_eig_sb2st)
 * or device-resident (hyla_eig_sb2st_dev, eig/phb2st_dev.h) */
typedef struct hyla_sb2st_q hyla_sb2st_q;

/* Reduces the Hermitian band B (n, kd, AB as above; AB is destroyed) to a
 * real symmetric tridiagonal T = Q2^H B Q2: d[0..n-1] diagonal, e[0..n-2]
 * off-diagonal (R type). If q != NULL, *q receives the reflectors (allocated
 * with hyla_malloc; free with hyla_sb2st_q_free). For complex types any
 * phases needed to make T real are folded into Q2. Uses the host CPU cores
 * (OpenMP). Returns 0, HYLA_ERR_NAN if the band holds NaN/Inf,
 * HYLA_ERR_NO_MEMORY, HYLA_ERR_INVALID. */
int hyla_eig_sb2st(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t kd, void *AB, int64_t ldab,
                   void *d, void *e, hyla_sb2st_q **q);

/* dZ := Q2 dZ for the n x ncols matrix dZ (type t) in memory of device
 * `dev` of ctx (host backend: its "device memory"), through the backend
 * (queues of that device); synchronous. A device-resident q is used where
 * it is (no upload) and must live on device dev (else HYLA_ERR_INVALID). */
int hyla_eig_sb2st_back(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols, void *dZ,
                        int64_t lddz);

/* hyla_eig_sb2st_back with at most max_batch block reflectors per batched
 * call (0: as many as a wave has and memory takes; on the host backend,
 * one), that also returns the
 * backend calls it made on the compute queue (one strided-batched GEMM
 * counts one) and their flops (2 m n k per GEMM, 8 m n k complex); calls and flops may be
 * NULL. The result does not depend on max_batch (on the host backend it is
 * bitwise the same). For the CLI's --timers and tests. */
int hyla_eig_sb2st_back_count(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols,
                              void *dZ, int64_t lddz, int64_t max_batch, int64_t *calls,
                              double *flops);

/* hyla_eig_sb2st_back_count on the given queues of device dev: qc computes,
 * qi uploads the reflectors (for a caller that runs it beside other work of
 * the context's own queues). identity = 1 says dZ holds the columns col0 ..
 * col0 + ncols - 1 of the n x n identity (col0 >= 0, col0 + ncols <= n; the
 * whole of it: Q2 itself is formed), each wave skipping the columns it
 * cannot change; col0 is ignored without identity. */
int hyla_eig_sb2st_back_q(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols, void *dZ,
                          int64_t lddz, int64_t max_batch, int64_t *calls, double *flops,
                          hyla_queue *qc, hyla_queue *qi, int identity, int64_t col0);

/* Frees q (host or device-resident; NULL and *q NULL are fine), sets *q
 * to NULL. A device-resident store is freed before its context is. */
void hyla_sb2st_q_free(hyla_sb2st_q **q);

/* An empty device-resident store for a chase of order n and width kd (the
 * width chased: kd <= max(n-1, 0)) with the context's
 * HYLA_OPT_EIG_BACK2_NB sweeps per group (0: kd, or unless
 * HYLA_OPT_EIG_BACK2 asks for the batched GEMMs the tuning table's one-call
 * Q2 shape for dev's family, type and kd where it has one), in
 * memory of device dev: *q, and
 * its layout for the backend's hb2st_v op, *st (the wave offsets uploaded;
 * the groups not zeroed: the op does that). Returns 0, HYLA_ERR_INVALID,
 * HYLA_ERR_NO_DEVICE, HYLA_ERR_NO_MEMORY or the device's allocation and
 * copy failures (nothing left allocated). */
int hyla_sb2st_q_create_dev(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd,
                            hyla_sb2st_q **q, hyla_hb2st_store *st);

/* The index of the device holding the store q, or -1 for a host store
 * (or q NULL). */
int hyla_sb2st_q_device(const hyla_sb2st_q *q);
/* Bytes of the reflectors in the store q (0 for q NULL). */
size_t hyla_sb2st_q_bytes(const hyla_sb2st_q *q);

/* *out := a copy of the store q in the memory of device dev (dev >= 0) or
 * in host memory (dev < 0), from wherever q is; for the back transformation
 * on several devices. nb of the copy is q's (not the context's option).
 * Synchronous. Returns 0, HYLA_ERR_INVALID, HYLA_ERR_NO_DEVICE,
 * HYLA_ERR_NO_MEMORY or the devices' allocation and copy failures (*out
 * NULL). */
int hyla_sb2st_q_copy(hyla_t *ctx, const hyla_sb2st_q *q, int dev, hyla_sb2st_q **out);

/* hyla_eig_sb2st with a given number of host threads: 1 runs the serial
 * reference order (sweep after sweep), more run the pipelined sweeps; the
 * result is bitwise the same. nthreads = 0 chooses (OpenMP's maximum, or 1
 * for a small band). For tests and benchmarks. */
int hyla_eig_sb2st_threads(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t kd, void *AB,
                           int64_t ldab, void *d, void *e, hyla_sb2st_q **q, int nthreads);

/* hyla_eig_sb2st_threads reading the band while a stage 1 writes it: feed
 * (non-NULL) says how many leading columns of AB are final; the sweeps copy
 * columns in as they need them and wait for those not yet final. NaN or Inf
 * in the band is found as it arrives (HYLA_ERR_NAN after the chase). When
 * stage 1 stops on an error (it then sets ready = n), the result is
 * meaningless; the caller discards it. */
int hyla_eig_sb2st_fed(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t kd, void *AB, int64_t ldab,
                       void *d, void *e, hyla_sb2st_q **q, hyla_band_feed *feed, int nthreads);

/* 1 when the chase of a band of order n and half-width kd runs on several
 * threads by default (a stage 1 alongside then pays off). */
int hyla_eig_sb2st_overlaps(int64_t n, int64_t kd);

#endif
