/* hyla_?syevdx / ?heevdx (eig/evx.c) on the devices of HYLA_DEVICES, every
 * precision, uplo L and U, jobz N and V, range A, I (the lowest tenth, a
 * middle slice, one eigenvalue) and V (an interval whose ends lie between
 * eigenvalues), orders 0, 1, 2, 5, 40 and 130 (two band widths of stage 1):
 * the count and the eigenvalues against LAPACKE's ?syevd, the residual
 * |A Z - Z W| / (n |A| eps) and orthogonality |Z^H Z - I| / (n eps) of the
 * m vectors; NaN in the triangle read, every bad argument. */
#include "test_util.h"
#include "core/internal.h"
#include "backend/ops/ops.h"
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 11;
static double urand(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 9007199254740992.0 - 0.5;
}

static hyla_dtype real_of(hyla_dtype t) { return t == HYLA_C ? HYLA_S : t == HYLA_Z ? HYLA_D : t; }

static int call(hyla_t *h, hyla_dtype t, char jobz, char range, char uplo, int64_t n, void *A,
                int64_t lda, double vl, double vu, int64_t il, int64_t iu, int64_t *m, void *w,
                void *Z, int64_t ldz) {
    switch (t) {
    case HYLA_S:
        return hyla_ssyevdx(h, jobz, range, uplo, n, A, lda, (float)vl, (float)vu, il, iu, m, w, Z, ldz);
    case HYLA_D: return hyla_dsyevdx(h, jobz, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz);
    case HYLA_C:
        return hyla_cheevdx(h, jobz, range, uplo, n, A, lda, (float)vl, (float)vu, il, iu, m, w, Z, ldz);
    default: return hyla_zheevdx(h, jobz, range, uplo, n, A, lda, vl, vu, il, iu, m, w, Z, ldz);
    }
}

/* all eigenvalues of the n x n Hermitian A0 (double complex, full), ascending */
static void reference(int64_t n, const zc *A0, double *wr) {
    double _Complex *A = malloc(sizeof *A * (size_t)(n * n));
    memcpy(A, A0, sizeof *A * (size_t)(n * n));
    LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, A, (lapack_int)n, wr);
    free(A);
}

static void one_case(hyla_t *h, hyla_dtype t, char jobz, char range, char uplo, int64_t n,
                     int64_t il, int64_t iu, const zc *A0, const double *wr) {
    const double eps = eps_of(t);
    const int64_t ld = n + 2;
    const size_t es = is_cplx(t) ? (is_single(t) ? 8 : 16) : (is_single(t) ? 4 : 8);
    char *A = calloc((size_t)(ld * n + 1), es), *Z = calloc((size_t)(ld * n + 1), es);
    double *w = calloc((size_t)n + 1, sizeof(double));
    char what[128];
    /* range V: from between eigenvalue il-1 and il to between iu and iu+1 */
    double vl = 0, vu = 0;
    if (range == 'V' && n > 0) {
        vl = il > 1 ? (wr[il - 2] + wr[il - 1]) / 2 : wr[0] - 1;
        vu = iu < n ? (wr[iu - 1] + wr[iu]) / 2 : wr[n - 1] + 1;
    }
    snprintf(what, sizeof what, "%c jobz %c range %c uplo %c n %lld il %lld iu %lld", "sdcz"[t],
             jobz, range, uplo, (long long)n, (long long)il, (long long)iu);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            const int in = uplo == 'L' ? i >= j : i <= j;
            put(t, A, i + j * ld, in ? A0[i + j * n] : 1e30);
        }
    int64_t m = -1;
    int rc = call(h, t, jobz, range, uplo, n, A, ld, vl, vu, il, iu, &m, w, Z, ld);
    const int64_t want = range == 'A' ? n : iu - il + 1, first = range == 'A' ? 0 : il - 1;
    CHECK(rc == 0 && m == want, "%s: returned %d, m %lld, want %lld", what, rc, (long long)m,
          (long long)want);
    if (rc || m != want || n == 0) goto out;
    double d = 0, amax = 0;
    for (int64_t k = 0; k < n; k++) amax = fmax(amax, fabs(wr[k]));
    for (int64_t k = 0; k < m; k++) {
        const double x = creal(get(real_of(t), w, k));
        d = fmax(d, fabs(x - wr[first + k]));
    }
    CHECK(d <= 100 * (double)n * eps * fmax(amax, 1e-300), "%s: eigenvalues differ by %.3g", what,
          d / (eps * amax));
    if (jobz == 'V') {
        double res = 0, orth = 0;
        for (int64_t k = 0; k < m; k++) {
            const double lam = creal(get(real_of(t), w, k));
            for (int64_t i = 0; i < n; i++) {
                zc s = 0;
                for (int64_t l = 0; l < n; l++) s += A0[i + l * n] * get(t, Z, l + k * ld);
                res = fmax(res, cabs(s - lam * get(t, Z, i + k * ld)));
            }
            for (int64_t k2 = 0; k2 < m; k2++) {
                zc s = 0;
                for (int64_t l = 0; l < n; l++) s += conj(get(t, Z, l + k * ld)) * get(t, Z, l + k2 * ld);
                orth = fmax(orth, cabs(s - (k == k2 ? 1 : 0)));
            }
        }
        CHECK(res / ((double)n * eps * fmax(amax, 1e-300)) < 60, "%s: residual %.3g", what,
              res / ((double)n * eps * amax));
        CHECK(orth / ((double)n * eps) < 60, "%s: orthogonality %.3g", what, orth / (n * eps));
    }
