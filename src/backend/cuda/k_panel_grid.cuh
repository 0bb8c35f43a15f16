/* The grid both fused panel kernels (k_getrf_panel.cu, k_geqrf_panel.cu)
 * run on: G co-resident CTAs of THREADS threads, CTA b owning the rows
 * [b r, (b + 1) r) of the panel, kept in shared memory when they fit.
 * Host side: the dtype dispatch, the plan (device queries, CTA count,
 * shared memory, the co-residency check) and the cooperative launch; device side: the copy of
 * a CTA's rows into and out of shared memory. Included inside each file's
 * anonymous namespace, after k_panel_scalar.cuh and the file's constants
 * THREADS, TX, TY (the TX x TY thread layout) and MIN_ROWS. */
#ifndef HYLA_CUDA_K_PANEL_GRID_CUH
#define HYLA_CUDA_K_PANEL_GRID_CUH

/* f(T()) for the element type T of the hyla dtype (float, double, c8,
 * c16): the dispatch of the extern "C" entry points; HYLA_ERR_INVALID for
 * another dtype */
template <typename F> int by_dtype(int dtype, F f) {
    switch (dtype) {
    case HYLA_S: return f(float());
    case HYLA_D: return f(double());
    case HYLA_C: return f(c8());
    case HYLA_Z: return f(c16());
    default: return HYLA_ERR_INVALID;
    }
}

/* a CUDA status as a hyla code; clears the sticky last error */
int cuda_rc(cudaError_t e) {
    if (e == cudaSuccess) return 0;
    (void)cudaGetLastError();
    return HYLA_ERR_DEVICE;
}

/* Plans an m x n panel of es-byte elements for kernel on the current
 * device: one CTA per SM (the most shared memory each), fewer when the
 * panel is short (at least MIN_ROWS rows each: a smaller grid syncs
 * faster), at most max_ctas when > 0, and no CTA without rows. Dynamic
 * shared memory: fixed bytes plus the CTA's rows (rows_per_cta n elements)
 * when they fit (in_smem 1), else fixed alone. Fills pl's m, n, ctas,
 * rows_per_cta, in_smem and smem_bytes (Plan: hyla_cuda_panel_plan or
 * hyla_cuda_qr_plan); the caller fills dtype and work_bytes. Returns 0;
 * HYLA_ERR_UNSUPPORTED (no cooperative launch, or the grid cannot be
 * co-resident); HYLA_ERR_DEVICE (a CUDA call failed). */
template <typename Kernel, typename Plan>
int plan_grid(Kernel kernel, int64_t m, int64_t n, size_t es, size_t fixed, int max_ctas,
              Plan *pl) {
    int dev = 0, sms = 0, coop = 0, optin = 0, per_sm = 0;
    int rc = cuda_rc(cudaGetDevice(&dev));
    if (!rc) rc = cuda_rc(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (!rc) rc = cuda_rc(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    if (!rc)
        rc = cuda_rc(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (rc) return rc;
    if (!coop || sms < 1) return HYLA_ERR_UNSUPPORTED;

    int64_t G = min64((int64_t)sms, (m + MIN_ROWS - 1) / MIN_ROWS);
    if (max_ctas > 0) G = min64(G, (int64_t)max_ctas);
    if (G < 1) G = 1;
    const int64_t rpc = (m + G - 1) / G;
    G = (m + rpc - 1) / rpc; /* no CTA without rows */

    struct cudaFuncAttributes fa;
    rc = cuda_rc(cudaFuncGetAttributes(&fa, kernel));
    if (rc) return rc;
    const size_t limit = (size_t)optin - fa.sharedSizeBytes;
    size_t smem = fixed + (size_t)rpc * (size_t)n * es;
    int in_smem = 1;
    if (smem > limit) {
        smem = fixed;
        in_smem = 0;
    }
    /* always the same (largest) value: queues of the device may plan and
     * launch concurrently from several host threads */
    rc = cuda_rc(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)limit));
    if (!rc) rc = cuda_rc(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, smem));
    if (rc) return rc;
    if ((int64_t)per_sm * sms < G) return HYLA_ERR_UNSUPPORTED;

    pl->m = m;
    pl->n = n;
    pl->ctas = (int)G;
    pl->rows_per_cta = rpc;
    pl->in_smem = in_smem;
    pl->smem_bytes = smem;
    return 0;
}

/* Launches kernel on pl's grid on stream s with the arguments args; an
 * earlier sticky error is cleared first so that the code is this launch's.
 * Returns 0 or HYLA_ERR_DEVICE. */
template <typename Kernel, typename Plan>
int launch_grid(Kernel kernel, const Plan *pl, void **args, cudaStream_t s) {
    (void)cudaGetLastError();
    return cuda_rc(cudaLaunchCooperativeKernel((const void *)kernel, dim3((unsigned)pl->ctas),
                                               dim3(THREADS), args, pl->smem_bytes, s));
}

/* dst := src for a rows x n block (leading dimensions ldd, lds), by the
 * whole CTA in its TX x TY layout; the caller synchronises */
template <typename T>
__device__ __forceinline__ void copy_rows(T *dst, int64_t ldd, const T *src, int64_t lds,
                                          int64_t rows, int n) {
    const int tx = threadIdx.x % TX, ty = threadIdx.x / TX;
    for (int k = ty; k < n; k += TY)
        for (int64_t i = tx; i < rows; i += TX) dst[i + k * ldd] = src[i + k * lds];
}

#endif
