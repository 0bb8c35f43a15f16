/* The table of backends (registry.h). */
#include "backend/registry.h"
#include "backend/ops/ops.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the host backend: always there, as many virtual devices as asked */
#define HOST_MAX_DEVICES 64
static int host_count(void) { return HOST_MAX_DEVICES; }
static int host_available(char *why, size_t len) {
    if (why && len) why[0] = '\0';
    return 1;
}
static void host_versions(char *buf, size_t len) {
    if (buf && len) snprintf(buf, len, "host cores through the host BLAS and LAPACKE");
}

static const hyla_backend_desc backends[] = {
    {.name = "cpu", .alias = "host", .kind = HYLA_DEVICE_HOST, .listed = 0,
     .what = "virtual host device",
     .device_count = host_count, .dev_create = hyla_host_dev_create,
     .available = host_available, .versions = host_versions},
    {.name = "cuda", .alias = "gpu", .kind = HYLA_DEVICE_CUDA, .listed = 1,
     .what = "GPU",
     .device_count = hyla_cuda_device_count, .dev_create = hyla_cuda_dev_create,
     .available = hyla_cuda_available, .versions = hyla_cuda_versions},
};
enum { NBACKENDS = (int)(sizeof backends / sizeof backends[0]) };

int hyla_backends_n(void) { return NBACKENDS; }

const hyla_backend_desc *hyla_backend_at(int i) {
    return i >= 0 && i < NBACKENDS ? &backends[i] : NULL;
}

static int word_is(const char *s, const char *word, size_t len) {
    return s && strlen(s) == len && strncmp(s, word, len) == 0;
}

const hyla_backend_desc *hyla_backend_named(const char *word, size_t len) {
    for (int i = 0; i < NBACKENDS; i++)
        if (word_is(backends[i].name, word, len) || word_is(backends[i].alias, word, len))
            return &backends[i];
    return NULL;
}

const hyla_backend_desc *hyla_backend_of(hyla_device_kind kind) {
    for (int i = 0; i < NBACKENDS; i++)
        if (backends[i].kind == kind) return &backends[i];
    return NULL;
}

int hyla_backend_count(void) { return NBACKENDS; }

int hyla_get_backend_info(int i, hyla_backend_info *info) {
    if (i < 0 || i >= NBACKENDS) return -2;
    if (!info) return -3;
    const hyla_backend_desc *b = &backends[i];
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", b->name);
    info->kind = b->kind;
    info->available = b->available(info->detail, sizeof info->detail);
    if (info->available) {
        info->devices = b->device_count();
        b->versions(info->detail, sizeof info->detail);
    }
    return 0;
}

/* The grammar of a device list (backend.c's parser), from the table once */
static char grammar[1024];
static pthread_once_t grammar_once = PTHREAD_ONCE_INIT;

static void grammar_build(void) {
    size_t at = 0;
    for (int i = 0; i < NBACKENDS && at < sizeof grammar; i++) {
        const hyla_backend_desc *b = &backends[i];
        int w;
        if (b->listed)
            w = snprintf(grammar + at, sizeof grammar - at,
                         "%s (every %s), %s:ORDINALS (a comma list of %ss, an ordinal may repeat, "
                         "at most 64, each 0..1023)",
                         b->name, b->what, b->name, b->what);
        else
            w = snprintf(grammar + at, sizeof grammar - at,
                         "%s (one %s), %s:COUNT (1..%d %ss)", b->name, b->what, b->name,
                         b->device_count(), b->what);
        if (w > 0) at += (size_t)w;
        if (b->alias && at < sizeof grammar) {
            w = snprintf(grammar + at, sizeof grammar - at, ", %s as %s", b->alias, b->name);
            if (w > 0) at += (size_t)w;
        }
        if (at < sizeof grammar) {
            w = snprintf(grammar + at, sizeof grammar - at, "; ");
            if (w > 0) at += (size_t)w;
        }
    }
    if (at < sizeof grammar)
        snprintf(grammar + at, sizeof grammar - at,
                 "each optionally followed by @SIZE, a memory cap in bytes with an optional K, M "
                 "or G suffix; e.g. cuda, cuda:0,1, cuda:0,0, cpu:4, cpu:2@512M");
}

const char *hyla_device_list_help(void) {
    pthread_once(&grammar_once, grammar_build);
    return grammar;
}

const char *hyla_backends_default(void) {
    for (int i = 0; i < NBACKENDS; i++) {
        const hyla_backend_desc *b = &backends[i];
        if (b->listed && b->device_count() > 0) return b->name;
    }
    return "cpu";
}

int hyla_device_list_slot(const char *spec, int slot, char *buf, size_t len) {
    if (!buf || len == 0 || slot < 0) return HYLA_ERR_INVALID;
    buf[0] = '\0';
    if (!spec || !*spec) spec = getenv("HYLA_DEVICES");
    if (!spec || !*spec) spec = hyla_backends_default();
    hyla_device_spec sp;
    const int rc = hyla_parse_devices(spec, &sp);
    if (rc) return rc;
    const hyla_backend_desc *b = hyla_backend_of(sp.kind);
    int w;
    if (!b || !b->listed) {
        w = snprintf(buf, len, "%s", spec); /* a count of virtual devices: the list whole */
    } else {
        const int count = sp.all ? b->device_count() : sp.count;
        if (count <= 0) return HYLA_ERR_NO_DEVICE;
        const int ord = sp.all ? slot % count : sp.ordinals[slot % count];
        const char *cap = strchr(spec, '@');
        w = snprintf(buf, len, "%s:%d%s", b->name, ord, cap ? cap : "");
    }
    if (w < 0 || (size_t)w >= len) {
        buf[0] = '\0';
        return HYLA_ERR_INVALID;
    }
    return 0;
}
