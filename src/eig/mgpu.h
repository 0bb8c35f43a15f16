/* The two-stage eigensolver on several devices of a context (tier 2).
 *
 * The matrix is distributed blockwise by columns: device g holds the full
 * height of columns c[g] .. c[g+1] - 1 (not block-cyclic), so the devices
 * whose columns the reduction has passed are done with stage 1 early and
 * every exchange is between a panel's owner and the rest (stage 1) or none
 * at all (the back transformations, each device on its own columns of Z).
 *
 *   stage 1  psy2sb_mgpu.c: dense -> band over all devices. Panel p's owner
 *            factors it (QR); V and T go to every device; A22 V is formed
 *            from each device's columns and combined (half storage: a
 *            sum-allreduce of the n x kd partial products; full storage: an
 *            allgather of row blocks); each device applies the delayed
 *            rank-2k update to its own columns. The reflectors stay where
 *            they were made, in the panels' columns of A.
 *   stage 2  the band on one device (or the host cores), as on one device.
 *   tridiag  divide and conquer, as on one device.
 *   vectors  psyevd_mgpu.c: the eigenvector columns are dealt blockwise to
 *            the devices; each applies Q2 and then Q1 to its own columns,
 *            Q1's reflector groups streaming from their owners.
 *
 * Internal to hyla (src/eig). */
#ifndef HYLA_EIG_MGPU_H
#define HYLA_EIG_MGPU_H
#include "eig/psb2st.h"
#include "eig/psy2sb.h"

enum { HYLA_EIG_MAX_DEVS = 64 };

/* Stage 1's storage: only the lower triangle (its A V a sum-allreduce) or
 * both triangles of the trailing matrix (its A V an allgather, twice the
 * update flops). */
enum { HYLA_EIG_SBR_AUTO = 0, HYLA_EIG_SBR_HALF = 1, HYLA_EIG_SBR_FULL = 2 };
/* the sum-allreduce of half storage: through pinned host memory, or device
 * to device (each partial to device 0, summed there, copied back) */
enum { HYLA_EIG_AR_AUTO = 0, HYLA_EIG_AR_HOST = 1, HYLA_EIG_AR_DEVICE = 2 };

/* A blockwise column distribution of order n over nd devices. */
typedef struct {
    int nd;
    int64_t n;
    int64_t c[HYLA_EIG_MAX_DEVS + 1]; /* c[0] = 0 <= c[1] <= ... <= c[nd] = n */
} hyla_eig_dist;

/* How the columns of a distribution are weighted when it is balanced. */
enum {
    HYLA_EIG_W_EVEN = 0, /* every column alike (the back transformations) */
    HYLA_EIG_W_HALF = 1, /* stage 1, half storage: column j costs j (n - j) */
    HYLA_EIG_W_FULL = 2, /* stage 1, full storage: column j costs j (n - j / 2) */
    /* the reordered back transformation, Q's columns built from the
     * identity's: column j costs Q1's and Z = Q E's share, the same for
     * every column, plus Q2's, which reaches column j from sweep j on, so
     * about j (n - j / 2); half and half in all (one H200, n = 32768:
     * back1 and the GEMM 5.1 s, Q2 from the identity 5.0 s) */
    HYLA_EIG_W_QBUILD = 3
};

/* *d := nd blocks of columns of order n, boundaries multiples of align (but
 * the last), with about equal total weight. nd in 1 .. HYLA_EIG_MAX_DEVS,
 * align >= 1. A device may get no column (small n). */
void hyla_eig_dist_make(int nd, int64_t n, int64_t align, int weight, hyla_eig_dist *d);

/* The device holding column j. */
int hyla_eig_dist_owner(const hyla_eig_dist *d, int64_t j);

/* The triangle of the Hermitian matrix dealt as ds over the devices (dA[g],
 * ld[g]) that is not stored (lower: the upper one) := the conjugate
 * transpose of the stored one; the diagonal's imaginary parts cleared
 * (dist.c). */
int hyla_eig_dist_mirror(hyla_t *ctx, hyla_dtype t, int lower, const hyla_eig_dist *ds,
                         void **dA, const int64_t *ld);

/* The reflectors of a distributed stage 1: panel p (columns j0 = p kd ..)
 * keeps V_p in those columns of its owner's block of A, explicitly (unit
 * diagonal at row j0 + kd, zeros above), and T_p in dT of the owner (kd x
 * its columns, column j0 - c[owner]). Q1 = Q_0 Q_1 ... as on one device;
 * `group` panels form one block reflector in the back transformation (the
 * distribution's boundaries are multiples of group kd, so a group has one
 * owner). The blocks of A are the caller's (not freed here). */
typedef struct {
    hyla_dtype t;
    int64_t n, kd, npanels, group;
    hyla_eig_dist dist;
    void *dA[HYLA_EIG_MAX_DEVS];
    int64_t lda[HYLA_EIG_MAX_DEVS];
    void *dT[HYLA_EIG_MAX_DEVS];
} hyla_sy2sb_qm;

void hyla_eig_sy2sb_qm_free(hyla_t *ctx, hyla_sy2sb_qm **q);

