/* Shared helpers of the panel algorithms (see panels.h). */
#include "core/panels.h"

int hyla_panel_events_create(hyla_event ***ev, int64_t count, int timing, hyla_dev *const *devs,
                             int nd) {
    hyla_event **e = hyla_calloc((size_t)HYLA_MAX(count, 1), sizeof *e);
    if (!e) return HYLA_ERR_NO_MEMORY;
    *ev = e;
    for (int64_t j = 0; j < count; j++) {
        hyla_dev *dev = devs[j % nd];
        int rc = dev->ops->event_create(dev, timing, &e[j]);
        if (rc) return rc;
    }
    return 0;
}

void hyla_panel_events_destroy(hyla_event ***ev, int64_t count) {
    hyla_event **e = *ev;
    if (!e) return;
    for (int64_t j = 0; j < count; j++)
        if (e[j]) e[j]->dev->ops->event_destroy(e[j]);
    hyla_free(e);
    *ev = NULL;
}

int hyla_queues_sync(hyla_queue *const *qs, int count) {
    int rc = 0;
    for (int i = 0; i < count; i++) {
        if (!qs[i]) continue;
        int r = qs[i]->dev->ops->queue_sync(qs[i]);
        if (!rc) rc = r;
    }
    return rc;
}

int hyla_panel_event_sets_create(hyla_event ***const *sets, int nsets, int timed_from,
                                 int64_t count, hyla_dev *const *devs, int nd) {
    for (int s = 0; s < nsets; s++) {
        int rc = hyla_panel_events_create(sets[s], count, s >= timed_from, devs, nd);
        if (rc) return rc;
    }
    return 0;
}

void hyla_panel_event_sets_destroy(hyla_event ***const *sets, int nsets, int64_t count) {
    for (int s = 0; s < nsets; s++) hyla_panel_events_destroy(sets[s], count);
}

int hyla_dev_events_create(hyla_dev *dev, hyla_event **const *evs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int rc = dev->ops->event_create(dev, 0, evs[i]);
        if (rc) return rc;
    }
    return 0;
}

void hyla_dev_events_destroy(hyla_event *const *evs, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (evs[i]) evs[i]->dev->ops->event_destroy(evs[i]);
}

int hyla_panel_sync(hyla_t *ctx, hyla_dev *const *devs, int nd, int rc) {
    for (int e = 0; e < nd; e++) {
        const hyla_dev_workspace *ws = &ctx->ws[devs[e]->index];
        hyla_queue *qs[] = {ws->q_in, ws->q_comp, ws->q_aux, ws->q_out};
        int r = hyla_queues_sync(qs, 4);
        if (!rc) rc = r;
    }
    return rc;
}

int hyla_xfer_init_all(hyla_xfer *const *x, int n, hyla_dev *dev, unsigned char *pinned,
                       int nslots, size_t slot_bytes, size_t esz, int threads) {
    for (int i = 0; i < n; i++) {
        int rc = hyla_xfer_init(x[i], dev, pinned + (size_t)i * (size_t)nslots * slot_bytes,
                                nslots, slot_bytes, esz, threads);
        if (rc) {
            hyla_xfer_fini_all(x, i);
            return rc;
        }
    }
    return 0;
}

void hyla_xfer_fini_all(hyla_xfer *const *x, int n) {
    for (int i = 0; i < n; i++) hyla_xfer_fini(x[i]);
}

size_t hyla_pool_align(size_t bytes) {
    enum { POOL_ALIGN = 256 };
    return (bytes + POOL_ALIGN - 1) / POOL_ALIGN * POOL_ALIGN;
}
