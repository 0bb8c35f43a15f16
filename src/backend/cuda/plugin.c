/* libhyla_cuda.so: the CUDA backend as a plugin of the shared libhyla.so
 * (backend/cuda_loader.c loads it). Its one exported symbol hands the loader
 * the backend's entry points; the allocation functions of base.h that the
 * backend calls are the loading library's, reached through the table it
 * passes, so that one count of live allocations and one failure injection
 * serve both. Not part of the static libhyla.a, where the backend is linked
 * in and calls them directly. */
#include "backend/registry.h"

static hyla_core_services core;

void *hyla_malloc(size_t bytes) { return core.malloc_fn(bytes); }
void *hyla_calloc(size_t count, size_t size) { return core.calloc_fn(count, size); }
void hyla_free(void *p) { core.free_fn(p); }
int hyla_alloc_admit(void) { return core.alloc_admit(); }
void hyla_alloc_note(int delta) { core.alloc_note(delta); }

__attribute__((visibility("default"))) int hyla_cuda_plugin_init(const hyla_core_services *c,
                                                                  hyla_cuda_entry *out) {
    if (!c || !out || c->abi != hyla_backend_abi()) return -1;
    if (!c->malloc_fn || !c->calloc_fn || !c->free_fn || !c->alloc_admit || !c->alloc_note)
        return -1;
    core = *c;
    out->device_count = hyla_cuda_device_count;
    out->dev_create = hyla_cuda_dev_create;
    out->versions = hyla_cuda_versions;
    return 0;
}
