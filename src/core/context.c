/* The context: the device set, options, and workspaces cached between calls. */
#include "core/internal.h"
#include "backend/registry.h"
#include "hyla_options.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void destroy_devices(hyla_t *h) {
    for (int i = 0; i < h->ndev; i++)
        if (h->devs[i]) h->devs[i]->ops->dev_destroy(h->devs[i]);
    hyla_free(h->devs);
    h->devs = NULL;
}

static int create_devices(hyla_t *h, const hyla_device_spec *sp) {
    const hyla_backend_desc *b = hyla_backend_of(sp->kind);
    int n = sp->count;
    int ordinals[64] = {0};
    if (!b || !b->available(NULL, 0)) return HYLA_ERR_UNSUPPORTED;
    if (b->listed) {
        const int avail = b->device_count();
        if (sp->all) {
            if (avail == 0) return HYLA_ERR_NO_DEVICE;
            n = HYLA_MIN(avail, 64);
            for (int i = 0; i < n; i++) ordinals[i] = i;
        } else {
            for (int i = 0; i < n; i++) {
                if (sp->ordinals[i] >= avail) return HYLA_ERR_NO_DEVICE;
                ordinals[i] = sp->ordinals[i];
            }
        }
    } else {
        for (int i = 0; i < n; i++) ordinals[i] = i;
    }
    h->devs = hyla_calloc((size_t)n, sizeof *h->devs);
    if (!h->devs) return HYLA_ERR_NO_MEMORY;
    h->ndev = n;
    h->mem_cap = sp->mem_cap;
    for (int i = 0; i < n; i++) {
        int rc = b->dev_create(ordinals[i], sp->mem_cap, &h->devs[i]);
        if (rc) return rc;
        h->devs[i]->index = i;
    }
    return 0;
}

/* Without a device list: every device of the first listed backend that has
 * any (every GPU), else one virtual host device. */

/* Sets every option to its default or environment value (below). */
static int options_init(hyla_t *h);

int hyla_create(hyla_t **ctx, const char *devices) {
    if (!ctx) return -1;
    *ctx = NULL;
    hyla_device_spec sp;
    const char *spec = devices;
    if (!spec || !*spec) spec = getenv("HYLA_DEVICES");
    if (!spec || !*spec) spec = hyla_backends_default();
    int rc = hyla_parse_devices(spec, &sp);
    if (rc) return rc;
    hyla_t *h = hyla_calloc(1, sizeof *h);
    if (!h) return HYLA_ERR_NO_MEMORY;
    /* the call lock (recursive, HYLA_SERIAL) and the plain inner one */
    pthread_mutexattr_t ra;
    const int attr = pthread_mutexattr_init(&ra) == 0;
    const int call = attr && pthread_mutexattr_settype(&ra, PTHREAD_MUTEX_RECURSIVE) == 0 &&
                     pthread_mutex_init(&h->call_lock, &ra) == 0;
    if (attr) pthread_mutexattr_destroy(&ra);
    if (!call || pthread_mutex_init(&h->lock, NULL) != 0) {
        if (call) pthread_mutex_destroy(&h->call_lock);
        hyla_free(h);
        return HYLA_ERR_DEVICE;
    }
    rc = create_devices(h, &sp);
    if (rc == 0) {
        h->ws = hyla_calloc((size_t)h->ndev, sizeof *h->ws);
        if (!h->ws) rc = HYLA_ERR_NO_MEMORY;
    }
    if (rc == 0) rc = options_init(h);
    if (rc) {
        hyla_destroy(&h);
        return rc;
    }
    *ctx = h;
    return 0;
}

static void workspace_free(hyla_dev *d, hyla_dev_workspace *w) {
    if (w->q_in) d->ops->queue_destroy(w->q_in);
    if (w->q_comp) d->ops->queue_destroy(w->q_comp);
    if (w->q_out) d->ops->queue_destroy(w->q_out);
    if (w->q_aux) d->ops->queue_destroy(w->q_aux);
    d->ops->mem_free(d, HYLA_MEM_DEVICE, w->dev_pool);
    d->ops->mem_free(d, HYLA_MEM_PINNED, w->pinned);
    memset(w, 0, sizeof *w);
}

hyla_t *hyla_call_enter(const hyla_t *ctx) {
    hyla_t *h = (hyla_t *)ctx; /* the lock is the context's only state a reader changes */
    if (h) pthread_mutex_lock(&h->call_lock);
    return h;
}

void hyla_call_leave(hyla_t **guard) {
    if (*guard) pthread_mutex_unlock(&(*guard)->call_lock);
}

