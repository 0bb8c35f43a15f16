/* The host BLAS on one thread for a while (core/internal.h): OpenBLAS's
 * process-wide thread count saved by the first of nested or concurrent
 * begins, set to 1, and put back by the last end. Other threads' BLAS calls
 * meanwhile run on one thread, and a change of the count by another thread
 * meanwhile is overwritten at the last end. */
#include "core/internal.h"
#include <pthread.h>

/* weak: where the library is linked with another BLAS (or with a static
 * OpenBLAS that nothing else pulls these from) they are absent and the
 * count is left alone */
extern int openblas_get_num_threads(void) __attribute__((weak));
extern void openblas_set_num_threads(int) __attribute__((weak));

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int users, saved;

void hyla_blas_single_begin(void) {
    if (!openblas_get_num_threads || !openblas_set_num_threads) return;
    pthread_mutex_lock(&lock);
    if (users++ == 0) {
        saved = openblas_get_num_threads();
        if (saved != 1) openblas_set_num_threads(1);
    }
    pthread_mutex_unlock(&lock);
}

void hyla_blas_single_end(void) {
    if (!openblas_get_num_threads || !openblas_set_num_threads) return;
    pthread_mutex_lock(&lock);
    if (users > 0 && --users == 0 && saved != 1) openblas_set_num_threads(saved);
    pthread_mutex_unlock(&lock);
}
