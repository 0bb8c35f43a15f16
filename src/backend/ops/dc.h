/* Arguments of the backend's divide-and-conquer merge ops dc_secular and
 * dc_vectors (backend/ops/ops.h), shared by the host and CUDA backends; the
 * arithmetic is backend/ops/t_dc_merge.h's.
 *
 * A merge of order n has k non-deflated poles (roots of its secular
 * equation) and n - k deflated ones. Its merge matrix M (n x n) is
 *   M = G_1 ... G_nrot E,
 * E's column pos[i] (i < k) the normalized eigenvector of root i on the rows
 * nd[0..k-1] (entry m on row nd[m]: zh_m / (dl_m - lam_i)), E's column
 * pos[k + t] the unit vector on row defl[t], every other entry zero; G_r the
 * rotation of deflation r acting on rows rp[r], rj[r] as
 *   [x_p, x_j] := [-s x_p + c x_j, c x_p + s x_j]   (c = rc[r], s = rs[r]),
 * applied last first. dc_vectors builds the columns c0 .. c0 + nc - 1 of M
 * alone (a merge matrix too large for the device's memory is built and
 * used by blocks of columns; the rotations act within a column), stored
 * from M on (column c0 at M); nc = 0 builds all n columns. The reals are of
 * the op's real type (HYLA_S or HYLA_D); every array lives in memory of the
 * queue's device. */
#ifndef HYLA_BACKEND_OPS_DC_H
#define HYLA_BACKEND_OPS_DC_H
#include "backend/backend.h"

typedef struct hyla_dc_args hyla_dc_args;

struct hyla_dc_args {
    int64_t n, k, nrot; /* the merge's order, roots, rotations */
    double r2;          /* the rank-one weight 2 |rho| > 0 */
    const void *dl;     /* k reals: the poles, strictly ascending */
    const void *w;      /* k reals: the weights (nonzero) */
    int64_t *org;       /* k: each root's pole (dc_secular writes, dc_vectors reads) */
    void *tau;          /* k reals: each root's offset from its pole (likewise) */
    void *zh;           /* k reals: Gu and Eisenstat's z (likewise) */
    int *info;          /* dc_secular: one int, 0, or 1 when a root did not converge */
    const int64_t *nd;  /* k: M's row of each pole */
    const int64_t *pos; /* n: M's column of each root, then of each deflated row */
    const int64_t *defl;/* n - k: M's row of each deflated pole */
    const int64_t *rp, *rj; /* nrot: the rows of each rotation */
    const void *rc, *rs;    /* nrot reals: its cosine and sine */
    void *M;            /* n x nc (n x n when nc = 0), column major */
    int64_t ldm;        /* >= max(1, n) */
    int64_t c0, nc;     /* the columns of M built (nc = 0: all, c0 then 0) */
};

/* 0 when the arguments of dc_secular (vectors 0) or dc_vectors (vectors 1)
 * are consistent, else HYLA_ERR_INVALID. */
static inline int hyla_dc_check(hyla_dtype t, const hyla_dc_args *a, int vectors) {
    if ((t != HYLA_S && t != HYLA_D) || !a || a->n < 0 || a->k < 0 || a->k > a->n ||
        a->nrot < 0 || !(a->r2 > 0))
        return HYLA_ERR_INVALID;
    if (a->k > 0 && (!a->dl || !a->org || !a->tau || !a->zh)) return HYLA_ERR_INVALID;
    if (!vectors) return !a->info || (a->k > 0 && !a->w) ? HYLA_ERR_INVALID : 0;
    if (a->ldm < (a->n > 1 ? a->n : 1) || (a->n > 0 && (!a->M || !a->pos)) ||
        (a->k > 0 && !a->nd) || (a->k < a->n && !a->defl) ||
        (a->nrot > 0 && (!a->rp || !a->rj || !a->rc || !a->rs)) || a->c0 < 0 || a->nc < 0 ||
        a->c0 + a->nc > a->n || (a->nc == 0 && a->c0 != 0))
        return HYLA_ERR_INVALID;
    return 0;
}

#endif
