/* An allocation failure injected at each allocation in turn (context
 * creation, workspaces, queues, events, tasks, the GEMM plan) must give a
 * clean error code and leave no allocation behind. */
#include "hyla.h"
#include "harness.h"
#include <math.h>
#include <string.h>

static int run_once(const char *devices, double *C, const double *A, const double *B, int n) {
    hyla_t *h = NULL;
    int rc = hyla_create(&h, devices);
    if (rc) return rc;
    hyla_set_option(h, HYLA_OPT_GEMM_TILE, 16);
    hyla_set_option(h, HYLA_OPT_GEMM_KBLOCK, 16);
    rc = hyla_dgemm(h, 'N', 'T', n, n, n, 1.0, A, n, B, n, 0.0, C, n);
    hyla_destroy(&h);
    return rc;
}

int main(void) {
    const char *devices = test_devices();
    if (strncmp(devices, "cpu", 3) != 0) {
        printf("allocation injection runs on host devices only: skipped\n");
        return 77;
    }
    enum { N = 40 };
    double A[N * N], B[N * N], C[N * N], Cref[N * N];
    unsigned long long s = 3;
    for (int i = 0; i < N * N; i++) { A[i] = t_rand(&s); B[i] = t_rand(&s); }
    int64_t live0, live1;
    hyla_debug_alloc_stats(&live0, NULL);
    CHECK(run_once(devices, Cref, A, B, N) == 0, "reference run");
    int64_t k, failures = 0;
    for (k = 1; k < 20000; k++) {
        memset(C, 0, sizeof C);
        hyla_debug_fail_alloc(k);
        int rc = run_once(devices, C, A, B, N);
        hyla_debug_fail_alloc(0);
        hyla_debug_alloc_stats(&live1, NULL);
        if (live1 != live0) {
            CHECK(0, "leak after failing allocation %lld: %lld live (rc %d)", (long long)k,
                  (long long)(live1 - live0), rc);
            break;
        }
        if (rc == 0) {
            double e = 0;
            for (int i = 0; i < N * N; i++) e = fmax(e, fabs(C[i] - Cref[i]));
            CHECK(e < 1e-12, "result after injection run %lld", (long long)k);
            break;
        }
        failures++;
        if (rc != HYLA_ERR_NO_MEMORY && rc != HYLA_ERR_DEVICE_MEMORY) {
            CHECK(0, "allocation %lld: rc %d (%s)", (long long)k, rc, hyla_strerror(rc));
            break;
        }
    }
    CHECK(failures > 10, "injected %lld failures", (long long)failures);
    printf("alloc: %lld allocation points tried\n", (long long)k);
    return summary("alloc");
}
