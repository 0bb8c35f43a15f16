/* Tridiagonal eigensolvers (eig3): public drivers hyla_{s,d}sterf and
 * hyla_{s,d}stedc, the internal entry points of ptridiag.h, and t_tridiag.c
 * once per real precision. */
#include "eig/ptridiag.h"
#include "eig/psy2sb.h"
#include "backend/ops/dc_merge.h"
#include <cblas.h>
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Smallest subproblem of divide and conquer and merge size for the device
 * levels of an order-n problem: the option, else the tuning table of device
 * 0 (host defaults without ctx), lowered to n / stedc_gemm_min_div (at
 * least 256; GPUs: 16) so that smaller problems keep a few levels there
 * too. Measured on one
 * H100, dsyevd with vectors: at n = 4096, 0.204 s with merges from 256 rows
 * on the device against 0.237 s from 512 and 0.332 s from 1024; at 8192,
 * 512 and 1024 took the same 0.591 s
 * (bench/results/raw/syevd-h100-n4096.txt). */
static void stedc_tuning(hyla_t *ctx, int64_t n, int64_t *leaf, int64_t *gemm_min) {
    const hyla_tuning *tu = ctx && ctx->ndev > 0 ? hyla_tuning_for(ctx->devs[0]) : NULL;
    if (*leaf <= 0) *leaf = tu ? tu->stedc_leaf : 32;
    if (*gemm_min <= 0 && ctx && ctx->opt_eig_dc_min > 0) *gemm_min = ctx->opt_eig_dc_min;
    if (*gemm_min <= 0) {
        *gemm_min = tu ? tu->stedc_gemm_min : INT64_MAX;
        if (tu && tu->stedc_gemm_min_div > 0)
            *gemm_min = HYLA_MIN(*gemm_min, HYLA_MAX(256, n / tu->stedc_gemm_min_div));
    }
    if (*leaf < 2) *leaf = 2;
}

/* sterf: unreduced blocks of at least the host row's sterf_dc_min rows go
 * to the values-only divide and conquer with leaves of at most
 * STERF_DC_LEAF rows; smaller ones to the QL iteration (both measured on
 * the host, bench/results/syevd.md). */
#define STERF_DC_MIN (hyla_tuning_host()->sterf_dc_min)
#define STERF_DC_LEAF 64

/* stedc's timers (hyla_eig_stats' stedc_* in this order) */
enum { STEDC_T_LOWER, STEDC_T_DEFLATE, STEDC_T_SECULAR, STEDC_T_GEMM, STEDC_T_COPY,
       STEDC_T_COUNT };

/* The vectors of a device merge (t_tridiag.c's dev_ws): reals dl, w, tau,
 * zh, rc, rs, then int64 org, nd, pos, defl, rp, rj. */
enum { DC_DL, DC_W, DC_TAU, DC_ZH, DC_RC, DC_RS };
enum { DC_ORG, DC_ND, DC_POS, DC_DEFL, DC_RP, DC_RJ };

/* Where the device levels of divide and conquer leave the eigenvectors
 * (t_tridiag.c's dc_device): in dZ (device 0, lddz), or by rows on the
 * devices (rows), or else down into the host matrix; mcols: the merge
 * matrix's columns built at once (0: STEDC_M_COLS); with dZ, c0 < c1: the
 * columns wanted there, which alone the top device merge forms (c1 = 0:
 * all). */
typedef struct {
    void *dZ;
    int64_t lddz;
    hyla_eig_zrows *rows;
    int64_t mcols;
    int64_t c0, c1;
} stedc_out;

/* The merge matrix of a device merge is built and applied by blocks of
 * this many columns: n x 8192 reals instead of n x n (at n = 90000, 5.9
 * against 65 GB) for GEMMs as fast, each block's k still the half's
 * order. */
#define STEDC_M_COLS 8192

/* Column kinds of a merge: nonzero only in the top n1 rows, in both halves
 * (mixed by a deflating rotation), or only in the bottom rows. */
enum { COL_TOP = 0, COL_DENSE = 1, COL_BOTTOM = 2 };

