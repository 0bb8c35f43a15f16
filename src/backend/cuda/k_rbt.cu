/* Random butterfly transforms on the GPU (definitions in backend.h).
 *
 * A complex matrix is transformed as a real one with twice the rows: the
 * diagonals are real, so both parts of an element go through the same
 * butterfly; E = 1 or 2 real lanes per element. Threads run down the rows
 * (the contiguous direction) W lanes at a time, W * sizeof(R) = 16 bytes
 * where the alignment allows, so a warp moves 512 contiguous bytes per load.
 *
 * Depth 2 from both sides (the solver's default) is one fused pass: with
 * q = m / 4, element (r, j) of the first quarter block and its 15 partners
 * (r + a q, j + b q), a, b in 0..3, are all that level 1 and level 0 mix,
 * so each thread loads those 16 elements once (reading the source with its
 * padding), applies both levels from both sides in registers and stores
 * them: A is read once and written once (2 m^2 elements moved, 8 flops per
 * element per level pair). Depth 2 from the left (U^T on right-hand sides,
 * U on solutions) is one pass too, over row quadruples (left2_kernel). Other
 * depths and the right-side mode run one in-place pass per level after a
 * copy-and-pad pass when the source is another array. The diagonals
 * themselves are made here too (diag_kernel), from the formula the host
 * uses (backend/ops/rbt_diag.h), so they never cross the bus. */
#include <complex>
#include <cstdint>
#include <cuda_runtime.h>

/* hyla.h's documented way to include it from C++ */
#define hyla_complex_float std::complex<float>
#define hyla_complex_double std::complex<double>
#include "hyla.h"

#include "backend/cuda/k_rbt.h"
#include "backend/ops/rbt_diag.h"

