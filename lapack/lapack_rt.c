/* The runtime of libhyla_lapack: who serves a call (hyla or the next LAPACK),
 * the default context, and the log HYLA_LAPACK_VERBOSE asks for. */
#include "lapack_rt.h"
#include "hyla_lapack.h"
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Below these sizes the next LAPACK is faster than a round trip through a
 * GPU. The measure is n, min(m, n) for getrf and min(m, n, k) for gemm.
 * One H100 against pip's OpenBLAS on 16 cores, every call forced through
 * hyla (bench/results/lapack-h100.md): scipy.linalg.cholesky 1.48x at 1024,
 * 2.04x at 2048; numpy.linalg.eigh 1.28x at 1024, 2.12x at 2048;
 * scipy.linalg.solve (getrf and getrs) 1.56x at 1024 but 0.81x at 2048 and
 * 1.22x at 4096, so getrf keeps 2048. The solves alone move the whole
 * factor for few right-hand sides: a higher bar. gemm: not measured.
 * sygvd / hegvd, sygv / hegv, syevx / heevx, sygvx / hegvx: syevd's bar, not measured on
 * a GPU (without one they forward, as every call but the eigenvalues
 * alone). */
static const struct {
    const char *env;   /* HYLA_LAPACK_MIN_N_<env> overrides the default */
    int64_t min_n;
} routine_table[HL_ROUTINES] = {
    [HL_POTRF] = {"POTRF", 1024}, [HL_POTRS] = {"POTRS", 8192}, [HL_POSV] = {"POSV", 1024},
    [HL_GETRF] = {"GETRF", 2048}, [HL_GETRS] = {"GETRS", 8192}, [HL_GESV] = {"GESV", 2048},
    [HL_SYEVD] = {"SYEVD", 1024}, [HL_SYEV] = {"SYEV", 1024},   [HL_SYEVR] = {"SYEVR", 1024},
    [HL_GEMM] = {"GEMM", 2048}, [HL_SYGVD] = {"SYGVD", 1024}, [HL_SYGV] = {"SYGV", 1024},
    [HL_SYEVX] = {"SYEVX", 1024}, [HL_SYGVX] = {"SYGVX", 1024},
};

/* Without a GPU, hyla's host backend serves the eigenvalues alone (?syevd,
 * ?syev, ?syevr with jobz N) from these sizes (real, complex), where it was
 * faster than LAPACKE on the same OpenBLAS: 2 cores, d n = 3000 1.46x, 4000
 * 2.30x (2000: 0.81x); z n = 1500 1.25x, 2000 1.49x (1000: 0.95x); on 16
 * cores d n = 4000 1.54x to 1.82x (bench/results/syevd.md). Everything else
 * forwards there. A threshold set in the environment replaces these. */
static const int64_t host_values_min[2] = {3000, 1500};

/* The settings read once from the environment. */
static struct {
    int64_t min_n[HL_ROUTINES];
    int explicit_min[HL_ROUTINES]; /* set by HYLA_LAPACK_MIN_N or its per-routine variable */
    int verbose;
    void *forward_lib;             /* dlopen of HYLA_LAPACK_FORWARD, or NULL */
    int forward_named;             /* HYLA_LAPACK_FORWARD was set (even if it failed to open) */
} settings;
static pthread_once_t settings_once = PTHREAD_ONCE_INIT;
/* The base address of this library, so that a look-up never returns one of
 * its own functions (set with the settings). */
static void *self_base;


static hyla_t *default_ctx;
static int ctx_code;               /* hyla_create's code */
static int ctx_has_gpu;
static pthread_once_t ctx_once = PTHREAD_ONCE_INIT;

/* One hyla call at a time: the context is not reentrant. A call that finds
 * the lock taken (another thread in hyla, or hyla's own LAPACK calls on its
 * worker threads) goes to the next library instead of waiting. */
static pthread_mutex_t hyla_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int in_hyla;

static _Atomic int64_t n_served, n_forwarded;

/* The marker of a name looked up without success. */
static char absent_marker;
#define HL_ABSENT ((void *)&absent_marker)