#define HYLA_PREC_S
#include "base/prec.h"
#define TRI(x) x##_s
#define RF(fn) fn##f
#define R_EPS (FLT_EPSILON / 2)
#define R_SAFMIN FLT_MIN
#define R_GEMM cblas_sgemm
#include "eig/t_tridiag.c"
#undef TRI
#undef RF
#undef R_EPS
#undef R_SAFMIN
#undef R_GEMM
#undef HYLA_PREC_S

#define HYLA_PREC_D
#include "base/prec.h"
#define TRI(x) x##_d
#define RF(fn) fn
#define R_EPS (DBL_EPSILON / 2)
#define R_SAFMIN DBL_MIN
#define R_GEMM cblas_dgemm
#include "eig/t_tridiag.c"
#undef TRI
#undef RF
#undef R_EPS
#undef R_SAFMIN
#undef R_GEMM
#undef HYLA_PREC_D

int hyla_eig_sterf_tuned(hyla_dtype rt, int64_t n, void *d, void *e, int64_t dc_min,
                         int64_t leaf) {
    if (n < 0 || (n > 0 && !d) || (n > 1 && !e)) return HYLA_ERR_INVALID;
    if (dc_min <= 0) dc_min = STERF_DC_MIN;
    if (leaf <= 0) leaf = STERF_DC_LEAF;
    leaf = HYLA_MAX(leaf, 2);
    switch (rt) {
    case HYLA_S: return sterf_s(n, d, e, dc_min, leaf);
    case HYLA_D: return sterf_d(n, d, e, dc_min, leaf);
    default: return HYLA_ERR_INVALID;
    }
}

int hyla_eig_sterf(hyla_dtype rt, int64_t n, void *d, void *e) {
    return hyla_eig_sterf_tuned(rt, n, d, e, 0, 0);
}

/* The host BLAS's threads beside the OpenMP team: OpenBLAS's own pthreads
 * beside a team of 16 (16 cores, 16 of each) stalled the host steps of a
 * divide and conquer. One H100 host, `hyla stedc --type d --repeat 3` at n =
 * 1536 / 3072 / 4096 / 5120 / 8192 / 16384: 0.036 / 0.132 / 0.033 / 0.074 /
 * 0.157 / 0.495 s with OpenBLAS on 16 threads, 0.014 / 0.028 / 0.030 / 0.046
 * / 0.093 / 0.373 s with OPENBLAS_NUM_THREADS=1 (4 threads: 0.014 / 0.030 /
 * 0.035 / 0.055 / 0.102 / 0.402 s; OMP_WAIT_POLICY=passive: 0.016 / 0.040 /
 * 0.040 / 0.063 / 0.166 / 0.491 s; bench/results/raw/stedc-blas-threads-h100.txt).
 * hyla does not change OpenBLAS's thread count for its host steps: the
 * count is the process's, and openblas_set_num_threads frees the buffers of
 * the threads it drops while other threads' calls may be using them (on the
 * host backend the other virtual devices' BLAS calls: heap corruption and a
 * crash in a later OpenBLAS call). Where the large merges run on a GPU the
 * host's merges are small (below the device levels) and run side by side on
 * the team, or one after the other with the team inside. On the host
 * backend, and on a GPU whose device levels start above the tuning
 * table's stedc_host_merges_max rows or not at all, the large merges are the
 * host's: their GEMMs run on the team (team_gemm: column blocks, one BLAS
 * call per thread) where the host BLAS runs on one thread, and as one call
 * on the BLAS's own threads where it runs on several (never a team of
 * threaded calls). */

/* The devices that share stedc's device levels: every device of ctx (at
 * most HYLA_MAX_DEVICES), one where the eigenvectors go to device 0's dZ. */
static int stedc_ndev(const hyla_t *ctx, const stedc_out *out) {
    if (!ctx) return 0;
    if (out && out->dZ) return HYLA_MIN(ctx->ndev, 1);
    return HYLA_MIN(ctx->ndev, HYLA_MAX_DEVICES);
}

