/* Probe for stage 1 of the eigensolver on a GPU host: rates of the cuBLAS
 * calls sy2sb makes at its shapes (DSYMM m x m times m x k, DSYR2K rank 2k,
 * the same products as DGEMM), of cuSOLVER's Xgeqrf on the m x k panel, and
 * of the host panel QR (LAPACKE dgeqrt3 on
 * m x k, all OpenBLAS threads), so the critical path of sy2sb can be
 * estimated per panel width k.
 * Built with -DHYLA_BENCH=ON (bench/CMakeLists.txt) as build/bin/eig_probe.
 * Usage: eig_probe M K[,K...] */
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cuda_runtime.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
    long m = argc > 1 ? atol(argv[1]) : 16384;
    const char *ks = argc > 2 ? argv[2] : "32,64,128,256";
    double *A, *V, *X, one = 1, zero = 0, mone = -1;
    cublasHandle_t h;
    cudaEvent_t e0, e1;
    cudaMalloc((void **)&A, sizeof(double) * m * m);
    cudaMalloc((void **)&V, sizeof(double) * m * 512);
    cudaMalloc((void **)&X, sizeof(double) * m * 512);
    cudaMemset(A, 0, sizeof(double) * m * m);
    cudaMemset(V, 0, sizeof(double) * m * 512);
    cublasCreate(&h);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    double *hp = malloc(sizeof(double) * m * 512), *T = malloc(sizeof(double) * 512 * 512);
    cusolverDnHandle_t sh;
    cusolverDnParams_t sp;
    cusolverDnCreate(&sh);
    cusolverDnCreateParams(&sp);
    printf("m %ld\n%6s %12s %12s %12s %12s %12s %12s %12s\n", m, "k", "symm TF/s", "gemm TF/s",
           "syr2k TF/s", "2gemm TF/s", "geqrt3 ms", "geqrt3 GF/s", "Xgeqrf ms");
    for (const char *p = ks; *p;) {
        long k = strtol(p, (char **)&p, 10);
        if (*p == ',') p++;
        float ms[4];
        for (int w = 0; w < 2; w++) { /* second pass timed */
            cudaEventRecord(e0, 0);
            cublasDsymm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, k, &one, A, m, V, m, &zero, X, m);
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            cudaEventElapsedTime(&ms[0], e0, e1);
            cudaEventRecord(e0, 0);
            cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, k, m, &one, A, m, V, m, &zero, X, m);
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            cudaEventElapsedTime(&ms[1], e0, e1);
            cudaEventRecord(e0, 0);
            cublasDsyr2k(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, m, k, &mone, V, m, X, m, &one, A, m);
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            cudaEventElapsedTime(&ms[2], e0, e1);
            cudaEventRecord(e0, 0);
            cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, m, k, &mone, V, m, X, m, &one, A, m);
            cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, m, k, &mone, X, m, V, m, &one, A, m);
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            cudaEventElapsedTime(&ms[3], e0, e1);
        }
        for (long i = 0; i < m * k; i++) hp[i] = (double)rand() / RAND_MAX - 0.5;
        /* device QR of the same panel (X holds it; V's first k entries get tau) */
        size_t db = 0, hb = 0;
        void *dw = NULL, *hw = NULL;
        int *dinfo = NULL;
        float qms = 0;
        cusolverDnXgeqrf_bufferSize(sh, sp, m, k, CUDA_R_64F, X, m, CUDA_R_64F, V, CUDA_R_64F, &db, &hb);
        cudaMalloc(&dw, db + 16);
        cudaMalloc((void **)&dinfo, sizeof(int));
        hw = malloc(hb + 16);
        for (int w = 0; w < 2; w++) {
            cudaMemcpy(X, hp, sizeof(double) * m * k, cudaMemcpyHostToDevice);
            cudaEventRecord(e0, 0);
            cusolverDnXgeqrf(sh, sp, m, k, CUDA_R_64F, X, m, CUDA_R_64F, V, CUDA_R_64F, dw, db, hw, hb, dinfo);
            cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1);
            cudaEventElapsedTime(&qms, e0, e1);
        }
        cudaFree(dw);
        cudaFree(dinfo);
        free(hw);
        double t0 = now();
        LAPACKE_dgeqrt3_work(LAPACK_COL_MAJOR, m, k, hp, m, T, k);
        double tq = now() - t0;
        double fs = 2.0 * m * m * k, fr = 2.0 * m * m * k, fq = 2.0 * m * k * k;
        printf("%6ld %12.2f %12.2f %12.2f %12.2f %12.3f %12.1f %12.3f\n", k, fs / ms[0] * 1e-9,
               fs / ms[1] * 1e-9, fr / ms[2] * 1e-9, 2 * fr / ms[3] * 1e-9, tq * 1e3,
               fq / tq * 1e-9, qms);
    }
    return 0;
}
