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
 * holds the reflectors of step m of the nb sweeps a = s*nb .. a+nb-1
 * (1 <= nb <= hyla_hb2st_max_nb(kd) = min(4 kd, 256); default kd, or for
 * a device-resident store the tuning table's one-call Q2 shape). Their
 * rows start at a+1+m*kd and shift by one per sweep, so V is a staircase
 * (kd+nb-1) x nb matrix (unit first entries stored, zeros elsewhere) and
 * the group's product
 * H_a H_{a+1} ... = I - V T V^H (T upper, LAPACK larft forward
 * columnwise). Q2 is the product of all reflectors in the order they were
 * made. A reflector of sweep i step m is disjoint from any of sweep
 * i' <= i step m' < m (it starts past the other's end), so within a sweep
 * group the product reorders to G(s, M) ... G(s, 1) G(s, 0), and
 * Q2 = Q_0 Q_1 ... with Q_s that product. Hence Q2 Z applies the sweep
 * groups last first, and within one, G(s, 0), G(s, 1), ... in this order.
 * V's zeros cost flops: the back transformation does 2 n^2 ncols
 * (kd+nb-1)/kd, 4 n^2 ncols for nb = kd, 3 n^2 ncols for nb = kd/2, but
 * its GEMMs get an inner dimension of nb only.
 *
 * Waves. With nsg sweep groups, let u = nsg-1-s; sweep group s has
 * M(u) = steps of sweep s*nb (nondecreasing in u) groups m = 0..M(u)-1;
 * group (s, m) covers rows p+1 .. p+kd+nb-1, p = s*nb + m*kd. Two groups
 * that share a row must be applied in the order above; any two that do not
 * commute. Put group (s, m) in wave t = u + m: for a sharing pair with
 * s' = s + ds, ds >= 1 (applied first), |p' - p| <= kd+nb-2 gives
 * m' - m <= (kd + nb - 2 - ds*nb)/kd < ds, so t' < t; within one s, m' =
 * m-1. The groups of wave t are u = u_lo(t) .. min(t, nsg-1) (u + M(u) > t,
 * an interval as u + M(u) increases), and consecutive ones (u-1, m+1)
 * start kd+nb rows apart: they are disjoint. So Q2 Z is the waves in
 * increasing t, each a batch of independent block reflectors at a constant
 * row stride: one strided-batched GEMM for each of V T, V^H Z and
 * Z - (V T) W, instead of three calls per group (at n = 16384,
 * kd = nb = 64: about 2 500 calls instead of 99 000). The store keeps the
 * groups in this order: wave after wave, in a wave by increasing rows
 * (u decreasing), each group V (ldv*nb) then T (nb*nb), so a wave's V and
 * T are at a constant stride. Only the last group of a wave can reach past
 * row n-1 (its V rows there are zero); it is applied on its own.
 *
 * The store can also live in a device's memory (hyla_sb2st_q_create_dev):
 * the device chase (eig/phb2st_dev.c, the backend's hb2st_v op) fills it
 * there in this layout, and the back transformation reads it in place. */

/* Finite data only (NaN/Inf are refused first): complex products need no
 * C99 Annex G recovery, whose slow path would keep the loops scalar. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("cx-limited-range")
#endif
#include "eig/psb2st.h"
#include <complex.h>
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

struct hyla_sb2st_q {
    hyla_dtype t;
    int64_t n, kd;     /* order and band width actually chased (kd <= n-1) */
    int64_t nb, ldv;   /* sweeps per group; rows of a group's V (kd+nb-1) */
    int64_t nsg;       /* sweep groups */
    int64_t nw;        /* waves: nsg - 1 + steps of sweep 0 (0 when nsg = 0) */
    int64_t *woff;     /* nw+1 offsets (in elements) of each wave's first group */
    int64_t gsz;       /* elements of one group: V (ldv*nb), then T (nb*nb) */
    void *data;        /* woff[nw] elements of type t (host, or device ddev's memory) */
    hyla_dev *ddev;    /* NULL: a host store; else the device holding data and dwoff */
    void *dwoff;       /* device-resident store: woff's copy in ddev's memory */
};

/* Steps of sweep i (0 <= i <= n-2): blocks of kd rows below row i. */
static inline int64_t sweep_steps(int64_t n, int64_t kd, int64_t i) {
    return HYLA_CEILDIV(n - 1 - i, kd);
}

void hyla_sb2st_q_free(hyla_sb2st_q **q) {
    if (!q || !*q) return;
    hyla_free((*q)->woff);
    if ((*q)->ddev) {
        (*q)->ddev->ops->mem_free((*q)->ddev, HYLA_MEM_DEVICE, (*q)->data);
        (*q)->ddev->ops->mem_free((*q)->ddev, HYLA_MEM_DEVICE, (*q)->dwoff);
    } else {
        hyla_free((*q)->data);
    }
    hyla_free(*q);
    *q = NULL;
}

/* Groups in wave t: u = wave_umax(..) down to u_lo(t), first the largest u
 * (the lowest rows); woff gives the count. */
static inline int64_t wave_umax(int64_t nsg, int64_t t) { return HYLA_MIN(t, nsg - 1); }
static inline int64_t wave_count(const hyla_sb2st_q *q, int64_t t) {
    return (q->woff[t + 1] - q->woff[t]) / q->gsz;
}

/* Offset (elements) of group (s, m) in the store. */
static inline int64_t q_group(const hyla_sb2st_q *q, int64_t s, int64_t m) {
    const int64_t u = q->nsg - 1 - s, t = u + m;
    return q->woff[t] + (wave_umax(q->nsg, t) - u) * q->gsz;
}

/* An empty store for order n, band width kd (kd >= 1 when n >= 2) and nb
 * sweeps per group (0: kd; at most hyla_hb2st_max_nb(kd)), its groups zeroed; dev non-NULL:
 * the layout only (data NULL, for a device-resident store). */
static int q_create(hyla_dtype t, int64_t n, int64_t kd, int64_t nb, hyla_sb2st_q **out,
                    hyla_dev *dev) {
    int rc = 0;
    hyla_sb2st_q *q = hyla_calloc(1, sizeof *q);
    if (!q) return HYLA_ERR_NO_MEMORY;
    q->t = t;
    q->n = n;
    q->kd = kd;
    q->nb = nb > 0 ? HYLA_MIN(nb, hyla_hb2st_max_nb(kd)) : HYLA_MAX(kd, 1);
    q->ldv = kd + q->nb - 1;
    q->nsg = n >= 2 && kd >= 1 ? HYLA_CEILDIV(n - 1, q->nb) : 0;
    q->nw = q->nsg > 0 ? q->nsg - 1 + sweep_steps(n, kd, 0) : 0;
    q->gsz = q->ldv * q->nb + q->nb * q->nb;
    q->woff = hyla_calloc((size_t)(q->nw + 1), sizeof *q->woff);
    if (!q->woff) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    /* group counts per wave (in woff[t+1]), then their prefix sums */
    for (int64_t u = 0; u < q->nsg; u++)
        for (int64_t m = 0, M = sweep_steps(n, kd, (q->nsg - 1 - u) * q->nb); m < M; m++)
            q->woff[u + m + 1] += q->gsz;
    for (int64_t w = 0; w < q->nw; w++) q->woff[w + 1] += q->woff[w];
    if (dev) {
        *out = q;
        return 0;
    }
    q->data = hyla_calloc((size_t)HYLA_MAX(q->woff[q->nw], 1), hyla_dtype_size(t));
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

/* Bytes of W (a wave's V^H Z blocks) at most per batch of the back
 * transformation: 1 GiB, about 128 groups at n = ncols = 16384, kd = 64, d.
 * Each batch's two GEMMs run over all columns at once: on one H100 (n =
 * 16384, d, with vectors) they are bound by memory (about 2.3 TB/s, Z read
 * twice and written once, W once each way), but running them on blocks of
 * columns small enough for a batch's rows of Z and its W to stay in L2
 * (12-36 MB a pair) took back2 from 0.86 s to 1.22-1.93 s. */
#define SB2ST_BACK_W ((size_t)1 << 30)

/* Groups per batch when Z = I on entry (Q2 formed explicitly): each batch
 * starts at the first column its first group can change, so smaller batches
 * skip more columns (all of the skippable ones with one group per batch:
 * 20 % of the wave-level flops at n = 16384, kd = nb = 64), at the price of
 * more launches. */
#ifndef SB2ST_BACK_IDENT_BATCH
#define SB2ST_BACK_IDENT_BATCH 32
#endif

/* The chase's level-2 kernels get AVX-512 and AVX2+FMA (haswell) clones on
 * x86-64, picked at load time where the CPU has them (the library itself is
 * built for the baseline). FMA: n = 3000, kd = 64, one thread, 12 % less
 * time than the AVX2 clone without it. The clone is one per process, so
 * serial and pipelined chases still agree bitwise. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SB2ST_KERNEL __attribute__((target_clones("avx512f", "arch=haswell", "default")))
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

/* The band as it arrives from a stage 1 running at the same time (see
 * hyla_band_feed in psy2sb.h): copied column by column into the working band
 * under mu, copied counting the columns there. */
typedef struct {
    hyla_band_feed *feed;
    const void *AB;
    int64_t ldab, kd;
    _Atomic int64_t copied;
    pthread_mutex_t mu;
    int nonfinite;
} band_feed_in;

/* Waits until stage 1 has finished at least c band columns (or stopped);
 * returns how many it has finished. The wait sleeps a little between looks:
 * the thread that drives stage 1 needs a core. */
static int64_t band_feed_wait(hyla_band_feed *f, int64_t c) {
    int64_t r;
    while ((r = atomic_load_explicit(&f->ready, memory_order_acquire)) < c) {
        const struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
    }
    return r;
}

/* Sweeps per group of a store that device d applies, by default: those of
 * the tuning table's one-call Q2 shape where kd is its band width, else 0
 * (kd, for the batched GEMMs). */
static int64_t q2_kernel_nb(const hyla_dev *d, hyla_dtype t, int64_t kd) {
    const hyla_tuning *tu = hyla_tuning_for(d);
    return tu->eig_q2_kd[t] > 0 && kd == tu->eig_q2_kd[t] ? tu->eig_q2_nb[t] : 0;
}

/* hyla_sb2st_q_create_dev with nb sweeps per group asked for (0: the
 * default) */
static int q_create_on(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, int64_t nb,
                       hyla_sb2st_q **out, hyla_hb2st_store *st) {
    if (out) *out = NULL;
    if (!ctx || !out || !st || (unsigned)t > HYLA_Z || n < 0 || kd < 0 ||
        kd > HYLA_MAX(n - 1, 0))
        return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    hyla_dev *d = ctx->devs[dev];
    hyla_sb2st_q *q = NULL;
    /* by default the one-call shape, unless the batched GEMMs are asked for */
    if (nb <= 0 && ctx->opt_eig_back2 != 1) nb = q2_kernel_nb(d, t, kd);
    int rc = q_create(t, n, kd, nb, &q, d);
    if (rc) return rc;
    q->ddev = d;
    const size_t wbytes = sizeof(int64_t) * (size_t)(q->nw + 1);
    HYLA_TRY(d->ops->mem_alloc(d, HYLA_MEM_DEVICE,
                               (size_t)HYLA_MAX(q->woff[q->nw], 1) * hyla_dtype_size(t), &q->data));
    HYLA_TRY(d->ops->mem_alloc(d, HYLA_MEM_DEVICE, wbytes, &q->dwoff));
    hyla_dev_workspace *ws;
    HYLA_TRY(hyla_workspace_get(ctx, dev, 0, 0, &ws));
    HYLA_TRY(d->ops->copy_2d(ws->q_in, q->dwoff, wbytes, q->woff, wbytes, wbytes, 1,
                             HYLA_COPY_H2D));
    HYLA_TRY(d->ops->queue_sync(ws->q_in));
    *st = (hyla_hb2st_store){.data = q->data, .woff = q->dwoff, .nb = q->nb, .ldv = q->ldv,
                             .gsz = q->gsz, .nsg = q->nsg, .nw = q->nw,
                             .ngroups = q->woff[q->nw] / q->gsz};
    *out = q;
    return 0;
cleanup:
    hyla_sb2st_q_free(&q);
    return rc;
}

int hyla_sb2st_q_create_dev(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd,
                            hyla_sb2st_q **out, hyla_hb2st_store *st) {
    return q_create_on(ctx, dev, t, n, kd, ctx ? ctx->opt_eig_back2_nb : 0, out, st);
}

int hyla_sb2st_q_device(const hyla_sb2st_q *q) { return q && q->ddev ? q->ddev->index : -1; }

size_t hyla_sb2st_q_bytes(const hyla_sb2st_q *q) {
    return q ? (size_t)q->woff[q->nw] * hyla_dtype_size(q->t) : 0;
}

int hyla_sb2st_q_copy(hyla_t *ctx, const hyla_sb2st_q *q, int dev, hyla_sb2st_q **out) {
    if (out) *out = NULL;
    if (!ctx || !q || !out) return HYLA_ERR_INVALID;
    if (dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    hyla_dev *d = dev >= 0 ? ctx->devs[dev] : NULL;
    hyla_sb2st_q *c = NULL;
    const size_t bytes = (size_t)HYLA_MAX(q->woff[q->nw], 1) * hyla_dtype_size(q->t);
    hyla_hb2st_store st;
    int rc = d ? q_create_on(ctx, dev, q->t, q->n, q->kd, q->nb, &c, &st)
               : q_create(q->t, q->n, q->kd, q->nb, &c, NULL);
    if (rc) return rc;
    if (c->nb != q->nb || c->woff[c->nw] != q->woff[q->nw]) HYLA_TRY(HYLA_ERR_INTERNAL);
    if (!d && !q->ddev) {
        memcpy(c->data, q->data, bytes);
    } else {
        /* the copy runs on the receiving device, or on the holding one when
         * it goes to the host */
        hyla_dev *cd = d ? d : q->ddev;
        hyla_dev_workspace *ws;
        HYLA_TRY(hyla_workspace_get(ctx, cd->index, 0, 0, &ws));
        HYLA_TRY(cd->ops->copy_2d(ws->q_in, c->data, bytes, q->data, bytes, bytes, 1,
                                  !d ? HYLA_COPY_D2H : q->ddev ? HYLA_COPY_D2D : HYLA_COPY_H2D));
        HYLA_TRY(cd->ops->queue_sync(ws->q_in));
    }
    *out = c;
    return 0;
cleanup:
    hyla_sb2st_q_free(&c);
    return rc;
}

#define TS(x) PS(x)
#define HYLA_TEMPLATE "eig/t_sb2st.c"
#include "base/each_prec.h"
#undef TS

int hyla_eig_sb2st_threads(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t kd, void *AB,
                           int64_t ldab, void *d, void *e, hyla_sb2st_q **q, int nthreads) {
    return hyla_eig_sb2st_fed(ctx, t, n, kd, AB, ldab, d, e, q, NULL, nthreads);
}

int hyla_eig_sb2st_overlaps(int64_t n, int64_t kd) { return auto_threads(n, kd) > 1; }

int hyla_eig_sb2st_fed(hyla_t *ctx, hyla_dtype t, int64_t n, int64_t kd, void *AB, int64_t ldab,
                       void *d, void *e, hyla_sb2st_q **q, hyla_band_feed *feed, int nthreads) {
    if (q) *q = NULL;
    const int64_t qnb = ctx ? ctx->opt_eig_back2_nb : 0;
    if (n < 0 || kd < 0 || ldab < kd + 1 || nthreads < 0 || (n > 0 && (!AB || !d)) ||
        (n > 1 && !e))
        return HYLA_ERR_INVALID;
    switch (t) {
    case HYLA_S: return chase_s(n, kd, AB, ldab, d, e, q, nthreads, qnb, feed);
    case HYLA_D: return chase_d(n, kd, AB, ldab, d, e, q, nthreads, qnb, feed);
    case HYLA_C: return chase_c(n, kd, AB, ldab, d, e, q, nthreads, qnb, feed);
    case HYLA_Z: return chase_z(n, kd, AB, ldab, d, e, q, nthreads, qnb, feed);
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

/* Q2 dZ wave by wave (see the top of the file): for the groups of a wave,
 * at once, VT = V T, W = V^H Z(rows), Z(rows) -= VT W (LAPACK larfb,
 * forward columnwise, with T folded into V), in order on one queue; the
 * wave's last group separately where it reaches past row n-1. W holds a
 * batch of nb x ncols blocks; when memory is short, a wave goes in several
 * batches. The host backend takes batches of one by default: it has no
 * launch cost, and one group's W then stays in cache between its two
 * GEMMs (batches of a whole wave: 18 % more CPU time, n = 3000). The store goes up in chunks of waves on a second queue, in the
 * order of use, each issued after the work of the previous chunk: the
 * host's copy out of pageable memory overlaps the device's work, which
 * waits on an event for its chunk. On the host backend the store is
 * already in the device's memory and is used where it is. */
/* Q2 dZ through the backend's q2_apply op, one call (CUDA: one kernel that
 * skips V's zeros and keeps rows of Z in shared memory across several sweep
 * groups; backend/cuda/k_q2.cu). A host store and its wave offsets go up
 * first on qc; a device-resident one, or the host backend's, is used where
 * it is. Returns
 * HYLA_ERR_UNSUPPORTED, having changed nothing, when the backend does not
 * take the shape. calls and flops as hyla_eig_sb2st_back_q counts them
 * (the flops the op does: V's staircase and T, not V's zeros). */
static int back_op(hyla_dev *d, const hyla_sb2st_q *q, int64_t ncols, void *dZ, int64_t lddz,
                   hyla_queue *qc, int identity, int64_t col0, int64_t *calls, double *flops) {
    const hyla_backend_ops *o = d->ops;
    const int host = d->ops->mem_host, resident = host || q->ddev;
    const size_t es = hyla_dtype_size(q->t), sbytes = (size_t)q->woff[q->nw] * es,
                 obytes = (size_t)(q->nw + 1) * sizeof(int64_t);
    void *dq = NULL, *dwo = NULL;
    int rc = 0;
    if (!resident) {
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, sbytes, &dq));
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, obytes, &dwo));
        HYLA_TRY(o->copy_2d(qc, dq, sbytes, q->data, sbytes, sbytes, 1, HYLA_COPY_H2D));
        HYLA_TRY(o->copy_2d(qc, dwo, obytes, q->woff, obytes, obytes, 1, HYLA_COPY_H2D));
    }
    const hyla_q2_args a = {.n = q->n, .kd = q->kd, .nb = q->nb, .ldv = q->ldv, .nsg = q->nsg,
                            .nw = q->nw, .gsz = q->gsz,
                            .woff = host ? q->woff : q->ddev ? q->dwoff : dwo,
                            .store = resident ? q->data : dq, .ncols = ncols, .Z = dZ, .ldz = lddz,
                            .identity = identity, .col0 = col0};
    HYLA_TRY(o->alg->q2_apply(qc, q->t, &a));
    double f = 0;
    for (int64_t s = 0; s < q->nsg; s++) {
        const int64_t nc =
            identity ? HYLA_MAX(0, ncols - HYLA_MAX(0, s * q->nb + 1 - col0)) : ncols;
        f += (double)hyla_q2_steps(q->n, q->kd, s * q->nb) *
             (4.0 * (double)(q->kd * q->nb) + 2.0 * (double)(q->nb * q->nb)) * (double)nc;
    }
    if (calls) *calls = 1;
    if (flops) *flops = (q->t == HYLA_C || q->t == HYLA_Z ? 4 : 1) * f;
cleanup:;
    int rs = o->queue_sync(qc);
    if (!rc) rc = rs;
    o->mem_free(d, HYLA_MEM_DEVICE, dwo);
    o->mem_free(d, HYLA_MEM_DEVICE, dq);
    return rc;
}

int hyla_eig_sb2st_back_count(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols,
                              void *dZ, int64_t lddz, int64_t max_batch, int64_t *calls,
                              double *flops) {
    hyla_dev_workspace *ws;
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    int rc = hyla_workspace_get(ctx, dev, 0, 0, &ws);
    if (rc) return rc;
    return hyla_eig_sb2st_back_q(ctx, dev, q, ncols, dZ, lddz, max_batch, calls, flops,
                                 ws->q_comp, ws->q_in, 0, 0);
}

int hyla_eig_sb2st_back_q(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols, void *dZ,
                          int64_t lddz, int64_t max_batch, int64_t *calls, double *flops,
                          hyla_queue *qc, hyla_queue *qi, int identity, int64_t col0) {
    if (calls) *calls = 0;
    if (flops) *flops = 0;
    if (!ctx || !q || max_batch < 0) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    if (ncols < 0 || lddz < HYLA_MAX(1, q->n) || (!dZ && ncols > 0 && q->n > 0) ||
        (identity && (col0 < 0 || col0 + ncols > q->n)))
        return HYLA_ERR_INVALID;
    if (q->ddev && q->ddev != ctx->devs[dev]) return HYLA_ERR_INVALID;
    if (ncols == 0 || q->nsg == 0) return 0;
    hyla_dev *d = ctx->devs[dev];
    const hyla_backend_ops *o = d->ops;
    const size_t es = hyla_dtype_size(q->t);
    const int64_t n = q->n, kd = q->kd, nb = q->nb, ldv = q->ldv, gsz = q->gsz, nsg = q->nsg;
    const int host = d->ops->mem_host;
    /* the store where the GEMMs read it: the host backend's is in its
     * memory, a device-resident one is there already; else uploaded */
    const int resident = host || q->ddev;
    /* the one-call op when asked for, or by default for the store shape
     * the tuning table gives it (q2_kernel_nb: double at kd 64 in groups of
     * 32 on Hopper, the tensor-core kernel); max_batch > 0 asks for the
     * batched GEMMs. Complex types run on CUDA cores and stay on GEMMs */
    /* (the kernel gives each CTA a slab of Z's columns that it walks
     * through every reflector: narrow Z leaves SMs idle, where the GEMMs
     * spread a wave's groups over them; eig_q2_kernel_min_cols) */
    const int op_default = ctx->opt_eig_back2 == 0 && q->nb == q2_kernel_nb(d, q->t, q->kd) &&
                           (identity || ncols >= hyla_tuning_for(d)->eig_q2_kernel_min_cols);
    if (o->alg->q2_apply && max_batch == 0 && (ctx->opt_eig_back2 == 2 || op_default)) {
        const int rk = back_op(d, q, ncols, dZ, lddz, qc, identity, col0, calls, flops);
        if (rk != HYLA_ERR_UNSUPPORTED) return rk;
    }
    void *dq = NULL, *dw = NULL, *dvt = NULL;
    hyla_event *ev = NULL;
    unsigned char one[16], mone[16], zero[16];
    int64_t ncall = 0;
    double nflop = 0;
    scalar_of(q->t, 1, one);
    scalar_of(q->t, -1, mone);
    scalar_of(q->t, 0, zero);
    int rc = 0;
    if (!resident)
        HYLA_TRY(o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)q->woff[q->nw] * es, &dq));
    /* batch: the largest wave, or what SB2ST_BACK_W bytes of W or the
     * device's memory take (halving down to one group), or max_batch */
    int64_t bmax = 1;
    for (int64_t w = 0; w < q->nw; w++) bmax = HYLA_MAX(bmax, wave_count(q, w));
    bmax = HYLA_MAX(1, HYLA_MIN(bmax, (int64_t)(SB2ST_BACK_W / ((size_t)(nb * ncols) * es))));
    if (max_batch > 0) bmax = HYLA_MIN(bmax, max_batch);
    else if (host) bmax = 1; /* no launch cost: one group's W stays in cache */
    for (;;) {
        rc = o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(bmax * nb * ncols) * es, &dw);
        if (!rc) rc = o->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(bmax * ldv * nb) * es, &dvt);
        if (!rc || bmax == 1 ||
            (rc != HYLA_ERR_NO_MEMORY && rc != HYLA_ERR_DEVICE_MEMORY))
            break;
        o->mem_free(d, HYLA_MEM_DEVICE, dw);
        dw = NULL;
        bmax = (bmax + 1) / 2;
    }
    if (rc) goto cleanup;
    HYLA_TRY(o->event_create(d, 0, &ev));
    const size_t chunk = SB2ST_BACK_CHUNK((size_t)q->woff[q->nw] * es);
    const char *store = resident ? (const char *)q->data : (const char *)dq;
    int64_t up = resident ? q->nw : 0; /* waves before `up` are uploaded (or issued) */
