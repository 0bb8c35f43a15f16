/* The random diagonals of the RBT solver, one formula for the host and the
 * GPU (included by rbt_check.c and backend/cuda/k_rbt.cu):
 *   w_k = exp(r_k / 10),  r_k uniform in [-1/2, 1/2)
 * from a counter-based generator (splitmix64 of seed + (k + 1) * golden), so
 * any index range is reproducible on its own and both backends give the
 * same bits: exp is a fixed Horner polynomial (to x^9/9!, whose remainder is
 * below 1e-19 for |x| <= 1/20) with every multiply and add rounded on its
 * own (no fused multiply-add on the GPU; the host C11 build does not
 * contract). */
#ifndef HYLA_RBT_DIAG_H
#define HYLA_RBT_DIAG_H
#include <stdint.h>

#if defined(__CUDACC__)
#define HYLA_RBT_HD __host__ __device__
#else
#define HYLA_RBT_HD
#endif

static inline HYLA_RBT_HD double hyla_rbt_mul(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

static inline HYLA_RBT_HD double hyla_rbt_add(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

/* Diagonal value of index k (the real type's value is this, rounded). */
static inline HYLA_RBT_HD double hyla_rbt_diag_value(uint64_t seed, uint64_t k) {
    uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    /* (z >> 11) 2^-53 - 1/2 and the division by 10 are exact-rounded alike */
    const double r = (double)(z >> 11) * (1.0 / 9007199254740992.0) - 0.5;
    const double x = r / 10.0;
    /* 1/9!, 1/8!, .., 1/2!, 1/1!, 1/0! */
    const double c[10] = {1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120,
                          1.0 / 24,     1.0 / 6,     0.5,        1.0,        1.0};
    double s = c[0];
    for (int i = 1; i < 10; i++) s = hyla_rbt_add(hyla_rbt_mul(s, x), c[i]);
    return s;
}

#endif
