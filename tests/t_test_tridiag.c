/* Tridiagonal eigensolver tests for one real precision (included by
 * test_tridiag.c with prec.h set). Reference: LAPACKE ?sterf / ?stedc. */

#include "t_tridiag_util.c"

/* The test matrices: class c of order n into (d, e). */
static void PN(tt_make)(int c, int64_t n, R *d, R *e, unsigned long long *s) {
    if (c >= MAT_GEOMETRIC) {
        double *dd = malloc(sizeof *dd * (size_t)(n + 1)), *ee = malloc(sizeof *ee * (size_t)(n + 1));
        make_spectrum(c, n, sizeof(R) == 4 ? 1e6 : 1e12, dd, ee, s);
        for (int64_t i = 0; i < n; i++) {
            d[i] = (R)dd[i];
            if (i + 1 < n) e[i] = (R)ee[i];
        }
        free(dd);
        free(ee);
        return;
    }
    PN(tri_make)(c, n, d, e, s);
}

/* Eigenvalues w (ascending) against the reference: max |w - wref| / (n |T| eps). */
static double PN(tt_eig_err)(int64_t n, const R *w, const double *wref, double tnorm) {
    double m = 0;
    for (int64_t i = 0; i < n; i++) m = fmax(m, fabs((double)w[i] - wref[i]));
    if (m == 0) return 0;
    if (tnorm == 0) return INFINITY;
    return m / ((double)n * tnorm * EPS);
}

/* |T - Z L Z^T|_1 / (n |T|_1 eps) and |I - Z^T Z|_1 / (n eps), in double. */
static void PN(tt_resid)(int64_t n, const R *d, const R *e, const R *w, const R *Z, int64_t ldz,
                          double *res, double *orth) {
    double *A = calloc((size_t)(n * n), sizeof *A), *Zd = malloc(sizeof *Zd * (size_t)(n * n)),
           *W = malloc(sizeof *W * (size_t)(n * n));
    /* T and Z scaled by a power of two so that 1e+-150 norms stay in range */
    double tn = PN(tri_norm)(n, d, e), sc = tn > 0 ? pow(2, -ceil(log2(tn))) : 1;
    for (int64_t j = 0; j < n; j++) {
        A[j + j * n] = d[j] * sc;
        if (j + 1 < n) A[j + 1 + j * n] = A[j + (j + 1) * n] = e[j] * sc;
        for (int64_t i = 0; i < n; i++) {
            Zd[i + j * n] = Z[i + j * ldz];
            W[i + j * n] = Zd[i + j * n] * (double)w[j] * sc;
        }
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)n, (int)n, (int)n, -1.0, W, (int)n,
                Zd, (int)n, 1.0, A, (int)n);
    double num = 0;
    for (int64_t j = 0; j < n; j++) {
        double c = 0;
        for (int64_t i = 0; i < n; i++) c += fabs(A[i + j * n]);
        num = fmax(num, c);
    }
    double den = tn * sc;
    *res = num == 0 ? 0 : den == 0 ? INFINITY : num / ((double)n * den * EPS);
    for (int64_t i = 0; i < n * n; i++) A[i] = 0;
    for (int64_t i = 0; i < n; i++) A[i + i * n] = 1;
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)n, (int)n, -1.0, Zd, (int)n,
                Zd, (int)n, 1.0, A, (int)n);
    num = 0;
    for (int64_t j = 0; j < n; j++) {
        double c = 0;
        for (int64_t i = 0; i < n; i++) c += fabs(A[i + j * n]);
        num = fmax(num, c);
    }
    *orth = num / ((double)n * EPS);
    free(A);
    free(Zd);
    free(W);
}

/* Columns c0 .. c1 - 1 of Z (ldz) as eigenvectors of T = (d, e) with the
 * eigenvalues w[c0 .. c1 - 1]: max_j |T z_j - w_j z_j|_1 / (n |T|_1 eps) and
 * |I - Z_c^T Z_c|_1 / (n eps), in double. */
