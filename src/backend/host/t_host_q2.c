/* The q2_apply op on the host, one source for s, d, c, z (included by
 * host_q2.c). It follows the CUDA kernel's schedule (backend/cuda/k_q2.cu,
 * which explains it): slabs of HYLA_HOST_Q2_W columns, batches of K sweep
 * groups from the last one, in a batch the waves in order, and the rows the
 * waves need in a ring of H rows (row r in slot r mod H), requested one
 * wave ahead and written back when the batch is done with them. So the
 * tests of the host backend check the kernel's order and window arithmetic
 * (every slot is tracked); per group, w = T (V^H z) and z -= V w over V's
 * nonzero staircase. */

#include "base/prec_cmath.h"

/* Slot bookkeeping: tag[slot] is the row held there, or -1. A row used,
 * loaded over, or written back from the wrong slot is a broken window: the
 * op then leaves NaN in the slab, so that tests fail loudly. */
static int PS(q2_slot)(int64_t *tag, int64_t H, int64_t r, int64_t want, int64_t set) {
    int64_t *x = &tag[r % H];
    if (*x != want) return 1;
    *x = set;
    return 0;
}

/* group (s, t - (nsg-1-s)) on the window Zs (H rows of ldw, wc columns);
 * w: 2 nb elements. Returns 1 when a row is not where it should be. */
static int PS(q2_group)(const hyla_q2_args *a, int64_t s, int64_t t, int64_t H, T *Zs,
                        int64_t ldw, int64_t wc, T *w, int64_t *tag) {
    const int64_t kd = a->kd, nb = a->nb, ldv = a->ldv, nsg = a->nsg, u = nsg - 1 - s;
    const int64_t r0 = s * nb + (t - u) * kd + 1, h = HYLA_MIN(ldv, a->n - r0);
    const T *V = (const T *)a->store + a->woff[t] + (HYLA_MIN(t, nsg - 1) - u) * a->gsz;
    const T *Tm = V + ldv * nb;
    T *w2 = w + nb;
    for (int64_t r = 0; r < h; r++)
        if (PS(q2_slot)(tag, H, r0 + r, r0 + r, r0 + r)) return 1;
    for (int64_t j = 0; j < wc; j++) {
        for (int64_t c = 0; c < nb; c++) {
            T acc = T_ZERO;
            for (int64_t r = c; r < HYLA_MIN(c + kd, h); r++)
                acc += TCONJ(V[r + c * ldv]) * Zs[((r0 + r) % H) * ldw + j];
            w[c] = acc;
        }
        for (int64_t c = 0; c < nb; c++) {
            T acc = T_ZERO;
            for (int64_t c2 = c; c2 < nb; c2++) acc += Tm[c + c2 * nb] * w[c2];
            w2[c] = acc;
        }
        for (int64_t c = 0; c < nb; c++)
            for (int64_t r = c; r < HYLA_MIN(c + kd, h); r++)
                Zs[((r0 + r) % H) * ldw + j] -= V[r + c * ldv] * w2[c];
    }
    return 0;
}

/* rows [r0, r1) of the slab Zg (columns c0 ..) into (load) or out of the
 * window; 1 when a slot is not as it should be */
static int PS(q2_move)(const hyla_q2_args *a, T *Zg, T *Zs, int64_t H, int64_t ldw, int64_t wc,
                       int64_t r0, int64_t r1, int load, int64_t *tag) {
    for (int64_t r = r0; r < r1; r++)
        if (PS(q2_slot)(tag, H, r, load ? -1 : r, load ? r : -1)) return 1;
    for (int64_t j = 0; j < wc; j++)
        for (int64_t r = r0; r < r1; r++) {
            T *zs = Zs + (r % H) * ldw + j, *zg = Zg + r + j * a->ldz;
            if (load)
                *zs = *zg;
            else
                *zg = *zs;
        }
    return 0;
}

/* The active sweep groups [sa, sb] of wave t in the batch [slo, shi]; 0
 * when there are none. */
