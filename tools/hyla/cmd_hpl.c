/* hyla hpl [HPL.dat]: the High-Performance Linpack benchmark, netlib's input
 * file and output format, on one rank or on a P x Q grid of MPI ranks (one
 * device per rank). Grid rank 0 writes; the other ranks are silent on
 * stdout. Tests run for every grid x N x NB x DEPTH of the file, in netlib's
 * order; PFACT, NBMIN, NDIV, RFACT, BCAST, SWAP, L1, U, EQUIL and ALIGN are
 * read and checked, then ignored (their first values fill the T/V code).
 *
 * hpl keeps its own loop instead of the common run loop (runloop.h): HPL
 * defines a run as one timed solve per test (no warm-up, no median of
 * --repeat), its check is always on, with the threshold of HPL.dat, and its
 * rows are netlib's text, which HPL tooling parses. Sizes still take lists
 * and ranges (-n), --json gives one object per test, and each test's status
 * is PASSED/FAILED as in HPL. */
#include "cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hyla_hpl.h"
#include "output.h"

static const char *const RULE =
    "================================================================================";
static const char *const DASH =
    "--------------------------------------------------------------------------------";

/* The device list of this rank: one GPU, local rank mod the GPUs of the
 * list (or of the host), keeping an @SIZE cap; host lists are kept
 * (hyla_device_list_slot). A malformed list is passed on for hyla_create
 * to report. */
static const char *rank_devices(const char *spec, int local_rank, char *buf, size_t len) {
    return hyla_device_list_slot(spec, local_rank, buf, len) == 0 ? buf : spec;
}

static int world_rank; /* this process's MPI rank; 0 without MPI */

