/* The vendor eigensolver baselines (vendor.h): LAPACKE ?syevd/?heevd on
 * host devices, cusolverDnXsyevd on a GPU; the generalized problem's
 * cuSOLVER ?sygvd / ?sygvdx on a GPU (LAPACKE's is the CLI's own). */
#include "vendor.h"

#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "matgen.h"
#include "vendor_impl.h"

static hyla_dtype real_of(hyla_dtype t) { return t == HYLA_C ? HYLA_S : t == HYLA_Z ? HYLA_D : t; }

static lapack_int lapacke_evd(const evd_problem *p, void *a, void *w) {
    const int n = (int)p->n;
    const char uplo = vendor_lapacke_uplo(p->dtype, p->uplo);
    switch (p->dtype) {
    case HYLA_S: return LAPACKE_ssyevd(LAPACK_COL_MAJOR, p->jobz, uplo, n, a, n, w);
    case HYLA_D: return LAPACKE_dsyevd(LAPACK_COL_MAJOR, p->jobz, uplo, n, a, n, w);
    case HYLA_C: return LAPACKE_cheevd(LAPACK_COL_MAJOR, p->jobz, uplo, n, a, n, w);
    case HYLA_Z: return LAPACKE_zheevd(LAPACK_COL_MAJOR, p->jobz, uplo, n, a, n, w);
    }
    return -1;
}

#ifdef HYLA_HAVE_CUDA
/* cusolverDnXsyevd (64-bit API) on a device-resident copy dA of dA0,
 * restored before each run (untimed), timed with CUDA events around the
 * call alone. */
typedef struct {
    const evd_problem *p;
    vendor_dn dn;
    void *dA, *dA0, *dW, *dwork, *hwork;
    size_t ba, dbytes, hbytes;
} evd_run;

static cusolverEigMode_t evd_mode(const evd_problem *p) {
    return p->jobz == 'V' ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
}

static cublasFillMode_t evd_fill(const evd_problem *p) {
    return p->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
}

static double run_evd(void *arg) {
    const evd_run *c = arg;
    const evd_problem *p = c->p;
    const cudaDataType dt = vendor_cuda_type(p->dtype), rt = vendor_cuda_type(real_of(p->dtype));
    if (!vendor_cuda_ok(cudaMemcpy(c->dA, c->dA0, c->ba, cudaMemcpyDeviceToDevice), "cudaMemcpy") ||
        !vendor_dn_start(&c->dn) ||
        !vendor_cusolver_ok(cusolverDnXsyevd(c->dn.h, c->dn.params, evd_mode(p), evd_fill(p), p->n,
                                             dt, c->dA, p->n, rt, c->dW, dt, c->dwork, c->dbytes,
                                             c->hwork, c->hbytes, c->dn.dinfo),
                            "cusolverDnXsyevd"))
        return NAN;
    return vendor_dn_stop(&c->dn, "cusolverDnXsyevd");
}

/* The median of repeat runs of cusolverDnXsyevd on GPU gpu. */
static double vendor_cusolver(const evd_problem *p, int gpu, int warmup, int repeat) {
    evd_run c = {.p = p, .ba = (size_t)(p->n * p->n) * dtype_size(p->dtype)};
    double med = NAN;
    const cudaDataType dt = vendor_cuda_type(p->dtype), rt = vendor_cuda_type(real_of(p->dtype));
    if (!vendor_cuda_ok(cudaSetDevice(gpu), "cudaSetDevice") ||
        !vendor_cuda_ok(cudaMalloc(&c.dA, c.ba), "cudaMalloc") ||
        !vendor_cuda_ok(cudaMalloc(&c.dA0, c.ba), "cudaMalloc") ||
        !vendor_cuda_ok(cudaMalloc(&c.dW, (size_t)p->n * dtype_size(real_of(p->dtype))), "cudaMalloc") ||
        !vendor_cuda_ok(cudaMemcpy(c.dA0, p->A, c.ba, cudaMemcpyHostToDevice), "cudaMemcpy") ||
        !vendor_dn_open(&c.dn) ||
        !vendor_cusolver_ok(cusolverDnXsyevd_bufferSize(c.dn.h, c.dn.params, evd_mode(p),
                                                        evd_fill(p), p->n, dt, c.dA, p->n, rt,
                                                        c.dW, dt, &c.dbytes, &c.hbytes),
                            "cusolverDnXsyevd_bufferSize") ||
        !vendor_cuda_ok(cudaMalloc(&c.dwork, c.dbytes ? c.dbytes : 16), "cudaMalloc"))
        goto out;
    if (c.hbytes && !(c.hwork = malloc(c.hbytes))) goto out;
    med = vendor_median_of_runs(run_evd, &c, warmup, repeat);
out:
    vendor_dn_close(&c.dn);
    void *bufs[] = {c.dA, c.dA0, c.dW, c.dwork};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) cudaFree(bufs[i]);
    free(c.hwork);
    return med;
}
#endif

