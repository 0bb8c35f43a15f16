/* Random butterfly transforms on the host (see backend.h for the
 * definitions). A complex matrix is transformed as a real one with twice the
 * rows: the diagonals are real, so the real and imaginary parts of an
 * element go through the same butterfly. Values are read and written through
 * double, which is exact for float data up to the final rounding. */
#include "backend/host/host_rbt.h"
#include <math.h>
#include <string.h>

typedef struct {
    int single;           /* float lanes (s, c), else double */
    int e;                /* real lanes per element: 1 real, 2 complex */
    unsigned char *a;     /* destination, real lanes */
    int64_t ld;           /* leading dimension in real lanes */
} lanes;

static double get(const lanes *L, int64_t r, int64_t c) {
    size_t k = (size_t)(r + c * L->ld);
    return L->single ? ((const float *)L->a)[k] : ((const double *)L->a)[k];
}

static void put(const lanes *L, int64_t r, int64_t c, double x) {
    size_t k = (size_t)(r + c * L->ld);
    if (L->single) ((float *)L->a)[k] = (float)x;
    else ((double *)L->a)[k] = x;
}

static double coef(int single, const void *w, int64_t i) {
    return single ? ((const float *)w)[i] : ((const double *)w)[i];
}

/* A := P (S padded as the mode says), column by column. */
static void copy_pad(hyla_dtype t, const hyla_rbt_args *a) {
    const size_t es = hyla_dtype_size(t);
    const unsigned char *S = a->S;
    unsigned char *A = a->A;
    const int single = t == HYLA_S || t == HYLA_C;
    for (int64_t j = 0; j < a->n; j++) {
        unsigned char *col = A + (size_t)j * (size_t)a->lda * es;
        int64_t i0 = 0;
        if (j < a->ns && a->ms > 0) {
            memcpy(col, S + (size_t)j * (size_t)a->lds * es, (size_t)a->ms * es);
            i0 = a->ms;
        }
        memset(col + (size_t)i0 * es, 0, (size_t)(a->m - i0) * es);
        if (a->mode == HYLA_RBT_BOTH && j >= a->ns) { /* identity block, real part 1 */
            if (single) *(float *)(col + (size_t)j * es) = 1.0f;
            else *(double *)(col + (size_t)j * es) = 1.0;
        }
    }
}

/* One level from the left on rows (order p of the whole butterfly, blocks of
 * pl rows): T-form x0' = c0 (x0 + x1), x1' = c1 (x0 - x1) (B^T), else
 * N-form x0' = c0 x0 + c1 x1, x1' = c0 x0 - c1 x1 (B); both times s. */
static void level_left(const lanes *L, int64_t ncols, int64_t p, int64_t pl, const void *w,
                       int tform, double s) {
    const int64_t h = pl / 2;
    for (int64_t j = 0; j < ncols; j++)
        for (int64_t b = 0; b < p; b += pl)
            for (int64_t k = 0; k < h; k++) {
                const int64_t i0 = b + k, i1 = i0 + h;
                const double c0 = coef(L->single, w, i0), c1 = coef(L->single, w, i1);
                for (int e = 0; e < L->e; e++) {
                    const double x0 = get(L, i0 * L->e + e, j), x1 = get(L, i1 * L->e + e, j);
                    if (tform) {
                        put(L, i0 * L->e + e, j, c0 * (x0 + x1) * s);
                        put(L, i1 * L->e + e, j, c1 * (x0 - x1) * s);
                    } else {
                        put(L, i0 * L->e + e, j, (c0 * x0 + c1 * x1) * s);
                        put(L, i1 * L->e + e, j, (c0 * x0 - c1 * x1) * s);
                    }
                }
            }
}

/* One level from the right on columns (A B: the T-form along rows). */
static void level_right(const lanes *L, int64_t nrows, int64_t p, int64_t pl, const void *w,
                        double s) {
    const int64_t h = pl / 2;
    for (int64_t b = 0; b < p; b += pl)
        for (int64_t k = 0; k < h; k++) {
            const int64_t j0 = b + k, j1 = j0 + h;
            const double c0 = coef(L->single, w, j0), c1 = coef(L->single, w, j1);
            for (int64_t r = 0; r < nrows * L->e; r++) {
                const double y0 = get(L, r, j0), y1 = get(L, r, j1);
                put(L, r, j0, c0 * (y0 + y1) * s);
                put(L, r, j1, c1 * (y0 - y1) * s);
            }
        }
}

void hyla_host_rbt_run(hyla_dtype t, const hyla_rbt_args *a) {
    if (a->m == 0 || a->n == 0) return;
    if (a->S != a->A) copy_pad(t, a);
    const int single = t == HYLA_S || t == HYLA_C;
    const size_t rs = single ? sizeof(float) : sizeof(double);
    const int e = (t == HYLA_C || t == HYLA_Z) ? 2 : 1;
    const lanes L = {single, e, a->A, a->lda * e};
    const double s = sqrt(0.5);
    const int d = a->depth;
    const unsigned char *u = a->u, *v = a->v;
    if (a->mode == HYLA_RBT_LEFT) { /* U = L_{d-1} .. L_0: level 0 first */
        for (int l = 0; l < d; l++)
            level_left(&L, a->n, a->m, a->m >> l, u + (size_t)l * (size_t)a->m * rs, 0, s);
        return;
    }
    for (int l = d - 1; l >= 0; l--) { /* U^T and V: level d-1 first */
        if (a->mode != HYLA_RBT_RIGHT)
            level_left(&L, a->n, a->m, a->m >> l, u + (size_t)l * (size_t)a->m * rs, 1, s);
        if (a->mode != HYLA_RBT_LEFT_T)
            level_right(&L, a->m, a->n, a->n >> l, v + (size_t)l * (size_t)a->n * rs, s);
    }
}

void hyla_host_row_asum_run(hyla_dtype t, int64_t m, int64_t n, const void *A, int64_t lda,
                            void *sums) {
    for (int64_t i = 0; i < m; i++) {
        double acc = 0;
        for (int64_t j = 0; j < n; j++) {
            const size_t k = (size_t)(i + j * lda);
            switch (t) {
            case HYLA_S: acc += fabs(((const float *)A)[k]); break;
            case HYLA_D: acc += fabs(((const double *)A)[k]); break;
            case HYLA_C: acc += hypot(((const float *)A)[2 * k], ((const float *)A)[2 * k + 1]); break;
            case HYLA_Z: acc += hypot(((const double *)A)[2 * k], ((const double *)A)[2 * k + 1]); break;
            }
        }
        if (t == HYLA_S || t == HYLA_C) ((float *)sums)[i] = (float)acc;
        else ((double *)sums)[i] = acc;
    }
}
