/* The runtime of libhyla_lapack shared by its LP64 and ILP64 entry points
 * (lapack_rt.c): the default context, the choice between hyla and the next
 * LAPACK, the look-up of the next LAPACK's functions, and the log. */
#ifndef HYLA_LAPACK_RT_H
#define HYLA_LAPACK_RT_H

#include "hyla.h"
#include <stdatomic.h>
#include <stdint.h>

/* The routines with a threshold of their own (lapack_rt.c's table). */
typedef enum {
    HL_POTRF, HL_POTRS, HL_POSV, HL_GETRF, HL_GETRS, HL_GESV, HL_SYEVD, HL_SYEV, HL_SYEVR,
    HL_GEMM, HL_SYGVD, HL_SYGV, HL_SYEVX, HL_SYGVX, HL_ROUTINES
} hl_routine;

/* One exported name and, once looked up, the next library's function of the
 * same name (NULL while not looked up; hl_absent when there is none); the
 * calls of the name for HYLA_LAPACK_VERBOSE's summary (zero-initialized). */
typedef struct hl_fwd {
    const char *name;
    _Atomic(void *) fn;
    _Atomic int64_t served, forwarded, nested, ns; /* ns: time in hyla */
    _Atomic int listed;
    struct hl_fwd *next; /* the summary's list */
} hl_fwd;

/* Each entry point's first call: the address its caller returns to. Calls
 * from inside a LAPACK or BLAS library or hyla (OpenBLAS's dgetrf calling
 * dgemm_, hyla's host backend) are counted but not logged one by one under
 * HYLA_LAPACK_VERBOSE: the log shows the program's LAPACK-level calls. */
void hl_enter(hl_fwd *f, void *caller);

/* hl_begin's verdict. */
typedef enum {
    HL_SERVE,   /* hyla serves the call: the context is returned, hl_end must follow */
    HL_FORWARD, /* call *fn, the next library's function */
    HL_NONE     /* neither: the context could not be created and there is no next library */
} hl_path;

/* What a call is, for a context without a GPU (where hyla's host backend
 * serves only what it does faster than LAPACK): HL_HOST_NO, or the
 * eigenvalues alone of a real or complex Hermitian matrix. */
typedef enum { HL_HOST_NO, HL_HOST_REAL_VALUES, HL_HOST_CPLX_VALUES } hl_host;

/* Decides who serves a call of routine rt of size n (the routine's measure:
 * n, min(m, n) or min(m, n, k)). force_forward: hyla cannot serve these
 * options (why: a few words for the log). host: the call's kind for a
 * context without a GPU. Sets *fn to the next library's function (NULL if
 * none) and *ctx when it returns HL_SERVE; HL_SERVE holds the library's lock
 * until hl_end. */
hl_path hl_begin(hl_routine rt, hl_fwd *f, int64_t n, const char *force_forward, hl_host host,
                 void **fn, hyla_t **ctx);
/* Ends a served call: releases the lock, counts and logs hyla's code.
 * Returns 1 when the caller must forward the call after all (fn, the next
 * library's function, exists and hyla declined the data: NaN/Inf input, or
 * a library failure that left the caller's data untouched, as the caller
 * says by untouched), 0 when hyla's code is the answer. */
int hl_end(hl_fwd *f, int64_t n, int code, void *fn, int untouched);
/* The next library's function for f (NULL if none); also the workspace
 * queries' source. */
void *hl_next(hl_fwd *f);
/* An argument error (info = -arg) of f's routine: calls the program's
 * XERBLA with LAPACK's SRNAME (the routine in upper case) and arg, as
 * LAPACK does: the one a program or a library loaded on its own defines
 * (LAPACK's testers, NumPy), else the next LAPACK's (which prints LAPACK's
 * message); logged when HYLA_LAPACK_VERBOSE. */
void hl_arg_error(const hl_fwd *f, int64_t arg);
/* Logs a workspace query and where its answer came from. */
void hl_query(const hl_fwd *f, int forwarded);

#endif
