/*
 * hyla — dense linear algebra on CPU cores and NVIDIA GPUs.
 *
 * Conventions used by every routine in this header
 * ------------------------------------------------
 * - Matrices are column-major, as in BLAS and LAPACK. Leading dimensions and
 *   sizes are int64_t.
 * - Return value (LAPACK `info` semantics):
 *      0            success;
 *     -i (-1..-99)  argument i is invalid (arguments are numbered from 1,
 *                   *after* the hyla_t handle, in the order of the BLAS/LAPACK
 *                   routine of the same name);
 *     >0            numerical failure, routine specific (documented per routine);
 *     <= -100       library failure: a HYLA_ERR_* code, see hyla_strerror().
 * - The caller owns every buffer it passes. hyla never frees, reallocates or
 *   keeps a pointer to a caller's buffer after a call returns. On failure the
 *   caller's output may have been partly written, as LAPACK allows, but
 *   nothing the caller owns is freed or leaked.
 * - NaN and Inf: one policy, LAPACK's where LAPACK has one.
 *     Computational routines compute what they are asked and let NaN and
 *     Inf propagate to the output: ?gemm, the triangular solves ?potrs,
 *     ?getrs, ?getrs_nopiv_gpu, stage 1 ?sytrd_sy2sb / ?hetrd_he2hb and the
 *     back transformations ?ormtr_* / ?unmtr_* (and their _gpu variants).
 *     Factorizations propagate them too and report through info where
 *     LAPACK does: ?potrf returns k > 0 when pivot k is not positive or is
 *     NaN (LAPACK's test; a NaN anywhere in the triangle read reaches a
 *     pivot no later than its row (uplo L) or column (U) plus one, while an
 *     Inf on the diagonal passes it and stays in the factor); ?getrf and
 *     ?getrf_nopiv report exactly zero pivots only, so NaN and Inf show in
 *     the factor with info 0.
 *     Solvers and eigensolvers check their input before any work and return
 *     HYLA_ERR_NAN, the caller's data left as passed, when the part of it
 *     they read holds a NaN or an Inf (complex: in either part): ?posv,
 *     ?gesv, ?gesv_nopiv, ?gesv_rbt (A and B), ?syevd / ?heevd (the triangle
 *     read), ?sytrd_sb2st / ?hetrd_hb2st (the band), ?sterf, ?stedc,
 *     ?sterf_bisect (d and e), and their _gpu and _mgpu variants.
 *     Device-resident input is scanned on its device (one pass, no copy to
 *     the host), host-resident input by the host cores (one pass), but for
 *     ?syevd / ?heevd on one GPU, which scan the triangle read on the GPU
 *     as it comes up (the copy is the one pass over the host's memory).
 *     Functions below say "NaN/Inf policy" where this applies.
 * - Sizes: a matrix argument may span at most 2^59 elements (ld times its
 *   columns less one, plus its rows), so that its bytes and every offset
 *   into it fit in a ptrdiff_t. A size past that (an order of 2^40, or
 *   INT64_MAX, or a leading dimension past 2^59) cannot be a matrix in
 *   memory: the driver returns -i for the size argument (the order, or the
 *   count of the matrix's columns: nrhs, k) at once, before reading any
 *   buffer. Smaller sizes are the caller's promise that the buffers hold
 *   them.
 * - Threads: a context may be shared by several threads. Calls on one
 *   context are serialized (each function that takes a hyla_t holds the
 *   context's lock for the whole call: a second thread waits for the
 *   first to return), so their results are those of the calls made one
 *   after the other; for calls that run side by side, give each thread a
 *   context of its own (on devices of its own, or sharing them).
 *   hyla_create and hyla_destroy are not serialized: destroy a context
 *   after every call on it has returned. hyla never changes the host
 *   BLAS's thread count (the process's); the host backend's virtual
 *   devices call the host BLAS each from a thread of its own, so with
 *   several virtual devices on few cores OPENBLAS_NUM_THREADS=1 is best.
 * - hyla never prints, aborts or exits. Diagnostics are returned as codes;
 *   verbose tracing goes to a stream only if the caller sets one
 *   (hyla_set_log()).
 * - Complex scalars: hyla_complex_float / hyla_complex_double default to C99
 *   `float _Complex` / `double _Complex`. Define them before including this
 *   header to use another layout-compatible type (e.g. std::complex in C++).
 */
#ifndef HYLA_H
#define HYLA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef hyla_complex_float
#include <complex.h>
#define hyla_complex_float float _Complex
#endif
#ifndef hyla_complex_double
#include <complex.h>
#define hyla_complex_double double _Complex
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden symbol visibility: the functions marked
 * HYLA_API below are all it exports. */
#if defined(__GNUC__) || defined(__clang__)
#define HYLA_API __attribute__((visibility("default")))
#else
#define HYLA_API
#endif

#define HYLA_VERSION_MAJOR 0
#define HYLA_VERSION_MINOR 1
#define HYLA_VERSION_PATCH 0

/* ---------------------------------------------------------------- errors */

/* Library failures. Argument errors are -1..-99, numerical failures > 0. */
enum {
    HYLA_SUCCESS = 0,
    HYLA_ERR_NO_MEMORY = -101,        /* host allocation failed */
    HYLA_ERR_DEVICE_MEMORY = -102,    /* device or pinned allocation failed, or the
                                         problem cannot fit the device memory cap */
    HYLA_ERR_DEVICE = -103,           /* a device runtime call failed (CUDA, thread) */
    HYLA_ERR_BLAS = -104,             /* a device BLAS call failed (cuBLAS) */
    HYLA_ERR_NO_DEVICE = -105,        /* the requested device does not exist */
    HYLA_ERR_DEVICE_SPEC = -106,      /* malformed device list (HYLA_DEVICES / hyla_create) */
    HYLA_ERR_UNSUPPORTED = -107,      /* not available in this build (e.g. CUDA off) */
    HYLA_ERR_IO = -108,               /* file could not be opened, read or written */
    HYLA_ERR_FORMAT = -109,           /* malformed input file (.npy) */
    HYLA_ERR_INVALID = -110,          /* invalid value of an option or handle */
    HYLA_ERR_INTERNAL = -111,         /* invariant broken inside hyla: please report */
    HYLA_ERR_NAN = -112,              /* the input of a solver or eigensolver holds NaN or
                                         Inf (the NaN/Inf policy above); nothing computed */
    HYLA_ERR_MPI = -113               /* an MPI call failed (HPL) */
};

/* A static, human-readable description of any code returned by hyla
 * (success, argument errors, numerical failures and HYLA_ERR_*). Never NULL. */
HYLA_API const char *hyla_strerror(int code);

/* Version string "MAJOR.MINOR.PATCH". */
HYLA_API const char *hyla_version(void);

/* ---------------------------------------------------------------- context */

typedef struct hyla_context hyla_t;

typedef enum { HYLA_DEVICE_HOST = 0, HYLA_DEVICE_CUDA = 1 } hyla_device_kind;

typedef struct {
    hyla_device_kind kind;
    int ordinal;            /* CUDA device ordinal, or virtual-device index */
    char name[128];
    int64_t memory_bytes;   /* device memory visible to hyla (after any cap) */
    int compute_major, compute_minor; /* CUDA capability; 0 for host */
    int multiprocessors;    /* SM count; host: worker threads per device (1) */
} hyla_device_info;

/* Creates a context owning a set of devices.
 *   ctx      out: the new context (set to NULL on failure).
 *   devices  device list, or NULL to read the environment variable
 *            HYLA_DEVICES, and if that is unset or empty, to take every CUDA
 *            GPU, or one virtual host device when there is none. Syntax:
 *              "cuda"          every CUDA GPU;
 *              "cuda:0,2"      CUDA GPUs 0 and 2;
 *              "cpu" / "cpu:3" one / three virtual host devices (each runs
 *                              its queues on its own threads; used to run
 *                              multi-device algorithms without a GPU);
 *              "host"          same as "cpu".
 *            An optional suffix "@SIZE" (e.g. "cpu:3@64M", "cuda:0@8G")
 *            caps the memory hyla uses on each device (K, M, G suffixes).
 * Each option (hyla_option) starts at its default, or at the integer in the
 * environment variable HYLA_<ID> for HYLA_OPT_<ID> when that is set and not
 * empty (e.g. HYLA_EIG_KD=64; hyla_options.h lists them).
 * Returns 0, HYLA_ERR_DEVICE_SPEC (bad syntax), HYLA_ERR_NO_DEVICE (a listed
 * GPU does not exist), HYLA_ERR_UNSUPPORTED (cuda asked, and the CUDA backend
 * is not built or could not be loaded: hyla_get_backend_info says why),
 * HYLA_ERR_INVALID (an option's environment variable is not an integer, or
 * out of the option's range), HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE. -1 if ctx
 * is NULL. */
HYLA_API int hyla_create(hyla_t **ctx, const char *devices);

/* Destroys a context and every workspace it cached. Accepts NULL and *ctx ==
 * NULL; sets *ctx to NULL. Waits for nothing: no call may be in flight. */
HYLA_API void hyla_destroy(hyla_t **ctx);

/* Number of devices in the context (>= 1 for a valid context, 0 for NULL). */
HYLA_API int hyla_device_count(const hyla_t *ctx);

/* Fills *info for device i (0 <= i < hyla_device_count). Returns 0, -1 (bad
 * ctx), -2 (bad i) or -3 (info NULL). */
HYLA_API int hyla_get_device_info(const hyla_t *ctx, int i, hyla_device_info *info);

/* The backends of this build, for a program that asks before it makes a
 * context which kinds of device it can have (hyla_create's device list names
 * them by name).
 *   name       "cpu" (the host backend, always there) or "cuda";
 *   available  1: a device list may name it in this process; 0: it is not
 *              (CUDA: not built, or libhyla_cuda.so, which the shared
 *              libhyla.so loads at run time from its own directory or from
 *              the file HYLA_CUDA_BACKEND names, is missing or cannot load
 *              its CUDA libraries; "none" in HYLA_CUDA_BACKEND keeps it
 *              unloaded), detail then saying why;
 *   devices    GPUs found (cuda; 0 on a machine without any), or the most
 *              virtual devices a list may ask for (cpu);
 *   detail     the versions it runs on, or why it is not available.
 * The first query of the CUDA backend loads it (and initializes the CUDA
 * runtime). */
typedef struct {
    char name[16];
    hyla_device_kind kind;
    int available;
    int devices;
    char detail[256];
} hyla_backend_info;

/* Number of backends of the build (>= 1; index them 0 .. count - 1). */
HYLA_API int hyla_backend_count(void);

/* Fills *info for backend i. Returns 0, -2 (bad i) or -3 (info NULL). */
HYLA_API int hyla_get_backend_info(int i, hyla_backend_info *info);

/* The grammar of a device list (hyla_create, HYLA_DEVICES) as one line of
 * text, written from the table of backends, for a program's help and error
 * messages. Static; never NULL. */
HYLA_API const char *hyla_device_list_help(void);

/* One device of a list for one of several processes sharing a node's GPUs
 * (MPI ranks, one GPU each): the device of spec (hyla_create's grammar;
 * NULL or "" reads HYLA_DEVICES, then hyla_create's default) at position
 * slot modulo the list's length ("cuda": every GPU of the node in ordinal
 * order), as a list of that one device with spec's @SIZE cap, written to
 * buf (len bytes, NUL-terminated). A list of counted host devices (cpu:N,
 * virtual devices of each process) comes back whole. E.g. "cuda:2,3@8G"
 * and slot 3 give "cuda:3@8G". Returns 0; HYLA_ERR_DEVICE_SPEC (malformed
 * spec, buf then ""); HYLA_ERR_NO_DEVICE ("cuda" on a node without a GPU);
 * HYLA_ERR_INVALID (buf NULL, len 0, slot < 0, or len too short for the
 * result). Reads nothing but the list and the device count. */
HYLA_API int hyla_device_list_slot(const char *spec, int slot, char *buf, size_t len);

/* Frees the device and pinned workspaces the context keeps between calls
 * (they are re-created on demand). Returns 0 or -1 if ctx is NULL. */
HYLA_API int hyla_release_workspace(hyla_t *ctx);

/* Tunable options. Each has a default from the tuning table for the device
 * family; setting an option overrides it for this context. The table in
 * hyla_options.h gives each one's range, default, environment variable and
 * flag of the hyla tool. */
