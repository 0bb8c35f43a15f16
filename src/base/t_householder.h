/* Householder reflectors for host templates on C99 complex types, one
 * source for s, d, c, z: included once per precision by a template (after
 * base/prec.h and base/prec_cmath.h, with <complex.h> and <math.h>), which
 * gets static functions named PS(x). No include guard on purpose. */

/* sqrt(a^2 + b^2 + c^2) without overflow */
static R PS(lapy3)(R a, R b, R c) {
    R w = HYLA_MAX(RABS(a), HYLA_MAX(RABS(b), RABS(c)));
    if (w == 0) return 0;
    a /= w;
    b /= w;
    c /= w;
    return w * RSQRT(a * a + b * b + c * c);
}

/* 2-norm of x[0..len-1] without overflow, scaled by the largest modulus of
 * a part (the GPU kernels compute the same two reductions) */
static R PS(nrm2)(int64_t len, const T *x) {
    R scale = 0, ssq = 0;
    for (int64_t k = 0; k < len; k++)
        scale = HYLA_MAX(scale, HYLA_MAX(RABS(TRE(x[k])), RABS(TIM(x[k]))));
    if (scale == 0) return 0;
    for (int64_t k = 0; k < len; k++) {
        R re = TRE(x[k]) / scale, im = TIM(x[k]) / scale;
        ssq += re * re + im * im;
    }
    return scale * RSQRT(ssq);
}

/* Householder reflector (LAPACK larfg): H^H (alpha; x) = (beta; 0) with
 * H = I - tau (1; v)(1; v)^H, beta real; x[0..len-2] is overwritten by v
 * and *alpha by beta. tau = 0 (H = I) when x = 0 and alpha is real. */
static T PS(larfg)(int64_t len, T *alpha, T *x) {
    R xnorm = PS(nrm2)(len - 1, x);
    R ar = TRE(*alpha), ai = TIM(*alpha);
    if (xnorm == 0 && ai == 0) return T_ZERO;
    R beta = -copysign(PS(lapy3)(ar, ai, xnorm), ar);
    const R safmin = RMIN / REPS, rsafmin = 1 / safmin;
    int knt = 0;
    if (RABS(beta) < safmin) {
        /* xnorm and beta may be inaccurate: scale up and recompute */
        do {
            knt++;
            for (int64_t k = 0; k < len - 1; k++) x[k] *= rsafmin;
            beta *= rsafmin;
            *alpha *= rsafmin;
        } while (RABS(beta) < safmin && knt < 20);
        xnorm = PS(nrm2)(len - 1, x);
        ar = TRE(*alpha);
        ai = TIM(*alpha);
        beta = -copysign(PS(lapy3)(ar, ai, xnorm), ar);
    }
    /* real divisions only: 1/z as conj(z/|z|)/|z| cannot overflow where the
     * textbook complex quotient (limited range, as the including files
     * compile it) would */
#if IS_CPLX
    T tau = (beta - ar) / beta - (ai / beta) * I;
    const T z = *alpha - beta;
    const R az = PS(lapy3)(TRE(z), TIM(z), 0);
    T scal = TCONJ(z / az) / az;
#else
    T tau = (beta - ar) / beta;
    T scal = T_ONE / (*alpha - beta);
#endif
    for (int64_t k = 0; k < len - 1; k++) x[k] *= scal;
    for (int k = 0; k < knt; k++) beta *= safmin;
    *alpha = beta;
    return tau;
}
