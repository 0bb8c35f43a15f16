/* The per-root arithmetic of a divide-and-conquer merge (Gu and Eisenstat),
 * one source for s and d and for the host and the GPU: eig/t_tridiag.c's
 * merges on the host cores, the host backend's dc_secular op
 * (backend/host/host_dc.c) and the CUDA kernels (backend/cuda/k_dc.cu).
 *
 * Included once per real type with these defined:
 *   DCM(x)        the name of x for the type (x##_s, x##_d)
 *   R             the real type
 *   DCM_RF(f)     the math function f of the type (fabsf or fabs, ...)
 *   DCM_EPS       the unit roundoff of R
 *   DCM_HD        function qualifiers (__device__ under CUDA)
 *   DCM_J0, DCM_JS  first index and stride of a loop over the poles: 0 and 1
 *                 on the host; the lane and the warp size when a warp
 *                 shares one root
 *   DCM_SUM(x), DCM_PROD(x)  x summed (multiplied) over the threads that
 *                 share a root: x itself on the host, warp shuffles on the
 *                 GPU (every lane gets the result, so the control flow that
 *                 depends on it stays uniform across the warp)
 *   DCM_SIMD(clause)  a vectorization hint for the host loops (or nothing)
 *
 * The secular equation of a merge with k poles dl (strictly ascending),
 * weights w and rank-one weight rho > 0 is 1/rho + sum_j w_j^2 / (dl_j - x)
 * = 0; root i lies in (dl_i, dl_i+1) (the last in (dl_k-1, dl_k-1 + rho |w|^2]).
 * A root is kept as the pole org nearest it and the offset tau = root -
 * dl[org], so that dl_j - root = (dl_j - dl[org]) - tau keeps full relative
 * accuracy for every j; Gu and Eisenstat's zh (Loewner's theorem) then makes
 * the computed roots exact eigenvalues of diag(dl) + rho zh zh^T, whose
 * eigenvectors u_i = zh / (dl - root_i) come out orthogonal to working
 * accuracy. */

/* Root i (0-based) of the secular equation, as the pole org and the offset
 * tau (above); the iteration is Li's "middle way" rational interpolation
 * (LAPACK Working Note 89) relative to the nearest pole, with bisection
 * after a step that did not halve |f|. Returns 0, or 1 when it did not
 * converge in 400 steps. */
