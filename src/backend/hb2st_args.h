/* Argument check of the backend's hb2st op (bulge chasing, eigenvalues
 * only), shared by the host and CUDA backends: see backend.h. */
#ifndef HYLA_BACKEND_HB2ST_ARGS_H
#define HYLA_BACKEND_HB2ST_ARGS_H
#include "backend/backend.h"

/* 0 when the arguments are valid as backend.h documents them, else
 * HYLA_ERR_INVALID. n == 0 is valid (nothing to do). */
static inline int hyla_hb2st_check(hyla_dtype t, int64_t n, int64_t kd, const void *AB,
                                   int64_t ldab, const void *d, const void *e,
                                   const void *work, size_t work_bytes) {
    if ((unsigned)t > HYLA_Z || n < 0 || kd < 0 || ldab < (kd > 0 ? 2 * kd : 1))
        return HYLA_ERR_INVALID;
    if (n == 0) return 0;
    if (!AB || !d || (n > 1 && !e) || !work || work_bytes < HYLA_HB2ST_WORK_BYTES(n))
        return HYLA_ERR_INVALID;
    return 0;
}

#endif
