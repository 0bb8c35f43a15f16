/* The backend's potrf and queue_create_prio on every device of HYLA_DEVICES:
 * scaled residuals ‖A − L Lᴴ‖₁/(n‖A‖₁ε) (or Uᴴ U) for the four dtypes, both
 * triangles, sizes 0, 1, 2, odd, 64 and 65 (the CUDA backend's one-kernel
 * factorization and cuSOLVER's on either side) and past the block sizes, on a normal and a
 * high-priority queue, with guard values around the triangle; info of a
 * matrix whose leading minor of order k is not positive definite; subnormal
 * and Inf pivots as LAPACK treats them; argument
 * checks; an injected allocation failure; and a chain of factorizations
 * that alternates between two queues through events; the xcomm ops on one
 * process; herm_blocks against the staged triangle; cq_rebuild against
 * the host reconstruction (backend/ops/cq.h) and its refusals; larft_gram
 * against the product of its reflectors; geam, nonfinite and mem_info on
 * their own. Reaches the backend
 * through the internal headers, as test_context does. */
#include "core/internal.h"
#include "backend/backend.h"
#include "backend/ops/ops.h"
#include "test_util.h"
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

enum { MAXN = 100, PAD = 3, MAXLD = MAXN + PAD, NINFO = 16, SENTINEL = -77 };

static const hyla_dtype dtypes[] = {HYLA_S, HYLA_D, HYLA_C, HYLA_Z};
static const char dtype_char[] = "sdcz";

static int in_tri(hyla_uplo uplo, int64_t i, int64_t j) { return uplo == HYLA_LOWER ? i >= j : i <= j; }

/* One device's fixture: queues, pinned staging, device matrix and info slots. */
typedef struct {
    hyla_dev *dev;
    const hyla_backend_ops *o;
    hyla_queue *q[3];          /* queue_create, queue_create_prio high, and low */
    void *hbuf;                /* pinned: MAXLD x MAXN elements of the widest dtype */
    int *hinfo;                /* pinned: NINFO ints */
    void *dA;
    int *dinfo;                /* device: NINFO ints */
} fixture;

typedef enum { DIAG_DOMINANT, BADLY_SCALED, GRAM, NCLASS } mat_class;
static const char *class_name[] = {"diag-dominant", "badly scaled", "gram"};

/* A Hermitian positive definite n x n matrix, full, in A (ld n):
 * diagonally dominant; D S D with S diagonally dominant and D spanning
 * 10^±3 (s, c) or 10^±8 (d, z); or B Bᴴ/n + I/10 with B random. */
static void make_hpd(hyla_dtype t, mat_class cls, int64_t n, zc *A, unsigned long long *seed) {
    const int cplx = is_cplx(t);
    if (cls == GRAM) {
        zc *B = malloc(sizeof(zc) * (size_t)(n * n + 1));
        for (int64_t i = 0; i < n * n; i++) B[i] = t_rand(seed) + (cplx ? t_rand(seed) * I : 0);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                zc s = 0;
                for (int64_t k = 0; k < n; k++) s += B[i + k * n] * conj(B[j + k * n]);
                A[i + j * n] = s / (double)n + (i == j ? 0.1 : 0);
            }
        for (int64_t i = 0; i < n; i++) A[i + i * n] = creal(A[i + i * n]);
        free(B);
        return;
    }
    for (int64_t j = 0; j < n; j++) {
        A[j + j * n] = (double)n + 1 + fabs(t_rand(seed));
        for (int64_t i = j + 1; i < n; i++) {
            zc v = t_rand(seed) + (cplx ? t_rand(seed) * I : 0);
            A[i + j * n] = v;
            A[j + i * n] = conj(v);
        }
    }
    if (cls == BADLY_SCALED) {
        const double span = (t == HYLA_S || t == HYLA_C) ? 3 : 8;
        double *d = malloc(sizeof(double) * (size_t)(n + 1));
        for (int64_t i = 0; i < n; i++) d[i] = pow(10.0, span * t_rand(seed));
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) A[i + j * n] *= d[i] * d[j];
        free(d);
    }
}

/* Fills hbuf (ld lda) with A's uplo triangle, rounded to t, and NaN in the
 * other triangle and the padding rows: guards that must come back bitwise
 * unchanged, and that poison the factor if potrf reads them. */
static void stage(hyla_dtype t, hyla_uplo uplo, int64_t n, int64_t lda, const zc *A, void *hbuf) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++)
            put(t, hbuf, i + j * lda, (i < n && in_tri(uplo, i, j)) ? A[i + j * n] : NAN);
}

/* Copies hbuf to the device, runs potrf on q with info in dinfo[0]
 * (preset to SENTINEL), copies both back and waits. Returns potrf's code;
 * *info receives the info read back. */
static int run_potrf(fixture *f, hyla_queue *q, hyla_dtype t, hyla_uplo uplo, int64_t n,
                     int64_t lda, int *info) {
    const hyla_backend_ops *o = f->o;
    const size_t bytes = (size_t)(lda * n) * hyla_dtype_size(t);
    f->hinfo[0] = SENTINEL;
    o->copy_2d(q, f->dA, bytes, f->hbuf, bytes, bytes, 1, HYLA_COPY_H2D);
    o->copy_2d(q, f->dinfo, sizeof(int), f->hinfo, sizeof(int), sizeof(int), 1, HYLA_COPY_H2D);
    int rc = o->potrf(q, t, uplo, n, f->dA, lda, f->dinfo);
    o->copy_2d(q, f->hbuf, bytes, f->dA, bytes, bytes, 1, HYLA_COPY_D2H);
    o->copy_2d(q, f->hinfo, sizeof(int), f->dinfo, sizeof(int), sizeof(int), 1, HYLA_COPY_D2H);
    int src = o->queue_sync(q);
    CHECK(src == 0, "queue_sync after potrf: %s", hyla_strerror(src));
    *info = f->hinfo[0];
    return rc;
}

/* ‖A − L Lᴴ‖₁/(n‖A‖₁ε) (U: ‖A − Uᴴ U‖₁) with the factor in R's uplo
 * triangle (ld lda, dtype t) and A full (ld n). */
static double residual(hyla_dtype t, hyla_uplo uplo, int64_t n, const zc *A, const void *R,
                       int64_t lda) {
    zc *F = calloc((size_t)(n * n), sizeof(zc));
    double anorm = 0, rnorm = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if (in_tri(uplo, i, j)) F[i + j * n] = get(t, R, i + j * lda);
    for (int64_t j = 0; j < n; j++) {
        double acol = 0, rcol = 0;
        for (int64_t i = 0; i < n; i++) {
            zc s = 0;
            if (uplo == HYLA_LOWER)
                for (int64_t k = 0; k <= HYLA_MIN(i, j); k++) s += F[i + k * n] * conj(F[j + k * n]);
            else
                for (int64_t k = 0; k <= HYLA_MIN(i, j); k++) s += conj(F[k + i * n]) * F[k + j * n];
            acol += cabs(A[i + j * n]);
            rcol += cabs(A[i + j * n] - s);
        }
        anorm = fmax(anorm, acol);
        rnorm = fmax(rnorm, rcol);
    }
    free(F);
    return anorm > 0 ? rnorm / ((double)n * anorm * eps_of(t)) : rnorm;
}