out:
    free(A), free(Z), free(w);
}

static void failures(hyla_t *h) {
    enum { N = 5 };
    double A[N * N] = {0}, Z[N * N], w[N];
    int64_t m;
    for (int i = 0; i < N; i++) A[i + i * N] = i + 1;
    CHECK(hyla_dsyevdx(h, 'X', 'A', 'L', N, A, N, 0, 0, 1, 1, &m, w, Z, N) == -1, "jobz");
    CHECK(hyla_dsyevdx(h, 'V', 'X', 'L', N, A, N, 0, 0, 1, 1, &m, w, Z, N) == -2, "range");
    CHECK(hyla_dsyevdx(h, 'V', 'A', 'X', N, A, N, 0, 0, 1, 1, &m, w, Z, N) == -3, "uplo");
    CHECK(hyla_dsyevdx(h, 'V', 'A', 'L', -1, A, N, 0, 0, 1, 1, &m, w, Z, N) == -4, "n");
    CHECK(hyla_dsyevdx(h, 'V', 'A', 'L', N, NULL, N, 0, 0, 1, 1, &m, w, Z, N) == -5, "A");
    CHECK(hyla_dsyevdx(h, 'V', 'A', 'L', N, A, N - 1, 0, 0, 1, 1, &m, w, Z, N) == -6, "lda");
    CHECK(hyla_dsyevdx(h, 'V', 'V', 'L', N, A, N, 2, 2, 1, 1, &m, w, Z, N) == -8, "vu <= vl");
    CHECK(hyla_dsyevdx(h, 'V', 'I', 'L', N, A, N, 0, 0, 0, 1, &m, w, Z, N) == -9, "il 0");
    CHECK(hyla_dsyevdx(h, 'V', 'I', 'L', N, A, N, 0, 0, 3, 2, &m, w, Z, N) == -10, "iu < il");
    CHECK(hyla_dsyevdx(h, 'V', 'I', 'L', N, A, N, 0, 0, 1, N + 1, &m, w, Z, N) == -10, "iu > n");
    CHECK(hyla_dsyevdx(h, 'V', 'A', 'L', N, A, N, 0, 0, 1, 1, NULL, w, Z, N) == -11, "m");
    CHECK(hyla_dsyevdx(h, 'V', 'A', 'L', N, A, N, 0, 0, 1, 1, &m, NULL, Z, N) == -12, "w");
    CHECK(hyla_dsyevdx(h, 'V', 'A', 'L', N, A, N, 0, 0, 1, 1, &m, w, NULL, N) == -13, "Z");
    CHECK(hyla_dsyevdx(h, 'V', 'A', 'L', N, A, N, 0, 0, 1, 1, &m, w, Z, N - 1) == -14, "ldz");
    CHECK(hyla_dsyevdx(h, 'N', 'A', 'L', N, A, N, 0, 0, 1, 1, &m, w, NULL, 1) == 0 && m == N,
          "jobz N takes no Z");
    CHECK(hyla_dsyevdx(NULL, 'V', 'A', 'L', N, A, N, 0, 0, 1, 1, &m, w, Z, N) == HYLA_ERR_INVALID,
          "ctx NULL");
    CHECK(hyla_dsyevdx(h, 'v', 'i', 'l', 0, NULL, 1, 0, 0, 1, 0, &m, NULL, NULL, 1) == 0 && m == 0,
          "n 0, lower-case letters");
    double B[N * N] = {0}, B0[N * N];
    for (int i = 0; i < N; i++) B[i + i * N] = 1;
    B[3 + 1 * N] = NAN;
    memcpy(B0, B, sizeof B);
    CHECK(hyla_dsyevdx(h, 'V', 'A', 'L', N, B, N, 0, 0, 1, 1, &m, w, Z, N) == HYLA_ERR_NAN &&
              memcmp(B, B0, sizeof B) == 0, "NaN in the lower triangle: HYLA_ERR_NAN, A as passed");
    CHECK(hyla_dsyevdx(h, 'N', 'A', 'U', N, B, N, 0, 0, 1, 1, &m, w, NULL, 1) == 0 && m == N,
          "NaN outside the upper triangle: ignored");
}