namespace {

const int BLOCK_X = 64; /* threads along rows */
const int BLOCK_Y = 4;  /* threads along columns */
const int64_t GRID_X_MAX = 512;
const int64_t GRID_Y_MAX = 4096;
const int64_t ASUM_CHUNK = 256; /* columns per thread in row_asum */

template <typename R, int W> struct vec;
template <> struct vec<float, 1> { typedef float type; };
template <> struct vec<float, 2> { typedef float2 type; };
template <> struct vec<float, 4> { typedef float4 type; };
template <> struct vec<double, 1> { typedef double type; };
template <> struct vec<double, 2> { typedef double2 type; };

template <typename R, int W> __device__ __forceinline__ void vload(const R *p, R (&x)[W]) {
    const typename vec<R, W>::type v = *reinterpret_cast<const typename vec<R, W>::type *>(p);
    const R *e = reinterpret_cast<const R *>(&v);
#pragma unroll
    for (int k = 0; k < W; k++) x[k] = e[k];
}

template <typename R, int W> __device__ __forceinline__ void vstore(R *p, const R (&x)[W]) {
    typename vec<R, W>::type v;
    R *e = reinterpret_cast<R *>(&v);
#pragma unroll
    for (int k = 0; k < W; k++) e[k] = x[k];
    *reinterpret_cast<typename vec<R, W>::type *>(p) = v;
}

/* The source P: S (mr real rows, ns columns, ld in real lanes) padded with
 * zeros, or with the identity (ident) outside S. */
template <typename R> struct src_t {
    const R *S;
    int64_t ld, mr, ns;
    int e;
    bool ident;
};

template <typename R, int W>
__device__ __forceinline__ void load_src(const src_t<R> &s, int64_t r, int64_t c, R (&x)[W]) {
    if (c < s.ns && r + W <= s.mr) {
        vload<R, W>(s.S + r + c * s.ld, x);
        return;
    }
#pragma unroll
    for (int k = 0; k < W; k++) {
        const int64_t rr = r + k;
        if (c < s.ns && rr < s.mr) x[k] = s.S[rr + c * s.ld];
        else x[k] = (s.ident && rr % s.e == 0 && rr / s.e == c) ? R(1) : R(0);
    }
}

/* x0' = c0 (x0 + x1), x1' = c1 (x0 - x1): one butterfly B^T (or, along
 * a row, the product with B from the right). */
template <typename R> __device__ __forceinline__ void bt(R &x0, R &x1, R c0, R c1) {
    const R s = x0 + x1, d = x0 - x1;
    x0 = c0 * s;
    x1 = c1 * d;
}

/* Levels 0 (u0) and 1 (u1) of the diagonals u of order m for the W real
 * lanes from lane r of each row quarter: rows br * m / 4 + (r + k) / e. */
template <typename R, int W>
__device__ __forceinline__ void quarter_diagonals(const R *u, int64_t m, int e, int64_t r,
                                                  R (&u0)[4][W], R (&u1)[4][W]) {
    const int64_t q = m / 4;
#pragma unroll
    for (int br = 0; br < 4; br++)
#pragma unroll
        for (int k = 0; k < W; k++) {
            const int64_t i = br * q + (r + k) / e;
            u0[br][k] = u[i];
            u1[br][k] = u[m + i];
        }
}

/* Depth 2 from both sides in one pass (see the top of the file). u, v hold
 * level 0 in [0, m) and level 1 in [m, 2m). */
template <typename R, int W>
__global__ void both2_kernel(int64_t m, int e, const R *u, const R *v, src_t<R> src, R *A,
                             int64_t ld) {
    const int64_t q = m / 4, qr = q * e, ngroups = qr / W;
    const int64_t gstep = (int64_t)gridDim.x * blockDim.x;
    const int64_t jstep = (int64_t)gridDim.y * blockDim.y;
    for (int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; j < q; j += jstep) {
        R v0[4], v1[4];
#pragma unroll
        for (int c = 0; c < 4; c++) {
            v0[c] = v[c * q + j];
            v1[c] = v[m + c * q + j];
        }
        for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < ngroups; g += gstep) {
            const int64_t r = g * W;
            R a[4][4][W];
#pragma unroll
            for (int br = 0; br < 4; br++)
#pragma unroll
                for (int c = 0; c < 4; c++) load_src<R, W>(src, br * qr + r, c * q + j, a[br][c]);
            R u0[4][W], u1[4][W];
            quarter_diagonals<R, W>(u, m, e, r, u0, u1);
            /* level 1: row and column pairs (0,1), (2,3) */
#pragma unroll
            for (int p = 0; p < 4; p += 2)
#pragma unroll
                for (int c = 0; c < 4; c++)
#pragma unroll
                    for (int k = 0; k < W; k++) bt(a[p][c][k], a[p + 1][c][k], u1[p][k], u1[p + 1][k]);
#pragma unroll
            for (int br = 0; br < 4; br++)
#pragma unroll
                for (int p = 0; p < 4; p += 2)
#pragma unroll
                    for (int k = 0; k < W; k++) bt(a[br][p][k], a[br][p + 1][k], v1[p], v1[p + 1]);
            /* level 0: pairs (0,2), (1,3) */
#pragma unroll
            for (int p = 0; p < 2; p++)
#pragma unroll
                for (int c = 0; c < 4; c++)
#pragma unroll
                    for (int k = 0; k < W; k++) bt(a[p][c][k], a[p + 2][c][k], u0[p][k], u0[p + 2][k]);
#pragma unroll
            for (int br = 0; br < 4; br++)
#pragma unroll
                for (int p = 0; p < 2; p++)
#pragma unroll
                    for (int k = 0; k < W; k++) {
                        bt(a[br][p][k], a[br][p + 2][k], v0[p], v0[p + 2]);
                        a[br][p][k] *= R(0.25);    /* four factors 1/sqrt(2) */
                        a[br][p + 2][k] *= R(0.25);
                    }
#pragma unroll
            for (int br = 0; br < 4; br++)
#pragma unroll
                for (int c = 0; c < 4; c++) vstore<R, W>(A + br * qr + r + (c * q + j) * ld, a[br][c]);
        }
    }
}

/* x0' = c0 x0 + c1 x1, x1' = c0 x0 - c1 x1: one butterfly B (without its
 * scale), for U from the left. */
template <typename R> __device__ __forceinline__ void bn(R &x0, R &x1, R c0, R c1) {
    const R a = c0 * x0, b = c1 * x1;
    x0 = a + b;
    x1 = a - b;
}

/* Depth 2 from the left in one pass: with q = m / 4, rows (r + a q), a in
 * 0..3, of one column are all that the two levels mix, so each thread loads
 * those four W-lane groups once (from the source with its zero padding, or
 * in place), applies both levels in registers and stores them. TFORM (U^T,
 * mode LEFT_T): level 1 on the quarter pairs (0,1), (2,3), then level 0 on
 * (0,2), (1,3), in the B^T form; else (U, mode LEFT) level 0 then level 1 in
 * the B form. The two factors 1/sqrt(2) are applied together at the end. */
