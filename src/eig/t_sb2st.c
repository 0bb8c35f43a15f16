/* Bulge-chasing kernels and driver of stage 2, one source for s, d, c, z
 * (included by psb2st.c with TS(x) naming the precision's static functions),
 * and the public wrappers. */

#include "base/prec_cmath.h"
#include "base/t_householder.h"

/* Level-2 kernels of the chase, written here rather than called from the
 * host BLAS: OpenBLAS may start its own threads inside these small calls,
 * which from many OpenMP threads at once costs more than the work, and its
 * split may change the rounding. Column-major; lower triangles;
 * SB2ST_KERNEL adds AVX-512 / AVX2+FMA clones chosen at run time. Reductions run four
 * columns at a time so that their sums do not wait on each other. */

/* y := alpha op(A) x, op = A (ctrans == 0) or A^H (ctrans == 1); A is m x n */
SB2ST_KERNEL
static void TS(b_gemv)(int ctrans, int64_t m, int64_t n, T alpha, const T *A, int64_t lda,
                       const T *restrict x, T *restrict y) {
    int64_t c = 0;
    if (!ctrans) {
        for (int64_t r = 0; r < m; r++) y[r] = T_ZERO;
        for (; c + 4 <= n; c += 4) {
            const T *a0 = A + c * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
            const T f0 = alpha * x[c], f1 = alpha * x[c + 1], f2 = alpha * x[c + 2],
                    f3 = alpha * x[c + 3];
            for (int64_t r = 0; r < m; r++) y[r] += a0[r] * f0 + a1[r] * f1 + a2[r] * f2 + a3[r] * f3;
        }
        for (; c < n; c++) {
            const T *a0 = A + c * lda, f0 = alpha * x[c];
            for (int64_t r = 0; r < m; r++) y[r] += a0[r] * f0;
        }
        return;
    }
    for (; c + 4 <= n; c += 4) {
        const T *a0 = A + c * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        T s0 = T_ZERO, s1 = T_ZERO, s2 = T_ZERO, s3 = T_ZERO;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
        for (int64_t r = 0; r < m; r++) {
            s0 += TCONJ(a0[r]) * x[r];
            s1 += TCONJ(a1[r]) * x[r];
            s2 += TCONJ(a2[r]) * x[r];
            s3 += TCONJ(a3[r]) * x[r];
        }
        y[c] = alpha * s0;
        y[c + 1] = alpha * s1;
        y[c + 2] = alpha * s2;
        y[c + 3] = alpha * s3;
    }
    for (; c < n; c++) {
        const T *a0 = A + c * lda;
        T s0 = T_ZERO;
#pragma omp simd reduction(+ : s0)
        for (int64_t r = 0; r < m; r++) s0 += TCONJ(a0[r]) * x[r];
        y[c] = alpha * s0;
    }
}

/* A := A + alpha x y^H, A m x n */
SB2ST_KERNEL
static void TS(b_gerc)(int64_t m, int64_t n, T alpha, const T *restrict x, const T *restrict y,
                       T *A, int64_t lda) {
    for (int64_t c = 0; c < n; c++) {
        T *a = A + c * lda;
        const T f = alpha * TCONJ(y[c]);
        for (int64_t r = 0; r < m; r++) a[r] += x[r] * f;
    }
}

/* A := A + alpha x y^H, then z := A^H v, in one pass over A (m x n): four
 * columns at a time, each updated and then read while in registers */
