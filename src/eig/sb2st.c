/* Stage 2 of the two-stage eigensolver: Hermitian band -> real symmetric
 * tridiagonal by bulge chasing on the host cores, and the back
 * transformation Q2 on a device.
 *
 * Bulge chasing (Lang's successive band reduction with one column per sweep,
 * in the task form of Haidar, Ltaief and Dongarra, SC'11): sweep i
 * annihilates column i below the subdiagonal with one reflector of length
 * <= kd and chases the bulge this creates down the band in steps of kd rows.
 * Step m of sweep i works on rows st = i+1+m*kd .. st+kd-1 (block m):
 *   m = 0   generate H from B(st.., i); B(block, block) := H^H B H;
 *   m >= 1  the off-diagonal block X = B(block m, block m-1) := X H_{m-1}
 *           (this fills X: the bulge); generate H_m from X(:, 0) and
 *           X(:, 1..) := H_m^H X(:, 1..) (the rest of the bulge is
 *           annihilated by the next sweeps); B(block m, block m) := H_m^H B H_m.
 * Every subdiagonal entry ends up as the real beta of a reflector, so T is
 * real also for complex types (the phases are in Q2).
 * The band is copied into a working band with 2*kd rows (room for the
 * bulge); with ld = 2*kd - 1, B(r, c) = W[r + c*ld] for 0 <= r-c < 2*kd, so
 * every block is a plain column-major matrix with leading dimension ld.
 *
 * Parallel: step m of sweep i touches rows i+1+m*kd .. i+(m+1)*kd and
 * columns i+1+(m-1)*kd .. i+(m+1)*kd (for m = 0: column i); step m' of
 * sweep i-1 the same shifted up by one. They overlap for m' = m and
 * m' = m+1 only, so sweep i may run step m once sweep i-1 has finished its
 * steps 0..m+1 (or all of them): a lag of SB2ST_LAG = 2 steps. Threads take
 * groups of consecutive sweeps round robin and wait on a progress table
 * (steps done by the last sweep of each group). Every step does the same
 * operations on the same data in any order that keeps these dependencies,
 * so the result is bitwise that of the serial sweep-after-sweep loop.
 *
 * Reflector store, grouped for the BLAS-3 back transformation (the
 * "grouped" BC-back of Haidar et al.; MAGMA's bulge_back): group (s, m)
 * holds the reflectors of step m of the nb sweeps a = s*nb .. a+nb-1. Their
 * rows start at a+1+m*kd and shift by one per sweep, so V is a staircase
 * (kd+nb-1) x nb matrix (unit first entries stored, zeros elsewhere) and the
 * group's product H_a H_{a+1} ... = I - V T V^H (T upper, LAPACK larft
 * forward columnwise). Q2 is the product of all reflectors in the order they
 * were made. A reflector of sweep i step m is disjoint from any of sweep
 * i' <= i step m' < m (it starts past the other's end), so within a sweep
 * group the product reorders to G(s, M) ... G(s, 1) G(s, 0), and
 * Q2 = Q_0 Q_1 ... with Q_s that product. Hence Q2 Z applies the sweep
 * groups last first, and within one, G(s, 0), G(s, 1), ... in this order. */

/* Finite data only (NaN/Inf are refused first): complex products need no
 * C99 Annex G recovery, whose slow path would keep the loops scalar. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("cx-limited-range")
#endif
#include "eig/sb2st.h"
#include <complex.h>
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

struct hyla_sb2st_q {
    hyla_dtype t;
    int64_t n, kd;     /* order and band width actually chased (kd <= n-1) */
    int64_t nb, ldv;   /* sweeps per group; rows of a group's V (kd+nb-1) */
    int64_t nsg;       /* sweep groups */
    int64_t *goff;     /* nsg+1 offsets (in elements) of each sweep group's groups */
    int64_t gsz;       /* elements of one group: V (ldv*nb), then T (nb*nb) */
    void *data;        /* goff[nsg] elements of type t */
};

/* Steps of sweep i (0 <= i <= n-2): blocks of kd rows below row i. */
static inline int64_t sweep_steps(int64_t n, int64_t kd, int64_t i) {
    return HYLA_CEILDIV(n - 1 - i, kd);
}

void hyla_sb2st_q_free(hyla_sb2st_q **q) {
    if (!q || !*q) return;
    hyla_free((*q)->goff);
    hyla_free((*q)->data);
    hyla_free(*q);
    *q = NULL;
}

/* An empty store for order n and band width kd (kd >= 1 when n >= 2), its
 * groups zeroed. */
