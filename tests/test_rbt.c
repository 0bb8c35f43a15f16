/* The RBT solver on the devices of HYLA_DEVICES (default one virtual host
 * device).
 *  - The backend's rbt op against dense butterflies built from their
 *    definition (backend.h): U^T P V, U^T P, U P and P V, in place and from
 *    a padded source, depths 1..3, the four dtypes, orders 0 .. 24.
 *  - hyla_?gesv_rbt and _gpu for the four precisions, sizes 0, 1, 2, 3, odd
 *    and past the padding, several right-hand sides: the backward error
 *    |b - Ax|_inf / (|A|_inf |x|_inf n eps) within 10x of LAPACKE's gesv on
 *    the same system (or below 1); the no-pivoting killers (A(1,1) = 0, a
 *    permutation matrix, a tiny leading entry) solved by the RBT path
 *    itself; a singular matrix (info > 0 with B untouched and the fallback
 *    reported when the pivot test catches it, else a backward stable X)
 *    and a Hilbert matrix (a good X, by refinement or the fallback);
 *    the same seed gives the same X; bad arguments; no leak; injected
 *    allocation failures. Reaches the op through the internal headers. */
#include "core/internal.h"
#include "backend/backend.h"
#include "lu/prbt.h"
#include "test_util.h"
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

static const hyla_dtype dtypes[] = {HYLA_S, HYLA_D, HYLA_C, HYLA_Z};
static const char dch[] = "sdcz";
static hyla_t *ctx;

static double wget(hyla_dtype t, const void *w, int64_t i) {
    return is_single(t) ? ((const float *)w)[i] : ((const double *)w)[i];
}

static void fill_random(hyla_dtype t, void *p, int64_t count, unsigned long long *s) {
    for (int64_t i = 0; i < count; i++) put(t, p, i, t_rand(s) + (is_cplx(t) ? t_rand(s) * I : 0));
}

/* ---------------------------------------------------------------- the op */

/* Dense W = L_{d-1} .. L_0 of order p from the diagonals w (p * d values). */
static void dense_butterfly(hyla_dtype t, int64_t p, int d, const void *w, double *W) {
    double *L = calloc((size_t)(p * p) + 1, sizeof *L), *T = calloc((size_t)(p * p) + 1, sizeof *T);
    for (int64_t i = 0; i < p * p; i++) W[i] = 0;
    for (int64_t i = 0; i < p; i++) W[i + i * p] = 1;
    for (int l = 0; l < d; l++) {
        const int64_t pl = p >> l, h = pl / 2;
        for (int64_t i = 0; i < p * p; i++) L[i] = 0;
        for (int64_t b = 0; b < p; b += pl)
            for (int64_t k = 0; k < h; k++) {
                const int64_t i0 = b + k, i1 = i0 + h;
                const double r0 = wget(t, w, l * p + i0), r1 = wget(t, w, l * p + i1);
                const double s = sqrt(0.5);
                /* rows i0, i1 of [R0 R1; R0 -R1] / sqrt(2) */
                L[i0 + i0 * p] = s * r0;
                L[i0 + i1 * p] = s * r1;
                L[i1 + i0 * p] = s * r0;
                L[i1 + i1 * p] = -s * r1;
            }
        /* W := L W */
        for (int64_t j = 0; j < p; j++)
            for (int64_t i = 0; i < p; i++) {
                double acc = 0;
                for (int64_t k = 0; k < p; k++) acc += L[i + k * p] * W[k + j * p];
                T[i + j * p] = acc;
            }
        memcpy(W, T, sizeof *W * (size_t)(p * p));
    }
    free(L);
    free(T);
}

/* One op call on device 0 against the dense reference; the data go through
 * host buffers so that the same test runs on a GPU. */
