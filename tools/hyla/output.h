/* --output: every result file of a run is written to a temporary file in
 * its directory, and all are renamed over their names only once all were
 * written; a failure leaves every named file as it was. */
#ifndef HYLA_CLI_OUTPUT_H
#define HYLA_CLI_OUTPUT_H

#include <stdint.h>

#include "options.h"

/* One result: a rows x cols column-major matrix (leading dimension ld) of
 * type dtype; vector: written as a 1-D (rows,) array (cols must be 1). */
typedef struct {
    hyla_dtype dtype;
    int64_t rows, cols, ld;
    const void *data;
    bool vector;
} out_item;

/* Writes items[i] to o->outputs[i], i < count <= o->noutputs, all or none.
 * Returns 0, or nonzero after printing why on stderr. */
int out_write(const cli_opts *o, int count, const out_item *items);

/* The --output names the routine can take and how they are described;
 * checked by cli_opts_parse. */
int out_max_names(const cli_opts *o, const char **what);

/* Whether path names the same file as an existing other (same device and
 * inode), or the same string when either does not exist. */
bool out_same_file(const char *path, const char *other);

#endif