#ifdef HYLA_HAVE_CUSOLVERMG
/* cusolverMgSyevd on several GPUs (1-D block-cyclic columns, see vendor_mg):
 * each run uploads the tiles from the host (untimed); the call is timed by
 * the wall clock up to the synchronization of every GPU. The eigenvalues go
 * to a host array, as cusolverMg takes them. */
typedef struct {
    const evd_problem *p;
    vendor_mg mg;
    void *w;
} mg_evd_run;

static double run_mg_evd(void *arg) {
    const mg_evd_run *c = arg;
    const vendor_mg *m = &c->mg;
    const evd_problem *p = c->p;
    const cudaDataType dt = vendor_cuda_type(p->dtype), rt = vendor_cuda_type(real_of(p->dtype));
    int info = 0;
    if (!vendor_mg_begin(m, p->A, p->n > 1 ? p->n : 1, NULL, 0, 0)) return NAN;
    double t0 = cli_now();
    if (!vendor_cusolver_ok(cusolverMgSyevd(m->h, evd_mode(p), CUBLAS_FILL_MODE_LOWER, (int)p->n,
                                            (void **)m->A, 1, 1, m->da, c->w, rt, dt,
                                            (void **)m->work, m->lwork, &info),
                            "cusolverMgSyevd"))
        return NAN;
    return vendor_mg_end(m, t0, info);
}

static double vendor_evd_mg(const evd_problem *p, const int *gpus, int ngpus, int warmup,
                            int repeat) {
    if (p->uplo != 'L') {
        fputs("hyla: vendor: cusolverMgSyevd reads the lower triangle only; skipped for uplo U\n",
              stderr);
        return NAN;
    }
    if (p->n > INT_MAX) {
        fputs("hyla: vendor: cusolverMg takes 32-bit sizes; skipped\n", stderr);
        return NAN;
    }
    mg_evd_run c = {.p = p, .w = malloc((size_t)(p->n > 0 ? p->n : 1) * dtype_size(real_of(p->dtype)))};
    const cudaDataType dt = vendor_cuda_type(p->dtype), rt = vendor_cuda_type(real_of(p->dtype));
    int64_t lw = 0;
    bool ok = c.w && vendor_mg_open(&c.mg, gpus, ngpus, p->dtype, p->n, 0, false, false) &&
              vendor_cusolver_ok(cusolverMgSyevd_bufferSize(c.mg.h, evd_mode(p),
                                                            CUBLAS_FILL_MODE_LOWER, (int)p->n,
                                                            (void **)c.mg.A, 1, 1, c.mg.da, c.w,
                                                            rt, dt, &lw),
                                 "cusolverMgSyevd_bufferSize");
    double t = vendor_mg_time(&c.mg, ok, lw, 0, run_mg_evd, &c, warmup, repeat);
    free(c.w);
    return t;
}
#endif

#ifdef HYLA_HAVE_CUDA
/* cuSOLVER's generalized solvers, whose API is one function per type: the
 * workspace query and the call, by range (sygvd, or sygvdx for a part). */
typedef struct {
    const gv_problem *p;
    vendor_dn dn;
    void *dA, *dB, *dA0, *dB0, *dW, *dwork, *hwork;
    int lwork, meig;
    int64_t meig64;
    size_t bytes, dbytes, hbytes; /* dbytes, hbytes: Xsyevdx's workspaces */
} gv_run;

