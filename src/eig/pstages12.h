/* Stages 1 and 2 of the two-stage eigensolver, overlapped on a GPU. */
#ifndef HYLA_EIG_PSTAGES12_H
#define HYLA_EIG_PSTAGES12_H
#include "eig/psb2st.h"
#include "eig/psy2sb.h"

/* Dense Hermitian dA (device dev, lower triangle, destroyed) -> band (AB,
 * host, lower band storage, ldab >= kd + 1) -> real tridiagonal (d, e):
 * hyla_eig_sy2sb followed by hyla_eig_sb2st, with stage 2 running on the
 * host cores while stage 1 runs on a GPU (sweeps following the band columns
 * as stage 1 makes them final); on the host backend, or for a small band,
 * one after the other. mode: -1 that choice, 0 one after the other, 1 at
 * the same time (tests), 2 stage 2 on the device after stage 1
 * (hyla_eig_hb2st_dev; with q2, hyla_eig_sb2st_dev: *q2 is then resident
 * on device dev). q1, q2: the reflector stores, or NULL when not wanted.
 * *s1 receives stage 1's seconds, *s2 those stage 2 adds after
 * stage 1 ends. Returns 0 or the first stage's failure (HYLA_ERR_NAN when
 * the band holds NaN or Inf). */
int hyla_eig_stages12(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, int64_t nb,
                      void *dA, int64_t ldda, void *AB, int64_t ldab, hyla_sy2sb_q **q1,
                      void *d, void *e, hyla_sb2st_q **q2, int mode, double *s1, double *s2);

#endif