SB2ST_KERNEL
static void TS(b_gerc_gemv)(int64_t m, int64_t n, T alpha, const T *restrict x,
                            const T *restrict y, T *A, int64_t lda, const T *restrict v,
                            T *restrict z) {
    int64_t c = 0;
    for (; c + 4 <= n; c += 4) {
        T *a0 = A + c * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        const T f0 = alpha * TCONJ(y[c]), f1 = alpha * TCONJ(y[c + 1]),
                f2 = alpha * TCONJ(y[c + 2]), f3 = alpha * TCONJ(y[c + 3]);
        T s0 = T_ZERO, s1 = T_ZERO, s2 = T_ZERO, s3 = T_ZERO;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
        for (int64_t r = 0; r < m; r++) {
            const T b0 = a0[r] + x[r] * f0, b1 = a1[r] + x[r] * f1, b2 = a2[r] + x[r] * f2,
                    b3 = a3[r] + x[r] * f3;
            a0[r] = b0, a1[r] = b1, a2[r] = b2, a3[r] = b3;
            s0 += TCONJ(b0) * v[r];
            s1 += TCONJ(b1) * v[r];
            s2 += TCONJ(b2) * v[r];
            s3 += TCONJ(b3) * v[r];
        }
        z[c] = s0, z[c + 1] = s1, z[c + 2] = s2, z[c + 3] = s3;
    }
    for (; c < n; c++) {
        T *a = A + c * lda;
        const T f = alpha * TCONJ(y[c]);
        T s0 = T_ZERO;
#pragma omp simd reduction(+ : s0)
        for (int64_t r = 0; r < m; r++) {
            a[r] += x[r] * f;
            s0 += TCONJ(a[r]) * v[r];
        }
        z[c] = s0;
    }
}

/* y := alpha A x, A Hermitian n x n, its lower triangle stored. Four
 * columns at a time below their 4 x 4 diagonal block: y and x are read once
 * for the four. */
SB2ST_KERNEL
static void TS(b_hemv)(int64_t n, T alpha, const T *A, int64_t lda, const T *restrict x,
                       T *restrict y) {
    for (int64_t r = 0; r < n; r++) y[r] = T_ZERO;
    int64_t c = 0;
    for (; c + 4 <= n; c += 4) {
        const T *a0 = A + c * lda, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
        const T x0 = alpha * x[c], x1 = alpha * x[c + 1], x2 = alpha * x[c + 2],
                x3 = alpha * x[c + 3];
        T s0 = T_ZERO, s1 = T_ZERO, s2 = T_ZERO, s3 = T_ZERO;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
        for (int64_t r = c + 4; r < n; r++) {
            y[r] += a0[r] * x0 + a1[r] * x1 + a2[r] * x2 + a3[r] * x3;
            s0 += TCONJ(a0[r]) * x[r];
            s1 += TCONJ(a1[r]) * x[r];
            s2 += TCONJ(a2[r]) * x[r];
            s3 += TCONJ(a3[r]) * x[r];
        }
        /* the diagonal block */
        s0 += TCONJ(a0[c + 1]) * x[c + 1] + TCONJ(a0[c + 2]) * x[c + 2] + TCONJ(a0[c + 3]) * x[c + 3];
        s1 += TCONJ(a1[c + 2]) * x[c + 2] + TCONJ(a1[c + 3]) * x[c + 3];
        s2 += TCONJ(a2[c + 3]) * x[c + 3];
        y[c] += TRE(a0[c]) * x0 + alpha * s0;
        y[c + 1] += a0[c + 1] * x0 + TRE(a1[c + 1]) * x1 + alpha * s1;
        y[c + 2] += a0[c + 2] * x0 + a1[c + 2] * x1 + TRE(a2[c + 2]) * x2 + alpha * s2;
        y[c + 3] += a0[c + 3] * x0 + a1[c + 3] * x1 + a2[c + 3] * x2 + TRE(a3[c + 3]) * x3 +
                    alpha * s3;
    }
    for (; c < n; c++) {
        const T *a = A + c * lda, xc = alpha * x[c];
        T s = T_ZERO;
#pragma omp simd reduction(+ : s)
        for (int64_t r = c + 1; r < n; r++) {
            y[r] += a[r] * xc;
            s += TCONJ(a[r]) * x[r];
        }
        y[c] += TRE(a[c]) * xc + alpha * s;
    }
}

/* lower triangle of A := A - x y^H - y x^H (the diagonal stays real); two
 * columns at a time below their diagonal, x and y read once for both */
