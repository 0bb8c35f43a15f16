/* The tridiagonal eigensolvers hyla_?sterf and hyla_?stedc (s and d) on the
 * devices of HYLA_DEVICES, against LAPACKE ?stedc: eigenvalues within
 * 60 n eps |T|, |T - Z L Z^T| / (n |T| eps) < 60 and |I - Z^T Z| / (n eps) < 60
 * for random, Wilkinson, glued Wilkinson, clustered, graded, diagonal, zero,
 * 1-2-1 Toeplitz (exact eigenvalues), huge and tiny matrices; sizes around the
 * leaf size; small leaves with every merge GEMM forced on the devices; sterf's
 * values-only divide and conquer forced on every size, and by default at n = 601; NaN and
 * Inf input; bad arguments; no leak; injected allocation failures. */
#include "hyla.h"
#include "test_util.h"
#include "eig/ptridiag.h"
#include "backend/ops/dc.h"
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#define THRESH 60.0
#define SENTINEL 777.0
#define CH "sdcz"[DT]

enum { MAT_RANDOM, MAT_WILKINSON, MAT_GLUED, MAT_CLUSTER, MAT_GRADED, MAT_DIAG, MAT_ZERO,
       MAT_TOEPLITZ, MAT_HUGE, MAT_TINY, MAT_GEOMETRIC, MAT_ONE_BIG, MAT_ARITHMETIC,
       MAT_CLUSTERED_SPECTRUM, MAT_COUNT };
static const char *mat_name[] = {"random", "wilkinson", "glued", "cluster", "graded",
                                 "diagonal", "zero", "toeplitz", "huge", "tiny",
                                 "geometric", "one-big", "arithmetic", "clustered"};

/* The tridiagonal (LAPACK sytrd) of Q diag(w) Q^T with a random orthogonal Q
 * and the eigenvalue distributions of LAPACK's dlatms (condition 1e6 for the
 * s tests, 1e12 for d): geometric 1 .. 1/cond with alternating signs, one
 * large and the rest 1/cond, arithmetic 1 .. 1/cond, clustered 1 + 1e-9 r. */
static void make_spectrum(int c, int64_t n, double cond, double *d, double *e,
                          unsigned long long *s) {
    if (n == 0) return;
    double *Q = malloc(sizeof *Q * (size_t)(n * n)), *A = malloc(sizeof *A * (size_t)(n * n));
    double *W = malloc(sizeof *W * (size_t)(n * n)), *tau = malloc(sizeof *tau * (size_t)n);
    for (int64_t i = 0; i < n * n; i++) Q[i] = t_rand(s);
    LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (int)n, (int)n, Q, (int)n, tau);
    LAPACKE_dorgqr(LAPACK_COL_MAJOR, (int)n, (int)n, (int)n, Q, (int)n, tau);
    for (int64_t j = 0; j < n; j++) {
        double f = n > 1 ? (double)j / (double)(n - 1) : 0, w = 1;
        switch (c) {
        case MAT_GEOMETRIC: w = (j % 2 ? -1 : 1) * pow(cond, -f); break;
        case MAT_ONE_BIG: w = j == 0 ? 1 : 1 / cond; break;
        case MAT_ARITHMETIC: w = 1 - f * (1 - 1 / cond); break;
        default: w = 1 + 1e-9 * t_rand(s); break;
        }
        for (int64_t i = 0; i < n; i++) W[i + j * n] = Q[i + j * n] * w;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)n, (int)n, (int)n, 1.0, W, (int)n, Q,
                (int)n, 0.0, A, (int)n);
    LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', (int)n, A, (int)n, d, e, tau);
    free(Q);
    free(A);
    free(W);
    free(tau);
}

#define HYLA_TEMPLATE "t_test_tridiag.c"
#define HYLA_TEMPLATE_REAL
#include "base/each_prec.h"

/* Allocation failure k = 1, 2, ... inside one stedc call until a call runs
 * with no injection firing: each failure is a clean error and leaks nothing. */
static void injection(hyla_t *h, unsigned long long *s) {
    enum { N = 90 };
    double d0[N], e0[N], d[N], e[N], Z[N * N];
    hyla_dtt_make(MAT_RANDOM, N, d0, e0, s);
    for (int64_t k = 1; k < 1000; k++) {
        memcpy(d, d0, sizeof d);
        memcpy(e, e0, sizeof e);
        hyla_debug_fail_alloc(k);
        int rc = hyla_eig_stedc_tuned(h, HYLA_D, N, d, e, Z, N, NULL, 0, 8, 30);
        hyla_debug_fail_alloc(0);
        if (!t_injected(h, "stedc", k, rc)) break;
    }
    for (int64_t k = 1; k < 1000; k++) {
        memcpy(d, d0, sizeof d);
        memcpy(e, e0, sizeof e);
        hyla_debug_fail_alloc(k);
        int rc = hyla_eig_sterf_tuned(HYLA_D, N, d, e, 2, 8);
        hyla_debug_fail_alloc(0);
        if (!t_injected(h, "sterf divide and conquer", k, rc)) {
            CHECK(k > 1, "sterf divide and conquer: no allocation failed (k %lld)", (long long)k);
            break;
        }
    }
}