template <typename R, int W, bool TFORM>
__global__ void left2_kernel(int64_t m, int64_t n, int e, const R *u, src_t<R> src, R *A,
                             int64_t ld) {
    const int64_t q = m / 4, qr = q * e, ngroups = qr / W;
    const int64_t gstep = (int64_t)gridDim.x * blockDim.x;
    const int64_t jstep = (int64_t)gridDim.y * blockDim.y;
    for (int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; j < n; j += jstep)
        for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g < ngroups; g += gstep) {
            const int64_t r = g * W;
            R a[4][W], u0[4][W], u1[4][W];
#pragma unroll
            for (int br = 0; br < 4; br++) load_src<R, W>(src, br * qr + r, j, a[br]);
            quarter_diagonals<R, W>(u, m, e, r, u0, u1);
#pragma unroll
            for (int k = 0; k < W; k++) {
                if (TFORM) {
                    bt(a[0][k], a[1][k], u1[0][k], u1[1][k]);
                    bt(a[2][k], a[3][k], u1[2][k], u1[3][k]);
                    bt(a[0][k], a[2][k], u0[0][k], u0[2][k]);
                    bt(a[1][k], a[3][k], u0[1][k], u0[3][k]);
                } else {
                    bn(a[0][k], a[2][k], u0[0][k], u0[2][k]);
                    bn(a[1][k], a[3][k], u0[1][k], u0[3][k]);
                    bn(a[0][k], a[1][k], u1[0][k], u1[1][k]);
                    bn(a[2][k], a[3][k], u1[2][k], u1[3][k]);
                }
#pragma unroll
                for (int br = 0; br < 4; br++) a[br][k] *= R(0.5);
            }
#pragma unroll
            for (int br = 0; br < 4; br++) vstore<R, W>(A + br * qr + r + j * ld, a[br]);
        }
}

/* w[k] := diagonal offset + k (backend/ops/rbt_diag.h), rounded to R. */
template <typename R>
__global__ void diag_kernel(uint64_t seed, uint64_t offset, int64_t count, R *w) {
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < count; k += step)
        w[k] = static_cast<R>(hyla_rbt_diag_value(seed, offset + (uint64_t)k));
}

/* A := P, W real lanes at a time. */
template <typename R, int W>
__global__ void pad_kernel(int64_t mr, int64_t n, src_t<R> src, R *A, int64_t ld) {
    const int64_t gstep = (int64_t)gridDim.x * blockDim.x;
    const int64_t jstep = (int64_t)gridDim.y * blockDim.y;
    for (int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; j < n; j += jstep)
        for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g * W < mr; g += gstep) {
            R x[W];
            load_src<R, W>(src, g * W, j, x);
            vstore<R, W>(A + g * W + j * ld, x);
        }
}

enum { M_BOTH = 0, M_LEFT_T = 1, M_LEFT = 2, M_RIGHT = 3 };

/* One level in place. Rows: pairs (r0, r0 + hr) of the level's blocks of
 * 2 hr elements (left modes), or every row (right); columns likewise with
 * hc. wu, wv: the level's diagonals; s the scale of the level. */
