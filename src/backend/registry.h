/*
 * The registry of backends: every kind of device hyla can run on, with how
 * its devices are counted and created and how a device list names them.
 * The device-list parser (backend.c), the context (core/context.c) and the
 * public queries (hyla_backend_count, hyla_get_backend_info) ask it; a new
 * backend is one more row of its table (registry.c) and its own folder.
 *
 * The host backend is always built in. The CUDA backend is built in where
 * the library is the static libhyla.a, and loaded at run time from
 * libhyla_cuda.so where it is the shared libhyla.so (cuda_loader.c), so one
 * libhyla.so loads on machines without the CUDA libraries.
 */
#ifndef HYLA_BACKEND_REGISTRY_H
#define HYLA_BACKEND_REGISTRY_H

#include "backend/backend.h"

typedef struct {
    const char *name;   /* the device list's word, e.g. "cuda" */
    const char *alias;  /* another word for it ("gpu"), or NULL */
    hyla_device_kind kind;
    int listed;         /* 1: ":LIST" names ordinals (may repeat); 0: a count */
    const char *what;   /* its devices, for the grammar's text ("GPU") */
    /* devices present (0 when the backend is absent or not loaded) */
    int (*device_count)(void);
    /* creates device `ordinal` (a virtual device's index for a count) */
    int (*dev_create)(int ordinal, int64_t mem_cap, hyla_dev **dev);
    /* 1 when the backend is in this build (built in, or its shared object
     * found and loaded), else 0 with why in why (len bytes) */
    int (*available)(char *why, size_t len);
    /* versions of the libraries the backend runs on */
    void (*versions)(char *buf, size_t len);
} hyla_backend_desc;

/* The backends, in the table's order (0 <= i < hyla_backends_n()). */
int hyla_backends_n(void);
/* The device list of a context created with none (nor HYLA_DEVICES): the
 * first backend of listed devices that has some (every one of them), else
 * "cpu". */
const char *hyla_backends_default(void);
const hyla_backend_desc *hyla_backend_at(int i);
/* The backend whose name or alias is `word` (len characters), or NULL. */
const hyla_backend_desc *hyla_backend_named(const char *word, size_t len);
/* The backend of a device kind, or NULL. */
const hyla_backend_desc *hyla_backend_of(hyla_device_kind kind);

/* The CUDA backend's entry points: built in (cuda/cuda_backend.c), loaded
 * (cuda_loader.c), or absent from the build (cuda_absent.c). */
int hyla_cuda_available(char *why, size_t len);

/* What libhyla_cuda.so receives from the library that loads it: the
 * allocation accounting (base.h) it must share, and what it returns: the
 * backend's entry points. HYLA_CUDA_PLUGIN_ABI changes with any layout the
 * two share; a plugin of another build is refused. */
typedef struct {
    int abi;
    void *(*malloc_fn)(size_t bytes);
    void *(*calloc_fn)(size_t count, size_t size);
    void (*free_fn)(void *p);
    int (*alloc_admit)(void);
    void (*alloc_note)(int delta);
} hyla_core_services;

typedef struct {
    int (*device_count)(void);
    int (*dev_create)(int ordinal, int64_t mem_cap, hyla_dev **dev);
    void (*versions)(char *buf, size_t len);
} hyla_cuda_entry;

int hyla_backend_abi(void);
#define HYLA_CUDA_PLUGIN_SYMBOL "hyla_cuda_plugin_init"
typedef int (*hyla_cuda_plugin_init_fn)(const hyla_core_services *core, hyla_cuda_entry *out);

#endif
