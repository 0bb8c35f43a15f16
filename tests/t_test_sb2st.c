/* Stage 2 tests, one source for s, d, c, z (included by test_sb2st.c). */

#undef SB2ST
#undef ORMTR
#undef ORMTR_GPU
#undef RSCAL
#include "t_band_lapack.h"
#if IS_CPLX
#define SB2ST PN(hetrd_hb2st)
#define ORMTR PN(unmtr_hb2st)
#define ORMTR_GPU PN(unmtr_hb2st_gpu)
#else
#define SB2ST PN(sytrd_sb2st)
#define ORMTR PN(ormtr_sb2st)
#define ORMTR_GPU PN(ormtr_sb2st_gpu)
#endif
#define RSCAL (sizeof(R) == sizeof(float) ? (double)FLT_EPSILON : DBL_EPSILON)

#include "t_band_util.c"

/* A random Hermitian band in lower band storage with ldab rows (padding
 * rows past kd hold a sentinel that must not matter). */
static void PS(make_band)(T *AB, int64_t n, int64_t kd, int64_t ldab, unsigned long long *s) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t r = 0; r < ldab; r++) {
            T v = (T)t_rand(s);
#if IS_CPLX
            v += (T)(t_rand(s) * I);
#endif
            if (r == 0) v = (T)t_rand(s);
            AB[r + j * ldab] = r <= kd ? v : (T)777;
        }
}

/* The dense n x n B from its band */
static void PS(band_to_dense)(const T *AB, int64_t n, int64_t kd, int64_t ldab, T *B) {
    for (int64_t i = 0; i < n * n; i++) B[i] = T_ZERO;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i <= HYLA_TMIN(n - 1, j + kd); i++) {
            T v = AB[(i - j) + j * ldab];
            if (i == j) v = (T)creal((double complex)v);
            B[i + j * n] = v;
            B[j + i * n] = PS(conj)(v);
        }
}

/* Q2 explicitly: the identity through the back transformation on device dev. */
static int PS(explicit_q)(hyla_t *h, int dev, const hyla_sb2st_q *q, int64_t n, T *Q) {
    void *dQ = NULL;
    for (int64_t i = 0; i < n * n; i++) Q[i] = T_ZERO;
    for (int64_t i = 0; i < n; i++) Q[i + i * n] = T_ONE;
    size_t bytes = sizeof(T) * (size_t)(n * n);
    int rc = hyla_malloc_device(h, dev, bytes, &dQ);
    if (!rc) rc = hyla_copy_to_device(h, dev, dQ, Q, bytes);
    if (!rc) rc = ORMTR_GPU(h, dev, q, n, dQ, n);
    if (!rc) rc = hyla_copy_from_device(h, dev, Q, dQ, bytes);
    hyla_free_device(h, dev, &dQ);
    return rc;
}

/* One band: eigenvalues of T against LAPACK's of B; with vectors,
 * |B - Q T Q^H| and |I - Q^H Q|; serial == pipelined, bitwise. */
/* Scales the random band into class cls. */
static void PS(band_class)(T *AB, int64_t n, int64_t kd, int64_t ldab, int cls) {
    const double tiny = sizeof(R) == sizeof(float) ? 1e-36 : 1e-300;
    for (int64_t j = 0; j < n; j++)
        for (int64_t r = 0; r <= HYLA_TMIN(kd, n - 1 - j); r++) {
            T *a = &AB[r + j * ldab];
            switch (cls) {
            case BAND_ZERO: *a = T_ZERO; break;
            case BAND_DIAGONAL: if (r > 0) *a = T_ZERO; break;
            case BAND_TINY: *a *= (R)tiny; break;
            case BAND_HUGE: *a *= (R)(1 / (tiny * 1e10)); break;
            case BAND_GRADED: *a *= (R)pow(0.5, (double)(2 * j + r) / 2); break;
            default: break;
            }
        }
}

static void PS(case_class)(hyla_t *h, int64_t n, int64_t kd, int64_t pad, int vect, int cls,
                            unsigned long long *s);

static void PS(case)(hyla_t *h, int64_t n, int64_t kd, int64_t pad, int vect,
                      unsigned long long *s) {
    PS(case_class)(h, n, kd, pad, vect, BAND_RANDOM, s);
}

