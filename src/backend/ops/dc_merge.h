/* backend/ops/t_dc_merge.h for both real types: secular_root_s / _d,
 * loewner_one_s / _d and vec_entry_s / _d. The includer may define the
 * loop and reduction macros (DCM_HD, DCM_J0, DCM_JS, DCM_SUM, DCM_PROD,
 * DCM_SIMD; see t_dc_merge.h) first; otherwise they are those of one host
 * thread per root (with OpenMP vectorization hints). */
#ifndef HYLA_BACKEND_DC_MERGE_H
#define HYLA_BACKEND_DC_MERGE_H
#include <float.h>
#include <math.h>
#include <stdint.h>

#ifndef DCM_HD
#define DCM_HD
#define DCM_J0 0
#define DCM_JS 1
#define DCM_SUM(x) (x)
#define DCM_PROD(x) (x)
#define DCM_PRAGMA(x) _Pragma(#x)
#define DCM_SIMD(clause) DCM_PRAGMA(omp simd clause)
#endif

#define DCM(x) x##_s
#define R float
#define DCM_RF(fn) fn##f
#define DCM_EPS (FLT_EPSILON / 2)
#include "backend/ops/t_dc_merge.h"
#undef DCM
#undef R
#undef DCM_RF
#undef DCM_EPS

#define DCM(x) x##_d
#define R double
#define DCM_RF(fn) fn
#define DCM_EPS (DBL_EPSILON / 2)
#include "backend/ops/t_dc_merge.h"
#undef DCM
#undef R
#undef DCM_RF
#undef DCM_EPS

#endif