static int q_create(hyla_dtype t, int64_t n, int64_t kd, hyla_sb2st_q **out) {
    int rc = 0;
    hyla_sb2st_q *q = hyla_calloc(1, sizeof *q);
    if (!q) return HYLA_ERR_NO_MEMORY;
    q->t = t;
    q->n = n;
    q->kd = kd;
    q->nb = HYLA_MAX(kd, 1);
    q->ldv = kd + q->nb - 1;
    q->nsg = n >= 2 && kd >= 1 ? HYLA_CEILDIV(n - 1, q->nb) : 0;
    q->gsz = q->ldv * q->nb + q->nb * q->nb;
    q->goff = hyla_malloc(sizeof *q->goff * (size_t)(q->nsg + 1));
    if (!q->goff) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    q->goff[0] = 0;
    for (int64_t s = 0; s < q->nsg; s++)
        q->goff[s + 1] = q->goff[s] + sweep_steps(n, kd, s * q->nb) * q->gsz;
    q->data = hyla_calloc((size_t)HYLA_MAX(q->goff[q->nsg], 1), hyla_dtype_size(t));
    if (!q->data) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    *out = q;
    return 0;
cleanup:
    hyla_sb2st_q_free(&q);
    return rc;
}

/* One entry of the progress table, alone in its cache line: each is written
 * by one thread and polled by the next. */
typedef struct {
    atomic_int done;
    char pad[64 - sizeof(atomic_int)];
} sb2st_progress;

/* Busy wait, yielding the core after a while (the host may be shared). */
static void wait_progress(sb2st_progress *p, int need) {
    int spins = 0;
    while (atomic_load_explicit(&p->done, memory_order_acquire) < need)
        if (++spins > 64) sched_yield();
}

/* Steps by which sweep i trails sweep i-1 (see the dependencies above). */
#define SB2ST_LAG 2

/* Bytes of the reflector store per upload of the back transformation: an
 * eighth of it, at most 64 MiB. */
#define SB2ST_BACK_CHUNK(total) HYLA_MAX((size_t)1, HYLA_MIN((size_t)64 << 20, (total) / 8))

/* The chase's level-2 kernels get an AVX2 clone on x86-64, picked at load
 * time where the CPU has it (the library itself is built for the baseline). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SB2ST_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define SB2ST_KERNEL
#endif

/* Threads to use: OpenMP's maximum; 1 for a small band, where starting
 * threads costs more than it saves. */
static int auto_threads(int64_t n, int64_t kd) {
    return n * kd < 40000 ? 1 : omp_get_max_threads();
}

/* Sweeps per group of the pipelined chase. A group's steps at one time
 * touch about 2*G blocks of 2*kd x kd elements, which should stay in the
 * core's cache (about 512 KiB). But a group runs M + 2G times (M = n/kd
 * steps per sweep) and the next group trails it by 2G times, which limits
 * the threads kept busy: a simulation of the schedule (unit steps) gives
 * 80-95 % of nt threads busy for G <= M / (8 (nt - 1)) (n = 16384, kd = 64,
 * 16 threads: G = 2, 95 %; G = 8 would give 52 %). */
static int64_t sweep_group(int64_t n, int64_t kd, size_t elem, int nt) {
    const int64_t blk = 2 * kd * kd * (int64_t)elem, M = (n - 1) / kd;
    int64_t G = HYLA_MIN(32, ((int64_t)512 << 10) / (2 * blk));
    if (nt > 1) G = HYLA_MIN(G, M / (8 * (nt - 1)));
    return HYLA_MAX(1, G);
}

#define TS(x) PS(x)
#define HYLA_TEMPLATE "eig/t_sb2st.c"
#include "core/each_prec.h"
#undef TS

int hyla_eig_sb2st_threads(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t kd, void *AB,
                           int64_t ldab, void *d, void *e, hyla_sb2st_q **q, int nthreads) {
    (void)ctx;
    if (q) *q = NULL;
    if (n < 0 || kd < 0 || ldab < kd + 1 || nthreads < 0 || (n > 0 && (!AB || !d)) ||
        (n > 1 && !e))
        return HYLA_ERR_INVALID;
    switch (t) {
    case HYLA_S: return chase_s(n, kd, AB, ldab, d, e, q, nthreads);
    case HYLA_D: return chase_d(n, kd, AB, ldab, d, e, q, nthreads);
    case HYLA_C: return chase_c(n, kd, AB, ldab, d, e, q, nthreads);
    case HYLA_Z: return chase_z(n, kd, AB, ldab, d, e, q, nthreads);
    }
    return HYLA_ERR_INVALID;
}

int hyla_eig_sb2st(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t kd, void *AB, int64_t ldab,
                   void *d, void *e, hyla_sb2st_q **q) {
    return hyla_eig_sb2st_threads(ctx, t, n, kd, AB, ldab, d, e, q, 0);
}

/* A scalar of dtype t with real value v, as the backend reads it. */
static void scalar_of(hyla_dtype t, double v, unsigned char out[16]) {
    memset(out, 0, 16);
    switch (t) {
    case HYLA_S: case HYLA_C: { float f = (float)v; memcpy(out, &f, sizeof f); break; }
    case HYLA_D: case HYLA_Z: memcpy(out, &v, sizeof v); break;
    }
}

