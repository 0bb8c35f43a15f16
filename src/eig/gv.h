/* The generalized eigenproblem's reduction on its own (gv.c), for the
 * probe that times its steps (bench/probes/gv_probe.c). */
#ifndef HYLA_EIG_GV_H
#define HYLA_EIG_GV_H
#include "core/internal.h"

/* Seconds of the reduction's kinds of step. */
typedef struct {
    double diag;   /* the diagonal blocks' two-sided solves (products) */
    double panel;  /* the panels' TRSM / TRMM and HEMMs */
    double her2k;  /* itype 1's trailing HER2K updates (2, 3: in panel) */
    double solves; /* itype 1's deferred solves */
} hyla_gv_parts;

/* dA (n x n, ld ld, lower triangle) := C = L^-1 A L^-H (itype 1) or L^H A L
 * (2, 3), L the lower triangle of dL (ld ld), both in device 0's memory,
 * as hyla_?sygvd reduces. her2k: -1 the tuning table's her2k_gemm_min, 0
 * one HER2K per block column, 1 the GEMM form at every order. parts: NULL,
 * or the seconds of each kind of step (each step then waited for).
 * Synchronous; returns 0 or a HYLA_ERR_* code. */
int hyla_eig_gv_reduce_dev(hyla_t *ctx, hyla_dtype t, int itype, int64_t n, void *dA, void *dL,
                           int64_t ld, int her2k, hyla_gv_parts *parts);

#endif