static int stedc_run(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                     int64_t ldz, const stedc_out *out, int64_t leaf, int64_t gemm_min) {
    if (n < 0 || (n > 0 && (!d || !Z)) || (n > 1 && !e) || ldz < HYLA_MAX(1, n))
        return HYLA_ERR_INVALID;
    if (rt != HYLA_S && rt != HYLA_D) return HYLA_ERR_INVALID;
    if (out && (!ctx || ctx->ndev < 1 || (out->dZ && out->lddz < HYLA_MAX(1, n))))
        return HYLA_ERR_INVALID;
    stedc_tuning(ctx, n, &leaf, &gemm_min);
    const int nd = stedc_ndev(ctx, out);
    double tm[STEDC_T_COUNT] = {0};
    /* teams of at most one thread per 256 rows. On the GPU host's 16 cores
     * a team of all 16 stalled beside OpenBLAS's pthreads and CUDA's host
     * threads: with vectors at n = 512 the tridiagonal stage took 0.056-0.066 s
     * with 16 threads and 0.006-0.011 s with this cap (suite syevd-small-h100,
     * bench/results/syevd.md, which also lists the stall at 1536 that the cap
     * does not remove). */
    const int nth0 = omp_get_max_threads(), nth = (int)HYLA_MAX(1, HYLA_MIN(nth0, n / 256));
    /* the host's merges are small only where the device levels start low
     * (the tuning table's, at most 2048 rows); with every level on the
     * host (the host backend; on a GPU gemm_min past n: a device short of
     * memory, or the option) or a high threshold they include large GEMMs,
     * which the team forms */
    const int gpu = ctx && ctx->ndev > 0 && !ctx->devs[0]->ops->host_cores &&
                    gemm_min <= HYLA_MIN(n, hyla_tuning_for(ctx->devs[0])->stedc_host_merges_max);
    const int team_gemm = !gpu && hyla_blas_threads() == 1;
    /* set even where nth = nth0: an OpenMP build of OpenBLAS sets the
     * calling thread's count with its own */
    omp_set_num_threads(nth);
    const int rc = rt == HYLA_S
                       ? stedc_s(ctx, nd, n, d, e, Z, ldz, leaf, gemm_min, out, team_gemm, tm)
                       : stedc_d(ctx, nd, n, d, e, Z, ldz, leaf, gemm_min, out, team_gemm, tm);
    omp_set_num_threads(nth0);
    if (ctx) {
        hyla_eig_stats *s = &ctx->eig_stats;
        s->stedc_lower = tm[STEDC_T_LOWER];
        s->stedc_deflate = tm[STEDC_T_DEFLATE];
        s->stedc_secular = tm[STEDC_T_SECULAR];
        s->stedc_gemm = tm[STEDC_T_GEMM];
        s->stedc_copy = tm[STEDC_T_COPY];
    }
    return rc;
}

int hyla_eig_stedc_tuned(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                         int64_t ldz, void *dZ, int64_t lddz, int64_t leaf, int64_t gemm_min) {
    const stedc_out out = {.dZ = dZ, .lddz = lddz};
    return stedc_run(ctx, rt, n, d, e, Z, ldz, dZ ? &out : NULL, leaf, gemm_min);
}

int hyla_eig_stedc_cols(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                        int64_t ldz, void *dZ, int64_t lddz, int64_t c0, int64_t c1,
                        int64_t leaf, int64_t gemm_min) {
    if (!dZ || c0 < 0 || c1 <= c0 || c1 > n) return HYLA_ERR_INVALID;
    const stedc_out out = {.dZ = dZ, .lddz = lddz, .c0 = c0, .c1 = c1};
    return stedc_run(ctx, rt, n, d, e, Z, ldz, &out, leaf, gemm_min);
}

int hyla_eig_stedc_rows(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                        int64_t ldz, int64_t leaf, int64_t gemm_min, int64_t mcols,
                        hyla_eig_zrows *rows) {
    if (!rows || mcols < 0) return HYLA_ERR_INVALID;
    memset(rows, 0, sizeof *rows);
    const stedc_out out = {.rows = rows, .mcols = mcols};
    const int rc = stedc_run(ctx, rt, n, d, e, Z, ldz, &out, leaf, gemm_min);
    if (rc) hyla_eig_zrows_free(ctx, rows);
    return rc;
}