static inline DCM_HD int DCM(secular_root)(int64_t k, int64_t i, const R *dl, const R *w, R rho,
                                           int64_t *porg, R *ptau) {
    const R rhoinv = 1 / rho;
    if (k == 1) {
        *porg = 0;
        *ptau = rho * w[0] * w[0];
        return 0;
    }
    const int last = i == k - 1;
    int64_t org;
    R lo, hi, tau;
    if (!last) {
        /* which half of (dl_i, dl_i+1) holds the root: the sign of f at its middle */
        const R mid = (dl[i + 1] - dl[i]) / 2, di = dl[i];
        R f = 0;
        DCM_SIMD(reduction(+ : f))
        for (int64_t j = DCM_J0; j < k; j += DCM_JS) f += w[j] * (w[j] / ((dl[j] - di) - mid));
        f = rhoinv + DCM_SUM(f);
        if (f >= 0) {
            org = i;
            lo = 0;
            hi = mid;
        } else {
            org = i + 1;
            lo = -mid;
            hi = 0;
        }
        tau = f >= 0 ? hi : lo;
        /* first guess: the two nearest poles exact, the others frozen at their
         * value at the middle, c + w_i^2 / (del_i - tau) + w_i+1^2 / (del_i+1 - tau)
         * = 0 with the origin's del = 0 and the other's = +-gap, that is
         * c tau^2 - a tau + b = 0, the root of smaller size */
        const R wi2 = w[i] * w[i], wj2 = w[i + 1] * w[i + 1], gap = 2 * mid;
        const R c = f + (wi2 - wj2) / mid;
        const R a = (f >= 0 ? c * gap : -c * gap) + wi2 + wj2;
        const R b = f >= 0 ? wi2 * gap : -wj2 * gap;
        R t0;
        if (c == 0) {
            t0 = b / a;
        } else {
            const R disc = DCM_RF(sqrt)(DCM_RF(fabs)(a * a - 4 * b * c));
            t0 = a <= 0 ? (a - disc) / (2 * c) : 2 * b / (a + disc);
        }
        if (t0 > lo && t0 < hi) tau = t0;
    } else {
        /* lam - dl_{k-1} lies in (0, rho |w|^2] */
        R ww = 0;
        DCM_SIMD(reduction(+ : ww))
        for (int64_t j = DCM_J0; j < k; j += DCM_JS) ww += w[j] * w[j];
        ww = DCM_SUM(ww);
        org = i;
        lo = 0;
        hi = rho * ww * (1 + 4 * DCM_EPS);
        tau = hi;
    }
    const R dorg = dl[org];
    R fprev = 0;
    int bisect = 0, conv = 0;
    for (int it = 0; it < 400; it++) {
        /* psi: the poles up to i, phi: those above (two loops, so both vectorize) */
        R psi = 0, dpsi = 0, phi = 0, dphi = 0, sabs = 0;
        DCM_SIMD(reduction(+ : psi, dpsi, sabs))
        for (int64_t j = DCM_J0; j <= i; j += DCM_JS) {
            R t = w[j] / ((dl[j] - dorg) - tau), term = w[j] * t;
            sabs += DCM_RF(fabs)(term);
            psi += term;
            dpsi += t * t;
        }
        DCM_SIMD(reduction(+ : phi, dphi, sabs))
        for (int64_t j = i + 1 + DCM_J0; j < k; j += DCM_JS) {
            R t = w[j] / ((dl[j] - dorg) - tau), term = w[j] * t;
            sabs += DCM_RF(fabs)(term);
            phi += term;
            dphi += t * t;
        }
        psi = DCM_SUM(psi);
        dpsi = DCM_SUM(dpsi);
        phi = DCM_SUM(phi);
        dphi = DCM_SUM(dphi);
        sabs = DCM_SUM(sabs);
        const R f = rhoinv + psi + phi;
        /* rounding error bound of f (as LAPACK's erretm) */
        const R errb = 8 * (sabs + rhoinv) + 3 * DCM_RF(fabs)(tau) * (dpsi + dphi);
        if (DCM_RF(fabs)(f) <= DCM_EPS * errb) {
            conv = 1;
            break;
        }
        if (f < 0)
            lo = tau;
        else
            hi = tau;
        const R alo = DCM_RF(fabs)(lo), ahi = DCM_RF(fabs)(hi);
        if (hi - lo <= 2 * DCM_EPS * (alo > ahi ? alo : ahi)) {
            conv = 1;
            break;
        }
        const R di = (dl[i] - dorg) - tau;
        R tn = 0;
        int ok = 0;
        if (!bisect && !last) {
            /* model c + di^2 dpsi / (di - eta) + di1^2 dphi / (di1 - eta), exact in
             * f and f' at tau: c eta^2 - a eta + b = 0, the root of smaller size */
            const R di1 = (dl[i + 1] - dorg) - tau;
            const R c = f - di * dpsi - di1 * dphi;
            const R a = (di + di1) * f - di * di1 * (dpsi + dphi);
            const R b = di * di1 * f;
            R eta;
            if (c == 0) {
                eta = b / a;
            } else {
                R disc = DCM_RF(sqrt)(DCM_RF(fabs)(a * a - 4 * b * c));
                eta = a <= 0 ? (a - disc) / (2 * c) : 2 * b / (a + disc);
            }
            tn = tau + eta;
            ok = isfinite(tn);
        } else if (!bisect) {
            /* the last root: one pole, c + di^2 dpsi / (di - eta) */
            const R c = f - di * dpsi;
            if (c > 0) {
                tn = tau + di + di * di * dpsi / c;
                ok = isfinite(tn);
            }
        }
        if (!ok || !(tn > lo && tn < hi)) tn = lo / 2 + hi / 2;
        /* a step that did not halve |f| is followed by a bisection */
        bisect = it > 0 && DCM_RF(fabs)(f) > DCM_RF(fabs)(fprev) / 2 && !bisect;
        fprev = f;
        tau = tn;
    }
    *porg = org;
    *ptau = tau;
    return conv ? 0 : 1;
}

/* Gu and Eisenstat's zh_m from the roots given as pole and offset
 * (secular_root; lam_j - dl_m = (dl[org_j] - dl_m) + tau_j):
 *   zh_m^2 = (lam_m - dl_m) / r2 * prod_{j != m} (lam_j - dl_m) / (dl_j - dl_m),
 * every factor positive by interlacing; the sign of w_m. */
static inline DCM_HD R DCM(loewner_one)(int64_t k, int64_t m, const R *dl, const R *w, R r2,
                                        const int64_t *org, const R *tau) {
    const R dm = dl[m];
    R p = DCM_J0 == 0 ? ((dl[org[m]] - dm) + tau[m]) / r2 : 1;
    DCM_SIMD(reduction(* : p))
    for (int64_t j = DCM_J0; j < m; j += DCM_JS) p *= ((dl[org[j]] - dm) + tau[j]) / (dl[j] - dm);
    DCM_SIMD(reduction(* : p))
    for (int64_t j = m + 1 + DCM_J0; j < k; j += DCM_JS)
        p *= ((dl[org[j]] - dm) + tau[j]) / (dl[j] - dm);
    p = DCM_PROD(p);
    return DCM_RF(copysign)(DCM_RF(sqrt)(p), w[m]);
}

/* Entry m of the (unnormalized) eigenvector of root i (pole oi = dl[org_i],
 * offset ti): zh_m / (dl_m - lam_i). */
static inline DCM_HD R DCM(vec_entry)(R zhm, R dlm, R oi, R ti) {
    return zhm / ((dlm - oi) - ti);
}