template <typename R, int W, int MODE>
__global__ void level_kernel(int64_t m, int64_t n, int e, int64_t hr, int64_t hc, const R *wu,
                             const R *wv, R *A, int64_t ld, R s) {
    const bool left = MODE != M_RIGHT, right = MODE == M_BOTH || MODE == M_RIGHT;
    const int64_t hrr = hr * e;
    const int64_t rows = left ? m * e / 2 : m * e, cols = right ? n / 2 : n;
    const int64_t gstep = (int64_t)gridDim.x * blockDim.x;
    const int64_t jstep = (int64_t)gridDim.y * blockDim.y;
    for (int64_t jj = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; jj < cols; jj += jstep) {
        int64_t c0 = jj, c1 = jj;
        R cv0 = R(1), cv1 = R(1);
        if (right) {
            c0 = (jj / hc) * 2 * hc + jj % hc;
            c1 = c0 + hc;
            cv0 = wv[c0];
            cv1 = wv[c1];
        }
        for (int64_t g = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; g * W < rows; g += gstep) {
            const int64_t ih = g * W;
            int64_t r0 = ih, r1 = ih;
            if (left) {
                r0 = (ih / hrr) * 2 * hrr + ih % hrr;
                r1 = r0 + hrr;
            }
            R x00[W], x10[W], x01[W], x11[W]; /* x<row><col> */
            vload<R, W>(A + r0 + c0 * ld, x00);
            if (left) vload<R, W>(A + r1 + c0 * ld, x10);
            if (right) vload<R, W>(A + r0 + c1 * ld, x01);
            if (left && right) vload<R, W>(A + r1 + c1 * ld, x11);
#pragma unroll
            for (int k = 0; k < W; k++) {
                if (left) {
                    const R cu0 = wu[(r0 + k) / e], cu1 = wu[(r1 + k) / e];
                    if (MODE == M_LEFT) {
                        const R a = cu0 * x00[k], b = cu1 * x10[k];
                        x00[k] = a + b;
                        x10[k] = a - b;
                    } else {
                        bt(x00[k], x10[k], cu0, cu1);
                        if (right) bt(x01[k], x11[k], cu0, cu1);
                    }
                }
                if (right) {
                    bt(x00[k], x01[k], cv0, cv1);
                    if (left) bt(x10[k], x11[k], cv0, cv1);
                }
                x00[k] *= s;
                if (left) x10[k] *= s;
                if (right) x01[k] *= s;
                if (left && right) x11[k] *= s;
            }
            vstore<R, W>(A + r0 + c0 * ld, x00);
            if (left) vstore<R, W>(A + r1 + c0 * ld, x10);
            if (right) vstore<R, W>(A + r0 + c1 * ld, x01);
            if (left && right) vstore<R, W>(A + r1 + c1 * ld, x11);
        }
    }
}

template <typename R> __device__ __forceinline__ R hyp(R a, R b);
template <> __device__ __forceinline__ float hyp(float a, float b) { return hypotf(a, b); }
template <> __device__ __forceinline__ double hyp(double a, double b) { return hypot(a, b); }

/* Row sums of |A|: each thread sums one row over ASUM_CHUNK columns and
 * adds its partial sum atomically. */
template <typename R, int E>
__global__ void row_asum_kernel(int64_t m, int64_t n, const R *A, int64_t ld, R *sums) {
    const int64_t istep = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += istep)
        for (int64_t c = blockIdx.y; c * ASUM_CHUNK < n; c += gridDim.y) {
            const int64_t j1 = (c + 1) * ASUM_CHUNK < n ? (c + 1) * ASUM_CHUNK : n;
            R acc = R(0);
            for (int64_t j = c * ASUM_CHUNK; j < j1; j++) {
                if (E == 1) {
                    acc += fabs(A[i + j * ld]);
                } else {
                    R x[2];
                    vload<R, 2>(A + 2 * i + j * ld, x);
                    acc += hyp(x[0], x[1]);
                }
            }
            atomicAdd(&sums[i], acc);
        }
}

dim3 grid_for(int64_t x, int64_t y, int64_t bx, int64_t by) {
    int64_t gx = (x + bx - 1) / bx, gy = (y + by - 1) / by;
    if (gx > GRID_X_MAX) gx = GRID_X_MAX;
    if (gy > GRID_Y_MAX) gy = GRID_Y_MAX;
    if (gx < 1) gx = 1;
    if (gy < 1) gy = 1;
    return dim3((unsigned)gx, (unsigned)gy, 1);
}

int launch_status() { return cudaGetLastError() == cudaSuccess ? 0 : HYLA_ERR_DEVICE; }

bool aligned(const void *p) { return ((uintptr_t)p & 15) == 0; }

template <typename R, int W, int MODE>
void launch_level(cudaStream_t st, int64_t m, int64_t n, int e, int64_t hr, int64_t hc,
                  const R *wu, const R *wv, R *A, int64_t ld, R s) {
    const int64_t rows = MODE != M_RIGHT ? m * e / 2 : m * e;
    const int64_t cols = (MODE == M_BOTH || MODE == M_RIGHT) ? n / 2 : n;
    level_kernel<R, W, MODE><<<grid_for(rows / W, cols, BLOCK_X, BLOCK_Y), dim3(BLOCK_X, BLOCK_Y, 1), 0,
                               st>>>(m, n, e, hr, hc, wu, wv, A, ld, s);
}