/* The guards of stage(): bitwise NaN outside the triangle. */
static int guards_intact(hyla_dtype t, hyla_uplo uplo, int64_t n, int64_t lda, const void *hbuf,
                         const void *guard) {
    const size_t esz = hyla_dtype_size(t);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < lda; i++)
            if (!(i < n && in_tri(uplo, i, j)) &&
                memcmp((const unsigned char *)hbuf + (size_t)(i + j * lda) * esz, guard, esz) != 0)
                return 0;
    return 1;
}

static void test_factor(fixture *f, unsigned long long *seed) {
    static const int64_t sizes[] = {0, 1, 2, 7, 33, 64, 65, 100};
    zc *A = malloc(sizeof(zc) * MAXN * MAXN);
    unsigned char guard[16];
    for (int d = 0; d < 4; d++) {
        const hyla_dtype t = dtypes[d];
        put(t, guard, 0, NAN);
        for (int u = 0; u < 2; u++) {
            const hyla_uplo uplo = u ? HYLA_UPPER : HYLA_LOWER;
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                const int64_t n = sizes[s];
                for (int cls = 0; cls < NCLASS; cls++) {
                    for (int qi = 0; qi < 2; qi++) {
                        /* lda > n on the plain queue, lda = max(1, n) on the high one */
                        const int64_t lda = qi == 0 ? n + PAD : HYLA_MAX(1, n);
                        make_hpd(t, (mat_class)cls, n, A, seed);
                        stage(t, uplo, n, lda, A, f->hbuf);
                        /* the reference is A rounded to t, as potrf sees it */
                        for (int64_t j = 0; j < n; j++)
                            for (int64_t i = 0; i < n; i++) {
                                const int64_t ii = in_tri(uplo, i, j) ? i : j, jj = in_tri(uplo, i, j) ? j : i;
                                zc v = get(t, f->hbuf, ii + jj * lda);
                                A[i + j * n] = in_tri(uplo, i, j) ? v : conj(v);
                            }
                        int info = SENTINEL;
                        int rc = run_potrf(f, f->q[qi], t, uplo, n, lda, &info);
                        double e = n > 0 ? residual(t, uplo, n, A, f->hbuf, lda) : 0;
                        CHECK(rc == 0 && info == 0 && e < 30,
                              "%cpotrf %c n=%lld %s q%d: rc %d info %d residual %g",
                              dtype_char[d], "LU"[u], (long long)n, class_name[cls], qi, rc, info, e);
                        CHECK(guards_intact(t, uplo, n, lda, f->hbuf, guard),
                              "%cpotrf %c n=%lld %s q%d: other triangle or padding modified",
                              dtype_char[d], "LU"[u], (long long)n, class_name[cls], qi);
                    }
                }
            }
        }
    }
    /* n = 0 with no matrix at all */
    f->hinfo[0] = SENTINEL;
    f->o->copy_2d(f->q[0], f->dinfo, sizeof(int), f->hinfo, sizeof(int), sizeof(int), 1, HYLA_COPY_H2D);
    int rc = f->o->potrf(f->q[0], HYLA_Z, HYLA_UPPER, 0, NULL, 1, f->dinfo);
    f->o->copy_2d(f->q[0], f->hinfo, sizeof(int), f->dinfo, sizeof(int), sizeof(int), 1, HYLA_COPY_D2H);
    f->o->queue_sync(f->q[0]);
    CHECK(rc == 0 && f->hinfo[0] == 0, "n=0, A NULL: rc %d info %d", rc, f->hinfo[0]);
    free(A);
}

/* A(k-1, k-1) = -1 in an otherwise diagonally dominant matrix: the leading
 * minors of order < k are positive definite, the Schur complement at k is
 * below -1, so info must be exactly k. */
static void test_not_pd(fixture *f, unsigned long long *seed) {
    static const int64_t sizes[] = {7, 33, 64, 65, 100};
    zc *A = malloc(sizeof(zc) * MAXN * MAXN);
    unsigned char guard[16];
    for (int d = 0; d < 4; d++) {
        const hyla_dtype t = dtypes[d];
        put(t, guard, 0, NAN);
        for (int u = 0; u < 2; u++) {
            const hyla_uplo uplo = u ? HYLA_UPPER : HYLA_LOWER;
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                const int64_t n = sizes[s], ks[] = {5, 1, n};
                for (int ki = 0; ki < 3; ki++) {
                    const int64_t k = ks[ki], lda = n + PAD;
                    make_hpd(t, DIAG_DOMINANT, n, A, seed);
                    A[(k - 1) * (n + 1)] = -1;
                    stage(t, uplo, n, lda, A, f->hbuf);
                    int info = SENTINEL;
                    hyla_queue *q = f->q[ki % 2];
                    int rc = run_potrf(f, q, t, uplo, n, lda, &info);
                    CHECK(rc == 0 && info == k, "%cpotrf %c n=%lld not PD at %lld: rc %d info %d",
                          dtype_char[d], "LU"[u], (long long)n, (long long)k, rc, info);
                    CHECK(guards_intact(t, uplo, n, lda, f->hbuf, guard),
                          "%cpotrf %c n=%lld not PD: other triangle modified", dtype_char[d], "LU"[u],
                          (long long)n);
                }
            }
        }
    }
    free(A);
}

/* Extreme pivots, as LAPACK's potrf treats them. A subnormal first pivot p
 * (A(0,0) = p, A(1,0) = p/2, the rest diagonally dominant): L(0,0) =
 * sqrt(p), L(1,0) = sqrt(p)/2 and the trailing entries finite, with a
 * scaled residual as for any matrix (1/sqrt(p)^2 is past the largest
 * number, so a factorization that scales by it fails). An Inf first pivot
 * with a zero first column below it: LAPACK's info 0, L(0,0) = +Inf and
 * the rest of the factor finite (a factorization that forms sqrt(p) as p /
 * sqrt(p) gets NaN), or a refusal, info > 0 (cuSOLVER's). Sizes on both
 * sides of the CUDA backend's one-kernel limit. */
