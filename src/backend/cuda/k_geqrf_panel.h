/* The fused QR panel kernel (k_geqrf_panel.cu), callable from C: LAPACK
 * geqrf (Householder QR, geqr2's column loop) of a tall m x n panel,
 * n <= 64, in one cooperative launch with one grid-wide barrier per column.
 * dtype is a hyla_dtype value (0 s, 1 d, 2 c, 3 z). */
#ifndef HYLA_CUDA_K_GEQRF_PANEL_H
#define HYLA_CUDA_K_GEQRF_PANEL_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Widest panel the kernel takes. */
#define HYLA_CUDA_GEQRF_PANEL_MAX_N 64

/* How one panel is laid out on the grid (as hyla_cuda_panel_plan). */
typedef struct {
    int dtype;
    int64_t m, n;
    int ctas;
    int64_t rows_per_cta;
    int in_smem;
    size_t smem_bytes;
    size_t work_bytes;
} hyla_cuda_qr_plan;

/* Plans the m x n panel (m >= 1, 1 <= n <= HYLA_CUDA_GEQRF_PANEL_MAX_N) on
 * the current device, on at most max_ctas CTAs (0: the kernel's choice).
 * Returns 0; HYLA_ERR_INVALID (bad dtype or size); HYLA_ERR_UNSUPPORTED
 * (too wide, no cooperative launch); HYLA_ERR_DEVICE (a CUDA query failed). */
int hyla_cuda_geqrf_panel_plan(int dtype, int64_t m, int64_t n, int max_ctas,
                               hyla_cuda_qr_plan *plan);

/* QR of A (column-major, lda, plan->m x plan->n) in place on stream s, as
 * LAPACK geqrf: R in the upper triangle, the reflectors H_i = I - tau_i v_i
 * v_i^H below the diagonal (v_i(i) = 1 implied), tau: min(m, n) device
 * values of the dtype; info: one device int, written 0. work:
 * plan->work_bytes of device memory, 16-byte aligned. Returns 0 or
 * HYLA_ERR_DEVICE (launch failure). */
int hyla_cuda_geqrf_panel(cudaStream_t s, const hyla_cuda_qr_plan *plan, void *A, int64_t lda,
                          void *tau, int *info, void *work);

#ifdef __cplusplus
}
#endif
#endif
