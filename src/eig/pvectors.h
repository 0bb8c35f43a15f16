/* The eigenvectors of the two-stage eigensolver from the reflectors of both
 * stages and the tridiagonal: direct or reordered back transformation. */
#ifndef HYLA_EIG_PVECTORS_H
#define HYLA_EIG_PVECTORS_H
#include "eig/psb2st.h"
#include "eig/psy2sb.h"

enum { HYLA_EIG_ORDER_AUTO = 0, HYLA_EIG_DIRECT = 1, HYLA_EIG_REORDERED = 2 };

/* w (n, real type of t), e (n - 1): the tridiagonal from stage 2, w
 * receiving the eigenvalues (ascending), e destroyed; dZ (device dev, type
 * t, ld lddz >= n) receives the eigenvectors Q1 Q2 E, and so does the host
 * matrix hZ (ld ldhz >= n) unless it is NULL: in the reordered order by
 * blocks of columns, each downloaded while the next is computed. order: one of the
 * enum (AUTO: reordered on a GPU from n = 8192, else direct; REORDERED
 * falls back to direct without the memory).
 * st receives tridiag, back2, back1 (the final GEMM of the reordered order
 * included) and adds to transfers. Synchronous. Returns 0, a HYLA_ERR_*
 * code, or info > 0 from the tridiagonal solver. */
int hyla_eig_vectors(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, const hyla_sy2sb_q *q1,
                     const hyla_sb2st_q *q2, void *w, void *e, void *dZ, int64_t lddz,
                     void *hZ, int64_t ldhz, int order, hyla_eig_stats *st);

/* Copies stedc's parts, which it leaves in the context's statistics, into
 * st. */
void hyla_eig_stedc_parts(const hyla_t *ctx, hyla_eig_stats *st);

#endif