static void PN(tt_resid_cols)(int64_t n, const R *d, const R *e, const R *w, const R *Z,
                               int64_t ldz, int64_t c0, int64_t c1, double *res, double *orth) {
    const int64_t m = c1 - c0;
    double *Zd = malloc(sizeof *Zd * (size_t)(n * m)), *G = malloc(sizeof *G * (size_t)(m * m));
    const double tn = PN(tri_norm)(n, d, e);
    double num = 0;
    for (int64_t j = 0; j < m; j++) {
        const R *z = Z + (c0 + j) * ldz;
        double c = 0;
        for (int64_t i = 0; i < n; i++) {
            double t = (double)d[i] * z[i] - (double)w[c0 + j] * z[i];
            if (i > 0) t += (double)e[i - 1] * z[i - 1];
            if (i + 1 < n) t += (double)e[i] * z[i + 1];
            c += fabs(t);
            Zd[i + j * n] = z[i];
        }
        num = c > num || isnan(c) ? c : num; /* NaN kept */
    }
    *res = num == 0 ? 0 : tn == 0 ? INFINITY : num / ((double)n * tn * EPS);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)m, (int)m, (int)n, 1.0, Zd, (int)n,
                Zd, (int)n, 0.0, G, (int)m);
    num = 0;
    for (int64_t j = 0; j < m; j++) {
        double c = 0;
        for (int64_t i = 0; i < m; i++) c += fabs(G[i + j * m] - (i == j));
        num = c > num || isnan(c) ? c : num; /* NaN kept */
    }
    *orth = num / ((double)n * EPS);
    free(Zd);
    free(G);
}

/* One matrix: sterf and stedc ('N' and 'I', given leaf and device threshold)
 * against LAPACKE. */