static int PS(q2_wave)(const hyla_q2_args *a, int64_t slo, int64_t shi, int64_t t, int64_t *sa,
                       int64_t *sb) {
    *sa = HYLA_MAX(slo, a->nsg - 1 - t);
    *sb = shi;
    while (*sb >= *sa && t - (a->nsg - 1 - *sb) >= hyla_q2_steps(a->n, a->kd, *sb * a->nb)) (*sb)--;
    return *sb >= *sa;
}

/* Zs: H x HYLA_HOST_Q2_W elements, H = HYLA_HOST_Q2_ROWS(a); w: 2 nb;
 * tag: H. The kernel's order: the rows of wave t+1 are requested at the
 * start of wave t, the rows above wave t+1's written back at its end. */
static void PS(q2_apply)(const hyla_q2_args *a, int64_t K, int64_t H, T *Zs, T *w, int64_t *tag) {
    const int64_t n = a->n, kd = a->kd, nb = a->nb, ldv = a->ldv, nsg = a->nsg,
                  W = HYLA_HOST_Q2_W;
    for (int64_t i = 0; i < H; i++) tag[i] = -1;
    for (int64_t c0 = 0; c0 < a->ncols; c0 += W) {
        const int64_t wc = HYLA_MIN(W, a->ncols - c0);
        int64_t smax = nsg - 1;
        if (a->identity) { /* sweep group s changes column j only once j >= s nb + 1 */
            const int64_t lim = a->col0 + c0 + wc - 2; /* the identity's column */
            if (lim < 0) continue;
            smax = HYLA_MIN(smax, lim / nb);
        }
        T *Zg = (T *)a->Z + c0 * a->ldz;
        int bad = 0;
        for (int64_t shi = smax; shi >= 0 && !bad; shi -= K) {
            const int64_t slo = HYLA_MAX(0, shi - K + 1);
            const int64_t t0 = nsg - 1 - shi, t1 = nsg - 1 - slo + hyla_q2_steps(n, kd, slo * nb);
            int64_t sa, sb;
            PS(q2_wave)(a, slo, shi, t0, &sa, &sb);
            int64_t lo = sa * nb + (t0 - (nsg - 1 - sa)) * kd + 1;
            int64_t hi = HYLA_MIN(n, sb * nb + (t0 - (nsg - 1 - sb)) * kd + 1 + ldv);
            bad |= PS(q2_move)(a, Zg, Zs, H, W, wc, lo, hi, 1, tag);
            for (int64_t t = t0; t < t1 && !bad; t++) {
                if (!PS(q2_wave)(a, slo, shi, t, &sa, &sb)) continue;
                int64_t na, nbw, top1 = hi;
                const int more = t + 1 < t1 && PS(q2_wave)(a, slo, shi, t + 1, &na, &nbw);
                if (more) {
                    top1 = na * nb + (t + 1 - (nsg - 1 - na)) * kd + 1;
                    const int64_t bot1 =
                        HYLA_MIN(n, nbw * nb + (t + 1 - (nsg - 1 - nbw)) * kd + 1 + ldv);
                    if (top1 < lo) {
                        bad |= PS(q2_move)(a, Zg, Zs, H, W, wc, top1, lo, 1, tag);
                        lo = top1;
                    }
                    if (bot1 > hi) {
                        bad |= PS(q2_move)(a, Zg, Zs, H, W, wc, hi, bot1, 1, tag);
                        hi = bot1;
                    }
                }
                for (int64_t s = sb; s >= sa && !bad; s--)
                    bad |= PS(q2_group)(a, s, t, H, Zs, W, wc, w, tag);
                if (top1 > lo) {
                    bad |= PS(q2_move)(a, Zg, Zs, H, W, wc, lo, HYLA_MIN(top1, hi), 0, tag);
                    lo = top1;
                }
            }
            if (!bad) bad |= PS(q2_move)(a, Zg, Zs, H, W, wc, lo, hi, 0, tag);
        }
        if (bad) {
            for (int64_t j = 0; j < wc; j++)
                for (int64_t r = 0; r < n; r++) Zg[r + j * a->ldz] = (T)NAN;
            for (int64_t i = 0; i < H; i++) tag[i] = -1;
        }
    }
}