static void PS(case_class)(hyla_t *h, int64_t n, int64_t kd, int64_t pad, int vect, int cls,
                            unsigned long long *s) {
    const int64_t ldab = kd + 1 + pad;
    const int ndev = hyla_device_count(h);
    T *AB = malloc(sizeof *AB * (size_t)HYLA_TMAX(1, ldab * n));
    T *B = malloc(sizeof *B * (size_t)HYLA_TMAX(1, n * n));
    R *d = malloc(sizeof *d * (size_t)HYLA_TMAX(1, n)), *e = malloc(sizeof *e * (size_t)HYLA_TMAX(1, n));
    R *d1 = malloc(sizeof *d * (size_t)HYLA_TMAX(1, n)), *e1 = malloc(sizeof *e * (size_t)HYLA_TMAX(1, n));
    R *w = malloc(sizeof *w * (size_t)HYLA_TMAX(1, n));
    hyla_sb2st_q *q = NULL, *q1 = NULL;
    PS(make_band)(AB, n, kd, ldab, s);
    PS(band_class)(AB, n, kd, ldab, cls);
    PS(band_to_dense)(AB, n, kd, ldab, B);
    const double eps = RSCAL, nrmB = PS(norm1)(B, n, n, n);
    char what[128];
    snprintf(what, sizeof what, "%c %s n %lld kd %lld vect %c", "sdcz"[DT],
             band_class_name[cls], (long long)n, (long long)kd, vect ? 'V' : 'N');

    int rc = SB2ST(h, vect ? 'V' : 'N', n, kd, AB, ldab, d, e, vect ? &q : NULL);
    CHECK(rc == 0, "%s: %d (%s)", what, rc, hyla_strerror(rc));
    if (rc) goto out;
    if (n > 0) {
        /* eigenvalues: LAPACK's band solver on a copy with kd clipped */
        const int64_t kde = HYLA_TMIN(kd, n - 1);
        T *ABl = malloc(sizeof *ABl * (size_t)((kde + 1) * n));
        for (int64_t j = 0; j < n; j++)
            for (int64_t r = 0; r <= kde; r++) ABl[r + j * (kde + 1)] = AB[r + j * ldab];
        int info = LBEV(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, (lapack_int)kde, ABl,
                        (lapack_int)(kde + 1), w, NULL, 1);
        free(ABl);
        memcpy(d1, d, sizeof *d * (size_t)n);
        memcpy(e1, e, sizeof *e * (size_t)n);
        info |= LSTERF((lapack_int)n, d1, e1);
        CHECK(info == 0, "%s: LAPACK sbev/sterf info %d", what, info);
        double diff = 0;
        for (int64_t i = 0; i < n; i++) diff = fmax(diff, fabs((double)d1[i] - (double)w[i]));
        double ratio = nrmB > 0 ? diff / ((double)n * eps * nrmB) : diff;
        CHECK(ratio < THRESH, "%s: eigenvalues differ from LAPACK's by %g (n eps |B|)", what, ratio);
    }
    /* the reference serial order and the pipeline with three threads */
    for (int nt = 1; nt <= 3; nt += 2) {
        rc = hyla_eig_sb2st_threads(h, DT, n, kd, AB, ldab, d1, e1, vect ? &q1 : NULL, nt);
        CHECK(rc == 0, "%s, %d threads: %d", what, nt, rc);
        CHECK(n == 0 || memcmp(d, d1, sizeof *d * (size_t)n) == 0, "%s: d with %d threads differs", what, nt);
        CHECK(n <= 1 || memcmp(e, e1, sizeof *e * (size_t)(n - 1)) == 0, "%s: e with %d threads differs", what, nt);
        if (vect && n > 0 && q1) {
            T *Q = malloc(sizeof *Q * (size_t)(n * n)), *Q1 = malloc(sizeof *Q * (size_t)(n * n));
            rc = PS(explicit_q)(h, 0, q, n, Q);
            rc = rc ? rc : PS(explicit_q)(h, 0, q1, n, Q1);
            CHECK(rc == 0 && memcmp(Q, Q1, sizeof *Q * (size_t)(n * n)) == 0,
                  "%s: Q2 with %d threads differs (rc %d)", what, nt, rc);
            free(Q);
            free(Q1);
        }
        hyla_sb2st_q_free(&q1);
    }
    if (vect && n > 0) {
        T *Q = malloc(sizeof *Q * (size_t)(n * n)), *R1 = malloc(sizeof *Q * (size_t)(n * n));
        for (int dev = 0; dev < ndev; dev += HYLA_TMAX(1, ndev - 1)) {
            rc = PS(explicit_q)(h, dev, q, n, Q);
            CHECK(rc == 0, "%s: back transformation on device %d: %d", what, dev, rc);
            if (rc) continue;
            double res, orth;
            PS(qtq_resid)(n, B, Q, d, e, nrmB, eps, R1, &res, &orth);
            CHECK(res < THRESH, "%s: |B - Q T Q^H| / (n |B| eps) = %g on device %d", what, res, dev);
            CHECK(orth < THRESH, "%s: |I - Q^H Q| / (n eps) = %g on device %d", what, orth, dev);
            /* Q2 formed from the identity, each wave on the columns it can
             * change (the reordered eigenvector path): the same Q; by
             * default (GPU: the backend's one-call kernel) and through the
             * backend's q2_apply op (HYLA_OPT_EIG_BACK2 2; on the host its
             * sequential reference) */
            for (int64_t how = 0; how <= 2; how += 2) {
                hyla_set_option(h, HYLA_OPT_EIG_BACK2, how);
                void *dQ = NULL;
                hyla_device_info di;
                const size_t bytes = sizeof(T) * (size_t)(n * n);
                for (int64_t i = 0; i < n * n; i++) R1[i] = T_ZERO;
                for (int64_t i = 0; i < n; i++) R1[i + i * n] = T_ONE;
                int r2 = hyla_get_device_info(h, dev, &di);
                if (!r2) r2 = hyla_malloc_device(h, dev, bytes, &dQ);
                if (!r2) r2 = hyla_copy_to_device(h, dev, dQ, R1, bytes);
                if (!r2) r2 = PS(back_q_down)(h, dev, q, n, dQ, R1);
                hyla_free_device(h, dev, &dQ);
                double diff = 0;
                for (int64_t i = 0; i < n * n && !r2; i++) diff = fmax(diff, PS(abs)(R1[i] - Q[i]));
                CHECK(r2 == 0 && diff <= 10.0 * (double)n * eps,
                      "%s: Q2 from I on device %d (back2 option %lld): rc %d, diff %g", what, dev,
                      (long long)how, r2, diff);
                /* by three blocks of the identity's columns (a device's
                 * share of Q on several devices), each skipping what it
                 * cannot change from its own first column: Q's columns */
                const int64_t cut[4] = {0, n / 3, n / 3 + (n + 1) / 2 > n ? n : n / 3 + (n + 1) / 2, n};
                for (int b = 0; b < 3 && !r2; b++) {
                    const int64_t w = cut[b + 1] - cut[b];
                    if (w == 0) continue;
                    const size_t bb = sizeof(T) * (size_t)(n * w);
                    for (int64_t i = 0; i < n * w; i++) R1[i] = T_ZERO;
                    for (int64_t j = 0; j < w; j++) R1[cut[b] + j + j * n] = T_ONE;
                    r2 = hyla_malloc_device(h, dev, bb, &dQ);
                    if (!r2) r2 = hyla_copy_to_device(h, dev, dQ, R1, bb);
                    if (!r2) r2 = PS(back_q_cols)(h, dev, q, n, cut[b], w, dQ, R1);
                    hyla_free_device(h, dev, &dQ);
                    diff = 0;
                    for (int64_t i = 0; i < n * w && !r2; i++)
                        diff = fmax(diff, PS(abs)(R1[i] - Q[i + cut[b] * n]));
                    CHECK(r2 == 0 && diff <= 10.0 * (double)n * eps,
                          "%s: Q2 from the identity's columns %lld.. on device %d (back2 option "
                          "%lld): rc %d, diff %g",
                          what, (long long)cut[b], dev, (long long)how, r2, diff);
                }
                hyla_set_option(h, HYLA_OPT_EIG_BACK2, 0);
            }
        }
        /* the host entry on ncz columns with ldz > n equals Q2 applied to them */
        const int64_t ldz = n + 1, ncz = n == 90 ? 700 : 3;
        T *Z = malloc(sizeof *Z * (size_t)(ldz * ncz)), *Z0 = malloc(sizeof *Z0 * (size_t)(ldz * ncz));
        for (int64_t i = 0; i < ldz * ncz; i++) Z[i] = (T)t_rand(s);
        memcpy(Z0, Z, sizeof *Z0 * (size_t)(ldz * ncz));
        rc = ORMTR(h, q, ncz, Z, ldz);
        CHECK(rc == 0, "%s: host back transformation: %d", what, rc);
        rc = PS(explicit_q)(h, 0, q, n, Q);
        double diff = 0, zn = 0;
        int past = 0;
        for (int64_t j = 0; j < ncz; j++) {
            for (int64_t i = 0; i < n; i++) {
                T acc = T_ZERO;
                for (int64_t k = 0; k < n; k++) acc += Q[i + k * n] * Z0[k + j * ldz];
                diff = fmax(diff, PS(abs)(acc - Z[i + j * ldz]));
                zn = fmax(zn, PS(abs)(acc));
            }
            past |= Z[n + j * ldz] != Z0[n + j * ldz];
        }
        CHECK(!past, "%s: host back transformation wrote past n", what);
        CHECK(diff <= 10 * n * eps * fmax(zn, 1), "%s: host back transformation on %lld columns differs by %g", what, (long long)ncz, diff);
        free(Z0);
        free(Q);
        free(R1);
        free(Z);
    }
out:
    hyla_sb2st_q_free(&q);
    leak_check(h, what);
    free(AB);
    free(B);
    free(d);
    free(e);
    free(d1);
    free(e1);
    free(w);
}

