/* Inside the vendor module only (vendor*.c; see vendor.h): the helpers its
 * baselines share: the median of timed runs, and on CUDA builds the status
 * checks, copies, memory checks, cuSOLVER handle/event setup and the cusolverMg grid,
 * descriptors and block-cyclic tiles. Every CUDA and cuSOLVER failure is
 * printed ("hyla: vendor: ...") and reported as false; the callers turn it
 * into a NaN time. */
#ifndef HYLA_CLI_VENDOR_IMPL_H
#define HYLA_CLI_VENDOR_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hyla.h"
#include "vendor.h"

#ifdef HYLA_HAVE_CUDA
#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#ifdef HYLA_HAVE_CUSOLVERMG
#define DISABLE_CUSOLVERMG_DEPRECATED /* still the one multi-GPU baseline of the toolkit */
#include <cusolverMg.h>
#endif
#endif

enum { VENDOR_MAX_GPUS = 64 };
#define VENDOR_CUDA_RESERVE ((size_t)256 << 20) /* vendor library workspace and context */

/* Median time of `repeat` calls of run() after `warmup` calls; run returns
 * the seconds of one call, or NaN on failure (then the median is NaN). */
double vendor_median_of_runs(double (*run)(void *), void *arg, int warmup, int repeat);

/* A solver baseline (Cholesky, LU): LAPACKE on host devices, cuSOLVER on
 * one GPU, cusolverMg on several; each returns the median seconds or NaN.
 * p is the caller's problem. gpu is NULL without CUDA, gpus without
 * cusolverMg. */
typedef struct {
    double (*host)(const void *p, int warmup, int repeat);
    double (*gpu)(const void *p, int gpu, int warmup, int repeat);
    double (*gpus)(const void *p, const int *gpus, int ngpus, int warmup, int repeat);
    const char *what; /* "Cholesky", "LU": for the message without cusolverMg */
} vendor_solver;

/* Times the baseline s of problem p on the devices of ctx (hyla's cached
 * workspaces released first on GPUs); out->name names the vendor. */
void vendor_solver_time(hyla_t *ctx, const vendor_solver *s, const void *p, int warmup,
                        int repeat, vendor_times *out);

#ifdef HYLA_HAVE_CUDA
/* The distinct CUDA ordinals of the context's devices (at most
 * VENDOR_MAX_GPUS; a GPU the context lists several times once, in the
 * order of its first listing) in gpus, and their count; 0 when ctx runs
 * on host devices. Releases hyla's
 * cached workspaces on GPUs to give the vendor their memory. */
int vendor_cuda_gpus(hyla_t *ctx, int *gpus);

bool vendor_cuda_ok(cudaError_t e, const char *what);
bool vendor_cusolver_ok(cusolverStatus_t s, const char *what);
cudaDataType vendor_cuda_type(hyla_dtype t);
cublasOperation_t vendor_cublas_op(char op); /* 'N', 'T' or 'C' */

/* Copies a rows x cols matrix (ld lds) to dst (ld ldd); host or device on
 * either side. Nothing to do for an empty matrix. */
bool vendor_copy_2d(void *dst, int64_t ldd, const void *src, int64_t lds, hyla_dtype t,
                    int64_t rows, int64_t cols);

/* Makes gpu current and checks that `need` bytes are free there; otherwise
 * prints that `who` is skipped. *free_b (may be NULL) gets the free bytes. */
bool vendor_gpu_room(int gpu, double need, const char *who, size_t *free_b);

/* A cuSOLVER handle with its params, a pair of events on the default
 * stream and a device info word, on the current GPU; the device and host
 * workspaces of the 64-bit API (vendor_dn_work). */
typedef struct {
    cusolverDnHandle_t h;
    cusolverDnParams_t params;
    cudaEvent_t start, stop;
    int *dinfo;
    void *dwork, *hwork;
    size_t dwork_bytes, hwork_bytes;
    bool have_h, have_params, have_start, have_stop;
} vendor_dn;

bool vendor_dn_open(vendor_dn *d);
void vendor_dn_close(vendor_dn *d); /* after a failed open too; frees the workspaces */
/* After a cusolverDnX*_bufferSize query that returned s (`what`, for the
 * message) and wrote d->dwork_bytes and d->hwork_bytes: allocates those
 * workspaces. False on any failure, reported. */
bool vendor_dn_work(vendor_dn *d, cusolverStatus_t s, const char *what);
/* Synchronizes the device and records the start event. */
bool vendor_dn_start(const vendor_dn *d);
/* Records the stop event; the seconds since start, NaN on a failure or a
 * nonzero info (printed with `what`). */
double vendor_dn_stop(const vendor_dn *d, const char *what);

#ifdef HYLA_HAVE_CUSOLVERMG
/* cusolverMg on several GPUs: n x n A and n x nrhs B by 1-D block-cyclic
 * columns of VENDOR_MG_TILE (tile j on GPU j mod ngpus, local tile j /
 * ngpus), local leading dimension n, and work of lwork elements per GPU. */
typedef struct {
    cusolverMgHandle_t h;
    cudaLibMgGrid_t grid;
    cudaLibMgMatrixDesc_t da, db;
    bool have_h, have_da, have_db;
    int ngpus;
    const int *gpus;
    hyla_dtype dtype;
    int64_t n;
    void *A[VENDOR_MAX_GPUS], *B[VENDOR_MAX_GPUS], *work[VENDOR_MAX_GPUS];
    int *ipiv[VENDOR_MAX_GPUS];     /* with_ipiv: n local pivots per GPU's columns */
    int64_t lwork;
} vendor_mg;

/* Creates the handle on gpus (peer access enabled), the grid, A's
 * descriptor and, when with_b, B's; checks the memory of every GPU and
 * allocates the local parts of A, B (with_b) and the pivots (with_ipiv). */
bool vendor_mg_open(vendor_mg *m, const int *gpus, int ngpus, hyla_dtype t, int64_t n,
                    int64_t nrhs, bool with_b, bool with_ipiv);
/* Allocates lwork elements of work on every GPU (lwork from the routines'
 * bufferSize queries) and sets m->lwork. */
bool vendor_mg_work(vendor_mg *m, int64_t lwork);
/* Uploads host columns (ld ldh, n rows, cols columns) to the tiles parts[]. */
bool vendor_mg_upload(const vendor_mg *m, void *const *parts, const void *host, int64_t ldh,
                      int64_t cols);
bool vendor_mg_sync(const vendor_mg *m); /* every GPU */
/* The untimed start of a run: uploads A (n x n, ld lda; NULL: none) and B
 * (n x nrhs, ld ldb; NULL: none) to their tiles, synchronizes every GPU and
 * makes the first current. */
bool vendor_mg_begin(const vendor_mg *m, const void *A, int64_t lda, const void *B, int64_t ldb,
                     int64_t nrhs);
/* The end of a run started at t0 (cli_now) whose calls returned info:
 * synchronizes every GPU; the seconds since t0, NaN on a failure or a
 * nonzero info (printed). */
double vendor_mg_end(const vendor_mg *m, double t0, int info);
/* Allocates the larger of two bufferSize answers as work (vendor_mg_work),
 * times run on arg (vendor_median_of_runs) and closes m; with ok false (a
 * failed setup, reported) it only closes m. The median or NaN. */
double vendor_mg_time(vendor_mg *m, bool ok, int64_t lwork_a, int64_t lwork_b,
                      double (*run)(void *), void *arg, int warmup, int repeat);
void vendor_mg_close(vendor_mg *m);      /* after a failed open too */
#endif
#endif

#endif
