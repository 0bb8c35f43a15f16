/* Stage 2 on a device, eigenvalues only: one source for s, d, c, z
 * (included by test_hb2st.c). */

#undef TREAL
#if IS_CPLX
#define TREAL(x) ((R)creal((double complex)(x)))
#else
#define TREAL(x) (x)
#endif
#include "t_band_lapack.h"
#include "t_band_util.c"

/* A band of class cls in lower band storage with ldab rows: random entries
 * in (-1, 1); the diagonal of a complex band gets an imaginary part that
 * must be ignored; rows past kd hold a sentinel that must not be read. */
static void PS(make_band)(T *AB, int64_t n, int64_t kd, int64_t ldab, int cls,
                          unsigned long long *s) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t r = 0; r < ldab; r++) {
            T v = (T)t_rand(s);
#if IS_CPLX
            v += (T)(t_rand(s) * I);
#endif
            if (cls == BAND_ZERO || (cls == BAND_DIAGONAL && r > 0)) v = T_ZERO;
            if (cls == BAND_GRADED) v *= (R)pow(0.5, (double)(2 * j + r) / 2);
            /* near the ends of the exponent range, where the GPU chase
             * forms its reflectors the way LAPACK's larfg does; steep:
             * from 1 down to there over the columns */
            if (cls == BAND_TINY) v = (T)ldexp(1.0, -(int)(0.7 * -(sizeof(R) == 4 ? FLT_MIN_EXP : DBL_MIN_EXP))) * v;
            if (cls == BAND_HUGE) v = (T)ldexp(1.0, (int)(0.7 * (sizeof(R) == 4 ? FLT_MAX_EXP : DBL_MAX_EXP))) * v;
            if (cls == BAND_STEEP) v = (T)ldexp(1.0, -(int)(0.9 * -(sizeof(R) == 4 ? FLT_MIN_EXP : DBL_MIN_EXP) * j / n)) * v;
            AB[r + j * ldab] = r <= kd ? v : (T)777;
        }
}

/* max over the columns of the sum of |B(i, j)| over the whole column,
 * from the lower band (|B|_1; the diagonal's imaginary part left out) */
static double PS(band_norm1)(const T *AB, int64_t n, int64_t kd, int64_t ldab) {
    double nrm = 0;
    for (int64_t j = 0; j < n; j++) {
        double sum = 0;
        for (int64_t i = HYLA_TMAX(0, j - kd); i <= HYLA_TMIN(n - 1, j + kd); i++) {
            const T b = i >= j ? AB[(i - j) + j * ldab] : AB[(j - i) + i * ldab];
            sum += i == j ? fabs((double)TREAL(b)) : PS(abs)(b);
        }
        nrm = fmax(nrm, sum);
    }
    return nrm;
}

/* One band on device dev: the eigenvalues of (d, e) (LAPACK sterf) against
 * LAPACK's sbev/hbev of the band, within THRESH n eps |B|; the band itself
 * is not changed. */