SB2ST_KERNEL
static void TS(b_her2m)(int64_t n, const T *restrict x, const T *restrict y, T *A, int64_t lda) {
    int64_t c = 0;
    for (; c + 2 <= n; c += 2) {
        T *a0 = A + c * lda, *a1 = a0 + lda;
        const T f0 = TCONJ(y[c]), g0 = TCONJ(x[c]), f1 = TCONJ(y[c + 1]), g1 = TCONJ(x[c + 1]);
        a0[c] = TRE(a0[c] - (x[c] * f0 + y[c] * g0));
        a0[c + 1] -= x[c + 1] * f0 + y[c + 1] * g0;
        a1[c + 1] = TRE(a1[c + 1] - (x[c + 1] * f1 + y[c + 1] * g1));
        for (int64_t r = c + 2; r < n; r++) {
            a0[r] -= x[r] * f0 + y[r] * g0;
            a1[r] -= x[r] * f1 + y[r] * g1;
        }
    }
    for (; c < n; c++) {
        T *a = A + c * lda;
        const T f1 = TCONJ(y[c]), f2 = TCONJ(x[c]);
        for (int64_t r = c; r < n; r++) a[r] -= x[r] * f1 + y[r] * f2;
        a[c] = TRE(a[c]);
    }
}

/* x := T x, T upper triangular n x n (in place, by columns: x(l) is
 * still the old one when column l is applied) */
SB2ST_KERNEL
static void TS(b_trmv)(int64_t n, const T *Tm, int64_t ldt, T *restrict x) {
    for (int64_t l = 0; l < n; l++) {
        const T *t = Tm + l * ldt, xl = x[l];
        for (int64_t k = 0; k < l; k++) x[k] += t[k] * xl;
        x[l] = t[l] * xl;
    }
}

/* The lower triangle of the Hermitian nv x nv block A (leading dimension
 * ld) := H^H A H with H = I - tau v v^H: w = tau A v,
 * w -= 1/2 tau (w^H v) v, A -= v w^H + w v^H (the real correction
 * |tau|^2 (v^H A v) v v^H is split evenly between the two rank-1 terms).
 * The diagonal stays real. w: nv elements of workspace. */
static void TS(hupdate)(int64_t nv, T *A, int64_t ld, const T *v, T tau, T *w) {
    if (tau == T_ZERO) return;
    TS(b_hemv)(nv, tau, A, ld, v, w);
    T wv = T_ZERO;
    for (int64_t r = 0; r < nv; r++) wv += TCONJ(w[r]) * v[r];
    const T alpha = -(R)0.5 * tau * wv;
    for (int64_t r = 0; r < nv; r++) w[r] += alpha * v[r];
    TS(b_her2m)(nv, v, w, A, ld);
}

/* What the steps of one chase share. */
typedef struct {
    int64_t n, kd, ld;  /* order, band width, leading dimension of the blocks */
    T *W;               /* working band: B(r, c) = W[r + c*ld] */
    hyla_sb2st_q *q;    /* reflector store, or NULL */
    band_feed_in *in;   /* the band arriving from stage 1, or NULL (W holds it all) */
} TS(chase_plan);

/* Columns [0, c) of W hold the band: with a feed, the columns stage 1 has
 * finished, at least c of them, are copied in (NaN or Inf noted, the
 * diagonal made real). A step touches only columns already copied (the
 * caller asks for its last column first), so a column is never copied over
 * work of the chase. */