typedef enum {
    /* GEMM tile edge (rows and columns of a C tile); 0 = tuning table. */
    HYLA_OPT_GEMM_TILE = 1,
    /* GEMM k-block (depth of a streamed A/B chunk); 0 = tuning table. */
    HYLA_OPT_GEMM_KBLOCK = 2,
    /* Share of GEMM work done by OpenBLAS on the host cores, next to the
     * devices, in units of 1/1000: -1 = automatic (use the CPU when it is
     * predicted to shorten the run), 0 = never, 1..999 = that initial share
     * (the CPU still steals tiles when it finishes early). Ignored on the
     * host backend, whose devices already are the CPU. */
    HYLA_OPT_GEMM_CPU_SHARE = 3,
    /* Threads that pack host panels into pinned staging buffers, per
     * device; 0 = automatic. */
    HYLA_OPT_PACK_THREADS = 4,
    /* Cholesky block width (columns of a factored panel); 0 = tuning table. */
    HYLA_OPT_POTRF_NB = 5,
    /* Cholesky memory mode: 0 = automatic (in-core when the factor fits on
     * every device, else out-of-core), 1 = force the out-of-core path. */
    HYLA_OPT_POTRF_OOC = 6,
    /* Eigensolver stage 1 (dense -> band): half-bandwidth kd of the band,
     * >= 1; 0 = tuning table. */
    HYLA_OPT_EIG_KD = 20,
    /* Eigensolver stage 1: columns per trailing update (panels of kd columns
     * grouped; rounded down to a multiple of kd, at least kd); 0 = tuning
     * table. */
    HYLA_OPT_EIG_NB = 21,
    /* Eigensolver, eigenvectors: the order of the back transformations.
     * 0 = automatic (reordered on a GPU from n = 4096, where one H100
     * measured it faster; else direct), 1 = direct
     * (Z := Q1 (Q2 E) after the tridiagonal solver), 2 = reordered (Q1 Q2
     * built on the device while the host cores run the tridiagonal solver,
     * then Z := Q E, one GEMM; n^2 more device memory plus n^2 reals). */
    HYLA_OPT_EIG_ORDER = 23,
    /* Eigensolver stage 2 (bulge chasing): 0 = automatic (the device from
     * the tuning table's order on, with kd <= 64: 512 on GPUs, measured
     * faster there with and without eigenvectors; else the host cores), 1 = the host cores (running
     * beside stage 1 on a GPU), 2 = the device (the persistent GPU kernel;
     * half-bandwidth up to 64 on CUDA, else the host cores). With
     * eigenvectors the device chase keeps its reflectors in device memory
     * for the Q2 back transformation (the host chase keeps them in host
     * memory and uploads them). */
    HYLA_OPT_EIG_CHASE = 24,
    /* LU block width (columns of a factored panel); 0 = tuning table. */
    HYLA_OPT_GETRF_NB = 7,
    /* LU leaf width inside a panel (the panel is factored recursively down
     * to leaves of at most this many columns; capped at the block width);
     * 0 = tuning table. */
    HYLA_OPT_GETRF_IB = 8,
    /* Eigensolver stage 2 (bulge chasing): sweeps per block reflector of the
     * Q2 back transformation, 1..min(4 kd, 256) (larger is clipped); 0 =
     * kd. A smaller one saves flops (2 n^3 (kd+nb-1)/kd in all) but makes
     * the GEMMs thinner and the waves more; a larger one makes fewer waves
     * (passes over the eigenvectors) for more flops and a larger store. The
     * GPU kernel (HYLA_OPT_EIG_BACK2 = 2) takes up to 32. Applies to
     * reflectors made after it is set. */
    HYLA_OPT_EIG_BACK2_NB = 22,
    /* Eigensolver, eigenvectors: how the Q2 back transformation runs.
     * 0 = automatic (the tuning table: on Hopper GPUs the one-call kernel
     * for double at kd 64 in groups of 32 sweeps, its products on the FP64
     * tensor cores; the batched GEMMs wave by wave for s, c and z, whose
     * kernel runs on CUDA cores and was measured slower on one H100), 1 =
     * batched GEMMs, 2 = the backend's one-call kernel (CUDA: sweeps per
     * group up to 32, kd up to 64, else the GEMMs; the host backend's runs
     * the kernel's schedule as a reference, for tests). */
    HYLA_OPT_EIG_BACK2 = 27,
    /* Eigensolver, eigenvalues only: the tridiagonal eigenvalue solver.
     * 0 = automatic (bisection on a GPU from n = 2048, measured faster
     * there on one H100; else
     * sterf), 1 = sterf on the host cores (divide and conquer and QL),
     * 2 = bisection on the device (hyla_?sterf_bisect's method). */
    HYLA_OPT_EIG_TRIDIAG = 25,
    /* LU panel leaves (the getrf of each ib-wide leaf, and HPL's panel) on
     * a GPU: 0 = automatic (cuSOLVER getrf: on one H100 the fused kernel
     * was slower, 0.757 ms against 0.688 ms for a 16384 x 128 leaf),
     * 1 = the vendor's (cuSOLVER getrf), 2 = the fused kernel for every
     * panel (wider ones, such as HPL's, by a recursive LU whose leaves of
     * 128 columns it factors); a value c >= 8 selects the
     * fused kernel too, on at most c CTAs (fewer CTAs: a cheaper grid
     * barrier per column, more SMs left to concurrent work). 2 and c also
     * send QR panels of at most 64 columns (the eigensolver's stage 1) to
     * the fused QR panel kernel; automatic and vendor keep cuSOLVER's geqrf
     * there. Ignored by the host backend. */
    HYLA_OPT_LU_PANEL = 26,
    /* Divide and conquer with eigenvectors (?stedc, and the eigensolver's
     * jobz V): the smallest merge (rows) of the levels run on the devices
     * with the eigenvector matrices resident there, dealt by rows (device 0
     * alone where the eigensolver runs on one), the secular equations and
     * the merge matrices built there too; the levels below run on the host
     * cores. 0 = automatic: the tuning table's (1024 on Hopper, 2048 on
     * other GPUs; none on the host backend), on a GPU lowered to n / 16 but
     * not below 256; else >= 2. */
    HYLA_OPT_EIG_DC_MIN = 28,
    /* Eigensolver, eigenvectors: columns per block reflector of the Q1
     * (stage 1) back transformation, rounded down to a multiple of the band
     * width kd (at least kd). 0 = the tuning table's (256). */
    HYLA_OPT_EIG_BACK1_NB = 29,
    /* Eigensolver (hyla_?syevd / ?heevd): the devices it uses. 0 =
     * automatic: on GPUs every device of the context with eigenvectors from
     * n = 16384 (below, the fixed costs of several devices are not paid
     * back), device 0 alone below and for eigenvalues alone (there the
     * multi-device stage 1 has been slower than one GPU's); on host devices
     * every device; 1 = device 0 alone (the one-device
     * solver, whatever the context holds); 2 = every device of the context
     * (several: the multi-device solver, the matrix distributed by blocks
     * of columns). */
    HYLA_OPT_EIG_DEVICES = 30,
    /* Eigensolver on several devices, stage 1 (dense -> band): 0 =
     * automatic (the tuning table's), 1 = half storage (the lower triangle;
     * A V summed over the devices by an allreduce), 2 = full storage (both
     * triangles kept; A V gathered, no sum, twice the update flops). */
    HYLA_OPT_EIG_SBR = 31,
    /* Eigensolver on several devices, half storage: the sum-allreduce of
     * A V. 0 = automatic (the tuning table's), 1 = through pinned host
     * memory, 2 = device to device (the partials to device 0, summed there,
     * copied back). */
    HYLA_OPT_EIG_ALLREDUCE = 32,
    /* Eigensolver stage 1 (dense -> band): how each panel (the m x kd
     * columns below the band) is factored. 0 = automatic (CholeskyQR2 on a
     * GPU for panels of at least 2048 rows, and for every panel of at least
     * 2 kd rows once the backend rebuilt an earlier panel's reflectors on
     * the device, measured faster there on one H100; Householder QR on the
     * host backend), 1 = Householder QR (the
     * backend's geqrf), 2 = CholeskyQR2 with the Householder vectors
     * reconstructed from its Q (the same V, T and R a Householder QR gives,
     * from two Gram matrices and triangular solves instead of a chain of
     * kd column steps). A panel that is too ill-conditioned for it (its
     * Cholesky fails, its R's diagonal spans more than 1/(64 sqrt(eps)),
     * or the second Gram matrix is more than 0.1 from I) falls back to
     * Householder QR, as do panels of fewer than 2 kd rows. The
     * multi-device solver (several devices, host-resident input): 0 and 1
     * are Householder QR; 2 is CholeskyQR2 for every panel of 2 kd rows
     * or more with no host round trip, and a refused panel starts the
     * solver over from the input with Householder panels; a distributed
     * (device-resident) matrix always takes Householder QR there. */
    HYLA_OPT_EIG_PANEL_QR = 33,
    /* Eigensolver stage 1, and the generalized drivers' reduction to the
     * standard problem (hyla_?sygvd, ?sygvdx, itype 1): how the trailing
     * matrix receives each block's rank-2k update. 0 = automatic (GEMMs on
     * a GPU for trailing orders of at least 8192, one HER2K/SYR2K
     * otherwise; measured on one H100 and one H200), 1 = one HER2K/SYR2K,
     * 2 = per block column a HER2K/SYR2K on the diagonal block and one GEMM
     * of inner dimension 2k below it, at every order (the other triangle
     * is never written either way). Workspace of the GEMM form: 3 n nb
     * elements of device memory (nb: the block width, 128 .. 256). */
    HYLA_OPT_EIG_S1_UPDATE = 34,
    /* Eigensolver stage 1: how A V (A the trailing matrix, Hermitian, V the
     * panel's kd columns) is formed. 0 = automatic (the tuning table's:
     * GEMMs on Hopper for s, d and c, where cuBLAS's SYMM/HEMM measured
     * slower; the backend's SYMM/HEMM elsewhere), 1 = the backend's
     * SYMM/HEMM, 2 = GEMMs with diagonal blocks of the tuning table's order
     * (1024 where it has none), N >= 16 = GEMMs with diagonal blocks of
     * order N: the diagonal blocks are copied out as full matrices and
     * multiplied in one batched GEMM, the rest of the lower triangle by
     * GEMMs on halves taken recursively (each off-diagonal block read
     * twice, as itself and as its conjugate transpose). Workspace:
     * ceil(n / N) N^2 elements of device memory. 3 .. 15 are refused. */
    HYLA_OPT_EIG_S1_SYMM = 35,
    /* Eigensolver (one device): the orders the backend's one-stage dense
     * solver takes instead of the two-stage method (cuSOLVER's Xsyevd on a
     * GPU, LAPACK ?syevd / ?heevd on the host backend), where the
     * two-stage method's chains of dependent steps (stage 1's panels, the
     * chase's 2 n steps) outlast the whole one-stage solve. 0 = automatic
     * (the tuning table's crossover per precision and jobz, measured on
     * H100, and on H200 for GPUs with more than 100 GiB, against cuSOLVER
     * in the same run; on the host backend every
     * order for s and d with eigenvectors, none otherwise), 1 =
     * never, N >= 2 = every order up to N. The eigenvalues, eigenvectors,
     * info and failure codes are those hyla_?syevd documents; the solve's
     * time is reported as tridiag, with kd = nb = 0 (hyla_get_eig_stats);
     * the workspace (LAPACK's: 1 + 6n + 2n^2 elements with vectors) is
     * taken for the call. */
    HYLA_OPT_EIG_ONE_STAGE = 36,
    /* Eigensolver stage 2 on a GPU (the device chase, HYLA_OPT_EIG_CHASE):
     * how each step of a sweep gets its window of the band. 0 = automatic
     * (the tuning table's choice per precision; on Hopper, measured on one
     * H100 with the chase alone: split for c and z, copied ahead for s and
     * d), 1 = loaded after the
     * wait for the previous sweep's hand-off, 2 = the next step's window
     * copied ahead where the previous sweep has finished with it (on a GPU
     * whose blocks' shared memory cannot hold a second window: as 1), 3 = the
     * step split at its last row: what does not read that row runs before
     * the wait for the previous sweep's hand-off (falling back to the whole
     * window where the split's rescaling would not be exact). The
     * tridiagonal, the reflectors and every failure state are the same in
     * all modes up to rounding; only the time differs
     * (bench/results/chase-h100.md). The host backend's chase has one
     * order and ignores it. */
    HYLA_OPT_EIG_CHASE_STEP = 37,
    /* Cholesky and LU (potrf, potrs, posv, getrf, getrs, gesv, and their
     * no-pivoting and solve variants) of host-resident matrices on a context
     * of one host device without a memory cap (cpu, not cpu@SIZE): 0 = auto,
     * the whole matrix in place by the host LAPACK and BLAS (OpenBLAS's
     * potrf, getrf, trsm, laswp), unless a panel width (HYLA_OPT_POTRF_NB,
     * HYLA_OPT_GETRF_NB) or the out-of-core path (HYLA_OPT_POTRF_OOC) is set;
     * 1 = off, hyla's tile engine as on several devices (the matrix copied
     * into the device's memory, panel by panel). The engine ran at 0.26 to
     * 0.66x of LAPACKE on the same OpenBLAS there, this path at 0.75 to
     * 1.06x (2 cores, n = 1000 to 4000, bench/results/host-direct.md).
     * Results agree up to rounding; the statistics (hyla_get_chol_stats)
     * report the panels of the whole-matrix path. */
    HYLA_OPT_HOST_LAPACK = 38,
    /* A part of the spectrum with eigenvectors (hyla_?syevdx, ?heevdx,
     * ?sygvd with a range) once the matrix is tridiagonal: from N per
     * mille of the n pairs wanted on (1 .. 1000), all n pairs of the
     * tridiagonal by divide and conquer and the wanted kept, below it the
     * wanted alone by MRRR on the host cores; 1001 = never divide and
     * conquer; 0 = the tuning table's eig_subset_dc_pml (3 on GPUs, 350
     * on the host backend; docs/TUNING.md). Results agree up to rounding. */
    HYLA_OPT_EIG_SUBSET_DC = 39
} hyla_option;