/* Q2 dZ by groups: W = V^H Z(rows), W := T W, Z(rows) -= V W (LAPACK larfb,
 * forward columnwise, on the backend), in order on one queue. One queue
 * rather than column slices of Z on several: the slices would multiply the
 * calls, whose issue on a GPU costs about as much as the work of one
 * full-width call at kd ~ 64. The store goes up in chunks of sweep groups
 * on a second queue, in the order of use, each issued before the groups of
 * the previous chunk: the host's copy out of pageable memory overlaps the
 * device's work, which waits on an event for its chunk. On the host backend
 * the store is already in the device's memory and is used where it is; and
 * Z -= (V T) W replaces W := T W, Z -= V W: V T is formed per group (a copy
 * and a small TRMM) instead of a TRMM over all ncols columns, which at the
 * host's rates costs an eighth of the GEMMs' time. */
int hyla_eig_sb2st_back(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols, void *dZ,
                        int64_t lddz) {
    if (!ctx || !q) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    if (ncols < 0 || lddz < HYLA_MAX(1, q->n) || (!dZ && ncols > 0 && q->n > 0))
        return HYLA_ERR_INVALID;
    if (ncols == 0 || q->nsg == 0) return 0;
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(q->t);
    const int64_t n = q->n, kd = q->kd, nb = q->nb, ldv = q->ldv;
    const int host = d->info.kind == HYLA_DEVICE_HOST;
    void *dq = NULL, *dw = NULL, *du = NULL;
    hyla_event *ev = NULL;
    hyla_dev_workspace *ws;
    unsigned char one[16], mone[16], zero[16];
    scalar_of(q->t, 1, one);
    scalar_of(q->t, -1, mone);
    scalar_of(q->t, 0, zero);
    int rc = hyla_workspace_get(ctx, dev, 0, 0, &ws);
    if (rc) return rc;
    hyla_queue *qc = ws->q_comp, *qi = ws->q_in;
    if (host)
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(ldv * nb) * es, &du));
    else
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)q->goff[q->nsg] * es, &dq));
    HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(nb * ncols) * es, &dw));
    HYLA_TRY(o->event_create(d, 0, &ev));
    const size_t chunk = SB2ST_BACK_CHUNK((size_t)q->goff[q->nsg] * es);
    const char *store = host ? (const char *)q->data : (const char *)dq;
    int64_t up = host ? 0 : q->nsg; /* sweep groups from `up` on are uploaded (or issued) */
    for (int64_t s = q->nsg - 1; s >= 0; s--) {
        if (s < up) {
            int64_t lo = s;
            while (lo > 0 && (size_t)(q->goff[s + 1] - q->goff[lo]) * es < chunk) lo--;
            const size_t off = (size_t)q->goff[lo] * es, bytes = (size_t)q->goff[s + 1] * es - off;
            HYLA_TRY(o->copy_2d(qi, (char *)dq + off, bytes, (const char *)q->data + off, bytes,
                                bytes, 1, HYLA_COPY_H2D));
            HYLA_TRY(o->event_record(ev, qi));
            HYLA_TRY(o->queue_wait_event(qc, ev));
            up = lo;
        }
        const int64_t a = s * nb, nbs = HYLA_MIN(nb, n - 1 - a);
        const int64_t ng = (q->goff[s + 1] - q->goff[s]) / q->gsz;
        for (int64_t m = 0; m < ng; m++) {
            const char *V = store + (size_t)(q->goff[s] + m * q->gsz) * es;
            const char *Tm = V + (size_t)(ldv * nb) * es;
            const int64_t r0 = a + 1 + m * kd, h = HYLA_MIN(ldv, n - r0);
            char *Z = (char *)dZ + (size_t)r0 * es;
            HYLA_TRY(o->gemm(qc, q->t, HYLA_CONJTRANS, HYLA_NOTRANS, nbs, ncols, h, one, V, ldv,
                             Z, lddz, zero, dw, nb));
            if (host) {
                HYLA_TRY(o->copy_2d(qc, du, (size_t)ldv * es, V, (size_t)ldv * es,
                                    (size_t)h * es, (size_t)nbs, HYLA_COPY_D2D));
                HYLA_TRY(o->trmm(qc, q->t, HYLA_RIGHT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, h,
                                 nbs, one, Tm, nb, du, ldv));
                HYLA_TRY(o->gemm(qc, q->t, HYLA_NOTRANS, HYLA_NOTRANS, h, ncols, nbs, mone, du,
                                 ldv, dw, nb, one, Z, lddz));
                continue;
            }
            HYLA_TRY(o->trmm(qc, q->t, HYLA_LEFT, HYLA_UPPER, HYLA_NOTRANS, HYLA_NONUNIT, nbs,
                             ncols, one, Tm, nb, dw, nb));
            HYLA_TRY(o->gemm(qc, q->t, HYLA_NOTRANS, HYLA_NOTRANS, h, ncols, nbs, mone, V, ldv,
                             dw, nb, one, Z, lddz));
        }
    }
cleanup:;
    int rs = o->queue_sync(qi), rs2 = o->queue_sync(qc);
    if (!rc) rc = rs ? rs : rs2;
    o->event_destroy(ev);
    o->mem_free(d, HYLA_MEM_DEVICE, dw);
    o->mem_free(d, HYLA_MEM_DEVICE, du);
    o->mem_free(d, HYLA_MEM_DEVICE, dq);
    return rc;
}
