/* Stage 1's CholeskyQR2 panels (eig/psy2sb.c): the Householder
 * reconstruction that turns a panel's CholeskyQR2 factors into the
 * reflectors a Householder QR would have made, as the cq_rebuild op of
 * backend/ops/ops.h (arguments below) and as host code both backends and
 * the eigensolver share (cq_rebuild.c, t_cq_rebuild.c).
 *
 * For an m x k panel A (m >= 2k) the device has formed
 *
 *   G1 = A^H A = R1^H R1   (potrf, info),   Q1 = A R1^-1,   G2 = Q1^H Q1.
 *
 * The reconstruction (Ballard, Demmel, Grigori, Jacquelin, Knight, Nguyen,
 * "Reconstructing Householder vectors from Tall-Skinny QR", 2015) factors
 * G2 = R2^H R2 (Q = Q1 R2^-1 orthonormal, R = R2 R1), and with a diagonal of
 * signs S the top k x k block of [I; 0] - Q S = V U by an LU without
 * pivoting, each sign chosen when its column is reached so that the pivot
 * 1 - y_jj s_j has modulus at least 1 (s_j = +-1 against the sign of Re
 * y_jj, so that S^H R keeps a real diagonal). Then H = I - V T V^H has
 * H[:, 0:k] = Q S and A = H [S^H R; 0]. Outputs, all k x k, ld k:
 *   V1  V's top block (unit lower, zeros above);
 *   Tr  U V1^-H (upper): the block reflector's factor;
 *   Rt  S^H R2 R1 (upper, zeros below): the panel's R;
 *   M   -R2^-1 S U^-1 (upper): V's rows below the top block are
 *       Q1[k:, :] M, and A V = A(:, 0:k) U^-1 + (A Q1) M;
 *   Ui  U^-1 (upper, zeros below).
 * The panel is refused (*bad = 1, outputs undefined) when potrf failed, when
 * R1's smallest diagonal entry is below 64 sqrt(eps) times its largest (A
 * too ill-conditioned for CholeskyQR2), when an entry of G2's upper triangle
 * is more than 0.1 from I's, or when R2's Cholesky fails or its smallest
 * diagonal entry is below half its largest; NaN fails every test. The
 * eigensolver then factors the panel by Householder QR instead. */
#ifndef HYLA_BACKEND_OPS_CQ_H
#define HYLA_BACKEND_OPS_CQ_H
#include "backend/backend.h"

typedef struct {
    int64_t k;                   /* panel width, >= 1 */
    const int *info;             /* potrf's info for G1 (0: R1 is its factor) */
    const void *R1;              /* k x k, upper triangle read (ld k) */
    const void *G2;              /* k x k, upper triangle read (ld k) */
    const void *Qt;              /* Q1's first k rows: k x k, ld ldq >= k */
    int64_t ldq;
    void *V1, *Tr, *Rt, *M, *Ui; /* outputs, k x k each (ld k), disjoint from the inputs */
    int *bad;                    /* 0: outputs written; 1: the panel is refused */
} hyla_cq_args;

/* 0 when the arguments are consistent, else HYLA_ERR_INVALID. */
static inline int hyla_cq_check(hyla_dtype t, const hyla_cq_args *a) {
    if ((unsigned)t > HYLA_Z || !a || a->k < 1 || a->ldq < a->k || !a->info || !a->R1 ||
        !a->G2 || !a->Qt || !a->V1 || !a->Tr || !a->Rt || !a->M || !a->Ui || !a->bad)
        return HYLA_ERR_INVALID;
    return 0;
}

/* The reconstruction on the host (every pointer host memory): returns 1 when
 * the panel is refused (as *a->bad would say), 0 when the outputs are
 * written; *a->bad is not written. work: 2 k^2 elements of type t. */
int hyla_cq_rebuild_host(hyla_dtype t, const hyla_cq_args *a, void *work);

/* The triangular factor T (k x k upper, ld ldt) of the forward, columnwise
 * block reflector I - V T V^H of k reflectors H_j = I - tau_j v_j v_j^H
 * from their Gram matrix G = V^H V (k x k, its strictly upper triangle
 * read, ld ldg) and the scalars tau (k): LAPACK larft's recurrence
 * T(j, j) = tau_j, T(0:j, j) = -tau_j T(0:j, 0:j) G(0:j, j). T's strictly
 * lower triangle is zeroed. A tau_j of zero (no reflection) is taken as it
 * is. The larft_gram op (backend/ops/ops.h) on every backend; this is its
 * host code. */
void hyla_larft_gram_host(hyla_dtype t, int64_t k, const void *G, int64_t ldg, const void *tau,
                          void *T, int64_t ldt);

/* 0 when larft_gram's arguments are consistent, else HYLA_ERR_INVALID. */
static inline int hyla_larft_gram_check(hyla_dtype t, int64_t k, const void *G, int64_t ldg,
                                        const void *tau, const void *T, int64_t ldt) {
    if ((unsigned)t > HYLA_Z || k < 0 || ldg < (k > 1 ? k : 1) || ldt < (k > 1 ? k : 1) ||
        (k > 0 && (!G || !tau || !T)))
        return HYLA_ERR_INVALID;
    return 0;
}

#endif
