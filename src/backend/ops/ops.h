/*
 * The algorithm-specific operations of the backends: one kernel (or one
 * pipelined kernel family) of one algorithm each, in their own table
 * (hyla_backend_ops.alg) apart from the generic device interface of
 * backend.h. Both backends fill it; an optional op is NULL where a backend
 * lacks it. The arguments of each family live in its header:
 *   rbt.h      rbt, rbt_diagonals     (random butterfly transforms, lu/)
 *   stage2.h   hb2st, hb2st_v, q2_apply (bulge chasing and Q2, eig/)
 *   tridiag.h  tri_eigvals            (tridiagonal bisection, eig/)
 *   dc.h       dc_secular, dc_vectors (divide-and-conquer merges, eig/)
 *   cq.h       cq_rebuild, larft_gram (stage 1's panels, eig/)
 * Returns and queue semantics are those of backend.h.
 */
#ifndef HYLA_BACKEND_OPS_H
#define HYLA_BACKEND_OPS_H
#include "backend/ops/cq.h"
#include "backend/ops/dc.h"
#include "backend/ops/rbt.h"
#include "backend/ops/stage2.h"
#include "backend/ops/tridiag.h"

struct hyla_alg_ops {
    /* Limits the algorithms ask the backend for instead of its kind. The
     * widest band (kd) the hb2st and hb2st_v ops chase (0: any); wider
     * bands go to the host cores' chase. */
    int64_t hb2st_max_kd;
    /* random butterfly transforms (RBT solver; backend/cuda/k_rbt.cu on the
     * GPU): see hyla_rbt_args (backend/ops/rbt.h). Returns 0, HYLA_ERR_INVALID when
     * hyla_rbt_check rejects the arguments (nothing is enqueued), or the
     * backend's failure codes. */
    int (*rbt)(hyla_queue *q, hyla_dtype t, const hyla_rbt_args *a);
    /* w[k] := the RBT diagonal of index offset + k for k < count
     * (hyla_rbt_diagonals, backend/ops/rbt.h), w a device array of the real type of t:
     * the diagonals are made where they are used. Returns 0,
     * HYLA_ERR_INVALID (bad dtype, count < 0, w NULL while count > 0) or
     * the backend's failure codes. */
    int (*rbt_diagonals)(hyla_queue *q, hyla_dtype t, uint64_t seed, uint64_t offset,
                         int64_t count, void *w);
    /* Bulge chasing, eigenvalues only: reduces the n x n Hermitian (real:
     * symmetric) band B of half-bandwidth kd to a real symmetric tridiagonal
     * matrix with the same eigenvalues (no reflectors kept). AB: the band in
     * memory of q's device, LAPACK lower band storage with room for the
     * bulge: AB[(i-j) + j*ldab] = B(i, j) for j <= i <= min(n-1, j+kd), rows
     * kd+1 .. 2*kd-1 of every column zero on entry (imaginary parts of the
     * diagonal are ignored); ldab >= max(1, 2*kd). AB is destroyed. d: n
     * values, e: n-1 values, both of the real type of t in memory of q's
     * device; d the diagonal, e the off-diagonal of the tridiagonal (e >= 0
     * for complex types: the moduli, which keep the eigenvalues). work:
     * HYLA_HB2ST_WORK_BYTES(n) bytes of device memory (progress counters).
     * Sweep i annihilates column i and chases the bulge down in steps of kd
     * rows (the tasks of LAPACK's sb2st_kernels); sweeps run concurrently,
     * each trailing the one before by a step and the part of a step up to
     * the hand-off of the row the two share. step: how a step gets its
     * window, HYLA_CHASE_STEP_* of stage2.h (HYLA_OPT_EIG_CHASE_STEP's
     * values; AUTO: the backend's plain order, CUDA: WAIT; the library
     * passes the tuning table's choice; a backend with one order, such as
     * the host's, ignores it). Asynchronous on q. Returns
     * 0; HYLA_ERR_INVALID when t is not valid, n < 0, kd < 0, ldab too
     * small, work_bytes too small, step out of range, or a pointer is NULL
     * where it is used
     * (nothing enqueued); HYLA_ERR_UNSUPPORTED when min(kd, n-1) exceeds
     * hb2st_max_kd (CUDA: 64); HYLA_ERR_DEVICE (launch failure,
     * sticks to the queue). NaN input is not detected here. */
    int (*hb2st)(hyla_queue *q, hyla_dtype t, int64_t n, int64_t kd, void *AB, int64_t ldab,
                 void *d, void *e, void *work, size_t work_bytes, int step);
    /* Q2 back transformation of the bulge chase in one call: Z := Q2 Z for
     * the n x ncols matrix Z, Q2 given by its grouped reflector store in
     * memory of q's device (layout: struct hyla_q2_args, backend/ops/q2_args.h,
     * and eig/psb2st.c). The groups are applied in the order of the
     * sequential definition; columns of Z are independent, so a backend may
     * work on slabs of columns, each streaming through the groups (CUDA: one
     * kernel, windows of several sweep groups in shared memory).
     * Asynchronous on q. Returns 0; HYLA_ERR_INVALID for bad arguments
     * (hyla_q2_check; nothing enqueued); HYLA_ERR_UNSUPPORTED for shapes the
     * backend does not take (CUDA: nb > 32 or kd > 64); HYLA_ERR_DEVICE,
     * HYLA_ERR_NO_MEMORY (host: the task). */
    int (*q2_apply)(hyla_queue *q, hyla_dtype t, const struct hyla_q2_args *a);
    /* The Householder reconstruction of a CholeskyQR2 panel (optional; NULL
     * where a backend lacks it): from a->info, R1, G2 and Qt, the outputs
     * V1, Tr, Rt, M, Ui and *a->bad as backend/ops/cq.h states them, every
     * pointer in memory of q's device; a->info is read in order on q (the
     * potrf before it may still be queued). Asynchronous on q. Returns 0;
     * HYLA_ERR_INVALID for bad arguments (hyla_cq_check; nothing
     * enqueued); HYLA_ERR_UNSUPPORTED, nothing enqueued and the queue
     * usable, for a width the backend does not take (CUDA: k > 64, or a GPU
     * that gives a block less shared memory than the kernel's work matrices
     * take: 102 KB for s, d and c, 200 KB for z); HYLA_ERR_DEVICE or
     * HYLA_ERR_NO_MEMORY (host: the task). */
    int (*cq_rebuild)(hyla_queue *q, hyla_dtype t, const hyla_cq_args *a);
    /* T (k x k upper, ld ldt; strictly lower part zeroed) of the forward,
     * columnwise block reflector of k reflectors from their Gram matrix G
     * (ld ldg, strictly upper part read) and scalars tau, as
     * hyla_larft_gram_host (backend/ops/cq.h) states; G, tau and T in memory
     * of q's device, read and written in order on q, so that a panel's T
     * needs no trip through the host. Asynchronous on q. Returns 0;
     * HYLA_ERR_INVALID for bad arguments (hyla_larft_gram_check; nothing
     * enqueued); HYLA_ERR_DEVICE or HYLA_ERR_NO_MEMORY (host: the task). */
    int (*larft_gram)(hyla_queue *q, hyla_dtype t, int64_t k, const void *G, int64_t ldg,
                      const void *tau, void *T, int64_t ldt);
    /* hb2st that keeps the reflectors (optional; NULL where a backend lacks
     * it): the same chase, arguments and failures, with kd the width chased
     * (kd <= max(n-1, 0)), and moreover (after zeroing st->data) every
     * reflector H = I - tau v v^H of sweep i, step m (v(0) = 1) written into
     * the grouped store *st in memory of q's device, laid out as eig/psb2st.c
     * states (group (s, m), s = i / nb: V column i % nb from row i % nb on,
     * tau on T's diagonal), then each group's T completed (LAPACK larft,
     * forward columnwise). e here is the signed real off-diagonal (complex:
     * its imaginary part is exactly zero), so that B = Q2 T Q2^H with Q2 the
     * product of the reflectors in the order they were made. *st is read at
     * the call. Also HYLA_ERR_INVALID when st is NULL or its layout does not
     * match n and kd (hyla_hb2st_store_check). */
    int (*hb2st_v)(hyla_queue *q, hyla_dtype t, int64_t n, int64_t kd, void *AB, int64_t ldab,
                   void *d, void *e, void *work, size_t work_bytes, int step,
                   const hyla_hb2st_store *st);
    /* The backend's one-stage dense eigensolver (CUDA: cuSOLVER's
     * Xsyevd; host: LAPACK ?syevd / ?heevd): all eigenvalues, and with vec
     * the eigenvectors, of the n x n Hermitian (real: symmetric) matrix
     * whose lower triangle is in A (memory of q's device, lda >= max(1, n);
     * the imaginary parts of the diagonal are ignored). w: n values of t's
     * real type in memory of q's device, the eigenvalues ascending. vec 1: A
     * is overwritten by the orthonormal eigenvectors (column k belongs to
     * w[k]); vec 0: the lower triangle is destroyed. *info (host memory): 0,
     * or k > 0 when the solver failed to converge (LAPACK's meaning; A and
     * w then hold nothing usable). Synchronous: it waits for the work
     * enqueued on q before it, and its workspace (CUDA: about what LAPACK's
     * lwork says, 1 + 6n + 2n^2 elements with vec) is taken for the call
     * and given back before it returns. Returns 0; HYLA_ERR_INVALID for t,
     * vec, n, lda, or a NULL pointer where it is used (nothing done);
     * HYLA_ERR_DEVICE_MEMORY or HYLA_ERR_NO_MEMORY (the workspace),
     * HYLA_ERR_BLAS, HYLA_ERR_DEVICE. */
    int (*heevd)(hyla_queue *q, hyla_dtype t, int vec, int64_t n, void *A, int64_t lda, void *w,
                 int *info);
    /* The backend's one-stage solver for a part of the spectrum (optional;
     * NULL where a backend lacks it; host: LAPACK ?syevr / ?heevr): of the
     * n x n Hermitian (real: symmetric) matrix whose lower triangle is in A
     * (memory of q's device, lda >= max(1, n), destroyed), the eigenvalues
     * of index il .. iu (range 'I', 1 <= il <= iu <= n, 1-based, ascending),
     * in (vl, vu] (range 'V', vl < vu) or all (range 'A'), and with vec 1
     * their orthonormal eigenvectors. *m (host memory) receives their
     * number; w (n values of t's real type, memory of q's device) them
     * ascending in its first *m; Z (memory of q's device, ldz >= max(1, n),
     * room for iu - il + 1 columns with range 'I', n otherwise; not
     * referenced with vec 0) the vectors, column k for w[k]. *info (host
     * memory): 0, or k > 0 when the solver failed for k of them (LAPACK's
     * meaning). Synchronous, as heevd. Returns 0; HYLA_ERR_INVALID for t,
     * vec, range, the bounds, n, lda, ldz or a NULL pointer where it is used
     * (nothing done); HYLA_ERR_NO_MEMORY (the workspace);
     * HYLA_ERR_UNSUPPORTED (an order beyond the solver's integers). */
    int (*heevr)(hyla_queue *q, hyla_dtype t, int vec, char range, double vl, double vu,
                 int64_t il, int64_t iu, int64_t n, void *A, int64_t lda, int64_t *m, void *w,
                 void *Z, int64_t ldz, int *info);
    /* All eigenvalues of the real symmetric tridiagonal matrix of order n
     * with diagonal d (n values) and off-diagonal e (n-1 values), ascending
     * into w (n values), by bisection on Sturm counts (LAPACK's stebz
     * method; backend/ops/tri_bisect.h): |w_j - lambda_j| stays within a small
     * multiple of n u max|T_ij| (u the unit roundoff of t), equal
     * eigenvalues come out equal. t is HYLA_S or HYLA_D (a complex
     * problem's tridiagonal is real); d, e, w, work and info in memory of
     * q's device; d and e are not modified. work: HYLA_TRI_EIGVALS_WORK_BYTES(n)
     * bytes of device memory (the scaled matrix and the plan). info: one
     * device int written, in order on q, 0, or 1 when d or e holds NaN or
     * Inf (w is then not written; the op ends without iterating). n == 0
     * writes 0 to info and nothing else. Asynchronous on q. Returns 0;
     * HYLA_ERR_INVALID when t is not HYLA_S or HYLA_D, n < 0, info is NULL,
     * work_bytes is too small or a pointer is NULL where it is used
     * (nothing enqueued); HYLA_ERR_UNSUPPORTED when n exceeds what the
     * backend takes (CUDA: 2^31 - 1); HYLA_ERR_NO_MEMORY or HYLA_ERR_DEVICE
     * (launch failure, sticks to the queue). */
    int (*tri_eigvals)(hyla_queue *q, hyla_dtype t, int64_t n, const void *d, const void *e,
                       void *w, void *work, size_t work_bytes, int *info);
    /* The secular equation of a divide-and-conquer merge (backend/ops/dc.h,
     * arithmetic backend/ops/t_dc_merge.h): from a->dl, a->w and a->r2, every
     * root i < a->k as pole a->org[i] and offset a->tau[i], then Gu and
     * Eisenstat's a->zh; *a->info (device int) := 0, or 1 when a root did not
     * converge (org, tau and zh are then unspecified). t is HYLA_S or HYLA_D.
     * Asynchronous on q. Returns 0; HYLA_ERR_INVALID for bad arguments
     * (hyla_dc_check; nothing enqueued); HYLA_ERR_UNSUPPORTED when k exceeds
     * what the backend takes (CUDA: 2^31 - 1); HYLA_ERR_NO_MEMORY (host: the
     * task), HYLA_ERR_DEVICE (launch failure, sticks to the queue). */
    int (*dc_secular)(hyla_queue *q, hyla_dtype t, const struct hyla_dc_args *a);
    /* The merge matrix M of a divide-and-conquer merge (backend/ops/dc.h)
     * from dc_secular's output and the deflation's rows and rotations: M is
     * overwritten in full (zero where the definition says nothing). Same
     * types, queue, returns and failures as dc_secular (CUDA: n < 2^31). */
    int (*dc_vectors)(hyla_queue *q, hyla_dtype t, const struct hyla_dc_args *a);
};

#endif