static void test_extreme_pivots(fixture *f, unsigned long long *seed) {
    static const int64_t sizes[] = {7, 64, 65};
    zc *A = malloc(sizeof(zc) * MAXN * MAXN);
    for (int d = 0; d < 4; d++) {
        const hyla_dtype t = dtypes[d];
        /* subnormal in t, below the smallest p whose 1/p is finite */
        const double p = (t == HYLA_S || t == HYLA_C) ? 1e-40 : 1e-310;
        for (int u = 0; u < 2; u++) {
            const hyla_uplo uplo = u ? HYLA_UPPER : HYLA_LOWER;
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                const int64_t n = sizes[s], lda = n + PAD;
                for (int inf = 0; inf < 2; inf++) {
                    make_hpd(t, DIAG_DOMINANT, n, A, seed);
                    for (int64_t i = 1; i < n; i++) A[i] = A[i * n] = 0;
                    if (inf) {
                        A[0] = INFINITY;
                    } else {
                        A[0] = p;
                        A[1] = A[n] = p / 2;
                    }
                    stage(t, uplo, n, lda, A, f->hbuf);
                    /* the reference: A as rounded to t, as potrf sees it */
                    const int64_t at10 = uplo == HYLA_LOWER ? 1 : lda;
                    const zc a00 = get(t, f->hbuf, 0), a10 = get(t, f->hbuf, at10);
                    A[0] = a00;
                    A[1] = uplo == HYLA_LOWER ? a10 : conj(a10);
                    A[n] = conj(A[1]);
                    int info = SENTINEL;
                    int rc = run_potrf(f, f->q[0], t, uplo, n, lda, &info);
                    int finite = 1;
                    for (int64_t j = 0; j < n; j++)
                        for (int64_t i = 0; i < n; i++) {
                            if (!in_tri(uplo, i, j) || i + j == 0) continue;
                            const zc v = get(t, f->hbuf, i + j * lda);
                            finite &= isfinite(creal(v)) && isfinite(cimag(v));
                        }
                    const zc l00 = get(t, f->hbuf, 0), l10 = get(t, f->hbuf, at10);
                    if (inf) {
                        /* LAPACK's result, or a refusal (cuSOLVER's, past the
                         * one-kernel limit: info 1, or the first minor its
                         * blocking checks) */
                        CHECK(rc == 0 && ((info == 0 && creal(l00) == INFINITY && finite) ||
                                          (info >= 1 && info <= n)),
                              "%cpotrf %c n=%lld Inf pivot: rc %d info %d L00 %g finite %d",
                              dtype_char[d], "LU"[u], (long long)n, rc, info, creal(l00), finite);
                        continue;
                    }
                    const double e = residual(t, uplo, n, A, f->hbuf, lda);
                    const double w0 = sqrt(creal(a00)), w1 = creal(a10) / w0, tol = 8 * eps_of(t);
                    CHECK(rc == 0 && info == 0 && finite && fabs(creal(l00) - w0) <= tol * w0 &&
                              fabs(creal(l10) - w1) <= tol * w1 && e < 30,
                          "%cpotrf %c n=%lld subnormal pivot %g: rc %d info %d L00 %g (%g) L10 %g "
                          "(%g) finite %d residual %g",
                          dtype_char[d], "LU"[u], (long long)n, creal(a00), rc, info, creal(l00), w0,
                          creal(l10), w1, finite, e);
                }
            }
        }
    }
    free(A);
}

/* Bad arguments: HYLA_ERR_INVALID, nothing enqueued (info keeps its value),
 * the queue's status untouched. Then an injected allocation failure. */
static void test_bad_args(fixture *f) {
    const hyla_backend_ops *o = f->o;
    hyla_queue *q = f->q[0];
    void *A = f->dA;
    int *info = f->dinfo;
    f->hinfo[0] = SENTINEL;
    o->copy_2d(q, info, sizeof(int), f->hinfo, sizeof(int), sizeof(int), 1, HYLA_COPY_H2D);
    o->queue_sync(q); /* hinfo is reused below */
    struct { hyla_dtype t; int uplo; int64_t n; void *A; int64_t lda; int *info; const char *what; } bad[] = {
        {HYLA_D, HYLA_LOWER, -1, A, 4, info, "n < 0"},
        {HYLA_D, HYLA_LOWER, 5, A, 4, info, "lda < n"},
        {HYLA_S, HYLA_UPPER, 0, A, 0, info, "lda 0 with n 0"},
        {HYLA_C, HYLA_LOWER, 5, NULL, 5, info, "A NULL"},
        {HYLA_Z, HYLA_LOWER, 5, A, 5, NULL, "info NULL"},
        {HYLA_Z, HYLA_LOWER, 0, A, 1, NULL, "info NULL, n 0"},
        {(hyla_dtype)9, HYLA_LOWER, 5, A, 5, info, "dtype"},
        {(hyla_dtype)-1, HYLA_LOWER, 5, A, 5, info, "dtype -1"},
        {HYLA_D, 2, 5, A, 5, info, "uplo 2"},
        {HYLA_D, -1, 5, A, 5, info, "uplo -1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = o->potrf(q, bad[i].t, (hyla_uplo)bad[i].uplo, bad[i].n, bad[i].A, bad[i].lda,
                          bad[i].info);
        CHECK(rc == HYLA_ERR_INVALID, "bad argument (%s): %d", bad[i].what, rc);
    }
    f->hinfo[0] = 0;
    o->copy_2d(q, f->hinfo, sizeof(int), info, sizeof(int), sizeof(int), 1, HYLA_COPY_D2H);
    int rc = o->queue_sync(q);
    CHECK(rc == 0 && f->hinfo[0] == SENTINEL, "bad arguments enqueue nothing: sync %d info %d", rc,
          f->hinfo[0]);

    /* the op's first allocation fails (host: its task; CUDA: the workspace
     * of a fresh queue, unless it needs none): a clean error, no leak */
    hyla_queue *qf = NULL;
    CHECK(o->queue_create(f->dev, &qf) == 0, "queue for the injected failure");
    if (!qf) return;
    double one[4] = {1, 0, 0, 0};
    o->copy_2d(qf, A, 32, one, 32, 32, 1, HYLA_COPY_H2D);
    o->queue_sync(qf);
    hyla_debug_fail_alloc(1);
    rc = o->potrf(qf, HYLA_D, HYLA_LOWER, 2, A, 2, info);
    hyla_debug_fail_alloc(0);
    CHECK(rc == 0 || rc == HYLA_ERR_NO_MEMORY || rc == HYLA_ERR_DEVICE_MEMORY,
          "injected allocation failure: %d", rc);
    int src = o->queue_sync(qf);
    CHECK(src == 0 || src == rc, "status after the injected failure: %d", src);
    o->queue_destroy(qf);
}

/* For the ordering test: a slow host fill, which the queues must wait for. */
typedef struct { hyla_dtype t; int64_t n; void *buf; } fill_arg;

/* diag(2^(16 (i mod 5 − 2))): four factorizations take it to diag(2^(i mod 5 − 2)), exactly */
static double chain_diag(int64_t i, int power) { return ldexp(1.0, (int)(i % 5 - 2) * power); }

static void slow_fill(void *p) {
    fill_arg *a = p;
    usleep(20000);
    for (int64_t j = 0; j < a->n; j++)
        for (int64_t i = 0; i < a->n; i++) put(a->t, a->buf, i + j * a->n, i == j ? chain_diag(i, 16) : 0);
}

/* Four potrf on one matrix, alternating between a high- and a low-priority
 * queue, each waiting for the other's event; the last copy-back must see all
 * four. A missing wait would factor zeros (info 1) or stop short of 2^(k). */
