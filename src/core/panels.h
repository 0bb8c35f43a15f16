/* Helpers shared by the panel algorithms (Cholesky, LU): per-panel event
 * arrays and draining a device's queues. */
#ifndef HYLA_PANELS_H
#define HYLA_PANELS_H
#include "core/internal.h"

/* *ev := count events, event j on device dev_of(plan, j) (the panel's
 * owner), timing events when timing != 0. Returns 0, HYLA_ERR_NO_MEMORY or
 * the backend's code; on failure *ev may hold a partly filled array, which
 * hyla_panel_events_destroy frees. */
int hyla_panel_events_create(hyla_event ***ev, int64_t count, int timing,
                             hyla_dev *(*dev_of)(const void *plan, int64_t j), const void *plan);
/* Destroys the events of *ev (NULL entries skipped), frees it, sets *ev to NULL.
 * Accepts *ev == NULL. */
void hyla_panel_events_destroy(hyla_event ***ev, int64_t count);

/* Waits for every queue of qs (NULL entries skipped); returns the first
 * failure, after waiting for all. */
int hyla_queues_sync(hyla_queue *const *qs, int count);

#endif
