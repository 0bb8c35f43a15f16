/* Helpers shared by the vendor baselines (see vendor_util.h). */
#include "vendor_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "matgen.h"
#include "vendor.h"

double vendor_median_of_runs(double (*run)(void *), void *arg, int warmup, int repeat) {
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

void vendor_solver_time(hyla_t *ctx, const vendor_solver *s, const void *p, int warmup,
                        int repeat, vendor_times *out) {
    out->time_s = out->dev_time_s = NAN;
#ifdef HYLA_HAVE_CUDA
    int gpus[VENDOR_MAX_GPUS], ngpus = vendor_cuda_gpus(ctx, gpus);
    if (ngpus > 0) {
        if (ngpus == 1) {
            out->name = "cusolver";
            out->time_s = s->gpu(p, gpus[0], warmup, repeat);
        } else {
            out->name = "cusolverMg";
            if (s->gpus)
                out->time_s = s->gpus(p, gpus, ngpus, warmup, repeat);
            else
                fprintf(stderr, "hyla: vendor: built without cusolverMg (HYLA_HAVE_CUSOLVERMG); "
                        "multi-GPU %s baseline skipped\n", s->what);
        }
        cudaSetDevice(gpus[0]);
        return;
    }
#else
    (void)ctx; /* host devices only: the GPU baselines do not exist */
#endif
    out->name = "lapacke";
    out->time_s = s->host(p, warmup, repeat);
}

#ifdef HYLA_HAVE_CUDA
int vendor_cuda_gpus(hyla_t *ctx, int *gpus) {
    hyla_device_info info;
    int n = 0;
    if (hyla_get_device_info(ctx, 0, &info) != 0 || info.kind != HYLA_DEVICE_CUDA) return 0;
    for (int i = 0; i < hyla_device_count(ctx) && n < VENDOR_MAX_GPUS; i++) {
        if (hyla_get_device_info(ctx, i, &info) != 0) continue;
        int seen = 0; /* each GPU once (cuda:0,0,1: 0 and 1), in order */
        for (int k = 0; k < n; k++) seen |= gpus[k] == info.ordinal;
        if (!seen) gpus[n++] = info.ordinal;
    }
    hyla_release_workspace(ctx);
    return n;
}

bool vendor_cuda_ok(cudaError_t e, const char *what) {
    if (e == cudaSuccess) return true;
    fprintf(stderr, "hyla: vendor: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

bool vendor_cusolver_ok(cusolverStatus_t s, const char *what) {
    if (s == CUSOLVER_STATUS_SUCCESS) return true;
    fprintf(stderr, "hyla: vendor: %s: cuSOLVER status %d\n", what, (int)s);
    return false;
}

cudaDataType vendor_cuda_type(hyla_dtype t) {
    switch (t) {
    case HYLA_S: return CUDA_R_32F;
    case HYLA_D: return CUDA_R_64F;
    case HYLA_C: return CUDA_C_32F;
    case HYLA_Z: return CUDA_C_64F;
    }
    return CUDA_R_64F;
}

cublasOperation_t vendor_cublas_op(char op) {
    return op == 'N' ? CUBLAS_OP_N : op == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
}

bool vendor_copy_2d(void *dst, int64_t ldd, const void *src, int64_t lds, hyla_dtype t,
                    int64_t rows, int64_t cols) {
    size_t es = dtype_size(t);
    if (rows == 0 || cols == 0) return true;
    return vendor_cuda_ok(cudaMemcpy2D(dst, (size_t)ldd * es, src, (size_t)lds * es,
                                       (size_t)rows * es, (size_t)cols, cudaMemcpyDefault),
                          "cudaMemcpy2D");
}

bool vendor_gpu_room(int gpu, double need, const char *who, size_t *free_b) {
    size_t fb = 0, total_b = 0;
    if (!vendor_cuda_ok(cudaSetDevice(gpu), "cudaSetDevice") ||
        !vendor_cuda_ok(cudaMemGetInfo(&fb, &total_b), "cudaMemGetInfo"))
        return false;
    if (free_b) *free_b = fb;
    if (need <= (double)fb) return true;
    fprintf(stderr, "hyla: vendor: %s skipped: needs %.2f GiB, GPU %d has %.2f GiB free\n", who,
            need / (1 << 30), gpu, (double)fb / (1 << 30));
    return false;
}

bool vendor_dn_open(vendor_dn *d) {
    *d = (vendor_dn){0};
    if (!vendor_cuda_ok(cudaMalloc((void **)&d->dinfo, sizeof(int)), "cudaMalloc")) return false;
    d->have_h = vendor_cusolver_ok(cusolverDnCreate(&d->h), "cusolverDnCreate");
    d->have_params =
        d->have_h && vendor_cusolver_ok(cusolverDnCreateParams(&d->params), "cusolverDnCreateParams");
    d->have_start = d->have_params && vendor_cuda_ok(cudaEventCreate(&d->start), "cudaEventCreate");
    d->have_stop = d->have_start && vendor_cuda_ok(cudaEventCreate(&d->stop), "cudaEventCreate");
    return d->have_stop;
}

void vendor_dn_close(vendor_dn *d) {
    if (d->have_stop) cudaEventDestroy(d->stop);
    if (d->have_start) cudaEventDestroy(d->start);
    if (d->have_params) cusolverDnDestroyParams(d->params);
    if (d->have_h) cusolverDnDestroy(d->h);
    cudaFree(d->dinfo);
    cudaFree(d->dwork);
    free(d->hwork);
    *d = (vendor_dn){0};
}

bool vendor_dn_work(vendor_dn *d, cusolverStatus_t s, const char *what) {
    if (!vendor_cusolver_ok(s, what) ||
        !vendor_cuda_ok(cudaMalloc(&d->dwork, d->dwork_bytes ? d->dwork_bytes : 16), "cudaMalloc"))
        return false;
    if (d->hwork_bytes && !(d->hwork = malloc(d->hwork_bytes))) {
        fputs("hyla: vendor: out of memory\n", stderr);
        return false;
    }
    return true;
}

bool vendor_dn_start(const vendor_dn *d) {
    return vendor_cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize") &&
           vendor_cuda_ok(cudaEventRecord(d->start, 0), "cudaEventRecord");
}

double vendor_dn_stop(const vendor_dn *d, const char *what) {
    float ms = 0;
    int info = 0;
    if (!vendor_cuda_ok(cudaEventRecord(d->stop, 0), "cudaEventRecord") ||
        !vendor_cuda_ok(cudaEventSynchronize(d->stop), "cudaEventSynchronize") ||
        !vendor_cuda_ok(cudaEventElapsedTime(&ms, d->start, d->stop), "cudaEventElapsedTime") ||
        !vendor_cuda_ok(cudaMemcpy(&info, d->dinfo, sizeof info, cudaMemcpyDeviceToHost),
                        "cudaMemcpy"))
        return NAN;
    if (info != 0) {
        fprintf(stderr, "hyla: vendor: %s returned info %d\n", what, info);
        return NAN;
    }
    return ms * 1e-3;
}

#ifdef HYLA_HAVE_CUSOLVERMG
/* Local columns of a block-cyclic matrix of cols columns on one GPU. */
static size_t mg_local_cols(int64_t cols, int ngpus) {
    const int64_t tiles = (cols + VENDOR_MG_TILE - 1) / VENDOR_MG_TILE;
    return (size_t)((tiles + ngpus - 1) / ngpus) * VENDOR_MG_TILE;
}

bool vendor_mg_open(vendor_mg *m, const int *gpus, int ngpus, hyla_dtype t, int64_t n,
                    int64_t nrhs, bool with_b, bool with_ipiv) {
    *m = (vendor_mg){.ngpus = ngpus, .gpus = gpus, .dtype = t, .n = n};
    const size_t es = dtype_size(t);
    const cudaDataType dt = vendor_cuda_type(t);
    const size_t lcols = mg_local_cols(n, ngpus);
    const size_t la = lcols * (size_t)n * es, lb = mg_local_cols(nrhs, ngpus) * (size_t)n * es;
    int32_t ids[VENDOR_MAX_GPUS];
    for (int g = 0; g < ngpus; g++) ids[g] = gpus[g];
    m->have_h = vendor_cusolver_ok(cusolverMgCreate(&m->h), "cusolverMgCreate");
    if (!m->have_h ||
        !vendor_cusolver_ok(cusolverMgDeviceSelect(m->h, ngpus, (int *)gpus), "cusolverMgDeviceSelect"))
        return false;
    for (int g = 0; g < ngpus; g++) {
        if (!vendor_cuda_ok(cudaSetDevice(gpus[g]), "cudaSetDevice")) return false;
        for (int e = 0; e < ngpus; e++) {
            if (e == g) continue;
            cudaError_t err = cudaDeviceEnablePeerAccess(gpus[e], 0);
            if (err == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();
            else if (!vendor_cuda_ok(err, "cudaDeviceEnablePeerAccess")) return false;
        }
    }
    if (!vendor_cusolver_ok(
            cusolverMgCreateDeviceGrid(&m->grid, 1, ngpus, ids, CUDALIBMG_GRID_MAPPING_COL_MAJOR),
            "cusolverMgCreateDeviceGrid"))
        return false;
    m->have_da = vendor_cusolver_ok(
        cusolverMgCreateMatrixDesc(&m->da, n, n, n, VENDOR_MG_TILE, dt, m->grid),
        "cusolverMgCreateMatrixDesc");
    m->have_db = m->have_da && with_b &&
                 vendor_cusolver_ok(
                     cusolverMgCreateMatrixDesc(&m->db, n, nrhs, n, VENDOR_MG_TILE, dt, m->grid),
                     "cusolverMgCreateMatrixDesc");
    if (!m->have_da || (with_b && !m->have_db)) return false;
    for (int g = 0; g < ngpus; g++) {
        if (!vendor_gpu_room(gpus[g], (double)la + (double)lb + (double)VENDOR_CUDA_RESERVE,
                             "cusolverMg", NULL) ||
            !vendor_cuda_ok(cudaMalloc(&m->A[g], la ? la : 16), "cudaMalloc") ||
            (with_ipiv && !vendor_cuda_ok(cudaMalloc((void **)&m->ipiv[g],
                                                     sizeof(int) * (lcols ? lcols : 1)),
                                          "cudaMalloc")) ||
            (with_b && !vendor_cuda_ok(cudaMalloc(&m->B[g], lb ? lb : 16), "cudaMalloc")))
            return false;
    }
    return true;
}

bool vendor_mg_work(vendor_mg *m, int64_t lwork) {
    const size_t es = dtype_size(m->dtype);
    for (int g = 0; g < m->ngpus; g++) /* lwork counts elements */
        if (!vendor_cuda_ok(cudaSetDevice(m->gpus[g]), "cudaSetDevice") ||
            !vendor_cuda_ok(cudaMalloc(&m->work[g], lwork > 0 ? (size_t)lwork * es : 16),
                            "cudaMalloc"))
            return false;
    m->lwork = lwork > 0 ? lwork : 1;
    return true;
}

bool vendor_mg_upload(const vendor_mg *m, void *const *parts, const void *host, int64_t ldh,
                      int64_t cols) {
    const size_t es = dtype_size(m->dtype);
    for (int64_t j0 = 0, tile = 0; j0 < cols; j0 += VENDOR_MG_TILE, tile++) {
        int g = (int)(tile % m->ngpus);
        int64_t w = cols - j0 < VENDOR_MG_TILE ? cols - j0 : VENDOR_MG_TILE;
        char *dst = (char *)parts[g] + (size_t)(tile / m->ngpus) * VENDOR_MG_TILE * (size_t)m->n * es;
        if (!vendor_cuda_ok(cudaSetDevice(m->gpus[g]), "cudaSetDevice") ||
            !vendor_copy_2d(dst, m->n, (const char *)host + (size_t)j0 * (size_t)ldh * es, ldh,
                            m->dtype, m->n, w))
            return false;
    }
    return true;
}

bool vendor_mg_sync(const vendor_mg *m) {
    for (int g = 0; g < m->ngpus; g++)
        if (!vendor_cuda_ok(cudaSetDevice(m->gpus[g]), "cudaSetDevice") ||
            !vendor_cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize"))
            return false;
    return true;
}

bool vendor_mg_begin(const vendor_mg *m, const void *A, int64_t lda, const void *B, int64_t ldb,
                     int64_t nrhs) {
    if (A && !vendor_mg_upload(m, m->A, A, lda, m->n)) return false;
    if (B && !vendor_mg_upload(m, m->B, B, ldb, nrhs)) return false;
    return vendor_mg_sync(m) && vendor_cuda_ok(cudaSetDevice(m->gpus[0]), "cudaSetDevice");
}

double vendor_mg_end(const vendor_mg *m, double t0, int info) {
    if (!vendor_mg_sync(m)) return NAN;
    double t = cli_now() - t0;
    if (info != 0) {
        fprintf(stderr, "hyla: vendor: cusolverMg returned info %d\n", info);
        return NAN;
    }
    return t;
}

double vendor_mg_time(vendor_mg *m, bool ok, int64_t lwork_a, int64_t lwork_b,
                      double (*run)(void *), void *arg, int warmup, int repeat) {
    double t = NAN;
    if (ok && vendor_mg_work(m, lwork_a > lwork_b ? lwork_a : lwork_b))
        t = vendor_median_of_runs(run, arg, warmup, repeat);
    vendor_mg_close(m);
    return t;
}

void vendor_mg_close(vendor_mg *m) {
    for (int g = 0; g < m->ngpus; g++) {
        cudaSetDevice(m->gpus[g]);
        cudaFree(m->A[g]);
        cudaFree(m->B[g]);
        cudaFree(m->ipiv[g]);
        cudaFree(m->work[g]);
    }
    if (m->have_db) cusolverMgDestroyMatrixDesc(m->db);
    if (m->have_da) cusolverMgDestroyMatrixDesc(m->da);
    if (m->grid) cusolverMgDestroyGrid(m->grid);
    if (m->have_h) cusolverMgDestroy(m->h);
    *m = (vendor_mg){0};
}
#endif
#endif

char vendor_lapacke_uplo(hyla_dtype t, char uplo) {
    return t == HYLA_C || t == HYLA_Z ? 'L' : uplo;
}
