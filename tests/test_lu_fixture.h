/* The device side of the backend LU / QR tests (test_backend_lu.c,
 * test_getrf_panel.c), which reach the backend through the internal
 * headers: a queue on one device with pinned and device buffers for a
 * matrix, the pivots, info and the taus; and the geqrf residual, checked on
 * the host from the downloaded factor. */
#ifndef HYLA_TEST_LU_FIXTURE_H
#define HYLA_TEST_LU_FIXTURE_H
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "core/internal.h"
#include "backend/backend.h"
#include "test_util.h"

typedef struct {
    hyla_dev *dev;
    const hyla_backend_ops *o;
    hyla_queue *q;
    void *h, *dA;              /* pinned and device matrix */
    int64_t *hpiv, *dpiv;      /* pinned and device pivots */
    int *hinfo, *dinfo;
    void *htau, *dtau;         /* pinned and device taus */
} lu_bufs;

/* Opens b on dev: the queue, the matrices of `bytes` each, kmax pivots and
 * kmax taus of the widest dtype (16 bytes each). Returns 0 or the first
 * failing code; lu_bufs_close frees what was made, in either case. */
static inline int lu_bufs_open(lu_bufs *b, hyla_dev *dev, size_t bytes, size_t kmax) {
    *b = (lu_bufs){.dev = dev, .o = dev->ops};
    const hyla_backend_ops *o = b->o;
    int rc = o->queue_create(dev, &b->q);
    rc = rc ? rc : o->mem_alloc(dev, HYLA_MEM_PINNED, bytes, &b->h);
    rc = rc ? rc : o->mem_alloc(dev, HYLA_MEM_DEVICE, bytes, &b->dA);
    rc = rc ? rc : o->mem_alloc(dev, HYLA_MEM_PINNED, kmax * sizeof(int64_t), (void **)&b->hpiv);
    rc = rc ? rc : o->mem_alloc(dev, HYLA_MEM_DEVICE, kmax * sizeof(int64_t), (void **)&b->dpiv);
    rc = rc ? rc : o->mem_alloc(dev, HYLA_MEM_PINNED, sizeof(int), (void **)&b->hinfo);
    rc = rc ? rc : o->mem_alloc(dev, HYLA_MEM_DEVICE, sizeof(int), (void **)&b->dinfo);
    rc = rc ? rc : o->mem_alloc(dev, HYLA_MEM_PINNED, kmax * 16, &b->htau);
    rc = rc ? rc : o->mem_alloc(dev, HYLA_MEM_DEVICE, kmax * 16, &b->dtau);
    return rc;
}

static inline void lu_bufs_close(lu_bufs *b) {
    hyla_dev *dev = b->dev;
    const hyla_backend_ops *o = b->o;
    if (b->dtau) o->mem_free(dev, HYLA_MEM_DEVICE, b->dtau);
    if (b->htau) o->mem_free(dev, HYLA_MEM_PINNED, b->htau);
    if (b->dinfo) o->mem_free(dev, HYLA_MEM_DEVICE, b->dinfo);
    if (b->hinfo) o->mem_free(dev, HYLA_MEM_PINNED, b->hinfo);
    if (b->dpiv) o->mem_free(dev, HYLA_MEM_DEVICE, b->dpiv);
    if (b->hpiv) o->mem_free(dev, HYLA_MEM_PINNED, b->hpiv);
    if (b->dA) o->mem_free(dev, HYLA_MEM_DEVICE, b->dA);
    if (b->h) o->mem_free(dev, HYLA_MEM_PINNED, b->h);
    if (b->q) o->queue_destroy(b->q);
    *b = (lu_bufs){0};
}

/* The geqrf residual |A0 - Q R|_1 / (max(m, n) |A0|_1 eps) (|A0 - Q R|_1
 * when A0 = 0) of m x n matrices of leading dimension ld: F is the factor
 * (R on and above the diagonal, the reflectors v_r below it, v_r(r) = 1
 * implied), tau its min(m, n) taus of dtype t. QR (m x n, ld) receives
 * Q R, built as R, then H_r QR for r = k-1 .. 0, H_r = I - tau_r v_r v_r^H. */
static inline double qr_residual(hyla_dtype t, int64_t m, int64_t n, const zc *A0, const zc *F,
                                 int64_t ld, const void *tau, zc *QR) {
    const int64_t k = m < n ? m : n;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) QR[i + j * ld] = i <= j ? F[i + j * ld] : 0;
    for (int64_t r = k - 1; r >= 0; r--) {
        const zc tr = get(t, tau, r);
        const zc *v = F + r * ld;
        for (int64_t j = 0; j < n; j++) {
            zc w = QR[r + j * ld];
            for (int64_t i = r + 1; i < m; i++) w += conj(v[i]) * QR[i + j * ld];
            w *= tr;
            QR[r + j * ld] -= w;
            for (int64_t i = r + 1; i < m; i++) QR[i + j * ld] -= v[i] * w;
        }
    }
    double num = 0, den = 0;
    for (int64_t j = 0; j < n; j++) {
        double c = 0, a = 0;
        for (int64_t i = 0; i < m; i++) {
            c += cabs(A0[i + j * ld] - QR[i + j * ld]);
            a += cabs(A0[i + j * ld]);
        }
        num = fmax(num, c);
        den = fmax(den, a);
    }
    return den > 0 ? num / ((double)(m > n ? m : n) * den * eps_of(t)) : num;
}
#endif
