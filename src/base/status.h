/* The status channel of asynchronous and multi-device work (PLASMA's
 * sequence): the first failure sticks. C11 atomics: C sources only. */
#ifndef HYLA_STATUS_H
#define HYLA_STATUS_H
#include <stdatomic.h>

typedef struct { atomic_int code; } hyla_status;
static inline void hyla_status_init(hyla_status *s) { atomic_init(&s->code, 0); }
static inline int hyla_status_get(hyla_status *s) { return atomic_load(&s->code); }
/* keeps the first non-zero code; returns the code now in force */
static inline int hyla_status_fail(hyla_status *s, int code) {
    int zero = 0;
    if (code != 0) atomic_compare_exchange_strong(&s->code, &zero, code);
    return atomic_load(&s->code);
}

#endif