static void check_op_ld(hyla_dtype t, hyla_rbt_mode mode, int d, int64_t m, int64_t n,
                        int64_t ms, int64_t ns, int inplace, int64_t lda, int64_t lds,
                        unsigned long long *seed) {
    hyla_dev *dev = ctx->devs[0];
    const hyla_backend_ops *o = dev->ops;
    hyla_dev_workspace *ws;
    const size_t es = hyla_dtype_size(t), rs = is_single(t) ? 4 : 8;
    const size_t ba = es * (size_t)(lda * n) + es, bs = es * (size_t)(lds * ns) + es;
    const size_t bu = rs * (size_t)(m * d) + rs, bv = rs * (size_t)(n * d) + rs;
    void *A = malloc(ba), *S = malloc(bs), *u = malloc(bu), *v = malloc(bv);
    void *dA = NULL, *dS = NULL, *du = NULL, *dv = NULL;
    int rc = hyla_workspace_get(ctx, 0, 0, 0, &ws);
    CHECK(rc == 0, "workspace %d", rc);
    hyla_rbt_diagonals(t, *seed, 0, m * d, u);
    hyla_rbt_diagonals(t, *seed, 1000, n * d, v);
    (*seed)++;
    /* P, the padded source, in double complex; guard values past m in A */
    zc *P = calloc((size_t)(m * n) + 1, sizeof *P), *E = calloc((size_t)(m * n) + 1, sizeof *E);
    for (int64_t i = 0; i < lda * n; i++) put(t, A, i, 777);
    fill_random(t, S, lds * ns, seed);
    if (inplace) {
        fill_random(t, A, lda * n, seed);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) P[i + j * m] = get(t, A, i + j * lda);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = m; i < lda; i++) put(t, A, i + j * lda, 777);
    } else {
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                P[i + j * m] = (i < ms && j < ns) ? get(t, S, i + j * lds)
                               : (mode == HYLA_RBT_BOTH && i == j) ? 1 : 0;
    }
    rc = hyla_malloc_device(ctx, 0, ba, &dA);
    if (!rc) rc = hyla_malloc_device(ctx, 0, bs, &dS);
    if (!rc) rc = hyla_malloc_device(ctx, 0, bu, &du);
    if (!rc) rc = hyla_malloc_device(ctx, 0, bv, &dv);
    if (!rc) rc = hyla_copy_to_device(ctx, 0, dA, A, ba);
    if (!rc) rc = hyla_copy_to_device(ctx, 0, dS, S, bs);
    if (!rc) rc = hyla_copy_to_device(ctx, 0, du, u, bu);
    if (!rc) rc = hyla_copy_to_device(ctx, 0, dv, v, bv);
    CHECK(rc == 0, "device buffers %d", rc);
    double *U = malloc(sizeof *U * (size_t)(m * m) + 8), *V = malloc(sizeof *V * (size_t)(n * n) + 8);
    if (mode != HYLA_RBT_RIGHT) dense_butterfly(t, m, d, u, U);
    if (mode == HYLA_RBT_BOTH || mode == HYLA_RBT_RIGHT) dense_butterfly(t, n, d, v, V);
    /* E = op(U) P op(V) */
    zc *T1 = calloc((size_t)(m * n) + 1, sizeof *T1);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            zc acc = 0;
            if (mode == HYLA_RBT_RIGHT) acc = P[i + j * m];
            else
                for (int64_t k = 0; k < m; k++)
                    acc += (mode == HYLA_RBT_LEFT ? U[i + k * m] : U[k + i * m]) * P[k + j * m];
            T1[i + j * m] = acc;
        }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            zc acc = 0;
            if (mode == HYLA_RBT_BOTH || mode == HYLA_RBT_RIGHT)
                for (int64_t k = 0; k < n; k++) acc += T1[i + k * m] * V[k + j * n];
            else acc = T1[i + j * m];
            E[i + j * m] = acc;
        }
    hyla_rbt_args a = {.mode = mode, .depth = d, .m = m, .n = n, .u = du, .v = dv,
                       .S = inplace ? dA : dS, .lds = inplace ? lda : lds,
                       .ms = inplace ? m : ms, .ns = inplace ? n : ns, .A = dA, .lda = lda};
    rc = o->alg->rbt(ws->q_comp, t, &a);
    int rs_ = o->queue_sync(ws->q_comp);
    CHECK(rc == 0 && rs_ == 0, "rbt op rc %d sync %d", rc, rs_);
    rc = hyla_copy_from_device(ctx, 0, A, dA, ba);
    CHECK(rc == 0, "copy back %d", rc);
    double err = 0, scale = 1;
    int guard = 1;
    for (int64_t i = 0; i < m * n; i++) scale = fmax(scale, cabs(E[i]));
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = 0; i < m; i++) err = fmax(err, cabs(get(t, A, i + j * lda) - E[i + j * m]));
        for (int64_t i = m; i < lda; i++) guard &= get(t, A, i + j * lda) == 777;
    }
    const double tol = 30 * d * eps_of(t) * scale;
    CHECK(err <= tol && guard, "%crbt mode %d depth %d %lldx%lld src %lldx%lld inplace %d: err %.3g (tol %.3g) guard %d",
          dch[t], mode, d, (long long)m, (long long)n, (long long)ms, (long long)ns, inplace, err, tol, guard);
    free(P); free(E); free(T1); free(U); free(V);
    free(A); free(S); free(u); free(v);
    hyla_free_device(ctx, 0, &dA);
    hyla_free_device(ctx, 0, &dS);
    hyla_free_device(ctx, 0, &du);
    hyla_free_device(ctx, 0, &dv);
}

