/* LU vendor baselines (see vendor_lu.h). Every CUDA and cuSOLVER failure is
 * printed and turns the time into NaN. */
#include "vendor_lu.h"

#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifdef HYLA_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#ifdef HYLA_HAVE_CUSOLVERMG
#define DISABLE_CUSOLVERMG_DEPRECATED
#include <cusolverMg.h>
#endif
#endif

#include "matgen.h"
#include "report.h"

enum { LU_MAX_GPUS = 64 };

static bool lu_factors(const lu_problem *p) { return p->routine != LU_GETRS; }
static bool lu_solves(const lu_problem *p) { return p->routine != LU_GETRF; }

static double lu_median_of_runs(double (*run)(void *), void *arg, int warmup, int repeat) {
    double *t = malloc((size_t)repeat * sizeof *t), med = NAN;
    if (!t) return NAN;
    int i;
    for (i = 0; i < warmup + repeat; i++) {
        double s = run(arg);
        if (isnan(s)) break;
        if (i >= warmup) t[i - warmup] = s;
    }
    if (i == warmup + repeat) med = cli_median(t, repeat);
    free(t);
    return med;
}

/* ---------------------------------------------------------------- LAPACKE */

typedef struct {
    const lu_problem *p;
    lapack_int *ipiv;
} lk_run;

static double run_lapacke(void *arg) {
    const lk_run *c = arg;
    const lu_problem *p = c->p;
    const lapack_int m = (lapack_int)p->m, n = (lapack_int)p->n, r = (lapack_int)p->nrhs;
    const lapack_int la = (lapack_int)p->lda, lb = (lapack_int)p->ldb;
    const char tr = p->trans;
    lapack_int info = 0;
    if (lu_factors(p)) mat_copy(p->dtype, p->m, p->n, p->A, p->lda, p->Aw, p->lda);
    if (lu_solves(p)) mat_copy(p->dtype, p->n, p->nrhs, p->B, p->ldb, p->Bw, p->ldb);
    double t0 = cli_now();
    switch (p->routine) {
    case LU_GETRF:
        switch (p->dtype) {
        case HYLA_S: info = LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, m, n, p->Aw, la, c->ipiv); break;
        case HYLA_D: info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, m, n, p->Aw, la, c->ipiv); break;
        case HYLA_C: info = LAPACKE_cgetrf_work(LAPACK_COL_MAJOR, m, n, p->Aw, la, c->ipiv); break;
        case HYLA_Z: info = LAPACKE_zgetrf_work(LAPACK_COL_MAJOR, m, n, p->Aw, la, c->ipiv); break;
        }
        break;
    case LU_GETRS:
        switch (p->dtype) {
        case HYLA_S: info = LAPACKE_sgetrs_work(LAPACK_COL_MAJOR, tr, n, r, p->A, la, c->ipiv, p->Bw, lb); break;
        case HYLA_D: info = LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, tr, n, r, p->A, la, c->ipiv, p->Bw, lb); break;
        case HYLA_C: info = LAPACKE_cgetrs_work(LAPACK_COL_MAJOR, tr, n, r, p->A, la, c->ipiv, p->Bw, lb); break;
        case HYLA_Z: info = LAPACKE_zgetrs_work(LAPACK_COL_MAJOR, tr, n, r, p->A, la, c->ipiv, p->Bw, lb); break;
        }
        break;
    case LU_GESV:
        switch (p->dtype) {
        case HYLA_S: info = LAPACKE_sgesv_work(LAPACK_COL_MAJOR, n, r, p->Aw, la, c->ipiv, p->Bw, lb); break;
        case HYLA_D: info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, r, p->Aw, la, c->ipiv, p->Bw, lb); break;
        case HYLA_C: info = LAPACKE_cgesv_work(LAPACK_COL_MAJOR, n, r, p->Aw, la, c->ipiv, p->Bw, lb); break;
        case HYLA_Z: info = LAPACKE_zgesv_work(LAPACK_COL_MAJOR, n, r, p->Aw, la, c->ipiv, p->Bw, lb); break;
        }
        break;
    }
    double t = cli_now() - t0;
    if (info == 0) return t;
    fprintf(stderr, "hyla: vendor: LAPACKE returned info %d\n", (int)info);
    return NAN;
}