static void PS(case)(hyla_t *h, int dev, int64_t n, int64_t kd, int64_t pad, int cls,
                     unsigned long long *s) {
    const int64_t ldab = kd + 1 + pad, kde = n > 0 ? HYLA_TMIN(kd, n - 1) : 0;
    T *AB = malloc(sizeof *AB * (size_t)HYLA_TMAX(1, ldab * n));
    T *AB0 = malloc(sizeof *AB * (size_t)HYLA_TMAX(1, ldab * n));
    T *ABl = malloc(sizeof *ABl * (size_t)HYLA_TMAX(1, (kde + 1) * n));
    R *d = malloc(sizeof *d * (size_t)HYLA_TMAX(1, n)), *e = malloc(sizeof *e * (size_t)HYLA_TMAX(1, n));
    R *w = malloc(sizeof *w * (size_t)HYLA_TMAX(1, n));
    char what[128];
    snprintf(what, sizeof what, "%c %s n %lld kd %lld ldab %lld dev %d step %d", "sdcz"[DT],
             band_class_name[cls], (long long)n, (long long)kd, (long long)ldab, dev, chase_step);
    PS(make_band)(AB, n, kd, ldab, cls, s);
    memcpy(AB0, AB, sizeof *AB * (size_t)(ldab * n));
    for (int64_t j = 0; j < n; j++) e[j] = d[j] = (R)-999;
    int rc = hyla_eig_hb2st_dev(h, dev, DT, n, kd, AB, ldab, d, e);
    CHECK(rc == 0, "%s: %d (%s)", what, rc, hyla_strerror(rc));
    CHECK(n == 0 || memcmp(AB, AB0, sizeof *AB * (size_t)(ldab * n)) == 0, "%s: band changed", what);
    CHECK(n < 1 || e[n - 1] == (R)-999, "%s: wrote e[n-1]", what);
    if (rc == 0 && n > 0) {
        for (int64_t j = 0; j < n; j++)
            for (int64_t r = 0; r <= kde; r++) {
                T b = AB[r + j * ldab];
                ABl[r + j * (kde + 1)] = r == 0 ? (T)TREAL(b) : b;
            }
        int info = LBEV(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, (lapack_int)kde, ABl,
                        (lapack_int)(kde + 1), w, NULL, 1);
        info |= LSTERF((lapack_int)n, d, e);
        CHECK(info == 0, "%s: LAPACK sbev/sterf info %d", what, info);
        const double nrmB = PS(band_norm1)(AB, n, kde, ldab), eps = eps_of(DT);
        double diff = 0;
        for (int64_t i = 0; i < n; i++) diff = fmax(diff, fabs((double)d[i] - (double)w[i]));
        const double ratio = nrmB > 0 ? diff / ((double)n * eps * nrmB) : diff;
        CHECK(ratio < THRESH, "%s: eigenvalues differ from LAPACK's by %g n eps |B|", what, ratio);
    }
    free(AB);
    free(AB0);
    free(ABl);
    free(d);
    free(e);
    free(w);
}

static void PS(suite)(hyla_t *h, unsigned long long *s) {
    static const int64_t kds[] = {1, 2, 3, 8, 32, 64};
    const int ndev = hyla_device_count(h);
    for (size_t k = 0; k < sizeof kds / sizeof kds[0]; k++) {
        const int64_t kd = kds[k];
        const int64_t ns[] = {0, 1, 2, kd, kd + 1, 2 * kd + 3, 3 * kd + 5, kd < 8 ? 61 : kd + kd / 2};
        for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
            const int dev = t % 2 ? ndev - 1 : 0;
            PS(case)(h, dev, ns[t], kd, t % 3 == 1 ? 2 : 0, BAND_RANDOM, s);
        }
    }
    PS(case)(h, 0, 37, 0, 1, BAND_RANDOM, s);
    PS(case)(h, 0, 40, 5, 0, BAND_ZERO, s);
    PS(case)(h, 0, 40, 5, 0, BAND_DIAGONAL, s);
    PS(case)(h, 0, 70, 8, 0, BAND_GRADED, s);
    for (int cls = BAND_TINY; cls <= BAND_STEEP; cls++) {
        PS(case)(h, 0, 150, 64, 0, cls, s);
        PS(case)(h, ndev - 1, 61, 8, 0, cls, s);
    }
    PS(case)(h, 0, 9, 20, 0, BAND_RANDOM, s); /* kd > n - 1 */
}

/* The bench (see test_hb2st.c): device 0 against the host cores, then
 * the two tridiagonals' eigenvalues (LAPACK sterf) against each other. */
