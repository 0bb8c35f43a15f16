/* Vendor baselines. Every CUDA/cuBLAS failure is printed and turns the
 * baseline into "not available" (NaN); it never stops the run. */
#include "vendor.h"

#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#ifdef HYLA_HAVE_CUDA
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#ifdef HYLA_HAVE_CUSOLVERMG
#define DISABLE_CUSOLVERMG_DEPRECATED /* still the one multi-GPU baseline of the toolkit */
#include <cusolverMg.h>
#endif
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

/* CUDA ordinals of the context's devices (at most MAX_GPUS). */
static int cuda_ordinals(hyla_t *ctx, int *gpus) {
    hyla_device_info info;
    int n = 0;
    for (int i = 0; i < hyla_device_count(ctx) && n < MAX_GPUS; i++)
        if (hyla_get_device_info(ctx, i, &info) == 0) gpus[n++] = info.ordinal;
    return n;
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
        int gpus[MAX_GPUS], ngpus = cuda_ordinals(ctx, gpus);
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

/* ---------------------------------------------------------------- Cholesky */

static bool chol_factors(const chol_problem *p) { return p->routine != CHOL_POTRS; }
static bool chol_solves(const chol_problem *p) { return p->routine != CHOL_POTRF; }

/* LAPACKE's _work entry points: no NaN scan of the input inside the timing. */
static lapack_int lapacke_potrf(const chol_problem *p, void *a) {
    int n = (int)p->n, lda = (int)p->lda;
    switch (p->dtype) {
    case HYLA_S: return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, p->uplo, n, a, lda);
    case HYLA_D: return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, p->uplo, n, a, lda);
    case HYLA_C: return LAPACKE_cpotrf_work(LAPACK_COL_MAJOR, p->uplo, n, a, lda);
    case HYLA_Z: return LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, p->uplo, n, a, lda);
    }
    return -1;
}

