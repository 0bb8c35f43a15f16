/* Probe of the GPU bulge chase alone (the backend's hb2st op, eigenvalues
 * only): the kernel's time on a random band of width kd already on the
 * device, CUDA events around the op, and that time over 2 n steps (the
 * critical path when sweep i trailed sweep i-1 by two whole steps; kept as
 * the unit so that figures compare across versions of the kernel,
 * k_hb2st.cu); then, from one more traced run, the average time of a
 * step's phases in the middle half of the sweeps (k_hb2st.h), and the
 * number of split steps that fell back to the whole window. PREFETCH 1
 * copies each step's next window ahead, 0 loads it after the wait, 2
 * splits each step at its late row (hyla_cuda_hb2st_probe); without it,
 * the tuning table's choice for the type on this GPU (core/tuning.c). With
 * 2 the wait phase also holds the wait for the handoff inside the step,
 * and "reflector+products" both of its parts. Built with -DHYLA_BENCH=ON as
 * build/bin/chase_probe.
 * Usage: chase_probe TYPES N[,N...] KD [REPEAT [PREFETCH]]   (TYPES among s,d,c,z) */
#include "backend/cuda/k_hb2st.h"
#include "core/internal.h"
#include "hyla.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tuning table's chase step for type t on the current GPU, as the
 * probe's prefetch (the step less one). */
static int table_mode(int t) {
    hyla_dev d;
    memset(&d, 0, sizeof d);
    int dev = 0;
    size_t fb = 0, tb = 0;
    d.info.kind = HYLA_DEVICE_CUDA;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&d.info.compute_major, cudaDevAttrComputeCapabilityMajor, dev) !=
            cudaSuccess ||
        cudaMemGetInfo(&fb, &tb) != cudaSuccess)
        return 0;
    d.phys_memory = (int64_t)tb;
    return (int)hyla_tuning_for(&d)->eig_chase_step[t] - 1;
}

static int type_of(char c) {
    switch (c) {
    case 's': return HYLA_S;
    case 'd': return HYLA_D;
    case 'c': return HYLA_C;
    case 'z': return HYLA_Z;
    default: return -1;
    }
}

/* the median of REPEAT chases of one random band (milliseconds), or < 0;
 * ph[0..5]: the traced run's phases per step (microseconds), ph[6] its
 * split steps that fell back to the whole window */