static void test_order(fixture *f) {
    const hyla_backend_ops *o = f->o;
    hyla_queue *qa = f->q[1], *qb = f->q[2];
    hyla_event *ea = NULL, *eb = NULL;
    CHECK(o->event_create(f->dev, 0, &ea) == 0 && o->event_create(f->dev, 0, &eb) == 0, "events");
    if (!ea || !eb) goto cleanup;
    for (int d = 0; d < 4; d++) {
        const hyla_dtype t = dtypes[d];
        const int64_t n = 64;
        const size_t bytes = (size_t)(n * n) * hyla_dtype_size(t);
        fill_arg arg = {t, n, f->hbuf};
        memset(f->hbuf, 0, bytes);
        for (int i = 0; i < 4; i++) f->hinfo[i] = SENTINEL;
        o->copy_2d(qa, f->dinfo, 4 * sizeof(int), f->hinfo, 4 * sizeof(int), 4 * sizeof(int), 1, HYLA_COPY_H2D);
        o->host_fn(qa, slow_fill, &arg);
        o->copy_2d(qa, f->dA, bytes, f->hbuf, bytes, bytes, 1, HYLA_COPY_H2D);
        int rc = o->potrf(qa, t, HYLA_LOWER, n, f->dA, n, f->dinfo);
        o->event_record(ea, qa);
        o->queue_wait_event(qb, ea);
        rc |= o->potrf(qb, t, HYLA_UPPER, n, f->dA, n, f->dinfo + 1);
        o->event_record(eb, qb);
        o->queue_wait_event(qa, eb);
        rc |= o->potrf(qa, t, HYLA_LOWER, n, f->dA, n, f->dinfo + 2);
        o->event_record(ea, qa);
        o->queue_wait_event(qb, ea);
        rc |= o->potrf(qb, t, HYLA_UPPER, n, f->dA, n, f->dinfo + 3);
        o->copy_2d(qb, f->hbuf, bytes, f->dA, bytes, bytes, 1, HYLA_COPY_D2H);
        o->copy_2d(qb, f->hinfo, 4 * sizeof(int), f->dinfo, 4 * sizeof(int), 4 * sizeof(int), 1, HYLA_COPY_D2H);
        o->event_record(eb, qb);
        int src = o->event_sync(eb);
        int ok = 1;
        for (int64_t i = 0; i < n; i++) ok &= get(t, f->hbuf, i * (n + 1)) == chain_diag(i, 1);
        CHECK(rc == 0 && src == 0 && ok && f->hinfo[0] == 0 && f->hinfo[1] == 0 && f->hinfo[2] == 0 &&
                  f->hinfo[3] == 0,
              "%cpotrf chain over two queues: rc %d sync %d diag ok %d info %d %d %d %d", dtype_char[d],
              rc, src, ok, f->hinfo[0], f->hinfo[1], f->hinfo[2], f->hinfo[3]);
        o->queue_sync(qa);
    }
cleanup:
    o->event_destroy(ea);
    o->event_destroy(eb);
}

/* The device collectives between processes (xcomm ops), on one process:
 * argument checks; without them (host, CUDA without NCCL) every op says
 * HYLA_ERR_UNSUPPORTED; with them a key naming the device, and a
 * communicator of one rank whose broadcast from rank 0 leaves the buffer as
 * it was. */
static void test_xcomm(fixture *f) {
    const hyla_backend_ops *o = f->o;
    char key[64] = {0};
    unsigned char id[HYLA_XCOMM_ID_BYTES];
    hyla_xcomm *c = (hyla_xcomm *)&c; /* must be reset */
    int krc = o->xcomm_key(f->dev, key, sizeof key);
    o->xcomm_destroy(NULL);
    if (krc == HYLA_ERR_UNSUPPORTED) {
        CHECK(o->xcomm_id(id) == HYLA_ERR_UNSUPPORTED, "xcomm_id without collectives");
        CHECK(o->xcomm_create(f->dev, id, 1, 0, &c) == HYLA_ERR_UNSUPPORTED && c == NULL,
              "xcomm_create without collectives");
        CHECK(o->xcomm_bcast(f->q[0], NULL, f->dA, 8, 0) != 0, "xcomm_bcast without collectives");
        return;
    }
    CHECK(krc == 0 && strlen(key) > 0, "xcomm_key: %d '%s'", krc, key);
    CHECK(o->xcomm_key(f->dev, NULL, 64) == HYLA_ERR_INVALID, "xcomm_key NULL");
    CHECK(o->xcomm_key(f->dev, key, 8) == HYLA_ERR_INVALID, "xcomm_key short");
    CHECK(o->xcomm_id(NULL) == HYLA_ERR_INVALID, "xcomm_id NULL");
    int rc = o->xcomm_id(id);
    CHECK(rc == 0, "xcomm_id: %d", rc);
    CHECK(o->xcomm_create(f->dev, id, 1, 1, &c) == HYLA_ERR_INVALID && c == NULL, "rank >= nranks");
    CHECK(o->xcomm_create(f->dev, NULL, 1, 0, &c) == HYLA_ERR_INVALID, "id NULL");
    CHECK(o->xcomm_create(f->dev, id, 1, 0, NULL) == HYLA_ERR_INVALID, "c NULL");
    if (rc) return;
    rc = o->xcomm_create(f->dev, id, 1, 0, &c);
    CHECK(rc == 0 && c, "xcomm_create one rank: %d", rc);
    if (rc) return;
    double *h = f->hbuf;
    for (int i = 0; i < 64; i++) h[i] = i + 0.5;
    rc = o->copy_2d(f->q[0], f->dA, 64 * 8, h, 64 * 8, 64 * 8, 1, HYLA_COPY_H2D);
    CHECK(o->xcomm_bcast(f->q[0], c, f->dA, 64 * 8, 1) == HYLA_ERR_INVALID, "bcast root 1 of 1");
    CHECK(o->xcomm_bcast(f->q[0], NULL, f->dA, 64 * 8, 0) == HYLA_ERR_INVALID, "bcast NULL comm");
    if (!rc) rc = o->xcomm_bcast(f->q[0], c, f->dA, 64 * 8, 0);
    if (!rc) rc = o->xcomm_bcast(f->q[0], c, f->dA, 0, 0);
    memset(h, 0, 64 * 8);
    if (!rc) rc = o->copy_2d(f->q[0], h, 64 * 8, f->dA, 64 * 8, 64 * 8, 1, HYLA_COPY_D2H);
    if (!rc) rc = o->queue_sync(f->q[0]);
    int same = 1;
    for (int i = 0; i < 64; i++) same &= h[i] == i + 0.5;
    CHECK(rc == 0 && same, "bcast on one rank: rc %d, buffer kept %d", rc, same);
    o->xcomm_destroy(c);
}

/* herm_blocks: the diagonal blocks of order b of a Hermitian A (its lower
 * triangle, the imaginary parts of its diagonal set, NaN above it and in
 * the padding rows: never read) as full matrices, the unused part of a
 * short last block's slot untouched (a sentinel); and its argument checks. */
