/* Allocation accounting: every allocation hyla makes (host, pinned, device)
 * is admitted and counted here, so tests can prove that nothing leaks and
 * inject a failure at the k-th allocation (CHOLMOD's Tcov idea). */
#include "base/base.h"
#include <stdatomic.h>
#include <stdlib.h>

static atomic_llong live_count;
static atomic_llong total_count;
static atomic_llong fail_countdown; /* 0 = off; the allocation that takes it to 0 fails */

int hyla_alloc_admit(void) {
    long long c = atomic_load(&fail_countdown);
    while (c > 0) {
        if (atomic_compare_exchange_weak(&fail_countdown, &c, c - 1))
            return c == 1 ? HYLA_ERR_NO_MEMORY : 0;
    }
    return 0;
}

void hyla_alloc_note(int delta) {
    atomic_fetch_add(&live_count, delta);
    if (delta > 0) atomic_fetch_add(&total_count, delta);
}

void *hyla_malloc(size_t bytes) {
    if (hyla_alloc_admit() != 0) return NULL;
    void *p = malloc(bytes ? bytes : 1);
    if (p) hyla_alloc_note(+1);
    return p;
}

void *hyla_calloc(size_t count, size_t size) {
    if (hyla_alloc_admit() != 0) return NULL;
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p) hyla_alloc_note(+1);
    return p;
}

void hyla_free(void *p) {
    if (!p) return;
    free(p);
    hyla_alloc_note(-1);
}

void hyla_debug_alloc_stats(int64_t *live, int64_t *total) {
    if (live) *live = (int64_t)atomic_load(&live_count);
    if (total) *total = (int64_t)atomic_load(&total_count);
}

void hyla_debug_fail_alloc(int64_t k) { atomic_store(&fail_countdown, k > 0 ? k : 0); }
