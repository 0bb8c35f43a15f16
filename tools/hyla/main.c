/* hyla: tester and benchmark for the hyla library. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "hyla.h"
#include "options.h"
#include "report.h"

typedef cmd_status (*cmd_fn)(hyla_t *ctx, const cli_opts *o, const report *r);

static const struct {
    const char *name;
    cmd_fn run;
} commands[] = {
    {"gemm", cmd_gemm},
    {"potrf", cmd_potrf},
    {"potrs", cmd_potrs},
    {"posv", cmd_posv},
    {"syevd", cmd_syevd},
    {"heevd", cmd_syevd},
    {"stedc", cmd_stedc},
    {"sterf", cmd_sterf},
    {"sygvd", cmd_sygvd},
    {"hegvd", cmd_sygvd},
    {"syevdx", cmd_syevdx},
    {"heevdx", cmd_syevdx},
    {"getrf", cmd_getrf},
    {"getrs", cmd_getrs},
    {"gesv", cmd_gesv},
    {"gesv_rbt", cmd_gesv_rbt},
    {"hpl", cmd_hpl},
};

/* The default suite: GEMM, Cholesky, LU, RBT, HPL and eigensolver sizes that fill the devices
 * present. */
static cmd_status run_suite(hyla_t *ctx, const cli_opts *o, const report *r) {
    int64_t host_d[] = {512, 1000, 2000}, host_z[] = {500};
    int64_t cuda_d[] = {8192, 16384}, cuda_z[] = {8192};
    int64_t host_pd[] = {1000, 2000}, host_pz[] = {1000};
    int64_t cuda_pd[] = {16384, 32768}, cuda_pz[] = {16384};
    int64_t host_ld[] = {1000, 2000}, host_lz[] = {1000};
    int64_t cuda_ld[] = {16384, 32768}, cuda_lz[] = {16384};
    int64_t host_hpl[] = {2000}, cuda_hpl[] = {20000};
    int64_t host_rd[] = {1000, 2000}, cuda_rd[] = {16384, 32768};
    const struct {
        cmd_fn run;
        hyla_dtype type;
        cli_list n;
    } jobs[] = {{cmd_gemm, HYLA_D, r->cuda ? (cli_list){cuda_d, 2} : (cli_list){host_d, 3}},
                {cmd_gemm, HYLA_Z, r->cuda ? (cli_list){cuda_z, 1} : (cli_list){host_z, 1}},
                {cmd_potrf, HYLA_D, r->cuda ? (cli_list){cuda_pd, 2} : (cli_list){host_pd, 2}},
                {cmd_potrf, HYLA_Z, r->cuda ? (cli_list){cuda_pz, 1} : (cli_list){host_pz, 1}},
                {cmd_getrf, HYLA_D, r->cuda ? (cli_list){cuda_ld, 2} : (cli_list){host_ld, 2}},
                {cmd_getrf, HYLA_Z, r->cuda ? (cli_list){cuda_lz, 1} : (cli_list){host_lz, 1}},
                {cmd_hpl, HYLA_D, r->cuda ? (cli_list){cuda_hpl, 1} : (cli_list){host_hpl, 1}},
                {cmd_gesv_rbt, HYLA_D, r->cuda ? (cli_list){cuda_rd, 2} : (cli_list){host_rd, 2}}};
    cmd_status worst = CMD_OK;
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
        cli_opts job = *o; /* shallow copy: its lists are the arrays above, never freed */
        job.types[0] = jobs[j].type;
        job.ntypes = 1;
        job.n = jobs[j].n;
        cmd_status st = jobs[j].run(ctx, &job, r);
        if (st == CMD_ERROR || st == CMD_USAGE) return st;
        if (st == CMD_FAILED) worst = CMD_FAILED;
    }
    /* the eigensolver, d, with and without eigenvectors */
    int64_t host_ed[] = {500, 1000}, cuda_ed[] = {8192, 16384};
    for (int v = 0; v < 2; v++) {
        cli_opts job = *o;
        job.types[0] = HYLA_D;
        job.ntypes = 1;
        job.n = r->cuda ? (cli_list){cuda_ed, 2} : (cli_list){host_ed, 2};
        job.jobz = "VN"[v];
        cmd_status st = cmd_syevd(ctx, &job, r);
        if (st == CMD_ERROR || st == CMD_USAGE) return st;
        if (st == CMD_FAILED) worst = CMD_FAILED;
    }
    return worst;
}

