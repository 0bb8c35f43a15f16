/* Bulge chasing (band -> tridiagonal, eigenvalues only) on the GPU
 * (k_hb2st.cu), callable from C: the backend's hb2st op (backend.h). */
#ifndef HYLA_CUDA_K_HB2ST_H
#define HYLA_CUDA_K_HB2ST_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest band width min(kd, n-1) the kernel chases (its windows live in
 * shared memory). */
#define HYLA_CUDA_HB2ST_MAX_KD 64

/* The hb2st op on stream s, arguments as backend.h documents them and
 * already checked (hyla_hb2st_check), n >= 1, min(kd, n-1) <=
 * HYLA_CUDA_HB2ST_MAX_KD, n < 2^31. dtype: a hyla_dtype value. Returns 0,
 * HYLA_ERR_DEVICE (a launch or attribute call failed) or HYLA_ERR_INVALID. */
int hyla_cuda_hb2st(cudaStream_t s, int dtype, int64_t n, int64_t kd, void *AB, int64_t ldab,
                    void *d, void *e, void *work);

#ifdef __cplusplus
}
#endif
#endif
