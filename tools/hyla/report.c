/* Tester output. Human rows line up under a column header that starts with
 * '%', like every header line, so tables can be read back by skipping '%'. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "matgen.h"
#include "vendor.h"

void report_init(report *r, const cli_opts *o, const hyla_t *ctx) {
    hyla_device_info info;
    *r = (report){.json = o->json, .check = o->check, .vs = o->vs_vendor,
                  .ndevices = hyla_device_count(ctx), .xt_block = o->xt_block};
    r->cuda = hyla_get_device_info(ctx, 0, &info) == 0 && info.kind == HYLA_DEVICE_CUDA;
    if (!r->cuda) {
        snprintf(r->devices, sizeof r->devices, "cpu:%d", r->ndevices);
        return;
    }
    size_t len = (size_t)snprintf(r->devices, sizeof r->devices, "cuda:");
    int seen[HYLA_MAX_DEVICES];
    for (int i = 0; i < r->ndevices; i++) {
        hyla_get_device_info(ctx, i, &info);
        if (len < sizeof r->devices)
            len += (size_t)snprintf(r->devices + len, sizeof r->devices - len, "%s%d",
                                    i ? "," : "", info.ordinal);
        bool again = false; /* cuda:0,0,1: two GPUs, as the vendor runs on them */
        for (int k = 0; k < r->ngpus; k++) again |= seen[k] == info.ordinal;
        if (!again && r->ngpus < HYLA_MAX_DEVICES) seen[r->ngpus++] = info.ordinal;
    }
}

/* The routine families of the --vs legends: GEMM, Cholesky, LU (the RBT
 * solver's vendor is LAPACK's / cuSOLVER's LU). No routine: the default
 * suite, every family. */
static bool is_routine(const cli_opts *o, const char *const *names) {
    if (!o->routine) return true;
    for (; *names; names++)
        if (strcmp(o->routine, *names) == 0) return true;
    return false;
}

/* Prints an argument, quoted when the shell would split or expand it. */
static void print_arg(const char *a) {
    if (*a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                        "-_=+,.:/@%") == strlen(a)) {
        fputs(a, stdout);
        return;
    }
    putchar('\'');
    for (; *a; a++)
        if (*a == '\'') fputs("'\\''", stdout);
        else putchar(*a);
    putchar('\'');
}

/* The vendor GEMM of --vs: on the host matrices, and (GPUs) on device-resident copies. */
#define GEMM_VENDOR_DEVICE "cuBLAS"
static const char *gemm_vendor(const report *r) { return r->cuda ? "cuBLASXt" : "OpenBLAS"; }

