/* The host BLAS's thread count, read (core/internal.h). hyla never sets it:
 * OpenBLAS's openblas_set_num_threads is not safe while another thread is
 * inside OpenBLAS (it frees the per-thread buffers of the threads it drops,
 * which a call in flight may be using), and the count is the process's,
 * not hyla's. */
#include "core/internal.h"

/* weak: where the library is linked with another BLAS (or with a static
 * OpenBLAS that nothing else pulls it from) it is absent */
extern int openblas_get_num_threads(void) __attribute__((weak));

int hyla_blas_threads(void) {
    if (!openblas_get_num_threads) return 0;
    const int n = openblas_get_num_threads();
    return n > 0 ? n : 0;
}
