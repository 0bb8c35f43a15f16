/* The hb2st and hb2st_v ops (bulge chasing, without and with the
 * reflectors) on the host backend: the sequential reference of the CUDA
 * kernel's task formulation. */
#ifndef HYLA_HOST_HB2ST_H
#define HYLA_HOST_HB2ST_H
#include "backend/ops/stage2.h"

/* Bytes of the chase's workspace for band width kd and, with a store, nb
 * sweeps per group (4 kd + 2 + nb elements; nb = 0 without a store). */
#define HYLA_HOST_HB2ST_BUF_BYTES(t, kd, nb) \
    (hyla_dtype_size(t) * (size_t)(4 * (kd) + 2 + (nb)))

/* Runs the op (arguments checked by hyla_hb2st_check, and the store by
 * hyla_hb2st_store_check) sweep after sweep; buf:
 * HYLA_HOST_HB2ST_BUF_BYTES(t, kd, st ? st->nb : 0) bytes. st: NULL (hb2st)
 * or the store to fill (hb2st_v). */
void hyla_host_hb2st_run(hyla_dtype t, int64_t n, int64_t kd, void *AB, int64_t ldab, void *d,
                         void *e, void *buf, const hyla_hb2st_store *st);

#endif
