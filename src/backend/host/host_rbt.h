/* The random butterfly op and the row sums of |A| on the host backend:
 * plain loops, run on a queue's worker thread. */
#ifndef HYLA_HOST_RBT_H
#define HYLA_HOST_RBT_H
#include "backend/ops/rbt.h"

/* Runs the transform (arguments checked by hyla_rbt_check). */
void hyla_host_rbt_run(hyla_dtype t, const hyla_rbt_args *a);
/* sums[i] := sum_j |A(i, j)|, sums of the real type of t. */
void hyla_host_row_asum_run(hyla_dtype t, int64_t m, int64_t n, const void *A, int64_t lda,
                            void *sums);

#endif
