/* Command-line options shared by every routine of the tester. */
#ifndef HYLA_CLI_OPTIONS_H
#define HYLA_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hyla.h"
#include "hyla_options.h"

/* Exit status of the CLI. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

enum { CLI_MAX_TYPES = 16, CLI_MAX_INPUTS = 8, CLI_MAX_OUTPUTS = 8 };

/* Index of each tuning option (hyla_options.h) in cli_opts: CLI_OPT_<ID>. */
enum {
#define X(id, flag, values, lo, hi, def, help) CLI_OPT_##id,
    HYLA_OPTIONS(X)
#undef X
    CLI_NOPTS
};

/* A list of sizes: comma-separated values and start:end:step ranges. */
typedef struct {
    int64_t *v;
    int count;
} cli_list;

typedef struct {
    const char *routine;          /* NULL: the default benchmark suite */
    bool help, version;
    cli_list n, m, k;             /* m, k empty: equal to n; one value: for every n */
    cli_list nrhs;                /* right-hand sides (potrs, posv); empty: 1 */
    hyla_dtype types[CLI_MAX_TYPES];
    int ntypes;                   /* 0 until --type; then defaults to d */
    char uplo[2];                 /* 'L' and/or 'U', in the order given */
    int nuplo;
    char jobz;                    /* 'N'/'V' */
    int itype[3];                 /* sygvd, hegvd: 1, 2, 3, in the order given */
    int nitype;
    char range;                   /* syevdx, heevdx: 'A', 'I' (il..iu) or 'V' ((vl, vu]) */
    int64_t il, iu;
    double vl, vu;
    const char *devices;          /* NULL: HYLA_DEVICES or every GPU */
    bool check, vs_vendor, json, verbose, stats;
    int repeat, warmup;
    char *input_buf;              /* --input, split in place at the commas */
    const char *inputs[CLI_MAX_INPUTS];
    int ninputs;
    const char *output;           /* the first --output name; NULL: none */
    char *output_buf;             /* --output, split in place at the commas */
    const char *outputs[CLI_MAX_OUTPUTS];
    int noutputs;
    bool output_on_fail;          /* --output-on-fail: write even after a FAILED check */
    char transa, transb;
    double alpha, beta;
    double cond;                  /* condition number of generated SPD matrices; 0: default */
    uint64_t seed;
    int xt_block;
    const char *matrix;           /* --matrix as given; NULL: random */
    int eig_matrix;               /* --matrix as an eigensolver eig_class; -1: not one */
    bool timers;                  /* eigensolver: print the stage times */
    const char *hpl_dat;          /* hpl: the HPL.dat path (positional); NULL: ./HPL.dat */
    int hpl_p, hpl_q;             /* hpl: --grid PxQ; 0: from HPL.dat */
    int64_t hpl_bcast;            /* hpl: --bcast, a HYLA_HPL_BCAST_* value; -1: not given */
    int rbt_depth, rbt_refine;    /* gesv_rbt; -1: not given */
    int64_t tuning[CLI_NOPTS];    /* the tuning options given (hyla_set_option values) */
    bool tuning_given[CLI_NOPTS];
    uint64_t given;               /* bit i: tester option i (options.c opt_id) was given */
    int argc;                     /* the command line, for the report header */
    char **argv;
} cli_opts;

/* Parses argv into *o (defaults first). Returns 0, or CLI_EXIT_USAGE after
 * printing the reason on stderr. Free with cli_opts_free in either case. */
int cli_opts_parse(int argc, char **argv, cli_opts *o);
void cli_opts_free(cli_opts *o);

/* Size of run i (0 <= i < o->n.count), m and k following n when absent. */
int64_t cli_n(const cli_opts *o, int i);
int64_t cli_m(const cli_opts *o, int i);
int64_t cli_k(const cli_opts *o, int i);
/* Runs of the solvers: n and nrhs element-wise, either one broadcast. */
int cli_nrhs_runs(const cli_opts *o);
int64_t cli_solve_n(const cli_opts *o, int i);
int64_t cli_solve_nrhs(const cli_opts *o, int i);

void cli_usage(FILE *f);

/* Sets the tuning options given on the command line in ctx (and the trace,
 * --verbose). Returns a CLI exit status: CLI_EXIT_USAGE for a value the
 * library refuses, after printing why. */
int cli_configure(hyla_t *ctx, const cli_opts *o);

/* Reads the first `count` --input files into in[] (the caller frees them
 * with hyla_npy_free, also on failure); prints the reason on the first file
 * that cannot be taken. Returns CMD_OK (cmd.h), CMD_ERROR (unreadable or
 * malformed) or CMD_USAGE (a dtype or rank hyla does not take). */
int cli_read_inputs(const cli_opts *o, hyla_npy *in, int count);

#endif
