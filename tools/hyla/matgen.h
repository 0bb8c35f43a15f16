/* Host matrices for the tester: dtype helpers, checked allocation,
 * reproducible parallel random fill, norms. */
#ifndef HYLA_CLI_MATGEN_H
#define HYLA_CLI_MATGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hyla.h"

size_t dtype_size(hyla_dtype t);
char dtype_char(hyla_dtype t);          /* 's', 'd', 'c', 'z' */
bool dtype_is_complex(hyla_dtype t);
double dtype_eps(hyla_dtype t);         /* unit roundoff of the real type */

/* rows * cols elements of type t in bytes; false if it overflows size_t. */
bool mat_bytes(hyla_dtype t, int64_t rows, int64_t cols, size_t *bytes);

/* False, with a message, if `bytes` exceed the host's physical memory: with
 * overcommit, malloc would succeed and filling the matrices get the process
 * killed. */
bool host_fits(double bytes, const char *what);

/* A rows x cols matrix (leading dimension max(1, rows)), zeroed if `zero`.
 * On failure prints "cannot allocate <what> ..." on stderr and returns NULL. */
void *mat_alloc(hyla_dtype t, int64_t rows, int64_t cols, bool zero, const char *what);

/* Fills a with values uniform in (-1, 1) per real component. Element (i, j)
 * depends only on (seed, id, j, i), so the result does not depend on the
 * number of threads. */
void mat_fill_random(hyla_dtype t, int64_t rows, int64_t cols, void *a, int64_t lda,
                     uint64_t seed, uint64_t id);

/* Infinity norm (max row sum of moduli) of op(A), where A is rows x cols as
 * stored and op is 'N' or 'T'/'C'. NaN entries give NaN. */
double mat_norm_inf(hyla_dtype t, char trans, int64_t rows, int64_t cols, const void *a,
                    int64_t lda);

#endif
