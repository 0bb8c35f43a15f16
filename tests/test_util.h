/* Helpers shared by the test programs, on top of harness.h: the context on
 * HYLA_DEVICES with the skip rule, leak checks against a baseline, and
 * elements of buffers of any dtype. */
#ifndef HYLA_TEST_UTIL_H
#define HYLA_TEST_UTIL_H
#include <complex.h>
#include <float.h>
#include <stdint.h>

#include "harness.h"
#include "hyla.h"

/* Creates *h on `devices`. Returns 0, or the exit code main returns at
 * once: 77 (skipped) when the devices do not exist here, else the summary
 * of test `name` after a failed check. */
static inline int t_create(hyla_t **h, const char *devices, const char *name) {
    int rc = hyla_create(h, devices);
    if (rc == HYLA_ERR_NO_DEVICE || rc == HYLA_ERR_UNSUPPORTED) {
        printf("devices %s not available: skipped\n", devices);
        return 77;
    }
    CHECK(rc == 0, "hyla_create(%s): %s", devices, hyla_strerror(rc));
    return rc ? summary(name) : 0;
}

/* ---------------------------------------------------------------- leaks */

static int64_t live_base;    /* allocations live at the last check */
static int release_each = 1; /* free the context's cached workspaces at each check */

/* Takes the number of live allocations as the baseline of the checks
 * (after freeing the cached workspaces when release_each). */
static inline void leak_baseline(hyla_t *h) {
    if (release_each) hyla_release_workspace(h);
    hyla_debug_alloc_stats(&live_base, NULL);
}

/* Checks that hyla holds no more allocations than at the last check: the
 * call freed what it took. With release_each the context's cached
 * workspaces are freed first; without (GPUs, where re-creating them costs
 * more than the calls) they stay and must not grow in number. */
static inline void leak_check(hyla_t *h, const char *what) {
    int64_t live;
    if (release_each) hyla_release_workspace(h);
    hyla_debug_alloc_stats(&live, NULL);
    if (!release_each && live > live_base) {
        /* a cached workspace grew (e.g. cuSOLVER's, kept per queue): it must
         * go away with the context's workspaces */
        int64_t before = live_base;
        hyla_release_workspace(h);
        hyla_debug_alloc_stats(&live, NULL);
        CHECK(live <= before, "%s: %lld allocations left after the call and a release", what,
              (long long)(live - before));
    } else {
        CHECK(live == live_base, "%s: %lld allocations left after the call", what,
              (long long)(live - live_base));
    }
    live_base = live; /* report each leak once */
}

/* After call k of an allocation-failure injection loop (the call ran with
 * hyla_debug_fail_alloc(k) and returned rc): checks that it freed what it
 * took and that a failure is HYLA_ERR_NO_MEMORY or HYLA_ERR_DEVICE_MEMORY.
 * Returns 1 for a clean failure (go on with k + 1), 0 to stop the loop: rc
 * 0 (no injection fired), or a leak or another code (failed checks). */
static inline int t_injected(hyla_t *h, const char *what, long long k, int rc) {
    int64_t live;
    hyla_release_workspace(h);
    hyla_debug_alloc_stats(&live, NULL);
    if (live != live_base) {
        CHECK(0, "%s: leak after failing allocation %lld: %lld live (rc %d)", what, k,
              (long long)(live - live_base), rc);
        return 0;
    }
    if (rc == 0) return 0;
    if (rc != HYLA_ERR_NO_MEMORY && rc != HYLA_ERR_DEVICE_MEMORY) {
        CHECK(0, "%s: failing allocation %lld gave %d (%s)", what, k, rc, hyla_strerror(rc));
        return 0;
    }
    return 1;
}

/* The end of a test program that checks leaks against zero: destroys *h,
 * checks that no hyla allocation is left and returns the summary of test
 * `name` (main's exit code). */
static inline int t_finish(hyla_t **h, const char *name) {
    hyla_destroy(h);
    int64_t live;
    hyla_debug_alloc_stats(&live, NULL);
    CHECK(live == 0, "%lld allocations left after hyla_destroy", (long long)live);
    return summary(name);
}

/* ------------------------------------------------- elements of any dtype */

typedef double _Complex zc;

static inline int is_cplx(hyla_dtype t) { return t == HYLA_C || t == HYLA_Z; }
static inline int is_single(hyla_dtype t) { return t == HYLA_S || t == HYLA_C; }
static inline double eps_of(hyla_dtype t) { return is_single(t) ? FLT_EPSILON : DBL_EPSILON; }

/* Element i of a buffer of dtype t, read and written through double complex. */
static inline zc get(hyla_dtype t, const void *p, int64_t i) {
    switch (t) {
    case HYLA_S: return ((const float *)p)[i];
    case HYLA_D: return ((const double *)p)[i];
    case HYLA_C: return ((const float _Complex *)p)[i];
    default: return ((const double _Complex *)p)[i];
    }
}

static inline void put(hyla_dtype t, void *p, int64_t i, zc v) {
    switch (t) {
    case HYLA_S: ((float *)p)[i] = (float)creal(v); break;
    case HYLA_D: ((double *)p)[i] = creal(v); break;
    case HYLA_C: ((float _Complex *)p)[i] = (float _Complex)v; break;
    default: ((double _Complex *)p)[i] = v; break;
    }
}
#endif
