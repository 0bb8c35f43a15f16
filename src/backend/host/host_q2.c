/* The q2_apply op (Q2 of the bulge chase from its grouped reflector store)
 * on the host backend, in the CUDA kernel's schedule (t_host_q2.c): the
 * executable reference of backend/cuda/k_q2.cu. The eigensolver's host
 * path applies Q2 with batched GEMMs instead (eig/psb2st.c). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("cx-limited-range")
#endif
#include "backend/host/host_q2.h"
#include <complex.h>
#include <math.h>

#define HYLA_TEMPLATE "backend/host/t_host_q2.c"
#include "base/each_prec.h"

void hyla_host_q2_run(hyla_dtype t, const hyla_q2_args *a, void *buf) {
    const int64_t K = HYLA_HOST_Q2_K, H = HYLA_HOST_Q2_ROWS(a);
    const size_t es = hyla_dtype_size(t);
    char *w = (char *)buf + es * (size_t)(H * HYLA_HOST_Q2_W);
    int64_t *tag = (int64_t *)(void *)(w + es * (size_t)(2 * a->nb + 2));
    switch (t) {
    case HYLA_S: q2_apply_s(a, K, H, buf, (void *)w, tag); break;
    case HYLA_D: q2_apply_d(a, K, H, buf, (void *)w, tag); break;
    case HYLA_C: q2_apply_c(a, K, H, buf, (void *)w, tag); break;
    case HYLA_Z: q2_apply_z(a, K, H, buf, (void *)w, tag); break;
    }
}