static lapack_int lapacke_potrs(const chol_problem *p, const void *a, void *b) {
    int n = (int)p->n, nrhs = (int)p->nrhs, lda = (int)p->lda, ldb = (int)p->ldb;
    switch (p->dtype) {
    case HYLA_S: return LAPACKE_spotrs_work(LAPACK_COL_MAJOR, p->uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_D: return LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, p->uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_C: return LAPACKE_cpotrs_work(LAPACK_COL_MAJOR, p->uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_Z: return LAPACKE_zpotrs_work(LAPACK_COL_MAJOR, p->uplo, n, nrhs, a, lda, b, ldb);
    }
    return -1;
}

static lapack_int lapacke_posv(const chol_problem *p, void *a, void *b) {
    int n = (int)p->n, nrhs = (int)p->nrhs, lda = (int)p->lda, ldb = (int)p->ldb;
    switch (p->dtype) {
    case HYLA_S: return LAPACKE_sposv_work(LAPACK_COL_MAJOR, p->uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_D: return LAPACKE_dposv_work(LAPACK_COL_MAJOR, p->uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_C: return LAPACKE_cposv_work(LAPACK_COL_MAJOR, p->uplo, n, nrhs, a, lda, b, ldb);
    case HYLA_Z: return LAPACKE_zposv_work(LAPACK_COL_MAJOR, p->uplo, n, nrhs, a, lda, b, ldb);
    }
    return -1;
}

/* One LAPACKE call on fresh copies in Aw, Bw; the copies are not timed. */
static double run_lapacke(void *arg) {
    const chol_problem *p = arg;
    if (chol_factors(p)) mat_copy(p->dtype, p->n, p->n, p->A, p->lda, p->Aw, p->lda);
    if (chol_solves(p)) mat_copy(p->dtype, p->n, p->nrhs, p->B, p->ldb, p->Bw, p->ldb);
    double t0 = cli_now();
    lapack_int info = p->routine == CHOL_POTRF ? lapacke_potrf(p, p->Aw)
                      : p->routine == CHOL_POTRS ? lapacke_potrs(p, p->A, p->Bw)
                                                 : lapacke_posv(p, p->Aw, p->Bw);
    double t = cli_now() - t0;
    if (info == 0) return t;
    fprintf(stderr, "hyla: vendor: LAPACKE returned info %d\n", (int)info);
    return NAN;
}

static double vendor_chol_host(const chol_problem *p, int warmup, int repeat) {
    const int64_t dims[] = {p->n, p->nrhs, p->lda, p->ldb};
    for (int i = 0; i < 4; i++)
        if (dims[i] > INT_MAX) {
            fputs("hyla: vendor: LAPACKE takes 32-bit sizes; skipped\n", stderr);
            return NAN;
        }
    if ((chol_factors(p) && !p->Aw) || (chol_solves(p) && !p->Bw)) return NAN;
    return median_of_runs(run_lapacke, (void *)p, warmup, repeat);
}

#ifdef HYLA_HAVE_CUDA
static bool cusolver_ok(cusolverStatus_t s, const char *what) {
    if (s == CUSOLVER_STATUS_SUCCESS) return true;
    fprintf(stderr, "hyla: vendor: %s: cuSOLVER status %d\n", what, (int)s);
    return false;
}

static cudaDataType cuda_type(hyla_dtype t) {
    switch (t) {
    case HYLA_S: return CUDA_R_32F;
    case HYLA_D: return CUDA_R_64F;
    case HYLA_C: return CUDA_C_32F;
    case HYLA_Z: return CUDA_C_64F;
    }
    return CUDA_R_64F;
}

static cublasFillMode_t cublas_fill(char uplo) {
    return uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

/* cuSOLVER on one GPU. A and B live on the device with ld n; dA0/dB0 keep
 * pristine copies when memory allows (else each run uploads from the host
 * again, untimed). */
typedef struct {
    const chol_problem *p;
    cusolverDnHandle_t h;
    cusolverDnParams_t params;
    cudaEvent_t start, stop;
    void *dA, *dB, *dA0, *dB0, *dwork, *hwork;
    int *dinfo;
    size_t dwork_bytes, hwork_bytes;
} dn_run;

/* Copies a host rows x cols matrix (ld ldh) or a device one (ld rows) to dst (ld rows). */
static bool upload(void *dst, const void *dev_src, const void *host_src, int64_t ldh, hyla_dtype t,
                   int64_t rows, int64_t cols) {
    size_t es = dtype_size(t), w = (size_t)rows * es;
    if (rows == 0 || cols == 0) return true;
    if (dev_src)
        return cuda_ok(cudaMemcpy(dst, dev_src, w * (size_t)cols, cudaMemcpyDeviceToDevice),
                       "cudaMemcpy");
    return cuda_ok(cudaMemcpy2D(dst, w, host_src, (size_t)ldh * es, w, (size_t)cols,
                                cudaMemcpyHostToDevice), "cudaMemcpy2D");
}

static double run_dn(void *arg) {
    const dn_run *c = arg;
    const chol_problem *p = c->p;
    cudaDataType dt = cuda_type(p->dtype);
    cublasFillMode_t fill = cublas_fill(p->uplo);
    int info = 0;
    float ms = 0;
    if (chol_factors(p) && !upload(c->dA, c->dA0, p->A, p->lda, p->dtype, p->n, p->n)) return NAN;
    if (chol_solves(p) && !upload(c->dB, c->dB0, p->B, p->ldb, p->dtype, p->n, p->nrhs))
        return NAN;
    if (!cuda_ok(cudaEventRecord(c->start, 0), "cudaEventRecord")) return NAN;
    if (chol_factors(p) &&
        !cusolver_ok(cusolverDnXpotrf(c->h, c->params, fill, p->n, dt, c->dA, p->n, dt, c->dwork,
                                      c->dwork_bytes, c->hwork, c->hwork_bytes, c->dinfo),
                     "cusolverDnXpotrf"))
        return NAN;
    if (chol_solves(p) &&
        !cusolver_ok(cusolverDnXpotrs(c->h, c->params, fill, p->n, p->nrhs, dt, c->dA, p->n, dt,
                                      c->dB, p->n, c->dinfo),
                     "cusolverDnXpotrs"))
        return NAN;
    if (!cuda_ok(cudaEventRecord(c->stop, 0), "cudaEventRecord") ||
        !cuda_ok(cudaEventSynchronize(c->stop), "cudaEventSynchronize") ||
        !cuda_ok(cudaEventElapsedTime(&ms, c->start, c->stop), "cudaEventElapsedTime") ||
        !cuda_ok(cudaMemcpy(&info, c->dinfo, sizeof info, cudaMemcpyDeviceToHost), "cudaMemcpy"))
        return NAN;
    if (info != 0) {
        fprintf(stderr, "hyla: vendor: cuSOLVER returned info %d\n", info);
        return NAN;
    }
    return ms * 1e-3;
}

static double vendor_chol_dn(const chol_problem *p, int gpu, int warmup, int repeat) {
    dn_run c = {.p = p};
    size_t ba, bb, free_b = 0, total_b = 0;
    double t = NAN;
    bool have_h = false, have_params = false, have_start = false, have_stop = false;
    mat_bytes(p->dtype, p->n, p->n, &ba); /* fits: the host copy exists */
    mat_bytes(p->dtype, p->n, chol_solves(p) ? p->nrhs : 0, &bb);
    if (!cuda_ok(cudaSetDevice(gpu), "cudaSetDevice") ||
        !cuda_ok(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo"))
        return NAN;
    double need = (double)CUBLAS_RESERVE + (double)ba + (double)bb;
    if (need > (double)free_b) {
        fprintf(stderr, "hyla: vendor: cuSOLVER skipped: needs %.2f GiB, GPU %d has %.2f GiB free\n",
                need / (1 << 30), gpu, (double)free_b / (1 << 30));
        return NAN;
    }
    /* pristine device copies of what a run overwrites, when they fit */
    size_t pa = chol_factors(p) ? ba : 0;
    bool pristine = need + (double)pa + (double)bb <= (double)free_b;
    if (!cuda_ok(cudaMalloc(&c.dA, ba ? ba : 16), "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&c.dB, bb ? bb : 16), "cudaMalloc") ||
        !cuda_ok(cudaMalloc((void **)&c.dinfo, sizeof(int)), "cudaMalloc"))
        goto out;
    if (pristine && pa &&
        (!cuda_ok(cudaMalloc(&c.dA0, pa), "cudaMalloc") ||
         !upload(c.dA0, NULL, p->A, p->lda, p->dtype, p->n, p->n)))
        goto out;
    if (pristine && bb &&
        (!cuda_ok(cudaMalloc(&c.dB0, bb), "cudaMalloc") ||
         !upload(c.dB0, NULL, p->B, p->ldb, p->dtype, p->n, p->nrhs)))
        goto out;
    /* potrs reads the factor only: upload it once */
    if (!chol_factors(p) && !upload(c.dA, NULL, p->A, p->lda, p->dtype, p->n, p->n)) goto out;
    have_h = cusolver_ok(cusolverDnCreate(&c.h), "cusolverDnCreate");
    have_params = have_h && cusolver_ok(cusolverDnCreateParams(&c.params), "cusolverDnCreateParams");
    if (!have_params) goto out;
    if (chol_factors(p)) {
        cudaDataType dt = cuda_type(p->dtype);
        if (!cusolver_ok(cusolverDnXpotrf_bufferSize(c.h, c.params, cublas_fill(p->uplo), p->n, dt,
                                                     c.dA, p->n, dt, &c.dwork_bytes,
                                                     &c.hwork_bytes),
                         "cusolverDnXpotrf_bufferSize") ||
            !cuda_ok(cudaMalloc(&c.dwork, c.dwork_bytes ? c.dwork_bytes : 16), "cudaMalloc"))
            goto out;
        if (c.hwork_bytes && !(c.hwork = malloc(c.hwork_bytes))) {
            fputs("hyla: vendor: out of memory\n", stderr);
            goto out;
        }
    }
    have_start = cuda_ok(cudaEventCreate(&c.start), "cudaEventCreate");
    have_stop = have_start && cuda_ok(cudaEventCreate(&c.stop), "cudaEventCreate");
    if (have_stop) t = median_of_runs(run_dn, &c, warmup, repeat);
out:
    if (have_stop) cudaEventDestroy(c.stop);
    if (have_start) cudaEventDestroy(c.start);
    if (have_params) cusolverDnDestroyParams(c.params);
    if (have_h) cusolverDnDestroy(c.h);
    void *bufs[] = {c.dA, c.dB, c.dA0, c.dB0, c.dwork, c.dinfo};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) cudaFree(bufs[i]);
    free(c.hwork);
    return t;
}

#ifdef HYLA_HAVE_CUSOLVERMG
/* cusolverMg on several GPUs: A and B distributed by 1-D block-cyclic
 * columns of VENDOR_MG_TILE (tile j on GPU j mod ngpus, local tile j /
 * ngpus), local leading dimension n. Each run uploads the tiles from the
 * host (untimed); the factorization or solve is timed by the wall clock up
 * to the synchronization of every GPU. */
typedef struct {
    const chol_problem *p;
    cusolverMgHandle_t h;
    cudaLibMgMatrixDesc_t da, db;
    int ngpus;
    const int *gpus;
    void *A[MAX_GPUS], *B[MAX_GPUS], *work[MAX_GPUS];
    int64_t lwork;
} mg_run;

static bool mg_upload(const mg_run *c, void *const *parts, const void *host, int64_t ldh,
                      int64_t cols) {
    const chol_problem *p = c->p;
    size_t es = dtype_size(p->dtype);
    for (int64_t j0 = 0, tile = 0; j0 < cols; j0 += VENDOR_MG_TILE, tile++) {
        int g = (int)(tile % c->ngpus);
        int64_t w = cols - j0 < VENDOR_MG_TILE ? cols - j0 : VENDOR_MG_TILE;
        char *dst = (char *)parts[g] + (size_t)(tile / c->ngpus) * VENDOR_MG_TILE * (size_t)p->n * es;
        if (!cuda_ok(cudaSetDevice(c->gpus[g]), "cudaSetDevice") ||
            !upload(dst, NULL, (const char *)host + (size_t)j0 * (size_t)ldh * es, ldh, p->dtype,
                    p->n, w))
            return false;
    }
    return true;
}

static bool mg_sync(const mg_run *c) {
    for (int g = 0; g < c->ngpus; g++)
        if (!cuda_ok(cudaSetDevice(c->gpus[g]), "cudaSetDevice") ||
            !cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize"))
            return false;
    return true;
}

static double run_mg(void *arg) {
    const mg_run *c = arg;
    const chol_problem *p = c->p;
    cudaDataType dt = cuda_type(p->dtype);
    int info = 0;
    if (chol_factors(p) && !mg_upload(c, c->A, p->A, p->lda, p->n)) return NAN;
    if (chol_solves(p) && !mg_upload(c, c->B, p->B, p->ldb, p->nrhs)) return NAN;
    if (!mg_sync(c) || !cuda_ok(cudaSetDevice(c->gpus[0]), "cudaSetDevice")) return NAN;
    double t0 = cli_now();
    if (chol_factors(p) &&
        !cusolver_ok(cusolverMgPotrf(c->h, CUBLAS_FILL_MODE_LOWER, (int)p->n, (void **)c->A, 1, 1,
                                     c->da, dt, (void **)c->work, c->lwork, &info),
                     "cusolverMgPotrf"))
        return NAN;
    if (info == 0 && chol_solves(p) &&
        !cusolver_ok(cusolverMgPotrs(c->h, CUBLAS_FILL_MODE_LOWER, (int)p->n, (int)p->nrhs,
                                     (void **)c->A, 1, 1, c->da, (void **)c->B, 1, 1, c->db, dt,
                                     (void **)c->work, c->lwork, &info),
                     "cusolverMgPotrs"))
        return NAN;
    if (!mg_sync(c)) return NAN;
    double t = cli_now() - t0;
    if (info != 0) {
        fprintf(stderr, "hyla: vendor: cusolverMg returned info %d\n", info);
        return NAN;
    }
    return t;
}

static double vendor_chol_mg(const chol_problem *p, const int *gpus, int ngpus, int warmup,
                             int repeat) {
    if (p->uplo != 'L') {
        fputs("hyla: vendor: cusolverMg factors the lower triangle only; skipped for uplo U\n",
              stderr);
        return NAN;
    }
    if (p->n > INT_MAX || p->nrhs > INT_MAX) {
        fputs("hyla: vendor: cusolverMg takes 32-bit sizes; skipped\n", stderr);
        return NAN;
    }
    mg_run c = {.p = p, .ngpus = ngpus, .gpus = gpus};
    size_t es = dtype_size(p->dtype);
    cudaDataType dt = cuda_type(p->dtype);
    cudaLibMgGrid_t grid = NULL;
    bool have_h = false, have_da = false, have_db = false;
    double t = NAN;
    int64_t ta = (p->n + VENDOR_MG_TILE - 1) / VENDOR_MG_TILE;
    int64_t tb = (p->nrhs + VENDOR_MG_TILE - 1) / VENDOR_MG_TILE;
    size_t la = (size_t)((ta + ngpus - 1) / ngpus) * VENDOR_MG_TILE * (size_t)p->n * es;
    size_t lb = (size_t)((tb + ngpus - 1) / ngpus) * VENDOR_MG_TILE * (size_t)p->n * es;
    int32_t ids[MAX_GPUS];
    for (int g = 0; g < ngpus; g++) ids[g] = gpus[g];
    if (!cusolver_ok(cusolverMgCreate(&c.h), "cusolverMgCreate")) return NAN;
    have_h = true;
    if (!cusolver_ok(cusolverMgDeviceSelect(c.h, ngpus, (int *)gpus), "cusolverMgDeviceSelect"))
        goto out;
    for (int g = 0; g < ngpus; g++) {
        if (!cuda_ok(cudaSetDevice(gpus[g]), "cudaSetDevice")) goto out;
        for (int e = 0; e < ngpus; e++) {
            if (e == g) continue;
            cudaError_t err = cudaDeviceEnablePeerAccess(gpus[e], 0);
            if (err == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
            else if (!cuda_ok(err, "cudaDeviceEnablePeerAccess")) goto out;
        }
    }
    if (!cusolver_ok(cusolverMgCreateDeviceGrid(&grid, 1, ngpus, ids, CUDALIBMG_GRID_MAPPING_COL_MAJOR),
                     "cusolverMgCreateDeviceGrid"))
        goto out;
    have_da = cusolver_ok(cusolverMgCreateMatrixDesc(&c.da, p->n, p->n, p->n, VENDOR_MG_TILE, dt, grid),
                          "cusolverMgCreateMatrixDesc");
    have_db = have_da && chol_solves(p) &&
              cusolver_ok(cusolverMgCreateMatrixDesc(&c.db, p->n, p->nrhs, p->n, VENDOR_MG_TILE, dt,
                                                     grid),
                          "cusolverMgCreateMatrixDesc");
    if (!have_da || (chol_solves(p) && !have_db)) goto out;
    for (int g = 0; g < ngpus; g++) {
        size_t free_b = 0, total_b = 0;
        if (!cuda_ok(cudaSetDevice(gpus[g]), "cudaSetDevice") ||
            !cuda_ok(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo"))
            goto out;
        if ((double)la + (double)lb + (double)CUBLAS_RESERVE > (double)free_b) {
            fprintf(stderr, "hyla: vendor: cusolverMg skipped: GPU %d has %.2f GiB free\n", gpus[g],
                    (double)free_b / (1 << 30));
            goto out;
        }
        if (!cuda_ok(cudaMalloc(&c.A[g], la ? la : 16), "cudaMalloc") ||
            (chol_solves(p) && !cuda_ok(cudaMalloc(&c.B[g], lb ? lb : 16), "cudaMalloc")))
            goto out;
    }
    int64_t lw_f = 0, lw_s = 0;
    if (chol_factors(p) &&
        !cusolver_ok(cusolverMgPotrf_bufferSize(c.h, CUBLAS_FILL_MODE_LOWER, (int)p->n, c.A, 1, 1,
                                                c.da, dt, &lw_f),
                     "cusolverMgPotrf_bufferSize"))
        goto out;
    if (chol_solves(p) &&
        !cusolver_ok(cusolverMgPotrs_bufferSize(c.h, CUBLAS_FILL_MODE_LOWER, (int)p->n,
                                                (int)p->nrhs, c.A, 1, 1, c.da, c.B, 1, 1, c.db, dt,
                                                &lw_s),
                     "cusolverMgPotrs_bufferSize"))
        goto out;
    int64_t lwork = lw_f > lw_s ? lw_f : lw_s;
    for (int g = 0; g < ngpus; g++) /* lwork counts elements */
        if (!cuda_ok(cudaSetDevice(gpus[g]), "cudaSetDevice") ||
            !cuda_ok(cudaMalloc(&c.work[g], lwork > 0 ? (size_t)lwork * es : 16), "cudaMalloc"))
            goto out;
    /* potrs reads the factor only: it is uploaded once, before the runs */
    if (!chol_factors(p) && !mg_upload(&c, c.A, p->A, p->lda, p->n)) goto out;
    c.lwork = lwork > 0 ? lwork : 1;
    t = median_of_runs(run_mg, &c, warmup, repeat);
out:
    for (int g = 0; g < ngpus; g++) {
        cudaSetDevice(gpus[g]);
        cudaFree(c.A[g]);
        cudaFree(c.B[g]);
        cudaFree(c.work[g]);
    }
    if (have_db) cusolverMgDestroyMatrixDesc(c.db);
    if (have_da) cusolverMgDestroyMatrixDesc(c.da);
    if (grid) cusolverMgDestroyGrid(grid);
    if (have_h) cusolverMgDestroy(c.h);
    return t;
}
#endif
#endif

void vendor_chol(hyla_t *ctx, const chol_problem *p, int warmup, int repeat, vendor_times *out) {
    out->time_s = out->dev_time_s = NAN;
#ifdef HYLA_HAVE_CUDA
    hyla_device_info info;
    if (hyla_get_device_info(ctx, 0, &info) == 0 && info.kind == HYLA_DEVICE_CUDA) {
        int gpus[MAX_GPUS], ngpus = cuda_ordinals(ctx, gpus);
        hyla_release_workspace(ctx); /* give cuSOLVER the memory hyla keeps cached */
        if (ngpus == 1) {
            out->name = "cusolver";
            out->time_s = vendor_chol_dn(p, gpus[0], warmup, repeat);
            cudaSetDevice(gpus[0]);
            return;
        }
        out->name = "cusolverMg";
#ifdef HYLA_HAVE_CUSOLVERMG
        out->time_s = vendor_chol_mg(p, gpus, ngpus, warmup, repeat);
        cudaSetDevice(gpus[0]);
#else
        fputs("hyla: vendor: built without cusolverMg (HYLA_HAVE_CUSOLVERMG); multi-GPU Cholesky "
              "baseline skipped\n", stderr);
#endif
        return;
    }
#else
    (void)ctx; /* host devices only: the GPU baselines do not exist */
#endif
    out->name = "lapacke";
    out->time_s = vendor_chol_host(p, warmup, repeat);
}
