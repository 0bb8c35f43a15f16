/* The tuning table: block sizes and expected rates per device family,
 * read at run time (BLIS's config registry idea). Values for "hopper" come
 * from measurements on H100 (bench/results/), those "hopper-hbm3e" changes
 * (below) from one H200; "host" sizes are small so the
 * multi-tile paths run in tests. The stedc device-merge threshold of
 * "hopper" (1024): dsyevd with vectors at n = 8192 took 0.63 s against
 * 0.97 s with 2048 and 0.70 s with 512, the same at 16384 (2.56-2.58 s),
 * one H100 (bench/results/raw/syevd-h100-dc-min.txt). The "host" band
 * widths with eigenvectors (2 cores, host backend, against LAPACKE ?syevd /
 * ?heevd in the same run): d n = 4000 kd 128 5.11 s against 6.68 s with kd
 * 64 (LAPACKE 4.23 s), n = 3000 2.39 s against 2.93 s (kd 96: 2.54, 192:
 * 2.48); z n = 2000 kd 64 2.30 s against 2.82 s with 32 (LAPACKE 3.87 s in
 * the run of the old default, 2.71 s);
 * c 1.41 s against 1.62 s; s n = 3000 kd 128 1.19 s against 1.51 s. Values
 * only keep the narrower bands (z n = 2000: kd 32 0.54 s against 0.62 s;
 * s n = 3000: kd 64 0.30 s against 0.36 s; d: 48 / 96, the fastest at n = 4000 on the
 * GPU host's cores at 16 and 2 threads against 32 / 64, 32 / 128 and 64 / 128,
 * bench/results/syevd-host-kdnb.md). Q2 of "hopper" by the one-call
 * kernel for double at kd 64 in groups of 32 sweeps (its tensor-core form,
 * src/backend/cuda/k_q2.cu): dsyevd with vectors at n = 16384, one H100,
 * Q2 alone 0.86 s against 0.92 s for the batched GEMMs after stedc, the
 * whole solver with Q built beside stedc 1.83 s against 1.88 s, same run
 * (bench/results/syevd-back2-h100.md). Stage 1's A V by GEMMs on
 * "hopper" for s, d and c (diagonal blocks of 2048, 2048, 1024; cuBLAS
 * SSYMM and CHEMM run far below their GEMMs): stage 1 of eigenvalues only
 * at n = 16384, one H100, the vendor's SYMM/HEMM against blocks of 512,
 * 1024 and 2048, same run: s 0.536 against 0.368 / 0.412 / 0.331 s, d
 * 0.321 against 0.348 / 0.405 / 0.298 s, c 0.848 against 0.702 / 0.659 /
 * 0.630 s (bench/results/symm-h100.md; an earlier run, raw/symm-h100-
 * ea96179.log: s 0.536 against 0.372 / 0.330 / 0.311, c 0.844 against
 * 0.727 / 0.671 / 0.709). Double at 4096 and 8192: within the spread
 * between runs either way (symm-small-h100.md). The one-stage crossover
 * (the backend's heevd op, cuSOLVER's Xsyevd on a GPU) is the largest n
 * of 1024, 2048, 3072, 4096, 5120, 6144, 8192 where cuSOLVER beat the
 * two-stage solver (device-resident, one H100, same run,
 * bench/results/syevd-onestage-h100.md, with stage 1's small panels by
 * CholeskyQR2): values only s 4096 (0.087 against 0.106 s; 5120: 0.160
 * against 0.129 s), d, c, z 3072 (4096: d 0.118 against 0.114 s, c 0.120
 * against 0.114 s, z 0.199 against 0.150 s); with vectors (measured again
 * after stedc's single-threaded host BLAS on a GPU, ptridiag.c, which
 * shortened the two stages there: bench/results/syevd-crossover-v-h100.md)
 * s and c 5120 (s 0.179 against 0.191 s, c 0.243 against 0.258 s; 6144: s
 * 0.271 against 0.236 s, c 0.376 against 0.327 s), d 4096 (0.127 against
 * 0.151 s; 5120: 0.2222 against 0.2213 s), z 3072 (0.107 against 0.192 s;
 * 4096: 0.219 against 0.190 s). "cuda-generic" keeps the crossovers of the
 * first measurement (unmeasured there). The host backend
 * (two stages forced against LAPACKE ?syevd / ?heevd on the same OpenBLAS,
 * same run; bench/results/syevd-host-onestage.md, the GPU host's cores at
 * 16, 4 and 2 threads, n = 1000, 2000, 4000): with vectors the real types
 * take the one-stage solver at every order. The two stages lost d in
 * every run, 0.53 / 0.70 / 0.66x on 16 threads, 0.63 / 0.96 / 0.69x on 4,
 * 0.48 / 0.72 / 0.82x on 2 (and 0.46 / 0.63x at 1000 / 2000 on the 2-core
 * development VM): their back transformation does twice LAPACK's flops
 * (Q2's staircase), which their faster reduction does not repay on CPU
 * cores; s is taken to follow d (the same flops, unmeasured). Complex with
 * vectors the two stages won from 1000 on (z 1.04-1.31x at 1000, 1.02-1.63x
 * at 2000, 2.23x at 4000 on 16 threads), and without vectors they won at
 * 4000 everywhere (d 1.60-2.07x, z 1.98x) but lost below 2000 on 2 and 4
 * threads (d 0.77-0.82x at 1000-2000 on 4 threads) while winning there on
 * 16 (d 1.81x at 1000): the two stages keep those by default, where no one
 * crossover holds across core counts (HYLA_OPT_EIG_ONE_STAGE sets one).
 * Stage 2 on the device from n = 512 on a GPU (kd <= 64, the CUDA kernel's
 * widest; eig/phb2st_dev.c has the measurements), never on the host
 * backend, whose hb2st op is the sequential reference. The device chase's
 * step (HYLA_OPT_EIG_CHASE_STEP) on "hopper": split at the late row for c
 * and z, the windows copied ahead for s and d; one H100, the chase alone at
 * n = 16384, kd = 64 (bench/results/chase-h100.md): z 356 ms split against
 * 398 loaded after the wait and 447 copied ahead, c 274 against 283 and 297;
 * d 336 against 342 and 277, s 295 against 307 and 240. "cuda-generic"
 * takes the same (unmeasured there). */