#define COUNT(m_, n_, k_, b_) (ncall++, nflop += 2.0 * (double)(m_) * (double)(n_) * (double)(k_) * (double)(b_))
    for (int64_t t = 0; t < q->nw; t++) {
        if (t >= up) {
            int64_t hi = t + 1;
            while (hi < q->nw && (size_t)(q->woff[hi] - q->woff[t]) * es < chunk) hi++;
            const size_t off = (size_t)q->woff[t] * es, bytes = (size_t)q->woff[hi] * es - off;
            HYLA_TRY(o->copy_2d(qi, (char *)dq + off, bytes, (const char *)q->data + off, bytes,
                                bytes, 1, HYLA_COPY_H2D));
            HYLA_TRY(o->event_record(ev, qi));
            HYLA_TRY(o->queue_wait_event(qc, ev));
            up = hi;
        }
        const int64_t cnt = wave_count(q, t), u0 = wave_umax(nsg, t), zs = kd + nb;
        const int64_t r00 = (nsg - 1 - u0) * nb + (t - u0) * kd + 1; /* the first group's rows */
        /* Z = I on entry: when group (s, m) comes, the groups applied
         * before it that touch its rows are from sweep groups s and up,
         * whose reflectors act on rows from s nb + 1 on, so the columns
         * before that are still those of I, zero in its rows, and it leaves
         * them alone. Group k0 of the wave is from sweep group
         * nsg-1-u0+k0, so a batch starts at its first group's column. */
        const int64_t bw = identity ? HYLA_MIN(bmax, SB2ST_BACK_IDENT_BATCH) : bmax;
        /* double: W stored transposed, W^H = Z(rows)^H V, which cuBLAS runs
         * faster than V^H Z (the ncols-long dimension first): one H100, n =
         * 16384 with vectors, back2 0.826-0.827 s against 0.857-0.863 s,
         * 8192 0.105-0.107 against 0.112-0.120 s (two runs each, the same
         * binary's two forms); complex double went the other way (2.55
         * against 2.12-2.13 s); single precision was not measured */
        const int wt = q->t == HYLA_D;
        for (int64_t k0 = 0; k0 < cnt; k0 += bw) {
            const int64_t c0 = identity ? HYLA_MIN(ncols, HYLA_MAX(0, (nsg - 1 - u0 + k0) * nb + 1 -
                                                                       col0))
                                        : 0,
                          nc = ncols - c0;
            if (nc == 0) continue;
            const int64_t nbt = HYLA_MIN(bw, cnt - k0), r0 = r00 + zs * k0;
            const int64_t rl = r0 + zs * (nbt - 1); /* the batch's last group */
            const int64_t full = rl + ldv <= n ? nbt : nbt - 1;
            const char *V = store + (size_t)(q->woff[t] + k0 * gsz) * es;
            const char *Tm = V + (size_t)(ldv * nb) * es;
            char *Z = (char *)dZ + (size_t)(r0 + c0 * lddz) * es;
            HYLA_TRY(o->gemm_strided_batched(qc, q->t, HYLA_NOTRANS, HYLA_NOTRANS, ldv, nb, nb,
                                             one, V, ldv, gsz, Tm, nb, gsz, zero, dvt, ldv,
                                             ldv * nb, nbt));
            COUNT(ldv, nb, nb, nbt);
            /* W = V^H Z(rows) (nb x nc), or with wt W^H = Z(rows)^H V (nc x
             * nb); then Z(rows) -= (V T) W */
            const int64_t wm = wt ? nc : nb, wn = wt ? nb : nc;
            const hyla_op wop = wt ? HYLA_CONJTRANS : HYLA_NOTRANS;
            if (full > 0) {
                HYLA_TRY(o->gemm_strided_batched(
                    qc, q->t, HYLA_CONJTRANS, HYLA_NOTRANS, wm, wn, ldv, one, wt ? Z : V,
                    wt ? lddz : ldv, wt ? zs : gsz, wt ? V : Z, wt ? ldv : lddz, wt ? gsz : zs,
                    zero, dw, wm, nb * nc, full));
                HYLA_TRY(o->gemm_strided_batched(qc, q->t, HYLA_NOTRANS, wop, ldv, nc, nb, mone,
                                                 dvt, ldv, ldv * nb, dw, wm, nb * nc, one, Z, lddz,
                                                 zs, full));
                COUNT(nb, nc, ldv, full);
                COUNT(ldv, nc, nb, full);
            }
            if (full < nbt) {
                const int64_t h = n - rl;
                const char *Vl = V + (size_t)(full * gsz) * es;
                const char *VTl = (const char *)dvt + (size_t)(full * ldv * nb) * es;
                char *Zl = (char *)dZ + (size_t)(rl + c0 * lddz) * es;
                HYLA_TRY(o->gemm(qc, q->t, HYLA_CONJTRANS, HYLA_NOTRANS, wm, wn, h, one,
                                 wt ? Zl : Vl, wt ? lddz : ldv, wt ? Vl : Zl, wt ? ldv : lddz,
                                 zero, dw, wm));
                HYLA_TRY(o->gemm(qc, q->t, HYLA_NOTRANS, wop, h, nc, nb, mone, VTl, ldv, dw, wm,
                                 one, Zl, lddz));
                COUNT(nb, nc, h, 1);
                COUNT(h, nc, nb, 1);
            }
        }
    }
#undef COUNT
cleanup:;
    int rs = o->queue_sync(qi), rs2 = o->queue_sync(qc);
    if (!rc) rc = rs ? rs : rs2;
    o->event_destroy(ev);
    o->mem_free(d, HYLA_MEM_DEVICE, dw);
    o->mem_free(d, HYLA_MEM_DEVICE, dvt);
    o->mem_free(d, HYLA_MEM_DEVICE, dq);
    if (calls) *calls = ncall;
    if (flops) *flops = (q->t == HYLA_C || q->t == HYLA_Z ? 4 : 1) * nflop;
    return rc;
}

int hyla_eig_sb2st_back(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols, void *dZ,
                        int64_t lddz) {
    return hyla_eig_sb2st_back_count(ctx, dev, q, ncols, dZ, lddz, 0, NULL, NULL);
}
