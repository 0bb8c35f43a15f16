/* The host backend's divide-and-conquer merge ops dc_secular and dc_vectors
 * (backend.h, backend/ops/dc.h), on the OpenMP team. */
#ifndef HYLA_HOST_DC_H
#define HYLA_HOST_DC_H
#include "backend/ops/dc.h"

/* The ops' work, arguments already checked (hyla_dc_check). */
void hyla_host_dc_secular_run(hyla_dtype t, const hyla_dc_args *a);
void hyla_host_dc_vectors_run(hyla_dtype t, const hyla_dc_args *a);

#endif