#define HL_RT_EXPORT __attribute__((visibility("default")))

#define LOG(...) do { if (settings.verbose) fprintf(stderr, "hyla_lapack: " __VA_ARGS__); } while (0)

/* Whether the call on this thread is the program's (logged line by line)
 * or made from inside a LAPACK or BLAS library or hyla (counted only). */
static _Thread_local int tl_top;
static _Thread_local int tl_serve_top; /* tl_top of the call hyla serves (its nested calls reset tl_top) */
static _Thread_local double tl_t0;
#define LOG_CALL(...) do { if (tl_top) LOG(__VA_ARGS__); } while (0)

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int read_int(const char *var, int64_t *v) {
    const char *s = getenv(var);
    if (!s || !*s) return 0;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || *end || x < 0) {
        LOG("%s=%s is not a size >= 0; ignored\n", var, s);
        return 0;
    }
    *v = x;
    return 1;
}

/* --------------------------------------- HYLA_LAPACK_VERBOSE's summary */

static void read_settings(void);

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static hl_fwd *listed_head;

static void print_summary(void) {
    pthread_mutex_lock(&list_lock);
    fprintf(stderr, "hyla_lapack: summary: the program's calls served by hyla / forwarded, "
                    "time in hyla; calls from inside LAPACK, BLAS or hyla (nested) counted apart\n");
    fprintf(stderr, "hyla_lapack: %-18s %10s %10s %10s %14s\n", "routine", "served", "forwarded",
            "nested", "hyla time (s)");
    for (const hl_fwd *f = listed_head; f; f = f->next)
        fprintf(stderr, "hyla_lapack: %-18s %10lld %10lld %10lld %14.6f\n", f->name,
                (long long)atomic_load(&f->served), (long long)atomic_load(&f->forwarded),
                (long long)atomic_load(&f->nested), 1e-9 * (double)atomic_load(&f->ns));
    pthread_mutex_unlock(&list_lock);
}

/* Objects whose calls are nested ones: those that define a LAPACK or BLAS
 * routine or hyla's API themselves (OpenBLAS, LAPACK, libhyla, this
 * library), by base address. */
static struct { void *base; int library; } known[64];
static int nknown;

static int defines(void *h, const char *name, void *base) {
    void *p = dlsym(h, name);
    Dl_info i;
    return p && dladdr(p, &i) && i.dli_fbase == base;
}

static int from_library(void *caller) {
    Dl_info i;
    if (!caller || !dladdr(caller, &i)) return 0;
    if (i.dli_fbase == self_base) return 1;
    pthread_mutex_lock(&list_lock);
    int library = -1;
    for (int k = 0; k < nknown && library < 0; k++)
        if (known[k].base == i.dli_fbase) library = known[k].library;
    if (library < 0) {
        library = 0;
        void *h = i.dli_fname && *i.dli_fname ? dlopen(i.dli_fname, RTLD_LAZY | RTLD_NOLOAD) : NULL;
        if (h) {
            static const char *const names[] = {"dgemm_", "dpotrf_", "dgemm_64_", "scipy_dgemm_",
                                                "scipy_dgemm_64_", "hyla_create"};
            for (size_t k = 0; k < sizeof names / sizeof *names && !library; k++)
                library = defines(h, names[k], i.dli_fbase);
            dlclose(h);
        }
        if (nknown < (int)(sizeof known / sizeof *known))
            known[nknown].base = i.dli_fbase, known[nknown++].library = library;
    }
    pthread_mutex_unlock(&list_lock);
    return library;
}

void hl_enter(hl_fwd *f, void *caller) {
    pthread_once(&settings_once, read_settings);
    if (!settings.verbose) {
        tl_top = 0;
        return;
    }
    if (!atomic_exchange(&f->listed, 1)) {
        pthread_mutex_lock(&list_lock);
        f->next = listed_head;
        listed_head = f;
        pthread_mutex_unlock(&list_lock);
    }
    tl_top = !from_library(caller);
}

static void count(hl_fwd *f, int served) {
    if (!settings.verbose) return;
    atomic_fetch_add(!tl_top ? &f->nested : served ? &f->served : &f->forwarded, 1);
}