static void PN(tt_case)(hyla_t *h, int c, int64_t n, int64_t leaf, int64_t gemm_min,
                        unsigned long long *s) {
    const int64_t ldz = n + 3;
    R *d0 = malloc(sizeof(R) * (size_t)(n + 1)), *e0 = malloc(sizeof(R) * (size_t)(n + 1));
    R *d = malloc(sizeof(R) * (size_t)(n + 1)), *e = malloc(sizeof(R) * (size_t)(n + 1));
    R *Z = malloc(sizeof(R) * (size_t)(ldz * n + 1));
    double *wref = malloc(sizeof(double) * (size_t)(n + 1));
    R *wr = malloc(sizeof(R) * (size_t)(n + 1)), *Zr = malloc(sizeof(R) * (size_t)(n * n + 1));
    PN(tt_make)(c, n, d0, e0, s);
    const double tn = PN(tri_norm)(n, d0, e0);
    char what[96];
    snprintf(what, sizeof what, "%c n=%lld %s leaf=%lld gemm_min=%lld", CH, (long long)n,
             mat_name[c], (long long)leaf, (long long)gemm_min);

    /* reference: LAPACK divide and conquer */
    memcpy(wr, d0, sizeof(R) * (size_t)n);
    memcpy(e, e0, sizeof(R) * (size_t)(n > 0 ? n - 1 : 0));
    int ri = n > 0 ? LP(stedc)(LAPACK_COL_MAJOR, 'I', (lapack_int)n, wr, e, Zr, (lapack_int)n) : 0;
    CHECK(ri == 0, "%s: LAPACKE stedc info %d", what, ri);
    for (int64_t i = 0; i < n; i++) wref[i] = wr[i];
    if (c == MAT_TOEPLITZ)
        for (int64_t i = 0; i < n; i++)
            wref[i] = 2 - 2 * cos((double)(i + 1) * M_PI / (double)(n + 1));

    /* sterf */
    memcpy(d, d0, sizeof(R) * (size_t)n);
    memcpy(e, e0, sizeof(R) * (size_t)(n > 0 ? n - 1 : 0));
    int rc = PN(sterf)(n, d, e);
    double err = PN(tt_eig_err)(n, d, wref, tn);
    CHECK(rc == 0 && err < THRESH, "%s: sterf rc %d, eigenvalue error %.3g", what, rc, err);
    for (int64_t i = 0; i + 1 < n; i++)
        if (d[i] > d[i + 1]) {
            CHECK(0, "%s: sterf eigenvalues not ascending at %lld", what, (long long)i);
            break;
        }
    /* sterf's divide and conquer on every block of 2+ rows, leaves of 4 rows */
    memcpy(d, d0, sizeof(R) * (size_t)n);
    memcpy(e, e0, sizeof(R) * (size_t)(n > 0 ? n - 1 : 0));
    rc = hyla_eig_sterf_tuned(DT, n, d, e, 2, 4);
    err = PN(tt_eig_err)(n, d, wref, tn);
    CHECK(rc == 0 && err < THRESH, "%s: sterf divide and conquer rc %d, eigenvalue error %.3g",
          what, rc, err);
    for (int64_t i = 0; i + 1 < n; i++)
        if (d[i] > d[i + 1]) {
            CHECK(0, "%s: sterf divide and conquer not ascending at %lld", what, (long long)i);
            break;
        }
    leak_check(h, what);

    /* stedc with vectors */
    memcpy(d, d0, sizeof(R) * (size_t)n);
    memcpy(e, e0, sizeof(R) * (size_t)(n > 0 ? n - 1 : 0));
    for (int64_t i = 0; i < ldz * n; i++) Z[i] = (R)SENTINEL;
    if (leaf == 0 && gemm_min == 0)
        rc = PN(stedc)(h, 'I', n, d, e, Z, ldz);
    else
        rc = hyla_eig_stedc_tuned(h, DT, n, d, e, Z, ldz, NULL, 0, leaf, gemm_min);
    err = PN(tt_eig_err)(n, d, wref, tn);
    CHECK(rc == 0 && err < THRESH, "%s: stedc rc %d, eigenvalue error %.3g", what, rc, err);
    int sorted = 1, pad = 1;
    for (int64_t i = 0; i + 1 < n; i++) sorted &= d[i] <= d[i + 1];
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = n; i < ldz; i++) pad &= Z[i + j * ldz] == (R)SENTINEL;
    CHECK(sorted && pad, "%s: stedc ascending %d, padding kept %d", what, sorted, pad);
    if (rc == 0 && n > 0) {
        double res, orth;
        PN(tt_resid)(n, d0, e0, d, Z, ldz, &res, &orth);
        CHECK(res < THRESH && orth < THRESH, "%s: stedc |T - Z L Z^T| %.3g, |I - Z^T Z| %.3g",
              what, res, orth);
    }
    leak_check(h, what);

    /* eigenvectors delivered to device memory (Z then workspace): the same
     * eigenvalues, bit for bit, and the same checks on the downloaded Z */
    if (n > 0) {
        R *dv = malloc(sizeof(R) * (size_t)n);
        void *dZ = NULL;
        memcpy(dv, d0, sizeof(R) * (size_t)n);
        memcpy(e, e0, sizeof(R) * (size_t)(n - 1));
        const int64_t lddz = n + 1;
        rc = hyla_malloc_device(h, 0, sizeof(R) * (size_t)(lddz * n), &dZ);
        if (rc == 0)
            rc = hyla_eig_stedc_tuned(h, DT, n, dv, e, Zr, n, dZ, lddz, leaf, gemm_min);
        for (int64_t i = 0; i < ldz * n; i++) Z[i] = (R)SENTINEL;
        for (int64_t j = 0; j < n && rc == 0; j++)
            rc = hyla_copy_from_device(h, 0, Z + j * ldz, (R *)dZ + j * lddz, sizeof(R) * (size_t)n);
        /* bit for bit where both ran on one device; with several, the
         * host-output run deals the rows over them, whose GEMMs may round
         * differently */
        int same = 1;
        if (h->ndev == 1)
            for (int64_t i = 0; i < n; i++) same &= dv[i] == d[i];
        else
            same = PN(tt_eig_err)(n, dv, wref, tn) < THRESH;
        CHECK(rc == 0 && same, "%s: stedc into device memory rc %d, same eigenvalues %d", what, rc,
              same);
        if (rc == 0) {
            double res, orth;
            PN(tt_resid)(n, d0, e0, dv, Z, ldz, &res, &orth);
            CHECK(res < THRESH && orth < THRESH,
                  "%s: stedc into device memory |T - Z L Z^T| %.3g, |I - Z^T Z| %.3g", what, res,
                  orth);
        }
        /* columns c0 .. c1 - 1 alone (the middle third; then the last
         * one): the same eigenvalues, and those columns pass the checks;
         * where device levels are forced (gemm_min > 0), the only runs
         * here whose top merge forms fewer columns */
        for (int win = 0; win < 2 && rc == 0 && dZ && gemm_min > 0; win++) {
            const int64_t c0 = win ? n - 1 : n / 3, c1 = win ? n : HYLA_MAX(c0 + 1, 2 * n / 3);
            memcpy(dv, d0, sizeof(R) * (size_t)n);
            memcpy(e, e0, sizeof(R) * (size_t)(n - 1));
            int rw = hyla_eig_stedc_cols(h, DT, n, dv, e, Zr, n, dZ, lddz, c0, c1, leaf,
                                         gemm_min);
            for (int64_t i = 0; i < ldz * n; i++) Z[i] = (R)SENTINEL;
            for (int64_t j = c0; j < c1 && rw == 0; j++)
                rw = hyla_copy_from_device(h, 0, Z + j * ldz, (R *)dZ + j * lddz,
                                           sizeof(R) * (size_t)n);
            double res = INFINITY, orth = INFINITY;
            err = PN(tt_eig_err)(n, dv, wref, tn);
            if (rw == 0) PN(tt_resid_cols)(n, d0, e0, dv, Z, ldz, c0, c1, &res, &orth);
            CHECK(rw == 0 && err < THRESH && res < THRESH && orth < THRESH,
                  "%s: stedc columns %lld..%lld rc %d, eigenvalue error %.3g, |T z - z l| %.3g, "
                  "|I - Z^T Z| %.3g",
                  what, (long long)c0, (long long)c1 - 1, rw, err, res, orth);
        }
        if (dZ) {
            CHECK(hyla_eig_stedc_cols(h, DT, n, dv, e, Zr, n, dZ, lddz, 0, 0, leaf, gemm_min) ==
                          HYLA_ERR_INVALID &&
                      hyla_eig_stedc_cols(h, DT, n, dv, e, Zr, n, dZ, lddz, 0, n + 1, leaf,
                                          gemm_min) == HYLA_ERR_INVALID &&
                      hyla_eig_stedc_cols(h, DT, n, dv, e, Zr, n, NULL, lddz, 0, n, leaf,
                                          gemm_min) == HYLA_ERR_INVALID,
                  "%s: stedc columns: empty, past n, no dZ refused", what);
        }
        hyla_free_device(h, 0, &dZ);
        free(dv);
        leak_check(h, what);
    }

    /* eigenvectors left on the devices by rows, merge matrices built by
     * about four blocks of columns: the rows gathered must pass the same
     * checks (where device levels can run: forced, or past the default
     * threshold) */
    if (n > 0 && (gemm_min > 0 || n >= 512)) {
        R *dv = malloc(sizeof(R) * (size_t)n);
        hyla_eig_zrows zr;
        memcpy(dv, d0, sizeof(R) * (size_t)n);
        memcpy(e, e0, sizeof(R) * (size_t)(n - 1));
        for (int64_t i = 0; i < ldz * n; i++) Z[i] = (R)SENTINEL;
        rc = hyla_eig_stedc_rows(h, DT, n, dv, e, Z, ldz, leaf, gemm_min, HYLA_MAX(7, n / 4), &zr);
        int layout = zr.nd >= 0 && zr.nd <= h->ndev;
        if (rc == 0 && zr.nd > 0) {
            layout &= zr.r[0] == 0 && zr.r[zr.nd] == n;
            for (int g = 0; g < zr.nd; g++) {
                const int64_t rows = zr.r[g + 1] - zr.r[g];
                layout &= rows >= 0 && zr.ld[g] >= HYLA_MAX(1, rows) && (rows == 0 || zr.blk[g]);
                for (int64_t j = 0; j < n && rc == 0 && rows > 0; j++)
                    rc = hyla_copy_from_device(h, g, Z + zr.r[g] + j * ldz,
                                               (R *)zr.blk[g] + j * zr.ld[g],
                                               sizeof(R) * (size_t)rows);
            }
        }
        /* one unreduced block with every merge on the devices stays there */
        if (rc == 0 && gemm_min == 1 && n > leaf && (c == MAT_RANDOM || c == MAT_TOEPLITZ)) {
            int64_t nleaf = 1; /* every leaf a block of the first device level */
            while ((n + nleaf - 1) / nleaf > leaf) nleaf *= 2;
            layout &= zr.nd == HYLA_MIN(h->ndev, nleaf);
        }
        CHECK(rc == 0 && layout, "%s: stedc by rows rc %d, layout %d (devices %d)", what, rc,
              layout, zr.nd);
        if (rc == 0) {
            double res, orth;
            err = PN(tt_eig_err)(n, dv, wref, tn);
            PN(tt_resid)(n, d0, e0, dv, Z, ldz, &res, &orth);
            CHECK(err < THRESH && res < THRESH && orth < THRESH,
                  "%s: stedc by rows eigenvalue error %.3g, |T - Z L Z^T| %.3g, |I - Z^T Z| %.3g",
                  what, err, res, orth);
        }
        hyla_eig_zrows_free(h, &zr);
        CHECK(zr.nd == 0, "%s: zrows_free resets", what);
        free(dv);
        leak_check(h, what);
    }

    /* stedc 'N' */
    memcpy(d, d0, sizeof(R) * (size_t)n);
    memcpy(e, e0, sizeof(R) * (size_t)(n > 0 ? n - 1 : 0));
    rc = PN(stedc)(h, 'N', n, d, e, NULL, 1);
    err = PN(tt_eig_err)(n, d, wref, tn);
    CHECK(rc == 0 && err < THRESH, "%s: stedc 'N' rc %d, eigenvalue error %.3g", what, rc, err);
    free(d0);
    free(e0);
    free(d);
    free(e);
    free(Z);
    free(wref);
    free(wr);
    free(Zr);
}

