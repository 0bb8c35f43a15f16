/* Bulge chasing (band -> tridiagonal) on the GPU (k_hb2st.cu), callable
 * from C: the backend's hb2st and hb2st_v ops (backend.h). */
#ifndef HYLA_CUDA_K_HB2ST_H
#define HYLA_CUDA_K_HB2ST_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "backend/ops/stage2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest band width min(kd, n-1) the kernel chases (its windows live in
 * shared memory). */
#define HYLA_CUDA_HB2ST_MAX_KD 64

/* The hb2st op (st NULL) or the hb2st_v op (st the store, checked by
 * hyla_hb2st_store_check) on stream s, arguments as backend.h documents
 * them and already checked (hyla_hb2st_check), n >= 1, min(kd, n-1) <=
 * HYLA_CUDA_HB2ST_MAX_KD, n < 2^31. dtype: a hyla_dtype value. step: a
 * HYLA_CHASE_STEP_* value (stage2.h; AUTO: WAIT, the plain order; the
 * library passes the tuning table's choice, core/tuning.c). Returns 0,
 * HYLA_ERR_DEVICE (a launch, memset or attribute call failed) or
 * HYLA_ERR_INVALID. */
int hyla_cuda_hb2st(cudaStream_t s, int dtype, int64_t n, int64_t kd, void *AB, int64_t ldab,
                    void *d, void *e, void *work, const hyla_hb2st_store *st, int step);

/* hyla_cuda_hb2st with the window loads chosen (prefetch 1: a step's next
 * window copied ahead, where sweep i-1 has finished with it; 0: loaded
 * after the step's wait; 2: each step split at its last row, the part that
 * does not read it before the wait for sweep i-1's handoff; other
 * values: HYLA_ERR_INVALID) and, with trace a device array of 8 zeroed
 * counters,
 * the clock cycles that the kernel's steps of the sweeps n/4 .. 3n/4 - 1
 * spent in each phase, summed over those steps: trace[0..5] waiting for
 * the previous sweep, loading the windows, applying the previous reflector
 * (the bulge), forming the reflector and its products, updating and
 * storing the windows, publishing the progress; trace[6] the number of
 * split steps (prefetch 2) of any sweep that fell back to the whole window
 * (the rescaling would not have been exact); trace[7] the number of the
 * traced steps. trace NULL: hyla_cuda_hb2st itself, whose step is
 * prefetch + 1. */
int hyla_cuda_hb2st_probe(cudaStream_t s, int dtype, int64_t n, int64_t kd, void *AB,
                          int64_t ldab, void *d, void *e, void *work,
                          const hyla_hb2st_store *st, int prefetch, long long *trace);

#ifdef __cplusplus
}
#endif
#endif
