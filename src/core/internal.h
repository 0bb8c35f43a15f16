/* Internal core of hyla: the context, logging, per-device workspaces and
 * the tuning table, above the backends (base/ holds allocation, the status
 * channel and the dtype helpers). Not installed. */
#ifndef HYLA_INTERNAL_H
#define HYLA_INTERNAL_H

#include "base/base.h"
#include "base/status.h"
#include "backend/backend.h"
#include <pthread.h>
#include <stdio.h>

/* ---- tuning table (tuning.c): one row per device family ---- */
typedef struct {
    const char *family;      /* "host", "hopper", "hopper-hbm3e", "cuda-generic" */
    int64_t gemm_tile[4];    /* per dtype s, d, c, z */
    int64_t gemm_kblock[4];
    double gemm_rate[4];     /* expected device GEMM rate, flop/s, for the CPU split */
    int staging_slots;       /* pinned staging buffers per device */
    int64_t potrf_nb[4];     /* Cholesky panel width per dtype */
    size_t xfer_slot_bytes;  /* pinned staging slot of the panel transfers */
    int64_t eig_kd[4];       /* eigensolver band half-width per dtype */
    int64_t eig_nb[4];       /* eigensolver stage-1 update block per dtype (= kd on GPUs:
                                every panel's host QR then overlaps a trailing HER2K) */
    int64_t eig_back_nb;     /* eigensolver Q1 back transformation: columns per block reflector */
    int64_t stedc_leaf;      /* divide and conquer: largest subproblem solved by QL */
    int64_t stedc_gemm_min;  /* divide and conquer: the levels whose merges have this
                                many rows or more run on device 0 */
    int64_t stedc_gemm_min_div; /* and from n / this many rows where that is fewer (not
                                below 256), so that smaller problems keep a few levels
                                on the device too (0: no such cap) */
    int64_t stedc_host_merges_max; /* the host's merges (those below the device levels) are
                                small, run side by side on the OpenMP team with one BLAS
                                call each, where the device levels start at this many rows
                                or fewer; else the large ones form their GEMMs by the team
                                or one threaded BLAS call */
    int64_t sterf_dc_min;    /* eigenvalues alone on the host cores (sterf; read from the
                                host row, sterf having no context): unreduced blocks of this
                                many rows or more by the values-only divide and conquer,
                                smaller by the QL iteration */
    int64_t getrf_nb[4];     /* LU panel width per dtype */
    int64_t getrf_ib[4];     /* LU inner panel width (leaves of the recursive panel) */
    int64_t eig_kd_values[4]; /* eigenvalues only (jobz N): band half-width per dtype
                                 (0: eig_kd) */
    int64_t eig_nb_values[4]; /* eigenvalues only: stage-1 update block (0: eig_nb) */
    int64_t eig_q2_kd[4];     /* with eigenvectors, at this band width per dtype, Q2 by
                                 default by the backend's one-call op (q2_apply) in groups
                                 of eig_q2_nb sweeps (0: never; else batched GEMMs, groups
                                 of kd) */
    int64_t eig_q2_nb[4];
    int64_t eig_s1_symm[4];   /* stage 1's A V per dtype: by GEMMs with diagonal blocks of
                                 this order (0: the backend's SYMM/HEMM) */
    int64_t eig_one_stage[2][4]; /* [jobz N, V][dtype]: the backend's one-stage solver (heevd
                                    op) up to this order (0: never) */
    int64_t eig_chase_min_n;     /* stage 2 on the device (the backend's hb2st ops) by default
                                    from this order on, else on the host cores (0: never) */
    int64_t eig_chase_step[4];   /* how a step of the device chase gets its window per dtype
                                    (HYLA_OPT_EIG_CHASE_STEP's values, 1..3) */
    int64_t eig_reorder_min_n;   /* with eigenvectors, the reordered order of the back
                                    transformations (Q = Q1 Q2 beside the tridiagonal solver,
                                    then Z = Q E) by default from this order (INT64_MAX: never) */
    int64_t eig_bisect_min_n;    /* eigenvalues alone: the tridiagonal's by bisection on the
                                    device (the backend's tri_eigvals op) by default from this
                                    order, else sterf on the host cores (INT64_MAX: never) */
    int64_t eig_panel_cholqr;    /* stage 1's panels by CholeskyQR2 by default (1), else by
                                    the Householder QR (0: where a panel's QR is no chain of
                                    launches and the fallback test would cost two passes) */
    int64_t eig_cholqr_min_m;    /* stage 1's CholeskyQR2 panels (where they run) from this
                                    many rows, unless the device rebuilds the reflectors */
    int64_t eig_subset_dc_pml;   /* a part of the spectrum with vectors: from this share of
                                    n wanted pairs (per mille) on, all of T's by divide and
                                    conquer and the wanted columns kept, else the wanted
                                    alone by MRRR */
    int64_t eig_subset_mgpu_pml; /* a part of the spectrum on a context whose ?syevd takes
                                    every device: that solver (all pairs, the wanted kept)
                                    from this share of n wanted (per mille; range V counts
                                    as none), else the part's own path on device 0 */
    int64_t her2k_gemm_min;   /* the trailing HER2K updates of stage 1 and of the
                                 generalized reduction as block-column GEMMs
                                 (hyla_eig_her2k_blocks) by default from this trailing
                                 order on (INT64_MAX: never), else one HER2K */
    int64_t her2k_gemm_block; /* the block columns of that GEMM form */
    int64_t eig_q2_kernel_min_cols; /* the Q2 back transformation by the backend's one-call
                                    kernel (where eig_q2_kd / eig_q2_nb give it the store)
                                    from this many columns of Z on, below by the batched
                                    GEMMs (0: any) */
    int64_t eig_mgpu_nb_kd;      /* on several devices, stage 1's update block at least this
                                    many band widths by default (every block ends in an
                                    exchange among them; 0: the one-device block) */
    int64_t eig_mgpu_min_n[2];   /* [jobz N, V]: a host-resident ?syevd / ?heevd takes every
                                    device of a context of several from this order on, device
                                    0 alone below (HYLA_OPT_EIG_DEVICES automatic; 0: always,
                                    INT64_MAX: never) */
} hyla_tuning;

