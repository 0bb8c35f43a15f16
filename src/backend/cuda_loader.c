/* The CUDA backend of the shared libhyla.so, loaded at run time from
 * libhyla_cuda.so (registry.h): so that libhyla.so itself needs none of the
 * CUDA libraries and loads on any machine, the way ggml opens its backends.
 *
 * Where: the file HYLA_CUDA_BACKEND names ("none" or "off": never load it),
 * else libhyla_cuda.so in libhyla.so's own directory, else the dynamic
 * linker's search. Once, at the first question about CUDA devices (the
 * first hyla_create without a device list asks); never unloaded. A plugin
 * that cannot be opened (no such file, CUDA libraries missing) or that comes
 * from another build leaves the backend unavailable: every CUDA device list
 * then fails with HYLA_ERR_UNSUPPORTED and hyla_get_backend_info says why. */
#include "backend/registry.h"
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static hyla_cuda_entry entry; /* set when loaded */
static int loaded;
static char why_not[256];
#define PLUGIN_NAME "libhyla_cuda.so"

/* PLUGIN_NAME beside the object holding this function (libhyla.so), or
 * 0 when that object's path is not known */
static int beside_this_library(char *path, size_t len) {
    Dl_info di;
    if (!dladdr((void *)&beside_this_library, &di) || !di.dli_fname) return 0;
    const char *slash = strrchr(di.dli_fname, '/');
    if (!slash) return 0;
    const int dir = (int)(slash - di.dli_fname);
    const int w = snprintf(path, len, "%.*s/%s", dir, di.dli_fname, PLUGIN_NAME);
    return w > 0 && (size_t)w < len;
}

static void load(void) {
    char path[PATH_MAX];
    const char *env = getenv("HYLA_CUDA_BACKEND");
    void *h = NULL;
    if (env && (strcasecmp(env, "none") == 0 || strcasecmp(env, "off") == 0)) {
        snprintf(why_not, sizeof why_not, "not loaded: HYLA_CUDA_BACKEND=%s", env);
        return;
    }
    if (env && *env) {
        h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
    } else {
        if (beside_this_library(path, sizeof path)) h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) h = dlopen(PLUGIN_NAME, RTLD_NOW | RTLD_LOCAL);
    }
    if (!h) {
        const char *e = dlerror();
        snprintf(why_not, sizeof why_not, "not loaded: %s", e ? e : PLUGIN_NAME " not found");
        return;
    }
    hyla_cuda_plugin_init_fn init;
    *(void **)&init = dlsym(h, HYLA_CUDA_PLUGIN_SYMBOL);
    const hyla_core_services core = {.abi = hyla_backend_abi(), .malloc_fn = hyla_malloc,
                                     .calloc_fn = hyla_calloc, .free_fn = hyla_free,
                                     .alloc_admit = hyla_alloc_admit,
                                     .alloc_note = hyla_alloc_note};
    hyla_cuda_entry e = {0};
    if (!init) {
        snprintf(why_not, sizeof why_not, "not loaded: %s has no %s",
                 env && *env ? env : PLUGIN_NAME, HYLA_CUDA_PLUGIN_SYMBOL);
    } else if (init(&core, &e) != 0 || !e.device_count || !e.dev_create || !e.versions) {
        snprintf(why_not, sizeof why_not, "not loaded: %s is from another build of hyla",
                 env && *env ? env : PLUGIN_NAME);
    } else {
        entry = e;
        loaded = 1;
        return;
    }
    dlclose(h);
}

static int ready(void) {
    pthread_once(&load_once, load);
    return loaded;
}

int hyla_cuda_available(char *why, size_t len) {
    const int ok = ready();
    if (why && len) snprintf(why, len, "%s", ok ? "" : why_not);
    return ok;
}

int hyla_cuda_device_count(void) { return ready() ? entry.device_count() : 0; }

int hyla_cuda_dev_create(int ordinal, int64_t mem_cap, hyla_dev **dev) {
    if (dev) *dev = NULL;
    return ready() ? entry.dev_create(ordinal, mem_cap, dev) : HYLA_ERR_UNSUPPORTED;
}

void hyla_cuda_versions(char *buf, size_t len) {
    if (ready())
        entry.versions(buf, len);
    else if (buf && len)
        snprintf(buf, len, "CUDA backend %s", why_not);
}
