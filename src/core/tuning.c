/* The tuning table: block sizes, crossovers and expected rates per device
 * family, read at run time (BLIS's config registry idea). Each field's
 * meaning is beside its declaration (core/internal.h); the measurements
 * behind every value are in docs/TUNING.md, which a changed value updates. */
#include "core/internal.h"
#include <pthread.h>
#include <string.h>

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
        .stedc_gemm_min = 256,
        .stedc_gemm_min_div = 16,
        .stedc_host_merges_max = 2048,
        .sterf_dc_min = 512,
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
        .eig_panel_cholqr = 1,
        .eig_cholqr_min_m = 2048,
        .eig_subset_dc_pml = 3,
        .eig_q2_kernel_min_cols = 4096,
        .eig_subset_mgpu_pml = 500,
        .her2k_gemm_min = 8192,
        .her2k_gemm_block = 1024,
        .eig_mgpu_nb_kd = 4,
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
        .stedc_gemm_min_div = 16,
        .stedc_host_merges_max = 2048,
        .sterf_dc_min = 512,
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
        .eig_panel_cholqr = 1,
        .eig_cholqr_min_m = 2048,
        .eig_subset_dc_pml = 3,
        .eig_q2_kernel_min_cols = 4096,
        .eig_subset_mgpu_pml = 500,
        .her2k_gemm_min = 8192,
        .her2k_gemm_block = 1024,
        .eig_mgpu_nb_kd = 4,
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
        .stedc_gemm_min_div = 0,
        .stedc_host_merges_max = 2048,
        .sterf_dc_min = 512,
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
        .eig_panel_cholqr = 0,
        .eig_cholqr_min_m = 2048,
        .eig_subset_dc_pml = 350,
        .eig_q2_kernel_min_cols = 0,
        .eig_subset_mgpu_pml = 500,
        .her2k_gemm_min = INT64_MAX,
        .her2k_gemm_block = 1024,
        .eig_mgpu_nb_kd = 0,
        .eig_mgpu_min_n = {0, 0},
    },
};

/* "hopper-hbm3e": capability 9 or later with more than 100 GiB of its own
 * memory (H200, GH200 144 GB; the context's memory cap does not count),
 * "hopper"'s row but for the one-stage crossovers (docs/TUNING.md). */
#define HBM3E_MIN_BYTES ((int64_t)100 << 30)
static hyla_tuning hbm3e;
static pthread_once_t hbm3e_once = PTHREAD_ONCE_INIT;

static void hbm3e_init(void) {
    static const int64_t one_stage[2][4] = {{4096, 4096, 4096, 3072}, {5120, 5120, 5120, 4096}};
    memcpy(&hbm3e, &table[ROW_HOPPER], sizeof hbm3e); /* padding too: rows compare bytewise */
    hbm3e.family = "hopper-hbm3e";
    memcpy(hbm3e.eig_one_stage, one_stage, sizeof one_stage);
}

const hyla_tuning *hyla_tuning_host(void) { return &table[ROW_HOST]; }

const hyla_tuning *hyla_tuning_for(const hyla_dev *dev) {
    if (dev->info.kind == HYLA_DEVICE_HOST) return &table[ROW_HOST];
    if (dev->info.compute_major < 9) return &table[ROW_CUDA_GENERIC];
    if (dev->phys_memory <= HBM3E_MIN_BYTES) return &table[ROW_HOPPER];
    pthread_once(&hbm3e_once, hbm3e_init);
    return &hbm3e;
}
