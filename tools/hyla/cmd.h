/* The routines of the tester. Each runs every type and size of the options
 * and prints one report row per run. */
#ifndef HYLA_CLI_CMD_H
#define HYLA_CLI_CMD_H

#include "clock.h"
#include "hyla.h"
#include "options.h"
#include "report.h"

typedef enum {
    CMD_OK,
    CMD_FAILED,   /* a check FAILED; the other runs went on */
    CMD_ERROR,    /* library, file or memory error: stopped (exit 1) */
    CMD_USAGE     /* inconsistent input: stopped (exit 2) */
} cmd_status;

cmd_status cmd_gemm(hyla_t *ctx, const cli_opts *o, const report *r);
cmd_status cmd_potrf(hyla_t *ctx, const cli_opts *o, const report *r);
cmd_status cmd_potrs(hyla_t *ctx, const cli_opts *o, const report *r);
cmd_status cmd_posv(hyla_t *ctx, const cli_opts *o, const report *r);
/* syevd and heevd (the type picks the routine): cmd_eig.c */
cmd_status cmd_syevd(hyla_t *ctx, const cli_opts *o, const report *r);
cmd_status cmd_stedc(hyla_t *ctx, const cli_opts *o, const report *r);
cmd_status cmd_sterf(hyla_t *ctx, const cli_opts *o, const report *r);
cmd_status cmd_sygvd(hyla_t *ctx, const cli_opts *o, const report *r); /* also hegvd */
cmd_status cmd_syevdx(hyla_t *ctx, const cli_opts *o, const report *r); /* also heevdx */
cmd_status cmd_getrf(hyla_t *ctx, const cli_opts *o, const report *r);
cmd_status cmd_getrs(hyla_t *ctx, const cli_opts *o, const report *r);
cmd_status cmd_gesv(hyla_t *ctx, const cli_opts *o, const report *r);
cmd_status cmd_hpl(hyla_t *ctx, const cli_opts *o, const report *r);
/* hpl, before the context is made: starts MPI under mpirun, picks this
 * rank's device (local rank mod the GPUs of --devices / HYLA_DEVICES) into
 * devices (len bytes) and silences stdout on ranks other than 0. Returns a
 * CLI exit status. cmd_hpl_finish ends MPI. */
int cmd_hpl_prepare(cli_opts *o, char *devices, size_t len);
void cmd_hpl_finish(void);
cmd_status cmd_gesv_rbt(hyla_t *ctx, const cli_opts *o, const report *r);

/* Largest n whose potrf check forms L L^H (O(n^3)); beyond, a random
 * vector probes A - L L^H in O(n^2). */
enum { CHOL_EXACT_CHECK_MAX = 2048 };

/* Largest max(m, n) whose getrf check forms L U (O(n^3)); beyond, a random
 * vector probes P A - L U in O(n^2). */
enum { LU_EXACT_CHECK_MAX = 2048 };

#endif