static int PS(bench)(hyla_t *h, int64_t n, int64_t kd) {
    unsigned long long s = 3;
    const int64_t ldab = kd + 1;
    T *AB = malloc(sizeof *AB * (size_t)(ldab * n)), *A2 = malloc(sizeof *AB * (size_t)(ldab * n));
    R *d = malloc(sizeof *d * (size_t)n), *e = malloc(sizeof *e * (size_t)n);
    R *d2 = malloc(sizeof *d * (size_t)n), *e2 = malloc(sizeof *e * (size_t)n);
    PS(make_band)(AB, n, kd, ldab, BAND_RANDOM, &s);
    hyla_device_info info;
    hyla_get_device_info(h, 0, &info);
    printf("%% %c n %lld kd %lld, device 0: %s, %d OpenMP threads\n", "sdcz"[DT], (long long)n,
           (long long)kd, info.name, omp_get_max_threads());
    int rc = hyla_eig_hb2st_dev(h, 0, DT, n, kd, AB, ldab, d, e); /* warm-up */
    double best = 1e30;
    for (int rep = 0; rep < 3 && !rc; rep++) {
        const double t0 = omp_get_wtime();
        rc = hyla_eig_hb2st_dev(h, 0, DT, n, kd, AB, ldab, d, e);
        best = fmin(best, omp_get_wtime() - t0);
    }
    printf("hyla_eig_hb2st_dev (device 0, with up/download): %8.4f s (rc %d)\n", best, rc);
    double cbest = 1e30;
    for (int rep = 0; rep < 2 && !rc; rep++) {
        memcpy(A2, AB, sizeof *AB * (size_t)(ldab * n));
        const double t0 = omp_get_wtime();
        rc = hyla_eig_sb2st(h, DT, n, kd, A2, ldab, d2, e2, NULL);
        cbest = fmin(cbest, omp_get_wtime() - t0);
    }
    printf("hyla_eig_sb2st (host cores)                    : %8.4f s (rc %d)\n", cbest, rc);
    /* with the reflectors: on the device (store left there) and on the host cores */
    R *d3 = malloc(sizeof *d * (size_t)n), *e3 = malloc(sizeof *e * (size_t)n);
    double vbest = 1e30, hbest = 1e30;
    for (int rep = 0; rep < 3 && !rc; rep++) {
        hyla_sb2st_q *q = NULL;
        const double t0 = omp_get_wtime();
        rc = hyla_eig_sb2st_dev(h, 0, DT, n, kd, AB, ldab, d3, e3, &q);
        vbest = fmin(vbest, omp_get_wtime() - t0);
        hyla_sb2st_q_free(&q);
    }
    printf("hyla_eig_sb2st_dev (device 0, reflectors kept)  : %8.4f s (rc %d)\n", vbest, rc);
    for (int rep = 0; rep < 1 && !rc; rep++) {
        hyla_sb2st_q *q = NULL;
        memcpy(A2, AB, sizeof *AB * (size_t)(ldab * n));
        const double t0 = omp_get_wtime();
        rc = hyla_eig_sb2st(h, DT, n, kd, A2, ldab, d2, e2, &q);
        hbest = fmin(hbest, omp_get_wtime() - t0);
        hyla_sb2st_q_free(&q);
    }
    printf("hyla_eig_sb2st (host cores, reflectors kept)   : %8.4f s (rc %d)\n", hbest, rc);
    if (!rc) {
        double diff = 0, nrm = 0;
        for (int64_t i = 0; i < n; i++) {
            diff = fmax(diff, fabs((double)d3[i] - (double)d2[i]));
            nrm = fmax(nrm, fabs((double)d2[i]));
            if (i + 1 < n) diff = fmax(diff, fabs((double)e3[i] - (double)e2[i]));
        }
        printf("d, e with reflectors, device vs host: max |diff| / (n eps max|d|) = %.3g\n",
               diff / ((double)n * eps_of(DT) * fmax(nrm, 1e-300)));
    }
    free(d3);
    free(e3);
    if (!rc) {
        const double t0 = omp_get_wtime();
        const int info2 = LSTERF((lapack_int)n, d, e) | LSTERF((lapack_int)n, d2, e2);
        double diff = 0, nrm = 0;
        for (int64_t i = 0; i < n; i++) {
            diff = fmax(diff, fabs((double)d[i] - (double)d2[i]));
            nrm = fmax(nrm, fabs((double)d2[i]));
        }
        printf("eigenvalues: max |diff| / (n eps max|lambda|) = %.3g (sterf info %d, %.1f s)\n",
               diff / ((double)n * eps_of(DT) * fmax(nrm, 1e-300)), info2, omp_get_wtime() - t0);
        rc = info2 != 0;
    }
    free(AB);
    free(A2);
    free(d);
    free(e);
    free(d2);
    free(e2);
    return rc != 0;
}

