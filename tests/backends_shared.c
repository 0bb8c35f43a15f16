/* The registry of backends through the shared libhyla.so, which loads the
 * CUDA backend at run time (src/backend/cuda_loader.c). Usage:
 *   backends_shared MODE [LIBHYLA_SO]
 * MODE default: as a program finds it (with CUDA built, the plugin beside
 *      libhyla.so must load; on GPUs a Cholesky runs on one through it and
 *      the allocations it makes are counted by libhyla's own counter);
 *      none: HYLA_CUDA_BACKEND=none; missing: a file that does not exist;
 *      foreign: a library without the plugin's entry (LIBHYLA_SO itself);
 *      stale: a plugin whose entry refuses this build (FAKE_PLUGIN_SO).
 * In every mode the host backend works, and where CUDA is unavailable a
 * device list naming it fails with HYLA_ERR_UNSUPPORTED, not a crash. */
#include "harness.h"
#include "hyla.h"
#include <math.h>
#include <string.h>

static int find(const char *name, hyla_backend_info *b) {
    for (int i = 0; i < hyla_backend_count(); i++)
        if (hyla_get_backend_info(i, b) == 0 && strcmp(b->name, name) == 0) return 1;
    return 0;
}

/* A Cholesky of an SPD matrix of order n on devs: its scaled residual */
static double potrf_residual(const char *devs, int64_t n, int *rc) {
    hyla_t *ctx = NULL;
    double *A = malloc(sizeof *A * (size_t)(n * n)), *L = malloc(sizeof *L * (size_t)(n * n));
    double worst = INFINITY;
    unsigned long long seed = 7;
    *rc = -1;
    if (!A || !L) goto out;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i <= j; i++) A[i + j * n] = A[j + i * n] = t_rand(&seed);
    for (int64_t i = 0; i < n; i++) A[i + i * n] += (double)n;
    memcpy(L, A, sizeof *A * (size_t)(n * n));
    *rc = hyla_create(&ctx, devs);
    if (*rc) goto out;
    *rc = hyla_dpotrf(ctx, 'L', n, L, n);
    hyla_destroy(&ctx);
    if (*rc) goto out;
    worst = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            double s = 0;
            for (int64_t k = 0; k <= j; k++) s += L[i + k * n] * L[j + k * n];
            worst = fmax(worst, fabs(s - A[i + j * n]) / ((double)n * n * 1.1e-16));
        }
out:
    free(A);
    free(L);
    return worst;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "default";
    if (strcmp(mode, "none") == 0) setenv("HYLA_CUDA_BACKEND", "none", 1);
    else if (strcmp(mode, "missing") == 0)
        setenv("HYLA_CUDA_BACKEND", "/nonexistent/libhyla_cuda.so", 1);
    else if (strcmp(mode, "foreign") == 0 && argc > 2) setenv("HYLA_CUDA_BACKEND", argv[2], 1);
    else if (strcmp(mode, "stale") == 0 && argc > 3) setenv("HYLA_CUDA_BACKEND", argv[3], 1);
    else if (strcmp(mode, "default") != 0) {
        fprintf(stderr, "usage: backends_shared default|none|missing|foreign|stale LIBHYLA_SO "
                        "FAKE_PLUGIN_SO\n");
        return 2;
    }
    unsetenv("HYLA_DEVICES");

    hyla_backend_info b;
    CHECK(hyla_backend_count() >= 2, "%d backends", hyla_backend_count());
    CHECK(hyla_get_backend_info(-1, &b) == -2, "bad index accepted");
    CHECK(hyla_get_backend_info(hyla_backend_count(), &b) == -2, "index past the end accepted");
    CHECK(hyla_get_backend_info(0, NULL) == -3, "NULL info accepted");
    CHECK(find("cpu", &b) && b.available && b.kind == HYLA_DEVICE_HOST && b.devices == 64,
          "host backend: available %d, %d devices", b.available, b.devices);

    const char *g = hyla_device_list_help();
    CHECK(g && strstr(g, "cpu:COUNT") && strstr(g, "cuda:ORDINALS") && strstr(g, "@SIZE"),
          "device-list grammar: %s", g ? g : "(null)");

    hyla_backend_info cu;
    CHECK(find("cuda", &cu) && cu.kind == HYLA_DEVICE_CUDA, "no cuda row in the registry");
    printf("cuda backend: available %d, %d devices, %s\n", cu.available, cu.devices, cu.detail);
    if (strcmp(mode, "default") == 0) {
#ifdef HYLA_HAVE_CUDA
        CHECK(cu.available, "libhyla_cuda.so beside libhyla.so did not load: %s", cu.detail);
#else
        CHECK(!cu.available && strstr(cu.detail, "not built"), "CUDA not built: %s", cu.detail);
#endif
    } else {
        CHECK(!cu.available && cu.devices == 0, "%s: the CUDA backend is available", mode);
        const char *want = strcmp(mode, "none") == 0      ? "HYLA_CUDA_BACKEND"
                           : strcmp(mode, "missing") == 0 ? "nonexistent"
                           : strcmp(mode, "stale") == 0   ? "another build"
                                                          : "hyla_cuda_plugin_init";
#ifdef HYLA_HAVE_CUDA
        CHECK(strstr(cu.detail, want) != NULL, "%s: the reason (%s) does not name %s", mode,
              cu.detail, want);
#else
        (void)want;
#endif
    }

    /* the host backend whatever CUDA's state, and the default device list */
    int rc;
    double res = potrf_residual("cpu:2", 97, &rc);
    CHECK(rc == 0 && res < 60, "potrf on cpu:2: rc %d, residual %g", rc, res);
    hyla_t *ctx = NULL;
    rc = hyla_create(&ctx, NULL);
    CHECK(rc == 0 && ctx, "hyla_create(NULL): %d", rc);
    hyla_device_info d;
    if (ctx && hyla_get_device_info(ctx, 0, &d) == 0)
        CHECK(d.kind == (cu.available && cu.devices > 0 ? HYLA_DEVICE_CUDA : HYLA_DEVICE_HOST),
              "the default context's device 0 is of kind %d", (int)d.kind);
    hyla_destroy(&ctx);

    if (!cu.available) {
        rc = hyla_create(&ctx, "cuda");
        CHECK(rc == HYLA_ERR_UNSUPPORTED && !ctx, "cuda without the backend: %d", rc);
        rc = hyla_create(&ctx, "gpu:0");
        CHECK(rc == HYLA_ERR_UNSUPPORTED && !ctx, "gpu:0 without the backend: %d", rc);
    } else if (cu.devices == 0) {
        rc = hyla_create(&ctx, "cuda");
        CHECK(rc == HYLA_ERR_NO_DEVICE && !ctx, "cuda without GPUs: %d", rc);
    } else {
        /* a GPU through the plugin: a result, and every allocation the
         * backend made counted by libhyla's counter and given back */
        int64_t live0 = 0, total0 = 0, live1 = 0, total1 = 0;
        hyla_debug_alloc_stats(&live0, &total0);
        res = potrf_residual("cuda:0", 1000, &rc);
        hyla_debug_alloc_stats(&live1, &total1);
        CHECK(rc == 0 && res < 60, "potrf on cuda:0: rc %d, residual %g", rc, res);
        CHECK(live1 == live0 && total1 > total0,
              "allocations: live %lld -> %lld, total %lld -> %lld", (long long)live0,
              (long long)live1, (long long)total0, (long long)total1);
    }
    return summary("backends_shared");
}