/* Seconds and bytes of a distributed stage 1 (for --timers and tests). */
typedef struct {
    double qr, combine; /* host time in the panels' QR round trips; in host allreduces */
    double wait, host;  /* of qr: blocked on the owner's queue for the panel's results
                           (the work queued before it included); the host's T */
    double bytes_peer;  /* bytes copied between devices */
    double bytes_host;  /* bytes through host memory for the allreduce */
    int sbr, ar;        /* the variants that ran (HYLA_EIG_SBR_*, HYLA_EIG_AR_*) */
    int64_t cq_panels;  /* panels factored by CholeskyQR2 */
} hyla_sy2sb_mstats;

/* hyla_eig_sy2sb_mgpu's return when CholeskyQR2 refused a panel (too
 * ill-conditioned for it): dA and AB hold nothing meaningful, and the
 * caller starts over from the matrix with cq 0. Internal: below every
 * HYLA_ERR_* code, and never returned by the library's entry points. */
enum { HYLA_EIG_CQ_REFUSED = -1000 };

/* Reduces the Hermitian matrix distributed as dist over the context's
 * devices (device g: dA[g], n x (c[g+1] - c[g]), ld lda[g] >= n; its
 * columns at full height) to band form of half-bandwidth kd, the trailing
 * update delayed over nb columns (a multiple of kd). sbr HALF: the lower
 * triangle of each column is referenced (rows >= the column); FULL: both
 * triangles must hold the matrix. dist's boundaries must be multiples of
 * nb. The band goes to AB (host, LAPACK lower band storage, ldab >= kd+1).
 * dA is destroyed; with q non-NULL, *q receives the reflector store (V in
 * dA). cq: the panels of 2 kd rows or more by CholeskyQR2 (with the
 * Householder vectors rebuilt by the backend's cq_rebuild op), else every
 * panel by Householder QR. The host never waits for a panel: every
 * panel's work is enqueued at once. Synchronous. Returns 0,
 * HYLA_EIG_CQ_REFUSED (cq: a panel was too ill-conditioned for
 * CholeskyQR2), HYLA_ERR_INVALID (a boundary that is not a
 * multiple of nb, bad variants), HYLA_ERR_UNSUPPORTED (n beyond LAPACK's
 * int), or the devices' failure codes. */
int hyla_eig_sy2sb_mgpu(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t kd, int64_t nb,
                        const hyla_eig_dist *dist, void *const *dA, const int64_t *lda,
                        void *AB, int64_t ldab, int sbr, int ar, int cq, hyla_sy2sb_qm **q,
                        hyla_sy2sb_mstats *ms);

/* Z := Q1 Z for the n x ncols matrix dZ (ld lddz) in the memory of device
 * g: every group of reflectors applied in turn, the groups of other
 * owners copied in (double-buffered: the next group's copy runs beside the
 * current product). Each device may run it on its own columns at the same
 * time (from threads of its own). qc computes, qi copies the groups in
 * (queues of device g; NULL: the workspace's). Synchronous. Returns 0 or
 * the device's failure codes. */
int hyla_eig_sy2sb_back_mgpu(hyla_t *ctx, const hyla_sy2sb_qm *q, int g, int64_t ncols,
                             void *dZ, int64_t lddz, hyla_queue *qc, hyla_queue *qi);

/* Whether a host-resident hyla_?syevd / ?heevd of order n (vec: with
 * eigenvectors) on ctx takes every device of it (HYLA_OPT_EIG_DEVICES, else
 * the tuning table's eig_mgpu_min_n); 0 for a context of one device. */
int hyla_eig_all_devices(const hyla_t *ctx, int vec, int64_t n);

/* The eigensolver of hyla_?syevd on all devices of ctx (ndev >= 2): A is
 * the caller's host matrix (uplo `lower`), overwritten by the eigenvectors
 * when vec; w the eigenvalues. sbr and ar choose stage 1's variant
 * (HYLA_EIG_SBR_*, HYLA_EIG_AR_*; AUTO: the tuning's). Fills *st. Returns
 * as hyla_?syevd. */
int hyla_eig_syevd_mgpu(hyla_t *ctx, hyla_dtype t, int vec, int lower, int64_t n, void *A,
                        int64_t lda, void *w, hyla_eig_stats *st);

/* kd and nb of the multi-device solver for order n (the one-device sizes,
 * nb widened on GPUs). */
void hyla_eig_mgpu_sizes(const hyla_t *ctx, hyla_dtype t, int vec, int64_t n, int64_t *kd,
                         int64_t *nb);
/* The stage-1 variants in force (the options, else the defaults). */
void hyla_eig_mgpu_variants(const hyla_t *ctx, int *sbr, int *ar);

/* hyla_?syevd_mgpu after its argument checks (A of type t and ctx's device
 * count, n >= 1): the eigenvectors (vec) replace A in its layout. Returns
 * as hyla_?syevd_mgpu (-3 for a layout whose align does not fit kd). */
int hyla_eig_syevd_dist(hyla_t *ctx, hyla_dtype t, int vec, int lower, hyla_dist_matrix *A,
                        void *w, hyla_eig_stats *st);

#endif
