/* The run loop shared by the tester's routines (see runloop.h). */
#include "runloop.h"

#include "matgen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void run_print(const report *r, const run_hooks *h, const report_row *row) {
    if (h->print) h->print(h->arg, row);
    else report_print(r, row);
}

/* --output after the first call: nothing when its check FAILED, unless
 * --output-on-fail. Returns nonzero on a failed write (reported). */
static int run_write(const cli_opts *o, const run_hooks *h, const report_row *row) {
    if (!o->output || !h->write) return 0;
    if (row->has_error && !(row->error < h->threshold) && !o->output_on_fail) {
        fprintf(stderr, "hyla: the check FAILED: no --output file written (--output-on-fail "
                "writes them anyway)\n");
        return 0;
    }
    if (row->info > 0)
        fprintf(stderr, "hyla: warning: info = %d, but the factorization completed (LAPACK "
                "semantics): --output holds it\n", row->info);
    return h->write(h->arg);
}

cmd_status run_calls(hyla_t *ctx, const cli_opts *o, const report *r, bool check,
                     const run_hooks *h, report_row *row) {
    double *times = malloc((size_t)o->repeat * sizeof *times);
    cmd_status st = CMD_ERROR;
    if (!times) {
        fputs("hyla: out of memory\n", stderr);
        return CMD_ERROR;
    }
    /* The first call is checked and written out; it is a warm-up call too. */
    const int pre = o->warmup > 0 || !check ? o->warmup : 1;
    for (int c = 0; c < pre + o->repeat; c++) {
        if (h->restore) h->restore(h->arg);
        double t0 = cli_now();
        row->info = h->call(ctx, h->arg);
        double t = cli_now() - t0;
        const bool numerical = row->info > 0 && h->numerical;
        if (row->info != 0 && !numerical) {
            h->print_error(h->arg, row->info);
            row->status = "error";
            run_print(r, h, row);
            goto out;
        }
        if (numerical && !h->check_numerical) goto numerical_failure;
        if (c >= pre) times[c - pre] = t;
        if (c > 0) continue;
        if (check) {
            if (h->check(h->arg, &row->error)) goto out;
            row->has_error = true;
            row->status = row->error < h->threshold ? "pass" : "FAILED";
        }
        if (numerical && h->write_numerical && run_write(o, h, row)) goto out;
        if (numerical) goto numerical_failure;
        if (run_write(o, h, row)) goto out;
    }
    row->time_s = cli_median(times, o->repeat);
    st = CMD_OK;
    goto out;
numerical_failure:
    row->status = h->numerical(h->arg, row);
    run_print(r, h, row);
    st = CMD_FAILED;
out:
    free(times);
    return st;
}

double run_device(hyla_t *ctx, const cli_opts *o, bool check, const device_hooks *h,
                  bool *failed) {
    void *dA = NULL, *dB = NULL;
    double med = NAN;
    double *times = malloc((size_t)o->repeat * sizeof *times);
    if (!times) return NAN;
    int rc = hyla_malloc_device(ctx, 0, h->a_bytes, &dA);
    if (!rc && h->B)
        rc = hyla_malloc_device(ctx, 0, h->b_bytes ? h->b_bytes : dtype_size(h->dtype), &dB);
    if (!rc && !h->a_each) rc = hyla_copy_to_device(ctx, 0, dA, h->A, h->a_bytes);
    for (int c = 0; !rc && c < o->warmup + o->repeat; c++) {
        if (h->a_each) rc = hyla_copy_to_device(ctx, 0, dA, h->A, h->a_bytes);
        if (!rc && h->B) rc = hyla_copy_to_device(ctx, 0, dB, h->B, h->b_bytes);
        if (rc) break;
        double t0 = cli_now();
        rc = h->call(ctx, h->arg, dA, dB);
        double t = cli_now() - t0;
        if (rc) break;
        if (c >= o->warmup) times[c - o->warmup] = t;
        if (c > 0 || !check) continue;
        double err;
        if (h->result_b) rc = hyla_copy_from_device(ctx, 0, h->result, dB, h->b_bytes);
        else rc = hyla_copy_from_device(ctx, 0, h->result, dA, h->a_bytes);
        if (rc) break;
        if (h->check(h->arg, &err)) goto out;
        if (!(err < h->threshold)) {
            fprintf(stderr, "hyla: device-resident hyla_%c%s_gpu: check FAILED, error %.2e\n",
                    dtype_char(h->dtype), h->name, err);
            *failed = true;
        }
    }
    if (rc) {
        fprintf(stderr, "hyla: device-resident hyla_%c%s_gpu: %d: %s\n", dtype_char(h->dtype),
                h->name, rc, hyla_strerror(rc));
        *failed = true;
        goto out;
    }
    med = cli_median(times, o->repeat);
out:
    hyla_free_device(ctx, 0, &dA);
    hyla_free_device(ctx, 0, &dB);
    free(times);
    return med;
}

cmd_status run_finish_hooks(const report *r, const run_hooks *h, report_row *row, bool dev_failed) {
    if (dev_failed) row->status = "FAILED";
    run_print(r, h, row);
    return dev_failed || (row->has_error && !(row->error < h->threshold)) ? CMD_FAILED : CMD_OK;
}

cmd_status run_finish(const report *r, report_row *row, double threshold, bool dev_failed) {
    const run_hooks h = {.threshold = threshold};
    return run_finish_hooks(r, &h, row, dev_failed);
}

bool run_merge(cmd_status *worst, cmd_status st) {
    if (st == CMD_ERROR || st == CMD_USAGE) {
        *worst = st;
        return true;
    }
    if (st == CMD_FAILED) *worst = CMD_FAILED;
    return false;
}
