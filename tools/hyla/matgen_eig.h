/* Hermitian test matrices with prescribed eigenvalue distributions for the
 * eigensolver tester (LAPACK dlatms-like modes). */
#ifndef HYLA_CLI_MATGEN_EIG_H
#define HYLA_CLI_MATGEN_EIG_H

#include <stdint.h>

#include "hyla.h"

typedef enum {
    EIG_RANDOM,      /* entries uniform in (-1, 1), Hermitian */
    EIG_CLUSTERED,   /* eigenvalues 1 except one 1/cond (dlatms mode 2) */
    EIG_GEOMETRIC,   /* cond^(-k/(n-1)) (mode 3) */
    EIG_ARITHMETIC,  /* 1 - k/(n-1) (1 - 1/cond) (mode 4) */
    EIG_ONELARGE,    /* one 1, the rest 1/cond (mode 1) */
    EIG_GRADED,      /* random, entry (i, j) scaled by g_i g_j, g_i = cond^(-i/(2(n-1))) */
    EIG_DIAGONAL,    /* random diagonal */
    EIG_ZERO,
    EIG_NCLASSES
} eig_class;

/* The condition number of the generated distributions. */
#define EIG_COND 1e6

extern const char *const eig_class_names[EIG_NCLASSES];

/* Index of a class name, or -1. */
int eig_class_parse(const char *name);

/* Fills the n x n matrix a (ld lda, both triangles) with a Hermitian matrix
 * of class c. The spectrum classes are Q D Q^H with Q a product of random
 * Householder reflectors (O(n^2) each), built in double precision. Returns 0,
 * or -1 after printing why (out of memory). */
int mat_fill_eig(hyla_dtype t, eig_class c, int64_t n, void *a, int64_t lda, uint64_t seed);

#endif