/* The backend's merge ops on device 0 alone: a merge of order 7 with one
 * deflated pole and one deflating rotation. The roots must solve the
 * secular equation (relative residual) and interlace the poles, and the
 * merge matrix must be orthogonal with the unit column and the rotation
 * where the arguments put them; bad arguments enqueue nothing. */
static void dc_ops(hyla_t *h) {
    enum { N = 7, K = 5 };
    hyla_dev *dv = h->devs[0];
    const hyla_backend_ops *o = dv->ops;
    const size_t bytes = 4096;
    unsigned char *hb = NULL, *db = NULL;
    hyla_queue *q = NULL;
    int rc = o->mem_alloc(dv, HYLA_MEM_PINNED, bytes, (void **)&hb);
    if (!rc) rc = o->mem_alloc(dv, HYLA_MEM_DEVICE, bytes, (void **)&db);
    if (!rc) rc = o->queue_create(dv, &q);
    CHECK(rc == 0, "dc ops: buffers %d", rc);
    if (rc) goto out;
    /* host image: dl, w, tau, zh (K each), M (N x N), then int64 org, nd,
     * pos, defl, rp, rj, then info */
    double *dl = (double *)hb, *w = dl + K, *tau = w + K, *zh = tau + K, *M = zh + K;
    double *rcs = M + N * N, *rsn = rcs + 1;
    int64_t *org = (int64_t *)(rsn + 1), *nd = org + K, *pos = nd + K, *defl = pos + N,
            *rp = defl + 2, *rj = rp + 1;
    int *info = (int *)(rj + 1);
    const size_t used = (size_t)((unsigned char *)(info + 1) - hb);
    static const double dl0[K] = {-1.5, -0.25, 0.5, 2, 3.75}, w0[K] = {0.3, -0.5, 0.4, 0.2, -0.6};
    static const int64_t nd0[K] = {0, 2, 3, 5, 6}, pos0[N] = {0, 1, 3, 4, 6, 2, 5},
                         defl0[2] = {1, 4};
    memcpy(dl, dl0, sizeof dl0);
    memcpy(w, w0, sizeof w0);
    memcpy(nd, nd0, sizeof nd0);
    memcpy(pos, pos0, sizeof pos0);
    memcpy(defl, defl0, sizeof defl0);
    *rcs = 0.6, *rsn = 0.8, *rp = 1, *rj = 2, *info = -7;
    const double r2 = 1.25;
#define DEV(p) (void *)(db + ((unsigned char *)(p) - hb))
    hyla_dc_args a = {.n = N, .k = K, .nrot = 1, .r2 = r2, .dl = DEV(dl), .w = DEV(w),
                      .org = DEV(org), .tau = DEV(tau), .zh = DEV(zh), .info = DEV(info),
                      .nd = DEV(nd), .pos = DEV(pos), .defl = DEV(defl), .rp = DEV(rp),
                      .rj = DEV(rj), .rc = DEV(rcs), .rs = DEV(rsn), .M = DEV(M), .ldm = N};
    rc = o->copy_2d(q, db, used, hb, used, used, 1, HYLA_COPY_H2D);
    if (!rc) rc = o->alg->dc_secular(q, HYLA_D, &a);
    if (!rc) rc = o->alg->dc_vectors(q, HYLA_D, &a);
    if (!rc) rc = o->copy_2d(q, hb, used, db, used, used, 1, HYLA_COPY_D2H);
    if (!rc) rc = o->queue_sync(q);
    CHECK(rc == 0 && *info == 0, "dc ops: rc %d info %d", rc, *info);
    if (rc || *info) goto out;
    for (int i = 0; i < K; i++) {
        const double lam = dl[org[i]] + tau[i];
        double f = 1 / r2, sabs = 1 / r2;
        for (int j = 0; j < K; j++) {
            const double t = w0[j] * w0[j] / ((dl[j] - dl[org[i]]) - tau[i]);
            f += t;
            sabs += fabs(t);
        }
        const int inter = lam > dl0[i] && (i == K - 1 || lam < dl0[i + 1]);
        CHECK(inter && fabs(f) <= 100 * DBL_EPSILON * sabs,
              "dc ops: root %d = %.17g interlaces %d, secular residual %.3g", i, lam, inter,
              fabs(f) / sabs);
        CHECK(zh[i] * w0[i] > 0, "dc ops: zh %d has w's sign", i);
    }
    double orth = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int r = 0; r < N; r++) s += M[r + i * N] * M[r + j * N];
            orth = fmax(orth, fabs(s - (i == j)));
        }
    CHECK(orth < 100 * DBL_EPSILON, "dc ops: |M^T M - I| %.3g", orth);
    /* deflated row 4 is a unit column at 5; rows 1 and 2 are rotated:
     * M[1, c] = -s E[1, c] + c E[2, c], with E[1, :] the unit at column 2 */
    CHECK(M[4 + 5 * N] == 1 && fabs(M[1 + 2 * N] + 0.8) < 1e-15 && fabs(M[2 + 2 * N] - 0.6) < 1e-15,
          "dc ops: unit column and rotation placed (%g %g %g)", M[4 + 5 * N], M[1 + 2 * N],
          M[2 + 2 * N]);
    /* bad arguments: nothing enqueued, HYLA_ERR_INVALID */
    {
        hyla_dc_args b = a;
        b.k = N + 1;
        CHECK(o->alg->dc_secular(q, HYLA_D, &b) == HYLA_ERR_INVALID, "dc_secular k > n");
        b = a, b.r2 = 0;
        CHECK(o->alg->dc_secular(q, HYLA_D, &b) == HYLA_ERR_INVALID, "dc_secular r2 0");
        b = a, b.r2 = NAN;
        CHECK(o->alg->dc_vectors(q, HYLA_D, &b) == HYLA_ERR_INVALID, "dc_vectors r2 NaN");
        b = a, b.info = NULL;
        CHECK(o->alg->dc_secular(q, HYLA_D, &b) == HYLA_ERR_INVALID, "dc_secular info NULL");
        b = a, b.ldm = N - 1;
        CHECK(o->alg->dc_vectors(q, HYLA_D, &b) == HYLA_ERR_INVALID, "dc_vectors ldm < n");
        b = a, b.defl = NULL;
        CHECK(o->alg->dc_vectors(q, HYLA_D, &b) == HYLA_ERR_INVALID, "dc_vectors defl NULL");
        b = a, b.rp = NULL;
        CHECK(o->alg->dc_vectors(q, HYLA_D, &b) == HYLA_ERR_INVALID, "dc_vectors rp NULL");
        CHECK(o->alg->dc_secular(q, HYLA_Z, &a) == HYLA_ERR_INVALID, "dc_secular type z");
        CHECK(o->alg->dc_vectors(q, HYLA_C, &a) == HYLA_ERR_INVALID, "dc_vectors type c");
        CHECK(o->alg->dc_vectors(q, HYLA_D, NULL) == HYLA_ERR_INVALID, "dc_vectors NULL args");
        CHECK(o->queue_sync(q) == 0, "dc ops: queue usable after bad arguments");
    }