static double time_chase(int t, long n, long kd, int repeat, int pf, double ph[7]) {
    const size_t real = t == HYLA_S || t == HYLA_C ? 4 : 8, es = real * (t >= HYLA_C ? 2 : 1);
    const long ldab = 2 * kd, kde = kd < n - 1 ? kd : n - 1;
    const size_t band = (size_t)ldab * (size_t)n * es;
    unsigned char *h = malloc(band);
    void *dAB = NULL, *dAB0 = NULL, *dd = NULL, *de = NULL, *dw = NULL;
    long long *dtr = NULL, tr[8];
    double ms = -1;
    float *times = calloc((size_t)repeat, sizeof(float));
    if (!h || !times) goto done;
    memset(h, 0, band);
    srand(7);
    for (long j = 0; j < n; j++)
        for (long r = 0; r <= kde && j + r < n; r++)
            for (size_t p = 0; p < es / real; p++) {
                const double v = rand() / (double)RAND_MAX - 0.5;
                unsigned char *at = h + ((size_t)(r + j * ldab) * (es / real) + p) * real;
                if (real == 4) {
                    const float f = (float)v;
                    memcpy(at, &f, 4);
                } else {
                    memcpy(at, &v, 8);
                }
            }
    if (cudaMalloc(&dAB, band) || cudaMalloc(&dAB0, band) || cudaMalloc(&dd, (size_t)n * real) ||
        cudaMalloc(&de, (size_t)n * real) || cudaMalloc(&dw, HYLA_HB2ST_WORK_BYTES(n)) ||
        cudaMalloc((void **)&dtr, sizeof tr) ||
        cudaMemcpy(dAB0, h, band, cudaMemcpyHostToDevice))
        goto done;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    for (int k = -1; k < repeat; k++) { /* one warm-up */
        cudaMemcpy(dAB, dAB0, band, cudaMemcpyDeviceToDevice);
        cudaEventRecord(a, 0);
        if (hyla_cuda_hb2st_probe(0, t, n, kd, dAB, ldab, dd, de, dw, NULL, pf, NULL)) goto done;
        cudaEventRecord(b, 0);
        if (cudaEventSynchronize(b)) goto done;
        if (k >= 0) cudaEventElapsedTime(&times[k], a, b);
    }
    for (int i = 1; i < repeat; i++) /* insertion sort, then the median */
        for (int j = i; j > 0 && times[j] < times[j - 1]; j--) {
            const float x = times[j];
            times[j] = times[j - 1];
            times[j - 1] = x;
        }
    int dev = 0, khz = 0;
    if (cudaMemcpy(dAB, dAB0, band, cudaMemcpyDeviceToDevice) || cudaMemset(dtr, 0, sizeof tr) ||
        hyla_cuda_hb2st_probe(0, t, n, kd, dAB, ldab, dd, de, dw, NULL, pf, dtr) ||
        cudaMemcpy(tr, dtr, sizeof tr, cudaMemcpyDeviceToHost) || cudaGetDevice(&dev) ||
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) || tr[7] < 1 || khz < 1)
        goto done;
    for (int k = 0; k < 6; k++) ph[k] = 1e3 * (double)tr[k] / ((double)tr[7] * khz);
    ph[6] = (double)tr[6];
    ms = times[repeat / 2];
done:
    cudaFree(dAB);
    cudaFree(dAB0);
    cudaFree(dd);
    cudaFree(de);
    cudaFree(dw);
    cudaFree(dtr);
    free(h);
    free(times);
    return ms;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: chase_probe TYPES N[,N...] KD [REPEAT [PREFETCH]]\n");
        return 2;
    }
    const long kd = atol(argv[3]);
    const int repeat = argc > 4 ? atoi(argv[4]) : 3;
    const int pf = argc > 5 ? atoi(argv[5]) : -1; /* -1: the tuning table's */
    if (kd < 1 || kd > HYLA_CUDA_HB2ST_MAX_KD || repeat < 1 || pf < -1 || pf > 2) {
        fprintf(stderr, "chase_probe: KD in 1..%d, REPEAT >= 1, PREFETCH in 0..2\n",
                HYLA_CUDA_HB2ST_MAX_KD);
        return 2;
    }
    printf("%-4s %8s %4s %12s %14s  %s\n", "type", "n", "kd", "chase (ms)", "per step (us)",
           "traced step phases (us): wait load bulge reflector+products update publish; "
           "split steps fallen back");
    for (const char *tp = argv[1]; *tp; tp++) {
        if (*tp == ',') continue;
        const int t = type_of(*tp);
        if (t < 0) {
            fprintf(stderr, "chase_probe: unknown type %c\n", *tp);
            return 2;
        }
        for (char *s = argv[2]; *s;) {
            char *end;
            const long n = strtol(s, &end, 10);
            if (end == s || n < 2) {
                fprintf(stderr, "chase_probe: bad size list %s\n", argv[2]);
                return 2;
            }
            double ph[7];
            const double ms = time_chase(t, n, kd, repeat, pf >= 0 ? pf : table_mode(t), ph);
            if (ms < 0) {
                fprintf(stderr, "chase_probe: the chase failed at n = %ld\n", n);
                return 1;
            }
            printf("%-4c %8ld %4ld %12.3f %14.3f ", *tp, n, kd, ms, 1e3 * ms / (2.0 * n));
            for (int k = 0; k < 6; k++) printf(" %6.3f", ph[k]);
            printf(" %8.0f\n", ph[6]);
            s = *end == ',' ? end + 1 : end;
        }
    }
    return 0;
}
