/* The q2_apply op on the host, one source for s, d, c, z (included by
 * host_q2.c). It follows the CUDA kernel's schedule (backend/cuda/k_q2.cu,
 * which explains it): slabs of HYLA_HOST_Q2_W columns, batches of K sweep
 * groups from the last one, in a batch the waves in order, and the rows the
 * waves need in a ring of H rows (row r in slot r mod H), written back when
 * the batch is done with them. So the tests of the host backend check the
 * kernel's order and window arithmetic; per group, w = T (V^H z) and
 * z -= V w over V's nonzero staircase. */

#include "core/prec_cmath.h"

/* group (s, t - (nsg-1-s)) on the window Zs (H rows of ldw, wc columns);
 * w: 2 nb elements */
static void PS(q2_group)(const hyla_q2_args *a, int64_t s, int64_t t, int64_t H, T *Zs,
                         int64_t ldw, int64_t wc, T *w) {
    const int64_t kd = a->kd, nb = a->nb, ldv = a->ldv, nsg = a->nsg, u = nsg - 1 - s;
    const int64_t r0 = s * nb + (t - u) * kd + 1, h = HYLA_MIN(ldv, a->n - r0);
    const T *V = (const T *)a->store + a->woff[t] + (HYLA_MIN(t, nsg - 1) - u) * a->gsz;
    const T *Tm = V + ldv * nb;
    T *w2 = w + nb;
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
}

/* rows [r0, r1) of the slab Zg (columns c0 ..) into (load) or out of the window */
static void PS(q2_move)(const hyla_q2_args *a, T *Zg, T *Zs, int64_t H, int64_t ldw,
                        int64_t wc, int64_t r0, int64_t r1, int load) {
    for (int64_t j = 0; j < wc; j++)
        for (int64_t r = r0; r < r1; r++) {
            T *zs = Zs + (r % H) * ldw + j, *zg = Zg + r + j * a->ldz;
            if (load)
                *zs = *zg;
            else
                *zg = *zs;
        }
}

/* Zs: HYLA_HOST_Q2_ROWS(K, a) x HYLA_HOST_Q2_W elements; w: 2 nb */
static void PS(q2_apply)(const hyla_q2_args *a, int64_t K, T *Zs, T *w) {
    const int64_t n = a->n, kd = a->kd, nb = a->nb, nsg = a->nsg, W = HYLA_HOST_Q2_W;
    const int64_t H = (K - 1) * (nb + kd) + a->ldv;
    for (int64_t c0 = 0; c0 < a->ncols; c0 += W) {
        const int64_t wc = HYLA_MIN(W, a->ncols - c0);
        int64_t smax = nsg - 1;
        if (a->identity) { /* sweep group s changes column j only once j >= s nb + 1 */
            if (c0 + wc - 2 < 0) continue;
            smax = HYLA_MIN(smax, (c0 + wc - 2) / nb);
        }
        T *Zg = (T *)a->Z + c0 * a->ldz;
        for (int64_t shi = smax; shi >= 0; shi -= K) {
            const int64_t slo = HYLA_MAX(0, shi - K + 1);
            const int64_t t0 = nsg - 1 - shi, t1 = nsg - 1 - slo + hyla_q2_steps(n, kd, slo * nb);
            int64_t lo = 0, hi = 0;
            for (int64_t t = t0; t < t1; t++) {
                const int64_t sa = HYLA_MAX(slo, nsg - 1 - t);
                int64_t sb = shi;
                while (sb >= sa && t - (nsg - 1 - sb) >= hyla_q2_steps(n, kd, sb * nb)) sb--;
                if (sb < sa) continue;
                const int64_t top = sa * nb + (t - (nsg - 1 - sa)) * kd + 1;
                const int64_t bot = HYLA_MIN(n, sb * nb + (t - (nsg - 1 - sb)) * kd + 1 + a->ldv);
                if (lo == hi) lo = hi = top;
                if (top > lo) {
                    PS(q2_move)(a, Zg, Zs, H, W, wc, lo, HYLA_MIN(top, hi), 0);
                    lo = top;
                    if (hi < lo) hi = lo;
                }
                if (top < lo) {
                    PS(q2_move)(a, Zg, Zs, H, W, wc, top, lo, 1);
                    lo = top;
                }
                if (bot > hi) {
                    PS(q2_move)(a, Zg, Zs, H, W, wc, hi, bot, 1);
                    hi = bot;
                }
                for (int64_t s = sb; s >= sa; s--) PS(q2_group)(a, s, t, H, Zs, W, wc, w);
            }
            PS(q2_move)(a, Zg, Zs, H, W, wc, lo, hi, 0);
        }
    }
}