static void read_settings(void) {
    Dl_info self;
    if (dladdr((void *)&hl_begin, &self)) self_base = self.dli_fbase;
    const char *v = getenv("HYLA_LAPACK_VERBOSE");
    settings.verbose = v && *v && strcmp(v, "0") != 0;
    if (settings.verbose) atexit(print_summary);
    int64_t all = 0;
    int all_set = read_int("HYLA_LAPACK_MIN_N", &all);
    for (int r = 0; r < HL_ROUTINES; r++) {
        char var[64];
        snprintf(var, sizeof var, "HYLA_LAPACK_MIN_N_%s", routine_table[r].env);
        settings.min_n[r] = all_set ? all : routine_table[r].min_n;
        settings.explicit_min[r] = all_set;
        if (read_int(var, &settings.min_n[r])) settings.explicit_min[r] = 1;
    }
    const char *lib = getenv("HYLA_LAPACK_FORWARD");
    if (lib && *lib) {
        settings.forward_named = 1;
        settings.forward_lib = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        if (!settings.forward_lib) LOG("HYLA_LAPACK_FORWARD=%s: %s\n", lib, dlerror());
    }
}

static void create_context(void) {
    ctx_code = hyla_create(&default_ctx, NULL);
    if (ctx_code) {
        LOG("no hyla context (%s); every call goes to the next LAPACK\n", hyla_strerror(ctx_code));
        default_ctx = NULL;
        return;
    }
    hyla_device_info info;
    ctx_has_gpu = hyla_get_device_info(default_ctx, 0, &info) == 0 && info.kind == HYLA_DEVICE_CUDA;
    LOG("context of %d device(s), %s\n", hyla_device_count(default_ctx),
        ctx_has_gpu ? "CUDA" : "host only");
}

static int is_ours(void *fn) {
    Dl_info info;
    return fn && dladdr(fn, &info) && info.dli_fbase == self_base;
}

struct scan { const char *name; void *fn; };

/* Libraries loaded with RTLD_LOCAL (a Python extension's OpenBLAS) are out
 * of RTLD_NEXT's reach: ask each loaded object for the name. */
static int scan_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct scan *s = data;
    if (!info->dlpi_name || !*info->dlpi_name || (void *)info->dlpi_addr == self_base) return 0;
    void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) return 0;
    void *fn = dlsym(h, s->name);
    dlclose(h);
    if (fn && !is_ours(fn)) {
        s->fn = fn;
        return 1;
    }
    return 0;
}

static void *resolve(const char *name) {
    void *fn = NULL;
    if (settings.forward_named) {
        if (settings.forward_lib) fn = dlsym(settings.forward_lib, name);
        return fn && !is_ours(fn) ? fn : NULL;
    }
    fn = dlsym(RTLD_NEXT, name);
    if (fn && !is_ours(fn)) return fn;
    struct scan s = {name, NULL};
    dl_iterate_phdr(scan_object, &s);
    return s.fn;
}

void *hl_next(hl_fwd *f) {
    pthread_once(&settings_once, read_settings);
    void *fn = atomic_load(&f->fn);
    if (!fn) {
        /* two threads may both look up: they find the same function */
        fn = resolve(f->name);
        if (!fn) LOG("%s: no next LAPACK has this name\n", f->name);
        atomic_store(&f->fn, fn ? fn : HL_ABSENT);
        fn = fn ? fn : HL_ABSENT;
    }
    return fn == HL_ABSENT ? NULL : fn;
}

static hl_path forward(hl_fwd *f, int64_t n, const char *why) {
    atomic_fetch_add(&n_forwarded, 1);
    count(f, 0);
    LOG_CALL("%s n=%lld -> forward (%s)\n", f->name, (long long)n, why);
    return HL_FORWARD;
}