const hyla_tuning *hyla_tuning_for(const hyla_dev *dev);
/* The host row (the host cores' own algorithms, where no device is asked). */
const hyla_tuning *hyla_tuning_host(void);

/* ---- per-device GEMM workspace kept between calls ---- */
typedef struct {
    void *dev_pool;   size_t dev_pool_bytes;     /* device memory */
    void *pinned;     size_t pinned_bytes;       /* pinned host staging */
    hyla_queue *q_in, *q_comp, *q_out;           /* copy-in, compute, copy-out */
    hyla_queue *q_aux;                           /* high priority: critical-path work */
} hyla_dev_workspace;

struct hyla_context {
    int ndev;
    hyla_dev **devs;
    hyla_dev_workspace *ws;      /* ndev entries */
    int64_t opt_gemm_tile, opt_gemm_kblock, opt_cpu_share, opt_pack_threads;
    int64_t opt_potrf_nb, opt_potrf_ooc;
    int64_t opt_getrf_nb;
    int64_t opt_getrf_ib;
    int64_t opt_eig_order;
    int64_t opt_eig_chase;
    int64_t opt_eig_back2;         /* HYLA_OPT_EIG_BACK2 */
    hyla_lu_stats lu_stats;
    hyla_chol_stats chol_stats;
    int64_t opt_eig_kd, opt_eig_nb;
    int64_t opt_eig_back2_nb; /* HYLA_OPT_EIG_BACK2_NB, 0 = default */
    int64_t opt_eig_tridiag;  /* HYLA_OPT_EIG_TRIDIAG, 0 = automatic */
    int64_t opt_lu_panel;     /* HYLA_OPT_LU_PANEL, passed to the getrf and geqrf ops */
    int64_t opt_eig_dc_min;   /* HYLA_OPT_EIG_DC_MIN, 0 = tuning table */
    int64_t opt_eig_back1_nb; /* HYLA_OPT_EIG_BACK1_NB, 0 = tuning table */
    int64_t opt_eig_devices;  /* HYLA_OPT_EIG_DEVICES */
    int64_t opt_eig_sbr, opt_eig_allreduce; /* HYLA_OPT_EIG_SBR, HYLA_OPT_EIG_ALLREDUCE */
    int64_t opt_eig_panel_qr;      /* HYLA_OPT_EIG_PANEL_QR */
    int64_t opt_eig_s1_update;     /* HYLA_OPT_EIG_S1_UPDATE */
    int64_t opt_eig_s1_symm;       /* HYLA_OPT_EIG_S1_SYMM */
    int64_t opt_eig_one_stage;     /* HYLA_OPT_EIG_ONE_STAGE */
    int64_t opt_eig_chase_step;    /* HYLA_OPT_EIG_CHASE_STEP */
    int64_t opt_host_lapack;       /* HYLA_OPT_HOST_LAPACK */
    int64_t opt_eig_subset_dc;     /* HYLA_OPT_EIG_SUBSET_DC */
    int64_t mem_cap;               /* the device list's @SIZE memory cap, 0 = none */
    hyla_eig_stats eig_stats;
    double cpu_rate[4];          /* measured host GEMM rate per dtype (0 = unknown) */
    FILE *log;
    hyla_gemm_stats gemm_stats;
    pthread_mutex_t lock;
    pthread_mutex_t call_lock;   /* recursive: held by every public call on the context */
};