/* The chase keeping its reflectors on device dev (hyla_eig_sb2st_dev, the
 * backend's hb2st_v) with nb sweeps per group (HYLA_OPT_EIG_BACK2_NB; 0 =
 * kd), for one random band:
 *   - d and e bitwise those of hyla_eig_hb2st_dev (the same chase, the
 *     same arithmetic; complex: |e|, the moduli there);
 *   - d and e within THRESH n eps |B| of the host cores' chase with
 *     reflectors (hyla_eig_sb2st; not bitwise: that chase's level-2 kernels
 *     sum in another order, four columns at a time);
 *   - Q2 formed from the device store by hyla_eig_sb2st_back_q (the
 *     identity in, no upload) gives |B - Q2 T Q2^H| / (n |B| eps) and
 *     |I - Q2^H Q2| / (n eps) below THRESH, and agrees with Q2 applied to
 *     the identity column by column (hyla_eig_sb2st_back_count). */
static void PS(case_v)(hyla_t *h, int dev, int64_t n, int64_t kd, int64_t nb,
                       unsigned long long *s) {
    const int64_t ldab = kd + 1, kde = n > 0 ? HYLA_TMIN(kd, n - 1) : 0, n1 = HYLA_TMAX(1, n);
    T *AB = malloc(sizeof *AB * (size_t)(ldab * n1));
    T *A2 = malloc(sizeof *AB * (size_t)(ldab * n1));
    T *B = calloc((size_t)(n1 * n1), sizeof *B), *Q = malloc(sizeof *Q * (size_t)(n1 * n1));
    T *Q1 = malloc(sizeof *Q * (size_t)(n1 * n1)), *Rm = malloc(sizeof *Q * (size_t)(n1 * n1));
    R *d = malloc(sizeof *d * (size_t)n1), *e = malloc(sizeof *e * (size_t)n1);
    R *d0 = malloc(sizeof *d * (size_t)n1), *e0 = malloc(sizeof *e * (size_t)n1);
    R *dh = malloc(sizeof *d * (size_t)n1), *eh = malloc(sizeof *e * (size_t)n1);
    hyla_sb2st_q *q = NULL, *qh = NULL;
    void *dQ = NULL;
    char what[160];
    snprintf(what, sizeof what, "%c reflectors n %lld kd %lld nb %lld dev %d step %d", "sdcz"[DT],
             (long long)n, (long long)kd, (long long)nb, dev, chase_step);
    PS(make_band)(AB, n, kd, ldab, BAND_RANDOM, s);
    for (int64_t j = 0; j < n; j++) {
        AB[j * ldab] = (T)TREAL(AB[j * ldab]); /* the Hermitian B of the band */
        for (int64_t r = 0; r <= HYLA_TMIN(kde, n - 1 - j); r++) {
            B[j + r + j * n] = AB[r + j * ldab];
            B[j + (j + r) * n] = PS(conj)(AB[r + j * ldab]);
        }
    }
    const double eps = eps_of(DT), nrmB = PS(band_norm1)(AB, n, kde, ldab);
    int rc = hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, nb);
    rc = rc ? rc : hyla_eig_sb2st_dev(h, dev, DT, n, kd, AB, ldab, d, e, &q);
    CHECK(rc == 0 && q, "%s: %d (%s)", what, rc, hyla_strerror(rc));
    rc = rc ? rc : hyla_eig_hb2st_dev(h, dev, DT, n, kd, AB, ldab, d0, e0);
    memcpy(A2, AB, sizeof *AB * (size_t)(ldab * n));
    rc = rc ? rc : hyla_eig_sb2st_threads(h, DT, n, kd, A2, ldab, dh, eh, &qh, 1);
    hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, 0);
    CHECK(rc == 0, "%s: the other chases: %d", what, rc);
    if (rc || n == 0) goto out;
    int same = memcmp(d, d0, sizeof *d * (size_t)n) == 0;
    for (int64_t j = 0; j + 1 < n; j++) same &= (IS_CPLX ? (R)fabs((double)e[j]) : e[j]) == e0[j];
    CHECK(same, "%s: d, |e| differ from the eigenvalue-only chase's", what);
    double diff = 0;
    for (int64_t j = 0; j < n; j++) diff = fmax(diff, fabs((double)d[j] - (double)dh[j]));
    for (int64_t j = 0; j + 1 < n; j++) diff = fmax(diff, fabs((double)e[j] - (double)eh[j]));
    const double dratio = nrmB > 0 ? diff / ((double)n * eps * nrmB) : diff;
    CHECK(dratio < THRESH, "%s: d, e differ from the host chase's by %g n eps |B|", what, dratio);
    /* Q2 from the identity, then column by column */
    const size_t bytes = sizeof(T) * (size_t)(n * n);
    for (int64_t i = 0; i < n * n; i++) Q[i] = T_ZERO;
    for (int64_t i = 0; i < n; i++) Q[i + i * n] = T_ONE;
    rc = hyla_malloc_device(h, dev, bytes, &dQ);
    rc = rc ? rc : hyla_copy_to_device(h, dev, dQ, Q, bytes);
    rc = rc ? rc : hyla_eig_sb2st_back_count(h, dev, q, n, dQ, n, 0, NULL, NULL);
    rc = rc ? rc : hyla_copy_from_device(h, dev, Q1, dQ, bytes);
    rc = rc ? rc : hyla_copy_to_device(h, dev, dQ, Q, bytes);
    rc = rc ? rc : PS(back_q_down)(h, dev, q, n, dQ, Q);
    CHECK(rc == 0, "%s: back transformation: %d", what, rc);
    if (rc) goto out;
    diff = 0;
    for (int64_t i = 0; i < n * n; i++) diff = fmax(diff, PS(abs)(Q[i] - Q1[i]));
    CHECK(diff <= 10.0 * (double)n * eps, "%s: Q2 from I and Q2 I differ by %g", what, diff);
    double res, orth;
    PS(qtq_resid)(n, B, Q, d, e, nrmB, eps, Rm, &res, &orth);
    CHECK(res < THRESH, "%s: |B - Q T Q^H| / (n |B| eps) = %g", what, res);
    CHECK(orth < THRESH, "%s: |I - Q^H Q| / (n eps) = %g", what, orth);
