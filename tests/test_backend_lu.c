/* The backend's LU and QR ops on every device of HYLA_DEVICES: getrf with and
 * without pivoting for the four dtypes, square and rectangular, sizes 0, 1,
 * 2, odd, with the residual |P A - L U|_1 / (max(m,n) |A|_1 eps), pivots in
 * range and the info of a zero column (without pivoting, only the info:
 * the factor is then unspecified); laswp forward and backward against a
 * host loop, with guard rows that must not change; geqrf with the residual
 * |A - Q R|_1 / (max(m,n) |A|_1 eps), Q rebuilt on the host from the
 * reflectors; and argument checks.
 * Reaches the backend through the internal headers, as test_backend does. */
#include "test_lu_fixture.h"
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>

enum { MAXM = 70, MAXN = 70, LD = MAXM + 3 };

static const hyla_dtype dtypes[] = {HYLA_S, HYLA_D, HYLA_C, HYLA_Z};

/* matrices of LD x MAXN, MAXN pivots and taus, of the widest dtype */
typedef lu_bufs fixture;

static void up(fixture *f, size_t bytes) {
    f->o->copy_2d(f->q, f->dA, bytes, f->h, bytes, bytes, 1, HYLA_COPY_H2D);
}
static void down(fixture *f, size_t bytes) {
    f->o->copy_2d(f->q, f->h, bytes, f->dA, bytes, bytes, 1, HYLA_COPY_D2H);
    f->o->copy_2d(f->q, f->hpiv, MAXN * sizeof(int64_t), f->dpiv, MAXN * sizeof(int64_t),
                  MAXN * sizeof(int64_t), 1, HYLA_COPY_D2H);
    f->o->copy_2d(f->q, f->hinfo, sizeof(int), f->dinfo, sizeof(int), sizeof(int), 1, HYLA_COPY_D2H);
}

/* 1 when the guard rows below row m of the downloaded matrix still hold 555 */
static int guard_kept(const fixture *f, hyla_dtype t, int64_t m) {
    for (int64_t j = 0; j < MAXN; j++)
        for (int64_t i = m; i < LD; i++)
            if (get(t, f->h, i + j * LD) != 555) return 0;
    return 1;
}

/* getrf on an m x n matrix (ld LD, guard rows below m), pivoting or not;
 * zero_col > 0 zeroes that column (1-based) and expects info zero_col. */
static void getrf_case(fixture *f, hyla_dtype t, int64_t m, int64_t n, int pivot, int zero_col,
                       unsigned long long *s) {
    const size_t es = hyla_dtype_size(t), bytes = (size_t)LD * MAXN * es;
    const int64_t k = m < n ? m : n;
    zc *A0 = malloc(sizeof *A0 * LD * MAXN);
    for (int64_t j = 0; j < MAXN; j++)
        for (int64_t i = 0; i < LD; i++) {
            zc v = i >= m ? 555 : t_rand(s) + ((t == HYLA_C || t == HYLA_Z) ? t_rand(s) * I : 0);
            if (!pivot && i == j && i < m && j < n) v += 2.0 * (m > n ? m : n);
            if (zero_col && j == zero_col - 1 && i < m) v = 0;
            A0[i + j * LD] = v;
            put(t, f->h, i + j * LD, v);
        }
    up(f, bytes);
    int rc = f->o->getrf(f->q, t, m, n, f->dA, LD, pivot ? f->dpiv : NULL, f->dinfo, 0);
    down(f, bytes);
    int rs = f->o->queue_sync(f->q);
    CHECK(rc == 0 && rs == 0, "getrf t %d m %lld n %lld: rc %d sync %d", t, (long long)m,
          (long long)n, rc, rs);
    CHECK(*f->hinfo == zero_col, "getrf t %d m %lld n %lld pivot %d: info %d, expected %d", t,
          (long long)m, (long long)n, pivot, *f->hinfo, zero_col);
    /* P A0 (swaps applied to a copy) against L U */
    zc *PA = malloc(sizeof *PA * LD * MAXN);
    memcpy(PA, A0, sizeof *PA * LD * MAXN);
    int bad_piv = 0;
    for (int64_t i = 0; pivot && i < k; i++) {
        int64_t p = f->hpiv[i] - 1;
        if (p < i || p >= m) {
            bad_piv = 1;
            break;
        }
        for (int64_t j = 0; j < n; j++) {
            zc x = PA[i + j * LD];
            PA[i + j * LD] = PA[p + j * LD];
            PA[p + j * LD] = x;
        }
    }
    CHECK(!bad_piv, "getrf t %d m %lld n %lld: pivot out of range", t, (long long)m, (long long)n);
    double num = 0, den = 0;
    for (int64_t j = 0; j < n; j++) {
        double c = 0, a = 0;
        for (int64_t i = 0; i < m; i++) {
            zc acc = 0;
            for (int64_t l = 0; l <= (i < j ? i : j) && l < k; l++)
                acc += (l == i ? 1 : get(t, f->h, i + l * LD)) * get(t, f->h, l + j * LD);
            c += cabs(PA[i + j * LD] - acc);
            a += cabs(A0[i + j * LD]);
        }
        num = fmax(num, c);
        den = fmax(den, a);
    }
    double r = den > 0 ? num / ((double)(m > n ? m : n) * den * eps_of(t)) : num;
    CHECK(bad_piv || (zero_col && !pivot) || r < 60, "getrf t %d m %lld n %lld pivot %d: residual %.3g", t, (long long)m,
          (long long)n, pivot, r);
    CHECK(guard_kept(f, t, m), "getrf t %d m %lld n %lld: guard rows changed", t, (long long)m,
          (long long)n);
    free(A0);
    free(PA);
}