void hyla_eig_zrows_free(hyla_t *ctx, hyla_eig_zrows *rows) {
    if (!rows) return;
    for (int g = 0; g < rows->nd; g++)
        if (rows->blk[g]) ctx->devs[g]->ops->mem_free(ctx->devs[g], HYLA_MEM_DEVICE, rows->blk[g]);
    memset(rows, 0, sizeof *rows);
}

size_t hyla_eig_stedc_rows_bytes(hyla_dtype rt, int nd, int64_t n) {
    if (nd < 1 || n <= 0) return 0;
    /* a device's rows: about n / nd, give or take one first-level block
     * (of at most n / 8 rows where several devices share the levels) */
    const size_t rows = (size_t)HYLA_MIN(n, n / nd + (nd > 1 ? n / 8 : 0) + 1);
    return hyla_dtype_size(rt) * (2 * rows * (size_t)n + (size_t)n * (size_t)HYLA_MIN(n, STEDC_M_COLS));
}

int hyla_eig_stedc(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                   int64_t ldz) {
    return hyla_eig_stedc_tuned(ctx, rt, n, d, e, Z, ldz, NULL, 0, 0, 0);
}

int hyla_eig_stedc_dev(hyla_t *ctx, hyla_dtype rt, int64_t n, void *d, void *e, void *Z,
                       int64_t ldz, void *dZ, int64_t lddz) {
    if (!dZ) return HYLA_ERR_INVALID;
    return hyla_eig_stedc_tuned(ctx, rt, n, d, e, Z, ldz, dZ, lddz, 0, 0);
}

/* sterf: 1 n, 2 d, 3 e */
static int sterf_check(int64_t n, const void *d, const void *e) {
    if (n < 0) return -1;
    if (!d && n > 0) return -2;
    if (!e && n > 1) return -3;
    return 0;
}

/* stedc: 1 compz, 2 n, 3 d, 4 e, 5 Z, 6 ldz */
static int stedc_check(char compz, int64_t n, const void *d, const void *e, const void *Z,
                       int64_t ldz, int *vectors) {
    switch (toupper((unsigned char)compz)) {
    case 'N': *vectors = 0; break;
    case 'I': *vectors = 1; break;
    default: return -1;
    }
    if (n < 0) return -2;
    if (!d && n > 0) return -3;
    if (!e && n > 1) return -4;
    if (*vectors && !Z && n > 0) return -5;
    if (ldz < 1 || (*vectors && ldz < n)) return -6;
    if (*vectors && !hyla_size_ok(n, n, ldz)) return -2;
    return 0;
}

int hyla_ssterf(int64_t n, float *d, float *e) {
    int info = sterf_check(n, d, e);
    return info ? info : sterf_s(n, d, e, STERF_DC_MIN, STERF_DC_LEAF);
}

int hyla_dsterf(int64_t n, double *d, double *e) {
    int info = sterf_check(n, d, e);
    return info ? info : sterf_d(n, d, e, STERF_DC_MIN, STERF_DC_LEAF);
}

int hyla_sstedc(hyla_t *ctx, char compz, int64_t n, float *d, float *e, float *Z, int64_t ldz) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    int vectors, info = stedc_check(compz, n, d, e, Z, ldz, &vectors);
    if (info) return info;
    return vectors ? hyla_eig_stedc(ctx, HYLA_S, n, d, e, Z, ldz)
                   : sterf_s(n, d, e, STERF_DC_MIN, STERF_DC_LEAF);
}

int hyla_dstedc(hyla_t *ctx, char compz, int64_t n, double *d, double *e, double *Z,
                int64_t ldz) {
    HYLA_SERIAL(ctx);
    if (!ctx) return HYLA_ERR_INVALID;
    int vectors, info = stedc_check(compz, n, d, e, Z, ldz, &vectors);
    if (info) return info;
    return vectors ? hyla_eig_stedc(ctx, HYLA_D, n, d, e, Z, ldz)
                   : sterf_d(n, d, e, STERF_DC_MIN, STERF_DC_LEAF);
}