/* Sets an option. Returns 0, -1 (ctx NULL), -2 (unknown option) or -3 (value
 * out of range). */
HYLA_API int hyla_set_option(hyla_t *ctx, hyla_option opt, int64_t value);
/* Reads the current value of an option (after defaults); same codes. */
HYLA_API int hyla_get_option(const hyla_t *ctx, hyla_option opt, int64_t *value);

/* Directs hyla's optional trace output (planning decisions, workspace sizes)
 * to a stream; NULL (the default) silences it. */
HYLA_API void hyla_set_log(hyla_t *ctx, FILE *stream);

/* Statistics of the last GEMM call made with this context. */
typedef struct {
    int64_t tiles_total;         /* C tiles of the call */
    int64_t tiles_cpu;           /* tiles done by the host CPU share */
    int64_t tiles_per_device[16];/* tiles done by each device (first 16) */
    int64_t bytes_h2d, bytes_d2h;/* bytes moved over the host link */
    int64_t tile, kblock;        /* tile edge and k-block used */
    int passes;                  /* 1 when every A/B chunk crossed the bus once per device */
} hyla_gemm_stats;
HYLA_API int hyla_get_gemm_stats(const hyla_t *ctx, hyla_gemm_stats *stats);

/* ---------------------------------------------------------------- GEMM */

/* C := alpha * op(A) * op(B) + beta * C on host-resident matrices, using
 * every device of the context: C tiles stay on a device for their whole k
 * loop while A and B chunks stream through pinned staging buffers; devices
 * (and optionally the host CPU, HYLA_OPT_GEMM_CPU_SHARE) share the tiles
 * dynamically. Any size is allowed, including matrices larger than the
 * memory of all devices together.
 *
 *   transa, transb  'N' (op(X) = X), 'T' (X^T) or 'C' (X^H; same as 'T' for
 *                   s/d). Lower case is accepted.
 *   m, n, k         op(A) is m x k, op(B) is k x n, C is m x n; >= 0.
 *   alpha, beta     scalars. If beta == 0, C is not read (NaN/Inf in C do not
 *                   propagate). If alpha == 0 or k == 0, A and B are not read.
 *   A, lda          lda >= max(1, rows of A as stored: m if transa = 'N', else k).
 *   B, ldb          ldb >= max(1, k if transb = 'N', else n).
 *   C, ldc          ldc >= max(1, m).
 * Argument numbers for errors (BLAS xerbla order): 1 transa, 2 transb, 3 m,
 * 4 n, 5 k, 7 A (NULL while read), 8 lda, 9 B (NULL while read), 10 ldb,
 * 12 C (NULL while m, n > 0), 13 ldc. A NULL ctx returns HYLA_ERR_INVALID.
 * Workspace: device and pinned buffers cached in ctx (hyla_release_workspace).
 * Failures: HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE,
 * HYLA_ERR_BLAS; on failure C may be partly updated. NaN/Inf policy:
 * propagated. */
HYLA_API int hyla_sgemm(hyla_t *ctx, char transa, char transb, int64_t m, int64_t n, int64_t k,
               float alpha, const float *A, int64_t lda, const float *B, int64_t ldb,
               float beta, float *C, int64_t ldc);
HYLA_API int hyla_dgemm(hyla_t *ctx, char transa, char transb, int64_t m, int64_t n, int64_t k,
               double alpha, const double *A, int64_t lda, const double *B, int64_t ldb,
               double beta, double *C, int64_t ldc);
HYLA_API int hyla_cgemm(hyla_t *ctx, char transa, char transb, int64_t m, int64_t n, int64_t k,
               hyla_complex_float alpha, const hyla_complex_float *A, int64_t lda,
               const hyla_complex_float *B, int64_t ldb, hyla_complex_float beta,
               hyla_complex_float *C, int64_t ldc);
HYLA_API int hyla_zgemm(hyla_t *ctx, char transa, char transb, int64_t m, int64_t n, int64_t k,
               hyla_complex_double alpha, const hyla_complex_double *A, int64_t lda,
               const hyla_complex_double *B, int64_t ldb, hyla_complex_double beta,
               hyla_complex_double *C, int64_t ldc);

/* The same product on matrices resident in the memory of device `dev` of the
 * context (0 <= dev < hyla_device_count): a direct call of the device BLAS
 * (cuBLAS on a GPU, OpenBLAS on a virtual host device, whose device memory
 * is host memory obtained from hyla_malloc_device). Synchronous: returns when
 * C is written. Argument numbers as hyla_?gemm with dev as argument 0 (a bad
 * dev returns HYLA_ERR_NO_DEVICE). */
HYLA_API int hyla_sgemm_gpu(hyla_t *ctx, int dev, char transa, char transb, int64_t m, int64_t n,
                   int64_t k, float alpha, const float *dA, int64_t lda, const float *dB,
                   int64_t ldb, float beta, float *dC, int64_t ldc);
HYLA_API int hyla_dgemm_gpu(hyla_t *ctx, int dev, char transa, char transb, int64_t m, int64_t n,
                   int64_t k, double alpha, const double *dA, int64_t lda, const double *dB,
                   int64_t ldb, double beta, double *dC, int64_t ldc);
HYLA_API int hyla_cgemm_gpu(hyla_t *ctx, int dev, char transa, char transb, int64_t m, int64_t n,
                   int64_t k, hyla_complex_float alpha, const hyla_complex_float *dA,
                   int64_t lda, const hyla_complex_float *dB, int64_t ldb,
                   hyla_complex_float beta, hyla_complex_float *dC, int64_t ldc);
HYLA_API int hyla_zgemm_gpu(hyla_t *ctx, int dev, char transa, char transb, int64_t m, int64_t n,
                   int64_t k, hyla_complex_double alpha, const hyla_complex_double *dA,
                   int64_t lda, const hyla_complex_double *dB, int64_t ldb,
                   hyla_complex_double beta, hyla_complex_double *dC, int64_t ldc);

/* Statistics of the last Cholesky call (potrf, potrs, posv) of this context. */
typedef struct {
    int out_of_core;             /* 1 when the factor did not stay whole on the devices */
    int64_t nb;                  /* panel width used */
    int64_t resident_cols;       /* leading columns of the factor kept on each device */
    int64_t bytes_h2d, bytes_d2h;/* bytes moved over the host link, all devices */
    int64_t bytes_peer;          /* bytes moved between devices */
    int64_t panels_per_device[16];/* panels factored by each device (first 16) */
} hyla_chol_stats;
/* Returns 0, -1 (ctx NULL) or -2 (stats NULL). */
HYLA_API int hyla_get_chol_stats(const hyla_t *ctx, hyla_chol_stats *stats);

/* ---------------------------------------------------------------- Cholesky */

/* Cholesky factorization A = L L^H (uplo 'L') or A = U^H U (uplo 'U') of a
 * Hermitian (real: symmetric) positive definite host-resident matrix, using
 * every device of the context. Left-looking by panels of HYLA_OPT_POTRF_NB
 * columns dealt round-robin to the devices; each factored panel is sent to
 * every device, so the next panel's update is one large GEMM, and the update
 * from older panels overlaps the factorization of the newest (lookahead).
 * Panels are copied to the devices once and back once, the copies
 * overlapping the computation. When the factor does not fit in device memory
 * (or HYLA_OPT_POTRF_OOC = 1), the leading columns stay resident and the rest
 * stream through the devices (out-of-core).
 *
 *   uplo     'L' or 'U' (lower case accepted): the triangle of A referenced
 *            and overwritten; the other triangle is neither read nor written.
 *   n        order of A, >= 0.
 *   A, lda   lda >= max(1, n).
 * Returns 0; -i when argument i is bad (1 uplo, 2 n, 3 A NULL while n > 0,
 * 4 lda); k > 0 when the leading minor of order k is not positive definite
 * or pivot k is NaN (NaN/Inf policy: LAPACK's test; NaN and Inf otherwise
 * propagate): the panels before the one holding column k then hold the
 * factor and the rest of A is left as it was passed; a HYLA_ERR_* code on a resource or
 * device failure (A may then be partly overwritten). A NULL ctx returns
 * HYLA_ERR_INVALID.
 * Workspace: device and pinned buffers cached in ctx, as for GEMM
 * (hyla_release_workspace frees them). */
HYLA_API int hyla_spotrf(hyla_t *ctx, char uplo, int64_t n, float *A, int64_t lda);
HYLA_API int hyla_dpotrf(hyla_t *ctx, char uplo, int64_t n, double *A, int64_t lda);
HYLA_API int hyla_cpotrf(hyla_t *ctx, char uplo, int64_t n, hyla_complex_float *A, int64_t lda);
HYLA_API int hyla_zpotrf(hyla_t *ctx, char uplo, int64_t n, hyla_complex_double *A, int64_t lda);

/* Solves A X = B with the factor from hyla_?potrf (LAPACK potrs).
 *   uplo, n, A, lda   as passed to and returned by potrf; A is not modified.
 *   nrhs              columns of B, >= 0.
 *   B, ldb            n x nrhs right-hand sides, overwritten by X;
 *                     ldb >= max(1, n).
 * The right-hand sides are split by columns over the devices; the factor
 * streams through each device by panels (kept resident when it fits).
 * Returns 0; -i for a bad argument (1 uplo, 2 n, 3 nrhs, 4 A NULL, 5 lda,
 * 6 B NULL, 7 ldb); a HYLA_ERR_* code on failure (B may be partly updated).
 * NaN/Inf policy: propagated. */
HYLA_API int hyla_spotrs(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, const float *A, int64_t lda,
                float *B, int64_t ldb);
HYLA_API int hyla_dpotrs(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                double *B, int64_t ldb);
HYLA_API int hyla_cpotrs(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, const hyla_complex_float *A,
                int64_t lda, hyla_complex_float *B, int64_t ldb);
HYLA_API int hyla_zpotrs(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, const hyla_complex_double *A,
                int64_t lda, hyla_complex_double *B, int64_t ldb);

/* Factors A (as hyla_?potrf) and solves A X = B (LAPACK posv). When the
 * factor stays on the devices, the solve uses it there without copying it
 * again. Arguments and codes as potrs; A is overwritten by the factor; on
 * info = k > 0, B is not modified. HYLA_ERR_NAN (NaN/Inf policy) when the
 * triangle uplo of A or B holds NaN or Inf: A and B are not modified. */
HYLA_API int hyla_sposv(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, float *A, int64_t lda,
               float *B, int64_t ldb);
HYLA_API int hyla_dposv(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda,
               double *B, int64_t ldb);
HYLA_API int hyla_cposv(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, hyla_complex_float *A,
               int64_t lda, hyla_complex_float *B, int64_t ldb);
HYLA_API int hyla_zposv(hyla_t *ctx, char uplo, int64_t n, int64_t nrhs, hyla_complex_double *A,
               int64_t lda, hyla_complex_double *B, int64_t ldb);

/* Cholesky factorization of a matrix resident on device `dev` (memory from
 * hyla_malloc_device or, on a GPU, cudaMalloc), on that device alone, with
 * the same algorithm as hyla_?potrf and no host copies. Synchronous.
 * Argument numbers as hyla_?potrf with dev as argument 0 (a bad dev returns
 * HYLA_ERR_NO_DEVICE). On info = k > 0 the contents of dA from the panel
 * holding column k on are unspecified. NaN/Inf policy: as hyla_?potrf. */
HYLA_API int hyla_spotrf_gpu(hyla_t *ctx, int dev, char uplo, int64_t n, float *dA, int64_t ldda);
HYLA_API int hyla_dpotrf_gpu(hyla_t *ctx, int dev, char uplo, int64_t n, double *dA, int64_t ldda);
HYLA_API int hyla_cpotrf_gpu(hyla_t *ctx, int dev, char uplo, int64_t n, hyla_complex_float *dA,
                    int64_t ldda);
HYLA_API int hyla_zpotrf_gpu(hyla_t *ctx, int dev, char uplo, int64_t n, hyla_complex_double *dA,
                    int64_t ldda);

/* Solves A X = B on device `dev` with a device-resident factor from
 * hyla_?potrf_gpu; dB (lddb >= max(1, n)) is overwritten by X. Synchronous.
 * Argument numbers as hyla_?potrs with dev as argument 0. */
HYLA_API int hyla_spotrs_gpu(hyla_t *ctx, int dev, char uplo, int64_t n, int64_t nrhs, const float *dA,
                    int64_t ldda, float *dB, int64_t lddb);
HYLA_API int hyla_dpotrs_gpu(hyla_t *ctx, int dev, char uplo, int64_t n, int64_t nrhs, const double *dA,
                    int64_t ldda, double *dB, int64_t lddb);
HYLA_API int hyla_cpotrs_gpu(hyla_t *ctx, int dev, char uplo, int64_t n, int64_t nrhs,
                    const hyla_complex_float *dA, int64_t ldda, hyla_complex_float *dB,
                    int64_t lddb);
HYLA_API int hyla_zpotrs_gpu(hyla_t *ctx, int dev, char uplo, int64_t n, int64_t nrhs,
                    const hyla_complex_double *dA, int64_t ldda, hyla_complex_double *dB,
                    int64_t lddb);

