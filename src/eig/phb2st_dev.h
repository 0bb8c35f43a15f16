/* Stage 2 of the two-stage eigensolver on a device: the Hermitian band ->
 * real symmetric tridiagonal by bulge chasing in the backend's hb2st op, or
 * hb2st_v where the reflectors are kept (CUDA: one persistent kernel with
 * many sweeps in flight; host backend: the sequential reference). */
#ifndef HYLA_EIG_PHB2ST_DEV_H
#define HYLA_EIG_PHB2ST_DEV_H
#include "core/internal.h"
#include "eig/psb2st.h"

/* Reduces the n x n Hermitian (real: symmetric) band B of half-bandwidth kd
 * to a real symmetric tridiagonal matrix T with B's eigenvalues, on device
 * `dev` of ctx. AB: B on the host in LAPACK lower band storage,
 * AB[(i-j) + j*ldab] = B(i, j) for j <= i <= min(n-1, j+kd), ldab >= kd+1;
 * it is read only (the imaginary parts of its diagonal are ignored). d (n
 * values) and e (n-1 values) of the real type of t, on the host, receive T's
 * diagonal and off-diagonal (e >= 0 for complex types). Synchronous: uploads
 * the band into a wider device band (room for the bulge), runs the op,
 * downloads d and e. Returns 0; HYLA_ERR_INVALID (NULL ctx, bad dtype,
 * n < 0, kd < 0, ldab < kd+1, AB, d or e NULL where needed);
 * HYLA_ERR_NO_DEVICE (bad dev); HYLA_ERR_NAN (NaN or Inf in the band);
 * HYLA_ERR_UNSUPPORTED (min(kd, n-1) above what the backend chases: 64 on
 * CUDA); HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE. */
int hyla_eig_hb2st_dev(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, const void *AB,
                       int64_t ldab, void *d, void *e);

/* hyla_eig_hb2st_dev keeping the reflectors, the device counterpart of
 * hyla_eig_sb2st with q: *q receives a store resident in the memory of
 * device dev (the layout of the host chase's, nb from
 * HYLA_OPT_EIG_BACK2_NB), filled and its T formed on the device by the
 * backend's hb2st_v op; free it with hyla_sb2st_q_free before the context.
 * e is the signed off-diagonal, and B = Q2 T Q2^H (complex types: the
 * phases are in Q2), so hyla_eig_sb2st_back* apply Q2 as for a host store,
 * without uploading it. d and e are those of hyla_eig_hb2st_dev up to the
 * signs of e for complex types (same arithmetic). Returns what
 * hyla_eig_hb2st_dev returns, HYLA_ERR_INVALID also for q NULL, and
 * HYLA_ERR_UNSUPPORTED where the backend has no hb2st_v; on failure *q is
 * NULL and nothing is left allocated. */
int hyla_eig_sb2st_dev(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, const void *AB,
                       int64_t ldab, void *d, void *e, hyla_sb2st_q **q);

/* 1 when device d's backend chases a band of half-bandwidth kd (its hb2st
 * op, up to the backend's hb2st_max_kd). */
int hyla_eig_dev_chase_takes(const hyla_dev *d, int64_t kd);

/* 1 when the automatic choice (HYLA_OPT_EIG_CHASE auto) chases a band of
 * order n and half-bandwidth kd on device d rather than on the host cores:
 * the backend takes kd (hyla_eig_dev_chase_takes) and n is from the tuning
 * table's eig_chase_min_n on (0 on the host backend: never; the
 * measurements are at the definition). */
int hyla_eig_dev_chase_auto(const hyla_dev *d, int64_t n, int64_t kd);

#endif