/* One level: the vector width needs every W-lane group inside one
 * half-block (left) and aligned columns. */
template <typename R, int MODE>
void level(cudaStream_t st, int64_t m, int64_t n, int e, int l, const R *u, const R *v, R *A,
           int64_t ld, R s) {
    const int W = 16 / sizeof(R);
    const int64_t hr = (m >> l) / 2, hc = (n >> l) / 2;
    const R *wu = u ? u + (int64_t)l * m : nullptr, *wv = v ? v + (int64_t)l * n : nullptr;
    const bool vec_ok = aligned(A) && ld % W == 0 && (m * e) % W == 0 &&
                        (MODE == M_RIGHT || (hr * e) % W == 0);
    if (vec_ok) launch_level<R, W, MODE>(st, m, n, e, hr, hc, wu, wv, A, ld, s);
    else launch_level<R, 1, MODE>(st, m, n, e, hr, hc, wu, wv, A, ld, s);
}

template <typename R>
int rbt_typed(cudaStream_t st, int e, int mode, int depth, int64_t m, int64_t n, const R *u,
              const R *v, const R *S, int64_t lds, int64_t ms, int64_t ns, R *A, int64_t lda) {
    const int W = 16 / sizeof(R);
    const int64_t ld = lda * e;
    const bool inplace = S == A;
    const src_t<R> src = {S, lds * e, ms * e, ns, e, mode == M_BOTH};
    const bool src_vec = inplace || ms == 0 || ns == 0 || (aligned(S) && (lds * e) % W == 0);
    (void)cudaGetLastError();
    if (mode == M_BOTH && depth == 2) {
        const int64_t qr = m / 4 * e;
        const dim3 grid = grid_for(qr / W, m / 4, BLOCK_X, BLOCK_Y);
        if (src_vec && aligned(A) && ld % W == 0 && qr % W == 0)
            both2_kernel<R, W><<<grid, dim3(BLOCK_X, BLOCK_Y, 1), 0, st>>>(m, e, u, v, src, A, ld);
        else
            both2_kernel<R, 1><<<grid_for(qr, m / 4, BLOCK_X, BLOCK_Y), dim3(BLOCK_X, BLOCK_Y, 1), 0,
                                 st>>>(m, e, u, v, src, A, ld);
        return launch_status();
    }
    if ((mode == M_LEFT_T || mode == M_LEFT) && depth == 2) {
        const int64_t qr = m / 4 * e;
        const bool vec = src_vec && aligned(A) && ld % W == 0 && qr % W == 0;
        const dim3 grid = grid_for(vec ? qr / W : qr, n, BLOCK_X, BLOCK_Y);
        const dim3 block(BLOCK_X, BLOCK_Y, 1);
        if (mode == M_LEFT_T && vec)
            left2_kernel<R, W, true><<<grid, block, 0, st>>>(m, n, e, u, src, A, ld);
        else if (mode == M_LEFT_T)
            left2_kernel<R, 1, true><<<grid, block, 0, st>>>(m, n, e, u, src, A, ld);
        else if (vec)
            left2_kernel<R, W, false><<<grid, block, 0, st>>>(m, n, e, u, src, A, ld);
        else
            left2_kernel<R, 1, false><<<grid, block, 0, st>>>(m, n, e, u, src, A, ld);
        return launch_status();
    }
    if (!inplace) {
        if (src_vec && aligned(A) && ld % W == 0 && (m * e) % W == 0)
            pad_kernel<R, W><<<grid_for(m * e / W, n, BLOCK_X, BLOCK_Y), dim3(BLOCK_X, BLOCK_Y, 1),
                               0, st>>>(m * e, n, src, A, ld);
        else
            pad_kernel<R, 1><<<grid_for(m * e, n, BLOCK_X, BLOCK_Y), dim3(BLOCK_X, BLOCK_Y, 1), 0,
                               st>>>(m * e, n, src, A, ld);
    }
    const R s1 = R(0.70710678118654752440), s2 = R(0.5);
    if (mode == M_LEFT) {
        for (int l = 0; l < depth; l++) level<R, M_LEFT>(st, m, n, e, l, u, v, A, ld, s1);
    } else {
        for (int l = depth - 1; l >= 0; l--) {
            if (mode == M_BOTH) level<R, M_BOTH>(st, m, n, e, l, u, v, A, ld, s2);
            else if (mode == M_LEFT_T) level<R, M_LEFT_T>(st, m, n, e, l, u, v, A, ld, s1);
            else level<R, M_RIGHT>(st, m, n, e, l, u, v, A, ld, s1);
        }
    }
    return launch_status();
}