out:
    hyla_free_device(h, dev, &dQ);
    hyla_sb2st_q_free(&q);
    hyla_sb2st_q_free(&qh);
    free(AB);
    free(A2);
    free(B);
    free(Q);
    free(Q1);
    free(Rm);
    free(d);
    free(e);
    free(d0);
    free(e0);
    free(dh);
    free(eh);
}

static void PS(suite_v)(hyla_t *h, unsigned long long *s) {
    const int ndev = hyla_device_count(h);
    static const int64_t ns[] = {0, 1, 2, 3, 7, 20, 33, 61};
    static const int64_t kds[] = {1, 2, 5, 8, 16};
    int k = 0;
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof kds / sizeof kds[0]; b++, k++) {
            /* nb: kd, 1, kd/2, or past kd (3 kd + 1, up to 4 kd) */
            const int64_t kd = kds[b], nb = k % 4 == 1   ? 1
                                            : k % 4 == 2 ? HYLA_TMAX(1, kd / 2)
                                            : k % 4 == 3 ? 3 * kd + 1
                                                         : 0;
            PS(case_v)(h, k % 2 ? ndev - 1 : 0, ns[a], kd, nb, s);
        }
    PS(case_v)(h, 0, 9, 20, 0, s);   /* kd > n - 1 */
    PS(case_v)(h, 0, 70, 64, 3, s);  /* the widest band CUDA chases */
    PS(case_v)(h, 0, 100, 32, 32, s);
    PS(case_v)(h, ndev - 1, 300, 64, 128, s); /* two kd a group */
    PS(case_v)(h, 0, 300, 64, 256, s);        /* the most a group holds */
}

/* The reflector cases run under each HYLA_OPT_EIG_CHASE_STEP (chase_steps
 * in test_hb2st.c): several steps a sweep (n >= 3 kd), nb below, at and
 * past kd, the widest band. */
static void PS(suite_v_steps)(hyla_t *h, unsigned long long *s) {
    const int ndev = hyla_device_count(h);
    PS(case_v)(h, 0, 61, 16, 0, s);
    PS(case_v)(h, ndev - 1, 200, 8, 4, s);
    PS(case_v)(h, 0, 257, 32, 32, s);
    PS(case_v)(h, 0, 70, 64, 3, s);
    PS(case_v)(h, ndev - 1, 300, 64, 128, s);
}