/* The batched back transformation on device dev for block reflectors of
 * qnb sweeps (HYLA_OPT_EIG_BACK2_NB; 0 = kd) and in batches of at most mb
 * of them (0: the default): the default gives Q2 Z as with the default
 * grouping; other batches give the same Z (bitwise on a host device, whose
 * batches are the same GEMMs); the calls it reports: at most 5 per wave
 * in whole waves (V T, V^H Z, the update, and the two GEMMs of a wave's
 * last group where it reaches past row n-1), 3 per block reflector in
 * batches of one. */
static void PS(batches)(hyla_t *h, int dev, int64_t n, int64_t kd, int64_t nc,
                        unsigned long long *s) {
    const int64_t ldab = kd + 1, ldz = n + 2;
    char what[128];
    T *AB = malloc(sizeof *AB * (size_t)(ldab * n)), *Z0 = malloc(sizeof *Z0 * (size_t)(ldz * nc));
    T *A1 = malloc(sizeof *AB * (size_t)(ldab * n));
    T *Zref = malloc(sizeof *Z0 * (size_t)(ldz * nc));
    T *Z = malloc(sizeof *Z * (size_t)(ldz * nc)), *Z1 = malloc(sizeof *Z1 * (size_t)(ldz * nc));
    R *d = malloc(sizeof *d * (size_t)n), *e = malloc(sizeof *e * (size_t)n);
    void *dZ = NULL;
    const size_t bytes = sizeof(T) * (size_t)(ldz * nc);
    PS(make_band)(AB, n, kd, ldab, s);
    for (int64_t i = 0; i < ldz * nc; i++) Z0[i] = (T)t_rand(s);
    int rc = hyla_malloc_device(h, dev, bytes, &dZ);
    hyla_device_info info;
    hyla_get_device_info(h, dev, &info);
    const double eps = RSCAL;
    const int64_t kde = HYLA_TMIN(kd, n - 1);
    /* kd + 5 and 2 kd + 3: groups of more sweeps than kd; 5 kd + 300:
     * clamped to min(4 kd, 256) */
    const int64_t qnbs[] = {0, 1, 3, HYLA_TMAX(1, kde / 2), kd + 5, 2 * kd + 3, 5 * kd + 300};
    static const int64_t mbs[] = {0, 1, 2, 3, (int64_t)1 << 40};
    for (size_t a = 0; a < sizeof qnbs / sizeof qnbs[0] && !rc; a++) {
        hyla_sb2st_q *q = NULL;
        snprintf(what, sizeof what, "%c batches n %lld kd %lld nc %lld dev %d nb %lld", "sdcz"[DT],
                 (long long)n, (long long)kd, (long long)nc, dev, (long long)qnbs[a]);
        memcpy(A1, AB, sizeof *AB * (size_t)(ldab * n));
        rc = hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, qnbs[a]);
        rc = rc ? rc : SB2ST(h, 'V', n, kd, A1, ldab, d, e, &q);
        hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, 0);
        /* the groups and waves of this store */
        const int64_t nbmax = HYLA_TMIN(4 * HYLA_TMAX(kde, 1), 256);
        const int64_t nb = qnbs[a] ? HYLA_TMIN(qnbs[a], nbmax) : HYLA_TMAX(kde, 1);
        const int64_t nsg = n >= 2 && kde >= 1 ? (n - 2) / nb + 1 : 0;
        int64_t groups = 0, nw = 0;
        for (int64_t sg = 0; sg < nsg; sg++) {
            const int64_t steps = (n - 1 - sg * nb + kde - 1) / kde;
            groups += steps;
            nw = HYLA_TMAX(nw, nsg - 1 - sg + steps);
        }
        hyla_set_option(h, HYLA_OPT_EIG_BACK2, 1); /* the batched GEMMs */
        for (size_t b = 0; b < sizeof mbs / sizeof mbs[0] && !rc; b++) {
            int64_t calls = -1;
            double flops = -1;
            T *out = b ? Z1 : Z;
            rc = hyla_copy_to_device(h, dev, dZ, Z0, bytes);
            rc = rc ? rc : hyla_eig_sb2st_back_count(h, dev, q, nc, dZ, ldz, mbs[b], &calls, &flops);
            rc = rc ? rc : hyla_copy_from_device(h, dev, out, dZ, bytes);
            CHECK(rc == 0, "%s, batch %lld: %d", what, (long long)mbs[b], rc);
            if (rc) break;
            /* the default: whole waves on a GPU, batches of one on the host */
            const int whole = mbs[b] > 3 || (mbs[b] == 0 && info.kind != HYLA_DEVICE_HOST);
            if (mbs[b] == 1 || (mbs[b] == 0 && !whole))
                CHECK(calls == 3 * groups, "%s: %lld calls in batches of one, %lld groups", what,
                      (long long)calls, (long long)groups);
            if (whole) {
                CHECK(calls >= nw && calls <= 5 * nw && (nw == 0 || flops > 0),
                      "%s: %lld calls, %g flops for %lld waves", what, (long long)calls, flops,
                      (long long)nw);
                CHECK(groups < 2 * nw || calls < 3 * groups,
                      "%s: %lld calls for %lld groups: not batched", what, (long long)calls,
                      (long long)groups);
            }
            if (mbs[b] == 0 && a == 0) memcpy(Zref, Z, bytes);
            /* against the default batches (mb > 0) or the default grouping (mb = 0) */
            const T *ref = mbs[b] ? Z : Zref;
            double diff = 0, zn = 0;
            int past = 0;
            for (int64_t j = 0; j < nc; j++) {
                for (int64_t i = 0; i < n; i++) {
                    diff = fmax(diff, PS(abs)(out[i + j * ldz] - ref[i + j * ldz]));
                    zn = fmax(zn, PS(abs)(ref[i + j * ldz]));
                }
                for (int64_t i = n; i < ldz; i++) past |= out[i + j * ldz] != Z0[i + j * ldz];
            }
            CHECK(!past, "%s, batch %lld: wrote past row n", what, (long long)mbs[b]);
            if (info.kind == HYLA_DEVICE_HOST && mbs[b] > 0)
                CHECK(diff == 0, "%s, batch %lld: differs from the default batches by %g", what,
                      (long long)mbs[b], diff);
            else
                CHECK(diff <= 10 * n * eps * fmax(zn, 1), "%s, batch %lld: differs by %g", what,
                      (long long)mbs[b], diff);
        }
        /* the backend's q2_apply op (one call; CUDA: one kernel where it
         * takes the shape, else the batched GEMMs) gives the same Z */
        hyla_set_option(h, HYLA_OPT_EIG_BACK2, 2);
        if (!rc) {
            int64_t calls = -1;
            double flops = -1;
            rc = hyla_copy_to_device(h, dev, dZ, Z0, bytes);
            rc = rc ? rc : hyla_eig_sb2st_back_count(h, dev, q, nc, dZ, ldz, 0, &calls, &flops);
            rc = rc ? rc : hyla_copy_from_device(h, dev, Z1, dZ, bytes);
            CHECK(rc == 0, "%s, q2_apply op: %d", what, rc);
            const int op = info.kind == HYLA_DEVICE_HOST || (nb <= 32 && kde <= 64);
            CHECK(rc || !op || nsg == 0 || (calls == 1 && flops > 0),
                  "%s, q2_apply op: %lld calls, %g flops", what, (long long)calls, flops);
            double diff = 0, zn = 0;
            int past = 0;
            for (int64_t j = 0; j < nc && !rc; j++) {
                for (int64_t i = 0; i < n; i++) {
                    diff = fmax(diff, PS(abs)(Z1[i + j * ldz] - Z[i + j * ldz]));
                    zn = fmax(zn, PS(abs)(Z[i + j * ldz]));
                }
                for (int64_t i = n; i < ldz; i++) past |= Z1[i + j * ldz] != Z0[i + j * ldz];
            }
            CHECK(!past, "%s, q2_apply op: wrote past row n", what);
            CHECK(diff <= 10 * n * eps * fmax(zn, 1), "%s, q2_apply op: differs by %g", what, diff);
        }
        hyla_set_option(h, HYLA_OPT_EIG_BACK2, 0);
        /* automatic: a Z narrower than the tuning table's
         * eig_q2_kernel_min_cols goes by the batched GEMMs (several calls)
         * even where the kernel takes the store */
        if (!rc && nsg > 0 && nc < hyla_tuning_for(h->devs[dev])->eig_q2_kernel_min_cols) {
            int64_t calls = -1;
            rc = hyla_copy_to_device(h, dev, dZ, Z0, bytes);
            rc = rc ? rc : hyla_eig_sb2st_back_count(h, dev, q, nc, dZ, ldz, 0, &calls, NULL);
            CHECK(rc == 0 && calls > 1, "%s, %lld columns: %lld calls, the GEMMs expected (%d)",
                  what, (long long)nc, (long long)calls, rc);
        }
        if (a == 0)
            CHECK(hyla_eig_sb2st_back_count(h, dev, q, nc, dZ, ldz, -1, NULL, NULL) ==
                      HYLA_ERR_INVALID,
                  "%s: max_batch -1 accepted", what);
        hyla_sb2st_q_free(&q);
    }
    int64_t v = -1;
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, -1) == -3 &&
              hyla_get_option(h, HYLA_OPT_EIG_BACK2_NB, &v) == 0 && v == 0,
          "HYLA_OPT_EIG_BACK2_NB: -1 accepted or the option not back to 0 (%lld)", (long long)v);
    hyla_free_device(h, dev, &dZ);
    leak_check(h, what);
    free(AB);
    free(A1);
    free(Z0);
    free(Zref);
    free(Z);
    free(Z1);
    free(d);
    free(e);
}

