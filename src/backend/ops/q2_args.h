/* Arguments of the backend's q2_apply op (backend/ops/ops.h): the grouped reflector
 * store of the bulge chase (eig/psb2st.c states the layout and why it is
 * valid), shared by the host and CUDA backends.
 *
 * Sweep groups s = 0 .. nsg-1 hold the sweeps s*nb .. s*nb+nb-1. Group
 * (s, m), 0 <= m < M(s) = ceil((n-1-s*nb)/kd), acts on the rows
 * r0 = s*nb + m*kd + 1 .. r0+ldv-1 (rows from n on do not exist; V is zero
 * there) as G = I - V T V^H: V ldv x nb (ldv = kd+nb-1), its column c zero
 * outside rows c .. c+kd-1, then T nb x nb upper triangular, both column
 * major, gsz = ldv*nb + nb*nb elements in all, at element offset
 *   woff[t] + (min(t, nsg-1) - u) * gsz,   u = nsg-1-s, t = u + m
 * of the store. Q2 Z applies the sweep groups from s = nsg-1 down to 0 and
 * in each m = 0, 1, .. in this order. */
#ifndef HYLA_BACKEND_Q2_ARGS_H
#define HYLA_BACKEND_Q2_ARGS_H
#include "backend/backend.h"

typedef struct hyla_q2_args hyla_q2_args;

struct hyla_q2_args {
    int64_t n, kd, nb, ldv, nsg, nw, gsz; /* as above; nw: waves, nsg-1 + M(0) */
    const int64_t *woff;                 /* nw+1 offsets (elements), device memory */
    const void *store;                   /* woff[nw] elements of the dtype, device memory */
    int64_t ncols;                       /* columns of Z */
    void *Z;                             /* n x ncols, device memory */
    int64_t ldz;                         /* >= max(1, n) */
    int identity;                        /* 1: Z holds columns col0 .. col0+ncols-1 of the n x n
                                            identity on entry; columns a sweep group cannot
                                            reach are skipped */
    int64_t col0;                        /* with identity: Z's first column's in the identity */
};

/* Steps of sweep i of a band of order n and width kd (0 <= i <= n-2). */
static inline int64_t hyla_q2_steps(int64_t n, int64_t kd, int64_t i) {
    return (n - 1 - i + kd - 1) / kd;
}

/* The most sweeps a group of the store may hold for a chase of width kd:
 * 4 kd, at most 256 (the CUDA kernel that forms T runs 256 threads). More
 * sweeps a group mean fewer waves of the back transformation (nsg + steps,
 * each a pass over Z) and a longer inner dimension for its GEMMs, at the
 * price of the staircase's zeros: V is (kd+nb-1) x nb with kd nonzeros a
 * column (eig/psb2st.c). */
static inline int64_t hyla_hb2st_max_nb(int64_t kd) {
    const int64_t m = 4 * (kd > 1 ? kd : 1);
    return m < 256 ? m : 256;
}

/* 0 when the arguments are consistent, else HYLA_ERR_INVALID. */
static inline int hyla_q2_check(hyla_dtype t, const hyla_q2_args *a) {
    if ((unsigned)t > HYLA_Z || !a || a->n < 0 || a->ncols < 0 || a->ldz < (a->n > 1 ? a->n : 1))
        return HYLA_ERR_INVALID;
    if (a->nsg == 0 || a->ncols == 0 || a->n < 2) return 0;
    if (a->kd < 1 || a->nb < 1 || a->nb > hyla_hb2st_max_nb(a->kd) || a->ldv != a->kd + a->nb - 1 ||
        a->nsg != (a->n - 1 + a->nb - 1) / a->nb ||
        a->nw != a->nsg - 1 + hyla_q2_steps(a->n, a->kd, 0) ||
        a->gsz != a->ldv * a->nb + a->nb * a->nb || !a->woff || !a->store || !a->Z ||
        (a->identity && (a->col0 < 0 || a->col0 + a->ncols > a->n)))
        return HYLA_ERR_INVALID;
    return 0;
}

#endif
