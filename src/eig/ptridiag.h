/* Tridiagonal eigensolvers of the two-stage eigensolver (eig3): the root-free
 * QR iteration for eigenvalues only (sterf class) and divide and conquer for
 * eigenpairs (stedc class). Internal interface shared with the driver (see
 * the eig contract); real types only (rt is HYLA_S or HYLA_D). */
#ifndef HYLA_EIG_PTRIDIAG_H
#define HYLA_EIG_PTRIDIAG_H
#include "core/internal.h"
#include "backend/ops/ops.h"

/* Eigenvalues of the symmetric tridiagonal (d, e), ascending in d; e destroyed.
 * Unreduced blocks of 512 rows or more by a values-only divide and conquer on
 * the OpenMP team, smaller ones by the root-free QL iteration.
 * Returns 0, k > 0 if k off-diagonals failed to converge (LAPACK sterf; 1 when
 * a divide and conquer secular solve failed), HYLA_ERR_NAN on NaN/Inf input,
 * HYLA_ERR_NO_MEMORY, HYLA_ERR_INVALID for a bad rt. */
int hyla_eig_sterf(hyla_dtype rt, int64_t n, void *d, void *e);

/* hyla_eig_sterf with explicit tuning, for tests: blocks of at least dc_min
 * rows by divide and conquer with leaves of at most leaf rows (>= 2); 0 takes
 * the default for either. */
int hyla_eig_sterf_tuned(hyla_dtype rt, int64_t n, void *d, void *e, int64_t dc_min,
                         int64_t leaf);

/* Eigenvalues (ascending, in d) and orthonormal eigenvectors Z (n x n, host
 * memory, ldz >= n, type rt) of the tridiagonal by divide and conquer; e
 * destroyed. The levels whose merges have at least the tuning table's
 * stedc_gemm_min rows run on the devices of ctx with the eigenvector
 * matrices resident there, dealt by rows (each device builds every merge
 * matrix it needs by the backend's dc_secular and dc_vectors ops and
 * multiplies its own rows: no traffic between the devices; Z crosses the
 * link once each way; per device, hyla_eig_stedc_rows_bytes); ctx may be
 * NULL: host only. Sets ctx's eig_stats.stedc_* timers.
 * Returns 0, k > 0 when an iteration failed to converge (k - 1 = first row of
 * the subproblem that failed), HYLA_ERR_NAN, HYLA_ERR_NO_MEMORY, device codes. */
int hyla_eig_stedc(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                   int64_t ldz);

/* hyla_eig_stedc on device 0 alone, delivering the eigenvectors to dZ
 * (device 0 of ctx, lddz >= n, type rt) instead: Z (host, n x n, ldz) is then workspace
 * (unspecified on return). One unreduced tridiagonal (the common case) keeps
 * its eigenvector matrices on the device from the first device level on
 * and never crosses the link with Z (only its lower levels' diagonal blocks
 * go up); a matrix that splits is solved into Z, which goes up. Returns as
 * hyla_eig_stedc; HYLA_ERR_INVALID also when dZ is NULL or ctx has no
 * device. */
int hyla_eig_stedc_dev(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                       int64_t ldz, void *dZ, int64_t lddz);

/* hyla_eig_stedc (dZ NULL) or hyla_eig_stedc_dev with explicit tuning, for
 * tests: leaf = largest subproblem solved by the QL iteration (>= 2),
 * gemm_min = smallest merge (rows) of the levels run on device 0 of ctx;
 * 0 takes the tuning table's value for either. */
int hyla_eig_stedc_tuned(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                         int64_t ldz, void *dZ, int64_t lddz, int64_t leaf, int64_t gemm_min);

/* hyla_eig_stedc_tuned into dZ (not NULL) with the eigenvectors of
 * columns c0 .. c1 - 1 alone wanted (0 <= c0 < c1 <= n; the eigenvalues
 * are all computed): dZ's columns c0 .. c1 - 1 hold them on return, its
 * others are unspecified. Where the top merge runs on the device it forms
 * those columns alone (n^2 (c1 - c0) flops instead of n^3); elsewhere
 * everything is computed. Returns as hyla_eig_stedc_dev; HYLA_ERR_INVALID
 * also for a bad column range. */
int hyla_eig_stedc_cols(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                        int64_t ldz, void *dZ, int64_t lddz, int64_t c0, int64_t c1,
                        int64_t leaf, int64_t gemm_min);

/* The eigenvectors of hyla_eig_stedc_rows, left on the devices by blocks
 * of rows: device g < nd of ctx holds rows r[g] .. r[g+1] - 1 of Z (all n
 * columns, type rt) in blk[g], leading dimension ld[g] >= max(1, r[g+1] -
 * r[g]), device memory of that device; nd = 0: none (the eigenvectors are
 * in the host matrix). Released by hyla_eig_zrows_free. */
