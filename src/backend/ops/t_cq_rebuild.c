/* The host reconstruction of stage 1's CholeskyQR2 panels (backend/ops/cq.h
 * states the method and the outputs), one source for s, d, c, z: included
 * by cq_rebuild.c once per precision after base/prec.h and
 * base/prec_cmath.h, giving static functions PS(x).
 *
 * The LU of I - Qt S is done in place in Qt (Y), each sign chosen when its
 * column is reached; then, with E = [I; 0], V = E U^-1 + Q1 M, so V's rows
 * below the top block are Q1[k:, :] M (M = -R2^-1 S U^-1, one TRMM on the
 * device) and A V = A(:, 0:k) U^-1 + (A Q1) M, which lets the device start
 * on A Q1 before this runs. */
#include "base/prec_cmath.h"

#undef CQ_POTRF
#undef CQ_TRSM
#undef CQ_TRMM
#undef CQ_AL
#if defined(HYLA_PREC_S)
#define CQ_POTRF LAPACKE_spotrf_work
#define CQ_TRSM cblas_strsm
#define CQ_TRMM cblas_strmm
#elif defined(HYLA_PREC_D)
#define CQ_POTRF LAPACKE_dpotrf_work
#define CQ_TRSM cblas_dtrsm
#define CQ_TRMM cblas_dtrmm
#elif defined(HYLA_PREC_C)
#define CQ_POTRF LAPACKE_cpotrf_work
#define CQ_TRSM cblas_ctrsm
#define CQ_TRMM cblas_ctrmm
#else
#define CQ_POTRF LAPACKE_zpotrf_work
#define CQ_TRSM cblas_ztrsm
#define CQ_TRMM cblas_ztrmm
#endif
/* cblas takes real scalars by value, complex ones by address */
#if IS_CPLX
#define CQ_AL(a) (&(a))
#else
#define CQ_AL(a) (a)
#endif

static R PS(cq_abs)(T x) { return RSQRT(TRE(x) * TRE(x) + TIM(x) * TIM(x)); }

/* R (k x k, ld ldr, a Cholesky factor in its upper triangle): the strictly
 * lower part zeroed; 0, or 1 when the smallest |R_ii| is below thr times
 * the largest (A too ill-conditioned for CholeskyQR2). */
static int PS(cq_rcheck)(int64_t k, T *G, int64_t ldg, R thr) {
    R lo = 0, hi = 0;
    for (int64_t j = 0; j < k; j++) {
        const R d = PS(cq_abs)(G[j + j * ldg]);
        lo = j == 0 ? d : HYLA_MIN(lo, d);
        hi = HYLA_MAX(hi, d);
        for (int64_t i = j + 1; i < k; i++) G[i + j * ldg] = T_ZERO;
    }
    return hi > 0 && lo >= thr * hi ? 0 : 1; /* false for NaN too */
}

/* G (k x k, ld ldg, Hermitian positive definite, upper triangle read) :=
 * its Cholesky factor (G = R^H R, upper), checked by cq_rcheck; 1 also
 * when potrf fails. */
static int PS(cq_chol)(int64_t k, T *G, int64_t ldg, R thr) {
    if (CQ_POTRF(LAPACK_COL_MAJOR, 'U', (lapack_int)k, G, (lapack_int)ldg) != 0) return 1;
    return PS(cq_rcheck)(k, G, ldg, thr);
}

/* From G2 (k x k, ld k: Q1^H Q1), Qt (k x k, ld k: Q1's first k rows) and
 * Rt (k x k, ld k: R1, zeros below): V1 (unit lower, zeros above), Tm (T,
 * upper), Rt (S^H R2 R1, upper), M (-R2^-1 S U^-1, upper), Ui (U^-1, upper,
 * zeros below), all k x k, ld k; G2 and Qt are overwritten. 0, or 1
 * (nothing usable) when G2 is more than 0.1 from I in some entry or its
 * Cholesky fails. */