#include "core/internal.h"
#include <pthread.h>
#include <string.h>

/* The reordered order of the back transformations (eig_reorder_min_n) on a
 * GPU from n = 4096. One H100 (d, Q built on queues of its own beside
 * stedc's device levels, the band chased on the GPU): the whole dsyevd
 * took 0.94 s against 1.28 s at n = 8192, and 3.72 s against 5.39 s at
 * 16384 (with the chase on the host cores, 8192 had been faster direct:
 * 1.51 s against 1.66 s); with stedc's merges on the GPU, 0.231 s against
 * 0.237 s at 4096. Never by default on the host backend (tests ask for it).
 *
 * Eigenvalues by bisection on a GPU (eig_bisect_min_n) from n = 2048. One
 * H100 (d, 16 host cores, `hyla sterf`): bisection 0.012 / 0.024 / 0.048 s
 * at n = 2048 / 4096 / 8192 against 0.154 / 0.213 / 0.196 s for sterf on
 * the host cores; inside dsyevd at 16384, 0.113 s against 0.435 s
 * (bench/results/syevd.md). With several lanes an index (k_bisect.cu)
 * 0.012 / 0.029 s at 4096 / 8192 and 0.074 s at 16384; from the starting
 * grid (tri_bisect.h) 0.010 / 0.024 / 0.053 s
 * (bench/results/raw/bisect-grid-h100.txt).
 *
 * Stage 1's CholeskyQR2 panels from 2048 rows (eig_cholqr_min_m) where the
 * reflectors are rebuilt on the host. One H100 (stage 1 with Householder
 * QR / CholeskyQR2 for every panel of 2 kd rows or more, kd 64,
 * eigenvalues only): d n = 2048 0.020 / 0.024 s, 4096 0.047 / 0.043 s,
 * 8192 0.110 / 0.076 s, 16384 0.418 / 0.328 s; z 2048 0.024 / 0.029 s,
 * 4096 0.057 / 0.049 s, 16384 0.798 / 0.727 s: below about 2000 rows a
 * panel's Householder QR was the cheaper (CholeskyQR2's one wait for the
 * device and its host work cost more than the QR's column chain there).
 * With the reconstruction and the Gram matrix's Cholesky as one-CTA kernels
 * (k_cq.cu), CholeskyQR2 on every panel won at every order measured,
 * 6144-16384, eigenvalues only (suite syevd-panelqr-small-h100, whole
 * solve default / every panel: d 6144 0.217 / 0.195 s, 8192 0.290 / 0.276
 * s, 16384 0.750 / 0.728 s; z 6144 0.294 / 0.268 s, 16384 1.309 / 1.250
 * s): where the device rebuilds them, every panel takes CholeskyQR2.
 *
 * The multi-device eigensolver by default (eig_mgpu_min_n): on GPUs with
 * eigenvectors from n = 16384, where two H200 took 1.45 s against one's
 * 1.68 s (dsyevd, bench/results/syevd-mgpu-x2.md); below it the fixed
 * costs of several devices (the distributed stage 1's panel round trips,
 * Q's blocks, Z = Q E) were not paid back where measured (4 x H200 at n
 * = 16384 before: 1.81 s on two, 1.70 s on four against 1.67 s on one).
 * Eigenvalues alone never: the distributed stage 1 has been slower than
 * one GPU's (2 x H200, n = 32768: 1.68 to 2.39 s against 1.54 to 1.69 s).
 * The host backend always (its several devices exist to test that code). */
