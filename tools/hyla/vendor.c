/* Vendor baselines. Every CUDA/cuBLAS failure is printed and turns the
 * baseline into "not available" (NaN); it never stops the run. */
#include "vendor.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#ifdef HYLA_HAVE_CUDA
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#endif

#include "matgen.h"
#include "report.h"

/* OpenBLAS extensions; not every cblas.h declares them. */
char *openblas_get_config(void);
int openblas_get_num_threads(void);

typedef union {
    float s;
    double d;
    hyla_complex_float c;
    hyla_complex_double z;
} scalar;

static scalar make_scalar(hyla_dtype t, double v) {
    scalar x = {0};
    switch (t) {
    case HYLA_S: x.s = (float)v; break;
    case HYLA_D: x.d = v; break;
    case HYLA_C: x.c = (float)v; break;
    case HYLA_Z: x.z = v; break;
    }
    return x;
}

CBLAS_TRANSPOSE cblas_trans(char op) {
    return op == 'N' ? CblasNoTrans : op == 'T' ? CblasTrans : CblasConjTrans;
}

void vendor_print_versions(FILE *f) {
    fprintf(f, "%% %s (%d threads)\n", openblas_get_config(), openblas_get_num_threads());
#ifdef HYLA_HAVE_CUDA
    int rt = 0, drv = 0, major = 0, minor = 0, patch = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    cublasGetProperty(MAJOR_VERSION, &major);
    cublasGetProperty(MINOR_VERSION, &minor);
    cublasGetProperty(PATCH_LEVEL, &patch);
    fprintf(f, "%% CUDA runtime %d, driver %d, cuBLAS %d.%d.%d\n", rt, drv, major, minor, patch);
#endif
}

/* Median time of `repeat` calls of run() after `warmup` calls; run returns
 * the seconds of one call, or NaN on failure. */
static double median_of_runs(double (*run)(void *), void *arg, int warmup, int repeat) {
    double *t = malloc((size_t)repeat * sizeof *t);
    double med = NAN;
    if (!t) {
        fputs("hyla: vendor: out of memory\n", stderr);
        return NAN;
    }
    for (int i = 0; i < warmup + repeat; i++) {
        double s = run(arg);
        if (isnan(s)) goto out;
        if (i >= warmup) t[i - warmup] = s;
    }
    med = cli_median(t, repeat);
out:
    free(t);
    return med;
}

static double run_cblas(void *arg) {
    const gemm_problem *p = arg;
    scalar al = make_scalar(p->dtype, p->alpha), be = make_scalar(p->dtype, p->beta);
    CBLAS_TRANSPOSE ta = cblas_trans(p->transa), tb = cblas_trans(p->transb);
    int m = (int)p->m, n = (int)p->n, k = (int)p->k;
    int lda = (int)p->lda, ldb = (int)p->ldb, ldc = (int)p->ldc;
    double t0 = cli_now();
    switch (p->dtype) {
    case HYLA_S:
        cblas_sgemm(CblasColMajor, ta, tb, m, n, k, al.s, p->A, lda, p->B, ldb, be.s, p->C, ldc);
        break;
    case HYLA_D:
        cblas_dgemm(CblasColMajor, ta, tb, m, n, k, al.d, p->A, lda, p->B, ldb, be.d, p->C, ldc);
        break;
    case HYLA_C:
        cblas_cgemm(CblasColMajor, ta, tb, m, n, k, &al.c, p->A, lda, p->B, ldb, &be.c, p->C, ldc);
        break;
    case HYLA_Z:
        cblas_zgemm(CblasColMajor, ta, tb, m, n, k, &al.z, p->A, lda, p->B, ldb, &be.z, p->C, ldc);
        break;
    }
    return cli_now() - t0;
}

static double vendor_host(const gemm_problem *p, int warmup, int repeat) {
    const int64_t dims[] = {p->m, p->n, p->k, p->lda, p->ldb, p->ldc};
    for (int i = 0; i < 6; i++)
        if (dims[i] > INT_MAX) {
            fputs("hyla: vendor: OpenBLAS takes 32-bit sizes; skipped\n", stderr);
            return NAN;
        }
    return median_of_runs(run_cblas, (void *)p, warmup, repeat);
}

#ifdef HYLA_HAVE_CUDA
enum { MAX_GPUS = 64 };
#define CUBLAS_RESERVE ((size_t)256 << 20) /* cuBLAS workspace and context */

