/* hyla sygvd / hegvd: the generalized eigenproblem (hyla_?sygvd / ?hegvd;
 * with --range I:il:iu or V:vl:vu a part of its spectrum, hyla_?sygvdx /
 * ?hegvdx, the rows named sygvdx / hegvdx),
 * and hyla syevdx / heevdx, a part of the spectrum (hyla_?syevdx / ?heevdx,
 * --vs vendor LAPACKE ?syevr on host devices, cusolverDnXsyevdx on a GPU;
 * below the generalized one, sharing its generator and check helpers).
 *
 * sygvd / hegvd
 * on generated matrices: A Hermitian indefinite, B Hermitian positive
 * definite (diagonally dominant), --itype 1, 2, 3. --check: jobz V, the
 * residual |op - X W|_F / (n |A|_F |B|_F |X|_F eps) (itype 1 A X - B X W,
 * 2 A B X - X W, 3 B A X - X W) and the normalization |X^H M X - I|_F /
 * (n |M|_F |X|_F^2 eps) (M = B, itype 3 B^-1), the larger reported; jobz
 * N, the eigenvalues against LAPACKE's ?sygvd, max |w - w_ref| / (n
 * max|w_ref| eps), a part against the same indices of LAPACKE's and its size.
 * --vs vendor: on host devices LAPACKE ?sygvd / ?hegvd (with a range
 * ?sygvx / ?hegvx; OpenBLAS) on copies of the same host matrices; where
 * device 0 is a GPU, cuSOLVER's ?sygvd / ?sygvdx on it (vendor_gv_gpu). */
#include <cblas.h>
#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "cmd.h"
#include "matgen.h"
#include "matgen_eig.h"
#include "runloop.h"
#include "vendor.h"

static const double THRESHOLD = 60;

typedef struct {
    const cli_opts *o;
    const report *r;
    hyla_dtype t;
    int itype;
    char jobz, uplo;
    int64_t n, m; /* m: the eigenvalues found (n without a range) */
    void *A0, *B0, *A, *B, *w, *Z; /* Z: with a range, the m eigenvectors (n x n room) */
    hyla_eig_stats stats;          /* the last call's steps (--timers) */
    bool timers;
} gv_run;

static hyla_dtype real_of(hyla_dtype t) { return t == HYLA_C ? HYLA_S : t == HYLA_Z ? HYLA_D : t; }
static const char *name_of(hyla_dtype t) { return dtype_is_complex(t) ? "hegvd" : "sygvd"; }
static const char *gvx_name(hyla_dtype t) { return dtype_is_complex(t) ? "hegvdx" : "sygvdx"; }
/* the routine a run calls: the whole spectrum, or a part with a range */
static const char *run_name(const gv_run *c) {
    return c->o->range == 'A' ? name_of(c->t) : gvx_name(c->t);
}

/* A row's common tail, after the routine's own leading fields: JSON time,
 * vendor, ratio, error, info, status (and the closing brace); text time,
 * vendor and ratio (--vs), error (--check), info, status. */
static void print_tail(const report *r, const report_row *w, int64_t n) {
    char b[4][32];
#define NUM(i, fmt, v) (isnan(v) ? "-" : (snprintf(b[i], 32, fmt, v), b[i]))
    const double ratio = report_ratio(w->vendor_time_s, w->time_s, (double)n);
    if (r->json) {
        report_json_number("time_s", w->time_s);
        if (w->vendor) printf(",\"vendor\":\"%s\"", w->vendor);
        report_json_number("vendor_time_s", w->vendor_time_s);
        report_json_number("ratio", ratio);
        report_json_number("error", w->has_error ? w->error : NAN);
        printf(",\"info\":%d,\"status\":\"%s\"}\n", w->info, w->status);
        return;
    }
    printf(" %11s", NUM(0, "%.6f", w->time_s));
    if (r->vs) printf(" %11s %7s", NUM(1, "%.6f", w->vendor_time_s), NUM(2, "%.2f", ratio));
    if (r->check) printf(" %9s", w->has_error ? NUM(3, "%.2e", w->error) : "-");
    printf(" %6d  %s\n", w->info, w->status);
#undef NUM
}

/* The median of `repeat` timed runs of fn (after `warmup` untimed), each
 * after restore; NaN when a run fails (reported by fn: nonzero). */
static double time_runs(int warmup, int repeat, void (*restore)(void *), int (*fn)(void *),
                        void *arg) {
    double *ts = malloc(sizeof *ts * (size_t)repeat), med = NAN;
    for (int k = 0; ts && k < warmup + repeat; k++) {
        restore(arg);
        const double t0 = cli_now();
        const int bad = fn(arg);
        const double s = cli_now() - t0;
        if (bad) goto out;
        if (k >= warmup) ts[k - warmup] = s;
    }
    if (ts) med = cli_median(ts, repeat);
out:
    free(ts);
    return med;
}

/* A random Hermitian indefinite n x n matrix (both triangles): the
 * generator's positive definite one with n taken off its diagonal. */
static void fill_indefinite(hyla_dtype t, int64_t n, void *A, uint64_t seed) {
    mat_fill_hpd(t, n, A, n > 0 ? n : 1, seed, 1);
    for (int64_t i = 0; i < n; i++) {
        if (t == HYLA_S) ((float *)A)[i + i * n] -= (float)n;
        else if (t == HYLA_D) ((double *)A)[i + i * n] -= (double)n;
        else if (t == HYLA_C) ((float *)A)[2 * (i + i * n)] -= (float)n;
        else ((double *)A)[2 * (i + i * n)] -= (double)n;
    }
}

/* A (both triangles) as --matrix asks: the indefinite random one above by
 * default or for "random", else the eigensolver's class (matgen_eig.h).
 * 0, or -1 after printing why (a class these routines do not take, out of
 * memory). */
