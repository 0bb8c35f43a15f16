/* Probe of the host<->GPU link as hyla's streaming GEMM sees it: H2D/D2H
 * rates from pinned, registered and pageable memory; the cost of
 * cudaHostRegister; multi-threaded pack (pageable -> pinned) bandwidth.
 * Built with -DHYLA_BENCH=ON (bench/CMakeLists.txt) as build/bin/host_link. */
#include <cuda_runtime_api.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv) {
    size_t gb = argc > 1 ? (size_t)atol(argv[1]) : 4;
    size_t bytes = gb << 30;
    char *page = malloc(bytes), *pin, *dev;
    memset(page, 1, bytes);
    CK(cudaMalloc((void **)&dev, bytes));
    CK(cudaMallocHost((void **)&pin, bytes));
    memset(pin, 2, bytes);
    cudaStream_t s; CK(cudaStreamCreate(&s));
    double t;
    for (int rep = 0; rep < 2; rep++) {
        t = now(); CK(cudaMemcpyAsync(dev, pin, bytes, cudaMemcpyHostToDevice, s)); CK(cudaStreamSynchronize(s));
        printf("H2D pinned     %6.1f GB/s\n", bytes / (now() - t) / 1e9);
        t = now(); CK(cudaMemcpyAsync(pin, dev, bytes, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s));
        printf("D2H pinned     %6.1f GB/s\n", bytes / (now() - t) / 1e9);
        t = now(); CK(cudaMemcpy(dev, page, bytes, cudaMemcpyHostToDevice));
        printf("H2D pageable   %6.1f GB/s\n", bytes / (now() - t) / 1e9);
    }
    t = now(); CK(cudaHostRegister(page, bytes, cudaHostRegisterDefault));
    double treg = now() - t;
    printf("register %zu GiB: %.3f s (%.1f GB/s)\n", gb, treg, bytes / treg / 1e9);
    t = now(); CK(cudaMemcpyAsync(dev, page, bytes, cudaMemcpyHostToDevice, s)); CK(cudaStreamSynchronize(s));
    printf("H2D registered %6.1f GB/s\n", bytes / (now() - t) / 1e9);
    t = now(); CK(cudaHostUnregister(page));
    printf("unregister: %.3f s\n", now() - t);
    int threads[] = {1, 2, 4, 8, 12, 16};
    for (int i = 0; i < 6; i++) {
        int nt = threads[i];
        for (int rep = 0; rep < 2; rep++) {
            t = now();
#pragma omp parallel for num_threads(nt) schedule(static)
            for (long c = 0; c < 1024; c++) memcpy(pin + c * (bytes / 1024), page + c * (bytes / 1024), bytes / 1024);
            double dt = now() - t;
            if (rep) printf("pack %2d threads %6.1f GB/s\n", nt, bytes / dt / 1e9);
        }
    }
    /* pack concurrent with DMA */
    for (int nt = 4; nt <= 8; nt += 4) {
        t = now();
        CK(cudaMemcpyAsync(dev, pin, bytes / 2, cudaMemcpyHostToDevice, s));
#pragma omp parallel for num_threads(nt) schedule(static)
        for (long c = 0; c < 512; c++) memcpy(pin + bytes / 2 + c * (bytes / 1024), page + c * (bytes / 1024), bytes / 1024);
        double tp = now() - t;
        CK(cudaStreamSynchronize(s));
        printf("pack %d thr during DMA: pack %.1f GB/s, both done %.3f s\n", nt, bytes / 2 / tp / 1e9, now() - t);
    }
    return 0;
}