/* Device memory for the *_gpu entry points. hyla_malloc_device returns 0 and
 * sets *ptr, or HYLA_ERR_NO_DEVICE / HYLA_ERR_DEVICE_MEMORY (with *ptr NULL);
 * -1 ctx NULL, -4 ptr NULL. hyla_free_device accepts NULL and *ptr == NULL and
 * sets *ptr to NULL. hyla_copy_to_device/from_device copy `bytes` bytes
 * synchronously between host memory and device memory of device dev. */
HYLA_API int hyla_malloc_device(hyla_t *ctx, int dev, size_t bytes, void **ptr);
HYLA_API void hyla_free_device(hyla_t *ctx, int dev, void **ptr);
HYLA_API int hyla_copy_to_device(hyla_t *ctx, int dev, void *dst, const void *src, size_t bytes);
HYLA_API int hyla_copy_from_device(hyla_t *ctx, int dev, void *dst, const void *src, size_t bytes);

/* ---------------------------------------------------------------- LU (src/lu) */

/* LU factorization A = P L U with partial pivoting (LAPACK getrf) of a
 * general m x n host-resident matrix, using every device of the context.
 * Right-looking by panels of HYLA_OPT_GETRF_NB columns dealt round-robin to
 * the devices: the owner of a panel factors it (on the GPU, cuSOLVER's getrf
 * on the tall panel) and sends it with its pivots to every device; each
 * device swaps the rows of its columns, solves for its part of the U block
 * row and updates its trailing columns (GEMM). The next panel is updated and
 * factored on a high-priority queue while the rest of the update runs
 * (lookahead). A is copied to the devices once, panel by panel while the
 * first steps run, and back once, by row blocks as they become final.
 *   m, n      rows and columns of A, >= 0 (m != n allowed, as LAPACK).
 *   A, lda    overwritten by L (unit diagonal not stored, below the
 *             diagonal) and U; lda >= max(1, m).
 *   ipiv      min(m, n) entries: row i was interchanged with row ipiv[i-1]
 *             (1-based, as LAPACK).
 * Returns 0; -i when argument i is bad (1 m, 2 n, 3 A NULL while m, n > 0,
 * 4 lda, 5 ipiv NULL while m, n > 0); k > 0 when U(k, k) is exactly zero
 * (the factorization is completed, as LAPACK's, and U is singular; NaN/Inf
 * policy: NaN and Inf propagate to the factor, info stays 0 for them); a
 * HYLA_ERR_* code on a resource or device failure (A may then be partly
 * overwritten; HYLA_ERR_DEVICE_MEMORY when the matrix does not fit on the
 * devices). A NULL ctx returns HYLA_ERR_INVALID.
 * Workspace: device and pinned buffers cached in ctx, as for GEMM
 * (hyla_release_workspace frees them). */
HYLA_API int hyla_sgetrf(hyla_t *ctx, int64_t m, int64_t n, float *A, int64_t lda, int64_t *ipiv);
HYLA_API int hyla_dgetrf(hyla_t *ctx, int64_t m, int64_t n, double *A, int64_t lda, int64_t *ipiv);
HYLA_API int hyla_cgetrf(hyla_t *ctx, int64_t m, int64_t n, hyla_complex_float *A, int64_t lda, int64_t *ipiv);
HYLA_API int hyla_zgetrf(hyla_t *ctx, int64_t m, int64_t n, hyla_complex_double *A, int64_t lda, int64_t *ipiv);

/* Statistics of the last LU call of this context that reached the devices
 * (getrf, getrs, gesv, their _gpu and _nopiv variants; calls that return
 * early, for a bad argument or an empty matrix, leave them unchanged). */
typedef struct {
    int64_t nb;                  /* panel width used */
    int64_t ib;                  /* leaf width of the recursive panel factorization */
    int devices;                 /* devices used (the solve runs on the first alone) */
    int lookahead;               /* 1 when the factorization had more than one panel, so
                                  * each next panel was updated and factored ahead of the
                                  * bulk update; 0 otherwise and for solves alone */
    int64_t bytes_h2d, bytes_d2h;/* bytes moved over the host link, all devices (A, B,
                                  * pivots and info) */
    int64_t bytes_peer;          /* bytes of factored panels and pivots sent between devices */
    int64_t panels_per_device[16];/* panels factored by each device (first 16) */
    double panel_time_s;         /* device time of the panel factorizations, summed over
                                  * panels (they overlap the updates); 0 after a failure */
} hyla_lu_stats;
/* Copies the statistics into *stats. Returns 0, -1 (ctx NULL) or -2 (stats NULL). */
HYLA_API int hyla_get_lu_stats(const hyla_t *ctx, hyla_lu_stats *stats);

/* Solves op(A) X = B with the factor from hyla_?getrf (LAPACK getrs), on the
 * first device of the context.
 *   trans      'N' (A X = B), 'T' (A^T X = B) or 'C' (A^H X = B).
 *   n, A, lda, ipiv   the n x n factor and pivots from getrf (not modified).
 *   nrhs       columns of B, >= 0.
 *   B, ldb     n x nrhs right-hand sides, overwritten by X; ldb >= max(1, n).
 * Returns 0; -i for a bad argument (1 trans, 2 n, 3 nrhs, 4 A NULL, 5 lda,
 * 6 ipiv NULL or an entry outside 1..n, 7 B NULL, 8 ldb); a HYLA_ERR_* code
 * on failure (B may be partly updated). NaN/Inf policy: propagated. */
HYLA_API int hyla_sgetrs(hyla_t *ctx, char trans, int64_t n, int64_t nrhs, const float *A,
                 int64_t lda, const int64_t *ipiv, float *B, int64_t ldb);
HYLA_API int hyla_dgetrs(hyla_t *ctx, char trans, int64_t n, int64_t nrhs, const double *A,
                 int64_t lda, const int64_t *ipiv, double *B, int64_t ldb);
HYLA_API int hyla_cgetrs(hyla_t *ctx, char trans, int64_t n, int64_t nrhs, const hyla_complex_float *A,
                 int64_t lda, const int64_t *ipiv, hyla_complex_float *B, int64_t ldb);
HYLA_API int hyla_zgetrs(hyla_t *ctx, char trans, int64_t n, int64_t nrhs, const hyla_complex_double *A,
                 int64_t lda, const int64_t *ipiv, hyla_complex_double *B, int64_t ldb);

/* Factors A (as hyla_?getrf) and solves A X = B (LAPACK gesv). Arguments as
 * getrs without trans (1 n, 2 nrhs, 3 A, 4 lda, 5 ipiv, 6 B, 7 ldb); A is
 * overwritten by its factor, ipiv by the pivots; on info = k > 0, B is not
 * modified. HYLA_ERR_NAN (NaN/Inf policy) when A or B holds NaN or Inf: A,
 * ipiv and B are not modified. */
HYLA_API int hyla_sgesv(hyla_t *ctx, int64_t n, int64_t nrhs, float *A, int64_t lda, int64_t *ipiv,
               float *B, int64_t ldb);
HYLA_API int hyla_dgesv(hyla_t *ctx, int64_t n, int64_t nrhs, double *A, int64_t lda, int64_t *ipiv,
               double *B, int64_t ldb);
HYLA_API int hyla_cgesv(hyla_t *ctx, int64_t n, int64_t nrhs, hyla_complex_float *A, int64_t lda, int64_t *ipiv,
               hyla_complex_float *B, int64_t ldb);
HYLA_API int hyla_zgesv(hyla_t *ctx, int64_t n, int64_t nrhs, hyla_complex_double *A, int64_t lda, int64_t *ipiv,
               hyla_complex_double *B, int64_t ldb);

/* LU factorization with partial pivoting of a matrix resident on device
 * `dev` (memory from hyla_malloc_device or, on a GPU, cudaMalloc), on that
 * device alone, with the same algorithm as hyla_?getrf and no copies of A.
 * ipiv is a HOST array of min(m, n) entries. Synchronous. Argument numbers
 * as hyla_?getrf with dev as argument 0 (a bad dev returns
 * HYLA_ERR_NO_DEVICE). NaN/Inf policy: as hyla_?getrf. */
HYLA_API int hyla_sgetrf_gpu(hyla_t *ctx, int dev, int64_t m, int64_t n, float *dA, int64_t ldda,
                     int64_t *ipiv);
HYLA_API int hyla_dgetrf_gpu(hyla_t *ctx, int dev, int64_t m, int64_t n, double *dA, int64_t ldda,
                     int64_t *ipiv);
HYLA_API int hyla_cgetrf_gpu(hyla_t *ctx, int dev, int64_t m, int64_t n, hyla_complex_float *dA, int64_t ldda,
                     int64_t *ipiv);
HYLA_API int hyla_zgetrf_gpu(hyla_t *ctx, int dev, int64_t m, int64_t n, hyla_complex_double *dA, int64_t ldda,
                     int64_t *ipiv);

/* Solves op(A) X = B on device `dev` with a device-resident factor from
 * hyla_?getrf_gpu and its HOST pivot array; dB (lddb >= max(1, n)) is
 * overwritten by X. Synchronous. Argument numbers as hyla_?getrs with dev as
 * argument 0. NaN/Inf policy: propagated. */
HYLA_API int hyla_sgetrs_gpu(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs,
                     const float *dA, int64_t ldda, const int64_t *ipiv, float *dB, int64_t lddb);
HYLA_API int hyla_dgetrs_gpu(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs,
                     const double *dA, int64_t ldda, const int64_t *ipiv, double *dB, int64_t lddb);
HYLA_API int hyla_cgetrs_gpu(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs,
                     const hyla_complex_float *dA, int64_t ldda, const int64_t *ipiv, hyla_complex_float *dB, int64_t lddb);
HYLA_API int hyla_zgetrs_gpu(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs,
                     const hyla_complex_double *dA, int64_t ldda, const int64_t *ipiv, hyla_complex_double *dB, int64_t lddb);

/* LU factorization WITHOUT pivoting, A = L U, host-resident, every device
 * (the algorithm of hyla_?getrf with the row interchanges left out).
 * UNSAFE on general matrices: without pivoting, elimination is unstable
 * unless A is, e.g., diagonally dominant or randomized first (the RBT
 * solver, hyla_?gesv_rbt). Arguments as hyla_?getrf without ipiv (1 m, 2 n,
 * 3 A, 4 lda). Returns k > 0 when U(k, k) is exactly zero: the elimination
 * cannot go on, and A from column k on is unspecified. NaN/Inf policy: as
 * hyla_?getrf. */
HYLA_API int hyla_sgetrf_nopiv(hyla_t *ctx, int64_t m, int64_t n, float *A, int64_t lda);
HYLA_API int hyla_dgetrf_nopiv(hyla_t *ctx, int64_t m, int64_t n, double *A, int64_t lda);
HYLA_API int hyla_cgetrf_nopiv(hyla_t *ctx, int64_t m, int64_t n, hyla_complex_float *A, int64_t lda);
HYLA_API int hyla_zgetrf_nopiv(hyla_t *ctx, int64_t m, int64_t n, hyla_complex_double *A, int64_t lda);

/* Factors A without pivoting (hyla_?getrf_nopiv, same warning) and solves
 * A X = B. Arguments: 1 n, 2 nrhs, 3 A, 4 lda, 5 B, 6 ldb; on info = k > 0,
 * B is not modified. HYLA_ERR_NAN (NaN/Inf policy) when A or B holds NaN
 * or Inf: A and B are not modified. */
HYLA_API int hyla_sgesv_nopiv(hyla_t *ctx, int64_t n, int64_t nrhs, float *A, int64_t lda, float *B,
                     int64_t ldb);
HYLA_API int hyla_dgesv_nopiv(hyla_t *ctx, int64_t n, int64_t nrhs, double *A, int64_t lda, double *B,
                     int64_t ldb);
HYLA_API int hyla_cgesv_nopiv(hyla_t *ctx, int64_t n, int64_t nrhs, hyla_complex_float *A, int64_t lda, hyla_complex_float *B,
                     int64_t ldb);
HYLA_API int hyla_zgesv_nopiv(hyla_t *ctx, int64_t n, int64_t nrhs, hyla_complex_double *A, int64_t lda, hyla_complex_double *B,
                     int64_t ldb);

/* hyla_?getrf_nopiv on a matrix resident on device `dev`, that device alone,
 * no copies of A; synchronous. Argument numbers as hyla_?getrf_nopiv with
 * dev as argument 0 (a bad dev returns HYLA_ERR_NO_DEVICE). NaN/Inf policy:
 * as hyla_?getrf. */
HYLA_API int hyla_sgetrf_nopiv_gpu(hyla_t *ctx, int dev, int64_t m, int64_t n, float *dA,
                           int64_t ldda);
HYLA_API int hyla_dgetrf_nopiv_gpu(hyla_t *ctx, int dev, int64_t m, int64_t n, double *dA,
                           int64_t ldda);
HYLA_API int hyla_cgetrf_nopiv_gpu(hyla_t *ctx, int dev, int64_t m, int64_t n, hyla_complex_float *dA,
                           int64_t ldda);
HYLA_API int hyla_zgetrf_nopiv_gpu(hyla_t *ctx, int dev, int64_t m, int64_t n, hyla_complex_double *dA,
                           int64_t ldda);

/* Solves op(A) X = B on device `dev` with the factor from
 * hyla_?getrf_nopiv_gpu (no row interchanges); dB overwritten by X.
 * Synchronous. Arguments: 1 trans ('N', 'T', 'C'), 2 n, 3 nrhs, 4 dA NULL,
 * 5 ldda, 6 dB NULL, 7 lddb, dev as argument 0. NaN/Inf policy: propagated. */