static void test_herm_blocks(fixture *f, unsigned long long *seed) {
    const hyla_backend_ops *o = f->o;
    hyla_queue *q = f->q[0];
    static const int64_t ns[] = {1, 7, 37, 70}, bs[] = {1, 5, 32, 33, 64, 100};
    enum { SMAX = 2 * 100 * 100 };
    void *hS = NULL, *dS = NULL;
    int rc = o->mem_alloc(f->dev, HYLA_MEM_PINNED, (size_t)SMAX * 16, &hS);
    if (!rc) rc = o->mem_alloc(f->dev, HYLA_MEM_DEVICE, (size_t)SMAX * 16, &dS);
    CHECK(rc == 0, "herm_blocks buffers: %d", rc);
    for (int ti = 0; rc == 0 && ti < 4; ti++) {
        const hyla_dtype t = dtypes[ti];
        const size_t es = hyla_dtype_size(t);
        for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
            for (size_t c = 0; c < sizeof bs / sizeof bs[0]; c++) {
                const int64_t n = ns[a], b = bs[c], lda = n + PAD, nblk = (n + b - 1) / b;
                if (nblk * b * b > SMAX) continue;
                for (int64_t j = 0; j < n; j++)
                    for (int64_t i = 0; i < lda; i++) {
                        const zc v = t_rand(seed) + (is_cplx(t) ? t_rand(seed) * I : 0);
                        put(t, f->hbuf, i + j * lda, i < n && i >= j ? v : NAN);
                    }
                for (int64_t i = 0; i < nblk * b * b; i++) put(t, hS, i, 777);
                const size_t abytes = (size_t)(lda * n) * es, sbytes = (size_t)(nblk * b * b) * es;
                o->copy_2d(q, f->dA, abytes, f->hbuf, abytes, abytes, 1, HYLA_COPY_H2D);
                o->copy_2d(q, dS, sbytes, hS, sbytes, sbytes, 1, HYLA_COPY_H2D);
                int r = o->herm_blocks(q, t, n, b, f->dA, lda, dS);
                o->copy_2d(q, hS, sbytes, dS, sbytes, sbytes, 1, HYLA_COPY_D2H);
                int rs = o->queue_sync(q);
                int bad = 0;
                for (int64_t p = 0; p < nblk; p++) {
                    const int64_t off = p * b, rr = HYLA_MIN(b, n - off);
                    for (int64_t j = 0; j < b; j++)
                        for (int64_t i = 0; i < b; i++) {
                            /* from A as staged (rounded to t) */
                            const int64_t gi = off + HYLA_MAX(i, j), gj = off + HYLA_MIN(i, j);
                            zc want = 777;
                            if (i < rr && j < rr) {
                                want = get(t, f->hbuf, gi + gj * lda);
                                if (i < j) want = conj(want);
                                if (i == j) want = creal(want);
                            }
                            bad += get(t, hS, p * b * b + i + j * b) != want;
                        }
                }
                CHECK(r == 0 && rs == 0 && bad == 0,
                      "%c herm_blocks n %lld b %lld: rc %d/%d, %d elements wrong", dtype_char[ti],
                      (long long)n, (long long)b, r, rs, bad);
            }
        CHECK(o->herm_blocks(q, t, 5, 0, f->dA, 5, dS) == HYLA_ERR_INVALID &&
                  o->herm_blocks(q, t, 5, 2, f->dA, 4, dS) == HYLA_ERR_INVALID &&
                  o->herm_blocks(q, t, 5, 2, NULL, 5, dS) == HYLA_ERR_INVALID &&
                  o->herm_blocks(q, t, 5, 2, f->dA, 5, NULL) == HYLA_ERR_INVALID &&
                  o->herm_blocks(q, t, -1, 2, f->dA, 5, dS) == HYLA_ERR_INVALID &&
                  o->herm_blocks(q, t, 0, 2, NULL, 1, NULL) == 0,
              "%c herm_blocks argument checks", dtype_char[ti]);
    }
    CHECK(o->herm_blocks(q, (hyla_dtype)9, 5, 2, f->dA, 5, dS) == HYLA_ERR_INVALID,
          "herm_blocks bad dtype");
    o->mem_free(f->dev, HYLA_MEM_DEVICE, dS);
    o->mem_free(f->dev, HYLA_MEM_PINNED, hS);
}

/* cq_rebuild (backend/ops/cq.h) against hyla_cq_rebuild_host on the same
 * inputs (rounded to t): R1 upper with a diagonal in [1, 2], G2 = I plus a
 * Hermitian perturbation below 0.05 an entry, Q1's top block random (ld
 * k + 1); and the refusals: potrf's info, an entry of G2 0.5 from I, R1
 * with a diagonal entry of 1e-12 (k > 1: for k = 1 it is the largest too). Widths 1, 7, 64 and 65 (past the CUDA
 * kernel's: HYLA_ERR_UNSUPPORTED there, nothing enqueued). */
static void test_cq_rebuild(fixture *f, unsigned long long *seed) {
    const hyla_backend_ops *o = f->o;
    hyla_queue *q = f->q[0];
    static const int64_t ks[] = {1, 7, 64, 65};
    enum { KMAX = 65, NBLK = 8 }; /* R1, G2, Qt, then V1, Tr, Rt, M, Ui */
    const size_t blk = (size_t)KMAX * (KMAX + 1) * 16;
    void *h = NULL, *d = NULL;
    unsigned char *ref = malloc(5 * blk), *work = malloc(2 * blk);
    int rc = ref && work ? 0 : HYLA_ERR_NO_MEMORY;
    if (!rc) rc = o->mem_alloc(f->dev, HYLA_MEM_PINNED, NBLK * blk + 64, &h);
    if (!rc) rc = o->mem_alloc(f->dev, HYLA_MEM_DEVICE, NBLK * blk + 64, &d);
    CHECK(rc == 0 && o->alg->cq_rebuild, "cq_rebuild buffers: %d", rc);
    for (int ti = 0; rc == 0 && o->alg->cq_rebuild && ti < 4; ti++) {
        const hyla_dtype t = dtypes[ti];
        const double tol = t == HYLA_S || t == HYLA_C ? 1e-3 : 1e-10;
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
            for (int var = 0; var < 4; var++) {
                const int64_t k = ks[ki], ldq = k + 1;
                unsigned char *hb[NBLK], *db[NBLK];
                for (int b = 0; b < NBLK; b++) {
                    hb[b] = (unsigned char *)h + b * blk;
                    db[b] = (unsigned char *)d + b * blk;
                }
                int *hint = (int *)((unsigned char *)h + NBLK * blk);
                int *dint = (int *)((unsigned char *)d + NBLK * blk);
                for (int64_t j = 0; j < k; j++)
                    for (int64_t i = 0; i < ldq; i++) {
                        const zc r = t_rand(seed) + (is_cplx(t) ? t_rand(seed) * I : 0);
                        if (i < k) {
                            put(t, hb[0], i + j * k,
                                i < j ? r : i == j ? 1.5 + 0.5 * creal(r) : 99.0);
                            put(t, hb[1], i + j * k,
                                i == j ? 1 + 0.04 * creal(r) : i < j ? 0.04 * r : 99.0);
                        }
                        put(t, hb[2], i + j * ldq, r);
                    }
                hint[0] = var == 1 ? 3 : 0;
                if (var == 2) put(t, hb[1], 0 + (k - 1) * k, k > 1 ? 0.5 : 1.5);
                if (var == 3) put(t, hb[0], (k - 1) + (k - 1) * k, 1e-12);
                hint[1] = -1;
                o->copy_2d(q, d, 3 * blk, h, 3 * blk, 3 * blk, 1, HYLA_COPY_H2D);
                o->copy_2d(q, dint, 2 * sizeof(int), hint, 2 * sizeof(int), 2 * sizeof(int), 1,
                           HYLA_COPY_H2D);
                const hyla_cq_args a = {.k = k, .info = dint, .R1 = db[0], .G2 = db[1],
                                        .Qt = db[2], .ldq = ldq, .V1 = db[3], .Tr = db[4],
                                        .Rt = db[5], .M = db[6], .Ui = db[7], .bad = dint + 1};
                int r = o->alg->cq_rebuild(q, t, &a);
                /* CUDA: k > 64, or below Hopper a block's shared memory too
                 * small for the kernel (Hopper has room for every type) */
                if (r == HYLA_ERR_UNSUPPORTED && f->dev->info.kind != HYLA_DEVICE_HOST &&
                    (k > 64 || f->dev->info.compute_major < 9)) {
                    CHECK(o->queue_sync(q) == 0, "%c cq_rebuild k %lld: queue after UNSUPPORTED",
                          dtype_char[ti], (long long)k);
                    continue;
                }
                o->copy_2d(q, hb[3], 5 * blk, db[3], 5 * blk, 5 * blk, 1, HYLA_COPY_D2H);
                o->copy_2d(q, hint + 1, sizeof(int), dint + 1, sizeof(int), sizeof(int), 1,
                           HYLA_COPY_D2H);
                const int rs = o->queue_sync(q);
                const hyla_cq_args ha = {.k = k, .info = hint, .R1 = hb[0], .G2 = hb[1],
                                         .Qt = hb[2], .ldq = ldq, .V1 = ref, .Tr = ref + blk,
                                         .Rt = ref + 2 * blk, .M = ref + 3 * blk,
                                         .Ui = ref + 4 * blk, .bad = NULL};
                const int want = hyla_cq_rebuild_host(t, &ha, work);
                double err = 0;
                for (int b = 0; !want && hint[1] == 0 && b < 5; b++)
                    for (int64_t i = 0; i < k * k; i++) {
                        const zc x = get(t, hb[3 + b], i), y = get(t, ref + b * blk, i);
                        const double e = cabs(x - y) / (1 + cabs(y));
                        err = e > err || isnan(e) ? e : err;
                    }
                CHECK(r == 0 && rs == 0 && want == (var != 0 && !(var == 3 && k == 1)) && hint[1] == want && err <= tol,
                      "%c cq_rebuild k %lld case %d: rc %d/%d, refused %d (host %d), error %g",
                      dtype_char[ti], (long long)k, var, r, rs, hint[1], want, err);
            }
        const hyla_cq_args bad = {.k = 0, .info = f->dinfo, .R1 = d, .G2 = d, .Qt = d, .ldq = 1,
                                  .V1 = d, .Tr = d, .Rt = d, .M = d, .Ui = d, .bad = f->dinfo};
        hyla_cq_args nul = bad;
        nul.k = 2, nul.ldq = 2, nul.Tr = NULL;
        CHECK(o->alg->cq_rebuild(q, t, &bad) == HYLA_ERR_INVALID &&
                  o->alg->cq_rebuild(q, t, &nul) == HYLA_ERR_INVALID &&
                  o->alg->cq_rebuild(q, t, NULL) == HYLA_ERR_INVALID,
              "%c cq_rebuild argument checks", dtype_char[ti]);
    }
    o->mem_free(f->dev, HYLA_MEM_DEVICE, d);
    o->mem_free(f->dev, HYLA_MEM_PINNED, h);
    free(ref);
    free(work);
}

