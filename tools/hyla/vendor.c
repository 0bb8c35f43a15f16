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
#endif

#include "clock.h"
#include "matgen.h"
#include "vendor_impl.h"

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
    return vendor_median_of_runs(run_cblas, (void *)p, warmup, repeat);
}

#ifdef HYLA_HAVE_CUDA
static bool cublas_ok(cublasStatus_t s, const char *what) {
    if (s == CUBLAS_STATUS_SUCCESS) return true;
    fprintf(stderr, "hyla: vendor: %s: %s\n", what, cublasGetStatusString(s));
    return false;
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
    cublasOperation_t ta = vendor_cublas_op(p->transa), tb = vendor_cublas_op(p->transb);
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
    cublasOperation_t ta = vendor_cublas_op(p->transa), tb = vendor_cublas_op(p->transb);
    cublasStatus_t s = CUBLAS_STATUS_INVALID_VALUE;
    if (!vendor_cuda_ok(cudaEventRecord(c->start, 0), "cudaEventRecord")) return NAN;
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
    if (!cublas_ok(s, "cublas gemm") || !vendor_cuda_ok(cudaEventRecord(c->stop, 0), "cudaEventRecord") ||
        !vendor_cuda_ok(cudaEventSynchronize(c->stop), "cudaEventSynchronize") ||
        !vendor_cuda_ok(cudaEventElapsedTime(&ms, c->start, c->stop), "cudaEventElapsedTime"))
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
        t = vendor_median_of_runs(run_xt, &c, warmup, repeat);
    cublasXtDestroy(c.xt);
    return t;
}

