/*
 * hyla HPL inside hyla_hpl: what its files and tests share beyond the
 * public include/hyla_hpl.h.
 *
 *   hpl_dat.c   the netlib HPL.dat input file (31 lines)
 *   hpl_rand.c  netlib HPL's matrix generator (HPL_pdmatgen), with jump-ahead
 *   hpl_comm.c  the process grid and its MPI collectives (or one rank)
 *   hpl_lu.c    distributed right-looking LU of [A b], back substitution,
 *               residual check
 */
#ifndef HYLA_HPL_H
#define HYLA_HPL_H

#include <stdint.h>

#include "hyla_hpl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- generator */

/* netlib HPL's linear congruential generator, X(k+1) = a X(k) + c mod 2^31,
 * with the constants HPL_MULT0/HPL_MULT1 (a, as HPL_lmul combines them) and
 * HPL_IADD0/HPL_IADD1 (c = 1); X(0) = seed. Returns X(k). */
HYLA_API uint32_t hyla_hpl_lcg_state(uint32_t seed, uint64_t k);

/* The value HPL_rand returns for a state x: 0.5 - x / 2^31, in (-0.5, 0.5]. */
HYLA_API double hyla_hpl_lcg_value(uint32_t x);

/* Generates the local part of the global m x n matrix of HPL_pdmatgen(m, n,
 * nb, seed) owned by process (myrow, mycol) of an nprow x npcol grid, 2-D
 * block-cyclic with nb x nb blocks from process (0, 0): global entry (i, j)
 * is hyla_hpl_lcg_value(X(1 + i + j m)). Only the local columns jl0 ..
 * jl0 + ncols - 1 are written, into A (lda >= local rows), so a caller can
 * generate in slabs; each column is found by jump-ahead (O(log) steps). */
HYLA_API void hyla_hpl_matgen(int64_t m, int64_t n, int64_t nb, int myrow, int mycol, int nprow,
                     int npcol, uint32_t seed, int64_t jl0, int64_t ncols, double *A,
                     int64_t lda);

/* Number of rows (or columns) of a dimension of n, blocked by nb, owned by
 * process iproc of nprocs (ScaLAPACK numroc with source process 0). */
HYLA_API int64_t hyla_hpl_numroc(int64_t n, int64_t nb, int iproc, int nprocs);

/* Whether this build has MPI (1) or runs one rank only (0). */
HYLA_API int hyla_hpl_have_mpi(void);


#ifdef __cplusplus
}
#endif
#endif