/* The backend's heevr op where it has one (the host backend: LAPACK
 * ?syevr): bad arguments do nothing; eigenpairs 2..4 and those in an
 * interval of a 7 x 7 symmetric matrix against LAPACKE's ?syevd. */
static void heevr_op(hyla_t *h) {
    enum { N = 7 };
    hyla_dev *d = h->devs[0];
    const hyla_backend_ops *o = d->ops;
    if (!o->alg->heevr) return; /* optional: the one-stage part path is not taken */
    hyla_dev_workspace *ws = NULL;
    double *dA = NULL, *dw = NULL, *dZ = NULL;
    double A0[N * N], A[N * N], wr[N], w[N], Z[N * N];
    for (int j = 0; j < N; j++)
        for (int i = j; i < N; i++) A0[i + j * N] = A0[j + i * N] = urand();
    memcpy(A, A0, sizeof A);
    LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', N, A, N, wr);
    int64_t m = -1;
    int info = -7;
    if (hyla_workspace_get(h, 0, 0, 0, &ws) != 0 ||
        o->mem_alloc(d, HYLA_MEM_DEVICE, sizeof A, (void **)&dA) != 0 ||
        o->mem_alloc(d, HYLA_MEM_DEVICE, sizeof w, (void **)&dw) != 0 ||
        o->mem_alloc(d, HYLA_MEM_DEVICE, sizeof Z, (void **)&dZ) != 0) {
        CHECK(0, "heevr op: buffers");
        goto out;
    }
    hyla_queue *q = ws->q_comp;
    CHECK(o->alg->heevr(q, (hyla_dtype)5, 1, 'I', 0, 0, 2, 4, N, dA, N, &m, dw, dZ, N, &info) ==
              HYLA_ERR_INVALID, "heevr op: dtype");
    CHECK(o->alg->heevr(q, HYLA_D, 2, 'I', 0, 0, 2, 4, N, dA, N, &m, dw, dZ, N, &info) ==
              HYLA_ERR_INVALID, "heevr op: vec");
    CHECK(o->alg->heevr(q, HYLA_D, 1, 'X', 0, 0, 2, 4, N, dA, N, &m, dw, dZ, N, &info) ==
              HYLA_ERR_INVALID, "heevr op: range");
    CHECK(o->alg->heevr(q, HYLA_D, 1, 'I', 0, 0, 4, 2, N, dA, N, &m, dw, dZ, N, &info) ==
              HYLA_ERR_INVALID, "heevr op: iu < il");
    CHECK(o->alg->heevr(q, HYLA_D, 1, 'I', 0, 0, 2, N + 1, N, dA, N, &m, dw, dZ, N, &info) ==
              HYLA_ERR_INVALID, "heevr op: iu > n");
    CHECK(o->alg->heevr(q, HYLA_D, 1, 'V', 1, 1, 0, 0, N, dA, N, &m, dw, dZ, N, &info) ==
              HYLA_ERR_INVALID, "heevr op: vl = vu");
    CHECK(o->alg->heevr(q, HYLA_D, 1, 'I', 0, 0, 2, 4, N, dA, N - 1, &m, dw, dZ, N, &info) ==
              HYLA_ERR_INVALID, "heevr op: lda");
    CHECK(o->alg->heevr(q, HYLA_D, 1, 'I', 0, 0, 2, 4, N, dA, N, &m, dw, dZ, N - 1, &info) ==
              HYLA_ERR_INVALID, "heevr op: ldz");
    CHECK(o->alg->heevr(q, HYLA_D, 1, 'I', 0, 0, 2, 4, N, dA, N, &m, dw, NULL, N, &info) ==
              HYLA_ERR_INVALID, "heevr op: Z");
    CHECK(o->alg->heevr(q, HYLA_D, 1, 'I', 0, 0, 2, 4, N, dA, N, NULL, dw, dZ, N, &info) ==
              HYLA_ERR_INVALID, "heevr op: m");
    CHECK(m == -1 && info == -7, "heevr op: nothing written on a bad argument");
    CHECK(o->alg->heevr(q, HYLA_D, 1, 'A', 0, 0, 0, 0, 0, NULL, 1, &m, NULL, NULL, 1, &info) == 0 &&
              m == 0 && info == 0, "heevr op: n = 0");
    for (int r = 0; r < 2; r++) {
        const char range = r ? 'V' : 'I';
        const double vl = (wr[1] + wr[2]) / 2, vu = (wr[4] + wr[5]) / 2; /* pairs 3..5 */
        const int64_t il = r ? 3 : 2, iu = r ? 5 : 4;
        CHECK(o->copy_2d(q, dA, sizeof A, A0, sizeof A, sizeof A, 1, HYLA_COPY_H2D) == 0 &&
                  o->alg->heevr(q, HYLA_D, 1, range, vl, vu, 2, 4, N, dA, N, &m, dw, dZ, N,
                                &info) == 0 &&
                  o->copy_2d(q, w, sizeof w, dw, sizeof w, sizeof w, 1, HYLA_COPY_D2H) == 0 &&
                  o->copy_2d(q, Z, sizeof Z, dZ, sizeof Z, sizeof Z, 1, HYLA_COPY_D2H) == 0 &&
                  o->queue_sync(q) == 0 && info == 0,
              "heevr op range %c: runs", range);
        CHECK(m == 3, "heevr op range %c: m %lld, 3 expected", range, (long long)m);
        double err = 0;
        for (int64_t k = 0; k < m && m == 3; k++) {
            err = fmax(err, fabs(w[k] - wr[il - 1 + k]));
            for (int i = 0; i < N; i++) { /* (A z - w z)_i */
                double ri = -w[k] * Z[i + k * N];
                for (int j = 0; j < N; j++) ri += A0[i + j * N] * Z[j + k * N];
                err = fmax(err, fabs(ri));
            }
        }
        CHECK(err < 1e-12, "heevr op range %c (pairs %lld..%lld): error %.3g", range,
              (long long)il, (long long)iu, err);
    }
out:
    o->mem_free(d, HYLA_MEM_DEVICE, dZ);
    o->mem_free(d, HYLA_MEM_DEVICE, dw);
    o->mem_free(d, HYLA_MEM_DEVICE, dA);
}