/* NaN/Inf input, bad arguments. */
static void PS(errors)(hyla_t *h) {
    enum { N = 6, KD = 2 };
    T AB[(KD + 1) * N];
    R d[N], e[N];
    T Z[N * 2];
    hyla_sb2st_q *q = NULL;
    unsigned long long s = 5;
    PS(make_band)(AB, N, KD, KD + 1, &s);
    AB[1 + 3 * (KD + 1)] = (T)NAN;
    CHECK(SB2ST(h, 'V', N, KD, AB, KD + 1, d, e, &q) == HYLA_ERR_NAN && !q, "NaN input");
    AB[1 + 3 * (KD + 1)] = (T)INFINITY;
    CHECK(SB2ST(h, 'N', N, KD, AB, KD + 1, d, e, NULL) == HYLA_ERR_NAN, "Inf input");
    AB[1 + 3 * (KD + 1)] = T_ONE;
    CHECK(SB2ST(NULL, 'N', N, KD, AB, KD + 1, d, e, NULL) == HYLA_ERR_INVALID, "NULL ctx");
    CHECK(SB2ST(h, 'X', N, KD, AB, KD + 1, d, e, NULL) == -1, "bad vect");
    CHECK(SB2ST(h, 'N', -1, KD, AB, KD + 1, d, e, NULL) == -2, "bad n");
    CHECK(SB2ST(h, 'N', N, -1, AB, KD + 1, d, e, NULL) == -3, "bad kd");
    CHECK(SB2ST(h, 'N', N, KD, NULL, KD + 1, d, e, NULL) == -4, "NULL AB");
    CHECK(SB2ST(h, 'N', N, KD, AB, KD, d, e, NULL) == -5, "bad ldab");
    CHECK(SB2ST(h, 'N', N, KD, AB, KD + 1, NULL, e, NULL) == -6, "NULL d");
    CHECK(SB2ST(h, 'N', N, KD, AB, KD + 1, d, NULL, NULL) == -7, "NULL e");
    CHECK(SB2ST(h, 'V', N, KD, AB, KD + 1, d, e, NULL) == -8, "NULL q");
    CHECK(SB2ST(h, 'v', N, KD, AB, KD + 1, d, e, &q) == 0 && q, "lower case vect");
    CHECK(ORMTR(NULL, q, 2, Z, N) == HYLA_ERR_INVALID, "ormtr NULL ctx");
    CHECK(ORMTR(h, NULL, 2, Z, N) == -1, "ormtr NULL q");
    CHECK(ORMTR(h, q, -1, Z, N) == -2, "ormtr bad ncols");
    CHECK(ORMTR(h, q, 2, NULL, N) == -3, "ormtr NULL Z");
    CHECK(ORMTR(h, q, 2, Z, N - 1) == -4, "ormtr bad ldz");
    CHECK(ORMTR_GPU(h, hyla_device_count(h), q, 2, Z, N) == HYLA_ERR_NO_DEVICE, "ormtr_gpu bad dev");
    CHECK(ORMTR(h, q, 0, NULL, N) == 0, "ormtr no columns");
    hyla_sb2st_q_free(&q);
    hyla_sb2st_q_free(&q);
    leak_check(h, "errors");
}

