/* Tester output: the % header, one table row or JSON line per run. */
#ifndef HYLA_CLI_REPORT_H
#define HYLA_CLI_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "hyla.h"
#include "options.h"

typedef struct {
    bool json, check, vs, cuda; /* cuda: the context's devices are GPUs */
    int ndevices;               /* the context's devices, a repeated GPU counted each time */
    int ngpus;                  /* distinct GPUs (the vendor's): 0 on host devices */
    int xt_block;
    char devices[256];          /* the context's devices, HYLA_DEVICES syntax */
} report;

/* Column layout of a row: GEMM's (transposes, m, n, k, Gflop/s) or the
 * Cholesky routines' (uplo, n, nrhs, Tflop/s, info). */
typedef enum { ROW_GEMM = 0, ROW_CHOL = 1 } report_layout;

typedef struct {
    report_layout layout;
    const char *routine;
    hyla_dtype type;
    char transa, transb;
    int64_t m, n, k;
    double flops;
    int info;                       /* return value of the hyla call */
    double time_s;                  /* median; NaN: not measured */
    double vendor_time_s;           /* NaN: not run */
    double vendor_dev_time_s;       /* device-resident cuBLAS; NaN: not run */
    bool has_error;                 /* error holds a checked value */
    double error;
    const char *status;             /* ok, pass, FAILED, nocheck, error */
    const hyla_gemm_stats *stats;   /* NULL: not printed */
    /* ROW_CHOL only */
    char uplo;
    int64_t nrhs;                   /* -1: none (potrf) */
    double ours_dev_time_s;         /* hyla_?potrf_gpu etc. on a device-resident copy; NaN: not run */
    const char *vendor;             /* vendor routine's name; NULL: none */
    const char *check;              /* check method ("exact", "random"); NULL: none */
    const hyla_chol_stats *chol_stats; /* NULL: not printed */
    const hyla_lu_stats *lu_stats;  /* NULL: not printed */
} report_row;

void report_init(report *r, const cli_opts *o, const hyla_t *ctx);

/* vendor_s / ours_s, the ratio column; NaN (printed "-") for a run without
 * work (work: its flops or its order, 0 for n = 0) or a time not measured. */
double report_ratio(double vendor_s, double ours_s, double work);
/* The % header (nothing with --json). The column header of a layout is
 * printed before its first row, and again when the layout changes. */
void report_header(const report *r, const cli_opts *o, const hyla_t *ctx);
void report_print(const report *r, const report_row *row);

/* ,"key":v in a JSON record; null when v is NaN or infinite (JSON has no
 * such numbers; the record's status word says why). */
void report_json_number(const char *key, double v);
/* ,"timers":{...} of an eigensolver run: kd, the stages' seconds; parts
 * also nb, the CholeskyQR2 panels and stage 1's waits. */
void report_eig_timers_json(const hyla_eig_stats *s, bool parts);
/* v alone, or null. */
void report_json_value(double v);

#endif
