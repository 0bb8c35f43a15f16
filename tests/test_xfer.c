/* hyla_xfer_download_behind (src/core/xfer.h) on each device of
 * HYLA_DEVICES: a matrix produced block of columns by block of columns on
 * one queue and downloaded behind it into a host matrix with a wider
 * leading dimension, for block widths that divide the columns, do not,
 * exceed them, and are one column; every element and the padding rows are
 * checked. A failing block stops it with the failure's code. */
#include "core/xfer.h"
#include "harness.h"
#include "test_util.h"

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
    }
    free(host);
    leak_check(h, "xfer");
    hyla_destroy(&h);
    return summary("test_xfer");
}