/* Divide and conquer forming the wanted columns alone (its top merge on a
 * device: merges from 40 rows there, divide and conquer for every subset,
 * two stages for every type):
 * n = 300 with a cluster of 20 eigenvalues 1e-15 apart and one eigenvalue
 * of multiplicity 10, subsets by index that cut them and by value just
 * outside them. */
static void clusters(hyla_t *h) {
    const lapack_int n = 300;
    double *Q = malloc(sizeof *Q * (size_t)(n * n)), *tau = malloc(sizeof *tau * (size_t)n);
    double *lam = malloc(sizeof *lam * (size_t)n), *wr = malloc(sizeof *wr * (size_t)n);
    zc *A0 = calloc((size_t)(n * n), sizeof *A0);
    for (lapack_int i = 0; i < n * n; i++) Q[i] = urand();
    CHECK(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, Q, n, tau) == 0 &&
              LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, n, Q, n, tau) == 0,
          "clusters: Q");
    for (lapack_int i = 0; i < n; i++) lam[i] = -1 + 2.0 * i / n;
    for (lapack_int i = 100; i < 120; i++) lam[i] = lam[100] + (i - 100) * 1e-15;
    for (lapack_int i = 200; i < 210; i++) lam[i] = lam[200];
    for (lapack_int j = 0; j < n; j++)
        for (lapack_int i = 0; i < n; i++) {
            double s = 0;
            for (lapack_int l = 0; l < n; l++) s += Q[i + l * n] * lam[l] * Q[j + l * n];
            A0[i + j * n] = s;
        }
    for (lapack_int j = 0; j < n; j++) /* exactly symmetric */
        for (lapack_int i = j + 1; i < n; i++) A0[j + i * n] = A0[i + j * n];
    reference(n, A0, wr);
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_DC_MIN, 40) == 0 &&
              hyla_set_option(h, HYLA_OPT_EIG_SUBSET_DC, 1) == 0 &&
              hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, 1) == 0,
          "clusters: options");
    const hyla_dtype ts[] = {HYLA_D, HYLA_S, HYLA_Z};
    for (size_t a = 0; a < sizeof ts / sizeof *ts; a++)
        for (int u = 0; u < 2; u++) {
            const char uplo = u ? 'U' : 'L';
            one_case(h, ts[a], 'V', 'I', uplo, n, 101, 150, A0, wr);
            one_case(h, ts[a], 'V', 'I', uplo, n, 1, 205, A0, wr);
            one_case(h, ts[a], 'V', 'I', uplo, n, 205, 205, A0, wr);
            one_case(h, ts[a], 'V', 'V', uplo, n, 101, 210, A0, wr);
            one_case(h, ts[a], 'V', 'V', uplo, n, 121, 300, A0, wr);
        }
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_DC_MIN, 0) == 0 &&
              hyla_set_option(h, HYLA_OPT_EIG_SUBSET_DC, 0) == 0 &&
              hyla_set_option(h, HYLA_OPT_EIG_ONE_STAGE, 0) == 0,
          "clusters: options back");
    free(Q), free(tau), free(lam), free(wr), free(A0);
}