static cusolverEigRange_t gv_range(char r) {
    return r == 'I' ? CUSOLVER_EIG_RANGE_I : r == 'V' ? CUSOLVER_EIG_RANGE_V : CUSOLVER_EIG_RANGE_ALL;
}

/* (query) the workspace into c->lwork, or (!query) the call */
static cusolverStatus_t gv_call(gv_run *c, int query) {
    const gv_problem *p = c->p;
    const cusolverEigType_t it = (cusolverEigType_t)p->itype;
    const cusolverEigMode_t jz = p->jobz == 'V' ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    const cublasFillMode_t up = p->uplo == 'L' ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    const cusolverEigRange_t rg = gv_range(p->range);
    const int n = (int)p->n, il = (int)p->il, iu = (int)p->iu, part = p->range != 'A';
    const cusolverDnHandle_t h = c->dn.h;
    if (!p->B) { /* the standard problem: cusolverDnXsyevdx (64-bit API) */
        const cudaDataType dt = vendor_cuda_type(p->dtype), rt = vendor_cuda_type(real_of(p->dtype));
        double vl = p->vl, vu = p->vu;
        float vlf = (float)p->vl, vuf = (float)p->vu;
        void *pvl = rt == CUDA_R_32F ? (void *)&vlf : (void *)&vl;
        void *pvu = rt == CUDA_R_32F ? (void *)&vuf : (void *)&vu;
        if (query)
            return cusolverDnXsyevdx_bufferSize(h, c->dn.params, jz, rg, up, p->n, dt, c->dA, p->n,
                                                pvl, pvu, p->il, p->iu, &c->meig64, rt, c->dW, dt,
                                                &c->dbytes, &c->hbytes);
        return cusolverDnXsyevdx(h, c->dn.params, jz, rg, up, p->n, dt, c->dA, p->n, pvl, pvu,
                                 p->il, p->iu, &c->meig64, rt, c->dW, dt, c->dwork, c->dbytes,
                                 c->hwork, c->hbytes, c->dn.dinfo);
    }
#define GV(T, RT, name, namex)                                                                     \
    if (part)                                                                                      \
        return query ? namex##_bufferSize(h, it, jz, rg, up, n, c->dA, n, c->dB, n, (RT)p->vl,      \
                                          (RT)p->vu, il, iu, &c->meig, c->dW, &c->lwork)            \
                     : namex(h, it, jz, rg, up, n, c->dA, n, c->dB, n, (RT)p->vl, (RT)p->vu, il,   \
                             iu, &c->meig, c->dW, (T *)c->dwork, c->lwork, c->dn.dinfo);            \
    return query ? name##_bufferSize(h, it, jz, up, n, c->dA, n, c->dB, n, c->dW, &c->lwork)        \
                 : name(h, it, jz, up, n, c->dA, n, c->dB, n, c->dW, (T *)c->dwork, c->lwork,        \
                        c->dn.dinfo)
    switch (p->dtype) {
    case HYLA_S: GV(float, float, cusolverDnSsygvd, cusolverDnSsygvdx);
    case HYLA_D: GV(double, double, cusolverDnDsygvd, cusolverDnDsygvdx);
    case HYLA_C: GV(cuComplex, float, cusolverDnChegvd, cusolverDnChegvdx);
    case HYLA_Z: GV(cuDoubleComplex, double, cusolverDnZhegvd, cusolverDnZhegvdx);
    }
#undef GV
    return CUSOLVER_STATUS_INVALID_VALUE;
}

