/* The backend's getrf op on tall-skinny panels, the shapes of the LU leaves
 * (m = 1, 2, 31, 1000, 20000; n = 1, 7, 32, 64; and a few wider than the
 * kernel's 128 columns, which the CUDA op factors recursively around it,
 * m x n = 1000 x 300, 300 x 200, 2 x 150, 5000 x 129), on every device of
 * HYLA_DEVICES, for the four dtypes, with guard rows below the panel
 * (lda = m + 3) that must not change:
 *   random panels: the residual |P A - L U|_1 / (max(m,n) |A|_1 eps) < 60,
 *     pivots in range and |l_ij| <= 1 (complex: sqrt(2), pivots being
 *     chosen by |re| + |im|), which partial pivoting guarantees;
 *   exact ties: every column's candidates below row j are bitwise equal, so
 *     the pivots must be exactly those of a host getf2 that takes the first
 *     largest (LAPACK's i?amax);
 *   singular panels: zero columns give info = the first zero pivot and the
 *     factorization still satisfies the residual bound;
 *   a NaN in the panel: the op returns, the pivots stay in range and the
 *     NaN shows in the factor;
 *   no pivoting (ipiv NULL) on a panel with a dominant diagonal.
 * The geqrf op on the same shapes (random panels): the residual
 * |A - Q R|_1 / (max(m,n) |A|_1 eps) < 60 with Q rebuilt from the
 * reflectors, and taus of unitary reflectors.
 * On a GPU every case runs with HYLA_OPT_LU_PANEL automatic, vendor, the
 * fused kernel, and the fused kernel on 8 CTAs (rows in global memory for
 * the tall panels); QR without vendor (automatic is cuSOLVER there). On
 * the host backend (LAPACK) the 20000-row panels are only random ones, to
 * keep the sanitizer build's run short. Reaches the backend through the internal headers, as
 * test_backend_lu does. */
#include "test_lu_fixture.h"
#include <complex.h>
#include <math.h>
#include <string.h>

/* room for (m + 3) n elements of every shape, and the pivots */
enum { MAXELEMS = (20000 + 3) * 64, MAXK = 512 };
enum { RANDOM, TIES, ZEROS, NAN_ENTRY, NOPIV };

static const hyla_dtype dtypes[] = {HYLA_S, HYLA_D, HYLA_C, HYLA_Z};

typedef struct {
    lu_bufs b;                 /* matrices of MAXELEMS, MAXK pivots and taus, of the widest dtype */
    zc *A0, *LU, *col;         /* host copies in double complex */
} fixture;

static double abs1(zc x) { return fabs(creal(x)) + fabs(cimag(x)); }

/* LAPACK's getf2 on the host in double complex: the first largest |.|
 * (|re| + |im|) of each column; ipiv 1-based. */
static void ref_getf2(zc *A, int64_t m, int64_t n, int64_t ld, int64_t *ipiv) {
    const int64_t k = m < n ? m : n;
    for (int64_t j = 0; j < k; j++) {
        int64_t p = j;
        for (int64_t i = j + 1; i < m; i++)
            if (abs1(A[i + j * ld]) > abs1(A[p + j * ld])) p = i;
        ipiv[j] = p + 1;
        if (A[p + j * ld] == 0) continue;
        for (int64_t c = 0; c < n && p != j; c++) {
            zc x = A[j + c * ld];
            A[j + c * ld] = A[p + c * ld];
            A[p + c * ld] = x;
        }
        for (int64_t i = j + 1; i < m; i++) A[i + j * ld] /= A[j + j * ld];
        for (int64_t c = j + 1; c < n; c++)
            for (int64_t i = j + 1; i < m; i++) A[i + c * ld] -= A[i + j * ld] * A[j + c * ld];
    }
}

/* The downloaded m x n factor (ld, in the pinned buffer) into f->LU in
 * double complex; *has_nan: 1 when a NaN is in it. Returns 1 when the guard
 * rows below row m still hold 555. */
static int take_factor(fixture *f, hyla_dtype t, int64_t m, int64_t n, int64_t ld, int *has_nan) {
    int guard = 1;
    *has_nan = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ld; i++) {
            zc v = get(t, f->b.h, i + j * ld);
            if (i >= m && v != 555) guard = 0;
            if (i < m && (isnan(creal(v)) || isnan(cimag(v)))) *has_nan = 1;
            f->LU[i + j * ld] = v;
        }
    return guard;
}

