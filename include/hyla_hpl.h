/*
 * hyla HPL: the High-Performance Linpack benchmark on hyla's backends, the
 * part a program needs to run it (the hyla tool's `hyla hpl` uses only this).
 *
 * Link: the static library hyla_hpl (libhyla_hpl.a, installed beside
 * libhyla), then libhyla, BLAS and LAPACKE, and MPI where hyla_hpl was built
 * with it: hyla_hpl is its own library so that libhyla never depends on
 * MPI. With MPI the ranks of MPI_COMM_WORLD form a P x Q process grid;
 * without it, or when the program was not started by mpirun, one rank runs
 * alone. Like the rest of hyla, nothing here prints, aborts or exits: every
 * function returns 0 or a code (HYLA_ERR_*, hyla_strerror(), or the
 * documented -i for a bad argument i).
 */
#ifndef HYLA_HPL_PUBLIC_H
#define HYLA_HPL_PUBLIC_H

#include <stddef.h>
#include <stdint.h>

#include "hyla.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- HPL.dat */

enum { HYLA_HPL_MAX_PARAM = 20 };   /* netlib's HPL_MAX_PARAM: values per list */

/* The 31 lines of a netlib HPL.dat, read and validated as netlib's
 * HPL_pdinfo does. hyla uses Ns, NBs, PMAP, Ps, Qs, the threshold and the
 * lookahead DEPTHs; the other parameters are read and range-checked only
 * (hyla has one panel factorization, one broadcast and one swap algorithm). */
typedef struct {
    char outfile[256];               /* line 3: output file name */
    int device_out;                  /* line 4: 6 stdout, 7 stderr, else the file */
    int nn;  int64_t n[HYLA_HPL_MAX_PARAM];     /* lines 5-6: problem sizes, >= 0 */
    int nnb; int64_t nb[HYLA_HPL_MAX_PARAM];    /* lines 7-8: block sizes, >= 1 */
    int pmap;                        /* line 9: 0 row-major, 1 column-major ranks */
    int ngrid; int p[HYLA_HPL_MAX_PARAM], q[HYLA_HPL_MAX_PARAM]; /* lines 10-12 */
    double threshold;                /* line 13: residual threshold (<= 0: no check) */
    int npfact; int pfact[HYLA_HPL_MAX_PARAM];  /* lines 14-15: 0..2 (ignored) */
    int nnbmin; int nbmin[HYLA_HPL_MAX_PARAM];  /* lines 16-17: >= 1 (ignored) */
    int nndiv; int ndiv[HYLA_HPL_MAX_PARAM];    /* lines 18-19: >= 2 (ignored) */
    int nrfact; int rfact[HYLA_HPL_MAX_PARAM];  /* lines 20-21: 0..2 (ignored) */
    int nbcast; int bcast[HYLA_HPL_MAX_PARAM];  /* lines 22-23: 0..5 (ignored) */
    int ndepth; int depth[HYLA_HPL_MAX_PARAM];  /* lines 24-25: lookahead, >= 0 */
    int swap;                        /* line 26: 0..2 (ignored) */
    int swap_threshold;              /* line 27: >= 0 (ignored) */
    int l1_form, u_form;             /* lines 28-29: 0 or 1 (ignored) */
    int equil;                       /* line 30: 0 or 1 (ignored) */
    int align;                       /* line 31: >= 1 (ignored) */
} hyla_hpl_dat;

/* Reads and validates an HPL.dat file into *dat. Returns 0; -1 (path NULL),
 * -2 (dat NULL); HYLA_ERR_IO when the file cannot be opened; HYLA_ERR_FORMAT
 * when a line is missing, malformed or out of range, with msg (msg_len bytes
 * at most, may be NULL) set to "HPL.dat line L: reason". */
HYLA_API int hyla_hpl_dat_read(const char *path, hyla_hpl_dat *dat, char *msg, size_t msg_len);

/* The same on the text of a file (NUL-terminated): returns 0; -1 (text
 * NULL), -2 (dat NULL); HYLA_ERR_FORMAT with msg as above. */
HYLA_API int hyla_hpl_dat_parse(const char *text, hyla_hpl_dat *dat, char *msg, size_t msg_len);

/* ---------------------------------------------------------------- processes */

/* Starts MPI when the program was launched by mpirun (OMPI_COMM_WORLD_SIZE,
 * PMI_SIZE or PMIX_RANK set) and sets *rank and *size (0 and 1 without MPI).
 * *local_rank is the rank among the processes of this host (for the GPU
 * choice). Returns 0 or HYLA_ERR_MPI. hyla_hpl_finalize ends MPI if
 * hyla_hpl_init started it. */