hl_path hl_begin(hl_routine rt, hl_fwd *f, int64_t n, const char *force_forward, hl_host host,
                 void **fn, hyla_t **ctx) {
    *fn = hl_next(f);
    *ctx = NULL;
    char why[96];
    if (force_forward) {
        if (*fn) return forward(f, n, force_forward);
        LOG_CALL("%s n=%lld: %s and no next LAPACK\n", f->name, (long long)n, force_forward);
        return HL_NONE;
    }
    if (*fn && n < settings.min_n[rt]) {
        snprintf(why, sizeof why, "n < HYLA_LAPACK_MIN_N_%s = %lld", routine_table[rt].env,
                 (long long)settings.min_n[rt]);
        return forward(f, n, why);
    }
    if (in_hyla) {
        /* hyla's own LAPACK call on the calling thread */
        if (*fn) return forward(f, n, "inside hyla");
        return HL_NONE;
    }
    if (*fn) {
        if (pthread_mutex_trylock(&hyla_lock) != 0) return forward(f, n, "hyla busy");
    } else {
        pthread_mutex_lock(&hyla_lock);
    }
    pthread_once(&ctx_once, create_context);
    if (!default_ctx || (*fn && !ctx_has_gpu && !settings.explicit_min[rt] &&
                         (host == HL_HOST_NO || n < host_values_min[host == HL_HOST_CPLX_VALUES]))) {
        pthread_mutex_unlock(&hyla_lock);
        if (*fn) return forward(f, n, default_ctx ? "no GPU" : "no context");
        return HL_NONE;
    }
    in_hyla = 1;
    *ctx = default_ctx;
    tl_t0 = settings.verbose ? now_s() : 0;
    tl_serve_top = tl_top;
    return HL_SERVE;
}

int hl_end(hl_fwd *f, int64_t n, int code, void *fn, int untouched) {
    in_hyla = 0;
    pthread_mutex_unlock(&hyla_lock);
    tl_top = tl_serve_top;
    if (settings.verbose) atomic_fetch_add(&f->ns, (int64_t)(1e9 * (now_s() - tl_t0)));
    if (fn && (code == HYLA_ERR_NAN || (untouched && code <= -100))) {
        atomic_fetch_add(&n_forwarded, 1);
        count(f, 0);
        LOG_CALL("%s n=%lld -> forward (hyla: %s)\n", f->name, (long long)n, hyla_strerror(code));
        return 1;
    }
    atomic_fetch_add(&n_served, 1);
    count(f, 1);
    if (code >= 0)
        LOG_CALL("%s n=%lld -> hyla (info %d)\n", f->name, (long long)n, code);
    else
        LOG_CALL("%s n=%lld -> hyla (%s)\n", f->name, (long long)n, hyla_strerror(code));
    return 0;
}

/* ------------------------------------------------------------- XERBLA */

/* Whether address p lies in a loaded segment of object info. */
static int in_object(const struct dl_phdr_info *info, const void *p) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        const uintptr_t lo = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
        if ((uintptr_t)p >= lo && (uintptr_t)p < lo + ph->p_memsz) return 1;
    }
    return 0;
}

struct xscan {
    const char *xname;          /* xerbla's name */
    const char *lapack_name, *blas_name; /* a LAPACK and a BLAS routine's, same decoration */
    void *override, *lapack;
};

/* An object that defines xname itself: the program's XERBLA (the LAPACK
 * testers', NumPy's, which raises a Python exception) when it defines
 * neither LAPACK's nor BLAS's routines, else a library's own (which prints
 * LAPACK's message). The first override in load order wins, else
 * the first library's. This library is skipped. */
static int scan_xerbla(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct xscan *s = data;
    if (in_object(info, (const void *)&hl_begin)) return 0;
    const int main_program = !info->dlpi_name || !*info->dlpi_name;
    void *h = main_program ? dlopen(NULL, RTLD_LAZY) : dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) return 0;
    void *x = dlsym(h, s->xname), *l = dlsym(h, s->lapack_name), *b = dlsym(h, s->blas_name);
    dlclose(h);
    if (!x || !in_object(info, x)) return 0;
    if ((l && in_object(info, l)) || (b && in_object(info, b))) {
        if (!s->lapack) s->lapack = x;
        return 0;
    }
    s->override = x;
    return 1;
}