/* One case; mode is the device's HYLA_OPT_LU_PANEL for it. */
static void panel_case(fixture *f, hyla_dtype t, int64_t m, int64_t n, int kind, int64_t mode,
                       unsigned long long *s) {
    lu_bufs *b = &f->b;
    const size_t es = hyla_dtype_size(t);
    const int64_t ld = m + 3, k = m < n ? m : n;
    const size_t bytes = (size_t)ld * (size_t)n * es;
    const int cplx = is_cplx(t), pivot = kind != NOPIV;
    const int64_t z1 = n > 3 ? 3 : n - 1, z2 = n > 5 ? 5 : -1; /* ZEROS: zero columns */
    char what[128];
    snprintf(what, sizeof what, "t %d m %lld n %lld kind %d mode %lld", t, (long long)m,
             (long long)n, kind, (long long)mode);

    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ld; i++) {
            zc v;
            if (i >= m) v = 555;
            else if (kind == TIES) v = i > j ? (cplx ? 0.5 + 0.5 * I : 1) : i == j ? 0.5 : 0;
            else v = t_rand(s) + (cplx ? t_rand(s) * I : 0);
            if (kind == NOPIV && i == j && i < m) v += 2.0 * (double)m;
            if (kind == ZEROS && i < m && (j == z1 || j == z2)) v = 0;
            f->A0[i + j * ld] = v;
            put(t, b->h, i + j * ld, v);
        }
    if (kind == NAN_ENTRY) {
        const int64_t i = m / 2, j = n > 1 ? 1 : 0;
        f->A0[i + j * ld] = NAN;
        put(t, b->h, i + j * ld, NAN);
    }
    for (int64_t j = 0; j < k; j++) b->hpiv[j] = -7;
    *b->hinfo = -7;
    b->o->copy_2d(b->q, b->dA, bytes, b->h, bytes, bytes, 1, HYLA_COPY_H2D);
    b->o->copy_2d(b->q, b->dpiv, (size_t)k * 8, b->hpiv, (size_t)k * 8, (size_t)k * 8, 1,
                  HYLA_COPY_H2D);
    int rc = b->o->getrf(b->q, t, m, n, b->dA, ld, pivot ? b->dpiv : NULL, b->dinfo, mode);
    b->o->copy_2d(b->q, b->h, bytes, b->dA, bytes, bytes, 1, HYLA_COPY_D2H);
    b->o->copy_2d(b->q, b->hpiv, (size_t)k * 8, b->dpiv, (size_t)k * 8, (size_t)k * 8, 1,
                  HYLA_COPY_D2H);
    b->o->copy_2d(b->q, b->hinfo, sizeof(int), b->dinfo, sizeof(int), sizeof(int), 1,
                  HYLA_COPY_D2H);
    int rs = b->o->queue_sync(b->q);
    CHECK(rc == 0 && rs == 0, "%s: rc %d sync %d", what, rc, rs);
    if (rc || rs) return;

    int has_nan;
    CHECK(take_factor(f, t, m, n, ld, &has_nan), "%s: guard rows changed", what);
    int bad_piv = 0;
    for (int64_t j = 0; pivot && j < k; j++)
        if (b->hpiv[j] < j + 1 || b->hpiv[j] > m) bad_piv = 1;
    CHECK(!bad_piv, "%s: pivot out of range", what);
    if (!pivot) CHECK(b->hpiv[0] == -7, "%s: ipiv written without pivoting", what);
    if (kind == NAN_ENTRY) {
        /* the fused kernel spreads a NaN; cuSOLVER's sgetrf was seen on
         * an H100 to drop it (mode 1, and auto, which is cuSOLVER) */
        if (mode >= 2 || b->dev->info.kind != HYLA_DEVICE_CUDA) CHECK(has_nan, "%s: the NaN is gone from the factor", what);
        CHECK(*b->hinfo >= 0 && *b->hinfo <= k, "%s: info %d", what, *b->hinfo);
        return;
    }
    int expect_info = 0;
    if (kind == ZEROS) expect_info = z1 < k ? (int)z1 + 1 : (z2 >= 0 && z2 < k ? (int)z2 + 1 : 0);
    CHECK(*b->hinfo == expect_info, "%s: info %d, expected %d", what, *b->hinfo, expect_info);
    if (bad_piv) return;

    if (kind == TIES) {
        int64_t ref[MAXK];
        memcpy(f->col, f->A0, sizeof(zc) * (size_t)ld * (size_t)n);
        ref_getf2(f->col, m, n, ld, ref);
        int same = 1;
        for (int64_t j = 0; j < k; j++)
            if (b->hpiv[j] != ref[j]) same = 0;
        CHECK(same, "%s: pivots differ from the first-largest ones", what);
    }

    /* |l_ij| bounded by partial pivoting */
    const double lmax = (cplx ? sqrt(2.0) : 1.0) * (1 + 4 * eps_of(t));
    int l_ok = 1;
    for (int64_t j = 0; pivot && j < k; j++)
        for (int64_t i = j + 1; i < m; i++)
            if (cabs(f->LU[i + j * ld]) > lmax) l_ok = 0;
    CHECK(l_ok, "%s: |l_ij| above the partial pivoting bound", what);

    /* P A0 in place, then column by column P A0 - L U */
    for (int64_t j = 0; pivot && j < k; j++) {
        const int64_t p = b->hpiv[j] - 1;
        for (int64_t c = 0; c < n && p != j; c++) {
            zc x = f->A0[j + c * ld];
            f->A0[j + c * ld] = f->A0[p + c * ld];
            f->A0[p + c * ld] = x;
        }
    }
    double num = 0, den = 0;
    for (int64_t j = 0; j < n; j++) {
        zc *c = f->col;
        double a = 0, r = 0;
        for (int64_t i = 0; i < m; i++) {
            c[i] = f->A0[i + j * ld];
            a += cabs(c[i]);
        }
        for (int64_t l = 0; l <= j && l < k; l++) {
            const zc u = f->LU[l + j * ld];
            const zc *L = f->LU + l * ld;
            c[l] -= u;
            for (int64_t i = l + 1; i < m; i++) c[i] -= L[i] * u;
        }
        for (int64_t i = 0; i < m; i++) r += cabs(c[i]);
        num = fmax(num, r);
        den = fmax(den, a);
    }
    const double res = den > 0 ? num / ((double)(m > n ? m : n) * den * eps_of(t)) : num;
    CHECK(res < 60, "%s: residual %.3g", what, res);
}

