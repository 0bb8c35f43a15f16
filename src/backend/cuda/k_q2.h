/* Q2 of the bulge chase in one kernel (k_q2.cu), callable from C: the
 * backend's q2_apply op (backend.h, backend/ops/q2_args.h). */
#ifndef HYLA_CUDA_K_Q2_H
#define HYLA_CUDA_K_Q2_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest sweeps per group and band width the kernel takes (its windows
 * live in shared memory). */
#define HYLA_CUDA_Q2_MAX_NB 32
#define HYLA_CUDA_Q2_MAX_KD 64

/* The q2_apply op on stream s: arguments as backend/ops/q2_args.h documents
 * them, already checked (hyla_q2_check), nsg >= 1, ncols >= 1. dtype: a
 * hyla_dtype value. Returns 0, HYLA_ERR_UNSUPPORTED (nb, kd or n beyond
 * the kernel's range, or its shared memory), HYLA_ERR_DEVICE (an attribute
 * call or the launch failed) or HYLA_ERR_INVALID. */
int hyla_cuda_q2_apply(cudaStream_t s, int dtype, int64_t n, int64_t kd, int64_t nb, int64_t nsg,
                       const int64_t *woff, const void *store, int64_t ncols, void *Z,
                       int64_t ldz, int identity, int64_t col0);

#ifdef __cplusplus
}
#endif
#endif