/* check_op_ld with odd leading dimensions (the scalar paths of the GPU
 * kernels) */
static void check_op(hyla_dtype t, hyla_rbt_mode mode, int d, int64_t m, int64_t n, int64_t ms,
                     int64_t ns, int inplace, unsigned long long *seed) {
    check_op_ld(t, mode, d, m, n, ms, ns, inplace, m + 3, ms + 2, seed);
}

static void test_op(void) {
    unsigned long long seed = 7;
    for (int ti = 0; ti < 4; ti++) {
        const hyla_dtype t = dtypes[ti];
        for (int d = 1; d <= 3; d++) {
            const int64_t p = (int64_t)1 << d;
            const int64_t orders[] = {0, p, 3 * p, (24 / p) * p};
            for (int oi = 0; oi < 4; oi++) {
                const int64_t m = orders[oi];
                const int64_t ms = m > 0 ? m - 1 - (m > p ? p / 2 : 0) : 0;
                check_op(t, HYLA_RBT_BOTH, d, m, m, m, m, 1, &seed);
                check_op(t, HYLA_RBT_BOTH, d, m, m, ms, ms, 0, &seed);
                check_op(t, HYLA_RBT_LEFT_T, d, m, 3, ms, 2, 0, &seed);
                check_op(t, HYLA_RBT_LEFT_T, d, m, 5, m, 5, 1, &seed);
                check_op(t, HYLA_RBT_LEFT, d, m, 4, m, 4, 1, &seed);
                check_op(t, HYLA_RBT_LEFT, d, m, 2, ms, 1, 0, &seed);
                check_op(t, HYLA_RBT_RIGHT, d, 5, m, 5, m, 1, &seed);
                check_op(t, HYLA_RBT_RIGHT, d, 3, m, 2, ms, 0, &seed);
            }
        }
    }
    /* depth 2 at an order and leading dimensions that let the GPU kernels
     * use their vector loads (multiples of 4 elements), source padded too */
    for (int ti = 0; ti < 4; ti++) {
        const hyla_dtype t = dtypes[ti];
        check_op_ld(t, HYLA_RBT_BOTH, 2, 64, 64, 64, 64, 1, 68, 68, &seed);
        check_op_ld(t, HYLA_RBT_BOTH, 2, 64, 64, 61, 61, 0, 68, 64, &seed);
        check_op_ld(t, HYLA_RBT_LEFT_T, 2, 64, 3, 61, 2, 0, 64, 64, &seed);
        check_op_ld(t, HYLA_RBT_LEFT_T, 2, 64, 5, 64, 5, 1, 72, 72, &seed);
        check_op_ld(t, HYLA_RBT_LEFT, 2, 64, 4, 64, 4, 1, 64, 64, &seed);
        check_op_ld(t, HYLA_RBT_LEFT, 2, 64, 2, 60, 1, 0, 68, 60, &seed);
    }
    /* arguments the op rejects, nothing enqueued */
    hyla_dev_workspace *ws;
    hyla_workspace_get(ctx, 0, 0, 0, &ws);
    const hyla_backend_ops *o = ctx->devs[0]->ops;
    double buf[64] = {0}, w[64] = {0};
    hyla_rbt_args ok = {.mode = HYLA_RBT_BOTH, .depth = 2, .m = 4, .n = 4, .u = w, .v = w,
                        .S = buf, .lds = 4, .ms = 4, .ns = 4, .A = buf, .lda = 4};
    CHECK(hyla_rbt_check(HYLA_D, &ok) == 0, "valid op arguments rejected");
    hyla_rbt_args bad[9];
    for (int k = 0; k < 9; k++) bad[k] = ok;
    bad[0].depth = 0;
    bad[1].m = 6; bad[1].n = 6; bad[1].lda = 6; bad[1].lds = 6; bad[1].ms = 6; bad[1].ns = 6;
    bad[2].n = 8;
    bad[3].lda = 3;
    bad[4].u = NULL;
    bad[5].ms = 3; /* in place with another size */
    bad[6].mode = (hyla_rbt_mode)7;
    bad[7].depth = HYLA_RBT_MAX_DEPTH + 1;
    bad[8].S = buf + 16; bad[8].ms = 5;
    for (int k = 0; k < 9; k++)
        CHECK(o->alg->rbt(ws->q_comp, HYLA_D, &bad[k]) == HYLA_ERR_INVALID, "bad op arguments %d accepted", k);
    CHECK(o->alg->rbt(ws->q_comp, (hyla_dtype)9, &ok) == HYLA_ERR_INVALID, "bad dtype accepted");
    CHECK(o->queue_sync(ws->q_comp) == 0, "queue status changed by rejected calls");
    /* row sums of |A| */
    double A[6] = {1, -2, 3, -4, 5, -6}, sums[2] = {0, 0};
    void *dA = NULL, *ds = NULL;
    int rc = hyla_malloc_device(ctx, 0, sizeof A, &dA);
    if (!rc) rc = hyla_malloc_device(ctx, 0, sizeof sums, &ds);
    if (!rc) rc = hyla_copy_to_device(ctx, 0, dA, A, sizeof A);
    if (!rc) rc = o->row_asum(ws->q_comp, HYLA_D, 2, 3, dA, 2, ds);
    if (!rc) rc = o->queue_sync(ws->q_comp);
    if (!rc) rc = hyla_copy_from_device(ctx, 0, sums, ds, sizeof sums);
    CHECK(rc == 0 && sums[0] == 9 && sums[1] == 12, "row_asum rc %d: %g %g", rc, sums[0], sums[1]);
    CHECK(o->row_asum(ws->q_comp, HYLA_D, 2, 3, dA, 1, ds) == HYLA_ERR_INVALID, "row_asum lda");
    hyla_free_device(ctx, 0, &dA);
    hyla_free_device(ctx, 0, &ds);
    leak_check(ctx, "op");
}

