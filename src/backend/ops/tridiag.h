/* The backend's tri_eigvals op (backend/ops/ops.h): its workspace; the
 * bisection it runs is tri_bisect.h's. */
#ifndef HYLA_BACKEND_OPS_TRIDIAG_H
#define HYLA_BACKEND_OPS_TRIDIAG_H
#include <stddef.h>

/* Device workspace of the tri_eigvals op for order n: the scaled diagonal
 * and squared off-diagonal (two reals of up to 8 bytes per row) and the
 * plan. */
#define HYLA_TRI_EIGVALS_WORK_BYTES(n) ((size_t)((n) > 0 ? (n) : 1) * 16 + 64)

#endif