/* geqrf on a random m x n panel (lda = m + 3, guard rows): A0 = Q R with
 * Q applied to R reflector by reflector on the host, |A0 - Q R|_1 /
 * (max(m,n) |A0|_1 eps) < 60, and every tau that of a unitary reflector
 * (real: 0 or in [1, 2]; complex: |tau - 1| <= 1). */
static void qr_case(fixture *f, hyla_dtype t, int64_t m, int64_t n, int64_t mode,
                    unsigned long long *s) {
    lu_bufs *b = &f->b;
    const size_t es = hyla_dtype_size(t);
    const int64_t ld = m + 3, k = m < n ? m : n;
    const size_t bytes = (size_t)ld * (size_t)n * es;
    const int cplx = is_cplx(t);
    char what[128];
    snprintf(what, sizeof what, "geqrf t %d m %lld n %lld mode %lld", t, (long long)m,
             (long long)n, (long long)mode);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ld; i++) {
            zc v = i >= m ? 555 : t_rand(s) + (cplx ? t_rand(s) * I : 0);
            f->A0[i + j * ld] = v;
            put(t, b->h, i + j * ld, v);
        }
    *b->hinfo = -7;
    b->o->copy_2d(b->q, b->dA, bytes, b->h, bytes, bytes, 1, HYLA_COPY_H2D);
    int rc = b->o->geqrf(b->q, t, m, n, b->dA, ld, b->dtau, b->dinfo, mode);
    b->o->copy_2d(b->q, b->h, bytes, b->dA, bytes, bytes, 1, HYLA_COPY_D2H);
    b->o->copy_2d(b->q, b->htau, (size_t)k * es, b->dtau, (size_t)k * es, (size_t)k * es, 1,
                  HYLA_COPY_D2H);
    b->o->copy_2d(b->q, b->hinfo, sizeof(int), b->dinfo, sizeof(int), sizeof(int), 1,
                  HYLA_COPY_D2H);
    int rs = b->o->queue_sync(b->q);
    CHECK(rc == 0 && rs == 0 && *b->hinfo == 0, "%s: rc %d sync %d info %d", what, rc, rs,
          *b->hinfo);
    if (rc || rs) return;
    int has_nan, tau_ok = 1;
    CHECK(take_factor(f, t, m, n, ld, &has_nan), "%s: guard rows changed", what);
    const double tol = 8 * eps_of(t);
    for (int64_t j = 0; j < k; j++) {
        zc tau = get(t, b->htau, j);
        if (cplx ? cabs(tau - 1) > 1 + tol
                 : tau != 0 && (creal(tau) < 1 - tol || creal(tau) > 2 + tol))
            tau_ok = 0;
    }
    CHECK(tau_ok, "%s: a tau is not that of a unitary reflector", what);
    const double res = qr_residual(t, m, n, f->A0, f->LU, ld, b->htau, f->col);
    CHECK(res < 60, "%s: residual %.3g", what, res);
}

