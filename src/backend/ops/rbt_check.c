/* Argument checks and the host's random diagonals of the random butterfly
 * ops, shared by both backends. */
#include "backend/ops/rbt.h"
#include "backend/ops/rbt_diag.h"

int hyla_rbt_check(hyla_dtype t, const hyla_rbt_args *a) {
    if (!a || (unsigned)t > HYLA_Z) return HYLA_ERR_INVALID;
    if ((unsigned)a->mode > HYLA_RBT_RIGHT) return HYLA_ERR_INVALID;
    if (a->depth < 1 || a->depth > HYLA_RBT_MAX_DEPTH) return HYLA_ERR_INVALID;
    if (a->m < 0 || a->n < 0 || a->ms < 0 || a->ns < 0 || a->ms > a->m || a->ns > a->n)
        return HYLA_ERR_INVALID;
    const int64_t p = (int64_t)1 << a->depth;
    const int left = a->mode != HYLA_RBT_RIGHT, right = a->mode == HYLA_RBT_BOTH ||
                                                        a->mode == HYLA_RBT_RIGHT;
    if (a->mode == HYLA_RBT_BOTH && (a->m != a->n || a->ms != a->ns)) return HYLA_ERR_INVALID;
    if ((left && a->m % p) || (right && a->n % p)) return HYLA_ERR_INVALID;
    if (a->m == 0 || a->n == 0) return 0;
    if (a->lda < a->m || !a->A) return HYLA_ERR_INVALID;
    if ((left && !a->u) || (right && !a->v)) return HYLA_ERR_INVALID;
    if (a->S != a->A && a->ms > 0 && a->ns > 0 && (!a->S || a->lds < a->ms))
        return HYLA_ERR_INVALID;
    if (a->S == a->A && (a->ms != a->m || a->ns != a->n || a->lds != a->lda))
        return HYLA_ERR_INVALID;
    return 0;
}

void hyla_rbt_diagonals(hyla_dtype t, uint64_t seed, uint64_t offset, int64_t count, void *w) {
    const int single = t == HYLA_S || t == HYLA_C;
    for (int64_t k = 0; k < count; k++) {
        const double x = hyla_rbt_diag_value(seed, offset + (uint64_t)k);
        if (single) ((float *)w)[k] = (float)x;
        else ((double *)w)[k] = x;
    }
}