void report_header(const report *r, const cli_opts *o, const hyla_t *ctx) {
    if (r->json) return;
    printf("%% hyla %s\n", hyla_version());
    for (int i = 0; i < r->ndevices; i++) {
        hyla_device_info d;
        if (hyla_get_device_info(ctx, i, &d) != 0) continue;
        printf("%% device %d: %s (%s %d), %.2f GiB", i, d.name,
               d.kind == HYLA_DEVICE_CUDA ? "cuda" : "cpu", d.ordinal,
               (double)d.memory_bytes / (1 << 30));
        if (d.kind == HYLA_DEVICE_CUDA)
            printf(", compute %d.%d, %d SMs", d.compute_major, d.compute_minor, d.multiprocessors);
        putchar('\n');
    }
    vendor_print_versions(stdout);
    static const char *const gemm_names[] = {"gemm", NULL},
                             *const chol_names[] = {"potrf", "potrs", "posv", NULL},
                             *const lu_names[] = {"getrf", "getrs", "gesv", "gesv_rbt", NULL};
    const bool gemm = is_routine(o, gemm_names), chol = is_routine(o, chol_names),
               lu = is_routine(o, lu_names);
    /* the vendor's GPUs: cuSOLVER on one GPU, also one the context lists
     * several times; hyla's ours-dev columns only on a context of one GPU */
    const bool one_gpu = r->cuda && r->ngpus == 1, ours_dev = r->cuda && r->ndevices == 1;
    if (r->vs && gemm && r->cuda)
        printf("%% vendor: %s (block %d) on the host matrices; cublas: %s on "
               "device-resident copies, timed with CUDA events\n", gemm_vendor(r), r->xt_block,
               GEMM_VENDOR_DEVICE);
    else if (r->vs && gemm)
        printf("%% vendor: %s on the same host matrices\n", gemm_vendor(r));
    if (r->vs && chol && !r->cuda)
        printf("%% vendor (Cholesky): LAPACKE ?potrf/?potrs/?posv (OpenBLAS) on copies of the same "
               "host matrices; ratio = vendor time / hyla time\n");
    else if (r->vs && chol && one_gpu)
        printf("%% vendor (Cholesky): cuSOLVER cusolverDnXpotrf/Xpotrs on a DEVICE-RESIDENT copy%s, "
               "factorization/solve only (copies excluded), CUDA events; %shyla's own time includes "
               "the host<->device copies; ratio = vendor time / hyla time\n",
               ours_dev ? "" : " on the one GPU that the context lists several times",
               ours_dev ? "ours-dev: hyla_?potrf_gpu/?potrs_gpu on a device-resident copy, copies "
                          "excluded; " : "");
    else if (r->vs && chol)
        printf("%% vendor (Cholesky): cusolverMg (1-D block-cyclic columns, tile %d; uplo L only) on "
               "DEVICE-RESIDENT copies, factorization/solve only (copies excluded); hyla's time "
               "includes the host<->device copies; ratio = vendor time / hyla time\n", VENDOR_MG_TILE);
    if (r->check && chol)
        printf("%% check (Cholesky): potrf |A - L L^H|_F / (n |A|_F eps) for n <= %d, else "
               "|(A - L L^H) x|_inf / (n |A|_inf |x|_inf eps) with a random x; potrs, posv "
               "|B - A X|_inf / (n |A|_inf |X|_inf eps); pass < 60\n", CHOL_EXACT_CHECK_MAX);
    if (r->vs && lu && one_gpu)
        printf("%% vendor (LU): cuSOLVER cusolverDnXgetrf/Xgetrs on a DEVICE-RESIDENT copy%s, "
               "copies excluded, CUDA events; %shyla's own time includes the host<->device "
               "copies; ratio = vendor time / hyla time\n",
               ours_dev ? "" : " on the one GPU that the context lists several times",
               ours_dev ? "ours-dev: hyla_?getrf_gpu/?getrs_gpu on a device-resident copy; " : "");
    else if (r->vs && lu)
        printf("%% vendor (LU): %s; ratio = vendor time / hyla time\n",
               !r->cuda ? "LAPACKE ?getrf/?getrs/?gesv (OpenBLAS) on copies of the same host matrices"
                        : "cusolverMg (1-D block-cyclic columns) on DEVICE-RESIDENT copies, copies "
                          "excluded; hyla's time includes the copies");
    if (r->check && lu)
        printf("%% check (LU): getrf |P A - L U|_1 / (max(m,n) |A|_1 eps) for max(m,n) <= %d, "
               "else |P A x - L U x|_inf / (max(m,n) |A|_inf |x|_inf eps) with a random x; getrs, "
               "gesv |B - op(A) X|_inf / (n |op(A)|_inf |X|_inf eps); pass < 60; the uplo column "
               "holds trans\n", LU_EXACT_CHECK_MAX);
    char date[64];
    time_t now = time(NULL);
    struct tm tm;
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %z", localtime_r(&now, &tm));
    printf("%% date: %s\n%% command:", date);
    for (int i = 0; i < o->argc; i++) {
        putchar(' ');
        print_arg(o->argv[i]);
    }
    putchar('\n');
    fflush(stdout);
}

/* Whether Cholesky rows carry the ours-dev columns: one GPU, with --vs. */
static bool chol_dev_columns(const report *r) { return r->vs && r->cuda && r->ndevices == 1; }

/* The column header of a layout, when it is not the one printed last. */
static void print_columns(const report *r, report_layout layout) {
    static int printed = -1;
    if (r->json || printed == (int)layout) return;
    printed = (int)layout;
    if (layout == ROW_GEMM) {
        printf("%% %-7s %4s %2s %2s %9s %9s %9s %11s %10s", "routine", "type", "ta", "tb", "m", "n",
               "k", "time(s)", "Gflop/s");
        if (r->vs) printf(" %11s %10s %7s", "vendor(s)", "Gflop/s", "ratio");
        if (r->vs && r->cuda) printf(" %11s %10s", "cublas(s)", "Gflop/s");
        if (r->check) printf(" %9s", "error");
        printf("  status\n");
        return;
    }
    printf("%% %-7s %4s %4s %9s %8s %11s %10s", "routine", "type", "uplo", "n", "nrhs", "time(s)",
           "Tflop/s");
    if (r->vs) printf(" %11s %10s %7s", "vendor(s)", "Tflop/s", "ratio");
    if (chol_dev_columns(r)) printf(" %11s %10s", "ours-dev(s)", "Tflop/s");
    if (r->check) printf(" %9s", "error");
    printf(" %6s  status\n", "info");
}

