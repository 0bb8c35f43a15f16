/* Stage 1 of the two-stage eigensolver: reduction of a Hermitian (real:
 * symmetric) matrix on one device to Hermitian band form, B = Q1^H A Q1, and
 * the back transformation Z := Q1 Z. Internal to hyla (src/eig). */
#ifndef HYLA_SY2SB_H
#define HYLA_SY2SB_H
#include "core/xfer.h"

/* The reflectors of stage 1, kept on device `dev` of the context. Panel p
 * (0 <= p < npanels) covers columns j0 = p kd .. j0 + kd - 1; its block
 * reflector Q_p = I - V_p T_p V_p^H acts on rows r0 = j0 + kd .. n - 1.
 *   dV  n x n (ld ldv): V_p explicitly (unit diagonal, zeros above it) in
 *       rows r0.., columns j0 .. j0 + k_p - 1, k_p = min(kd, n - r0);
 *       entries outside these blocks are not referenced.
 *   dT  kd x n (ld kd): T_p (upper triangular, k_p x k_p) in columns j0...
 * Q1 = Q_0 Q_1 ... Q_{npanels-1}. dV is zero outside the V_p, so that the V
 * of `group` consecutive panels form one block reflector in the back
 * transformation. */
typedef struct {
    hyla_dtype t;
    int dev;
    int64_t n, kd, npanels, group;
    void *dV, *dT;
    int64_t ldv;
} hyla_sy2sb_q;

/* Panels of stage 1 for order n and half-bandwidth kd: those with at least
 * two rows below the band. */
int64_t hyla_eig_sy2sb_npanels(int64_t n, int64_t kd);

/* Block sizes of stage 1 on device dev for type t: the context's options
 * HYLA_OPT_EIG_KD / HYLA_OPT_EIG_NB, or the tuning table; nb is rounded
 * down to a multiple of kd (at least kd). */
void hyla_eig_sy2sb_sizes(const hyla_t *ctx, int dev, hyla_dtype t, int64_t *kd, int64_t *nb);
/* The same for the eigensolver with (vec 1) or without (vec 0)
 * eigenvectors: without, the tuning table's eigenvalues-only kd and nb where
 * its row has them (and HYLA_OPT_EIG_KD is not set). */
void hyla_eig_sy2sb_sizes_jobz(const hyla_t *ctx, int dev, hyla_dtype t, int vec, int64_t *kd,
                               int64_t *nb);

/* Reduces the n x n Hermitian matrix dA (memory of device dev; lower triangle
 * referenced; destroyed) to band form with half-bandwidth kd >= 1, panels
 * grouped by nb (a multiple of kd) for the trailing update. Writes the band
 * into the host array AB in LAPACK lower band storage ((kd+1) x n, ldab >=
 * kd+1). If q is non-NULL, *q receives the reflector store (free it with
 * hyla_eig_sy2sb_q_free). If Vh is non-NULL (host, ld ldvh >= n), the
 * reflectors are also written LAPACK-style: the vector of reflector j
 * (column j0 + jj of panel p) has an implicit 1 in row j + kd, rows j + kd
 * + 1 .. n - 1 are stored in Vh(:, j); tau[j] (tau: n entries, zero where
 * there is no reflector) is its scalar. Synchronous. Returns 0,
 * HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE,
 * HYLA_ERR_BLAS, HYLA_ERR_UNSUPPORTED (n beyond LAPACK's int). */
int hyla_eig_sy2sb(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, int64_t nb,
                   void *dA, int64_t ldda, void *AB, int64_t ldab, hyla_sy2sb_q **q, void *Vh,
                   int64_t ldvh, void *tau);

/* The columns of the band AB that stage 1 has made final, for a stage 2
 * that runs at the same time: ready counts the leading columns of AB that
 * hold their final values (a release store by stage 1 after it writes them,
 * an acquire load by the reader); failed is set (after ready = n) when
 * stage 1 stops on an error, so a reader never waits forever (what it then
 * read is meaningless). */
typedef struct {
    _Atomic int64_t ready;
    _Atomic int failed;
} hyla_band_feed;

/* hyla_eig_sy2sb that publishes its progress through feed (non-NULL,
 * initialised to ready = 0, failed = 0 by the caller): each panel's kd band
 * columns as soon as they are final, n at the end or on a failure. */
int hyla_eig_sy2sb_fed(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, int64_t nb,
                       void *dA, int64_t ldda, void *AB, int64_t ldab, hyla_sy2sb_q **q, void *Vh,
                       int64_t ldvh, void *tau, hyla_band_feed *feed);

/* The order of the diagonal blocks stage 1 forms A V with
 * (HYLA_OPT_EIG_S1_SYMM, else device d's tuning table; 0: the backend's
 * SYMM/HEMM). */
