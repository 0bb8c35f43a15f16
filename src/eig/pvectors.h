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

/* A part of the spectrum (hyla_?syevdx): which eigenpairs and where their
 * vectors go. */
typedef struct {
    char range;     /* 'A', 'I' or 'V' */
    double vl, vu;  /* range V: the eigenvalues in (vl, vu] */
    int64_t il, iu; /* range I: those of index il .. iu (1-based, ascending) */
    int64_t *m;     /* out: their number */
    void *Z;        /* eigenvectors wanted: out, host n x m of the problem's type,
                       leading dimension ldz >= n; NULL: eigenvalues only */
    int64_t ldz;
} hyla_eig_part;

/* The run j0 .. j1 - 1 of the n ascending eigenvalues w (real type rt)
 * that p wants: by index (range I) or by value (range V). */
void hyla_eig_part_span(hyla_dtype rt, int64_t n, const void *w, const hyla_eig_part *p,
                        int64_t *j0, int64_t *j1);

/* After a full solve (w: all n eigenvalues, ascending; A, host, lda: their
 * eigenvectors when p->Z is not NULL): the wanted eigenvalues moved to the
 * front of w, their vectors copied into p->Z, *p->m set. */
void hyla_eig_part_keep(hyla_dtype t, int64_t n, const void *A, int64_t lda, void *w,
                        const hyla_eig_part *p);

/* The wanted pairs from the tridiagonal (w, e) of stage 2 (w: n entries, in
 * T's diagonal, out the *p->m wanted eigenvalues first, ascending; e
 * destroyed) and the reflector stores of both stages (q1, q2: NULL for
 * eigenvalues only), on device dev:
 *   eigenvalues only: all of T's (hyla_eig_tri_values), the wanted kept;
 *   many wanted (HYLA_OPT_EIG_SUBSET_DC or the tuning table's
 *     eig_subset_dc_pml per mille of n or more,
 *     from n = HYLA_EIG_MRRR_MIN): all of T's pairs by divide and conquer
 *     (on device 0, E left there where its memory takes it) and the wanted
 *     columns kept;
 *   else the wanted pairs of T alone (hyla_eig_tri_pairs, the host cores);
 * then the two back transformations on the m columns on the device and the
 * vectors down into p->Z. st receives tridiag, back2, back1 and adds to
 * transfers. Returns 0, info > 0 from the tridiagonal solver (LAPACK's
 * ?syevx meaning), a HYLA_ERR_* code (*p->m 0 on failure). */
int hyla_eig_part_solve(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, const hyla_sy2sb_q *q1,
                        const hyla_sb2st_q *q2, void *w, void *e, const hyla_eig_part *p,
                        hyla_eig_stats *st);

/* hyla_?syevdx's tier 2 (eig.c): host-resident A (lower: the triangle
 * read), arguments checked, n > 0; w: n entries; A destroyed. As
 * hyla_?syevd's driver up to the tridiagonal (the one-stage solver and the
 * multi-device solver solve all and keep the wanted), then
 * hyla_eig_part_solve. Sets the context's eig_stats. */
int hyla_eig_part_run(hyla_t *ctx, hyla_dtype t, int lower, int64_t n, void *A, int64_t lda,
                      void *w, const hyla_eig_part *p);

/* The same for the lower triangle of dA (ld ldda) in the memory of device
 * dev (destroyed), the eigenvectors still into the host's p->Z; the
 * solver of one device (the multi-device path takes host matrices only). */
int hyla_eig_part_run_dev(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, void *dA, int64_t ldda,
                          void *w, const hyla_eig_part *p);

/* Whether hyla_eig_part_run on a host matrix takes every device of the
 * context for part (NULL: all pairs): hyla_eig_all_devices, and the
 * part holds the tuning table's eig_subset_mgpu_pml per mille of n at
 * least (range V: never). */
int hyla_eig_part_all_devices(const hyla_t *ctx, int vec, int64_t n, const hyla_eig_part *part);

#endif
