/*
 * netlib HPL's random matrix generator (HPL_pdmatgen), in uint64 arithmetic.
 *
 * HPL keeps the generator state in two ints (16 low and 15 high bits) and
 * multiplies with HPL_lmul, which keeps the product modulo 2^31. Its
 * constants HPL_MULT0 = 1284865837 and HPL_MULT1 = 1481765933 are the two
 * 32-bit halves of Knuth's 64-bit multiplier 6364136223846793005, but HPL_lmul
 * reads them as low and high parts of a 31-bit number, K0 + 2^16 K1 (mod
 * 2^31), so the generator HPL actually runs is
 *     X(k+1) = a X(k) + c  (mod 2^31),  a = (MULT0 + 2^16 MULT1) mod 2^31,
 *     c = IADD0 + 2^16 IADD1 = 1,  X(0) = seed,
 * and HPL_rand returns 0.5 - X / 2^31 for the current state before advancing.
 * HPL_pdmatgen jumps once before the first entry, so the global entry (i, j)
 * of an m-row matrix is the value of X(1 + i + j m) (column-major order).
 * Jumps of k steps compose the affine map x -> a x + c with itself by binary
 * powering: (a2, c2) o (a1, c1) = (a2 a1, a2 c1 + c2).
 */
#include "hpl/hpl.h"

enum { HPL_MULT0 = 1284865837, HPL_MULT1 = 1481765933, HPL_IADD0 = 1, HPL_IADD1 = 0 };

#define MASK31 0x7fffffffULL

typedef struct {
    uint64_t a, c;
} lcg_map; /* x -> a x + c (mod 2^31) */

static lcg_map lcg_step(void) {
    lcg_map m = {((uint64_t)HPL_MULT0 + ((uint64_t)HPL_MULT1 << 16)) & MASK31,
                 ((uint64_t)HPL_IADD0 + ((uint64_t)HPL_IADD1 << 16)) & MASK31};
    return m;
}

/* second after first */
static lcg_map lcg_compose(lcg_map second, lcg_map first) {
    lcg_map r = {(second.a * first.a) & MASK31, (second.a * first.c + second.c) & MASK31};
    return r;
}

/* the map of k steps */
static lcg_map lcg_jump(uint64_t k) {
    lcg_map r = {1, 0}, p = lcg_step();
    for (; k; k >>= 1) {
        if (k & 1) r = lcg_compose(p, r);
        p = lcg_compose(p, p);
    }
    return r;
}

static uint32_t lcg_apply(lcg_map m, uint32_t x) {
    return (uint32_t)((m.a * x + m.c) & MASK31);
}

uint32_t hyla_hpl_lcg_state(uint32_t seed, uint64_t k) {
    return lcg_apply(lcg_jump(k), seed & (uint32_t)MASK31);
}

double hyla_hpl_lcg_value(uint32_t x) { return 0.5 - (double)x / 2147483648.0; }

int64_t hyla_hpl_numroc(int64_t n, int64_t nb, int iproc, int nprocs) {
    int64_t nblocks = n / nb;
    int64_t count = (nblocks / nprocs) * nb;
    int64_t extra = nblocks % nprocs;
    if (iproc < extra) count += nb;
    else if (iproc == extra) count += n % nb;
    return count;
}

void hyla_hpl_matgen(int64_t m, int64_t n, int64_t nb, int myrow, int mycol, int nprow,
                     int npcol, uint32_t seed, int64_t jl0, int64_t ncols, double *A,
                     int64_t lda) {
    int64_t mp = hyla_hpl_numroc(m, nb, myrow, nprow);
    int64_t nq = hyla_hpl_numroc(n, nb, mycol, npcol);
    if (mp <= 0 || ncols <= 0 || jl0 >= nq) return;
    if (jl0 + ncols > nq) ncols = nq - jl0;
    const lcg_map next_block = lcg_jump((uint64_t)nprow * (uint64_t)nb); /* to the next local row block */
    const lcg_map one = lcg_step();
    seed &= (uint32_t)MASK31;
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < ncols; c++) {
        int64_t jl = jl0 + c;
        int64_t gj = ((jl / nb) * npcol + mycol) * nb + jl % nb;
        int64_t gi = (int64_t)myrow * nb; /* global row of the first local row */
        uint32_t start = lcg_apply(lcg_jump(1 + (uint64_t)gi + (uint64_t)gj * (uint64_t)m), seed);
        double *col = A + c * lda;
        for (int64_t il = 0; il < mp; il += nb) {
            int64_t ib = mp - il < nb ? mp - il : nb;
            uint32_t x = start;
            for (int64_t r = 0; r < ib; r++) {
                col[il + r] = hyla_hpl_lcg_value(x);
                x = lcg_apply(one, x);
            }
            start = lcg_apply(next_block, start);
        }
    }
}