static double run_gv(void *arg) {
    gv_run *c = arg;
    const char *what = !c->p->B ? "cusolverDnXsyevdx"
                       : c->p->range == 'A' ? "cusolverDn?sygvd" : "cusolverDn?sygvdx";
    if (!vendor_cuda_ok(cudaMemcpy(c->dA, c->dA0, c->bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy") ||
        (c->p->B &&
         !vendor_cuda_ok(cudaMemcpy(c->dB, c->dB0, c->bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy")) ||
        !vendor_dn_start(&c->dn) || !vendor_cusolver_ok(gv_call(c, 0), what))
        return NAN;
    return vendor_dn_stop(&c->dn, what);
}

bool vendor_gv_gpu(hyla_t *ctx, const gv_problem *p, int warmup, int repeat, vendor_times *out) {
    int gpus[VENDOR_MAX_GPUS];
    if (vendor_cuda_gpus(ctx, gpus) < 1) return false;
    const int part = p->range != 'A';
    out->time_s = out->dev_time_s = NAN;
    static const char *const names[2][4] = {
        {"cusolverDnSsygvd", "cusolverDnDsygvd", "cusolverDnChegvd", "cusolverDnZhegvd"},
        {"cusolverDnSsygvdx", "cusolverDnDsygvdx", "cusolverDnChegvdx", "cusolverDnZhegvdx"}};
    out->name = names[part][p->dtype == HYLA_S ? 0 : p->dtype == HYLA_D ? 1 : p->dtype == HYLA_C ? 2 : 3];
    if (!p->B) out->name = "cusolverDnXsyevdx";
    if (p->B && (p->n > INT_MAX / 2 || (p->n > 0 && (double)p->n * (double)p->n > (double)INT_MAX))) {
        fputs("hyla: vendor: cuSOLVER's generalized solvers take 32-bit sizes; skipped\n", stderr);
        return true;
    }
    gv_run c = {.p = p, .bytes = (size_t)(p->n * p->n) * dtype_size(p->dtype)};
    const size_t wb = (size_t)(p->n > 0 ? p->n : 1) * dtype_size(real_of(p->dtype));
    if (!vendor_cuda_ok(cudaSetDevice(gpus[0]), "cudaSetDevice") ||
        !vendor_cuda_ok(cudaMalloc(&c.dA, c.bytes ? c.bytes : 16), "cudaMalloc") ||
        (p->B && !vendor_cuda_ok(cudaMalloc(&c.dB, c.bytes ? c.bytes : 16), "cudaMalloc")) ||
        !vendor_cuda_ok(cudaMalloc(&c.dA0, c.bytes ? c.bytes : 16), "cudaMalloc") ||
        (p->B && !vendor_cuda_ok(cudaMalloc(&c.dB0, c.bytes ? c.bytes : 16), "cudaMalloc")) ||
        !vendor_cuda_ok(cudaMalloc(&c.dW, wb), "cudaMalloc") ||
        !vendor_cuda_ok(cudaMemcpy(c.dA0, p->A, c.bytes, cudaMemcpyHostToDevice), "cudaMemcpy") ||
        (p->B && !vendor_cuda_ok(cudaMemcpy(c.dB0, p->B, c.bytes, cudaMemcpyHostToDevice),
                                 "cudaMemcpy")) ||
        !vendor_dn_open(&c.dn) ||
        !vendor_cusolver_ok(gv_call(&c, 1), !p->B ? "cusolverDnXsyevdx_bufferSize"
                                            : part ? "cusolverDn?sygvdx_bufferSize"
                                                   : "cusolverDn?sygvd_bufferSize"))
        goto out;
    {
        const size_t db = p->B ? (size_t)(c.lwork > 0 ? c.lwork : 1) * dtype_size(p->dtype)
                               : (c.dbytes ? c.dbytes : 16);
        if (!vendor_cuda_ok(cudaMalloc(&c.dwork, db), "cudaMalloc")) goto out;
        if (!p->B && c.hbytes && !(c.hwork = malloc(c.hbytes))) goto out;
    }
    out->time_s = vendor_median_of_runs(run_gv, &c, warmup, repeat);
out:
    vendor_dn_close(&c.dn);
    void *bufs[] = {c.dA, c.dB, c.dA0, c.dB0, c.dW, c.dwork};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) cudaFree(bufs[i]);
    free(c.hwork);
    return true;
}
#else
bool vendor_gv_gpu(hyla_t *ctx, const gv_problem *p, int warmup, int repeat, vendor_times *out) {
    (void)ctx, (void)p, (void)warmup, (void)repeat, (void)out;
    return false;
}
#endif

void vendor_evd(hyla_t *ctx, const evd_problem *p, int warmup, int repeat, vendor_times *out) {
    out->time_s = out->dev_time_s = NAN;
    out->name = dtype_is_complex(p->dtype) ? "lapacke_heevd" : "lapacke_syevd";
#ifdef HYLA_HAVE_CUDA
    int gpus[VENDOR_MAX_GPUS], ngpus = vendor_cuda_gpus(ctx, gpus); /* distinct */
    if (ngpus > 1) { /* several distinct GPUs: cusolverMg on them */
        out->name = "cusolverMgSyevd";
#ifdef HYLA_HAVE_CUSOLVERMG
        out->time_s = vendor_evd_mg(p, gpus, ngpus, warmup, repeat);
#else
        fputs("hyla: vendor: built without cusolverMg; multi-GPU eigensolver baseline skipped\n",
              stderr);
#endif
        cudaSetDevice(gpus[0]);
        return;
    }
    if (ngpus > 0) { /* one GPU (listed once or more): cuSOLVER on it */
        out->name = "cusolverDnXsyevd";
        out->time_s = vendor_cusolver(p, gpus[0], warmup, repeat);
        return;
    }
#else
    (void)ctx;
#endif
    if (p->n > INT_MAX) return;
    const int64_t ld = p->n > 1 ? p->n : 1;
    double *t = malloc(sizeof *t * (size_t)repeat);
    void *a = mat_alloc(p->dtype, p->n, p->n, false, "the vendor's copy of A");
    void *w = mat_alloc(real_of(p->dtype), p->n, 1, false, "the vendor's eigenvalues");
    for (int c = 0; t && a && w && c < warmup + repeat; c++) {
        mat_copy(p->dtype, p->n, p->n, p->A, ld, a, ld);
        double t0 = cli_now();
        lapack_int info = lapacke_evd(p, a, w);
        double s = cli_now() - t0;
        if (info) {
            fprintf(stderr, "hyla: vendor: LAPACKE returned info %d\n", (int)info);
            goto out;
        }
        if (c >= warmup) t[c - warmup] = s;
    }
    if (t && a && w) out->time_s = cli_median(t, repeat);
out:
    free(t), free(a), free(w);
}

static void to_type(hyla_dtype t, int64_t n, const double *x, void *y) {
    for (int64_t i = 0; i < n; i++) {
        if (t == HYLA_S) ((float *)y)[i] = (float)x[i];
        else ((double *)y)[i] = x[i];
    }
}

static int lapacke_tridiag(const tridiag_problem *p, void *d, void *e, void *Z) {
    to_type(p->dtype, p->n, p->d, d);
    to_type(p->dtype, p->n > 0 ? p->n - 1 : 0, p->e, e);
    lapack_int n = (lapack_int)p->n, ldz = n > 0 ? n : 1;
    if (p->dtype == HYLA_S)
        return p->vectors ? LAPACKE_sstedc(LAPACK_COL_MAJOR, 'I', n, d, e, Z, ldz)
                          : LAPACKE_ssterf(n, d, e);
    return p->vectors ? LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', n, d, e, Z, ldz)
                      : LAPACKE_dsterf(n, d, e);
}

void vendor_tridiag(const tridiag_problem *p, int warmup, int repeat, vendor_times *out) {
    out->time_s = out->dev_time_s = NAN;
    out->name = p->vectors ? "LAPACKE ?stedc" : "LAPACKE ?sterf";
    if (p->n > INT_MAX) return;
    double *t = malloc(sizeof *t * (size_t)repeat);
    void *d = mat_alloc(p->dtype, p->n, 1, false, "the vendor's d");
    void *e = mat_alloc(p->dtype, p->n, 1, false, "the vendor's e");
    void *Z = p->vectors ? mat_alloc(p->dtype, p->n, p->n, false, "the vendor's Z") : NULL;
    for (int c = 0; t && d && e && (Z || !p->vectors) && c < warmup + repeat; c++) {
        double t0 = cli_now();
        int info = lapacke_tridiag(p, d, e, Z);
        double s = cli_now() - t0;
        if (info) {
            fprintf(stderr, "hyla: LAPACKE_%c%s returned %d\n", dtype_char(p->dtype),
                    p->vectors ? "stedc" : "sterf", info);
            goto out;
        }
        if (c >= warmup) t[c - warmup] = s;
    }
    if (t && d && e && (Z || !p->vectors)) out->time_s = cli_median(t, repeat);
out:
    free(t), free(d), free(e), free(Z);
}