static int fill_a(const cli_opts *o, const char *routine, hyla_dtype t, int64_t n, void *A) {
    if (!o->matrix || strcmp(o->matrix, "random") == 0) {
        fill_indefinite(t, n, A, o->seed);
        return 0;
    }
    if (o->eig_matrix < 0) {
        fprintf(stderr, "hyla: %s: --matrix %s is not a class of Hermitian matrix (random, "
                "clustered, geometric, arithmetic, onelarge, graded, diagonal or zero)\n",
                routine, o->matrix);
        return -1;
    }
    return mat_fill_eig(t, (eig_class)o->eig_matrix, n, A, n > 0 ? n : 1, o->seed);
}

static void restore(void *arg) {
    gv_run *c = arg;
    mat_copy(c->t, c->n, c->n, c->A0, c->n, c->A, c->n);
    mat_copy(c->t, c->n, c->n, c->B0, c->n, c->B, c->n);
}

static int call(hyla_t *ctx, void *arg) {
    gv_run *c = arg;
    const cli_opts *o = c->o;
    if (o->range != 'A') {
        const int64_t n = c->n;
        switch (c->t) {
        case HYLA_S:
            return hyla_ssygvdx(ctx, c->itype, c->jobz, o->range, c->uplo, n, c->A, n, c->B, n,
                                (float)o->vl, (float)o->vu, o->il, o->iu, &c->m, c->w, c->Z, n);
        case HYLA_D:
            return hyla_dsygvdx(ctx, c->itype, c->jobz, o->range, c->uplo, n, c->A, n, c->B, n,
                                o->vl, o->vu, o->il, o->iu, &c->m, c->w, c->Z, n);
        case HYLA_C:
            return hyla_chegvdx(ctx, c->itype, c->jobz, o->range, c->uplo, n, c->A, n, c->B, n,
                                (float)o->vl, (float)o->vu, o->il, o->iu, &c->m, c->w, c->Z, n);
        case HYLA_Z:
            return hyla_zhegvdx(ctx, c->itype, c->jobz, o->range, c->uplo, n, c->A, n, c->B, n,
                                o->vl, o->vu, o->il, o->iu, &c->m, c->w, c->Z, n);
        }
        return HYLA_ERR_INVALID;
    }
    c->m = c->n;
    switch (c->t) {
    case HYLA_S: return hyla_ssygvd(ctx, c->itype, c->jobz, c->uplo, c->n, c->A, c->n, c->B, c->n, c->w);
    case HYLA_D: return hyla_dsygvd(ctx, c->itype, c->jobz, c->uplo, c->n, c->A, c->n, c->B, c->n, c->w);
    case HYLA_C: return hyla_chegvd(ctx, c->itype, c->jobz, c->uplo, c->n, c->A, c->n, c->B, c->n, c->w);
    case HYLA_Z: return hyla_zhegvd(ctx, c->itype, c->jobz, c->uplo, c->n, c->A, c->n, c->B, c->n, c->w);
    }
    return HYLA_ERR_INVALID;
}

static void print_error(void *arg, int info) {
    const gv_run *c = arg;
    fprintf(stderr, "hyla: hyla_%c%s(itype=%d, jobz=%c, uplo=%c, n=%lld) returned %d: %s\n",
            dtype_char(c->t), run_name(c), c->itype, c->jobz, c->uplo, (long long)c->n, info,
            info > c->n ? "B is not positive definite" : info > 0 ? "the eigensolver did not converge"
                                                              : hyla_strerror(info));
}

static const char *numerical(void *arg, const report_row *row) {
    print_error(arg, row->info);
    return "noconv";
}

/* LAPACKE ?sygvd / ?hegvd on A and B (overwritten) */
static lapack_int lapacke_gvd(hyla_dtype t, int itype, char jobz, char uplo, int64_t n, void *A,
                              void *B, void *w) {
    const lapack_int m = (lapack_int)n;
    uplo = vendor_lapacke_uplo(t, uplo);
    switch (t) {
    case HYLA_S: return LAPACKE_ssygvd(LAPACK_COL_MAJOR, itype, jobz, uplo, m, A, m, B, m, w);
    case HYLA_D: return LAPACKE_dsygvd(LAPACK_COL_MAJOR, itype, jobz, uplo, m, A, m, B, m, w);
    case HYLA_C: return LAPACKE_chegvd(LAPACK_COL_MAJOR, itype, jobz, uplo, m, A, m, B, m, w);
    case HYLA_Z: return LAPACKE_zhegvd(LAPACK_COL_MAJOR, itype, jobz, uplo, m, A, m, B, m, w);
    }
    return -1;
}

/* LAPACKE ?sygvx / ?hegvx with the run's range on A and B (overwritten) */
static lapack_int lapacke_gvx(hyla_dtype t, const cli_opts *o, int itype, char jobz, char uplo,
                              int64_t n, void *A, void *B, lapack_int *m, void *w, void *Z,
                              lapack_int *ifail) {
    const lapack_int k = (lapack_int)n, il = (lapack_int)o->il, iu = (lapack_int)o->iu;
    const lapack_int ld = k > 1 ? k : 1;
    uplo = vendor_lapacke_uplo(t, uplo);
    switch (t) {
    case HYLA_S:
        return LAPACKE_ssygvx(LAPACK_COL_MAJOR, itype, jobz, o->range, uplo, k, A, ld, B, ld,
                              (float)o->vl, (float)o->vu, il, iu, 0, m, w, Z, ld, ifail);
    case HYLA_D:
        return LAPACKE_dsygvx(LAPACK_COL_MAJOR, itype, jobz, o->range, uplo, k, A, ld, B, ld, o->vl,
                              o->vu, il, iu, 0, m, w, Z, ld, ifail);
    case HYLA_C:
        return LAPACKE_chegvx(LAPACK_COL_MAJOR, itype, jobz, o->range, uplo, k, A, ld, B, ld,
                              (float)o->vl, (float)o->vu, il, iu, 0, m, w, Z, ld, ifail);
    case HYLA_Z:
        return LAPACKE_zhegvx(LAPACK_COL_MAJOR, itype, jobz, o->range, uplo, k, A, ld, B, ld, o->vl,
                              o->vu, il, iu, 0, m, w, Z, ld, ifail);
    }
    return -1;
}

