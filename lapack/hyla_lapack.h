/* libhyla_lapack: LAPACK's Fortran entry points (dpotrf_, dsyevd_, ...) served
 * by hyla where hyla is faster, forwarded to the next LAPACK otherwise. The
 * library is used through those Fortran names (link it before the system
 * LAPACK, or LD_PRELOAD it); this header declares its one C function. */
#ifndef HYLA_LAPACK_H
#define HYLA_LAPACK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Calls of the LAPACK/BLAS names since the library was loaded: *served by
 * hyla, *forwarded to the next LAPACK (argument errors and workspace queries
 * count in neither). Either pointer may be NULL. */
__attribute__((visibility("default"))) void hyla_lapack_get_counts(int64_t *served,
                                                                   int64_t *forwarded);

#ifdef __cplusplus
}
#endif
#endif
