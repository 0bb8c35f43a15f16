/* Bulge chasing for the eigenvalues only (the backend's hb2st op) on the
 * host: the same tasks, in the same arithmetic, as the CUDA kernel
 * (backend/cuda/k_hb2st.cu), run sweep after sweep. It is the executable
 * reference of the GPU algorithm; the pipelined multi-core chase with
 * reflectors is eig/psb2st.c.
 *
 * Sweep i (0 <= i <= n-2) annihilates B(i+2.., i) and chases the bulge this
 * makes down the band. Step m of sweep i works on the nv = min(kd, n-st)
 * rows st = i+1+m*kd .. (block m):
 *   m = 0   generate H_0 from B(st.., i) (Householder, LAPACK larfg);
 *   m >= 1  X = B(block m, block m-1) (nv x kd, reaching below the band):
 *           X := X H_{m-1} (the right update makes the bulge), generate H_m
 *           from X(:, 0), X(:, 1..) := H_m^H X(:, 1..);
 *   then    B(block m, block m) := H_m^H B H_m  (w = tau B v,
 *           w += alpha v with alpha = -tau (w^H v) / 2, B -= v w^H + w v^H).
 * These are the three task types of LAPACK's sb2st_kernels in the
 * one-column-per-sweep form (Lang; Haidar, Ltaief and Dongarra, SC'11).
 * With ld = ldab - 1, B(r, c) = AB[r + c*ld] for 0 <= r-c < ldab, so every
 * block is a plain column-major matrix of leading dimension ld.
 * With a store (the hb2st_v op), each step's reflector goes into its group
 * as the step ends, and the groups' T are formed after the chase. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("cx-limited-range")
#endif
#include "backend/host/host_hb2st.h"
#include "backend/ops/stage2.h"
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>

#define HYLA_TEMPLATE "backend/host/t_host_hb2st.c"
#include "base/each_prec.h"

void hyla_host_hb2st_run(hyla_dtype t, int64_t n, int64_t kd, void *AB, int64_t ldab, void *d,
                         void *e, void *buf, const hyla_hb2st_store *st) {
    switch (t) {
    case HYLA_S: hb2st_s(n, kd, AB, ldab, d, e, buf, st); break;
    case HYLA_D: hb2st_d(n, kd, AB, ldab, d, e, buf, st); break;
    case HYLA_C: hb2st_c(n, kd, AB, ldab, d, e, buf, st); break;
    case HYLA_Z: hb2st_z(n, kd, AB, ldab, d, e, buf, st); break;
    }
}
