/* Probe for tuning the Cholesky panel width on a GPU host: times
 * hyla_dpotrf (host-resident), hyla_dpotrf_gpu (device-resident) and
 * cuSOLVER's dpotrf on the same device-resident matrix, for several nb.
 * Built with -DHYLA_BENCH=ON (bench/CMakeLists.txt) as build/bin/chol_probe.
 * Usage: chol_probe UPLO N NB[,NB...] [REPEAT] */
#include "hyla.h"
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void spd(double *A, long n) {
#pragma omp parallel for schedule(static)
    for (long j = 0; j < n; j++) {
        unsigned s = 12345u + 7919u * (unsigned)j;
        for (long i = 0; i < n; i++) {
            long a = i < j ? i : j, b = i < j ? j : i; /* symmetric: hash of (a, b) */
            unsigned h = (unsigned)(a * 2654435761u) ^ (unsigned)(b * 40503u + 977u);
            h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
            A[i + j * n] = (h & 0xffff) / 32768.0 - 1.0 + (i == j ? (double)n : 0.0);
        }
        (void)s;
    }
}

/* ||A0 x - L (L^T x)|| / (||A0|| ||x|| n eps), lower factor in F */
static double check(const double *A0, const double *F, long n, int lower) {
    double *x = malloc(n * 8), *y = malloc(n * 8), *z = malloc(n * 8);
    for (long i = 0; i < n; i++) x[i] = sin(i + 1.0);
    for (long i = 0; i < n; i++) { /* y = L^T x */
        double s = 0;
        for (long k = i; k < n; k++) s += (lower ? F[k + i * n] : F[i + k * n]) * x[k];
        y[i] = s;
    }
    double num = 0, an = 0, xn = 0;
    for (long i = 0; i < n; i++) {
        double s = 0, t = 0;
        for (long k = 0; k <= i; k++) s += (lower ? F[i + k * n] : F[k + i * n]) * y[k];
        for (long k = 0; k < n; k++) t += A0[i + k * n] * x[k];
        z[i] = s - t;
        num += z[i] * z[i];
        xn += x[i] * x[i];
        an = fmax(an, fabs(A0[i + i * n]));
    }
    free(x); free(y); free(z);
    return sqrt(num) / (an * n * sqrt(xn) * n * 2.2e-16);
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: chol_probe UPLO N NB[,NB] [REPEAT]\n"); return 2; }
    char uplo = argv[1][0];
    long n = atol(argv[2]);
    int rep = argc > 4 ? atoi(argv[4]) : 2;
    double flops = (double)n * n * n / 3;
    size_t bytes = (size_t)n * n * 8;
    hyla_t *ctx;
    if (hyla_create(&ctx, getenv("HYLA_DEVICES") ? getenv("HYLA_DEVICES") : "cuda")) return 1;
    if (n > 40000) { /* host-resident only (out of core on one GPU) */
        double *A = malloc(bytes);
        hyla_set_option(ctx, HYLA_OPT_POTRF_NB, atol(argv[3]));
        for (int r = 0; r < rep; r++) {
            spd(A, n);
            double t0 = now();
            int info = hyla_dpotrf(ctx, uplo, n, A, n);
            double t = now() - t0;
            hyla_chol_stats st;
            hyla_get_chol_stats(ctx, &st);
            printf("n=%ld uplo=%c nb=%ld host-resident: %.3f s %.1f TF/s info %d ooc %d resident %lld h2d %.1f GB d2h %.1f GB\n",
                   n, uplo, st.nb, t, flops / t / 1e12, info, st.out_of_core,
                   (long long)st.resident_cols, st.bytes_h2d / 1e9, st.bytes_d2h / 1e9);
            fflush(stdout);
        }
        hyla_destroy(&ctx);
        return 0;
    }
    double *A0 = malloc(bytes), *A = malloc(bytes);
    spd(A0, n);
    double *dA;
    cudaMalloc((void **)&dA, bytes);
    /* vendor */
    cusolverDnHandle_t h;
    cusolverDnCreate(&h);
    cusolverDnParams_t par;
    cusolverDnCreateParams(&par);
    size_t wd = 0, wh = 0;
    cublasFillMode_t fm = (uplo == 'L') ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    cusolverDnXpotrf_bufferSize(h, par, fm, n, CUDA_R_64F, dA, n, CUDA_R_64F, &wd, &wh);
    void *work, *hwork = malloc(wh + 1);
    int *dinfo;
    cudaMalloc(&work, wd);
    cudaMalloc((void **)&dinfo, 4);
    double tv = 1e30;
    for (int r = 0; r < rep; r++) {
        cudaMemcpy(dA, A0, bytes, cudaMemcpyHostToDevice);
        cudaDeviceSynchronize();
        double t0 = now();
        cusolverDnXpotrf(h, par, fm, n, CUDA_R_64F, dA, n, CUDA_R_64F, work, wd, hwork, wh, dinfo);
        cudaDeviceSynchronize();
        tv = fmin(tv, now() - t0);
    }
    printf("n=%ld uplo=%c cusolver(device) %.4f s %.1f TF/s\n", n, uplo, tv, flops / tv / 1e12);
    cudaFree(work);
    for (char *p = argv[3]; p && *p;) {
        long nb = atol(p);
        hyla_set_option(ctx, HYLA_OPT_POTRF_NB, nb);
        double tg = 1e30, th = 1e30;
        int ig = 0, ih = 0;
        for (int r = 0; r < rep; r++) {
            cudaMemcpy(dA, A0, bytes, cudaMemcpyHostToDevice);
            cudaDeviceSynchronize();
            double t0 = now();
            ig = hyla_dpotrf_gpu(ctx, 0, uplo, n, dA, n);
            tg = fmin(tg, now() - t0);
        }
        cudaMemcpy(A, dA, bytes, cudaMemcpyDeviceToHost);
        double rg = n <= 20000 ? check(A0, A, n, uplo == 'L') : -1;
        for (int r = 0; r < rep; r++) {
            memcpy(A, A0, bytes);
            double t0 = now();
            ih = hyla_dpotrf(ctx, uplo, n, A, n);
            th = fmin(th, now() - t0);
        }
        double rh = n <= 20000 ? check(A0, A, n, uplo == 'L') : -1;
        hyla_chol_stats st;
        hyla_get_chol_stats(ctx, &st);
        printf("n=%ld uplo=%c nb=%ld  gpu: %.4f s %.1f TF/s info %d res %.2g | host-resident: %.4f s %.1f TF/s info %d res %.2g ooc %d | vs cusolver %.2fx / %.2fx\n",
               n, uplo, nb, tg, flops / tg / 1e12, ig, rg, th, flops / th / 1e12, ih, rh,
               st.out_of_core, tv / tg, tv / th);
        fflush(stdout);
        p = strchr(p, ',');
        if (p) p++;
    }
    hyla_destroy(&ctx);
    return 0;
}