/* geqrf on an m x n matrix (ld LD, guard rows below m): A0 = Q R with Q
 * applied to R reflector by reflector on the host. */
static void geqrf_case(fixture *f, hyla_dtype t, int64_t m, int64_t n, unsigned long long *s) {
    const size_t es = hyla_dtype_size(t), bytes = (size_t)LD * MAXN * es;
    const int cplx = t == HYLA_C || t == HYLA_Z;
    zc *A0 = malloc(sizeof *A0 * LD * MAXN), *QR = malloc(sizeof *QR * LD * MAXN);
    zc *F = malloc(sizeof *F * LD * MAXN);
    for (int64_t j = 0; j < MAXN; j++)
        for (int64_t i = 0; i < LD; i++) {
            zc v = i >= m ? 555 : t_rand(s) + (cplx ? t_rand(s) * I : 0);
            A0[i + j * LD] = v;
            put(t, f->h, i + j * LD, v);
        }
    up(f, bytes);
    int rc = f->o->geqrf(f->q, t, m, n, f->dA, LD, f->dtau, f->dinfo, 0);
    down(f, bytes);
    f->o->copy_2d(f->q, f->htau, MAXN * 16, f->dtau, MAXN * 16, MAXN * 16, 1, HYLA_COPY_D2H);
    int rs = f->o->queue_sync(f->q);
    CHECK(rc == 0 && rs == 0 && *f->hinfo == 0, "geqrf t %d m %lld n %lld: rc %d sync %d info %d",
          t, (long long)m, (long long)n, rc, rs, *f->hinfo);
    for (int64_t i = 0; i < LD * MAXN; i++) F[i] = get(t, f->h, i);
    double r = qr_residual(t, m, n, A0, F, LD, f->htau, QR);
    CHECK(r < 60, "geqrf t %d m %lld n %lld: residual %.3g", t, (long long)m, (long long)n, r);
    CHECK(guard_kept(f, t, m), "geqrf t %d m %lld n %lld: guard rows changed", t, (long long)m,
          (long long)n);
    free(A0);
    free(QR);
    free(F);
}

/* laswp k1..k2 with inc on n columns against the same swaps on the host. */
static void laswp_case(fixture *f, hyla_dtype t, int64_t n, int64_t k1, int64_t k2, int inc,
                       unsigned long long *s) {
    const size_t es = hyla_dtype_size(t), bytes = (size_t)LD * MAXN * es;
    zc *R = malloc(sizeof *R * LD * MAXN);
    for (int64_t i = 0; i < LD * MAXN; i++) {
        R[i] = (zc)(double)(i % 1000);
        put(t, f->h, i, R[i]);
    }
    for (int64_t i = 0; i < MAXN; i++) /* rows i+1 .. MAXM, repeats included */
        f->hpiv[i] = i + 1 + (int64_t)((t_rand(s) + 1) * 0.5 * (double)(MAXM - i - 1));
    f->o->copy_2d(f->q, f->dpiv, MAXN * sizeof(int64_t), f->hpiv, MAXN * sizeof(int64_t),
                  MAXN * sizeof(int64_t), 1, HYLA_COPY_H2D);
    up(f, bytes);
    int rc = f->o->laswp(f->q, t, n, f->dA, LD, k1, k2, f->dpiv, inc);
    f->o->copy_2d(f->q, f->h, bytes, f->dA, bytes, bytes, 1, HYLA_COPY_D2H);
    int rs = f->o->queue_sync(f->q);
    for (int64_t j = 0; j < n; j++)
        for (int64_t st = 0; st <= k2 - k1; st++) {
            int64_t i = inc > 0 ? k1 + st : k2 - st, p = f->hpiv[i - 1];
            zc x = R[i - 1 + j * LD];
            R[i - 1 + j * LD] = R[p - 1 + j * LD];
            R[p - 1 + j * LD] = x;
        }
    int same = 1;
    for (int64_t i = 0; i < LD * MAXN; i++)
        if (get(t, f->h, i) != R[i]) same = 0;
    CHECK(rc == 0 && rs == 0 && same, "laswp t %d n %lld k %lld..%lld inc %d: rc %d, %s", t,
          (long long)n, (long long)k1, (long long)k2, inc, rc, same ? "same" : "differs");
    free(R);
}