/* ---------------------------------------------------------------- the solver */

/* |B - A X|_inf / (|A|_inf |X|_inf n eps), worst column, in double complex */
static double solve_ratio(hyla_dtype t, int64_t n, int64_t nrhs, const void *A, int64_t lda,
                          const void *B, int64_t ldb, const void *X, int64_t ldx) {
    double an = 0, worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double s = 0;
        for (int64_t j = 0; j < n; j++) s += cabs(get(t, A, i + j * lda));
        an = fmax(an, s);
    }
    for (int64_t c = 0; c < nrhs; c++) {
        double rn = 0, xn = 0;
        for (int64_t i = 0; i < n; i++) {
            zc r = get(t, B, i + c * ldb);
            for (int64_t j = 0; j < n; j++) r -= get(t, A, i + j * lda) * get(t, X, j + c * ldx);
            rn = fmax(rn, cabs(r));
            xn = fmax(xn, cabs(get(t, X, i + c * ldx)));
        }
        const double d = an * xn * (double)n * eps_of(t);
        const double q = rn == 0 ? 0 : d > 0 ? rn / d : INFINITY;
        if (!(q <= worst)) worst = q;
    }
    return worst;
}

static int lapack_gesv(hyla_dtype t, int64_t n, int64_t nrhs, void *A, int64_t lda, void *B,
                       int64_t ldb) {
    lapack_int *ip = malloc(sizeof *ip * (size_t)(n + 1));
    int info;
    switch (t) {
    case HYLA_S: info = LAPACKE_sgesv(LAPACK_COL_MAJOR, (int)n, (int)nrhs, A, (int)lda, ip, B, (int)ldb); break;
    case HYLA_D: info = LAPACKE_dgesv(LAPACK_COL_MAJOR, (int)n, (int)nrhs, A, (int)lda, ip, B, (int)ldb); break;
    case HYLA_C: info = LAPACKE_cgesv(LAPACK_COL_MAJOR, (int)n, (int)nrhs, A, (int)lda, ip, B, (int)ldb); break;
    default: info = LAPACKE_zgesv(LAPACK_COL_MAJOR, (int)n, (int)nrhs, A, (int)lda, ip, B, (int)ldb); break;
    }
    free(ip);
    return info;
}

typedef enum { K_RANDOM, K_ZERO11, K_PERM, K_TINY, K_SINGULAR, K_HILBERT } kind;
static const char *kind_name[] = {"random", "A11=0", "permutation", "tiny A11", "singular", "hilbert"};

