/* The divide-and-conquer merge ops on the GPU (k_dc.cu), callable from C:
 * the backend's dc_secular and dc_vectors ops (backend.h). */
#ifndef HYLA_CUDA_K_DC_H
#define HYLA_CUDA_K_DC_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct hyla_dc_args;

/* The ops on stream s, arguments as backend/ops/dc.h documents them and
 * already checked (hyla_dc_check), k and n below 2^31. dtype: HYLA_S or
 * HYLA_D. Return 0 or HYLA_ERR_DEVICE (a launch failed). */
int hyla_cuda_dc_secular(cudaStream_t s, int dtype, const struct hyla_dc_args *a);
int hyla_cuda_dc_vectors(cudaStream_t s, int dtype, const struct hyla_dc_args *a);

/* Loads the ops' kernels on the current device now (CUDA loads a kernel
 * lazily, at its first launch, and that load may wait for the kernels
 * running on the device). 0 or HYLA_ERR_DEVICE. */
int hyla_cuda_dc_preload(void);

#ifdef __cplusplus
}
#endif
#endif