/* Writes v with fmt into buf, or "-" when v is NaN (not measured). */
static const char *fmt_or_dash(char *buf, size_t len, const char *fmt, double v) {
    if (isnan(v)) snprintf(buf, len, "-");
    else snprintf(buf, len, fmt, v);
    return buf;
}

void report_json_value(double v) {
    if (isfinite(v)) printf("%.9g", v);
    else fputs("null", stdout);
}

void report_json_number(const char *key, double v) {
    printf(",\"%s\":", key);
    report_json_value(v);
}

void report_eig_timers_json(const hyla_eig_stats *s, bool parts) {
    printf(",\"timers\":{\"kd\":%lld", (long long)s->kd);
    if (parts)
        printf(",\"nb\":%lld,\"panels_cholqr\":%lld", (long long)s->nb,
               (long long)s->panels_cholqr);
    report_json_number("sy2sb", s->sy2sb);
    if (parts) {
        report_json_number("sy2sb_wait", s->sy2sb_wait);
        report_json_number("sy2sb_host", s->sy2sb_host);
    }
    report_json_number("sb2st", s->sb2st);
    report_json_number("tridiag", s->tridiag);
    report_json_number("back2", s->back2);
    report_json_number("back1", s->back1);
    report_json_number("transfers", s->transfers);
    if (s->gv_potrf > 0 || s->gv_reduce > 0 || s->gv_back > 0) {
        report_json_number("gv_potrf", s->gv_potrf);
        report_json_number("gv_reduce", s->gv_reduce);
        report_json_number("gv_back", s->gv_back);
    }
    report_json_number("total", s->total);
    putchar('}');
}

#define json_number report_json_number

static void print_stats(const report *r, const hyla_gemm_stats *s) {
    int nd = r->ndevices < 16 ? r->ndevices : 16;
    if (r->json) {
        printf(",\"stats\":{\"tiles_total\":%lld,\"tiles_cpu\":%lld,\"tiles_per_device\":[",
               (long long)s->tiles_total, (long long)s->tiles_cpu);
        for (int i = 0; i < nd; i++)
            printf("%s%lld", i ? "," : "", (long long)s->tiles_per_device[i]);
        printf("],\"bytes_h2d\":%lld,\"bytes_d2h\":%lld,\"tile\":%lld,\"kblock\":%lld,"
               "\"passes\":%d}", (long long)s->bytes_h2d, (long long)s->bytes_d2h,
               (long long)s->tile, (long long)s->kblock, s->passes);
        return;
    }
    printf("%%   stats: tiles %lld (cpu %lld; per device", (long long)s->tiles_total,
           (long long)s->tiles_cpu);
    for (int i = 0; i < nd; i++) printf(" %lld", (long long)s->tiles_per_device[i]);
    printf("), h2d %.3f GB, d2h %.3f GB, tile %lld, kblock %lld, passes %d\n",
           (double)s->bytes_h2d * 1e-9, (double)s->bytes_d2h * 1e-9, (long long)s->tile,
           (long long)s->kblock, s->passes);
}

