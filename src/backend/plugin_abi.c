/* The number libhyla and libhyla_cuda.so compare before they share
 * structures (registry.h); compiled into both. */
#include "backend/registry.h"
#include "backend/ops/ops.h"

/* The layouts libhyla and libhyla_cuda.so share, folded into one number. */
int hyla_backend_abi(void) {
    unsigned h = (unsigned)(HYLA_VERSION_MAJOR * 10000 + HYLA_VERSION_MINOR * 100 +
                            HYLA_VERSION_PATCH);
    const size_t sizes[] = {sizeof(hyla_backend_ops),   sizeof(hyla_alg_ops),
                            sizeof(hyla_dev),           sizeof(hyla_device_info),
                            sizeof(hyla_core_services), sizeof(hyla_cuda_entry)};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        h = h * 1000003u ^ (unsigned)sizes[i];
    return (int)(h & 0x7fffffff);
}