static void TS(feed_to)(const TS(chase_plan) *p, int64_t c) {
    band_feed_in *in = p->in;
    if (!in) return;
    c = HYLA_MIN(c, p->n);
    if (atomic_load_explicit(&in->copied, memory_order_acquire) >= c) return;
    pthread_mutex_lock(&in->mu);
    const int64_t have = atomic_load_explicit(&in->copied, memory_order_relaxed);
    if (have < c) {
        const int64_t ready = band_feed_wait(in->feed, c);
        const T *AB = in->AB;
        const int64_t ldw = p->ld + 1, kd = in->kd;
        int bad = 0;
        for (int64_t j = have; j < ready; j++) {
            const T *a = AB + j * in->ldab;
            T *wc = p->W + j * ldw;
            for (int64_t r = 0; r <= HYLA_MIN(kd, p->n - 1 - j); r++) {
                if (!isfinite(TRE(a[r])) || !isfinite(TIM(a[r]))) bad = 1;
                if (r <= p->kd) wc[r] = a[r];
            }
            wc[0] = TRE(wc[0]);
        }
        if (bad) in->nonfinite = 1;
        atomic_store_explicit(&in->copied, ready, memory_order_release);
    }
    pthread_mutex_unlock(&in->mu);
}

/* Step m of sweep i (see psb2st.c). buf: 4*kd + 2 elements kept by the
 * thread across the steps of one sweep: the reflectors of the last two
 * steps (by parity of m), workspace (two vectors), their taus. */
static void TS(step)(const TS(chase_plan) *p, int64_t i, int64_t m, T *buf) {
    const int64_t kd = p->kd, ld = p->ld, st = i + 1 + m * kd, nv = HYLA_MIN(kd, p->n - st);
    T *vcur = buf + (m & 1) * kd, *vprev = buf + ((m + 1) & 1) * kd, *w = buf + 2 * kd;
    T *z = buf + 3 * kd, *taus = buf + 4 * kd;
    T tau;
    vcur[0] = T_ONE;
    if (m == 0) {
        T *x = p->W + st + i * ld; /* B(st.., i) */
        tau = TS(larfg)(nv, x, x + 1);
        for (int64_t r = 1; r < nv; r++) {
            vcur[r] = x[r];
            x[r] = T_ZERO;
        }
    } else {
        const int64_t sp = st - kd; /* block m-1 had kd rows: it was not the last */
        const T taup = taus[(m + 1) & 1];
        T *X = p->W + st + sp * ld; /* B(block m, block m-1), nv x kd */
        /* X := X (I - taup vprev vprev^H), its first column first: the
         * new reflector comes from it */
        if (taup != T_ZERO) {
            TS(b_gemv)(0, nv, kd, T_ONE, X, ld, vprev, w);
            TS(b_gerc)(nv, 1, -taup, w, vprev, X, ld);
        }
        tau = TS(larfg)(nv, X, X + 1);
        for (int64_t r = 1; r < nv; r++) {
            vcur[r] = X[r];
            X[r] = T_ZERO;
        }
        /* X(:, 1..) := (I - tau vcur vcur^H)^H X(:, 1..) (I - taup ...):
         * z = X(:, 1..)^H vcur in the pass of the right update */
        if (kd > 1) {
            if (taup != T_ZERO)
                TS(b_gerc_gemv)(nv, kd - 1, -taup, w, vprev + 1, X + ld, ld, vcur, z);
            else if (tau != T_ZERO)
                TS(b_gemv)(1, nv, kd - 1, T_ONE, X + ld, ld, vcur, z);
            if (tau != T_ZERO) TS(b_gerc)(nv, kd - 1, -TCONJ(tau), vcur, z, X + ld, ld);
        }
    }
    taus[m & 1] = tau;
    TS(hupdate)(nv, p->W + st + st * ld, ld, vcur, tau, w);
    if (p->q) {
        const hyla_sb2st_q *q = p->q;
        const int64_t s = i / q->nb, j = i % q->nb;
        T *V = (T *)q->data + q_group(q, s, m);
        T *Tm = V + q->ldv * q->nb;
        for (int64_t r = 0; r < nv; r++) V[j + j * q->ldv + r] = vcur[r];
        Tm[j + j * q->nb] = tau;
    }
}

/* T of every group from V and the taus on T's diagonal (LAPACK larft,
 * forward columnwise): T(0:j, j) = -tau_j T(0:j, 0:j) V(:, 0:j)^H V(:, j).
 * Column j of V is nonzero in rows j..j+kd-1 only, so the product needs
 * those rows alone. */