static void make_matrix(hyla_dtype t, kind k, int64_t n, void *A, int64_t lda, unsigned long long *s) {
    fill_random(t, A, lda * n, s);
    switch (k) {
    case K_ZERO11: put(t, A, 0, 0); break;
    case K_TINY: put(t, A, 0, eps_of(t) * eps_of(t)); break;
    case K_PERM: /* a cyclic shift: every leading minor but the whole is singular */
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) put(t, A, i + j * lda, i == (j + 1) % n ? 1 : 0);
        break;
    case K_SINGULAR: /* a zero column: partial pivoting meets an exact zero */
        for (int64_t i = 0; i < n; i++) put(t, A, i + (n / 2) * lda, 0);
        break;
    case K_HILBERT:
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) put(t, A, i + j * lda, 1.0 / (double)(i + j + 1));
        break;
    default: break;
    }
}

/* One solve, host entry or _gpu, against LAPACKE. */
static void check_solve(hyla_dtype t, kind k, int64_t n, int64_t nrhs, int gpu, int depth,
                        unsigned long long *s) {
    const size_t es = hyla_dtype_size(t);
    const int64_t lda = n + 2, ldb = n + 1;
    void *A = malloc(es * (size_t)(lda * n) + es), *B = malloc(es * (size_t)(ldb * nrhs) + es);
    void *B0 = malloc(es * (size_t)(ldb * nrhs) + es), *Ar = malloc(es * (size_t)(lda * n) + es);
    void *Xr = malloc(es * (size_t)(ldb * nrhs) + es), *A0 = malloc(es * (size_t)(lda * n) + es);
    make_matrix(t, k, n, A, lda, s);
    fill_random(t, B, ldb * nrhs, s);
    memcpy(A0, A, es * (size_t)(lda * n));
    memcpy(B0, B, es * (size_t)(ldb * nrhs));
    memcpy(Ar, A, es * (size_t)(lda * n));
    memcpy(Xr, B, es * (size_t)(ldb * nrhs));
    const int rinfo = n > 0 && nrhs > 0 ? lapack_gesv(t, n, nrhs, Ar, lda, Xr, ldb) : 0;
    hyla_rbt_opts opts = {.depth = depth, .seed = 42};
    hyla_rbt_info inf;
    int rc = 0;
    if (!gpu) {
        switch (t) {
        case HYLA_S: rc = hyla_sgesv_rbt(ctx, n, nrhs, A, lda, B, ldb, &opts, &inf); break;
        case HYLA_D: rc = hyla_dgesv_rbt(ctx, n, nrhs, A, lda, B, ldb, &opts, &inf); break;
        case HYLA_C: rc = hyla_cgesv_rbt(ctx, n, nrhs, A, lda, B, ldb, &opts, &inf); break;
        default: rc = hyla_zgesv_rbt(ctx, n, nrhs, A, lda, B, ldb, &opts, &inf); break;
        }
    } else {
        const int dev = ctx->ndev - 1;
        void *dA = NULL, *dB = NULL;
        hyla_malloc_device(ctx, dev, es * (size_t)(lda * n) + es, &dA);
        hyla_malloc_device(ctx, dev, es * (size_t)(ldb * nrhs) + es, &dB);
        hyla_copy_to_device(ctx, dev, dA, A, es * (size_t)(lda * n));
        hyla_copy_to_device(ctx, dev, dB, B, es * (size_t)(ldb * nrhs));
        switch (t) {
        case HYLA_S: rc = hyla_sgesv_rbt_gpu(ctx, dev, n, nrhs, dA, lda, dB, ldb, &opts, &inf); break;
        case HYLA_D: rc = hyla_dgesv_rbt_gpu(ctx, dev, n, nrhs, dA, lda, dB, ldb, &opts, &inf); break;
        case HYLA_C: rc = hyla_cgesv_rbt_gpu(ctx, dev, n, nrhs, dA, lda, dB, ldb, &opts, &inf); break;
        default: rc = hyla_zgesv_rbt_gpu(ctx, dev, n, nrhs, dA, lda, dB, ldb, &opts, &inf); break;
        }
        hyla_copy_from_device(ctx, dev, B, dB, es * (size_t)(ldb * nrhs));
        hyla_copy_from_device(ctx, dev, A, dA, es * (size_t)(lda * n));
        hyla_free_device(ctx, dev, &dA);
        hyla_free_device(ctx, dev, &dB);
    }
    const char *api = gpu ? "_gpu" : "";
    CHECK(memcmp(A, A0, es * (size_t)(lda * n)) == 0, "%cgesv_rbt%s %s n %lld: A modified", dch[t], api,
          kind_name[k], (long long)n);
    if (k == K_SINGULAR && rc != 0) {
        /* the pivot test caught it: partial pivoting meets the exact zero */
        CHECK(rc == rinfo && inf.fallback == 1 && memcmp(B, B0, es * (size_t)(ldb * nrhs)) == 0,
              "%cgesv_rbt%s singular n %lld: info %d (LAPACKE %d) fallback %d", dch[t], api,
              (long long)n, rc, rinfo, inf.fallback);
    } else if (k == K_SINGULAR) {
        /* singular up to rounding after the transforms: a solution of a
         * nearby system, which is all the backward error asks for */
        const double ours = solve_ratio(t, n, nrhs, A0, lda, B0, ldb, B, ldb);
        CHECK(ours < 60 && inf.berr <= sqrt((double)n) * eps_of(t),
              "%cgesv_rbt%s singular n %lld: rc 0, ratio %.3g berr %.3g", dch[t], api,
              (long long)n, ours, inf.berr);
    } else {
        const double ours = solve_ratio(t, n, nrhs, A0, lda, B0, ldb, B, ldb);
        const double ref = solve_ratio(t, n, nrhs, A0, lda, B0, ldb, Xr, ldb);
        /* the sparse butterflies of small depth meet structural zeros on
         * permutation matrices: those may fall back, as may the Hilbert
         * matrix (refinement cannot converge) and, on small killers,
         * single precision; double precision on the others may not */
        const int must_rbt = (k != K_HILBERT && k != K_PERM && n >= 4 && !is_single(t)) ||
                             (k == K_PERM && (int64_t)1 << inf.depth >= n && !is_single(t));
        const int ok = rc == 0 && ours <= fmax(10 * ref, 1.0) &&
                       (!must_rbt || inf.fallback == 0) &&
                       inf.berr <= sqrt((double)n + 1) * eps_of(t) * 4;
        CHECK(ok, "%cgesv_rbt%s %s n %lld nrhs %lld depth %d: rc %d ratio %.3g (LAPACKE %.3g) fallback %d/%d steps %d berr %.3g",
              dch[t], api, kind_name[k], (long long)n, (long long)nrhs, inf.depth, rc, ours, ref,
              inf.fallback, inf.fallback_reason, inf.refine_steps, inf.berr);
    }
    free(A); free(B); free(B0); free(Ar); free(Xr); free(A0);
}

