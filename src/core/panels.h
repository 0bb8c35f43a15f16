/* Helpers shared by the panel algorithms (Cholesky, LU): per-panel event
 * arrays, per-device events, draining a device's queues, the staging
 * engines of a host-resident matrix, and the small constants of their
 * backend calls. */
#ifndef HYLA_PANELS_H
#define HYLA_PANELS_H
#include "core/internal.h"
#include "core/xfer.h"

/* The devices of a panel algorithm are devs[0 .. nd-1], and panel j is
 * owned by devs[j mod nd]. */

/* *ev := count events, event j on the owner of panel j, timing events when
 * timing != 0. Returns 0, HYLA_ERR_NO_MEMORY or the backend's code; on
 * failure *ev may hold a partly filled array, which
 * hyla_panel_events_destroy frees. */
int hyla_panel_events_create(hyla_event ***ev, int64_t count, int timing, hyla_dev *const *devs,
                             int nd);
/* Destroys the events of *ev (NULL entries skipped), frees it, sets *ev to NULL.
 * Accepts *ev == NULL. */
void hyla_panel_events_destroy(hyla_event ***ev, int64_t count);

/* hyla_panel_events_create for each of the nsets arrays *sets[i], with
 * timing events in the sets i >= timed_from. Stops at the first failure and
 * returns its code; hyla_panel_event_sets_destroy frees whatever was made. */
int hyla_panel_event_sets_create(hyla_event ***const *sets, int nsets, int timed_from,
                                 int64_t count, hyla_dev *const *devs, int nd);
/* hyla_panel_events_destroy for each of the nsets arrays *sets[i]. */
void hyla_panel_event_sets_destroy(hyla_event ***const *sets, int nsets, int64_t count);

/* Creates n non-timing events on dev into *evs[0 .. n-1]. Returns 0 or the
 * backend's code at the first failure; the events made so far stay in
 * place for hyla_dev_events_destroy. */
int hyla_dev_events_create(hyla_dev *dev, hyla_event **const *evs, size_t n);
/* Destroys the n events of evs (NULL entries skipped). */
void hyla_dev_events_destroy(hyla_event *const *evs, size_t n);

/* Waits for every queue of qs (NULL entries skipped); returns the first
 * failure, after waiting for all. */
int hyla_queues_sync(hyla_queue *const *qs, int count);

/* The end of a stage that returned rc: waits for the four queues (q_in,
 * q_comp, q_aux, q_out) of the workspace of each of devs[0 .. nd-1]
 * (hyla_workspace_get; queues not made yet are skipped). Returns rc when it
 * is nonzero, else the first failure of the waits (after waiting for all). */
int hyla_panel_sync(hyla_t *ctx, hyla_dev *const *devs, int nd, int rc);

/* Initializes the n staging engines *x[0 .. n-1] of dev for a host-resident
 * matrix: engine i on the nslots slots of slot_bytes from pinned + i *
 * nslots * slot_bytes, with elements of esz bytes packed by threads threads
 * (hyla_xfer_init). Returns 0, or the first failure after finalizing the
 * engines already made. */
int hyla_xfer_init_all(hyla_xfer *const *x, int n, hyla_dev *dev, unsigned char *pinned,
                       int nslots, size_t slot_bytes, size_t esz, int threads);
/* hyla_xfer_fini of the n engines *x[0 .. n-1]. */
void hyla_xfer_fini_all(hyla_xfer *const *x, int n);

/* Byte size rounded up to the alignment of the pieces carved from the
 * device pool and the pinned buffer of a workspace (256 bytes). */
size_t hyla_pool_align(size_t bytes);

#endif
