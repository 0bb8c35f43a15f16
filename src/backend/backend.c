/* Device-list parsing and backend-independent helpers. */
#include "backend/backend.h"
#include "backend/registry.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* "64M", "8G", "1024" -> bytes; -1 on error */
static int64_t parse_size(const char *s) {
    char *end;
    if (!isdigit((unsigned char)*s)) return -1;
    long long v = strtoll(s, &end, 10);
    int64_t mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = 1LL << 10; end++; break;
    case 'M': mul = 1LL << 20; end++; break;
    case 'G': mul = 1LL << 30; end++; break;
    case '\0': break;
    default: return -1;
    }
    if (*end != '\0' || v <= 0 || v > INT64_MAX / mul) return -1;
    return (int64_t)v * mul;
}

/* Grammar: NAME [":" LIST] ["@" SIZE], NAME a backend's name or alias in the
 * registry ("cuda" | "gpu" | "cpu" | "host"); LIST a comma list of ordinals
 * for a listed backend (cuda), one count for the others (cpu). An ordinal
 * may repeat ("cuda:0,0"): two logical devices sharing one GPU, with streams
 * and handles of their own, so that every multi-device path runs on a
 * single GPU. */
int hyla_parse_devices(const char *spec, hyla_device_spec *out) {
    char buf[256];
    if (!spec || !out || strlen(spec) >= sizeof buf) return HYLA_ERR_DEVICE_SPEC;
    memset(out, 0, sizeof *out);
    strcpy(buf, spec);
    char *at = strchr(buf, '@');
    if (at) {
        *at = '\0';
        out->mem_cap = parse_size(at + 1);
        if (out->mem_cap < 0) return HYLA_ERR_DEVICE_SPEC;
    }
    char *colon = strchr(buf, ':');
    if (colon) *colon = '\0';
    const char *list = colon ? colon + 1 : NULL;
    const hyla_backend_desc *b = hyla_backend_named(buf, strlen(buf));
    if (!b) return HYLA_ERR_DEVICE_SPEC;
    out->kind = b->kind;
    if (b->listed) {
        if (!list) { out->all = 1; return 0; }
        const char *p = list;
        while (*p) {
            char *end;
            if (!isdigit((unsigned char)*p)) return HYLA_ERR_DEVICE_SPEC;
            long v = strtol(p, &end, 10);
            if (v > 1023 || out->count >= 64) return HYLA_ERR_DEVICE_SPEC;
            out->ordinals[out->count++] = (int)v;
            if (*end == ',' && end[1] != '\0') end++;
            else if (*end != '\0') return HYLA_ERR_DEVICE_SPEC;
            p = end;
        }
        return out->count > 0 ? 0 : HYLA_ERR_DEVICE_SPEC;
    }
    out->count = 1;
    if (list) {
        char *end;
        if (!isdigit((unsigned char)*list)) return HYLA_ERR_DEVICE_SPEC;
        long v = strtol(list, &end, 10);
        if (*end != '\0' || v < 1 || v > b->device_count()) return HYLA_ERR_DEVICE_SPEC;
        out->count = (int)v;
    }
    return 0;
}