#undef DEV
out:
    if (q) o->queue_destroy(q);
    o->mem_free(dv, HYLA_MEM_DEVICE, db);
    o->mem_free(dv, HYLA_MEM_PINNED, hb);
}

int main(void) {
    const char *devices = test_devices();
    unsigned long long seed = 2026;
    hyla_t *h = NULL;
    int rc = t_create(&h, devices, "tridiag");
    if (rc) return rc;
    leak_baseline(h);
    {
        /* the internal entry points of the driver: no context, bad type */
        double d[40], e[40], Z[40 * 40];
        hyla_dtt_make(MAT_TOEPLITZ, 40, d, e, &seed);
        rc = hyla_eig_stedc(NULL, HYLA_D, 40, d, e, Z, 40);
        CHECK(rc == 0 && fabs(d[0] - (2 - 2 * cos(M_PI / 41))) < 1e-13,
              "hyla_eig_stedc without a context: %d", rc);
        hyla_dtt_make(MAT_TOEPLITZ, 40, d, e, &seed);
        rc = hyla_eig_sterf(HYLA_D, 40, d, e);
        CHECK(rc == 0 && fabs(d[39] - (2 - 2 * cos(40 * M_PI / 41))) < 1e-13,
              "hyla_eig_sterf: %d", rc);
        CHECK(hyla_eig_sterf(HYLA_Z, 40, d, e) == HYLA_ERR_INVALID, "hyla_eig_sterf type z");
        CHECK(hyla_eig_stedc(h, HYLA_C, 40, d, e, Z, 40) == HYLA_ERR_INVALID,
              "hyla_eig_stedc type c");
        CHECK(hyla_eig_stedc(h, HYLA_D, 40, d, e, Z, 39) == HYLA_ERR_INVALID,
              "hyla_eig_stedc ldz < n");
    }
    dc_ops(h);
    hyla_stt_all(h, &seed);
    hyla_dtt_all(h, &seed);
    /* HYLA_OPT_EIG_DC_MIN: the public stedc with device levels from merges
     * of 40 rows */
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_DC_MIN, 1) == -3, "HYLA_OPT_EIG_DC_MIN 1 rejected");
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_DC_MIN, 40) == 0, "HYLA_OPT_EIG_DC_MIN 40");
    hyla_dtt_case(h, MAT_RANDOM, 300, 0, 0, &seed);
    hyla_dtt_case(h, MAT_CLUSTER, 301, 0, 0, &seed);
    hyla_stt_case(h, MAT_GLUED, 257, 0, 0, &seed);
    CHECK(hyla_set_option(h, HYLA_OPT_EIG_DC_MIN, 0) == 0, "HYLA_OPT_EIG_DC_MIN back to 0");
    injection(h, &seed);
    return t_finish(&h, "tridiag");
}
