/* The run loop shared by the tester's routines (gemm, the Cholesky, LU and
 * RBT routines, the eigensolvers; hpl keeps HPL's own, see cmd_hpl.c): warm-up and timed calls, the check and --output of the
 * first call, the report of a failed call, and the status of a run. */
#ifndef HYLA_CLI_RUNLOOP_H
#define HYLA_CLI_RUNLOOP_H

#include <stdbool.h>

#include "cmd.h"

/* What a routine gives the loop; each hook gets arg back. */
typedef struct {
    void *arg;
    /* Fresh copies of what a call overwrites, before each call; NULL: none. */
    void (*restore)(void *arg);
    /* One call of hyla's routine; returns its info (LAPACK semantics). */
    int (*call)(hyla_t *ctx, void *arg);
    /* Prints on stderr why a call failed: info < 0, or info > 0 when
     * numerical is NULL. */
    void (*print_error)(void *arg, int info);
    /* A call with info > 0 (not positive definite, singular): prints why on
     * stderr and returns the row's status word; NULL: info > 0 is an error
     * like info < 0. */
    const char *(*numerical)(void *arg, const report_row *row);
    /* The result of a first call with info > 0 is checked before
     * numerical() runs (getrf: the factor is still checked). */
    bool check_numerical;
    /* --output also after a first call with info > 0 (getrf: the factor is
     * complete, LAPACK semantics), with a warning. */
    bool write_numerical;
    /* The scaled error of the first call's result; nonzero on a failure
     * (reported). */
    int (*check)(void *arg, double *err);
    /* --output: writes the first call's result (not when its check
     * FAILED, unless --output-on-fail); nonzero on a failure (reported).
     * NULL: the routine writes nothing. */
    int (*write)(void *arg);
    /* Prints a row (also the row of a failed call); NULL: report_print. */
    void (*print)(void *arg, const report_row *row);
    double threshold; /* a check passes below it */
} run_hooks;

/* Runs o->warmup untimed and o->repeat timed calls (with check and no
 * warm-up, one untimed call first); the first call is checked (when check)
 * and written out (--output). Sets row->info, has_error, error, status and
 * time_s (the median). Returns CMD_OK when every call succeeded: the row is
 * not printed yet (see run_finish). Otherwise the row has been printed
 * where there is one: CMD_FAILED after info > 0 (numerical), CMD_ERROR
 * after a failed call, check, write or allocation (reported on stderr). */
cmd_status run_calls(hyla_t *ctx, const cli_opts *o, const report *r, bool check,
                     const run_hooks *h, report_row *row);

/* Ends a run whose calls succeeded: status FAILED when the device-resident
 * run failed, prints the row, and returns CMD_FAILED when that run or the
 * check failed, else CMD_OK. */
cmd_status run_finish(const report *r, report_row *row, double threshold, bool dev_failed);

/* run_finish for a routine that prints its rows itself (h->print). */
cmd_status run_finish_hooks(const report *r, const run_hooks *h, report_row *row, bool dev_failed);

/* The device-resident variant of a routine (hyla_?..._gpu on device 0, on
 * device copies of the inputs): what run_device needs. */
typedef struct {
    void *arg;                /* passed back to call and check */
    hyla_dtype dtype;
    const char *name;         /* the routine in messages: hyla_<type><name>_gpu */
    const void *A;            /* host A, a_bytes, copied to the device as is */
    size_t a_bytes;
    bool a_each;              /* A is overwritten: uploaded before each call; else once */
    const void *B;            /* host B, b_bytes, uploaded before each call; NULL: none */
    size_t b_bytes;
    void *result;             /* host buffer for the first call's result, from the */
    bool result_b;            /* device copy of B (result_b) or of A, whole */
    /* The routine(s) on the device copies dA and dB; returns 0 or an error. */
    int (*call)(hyla_t *ctx, void *arg, void *dA, void *dB);
    /* The scaled error of the result in result; nonzero on a failure (reported). */
    int (*check)(void *arg, double *err);
    double threshold;         /* a check passes below it */
} device_hooks;

/* Times o->warmup + o->repeat calls of the device-resident variant h, the
 * uploads untimed; with check the first result is brought back and
 * checked. A failed call or check is
 * reported on stderr and sets *failed. Returns the median seconds of the
 * timed calls, or NaN (failure, or no memory for the times). */
double run_device(hyla_t *ctx, const cli_opts *o, bool check, const device_hooks *h,
                  bool *failed);

/* Folds the status st of one run into *worst (CMD_OK or CMD_FAILED so
 * far). Returns true when st stops the runs (CMD_ERROR, CMD_USAGE): *worst
 * is then st. */
bool run_merge(cmd_status *worst, cmd_status st);

#endif
