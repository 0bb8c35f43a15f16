/* Per-panel events and queue draining for the panel algorithms. */
#include "core/panels.h"

int hyla_panel_events_create(hyla_event ***ev, int64_t count, int timing,
                             hyla_dev *(*dev_of)(const void *plan, int64_t j), const void *plan) {
    hyla_event **e = hyla_calloc((size_t)HYLA_MAX(count, 1), sizeof *e);
    if (!e) return HYLA_ERR_NO_MEMORY;
    *ev = e;
    for (int64_t j = 0; j < count; j++) {
        hyla_dev *dev = dev_of(plan, j);
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