static bool cuda_ok(cudaError_t e, const char *what) {
    if (e == cudaSuccess) return true;
    fprintf(stderr, "hyla: vendor: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

static bool cublas_ok(cublasStatus_t s, const char *what) {
    if (s == CUBLAS_STATUS_SUCCESS) return true;
    fprintf(stderr, "hyla: vendor: %s: %s\n", what, cublasGetStatusString(s));
    return false;
}

static cublasOperation_t cublas_trans(char op) {
    return op == 'N' ? CUBLAS_OP_N : op == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
}

typedef struct {
    const gemm_problem *p;
    cublasXtHandle_t xt;
    cublasHandle_t h;
    cudaEvent_t start, stop;
    void *dA, *dB, *dC;
} cuda_run;

/* cublasXt on host matrices: blocking, timed by the wall clock. */
static double run_xt(void *arg) {
    const cuda_run *c = arg;
    const gemm_problem *p = c->p;
    scalar al = make_scalar(p->dtype, p->alpha), be = make_scalar(p->dtype, p->beta);
    cublasOperation_t ta = cublas_trans(p->transa), tb = cublas_trans(p->transb);
    size_t m = (size_t)p->m, n = (size_t)p->n, k = (size_t)p->k;
    size_t lda = (size_t)p->lda, ldb = (size_t)p->ldb, ldc = (size_t)p->ldc;
    cublasStatus_t s = CUBLAS_STATUS_INVALID_VALUE;
    double t0 = cli_now();
    switch (p->dtype) {
    case HYLA_S:
        s = cublasXtSgemm(c->xt, ta, tb, m, n, k, &al.s, p->A, lda, p->B, ldb, &be.s, p->C, ldc);
        break;
    case HYLA_D:
        s = cublasXtDgemm(c->xt, ta, tb, m, n, k, &al.d, p->A, lda, p->B, ldb, &be.d, p->C, ldc);
        break;
    case HYLA_C:
        s = cublasXtCgemm(c->xt, ta, tb, m, n, k, (const cuComplex *)&al.c, p->A, lda, p->B, ldb,
                          (const cuComplex *)&be.c, p->C, ldc);
        break;
    case HYLA_Z:
        s = cublasXtZgemm(c->xt, ta, tb, m, n, k, (const cuDoubleComplex *)&al.z, p->A, lda, p->B,
                          ldb, (const cuDoubleComplex *)&be.z, p->C, ldc);
        break;
    }
    double t = cli_now() - t0;
    return cublas_ok(s, "cublasXt gemm") ? t : NAN;
}

/* cuBLAS on device-resident matrices, timed by CUDA events. */
static double run_dev(void *arg) {
    const cuda_run *c = arg;
    const gemm_problem *p = c->p;
    scalar al = make_scalar(p->dtype, p->alpha), be = make_scalar(p->dtype, p->beta);
    cublasOperation_t ta = cublas_trans(p->transa), tb = cublas_trans(p->transb);
    cublasStatus_t s = CUBLAS_STATUS_INVALID_VALUE;
    if (!cuda_ok(cudaEventRecord(c->start, 0), "cudaEventRecord")) return NAN;
    switch (p->dtype) {
    case HYLA_S:
        s = cublasSgemm_64(c->h, ta, tb, p->m, p->n, p->k, &al.s, c->dA, p->lda, c->dB, p->ldb,
                           &be.s, c->dC, p->ldc);
        break;
    case HYLA_D:
        s = cublasDgemm_64(c->h, ta, tb, p->m, p->n, p->k, &al.d, c->dA, p->lda, c->dB, p->ldb,
                           &be.d, c->dC, p->ldc);
        break;
    case HYLA_C:
        s = cublasCgemm_64(c->h, ta, tb, p->m, p->n, p->k, (const cuComplex *)&al.c, c->dA, p->lda,
                           c->dB, p->ldb, (const cuComplex *)&be.c, c->dC, p->ldc);
        break;
    case HYLA_Z:
        s = cublasZgemm_64(c->h, ta, tb, p->m, p->n, p->k, (const cuDoubleComplex *)&al.z, c->dA,
                           p->lda, c->dB, p->ldb, (const cuDoubleComplex *)&be.z, c->dC, p->ldc);
        break;
    }
    float ms = 0;
    if (!cublas_ok(s, "cublas gemm") || !cuda_ok(cudaEventRecord(c->stop, 0), "cudaEventRecord") ||
        !cuda_ok(cudaEventSynchronize(c->stop), "cudaEventSynchronize") ||
        !cuda_ok(cudaEventElapsedTime(&ms, c->start, c->stop), "cudaEventElapsedTime"))
        return NAN;
    return ms * 1e-3;
}

static double vendor_xt(const gemm_problem *p, int *gpus, int ngpus, int warmup, int repeat,
                        int xt_block) {
    cuda_run c = {.p = p};
    double t = NAN;
    if (!cublas_ok(cublasXtCreate(&c.xt), "cublasXtCreate")) return NAN;
    if (cublas_ok(cublasXtDeviceSelect(c.xt, ngpus, gpus), "cublasXtDeviceSelect") &&
        cublas_ok(cublasXtSetBlockDim(c.xt, xt_block), "cublasXtSetBlockDim"))
        t = median_of_runs(run_xt, &c, warmup, repeat);
    cublasXtDestroy(c.xt);
    return t;
}

static double vendor_device(const gemm_problem *p, int gpu, int warmup, int repeat) {
    int64_t rows[3] = {p->transa == 'N' ? p->m : p->k, p->transb == 'N' ? p->k : p->n, p->m};
    int64_t cols[3] = {p->transa == 'N' ? p->k : p->m, p->transb == 'N' ? p->n : p->k, p->n};
    const void *host[3] = {p->A, p->B, p->C};
    size_t bytes[3];
    size_t free_b = 0, total_b = 0;
    double need = (double)CUBLAS_RESERVE;
    for (int i = 0; i < 3; i++) {
        mat_bytes(p->dtype, rows[i], cols[i], &bytes[i]); /* fits: the host copy exists */
        need += (double)bytes[i];
    }
    if (!cuda_ok(cudaSetDevice(gpu), "cudaSetDevice") ||
        !cuda_ok(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo"))
        return NAN;
    if (need > (double)free_b) {
        fprintf(stderr, "hyla: vendor: device-resident cuBLAS skipped: needs %.2f GiB, GPU %d has "
                "%.2f GiB free\n", need / (1 << 30), gpu, (double)free_b / (1 << 30));
        return NAN;
    }
    cuda_run c = {.p = p};
    void **dev[3] = {&c.dA, &c.dB, &c.dC};
    bool have_h = false, have_start = false, have_stop = false;
    double t = NAN;
    for (int i = 0; i < 3; i++) {
        size_t b = bytes[i] ? bytes[i] : dtype_size(p->dtype);
        if (!cuda_ok(cudaMalloc(dev[i], b), "cudaMalloc") ||
            !cuda_ok(cudaMemcpy(*dev[i], host[i], bytes[i], cudaMemcpyHostToDevice), "cudaMemcpy"))
            goto out;
    }
    have_h = cublas_ok(cublasCreate(&c.h), "cublasCreate");
    have_start = have_h && cuda_ok(cudaEventCreate(&c.start), "cudaEventCreate");
    have_stop = have_start && cuda_ok(cudaEventCreate(&c.stop), "cudaEventCreate");
    if (have_stop) t = median_of_runs(run_dev, &c, warmup, repeat);
out:
    if (have_stop) cudaEventDestroy(c.stop);
    if (have_start) cudaEventDestroy(c.start);
    if (have_h) cublasDestroy(c.h);
    for (int i = 0; i < 3; i++) cudaFree(*dev[i]);
    return t;
}
#endif

void vendor_gemm(hyla_t *ctx, const gemm_problem *p, int warmup, int repeat, int xt_block,
                 vendor_times *out) {
    out->time_s = out->dev_time_s = NAN;
#ifdef HYLA_HAVE_CUDA
    hyla_device_info info;
    if (hyla_get_device_info(ctx, 0, &info) == 0 && info.kind == HYLA_DEVICE_CUDA) {
        int gpus[MAX_GPUS], ngpus = 0;
        for (int i = 0; i < hyla_device_count(ctx) && ngpus < MAX_GPUS; i++)
            if (hyla_get_device_info(ctx, i, &info) == 0) gpus[ngpus++] = info.ordinal;
        hyla_release_workspace(ctx); /* give cuBLAS the memory hyla keeps cached */
        out->time_s = vendor_xt(p, gpus, ngpus, warmup, repeat, xt_block);
        out->dev_time_s = vendor_device(p, gpus[0], warmup, repeat);
        return;
    }
#else
    (void)ctx; /* host devices only: the GPU baselines do not exist */
    (void)xt_block;
#endif
    out->time_s = vendor_host(p, warmup, repeat);
}
