/* Tier 2 of the RBT solver: transforms, no-pivoting LU, refinement and the
 * pivoted fallback on one device, written once for the four dtypes against
 * the backend interface. */
#ifndef HYLA_PRBT_H
#define HYLA_PRBT_H
#include "core/internal.h"
#include "backend/ops/ops.h"

typedef struct {
    hyla_dtype t;
    int64_t n, nrhs;            /* n, nrhs > 0 */
    const void *A;              /* device memory of dev, not modified */
    int64_t lda;
    void *B;                    /* device memory of dev, overwritten by X */
    int64_t ldb;
    int dev;
    int depth;                  /* 1 .. HYLA_RBT_MAX_DEPTH */
    int max_refine;             /* >= 0 */
    uint64_t seed;
} hyla_rbt_job;

/* Runs the job (arguments checked). Fills *info (its t_copy is left to the
 * caller). Returns 0, the fallback's info k > 0 (A singular; B untouched),
 * or a HYLA_ERR_* code. */
int hyla_prbt(hyla_t *ctx, const hyla_rbt_job *job, hyla_rbt_info *info);

/* The order of the padded matrix: n rounded up to a multiple of 2^depth. */
int64_t hyla_rbt_padded(int64_t n, int depth);

#endif