static void print_chol_stats(const report *r, const hyla_chol_stats *s) {
    int nd = r->ndevices < 16 ? r->ndevices : 16;
    if (r->json) {
        printf(",\"stats\":{\"out_of_core\":%d,\"nb\":%lld,\"resident_cols\":%lld,"
               "\"bytes_h2d\":%lld,\"bytes_d2h\":%lld,\"bytes_peer\":%lld,\"panels_per_device\":[",
               s->out_of_core, (long long)s->nb, (long long)s->resident_cols,
               (long long)s->bytes_h2d, (long long)s->bytes_d2h, (long long)s->bytes_peer);
        for (int i = 0; i < nd; i++)
            printf("%s%lld", i ? "," : "", (long long)s->panels_per_device[i]);
        printf("]}");
        return;
    }
    printf("%%   stats: %s, nb %lld, resident columns %lld, h2d %.3f GB, d2h %.3f GB, peer %.3f GB, "
           "panels per device", s->out_of_core ? "out-of-core" : "in-core", (long long)s->nb,
           (long long)s->resident_cols, (double)s->bytes_h2d * 1e-9, (double)s->bytes_d2h * 1e-9,
           (double)s->bytes_peer * 1e-9);
    for (int i = 0; i < nd; i++) printf(" %lld", (long long)s->panels_per_device[i]);
    putchar('\n');
}

static void print_lu_stats(const report *r, const hyla_lu_stats *s) {
    int nd = s->devices < 16 ? s->devices : 16;
    if (r->json) {
        printf(",\"stats\":{\"nb\":%lld,\"ib\":%lld,\"devices\":%d,\"lookahead\":%d,"
               "\"bytes_h2d\":%lld,\"bytes_d2h\":%lld,\"bytes_peer\":%lld",
               (long long)s->nb, (long long)s->ib, s->devices, s->lookahead,
               (long long)s->bytes_h2d, (long long)s->bytes_d2h, (long long)s->bytes_peer);
        json_number("panel_time_s", s->panel_time_s);
        printf(",\"panels_per_device\":[");
        for (int i = 0; i < nd; i++)
            printf("%s%lld", i ? "," : "", (long long)s->panels_per_device[i]);
        printf("]}");
        return;
    }
    printf("%%   stats: nb %lld, ib %lld, lookahead %s, h2d %.3f GB, d2h %.3f GB, peer %.3f GB, "
           "panel time %.6f s, panels per device", (long long)s->nb, (long long)s->ib,
           s->lookahead ? "on" : "off", (double)s->bytes_h2d * 1e-9, (double)s->bytes_d2h * 1e-9,
           (double)s->bytes_peer * 1e-9, s->panel_time_s);
    for (int i = 0; i < nd; i++) printf(" %lld", (long long)s->panels_per_device[i]);
    putchar('\n');
}

double report_ratio(double vendor_s, double ours_s, double work) {
    return work > 0 && vendor_s > 0 && ours_s > 0 ? vendor_s / ours_s : NAN;
}

/* flops / t; NaN (no rate) for a run that did no work or was not timed. */
static double rate(double flops, double t) { return flops > 0 && t > 0 ? flops / t : NAN; }

static void print_chol(const report *r, const report_row *w) {
    double tflops = rate(w->flops, w->time_s) * 1e-12;
    double vtflops = rate(w->flops, w->vendor_time_s) * 1e-12;
    double dtflops = rate(w->flops, w->ours_dev_time_s) * 1e-12;
    double ratio = report_ratio(w->vendor_time_s, w->time_s, w->flops);
    if (r->json) {
        printf("{\"routine\":\"%s\",\"type\":\"%c\",\"uplo\":\"%c\",\"n\":%lld",
               w->routine, dtype_char(w->type), w->uplo, (long long)w->n);
        if (w->m > 0) printf(",\"m\":%lld", (long long)w->m);
        if (w->nrhs >= 0) printf(",\"nrhs\":%lld", (long long)w->nrhs);
        printf(",\"devices\":\"%s\"", r->devices);
        json_number("time_s", w->time_s);
        json_number("tflops", tflops);
        if (w->vendor) printf(",\"vendor\":\"%s\"", w->vendor);
        json_number("vendor_time_s", w->vendor_time_s);
        json_number("vendor_tflops", vtflops);
        json_number("ratio", ratio);
        json_number("ours_device_time_s", w->ours_dev_time_s);
        json_number("ours_device_tflops", dtflops);
        printf(",\"info\":%d", w->info);
        json_number("error", w->has_error ? w->error : NAN);
        if (w->check) printf(",\"check\":\"%s\"", w->check);
        printf(",\"status\":\"%s\"", w->status);
        if (w->chol_stats) print_chol_stats(r, w->chol_stats);
        if (w->lu_stats) print_lu_stats(r, w->lu_stats);
        printf("}\n");
        fflush(stdout);
        return;
    }
    char b[6][32], nrhs[24] = "-";
    if (w->nrhs >= 0) snprintf(nrhs, sizeof nrhs, "%lld", (long long)w->nrhs);
    printf("  %-7s %4c %4c %9lld %8s %11s %10s", w->routine, dtype_char(w->type), w->uplo,
           (long long)w->n, nrhs, fmt_or_dash(b[0], 32, "%.6f", w->time_s),
           fmt_or_dash(b[1], 32, "%.3f", tflops));
    if (r->vs)
        printf(" %11s %10s %7s", fmt_or_dash(b[2], 32, "%.6f", w->vendor_time_s),
               fmt_or_dash(b[3], 32, "%.3f", vtflops), fmt_or_dash(b[4], 32, "%.2f", ratio));
    if (chol_dev_columns(r))
        printf(" %11s %10s", fmt_or_dash(b[2], 32, "%.6f", w->ours_dev_time_s),
               fmt_or_dash(b[3], 32, "%.3f", dtflops));
    if (r->check) {
        if (w->has_error) snprintf(b[5], 32, "%.2e", w->error);
        printf(" %9s", w->has_error ? b[5] : "-");
    }
    printf(" %6d  %s\n", w->info, w->status);
    if (w->chol_stats) print_chol_stats(r, w->chol_stats);
    if (w->lu_stats) print_lu_stats(r, w->lu_stats);
    fflush(stdout);
}

