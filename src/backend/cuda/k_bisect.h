/* Tridiagonal eigenvalues by bisection on the GPU (k_bisect.cu), callable
 * from C: the backend's tri_eigvals op (backend.h). */
#ifndef HYLA_CUDA_K_BISECT_H
#define HYLA_CUDA_K_BISECT_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The tri_eigvals op on stream s, arguments as backend.h documents them and
 * already checked (hyla_tri_eigvals_check), 0 <= n < 2^31. dtype: HYLA_S or
 * HYLA_D. Returns 0, HYLA_ERR_DEVICE (a launch failed) or HYLA_ERR_INVALID. */
int hyla_cuda_tri_eigvals(cudaStream_t s, int dtype, int64_t n, const void *d, const void *e,
                          void *w, void *work, int *info);

#ifdef __cplusplus
}
#endif
#endif
