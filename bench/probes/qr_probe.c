/* Probe of the stage-1 panel QR on a GPU: cuSOLVER's Xgeqrf against the
 * fused QR panel kernel (backend/cuda/k_geqrf_panel.cu) on the m x k panels
 * that sy2sb factors, the kernel on its own choice of CTAs and on a few
 * fixed counts. CUDA events around each call, median of REPEAT after a
 * warm-up, a fresh copy of the same random panel each time; the largest
 * difference of |R(i,i)| between the two (relative to |R(0,0)|) is printed
 * so that a broken kernel cannot pass for a fast one. Built with
 * -DHYLA_BENCH=ON as build/bin/qr_probe.
 * Usage: qr_probe TYPES M[,M...] K [REPEAT]   (TYPES among d,z) */
#include "backend/cuda/k_geqrf_panel.h"
#include "hyla.h"
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmpf(const void *a, const void *b) {
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* |R(i,i)| for i < k from the factored panel on the device */
static void rdiag(const void *dA, long m, long k, size_t es, int cplx, double *out) {
    unsigned char *h = malloc((size_t)m * (size_t)k * es);
    if (!h) return;
    cudaMemcpy(h, dA, (size_t)m * (size_t)k * es, cudaMemcpyDeviceToHost);
    for (long i = 0; i < k; i++) {
        const double *p = (const double *)(h + (size_t)(i + i * m) * es);
        out[i] = cplx ? hypot(p[0], p[1]) : fabs(p[0]);
    }
    free(h);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: qr_probe TYPES M[,M...] K [REPEAT]\n");
        return 2;
    }
    const long k = atol(argv[3]);
    const int repeat = argc > 4 ? atoi(argv[4]) : 5;
    const int fixed[] = {0, 16, 33, 66, 132};
    const int nfixed = (int)(sizeof fixed / sizeof fixed[0]);
    cusolverDnHandle_t sh;
    cusolverDnParams_t sp;
    cudaEvent_t e0, e1;
    cudaStream_t st;
    if (k < 1 || k > HYLA_CUDA_GEQRF_PANEL_MAX_N || repeat < 1 || cusolverDnCreate(&sh) != 0) {
        fprintf(stderr, "qr_probe: bad arguments or no device\n");
        return 2;
    }
    cusolverDnCreateParams(&sp);
    cudaStreamCreate(&st);
    cusolverDnSetStream(sh, st);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    float *times = malloc(sizeof(float) * (size_t)repeat);
    printf("%% qr_probe: panel QR of m x %ld, milliseconds (median of %d); kernel:N = fused "
           "kernel on at most N CTAs (0: its own choice); rdiff: max ||R_ii| - |R_ii|_vendor| / "
           "|R_00|\n",
           k, repeat);
    printf("%4s %7s %10s", "type", "m", "Xgeqrf");
    for (int c = 0; c < nfixed; c++) printf("   kernel:%-4d", fixed[c]);
    printf(" %10s\n", "rdiff");
    for (const char *tp = argv[1]; *tp; tp++) {
        if (*tp != 'd' && *tp != 'z') continue;
        const int cplx = *tp == 'z', dt = cplx ? HYLA_Z : HYLA_D;
        const size_t es = cplx ? 16 : 8;
        const cudaDataType ct = cplx ? CUDA_C_64F : CUDA_R_64F;
        for (const char *p = argv[2]; *p;) {
            const long m = strtol(p, (char **)&p, 10);
            if (*p == ',') p++;
            if (m < k) continue;
            const size_t bytes = (size_t)m * (size_t)k * es;
            double *h = malloc(bytes), *r0 = malloc(sizeof(double) * (size_t)k),
                   *r1 = malloc(sizeof(double) * (size_t)k);
            void *dA0 = NULL, *dA = NULL, *dtau = NULL, *dw = NULL, *hw = NULL, *kw = NULL;
            int *dinfo = NULL;
            size_t db = 0, hb = 0;
            srand(11);
            for (size_t i = 0; i < bytes / 8; i++) h[i] = (double)rand() / RAND_MAX - 0.5;
            cudaMalloc(&dA0, bytes);
            cudaMalloc(&dA, bytes);
            cudaMalloc(&dtau, (size_t)k * es);
            cudaMalloc((void **)&dinfo, sizeof(int));
            cudaMemcpy(dA0, h, bytes, cudaMemcpyHostToDevice);
            cusolverDnXgeqrf_bufferSize(sh, sp, m, k, ct, dA, m, ct, dtau, ct, &db, &hb);
            cudaMalloc(&dw, db + 16);
            hw = malloc(hb + 16);
            float med[8];
            for (int c = -1; c < nfixed; c++) {
                hyla_cuda_qr_plan plan;
                if (c >= 0) {
                    if (hyla_cuda_geqrf_panel_plan(dt, m, k, fixed[c], &plan) != 0) {
                        med[c + 1] = -1;
                        continue;
                    }
                    cudaFree(kw);
                    kw = NULL;
                    cudaMalloc(&kw, plan.work_bytes + 16);
                }
                for (int r = -1; r < repeat; r++) {
                    float ms = 0;
                    cudaMemcpyAsync(dA, dA0, bytes, cudaMemcpyDeviceToDevice, st);
                    cudaEventRecord(e0, st);
                    if (c < 0)
                        cusolverDnXgeqrf(sh, sp, m, k, ct, dA, m, ct, dtau, ct, dw, db, hw, hb,
                                         dinfo);
                    else
                        hyla_cuda_geqrf_panel(st, &plan, dA, m, dtau, dinfo, kw);
                    cudaEventRecord(e1, st);
                    cudaEventSynchronize(e1);
                    cudaEventElapsedTime(&ms, e0, e1);
                    if (r >= 0) times[r] = ms;
                }
                qsort(times, (size_t)repeat, sizeof(float), cmpf);
                med[c + 1] = times[repeat / 2];
                rdiag(dA, m, k, es, cplx, c < 0 ? r0 : r1);
            }
            double rd = 0;
            for (long i = 0; i < k; i++) rd = fmax(rd, fabs(r0[i] - r1[i]) / r0[0]);
            printf("%4c %7ld %10.3f", *tp, m, med[0]);
            for (int c = 0; c < nfixed; c++) printf("   %11.3f", med[c + 1]);
            printf(" %10.2e\n", rd);
            cudaFree(dA0);
            cudaFree(dA);
            cudaFree(dtau);
            cudaFree(dinfo);
            cudaFree(dw);
            cudaFree(kw);
            free(hw);
            free(h);
            free(r0);
            free(r1);
        }
    }
    if (cudaDeviceSynchronize() != cudaSuccess) {
        fprintf(stderr, "qr_probe: CUDA error %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    return 0;
}
