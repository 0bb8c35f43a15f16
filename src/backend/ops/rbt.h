/* The random butterfly transforms of the RBT solver: the arguments of the
 * backend's rbt and rbt_diagonals ops (backend/ops/ops.h), their check and
 * the host's diagonals (rbt_check.c). */
#ifndef HYLA_BACKEND_OPS_RBT_H
#define HYLA_BACKEND_OPS_RBT_H
#include "backend/backend.h"

/* ---- random butterfly transforms (Parker; Baboulin, Dongarra et al.) ----
 * A recursive butterfly of order p and depth d (p a multiple of 2^d) is
 * W = L_{d-1} ... L_1 L_0, where level l is the block diagonal of 2^l
 * butterflies of order p_l = p / 2^l, each
 *     B = 1/sqrt(2) [R0  R1; R0  -R1],   R0, R1 diagonal of order p_l / 2.
 * Its diagonals are p * d real values w (the real type of the dtype), level
 * l in w[l p .. (l + 1) p): butterfly b of level l takes R0 from
 * w[l p + b p_l ..] and R1 from the next p_l / 2 values. Real diagonals make
 * W^T = W^H, so the same transforms serve complex matrices.
 * The op writes the m x n matrix A (lda) from the ms x ns source S (lds):
 *   HYLA_RBT_BOTH    A := U^T P V   (m == n; U of order m from u, V from v)
 *   HYLA_RBT_LEFT_T  A := U^T P     (U of order m from u)
 *   HYLA_RBT_LEFT    A := U P       (U of order m from u; x = V y uses v here)
 *   HYLA_RBT_RIGHT   A := P V       (V of order n from v)
 * where P is S padded to m x n: [S 0; 0 I] for BOTH (ms == ns), [S 0; 0 0]
 * for the one-sided modes. S == A (with ms = m, ns = n, lds = lda) works in
 * place; any other overlap of S and A is not allowed. u and v are device
 * arrays (NULL where the mode does not use them). */
typedef enum {
    HYLA_RBT_BOTH = 0, HYLA_RBT_LEFT_T = 1, HYLA_RBT_LEFT = 2, HYLA_RBT_RIGHT = 3
} hyla_rbt_mode;

typedef struct hyla_rbt_args {
    hyla_rbt_mode mode;
    int depth;                  /* 1 .. HYLA_RBT_MAX_DEPTH (hyla.h) */
    int64_t m, n;               /* A is m x n; m (left) and n (right) multiples of 2^depth */
    const void *u, *v;          /* diagonals of U (m * depth) and V (n * depth) */
    const void *S;              /* source, ms x ns, ms <= m, ns <= n */
    int64_t lds, ms, ns;
    void *A;                    /* destination */
    int64_t lda;
} hyla_rbt_args;

/* 0 when the arguments are valid for dtype t (as documented above and for the rbt op, ops.h), else
 * HYLA_ERR_INVALID; m == 0 or n == 0 is valid (nothing to do). */
int hyla_rbt_check(hyla_dtype t, const hyla_rbt_args *a);

/* The random diagonals on the host: w[k] = exp(r / 10) for the indices
 * offset + k, k < count, with r uniform in [-1/2, 1/2) from a counter-based
 * generator of seed and the index (backend/ops/rbt_diag.h), so any subset is
 * reproducible on its own and the GPU op gives the same values; stored as
 * float for s/c and double for d/z. The solver takes U's diagonals from
 * offset 0 and V's from offset np * depth. */
void hyla_rbt_diagonals(hyla_dtype t, uint64_t seed, uint64_t offset, int64_t count, void *w);

#endif