/* The checks' arithmetic in double precision, real for s and d (a quarter
 * of the complex flops: at n = 16384 on the GPU host's cores the complex
 * form of the generalized check took over two minutes) and complex for c
 * and z: a "wide" matrix is an array of doubles or of double _Complex. */
static int wide_cplx(hyla_dtype t) { return t == HYLA_C || t == HYLA_Z; }
static size_t wide_size(hyla_dtype t) { return wide_cplx(t) ? sizeof(double _Complex) : sizeof(double); }

/* rows x cols of dtype t (ld rows) widened; both triangles of a Hermitian
 * square one from its triangle uplo when herm */
static void *widen(hyla_dtype t, int64_t rows, int64_t cols, const void *a, int herm, char uplo) {
    void *w = malloc(wide_size(t) * (size_t)(rows * cols) + 1);
    if (!w) return NULL;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++) {
            const int in = uplo == 'L' ? i >= j : i <= j;
            const double _Complex v =
                !herm || in ? mat_elem(t, a, i + j * rows) : conj(mat_elem(t, a, j + i * rows));
            if (wide_cplx(t)) ((double _Complex *)w)[i + j * rows] = v;
            else ((double *)w)[i + j * rows] = creal(v);
        }
    return w;
}

/* Frobenius norm of rows x cols (ld rows) */
static double fro(hyla_dtype t, int64_t rows, int64_t cols, const void *w) {
    const double *d = w;
    const int64_t cnt = rows * cols * (wide_cplx(t) ? 2 : 1);
    double s = 0;
    for (int64_t i = 0; i < cnt; i++) s += d[i] * d[i];
    return sqrt(s);
}

/* C (m x n, ld m) := op(X) Y, op(X) m x k (X ld k when transposed, else m),
 * Y k x n (ld k); op: the conjugate transpose or none */
static void wmul(hyla_dtype t, CBLAS_TRANSPOSE ta, int64_t m, int64_t n, int64_t k, const void *X,
                 const void *Y, void *C) {
    const int ldx = (int)(ta == CblasNoTrans ? m : k);
    if (wide_cplx(t)) {
        const double _Complex one = 1, zero = 0;
        cblas_zgemm(CblasColMajor, ta, CblasNoTrans, (int)m, (int)n, (int)k, &one, X, ldx, Y,
                    (int)k, &zero, C, (int)m);
    } else {
        cblas_dgemm(CblasColMajor, ta == CblasNoTrans ? CblasNoTrans : CblasTrans, CblasNoTrans,
                    (int)m, (int)n, (int)k, 1.0, X, ldx, Y, (int)k, 0.0, C, (int)m);
    }
}

/* column j of P (rows, ld rows) -= lam times column j of Q, j < cols */
static void sub_scaled(hyla_dtype t, int64_t rows, int64_t cols, void *P, const void *Q,
                       const void *w, hyla_dtype rt) {
    const int64_t f = wide_cplx(t) ? 2 : 1;
    double *p = P;
    const double *q = Q;
    for (int64_t j = 0; j < cols; j++) {
        const double lam = creal(mat_elem(rt, w, j));
        for (int64_t i = 0; i < f * rows; i++) p[i + j * f * rows] -= lam * q[i + j * f * rows];
    }
}

/* ||S - I||_F of the m x m S (ld m) */
static double off_identity(hyla_dtype t, int64_t m, void *S) {
    const int64_t f = wide_cplx(t) ? 2 : 1;
    for (int64_t i = 0; i < m; i++) ((double *)S)[f * (i + i * m)] -= 1;
    return fro(t, m, m, S);
}