static void TS(build_t)(hyla_sb2st_q *q) {
    const int64_t nb = q->nb, ldv = q->ldv, kd = q->kd;
    const int64_t ngroups = q->woff[q->nw] / q->gsz;
#pragma omp parallel for schedule(dynamic, 16)
    for (int64_t g = 0; g < ngroups; g++) {
        T *V = (T *)q->data + g * q->gsz, *Tm = V + ldv * nb;
        for (int64_t j = 1; j < nb; j++) {
            const T tau = Tm[j + j * nb];
            if (tau == T_ZERO) continue; /* column stays zero */
            TS(b_gemv)(1, kd, j, -tau, V + j, ldv, V + j + j * ldv, Tm + j * nb);
            TS(b_trmv)(j, Tm, nb, Tm + j * nb);
        }
    }
}

static int TS(chase)(int64_t n, int64_t kd, const T *AB, int64_t ldab, R *d, R *e,
                     hyla_sb2st_q **qout, int nthreads, int64_t qnb, hyla_band_feed *feed) {
    int rc = 0;
    T *W = NULL, *bufs = NULL;
    sb2st_progress *prog = NULL;
    void *prog_mem = NULL;
    hyla_sb2st_q *q = NULL;
    band_feed_in in = {.feed = feed, .AB = AB, .ldab = ldab, .kd = kd};
    if (feed) {
        /* the band arrives column by column while the sweeps run; a band
         * of half-width 0 is used whole */
        atomic_init(&in.copied, 0);
        if (pthread_mutex_init(&in.mu, NULL) != 0) return HYLA_ERR_NO_MEMORY;
        if (n > 0 && HYLA_MIN(kd, n - 1) == 0) {
            band_feed_wait(feed, n);
            feed = NULL; /* the whole band is there: checked and read as usual */
            pthread_mutex_destroy(&in.mu);
        }
    }
    for (int64_t j = 0; !feed && j < n; j++) {
        const T *a = AB + j * ldab;
        for (int64_t r = 0; r <= HYLA_MIN(kd, n - 1 - j); r++)
            if (!isfinite(TRE(a[r])) || !isfinite(TIM(a[r]))) return HYLA_ERR_NAN;
    }
    const int64_t kde = n > 0 ? HYLA_MIN(kd, n - 1) : 0;
    if (qout) HYLA_TRY(q_create(DT, n, kde, qnb, &q, NULL));
    if (kde == 0) {
        for (int64_t j = 0; j < n; j++) d[j] = TRE(AB[j * ldab]);
        for (int64_t j = 0; j + 1 < n; j++) e[j] = 0;
        goto done;
    }
    const int64_t ldw = 2 * kde, ld = ldw - 1;
    W = hyla_calloc((size_t)(ldw * n), sizeof *W);
    if (!W) HYLA_TRY(HYLA_ERR_NO_MEMORY);
    for (int64_t j = 0; !feed && j < n; j++) {
        for (int64_t r = 0; r <= HYLA_MIN(kde, n - 1 - j); r++) W[r + j * ldw] = AB[r + j * ldab];
        W[j * ldw] = TRE(W[j * ldw]);
    }
    TS(chase_plan) p = {.n = n, .kd = kde, .ld = ld, .W = W, .q = q, .in = feed ? &in : NULL};
    const int64_t bsz = 4 * kde + 2;
    if (nthreads == 1) {
        /* the reference order: sweep after sweep */
        bufs = hyla_malloc(sizeof *bufs * (size_t)bsz);
        if (!bufs) HYLA_TRY(HYLA_ERR_NO_MEMORY);
        for (int64_t i = 0; i + 1 < n; i++)
            for (int64_t m = 0, M = sweep_steps(n, kde, i); m < M; m++) {
                TS(feed_to)(&p, i + (m + 1) * kde + 1);
                TS(step)(&p, i, m, bufs);
            }
    } else {
        /* groups of G sweeps, dealt round robin to the threads; inside a
         * group, sweep i0+g runs step t - LAG*g at time t, so that a block
         * is reused by the group's sweeps while it is in cache; the first
         * sweep of a group waits on the progress of the group before */
        const int nt = nthreads ? nthreads : auto_threads(n, kde);
        const int64_t G = sweep_group(n, kde, sizeof(T), nt), ngr = HYLA_CEILDIV(n - 1, G);
        /* no cache line shared between two threads' buffers (each thread's
         * stride is whole lines with one to spare) or two progress entries
         * (the table starts on a line) */
        const int64_t tstride = (HYLA_CEILDIV(G * bsz * (int64_t)sizeof(T), 64) + 1) * 64 /
                                (int64_t)sizeof(T);
        bufs = hyla_malloc(sizeof *bufs * (size_t)(tstride * nt));
        prog_mem = hyla_malloc(sizeof *prog * (size_t)(ngr + 1));
        if (!bufs || !prog_mem) HYLA_TRY(HYLA_ERR_NO_MEMORY);
        prog = (sb2st_progress *)(((uintptr_t)prog_mem + 63) & ~(uintptr_t)63);
        for (int64_t g = 0; g < ngr; g++) atomic_init(&prog[g].done, 0);
#pragma omp parallel num_threads(nt)
        {
            const int tid = omp_get_thread_num(), nth = omp_get_num_threads();
            T *buf = bufs + tid * tstride;
            for (int64_t gi = tid; gi < ngr; gi += nth) {
                const int64_t i0 = gi * G, g1 = HYLA_MIN(G, n - 1 - i0);
                const int64_t M0 = sweep_steps(n, kde, i0);
                const int64_t Mp = i0 > 0 ? sweep_steps(n, kde, i0 - 1) : 0;
                const int64_t Ml = sweep_steps(n, kde, i0 + g1 - 1);
                for (int64_t t = 0; t < M0 + SB2ST_LAG * (g1 - 1); t++) {
                    for (int64_t g = 0; g < g1 && t - SB2ST_LAG * g >= 0; g++) {
                        const int64_t m = t - SB2ST_LAG * g;
                        if (m >= sweep_steps(n, kde, i0 + g)) continue;
                        if (g == 0 && gi > 0)
                            wait_progress(&prog[gi - 1], (int)HYLA_MIN(m + SB2ST_LAG, Mp));
                        TS(feed_to)(&p, i0 + g + (m + 1) * kde + 1);
                        TS(step)(&p, i0 + g, m, buf + g * bsz);
                    }
                    const int64_t done = HYLA_MIN(t - SB2ST_LAG * (g1 - 1) + 1, Ml);
                    if (done > 0) atomic_store_explicit(&prog[gi].done, (int)done, memory_order_release);
                }
            }
        }
    }
    TS(feed_to)(&p, n); /* columns no step touched (the last ones) */
    if (feed && in.nonfinite) HYLA_TRY(HYLA_ERR_NAN);
    for (int64_t j = 0; j < n; j++) d[j] = TRE(W[j * ldw]);
    for (int64_t j = 0; j + 1 < n; j++) e[j] = TRE(W[1 + j * ldw]);
    if (q) TS(build_t)(q);
done:
    if (qout) {
        *qout = q;
        q = NULL;
    }
cleanup:
    if (feed) pthread_mutex_destroy(&in.mu);
    hyla_free(prog_mem);
    hyla_free(bufs);
    hyla_free(W);
    hyla_sb2st_q_free(&q);
    return rc;
}

