/* Collectives between the devices of one context, written once on the
 * backend's copies and events, so that a multi-device algorithm runs the
 * same on the host backend's virtual devices, on one GPU listed several
 * times and on several GPUs (peer copies).
 *
 * Every device takes part through one queue of its own (given at init).
 * A collective is asynchronous unless it says otherwise: it enqueues each
 * device's part on that device's queue, each receiver copying in after
 * waiting for the sender's event, and returns; work enqueued afterwards on
 * a device's queue sees the result on that device. A device's buffer may be
 * overwritten by work enqueued after the collective on its own queue: the
 * collectives make every queue wait until the other devices have read what
 * they needed from it. Buffers are rows x cols, column major, in each
 * device's memory (buf[g], leading dimension ld). */
#ifndef HYLA_COMM_H
#define HYLA_COMM_H
#include "core/internal.h"

enum { HYLA_COMM_MAX = 64 };

typedef struct {
    hyla_t *ctx;
    int nd;
    hyla_queue *q[HYLA_COMM_MAX];
    hyla_event *ready[HYLA_COMM_MAX]; /* device g's part is in place */
    hyla_event *read[HYLA_COMM_MAX];  /* device g has read what it needed */
    void *recv[HYLA_COMM_MAX];        /* device 0: the partial of device g (device sum) */
    void *host[HYLA_COMM_MAX];        /* pinned: the partial of device g (host sum) */
    size_t recv_bytes, host_bytes;
    double bytes_peer, bytes_host; /* moved so far between devices, through the host */
    double host_seconds;           /* spent in host sums (synchronous) */
} hyla_comm;

/* Sets up the collectives of devices 0 .. nd - 1 of ctx, device g working
 * on queue q[g]. Returns 0 or an allocation or device code (nothing left
 * allocated). */
int hyla_comm_init(hyla_comm *c, hyla_t *ctx, int nd, hyla_queue *const *q);
/* Frees what init and the collectives allocated; waits for every queue
 * first (nothing may still read or wait on them). */
void hyla_comm_fini(hyla_comm *c);

/* buf[g] := buf[root] on every device g. */
int hyla_comm_bcast(hyla_comm *c, int root, hyla_dtype t, int64_t rows, int64_t cols,
                    void *const *buf, int64_t ld);

/* buf[g] := the sum over all devices of buf[h], on every device g: device
 * to device (the partials copied to device 0, summed there, the sum copied
 * back; asynchronous) or, via_host, through pinned host memory (the host
 * sums; synchronous: returns when the sum is on every device). */
int hyla_comm_allreduce(hyla_comm *c, int via_host, hyla_dtype t, int64_t rows, int64_t cols,
                        void *const *buf, int64_t ld);

/* Rows r[g] .. r[g+1] - 1 of buf[g] (r: nd + 1 bounds) to the same rows of
 * every other device's buffer: buf[h] ends with every device's rows. */
int hyla_comm_allgather_rows(hyla_comm *c, hyla_dtype t, const int64_t *r, int64_t cols,
                             void *const *buf, int64_t ld);

#endif