/* After hyla_create refused an option's environment variable: names the
 * variables whose value is not an integer in the option's range
 * (hyla_options.h), or, where every one is (a value inside the range that
 * hyla.h says the option refuses), those that are set. */
static void bad_option_env(void) {
    static const struct {
        const char *env;
        long long lo, hi;
    } opts[] = {
#define X(id, flag, values, lo, hi, def, help) {"HYLA_" #id, (long long)(lo), (long long)(hi)},
        HYLA_OPTIONS(X)
#undef X
    };
    int named = 0;
    for (size_t pass = 0; pass < 2 && !named; pass++)
        for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
            const char *v = getenv(opts[i].env);
            if (!v || !*v) continue;
            char *end;
            errno = 0;
            const long long x = strtoll(v, &end, 10);
            const bool bad = *end != '\0' || errno == ERANGE || x < opts[i].lo || x > opts[i].hi;
            if (pass == 0 && !bad) continue;
            fprintf(stderr, "hyla: %s='%s' is %s: an integer from %lld to %lld%s (hyla.h)\n",
                    opts[i].env, v, pass == 0 ? "not a valid value" : "set", opts[i].lo,
                    opts[i].hi, pass == 0 ? "" : ", not every one of which the option takes");
            named++;
        }
    if (!named)
        fputs("hyla: an option's environment variable (HYLA_<ID>, hyla_options.h) is not a valid "
              "value\n", stderr);
}

/* --version: the library's, then each backend of the build: its devices
 * and versions, or why it is not available */
static void print_version(void) {
    printf("hyla %s\n", hyla_version());
    for (int i = 0; i < hyla_backend_count(); i++) {
        hyla_backend_info b;
        if (hyla_get_backend_info(i, &b) != 0) continue;
        if (b.available && b.kind == HYLA_DEVICE_HOST)
            printf("backend %s: up to %d virtual devices (%s)\n", b.name, b.devices, b.detail);
        else if (b.available)
            printf("backend %s: %d device%s (%s)\n", b.name, b.devices, b.devices == 1 ? "" : "s",
                   b.detail);
        else
            printf("backend %s: not available (%s)\n", b.name, b.detail);
    }
}

int main(int argc, char **argv) {
    cli_opts o;
    hyla_t *ctx = NULL;
    int rc = cli_opts_parse(argc, argv, &o);
    if (rc || o.help || o.version) {
        if (!rc && o.help) cli_usage(stdout);
        else if (!rc) print_version();
        cli_opts_free(&o);
        return rc;
    }
    char hpl_devices[256];
    bool hpl = o.routine && strcmp(o.routine, "hpl") == 0;
    if (hpl && (rc = cmd_hpl_prepare(&o, hpl_devices, sizeof hpl_devices)) != 0) {
        cli_opts_free(&o);
        return rc;
    }
    if (!o.routine) {
        o.check = true;
        o.vs_vendor = true;
    }
    int err = hyla_create(&ctx, o.devices);
    if (err == HYLA_ERR_INVALID) {
        bad_option_env();
        rc = CLI_EXIT_USAGE;
    } else if (err) {
        const char *spec = o.devices ? o.devices : getenv("HYLA_DEVICES");
        fprintf(stderr, "hyla: cannot use devices '%s': %s\n", spec ? spec : "(default)",
                hyla_strerror(err));
        if (err == HYLA_ERR_DEVICE_SPEC)
            fprintf(stderr, "hyla: a device list is %s\n", hyla_device_list_help());
        rc = err == HYLA_ERR_DEVICE_SPEC ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    } else {
        rc = cli_configure(ctx, &o);
    }
    if (rc == CLI_EXIT_OK) {
        report r;
        report_init(&r, &o, ctx);
        report_header(&r, &o, ctx);
        cmd_status st = CMD_OK;
        if (!o.routine) st = run_suite(ctx, &o, &r);
        for (size_t i = 0; o.routine && i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(commands[i].name, o.routine) == 0) st = commands[i].run(ctx, &o, &r);
        rc = st == CMD_OK ? CLI_EXIT_OK : st == CMD_USAGE ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    hyla_destroy(&ctx);
    if (hpl) cmd_hpl_finish();
    cli_opts_free(&o);
    return rc;
}
