/* On each device of HYLA_DEVICES:
 * - hyla_xfer_download_behind (src/core/xfer.h): a matrix produced block of
 *   columns by block of columns on one queue and downloaded behind it into
 *   a host matrix with a wider leading dimension, for block widths that
 *   divide the columns, do not, exceed them, and are one column; every
 *   element and the padding rows are checked. A failing block stops it with
 *   the failure's code.
 * - hyla_xfer_upload_lower: the lower triangle of a host matrix (uplo L) or
 *   the conjugate transpose of its upper one (U) on the device, d and z, an
 *   order past one upload block; with the scan, NaN or Inf (complex: in
 *   either part) in the triangle read refused (nothing left allocated, A as
 *   passed), in the other triangle ignored; without it, uploaded as is.
 * - hyla_xfer_triangle: either triangle of an order past one block down
 *   into a host matrix with a wider leading dimension (the triangle
 *   exact, the other triangle and the padding rows untouched) and up
 *   (the triangle exact on the device), d and z. */
#include "core/xfer.h"
#include "harness.h"
#include "test_util.h"
#include <math.h>
#include <string.h>

enum { R = 37, C = 23, LDD = 41, LDH = 45 };
static const double PAD = -7.5;

typedef struct {
    hyla_dev *d;
    void *dm;
    int calls, fail_at;
} producer;

/* columns c0 .. c0+nc-1 := c0 + 1 (the block's own value) */
static int produce(void *arg, hyla_queue *q, int64_t c0, int64_t nc) {
    producer *p = arg;
    if (p->calls++ == p->fail_at) return HYLA_ERR_DEVICE;
    const double v = (double)c0 + 1;
    return p->d->ops->laset(q, HYLA_D, -1, R, nc, &v, &v,
                            (double *)p->dm + (size_t)c0 * LDD, LDD);
}

enum { NU = 600, LDA = NU + 3 };

/* one upload of A (type t, NU x NU, ld LDA) to device g and, when it
 * succeeds, the comparison of the lower triangle that came up */
static int upload_case(hyla_t *h, int g, hyla_dtype t, int lower, int check, const void *A,
                       int *same) {
    hyla_dev *d = h->devs[g];
    const size_t es = hyla_dtype_size(t);
    const int cplx = t == HYLA_Z;
    void *dA = (void *)&dA; /* not NULL: the call must set it */
    *same = 0;
    int rc = hyla_xfer_upload_lower(h, g, t, lower, NU, A, LDA, check, &dA);
    if (rc) return dA == NULL ? rc : -1000;
    double *back = malloc((size_t)NU * NU * es);
    hyla_dev_workspace *ws;
    if (back && hyla_workspace_get(h, g, 0, 0, &ws) == 0 &&
        d->ops->copy_2d(ws->q_comp, back, (size_t)NU * es, dA, (size_t)NU * es, (size_t)NU * es,
                        NU, HYLA_COPY_D2H) == 0 &&
        d->ops->queue_sync(ws->q_comp) == 0) {
        const double *a = A;
        int ok = 1;
        for (int64_t j = 0; j < NU; j++)
            for (int64_t i = j; i < NU; i++) {
                const int64_t src = lower ? i + j * LDA : j + i * LDA;
                if (cplx)
                    ok &= memcmp(&back[2 * (i + j * NU)], &a[2 * src], sizeof(double)) == 0 &&
                          back[2 * (i + j * NU) + 1] == (lower ? 1 : -1) * a[2 * src + 1];
                else
                    ok &= memcmp(&back[i + j * NU], &a[src], sizeof(double)) == 0;
            }
        *same = ok;
    }
    free(back);
    d->ops->mem_free(d, HYLA_MEM_DEVICE, dA);
    return 0;
}

