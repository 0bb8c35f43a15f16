/* The q2_apply op on the host backend (the sequential reference). */
#ifndef HYLA_HOST_Q2_H
#define HYLA_HOST_Q2_H
#include "backend/ops/q2_args.h"

/* Columns of Z per slab, and sweep groups per window (the CUDA kernel's
 * schedule with a small window, so that tests cross many windows). */
#define HYLA_HOST_Q2_W 32
#define HYLA_HOST_Q2_K 3
/* Rows of the window: K sweep groups, one group, one wave of lookahead. */
#define HYLA_HOST_Q2_ROWS(a) ((HYLA_HOST_Q2_K - 1) * ((a)->nb + (a)->kd) + (a)->ldv + (a)->kd)

/* Bytes of its workspace: the window, 2 nb elements, the window's slot
 * tags. */
#define HYLA_HOST_Q2_BUF_BYTES(t, a)                                                               \
    (hyla_dtype_size(t) * (size_t)(HYLA_HOST_Q2_ROWS(a) * HYLA_HOST_Q2_W + 2 * (a)->nb + 2) +     \
     sizeof(int64_t) * (size_t)HYLA_HOST_Q2_ROWS(a))

/* Runs the op (arguments checked by hyla_q2_check, nsg > 0, ncols > 0);
 * buf: HYLA_HOST_Q2_BUF_BYTES(t, a) bytes. */
void hyla_host_q2_run(hyla_dtype t, const hyla_q2_args *a, void *buf);

#endif