static void device_suite(hyla_dev *dev, unsigned long long *s) {
    fixture f;
    int rc = lu_bufs_open(&f, dev, (size_t)LD * MAXN * 16, MAXN);
    CHECK(rc == 0, "fixture: %d", rc);
    if (rc == 0) {
        static const int64_t mn[][2] = {{0, 0}, {0, 3}, {3, 0}, {1, 1}, {2, 2}, {1, 5},
                                        {5, 1}, {17, 17}, {70, 51}, {33, 70}, {70, 70}};
        for (int d = 0; d < 4; d++) {
            for (size_t i = 0; i < sizeof mn / sizeof mn[0]; i++)
                for (int pivot = 0; pivot < 2; pivot++)
                    getrf_case(&f, dtypes[d], mn[i][0], mn[i][1], pivot, 0, s);
            getrf_case(&f, dtypes[d], 40, 40, 1, 13, s);
            getrf_case(&f, dtypes[d], 40, 40, 0, 1, s);
            laswp_case(&f, dtypes[d], 70, 1, 70, 1, s);
            laswp_case(&f, dtypes[d], 33, 5, 40, -1, s);
            laswp_case(&f, dtypes[d], 1, 1, 9, 1, s);
            laswp_case(&f, dtypes[d], 0, 1, 9, 1, s);
            laswp_case(&f, dtypes[d], 10, 5, 4, 1, s);
            for (size_t i = 0; i < sizeof mn / sizeof mn[0]; i++)
                geqrf_case(&f, dtypes[d], mn[i][0], mn[i][1], s);
        }
        CHECK(f.o->geqrf(f.q, HYLA_D, 3, 2, f.dA, 2, f.dtau, f.dinfo, 0) == HYLA_ERR_INVALID, "geqrf lda < m");
        CHECK(f.o->geqrf(f.q, HYLA_D, 2, 2, f.dA, 2, NULL, f.dinfo, 0) == HYLA_ERR_INVALID, "geqrf tau NULL");
        CHECK(f.o->geqrf(f.q, HYLA_D, 2, -1, f.dA, 2, f.dtau, f.dinfo, 0) == HYLA_ERR_INVALID, "geqrf n -1");
        CHECK(f.o->geqrf(f.q, HYLA_D, 2, 2, f.dA, 2, f.dtau, NULL, 0) == HYLA_ERR_INVALID, "geqrf info NULL");
        CHECK(f.o->getrf(f.q, HYLA_D, -1, 2, f.dA, 2, NULL, f.dinfo, 0) == HYLA_ERR_INVALID, "getrf m -1");
        CHECK(f.o->getrf(f.q, HYLA_D, 3, 2, f.dA, 2, NULL, f.dinfo, 0) == HYLA_ERR_INVALID, "getrf lda < m");
        CHECK(f.o->getrf(f.q, HYLA_D, 2, 2, f.dA, 2, NULL, NULL, 0) == HYLA_ERR_INVALID, "getrf info NULL");
        CHECK(f.o->getrf(f.q, (hyla_dtype)9, 2, 2, f.dA, 2, NULL, f.dinfo, 0) == HYLA_ERR_INVALID, "getrf dtype");
        CHECK(f.o->laswp(f.q, HYLA_D, 2, f.dA, 2, 0, 1, f.dpiv, 1) == HYLA_ERR_INVALID, "laswp k1 0");
        CHECK(f.o->laswp(f.q, HYLA_D, 2, f.dA, 2, 1, 1, f.dpiv, 2) == HYLA_ERR_INVALID, "laswp inc 2");
        CHECK(f.o->laswp(f.q, HYLA_D, 2, f.dA, 2, 1, 1, NULL, 1) == HYLA_ERR_INVALID, "laswp ipiv NULL");
        CHECK(f.o->queue_sync(f.q) == 0, "queue status untouched by bad arguments");
    }
    lu_bufs_close(&f);
}

int main(void) {
    const char *devices = test_devices();
    unsigned long long seed = 99;
    int64_t live0, live1;
    hyla_t *h = NULL;
    hyla_debug_alloc_stats(&live0, NULL);
    int rc = t_create(&h, devices, "backend_lu");
    if (rc) return rc;
    for (int i = 0; i < h->ndev; i++) device_suite(h->devs[i], &seed);
    hyla_destroy(&h);
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld live allocations", (long long)(live1 - live0));
    return summary("backend_lu");
}