HYLA_API int hyla_sgetrs_nopiv_gpu(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs,
                           const float *dA, int64_t ldda, float *dB, int64_t lddb);
HYLA_API int hyla_dgetrs_nopiv_gpu(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs,
                           const double *dA, int64_t ldda, double *dB, int64_t lddb);
HYLA_API int hyla_cgetrs_nopiv_gpu(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs,
                           const hyla_complex_float *dA, int64_t ldda, hyla_complex_float *dB, int64_t lddb);
HYLA_API int hyla_zgetrs_nopiv_gpu(hyla_t *ctx, int dev, char trans, int64_t n, int64_t nrhs,
                           const hyla_complex_double *dA, int64_t ldda, hyla_complex_double *dB, int64_t lddb);

/* ---------------------------------------------------------------- RBT solver (src/lu) */

/* Solves A X = B for a general square A by the random butterfly
 * transformation (RBT): A is padded to order np, the next multiple of 2^depth
 * ([A 0; 0 I]), and replaced by U^T A V with U, V recursive butterflies of
 * depth `depth` whose diagonals are random (exp(r/10), r uniform in
 * [-1/2, 1/2], from a generator seeded by opts->seed: the same seed gives the
 * same transforms and, on the same device, the same result). The transformed
 * matrix is factored without pivoting on one device (hyla_?getrf_nopiv_gpu),
 * then X = V (LU)^-1 U^T B is improved by iterative refinement in working
 * precision, x += V (LU)^-1 U^T (b - A x), the residual by GEMM with the
 * original A kept on the device (Parker; Baboulin, Dongarra et al.,
 * "Accelerating linear system solutions using randomization techniques").
 *
 * Backward error of the returned X: berr = max_j |b_j - A x_j|_inf /
 * (|A|_inf |x_j|_inf + |b_j|_inf). Refinement stops when berr <= eps / 2
 * (eps: FLT_EPSILON or DBL_EPSILON of the precision), when a step does not
 * halve berr (a step that makes it worse is undone), or after
 * opts->max_refine steps. The RBT solution is accepted when berr <=
 * sqrt(n) eps. Otherwise, and also when a pivot of the factorization without
 * pivoting is zero or not finite (e.g. a structural zero of the sparse
 * butterflies, as for some permutation matrices at small depth), the RBT
 * result is discarded and the
 * system is solved again with partial pivoting (hyla_?gesv, every device of
 * the context): the call still returns 0 with a good X, and says so in
 * info->fallback = 1 (with info->fallback_reason). `info` is a required
 * argument so that this cannot go unnoticed: callers that need the RBT path
 * itself (e.g. benchmarks) must check info->fallback.
 */

/* Largest butterfly depth (np grows by at most 2^depth - 1). */
#define HYLA_RBT_MAX_DEPTH 8

/* Options of the RBT solver; a zero-initialized struct (or opts NULL) gives
 * the defaults. */
typedef struct {
    int depth;           /* butterfly depth 1..HYLA_RBT_MAX_DEPTH; 0 = default 2 */
    int max_refine;      /* refinement steps at most: 0 = default 10, < 0 = none
                            (the first solution is still checked), <= 100 */
    int dev;             /* host-resident entry: the device that runs the RBT
                            path, 0 <= dev < hyla_device_count (default 0) */
    uint64_t seed;       /* seed of the random diagonals (any value, 0 included) */
} hyla_rbt_opts;

/* What the RBT solver did. */
enum {
    HYLA_RBT_OK = 0,              /* the RBT solution met the backward error bound */
    HYLA_RBT_SMALL_PIVOT = 1,     /* a pivot of the no-pivoting LU of U^T A V is zero
                                     or not finite */
    HYLA_RBT_NOT_CONVERGED = 2    /* refinement ended above sqrt(n) eps (or not finite) */
};
typedef struct {
    int fallback;        /* 1: partial pivoting (hyla_?gesv) produced X; 0: the RBT path */
    int fallback_reason; /* HYLA_RBT_OK when fallback = 0, else why it ran */
    int refine_steps;    /* refinement steps taken on the RBT path (undone ones included) */
    int depth;           /* depth used */
    int64_t n_padded;    /* np, the order of the transformed matrix */
    double berr;         /* backward error of the returned X (see above); of the
                            RBT solution when fallback = 0, of the pivoted one else */
    double berr_rbt;     /* last backward error of the RBT path (NaN when the
                            factorization failed) */
    /* wall-clock seconds of the parts, device work included (each part ends
     * with a synchronization): random diagonals and every transform of A, B
     * and X (t_random); factorization (t_factor); first solve (t_solve);
     * residuals, norms and refinement (t_refine); host copies of the
     * host-resident entry (t_copy); the fallback (t_fallback); the whole call
     * (t_total) */
    double t_random, t_factor, t_solve, t_refine, t_copy, t_fallback, t_total;
} hyla_rbt_info;

/* Host-resident RBT solver: A (n x n, lda) and B (n x nrhs, ldb) in host
 * memory; A is copied to device opts->dev (through the context's pinned
 * staging buffers) and is not modified; B is overwritten by X.
 *   n        order of A, >= 0.       nrhs  columns of B, >= 0.
 *   A, lda   lda >= max(1, n).       B, ldb  ldb >= max(1, n).
 *   opts     NULL for the defaults.  info   required (see above).
 * Returns 0 (X in B; info->fallback says which method produced it); -i for a
 * bad argument (1 n, 2 nrhs, 3 A NULL while n > 0, 4 lda, 5 B NULL while
 * n, nrhs > 0, 6 ldb, 7 opts holds a value out of range, 8 info NULL;
 * HYLA_ERR_NO_DEVICE when opts->dev is not a device of ctx); k > 0 when the
 * fallback ran and its LU has U(k, k) exactly zero (A singular): X is not
 * computed and B is left as passed; HYLA_ERR_NAN (NaN/Inf policy) when A or
 * B holds NaN or Inf, checked on the device before any work: B is left as
 * passed. A singular A whose transformed factor
 * has no zero pivot gives, like partial pivoting on a matrix singular up to
 * rounding, an X of small backward error instead; a HYLA_ERR_* code on a resource or device failure
 * (B may then be partly overwritten). A NULL ctx returns HYLA_ERR_INVALID.
 * Workspace: on the device, the transformed matrix (np x np), a copy of A
 * (n x n) and O(np (nrhs + depth)) more, allocated per call; host memory of
 * O(n nrhs); the fallback takes a host copy of A. n == 0 or nrhs == 0 returns
 * at once with info zeroed (depth and n_padded set). */
HYLA_API int hyla_sgesv_rbt(hyla_t *ctx, int64_t n, int64_t nrhs, const float *A, int64_t lda, float *B,
                   int64_t ldb, const hyla_rbt_opts *opts, hyla_rbt_info *info);
HYLA_API int hyla_dgesv_rbt(hyla_t *ctx, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                   double *B, int64_t ldb, const hyla_rbt_opts *opts, hyla_rbt_info *info);
HYLA_API int hyla_cgesv_rbt(hyla_t *ctx, int64_t n, int64_t nrhs, const hyla_complex_float *A,
                   int64_t lda, hyla_complex_float *B, int64_t ldb, const hyla_rbt_opts *opts,
                   hyla_rbt_info *info);
HYLA_API int hyla_zgesv_rbt(hyla_t *ctx, int64_t n, int64_t nrhs, const hyla_complex_double *A,
                   int64_t lda, hyla_complex_double *B, int64_t ldb, const hyla_rbt_opts *opts,
                   hyla_rbt_info *info);

/* The same solver on data resident on device `dev` (memory from
 * hyla_malloc_device): dA (ldda >= max(1, n)) is not modified, dB
 * (lddb >= max(1, n)) is overwritten by X. opts->dev is ignored. No host
 * copy of A or B is made except by the fallback (which copies A and B to the
 * host, solves there with hyla_?gesv and uploads X). Synchronous. Argument
 * numbers as hyla_?gesv_rbt with dev as argument 0 (a bad dev returns
 * HYLA_ERR_NO_DEVICE). */
HYLA_API int hyla_sgesv_rbt_gpu(hyla_t *ctx, int dev, int64_t n, int64_t nrhs, const float *dA,
                       int64_t ldda, float *dB, int64_t lddb, const hyla_rbt_opts *opts,
                       hyla_rbt_info *info);
HYLA_API int hyla_dgesv_rbt_gpu(hyla_t *ctx, int dev, int64_t n, int64_t nrhs, const double *dA,
                       int64_t ldda, double *dB, int64_t lddb, const hyla_rbt_opts *opts,
                       hyla_rbt_info *info);
HYLA_API int hyla_cgesv_rbt_gpu(hyla_t *ctx, int dev, int64_t n, int64_t nrhs,
                       const hyla_complex_float *dA, int64_t ldda, hyla_complex_float *dB,
                       int64_t lddb, const hyla_rbt_opts *opts, hyla_rbt_info *info);
HYLA_API int hyla_zgesv_rbt_gpu(hyla_t *ctx, int dev, int64_t n, int64_t nrhs,
                       const hyla_complex_double *dA, int64_t ldda, hyla_complex_double *dB,
                       int64_t lddb, const hyla_rbt_opts *opts, hyla_rbt_info *info);

/* ---------------------------------------------------------------- eigensolver (src/eig) */

/* Stage 1 of the two-stage eigensolver (dense -> band), on device 0 of the
 * context: B = Q1^H A Q1 with B Hermitian (real: symmetric) of half-bandwidth
 * kd. Panels of kd columns are factored on the host (LAPACK geqrf) while the
 * device applies the two-sided update A := A - V W^H - W V^H, W = X - 1/2 V
 * (T^H V^H X), X = A V T (HEMM, GEMM, HER2K), delayed over blocks of
 * HYLA_OPT_EIG_NB columns, the next panel factored while the trailing
 * update runs (lookahead).
 *   uplo     'L' or 'U': the triangle of A that is read.
 *   n        order of A, >= 0.
 *   kd       half-bandwidth of B, >= 1 (kd >= n - 1: B = A, no reflector).
 *   A, lda   the matrix, lda >= max(1, n). On exit, for j = 0 .. n-kd-2
 *            (0-based), rows j+kd+1 .. n-1 of column j hold reflector j's
 *            vector v (v has an implicit 1 in row j + kd and zeros above);
 *            nothing else of A is written (for uplo U this is the strictly
 *            lower triangle, which is not read).
 *   AB, ldab B in LAPACK lower band storage, whatever uplo: AB[(i-j) +
 *            j*ldab] = B(i, j) for j <= i <= min(n-1, j+kd); ldab >= kd+1.
 *   tau      n scalars of the reflectors H_j = I - tau[j] v v^H (zero where
 *            there is none). Q1 = H_0 H_1 ... H_{n-kd-2}.
 * Returns 0; -i for a bad argument (1 uplo .. 8 tau); HYLA_ERR_NO_MEMORY,
 * HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE, HYLA_ERR_BLAS,
 * HYLA_ERR_UNSUPPORTED (n > INT_MAX). NULL ctx: HYLA_ERR_INVALID. NaN/Inf
 * policy: propagated.
 * Workspace: device memory for A, the reflectors (2 n^2 elements, 3 n^2 for
 * uplo U) and n x nb; pinned n x (kd + 1). */
HYLA_API int hyla_ssytrd_sy2sb(hyla_t *ctx, char uplo, int64_t n, int64_t kd, float *A, int64_t lda,
                      float *AB, int64_t ldab, float *tau);
HYLA_API int hyla_dsytrd_sy2sb(hyla_t *ctx, char uplo, int64_t n, int64_t kd, double *A, int64_t lda,
                      double *AB, int64_t ldab, double *tau);
HYLA_API int hyla_chetrd_he2hb(hyla_t *ctx, char uplo, int64_t n, int64_t kd, hyla_complex_float *A,
                      int64_t lda, hyla_complex_float *AB, int64_t ldab, hyla_complex_float *tau);
HYLA_API int hyla_zhetrd_he2hb(hyla_t *ctx, char uplo, int64_t n, int64_t kd, hyla_complex_double *A,
                      int64_t lda, hyla_complex_double *AB, int64_t ldab,
                      hyla_complex_double *tau);

/* Applies Q1 from hyla_?sytrd_sy2sb / ?hetrd_he2hb to the host n x ncols
 * matrix C on device 0: C := Q1 C (trans 'N') or Q1^H C ('T' or 'C'),
 * block reflectors rebuilt from (A, tau) and applied GEMM, TRMM, GEMM.
 *   n, kd, A, lda, tau  as passed to and returned by the reduction.
 *   ncols >= 0; C, ldc  ldc >= max(1, n).
 * Returns 0; -i for a bad argument (1 trans, 2 n, 3 kd, 4 ncols, 5 A, 6 lda,
 * 7 tau, 8 C, 9 ldc); HYLA_ERR_* as the reduction. NaN/Inf policy:
 * propagated. */
HYLA_API int hyla_sormtr_sy2sb(hyla_t *ctx, char trans, int64_t n, int64_t kd, int64_t ncols,
                      const float *A, int64_t lda, const float *tau, float *C, int64_t ldc);