static int dsolve(hyla_dtype t, int64_t n, int64_t nrhs, const void *A, int64_t lda, void *B,
                  int64_t ldb, const hyla_rbt_opts *o, hyla_rbt_info *inf) {
    switch (t) {
    case HYLA_S: return hyla_sgesv_rbt(ctx, n, nrhs, A, lda, B, ldb, o, inf);
    case HYLA_D: return hyla_dgesv_rbt(ctx, n, nrhs, A, lda, B, ldb, o, inf);
    case HYLA_C: return hyla_cgesv_rbt(ctx, n, nrhs, A, lda, B, ldb, o, inf);
    default: return hyla_zgesv_rbt(ctx, n, nrhs, A, lda, B, ldb, o, inf);
    }
}

static void test_solver(void) {
    unsigned long long s = 11;
    const int64_t sizes[] = {0, 1, 2, 3, 5, 17, 40};
    for (int ti = 0; ti < 4; ti++) {
        const hyla_dtype t = dtypes[ti];
        for (int si = 0; si < 7; si++) {
            const int64_t n = sizes[si];
            check_solve(t, K_RANDOM, n, 1, 0, 0, &s);
            check_solve(t, K_RANDOM, n, 3, 1, 0, &s);
        }
        check_solve(t, K_RANDOM, 9, 0, 0, 0, &s);
        check_solve(t, K_RANDOM, 21, 2, 0, 1, &s);
        check_solve(t, K_RANDOM, 21, 2, 1, 3, &s);
        for (kind k = K_ZERO11; k <= K_HILBERT; k++) {
            check_solve(t, k, 31, 2, 0, 0, &s);
            check_solve(t, k, 16, 1, 1, 0, &s);
        }
        check_solve(t, K_PERM, 3, 1, 0, 0, &s);
        check_solve(t, K_PERM, 16, 2, 0, 4, &s); /* full depth: U e_1 is dense */
        leak_check(ctx, "solver");
    }
    /* the host-resident copies go through the staging ring in pieces that
     * do not divide the matrix: by columns (n = 75 in double, 27 columns a
     * piece in the host's 16 KiB slots) and by rows (n = 1030 in double
     * complex, 1024 elements a slot) */
    check_solve(HYLA_D, K_RANDOM, 75, 3, 0, 0, &s);
    check_solve(HYLA_Z, K_RANDOM, 1030, 2, 0, 0, &s);
    leak_check(ctx, "solver, staged copies");
}