int cmd_hpl_prepare(cli_opts *o, char *devices, size_t len) {
    int rank, size, local;
    int rc = hyla_hpl_init(&rank, &size, &local);
    world_rank = rank;
    if (rc) {
        fprintf(stderr, "hyla hpl: MPI start failed: %s\n", hyla_strerror(rc));
        return CLI_EXIT_FAIL;
    }
    o->devices = rank_devices(o->devices, local, devices, len);
    if (rank > 0 && !freopen("/dev/null", "w", stdout)) {
        fprintf(stderr, "hyla hpl: rank %d: cannot silence stdout\n", rank);
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

void cmd_hpl_finish(void) { hyla_hpl_finalize(); }

/* The settings when no HPL.dat is read. */
static void dat_defaults(hyla_hpl_dat *d, bool cuda) {
    memset(d, 0, sizeof *d);
    snprintf(d->outfile, sizeof d->outfile, "HPL.out");
    d->device_out = 6;
    d->nn = 1;
    d->nnb = 1;
    /* one H100, N = 86000, same run: NB 768 42.5, 1024 43.4, 1280 43.8
     * TFLOP/s (bench/results/raw/hpl-h100-nb.txt) */
    d->nb[0] = cuda ? 1280 : 256;
    d->ngrid = 1;
    d->p[0] = d->q[0] = 1;
    d->threshold = 16.0;
    d->npfact = d->nnbmin = d->nndiv = d->nrfact = d->nbcast = d->ndepth = 1;
    d->pfact[0] = 2;
    d->nbmin[0] = 4;
    d->ndiv[0] = 2;
    d->rfact[0] = 1;
    d->bcast[0] = 1;
    d->depth[0] = 1;
    d->swap = 2;
    d->swap_threshold = 64;
    d->equil = 1;
    d->align = 8;
}

static void print_list64(FILE *f, const char *name, const int64_t *v, int n) {
    fprintf(f, "%-7s:", name);
    for (int i = 0; i < n; i++) fprintf(f, " %8lld", (long long)v[i]);
    fputc('\n', f);
}

static void print_list(FILE *f, const char *name, const int *v, int n) {
    fprintf(f, "%-7s:", name);
    for (int i = 0; i < n; i++) fprintf(f, " %8d", v[i]);
    fputc('\n', f);
}

static void print_words(FILE *f, const char *name, const int *v, int n, const char *const *w) {
    fprintf(f, "%-7s:", name);
    for (int i = 0; i < n; i++) fprintf(f, " %8s", w[v[i]]);
    fputc('\n', f);
}

/* netlib's banner and parameter block */
static void print_params(FILE *f, const hyla_hpl_dat *d) {
    static const char *const fact[] = {"Left", "Crout", "Right"};
    static const char *const bcast[] = {"1ring", "1ringM", "2ring", "2ringM", "Blong", "BlongM"};
    static const char *const swap[] = {"Binary-exchange", "Spread-roll (long)", "Mix"};
    fprintf(f, "%s\nHPLinpack (netlib HPL 2.3 input and output) -- hyla %s\n%s\n\n", RULE,
            hyla_version(), RULE);
    fprintf(f, "An explanation of the input/output parameters follows:\n"
               "T/V    : Wall time / encoded variant.\n"
               "N      : The order of the coefficient matrix A.\n"
               "NB     : The partitioning blocking factor.\n"
               "P      : The number of process rows.\n"
               "Q      : The number of process columns.\n"
               "Time   : Time in seconds to solve the linear system.\n"
               "Gflops : Rate of execution for solving the linear system.\n\n"
               "The following parameter values will be used:\n\n");
    print_list64(f, "N", d->n, d->nn);
    print_list64(f, "NB", d->nb, d->nnb);
    fprintf(f, "PMAP   : %s process mapping\n", d->pmap ? "Column-major" : "Row-major");
    print_list(f, "P", d->p, d->ngrid);
    print_list(f, "Q", d->q, d->ngrid);
    print_words(f, "PFACT", d->pfact, d->npfact, fact);
    print_list(f, "NBMIN", d->nbmin, d->nnbmin);
    print_list(f, "NDIV", d->ndiv, d->nndiv);
    print_words(f, "RFACT", d->rfact, d->nrfact, fact);
    print_words(f, "BCAST", d->bcast, d->nbcast, bcast);
    print_list(f, "DEPTH", d->depth, d->ndepth);
    fprintf(f, "SWAP   : %s (threshold = %d)\n", swap[d->swap], d->swap_threshold);
    fprintf(f, "L1     : %s form\n", d->l1_form ? "no-transposed" : "transposed");
    fprintf(f, "U      : %s form\n", d->u_form ? "no-transposed" : "transposed");
    fprintf(f, "EQUIL  : %s\n", d->equil ? "yes" : "no");
    fprintf(f, "ALIGN  : %d double precision words\n\n%s\n\n", d->align, DASH);
    fprintf(f, "- The matrix A is randomly generated for each test.\n"
               "- The following scaled residual check will be computed:\n"
               "      ||Ax-b||_oo / ( eps * ( || x ||_oo * || A ||_oo + || b ||_oo ) * N )\n"
               "- The relative machine precision (eps) is taken to be     %20e\n"
               "- Computational tests pass if scaled residuals are less than %20.1f\n\n",
            1.1102230246251565e-16, d->threshold);
    fprintf(f, "- hyla: PFACT, NBMIN, NDIV, RFACT, BCAST, SWAP, L1, U, EQUIL and ALIGN (HPL.dat\n"
               "  lines 14-23 and 26-31) are read and checked but ignored: hyla has one panel\n"
               "  factorization, broadcast and swap; the T/V code shows their first values.\n\n");
}

/* Largest N of hyla_hpl_run: its global row indices are int. */
#define HPL_N_MAX (((int64_t)1 << 31) - 2)

/* Every N against the int range and, for each grid, the memory of this
 * rank's device: [A b] takes 8 N (N + 1) / (P Q) bytes per rank. A rank
 * whose device cannot hold it is named once, by rank 0. Returns 0, 2 (an N
 * out of range) or 1 (a test does not fit), reported. */
static int check_sizes(hyla_t *ctx, const hyla_hpl_dat *d) {
    for (int i = 0; i < d->nn; i++)
        if (d->n[i] > HPL_N_MAX) {
            if (world_rank == 0)
                fprintf(stderr, "hyla hpl: N %lld is beyond the largest N, %lld (row indices are "
                        "int)\n", (long long)d->n[i], (long long)HPL_N_MAX);
            return 2;
        }
    hyla_device_info info;
    if (hyla_get_device_info(ctx, 0, &info) != 0 || info.memory_bytes <= 0) return 0;
    double mem = (double)info.memory_bytes, need = 0, worst = 0;
    int64_t worst_n = 0, ranks = 1;
    for (int g = 0; g < d->ngrid; g++)
        for (int i = 0; i < d->nn; i++) {
            const double pq = (double)d->p[g] * (double)d->q[g];
            need = 8.0 * (double)d->n[i] * ((double)d->n[i] + 1) / pq;
            if (need > mem && need > worst) {
                worst = need;
                worst_n = d->n[i];
                ranks = (int64_t)pq;
            }
        }
    /* the lowest rank that cannot hold its part, agreed by all ranks */
    double bad = worst > 0 ? -(double)world_rank : -1e300;
    if (hyla_hpl_allmax(&bad, 1) != 0) bad = worst > 0 ? -(double)world_rank : -1e300;
    if (bad < -1e299) return 0;
    if (world_rank == 0) {
        const double fit = floor(sqrt(mem * (double)ranks / 8.0));
        if (worst > 0)
            fprintf(stderr, "hyla hpl: rank %d: N %lld on %lld rank%s needs %.2f GiB of [A b] per "
                    "rank, its device %s has %.2f GiB: N up to about %.0f fits\n", (int)-bad,
                    (long long)worst_n, (long long)ranks, ranks == 1 ? "" : "s", worst / (1 << 30),
                    info.name, mem / (1 << 30), fit);
        else
            fprintf(stderr, "hyla hpl: rank %d: a test does not fit in its device's memory\n",
                    (int)-bad);
    }
    return 1;
}

cmd_status cmd_hpl(hyla_t *ctx, const cli_opts *o, const report *r) {
    hyla_hpl_dat d;
    char msg[512];
    bool suite = o->routine == NULL;
    const char *path = o->hpl_dat;
    if (!suite && !path) {
        FILE *probe = fopen("HPL.dat", "r");
        if (probe) {
            fclose(probe);
            path = "HPL.dat";
        } else if (o->n.count == 0) {
            fputs("hyla hpl: no HPL.dat here: give its path, or sizes with -n\n", stderr);
            return CMD_USAGE;
        }
    }
    if (path) {
        int rc = hyla_hpl_dat_read(path, &d, msg, sizeof msg);
        if (rc) {
            /* the reader's message names the path where it could not open or read it */
            if (*msg && strncmp(msg, path, strlen(path)) == 0)
                fprintf(stderr, "hyla hpl: %s\n", msg);
            else
                fprintf(stderr, "hyla hpl: %s: %s\n", path, *msg ? msg : hyla_strerror(rc));
            return rc == HYLA_ERR_FORMAT ? CMD_USAGE : CMD_ERROR;
        }
    } else {
        dat_defaults(&d, r->cuda);
    }
    if (o->n.count) {
        if (o->n.count > HYLA_HPL_MAX_PARAM) {
            fprintf(stderr, "hyla hpl: -n: at most %d sizes\n", HYLA_HPL_MAX_PARAM);
            return CMD_USAGE;
        }
        d.nn = o->n.count;
        for (int i = 0; i < d.nn; i++) d.n[i] = o->n.v[i];
    }
    if (o->tuning_given[CLI_OPT_GETRF_NB] && o->tuning[CLI_OPT_GETRF_NB] > 0) { /* --nb */
        d.nnb = 1;
        d.nb[0] = o->tuning[CLI_OPT_GETRF_NB];
    }
    if (o->hpl_p) {
        d.ngrid = 1;
        d.p[0] = o->hpl_p;
        d.q[0] = o->hpl_q;
    }

    int sizes = check_sizes(ctx, &d);
    if (sizes) return sizes == 2 ? CMD_USAGE : CMD_ERROR;

    FILE *out = stdout;
    if (!suite && !o->json && d.device_out != 6 && world_rank == 0) {
        out = d.device_out == 7 ? stderr : fopen(d.outfile, "w");
        if (!out) {
            fprintf(stderr, "hyla hpl: cannot write %s\n", d.outfile);
            return CMD_ERROR;
        }
    }
    if (!suite && !o->json) print_params(out, &d);

    /* HYLA_HPL_ALGO=getrf|host-panel picks another factorization path (hpl.h) */
    const char *algo_env = getenv("HYLA_HPL_ALGO");
    int algo = !algo_env ? HYLA_HPL_AUTO
               : strcmp(algo_env, "getrf") == 0      ? HYLA_HPL_GETRF
               : strcmp(algo_env, "host-panel") == 0 ? HYLA_HPL_HOST_PANEL
                                                     : HYLA_HPL_AUTO;
    int ntests = 0, npass = 0, nfail = 0, nskip = 0;
    bool header = false, wrote_x = false;
    cmd_status st = CMD_OK;
    double *x = NULL;
    for (int g = 0; g < d.ngrid && st != CMD_ERROR; g++)
        for (int in = 0; in < d.nn && st != CMD_ERROR; in++)
            for (int ib = 0; ib < d.nnb && st != CMD_ERROR; ib++)
                for (int id = 0; id < d.ndepth && st != CMD_ERROR; id++) {
                    hyla_hpl_params p = {.n = d.n[in], .nb = d.nb[ib], .nprow = d.p[g],
                                         .npcol = d.q[g], .pmap = d.pmap, .depth = d.depth[id],
                                         .threshold = d.threshold, .algo = algo,
                                         .bcast = o->hpl_bcast > 0 ? (int)o->hpl_bcast
                                                                   : HYLA_HPL_BCAST_AUTO};
                    hyla_hpl_result res;
                    bool want_x = o->output && !wrote_x;
                    if (want_x) {
                        free(x);
                        x = malloc((size_t)(p.n > 0 ? p.n : 1) * sizeof *x);
                        if (!x) {
                            fputs("hyla hpl: out of memory\n", stderr);
                            st = CMD_ERROR;
                            break;
                        }
                    }
                    time_t t_start = time(NULL);
                    int rc = hyla_hpl_run(ctx, 0, &p, &res, want_x ? x : NULL);
                    time_t t_end = time(NULL);
                    ntests++;
                    if (rc == -3) {
                        fprintf(out, "hyla hpl: grid %d x %d needs %lld ranks; test skipped\n",
                                p.nprow, p.npcol, (long long)p.nprow * p.npcol);
                        nskip++;
                        continue;
                    }
                    if (rc) { /* agreed by every rank of the grid: printed once */
                        if (world_rank == 0)
                            fprintf(stderr, "hyla hpl: N %lld NB %lld grid %d x %d: %s%s\n",
                                (long long)p.n, (long long)p.nb, p.nprow, p.npcol,
                                hyla_strerror(rc),
                                rc == HYLA_ERR_UNSUPPORTED && p.bcast == HYLA_HPL_BCAST_DEVICE
                                    ? " (--bcast device: panels device to device need a GPU "
                                      "of its own per rank of a row, and NCCL)"
                                    : "");
                        st = CMD_ERROR;
                        break;
                    }
                    if (!res.in_grid) continue;
                    char tv[16];
                    snprintf(tv, sizeof tv, "W%c%1d%1d%c%1d%c%1d", d.pmap ? 'C' : 'R', p.depth % 10,
                             d.bcast[0], "LCR"[d.rfact[0]], d.ndiv[0] % 10, "LCR"[d.pfact[0]],
                             d.nbmin[0] % 10);
                    const char *status = res.info ? "skipped"
                                         : !res.checked ? "unchecked"
                                         : res.passed   ? "PASSED"
                                                        : "FAILED";
                    if (res.info) nskip++;
                    else if (res.checked && !res.passed) nfail++;
                    else npass++;
                    if (res.checked && !res.passed) st = CMD_FAILED;
                    if (want_x && res.info == 0 && world_rank == 0) {
                        wrote_x = true;
                        const out_item xi = {HYLA_D, p.n, 1, p.n > 0 ? p.n : 1, x, false};
                        if (res.checked && !res.passed && !o->output_on_fail)
                            fputs("hyla hpl: the check FAILED: no --output file written "
                                  "(--output-on-fail writes it anyway)\n", stderr);
                        else if (out_write(o, 1, &xi))
                            st = CMD_ERROR;
                    }
                    if (o->json) {
                        printf("{\"routine\":\"hpl\",\"tv\":\"%s\",\"n\":%lld,\"nb\":%lld,\"p\":%d,"
                               "\"q\":%d,\"depth\":%d", tv, (long long)p.n, (long long)p.nb,
                               p.nprow, p.npcol, p.depth);
                        report_json_number("time_s", res.time_s);
                        report_json_number("gflops", res.time_s > 0 ? res.gflops : NAN);
                        report_json_number("resid", res.checked ? res.resid : NAN);
                        printf(",\"info\":%lld,\"bcast\":\"%s\",\"status\":\"%s\"}\n",
                               (long long)res.info,
                               p.npcol == 1 ? "none" : res.bcast_device ? "device" : "host", status);
                        continue;
                    }
                    if (!header || !suite) {
                        fprintf(out, "%s\n%s%s\n%s\n", RULE, "T/V                N    NB     P     Q",
                                "               Time                 Gflops", DASH);
                        header = true;
                    }
                    fprintf(out, "%-8s%12lld %5lld %5d %5d %18.2f    %19.4e\n", tv, (long long)p.n,
                            (long long)p.nb, p.nprow, p.npcol, res.time_s, res.gflops);
                    if (!suite) {
                        fprintf(out, "HPL_pdgesv() start time %s\n", ctime(&t_start));
                        fprintf(out, "HPL_pdgesv() end time   %s\n", ctime(&t_end));
                        if (p.npcol > 1)
                            fprintf(out, "hyla: panels along the process rows %s\n\n",
                                    res.bcast_device ? "device to device (NCCL)"
                                                     : "through host memory (MPI)");
                    }
                    if (res.info) {
                        fprintf(out, "%s\nError code returned by solve is %lld, skip\n", DASH,
                                (long long)res.info);
                    } else if (res.checked) {
                        fprintf(out, "%s\n%s%16.8e%s%s\n", DASH,
                                "||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)= ", res.resid,
                                " ...... ", status);
                        if (!res.passed) {
                            fprintf(out, "||Ax-b||_oo  . . . . . . . . . . . . . . . . . = %18.6f\n"
                                         "||A||_oo . . . . . . . . . . . . . . . . . . . = %18.6f\n"
                                         "||x||_oo . . . . . . . . . . . . . . . . . . . = %18.6f\n"
                                         "||b||_oo . . . . . . . . . . . . . . . . . . . = %18.6f\n",
                                    res.rnorm, res.anorm, res.xnorm, res.bnorm);
                        }
                    }
                    if (!suite) fprintf(out, "%s\n", RULE);
                }
    free(x);
    if (!suite && !o->json && st != CMD_ERROR) {
        fprintf(out, "\nFinished %6d tests with the following results:\n", ntests);
        if (d.threshold > 0) {
            fprintf(out, "         %6d tests completed and passed residual checks,\n", npass);
            fprintf(out, "         %6d tests completed and failed residual checks,\n", nfail);
            fprintf(out, "         %6d tests skipped because of illegal input values.\n", nskip);
        } else {
            fprintf(out, "         %6d tests completed without checking,\n", npass);
            fprintf(out, "         %6d tests skipped because of illegal input values.\n", nskip);
        }
        fprintf(out, "%s\n\nEnd of Tests.\n%s\n", DASH, RULE);
    }
    if (out != stdout && out != stderr) fclose(out);
    return st;
}
