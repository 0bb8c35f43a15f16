/* Probe of the GPU bulge chase alone (the backend's hb2st op, eigenvalues
 * only): the kernel's time on a random band of width kd already on the
 * device, CUDA events around the op, and that time per step of its
 * critical path (2 n dependent steps: sweep i trails sweep i-1 by two of
 * them, k_hb2st.cu); then, from one more traced run, the average time of a
 * step's phases in the middle half of the sweeps (k_hb2st.h). Each variant
 * of the kernel in VARS (sums of the HYLA_CUDA_HB2ST_* bits, default 0)
 * gets its lines. Built with -DHYLA_BENCH=ON as build/bin/chase_probe.
 * Usage: chase_probe TYPES N[,N...] KD [REPEAT [VARS]]   (TYPES among s,d,c,z,
 * VARS a comma-separated list) */
#include "backend/cuda/k_hb2st.h"
#include "hyla.h"
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * ph[0..7]: the traced run's phases per step (microseconds); diag[0..n-1]:
 * the tridiagonal's diagonal */
static double time_chase(int t, long n, long kd, int repeat, unsigned var, double ph[8],
                         double *diag) {
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
        if (hyla_cuda_hb2st_probe(0, t, n, kd, dAB, ldab, dd, de, dw, NULL, var, NULL))
            goto done;
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
        hyla_cuda_hb2st_probe(0, t, n, kd, dAB, ldab, dd, de, dw, NULL, var, dtr) ||
        cudaMemcpy(tr, dtr, sizeof tr, cudaMemcpyDeviceToHost) || cudaGetDevice(&dev) ||
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) || tr[7] < 1 || khz < 1)
        goto done;
    for (int k = 0; k < 7; k++) ph[k] = 1e3 * (double)tr[k] / ((double)tr[7] * khz);
    if (cudaMemcpy(h, dd, (size_t)n * real, cudaMemcpyDeviceToHost)) goto done;
    for (long j = 0; j < n; j++) {
        if (real == 4) {
            float f;
            memcpy(&f, h + (size_t)j * 4, 4);
            diag[j] = f;
        } else {
            memcpy(&diag[j], h + (size_t)j * 8, 8);
        }
    }
    ph[7] = (double)tr[7];
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
        fprintf(stderr, "usage: chase_probe TYPES N[,N...] KD [REPEAT [VARS]]\n");
        return 2;
    }
    const long kd = atol(argv[3]);
    const int repeat = argc > 4 ? atoi(argv[4]) : 3;
    if (kd < 1 || kd > HYLA_CUDA_HB2ST_MAX_KD || repeat < 1) {
        fprintf(stderr, "chase_probe: KD in 1..%d, REPEAT >= 1\n", HYLA_CUDA_HB2ST_MAX_KD);
        return 2;
    }
    const char *vars = argc > 5 ? argv[5] : "0";
    printf("%-4s %8s %4s %4s %12s %14s  %s\n", "type", "n", "kd", "var", "chase (ms)",
           "per step (us)",
           "traced step phases (us): wait load bulge reflector products update publish");
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
            double *d0 = malloc((size_t)n * sizeof *d0), *d1 = malloc((size_t)n * sizeof *d1);
            if (!d0 || !d1) {
                fprintf(stderr, "chase_probe: out of memory at n = %ld\n", n);
                return 1;
            }
            for (const char *v = vars; *v;) {
                char *vend;
                const unsigned long var = strtoul(v, &vend, 10);
                if (vend == v) {
                    fprintf(stderr, "chase_probe: bad variant list %s\n", vars);
                    return 2;
                }
                double ph[8];
                const double ms = time_chase(t, n, kd, repeat, (unsigned)var, ph,
                                             v == vars ? d0 : d1);
                if (ms < 0) {
                    fprintf(stderr, "chase_probe: the chase failed at n = %ld\n", n);
                    return 1;
                }
                printf("%-4c %8ld %4ld %4lu %12.3f %14.3f ", *tp, n, kd, var, ms,
                       1e3 * ms / (2.0 * n));
                for (int k = 0; k < 7; k++) printf(" %6.3f", ph[k]);
                if (v != vars) { /* the diagonal against the first variant's */
                    double dmax = 0, amax = 0;
                    for (long j = 0; j < n; j++) {
                        dmax = fmax(dmax, fabs(d1[j] - d0[j]));
                        amax = fmax(amax, fabs(d0[j]));
                    }
                    printf("  diag vs first %.1e", dmax / (amax > 0 ? amax : 1));
                }
                printf("\n");
                v = *vend == ',' ? vend + 1 : vend;
            }
            free(d0);
            free(d1);
            s = *end == ',' ? end + 1 : end;
        }
    }
    return 0;
}
