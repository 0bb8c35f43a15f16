/* Bulge chasing without reflectors, one source for s, d, c, z (included by
 * host_hb2st.c; see there for the algorithm). */

#include "base/prec_cmath.h"
#include "base/t_householder.h"

/* The reflector H = I - tau v v^H with H^H x = (beta, 0, ..)^T (larfg):
 * x[0..len-1] becomes (beta, 0, ..), v[0..len-1] receives v (v(0) = 1).
 * Returns tau. */
static T PS(hb_reflector)(int64_t len, T *x, T *v) {
    const T tau = PS(larfg)(len, x, x + 1);
    v[0] = T_ONE;
    for (int64_t k = 1; k < len; k++) {
        v[k] = x[k];
        x[k] = T_ZERO;
    }
    return tau;
}

/* Step m of sweep i. W: the band with B(r, c) = W[r + c*ld]. buf: 4*kd + 2
 * elements kept across the steps of a sweep: the reflectors of the last two
 * steps (by parity of m), two work vectors, the two taus. */
static void PS(hb_step)(int64_t n, int64_t kd, T *W, int64_t ld, int64_t i, int64_t m, T *buf) {
    const int64_t st = i + 1 + m * kd, nv = HYLA_MIN(kd, n - st);
    T *vcur = buf + (m & 1) * kd, *vprev = buf + ((m + 1) & 1) * kd;
    T *w = buf + 2 * kd, *y = buf + 3 * kd, *taus = buf + 4 * kd;
    T tau;
    if (m == 0) {
        tau = PS(hb_reflector)(nv, W + st + i * ld, vcur);
    } else {
        T *X = W + st + (st - kd) * ld; /* nv x kd: block m-1 had kd rows */
        const T taup = taus[(m + 1) & 1];
        if (taup != T_ZERO) { /* X := X (I - taup vprev vprev^H) */
            for (int64_t r = 0; r < nv; r++) {
                T s = T_ZERO;
                for (int64_t c = 0; c < kd; c++) s += X[r + c * ld] * vprev[c];
                w[r] = taup * s;
            }
            for (int64_t c = 0; c < kd; c++)
                for (int64_t r = 0; r < nv; r++) X[r + c * ld] -= w[r] * TCONJ(vprev[c]);
        }
        tau = PS(hb_reflector)(nv, X, vcur);
        if (tau != T_ZERO) { /* X(:, 1..) := (I - tau vcur vcur^H)^H X(:, 1..) */
            for (int64_t c = 1; c < kd; c++) {
                T s = T_ZERO;
                for (int64_t r = 0; r < nv; r++) s += TCONJ(X[r + c * ld]) * vcur[r];
                w[c] = tau * s; /* conj of the row vector tau^H vcur^H X */
            }
            for (int64_t c = 1; c < kd; c++)
                for (int64_t r = 0; r < nv; r++) X[r + c * ld] -= vcur[r] * TCONJ(w[c]);
        }
    }
    taus[m & 1] = tau;
    if (tau == T_ZERO) return;
    /* B(block, block) := H^H B H on its lower triangle */
    T *A = W + st + st * ld;
    for (int64_t r = 0; r < nv; r++) {
        T s = T_ZERO;
        for (int64_t c = 0; c < nv; c++) {
            const T a = c < r ? A[r + c * ld] : c > r ? TCONJ(A[c + r * ld]) : TRE(A[r + r * ld]);
            s += a * vcur[c];
        }
        y[r] = tau * s;
    }
    T yv = T_ZERO;
    for (int64_t r = 0; r < nv; r++) yv += TCONJ(y[r]) * vcur[r];
    const T alpha = -(R)0.5 * tau * yv;
    for (int64_t r = 0; r < nv; r++) y[r] += alpha * vcur[r];
    for (int64_t c = 0; c < nv; c++) {
        for (int64_t r = c; r < nv; r++)
            A[r + c * ld] -= vcur[r] * TCONJ(y[c]) + y[r] * TCONJ(vcur[c]);
        A[c + c * ld] = TRE(A[c + c * ld]);
    }
}

/* T of every group of the store (LAPACK larft, forward columnwise), the
 * taus on its diagonal: first G(l, j) = V(:, l)^H V(:, j) for l < j into
 * T's strict upper triangle (column l of V is nonzero in rows l .. l+kd-1
 * only, so rows j .. l+kd-1), then column by column
 * T(k, j) = -tau_j sum_{l=k}^{j-1} T(k, l) G(l, j), the CUDA kernel's
 * order (g: nb elements). */
static void PS(hb_build_t)(int64_t kd, const hyla_hb2st_store *st, T *g) {
    const int64_t nb = st->nb, ldv = st->ldv;
    for (int64_t gi = 0; gi < st->ngroups; gi++) {
        const T *V = (const T *)st->data + gi * st->gsz;
        T *Tm = (T *)st->data + gi * st->gsz + ldv * nb;
        for (int64_t j = 1; j < nb; j++)
            for (int64_t l = 0; l < j; l++) {
                T acc = T_ZERO;
                for (int64_t r = j; r < l + kd; r++) acc += TCONJ(V[r + l * ldv]) * V[r + j * ldv];
                Tm[l + j * nb] = acc;
            }
        for (int64_t j = 1; j < nb; j++) {
            const T tau = Tm[j + j * nb];
            for (int64_t l = 0; l < j; l++) g[l] = -tau * Tm[l + j * nb];
            for (int64_t k = 0; k < j; k++) {
                T acc = T_ZERO;
                for (int64_t l = k; l < j; l++) acc += Tm[k + l * nb] * g[l];
                Tm[k + j * nb] = acc;
            }
        }
    }
}

/* buf: 4 kd + 2 + (st ? nb : 0) elements (kd >= min(kd, n-1), the width
 * chased). st: NULL, or the store for the reflectors (backend.h's hb2st_v);
 * e is then signed, else (complex) the moduli. */
static void PS(hb2st)(int64_t n, int64_t kd, T *AB, int64_t ldab, R *d, R *e, T *buf,
                      const hyla_hb2st_store *st) {
    const int64_t kde = n > 0 ? HYLA_MIN(kd, n - 1) : 0;
    if (st) memset(st->data, 0, sizeof(T) * (size_t)(st->ngroups * st->gsz));
    for (int64_t i = 0; i + 1 < n && kde > 0; i++)
        for (int64_t m = 0; i + 1 + m * kde < n; m++) {
            PS(hb_step)(n, kde, AB, ldab - 1, i, m, buf);
            if (!st) continue;
            /* the step's reflector into column j of group (i / nb, m) */
            const int64_t j = i % st->nb, nv = HYLA_MIN(kde, n - (i + 1 + m * kde));
            T *V = (T *)st->data + hyla_hb2st_group(st, st->woff, i / st->nb, m);
            const T *vcur = buf + (m & 1) * kde;
            for (int64_t r = 0; r < nv; r++) V[j + j * st->ldv + r] = vcur[r];
            V[st->ldv * st->nb + j + j * st->nb] = buf[4 * kde + (m & 1)];
        }
    if (st) PS(hb_build_t)(kde, st, buf + 4 * kd + 2);
    for (int64_t j = 0; j < n; j++) d[j] = TRE(AB[j * ldab]);
    for (int64_t j = 0; j + 1 < n; j++) {
#if IS_CPLX
        e[j] = kde == 0 ? 0 : st ? TRE(AB[1 + j * ldab])
                                 : PS(lapy3)(TRE(AB[1 + j * ldab]), TIM(AB[1 + j * ldab]), 0);
#else
        e[j] = kde > 0 ? AB[1 + j * ldab] : 0;
#endif
    }
}