/* The XERBLA of each decoration of the names, looked up once. */
static hl_fwd xerbla_fn[2][2] = {{{.name = "xerbla_"}, {.name = "xerbla_64_"}},
                                 {{.name = "scipy_xerbla_"}, {.name = "scipy_xerbla_64_"}}};

static void *xerbla_target(int scipy, int ilp64) {
    hl_fwd *x = &xerbla_fn[scipy][ilp64];
    void *fn = atomic_load(&x->fn);
    if (!fn) {
        char lapack[32], blas[32];
        snprintf(lapack, sizeof lapack, "%sdpotrf%s", scipy ? "scipy_" : "", ilp64 ? "_64_" : "_");
        snprintf(blas, sizeof blas, "%sdgemm%s", scipy ? "scipy_" : "", ilp64 ? "_64_" : "_");
        struct xscan s = {x->name, lapack, blas, NULL, NULL};
        dl_iterate_phdr(scan_xerbla, &s);
        fn = s.override ? s.override : s.lapack;
        Dl_info where;
        LOG("%s: %s's\n", x->name,
            !fn ? "none" : dladdr(fn, &where) && where.dli_fname ? where.dli_fname : "?");
        atomic_store(&x->fn, fn ? fn : HL_ABSENT);
        fn = fn ? fn : HL_ABSENT;
    }
    return fn == HL_ABSENT ? NULL : fn;
}

/* Calls the program's XERBLA for routine `name` (upper case, LAPACK's
 * SRNAME) and argument arg, with the integer width of the decoration. */
static void call_xerbla(int scipy, int ilp64, const char *name, int64_t arg) {
    void *fn = xerbla_target(scipy, ilp64);
    if (!fn) {
        LOG("%s: no XERBLA to call\n", name);
        return;
    }
    if (ilp64) {
        const int64_t info = arg;
        ((void (*)(const char *, const int64_t *, size_t))fn)(name, &info, strlen(name));
    } else {
        const int info = (int)arg;
        ((void (*)(const char *, const int *, size_t))fn)(name, &info, strlen(name));
    }
}

void hl_arg_error(const hl_fwd *f, int64_t arg) {
    pthread_once(&settings_once, read_settings);
    LOG_CALL("%s: argument %lld had an illegal value (info = -%lld)\n", f->name, (long long)arg,
        (long long)arg);
    /* f->name: [scipy_]<routine>{_|_64_}; SRNAME is the routine in upper case */
    const char *r = f->name;
    const int scipy = strncmp(r, "scipy_", 6) == 0;
    if (scipy) r += 6;
    size_t len = strlen(r);
    const int ilp64 = len > 4 && strcmp(r + len - 4, "_64_") == 0;
    len -= ilp64 ? 4 : 1;
    char name[16];
    if (len == 0 || len >= sizeof name) return;
    for (size_t i = 0; i < len; i++) name[i] = (char)toupper((unsigned char)r[i]);
    name[len] = 0;
    call_xerbla(scipy, ilp64, name, arg);
}

/* LAPACK's XERBLA, exported: preloaded, this library and the OpenBLAS it
 * brings come first in the process's global scope, so that LAPACK's own
 * calls of xerbla_ would reach OpenBLAS's (which prints) before a program's
 * that a library loaded on its own defines (NumPy's, which raises
 * ValueError). Forwards to the program's XERBLA as if this library were
 * not there. */
HL_RT_EXPORT void xerbla_(const char *srname, const int *info, size_t srname_len) {
    pthread_once(&settings_once, read_settings);
    void *fn = xerbla_target(0, 0);
    if (fn) ((void (*)(const char *, const int *, size_t))fn)(srname, info, srname_len);
    else LOG("%.*s: argument %d had an illegal value; no XERBLA to call\n", (int)srname_len, srname,
             info ? *info : 0);
}

void hl_query(const hl_fwd *f, int forwarded) {
    LOG_CALL("%s: workspace query answered by %s\n", f->name,
        forwarded ? "the next LAPACK" : "LAPACK's minimum");
}

void hyla_lapack_get_counts(int64_t *served, int64_t *forwarded) {
    if (served) *served = atomic_load(&n_served);
    if (forwarded) *forwarded = atomic_load(&n_forwarded);
}