/* larft_gram (backend/ops/ops.h) against the reflectors themselves: for
 * k reflectors H_j = I - tau_j v_j v_j^H (V m x k unit lower trapezoidal,
 * random; tau_j making H_j unitary, or zero for every third j in one case:
 * no reflection), I - V T V^H with the op's T must equal H_0 H_1 ... H_{k-1}
 * formed one reflector at a time; G = V^H V goes in with NaN on and below
 * its diagonal (never read), T comes back with its strictly lower part
 * zeroed. Widths 1, 2, 7, 64, 65 and 130; then the argument checks. */
static void test_larft_gram(fixture *f, unsigned long long *seed) {
    const hyla_backend_ops *o = f->o;
    hyla_queue *q = f->q[0];
    static const int64_t ks[] = {1, 2, 7, 64, 65, 130};
    enum { KMAX = 130, MMAX = KMAX + 5 };
    const size_t blk = (size_t)KMAX * (KMAX + 1) * 16; /* T has ld k + 1 */
    void *h = NULL, *d = NULL;
    zc *V = malloc(sizeof *V * MMAX * KMAX), *P = malloc(sizeof *P * MMAX * MMAX),
       *tau = malloc(sizeof *tau * KMAX), *col = malloc(sizeof *col * MMAX);
    int rc = V && P && tau && col ? 0 : HYLA_ERR_NO_MEMORY;
    if (!rc) rc = o->mem_alloc(f->dev, HYLA_MEM_PINNED, 3 * blk, &h);
    if (!rc) rc = o->mem_alloc(f->dev, HYLA_MEM_DEVICE, 3 * blk, &d);
    CHECK(rc == 0 && o->alg->larft_gram, "larft_gram buffers: %d", rc);
    for (int ti = 0; rc == 0 && o->alg->larft_gram && ti < 4; ti++) {
        const hyla_dtype t = dtypes[ti];
        const size_t es = hyla_dtype_size(t);
        const double tol = t == HYLA_S || t == HYLA_C ? 1e-4 : 1e-12;
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
            for (int zero = 0; zero < 2; zero++) {
                const int64_t k = ks[ki], m = k + 5, ldt = k + 1;
                unsigned char *hG = h, *htau = (unsigned char *)h + blk,
                              *hT = (unsigned char *)h + 2 * blk;
                unsigned char *dG = d, *dtau = (unsigned char *)d + blk,
                              *dT = (unsigned char *)d + 2 * blk;
                /* V and tau, rounded to t */
                for (int64_t j = 0; j < k; j++) {
                    for (int64_t i = 0; i < m; i++) {
                        zc v = i < j ? 0 : i == j ? 1 : t_rand(seed) + (is_cplx(t) ? t_rand(seed) * I : 0);
                        put(t, hT, 0, v);
                        V[i + j * m] = get(t, hT, 0);
                    }
                    /* a unitary H_j: tau_j ||v_j||^2 = 1 - e^{i phi} (phi = pi: real) */
                    double vv = 0;
                    for (int64_t i = 0; i < m; i++) vv += creal(conj(V[i + j * m]) * V[i + j * m]);
                    const double phi = is_cplx(t) ? 3.14159265358979 * (1 + 0.5 * t_rand(seed)) : 3.14159265358979;
                    zc tj = (1 - cexp(phi * I)) / vv;
                    if (zero && j % 3 == 1) tj = 0;
                    put(t, htau, j, tj);
                    tau[j] = get(t, htau, j);
                }
                for (int64_t j = 0; j < k; j++)
                    for (int64_t i = 0; i < k; i++) {
                        zc g = 0;
                        for (int64_t r = 0; r < m; r++) g += conj(V[r + i * m]) * V[r + j * m];
                        put(t, hG, i + j * k, i < j ? g : NAN);
                    }
                for (int64_t i = 0; i < ldt * k; i++) put(t, hT, i, 777);
                o->copy_2d(q, dG, 2 * blk, hG, 2 * blk, 2 * blk, 1, HYLA_COPY_H2D);
                o->copy_2d(q, dT, blk, hT, blk, blk, 1, HYLA_COPY_H2D);
                const int r = o->alg->larft_gram(q, t, k, dG, k, dtau, dT, ldt);
                o->copy_2d(q, hT, blk, dT, blk, blk, 1, HYLA_COPY_D2H);
                const int rs = o->queue_sync(q);
                /* P = H_0 ... H_{k-1} - (I - V T V^H), column by column */
                double err = 0;
                int lower = 0;
                for (int64_t j = 0; j < k; j++)
                    for (int64_t i = j + 1; i < ldt; i++)
                        lower += i < k ? get(t, hT, i + j * ldt) != 0 : get(t, hT, i + j * ldt) != 777;
                for (int64_t c = 0; c < m; c++) {
                    for (int64_t i = 0; i < m; i++) col[i] = i == c;
                    for (int64_t j = k - 1; j >= 0; j--) { /* H_0 (H_1 (... e_c)) */
                        zc dot = 0;
                        for (int64_t i = 0; i < m; i++) dot += conj(V[i + j * m]) * col[i];
                        for (int64_t i = 0; i < m; i++) col[i] -= tau[j] * dot * V[i + j * m];
                    }
                    for (int64_t i = 0; i < m; i++) P[i + c * m] = col[i] - (i == c);
                }
                for (int64_t c = 0; c < m; c++)
                    for (int64_t i = 0; i < m; i++) {
                        /* + (V T V^H)(i, c) */
                        zc x = 0;
                        for (int64_t a = 0; a < k; a++)
                            for (int64_t b = a; b < k; b++)
                                x += V[i + a * m] * get(t, hT, a + b * ldt) * conj(V[c + b * m]);
                        const double e = cabs(P[i + c * m] + x);
                        err = e > err || isnan(e) ? e : err;
                    }
                err /= (double)k;
                CHECK(r == 0 && rs == 0 && lower == 0 && err <= tol,
                      "%c larft_gram k %lld%s: rc %d/%d, %d lower entries wrong, error %g",
                      dtype_char[ti], (long long)k, zero ? " (zero taus)" : "", r, rs, lower, err);
                (void)es;
            }
        CHECK(o->alg->larft_gram(q, t, -1, d, 1, d, d, 1) == HYLA_ERR_INVALID &&
                  o->alg->larft_gram(q, t, 3, d, 2, d, d, 3) == HYLA_ERR_INVALID &&
                  o->alg->larft_gram(q, t, 3, d, 3, d, d, 2) == HYLA_ERR_INVALID &&
                  o->alg->larft_gram(q, t, 3, NULL, 3, d, d, 3) == HYLA_ERR_INVALID &&
                  o->alg->larft_gram(q, t, 3, d, 3, NULL, d, 3) == HYLA_ERR_INVALID &&
                  o->alg->larft_gram(q, t, 3, d, 3, d, NULL, 3) == HYLA_ERR_INVALID &&
                  o->alg->larft_gram(q, t, 0, NULL, 1, NULL, NULL, 1) == 0,
              "%c larft_gram argument checks", dtype_char[ti]);
    }
    CHECK(!o->alg->larft_gram || o->alg->larft_gram(q, (hyla_dtype)9, 1, d, 1, d, d, 1) == HYLA_ERR_INVALID,
          "larft_gram bad dtype");
    o->mem_free(f->dev, HYLA_MEM_DEVICE, d);
    o->mem_free(f->dev, HYLA_MEM_PINNED, h);
    free(V);
    free(P);
    free(tau);
    free(col);
}

