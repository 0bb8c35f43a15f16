/* hyla_?gemm on the devices of HYLA_DEVICES (default one virtual host
 * device), with small tiles and a small k-block so that every edge of the
 * tiling, the chunk cache and the dynamic schedule is exercised; then with a
 * forced CPU share; then with a device-memory cap that makes A and B stream. */
#include "hyla.h"
#include "harness.h"
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define HYLA_TEMPLATE "t_test_gemm.c"
#include "base/each_prec.h"

static void all_precisions(hyla_t *h, unsigned long long *seed, int quick) {
    hyla_st_suite(h, seed, quick);
    hyla_dt_suite(h, seed, quick);
    hyla_ct_suite(h, seed, quick);
    hyla_zt_suite(h, seed, quick);
}

int main(void) {
    unsigned long long seed = 12345;
    hyla_t *h = NULL;
    int64_t live0, live1;
    hyla_debug_alloc_stats(&live0, NULL);
    int rc = hyla_create(&h, test_devices());
    if (rc == HYLA_ERR_NO_DEVICE || rc == HYLA_ERR_UNSUPPORTED) {
        printf("devices %s not available: skipped\n", test_devices());
        return 77;
    }
    CHECK(rc == 0, "hyla_create(%s): %s", test_devices(), hyla_strerror(rc));
    if (rc) return summary("gemm");

    /* default blocks (a tile or two at these sizes) */
    all_precisions(h, &seed, 1);
    /* small blocks: many tiles, partial tiles and k-blocks everywhere */
    hyla_set_option(h, HYLA_OPT_GEMM_TILE, 32);
    hyla_set_option(h, HYLA_OPT_GEMM_KBLOCK, 16);
    all_precisions(h, &seed, 0);
    hyla_gemm_stats st;
    hyla_get_gemm_stats(h, &st);
    CHECK(st.tiles_total > 1, "small tiles give several tiles (%lld)", (long long)st.tiles_total);

    /* a CPU share next to the devices: the CPU takes and steals tiles */
    hyla_set_option(h, HYLA_OPT_GEMM_CPU_SHARE, 300);
    all_precisions(h, &seed, 1);
    /* most of the tiles start in the CPU's range: it does some of them. The
     * devices steal from its range as soon as they run dry, so on a loaded
     * machine whose scheduler starts the CPU worker late they may take every
     * tile of one call: a few calls, at least one of which the CPU shares. */
    hyla_set_option(h, HYLA_OPT_GEMM_CPU_SHARE, 900);
    int64_t cpu_tiles = 0, all_tiles = 0;
    for (int attempt = 0; attempt < 5 && cpu_tiles == 0; attempt++) {
        int info;
        double e = hyla_dt_case(h, 'T', 'N', 300, 200, 50, 1.0, 0.5, 0, 0, &seed, &info);
        hyla_get_gemm_stats(h, &st);
        CHECK(info == 0 && e >= 0 && e < 10, "dgemm with CPU share: info %d err %g", info, e);
        cpu_tiles = st.tiles_cpu;
        all_tiles = st.tiles_total;
    }
    CHECK(cpu_tiles > 0, "CPU share did tiles (%lld of %lld, in any of 5 calls)",
          (long long)cpu_tiles, (long long)all_tiles);
    hyla_set_option(h, HYLA_OPT_GEMM_CPU_SHARE, 0);

    hyla_st_gpu(h, &seed);
    hyla_dt_gpu(h, &seed);
    hyla_ct_gpu(h, &seed);
    hyla_zt_gpu(h, &seed);
    hyla_destroy(&h);
    CHECK(h == NULL, "destroy sets NULL");

    /* a device memory cap too small to keep A and B: chunks must stream */
    if (strncmp(test_devices(), "cpu", 3) == 0) {
        char spec[64];
        int ndev = 1;
        sscanf(test_devices(), "cpu:%d", &ndev);
        snprintf(spec, sizeof spec, "cpu:%d@256K", ndev);
        rc = hyla_create(&h, spec);
        CHECK(rc == 0, "create %s: %d", spec, rc);
        if (rc == 0) {
            hyla_set_option(h, HYLA_OPT_GEMM_TILE, 64);
            hyla_set_option(h, HYLA_OPT_GEMM_KBLOCK, 64);
            int info;
            double e = hyla_dt_case(h, 'N', 'N', 300, 250, 400, 1.0, 1.0, 1, 0, &seed, &info);
            hyla_get_gemm_stats(h, &st);
            CHECK(info == 0 && e >= 0 && e < 10, "capped dgemm: info %d err %g", info, e);
            CHECK(st.passes == 0 && st.bytes_h2d > (int64_t)(300 * 400 + 400 * 250) * 8,
                  "capped run streams (passes %d, h2d %lld)", st.passes, (long long)st.bytes_h2d);
            e = hyla_zt_case(h, 'C', 'T', 130, 190, 70, 1.0, 0.5, 0, 0, &seed, &info);
            CHECK(info == 0 && e >= 0 && e < 10, "capped zgemm: info %d err %g", info, e);
            /* a cap that cannot hold even the smallest blocks is a clean error */
            hyla_destroy(&h);
            snprintf(spec, sizeof spec, "cpu:%d@1K", ndev);
            CHECK(hyla_create(&h, spec) == 0, "create tiny cap");
            double a[4] = {1, 2, 3, 4}, c[4] = {0};
            int r = hyla_dgemm(h, 'N', 'N', 2, 2, 2, 1.0, a, 2, a, 2, 0.0, c, 2);
            CHECK(r == HYLA_ERR_DEVICE_MEMORY, "tiny cap: %d", r);
            hyla_destroy(&h);
        }
    }
    hyla_debug_alloc_stats(&live1, NULL);
    CHECK(live1 == live0, "no leak: %lld live allocations", (long long)(live1 - live0));
    return summary("gemm");
}