template <typename R, int E>
int row_asum_typed(cudaStream_t st, int64_t m, int64_t n, const R *A, int64_t lda, R *sums) {
    if (cudaMemsetAsync(sums, 0, (size_t)m * sizeof(R), st) != cudaSuccess) {
        (void)cudaGetLastError();
        return HYLA_ERR_DEVICE;
    }
    if (n == 0) return 0;
    (void)cudaGetLastError();
    int64_t gx = (m + 127) / 128, gy = (n + ASUM_CHUNK - 1) / ASUM_CHUNK;
    if (gx > 65535) gx = 65535;
    if (gy > 65535) gy = 65535;
    row_asum_kernel<R, E><<<dim3((unsigned)gx, (unsigned)gy, 1), dim3(128, 1, 1), 0, st>>>(
        m, n, A, lda * E, sums);
    return launch_status();
}

template <typename R>
int diagonals_typed(cudaStream_t st, uint64_t seed, uint64_t offset, int64_t count, R *w) {
    (void)cudaGetLastError();
    int64_t blocks = (count + 255) / 256;
    if (blocks > 1024) blocks = 1024;
    diag_kernel<R><<<(unsigned)blocks, 256, 0, st>>>(seed, offset, count, w);
    return launch_status();
}

} // namespace

extern "C" int hyla_cuda_rbt(cudaStream_t s, int dtype, int mode, int depth, int64_t m,
                             int64_t n, const void *u, const void *v, const void *S, int64_t lds,
                             int64_t ms, int64_t ns, void *A, int64_t lda) {
    if (m <= 0 || n <= 0) return 0;
    if (mode < M_BOTH || mode > M_RIGHT || depth < 1) return HYLA_ERR_INVALID;
    switch (dtype) {
    case HYLA_S:
    case HYLA_C:
        return rbt_typed<float>(s, dtype == HYLA_C ? 2 : 1, mode, depth, m, n,
                                static_cast<const float *>(u), static_cast<const float *>(v),
                                static_cast<const float *>(S), lds, ms, ns,
                                static_cast<float *>(A), lda);
    case HYLA_D:
    case HYLA_Z:
        return rbt_typed<double>(s, dtype == HYLA_Z ? 2 : 1, mode, depth, m, n,
                                 static_cast<const double *>(u), static_cast<const double *>(v),
                                 static_cast<const double *>(S), lds, ms, ns,
                                 static_cast<double *>(A), lda);
    default:
        return HYLA_ERR_INVALID;
    }
}

extern "C" int hyla_cuda_row_asum(cudaStream_t s, int dtype, int64_t m, int64_t n,
                                  const void *A, int64_t lda, void *sums) {
    if (m <= 0) return 0;
    switch (dtype) {
    case HYLA_S:
        return row_asum_typed<float, 1>(s, m, n, static_cast<const float *>(A), lda,
                                        static_cast<float *>(sums));
    case HYLA_D:
        return row_asum_typed<double, 1>(s, m, n, static_cast<const double *>(A), lda,
                                         static_cast<double *>(sums));
    case HYLA_C:
        return row_asum_typed<float, 2>(s, m, n, static_cast<const float *>(A), lda,
                                        static_cast<float *>(sums));
    case HYLA_Z:
        return row_asum_typed<double, 2>(s, m, n, static_cast<const double *>(A), lda,
                                         static_cast<double *>(sums));
    default:
        return HYLA_ERR_INVALID;
    }
}

extern "C" int hyla_cuda_rbt_diagonals(cudaStream_t s, int dtype, uint64_t seed,
                                       uint64_t offset, int64_t count, void *w) {
    if (count <= 0) return 0;
    switch (dtype) {
    case HYLA_S:
    case HYLA_C:
        return diagonals_typed<float>(s, seed, offset, count, static_cast<float *>(w));
    case HYLA_D:
    case HYLA_Z:
        return diagonals_typed<double>(s, seed, offset, count, static_cast<double *>(w));
    default:
        return HYLA_ERR_INVALID;
    }
}