HYLA_API int hyla_dormtr_sy2sb(hyla_t *ctx, char trans, int64_t n, int64_t kd, int64_t ncols,
                      const double *A, int64_t lda, const double *tau, double *C, int64_t ldc);
HYLA_API int hyla_cunmtr_he2hb(hyla_t *ctx, char trans, int64_t n, int64_t kd, int64_t ncols,
                      const hyla_complex_float *A, int64_t lda, const hyla_complex_float *tau,
                      hyla_complex_float *C, int64_t ldc);
HYLA_API int hyla_zunmtr_he2hb(hyla_t *ctx, char trans, int64_t n, int64_t kd, int64_t ncols,
                      const hyla_complex_double *A, int64_t lda, const hyla_complex_double *tau,
                      hyla_complex_double *C, int64_t ldc);

/* All eigenvalues and optionally the eigenvectors of a Hermitian (real:
 * symmetric) host-resident matrix A = Z diag(w) Z^H (LAPACK syevd/heevd),
 * by the two-stage method: dense -> band on device 0 of the context
 * (hyla_?sytrd_sy2sb), band -> real tridiagonal on the host cores (bulge
 * chasing), then root-free QR (jobz 'N') or divide and conquer ('V') on the
 * host cores, and for 'V' the two back transformations on device 0. Up to
 * a crossover order (HYLA_OPT_EIG_ONE_STAGE: on a GPU, where the vendor's
 * one-stage solver is the faster; on the host backend, every order for
 * real types with eigenvectors) the backend's one-stage solver runs
 * instead, on device 0.
 *   jobz     'N': eigenvalues only; 'V': eigenvalues and eigenvectors.
 *   uplo     'L' or 'U': the triangle of A that is read.
 *   n        order of A, >= 0.
 *   A, lda   lda >= max(1, n). jobz 'V': overwritten by the orthonormal
 *            eigenvectors (column k belongs to w[k]); jobz 'N': not written.
 *   w        n eigenvalues in ascending order (real type).
 * Returns 0; -i for a bad argument (1 jobz, 2 uplo, 3 n, 4 A, 5 lda, 6 w);
 * HYLA_ERR_NAN (NaN/Inf policy) when the referenced triangle holds NaN or
 * Inf, A then not modified; k > 0 when
 * the tridiagonal eigensolver failed to converge (LAPACK meaning);
 * HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE, HYLA_ERR_BLAS,
 * HYLA_ERR_UNSUPPORTED (n > INT_MAX). NULL ctx: HYLA_ERR_INVALID.
 * Workspace: device memory about 2 n^2 elements (+ n^2 for uplo U), host
 * n^2 real elements for the tridiagonal eigenvectors (2 n^2 complex). The
 * seconds of each stage: hyla_get_eig_stats. */
HYLA_API int hyla_ssyevd(hyla_t *ctx, char jobz, char uplo, int64_t n, float *A, int64_t lda, float *w);
HYLA_API int hyla_dsyevd(hyla_t *ctx, char jobz, char uplo, int64_t n, double *A, int64_t lda,
                double *w);
HYLA_API int hyla_cheevd(hyla_t *ctx, char jobz, char uplo, int64_t n, hyla_complex_float *A,
                int64_t lda, float *w);
HYLA_API int hyla_zheevd(hyla_t *ctx, char jobz, char uplo, int64_t n, hyla_complex_double *A,
                int64_t lda, double *w);

/* A part of the spectrum of a Hermitian (real: symmetric) host-resident
 * matrix A (as LAPACK's ?syevx / ?syevr with a range): the eigenvalues with
 * index il..iu (range 'I', 1-based, ascending) or in the half-open interval
 * (vl, vu] (range 'V'), or all (range 'A'), and with jobz 'V' their
 * eigenvectors, at a cost that drops with their number m. The path is
 * hyla_?syevd's up to the real tridiagonal T (on one GPU: stages 1 and 2
 * on device 0; orders where hyla_?syevd takes the backend's one-stage
 * solver: the host backend's LAPACK ?syevr / ?heevr with the range, on a
 * GPU the one-stage solver and the wanted kept; a context whose
 * hyla_?syevd takes every device: that solver and the wanted kept where
 * they are at least half of n by index, else device 0 alone). Then
 * jobz 'N': all eigenvalues of T (bisection on the GPU) and the wanted
 * kept; jobz 'V': where the wanted are at least HYLA_OPT_EIG_SUBSET_DC per
 * mille of n (default: the tuning table's, 3 on GPUs, 350 on the host
 * backend), all pairs of T by divide and conquer (on device 0, its
 * eigenvector matrix kept there) and the wanted columns kept, else the
 * wanted pairs of T alone on the host cores by MRRR (?stemr, O(n m);
 * bisection and inverse iteration, ?stebz and ?stein, below n = 256 or
 * where MRRR fails); then the two back transformations on the m columns
 * only on device 0 (O(n^2 m) each). Range 'V' counts the eigenvalues of T
 * in (vl, vu] by Sturm sequences first.
 *   jobz     'N' or 'V'.   range  'A', 'V' or 'I'.   uplo 'L' or 'U'.
 *   n        order of A, >= 0.
 *   A, lda   lda >= max(1, n); destroyed (the reflectors of stage 1).
 *   vl, vu   range 'V': vl < vu (where n > 0, as LAPACK); else not
 *            referenced.
 *   il, iu   range 'I': 1 <= il <= iu <= n (n = 0: il = 1, iu = 0); else
 *            not referenced.
 *   m        out: the number of eigenvalues found.
 *   w        n entries (real type); the first m receive the eigenvalues,
 *            ascending.
 *   Z, ldz   jobz 'V': the n x m orthonormal eigenvectors (column k for
 *            w[k]); Z must have room for the m columns (n for range 'A' or
 *            'V'), ldz >= max(1, n); jobz 'N': not referenced, ldz >= 1.
 * Returns 0; -i for a bad argument (1 jobz, 2 range, 3 uplo, 4 n, 5 A,
 * 6 lda, 8 vu <= vl, 9 il, 10 iu, 11 m NULL, 12 w, 13 Z, 14 ldz);
 * HYLA_ERR_NAN (NaN/Inf policy) when the triangle read holds NaN or Inf (A
 * then not modified); k > 0 when bisection or inverse iteration failed to
 * converge for k eigenvalues (LAPACK's ?syevx meaning); HYLA_ERR_NO_MEMORY,
 * HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE; HYLA_ERR_UNSUPPORTED for n >
 * INT_MAX (the host LAPACK's integers). NULL ctx: HYLA_ERR_INVALID.
 * Workspace: hyla_?syevd's for the stages; then divide and conquer n^2
 * reals on the host and on device 0 (and n m elements there for complex
 * types), MRRR n m reals on the host and n m elements on device 0. */
HYLA_API int hyla_ssyevdx(hyla_t *ctx, char jobz, char range, char uplo, int64_t n, float *A,
                 int64_t lda, float vl, float vu, int64_t il, int64_t iu, int64_t *m, float *w,
                 float *Z, int64_t ldz);
HYLA_API int hyla_dsyevdx(hyla_t *ctx, char jobz, char range, char uplo, int64_t n, double *A,
                 int64_t lda, double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                 double *Z, int64_t ldz);
HYLA_API int hyla_cheevdx(hyla_t *ctx, char jobz, char range, char uplo, int64_t n,
                 hyla_complex_float *A, int64_t lda, float vl, float vu, int64_t il, int64_t iu,
                 int64_t *m, float *w, hyla_complex_float *Z, int64_t ldz);
HYLA_API int hyla_zheevdx(hyla_t *ctx, char jobz, char range, char uplo, int64_t n,
                 hyla_complex_double *A, int64_t lda, double vl, double vu, int64_t il,
                 int64_t iu, int64_t *m, double *w, hyla_complex_double *Z, int64_t ldz);

/* The generalized symmetric / Hermitian-definite eigenproblem (LAPACK's
 * ?sygvd / ?hegvd): itype 1 A x = lambda B x, 2 A B x = lambda x, 3 B A x =
 * lambda x, with A Hermitian (real: symmetric) and B Hermitian positive
 * definite, both read from their triangle uplo.
 *   itype    1, 2 or 3.
 *   jobz     'N': eigenvalues only; 'V': eigenvalues and eigenvectors.
 *   uplo     'L' or 'U': the triangle of A and of B that is read.
 *   n        order of A and B, >= 0.
 *   A, lda   lda >= max(1, n). jobz 'V': overwritten by the eigenvectors X
 *            (column k for w[k]), normalized as LAPACK's: X^H B X = I
 *            (itype 1, 2), X^H B^-1 X = I (3); jobz 'N': not written.
 *   B, ldb   ldb >= max(1, n). Overwritten by its Cholesky factor (L or U
 *            in the triangle uplo, as hyla_?potrf), the other triangle not
 *            written.
 *   w        n eigenvalues in ascending order (real type).
 * B is factored on device 0 (hyla_?potrf_gpu; on the host backend in
 * place by hyla_?potrf), its factor going down into B while A is reduced
 * there to the standard problem (two-sided, blocked as LAPACK's ?sygst);
 * the back transformation runs on device 0, the
 * eigensolver there too
 * (hyla_?syevd_gpu) unless a host-resident hyla_?syevd of order n takes
 * every device of the context (HYLA_OPT_EIG_DEVICES; by default on several
 * GPUs with vectors from n = 16384): the reduced matrix then goes through
 * the host to that solver (jobz 'N': a host copy of n^2 elements).
 * Returns 0; -i for a bad argument (1 itype, 2 jobz, 3 uplo, 4 n, 5 A, 6
 * lda, 7 B, 8 ldb, 9 w); HYLA_ERR_NAN (NaN/Inf policy) when a triangle read
 * holds NaN or Inf, A and B then not modified; n + k when the leading minor
 * of order k of B is not positive definite (LAPACK's meaning; A not
 * modified, B as hyla_?potrf_gpu leaves it: the factor's columns before
 * the panel holding column k, the rest of the triangle unspecified; on
 * the host backend as hyla_?potrf leaves it);
 * 0 < k <= n when the eigensolver
 * failed to converge; HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY,
 * HYLA_ERR_DEVICE, HYLA_ERR_UNSUPPORTED (n > INT_MAX on the host backend's
 * LAPACK). NULL ctx: HYLA_ERR_INVALID.
 * Workspace: device 0 memory 2 n^2 elements (uplo U: n^2 more while each
 * matrix goes up), 3 n nb more for itype 1 from the tuning table's
 * her2k_gemm_min on (nb the reduction's block, at most 256;
 * HYLA_OPT_EIG_S1_UPDATE), plus hyla_?syevd_gpu's and hyla_?potrf_gpu's;
 * host n^2 elements for uplo U on a GPU (the factor's way down). */
HYLA_API int hyla_ssygvd(hyla_t *ctx, int itype, char jobz, char uplo, int64_t n, float *A,
                int64_t lda, float *B, int64_t ldb, float *w);
HYLA_API int hyla_dsygvd(hyla_t *ctx, int itype, char jobz, char uplo, int64_t n, double *A,
                int64_t lda, double *B, int64_t ldb, double *w);
HYLA_API int hyla_chegvd(hyla_t *ctx, int itype, char jobz, char uplo, int64_t n,
                hyla_complex_float *A, int64_t lda, hyla_complex_float *B, int64_t ldb, float *w);
HYLA_API int hyla_zhegvd(hyla_t *ctx, int itype, char jobz, char uplo, int64_t n,
                hyla_complex_double *A, int64_t lda, hyla_complex_double *B, int64_t ldb,
                double *w);

/* A part of the spectrum of the generalized problem (LAPACK's ?sygvx /
 * ?hegvx with a range): itype, uplo, A and B as hyla_?sygvd; the
 * eigenvalues with index il..iu (range 'I', 1-based, ascending) or in
 * (vl, vu] (range 'V'), or all (range 'A'), and with jobz 'V' their
 * eigenvectors X, normalized as hyla_?sygvd's. B is factored and A
 * reduced to the standard problem C on device 0 (as hyla_?sygvd), C's
 * wanted pairs found there as hyla_?syevdx finds them (its cost drops
 * with their number m; where a host-resident hyla_?syevdx would take every
 * device of the context, C goes through the host to it) and the m vectors
 * taken through B's factor on device 0.
 *   jobz 'N' or 'V'.   range 'A', 'V' or 'I'.   uplo 'L' or 'U'.
 *   n        order of A and B, >= 0.
 *   A, lda   lda >= max(1, n); destroyed.
 *   B, ldb   ldb >= max(1, n); overwritten by its Cholesky factor.
 *   vl, vu   range 'V': vl < vu (where n > 0, as LAPACK); else not
 *            referenced.
 *   il, iu   range 'I': 1 <= il <= iu <= n (n = 0: il = 1, iu = 0).
 *   m        out: the number of eigenvalues found.
 *   w        n entries (real type); the first m receive the eigenvalues,
 *            ascending.
 *   Z, ldz   jobz 'V': the n x m eigenvectors (column k for w[k]); room
 *            for m columns (n for range 'A' or 'V'), ldz >= max(1, n);
 *            jobz 'N': not referenced, ldz >= 1.
 * Returns 0; -i for a bad argument (1 itype, 2 jobz, 3 range, 4 uplo, 5 n,
 * 6 A, 7 lda, 8 B, 9 ldb, 11 vu <= vl, 12 il, 13 iu, 14 m NULL, 15 w,
 * 16 Z, 17 ldz); HYLA_ERR_NAN when a triangle read holds NaN or Inf (A and
 * B then not modified); n + k when the leading minor of order k of B is
 * not positive definite (A not modified); 0 < k <= n when bisection or
 * inverse iteration failed for k eigenvalues; HYLA_ERR_NO_MEMORY,
 * HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE, HYLA_ERR_UNSUPPORTED (n >
 * INT_MAX). NULL ctx: HYLA_ERR_INVALID.
 * Workspace: device 0 memory as hyla_?sygvd's reduction (then n^2 + n m)
 * besides hyla_?syevdx's and hyla_?potrf_gpu's; host n^2 elements (C)
 * where C goes through the host. */