static void upload_lower_cases(hyla_t *h, int g) {
    unsigned long long seed = 11;
    for (int tz = 0; tz < 2; tz++) {
        const hyla_dtype t = tz ? HYLA_Z : HYLA_D;
        const int per = tz ? 2 : 1;
        const size_t n = (size_t)LDA * NU * per;
        double *A = malloc(n * sizeof *A), *A0 = malloc(n * sizeof *A0),
               *A1 = malloc(n * sizeof *A1);
        for (size_t k = 0; k < n; k++) A0[k] = t_rand(&seed);
        for (int lower = 0; lower < 2; lower++) {
            int same = 0, rc;
            memcpy(A, A0, n * sizeof *A);
            rc = upload_case(h, g, t, lower, 1, A, &same);
            CHECK(rc == 0 && same, "device %d %c uplo %c: uploaded (%d)", g, "dz"[tz],
                  "UL"[lower], rc);
            /* a bad value in the triangle read, in the second upload block
             * (the imaginary part for z), and in the other triangle */
            const int64_t i = lower ? NU - 1 : 5, j = lower ? 513 : NU - 1;
            for (int b = 0; b < 2; b++) {
                memcpy(A, A0, n * sizeof *A);
                A[(i + j * LDA) * per + per - 1] = b ? INFINITY : NAN;
                memcpy(A1, A, n * sizeof *A);
                rc = upload_case(h, g, t, lower, 1, A, &same);
                CHECK(rc == HYLA_ERR_NAN && memcmp(A, A1, n * sizeof *A) == 0,
                      "device %d %c uplo %c: %s refused (%d)", g, "dz"[tz], "UL"[lower],
                      b ? "Inf" : "NaN", rc);
                rc = upload_case(h, g, t, lower, 0, A, &same);
                CHECK(rc == 0, "device %d %c uplo %c: no scan, %s uploaded (%d)", g, "dz"[tz],
                      "UL"[lower], b ? "Inf" : "NaN", rc);
            }
            memcpy(A, A0, n * sizeof *A);
            A[(j + i * LDA) * per] = NAN;
            rc = upload_case(h, g, t, lower, 1, A, &same);
            CHECK(rc == 0 && same, "device %d %c uplo %c: NaN in the other triangle (%d)", g,
                  "dz"[tz], "UL"[lower], rc);
        }
        free(A), free(A0), free(A1);
    }
}

/* hyla_xfer_triangle both ways for each triangle: the device's matrix
 * (NU x NU, ld NU) from a random host matrix, downloaded into a host
 * matrix of PAD (ld LDA) and uploaded from the random one into a device
 * matrix of zeros */
static void triangle_cases(hyla_t *h, int g) {
    hyla_dev *d = h->devs[g];
    unsigned long long seed = 5;
    hyla_dev_workspace *ws;
    CHECK(hyla_workspace_get(h, g, 0, 0, &ws) == 0, "workspace %d", g);
    for (int tz = 0; tz < 2; tz++) {
        const hyla_dtype t = tz ? HYLA_Z : HYLA_D;
        const size_t es = hyla_dtype_size(t), per = tz ? 2 : 1;
        const size_t nh = (size_t)LDA * NU * per, nd = (size_t)NU * NU * per;
        double *X = malloc(nd * sizeof *X), *H = malloc(nh * sizeof *H),
               *back = malloc(nd * sizeof *back);
        void *dX = NULL;
        for (size_t k = 0; k < nd; k++) X[k] = t_rand(&seed);
        CHECK(hyla_malloc_device(h, g, nd * sizeof(double), &dX) == 0, "buffer %d", g);
        for (int lower = 0; lower < 2 && dX; lower++) {
            CHECK(hyla_xfer_matrix(h, g, t, 1, NU, NU, X, NU, dX, NU) == 0, "up %d", g);
            for (size_t k = 0; k < nh; k++) H[k] = PAD;
            int rc = hyla_xfer_triangle(h, g, t, 0, lower, NU, H, LDA, dX, NU);
            int ok = rc == 0;
            for (int64_t j = 0; j < NU && ok; j++)
                for (int64_t i = 0; i < LDA; i++) {
                    const int in = i < NU && (lower ? i >= j : i <= j);
                    for (size_t c = 0; c < per; c++)
                        ok &= H[(i + j * LDA) * per + c] ==
                              (in ? X[(i + j * NU) * per + c] : PAD);
                }
            CHECK(ok, "device %d %c: triangle %c down, other triangle untouched (%d)", g,
                  "dz"[tz], "UL"[lower], rc);
            const double zero[2] = {0, 0};
            rc = d->ops->laset(ws->q_comp, t, -1, NU, NU, zero, zero, dX, NU);
            if (!rc) rc = d->ops->queue_sync(ws->q_comp);
            for (int64_t j = 0; j < NU; j++)
                for (int64_t i = 0; i < NU; i++)
                    for (size_t c = 0; c < per; c++)
                        H[(i + j * LDA) * per + c] = X[(i + j * NU) * per + c];
            if (!rc) rc = hyla_xfer_triangle(h, g, t, 1, lower, NU, H, LDA, dX, NU);
            if (!rc) rc = hyla_xfer_matrix(h, g, t, 0, NU, NU, back, NU, dX, NU);
            ok = rc == 0;
            for (int64_t j = 0; j < NU && ok; j++)
                for (int64_t i = lower ? j : 0; i < (lower ? NU : j + 1); i++)
                    ok &= memcmp(&back[(i + j * NU) * per], &X[(i + j * NU) * per], es) == 0;
            CHECK(ok, "device %d %c: triangle %c up (%d)", g, "dz"[tz], "UL"[lower], rc);
        }
        hyla_free_device(h, g, &dX);
        free(X), free(H), free(back);
    }
}