int main(void) {
    const char *devs = getenv("HYLA_DEVICES");
    hyla_t *h = NULL;
    int rc = t_create(&h, devs && *devs ? devs : "cpu", "syevdx");
    if (rc) return rc;
    leak_baseline(h);
    const hyla_dtype ts[] = {HYLA_S, HYLA_D, HYLA_C, HYLA_Z};
    const int64_t ns[] = {0, 1, 2, 5, 40, 130, 300}; /* 300: MRRR (HYLA_EIG_MRRR_MIN) */
    for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
        const int64_t n = ns[k];
        for (int a = 0; a < 4; a++) {
            zc *A0 = malloc(sizeof *A0 * (size_t)(n * n + 1));
            double *wr = malloc(sizeof *wr * (size_t)(n + 1));
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = j; i < n; i++) {
                    zc x = urand() + (is_cplx(ts[a]) && i != j ? I * urand() : 0);
                    A0[i + j * n] = x, A0[j + i * n] = conj(x);
                }
            if (n > 0) reference(n, A0, wr);
            /* the last: over half the spectrum, divide and conquer's share
             * (eig_subset_dc_pml) from n = 256 on */
            const int64_t ranges[][2] = {{1, n / 10 > 1 ? n / 10 : 1}, {n / 3 > 1 ? n / 3 : 1, n / 2 > 1 ? n / 2 : 1},
                                         {n, n}, {1, n / 2 + 1}};
            for (int u = 0; u < 2; u++)
                for (int jz = 0; jz < 2; jz++) {
                    const char jobz = jz ? 'V' : 'N', uplo = u ? 'U' : 'L';
                    one_case(h, ts[a], jobz, 'A', uplo, n, 1, n, A0, wr);
                    if (n == 0) {
                        one_case(h, ts[a], jobz, 'I', uplo, 0, 1, 0, A0, wr);
                        continue;
                    }
                    for (int r = 0; r < 4; r++) {
                        one_case(h, ts[a], jobz, 'I', uplo, n, ranges[r][0], ranges[r][1], A0, wr);
                        one_case(h, ts[a], jobz, 'V', uplo, n, ranges[r][0], ranges[r][1], A0, wr);
                    }
                }
            free(A0), free(wr);
        }
    }
    clusters(h);
    failures(h);
    heevr_op(h);
    leak_check(h, "syevdx");
    return t_finish(&h, "syevdx");
}
