/* Micro-benchmark behind a Q2 design choice (eig/psb2st.c): the two
 * strided-batched DGEMMs that apply one wave of Q2's block reflectors, in
 * the shapes of n = ncols = 16384, kd = 64 and nb = 32, 64, 128 sweeps a
 * group, cnt groups a batch at a row stride of kd + nb:
 *   W = V^T Z(rows)      (nb x ncols, TN)      W = Vt Z(rows) (V stored transposed, NN)
 *   Z(rows) -= V W       (NN)
 *   W' = Z(rows)^T V     (ncols x nb, TN, W kept transposed)
 *   Z(rows) -= V W'^T    (NT)
 * Each is timed over 5 calls after one; TF/s counts 2 nb ncols ldv cnt,
 * GB/s the bytes each must move (Z's rows once, twice for the updates, and
 * W). The data are zeros: the time does not depend on the values. Built
 * with -DHYLA_BENCH=ON (bench/CMakeLists.txt) as build/bin/q2_gemm. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nb, ldv, zs, nc, cnt, ldz, mode;
    double *V, *Vt, *Z, *W;
} shape;

static cublasStatus_t run(cublasHandle_t h, const shape *p) {
    const double one = 1, zero = 0, mone = -1;
    const long long sv = (long long)p->ldv * p->nb, sw = (long long)p->nb * p->nc;
    switch (p->mode) {
    case 0:
        return cublasDgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, p->nb, p->nc, p->ldv, &one,
                                         p->V, p->ldv, sv, p->Z, p->ldz, p->zs, &zero, p->W, p->nb,
                                         sw, p->cnt);
    case 1:
        return cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, p->nb, p->nc, p->ldv, &one,
                                         p->Vt, p->nb, sv, p->Z, p->ldz, p->zs, &zero, p->W, p->nb,
                                         sw, p->cnt);
    case 2:
        return cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, p->ldv, p->nc, p->nb, &mone,
                                         p->V, p->ldv, sv, p->W, p->nb, sw, &one, p->Z, p->ldz,
                                         p->zs, p->cnt);
    case 3:
        return cublasDgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, p->nc, p->nb, p->ldv, &one,
                                         p->Z, p->ldz, p->zs, p->V, p->ldv, sv, &zero, p->W, p->nc,
                                         sw, p->cnt);
    default:
        return cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_T, p->ldv, p->nc, p->nb, &mone,
                                         p->V, p->ldv, sv, p->W, p->nc, sw, &one, p->Z, p->ldz,
                                         p->zs, p->cnt);
    }
}

/* seconds a call, or < 0 on an error */
static double time_of(cublasHandle_t h, const shape *p, int reps) {
    cudaEvent_t e0, e1;
    float ms = -1;
    if (cudaEventCreate(&e0) != cudaSuccess) return -1;
    if (cudaEventCreate(&e1) != cudaSuccess) {
        cudaEventDestroy(e0);
        return -1;
    }
    int bad = run(h, p) != CUBLAS_STATUS_SUCCESS || cudaDeviceSynchronize() != cudaSuccess;
    cudaEventRecord(e0, 0);
    for (int i = 0; i < reps && !bad; i++) bad = run(h, p) != CUBLAS_STATUS_SUCCESS;
    cudaEventRecord(e1, 0);
    if (!bad && cudaEventSynchronize(e1) == cudaSuccess) cudaEventElapsedTime(&ms, e0, e1);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return bad || ms < 0 ? -1 : ms / 1e3 / reps;
}

int main(void) {
    const int n = 16384, kd = 64;
    const size_t zbytes = (size_t)n * n * 8, vbytes = (size_t)256 * 512 * 128 * 8,
                 wbytes = (size_t)1 << 31;
    static const char *names[] = {"W=V^T Z  TN", "W=Vt Z   NN", "Z-=V W   NN", "W'=Z^T V TN",
                                  "Z-=V W'^T NT"};
    cublasHandle_t h;
    double *Z = NULL, *V = NULL, *Vt = NULL, *W = NULL;
    int rc = 1;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "q2_gemm: no cuBLAS handle\n");
        return 1;
    }
    if (cudaMalloc((void **)&Z, zbytes) != cudaSuccess ||
        cudaMalloc((void **)&V, vbytes) != cudaSuccess ||
        cudaMalloc((void **)&Vt, vbytes) != cudaSuccess ||
        cudaMalloc((void **)&W, wbytes) != cudaSuccess || cudaMemset(Z, 0, zbytes) != cudaSuccess ||
        cudaMemset(V, 0, vbytes) != cudaSuccess || cudaMemset(Vt, 0, vbytes) != cudaSuccess ||
        cudaMemset(W, 0, wbytes) != cudaSuccess) {
        fprintf(stderr, "q2_gemm: out of device memory\n");
        goto done;
    }
    for (int nb = 32; nb <= 128; nb *= 2)
        for (int cnt = 16; cnt <= 64; cnt *= 2) {
            shape p = {nb, kd + nb - 1, kd + nb, n, cnt, n, 0, V, Vt, Z, W};
            if ((size_t)p.nb * p.nc * cnt * 8 > wbytes || (cnt - 1) * p.zs + p.ldv > n) continue;
            for (int mode = 0; mode < 5; mode++) {
                p.mode = mode;
                const double t = time_of(h, &p, 5);
                if (t < 0) {
                    fprintf(stderr, "q2_gemm: nb %d cnt %d %s failed\n", nb, cnt, names[mode]);
                    goto done;
                }
                const double fl = 2.0 * p.nb * p.nc * (double)p.ldv * cnt;
                const double by = 8.0 * ((mode == 2 || mode == 4 ? 2.0 : 1.0) * p.ldv *
                                             (double)p.nc * cnt +
                                         (double)p.nb * p.nc * cnt);
                printf("nb %3d cnt %3d %-14s %8.3f ms %6.1f TF/s %6.0f GB/s\n", nb, cnt,
                       names[mode], t * 1e3, fl / t / 1e12, by / t / 1e9);
            }
        }
    rc = 0;
done:
    cudaFree(Z);
    cudaFree(V);
    cudaFree(Vt);
    cudaFree(W);
    cublasDestroy(h);
    return rc;
}