int64_t hyla_eig_s1_symm_leaf(const hyla_t *ctx, const hyla_dev *d, hyla_dtype t);

/* Bytes of hyla_eig_symm_lower's workspace for matrices of order up to mmax
 * (0 where leaf <= 0). */
size_t hyla_eig_symm_ws_bytes(hyla_dtype t, int64_t leaf, int64_t mmax);

/* C := A B on q, A m x m Hermitian (its lower triangle read, ld lda), B and
 * C m x k, all in memory of q's device: with leaf <= 0 the backend's
 * SYMM/HEMM; else the diagonal blocks of order b = min(leaf, m) copied out
 * full into dSym (hyla_eig_symm_ws_bytes for an order >= m) and multiplied
 * in one batched GEMM (a short last one alone), the off-diagonal blocks by
 * GEMMs on halves. Asynchronous on q. Returns 0 or the backend's code. */
int hyla_eig_symm_lower(const hyla_backend_ops *o, hyla_queue *q, hyla_dtype t, int64_t leaf,
                        void *dSym, int64_t m, int64_t k, const void *A, int64_t lda,
                        const void *B, int64_t ldb, void *C, int64_t ldc);

/* C := C + alpha (P Q^H + Q P^H) in the lower triangle of the m x m C (ld
 * ldc; alpha real), from U = [P Q P] (m x 3k, ld ldu: P in its columns
 * 0 .. k-1 and 2k .. 3k-1, Q in k .. 2k-1): per diagonal block of b columns
 * one HER2K (SYR2K) of order b and one GEMM of inner dimension 2k below it,
 * [P Q] [Q P]^H. cuBLAS's HER2K runs well below its GEMM rate (one H100,
 * n = 16000, k = 128: 29 TFLOP/s, bench/results/raw/symm-gemm-h100.txt).
 * Stage 1's trailing update and the generalized reduction's (gv.c) take it
 * from the tuning table's her2k_gemm_min on, by blocks of her2k_gemm_block.
 * Asynchronous on q. Returns 0 or the backend's code. */
int hyla_eig_her2k_blocks(const hyla_backend_ops *o, hyla_queue *q, hyla_dtype t, int64_t m,
                          int64_t k, int64_t b, const void *alpha, const void *U, int64_t ldu,
                          void *C, int64_t ldc);

/* Band columns j0 .. j1 - 1 of AB are final: clears the imaginary parts of
 * their diagonal (complex types) and, with a feed, publishes them (release
 * store of ready = j1). */
void hyla_eig_band_publish(hyla_dtype t, int64_t j0, int64_t j1, void *AB, int64_t ldab,
                           hyla_band_feed *feed);

/* dZ := Q1 dZ (conj = 0) or Q1^H dZ (conj = 1) for the n x ncols matrix dZ
 * in memory of device q->dev; blocks applied GEMM, TRMM, GEMM. Synchronous.
 * Returns 0 or a HYLA_ERR_* code. */
int hyla_eig_sy2sb_back(hyla_t *ctx, const hyla_sy2sb_q *q, int conj, int64_t ncols, void *dZ,
                        int64_t lddz);
/* The same on the queue qc of device q->dev (for a caller that runs it
 * beside other work of the context's own queues). */
int hyla_eig_sy2sb_back_q(hyla_t *ctx, const hyla_sy2sb_q *q, int conj, int64_t ncols, void *dZ,
                          int64_t lddz, hyla_queue *qc);

/* Z := Q Z (conj 0) or Q^H Z (conj 1) on queue qc for the block reflector
 * Q = I - V T V^H of stage-1 panels pa .. pb-1 (order n, half-bandwidth
 * kd): V (ld ldv) points at row pa kd + kd of the group's first column, the
 * panels' V side by side, each zero above its own first row; Tp (ld kd) at
 * the panels' T_p side by side. dZ: n x ncols (ld lddz). Workspace on qc's
 * device: dTg (gw x gw, gw >= (pb - pa) kd) and dWk (gw x ncols, ld gw).
 * Asynchronous on qc. */
int hyla_eig_q1_group(hyla_queue *qc, hyla_dtype t, int64_t n, int64_t kd, int64_t pa,
                      int64_t pb, const void *V, int64_t ldv, const void *Tp, int conj,
                      int64_t ncols, void *dZ, int64_t lddz, void *dTg, int64_t gw, void *dWk);

/* Builds a device reflector store from the LAPACK-style form written by
 * hyla_eig_sy2sb (Vh, tau on the host): V uploaded, T rebuilt (larft). */
int hyla_eig_sy2sb_q_from_host(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd,
                               const void *Vh, int64_t ldvh, const void *tau,
                               hyla_sy2sb_q **q);

void hyla_eig_sy2sb_q_free(hyla_t *ctx, hyla_sy2sb_q **q);

#endif