static int check(void *arg, double *err) {
    gv_run *c = arg;
    const int64_t n = c->n;
    const double eps = dtype_eps(c->t);
    const hyla_dtype rt = real_of(c->t);
    if (n == 0) {
        *err = 0;
        return 0;
    }
    if (c->jobz == 'N') {
        void *A = mat_alloc(c->t, n, n, false, "the check's A"), *B = mat_alloc(c->t, n, n, false, "the check's B");
        double *wr = malloc(sizeof *wr * (size_t)n * 2);
        int rc = -1;
        if (A && B && wr) {
            mat_copy(c->t, n, n, c->A0, n, A, n);
            mat_copy(c->t, n, n, c->B0, n, B, n);
            if (lapacke_gvd(c->t, c->itype, 'N', c->uplo, n, A, B, wr) == 0) {
                /* a part: the reference's indices il.. or those in (vl, vu] */
                int64_t off = 0, want = n;
                if (c->o->range == 'I') off = c->o->il - 1, want = c->o->iu - c->o->il + 1;
                if (c->o->range == 'V') {
                    want = 0;
                    for (int64_t i = 0; i < n; i++) {
                        const double b = creal(mat_elem(rt, wr, i));
                        off += b <= c->o->vl;
                        want += b > c->o->vl && b <= c->o->vu;
                    }
                }
                double d = 0, m = 0;
                for (int64_t i = 0; i < c->m && off + i < n; i++) {
                    double a = creal(mat_elem(rt, c->w, i)), b = creal(mat_elem(rt, wr, off + i));
                    d = fmax(d, fabs(a - b));
                }
                for (int64_t i = 0; i < n; i++) m = fmax(m, fabs(creal(mat_elem(rt, wr, i))));
                *err = c->m != want ? INFINITY : d / ((double)n * fmax(m, 1e-300) * eps);
                rc = 0;
            }
        }
        free(A), free(B), free(wr);
        return rc;
    }
    /* on the m eigenvectors X: the residual op(A, B) X - X' Lambda, and
     * X^H M X - I with M = B (itype 1, 2) or B^-1 (3, by LAPACKE on B's
     * factor) */
    const int64_t m = c->m;
    if (m == 0) {
        *err = 0;
        return 0;
    }
    const size_t ws = wide_size(c->t);
    void *Aw = widen(c->t, n, n, c->A0, 1, c->uplo), *Bw = widen(c->t, n, n, c->B0, 1, c->uplo);
    void *X = widen(c->t, n, m, c->o->range == 'A' ? c->A : c->Z, 0, 'L');
    void *P = malloc(ws * (size_t)(n * m)), *BX = malloc(ws * (size_t)(n * m)),
         *S = malloc(ws * (size_t)(m * m));
    int rc = -1;
    if (Aw && Bw && X && P && BX && S) {
        const double an = fro(c->t, n, n, Aw), bn = fro(c->t, n, n, Bw), xn = fro(c->t, n, m, X);
        wmul(c->t, CblasNoTrans, n, m, n, Bw, X, BX);
        if (c->itype == 1) { /* A X - B X Lambda */
            wmul(c->t, CblasNoTrans, n, m, n, Aw, X, P);
            sub_scaled(c->t, n, m, P, BX, c->w, rt);
        } else { /* A B X - X Lambda, or B A X - X Lambda */
            void *Y = malloc(ws * (size_t)(n * m));
            if (Y) {
                if (c->itype == 2) wmul(c->t, CblasNoTrans, n, m, n, Aw, BX, P);
                else {
                    wmul(c->t, CblasNoTrans, n, m, n, Aw, X, Y);
                    wmul(c->t, CblasNoTrans, n, m, n, Bw, Y, P);
                }
                sub_scaled(c->t, n, m, P, X, c->w, rt);
            }
            free(Y);
            if (!Y) goto done;
        }
        const double res = fro(c->t, n, m, P) / ((double)n * an * bn * xn * eps);
        double mn = bn;
        int ok = 1;
        if (c->itype == 3) { /* BX := B^-1 X */
            const lapack_int k = (lapack_int)n;
            if (wide_cplx(c->t))
                ok = LAPACKE_zpotrf(LAPACK_COL_MAJOR, 'L', k, Bw, k) == 0 &&
                     LAPACKE_zpotri(LAPACK_COL_MAJOR, 'L', k, Bw, k) == 0;
            else
                ok = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', k, Bw, k) == 0 &&
                     LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', k, Bw, k) == 0;
            for (int64_t j = 0; ok && j < n; j++)
                for (int64_t i = 0; i < j; i++) {
                    if (wide_cplx(c->t))
                        ((double _Complex *)Bw)[i + j * n] = conj(((double _Complex *)Bw)[j + i * n]);
                    else ((double *)Bw)[i + j * n] = ((double *)Bw)[j + i * n];
                }
            if (ok) {
                mn = fro(c->t, n, n, Bw);
                wmul(c->t, CblasNoTrans, n, m, n, Bw, X, BX);
            }
        }
        if (ok) {
            wmul(c->t, CblasConjTrans, m, m, n, X, BX, S);
            const double orth = off_identity(c->t, m, S) / ((double)n * mn * fmax(xn * xn, 1) * eps);
            *err = fmax(res, orth);
            rc = 0;
        }
    }
done:
    free(Aw), free(Bw), free(X), free(P), free(BX), free(S);
    return rc;
}

static void print_row(void *arg, const report_row *w) {
    const gv_run *c = arg;
    if (c->r->json) {
        printf("{\"routine\":\"%s\",\"type\":\"%c\",\"itype\":%d,\"jobz\":\"%c\",\"uplo\":\"%c\","
               "\"n\":%lld,\"devices\":\"%s\"", run_name(c), dtype_char(c->t), c->itype, c->jobz,
               c->uplo, (long long)c->n, c->r->devices);
        if (c->o->range != 'A') printf(",\"range\":\"%c\",\"m\":%lld", c->o->range, (long long)c->m);
    } else {
        printf("  %-7s %4c %5d %4c %4c %9lld", run_name(c), dtype_char(c->t), c->itype, c->jobz,
               c->uplo, (long long)c->n);
        if (c->o->range != 'A') printf(" %9lld", (long long)c->m);
    }
    const hyla_eig_stats *s = &c->stats;
    if (c->timers && c->r->json) report_eig_timers_json(s, false);
    print_tail(c->r, w, c->n);
    if (c->timers && !c->r->json)
        printf("%%   timers: potrf %.4f  reduction %.4f  the standard problem: sy2sb %.4f  sb2st "
               "%.4f  tridiagonal %.4f  back2 %.4f  back1 %.4f  transfers %.4f;  back-solve "
               "%.4f  total %.4f  (kd %lld)\n",
               s->gv_potrf, s->gv_reduce, s->sy2sb, s->sb2st, s->tridiag, s->back2, s->back1,
               s->transfers, s->gv_back, s->total, (long long)s->kd);
}

/* LAPACKE's run on copies (vendor_A, vendor_B, vendor_w of the run): the
 * baseline on host devices (vendor_gv_gpu's on a GPU). */
typedef struct {
    const gv_run *c;
    void *A, *B, *w, *Z; /* Z, ifail: with a range */
    lapack_int *ifail;
} gv_vendor;

