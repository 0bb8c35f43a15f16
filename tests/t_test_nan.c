/* The NaN/Inf policy for one precision (included by test_nan.c with prec.h
 * set). */

#undef EVD
#undef EVD_GPU
#undef EVD_M
#undef SB2ST
#if IS_CPLX
#define EVD PN(heevd)
#define EVD_GPU PN(heevd_gpu)
#define EVD_M PN(heevd_mgpu)
#define SB2ST PN(hetrd_hb2st)
#else
#define EVD PN(syevd)
#define EVD_GPU PN(syevd_gpu)
#define EVD_M PN(syevd_mgpu)
#define SB2ST PN(sytrd_sb2st)
#endif

/* A Hermitian (real: symmetric) n x n matrix of random entries plus `diag`
 * on the diagonal (positive definite and diagonally dominant for diag n) */
static void PS(nan_fill)(T *A, int64_t n, double diag, unsigned long long *s) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            zc v = i == j ? diag + t_rand(s) : t_rand(s) + (IS_CPLX ? t_rand(s) * I : 0);
            put(DT, A, i + j * n, v);
            put(DT, A, j + i * n, conj(v));
        }
}

static void PS(rand_fill)(T *B, int64_t count, unsigned long long *s) {
    for (int64_t i = 0; i < count; i++) put(DT, B, i, t_rand(s));
}

/* 1 when one of the count elements holds NaN or Inf */
static int PS(nan_any)(const T *A, int64_t count) {
    for (int64_t i = 0; i < count; i++) {
        const zc v = get(DT, A, i);
        if (!isfinite(creal(v)) || !isfinite(cimag(v))) return 1;
    }
    return 0;
}

/* a device copy of count elements on device dev (NULL on failure, checked) */
static T *PS(nan_up)(hyla_t *h, int dev, const T *A, int64_t count) {
    void *d = NULL;
    int rc = hyla_malloc_device(h, dev, (size_t)count * sizeof(T), &d);
    if (!rc) rc = hyla_copy_to_device(h, dev, d, A, (size_t)count * sizeof(T));
    CHECK(rc == 0, "%c device copy: %s", CH, hyla_strerror(rc));
    if (rc) hyla_free_device(h, dev, &d);
    return d;
}

/* 1 when the device array holds the count elements of A, bit for bit */
static int PS(nan_same_dev)(hyla_t *h, int dev, const T *dA, const T *A, int64_t count) {
    T *c = malloc((size_t)count * sizeof(T));
    int same = c && hyla_copy_from_device(h, dev, c, dA, (size_t)count * sizeof(T)) == 0 &&
               memcmp(c, A, (size_t)count * sizeof(T)) == 0;
    free(c);
    return same;
}

/* ?potrf and ?potrf_gpu: NaN pivots reported as LAPACK's, Inf propagated */
static void PS(nan_potrf)(hyla_t *h, int dev, const T *A0) {
    const int64_t nn = NN * NN;
    T *A = malloc((size_t)nn * sizeof(T));
    for (int gpu = 0; gpu < 2; gpu++)
        for (int u = 0; u < 2; u++)
            for (int b = 0; b < 2; b++)
                for (int k = 0; k < 3; k++) {
                    const char uplo = "LU"[u];
                    int64_t i, j;
                    place(uplo, NN, NN, k, &i, &j);
                    memcpy(A, A0, (size_t)nn * sizeof(T));
                    put(DT, A, i + j * NN, bad_value(b));
                    int rc;
                    if (gpu) {
                        T *dA = PS(nan_up)(h, dev, A, nn);
                        if (!dA) continue;
                        rc = PN(potrf_gpu)(h, dev, uplo, NN, dA, NN);
                        hyla_copy_from_device(h, dev, A, dA, (size_t)nn * sizeof(T));
                        hyla_free_device(h, dev, (void **)&dA);
                    } else {
                        rc = PN(potrf)(h, uplo, NN, A, NN);
                    }
                    if (b == 0)
                        CHECK(rc >= 1 && rc <= minor_of(i, j),
                              "%cpotrf%s uplo %c NaN at (%lld, %lld): info %d, want 1..%lld", CH,
                              gpu ? "_gpu" : "", uplo, (long long)i, (long long)j, rc,
                              (long long)minor_of(i, j));
                    else
                        CHECK(rc > 0 || (rc == 0 && PS(nan_any)(A, nn)),
                              "%cpotrf%s uplo %c Inf at (%lld, %lld): info %d, factor %s", CH,
                              gpu ? "_gpu" : "", uplo, (long long)i, (long long)j, rc,
                              PS(nan_any)(A, nn) ? "not finite" : "finite");
                }
    free(A);
    leak_check(h, "potrf NaN");
}