HYLA_API int hyla_ssygvdx(hyla_t *ctx, int itype, char jobz, char range, char uplo, int64_t n,
                 float *A, int64_t lda, float *B, int64_t ldb, float vl, float vu, int64_t il,
                 int64_t iu, int64_t *m, float *w, float *Z, int64_t ldz);
HYLA_API int hyla_dsygvdx(hyla_t *ctx, int itype, char jobz, char range, char uplo, int64_t n,
                 double *A, int64_t lda, double *B, int64_t ldb, double vl, double vu, int64_t il,
                 int64_t iu, int64_t *m, double *w, double *Z, int64_t ldz);
HYLA_API int hyla_chegvdx(hyla_t *ctx, int itype, char jobz, char range, char uplo, int64_t n,
                 hyla_complex_float *A, int64_t lda, hyla_complex_float *B, int64_t ldb, float vl,
                 float vu, int64_t il, int64_t iu, int64_t *m, float *w, hyla_complex_float *Z,
                 int64_t ldz);
HYLA_API int hyla_zhegvdx(hyla_t *ctx, int itype, char jobz, char range, char uplo, int64_t n,
                 hyla_complex_double *A, int64_t lda, hyla_complex_double *B, int64_t ldb,
                 double vl, double vu, int64_t il, int64_t iu, int64_t *m, double *w,
                 hyla_complex_double *Z, int64_t ldz);

/* The same on a matrix resident on device `dev` (memory from
 * hyla_malloc_device or, on a GPU, cudaMalloc); w is a host array. jobz 'V':
 * dA is overwritten by the eigenvectors; jobz 'N' with uplo 'L': the lower
 * triangle of dA is destroyed (uplo 'U': dA is not written). Synchronous.
 * Argument numbers as hyla_?syevd with dev as argument 0 (a bad dev returns
 * HYLA_ERR_NO_DEVICE). NaN/Inf policy: the triangle read is scanned on the
 * device first; HYLA_ERR_NAN leaves dA as passed. */
HYLA_API int hyla_ssyevd_gpu(hyla_t *ctx, int dev, char jobz, char uplo, int64_t n, float *dA,
                    int64_t ldda, float *w);
HYLA_API int hyla_dsyevd_gpu(hyla_t *ctx, int dev, char jobz, char uplo, int64_t n, double *dA,
                    int64_t ldda, double *w);
HYLA_API int hyla_cheevd_gpu(hyla_t *ctx, int dev, char jobz, char uplo, int64_t n,
                    hyla_complex_float *dA, int64_t ldda, float *w);
HYLA_API int hyla_zheevd_gpu(hyla_t *ctx, int dev, char jobz, char uplo, int64_t n,
                    hyla_complex_double *dA, int64_t ldda, double *w);

/* Seconds spent in each stage by the last ?syevd / ?heevd call of a context
 * (0 for a stage that did not run); ?stedc sets the stedc_* parts. */
typedef struct {
    double sy2sb;      /* stage 1, dense -> band (device + host panels) */
    double sb2st;      /* stage 2, band -> tridiagonal (host cores) */
    double tridiag;    /* sterf (eigenvalues) or stedc (eigenvectors) */
    double back2;      /* Q2 back transformation (device) */
    double back1;      /* Q1 back transformation (device) */
    double transfers;  /* host <-> device copies of A, Z and the band */
    double total;
    int64_t kd, nb;    /* block sizes used; 0 and 0: the one-stage solver ran
                          (HYLA_OPT_EIG_ONE_STAGE), its time in tridiag */
    int64_t panels_cholqr; /* stage-1 panels factored by CholeskyQR2 (HYLA_OPT_EIG_PANEL_QR;
                             the others by Householder QR; also set by ?sytrd_sy2sb) */
    double sy2sb_wait;     /* parts of sy2sb (also set by ?sytrd_sy2sb): the host blocked
                              on the device for the panels' results (several devices:
                              on the panel owner's queue, whose earlier work, the
                              trailing update included, it waits for), and */
    double sy2sb_host;     /* the host's own part of the panels (T, or CholeskyQR2's
                              Householder reconstruction); the rest is issuing work and
                              the device's tail */
    int64_t back2_calls;  /* device calls (kernel launches) of the Q2 back transformation */
    double back2_flops;   /* their floating-point operations (real multiply-adds count 2) */
    /* stedc's parts (set by ?syevd jobz V and by ?stedc compz 'I'): the leaves
     * and the lower levels, whose merges run side by side; then, summed over
     * the larger merges (one at a time, the cores inside each): deflation and
     * the packing of the non-deflated columns, the secular equations and their
     * eigenvectors (on a device: the merge kernels, their small transfers and
     * the wait for the previous merge's GEMMs), the merge GEMMs (as queued on
     * a device); last the zeroing, the copies and the final permutation of Z */
    double stedc_lower, stedc_deflate, stedc_secular, stedc_gemm, stedc_copy;
    /* Several devices (the multi-device solver): its timeline, device by
     * device for the first HYLA_EIG_TIMELINE_DEVS of them (ndev of them
     * filled): phase[g][p] = {start, end} in seconds from the call's start of
     * phase p (HYLA_EIG_PHASE_*) on device g, {0, 0} where the device had no
     * part in it; cols[g] = the columns of Z it computed. ndev = 0 after a
     * one-device call. */
    int ndev;
    double phase[8][8][2];
    int64_t cols[8];
    /* The generalized drivers (?sygvd / ?hegvd, ?sygvdx / ?hegvdx) also set
     * these: B's Cholesky, the reduction to the standard problem (A's and
     * the factor's uploads included), and the eigenvectors' back-solve with
     * their download; the stages above are then those of the standard
     * problem's solve, and total the whole call's. 0 after other calls. */
    double gv_potrf, gv_reduce, gv_back;
} hyla_eig_stats;
#define HYLA_EIG_TIMELINE_DEVS 8
/* the phases of hyla_eig_stats.phase: A up, stage 1, stage 2 (device 0 or
 * host), the tridiagonal solver, Q2 and Q1 (applied to the columns of E, or
 * building those of Q beside the tridiagonal solver), Z = Q E (its GEMMs:
 * gathering E's columns from the devices that hold its rows comes before),
 * Z down */
enum {
    HYLA_EIG_PHASE_UPLOAD = 0, HYLA_EIG_PHASE_SY2SB = 1, HYLA_EIG_PHASE_SB2ST = 2,
    HYLA_EIG_PHASE_TRIDIAG = 3, HYLA_EIG_PHASE_BACK2 = 4, HYLA_EIG_PHASE_BACK1 = 5,
    HYLA_EIG_PHASE_GEMM = 6, HYLA_EIG_PHASE_DOWNLOAD = 7
};
/* Returns 0, -1 (ctx NULL) or -2 (stats NULL). */
HYLA_API int hyla_get_eig_stats(const hyla_t *ctx, hyla_eig_stats *stats);

/* Stage 2: Hermitian band -> real symmetric tridiagonal (src/eig/sb2st.c). */

/* Householder reflectors of a band-to-tridiagonal reduction (Q2), kept in
 * host memory in the grouped layout that the back transformation applies as
 * block reflectors. Made by hyla_?sytrd_sb2st / hyla_?hetrd_hb2st with vect
 * 'V', used by hyla_?ormtr_sb2st / hyla_?unmtr_hb2st, freed with
 * hyla_sb2st_q_free. Holds about 1.5 n^2 elements of the type for band
 * width kd >= 1: each group of kd reflectors as a (2kd-1) x kd staircase and
 * its kd x kd triangular factor. */
typedef struct hyla_sb2st_q hyla_sb2st_q;

/* Frees a reflector store. Accepts NULL and *q == NULL; sets *q to NULL. */
HYLA_API void hyla_sb2st_q_free(hyla_sb2st_q **q);

/* Reduces the Hermitian (real: symmetric) band matrix B to a real symmetric
 * tridiagonal T = Q2^H B Q2 by bulge chasing (LAPACK ?sytrd_sb2st /
 * ?hetrd_hb2st) on the host CPU cores (OpenMP threads; sweeps pipelined).
 *   vect   'N': eigenvalues only, no reflectors kept; 'V': *q receives the
 *          reflectors Q2 (lower case accepted).
 *   n      order of B, >= 0.
 *   kd     number of subdiagonals of B, >= 0 (kd >= n is allowed).
 *   AB     B in LAPACK lower band storage: AB[(i-j) + j*ldab] = B(i, j) for
 *          j <= i <= min(n-1, j+kd); the imaginary parts of the diagonal
 *          are taken as zero. Not modified.
 *   ldab   >= kd + 1.
 *   d      out, n entries: the diagonal of T.
 *   e      out, n-1 entries: the off-diagonal of T (real for complex B:
 *          the phases are folded into Q2).
 *   q      vect 'V': out, the new reflector store (NULL on failure); vect
 *          'N': ignored (set to NULL when not NULL).
 * Returns 0; -i when argument i is bad (1 vect, 2 n, 3 kd, 4 AB NULL while
 * n > 0, 5 ldab, 6 d, 7 e NULL while needed, 8 q NULL with vect 'V');
 * HYLA_ERR_NAN (NaN/Inf policy) when B holds NaN or Inf (nothing is
 * computed);
 * HYLA_ERR_NO_MEMORY. A NULL ctx returns HYLA_ERR_INVALID.
 * Workspace: a working copy of the band with room for the bulge
 * (2*kd*n elements), allocated inside. */
HYLA_API int hyla_ssytrd_sb2st(hyla_t *ctx, char vect, int64_t n, int64_t kd, const float *AB,
                      int64_t ldab, float *d, float *e, hyla_sb2st_q **q);
HYLA_API int hyla_dsytrd_sb2st(hyla_t *ctx, char vect, int64_t n, int64_t kd, const double *AB,
                      int64_t ldab, double *d, double *e, hyla_sb2st_q **q);
HYLA_API int hyla_chetrd_hb2st(hyla_t *ctx, char vect, int64_t n, int64_t kd,
                      const hyla_complex_float *AB, int64_t ldab, float *d, float *e,
                      hyla_sb2st_q **q);
HYLA_API int hyla_zhetrd_hb2st(hyla_t *ctx, char vect, int64_t n, int64_t kd,
                      const hyla_complex_double *AB, int64_t ldab, double *d, double *e,
                      hyla_sb2st_q **q);

/* Z := Q2 Z for the host-resident n x ncols matrix Z (n = the order of the
 * reduction that made q), e.g. eigenvectors of T into eigenvectors of B.
 * The reflectors are applied in groups as block reflectors I - V T V^H
 * (GEMM, TRMM, GEMM) on device 0 of the context; Z passes through it in
 * column chunks that fit its memory.
 *   q      the store from hyla_?sytrd_sb2st / hyla_?hetrd_hb2st of the same
 *          type.
 *   ncols  columns of Z, >= 0.
 *   Z, ldz ldz >= max(1, n).
 * Returns 0; -i when argument i is bad (1 q NULL or of another type,
 * 2 ncols, 3 Z NULL while read, 4 ldz); HYLA_ERR_DEVICE_MEMORY,
 * HYLA_ERR_DEVICE, HYLA_ERR_BLAS, HYLA_ERR_NO_MEMORY (Z may then be partly
 * updated). A NULL ctx returns HYLA_ERR_INVALID. NaN/Inf policy:
 * propagated.
 * Workspace: device memory for the reflectors (about 1.5 n^2 elements), a
 * chunk of Z and kd x ncols elements. */
HYLA_API int hyla_sormtr_sb2st(hyla_t *ctx, const hyla_sb2st_q *q, int64_t ncols, float *Z, int64_t ldz);
HYLA_API int hyla_dormtr_sb2st(hyla_t *ctx, const hyla_sb2st_q *q, int64_t ncols, double *Z,
                      int64_t ldz);
HYLA_API int hyla_cunmtr_hb2st(hyla_t *ctx, const hyla_sb2st_q *q, int64_t ncols, hyla_complex_float *Z,
                      int64_t ldz);
HYLA_API int hyla_zunmtr_hb2st(hyla_t *ctx, const hyla_sb2st_q *q, int64_t ncols,
                      hyla_complex_double *Z, int64_t ldz);

/* The same on a matrix resident on device `dev` (memory from
 * hyla_malloc_device), synchronous. Argument numbers as above with dev as
 * argument 0 (a bad dev returns HYLA_ERR_NO_DEVICE). */
HYLA_API int hyla_sormtr_sb2st_gpu(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols, float *dZ,
                          int64_t lddz);
HYLA_API int hyla_dormtr_sb2st_gpu(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols,
                          double *dZ, int64_t lddz);