static void vendor_restore(void *arg) {
    gv_vendor *v = arg;
    mat_copy(v->c->t, v->c->n, v->c->n, v->c->A0, v->c->n, v->A, v->c->n);
    mat_copy(v->c->t, v->c->n, v->c->n, v->c->B0, v->c->n, v->B, v->c->n);
}

static int vendor_call(void *arg) {
    gv_vendor *v = arg;
    const gv_run *c = v->c;
    lapack_int m = 0;
    const lapack_int info =
        c->o->range == 'A'
            ? lapacke_gvd(c->t, c->itype, c->jobz, c->uplo, c->n, v->A, v->B, v->w)
            : lapacke_gvx(c->t, c->o, c->itype, c->jobz, c->uplo, c->n, v->A, v->B, &m, v->w, v->Z,
                          v->ifail);
    if (info)
        fprintf(stderr, "hyla: vendor: LAPACKE ?%s returned %d\n",
                c->o->range == 'A' ? "sygvd" : "sygvx", (int)info);
    return info != 0;
}

static double vendor_time(const gv_run *c, int warmup, int repeat) {
    const int part = c->o->range != 'A';
    gv_vendor v = {c, mat_alloc(c->t, c->n, c->n, false, "the vendor's A"),
                   mat_alloc(c->t, c->n, c->n, false, "the vendor's B"),
                   malloc(sizeof(double) * (size_t)(c->n + 1) * 2),
                   part ? mat_alloc(c->t, c->n, c->n, false, "the vendor's Z") : NULL,
                   part ? malloc(sizeof(lapack_int) * (size_t)(c->n + 1)) : NULL};
    const double med = v.A && v.B && v.w && (!part || (v.Z && v.ifail))
                           ? time_runs(warmup, repeat, vendor_restore, vendor_call, &v)
                           : NAN;
    free(v.A), free(v.B), free(v.w), free(v.Z), free(v.ifail);
    return med;
}

static cmd_status run_one(hyla_t *ctx, const cli_opts *o, const report *r, hyla_dtype t, int itype,
                          char uplo, int64_t n) {
    size_t bytes = 0;
    if (!mat_bytes(t, n, n, &bytes) || !host_fits_n(4.0 * (double)bytes, "A, B and their copies", n, 2))
        return CMD_ERROR;
    if ((o->check || o->vs_vendor) && sizeof(lapack_int) < 8 && n > 46340) {
        fprintf(stderr, "hyla: sygvd -n %lld: --check and --vs vendor call LAPACKE, whose sizes "
                "are 32-bit here\n", (long long)n);
        return CMD_USAGE;
    }
    if (o->range == 'I' && o->iu > n) {
        fprintf(stderr, "hyla: %s -n %lld: --range I:%lld:%lld needs iu <= n\n", gvx_name(t),
                (long long)n, (long long)o->il, (long long)o->iu);
        return CMD_USAGE;
    }
    gv_run c = {.o = o, .r = r, .t = t, .itype = itype, .jobz = o->jobz, .uplo = uplo, .n = n};
    if (o->range != 'A' && !(c.Z = mat_alloc(t, n, n, false, "Z"))) return CMD_ERROR;
    c.A0 = mat_alloc(t, n, n, false, "A");
    c.B0 = mat_alloc(t, n, n, false, "B");
    c.A = mat_alloc(t, n, n, false, "A's working copy");
    c.B = mat_alloc(t, n, n, false, "B's working copy");
    c.w = malloc(sizeof(double) * (size_t)(n + 1) * 2);
    cmd_status st = CMD_ERROR;
    if (!c.A0 || !c.B0 || !c.A || !c.B || !c.w) goto out;
    if (fill_a(o, run_name(&c), t, n, c.A0)) {
        st = o->eig_matrix < 0 ? CMD_USAGE : CMD_ERROR;
        goto out;
    }
    mat_fill_hpd(t, n, c.B0, n > 0 ? n : 1, o->seed, 2);
    report_row row = {.layout = ROW_CHOL, .routine = run_name(&c), .type = t, .uplo = uplo, .n = n,
                      .nrhs = -1, .time_s = NAN, .vendor_time_s = NAN, .vendor_dev_time_s = NAN,
                      .ours_dev_time_s = NAN, .status = "ok"};
    const run_hooks h = {.arg = &c, .restore = restore, .call = call, .print_error = print_error,
                         .numerical = numerical, .check = check, .print = print_row,
                         .threshold = THRESHOLD};
    st = run_calls(ctx, o, r, o->check, &h, &row);
    if (st != CMD_OK) goto out;
    c.timers = o->timers && hyla_get_eig_stats(ctx, &c.stats) == 0;
    if (o->vs_vendor) {
        /* cuSOLVER where device 0 is a GPU, else LAPACKE */
        const gv_problem gp = {.dtype = t, .itype = itype, .jobz = o->jobz, .range = o->range,
                               .uplo = uplo, .n = n, .il = o->il, .iu = o->iu, .vl = o->vl,
                               .vu = o->vu, .A = c.A0, .B = c.B0};
        vendor_times vt = {0};
        if (vendor_gv_gpu(ctx, &gp, o->warmup, o->repeat, &vt)) {
            row.vendor = vt.name;
            row.vendor_time_s = vt.time_s;
        } else {
            row.vendor = o->range != 'A' ? (dtype_is_complex(t) ? "lapacke_hegvx" : "lapacke_sygvx")
                                         : dtype_is_complex(t) ? "lapacke_hegvd" : "lapacke_sygvd";
            row.vendor_time_s = vendor_time(&c, o->warmup, o->repeat);
        }
    }
    st = run_finish_hooks(r, &h, &row, false);
out:
    free(c.A0), free(c.B0), free(c.A), free(c.B), free(c.w), free(c.Z);
    return st;
}

