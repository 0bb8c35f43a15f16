/* The CUDA backend's entry points in a build without it (registry.h). */
#include "backend/registry.h"
#include <stdio.h>

int hyla_cuda_device_count(void) { return 0; }

int hyla_cuda_dev_create(int ordinal, int64_t mem_cap, hyla_dev **dev) {
    (void)ordinal, (void)mem_cap;
    if (dev) *dev = NULL;
    return HYLA_ERR_UNSUPPORTED;
}

int hyla_cuda_available(char *why, size_t len) {
    if (why && len) snprintf(why, len, "not built (no CUDA compiler, or HYLA_CUDA=OFF)");
    return 0;
}

void hyla_cuda_versions(char *buf, size_t len) {
    if (buf && len) snprintf(buf, len, "CUDA not built");
}
