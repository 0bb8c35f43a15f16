/* LU vendor baselines (see vendor_lu.h). Every CUDA and cuSOLVER failure is
 * printed and turns the time into NaN. */
#include "vendor.h"

#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "matgen.h"
#include "vendor_impl.h"

static bool lu_factors(const lu_problem *p) { return p->routine != LU_GETRS; }
static bool lu_solves(const lu_problem *p) { return p->routine != LU_GETRF; }

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

static double vendor_lu_host(const void *arg, int warmup, int repeat) {
    const lu_problem *p = arg;
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
    double t = vendor_median_of_runs(run_lapacke, &c, warmup, repeat);
    free(c.ipiv);
    return t;
}

#ifdef HYLA_HAVE_CUDA
/* cuSOLVER on one GPU; A (ld m) and B (ld n) on the device, uploaded
 * before each run (untimed), the calls timed with events. */
typedef struct {
    const lu_problem *p;
    vendor_dn dn;
    void *dA, *dB;
    int64_t *dipiv;
} dn_run;

static double run_dn(void *arg) {
    const dn_run *c = arg;
    const lu_problem *p = c->p;
    const cudaDataType dt = vendor_cuda_type(p->dtype);
    if (lu_factors(p) && !vendor_copy_2d(c->dA, p->m, p->A, p->lda, p->dtype, p->m, p->n))
        return NAN;
    if (lu_solves(p) && !vendor_copy_2d(c->dB, p->n, p->B, p->ldb, p->dtype, p->n, p->nrhs))
        return NAN;
    if (!vendor_dn_start(&c->dn)) return NAN;
    if (lu_factors(p) &&
        !vendor_cusolver_ok(cusolverDnXgetrf(c->dn.h, c->dn.params, p->m, p->n, dt, c->dA, p->m,
                                             c->dipiv, dt, c->dn.dwork, c->dn.dwork_bytes,
                                             c->dn.hwork, c->dn.hwork_bytes, c->dn.dinfo),
                            "cusolverDnXgetrf"))
        return NAN;
    if (lu_solves(p) &&
        !vendor_cusolver_ok(cusolverDnXgetrs(c->dn.h, c->dn.params, vendor_cublas_op(p->trans),
                                             p->n, p->nrhs, dt, c->dA, p->n, c->dipiv, dt, c->dB,
                                             p->n, c->dn.dinfo),
                            "cusolverDnXgetrs"))
        return NAN;
    return vendor_dn_stop(&c->dn, "cuSOLVER");
}

static double vendor_lu_dn(const void *arg, int gpu, int warmup, int repeat) {
    const lu_problem *p = arg;
    dn_run c = {.p = p};
    size_t ba = 0, bb = 0;
    double t = NAN;
    const cudaDataType dt = vendor_cuda_type(p->dtype);
    const int64_t k = p->m < p->n ? p->m : p->n;
    mat_bytes(p->dtype, p->m, p->n, &ba);
    mat_bytes(p->dtype, p->n, lu_solves(p) ? p->nrhs : 0, &bb);
    if (!vendor_gpu_room(gpu, (double)VENDOR_CUDA_RESERVE + (double)ba + (double)bb, "cuSOLVER",
                         NULL))
        return NAN;
    if (!vendor_cuda_ok(cudaMalloc(&c.dA, ba ? ba : 16), "cudaMalloc") ||
        !vendor_cuda_ok(cudaMalloc(&c.dB, bb ? bb : 16), "cudaMalloc") ||
        !vendor_cuda_ok(cudaMalloc((void **)&c.dipiv, sizeof(int64_t) * (size_t)(k > 0 ? k : 1)),
                        "cudaMalloc"))
        goto out;
    if (!lu_factors(p) &&
        (!vendor_copy_2d(c.dA, p->n, p->A, p->lda, p->dtype, p->n, p->n) ||
         !vendor_cuda_ok(cudaMemcpy(c.dipiv, p->ipiv, sizeof(int64_t) * (size_t)k,
                                    cudaMemcpyHostToDevice),
                         "cudaMemcpy")))
        goto out;
    if (!vendor_dn_open(&c.dn)) goto out;
    if (lu_factors(p) &&
        !vendor_dn_work(&c.dn,
                        cusolverDnXgetrf_bufferSize(c.dn.h, c.dn.params, p->m, p->n, dt, c.dA,
                                                    p->m, dt, &c.dn.dwork_bytes,
                                                    &c.dn.hwork_bytes),
                        "cusolverDnXgetrf_bufferSize"))
        goto out;
    t = vendor_median_of_runs(run_dn, &c, warmup, repeat);
out:
    vendor_dn_close(&c.dn);
    void *bufs[] = {c.dA, c.dB, c.dipiv};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) cudaFree(bufs[i]);
    return t;
}