cmd_status cmd_sygvd(hyla_t *ctx, const cli_opts *o, const report *r) {
    if (o->ninputs || o->output) {
        fputs("hyla: sygvd and hegvd take generated matrices only (no --input, --output)\n", stderr);
        return CMD_USAGE;
    }
    if (!r->json) {
        hyla_device_info d0;
        const int gpu = hyla_get_device_info(ctx, 0, &d0) == 0 && d0.kind == HYLA_DEVICE_CUDA;
        if (o->vs_vendor && gpu)
            printf("%% vendor (generalized eig): cuSOLVER %s on device 0's GPU, on device-resident "
                   "copies of the same matrices (the call alone timed); ratio = vendor time / hyla "
                   "time\n", o->range != 'A' ? "?sygvdx/?hegvdx with the same range" : "?sygvd/?hegvd");
        else if (o->vs_vendor)
            printf("%% vendor (generalized eig): LAPACKE %s (OpenBLAS) on copies of the "
                   "same host matrices; ratio = vendor time / hyla time\n",
                   o->range != 'A' ? "?sygvx/?hegvx with the same range" : "?sygvd/?hegvd");
        if (o->check)
            printf("%% check (generalized eig): jobz V max(|op - X W|_F / (n |A|_F |B|_F |X|_F "
                   "eps), |X^H M X - I|_F / (n |M|_F |X|_F^2 eps)), M = B (itype 1, 2) or B^-1 "
                   "(3); jobz N max |w - w_lapacke| / (n max|w| eps)%s; pass < 60\n",
                   o->range != 'A' ? " over LAPACKE's same indices, inf where m differs" : "");
        printf("%% routine type itype jobz uplo         n%s     time(s)",
               o->range != 'A' ? "         m" : "");
        if (o->vs_vendor) printf(" %11s %7s", "vendor(s)", "ratio");
        if (o->check) printf(" %9s", "error");
        printf("   info  status\n");
    }
    cmd_status worst = CMD_OK;
    for (int k = 0; k < o->ntypes; k++)
        for (int it = 0; it < o->nitype; it++)
            for (int u = 0; u < o->nuplo; u++)
                for (int i = 0; i < o->n.count; i++) {
                    cmd_status st = run_one(ctx, o, r, o->types[k], o->itype[it], o->uplo[u],
                                            cli_n(o, i));
                    if (st == CMD_ERROR || st == CMD_USAGE) return st;
                    if (st == CMD_FAILED) worst = CMD_FAILED;
                }
    return worst;
}

/* ------------------------------------------------- a part of the spectrum */

typedef struct {
    const cli_opts *o;
    const report *r;
    hyla_dtype t;
    char jobz, uplo;
    int64_t n, m;
    void *A0, *A, *w, *Z;
    hyla_eig_stats stats; /* the last call's stages (--timers) */
    bool timers;
} evx_run;

static const char *evx_name(hyla_dtype t) { return dtype_is_complex(t) ? "heevdx" : "syevdx"; }

static void evx_restore(void *arg) {
    evx_run *c = arg;
    mat_copy(c->t, c->n, c->n, c->A0, c->n, c->A, c->n);
}

static int evx_call(hyla_t *ctx, void *arg) {
    evx_run *c = arg;
    const cli_opts *o = c->o;
    const int64_t n = c->n, ldz = n > 0 ? n : 1;
    switch (c->t) {
    case HYLA_S:
        return hyla_ssyevdx(ctx, c->jobz, o->range, c->uplo, n, c->A, ldz, (float)o->vl,
                            (float)o->vu, o->il, o->iu, &c->m, c->w, c->Z, ldz);
    case HYLA_D:
        return hyla_dsyevdx(ctx, c->jobz, o->range, c->uplo, n, c->A, ldz, o->vl, o->vu, o->il,
                            o->iu, &c->m, c->w, c->Z, ldz);
    case HYLA_C:
        return hyla_cheevdx(ctx, c->jobz, o->range, c->uplo, n, c->A, ldz, (float)o->vl,
                            (float)o->vu, o->il, o->iu, &c->m, c->w, c->Z, ldz);
    case HYLA_Z:
        return hyla_zheevdx(ctx, c->jobz, o->range, c->uplo, n, c->A, ldz, o->vl, o->vu, o->il,
                            o->iu, &c->m, c->w, c->Z, ldz);
    }
    return HYLA_ERR_INVALID;
}

static void evx_error(void *arg, int info) {
    const evx_run *c = arg;
    fprintf(stderr, "hyla: hyla_%c%s(jobz=%c, range=%c, n=%lld) returned %d: %s\n",
            dtype_char(c->t), evx_name(c->t), c->jobz, c->o->range, (long long)c->n, info,
            info > 0 ? "bisection or inverse iteration did not converge" : hyla_strerror(info));
}

static const char *evx_numerical(void *arg, const report_row *row) {
    evx_error(arg, row->info);
    return "noconv";
}

/* LAPACKE ?syevr / ?heevr with the run's range on A (overwritten) */
static lapack_int lapacke_evr(const evx_run *c, char jobz, void *A, lapack_int *m, void *w, void *Z,
                              lapack_int *isuppz) {
    const cli_opts *o = c->o;
    const lapack_int n = (lapack_int)c->n, ld = n > 0 ? n : 1;
    const lapack_int il = (lapack_int)o->il, iu = (lapack_int)o->iu;
    const char uplo = vendor_lapacke_uplo(c->t, c->uplo);
    switch (c->t) {
    case HYLA_S:
        return LAPACKE_ssyevr(LAPACK_COL_MAJOR, jobz, o->range, uplo, n, A, ld, (float)o->vl,
                              (float)o->vu, il, iu, 0, m, w, Z, ld, isuppz);
    case HYLA_D:
        return LAPACKE_dsyevr(LAPACK_COL_MAJOR, jobz, o->range, uplo, n, A, ld, o->vl, o->vu, il,
                              iu, 0, m, w, Z, ld, isuppz);
    case HYLA_C:
        return LAPACKE_cheevr(LAPACK_COL_MAJOR, jobz, o->range, uplo, n, A, ld, (float)o->vl,
                              (float)o->vu, il, iu, 0, m, w, Z, ld, isuppz);
    case HYLA_Z:
        return LAPACKE_zheevr(LAPACK_COL_MAJOR, jobz, o->range, uplo, n, A, ld, o->vl, o->vu, il,
                              iu, 0, m, w, Z, ld, isuppz);
    }
    return -1;
}