static int PS(cq_reconstruct)(int64_t k, T *G2, T *Qt, T *V1, T *Tm, T *Rt, T *M, T *Ui) {
    const T one = T_ONE;
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i <= j; i++)
            if (!(PS(cq_abs)(G2[i + j * k] - (i == j ? T_ONE : T_ZERO)) <= (R)0.1)) return 1;
    if (PS(cq_chol)(k, G2, k, (R)0.5)) return 1; /* R2 in G2 */
    /* Qt := Qt R2^-1 (Q's top block); Rt := R2 R1 */
    CQ_TRSM(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)k, (int)k,
            CQ_AL(one), G2, (int)k, Qt, (int)k);
    CQ_TRMM(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, (int)k, (int)k,
            CQ_AL(one), G2, (int)k, Rt, (int)k);
    /* LU of I - Qt S with the signs chosen on the way, in place in Qt (Y):
     * the multipliers below the diagonal, Y's rows above it as they stand
     * when their pivot comes */
    T *Y = Qt;
    for (int64_t j = 0; j < k; j++) {
        /* s_j = -+1 against the sign of Re y: |pivot| = |1 - y s_j| >= 1,
         * and R's diagonal (S R) stays real, as the chase expects of the
         * band's outermost diagonal */
        const T y = Y[j + j * k];
        const T sj = TRE(y) >= 0 ? -T_ONE : T_ONE;
        const T piv = T_ONE - y * sj;
        M[j] = sj; /* the signs, kept in M's first column until M is formed */
        Tm[j + j * k] = piv;
        for (int64_t r = j + 1; r < k; r++) Y[r + j * k] = -Y[r + j * k] * sj / piv;
        for (int64_t c = j + 1; c < k; c++) {
            const T yjc = Y[j + c * k];
            for (int64_t r = j + 1; r < k; r++) Y[r + c * k] -= Y[r + j * k] * yjc;
        }
    }
    /* U (in Tm): U_jj = 1 - y_jj s_j, U_jc = -y_jc s_c; V1 from the multipliers */
    for (int64_t c = 0; c < k; c++) {
        for (int64_t j = 0; j < c; j++) Tm[j + c * k] = -Y[j + c * k] * M[c];
        for (int64_t j = c + 1; j < k; j++) Tm[j + c * k] = T_ZERO;
        for (int64_t r = 0; r < k; r++)
            V1[r + c * k] = r < c ? T_ZERO : r == c ? T_ONE : Y[r + c * k];
    }
    /* Rt := S^H Rt (row j times conj(s_j)) */
    for (int64_t c = 0; c < k; c++)
        for (int64_t j = 0; j <= c; j++) Rt[j + c * k] *= TCONJ(M[j]);
    /* M := -R2^-1 S U^-1 (S from M's first column, read before it is
     * overwritten: M's column c holds -s_c e_c first) */
    T *sg = Y; /* Y is no longer needed: its first column keeps the signs */
    for (int64_t j = 0; j < k; j++) sg[j] = M[j];
    for (int64_t c = 0; c < k; c++)
        for (int64_t r = 0; r < k; r++) M[r + c * k] = r == c ? -sg[c] : T_ZERO;
    CQ_TRSM(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)k, (int)k,
            CQ_AL(one), Tm, (int)k, M, (int)k);
    CQ_TRSM(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, (int)k, (int)k,
            CQ_AL(one), G2, (int)k, M, (int)k);
    /* Ui := U^-1 */
    for (int64_t c = 0; c < k; c++)
        for (int64_t r = 0; r < k; r++) Ui[r + c * k] = r == c ? T_ONE : T_ZERO;
    CQ_TRSM(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)k, (int)k,
            CQ_AL(one), Tm, (int)k, Ui, (int)k);
    /* T := U V1^-H */
    CQ_TRSM(CblasColMajor, CblasRight, CblasLower, CblasConjTrans, CblasUnit, (int)k, (int)k,
            CQ_AL(one), V1, (int)k, Tm, (int)k);
    return 0;
}

/* hyla_cq_rebuild_host for this precision (eps: the real type's) */
static int PS(cq_rebuild)(const hyla_cq_args *a, T *work, R eps) {
    const int64_t k = a->k;
    T *G2 = work, *Qt = work + k * k, *Rt = a->Rt;
    const T *R1 = a->R1, *G2in = a->G2, *Qin = a->Qt;
    if (*a->info != 0) return 1;
    /* R1's upper triangle into Rt (zeros below) */
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < k; i++) Rt[i + j * k] = i <= j ? R1[i + j * k] : T_ZERO;
    if (PS(cq_rcheck)(k, Rt, k, 64 * RSQRT(eps))) return 1;
    for (int64_t j = 0; j < k; j++) {
        memcpy(G2 + j * k, G2in + j * k, sizeof(T) * (size_t)k);
        memcpy(Qt + j * k, Qin + j * a->ldq, sizeof(T) * (size_t)k);
    }
    return PS(cq_reconstruct)(k, G2, Qt, a->V1, a->Tr, Rt, a->M, a->Ui);
}