int main(void) {
    hyla_t *h = NULL;
    int rc = t_create(&h, test_devices(), "test_xfer");
    if (rc) return rc;
    leak_baseline(h);
    double *host = malloc(sizeof *host * LDH * C);
    for (int g = 0; g < hyla_device_count(h); g++) {
        hyla_dev_workspace *ws;
        void *dm = NULL;
        CHECK(hyla_workspace_get(h, g, 0, 0, &ws) == 0, "workspace %d", g);
        CHECK(hyla_malloc_device(h, g, sizeof(double) * LDD * C, &dm) == 0, "buffer %d", g);
        static const int64_t bcs[] = {1, 5, 23, 7, 100};
        for (size_t b = 0; b < sizeof bcs / sizeof *bcs; b++) {
            const int64_t bc = bcs[b];
            for (int i = 0; i < LDH * C; i++) host[i] = PAD;
            producer p = {.d = h->devs[g], .dm = dm, .fail_at = -1};
            double t_done = 0;
            rc = hyla_xfer_download_behind(h, g, HYLA_D, R, C, bc, host, LDH, dm, LDD,
                                           ws->q_comp, produce, &p, &t_done);
            CHECK(rc == 0 && p.calls == (C + bc - 1) / bc && t_done > 0,
                  "device %d, bc %lld: rc %d, %d blocks", g, (long long)bc, rc, p.calls);
            int ok = 1;
            for (int j = 0; j < C; j++)
                for (int i = 0; i < LDH; i++)
                    ok &= host[i + j * LDH] == (i < R ? (double)(j / bc * bc + 1) : PAD);
            CHECK(ok, "device %d, bc %lld: values and padding", g, (long long)bc);
        }
        /* nothing to do: no block produced, the host matrix untouched */
        producer p0 = {.d = h->devs[g], .dm = dm, .fail_at = -1};
        double t0 = 0;
        host[0] = PAD;
        CHECK(hyla_xfer_download_behind(h, g, HYLA_D, R, 0, 4, host, LDH, dm, LDD, ws->q_comp,
                                        produce, &p0, &t0) == 0 &&
                  p0.calls == 0 && host[0] == PAD,
              "device %d: zero columns", g);
        /* the third block fails: its code comes back, the queues drained */
        producer pf = {.d = h->devs[g], .dm = dm, .fail_at = 2};
        CHECK(hyla_xfer_download_behind(h, g, HYLA_D, R, C, 4, host, LDH, dm, LDD, ws->q_comp,
                                        produce, &pf, &t0) == HYLA_ERR_DEVICE,
              "device %d: a failing block", g);
        hyla_free_device(h, g, &dm);
        upload_lower_cases(h, g);
        triangle_cases(h, g);
    }
    free(host);
    leak_check(h, "xfer");
    hyla_destroy(&h);
    return summary("test_xfer");
}