/* ---- public wrappers: argument checks in LAPACK order, then the above */

#undef SB2ST_NAME
#undef ORMTR_NAME
#if IS_CPLX
#define SB2ST_NAME(x) PN(hetrd_hb2st##x)
#define ORMTR_NAME(x) PN(unmtr_hb2st##x)
#else
#define SB2ST_NAME(x) PN(sytrd_sb2st##x)
#define ORMTR_NAME(x) PN(ormtr_sb2st##x)
#endif

int SB2ST_NAME()(hyla_t *ctx, char vect, int64_t n, int64_t kd, const T *AB, int64_t ldab, R *d,
                 R *e, hyla_sb2st_q **q) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    const char v = (char)toupper((unsigned char)vect);
    if (v != 'N' && v != 'V') return -1;
    if (n < 0) return -2;
    if (kd < 0) return -3;
    if (!AB && n > 0) return -4;
    if (ldab < kd + 1) return -5;
    if (!d && n > 0) return -6;
    if (!e && n > 1) return -7;
    if (v == 'V' && !q) return -8;
    if (!hyla_size_ok(kd + 1, n, ldab)) return -2;
    if (q) *q = NULL;
    return hyla_eig_sb2st(ctx, DT, n, kd, (void *)AB, ldab, d, e, v == 'V' ? q : NULL);
}