/* the rows, by name */
enum { ROW_HOPPER, ROW_CUDA_GENERIC, ROW_HOST, ROWS };

static const hyla_tuning table[ROWS] = {
    [ROW_HOPPER] = {
        .family = "hopper",
        .gemm_tile = {8192, 8192, 8192, 8192},
        .gemm_kblock = {2048, 2048, 2048, 1024},
        .gemm_rate = {50e12, 55e12, 55e12, 55e12},
        .staging_slots = 4,
        .potrf_nb = {1024, 1024, 768, 512},
        .xfer_slot_bytes = (size_t)32 << 20,
        .eig_kd = {64, 64, 64, 64},
        .eig_nb = {128, 128, 128, 128},
        .eig_back_nb = 256,
        .stedc_leaf = 32,
        .stedc_gemm_min = 1024,
        .getrf_nb = {768, 768, 512, 384},
        .getrf_ib = {128, 128, 128, 128},
        .eig_kd_values = {0, 0, 0, 0},
        .eig_nb_values = {0, 0, 0, 0},
        .eig_q2_kd = {0, 64, 0, 0},
        .eig_q2_nb = {0, 32, 0, 0},
        .eig_s1_symm = {2048, 2048, 1024, 0},
        .eig_one_stage = {{4096, 3072, 3072, 3072}, {5120, 4096, 5120, 3072}},
        .eig_chase_min_n = 512,
        .eig_chase_step = {2, 2, 3, 3},
        .eig_reorder_min_n = 4096,
        .eig_bisect_min_n = 2048,
        .eig_cholqr_min_m = 2048,
        /* one H200, d n = 16384 (bench/results/eig-parts-h200.md): a
         * tenth of the spectrum by MRRR on the host cores 15.8 s, the full
         * dsyevd 1.70 s in the same run; MRRR's O(n m) only wins for a few
         * pairs */
        .eig_subset_dc_pct = 1,
        .eig_mgpu_min_n = {INT64_MAX, 16384},
    },
    [ROW_CUDA_GENERIC] = {
        .family = "cuda-generic",
        .gemm_tile = {4096, 4096, 4096, 4096},
        .gemm_kblock = {1024, 1024, 1024, 512},
        .gemm_rate = {10e12, 5e12, 10e12, 5e12},
        .staging_slots = 4,
        .potrf_nb = {512, 512, 384, 256},
        .xfer_slot_bytes = (size_t)32 << 20,
        .eig_kd = {32, 32, 32, 32},
        .eig_nb = {32, 32, 32, 32},
        .eig_back_nb = 256,
        .stedc_leaf = 32,
        .stedc_gemm_min = 2048,
        .getrf_nb = {512, 512, 384, 256},
        .getrf_ib = {128, 128, 128, 128},
        .eig_kd_values = {0, 0, 0, 0},
        .eig_nb_values = {0, 0, 0, 0},
        .eig_q2_kd = {0, 0, 0, 0},
        .eig_q2_nb = {0, 0, 0, 0},
        .eig_s1_symm = {0, 0, 0, 0},
        .eig_one_stage = {{4096, 3072, 3072, 3072}, {5120, 5120, 5120, 4096}},
        .eig_chase_min_n = 512,
        .eig_chase_step = {2, 2, 3, 3},
        .eig_reorder_min_n = 4096,
        .eig_bisect_min_n = 2048,
        .eig_cholqr_min_m = 2048,
        .eig_subset_dc_pct = 1,
        .eig_mgpu_min_n = {INT64_MAX, 16384},
    },
    [ROW_HOST] = {
        .family = "host",
        .gemm_tile = {512, 512, 384, 256},
        .gemm_kblock = {256, 256, 192, 128},
        .gemm_rate = {50e9, 25e9, 25e9, 12e9},
        .staging_slots = 3,
        .potrf_nb = {64, 64, 48, 32},
        .xfer_slot_bytes = (size_t)16 << 10,
        .eig_kd = {128, 128, 64, 64},
        .eig_nb = {128, 128, 64, 64},
        .eig_back_nb = 64,
        .stedc_leaf = 32,
        .stedc_gemm_min = INT64_MAX,
        .getrf_nb = {64, 64, 48, 32},
        .getrf_ib = {8, 8, 8, 8},
        .eig_kd_values = {64, 48, 32, 32},
        .eig_nb_values = {128, 96, 64, 64},
        .eig_q2_kd = {0, 0, 0, 0},
        .eig_q2_nb = {0, 0, 0, 0},
        .eig_s1_symm = {0, 0, 0, 0},
        .eig_one_stage = {{0, 0, 0, 0}, {INT64_MAX, INT64_MAX, 0, 0}},
        .eig_chase_min_n = 0,
        .eig_chase_step = {1, 1, 1, 1},
        .eig_reorder_min_n = INT64_MAX,
        .eig_bisect_min_n = INT64_MAX,
        .eig_cholqr_min_m = 2048,
        /* d n = 3000, 2 cores: the wanted by MRRR 2.54 s for 10 % of n,
         * 5.44 s for 50 %, 6.77 s for all; dsyevd 4.47 s */
        .eig_subset_dc_pct = 35,
        .eig_mgpu_min_n = {0, 0},
    },
};