/* the values against LAPACKE ?syevr (and the count); jobz V: |A Z - Z W|_F /
 * (n |A|_F eps), |Z^H Z - I|_F / (n eps) */
static int evx_check(void *arg, double *err) {
    evx_run *c = arg;
    const int64_t n = c->n;
    const double eps = dtype_eps(c->t);
    const hyla_dtype rt = real_of(c->t);
    *err = 0;
    if (n == 0) return 0;
    void *A = mat_alloc(c->t, n, n, false, "the check's A");
    double *wr = malloc(sizeof *wr * (size_t)n);
    lapack_int *isuppz = malloc(sizeof *isuppz * (size_t)(2 * n));
    lapack_int mr = 0;
    int rc = -1;
    if (A && wr && isuppz) {
        mat_copy(c->t, n, n, c->A0, n, A, n);
        if (lapacke_evr(c, 'N', A, &mr, wr, NULL, isuppz) == 0) {
            if (mr != c->m) {
                fprintf(stderr, "hyla: %s: %lld eigenvalues, LAPACKE ?syevr found %d\n",
                        evx_name(c->t), (long long)c->m, (int)mr);
                *err = INFINITY;
            } else {
                double d = 0, mx = 0;
                for (int64_t i = 0; i < c->m; i++) {
                    const double a = creal(mat_elem(rt, c->w, i)), b = creal(mat_elem(rt, wr, i));
                    d = fmax(d, fabs(a - b)), mx = fmax(mx, fabs(b));
                }
                const double an = mat_norm_herm_inf(c->t, 'L', n, c->A0, n);
                *err = d / ((double)n * fmax(an, 1e-300) * eps);
            }
            rc = 0;
        }
    }
    free(A), free(wr), free(isuppz);
    if (rc || c->jobz != 'V' || c->m == 0 || isinf(*err)) return rc;
    const int64_t m = c->m;
    const size_t ws = wide_size(c->t);
    void *Aw = widen(c->t, n, n, c->A0, 1, c->uplo), *X = widen(c->t, n, m, c->Z, 0, 'L');
    void *P = malloc(ws * (size_t)(n * m)), *G = malloc(ws * (size_t)(m * m));
    rc = -1;
    if (Aw && X && P && G) {
        /* A X - X Lambda and X^H X - I */
        wmul(c->t, CblasNoTrans, n, m, n, Aw, X, P);
        sub_scaled(c->t, n, m, P, X, c->w, rt);
        wmul(c->t, CblasConjTrans, m, m, n, X, X, G);
        const double res = fro(c->t, n, m, P) / ((double)n * fro(c->t, n, n, Aw) * eps);
        const double orth = off_identity(c->t, m, G) / ((double)n * eps);
        *err = fmax(*err, fmax(res, orth));
        rc = 0;
    }
    free(Aw), free(X), free(P), free(G);
    return rc;
}

static void evx_print(void *arg, const report_row *w) {
    const evx_run *c = arg;
    if (c->r->json)
        printf("{\"routine\":\"%s\",\"type\":\"%c\",\"jobz\":\"%c\",\"range\":\"%c\",\"uplo\":"
               "\"%c\",\"n\":%lld,\"m\":%lld,\"devices\":\"%s\"", evx_name(c->t), dtype_char(c->t),
               c->jobz, c->o->range, c->uplo, (long long)c->n, (long long)c->m, c->r->devices);
    else
        printf("  %-7s %4c %4c %5c %4c %9lld %9lld", evx_name(c->t), dtype_char(c->t), c->jobz,
               c->o->range, c->uplo, (long long)c->n, (long long)c->m);
    const hyla_eig_stats *s = &c->stats;
    if (c->timers && c->r->json) report_eig_timers_json(s, false);
    print_tail(c->r, w, c->n);
    if (c->timers && !c->r->json)
        printf("%%   timers: sy2sb %.4f  sb2st %.4f  tridiagonal %.4f  back2 %.4f  back1 %.4f  "
               "transfers %.4f  total %.4f  (kd %lld)\n", s->sy2sb, s->sb2st, s->tridiag,
               s->back2, s->back1, s->transfers, s->total, (long long)s->kd);
}

typedef struct {
    const evx_run *c;
    void *A, *Z, *w;
    lapack_int *isuppz;
} evx_vendor_run;

static void evx_vendor_restore(void *arg) {
    evx_vendor_run *v = arg;
    mat_copy(v->c->t, v->c->n, v->c->n, v->c->A0, v->c->n, v->A, v->c->n);
}

static int evx_vendor_call(void *arg) {
    evx_vendor_run *v = arg;
    lapack_int mr;
    const lapack_int info = lapacke_evr(v->c, v->c->jobz, v->A, &mr, v->w, v->Z, v->isuppz);
    if (info) fprintf(stderr, "hyla: vendor: LAPACKE ?syevr returned %d\n", (int)info);
    return info != 0;
}

