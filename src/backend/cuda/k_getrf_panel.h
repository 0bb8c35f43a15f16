/* The fused LU panel kernel (k_getrf_panel.cu), callable from C: LAPACK
 * getrf with partial pivoting of a tall m x n panel, n <= 128, in one
 * cooperative launch with one grid-wide barrier per column. dtype is a
 * hyla_dtype value (0 s, 1 d, 2 c, 3 z). */
#ifndef HYLA_CUDA_K_GETRF_PANEL_H
#define HYLA_CUDA_K_GETRF_PANEL_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Widest panel the kernel takes. */
#define HYLA_CUDA_GETRF_PANEL_MAX_N 128

/* How one panel is laid out on the grid: filled by hyla_cuda_getrf_panel_plan. */
typedef struct {
    int dtype;
    int64_t m, n;
    int ctas;                /* CTAs of the cooperative grid, all resident */
    int64_t rows_per_cta;    /* CTA b owns rows [b r, min(m, (b + 1) r)) */
    int in_smem;             /* 1: each CTA keeps its rows in shared memory */
    size_t smem_bytes;       /* dynamic shared memory per CTA */
    size_t work_bytes;       /* device workspace the launch needs (exchange buffers) */
} hyla_cuda_panel_plan;

/* Plans the m x n panel (m >= 1, 1 <= n <= HYLA_CUDA_GETRF_PANEL_MAX_N) on
 * the current device, on at most max_ctas CTAs (0: as many as the device has
 * multiprocessors, fewer for short panels). Returns 0; HYLA_ERR_INVALID (bad
 * dtype or size); HYLA_ERR_UNSUPPORTED when n is too wide or the device has
 * no cooperative launch; HYLA_ERR_DEVICE when a CUDA query fails. */
int hyla_cuda_getrf_panel_plan(int dtype, int64_t m, int64_t n, int max_ctas,
                               hyla_cuda_panel_plan *plan);

/* Factors A (column-major, leading dimension lda, plan->m x plan->n) in
 * place on stream s: A = P L U as LAPACK getrf. ipiv: min(m, n) int64_t in
 * device memory receiving LAPACK's 1-based interchanges plus row_off (the
 * rows of a larger matrix above A), or NULL for no pivoting. info: one
 * device int receiving 0 or the first k with U(k, k) == 0 (the
 * factorization goes on, as LAPACK's); with accumulate != 0 it receives
 * k + row_off only where it holds 0 and A has a zero pivot (the leaves of a
 * recursive LU, in column order, after info := 0). work: plan->work_bytes
 * of device memory, 16-byte aligned, not used by other work while the
 * kernel runs. Returns 0 or HYLA_ERR_DEVICE (launch failure). */
int hyla_cuda_getrf_panel(cudaStream_t s, const hyla_cuda_panel_plan *plan, void *A, int64_t lda,
                          int64_t *ipiv, int *info, void *work, int64_t row_off, int accumulate);

#ifdef __cplusplus
}
#endif
#endif
