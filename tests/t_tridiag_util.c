/* Helpers of the tridiagonal tests for one real precision (included by
 * t_test_bisect.c and t_test_tridiag.c with prec.h set, the test's MAT_
 * classes defined): LP, HUGE_SCALE and EPS (the includer undefines them at
 * its end), the test matrices of the classes both tests have, |T|_1, and
 * the non-finite inputs of their bad-input checks. */

#if defined(HYLA_PREC_S)
#define LP(x) LAPACKE_s##x
#define HUGE_SCALE 1e30
#else
#define LP(x) LAPACKE_d##x
#define HUGE_SCALE 1e150
#endif
#define EPS ((double)(sizeof(R) == 4 ? FLT_EPSILON : DBL_EPSILON) / 2)

/* Class c of order n into (d, e), for the classes of both tests: random,
 * clustered, graded, Wilkinson, glued Wilkinson, diagonal, zero, 1-2-1
 * Toeplitz, huge and tiny; any other class gives the zero matrix. */
static void PN(tri_make)(int c, int64_t n, R *d, R *e, unsigned long long *s) {
    for (int64_t i = 0; i < n; i++) {
        double x = 0, y = 0;
        switch (c) {
        case MAT_RANDOM: x = t_rand(s); y = t_rand(s); break;
        case MAT_CLUSTER: x = 1; y = 1e3 * EPS * t_rand(s); break;
        case MAT_GRADED: x = pow(10, -(double)i); y = 0.5 * pow(10, -(double)i - 0.5); break;
        case MAT_WILKINSON: x = fabs((double)i - (double)(n - 1) / 2); y = 1; break;
        case MAT_GLUED: /* W21+ blocks glued by 1e-7 (heavy deflation) */
            x = fabs((double)(i % 21) - 10);
            y = i % 21 == 20 ? 1e-7 : 1;
            break;
        case MAT_DIAG: x = t_rand(s); break;
        case MAT_TOEPLITZ: x = 2; y = -1; break;
        case MAT_HUGE: x = HUGE_SCALE * t_rand(s); y = HUGE_SCALE * t_rand(s); break;
        case MAT_TINY: x = t_rand(s) / HUGE_SCALE; y = t_rand(s) / HUGE_SCALE; break;
        default: break; /* MAT_ZERO */
        }
        d[i] = (R)x;
        if (i + 1 < n) e[i] = (R)y;
    }
}

/* max column sum of T */
static double PN(tri_norm)(int64_t n, const R *d, const R *e) {
    double m = 0;
    for (int64_t j = 0; j < n; j++) {
        double c = fabs((double)d[j]);
        if (j > 0) c += fabs((double)e[j - 1]);
        if (j + 1 < n) c += fabs((double)e[j]);
        m = fmax(m, c);
    }
    return m;
}

/* d, e of order 8, all ones but one non-finite entry: NaN (where 0, 2) or
 * Inf (1, 3) in d (where < 2) or in e (where >= 2) */
static void PN(tri_nonfinite)(int where, R *d, R *e) {
    for (int i = 0; i < 8; i++) d[i] = e[i] = (R)1;
    R bad = where & 1 ? (R)INFINITY : (R)NAN;
    if (where < 2)
        d[5] = bad;
    else
        e[6] = bad;
}
