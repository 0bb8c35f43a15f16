/* The base layer of hyla, below the backends: allocation accounting, error
 * and time helpers, and what every layer needs to know about the dtypes
 * (sizes, real types, constants); the status channel is base/status.h (C11
 * atomics, which the CUDA sources that include this header do not take).
 * Includes only the public header. Not installed. */
#ifndef HYLA_BASE_H
#define HYLA_BASE_H

#include "hyla.h"
#include <stddef.h>
#include <stdint.h>

/* ---- allocation accounting (alloc.c) ----
 * Every allocation hyla makes, host, pinned or device, passes through
 * hyla_alloc_admit() so that tests can count leaks and inject failures. */
int hyla_alloc_admit(void);      /* 0: go ahead; HYLA_ERR_NO_MEMORY: injected failure */
void hyla_alloc_note(int delta); /* +1 after a successful allocation, -1 on free */
void *hyla_malloc(size_t bytes);
void *hyla_calloc(size_t count, size_t size);
void hyla_free(void *p);

/* ---- dtypes (dtype.c) ---- */
/* Size in bytes of one element of each dtype (0 for an invalid one). */
size_t hyla_dtype_size(hyla_dtype t);
/* The real type of t: HYLA_S for HYLA_C, HYLA_D for HYLA_Z, t otherwise. */
hyla_dtype hyla_dtype_real(hyla_dtype t);
/* 1 for HYLA_C and HYLA_Z */
int hyla_dtype_is_complex(hyla_dtype t);
/* The constants of each dtype (complex: imaginary part 0) in static
 * storage, as the alpha and beta arguments of the backend ops take them;
 * a pointer to the float pair serves HYLA_S and HYLA_C, to the double pair
 * HYLA_D and HYLA_Z. */
typedef enum { HYLA_SC_ONE, HYLA_SC_MONE, HYLA_SC_MHALF, HYLA_SC_ZERO } hyla_scalar_const;
const void *hyla_scalar(hyla_dtype t, hyla_scalar_const which);

/* ---- NaN and Inf (finite.c) ---- */
/* 1 when the part of the m x n host matrix A (dtype t, leading dimension
 * lda) selected by uplo holds a NaN or an Inf (complex: in either part),
 * else 0. uplo -1: every element; 0 (lower): rows i >= j + off of column j;
 * 1 (upper): rows i <= j + off. off = 0 selects a triangle; a block of
 * columns of a larger matrix, whose first column is column off of the
 * whole, passes off to be tested against the whole's triangle. */
int hyla_nonfinite(hyla_dtype t, int uplo, int64_t off, int64_t m, int64_t n, const void *A,
                   int64_t lda);

/* Monotonic wall clock in seconds (error.c). */
double hyla_wtime(void);

/* Address of element (i, j) of a column-major matrix at p (ld elements,
 * each es bytes). */
static inline void *hyla_elem(const void *p, int64_t i, int64_t j, int64_t ld, size_t es) {
    return (unsigned char *)p + (size_t)(i + j * ld) * es;
}

#define HYLA_MIN(a, b) ((a) < (b) ? (a) : (b))
#define HYLA_MAX(a, b) ((a) > (b) ? (a) : (b))
#define HYLA_CEILDIV(a, b) (((a) + (b) - 1) / (b))

/* The most elements a matrix argument may span, ld (cols - 1) + rows: 2^59,
 * so that its bytes (16 at most an element) and every offset into it fit
 * in a ptrdiff_t. A size past it cannot be a matrix in memory; the drivers
 * refuse it as a bad argument before any work (hyla.h). */
#define HYLA_MAX_ELEMS ((int64_t)1 << 59)

/* 1 when a rows x cols matrix with leading dimension ld (>= max(1, rows))
 * spans at most HYLA_MAX_ELEMS elements; computed without overflow. */
static inline int hyla_size_ok(int64_t rows, int64_t cols, int64_t ld) {
    if (rows <= 0 || cols <= 0) return 1;
    if (rows > HYLA_MAX_ELEMS || ld > HYLA_MAX_ELEMS) return 0;
    return cols - 1 <= (HYLA_MAX_ELEMS - rows) / ld;
}

/* Return-on-failure helper used within one cleanup path: sets `rc` and jumps. */
#define HYLA_TRY(expr)                       \
    do {                                     \
        int hyla_try_rc_ = (expr);           \
        if (hyla_try_rc_ != 0) {             \
            rc = hyla_try_rc_;               \
            goto cleanup;                    \
        }                                    \
    } while (0)

#endif