HYLA_API int hyla_cunmtr_hb2st_gpu(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols,
                          hyla_complex_float *dZ, int64_t lddz);
HYLA_API int hyla_zunmtr_hb2st_gpu(hyla_t *ctx, int dev, const hyla_sb2st_q *q, int64_t ncols,
                          hyla_complex_double *dZ, int64_t lddz);

/* -- tridiagonal eigensolvers (src/eig/tridiag.c; real types only) -- */

/* Eigenvalues of the real symmetric tridiagonal matrix T with diagonal d and
 * off-diagonal e (LAPACK sterf), on the host CPU (no context needed): each
 * unreduced block of 512 rows or more by divide and conquer that carries only
 * the first and last rows of the eigenvector matrices (secular equations
 * solved in parallel on the OpenMP threads), smaller blocks by the root-free
 * QL/QR iteration of Pal, Walker and Kahan with implicit shifts.
 *   n   order of T, >= 0.
 *   d   in: the n diagonal entries; out: the eigenvalues, ascending.
 *   e   the n-1 off-diagonal entries (may be NULL when n <= 1); destroyed.
 * Returns 0; -1 (n < 0), -2 (d NULL while n > 0), -3 (e NULL while n > 1);
 * k > 0 when the iteration (at most 30 n sweeps) left k off-diagonals
 * unconverged, or 1 when a secular equation did not converge (d then holds
 * unordered approximations); HYLA_ERR_NAN (NaN/Inf policy) when d or e
 * holds NaN or Inf (nothing is computed); HYLA_ERR_NO_MEMORY. Workspace: allocated inside,
 * about 14 n reals and 4 n integers for the blocks solved by divide and
 * conquer, none otherwise. */
HYLA_API int hyla_ssterf(int64_t n, float *d, float *e);
HYLA_API int hyla_dsterf(int64_t n, double *d, double *e);

/* Eigenvalues and, optionally, eigenvectors of the real symmetric tridiagonal
 * T = (d, e) (LAPACK stedc): Cuppen's divide and conquer with Gu and
 * Eisenstat's deflation and orthogonal eigenvectors, on the host CPU cores
 * (OpenMP); the levels of large merges (from the tuning table's stedc
 * threshold on, or HYLA_OPT_EIG_DC_MIN) run on the devices of ctx, where
 * the eigenvector matrix stays between them, dealt by rows: the host
 * deflates, each device solves the secular equations, builds the merge
 * matrix (by blocks of 8192 columns) and multiplies its own rows, with no
 * traffic between the devices. Device memory: about 2 n^2 / ndev + 8192 n
 * reals on each device; where a device lacks it, the call fails with its
 * memory code.
 *   compz  'N': eigenvalues only (as hyla_?sterf); 'I': eigenvectors of T too.
 *   n      order of T, >= 0.
 *   d      in: the diagonal; out: the eigenvalues, ascending.
 *   e      the n-1 off-diagonal entries (may be NULL when n <= 1); destroyed.
 *   Z, ldz compz 'I': out, the n x n orthonormal eigenvectors (column j for
 *          d[j]), host memory, ldz >= max(1, n); compz 'N': not referenced
 *          (may be NULL), ldz >= 1.
 * Returns 0; -i for a bad argument (1 compz, 2 n, 3 d, 4 e, 5 Z, 6 ldz);
 * k > 0 when an iteration failed to converge (compz 'N': as ?sterf; 'I': k - 1
 * is the first row of the subproblem that failed); HYLA_ERR_NAN (NaN/Inf
 * policy) when d or e holds NaN or Inf; HYLA_ERR_NO_MEMORY; device codes (allocation, copies,
 * GEMMs, the merge kernels); a NULL ctx returns HYLA_ERR_INVALID. Workspace:
 * allocated inside, at most about 2 n^2 + 10 n entries of host memory and,
 * when the device levels run, 3 n^2 + 12 n entries of device 0's memory and
 * 12 n of pinned host memory. Threads: the OpenMP team does the host's
 * work; where OpenBLAS runs on one thread (OPENBLAS_NUM_THREADS=1, the
 * fastest: OpenBLAS's pool beside the team stalls both) the large merges'
 * GEMMs too, in column blocks, one BLAS call per thread, else as one call
 * on OpenBLAS's pool. hyla never changes OpenBLAS's thread count. */
HYLA_API int hyla_sstedc(hyla_t *ctx, char compz, int64_t n, float *d, float *e, float *Z, int64_t ldz);
HYLA_API int hyla_dstedc(hyla_t *ctx, char compz, int64_t n, double *d, double *e, double *Z,
                int64_t ldz);

/* Eigenvalues of the real symmetric tridiagonal matrix T = (d, e) by
 * bisection on Sturm counts (LAPACK stebz's method, all eigenvalues) on
 * device 0 of ctx (a GPU: one thread per eigenvalue; the host backend: the
 * OpenMP threads): d and e go up, the eigenvalues come down. Each eigenvalue
 * is bracketed to an absolute width of 2 u max|T_ij| (u the unit roundoff),
 * so |w_j - lambda_j| stays within a small multiple of n u max|T_ij| whatever
 * the spacing; equal eigenvalues come out equal. The accuracy is absolute:
 * eigenvalues much smaller than |T| (graded matrices) get no relative
 * accuracy.
 *   n   order of T, >= 0.
 *   d   in: the n diagonal entries; out: the eigenvalues, ascending.
 *   e   the n-1 off-diagonal entries (may be NULL when n <= 1); not modified.
 * Returns 0; HYLA_ERR_INVALID (ctx NULL); -2 (n < 0), -3 (d NULL while n > 0),
 * -4 (e NULL while n > 1); HYLA_ERR_NAN (NaN/Inf policy) when d or e holds
 * NaN or Inf (d then unchanged); HYLA_ERR_UNSUPPORTED (n >= 2^31 on a GPU); device memory
 * and device codes. Workspace: about 40 n bytes of device 0's memory,
 * allocated inside. */
HYLA_API int hyla_ssterf_bisect(hyla_t *ctx, int64_t n, float *d, const float *e);
HYLA_API int hyla_dsterf_bisect(hyla_t *ctx, int64_t n, double *d, const double *e);

/* ---------------------------------------------------------------- NumPy .npy */

typedef enum { HYLA_S = 0, HYLA_D = 1, HYLA_C = 2, HYLA_Z = 3 } hyla_dtype;

/* A matrix read from or written to a .npy file. data is column-major with
 * leading dimension rows, in native byte order. A 1-D array of length L reads
 * as L x 1. */
typedef struct {
    hyla_dtype dtype;
    int64_t rows, cols;
    void *data;          /* owned by this struct: free with hyla_npy_free */
} hyla_npy;

/* Reads a .npy file (format versions 1.0, 2.0 and 3.0; dtypes <f4 >f4 <f8 >f8
 * <c8 >c8 <c16 >c16; 1-D or 2-D; C or Fortran order). Returns 0 and fills
 * *out, -1 (path NULL), -2 (out NULL), HYLA_ERR_IO (cannot open/read),
 * HYLA_ERR_FORMAT (malformed, truncated), HYLA_ERR_UNSUPPORTED (a
 * well-formed file of a dtype or rank hyla does not take),
 * HYLA_ERR_NO_MEMORY. On failure *out holds no allocation. If err_msg is
 * non-NULL, a short reason is copied into it (err_len bytes at most). */
HYLA_API int hyla_npy_read(const char *path, hyla_npy *out, char *err_msg, size_t err_len);

/* Writes a column-major rows x cols matrix of type dtype as a little-endian,
 * Fortran-order .npy (version 1.0, or 2.0 when the header needs it).
 * Returns 0, -1 (path NULL), -2 (bad dtype), -3 (rows < 0), -4 (cols < 0),
 * -5 (data NULL with rows*cols > 0), -6 (ld < max(1, rows)), HYLA_ERR_IO. */
HYLA_API int hyla_npy_write(const char *path, hyla_dtype dtype, int64_t rows, int64_t cols,
                   const void *data, int64_t ld);

/* Frees npy->data and zeroes the struct. Accepts NULL. */
HYLA_API void hyla_npy_free(hyla_npy *npy);

/* ------------------------------------------ matrices distributed over devices */

/* Most devices a context uses in a distributed matrix. */
#define HYLA_MAX_DEVICES 64

/* An n x n matrix distributed blockwise by columns over the devices of a
 * context (not block-cyclic): device g holds columns col[g] .. col[g+1] - 1
 * at full height (n rows, leading dimension ld[g] >= n) in its memory at
 * block[g] (NULL where it holds no column). hyla_dist_create makes it in the
 * layout the multi-device eigensolver works in (the boundaries multiples of
 * its update block `align`, the columns balanced for its stage 1); read the
 * fields, do not change them. The blocks are device memory of the context:
 * fill and read them with hyla_dist_set / hyla_dist_get, or directly
 * (cudaMemcpy on a GPU) by the columns each device holds. */
typedef struct {
    hyla_dtype dtype;
    int64_t n;
    int ndev;
    int64_t align;
    int64_t col[HYLA_MAX_DEVICES + 1];
    void *block[HYLA_MAX_DEVICES];
    int64_t ld[HYLA_MAX_DEVICES];
} hyla_dist_matrix;

/* *A := a new distributed n x n matrix of type dtype over every device of
 * ctx (at most HYLA_MAX_DEVICES), for the eigensolver's current options
 * (HYLA_OPT_EIG_KD, _NB, _SBR): n x (col[g+1] - col[g]) elements of device
 * g's memory each, contents undefined. Returns 0, -1 (ctx NULL), -2 (bad
 * dtype), -3 (n < 0), -4 (A NULL), HYLA_ERR_NO_MEMORY,
 * HYLA_ERR_DEVICE_MEMORY (nothing left allocated, *A NULL). */
HYLA_API int hyla_dist_create(hyla_t *ctx, hyla_dtype dtype, int64_t n, hyla_dist_matrix **A);
/* Frees the blocks and the struct; accepts NULL and *A == NULL; sets *A to
 * NULL. Call it before hyla_destroy of the context. */
HYLA_API void hyla_dist_destroy(hyla_t *ctx, hyla_dist_matrix **A);
/* Distribute: A := the n x n host matrix src (column major, ld >= n), every
 * column at full height. Gather: the n x n host matrix dst := A.
 * Synchronous. Return 0, -1 (ctx NULL), -2 (A NULL or made for a context
 * with another device count), -3 (src/dst NULL while n > 0), -4 (ld < max(1,
 * n)), or the devices' copy failures. */
HYLA_API int hyla_dist_set(hyla_t *ctx, hyla_dist_matrix *A, const void *src, int64_t ld);
HYLA_API int hyla_dist_get(hyla_t *ctx, const hyla_dist_matrix *A, void *dst, int64_t ld);

/* The eigensolver of hyla_?syevd / ?heevd on a matrix distributed over the
 * devices (from hyla_dist_create, of the routine's type): A holds the
 * Hermitian (real: symmetric) matrix in its `uplo` triangle; no device ever
 * holds more of it than its own block, so n can be as large as the devices
 * hold together (with jobz V each device also needs a block of Z the size of
 * its block of A, and the reflector stores). jobz 'V': A is overwritten by
 * the orthonormal eigenvectors, in the same layout (column j of Z in the
 * block that holds column j); jobz 'N': A is destroyed. w (host, n values)
 * receives the eigenvalues in ascending order. Synchronous. Arguments: 1
 * jobz, 2 uplo, 3 A (NULL, of another type, made for another device count or
 * for an update block that is not a multiple of the band width in force:
 * make it again after changing HYLA_OPT_EIG_KD or _NB), 4 w. Returns 0, -i
 * for a bad argument, HYLA_ERR_NAN (NaN/Inf policy: the triangle read,
 * scanned on each device before any work, holds NaN or Inf; A as passed),
 * HYLA_ERR_NO_MEMORY, HYLA_ERR_DEVICE_MEMORY, HYLA_ERR_DEVICE, HYLA_ERR_BLAS,
 * HYLA_ERR_UNSUPPORTED (n beyond LAPACK's int); on a failure A's contents are
 * undefined. One device: the one-device solver on block[0]. */
HYLA_API int hyla_ssyevd_mgpu(hyla_t *ctx, char jobz, char uplo, hyla_dist_matrix *A, float *w);
HYLA_API int hyla_dsyevd_mgpu(hyla_t *ctx, char jobz, char uplo, hyla_dist_matrix *A, double *w);
HYLA_API int hyla_cheevd_mgpu(hyla_t *ctx, char jobz, char uplo, hyla_dist_matrix *A, float *w);
HYLA_API int hyla_zheevd_mgpu(hyla_t *ctx, char jobz, char uplo, hyla_dist_matrix *A, double *w);

/* ---------------------------------------------------------------- debugging */

/* Counts of allocations made by hyla (host, pinned and device memory, all
 * devices). live = not yet freed. Used by tests to prove nothing leaks. */
HYLA_API void hyla_debug_alloc_stats(int64_t *live, int64_t *total);
/* Makes the k-th allocation from now fail (k >= 1), as if memory ran out;
 * k = 0 disables the injection. Process-wide; for tests. */
HYLA_API void hyla_debug_fail_alloc(int64_t k);

#ifdef __cplusplus
}
#endif
#endif /* HYLA_H */
