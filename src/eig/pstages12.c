/* Stages 1 and 2 of the eigensolver at the same time. Stage 1 (sy2sb) keeps
 * the GPU busy and leaves the host cores nearly idle; stage 2 (bulge chasing
 * on the host cores) leaves the GPU idle. Sweep i of stage 2 only needs the
 * band columns up to the one its current step touches, and stage 1 makes the
 * band final panel by panel from the left, so the sweeps can follow stage 1's
 * front: stage 2 runs on a host thread of its own, reading the band through
 * a hyla_band_feed, while this thread drives stage 1. */
#include "eig/pstages12.h"
#include "eig/phb2st_dev.h"
#include <omp.h>
#include <pthread.h>

typedef struct {
    hyla_t *ctx;
    hyla_dtype t;
    int64_t n, kd, ldab;
    void *AB, *d, *e;
    hyla_sb2st_q **q2;
    hyla_band_feed *feed;
    int nthreads, rc;
    double done_at;
} chase_job;

static void *chase_main(void *arg) {
    chase_job *j = arg;
    j->rc = hyla_eig_sb2st_fed(j->ctx, j->t, j->n, j->kd, j->AB, j->ldab, j->d, j->e, j->q2,
                               j->feed, j->nthreads);
    j->done_at = hyla_wtime();
    return NULL;
}

int hyla_eig_stages12(hyla_t *ctx, int dev, hyla_dtype t, int64_t n, int64_t kd, int64_t nb,
                      void *dA, int64_t ldda, void *AB, int64_t ldab, hyla_sy2sb_q **q1,
                      void *d, void *e, hyla_sb2st_q **q2, int mode, double *s1, double *s2) {
    if (mode == 2) { /* the device chases the band after stage 1 */
        double t0 = hyla_wtime();
        int rc = hyla_eig_sy2sb(ctx, dev, t, n, kd, nb, dA, ldda, AB, ldab, q1, NULL, 0, NULL);
        double t1 = hyla_wtime();
        *s1 = t1 - t0;
        if (!rc)
            rc = q2 ? hyla_eig_sb2st_dev(ctx, dev, t, n, kd, AB, ldab, d, e, q2)
                    : hyla_eig_hb2st_dev(ctx, dev, t, n, kd, AB, ldab, d, e);
        *s2 = hyla_wtime() - t1;
        return rc;
    }
    const int overlap = mode == 1 || (mode < 0 && !ctx->devs[dev]->ops->host_cores &&
                                     hyla_eig_sb2st_overlaps(n, kd) && omp_get_max_threads() > 2);
    double t0 = hyla_wtime(), t1;
    int rc;
    if (!overlap) {
        /* the host backend's queues run on the cores stage 2 would take */
        rc = hyla_eig_sy2sb(ctx, dev, t, n, kd, nb, dA, ldda, AB, ldab, q1, NULL, 0, NULL);
        t1 = hyla_wtime();
        *s1 = t1 - t0;
        if (rc) return rc;
        rc = hyla_eig_sb2st(ctx, t, n, kd, AB, ldab, d, e, q2);
        *s2 = hyla_wtime() - t1;
        return rc;
    }
    hyla_band_feed feed;
    atomic_init(&feed.ready, 0);
    atomic_init(&feed.failed, 0);
    /* one core stays with this thread, which drives the GPU */
    chase_job job = {.ctx = ctx, .t = t, .n = n, .kd = kd, .ldab = ldab, .AB = AB, .d = d, .e = e,
                     .q2 = q2, .feed = &feed,
                     .nthreads = HYLA_MAX(1, omp_get_max_threads() - 1)};
    pthread_t th;
    if (pthread_create(&th, NULL, chase_main, &job) != 0) {
        rc = hyla_eig_sy2sb(ctx, dev, t, n, kd, nb, dA, ldda, AB, ldab, q1, NULL, 0, NULL);
        t1 = hyla_wtime();
        *s1 = t1 - t0;
        if (rc) return rc;
        rc = hyla_eig_sb2st(ctx, t, n, kd, AB, ldab, d, e, q2);
        *s2 = hyla_wtime() - t1;
        return rc;
    }
    rc = hyla_eig_sy2sb_fed(ctx, dev, t, n, kd, nb, dA, ldda, AB, ldab, q1, NULL, 0, NULL, &feed);
    t1 = hyla_wtime();
    pthread_join(th, NULL);
    *s1 = t1 - t0;
    /* stage 2's time is what it adds after stage 1 */
    *s2 = job.done_at > t1 ? job.done_at - t1 : 0;
    if (rc) {
        hyla_sb2st_q_free(q2); /* built from a band that never became final */
        return rc;
    }
    return job.rc;
}