HYLA_API int hyla_hpl_init(int *rank, int *size, int *local_rank);
HYLA_API void hyla_hpl_finalize(void);

/* Maximum of v[0..count) over the ranks (in place; every rank must call
 * it); identity on one rank. Returns 0 or HYLA_ERR_MPI. */
HYLA_API int hyla_hpl_allmax(double *v, int count);

/* ---------------------------------------------------------------- the run */

/* netlib HPL's seed of [A b] (HPL_ISEED). */
enum { HYLA_HPL_SEED = 100 };

typedef struct {
    int64_t n, nb;          /* order of A, block size; n >= 0, nb >= 1 */
    int nprow, npcol;       /* grid; nprow * npcol <= number of ranks */
    int pmap;               /* 0: rank = myrow * npcol + mycol; 1: mycol * nprow + myrow */
    int depth;              /* lookahead: 0 none, >= 1 one panel ahead */
    double threshold;       /* residual threshold; <= 0: no check */
    int algo;               /* HYLA_HPL_AUTO, HYLA_HPL_GETRF or HYLA_HPL_HOST_PANEL */
    int bcast;              /* HYLA_HPL_BCAST_AUTO, _HOST or _DEVICE (one process row) */
} hyla_hpl_params;

/* Factorization paths. AUTO: a grid with one process row (one rank too)
 * keeps panels, pivots and swaps on the device (getrf and laswp backend
 * ops); any other grid factors panels on the host with the pivot search
 * over MPI. GETRF: as AUTO, but one rank calls the library's
 * hyla_dgetrf_gpu on [A b] (nb as HYLA_OPT_GETRF_NB). HOST_PANEL: the
 * general grid code (host panels) on every grid. */
enum { HYLA_HPL_AUTO = 0, HYLA_HPL_GETRF = 1, HYLA_HPL_HOST_PANEL = 2 };
/* The panel broadcast along a process row of the one-process-row path.
 * HOST: the owner downloads the panel to pinned memory, MPI_Bcast, the
 * others upload it. DEVICE: device to device (backend xcomm ops: NCCL over
 * NVLink, PCIe or the network), the pivots and info through MPI;
 * hyla_hpl_run returns HYLA_ERR_UNSUPPORTED when a rank's backend has no
 * device collectives (host devices, a build without NCCL) or two ranks of a
 * row share one GPU. AUTO: DEVICE where it can be had, else HOST. Grids of
 * several process rows and one rank always use HOST's path. */
enum { HYLA_HPL_BCAST_AUTO = 0, HYLA_HPL_BCAST_HOST = 1, HYLA_HPL_BCAST_DEVICE = 2 };

typedef struct {
    double time_s;          /* wall time of factorization + solve, max over ranks */
    double gflops;          /* (2/3 n^3 + 3/2 n^2) / time / 1e9 */
    double resid;           /* |Ax-b|oo / (eps (|A|oo |x|oo + |b|oo) n); 0 unchecked */
    double rnorm, anorm, xnorm, bnorm;
    int checked;            /* the residual was computed */
    int passed;             /* checked and resid < threshold */
    int64_t info;           /* > 0: first exactly zero pivot (1-based); the solve skipped */
    int in_grid;            /* this rank took part (rank < nprow * npcol) */
    int grid_rank;          /* rank in the grid; 0 prints */
    int bcast_device;       /* panels went device to device (HYLA_HPL_BCAST_DEVICE path) */
} hyla_hpl_result;

/* Runs one HPL test on the ranks of the grid: generates [A b] (N x (N+1),
 * seed HYLA_HPL_SEED) 2-D block-cyclic on device `dev` of ctx (the rank's
 * own GPU, or a virtual host device), factors it by right-looking LU with
 * partial pivoting (the panel broadcast along process rows, TRSM and GEMM
 * on the device; panels and swaps on the device with one process row, else
 * panels on the host with the pivot search over the process column and row
 * swaps between process rows: see params->algo), solves U x = y, and
 * checks the residual against the regenerated A. Ranks outside the grid
 * return at once with in_grid = 0. Every rank of MPI_COMM_WORLD must call.
 *   x      if non-NULL, receives the solution (n values) on every grid rank.
 * Returns 0 (also when the residual check fails: see res->passed); -2 (bad
 * dev), -3 (bad params: sizes, grid larger than the ranks), -4 (res NULL);
 * HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE, HYLA_ERR_BLAS,
 * HYLA_ERR_MPI. A failure on one rank is reported on every grid rank. */
HYLA_API int hyla_hpl_run(hyla_t *ctx, int dev, const hyla_hpl_params *params, hyla_hpl_result *res,
                 double *x);

#ifdef __cplusplus
}
#endif
#endif