static double vendor_lu_host(const lu_problem *p, int warmup, int repeat) {
    const int64_t dims[] = {p->m, p->n, p->nrhs, p->lda, p->ldb};
    for (int i = 0; i < 5; i++)
        if (dims[i] > INT_MAX) {
            fputs("hyla: vendor: LAPACKE takes 32-bit sizes; skipped\n", stderr);
            return NAN;
        }
    const int64_t k = p->m < p->n ? p->m : p->n;
    lk_run c = {.p = p, .ipiv = malloc(sizeof(lapack_int) * (size_t)(k > 0 ? k : 1))};
    if (!c.ipiv) return NAN;
    if (p->routine == LU_GETRS)
        for (int64_t i = 0; i < k; i++) c.ipiv[i] = (lapack_int)p->ipiv[i];
    double t = lu_median_of_runs(run_lapacke, &c, warmup, repeat);
    free(c.ipiv);
    return t;
}

#ifdef HYLA_HAVE_CUDA
#define LU_CUDA_RESERVE ((size_t)256 << 20) /* cuSOLVER workspace and context */

static bool cu_ok(cudaError_t e, const char *what) {
    if (e == cudaSuccess) return true;
    fprintf(stderr, "hyla: vendor: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

static bool cs_ok(cusolverStatus_t s, const char *what) {
    if (s == CUSOLVER_STATUS_SUCCESS) return true;
    fprintf(stderr, "hyla: vendor: %s: cuSOLVER status %d\n", what, (int)s);
    return false;
}

static cudaDataType cu_type(hyla_dtype t) {
    static const cudaDataType v[] = {CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F};
    return v[t];
}

static cublasOperation_t cu_op(char tr) {
    return tr == 'N' ? CUBLAS_OP_N : tr == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
}

static bool up2d(void *dst, int64_t ldd, const void *src, int64_t lds, hyla_dtype t, int64_t rows,
                 int64_t cols) {
    size_t es = dtype_size(t);
    if (rows == 0 || cols == 0) return true;
    return cu_ok(cudaMemcpy2D(dst, (size_t)ldd * es, src, (size_t)lds * es, (size_t)rows * es,
                              (size_t)cols, cudaMemcpyDefault),
                 "cudaMemcpy2D");
}

/* cuSOLVER on one GPU; A (ld m) and B (ld n) on the device, uploaded
 * before each run (untimed), the calls timed with events. */
typedef struct {
    const lu_problem *p;
    cusolverDnHandle_t h;
    cusolverDnParams_t params;
    cudaEvent_t start, stop;
    void *dA, *dB, *dwork, *hwork;
    int64_t *dipiv;
    int *dinfo;
    size_t dwork_bytes, hwork_bytes;
} dn_run;

static double run_dn(void *arg) {
    const dn_run *c = arg;
    const lu_problem *p = c->p;
    const cudaDataType dt = cu_type(p->dtype);
    int info = 0;
    float ms = 0;
    if (lu_factors(p) && !up2d(c->dA, p->m, p->A, p->lda, p->dtype, p->m, p->n)) return NAN;
    if (lu_solves(p) && !up2d(c->dB, p->n, p->B, p->ldb, p->dtype, p->n, p->nrhs)) return NAN;
    if (!cu_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize") ||
        !cu_ok(cudaEventRecord(c->start, 0), "cudaEventRecord"))
        return NAN;
    if (lu_factors(p) &&
        !cs_ok(cusolverDnXgetrf(c->h, c->params, p->m, p->n, dt, c->dA, p->m, c->dipiv, dt,
                                c->dwork, c->dwork_bytes, c->hwork, c->hwork_bytes, c->dinfo),
               "cusolverDnXgetrf"))
        return NAN;
    if (lu_solves(p) &&
        !cs_ok(cusolverDnXgetrs(c->h, c->params, cu_op(p->trans), p->n, p->nrhs, dt, c->dA, p->n,
                                c->dipiv, dt, c->dB, p->n, c->dinfo),
               "cusolverDnXgetrs"))
        return NAN;
    if (!cu_ok(cudaEventRecord(c->stop, 0), "cudaEventRecord") ||
        !cu_ok(cudaEventSynchronize(c->stop), "cudaEventSynchronize") ||
        !cu_ok(cudaEventElapsedTime(&ms, c->start, c->stop), "cudaEventElapsedTime") ||
        !cu_ok(cudaMemcpy(&info, c->dinfo, sizeof info, cudaMemcpyDeviceToHost), "cudaMemcpy"))
        return NAN;
    if (info != 0) {
        fprintf(stderr, "hyla: vendor: cuSOLVER returned info %d\n", info);
        return NAN;
    }
    return ms * 1e-3;
}

static double vendor_lu_dn(const lu_problem *p, int gpu, int warmup, int repeat) {
    dn_run c = {.p = p};
    size_t ba = 0, bb = 0, free_b = 0, total_b = 0;
    double t = NAN;
    const int64_t k = p->m < p->n ? p->m : p->n;
    bool have_h = false, have_params = false, have_start = false, have_stop = false;
    mat_bytes(p->dtype, p->m, p->n, &ba);
    mat_bytes(p->dtype, p->n, lu_solves(p) ? p->nrhs : 0, &bb);
    if (!cu_ok(cudaSetDevice(gpu), "cudaSetDevice") ||
        !cu_ok(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo"))
        return NAN;
    if ((double)LU_CUDA_RESERVE + (double)ba + (double)bb > (double)free_b) {
        fprintf(stderr, "hyla: vendor: cuSOLVER skipped: GPU %d has %.2f GiB free\n", gpu,
                (double)free_b / (1 << 30));
        return NAN;
    }
    if (!cu_ok(cudaMalloc(&c.dA, ba ? ba : 16), "cudaMalloc") ||
        !cu_ok(cudaMalloc(&c.dB, bb ? bb : 16), "cudaMalloc") ||
        !cu_ok(cudaMalloc((void **)&c.dipiv, sizeof(int64_t) * (size_t)(k > 0 ? k : 1)), "cudaMalloc") ||
        !cu_ok(cudaMalloc((void **)&c.dinfo, sizeof(int)), "cudaMalloc"))
        goto out;
    if (!lu_factors(p) &&
        (!up2d(c.dA, p->n, p->A, p->lda, p->dtype, p->n, p->n) ||
         !cu_ok(cudaMemcpy(c.dipiv, p->ipiv, sizeof(int64_t) * (size_t)k, cudaMemcpyHostToDevice),
                "cudaMemcpy")))
        goto out;
    have_h = cs_ok(cusolverDnCreate(&c.h), "cusolverDnCreate");
    have_params = have_h && cs_ok(cusolverDnCreateParams(&c.params), "cusolverDnCreateParams");
    if (!have_params) goto out;
    if (lu_factors(p)) {
        const cudaDataType dt = cu_type(p->dtype);
        if (!cs_ok(cusolverDnXgetrf_bufferSize(c.h, c.params, p->m, p->n, dt, c.dA, p->m, dt,
                                               &c.dwork_bytes, &c.hwork_bytes),
                   "cusolverDnXgetrf_bufferSize") ||
            !cu_ok(cudaMalloc(&c.dwork, c.dwork_bytes ? c.dwork_bytes : 16), "cudaMalloc"))
            goto out;
        if (c.hwork_bytes && !(c.hwork = malloc(c.hwork_bytes))) goto out;
    }
    have_start = cu_ok(cudaEventCreate(&c.start), "cudaEventCreate");
    have_stop = have_start && cu_ok(cudaEventCreate(&c.stop), "cudaEventCreate");
    if (have_stop) t = lu_median_of_runs(run_dn, &c, warmup, repeat);
out:
    if (have_stop) cudaEventDestroy(c.stop);
    if (have_start) cudaEventDestroy(c.start);
    if (have_params) cusolverDnDestroyParams(c.params);
    if (have_h) cusolverDnDestroy(c.h);
    void *bufs[] = {c.dA, c.dB, c.dipiv, c.dwork, c.dinfo};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) cudaFree(bufs[i]);
    free(c.hwork);
    return t;
}

#ifdef HYLA_HAVE_CUSOLVERMG
/* cusolverMg on several GPUs: A and B by 1-D block-cyclic columns of
 * VENDOR_MG_TILE (tile j on GPU j mod ngpus), local leading dimension n;
 * uploaded before each run (untimed), the calls timed by the wall clock up
 * to the synchronization of every GPU. Square A only. */
typedef struct {
    const lu_problem *p;
    cusolverMgHandle_t h;
    cudaLibMgMatrixDesc_t da, db;
    int ngpus;
    const int *gpus;
    void *A[LU_MAX_GPUS], *B[LU_MAX_GPUS], *work[LU_MAX_GPUS];
    int *ipiv[LU_MAX_GPUS];
    int64_t lwork;
} mg_run;

static bool mg_up(const mg_run *c, void *const *parts, const void *host, int64_t ldh, int64_t cols) {
    const lu_problem *p = c->p;
    size_t es = dtype_size(p->dtype);
    for (int64_t j0 = 0, tile = 0; j0 < cols; j0 += VENDOR_MG_TILE, tile++) {
        int g = (int)(tile % c->ngpus);
        int64_t w = cols - j0 < VENDOR_MG_TILE ? cols - j0 : VENDOR_MG_TILE;
        char *dst = (char *)parts[g] + (size_t)(tile / c->ngpus) * VENDOR_MG_TILE * (size_t)p->n * es;
        if (!cu_ok(cudaSetDevice(c->gpus[g]), "cudaSetDevice") ||
            !up2d(dst, p->n, (const char *)host + (size_t)j0 * (size_t)ldh * es, ldh, p->dtype,
                  p->n, w))
            return false;
    }
    return true;
}

static bool mg_sync_all(const mg_run *c) {
    for (int g = 0; g < c->ngpus; g++)
        if (!cu_ok(cudaSetDevice(c->gpus[g]), "cudaSetDevice") ||
            !cu_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize"))
            return false;
    return true;
}

static double run_mg(void *arg) {
    const mg_run *c = arg;
    const lu_problem *p = c->p;
    const cudaDataType dt = cu_type(p->dtype);
    int info = 0;
    if (lu_factors(p) && !mg_up(c, c->A, p->A, p->lda, p->n)) return NAN;
    if (lu_solves(p) && !mg_up(c, c->B, p->B, p->ldb, p->nrhs)) return NAN;
    if (!mg_sync_all(c) || !cu_ok(cudaSetDevice(c->gpus[0]), "cudaSetDevice")) return NAN;
    double t0 = cli_now();
    if (lu_factors(p) &&
        !cs_ok(cusolverMgGetrf(c->h, (int)p->n, (int)p->n, (void **)c->A, 1, 1, c->da,
                               (int **)c->ipiv, dt, (void **)c->work, c->lwork, &info),
               "cusolverMgGetrf"))
        return NAN;
    if (info == 0 && lu_solves(p) &&
        !cs_ok(cusolverMgGetrs(c->h, cu_op(p->trans), (int)p->n, (int)p->nrhs, (void **)c->A, 1, 1,
                               c->da, (int **)c->ipiv, (void **)c->B, 1, 1, c->db, dt,
                               (void **)c->work, c->lwork, &info),
               "cusolverMgGetrs"))
        return NAN;
    if (!mg_sync_all(c)) return NAN;
    double t = cli_now() - t0;
    if (info != 0) {
        fprintf(stderr, "hyla: vendor: cusolverMg returned info %d\n", info);
        return NAN;
    }
    return t;
}

static double vendor_lu_mg(const lu_problem *p, const int *gpus, int ngpus, int warmup,
                           int repeat) {
    if (p->routine == LU_GETRS) {
        fputs("hyla: vendor: cusolverMg getrs needs its own distributed pivots; run gesv for the "
              "multi-GPU baseline\n", stderr);
        return NAN;
    }
    if (p->m != p->n || p->n > INT_MAX || p->nrhs > INT_MAX) {
        fputs("hyla: vendor: cusolverMg baseline takes square matrices of 32-bit sizes; skipped\n",
              stderr);
        return NAN;
    }
    mg_run c = {.p = p, .ngpus = ngpus, .gpus = gpus};
    const size_t es = dtype_size(p->dtype);
    const cudaDataType dt = cu_type(p->dtype);
    cudaLibMgGrid_t grid = NULL;
    bool have_h = false, have_da = false, have_db = false;
    double t = NAN;
    const int64_t ta = (p->n + VENDOR_MG_TILE - 1) / VENDOR_MG_TILE;
    const int64_t tb = (p->nrhs + VENDOR_MG_TILE - 1) / VENDOR_MG_TILE;
    const size_t lcols = (size_t)((ta + ngpus - 1) / ngpus) * VENDOR_MG_TILE;
    const size_t la = lcols * (size_t)p->n * es;
    const size_t lb = (size_t)((tb + ngpus - 1) / ngpus) * VENDOR_MG_TILE * (size_t)p->n * es;
    int32_t ids[LU_MAX_GPUS];
    for (int g = 0; g < ngpus; g++) ids[g] = gpus[g];
    if (!cs_ok(cusolverMgCreate(&c.h), "cusolverMgCreate")) return NAN;
    have_h = true;
    if (!cs_ok(cusolverMgDeviceSelect(c.h, ngpus, (int *)gpus), "cusolverMgDeviceSelect")) goto out;
    for (int g = 0; g < ngpus; g++) {
        if (!cu_ok(cudaSetDevice(gpus[g]), "cudaSetDevice")) goto out;
        for (int e = 0; e < ngpus; e++) {
            if (e == g) continue;
            cudaError_t err = cudaDeviceEnablePeerAccess(gpus[e], 0);
            if (err == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
            else if (!cu_ok(err, "cudaDeviceEnablePeerAccess")) goto out;
        }
    }
    if (!cs_ok(cusolverMgCreateDeviceGrid(&grid, 1, ngpus, ids, CUDALIBMG_GRID_MAPPING_COL_MAJOR),
               "cusolverMgCreateDeviceGrid"))
        goto out;
    have_da = cs_ok(cusolverMgCreateMatrixDesc(&c.da, p->n, p->n, p->n, VENDOR_MG_TILE, dt, grid),
                    "cusolverMgCreateMatrixDesc");
    have_db = have_da && lu_solves(p) &&
              cs_ok(cusolverMgCreateMatrixDesc(&c.db, p->n, p->nrhs, p->n, VENDOR_MG_TILE, dt, grid),
                    "cusolverMgCreateMatrixDesc");
    if (!have_da || (lu_solves(p) && !have_db)) goto out;
    for (int g = 0; g < ngpus; g++) {
        size_t free_b = 0, total_b = 0;
        if (!cu_ok(cudaSetDevice(gpus[g]), "cudaSetDevice") ||
            !cu_ok(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo"))
            goto out;
        if ((double)la + (double)lb + (double)LU_CUDA_RESERVE > (double)free_b) {
            fprintf(stderr, "hyla: vendor: cusolverMg skipped: GPU %d has %.2f GiB free\n", gpus[g],
                    (double)free_b / (1 << 30));
            goto out;
        }
        if (!cu_ok(cudaMalloc(&c.A[g], la ? la : 16), "cudaMalloc") ||
            !cu_ok(cudaMalloc((void **)&c.ipiv[g], sizeof(int) * (lcols ? lcols : 1)), "cudaMalloc") ||
            (lu_solves(p) && !cu_ok(cudaMalloc(&c.B[g], lb ? lb : 16), "cudaMalloc")))
            goto out;
    }
    int64_t lw_f = 0, lw_s = 0;
    if (!cs_ok(cusolverMgGetrf_bufferSize(c.h, (int)p->n, (int)p->n, c.A, 1, 1, c.da, c.ipiv, dt,
                                          &lw_f),
               "cusolverMgGetrf_bufferSize"))
        goto out;
    if (lu_solves(p) &&
        !cs_ok(cusolverMgGetrs_bufferSize(c.h, cu_op(p->trans), (int)p->n, (int)p->nrhs, c.A, 1, 1,
                                          c.da, c.ipiv, c.B, 1, 1, c.db, dt, &lw_s),
               "cusolverMgGetrs_bufferSize"))
        goto out;
    const int64_t lwork = lw_f > lw_s ? lw_f : lw_s;
    for (int g = 0; g < ngpus; g++) /* lwork counts elements */
        if (!cu_ok(cudaSetDevice(gpus[g]), "cudaSetDevice") ||
            !cu_ok(cudaMalloc(&c.work[g], lwork > 0 ? (size_t)lwork * es : 16), "cudaMalloc"))
            goto out;
    c.lwork = lwork > 0 ? lwork : 1;
    t = lu_median_of_runs(run_mg, &c, warmup, repeat);
out:
    for (int g = 0; g < ngpus; g++) {
        cudaSetDevice(gpus[g]);
        cudaFree(c.A[g]);
        cudaFree(c.B[g]);
        cudaFree(c.ipiv[g]);
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

void vendor_lu(hyla_t *ctx, const lu_problem *p, int warmup, int repeat, vendor_times *out) {
    out->time_s = out->dev_time_s = NAN;
#ifdef HYLA_HAVE_CUDA
    hyla_device_info info;
    if (hyla_get_device_info(ctx, 0, &info) == 0 && info.kind == HYLA_DEVICE_CUDA) {
        int gpus[LU_MAX_GPUS], ngpus = 0;
        for (int i = 0; i < hyla_device_count(ctx) && ngpus < LU_MAX_GPUS; i++)
            if (hyla_get_device_info(ctx, i, &info) == 0) gpus[ngpus++] = info.ordinal;
        hyla_release_workspace(ctx); /* give cuSOLVER the memory hyla keeps cached */
        if (ngpus == 1) {
            out->name = "cusolver";
            out->time_s = vendor_lu_dn(p, gpus[0], warmup, repeat);
            cudaSetDevice(gpus[0]);
            return;
        }
        out->name = "cusolverMg";
#ifdef HYLA_HAVE_CUSOLVERMG
        out->time_s = vendor_lu_mg(p, gpus, ngpus, warmup, repeat);
        cudaSetDevice(gpus[0]);
#else
        fputs("hyla: vendor: built without cusolverMg; multi-GPU LU baseline skipped\n", stderr);
#endif
        return;
    }
#else
    (void)ctx;
#endif
    out->name = "lapacke";
    out->time_s = vendor_lu_host(p, warmup, repeat);
}