/* 0 or -i for (q, ncols, Z, ldz) numbered 1..4 */
static int TS(ormtr_check)(const hyla_sb2st_q *q, int64_t ncols, const T *Z, int64_t ldz) {
    if (!q || q->t != DT) return -1;
    if (ncols < 0) return -2;
    if (!Z && ncols > 0 && q->n > 0) return -3;
    if (ldz < HYLA_MAX(1, q->n)) return -4;
    if (!hyla_size_ok(q->n, ncols, ldz)) return -2;
    return 0;
}

int ORMTR_NAME(_gpu)(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols, T *dZ,
                     int64_t lddz) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    if (dev < 0 || dev >= ctx->ndev) return HYLA_ERR_NO_DEVICE;
    int info = TS(ormtr_check)(q, ncols, dZ, lddz);
    if (info) return info;
    return hyla_eig_sb2st_back(ctx, dev, q, ncols, dZ, lddz);
}

/* Host Z: columns in chunks through device 0 (as many as its memory takes
 * next to the uploaded reflectors). */
int ORMTR_NAME()(hyla_t *ctx, const hyla_sb2st_q *q, int64_t ncols, T *Z, int64_t ldz) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    int info = TS(ormtr_check)(q, ncols, Z, ldz);
    if (info) return info;
    const int64_t n = q->n;
    if (ncols == 0 || q->nsg == 0) return 0;
    hyla_dev *d = ctx->devs[0];
    const size_t es = sizeof(T), qbytes = (size_t)q->woff[q->nw] * es;
    const size_t percol = (size_t)(n + q->nb) * es;
    size_t budget = hyla_workspace_budget(ctx, 0);
    int64_t cb = ncols;
    if (budget > 0 && budget < qbytes + percol * (size_t)ncols)
        cb = budget > qbytes + percol ? (int64_t)((budget - qbytes) / percol) : 1;
    void *dZ = NULL;
    int rc = d->ops->mem_alloc(d, HYLA_MEM_DEVICE, (size_t)(n * cb) * es, &dZ);
    if (rc) return rc;
    for (int64_t c0 = 0; c0 < ncols && !rc; c0 += cb) {
        const int64_t nc = HYLA_MIN(cb, ncols - c0);
        T *Zc = Z + c0 * ldz;
        hyla_dev_workspace *ws;
        rc = hyla_workspace_get(ctx, 0, 0, 0, &ws);
        if (!rc) rc = d->ops->copy_2d(ws->q_in, dZ, (size_t)n * es, Zc, (size_t)ldz * es,
                                      (size_t)n * es, (size_t)nc, HYLA_COPY_H2D);
        if (!rc) rc = d->ops->queue_sync(ws->q_in);
        if (!rc) rc = hyla_eig_sb2st_back(ctx, 0, q, nc, dZ, n);
        if (!rc) rc = d->ops->copy_2d(ws->q_out, Zc, (size_t)ldz * es, dZ, (size_t)n * es,
                                      (size_t)n * es, (size_t)nc, HYLA_COPY_D2H);
        if (!rc) rc = d->ops->queue_sync(ws->q_out);
    }
    d->ops->mem_free(d, HYLA_MEM_DEVICE, dZ);
    return rc;
}