typedef struct {
    int nd;
    int64_t r[HYLA_MAX_DEVICES + 1];
    int64_t ld[HYLA_MAX_DEVICES];
    void *blk[HYLA_MAX_DEVICES];
} hyla_eig_zrows;

/* hyla_eig_stedc over every device of ctx with the eigenvectors left on the
 * devices by rows in *rows (Z, host, n x n, ldz >= n, is then workspace)
 * when the tridiagonal is one unreduced block whose top merges run on the
 * devices; else they come in Z and rows->nd is 0. leaf, gemm_min as in
 * hyla_eig_stedc_tuned (0: the tuning table's); mcols: the columns of a
 * merge matrix built and applied at once (0: the default, 8192; tests force
 * small ones). Returns as hyla_eig_stedc (rows->nd 0 on failure, nothing
 * left allocated); HYLA_ERR_INVALID for a NULL rows, mcols < 0 or a ctx
 * without devices. */
int hyla_eig_stedc_rows(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                        int64_t ldz, int64_t leaf, int64_t gemm_min, int64_t mcols,
                        hyla_eig_zrows *rows);

/* Frees the blocks of rows (on ctx's devices) and sets rows->nd to 0;
 * NULL or nd 0: nothing. */
void hyla_eig_zrows_free(hyla_t *ctx, hyla_eig_zrows *rows);

/* Device memory (bytes) that stedc's device levels take on each of nd
 * devices sharing an order-n problem of real type rt (at most). */
size_t hyla_eig_stedc_rows_bytes(hyla_dtype rt, int nd, int64_t n);

/* Eigenvalues of the tridiagonal (d, e) of order n, host memory of type rt,
 * ascending into w (host; w == d allowed), by bisection on device dev of
 * ctx (the backend's tri_eigvals op: d and e go up, w comes down; e is not
 * modified). Returns 0, HYLA_ERR_NAN (NaN or Inf in d or e),
 * HYLA_ERR_INVALID, HYLA_ERR_NO_DEVICE, HYLA_ERR_UNSUPPORTED (the backend
 * lacks the op), device memory and device codes. */
int hyla_eig_tri_bisect(hyla_t *ctx, int dev, hyla_dtype rt, int64_t n, const void *d,
                        const void *e, void *w);

/* The eigensolver's eigenvalues-only tridiagonal solve: eigenvalues
 * ascending in d (host memory, type rt), e destroyed (sterf) or kept
 * (bisection), by hyla_eig_sterf on
 * the host cores or hyla_eig_tri_bisect on device dev as ctx's
 * HYLA_OPT_EIG_TRIDIAG says (automatic: bisection on a GPU from n = 2048).
 * Codes as the solver chosen returns them. */
int hyla_eig_tri_values(hyla_t *ctx, int dev, hyla_dtype rt, int64_t n, void *d, void *e);

/* The number of eigenvalues of the tridiagonal (d, e) (n, host, real type
 * rt) below x: the Sturm count of the LDL^T factorization of T - x I. */
int64_t hyla_eig_sturm_below(hyla_dtype rt, int64_t n, const void *d, const void *e, double x);

/* MRRR from this order on (hyla_eig_tri_pairs); below it inverse iteration
 * costs little, and the host LAPACK's ?stemr mishandles some tiny orders
 * (n = 2 with range 'I' returned garbage eigenvalues from OpenBLAS 0.3.26). */
enum { HYLA_EIG_MRRR_MIN = 256 };

/* The eigenpairs il .. iu (1-based, ascending) of the tridiagonal (d, e)
 * (n, host, real type rt; neither modified) on the host cores: from n =
 * HYLA_EIG_MRRR_MIN by MRRR (LAPACK ?stemr, O(n m), no reorthogonalization;
 * Dhillon and Parlett), below it or where MRRR fails by bisection and
 * inverse iteration (?stebz, ?stein: O(n m) plus a reorthogonalization
 * within clusters, O(n m^2) when the m eigenvalues lie close together). *m
 * receives their number, w (iu - il + 1 entries) the eigenvalues ascending,
 * Z (host, n x (iu - il + 1), ldz >= n, type rt) the vectors. Returns 0, k > 0
 * when bisection or inverse iteration failed for k of them (LAPACK's
 * ?syevx meaning), HYLA_ERR_NO_MEMORY, HYLA_ERR_UNSUPPORTED (n > INT_MAX),
 * HYLA_ERR_INTERNAL (the host LAPACK refused its arguments). */
int hyla_eig_tri_pairs(hyla_dtype rt, int64_t n, const void *d, const void *e, int64_t il,
                       int64_t iu, int64_t *m, void *w, void *Z, int64_t ldz);

#endif
