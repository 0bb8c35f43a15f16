/* Probe of the links between the GPUs of one host as the multi-device
 * eigensolver uses them: for every ordered pair, whether peer access is
 * possible (cudaDeviceCanAccessPeer) and its performance rank; then the
 * rate of one device-to-device copy (cudaMemcpyAsync, cudaMemcpyDefault,
 * the way hyla's copy_2d issues it) with peer access enabled, pair by pair;
 * then every device pulling from the next one at once (the ring of the
 * Z = Q E exchange), and every device pulling while it runs a DGEMM (the
 * overlap the exchange counts on).
 * Usage: peer_link [MiB per copy, default 1024] [repeats, default 3]
 * Built with -DHYLA_BENCH=ON (bench/CMakeLists.txt) as build/bin/peer_link. */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { MAXD = 16 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_) {                                                                                  \
            printf("%s: %s\n", #x, cudaGetErrorString(e_));                                        \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv) {
    const size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 1024;
    const int reps = argc > 2 ? atoi(argv[2]) : 3;
    const size_t bytes = mib << 20;
    int nd = 0;
    void *src[MAXD], *dst[MAXD];
    cudaStream_t st[MAXD];
    CK(cudaGetDeviceCount(&nd));
    if (nd > MAXD) nd = MAXD;
    printf("%% peer_link: %d devices, %zu MiB per copy, best of %d\n", nd, mib, reps);
    printf("%% access (row: the device that reads; rank: cudaDevP2PAttrPerformanceRank)\n");
    for (int a = 0; a < nd; a++) {
        printf("  dev %d:", a);
        for (int b = 0; b < nd; b++) {
            int can = 0, rank = -1;
            if (a != b) {
                CK(cudaDeviceCanAccessPeer(&can, a, b));
                if (cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b))
                    (void)cudaGetLastError(), rank = -1;
            }
            printf("  %d:%s/%d", b, a == b ? "-" : can ? "yes" : "no", rank);
        }
        printf("\n");
    }
    for (int a = 0; a < nd; a++) {
        CK(cudaSetDevice(a));
        for (int b = 0; b < nd; b++) {
            int can = 0;
            if (a == b) continue;
            CK(cudaDeviceCanAccessPeer(&can, a, b));
            if (can && cudaDeviceEnablePeerAccess(b, 0)) (void)cudaGetLastError();
        }
        CK(cudaMalloc(&src[a], bytes));
        CK(cudaMalloc(&dst[a], bytes));
        CK(cudaMemset(src[a], 1, bytes));
        CK(cudaStreamCreate(&st[a]));
    }
    printf("%% one copy at a time, GB/s (row: destination, column: source)\n");
    for (int a = 0; a < nd; a++) {
        printf("  to %d:", a);
        for (int b = 0; b < nd; b++) {
            double best = 1e30;
            CK(cudaSetDevice(a));
            for (int r = 0; r < reps; r++) {
                const double t = now();
                CK(cudaMemcpyAsync(dst[a], src[b], bytes, cudaMemcpyDefault, st[a]));
                CK(cudaStreamSynchronize(st[a]));
                if (now() - t < best) best = now() - t;
            }
            printf(" %8.1f", bytes / best / 1e9);
        }
        printf("\n");
    }
    if (nd < 2) return 0;
    /* every device pulls from the next one at once */
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        const double t = now();
        for (int a = 0; a < nd; a++) {
            CK(cudaSetDevice(a));
            CK(cudaMemcpyAsync(dst[a], src[(a + 1) % nd], bytes, cudaMemcpyDefault, st[a]));
        }
        for (int a = 0; a < nd; a++) CK(cudaStreamSynchronize(st[a]));
        if (now() - t < best) best = now() - t;
    }
    printf("%% ring, all at once: %.1f GB/s per device\n", bytes / best / 1e9);
    /* the same pulls beside a DGEMM (n = 8192) on every device */
    {
        const int n = 8192;
        double *A[MAXD], *C[MAXD];
        cublasHandle_t h[MAXD];
        cudaStream_t sg[MAXD];
        const double one = 1, zero = 0;
        double tg = 1e30, tb = 1e30;
        for (int a = 0; a < nd; a++) {
            CK(cudaSetDevice(a));
            CK(cudaMalloc((void **)&A[a], (size_t)n * n * sizeof(double)));
            CK(cudaMalloc((void **)&C[a], (size_t)n * n * sizeof(double)));
            CK(cudaMemset(A[a], 0, (size_t)n * n * sizeof(double)));
            CK(cudaStreamCreate(&sg[a]));
            if (cublasCreate(&h[a]) || cublasSetStream(h[a], sg[a])) return 1;
        }
        for (int r = 0; r < reps; r++) {
            double t = now();
            for (int a = 0; a < nd; a++) {
                CK(cudaSetDevice(a));
                if (cublasDgemm(h[a], CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A[a], n, A[a], n,
                                &zero, C[a], n))
                    return 1;
            }
            for (int a = 0; a < nd; a++) CK(cudaStreamSynchronize(sg[a]));
            if (now() - t < tg) tg = now() - t;
            t = now();
            for (int a = 0; a < nd; a++) {
                CK(cudaSetDevice(a));
                CK(cudaMemcpyAsync(dst[a], src[(a + 1) % nd], bytes, cudaMemcpyDefault, st[a]));
                if (cublasDgemm(h[a], CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A[a], n, A[a], n,
                                &zero, C[a], n))
                    return 1;
            }
            for (int a = 0; a < nd; a++) {
                CK(cudaStreamSynchronize(st[a]));
                CK(cudaStreamSynchronize(sg[a]));
            }
            if (now() - t < tb) tb = now() - t;
        }
        printf("%% DGEMM n = %d on every device: %.4f s alone, %.4f s with the ring's pulls "
               "(%.1f GB/s per device if the copy alone set the time)\n",
               n, tg, tb, bytes / tb / 1e9);
    }
    return 0;
}
