/* Probe of the multi-device eigensolver's Z = Q E exchange, outside hyla:
 * every device holds a block of columns of Q (n x n, double) and the rows
 * of E its block of Z needs (E n x n/nd, its columns of E); device g forms
 * Z[:, g's columns] = sum over the devices h of Q[:, h] E[h, g's columns],
 * the other devices' blocks of Q pulled in by chunks of CB columns into two
 * buffers (a copy queue and a GEMM queue, events between them), the way
 * src/eig/psyevd_mgpu.c's zgemm_main does. Each device's time is printed
 * for three variants, all devices at once:
 *   gemm   the same GEMMs on local data only (no copy): the compute floor;
 *   copy   the chunks' copies only: the exchange alone;
 *   both   the exchange as hyla runs it;
 *   alloc  both, each device's thread also allocating (cudaMalloc) a
 *          buffer of its block's size as it starts and freeing it
 *          (cudaFree) when its queues are done, while the others run.
 * Where `both` is far above the larger of the two, the exchange and the
 * GEMMs hold each other up; where `gemm` alone is slow on several devices
 * at once, the devices' own speed (clocks, power) is the limit; where
 * `alloc` is far above `both`, an allocation or a free on one device waits
 * for its peers' work.
 * Usage: zqe_probe [n, default 32768] [CB, default 2048] [threads: 1 one
 * host thread per device (hyla's way, default), 0 one thread for all]
 * Built with -DHYLA_BENCH=ON (bench/CMakeLists.txt) as build/bin/zqe_probe. */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { MAXD = 16 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef struct {
    int g, nd, mode, sync; /* mode: 0 gemm, 1 copy, 2 both, 3 alloc; sync: wait for the queues */
    long n, cb, w;
    double *Q[MAXD]; /* every device's block of Q (n x w, ld n) */
    double *E, *Z, *S[2];
    cudaStream_t sc, si;
    cudaEvent_t in[2], use[2];
    cublasHandle_t h;
    double t0, t1;
    int err;
} job;

static void *run(void *arg) {
    job *j = arg;
    const double one = 1, zero = 0;
    int first = 1, nbuf = 0;
    if (cudaSetDevice(j->g)) {
        j->err = 1;
        return NULL;
    }
    void *tmp = NULL;
    j->t0 = now();
    if (j->mode == 3 && cudaMalloc(&tmp, (size_t)(j->n * j->w) * sizeof(double))) j->err = 1;
    for (int i = 0; i < j->nd; i++) {
        const int h = (j->g + i) % j->nd;
        for (long c = 0; c < j->w; c += j->cb) {
            const long cw = j->w - c < j->cb ? j->w - c : j->cb;
            const double *Qc = j->Q[h] + c * j->n, *A = j->Q[j->g] + c * j->n;
            if (h != j->g && j->mode >= 1) {
                const int b = nbuf++ % 2;
                cudaStreamWaitEvent(j->si, j->use[b], 0);
                cudaMemcpyAsync(j->S[b], Qc, (size_t)(j->n * cw) * sizeof(double), cudaMemcpyDefault,
                                j->si);
                cudaEventRecord(j->in[b], j->si);
                cudaStreamWaitEvent(j->sc, j->in[b], 0);
                A = j->S[b];
                if (j->mode >= 2 &&
                    cublasDgemm(j->h, CUBLAS_OP_N, CUBLAS_OP_N, (int)j->n, (int)j->w, (int)cw, &one,
                                A, (int)j->n, j->E + (long)h * j->w + c, (int)j->n,
                                first ? &zero : &one, j->Z, (int)j->n))
                    j->err = 1;
                cudaEventRecord(j->use[b], j->sc);
            } else if (j->mode != 1) {
                if (cublasDgemm(j->h, CUBLAS_OP_N, CUBLAS_OP_N, (int)j->n, (int)j->w, (int)cw, &one,
                                A, (int)j->n, j->E + (long)h * j->w + c, (int)j->n,
                                first ? &zero : &one, j->Z, (int)j->n))
                    j->err = 1;
            }
            first = 0;
        }
    }
    if (j->sync) {
        if (cudaStreamSynchronize(j->sc) || cudaStreamSynchronize(j->si)) j->err = 1;
        j->t1 = now();
    }
    if (tmp && cudaFree(tmp)) j->err = 1;
    return NULL;
}

int main(int argc, char **argv) {
    const long n = argc > 1 ? atol(argv[1]) : 32768, cb = argc > 2 ? atol(argv[2]) : 2048;
    const int threads = argc > 3 ? atoi(argv[3]) : 1;
    static const char *const names[4] = {"gemm", "copy", "both", "alloc"};
    int nd = 0;
    job jobs[MAXD];
    if (cudaGetDeviceCount(&nd) || nd < 1) return 1;
    if (nd > MAXD) nd = MAXD;
    const long w = n / nd;
    printf("%% zqe_probe: %d devices, n = %ld (%ld columns each), chunks of %ld, %s\n", nd, n, w, cb,
           threads ? "a host thread per device" : "one host thread");
    for (int g = 0; g < nd; g++) {
        job *j = &jobs[g];
        j->g = g, j->nd = nd, j->n = n, j->cb = cb, j->w = w, j->err = 0;
        if (cudaSetDevice(g)) return 1;
        for (int h = 0; h < nd; h++) {
            int can = 0;
            if (h != g && !cudaDeviceCanAccessPeer(&can, g, h) && can &&
                cudaDeviceEnablePeerAccess(h, 0))
                (void)cudaGetLastError();
        }
        if (cudaMalloc((void **)&j->Q[g], (size_t)(n * w) * sizeof(double)) ||
            cudaMalloc((void **)&j->E, (size_t)(n * w) * sizeof(double)) ||
            cudaMalloc((void **)&j->Z, (size_t)(n * w) * sizeof(double)) ||
            cudaMalloc((void **)&j->S[0], (size_t)(n * cb) * sizeof(double)) ||
            cudaMalloc((void **)&j->S[1], (size_t)(n * cb) * sizeof(double))) {
            printf("out of device memory\n");
            return 1;
        }
        cudaMemset(j->Q[g], 0, (size_t)(n * w) * sizeof(double));
        cudaMemset(j->E, 0, (size_t)(n * w) * sizeof(double));
        if (cudaStreamCreate(&j->sc) || cudaStreamCreate(&j->si)) return 1;
        for (int b = 0; b < 2; b++)
            if (cudaEventCreateWithFlags(&j->in[b], cudaEventDisableTiming) ||
                cudaEventCreateWithFlags(&j->use[b], cudaEventDisableTiming))
                return 1;
        if (cublasCreate(&j->h) || cublasSetStream(j->h, j->sc)) return 1;
    }
    for (int g = 0; g < nd; g++)
        for (int h = 0; h < nd; h++) jobs[g].Q[h] = jobs[h].Q[h];
    for (int g = 0; g < nd; g++) {
        cudaSetDevice(g);
        cudaDeviceSynchronize();
    }
    const double flop = 2.0 * n * n * w;
    for (int rep = 0; rep < 2; rep++)
        for (int mode = 0; mode < (threads ? 4 : 3); mode++) {
            pthread_t th[MAXD];
            int started[MAXD] = {0};
            const double t = now();
            for (int g = 0; g < nd; g++) {
                jobs[g].mode = mode, jobs[g].sync = threads;
                if (threads && g > 0) started[g] = !pthread_create(&th[g], NULL, run, &jobs[g]);
            }
            if (threads) {
                run(&jobs[0]);
                for (int g = 1; g < nd; g++)
                    if (started[g]) pthread_join(th[g], NULL);
                    else run(&jobs[g]);
            } else {
                for (int g = 0; g < nd; g++) run(&jobs[g]);
                for (int g = 0; g < nd; g++) {
                    cudaSetDevice(g);
                    if (cudaStreamSynchronize(jobs[g].sc) || cudaStreamSynchronize(jobs[g].si))
                        jobs[g].err = 1;
                    jobs[g].t1 = now();
                }
            }
            printf("%s %-4s", rep ? "  " : "% warmup", names[mode]);
            for (int g = 0; g < nd; g++)
                printf("  dev %d %.3f s%s", g, jobs[g].t1 - t, jobs[g].err ? " (error)" : "");
            if (mode != 1) {
                double worst = 0;
                for (int g = 0; g < nd; g++)
                    if (jobs[g].t1 - t > worst) worst = jobs[g].t1 - t;
                printf("  (%.1f TF/s per device at the slowest)", flop / worst / 1e12);
            }
            printf("\n");
        }
    return 0;
}