/* "hopper-hbm3e": capability 9 or later with more than 100 GiB of its own
 * memory (the Hopper HBM3e parts: H200, GH200 144 GB; the context's memory
 * cap does not count), "hopper"'s row but for the one-stage crossovers.
 * One H200 (suite syevd-tune-h200, bench/results/syevd-tune-h200.md; the
 * two stages forced against cuSOLVER's Xsyevd in the same run,
 * device-resident, best of two): the vendor's memory-bound one-stage
 * solver gains more from the faster HBM than the two stages do, so the
 * crossover moves up where the H100's was close: values only d 4096 (0.111
 * against 0.101 s; 5120: 0.146 against 0.180 s), c 4096 (0.104 against
 * 0.103 s; 5120: 0.135 against 0.192 s); with vectors d 5120 (0.238 against
 * 0.195 s; 6144: 0.237 against 0.295 s), z 4096 (0.196 against 0.182 s;
 * 5120: 0.283 against 0.326 s); s and z values only, s and c with vectors
 * as on the H100. The chase's step per type and Q2 by the one-call kernel
 * for double were the H100's choices there too (the chase alone at 16384:
 * d 276 ms copied ahead against 326 split and 341 loaded after the wait, z
 * 344 split against 445 and 396, s 238 ahead, c 262 split; dsyevd with
 * vectors, Q2 by the kernel against the batched GEMMs: 0.631 against 0.726
 * s at 16384, 4.98 against 5.60 s at 32768). */
#define HBM3E_MIN_BYTES ((int64_t)100 << 30)
static hyla_tuning hbm3e;
static pthread_once_t hbm3e_once = PTHREAD_ONCE_INIT;

static void hbm3e_init(void) {
    static const int64_t one_stage[2][4] = {{4096, 4096, 4096, 3072}, {5120, 5120, 5120, 4096}};
    memcpy(&hbm3e, &table[ROW_HOPPER], sizeof hbm3e); /* padding too: rows compare bytewise */
    hbm3e.family = "hopper-hbm3e";
    memcpy(hbm3e.eig_one_stage, one_stage, sizeof one_stage);
}

const hyla_tuning *hyla_tuning_for(const hyla_dev *dev) {
    if (dev->info.kind == HYLA_DEVICE_HOST) return &table[ROW_HOST];
    if (dev->info.compute_major < 9) return &table[ROW_CUDA_GENERIC];
    if (dev->phys_memory <= HBM3E_MIN_BYTES) return &table[ROW_HOPPER];
    pthread_once(&hbm3e_once, hbm3e_init);
    return &hbm3e;
}
