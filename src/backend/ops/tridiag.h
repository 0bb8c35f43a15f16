/* The backend's tri_eigvals op (backend/ops/ops.h): its workspace; the
 * bisection it runs is tri_bisect.h's. */
#ifndef HYLA_BACKEND_OPS_TRIDIAG_H
#define HYLA_BACKEND_OPS_TRIDIAG_H
#include <stddef.h>

/* The bisection's starting grid has 3 min(n, HYLA_BISECT_GRID_MAX) points
 * (tri_bisect.h: hyla_bisect_grid). */
#define HYLA_BISECT_GRID_MAX 16384

/* Device workspace of the tri_eigvals op for order n: the scaled diagonal
 * and squared off-diagonal (two reals of up to 8 bytes per row), the plan
 * and the Sturm counts of the starting grid (8 bytes a point). */
#define HYLA_TRI_EIGVALS_WORK_BYTES(n)                                                          \
    ((size_t)((n) > 0 ? (n) : 1) * 16 + 64 +                                                    \
     (size_t)24 * ((n) > HYLA_BISECT_GRID_MAX ? HYLA_BISECT_GRID_MAX : (n) > 0 ? (n) : 1))

#endif
