/* Command-line options shared by every routine of the tester. */
#ifndef HYLA_CLI_OPTIONS_H
#define HYLA_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hyla.h"

/* Exit status of the CLI. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

enum { CLI_MAX_TYPES = 16, CLI_MAX_INPUTS = 8 };

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
    const char *devices;          /* NULL: HYLA_DEVICES or every GPU */
    bool check, vs_vendor, json, verbose, stats;
    int repeat, warmup;
    char *input_buf;              /* --input, split in place at the commas */
    const char *inputs[CLI_MAX_INPUTS];
    int ninputs;
    const char *output;
    char transa, transb;
    double alpha, beta;
    int64_t tile, kblock, pack_threads; /* -1: not given */
    int64_t nb;                   /* Cholesky panel width; -1: not given */
    bool ooc;                     /* force the out-of-core Cholesky */
    double cond;                  /* condition number of generated SPD matrices; 0: default */
    int64_t cpu_share;            /* in 1/1000, -1 = auto; used if cpu_share_set */
    bool cpu_share_set;
    uint64_t seed;
    int xt_block;
    const char *matrix;           /* --matrix as given; NULL: random */
    int eig_matrix;               /* --matrix as an eigensolver eig_class; -1: not one */
    bool timers;                  /* eigensolver: print the stage times */
    int64_t kd;                   /* eigensolver band half-width; -1: not given */
    int64_t ib;                   /* LU leaf width; -1: not given */
    int64_t back_order;           /* eigenvector back transformation order; -1: not given */
    int64_t chase;                /* stage-2 bulge chasing for jobz N: 0 auto, 1 host, 2 device; -1 */
    int64_t back2;                /* Q2 back transformation: 0 auto, 1 gemm, 2 kernel; -1 */
    int64_t dc_min;               /* --dc-min: smallest device merge of stedc; -1 */
    int64_t back1_nb;             /* --back1-nb: Q1 block reflector width; -1 */
    const char *hpl_dat;          /* hpl: the HPL.dat path (positional); NULL: ./HPL.dat */
    int hpl_p, hpl_q;             /* hpl: --grid PxQ; 0: from HPL.dat */
    int64_t hpl_bcast;            /* hpl: --bcast, a HYLA_HPL_BCAST_* value; -1: not given */
    int rbt_depth, rbt_refine;    /* gesv_rbt; -1: not given */
    int64_t back2_nb;             /* eigensolver Q2 block reflector sweeps; -1: not given */
    int64_t tri;                  /* tridiagonal eigenvalues: 0 auto, 1 sterf, 2 bisect; -1 */
    int64_t panel;                /* HYLA_OPT_LU_PANEL: 0 auto, 1 vendor, 2 kernel, C >= 8; -1 */
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

/* Reads the first `count` --input files into in[] (the caller frees them
 * with hyla_npy_free, also on failure); prints the reason and returns
 * non-zero on the first file that cannot be read. */
int cli_read_inputs(const cli_opts *o, hyla_npy *in, int count);

#endif