/* ?getrf, ?getrf_nopiv and their _gpu: info >= 0, the bad value propagated */
static void PS(nan_getrf)(hyla_t *h, int dev, const T *A0) {
    const int64_t nn = NN * NN;
    T *A = malloc((size_t)nn * sizeof(T));
    int64_t ipiv[NN];
    static const char *const name[4] = {"getrf", "getrf_gpu", "getrf_nopiv", "getrf_nopiv_gpu"};
    for (int r = 0; r < 4; r++)
        for (int b = 0; b < 2; b++)
            for (int k = 0; k < 3; k++) {
                const int gpu = r & 1;
                int64_t i, j;
                place('G', NN, NN, k, &i, &j);
                memcpy(A, A0, (size_t)nn * sizeof(T));
                put(DT, A, i + j * NN, bad_value(b));
                T *dA = NULL;
                if (gpu && !(dA = PS(nan_up)(h, dev, A, nn))) continue;
                int rc;
                switch (r) {
                case 0: rc = PN(getrf)(h, NN, NN, A, NN, ipiv); break;
                case 1: rc = PN(getrf_gpu)(h, dev, NN, NN, dA, NN, ipiv); break;
                case 2: rc = PN(getrf_nopiv)(h, NN, NN, A, NN); break;
                default: rc = PN(getrf_nopiv_gpu)(h, dev, NN, NN, dA, NN); break;
                }
                if (gpu) {
                    hyla_copy_from_device(h, dev, A, dA, (size_t)nn * sizeof(T));
                    hyla_free_device(h, dev, (void **)&dA);
                }
                CHECK(rc > 0 || (rc == 0 && PS(nan_any)(A, nn)),
                      "%c%s %s at the %s element: info %d, factor %s", CH, name[r],
                      bad_name[b], where_name[k], rc, PS(nan_any)(A, nn) ? "not finite" : "finite");
            }
    free(A);
    leak_check(h, "getrf NaN");
}

/* One solver call on copies of A0 and B0 with the bad value in A (in_b 0,
 * at (i, j) of A) or in B (in_b 1): HYLA_ERR_NAN, A and B as passed. r: 0
 * posv (uplo), 1 gesv, 2 gesv_nopiv, 3 gesv_rbt, 4 gesv_rbt_gpu. */
static void PS(nan_solve1)(hyla_t *h, int dev, int r, char uplo, const T *A0, const T *B0,
                           int in_b, int64_t i, int64_t j, double v) {
    static const char *const name[5] = {"posv", "gesv", "gesv_nopiv", "gesv_rbt", "gesv_rbt_gpu"};
    const int64_t nn = NN * NN, nb = NN * NRHS;
    T *A = malloc((size_t)nn * sizeof(T)), *B = malloc((size_t)nb * sizeof(T));
    T *Ain = malloc((size_t)nn * sizeof(T)), *Bin = malloc((size_t)nb * sizeof(T));
    int64_t ipiv[NN];
    hyla_rbt_info info;
    memcpy(Ain, A0, (size_t)nn * sizeof(T));
    memcpy(Bin, B0, (size_t)nb * sizeof(T));
    put(DT, in_b ? Bin : Ain, i + j * NN, v);
    memcpy(A, Ain, (size_t)nn * sizeof(T));
    memcpy(B, Bin, (size_t)nb * sizeof(T));
    int rc, same;
    if (r == 4) {
        T *dA = PS(nan_up)(h, dev, A, nn), *dB = PS(nan_up)(h, dev, B, nb);
        rc = dA && dB ? PN(gesv_rbt_gpu)(h, dev, NN, NRHS, dA, NN, dB, NN, NULL, &info) : 0;
        same = dA && dB && PS(nan_same_dev)(h, dev, dA, Ain, nn) &&
               PS(nan_same_dev)(h, dev, dB, Bin, nb);
        hyla_free_device(h, dev, (void **)&dA);
        hyla_free_device(h, dev, (void **)&dB);
    } else {
        switch (r) {
        case 0: rc = PN(posv)(h, uplo, NN, NRHS, A, NN, B, NN); break;
        case 1: rc = PN(gesv)(h, NN, NRHS, A, NN, ipiv, B, NN); break;
        case 2: rc = PN(gesv_nopiv)(h, NN, NRHS, A, NN, B, NN); break;
        default: rc = PN(gesv_rbt)(h, NN, NRHS, A, NN, B, NN, NULL, &info); break;
        }
        same = memcmp(A, Ain, (size_t)nn * sizeof(T)) == 0 &&
               memcmp(B, Bin, (size_t)nb * sizeof(T)) == 0;
    }
    CHECK(rc == HYLA_ERR_NAN && same, "%c%s uplo %c %s at (%lld, %lld) of %c: %d (%s), A and B %s",
          CH, name[r], uplo, isnan(v) ? "NaN" : "Inf", (long long)i, (long long)j, in_b ? 'B' : 'A',
          rc, hyla_strerror(rc), same ? "as passed" : "changed");
    free(A), free(B), free(Ain), free(Bin);
}