/* The backend's diagonals op gives the host generator's exact values for
 * any index range (the GPU's and the host's X then agree), in the range
 * exp(+-1/20); bad arguments are refused. */
static void test_diagonals(void) {
    hyla_dev_workspace *ws;
    const hyla_backend_ops *o = ctx->devs[0]->ops;
    int rc = hyla_workspace_get(ctx, 0, 0, 0, &ws);
    CHECK(rc == 0, "workspace %d", rc);
    const int64_t counts[] = {1, 2, 37, 1000};
    const uint64_t offsets[] = {0, 5, 1u << 20};
    double ref[1000], got[1000];
    void *dw = NULL;
    rc = hyla_malloc_device(ctx, 0, sizeof ref, &dw);
    CHECK(rc == 0, "device buffer %d", rc);
    for (int ti = 0; ti < 4; ti++) {
        const hyla_dtype t = dtypes[ti];
        const size_t rs = is_single(t) ? 4 : 8;
        for (int ci = 0; ci < 4; ci++)
            for (int oi = 0; oi < 3; oi++) {
                const int64_t count = counts[ci];
                hyla_rbt_diagonals(t, 42 + (uint64_t)ci, offsets[oi], count, ref);
                rc = o->alg->rbt_diagonals(ws->q_comp, t, 42 + (uint64_t)ci, offsets[oi], count, dw);
                int rs_ = o->queue_sync(ws->q_comp);
                if (!rc) rc = rs_;
                if (!rc) rc = hyla_copy_from_device(ctx, 0, got, dw, (size_t)count * rs);
                CHECK(rc == 0, "%cdiagonals op %d", dch[t], rc);
                int same = memcmp(ref, got, (size_t)count * rs) == 0, inside = 1;
                for (int64_t k = 0; k < count; k++) {
                    const double w = wget(t, got, k);
                    inside &= w >= exp(-0.05) * (1 - 1e-6) && w <= exp(0.05) * (1 + 1e-6);
                }
                CHECK(same && inside, "%cdiagonals count %lld offset %llu: same %d inside %d",
                      dch[t], (long long)count, (unsigned long long)offsets[oi], same, inside);
            }
        /* a sub-range is the matching part of a longer range */
        hyla_rbt_diagonals(t, 9, 0, 1000, ref);
        hyla_rbt_diagonals(t, 9, 300, 10, got);
        CHECK(memcmp((unsigned char *)ref + 300 * rs, got, 10 * rs) == 0,
              "%cdiagonals sub-range differs", dch[t]);
    }
    CHECK(o->alg->rbt_diagonals(ws->q_comp, HYLA_D, 1, 0, 0, NULL) == 0, "count 0 refused");
    CHECK(o->alg->rbt_diagonals(ws->q_comp, HYLA_D, 1, 0, -1, dw) == HYLA_ERR_INVALID,
          "negative count accepted");
    CHECK(o->alg->rbt_diagonals(ws->q_comp, HYLA_D, 1, 0, 4, NULL) == HYLA_ERR_INVALID,
          "NULL array accepted");
    CHECK(o->alg->rbt_diagonals(ws->q_comp, (hyla_dtype)9, 1, 0, 4, dw) == HYLA_ERR_INVALID,
          "bad dtype accepted");
    hyla_free_device(ctx, 0, &dw);
}

/* Same seed, same X (bitwise); the options are honoured. */
static void test_seed(void) {
    const int64_t n = 13, nrhs = 2;
    double A[13 * 13], B[13 * 2], X1[13 * 2], X2[13 * 2];
    unsigned long long s = 5;
    fill_random(HYLA_D, A, n * n, &s);
    fill_random(HYLA_D, B, n * nrhs, &s);
    hyla_rbt_opts o = {.seed = 99, .depth = 3, .max_refine = -1};
    hyla_rbt_info i1, i2;
    memcpy(X1, B, sizeof B);
    memcpy(X2, B, sizeof B);
    int r1 = hyla_dgesv_rbt(ctx, n, nrhs, A, n, X1, n, &o, &i1);
    int r2 = hyla_dgesv_rbt(ctx, n, nrhs, A, n, X2, n, &o, &i2);
    CHECK(r1 == 0 && r2 == 0 && memcmp(X1, X2, sizeof X1) == 0, "same seed, different X");
    CHECK(i1.depth == 3 && i1.n_padded == 16 && i1.refine_steps == 0, "options: depth %d np %lld steps %d",
          i1.depth, (long long)i1.n_padded, i1.refine_steps);
    o.max_refine = 0;
    r1 = hyla_dgesv_rbt(ctx, n, nrhs, A, n, X1, n, NULL, &i1);
    CHECK(r1 == 0 && i1.depth == 2 && i1.n_padded == 16 && i1.fallback == 0, "defaults: rc %d depth %d",
          r1, i1.depth);
    leak_check(ctx, "seed");
}