static double evx_vendor(const evx_run *c, int warmup, int repeat) {
    const int64_t n = c->n;
    evx_vendor_run v = {c, mat_alloc(c->t, n, n, false, "the vendor's A"),
                        mat_alloc(c->t, n, n, false, "the vendor's Z"),
                        malloc(sizeof(double) * (size_t)(n + 1)),
                        malloc(sizeof(lapack_int) * (size_t)(2 * n + 2))};
    const double med = v.A && v.Z && v.w && v.isuppz
                           ? time_runs(warmup, repeat, evx_vendor_restore, evx_vendor_call, &v)
                           : NAN;
    free(v.A), free(v.Z), free(v.w), free(v.isuppz);
    return med;
}

static cmd_status evx_one(hyla_t *ctx, const cli_opts *o, const report *r, hyla_dtype t, char uplo,
                          int64_t n) {
    size_t bytes = 0;
    if (!mat_bytes(t, n, n, &bytes) || !host_fits_n(4.0 * (double)bytes, "A, Z and copies", n, 2))
        return CMD_ERROR;
    if (o->range == 'I' && o->iu > n) {
        fprintf(stderr, "hyla: %s -n %lld: --range I:%lld:%lld needs iu <= n\n", evx_name(t),
                (long long)n, (long long)o->il, (long long)o->iu);
        return CMD_USAGE;
    }
    if ((o->check || o->vs_vendor) && n > 46340) {
        fprintf(stderr, "hyla: %s -n %lld: --check and --vs vendor call LAPACKE, whose sizes "
                "are 32-bit here\n", evx_name(t), (long long)n);
        return CMD_USAGE;
    }
    evx_run c = {.o = o, .r = r, .t = t, .jobz = o->jobz, .uplo = uplo, .n = n};
    c.A0 = mat_alloc(t, n, n, false, "A");
    c.A = mat_alloc(t, n, n, false, "A's working copy");
    c.Z = mat_alloc(t, n, n, false, "Z");
    c.w = malloc(sizeof(double) * (size_t)(n + 1));
    cmd_status st = CMD_ERROR;
    if (!c.A0 || !c.A || !c.Z || !c.w) goto out;
    if (fill_a(o, evx_name(t), t, n, c.A0)) {
        st = o->eig_matrix < 0 ? CMD_USAGE : CMD_ERROR;
        goto out;
    }
    report_row row = {.layout = ROW_CHOL, .routine = evx_name(t), .type = t, .uplo = uplo, .n = n,
                      .nrhs = -1, .time_s = NAN, .vendor_time_s = NAN, .vendor_dev_time_s = NAN,
                      .ours_dev_time_s = NAN, .status = "ok"};
    const run_hooks h = {.arg = &c, .restore = evx_restore, .call = evx_call,
                         .print_error = evx_error, .numerical = evx_numerical, .check = evx_check,
                         .print = evx_print, .threshold = THRESHOLD};
    st = run_calls(ctx, o, r, o->check, &h, &row);
    if (st != CMD_OK) goto out;
    c.timers = o->timers && hyla_get_eig_stats(ctx, &c.stats) == 0;
    if (o->vs_vendor) {
        /* cusolverDnXsyevdx where device 0 is a GPU, else LAPACKE ?syevr */
        const gv_problem gp = {.dtype = t, .jobz = o->jobz, .range = o->range, .uplo = uplo,
                               .n = n, .il = o->il, .iu = o->iu, .vl = o->vl, .vu = o->vu,
                               .A = c.A0, .B = NULL};
        vendor_times vt = {0};
        if (vendor_gv_gpu(ctx, &gp, o->warmup, o->repeat, &vt)) {
            row.vendor = vt.name;
            row.vendor_time_s = vt.time_s;
        } else {
            row.vendor = dtype_is_complex(t) ? "lapacke_heevr" : "lapacke_syevr";
            row.vendor_time_s = evx_vendor(&c, o->warmup, o->repeat);
        }
    }
    st = run_finish_hooks(r, &h, &row, false);
out:
    free(c.A0), free(c.A), free(c.Z), free(c.w);
    return st;
}

cmd_status cmd_syevdx(hyla_t *ctx, const cli_opts *o, const report *r) {
    if (o->ninputs || o->output) {
        fputs("hyla: syevdx and heevdx take generated matrices only (no --input, --output)\n", stderr);
        return CMD_USAGE;
    }
    if (!r->json) {
        hyla_device_info d0;
        const int gpu = hyla_get_device_info(ctx, 0, &d0) == 0 && d0.kind == HYLA_DEVICE_CUDA;
        if (o->vs_vendor && gpu)
            printf("%% vendor (part of the spectrum): cusolverDnXsyevdx with the same range on "
                   "device 0's GPU, on a device-resident copy of the same matrix (the call alone "
                   "timed); ratio = vendor time / hyla time\n");
        else if (o->vs_vendor)
            printf("%% vendor (part of the spectrum): LAPACKE ?syevr/?heevr (OpenBLAS) with the same "
                   "range on copies of the same host matrix; ratio = vendor time / hyla time\n");
        if (o->check)
            printf("%% check (part of the spectrum): the count and max |w - w_syevr| / (n |A| eps); "
                   "jobz V also |A Z - Z W|_F / (n |A|_F eps), |Z^H Z - I|_F / (n eps); pass < 60\n");
        printf("%% routine type jobz range uplo         n         m     time(s)");
        if (o->vs_vendor) printf(" %11s %7s", "vendor(s)", "ratio");
        if (o->check) printf(" %9s", "error");
        printf("   info  status\n");
    }
    cmd_status worst = CMD_OK;
    for (int k = 0; k < o->ntypes; k++)
        for (int u = 0; u < o->nuplo; u++)
            for (int i = 0; i < o->n.count; i++) {
                cmd_status st = evx_one(ctx, o, r, o->types[k], o->uplo[u], cli_n(o, i));
                if (st == CMD_ERROR || st == CMD_USAGE) return st;
                if (st == CMD_FAILED) worst = CMD_FAILED;
            }
    return worst;
}