int hyla_release_workspace(hyla_t *h) {
    HYLA_SERIAL(h);
    if (!h) return -1;
    for (int i = 0; h->ws && i < h->ndev; i++) workspace_free(h->devs[i], &h->ws[i]);
    return 0;
}

void hyla_destroy(hyla_t **ctx) {
    if (!ctx || !*ctx) return;
    hyla_t *h = *ctx;
    hyla_release_workspace(h);
    hyla_free(h->ws);
    destroy_devices(h);
    pthread_mutex_destroy(&h->lock);
    pthread_mutex_destroy(&h->call_lock);
    hyla_free(h);
    *ctx = NULL;
}

int hyla_device_count(const hyla_t *h) { return h ? h->ndev : 0; }

int hyla_get_device_info(const hyla_t *h, int i, hyla_device_info *info) {
    HYLA_SERIAL(h);
    if (!h) return -1;
    if (i < 0 || i >= h->ndev) return -2;
    if (!info) return -3;
    *info = h->devs[i]->info;
    return 0;
}

/* The option table (hyla_options.h): range, default and environment
 * variable of each option. */
static const struct {
    hyla_option opt;
    const char *env;
    int64_t min, max, def;
} options[] = {
#define X(id, flag, values, lo, hi, def, help) {HYLA_OPT_##id, "HYLA_" #id, lo, hi, def},
    HYLA_OPTIONS(X)
#undef X
};

/* Where the context keeps each option. */
static int64_t *option_slot(hyla_t *h, hyla_option opt) {
    switch (opt) {
    case HYLA_OPT_GEMM_TILE: return &h->opt_gemm_tile;
    case HYLA_OPT_GEMM_KBLOCK: return &h->opt_gemm_kblock;
    case HYLA_OPT_GEMM_CPU_SHARE: return &h->opt_cpu_share;
    case HYLA_OPT_PACK_THREADS: return &h->opt_pack_threads;
    case HYLA_OPT_POTRF_NB: return &h->opt_potrf_nb;
    case HYLA_OPT_POTRF_OOC: return &h->opt_potrf_ooc;
    case HYLA_OPT_GETRF_NB: return &h->opt_getrf_nb;
    case HYLA_OPT_GETRF_IB: return &h->opt_getrf_ib;
    case HYLA_OPT_LU_PANEL: return &h->opt_lu_panel;
    case HYLA_OPT_EIG_KD: return &h->opt_eig_kd;
    case HYLA_OPT_EIG_NB: return &h->opt_eig_nb;
    case HYLA_OPT_EIG_BACK2_NB: return &h->opt_eig_back2_nb;
    case HYLA_OPT_EIG_ORDER: return &h->opt_eig_order;
    case HYLA_OPT_EIG_CHASE: return &h->opt_eig_chase;
    case HYLA_OPT_EIG_TRIDIAG: return &h->opt_eig_tridiag;
    case HYLA_OPT_EIG_BACK2: return &h->opt_eig_back2;
    case HYLA_OPT_EIG_DC_MIN: return &h->opt_eig_dc_min;
    case HYLA_OPT_EIG_BACK1_NB: return &h->opt_eig_back1_nb;
    case HYLA_OPT_EIG_DEVICES: return &h->opt_eig_devices;
    case HYLA_OPT_EIG_SBR: return &h->opt_eig_sbr;
    case HYLA_OPT_EIG_ALLREDUCE: return &h->opt_eig_allreduce;
    case HYLA_OPT_EIG_PANEL_QR: return &h->opt_eig_panel_qr;
    case HYLA_OPT_EIG_S1_UPDATE: return &h->opt_eig_s1_update;
    case HYLA_OPT_EIG_S1_SYMM: return &h->opt_eig_s1_symm;
    case HYLA_OPT_EIG_ONE_STAGE: return &h->opt_eig_one_stage;
    case HYLA_OPT_EIG_CHASE_STEP: return &h->opt_eig_chase_step;
    case HYLA_OPT_HOST_LAPACK: return &h->opt_host_lapack;
    case HYLA_OPT_EIG_SUBSET_DC: return &h->opt_eig_subset_dc;
    }
    return NULL;
}

int hyla_set_option(hyla_t *h, hyla_option opt, int64_t v) {
    HYLA_SERIAL(h);
    if (!h) return -1;
    size_t i = 0;
    while (i < sizeof options / sizeof options[0] && options[i].opt != opt) i++;
    int64_t *slot = option_slot(h, opt);
    if (i == sizeof options / sizeof options[0] || !slot) return -2;
    if (v < options[i].min || v > options[i].max) return -3;
    /* the values inside the range that hyla.h says an option refuses */
    if ((opt == HYLA_OPT_LU_PANEL && v > 2 && v < 8) || (opt == HYLA_OPT_EIG_DC_MIN && v == 1) ||
        (opt == HYLA_OPT_EIG_S1_SYMM && v > 2 && v < 16))
        return -3;
    *slot = v;
    return 0;
}