/* the solvers: NaN and Inf at three places of A's part read and of B; a
 * NaN in the triangle posv does not read changes nothing */
static void PS(nan_solve)(hyla_t *h, int dev, const T *A0, unsigned long long *s) {
    T *B0 = malloc((size_t)(NN * NRHS) * sizeof(T));
    PS(rand_fill)(B0, NN * NRHS, s);
    for (int r = 0; r < 5; r++)
        for (int u = 0; u < (r == 0 ? 2 : 1); u++)
            for (int b = 0; b < 2; b++)
                for (int k = 0; k < 3; k++) {
                    const char uplo = r == 0 ? "LU"[u] : 'G';
                    int64_t i, j;
                    place(uplo, NN, NN, k, &i, &j);
                    PS(nan_solve1)(h, dev, r, uplo, A0, B0, 0, i, j, bad_value(b));
                    place('G', NN, NRHS, k, &i, &j);
                    PS(nan_solve1)(h, dev, r, uplo, A0, B0, 1, i, j, bad_value(b));
                }
    T *A = malloc((size_t)(NN * NN) * sizeof(T)), *B = malloc((size_t)(NN * NRHS) * sizeof(T));
    memcpy(A, A0, (size_t)(NN * NN) * sizeof(T));
    memcpy(B, B0, (size_t)(NN * NRHS) * sizeof(T));
    put(DT, A, 0 + (NN - 1) * NN, NAN);
    CHECK(PN(posv)(h, 'L', NN, NRHS, A, NN, B, NN) == 0 && !PS(nan_any)(B, NN * NRHS),
          "%cposv: NaN in the triangle not read", CH);
    free(A), free(B), free(B0);
    leak_check(h, "solvers NaN");
}

/* the eigensolvers: ?syevd / ?heevd, _gpu and _mgpu, and the band
 * reduction */
static void PS(nan_eig)(hyla_t *h, int dev, const T *A0) {
    const int64_t nn = NN * NN;
    T *A = malloc((size_t)nn * sizeof(T)), *Ain = malloc((size_t)nn * sizeof(T));
    R w[NN];
    static const char *const name[3] = {"evd", "evd_gpu", "evd_mgpu"};
    for (int r = 0; r < 3; r++)
        for (int u = 0; u < 2; u++)
            for (int b = 0; b < 2; b++)
                for (int k = 0; k < 3; k++) {
                    const char uplo = "LU"[u], jobz = "NV"[k % 2];
                    int64_t i, j;
                    place(uplo, NN, NN, k, &i, &j);
                    memcpy(Ain, A0, (size_t)nn * sizeof(T));
                    put(DT, Ain, i + j * NN, bad_value(b));
                    memcpy(A, Ain, (size_t)nn * sizeof(T));
                    int rc, same = 1;
                    if (r == 0) {
                        rc = EVD(h, jobz, uplo, NN, A, NN, w);
                        same = memcmp(A, Ain, (size_t)nn * sizeof(T)) == 0;
                    } else if (r == 1) {
                        T *dA = PS(nan_up)(h, dev, A, nn);
                        if (!dA) continue;
                        rc = EVD_GPU(h, dev, jobz, uplo, NN, dA, NN, w);
                        same = PS(nan_same_dev)(h, dev, dA, Ain, nn);
                        hyla_free_device(h, dev, (void **)&dA);
                    } else {
                        hyla_dist_matrix *M = NULL;
                        rc = hyla_dist_create(h, DT, NN, &M);
                        if (!rc) rc = hyla_dist_set(h, M, A, NN);
                        if (!rc) rc = EVD_M(h, jobz, uplo, M, w);
                        hyla_dist_destroy(h, &M);
                    }
                    CHECK(rc == HYLA_ERR_NAN && same,
                          "%c%s jobz %c uplo %c %s at (%lld, %lld): %d (%s), A %s", CH, name[r],
                          jobz, uplo, bad_name[b], (long long)i, (long long)j, rc,
                          hyla_strerror(rc), same ? "as passed" : "changed");
                }
    /* NaN in the triangle not read: the eigenvalues of the other */
    for (int r = 0; r < 2; r++) {
        memcpy(A, A0, (size_t)nn * sizeof(T));
        put(DT, A, (NN - 1) + 0 * NN, NAN);
        int rc;
        if (r == 0) {
            rc = EVD(h, 'N', 'U', NN, A, NN, w);
        } else {
            T *dA = PS(nan_up)(h, dev, A, nn);
            if (!dA) continue;
            rc = EVD_GPU(h, dev, 'N', 'U', NN, dA, NN, w);
            hyla_free_device(h, dev, (void **)&dA);
        }
        int finite = 1;
        for (int64_t c = 0; c < NN; c++) finite &= isfinite(w[c]) != 0;
        CHECK(rc == 0 && finite, "%c%s NaN in the triangle not read: %d", CH, name[r], rc);
    }
    free(A), free(Ain);

    /* the band reduction: AB in lower band storage */
    T AB[(KD + 1) * NN];
    R d[NN], e[NN];
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 3; k++) {
            for (int64_t c = 0; c < (KD + 1) * NN; c++) AB[c] = c % (KD + 1) == 0 ? (T)4 : (T)0.5;
            const int64_t at = k == 0 ? 0 : k == 1 ? 1 + (NN / 2) * (KD + 1) : (NN - 1) * (KD + 1);
            put(DT, AB, at, bad_value(b));
            hyla_sb2st_q *q = NULL;
            int rc = SB2ST(h, "NV"[k % 2], NN, KD, AB, KD + 1, d, e, &q);
            CHECK(rc == HYLA_ERR_NAN && !q, "%c band reduction %s at the %s element: %d", CH,
                  bad_name[b], where_name[k], rc);
            hyla_sb2st_q_free(&q);
        }
    leak_check(h, "eigensolvers NaN");
}