/* Calls on one context are serialized (hyla.h, "Threads"): every public
 * function that takes a context holds its call lock for the whole call,
 * taken by HYLA_SERIAL(ctx) as its first statement and given back however
 * the function returns (the cleanup attribute). Recursive, so that a public
 * function may call another on the same thread. ctx may be NULL: nothing
 * is locked (the function then reports the NULL). */
hyla_t *hyla_call_enter(const hyla_t *ctx);
void hyla_call_leave(hyla_t **guard);
#define HYLA_SERIAL(ctx)                                                                        \
    hyla_t *hyla_serial_guard_ __attribute__((cleanup(hyla_call_leave), unused)) =             \
        hyla_call_enter(ctx)

/* The arguments of a part of the spectrum after the matrices (eig/evx.c;
 * hyla_?syevdx and hyla_?sygvdx, LAPACK's ?syevx order): 0, or which is
 * bad first, 1 vu <= vl (range V, n > 0), 2 il, 3 iu (range I), 4 m NULL,
 * 5 w NULL, 6 Z NULL (vec), 7 ldz; the caller adds its own offset. */
int hyla_eig_subset_args(char range, int vec, int64_t n, double vl, double vu, int64_t il,
                         int64_t iu, const int64_t *m, const void *w, const void *Z, int64_t ldz);

void hyla_log(hyla_t *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Cholesky and LU on one host device (core/host_direct.c). hyla_host_direct:
 * whether a host-resident call (dev < 0) takes the whole-matrix path: ctx
 * has one host device, no memory cap, HYLA_OPT_HOST_LAPACK auto, and the
 * caller set no panel width (nb_set). hyla_host_chol / hyla_host_lu: the
 * jobs of hyla_pchol / hyla_plu (same arguments and returns) on the
 * caller's matrices in place, by device 0's potrf / getrf, trsm and laswp
 * ops; the statistics of the call are set as one panel. */
int hyla_host_direct(const hyla_t *ctx, int dev, int nb_set);
int hyla_host_chol(hyla_t *ctx, hyla_dtype t, int lower, int64_t n, void *A, int64_t lda,
                   int64_t nrhs, void *B, int64_t ldb, int factor, int solve);
int hyla_host_lu(hyla_t *ctx, hyla_dtype t, int64_t m, int64_t n, void *A, int64_t lda,
                 int64_t *ipiv, hyla_op trans, int64_t nrhs, void *B, int64_t ldb, int factor,
                 int solve);

/* The host BLAS's thread count (core/blas_threads.c): OpenBLAS's, 0 where
 * the library is not linked with OpenBLAS (unknown). Read only: hyla never
 * changes it. */
int hyla_blas_threads(void);

/* Returns the per-device workspace of dev i with at least the given sizes,
 * (re)allocating as needed; also creates its queues. */
int hyla_workspace_get(hyla_t *ctx, int i, size_t dev_bytes, size_t pinned_bytes,
                       hyla_dev_workspace **ws);
/* Device memory that hyla may take on device i right now (free, less a margin). */
size_t hyla_workspace_budget(hyla_t *ctx, int i);

/* HYLA_ERR_NAN when the part of the m x n matrix A in the memory of device
 * dev selected by uplo and off (as base.h's hyla_nonfinite) holds a NaN or
 * an Inf, else 0, or a device failure code. Scanned on the device (its
 * q_comp, synchronously); one int comes back to the host (finite.c). */
int hyla_check_finite_dev(hyla_t *ctx, int dev, hyla_dtype t, int uplo, int64_t off, int64_t m,
                          int64_t n, const void *A, int64_t lda);

#endif