int hyla_get_option(const hyla_t *h, hyla_option opt, int64_t *v) {
    HYLA_SERIAL(h);
    if (!h) return -1;
    if (!v) return -3;
    const int64_t *slot = option_slot((hyla_t *)h, opt);
    if (!slot) return -2;
    *v = *slot;
    return 0;
}

/* Each option's default, or the integer in its environment variable. */
static int options_init(hyla_t *h) {
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        const char *env = getenv(options[i].env);
        int64_t v = options[i].def;
        if (env && *env) {
            char *end;
            errno = 0;
            long long e = strtoll(env, &end, 10);
            if (*end != '\0' || errno == ERANGE) return HYLA_ERR_INVALID;
            v = e;
        }
        if (hyla_set_option(h, options[i].opt, v)) return HYLA_ERR_INVALID;
    }
    return 0;
}

void hyla_set_log(hyla_t *h, FILE *stream) {
    HYLA_SERIAL(h);
    if (h) h->log = stream;
}

void hyla_log(hyla_t *h, const char *fmt, ...) {
    if (!h || !h->log) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("hyla: ", h->log);
    vfprintf(h->log, fmt, ap);
    fputc('\n', h->log);
    va_end(ap);
}

int hyla_get_gemm_stats(const hyla_t *h, hyla_gemm_stats *st) {
    HYLA_SERIAL(h);
    if (!h) return -1;
    if (!st) return -2;
    *st = h->gemm_stats;
    return 0;
}

/* Keep 5% (at least 256 MiB on a GPU) of the device free for the runtime. */
size_t hyla_workspace_budget(hyla_t *h, int i) {
    hyla_dev *d = h->devs[i];
    size_t free_b = 0, total_b = 0;
    if (d->ops->mem_info(d, &free_b, &total_b) != 0) return 0;
    free_b += h->ws[i].dev_pool_bytes; /* our own pool can be reused */
    size_t margin = total_b / 20;
    if (d->info.kind == HYLA_DEVICE_CUDA && margin < ((size_t)256 << 20)) margin = (size_t)256 << 20;
    if (d->info.kind == HYLA_DEVICE_HOST) margin = 0;
    return free_b > margin ? free_b - margin : 0;
}

int hyla_workspace_get(hyla_t *h, int i, size_t dev_bytes, size_t pinned_bytes,
                       hyla_dev_workspace **out) {
    hyla_dev *d = h->devs[i];
    hyla_dev_workspace *w = &h->ws[i];
    int rc = 0;
    *out = NULL;
    if (!w->q_in) HYLA_TRY(d->ops->queue_create(d, &w->q_in));
    if (!w->q_comp) HYLA_TRY(d->ops->queue_create(d, &w->q_comp));
    if (!w->q_out) HYLA_TRY(d->ops->queue_create(d, &w->q_out));
    if (!w->q_aux) HYLA_TRY(d->ops->queue_create_prio(d, 1, &w->q_aux));
    if (w->dev_pool_bytes < dev_bytes) {
        d->ops->mem_free(d, HYLA_MEM_DEVICE, w->dev_pool);
        w->dev_pool = NULL;
        w->dev_pool_bytes = 0;
        HYLA_TRY(d->ops->mem_alloc(d, HYLA_MEM_DEVICE, dev_bytes, &w->dev_pool));
        w->dev_pool_bytes = dev_bytes;
    }
    if (w->pinned_bytes < pinned_bytes) {
        d->ops->mem_free(d, HYLA_MEM_PINNED, w->pinned);
        w->pinned = NULL;
        w->pinned_bytes = 0;
        HYLA_TRY(d->ops->mem_alloc(d, HYLA_MEM_PINNED, pinned_bytes, &w->pinned));
        w->pinned_bytes = pinned_bytes;
    }
    *out = w;
cleanup:
    return rc;
}

int hyla_get_lu_stats(const hyla_t *h, hyla_lu_stats *st) {
    HYLA_SERIAL(h);
    if (!h) return -1;
    if (!st) return -2;
    *st = h->lu_stats;
    return 0;
}

int hyla_get_chol_stats(const hyla_t *h, hyla_chol_stats *st) {
    HYLA_SERIAL(h);
    if (!h) return -1;
    if (!st) return -2;
    *st = h->chol_stats;
    return 0;
}