static double vendor_device(const gemm_problem *p, int gpu, int warmup, int repeat) {
    int64_t rows[3] = {p->transa == 'N' ? p->m : p->k, p->transb == 'N' ? p->k : p->n, p->m};
    int64_t cols[3] = {p->transa == 'N' ? p->k : p->m, p->transb == 'N' ? p->n : p->k, p->n};
    const void *host[3] = {p->A, p->B, p->C};
    size_t bytes[3];
    double need = (double)VENDOR_CUDA_RESERVE;
    for (int i = 0; i < 3; i++) {
        mat_bytes(p->dtype, rows[i], cols[i], &bytes[i]); /* fits: the host copy exists */
        need += (double)bytes[i];
    }
    if (!vendor_gpu_room(gpu, need, "device-resident cuBLAS", NULL)) return NAN;
    cuda_run c = {.p = p};
    void **dev[3] = {&c.dA, &c.dB, &c.dC};
    bool have_h = false, have_start = false, have_stop = false;
    double t = NAN;
    for (int i = 0; i < 3; i++) {
        size_t b = bytes[i] ? bytes[i] : dtype_size(p->dtype);
        if (!vendor_cuda_ok(cudaMalloc(dev[i], b), "cudaMalloc") ||
            !vendor_cuda_ok(cudaMemcpy(*dev[i], host[i], bytes[i], cudaMemcpyHostToDevice), "cudaMemcpy"))
            goto out;
    }
    have_h = cublas_ok(cublasCreate(&c.h), "cublasCreate");
    have_start = have_h && vendor_cuda_ok(cudaEventCreate(&c.start), "cudaEventCreate");
    have_stop = have_start && vendor_cuda_ok(cudaEventCreate(&c.stop), "cudaEventCreate");
    if (have_stop) t = vendor_median_of_runs(run_dev, &c, warmup, repeat);
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
    int gpus[VENDOR_MAX_GPUS], ngpus = vendor_cuda_gpus(ctx, gpus);
    if (ngpus > 0) {
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

static double vendor_chol_host(const void *arg, int warmup, int repeat) {
    const chol_problem *p = arg;
    const int64_t dims[] = {p->n, p->nrhs, p->lda, p->ldb};
    for (int i = 0; i < 4; i++)
        if (dims[i] > INT_MAX) {
            fputs("hyla: vendor: LAPACKE takes 32-bit sizes; skipped\n", stderr);
            return NAN;
        }
    if ((chol_factors(p) && !p->Aw) || (chol_solves(p) && !p->Bw)) return NAN;
    return vendor_median_of_runs(run_lapacke, (void *)p, warmup, repeat);
}

#ifdef HYLA_HAVE_CUDA
static cublasFillMode_t cublas_fill(char uplo) {
    return uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

/* cuSOLVER on one GPU. A and B live on the device with ld n; dA0/dB0 keep
 * pristine copies when memory allows (else each run uploads from the host
 * again, untimed). */
typedef struct {
    const chol_problem *p;
    vendor_dn dn;
    void *dA, *dB, *dA0, *dB0;
} dn_run;

/* Copies a device matrix (ld rows) if there is one, else the host matrix
 * (ld ldh), to dst (ld rows). */
static bool upload(void *dst, const void *dev_src, const void *host_src, int64_t ldh, hyla_dtype t,
                   int64_t rows, int64_t cols) {
    return dev_src ? vendor_copy_2d(dst, rows, dev_src, rows, t, rows, cols)
                   : vendor_copy_2d(dst, rows, host_src, ldh, t, rows, cols);
}

static double run_dn(void *arg) {
    const dn_run *c = arg;
    const chol_problem *p = c->p;
    cudaDataType dt = vendor_cuda_type(p->dtype);
    cublasFillMode_t fill = cublas_fill(p->uplo);
    if (chol_factors(p) && !upload(c->dA, c->dA0, p->A, p->lda, p->dtype, p->n, p->n)) return NAN;
    if (chol_solves(p) && !upload(c->dB, c->dB0, p->B, p->ldb, p->dtype, p->n, p->nrhs))
        return NAN;
    if (!vendor_dn_start(&c->dn)) return NAN;
    if (chol_factors(p) &&
        !vendor_cusolver_ok(cusolverDnXpotrf(c->dn.h, c->dn.params, fill, p->n, dt, c->dA, p->n, dt,
                                             c->dn.dwork, c->dn.dwork_bytes, c->dn.hwork,
                                             c->dn.hwork_bytes, c->dn.dinfo),
                            "cusolverDnXpotrf"))
        return NAN;
    if (chol_solves(p) &&
        !vendor_cusolver_ok(cusolverDnXpotrs(c->dn.h, c->dn.params, fill, p->n, p->nrhs, dt, c->dA,
                                             p->n, dt, c->dB, p->n, c->dn.dinfo),
                            "cusolverDnXpotrs"))
        return NAN;
    return vendor_dn_stop(&c->dn, "cuSOLVER");
}

static double vendor_chol_dn(const void *arg, int gpu, int warmup, int repeat) {
    const chol_problem *p = arg;
    dn_run c = {.p = p};
    size_t ba, bb, free_b = 0;
    double t = NAN;
    const cudaDataType dt = vendor_cuda_type(p->dtype);
    mat_bytes(p->dtype, p->n, p->n, &ba); /* fits: the host copy exists */
    mat_bytes(p->dtype, p->n, chol_solves(p) ? p->nrhs : 0, &bb);
    double need = (double)VENDOR_CUDA_RESERVE + (double)ba + (double)bb;
    if (!vendor_gpu_room(gpu, need, "cuSOLVER", &free_b)) return NAN;
    /* pristine device copies of what a run overwrites, when they fit */
    size_t pa = chol_factors(p) ? ba : 0;
    bool pristine = need + (double)pa + (double)bb <= (double)free_b;
    if (!vendor_cuda_ok(cudaMalloc(&c.dA, ba ? ba : 16), "cudaMalloc") ||
        !vendor_cuda_ok(cudaMalloc(&c.dB, bb ? bb : 16), "cudaMalloc"))
        goto out;
    if (pristine && pa &&
        (!vendor_cuda_ok(cudaMalloc(&c.dA0, pa), "cudaMalloc") ||
         !upload(c.dA0, NULL, p->A, p->lda, p->dtype, p->n, p->n)))
        goto out;
    if (pristine && bb &&
        (!vendor_cuda_ok(cudaMalloc(&c.dB0, bb), "cudaMalloc") ||
         !upload(c.dB0, NULL, p->B, p->ldb, p->dtype, p->n, p->nrhs)))
        goto out;
    /* potrs reads the factor only: upload it once */
    if (!chol_factors(p) && !upload(c.dA, NULL, p->A, p->lda, p->dtype, p->n, p->n)) goto out;
    if (!vendor_dn_open(&c.dn)) goto out;
    if (chol_factors(p) &&
        !vendor_dn_work(&c.dn,
                        cusolverDnXpotrf_bufferSize(c.dn.h, c.dn.params, cublas_fill(p->uplo),
                                                    p->n, dt, c.dA, p->n, dt, &c.dn.dwork_bytes,
                                                    &c.dn.hwork_bytes),
                        "cusolverDnXpotrf_bufferSize"))
        goto out;
    t = vendor_median_of_runs(run_dn, &c, warmup, repeat);
out:
    vendor_dn_close(&c.dn);
    void *bufs[] = {c.dA, c.dB, c.dA0, c.dB0};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) cudaFree(bufs[i]);
    return t;
}

#ifdef HYLA_HAVE_CUSOLVERMG
/* cusolverMg on several GPUs (see vendor_mg). Each run uploads the tiles
 * from the host (untimed); the factorization or solve is timed by the wall
 * clock up to the synchronization of every GPU. */
typedef struct {
    const chol_problem *p;
    vendor_mg mg;
} mg_run;

static double run_mg(void *arg) {
    const mg_run *c = arg;
    const vendor_mg *m = &c->mg;
    const chol_problem *p = c->p;
    cudaDataType dt = vendor_cuda_type(p->dtype);
    int info = 0;
    if (!vendor_mg_begin(m, chol_factors(p) ? p->A : NULL, p->lda,
                         chol_solves(p) ? p->B : NULL, p->ldb, p->nrhs))
        return NAN;
    double t0 = cli_now();
    if (chol_factors(p) &&
        !vendor_cusolver_ok(cusolverMgPotrf(m->h, CUBLAS_FILL_MODE_LOWER, (int)p->n, (void **)m->A,
                                            1, 1, m->da, dt, (void **)m->work, m->lwork, &info),
                            "cusolverMgPotrf"))
        return NAN;
    if (info == 0 && chol_solves(p) &&
        !vendor_cusolver_ok(cusolverMgPotrs(m->h, CUBLAS_FILL_MODE_LOWER, (int)p->n, (int)p->nrhs,
                                            (void **)m->A, 1, 1, m->da, (void **)m->B, 1, 1, m->db,
                                            dt, (void **)m->work, m->lwork, &info),
                            "cusolverMgPotrs"))
        return NAN;
    return vendor_mg_end(m, t0, info);
}

static double vendor_chol_mg(const void *arg, const int *gpus, int ngpus, int warmup,
                             int repeat) {
    const chol_problem *p = arg;
    if (p->uplo != 'L') {
        fputs("hyla: vendor: cusolverMg factors the lower triangle only; skipped for uplo U\n",
              stderr);
        return NAN;
    }
    if (p->n > INT_MAX || p->nrhs > INT_MAX) {
        fputs("hyla: vendor: cusolverMg takes 32-bit sizes; skipped\n", stderr);
        return NAN;
    }
    mg_run c = {.p = p};
    vendor_mg *m = &c.mg;
    cudaDataType dt = vendor_cuda_type(p->dtype);
    int64_t lw_f = 0, lw_s = 0;
    /* potrs reads the factor only: it is uploaded once, before the runs */
    bool ok =
        vendor_mg_open(m, gpus, ngpus, p->dtype, p->n, p->nrhs, chol_solves(p), false) &&
        (!chol_factors(p) ||
         vendor_cusolver_ok(cusolverMgPotrf_bufferSize(m->h, CUBLAS_FILL_MODE_LOWER, (int)p->n,
                                                       m->A, 1, 1, m->da, dt, &lw_f),
                            "cusolverMgPotrf_bufferSize")) &&
        (!chol_solves(p) ||
         vendor_cusolver_ok(cusolverMgPotrs_bufferSize(m->h, CUBLAS_FILL_MODE_LOWER, (int)p->n,
                                                       (int)p->nrhs, m->A, 1, 1, m->da, m->B, 1,
                                                       1, m->db, dt, &lw_s),
                            "cusolverMgPotrs_bufferSize")) &&
        (chol_factors(p) || vendor_mg_upload(m, m->A, p->A, p->lda, p->n));
    return vendor_mg_time(m, ok, lw_f, lw_s, run_mg, &c, warmup, repeat);
}
#endif
#endif

static const vendor_solver chol_solver = {
    .host = vendor_chol_host,
#ifdef HYLA_HAVE_CUDA
    .gpu = vendor_chol_dn,
#ifdef HYLA_HAVE_CUSOLVERMG
    .gpus = vendor_chol_mg,
#endif
#endif
    .what = "Cholesky",
};

void vendor_chol(hyla_t *ctx, const chol_problem *p, int warmup, int repeat, vendor_times *out) {
    vendor_solver_time(ctx, &chol_solver, p, warmup, repeat, out);
}