#ifdef HYLA_HAVE_CUSOLVERMG
/* cusolverMg on several GPUs (see vendor_mg), square A only; uploaded
 * before each run (untimed), the calls timed by the wall clock up to the
 * synchronization of every GPU. */
typedef struct {
    const lu_problem *p;
    vendor_mg mg;
} mg_run;

static double run_mg(void *arg) {
    const mg_run *c = arg;
    const vendor_mg *m = &c->mg;
    const lu_problem *p = c->p;
    const cudaDataType dt = vendor_cuda_type(p->dtype);
    int info = 0;
    if (!vendor_mg_begin(m, lu_factors(p) ? p->A : NULL, p->lda, lu_solves(p) ? p->B : NULL,
                         p->ldb, p->nrhs))
        return NAN;
    double t0 = cli_now();
    if (lu_factors(p) &&
        !vendor_cusolver_ok(cusolverMgGetrf(m->h, (int)p->n, (int)p->n, (void **)m->A, 1, 1, m->da,
                                            (int **)m->ipiv, dt, (void **)m->work, m->lwork, &info),
                            "cusolverMgGetrf"))
        return NAN;
    if (info == 0 && lu_solves(p) &&
        !vendor_cusolver_ok(cusolverMgGetrs(m->h, vendor_cublas_op(p->trans), (int)p->n,
                                            (int)p->nrhs, (void **)m->A, 1, 1, m->da,
                                            (int **)m->ipiv, (void **)m->B, 1, 1, m->db, dt,
                                            (void **)m->work, m->lwork, &info),
                            "cusolverMgGetrs"))
        return NAN;
    return vendor_mg_end(m, t0, info);
}

static double vendor_lu_mg(const void *arg, const int *gpus, int ngpus, int warmup,
                           int repeat) {
    const lu_problem *p = arg;
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
    mg_run c = {.p = p};
    vendor_mg *m = &c.mg;
    const cudaDataType dt = vendor_cuda_type(p->dtype);
    int64_t lw_f = 0, lw_s = 0;
    bool ok =
        vendor_mg_open(m, gpus, ngpus, p->dtype, p->n, p->nrhs, lu_solves(p), true) &&
        vendor_cusolver_ok(cusolverMgGetrf_bufferSize(m->h, (int)p->n, (int)p->n, m->A, 1, 1,
                                                      m->da, m->ipiv, dt, &lw_f),
                           "cusolverMgGetrf_bufferSize") &&
        (!lu_solves(p) ||
         vendor_cusolver_ok(cusolverMgGetrs_bufferSize(m->h, vendor_cublas_op(p->trans), (int)p->n,
                                                       (int)p->nrhs, m->A, 1, 1, m->da, m->ipiv,
                                                       m->B, 1, 1, m->db, dt, &lw_s),
                            "cusolverMgGetrs_bufferSize"));
    return vendor_mg_time(m, ok, lw_f, lw_s, run_mg, &c, warmup, repeat);
}
#endif
#endif

static const vendor_solver lu_solver = {
    .host = vendor_lu_host,
#ifdef HYLA_HAVE_CUDA
    .gpu = vendor_lu_dn,
#ifdef HYLA_HAVE_CUSOLVERMG
    .gpus = vendor_lu_mg,
#endif
#endif
    .what = "LU",
};

void vendor_lu(hyla_t *ctx, const lu_problem *p, int warmup, int repeat, vendor_times *out) {
    vendor_solver_time(ctx, &lu_solver, p, warmup, repeat, out);
}