static void device_suite(hyla_dev *dev, unsigned long long *s) {
    fixture f;
    int rc = lu_bufs_open(&f.b, dev, (size_t)MAXELEMS * 16, MAXK);
    f.A0 = malloc(sizeof(zc) * MAXELEMS);
    f.LU = malloc(sizeof(zc) * MAXELEMS);
    f.col = malloc(sizeof(zc) * MAXELEMS);
    CHECK(rc == 0 && f.A0 && f.LU && f.col, "fixture: %d", rc);
    if (rc == 0 && f.A0 && f.LU && f.col) {
        static const int64_t ms[] = {1, 2, 31, 1000, 20000}, ns[] = {1, 7, 32, 64};
        /* wider than the kernel's 128 columns: the recursive LU around it */
        static const int64_t wide[][2] = {{1000, 300}, {300, 200}, {2, 150}, {5000, 129}};
        /* the host backend ignores the mode: one pass there */
        static const int64_t gpu_modes[] = {0, 1, 2, 8}, host_modes[] = {0};
        const int gpu = dev->info.kind == HYLA_DEVICE_CUDA;
        const int64_t *modes = gpu ? gpu_modes : host_modes;
        const int nmodes = gpu ? 4 : 1;
        for (int d = 0; d < 4; d++)
            for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
                for (size_t b = 0; b < sizeof ns / sizeof ns[0]; b++)
                    for (int md = 0; md < nmodes; md++)
                        for (int kind = RANDOM; kind <= NOPIV; kind++)
                            if (gpu || ms[a] < 20000 || kind == RANDOM) /* host: test time */
                                panel_case(&f, dtypes[d], ms[a], ns[b], kind, modes[md], s);
        for (int d = 0; d < 4; d++)
            for (size_t a = 0; a < sizeof wide / sizeof wide[0]; a++)
                for (int md = 0; md < nmodes; md++)
                    for (int kind = RANDOM; kind <= NOPIV; kind++)
                        panel_case(&f, dtypes[d], wide[a][0], wide[a][1], kind, modes[md], s);
        /* QR panels: the fused kernel only when forced (modes 2 and 8) */
        for (int d = 0; d < 4; d++)
            for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
                for (size_t b = 0; b < sizeof ns / sizeof ns[0]; b++)
                    for (int md = 0; md < nmodes; md++)
                        if (modes[md] != 1) qr_case(&f, dtypes[d], ms[a], ns[b], modes[md], s);
        CHECK(f.b.o->queue_sync(f.b.q) == 0, "queue status clean after the cases");
    }
    free(f.col);
    free(f.LU);
    free(f.A0);
    lu_bufs_close(&f.b);
}

int main(void) {
    const char *devices = test_devices();
    unsigned long long seed = 2026;
    int64_t live0, live1;
    hyla_t *h = NULL;
    hyla_debug_alloc_stats(&live0, NULL);
    int rc = t_create(&h, devices, "getrf_panel");
    if (rc) return rc;
    CHECK(hyla_set_option(h, HYLA_OPT_LU_PANEL, 3) == -3, "LU panel 3 refused");
    CHECK(hyla_set_option(h, HYLA_OPT_LU_PANEL, -1) == -3, "LU panel -1 refused");
    int64_t v = -1;
    CHECK(hyla_set_option(h, HYLA_OPT_LU_PANEL, 16) == 0 &&
              hyla_get_option(h, HYLA_OPT_LU_PANEL, &v) == 0 && v == 16,
          "LU panel 16 set on the context");
    hyla_set_option(h, HYLA_OPT_LU_PANEL, 0);
    /* virtual host devices run the same LAPACK: the first one suffices */
    for (int i = 0; i < h->ndev; i++)
        if (i == 0 || h->devs[i]->info.kind == HYLA_DEVICE_CUDA) device_suite(h->devs[i], &seed);
    hyla_destroy(&h);
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld live allocations", (long long)(live1 - live0));
    return summary("getrf_panel");
}