static void test_args(void) {
    double A[4] = {1, 0, 0, 1}, B[2] = {1, 1};
    hyla_rbt_info inf;
    hyla_rbt_opts o = {0};
    CHECK(hyla_dgesv_rbt(NULL, 2, 1, A, 2, B, 2, NULL, &inf) == HYLA_ERR_INVALID, "ctx NULL");
    CHECK(hyla_dgesv_rbt(ctx, -1, 1, A, 2, B, 2, NULL, &inf) == -1, "n");
    CHECK(hyla_dgesv_rbt(ctx, 2, -1, A, 2, B, 2, NULL, &inf) == -2, "nrhs");
    CHECK(hyla_dgesv_rbt(ctx, 2, 1, NULL, 2, B, 2, NULL, &inf) == -3, "A");
    CHECK(hyla_dgesv_rbt(ctx, 2, 1, A, 1, B, 2, NULL, &inf) == -4, "lda");
    CHECK(hyla_dgesv_rbt(ctx, 2, 1, A, 2, NULL, 2, NULL, &inf) == -5, "B");
    CHECK(hyla_dgesv_rbt(ctx, 2, 1, A, 2, B, 1, NULL, &inf) == -6, "ldb");
    o.depth = HYLA_RBT_MAX_DEPTH + 1;
    CHECK(hyla_dgesv_rbt(ctx, 2, 1, A, 2, B, 2, &o, &inf) == -7, "depth");
    o.depth = -1;
    CHECK(hyla_dgesv_rbt(ctx, 2, 1, A, 2, B, 2, &o, &inf) == -7, "depth < 0");
    o.depth = 0;
    o.max_refine = 101;
    CHECK(hyla_dgesv_rbt(ctx, 2, 1, A, 2, B, 2, &o, &inf) == -7, "max_refine");
    o.max_refine = 0;
    CHECK(hyla_dgesv_rbt(ctx, 2, 1, A, 2, B, 2, &o, NULL) == -8, "info NULL");
    o.dev = hyla_device_count(ctx);
    CHECK(hyla_dgesv_rbt(ctx, 2, 1, A, 2, B, 2, &o, &inf) == HYLA_ERR_NO_DEVICE, "opts dev");
    CHECK(hyla_zgesv_rbt_gpu(ctx, -1, 2, 1, NULL, 2, NULL, 2, NULL, &inf) == HYLA_ERR_NO_DEVICE, "dev");
    CHECK(hyla_sgesv_rbt_gpu(ctx, 0, 2, 1, NULL, 2, NULL, 2, NULL, &inf) == -3, "gpu A");
    CHECK(hyla_cgesv_rbt_gpu(ctx, 0, 0, 1, NULL, 1, NULL, 1, NULL, &inf) == 0 && inf.fallback == 0 &&
              inf.n_padded == 0, "n = 0");
    CHECK(B[0] == 1 && B[1] == 1, "B changed by rejected calls");
    leak_check(ctx, "args");
}

/* The k-th allocation fails: a clean error code and no leak, for every k. */
static void test_alloc(void) {
    const int64_t n = 10;
    double A[100], B[10];
    unsigned long long s = 3;
    fill_random(HYLA_D, A, n * n, &s);
    hyla_rbt_info inf;
    int rc = -1;
    for (int64_t k = 1; k < 200; k++) {
        fill_random(HYLA_D, B, n, &s);
        hyla_debug_fail_alloc(k);
        rc = hyla_dgesv_rbt(ctx, n, 1, A, n, B, n, NULL, &inf);
        hyla_debug_fail_alloc(0);
        if (!t_injected(ctx, "dgesv_rbt", k, rc)) break;
    }
    CHECK(rc == 0, "never succeeded");
}

int main(void) {
    int rc = t_create(&ctx, test_devices(), "test_rbt");
    if (rc) return rc;
    hyla_debug_alloc_stats(&live_base, NULL);
    test_op();
    test_solver();
    test_diagonals();
    test_seed();
    test_args();
    test_alloc();
    hyla_destroy(&ctx);
    return summary("test_rbt");
}