static void PS(suite)(hyla_t *h, unsigned long long *s) {
    static const int64_t ns[] = {0, 1, 2, 3, 7, 20, 33};
    static const int64_t kds[] = {0, 1, 2, 5, 8, 16};
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof kds / sizeof kds[0]; b++)
            PS(case)(h, ns[a], kds[b], (int64_t)(a % 2), (int)((a + b) % 2 == 0 || ns[a] < 8), s);
    PS(case)(h, 90, 16, 1, 1, s);
    PS(case)(h, 61, 5, 0, 1, s);
    PS(case)(h, 150, 8, 0, 0, s);
    /* kd = 64 with groups of 32 sweeps: the shape of CUDA's unrolled
     * tensor-core products of Q2 (double), here also from the identity */
    hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, 32);
    PS(case)(h, 230, 64, 1, 1, s);
    hyla_set_option(h, HYLA_OPT_EIG_BACK2_NB, 0);
    for (int cls = BAND_ZERO; cls <= BAND_GRADED; cls++) PS(case_class)(h, 37, 6, 0, 1, cls, s);
    for (int dev = 0; dev < hyla_device_count(h); dev += HYLA_TMAX(1, hyla_device_count(h) - 1)) {
        PS(batches)(h, dev, 150, 8, 5, s);
        PS(batches)(h, dev, 203, 16, 33, s);
        PS(batches)(h, dev, 129, 16, 2, s);
        PS(batches)(h, dev, 2, 1, 3, s);
        PS(batches)(h, dev, 9, 20, 4, s);
        PS(batches)(h, dev, 300, 64, 45, s); /* nb = kd / 2 = 32 among the groupings */
    }
    PS(errors)(h);
}