/* finite entries whose row sums pass the single range (about 55 x 8e36 >
 * FLT_MAX): no NaN or Inf to ?gesv_rbt, which solves */
static void PS(nan_huge)(hyla_t *h, const T *A0, unsigned long long *s) {
    const double scale = 8e36; /* the diagonal (about 37) stays below FLT_MAX */
    T *A = malloc((size_t)(NN * NN) * sizeof(T)), *B = malloc((size_t)(NN * NRHS) * sizeof(T));
    T *B0 = malloc((size_t)(NN * NRHS) * sizeof(T));
    for (int64_t c = 0; c < NN * NN; c++) put(DT, A, c, get(DT, A0, c) * scale);
    PS(rand_fill)(B0, NN * NRHS, s);
    for (int64_t c = 0; c < NN * NRHS; c++) put(DT, B0, c, get(DT, B0, c) * scale);
    memcpy(B, B0, (size_t)(NN * NRHS) * sizeof(T));
    hyla_rbt_info info;
    const int rc = PN(gesv_rbt)(h, NN, NRHS, A, NN, B, NN, NULL, &info);
    /* max_j |b_j - A x_j|_inf / (|A|_inf |x_j|_inf + |b_j|_inf), in double */
    double berr = 0, anorm = 0;
    for (int64_t i = 0; i < NN; i++) {
        double r = 0;
        for (int64_t j = 0; j < NN; j++) r += cabs(get(DT, A, i + j * NN));
        if (r > anorm) anorm = r;
    }
    for (int64_t k = 0; k < NRHS; k++) {
        double rn = 0, xn = 0, bn = 0;
        for (int64_t i = 0; i < NN; i++) {
            zc r = get(DT, B0, i + k * NN);
            for (int64_t j = 0; j < NN; j++) r -= get(DT, A, i + j * NN) * get(DT, B, j + k * NN);
            rn = fmax(rn, cabs(r));
            xn = fmax(xn, cabs(get(DT, B, i + k * NN)));
            bn = fmax(bn, cabs(get(DT, B0, i + k * NN)));
        }
        berr = fmax(berr, rn / (anorm * xn + bn));
    }
    CHECK(rc == 0 && berr < 100 * NN * eps_of(DT),
          "%cgesv_rbt huge finite entries: %d (%s), backward error %.3g", CH, rc,
          hyla_strerror(rc), berr);
    free(A), free(B), free(B0);
    leak_check(h, "gesv_rbt huge");
}

static void PN(nan_all)(hyla_t *h, unsigned long long *s) {
    const int dev = hyla_device_count(h) - 1; /* another device than 0 when there are several */
    T *A0 = malloc((size_t)(NN * NN) * sizeof(T));
    PS(nan_fill)(A0, NN, NN, s);
    PS(nan_potrf)(h, dev, A0);
    PS(nan_getrf)(h, dev, A0);
    PS(nan_solve)(h, dev, A0, s);
    PS(nan_huge)(h, A0, s);
    PS(nan_eig)(h, dev, A0);
    free(A0);
}