/* geam: C := alpha op(A) + beta C against the same sum on the host, for
 * every dtype and op (none, transpose, conjugate transpose), beta zero (C
 * filled with NaN: never read) and not, with padded leading dimensions;
 * the argument checks. */
static void test_geam(fixture *f, unsigned long long *seed) {
    const hyla_backend_ops *o = f->o;
    hyla_queue *q = f->q[0];
    static const int64_t ms[] = {1, 7, 33}, ns[] = {1, 5, 40};
    static const hyla_op ops[] = {HYLA_NOTRANS, HYLA_TRANS, HYLA_CONJTRANS};
    enum { LD = 45 };
    const size_t blk = (size_t)LD * LD * 16;
    void *h = NULL, *d = NULL;
    zc *ref = malloc(sizeof *ref * LD * LD);
    int rc = ref ? 0 : HYLA_ERR_NO_MEMORY;
    if (!rc) rc = o->mem_alloc(f->dev, HYLA_MEM_PINNED, 2 * blk, &h);
    if (!rc) rc = o->mem_alloc(f->dev, HYLA_MEM_DEVICE, 2 * blk, &d);
    CHECK(rc == 0 && o->geam, "geam buffers: %d", rc);
    for (int ti = 0; rc == 0 && ti < 4; ti++) {
        const hyla_dtype t = dtypes[ti];
        const size_t es = hyla_dtype_size(t);
        const double tol = t == HYLA_S || t == HYLA_C ? 1e-5 : 1e-13;
        for (size_t a = 0; a < 3; a++)
            for (size_t b = 0; b < 3; b++)
                for (int oi = 0; oi < 3; oi++)
                    for (int bz = 0; bz < 2; bz++) {
                        const int64_t m = ms[a], n = ns[b], lda = (oi ? n : m) + 2, ldc = m + 3;
                        const hyla_op op = ops[oi];
                        unsigned char *hA = h, *hC = (unsigned char *)h + blk;
                        const zc al = 0.75 + (is_cplx(t) ? 0.5 * I : 0), be = bz ? 0 : -1.25;
                        unsigned char alpha[16], beta[16];
                        put(t, alpha, 0, al);
                        put(t, beta, 0, be);
                        for (int64_t i = 0; i < LD * LD; i++) {
                            put(t, hA, i, t_rand(seed) + (is_cplx(t) ? t_rand(seed) * I : 0));
                            put(t, hC, i, bz ? NAN : t_rand(seed) + (is_cplx(t) ? t_rand(seed) * I : 0));
                        }
                        for (int64_t j = 0; j < n; j++)
                            for (int64_t i = 0; i < m; i++) {
                                zc x = oi ? get(t, hA, j + i * lda) : get(t, hA, i + j * lda);
                                if (op == HYLA_CONJTRANS) x = conj(x);
                                ref[i + j * m] = get(t, alpha, 0) * x +
                                                 (bz ? 0 : get(t, beta, 0) * get(t, hC, i + j * ldc));
                            }
                        o->copy_2d(q, d, 2 * blk, h, 2 * blk, 2 * blk, 1, HYLA_COPY_H2D);
                        const int r = o->geam(q, t, op, m, n, alpha, d, lda, beta,
                                              (unsigned char *)d + blk, ldc);
                        o->copy_2d(q, hC, blk, (unsigned char *)d + blk, blk, blk, 1, HYLA_COPY_D2H);
                        const int rs = o->queue_sync(q);
                        double err = 0;
                        int pad = 0;
                        for (int64_t j = 0; j < n; j++) {
                            for (int64_t i = 0; i < m; i++) {
                                const double e = cabs(get(t, hC, i + j * ldc) - ref[i + j * m]) /
                                                 (1 + cabs(ref[i + j * m]));
                                err = e > err || isnan(e) ? e : err;
                            }
                            /* the rows between m and ldc are not C's */
                            for (int64_t i = m; i < ldc && !bz; i++)
                                pad += isnan(creal(get(t, hC, i + j * ldc)));
                        }
                        CHECK(r == 0 && rs == 0 && err <= tol && pad == 0,
                              "%c geam op %d m %lld n %lld beta %s: rc %d/%d, error %g",
                              dtype_char[ti], oi, (long long)m, (long long)n, bz ? "0" : "-1.25", r,
                              rs, err);
                        (void)es;
                    }
        unsigned char one[16];
        put(t, one, 0, 1);
        CHECK(o->geam(q, t, HYLA_NOTRANS, -1, 2, one, d, 2, one, d, 2) == HYLA_ERR_INVALID &&
                  o->geam(q, t, HYLA_NOTRANS, 3, 2, one, d, 2, one, d, 3) == HYLA_ERR_INVALID &&
                  o->geam(q, t, HYLA_TRANS, 3, 4, one, d, 3, one, d, 3) == HYLA_ERR_INVALID &&
                  o->geam(q, t, HYLA_NOTRANS, 3, 2, one, d, 3, one, d, 2) == HYLA_ERR_INVALID &&
                  o->geam(q, t, HYLA_NOTRANS, 0, 0, one, NULL, 1, one, NULL, 1) == 0,
              "%c geam argument checks", dtype_char[ti]);
    }
    o->mem_free(f->dev, HYLA_MEM_DEVICE, d);
    o->mem_free(f->dev, HYLA_MEM_PINNED, h);
    free(ref);
}

