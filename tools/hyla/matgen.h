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

/* Element i of the array v of type t, as a double complex. */
double _Complex mat_elem(hyla_dtype t, const void *v, int64_t i);

/* rows * cols elements of type t in bytes; false if it overflows size_t. */
bool mat_bytes(hyla_dtype t, int64_t rows, int64_t cols, size_t *bytes);

/* False, with a message, if `bytes` exceed the host's physical memory: with
 * overcommit, malloc would succeed and filling the matrices get the process
 * killed. */
bool host_fits(double bytes, const char *what);
/* The same for a size n whose memory grows as n^power: the message also
 * says the largest n that fits. */
bool host_fits_n(double bytes, const char *what, int64_t n, int power);

/* A rows x cols matrix (leading dimension max(1, rows)), zeroed if `zero`.
 * On failure prints "cannot allocate <what> ..." on stderr and returns NULL. */
void *mat_alloc(hyla_dtype t, int64_t rows, int64_t cols, bool zero, const char *what);

/* Fills a with values uniform in (-1, 1) per real component. Element (i, j)
 * depends only on (seed, id, j, i), so the result does not depend on the
 * number of threads. */
void mat_fill_random(hyla_dtype t, int64_t rows, int64_t cols, void *a, int64_t lda,
                     uint64_t seed, uint64_t id);

/* dst := src, rows x cols, columns copied in parallel. */
void mat_copy(hyla_dtype t, int64_t rows, int64_t cols, const void *src, int64_t lds, void *dst,
              int64_t ldd);

/* A random Hermitian (real: symmetric) positive definite n x n matrix, both
 * triangles stored: off-diagonal entries uniform in (-1, 1) (complex: real
 * and imaginary parts in (-1, 1)/sqrt(2), so |a_ij| < 1) and a real diagonal
 * n + u, u in (-1, 1), which makes A strictly diagonally dominant. O(n^2),
 * in parallel; entry (i, j) depends only on (seed, id, min(i,j), max(i,j)). */
void mat_fill_hpd(hyla_dtype t, int64_t n, void *a, int64_t lda, uint64_t seed, uint64_t id);

/* Largest n accepted by mat_fill_hpd_cond (it costs O(n^3) and 2 n^2 double
 * or double complex elements of memory). */
enum { MAT_COND_MAX_N = 8192 };

/* A = Q D Q^H, both triangles stored, with Q the unitary factor of the QR
 * factorization of a random matrix and D = diag(cond^(-i/(n-1))): ||A||_2 = 1
 * and kappa_2(A) = cond (LAPACK dlatms mode 3). Built in double precision
 * with LAPACKE and OpenBLAS, then rounded to t. Returns 0, or -1 after
 * printing why (n > MAT_COND_MAX_N, out of memory, LAPACKE failure). */
int mat_fill_hpd_cond(hyla_dtype t, int64_t n, void *a, int64_t lda, double cond, uint64_t seed,
                      uint64_t id);

/* Infinity norm (= 1-norm) of the Hermitian n x n matrix whose triangle uplo
 * ('L' or 'U') is stored in a; the other triangle is not read. NaN entries
 * give NaN. */
double mat_norm_herm_inf(hyla_dtype t, char uplo, int64_t n, const void *a, int64_t lda);

/* Frobenius norm of the same Hermitian matrix. */
double mat_norm_herm_fro(hyla_dtype t, char uplo, int64_t n, const void *a, int64_t lda);

/* Infinity norm (max row sum of moduli) of op(A), where A is rows x cols as
 * stored and op is 'N' or 'T'/'C'. NaN entries give NaN. */
double mat_norm_inf(hyla_dtype t, char trans, int64_t rows, int64_t cols, const void *a,
                    int64_t lda);

/* Largest modulus of v[0..len-1]; NaN if any is NaN. */
double mat_max_abs(hyla_dtype t, const void *v, int64_t len);

/* A scaled error diff / scale, where diff 0 is 0 (scale 0 included, NaN
 * not) and diff > 0 with scale 0 is infinitely wrong; NaN anywhere fails. */
double scaled_error(double diff, double scale);

/* The error of a solve: max_j |r_j|_inf / (n norm_a |x_j|_inf eps) over the
 * nrhs columns of the n x nrhs residual r (ld ldr) and solution x (ld ldx);
 * a NaN sticks. */
double solve_error(hyla_dtype t, int64_t n, int64_t nrhs, const void *r, int64_t ldr,
                   const void *x, int64_t ldx, double norm_a);

#endif
