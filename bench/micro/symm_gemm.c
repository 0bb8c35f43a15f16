/* Micro-benchmark behind a stage-1 design choice: X = A V with A symmetric
 * (m x m, lower triangle) and V m x k (k = 64, the band width), by cuBLAS
 * DSYMM, by one DGEMM on the full matrix, and by blocked DGEMMs that read
 * only the lower triangle (block columns of width b: X[j:] += A[j:, j] V[j],
 * X[j] += A[j+b:, j]^T V[j+b:]); and the trailing DSYR2K (k = 128) for scale.
 * Built with -DHYLA_BENCH=ON (bench/CMakeLists.txt) as build/bin/symm_gemm. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

static float ms_of(cudaEvent_t a, cudaEvent_t b) {
    float ms;
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    return ms;
}

int main(void) {
    const int ms[] = {16000, 12000, 8000, 4000};
    const int k = 64, b = 2048, reps = 5;
    cublasHandle_t h;
    cublasCreate(&h);
    double *A, *V, *X, *W;
    const size_t M = 16384;
    cudaMalloc((void **)&A, M * M * 8);
    cudaMalloc((void **)&V, M * 128 * 8);
    cudaMalloc((void **)&X, M * 128 * 8);
    cudaMalloc((void **)&W, M * 128 * 8);
    cudaMemset(A, 0, M * M * 8);
    cudaMemset(V, 0, M * 128 * 8);
    cudaMemset(W, 0, M * 128 * 8);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    const double one = 1, zero = 0, mone = -1;
    printf("%6s %10s %10s %10s %10s   (TFLOP/s; symm/gemm/blocked: 2 m^2 k, syr2k: 2 m^2 128)\n",
           "m", "dsymm", "dgemm", "blocked", "dsyr2k");
    for (int t = 0; t < 4; t++) {
        const int m = ms[t];
        const double f = 2.0 * m * (double)m * k;
        float tm[4];
        for (int v = 0; v < 4; v++) {
            for (int r = 0; r <= reps; r++) {
                if (r == 1) cudaEventRecord(e0, 0);
                if (v == 0)
                    cublasDsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, k, &one, A, (int)M,
                                V, (int)M, &zero, X, (int)M);
                else if (v == 1)
                    cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, k, m, &one, A, (int)M, V, (int)M,
                                &zero, X, (int)M);
                else if (v == 2) {
                    for (int j = 0; j < m; j += b) {
                        const int w = m - j < b ? m - j : b, rest = m - j - w;
                        /* diagonal block and below: X[j:] += A[j:, j:j+w] V[j:j+w] */
                        cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m - j, k, w, &one,
                                    A + j + (size_t)j * M, (int)M, V + j, (int)M,
                                    j == 0 ? &zero : &one, X + j, (int)M);
                        if (rest > 0)
                            cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, w, k, rest, &one,
                                        A + j + w + (size_t)j * M, (int)M, V + j + w, (int)M, &one,
                                        X + j, (int)M);
                    }
                } else
                    cublasDsyr2k(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, m, 128, &mone, V, (int)M,
                                 W, (int)M, &one, A, (int)M);
            }
            cudaEventRecord(e1, 0);
            tm[v] = ms_of(e0, e1) / reps;
        }
        printf("%6d %10.2f %10.2f %10.2f %10.2f   ms: %.3f %.3f %.3f %.3f\n", m, f / tm[0] * 1e-9,
               f / tm[1] * 1e-9, f / tm[2] * 1e-9, 2.0 * m * (double)m * 128 / tm[3] * 1e-9, tm[0],
               tm[1], tm[2], tm[3]);
    }
    return 0;
}
