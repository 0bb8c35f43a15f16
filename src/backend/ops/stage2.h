/* Stage 2 of the eigensolver on a device: the bulge chase (the hb2st and
 * hb2st_v ops) and the Q2 back transformation (the q2_apply op, arguments
 * in q2_args.h) of backend/ops/ops.h; the grouped reflector store, the
 * workspace and the argument checks, shared by the host and CUDA backends. */
#ifndef HYLA_BACKEND_OPS_STAGE2_H
#define HYLA_BACKEND_OPS_STAGE2_H
#include "backend/ops/q2_args.h"

/* The grouped reflector store of the eigensolver's stage 2 (eig/psb2st.c
 * states the layout) as the hb2st_v op fills it: all in memory of the
 * op's device. Group (s, m) (sweeps s*nb .. s*nb+nb-1, step m) starts at
 * element woff[u+m] + (min(u+m, nsg-1) - u) * gsz, u = nsg-1-s: V (ldv x
 * nb, ldv = kd+nb-1), then T (nb x nb). */
typedef struct {
    void *data;           /* woff[nw] = ngroups * gsz elements of the dtype */
    const int64_t *woff;  /* nw + 1 wave offsets (elements) */
    int64_t nb, ldv, gsz; /* sweeps per group, rows of V, elements per group */
    int64_t nsg, nw;      /* sweep groups, waves */
    int64_t ngroups;      /* groups in all */
} hyla_hb2st_store;

/* Device workspace of the hb2st op for order n: one 32-bit progress
 * counter per sweep and a ticket counter. */
#define HYLA_HB2ST_WORK_BYTES(n) ((size_t)((n) > 0 ? (n) : 1) * 4 + 4)

/* How a step of the chase gets its window (the hb2st ops' step argument,
 * HYLA_OPT_EIG_CHASE_STEP's values): the backend's plain order, loaded
 * after the wait, copied ahead, split at the step's last row. */
enum { HYLA_CHASE_STEP_AUTO, HYLA_CHASE_STEP_WAIT, HYLA_CHASE_STEP_AHEAD, HYLA_CHASE_STEP_SPLIT };

/* 0 when the arguments are valid as backend/ops/ops.h documents them, else
 * HYLA_ERR_INVALID. n == 0 is valid (nothing to do). */
static inline int hyla_hb2st_check(hyla_dtype t, int64_t n, int64_t kd, const void *AB,
                                   int64_t ldab, const void *d, const void *e,
                                   const void *work, size_t work_bytes, int step) {
    if ((unsigned)t > HYLA_Z || n < 0 || kd < 0 || ldab < (kd > 0 ? 2 * kd : 1) ||
        step < HYLA_CHASE_STEP_AUTO || step > HYLA_CHASE_STEP_SPLIT)
        return HYLA_ERR_INVALID;
    if (n == 0) return 0;
    if (!AB || !d || (n > 1 && !e) || !work || work_bytes < HYLA_HB2ST_WORK_BYTES(n))
        return HYLA_ERR_INVALID;
    return 0;
}

/* 0 when st is a store for a chase of order n and width kd (the width
 * chased, kd <= max(n-1, 0)) as backend/ops/ops.h documents it, else
 * HYLA_ERR_INVALID. Only the sizes are checked, not woff's contents. */
static inline int hyla_hb2st_store_check(int64_t n, int64_t kd, const hyla_hb2st_store *st) {
    if (!st || kd > (n > 0 ? n - 1 : 0)) return HYLA_ERR_INVALID;
    const int64_t nsg = n >= 2 && kd >= 1 ? (n - 2) / st->nb + 1 : 0;
    if (st->nb < 1 || st->nb > hyla_hb2st_max_nb(kd) || st->ldv != kd + st->nb - 1 ||
        st->gsz != st->ldv * st->nb + st->nb * st->nb || st->nsg != nsg ||
        st->nw != (nsg > 0 ? nsg - 1 + (n - 2 + kd) / kd : 0) || st->ngroups < 0 ||
        (nsg > 0 && (!st->data || !st->woff || st->ngroups < nsg)))
        return HYLA_ERR_INVALID;
    return 0;
}

/* Element offset of group (s, m) in a store whose woff the caller can read
 * (the host backend's; the CUDA kernel computes the same). */
static inline int64_t hyla_hb2st_group(const hyla_hb2st_store *st, const int64_t *woff,
                                       int64_t s, int64_t m) {
    const int64_t u = st->nsg - 1 - s, t = u + m;
    return woff[t] + ((t < st->nsg - 1 ? t : st->nsg - 1) - u) * st->gsz;
}

#endif
