/* Collectives between the devices of a context (src/core/comm.h) on the
 * devices of HYLA_DEVICES (one GPU: listed twice; one host device: three
 * virtual ones): broadcast from each root, the sum-allreduce device to device and
 * through the host, the allgather of row blocks (some empty), each checked
 * element by element on every device, and twice in a row on the same
 * buffers (the second call must see the first one's reads done). */
#include "core/comm.h"
#include "harness.h"
#include "test_util.h"
#include <string.h>

enum { R = 37, C = 5, LD = 41 };

static double val(int g, int i, int j, int round) { return 1000.0 * g + 10.0 * i + j + 0.5 * round; }

int main(void) {
    hyla_t *h = NULL;
    int rc = t_create(&h, test_devices(), "test_comm");
    if (rc) return rc;
    if (hyla_device_count(h) < 2) { /* one GPU: listed twice; one host device: three */
        const int gpu = strncmp(test_devices(), "cpu", 3) != 0;
        hyla_destroy(&h);
        if ((rc = t_create(&h, gpu ? "cuda:0,0" : "cpu:3", "test_comm"))) return rc;
    }
    const int nd = hyla_device_count(h);
    leak_baseline(h);
    hyla_queue *q[HYLA_COMM_MAX];
    void *buf[HYLA_COMM_MAX];
    double *host = malloc(sizeof *host * LD * C);
    const size_t bytes = sizeof(double) * LD * C;
    for (int g = 0; g < nd; g++) {
        hyla_dev_workspace *ws;
        CHECK(hyla_workspace_get(h, g, 0, 0, &ws) == 0, "workspace %d", g);
        q[g] = ws->q_comp;
        CHECK(hyla_malloc_device(h, g, bytes, &buf[g]) == 0, "buffer %d", g);
    }
    hyla_comm c;
    CHECK(hyla_comm_init(&c, h, nd, q) == 0, "init on %d devices", nd);
    for (int round = 0; round < 2; round++) {
        /* fill every device with its own values */
#define FILL()                                                                                     \
    for (int g = 0; g < nd; g++) {                                                                 \
        for (int j = 0; j < C; j++)                                                                \
            for (int i = 0; i < LD; i++) host[i + j * LD] = val(g, i, j, round);                   \
        hyla_copy_to_device(h, g, buf[g], host, bytes);                                            \
    }
        for (int root = 0; root < nd; root++) {
            FILL();
            CHECK(hyla_comm_bcast(&c, root, HYLA_D, R, C, buf, LD) == 0, "bcast");
            for (int g = 0; g < nd; g++) {
                hyla_dev_workspace *ws;
                hyla_workspace_get(h, g, 0, 0, &ws);
                h->devs[g]->ops->queue_sync(q[g]);
                hyla_copy_from_device(h, g, host, buf[g], bytes);
                int ok = 1;
                for (int j = 0; j < C; j++)
                    for (int i = 0; i < LD; i++)
                        ok &= host[i + j * LD] == val(i < R ? root : g, i, j, round);
                CHECK(ok, "bcast from %d to %d, round %d", root, g, round);
            }
        }
        for (int via_host = 0; via_host < 2; via_host++) {
            FILL();
            CHECK(hyla_comm_allreduce(&c, via_host, HYLA_D, R, C, buf, LD) == 0, "allreduce");
            for (int g = 0; g < nd; g++) {
                h->devs[g]->ops->queue_sync(q[g]);
                hyla_copy_from_device(h, g, host, buf[g], bytes);
                int ok = 1;
                for (int j = 0; j < C; j++)
                    for (int i = 0; i < LD; i++) {
                        double want = 0;
                        for (int k = 0; k < nd; k++) want += val(k, i, j, round);
                        ok &= host[i + j * LD] == (i < R ? want : val(g, i, j, round));
                    }
                CHECK(ok, "allreduce (%s) on %d, round %d", via_host ? "host" : "device", g, round);
            }
        }
        /* device g owns rows r[g] .. r[g+1]-1; the first owns none */
        int64_t r[HYLA_COMM_MAX + 1];
        r[0] = 0, r[1] = 0;
        for (int g = 1; g < nd; g++) r[g + 1] = (int64_t)R * g / (nd - 1);
        FILL();
        CHECK(hyla_comm_allgather_rows(&c, HYLA_D, r, C, buf, LD) == 0, "allgather");
        for (int g = 0; g < nd; g++) {
            h->devs[g]->ops->queue_sync(q[g]);
            hyla_copy_from_device(h, g, host, buf[g], bytes);
            int ok = 1;
            for (int j = 0; j < C; j++)
                for (int i = 0; i < LD; i++) {
                    int owner = g;
                    for (int k = 0; k < nd; k++)
                        if (i >= r[k] && i < r[k + 1]) owner = k;
                    ok &= host[i + j * LD] == val(owner, i, j, round);
                }
            CHECK(ok, "allgather on %d, round %d", g, round);
        }
    }
    CHECK(c.bytes_peer > 0 && c.bytes_host > 0, "bytes counted: %g peer, %g host", c.bytes_peer,
          c.bytes_host);
    hyla_comm_fini(&c);
    for (int g = 0; g < nd; g++) hyla_free_device(h, g, &buf[g]);
    free(host);
    leak_check(h, "comm");
    hyla_comm c2;
    CHECK(hyla_comm_init(&c2, h, nd + 1, q) == HYLA_ERR_INVALID, "init beyond the context");
    hyla_destroy(&h);
    return summary("test_comm");
}
