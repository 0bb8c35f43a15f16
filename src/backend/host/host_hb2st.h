/* The hb2st op (bulge chasing, eigenvalues only) on the host backend: the
 * sequential reference of the CUDA kernel's task formulation. */
#ifndef HYLA_HOST_HB2ST_H
#define HYLA_HOST_HB2ST_H
#include "backend/backend.h"

/* Bytes of the chase's workspace for band width kd (4 kd + 2 elements). */
#define HYLA_HOST_HB2ST_BUF_BYTES(t, kd) (hyla_dtype_size(t) * (size_t)(4 * (kd) + 2))

/* Runs the op (arguments checked by hyla_hb2st_check) sweep after sweep;
 * buf: HYLA_HOST_HB2ST_BUF_BYTES(t, kd) bytes. */
void hyla_host_hb2st_run(hyla_dtype t, int64_t n, int64_t kd, void *AB, int64_t ldab, void *d,
                         void *e, void *buf);

#endif
