/* hyla_blas_single_begin / _end (core/blas_threads.c), which the divide and
 * conquer brackets its host steps with on a GPU: OpenBLAS's thread count is
 * 1 between them, nested and from several threads at once, and the count
 * the caller had (2 here, set first; the tests' environment starts at 1)
 * comes back after the last end, also when the ends come in another order
 * than the begins. Needs no device. */
#include "core/internal.h"
#include "test_util.h"
#include <pthread.h>

int openblas_get_num_threads(void);
void openblas_set_num_threads(int);

enum { NT = 4 };
static pthread_barrier_t bar;
static int inside[NT];

static void *worker(void *arg) {
    const int k = (int)(intptr_t)arg;
    hyla_blas_single_begin();
    pthread_barrier_wait(&bar); /* every thread has begun */
    inside[k] = openblas_get_num_threads();
    pthread_barrier_wait(&bar); /* every thread has read the count */
    hyla_blas_single_end();
    return NULL;
}

int main(void) {
    openblas_set_num_threads(2);
    const int base = openblas_get_num_threads();
    CHECK(base >= 1, "openblas_get_num_threads %d", base);

    /* nested */
    hyla_blas_single_begin();
    CHECK(openblas_get_num_threads() == 1, "after begin: %d", openblas_get_num_threads());
    hyla_blas_single_begin();
    hyla_blas_single_end();
    CHECK(openblas_get_num_threads() == 1, "after a nested end: %d", openblas_get_num_threads());
    hyla_blas_single_end();
    CHECK(openblas_get_num_threads() == base, "after the last end: %d, want %d",
          openblas_get_num_threads(), base);

    /* concurrent */
    pthread_t th[NT];
    pthread_barrier_init(&bar, NULL, NT);
    for (int k = 0; k < NT; k++) pthread_create(&th[k], NULL, worker, (void *)(intptr_t)k);
    for (int k = 0; k < NT; k++) pthread_join(th[k], NULL);
    pthread_barrier_destroy(&bar);
    for (int k = 0; k < NT; k++) CHECK(inside[k] == 1, "thread %d saw %d inside", k, inside[k]);
    CHECK(openblas_get_num_threads() == base, "after the threads: %d, want %d",
          openblas_get_num_threads(), base);

    /* an end without a begin changes nothing */
    hyla_blas_single_end();
    CHECK(openblas_get_num_threads() == base, "unpaired end: %d", openblas_get_num_threads());
    hyla_blas_single_begin();
    CHECK(openblas_get_num_threads() == 1, "begin after an unpaired end: %d",
          openblas_get_num_threads());
    hyla_blas_single_end();
    CHECK(openblas_get_num_threads() == base, "end after an unpaired end: %d",
          openblas_get_num_threads());
    return summary("blas_threads");
}