/* NaN / Inf input, bad arguments, quick returns. */
static void PN(tt_bad)(hyla_t *h) {
    R d[8], e[8], Z[64];
    for (int where = 0; where < 4; where++) {
        PN(tri_nonfinite)(where, d, e);
        R dd[8], ee[8];
        memcpy(dd, d, sizeof d);
        memcpy(ee, e, sizeof e);
        int rc = PN(sterf)(8, dd, ee);
        CHECK(rc == HYLA_ERR_NAN, "%c sterf non-finite input (%d): %d", CH, where, rc);
        memcpy(dd, d, sizeof d);
        memcpy(ee, e, sizeof e);
        rc = PN(stedc)(h, 'I', 8, dd, ee, Z, 8);
        CHECK(rc == HYLA_ERR_NAN, "%c stedc non-finite input (%d): %d", CH, where, rc);
        memcpy(dd, d, sizeof d);
        memcpy(ee, e, sizeof e);
        rc = PN(stedc)(h, 'N', 8, dd, ee, NULL, 1);
        CHECK(rc == HYLA_ERR_NAN, "%c stedc 'N' non-finite input (%d): %d", CH, where, rc);
    }
    d[0] = (R)NAN;
    CHECK(PN(sterf)(1, d, NULL) == HYLA_ERR_NAN, "%c sterf n=1 NaN", CH);
    d[0] = 3;
    CHECK(PN(sterf)(1, d, NULL) == 0 && d[0] == 3, "%c sterf n=1", CH);
    CHECK(PN(stedc)(h, 'I', 1, d, NULL, Z, 1) == 0 && d[0] == 3 && Z[0] == 1, "%c stedc n=1", CH);
    CHECK(PN(sterf)(0, NULL, NULL) == 0, "%c sterf n=0", CH);
    CHECK(PN(stedc)(h, 'I', 0, NULL, NULL, NULL, 1) == 0, "%c stedc n=0", CH);
    CHECK(PN(sterf)(-1, d, e) == -1, "%c sterf n<0", CH);
    CHECK(PN(sterf)(2, NULL, e) == -2, "%c sterf d NULL", CH);
    CHECK(PN(sterf)(2, d, NULL) == -3, "%c sterf e NULL", CH);
    CHECK(PN(stedc)(h, 'V', 2, d, e, Z, 2) == -1, "%c stedc compz", CH);
    CHECK(PN(stedc)(h, 'I', -1, d, e, Z, 2) == -2, "%c stedc n<0", CH);
    CHECK(PN(stedc)(h, 'I', 2, NULL, e, Z, 2) == -3, "%c stedc d NULL", CH);
    CHECK(PN(stedc)(h, 'I', 2, d, NULL, Z, 2) == -4, "%c stedc e NULL", CH);
    CHECK(PN(stedc)(h, 'I', 2, d, e, NULL, 2) == -5, "%c stedc Z NULL", CH);
    CHECK(PN(stedc)(h, 'I', 3, d, e, Z, 2) == -6, "%c stedc ldz", CH);
    CHECK(PN(stedc)(h, 'N', 3, d, e, NULL, 0) == -6, "%c stedc ldz 0", CH);
    CHECK(PN(stedc)(NULL, 'I', 2, d, e, Z, 2) == HYLA_ERR_INVALID, "%c stedc NULL ctx", CH);
}

static void PN(tt_all)(hyla_t *h, unsigned long long *s) {
    static const int64_t sizes[] = {0, 1, 2, 3, 7, 25, 31, 32, 33, 64, 65, 100, 129, 300};
    for (int c = 0; c < MAT_COUNT; c++)
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            PN(tt_case)(h, c, sizes[k], 0, 0, s);
            /* many levels of merges, every merge GEMM on the devices */
            if (sizes[k] >= 25 && sizes[k] <= 129) PN(tt_case)(h, c, sizes[k], 5, 1, s);
        }
    PN(tt_case)(h, MAT_RANDOM, 400, 25, 100, s);
    PN(tt_case)(h, MAT_GLUED, 420, 0, 1, s);
    /* past sterf's divide and conquer threshold with the default tuning */
    static const int big[] = {MAT_RANDOM, MAT_GLUED, MAT_CLUSTER, MAT_GRADED, MAT_WILKINSON,
                              MAT_TOEPLITZ, MAT_GEOMETRIC};
    for (size_t c = 0; c < sizeof big / sizeof *big; c++) PN(tt_case)(h, big[c], 601, 0, 0, s);
    PN(tt_bad)(h);
}

#undef LP
#undef HUGE_SCALE
#undef EPS