void report_print(const report *r, const report_row *w) {
    print_columns(r, w->layout);
    if (w->layout == ROW_CHOL) {
        print_chol(r, w);
        return;
    }
    double gflops = rate(w->flops, w->time_s) * 1e-9;
    double vgflops = rate(w->flops, w->vendor_time_s) * 1e-9;
    double dgflops = rate(w->flops, w->vendor_dev_time_s) * 1e-9;
    double ratio = report_ratio(w->vendor_time_s, w->time_s, w->flops);
    if (r->json) {
        printf("{\"routine\":\"%s\",\"type\":\"%c\",\"m\":%lld,\"n\":%lld,\"k\":%lld,"
               "\"transa\":\"%c\",\"transb\":\"%c\",\"devices\":\"%s\"",
               w->routine, dtype_char(w->type), (long long)w->m, (long long)w->n,
               (long long)w->k, w->transa, w->transb, r->devices);
        json_number("time_s", w->time_s);
        json_number("gflops", gflops);
        if (r->vs) printf(",\"vendor\":\"%s\"", gemm_vendor(r));
        if (r->vs && r->cuda) printf(",\"vendor_device\":\"%s\"", GEMM_VENDOR_DEVICE);
        json_number("vendor_time_s", w->vendor_time_s);
        json_number("vendor_gflops", vgflops);
        json_number("ratio", ratio);
        json_number("vendor_device_time_s", w->vendor_dev_time_s);
        json_number("vendor_device_gflops", dgflops);
        printf(",\"info\":%d", w->info);
        json_number("error", w->has_error ? w->error : NAN);
        printf(",\"status\":\"%s\"", w->status);
        if (w->stats) print_stats(r, w->stats);
        printf("}\n");
        fflush(stdout);
        return;
    }
    char b[6][32];
    printf("  %-7s %4c %2c %2c %9lld %9lld %9lld %11s %10s", w->routine, dtype_char(w->type),
           w->transa, w->transb, (long long)w->m, (long long)w->n, (long long)w->k,
           fmt_or_dash(b[0], 32, "%.6f", w->time_s), fmt_or_dash(b[1], 32, "%.2f", gflops));
    if (r->vs)
        printf(" %11s %10s %7s", fmt_or_dash(b[2], 32, "%.6f", w->vendor_time_s),
               fmt_or_dash(b[3], 32, "%.2f", vgflops), fmt_or_dash(b[4], 32, "%.2f", ratio));
    if (r->vs && r->cuda)
        printf(" %11s %10s", fmt_or_dash(b[2], 32, "%.6f", w->vendor_dev_time_s),
               fmt_or_dash(b[3], 32, "%.2f", dgflops));
    if (r->check) {
        if (w->has_error) snprintf(b[5], 32, "%.2e", w->error);
        printf(" %9s", w->has_error ? b[5] : "-");
    }
    printf("  %s\n", w->status);
    if (w->stats) print_stats(r, w->stats);
    fflush(stdout);
}
