/* The Householder reconstruction of stage 1's CholeskyQR2 panels on the GPU
 * (k_cq.cu), callable from C: the backend's cq_rebuild op
 * (backend/ops/ops.h, backend/ops/cq.h). */
#ifndef HYLA_CUDA_K_CQ_H
#define HYLA_CUDA_K_CQ_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "backend/ops/cq.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Widest panel the kernel takes (its three k x k work matrices live in
 * shared memory). */
#define HYLA_CUDA_CQ_MAX_K 64

/* The cq_rebuild op on stream s, arguments checked (hyla_cq_check), k <=
 * HYLA_CUDA_CQ_MAX_K. dtype: a hyla_dtype value. Returns 0,
 * HYLA_ERR_DEVICE (attribute call or launch failed) or HYLA_ERR_INVALID. */
int hyla_cuda_cq_rebuild(cudaStream_t s, int dtype, const hyla_cq_args *a);

#ifdef __cplusplus
}
#endif
#endif