/* nonfinite: a NaN or an Inf at one element of a 37 x 29 matrix (ld 40)
 * is found exactly when the element lies in the part selected (every
 * element, the lower part with an offset, the upper part with an offset),
 * in every dtype (complex: in the imaginary part); a finite matrix and an
 * empty one give 0; NaN in the padding rows is never read; the argument
 * checks. mem_info: 0 < free <= total. */
static void test_nonfinite_meminfo(fixture *f) {
    const hyla_backend_ops *o = f->o;
    hyla_queue *q = f->q[0];
    enum { M = 37, N = 29, LDA = 40 };
    static const int uplos[] = {-1, HYLA_LOWER, HYLA_UPPER};
    static const int64_t offs[] = {0, 3, -4};
    static const int64_t spots[][2] = {{0, 0}, {36, 0}, {0, 28}, {20, 10}, {10, 20}, {14, 17}};
    for (int ti = 0; ti < 4; ti++) {
        const hyla_dtype t = dtypes[ti];
        const size_t es = hyla_dtype_size(t), bytes = (size_t)LDA * N * es;
        for (int ui = 0; ui < 3; ui++)
            for (int oi = 0; oi < 3; oi++)
                for (int sp = -1; sp < (int)(sizeof spots / sizeof spots[0]); sp++)
                    for (int inf = 0; inf < 2; inf++) {
                        if (sp < 0 && inf) continue;
                        const int uplo = uplos[ui];
                        const int64_t off = offs[oi];
                        for (int64_t j = 0; j < N; j++)
                            for (int64_t i = 0; i < LDA; i++)
                                put(t, f->hbuf, i + j * LDA, i < M ? 1 + 0.5 * I : NAN);
                        int want = 0;
                        if (sp >= 0) {
                            const int64_t i = spots[sp][0], j = spots[sp][1];
                            const double v = inf ? INFINITY : NAN;
                            put(t, f->hbuf, i + j * LDA, is_cplx(t) ? 1 + v * I : v);
                            want = uplo == -1 || (uplo == HYLA_LOWER ? i >= j + off : i <= j + off);
                        }
                        f->hinfo[0] = -5;
                        o->copy_2d(q, f->dA, bytes, f->hbuf, bytes, bytes, 1, HYLA_COPY_H2D);
                        const int r = o->nonfinite(q, t, uplo, off, M, N, f->dA, LDA, f->dinfo);
                        o->copy_2d(q, f->hinfo, sizeof(int), f->dinfo, sizeof(int), sizeof(int), 1,
                                   HYLA_COPY_D2H);
                        const int rs = o->queue_sync(q);
                        CHECK(r == 0 && rs == 0 && f->hinfo[0] == want,
                              "%c nonfinite uplo %d off %lld spot %d %s: rc %d/%d, bad %d (want %d)",
                              dtype_char[ti], uplo, (long long)off, sp, inf ? "Inf" : "NaN", r, rs,
                              f->hinfo[0], want);
                    }
        f->hinfo[0] = -5;
        int r = o->nonfinite(q, t, -1, 0, 0, 5, NULL, 1, f->dinfo);
        o->copy_2d(q, f->hinfo, sizeof(int), f->dinfo, sizeof(int), sizeof(int), 1, HYLA_COPY_D2H);
        CHECK(r == 0 && o->queue_sync(q) == 0 && f->hinfo[0] == 0, "%c nonfinite m = 0: %d, bad %d",
              dtype_char[ti], r, f->hinfo[0]);
        CHECK(o->nonfinite(q, t, 7, 0, 3, 3, f->dA, 3, f->dinfo) == HYLA_ERR_INVALID &&
                  o->nonfinite(q, t, -1, 0, -1, 3, f->dA, 3, f->dinfo) == HYLA_ERR_INVALID &&
                  o->nonfinite(q, t, -1, 0, 3, 3, f->dA, 2, f->dinfo) == HYLA_ERR_INVALID &&
                  o->nonfinite(q, t, -1, 0, 3, 3, f->dA, 3, NULL) == HYLA_ERR_INVALID &&
                  o->nonfinite(q, t, -1, 0, 3, 3, NULL, 3, f->dinfo) == HYLA_ERR_INVALID,
              "%c nonfinite argument checks", dtype_char[ti]);
    }
    size_t fb = 0, tb = 0;
    const int r = o->mem_info(f->dev, &fb, &tb);
    CHECK(r == 0 && tb > 0 && fb > 0 && fb <= tb, "mem_info: rc %d, free %zu of %zu", r, fb, tb);
}

static void test_device(hyla_dev *dev, unsigned long long *seed) {
    const hyla_backend_ops *o = dev->ops;
    fixture f = {.dev = dev, .o = o};
    const size_t mbytes = (size_t)MAXLD * MAXN * 16;
    int rc = o->queue_create(dev, &f.q[0]);
    CHECK(rc == 0, "queue_create: %d", rc);
    rc = o->queue_create_prio(dev, 1, &f.q[1]);
    CHECK(rc == 0, "queue_create_prio high: %d", rc);
    rc = o->queue_create_prio(dev, 0, &f.q[2]);
    CHECK(rc == 0, "queue_create_prio low: %d", rc);
    rc = o->mem_alloc(dev, HYLA_MEM_PINNED, mbytes, &f.hbuf);
    if (!rc) rc = o->mem_alloc(dev, HYLA_MEM_PINNED, NINFO * sizeof(int), (void **)&f.hinfo);
    if (!rc) rc = o->mem_alloc(dev, HYLA_MEM_DEVICE, mbytes, &f.dA);
    if (!rc) rc = o->mem_alloc(dev, HYLA_MEM_DEVICE, NINFO * sizeof(int), (void **)&f.dinfo);
    CHECK(rc == 0, "buffers: %d", rc);
    if (rc == 0 && f.q[0] && f.q[1] && f.q[2]) {
        test_factor(&f, seed);
        test_not_pd(&f, seed);
        test_extreme_pivots(&f, seed);
        test_bad_args(&f);
        test_order(&f);
        test_xcomm(&f);
        test_herm_blocks(&f, seed);
        test_cq_rebuild(&f, seed);
        test_larft_gram(&f, seed);
        test_geam(&f, seed);
        test_nonfinite_meminfo(&f);
    }
    o->mem_free(dev, HYLA_MEM_DEVICE, f.dinfo);
    o->mem_free(dev, HYLA_MEM_DEVICE, f.dA);
    o->mem_free(dev, HYLA_MEM_PINNED, f.hinfo);
    o->mem_free(dev, HYLA_MEM_PINNED, f.hbuf);
    for (int i = 0; i < 3; i++) o->queue_destroy(f.q[i]);
}

int main(void) {
    unsigned long long seed = 2024;
    int64_t live0, live1;
    hyla_debug_alloc_stats(&live0, NULL);
    hyla_t *h = NULL;
    int rc = t_create(&h, test_devices(), "backend");
    if (rc) return rc;
    for (int d = 0; d < h->ndev; d++) test_device(h->devs[d], &seed);
    hyla_destroy(&h);
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld", (long long)(live1 - live0));
    return summary("backend");
}
