/* HPL units: the HPL.dat parser (line numbers in errors), netlib's generator
 * (jump-ahead against a sequential emulation of HPL's own 31-bit integer
 * arithmetic), and one-rank runs passing the residual test. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hpl/hpl.h"
#include "hyla.h"

#ifndef HYLA_HPL_TEST_DATA
#define HYLA_HPL_TEST_DATA "tests/data/hpl"
#endif

/* ---- the parser ---- */

static const char *good_lines[31] = {
    "HPLinpack benchmark input file",
    "Innovative Computing Laboratory, University of Tennessee",
    "HPL.out      output file name (if any)",
    "6            device out (6=stdout,7=stderr,file)",
    "3            # of problems sizes (N)",
    "29 30 34     Ns",
    "2            # of NBs",
    "1 2          NBs",
    "1            PMAP process mapping (0=Row-,1=Column-major)",
    "2            # of process grids (P x Q)",
    "2 1          Ps",
    "2 4          Qs",
    "16.0         threshold",
    "3            # of panel fact",
    "0 1 2        PFACTs (0=left, 1=Crout, 2=Right)",
    "2            # of recursive stopping criterium",
    "2 4          NBMINs (>= 1)",
    "1            # of panels in recursion",
    "2            NDIVs",
    "3            # of recursive panel fact.",
    "0 1 2        RFACTs (0=left, 1=Crout, 2=Right)",
    "1            # of broadcast",
    "5            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)",
    "1            # of lookahead depth",
    "1            DEPTHs (>=0)",
    "2            SWAP (0=bin-exch,1=long,2=mix)",
    "64           swapping threshold",
    "0            L1 in (0=transposed,1=no-transposed) form",
    "1            U  in (0=transposed,1=no-transposed) form",
    "1            Equilibration (0=no,1=yes)",
    "8            memory alignment in double (> 0)",
};

/* The good file with line `line` (1-based) replaced by `repl` (NULL: the
 * file cut before that line). */
static void make_text(char *buf, size_t len, int line, const char *repl) {
    buf[0] = '\0';
    for (int i = 0; i < 31; i++) {
        const char *s = good_lines[i];
        if (i + 1 == line) {
            if (!repl) break;
            s = repl;
        }
        strncat(buf, s, len - strlen(buf) - 2);
        strcat(buf, "\n");
    }
}

static void test_parser(void) {
    char text[8192], msg[256];
    hyla_hpl_dat d;
    make_text(text, sizeof text, 0, NULL);
    int rc = hyla_hpl_dat_parse(text, &d, msg, sizeof msg);
    CHECK(rc == 0, "good file: rc %d %s", rc, msg);
    CHECK(strcmp(d.outfile, "HPL.out") == 0 && d.device_out == 6, "out %s %d", d.outfile,
          d.device_out);
    CHECK(d.nn == 3 && d.n[0] == 29 && d.n[1] == 30 && d.n[2] == 34, "Ns");
    CHECK(d.nnb == 2 && d.nb[0] == 1 && d.nb[1] == 2, "NBs");
    CHECK(d.pmap == 1 && d.ngrid == 2 && d.p[0] == 2 && d.p[1] == 1 && d.q[0] == 2 && d.q[1] == 4,
          "grids");
    CHECK(d.threshold == 16.0, "threshold %g", d.threshold);
    CHECK(d.npfact == 3 && d.pfact[2] == 2 && d.nnbmin == 2 && d.nbmin[1] == 4, "pfact, nbmin");
    CHECK(d.nndiv == 1 && d.ndiv[0] == 2 && d.nrfact == 3 && d.nbcast == 1 && d.bcast[0] == 5,
          "ndiv, rfact, bcast");
    CHECK(d.ndepth == 1 && d.depth[0] == 1 && d.swap == 2 && d.swap_threshold == 64, "depth, swap");
    CHECK(d.l1_form == 0 && d.u_form == 1 && d.equil == 1 && d.align == 8, "forms");

    /* CRLF line ends are accepted */
    {
        char crlf[9000] = "";
        for (int i = 0; i < 31; i++) {
            strcat(crlf, good_lines[i]);
            strcat(crlf, "\r\n");
        }
        rc = hyla_hpl_dat_parse(crlf, &d, msg, sizeof msg);
        CHECK(rc == 0 && d.nn == 3, "CRLF: rc %d %s", rc, msg);
    }

    const struct {
        int line;
        const char *repl;
    } bad[] = {
        {3, "   "},                 /* no file name */
        {4, "stdout"},              /* device out not an integer */
        {5, "0   # of Ns"},         /* count below 1 */
        {5, "21  # of Ns"},         /* count above 20 */
        {6, "29 30   Ns"},          /* 2 of 3 values */
        {6, "29 -3 34 Ns"},         /* N < 0 */
        {6, "29 3x 34 Ns"},         /* not an integer */
        {8, "1 0   NBs"},           /* NB < 1 */
        {9, "2     PMAP"},          /* PMAP not 0/1 */
        {10, "x    # of grids"},
        {11, "2 0  Ps"},            /* P < 1 */
        {12, "2    Qs"},            /* one Q for two grids */
        {13, "sixteen threshold"},
        {15, "0 1 3  PFACTs"},      /* PFACT 0..2 */
        {17, "2 0  NBMINs"},        /* NBMIN >= 1 */
        {19, "1    NDIVs"},         /* NDIV >= 2 */
        {21, "0 1 9  RFACTs"},
        {23, "6    BCASTs"},        /* BCAST 0..5 */
        {25, "-1   DEPTHs"},        /* DEPTH >= 0 */
        {26, "3    SWAP"},
        {27, "-5   swapping threshold"},
        {28, "2    L1"},
        {29, "-1   U"},
        {30, "7    Equilibration"},
        {31, "0    memory alignment"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        make_text(text, sizeof text, bad[i].line, bad[i].repl);
        rc = hyla_hpl_dat_parse(text, &d, msg, sizeof msg);
        char want[32];
        snprintf(want, sizeof want, "HPL.dat line %d: ", bad[i].line);
        CHECK(rc == HYLA_ERR_FORMAT && strncmp(msg, want, strlen(want)) == 0,
              "line %d '%s': rc %d msg '%s'", bad[i].line, bad[i].repl, rc, msg);
    }
    /* a file cut short names the first missing line */
    make_text(text, sizeof text, 20, NULL);
    rc = hyla_hpl_dat_parse(text, &d, msg, sizeof msg);
    CHECK(rc == HYLA_ERR_FORMAT && strncmp(msg, "HPL.dat line 20: ", 17) == 0, "short: %s", msg);

    /* files: the good one, the malformed ones with their lines, a missing one */
    const struct {
        const char *file;
        int line; /* 0: good */
    } files[] = {{"HPL.dat", 0},       {"bad_n.dat", 6},     {"bad_nb_count.dat", 7},
                 {"bad_pmap.dat", 9},  {"bad_q.dat", 12},    {"bad_bcast.dat", 23},
                 {"bad_depth.dat", 25}, {"bad_align.dat", 31}, {"short.dat", 21}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512], want[32];
        snprintf(path, sizeof path, "%s/%s", HYLA_HPL_TEST_DATA, files[i].file);
        rc = hyla_hpl_dat_read(path, &d, msg, sizeof msg);
        if (files[i].line == 0) {
            CHECK(rc == 0 && d.nn == 2 && d.n[1] == 777 && d.ndepth == 2, "%s: rc %d %s", path, rc,
                  msg);
        } else {
            snprintf(want, sizeof want, "HPL.dat line %d: ", files[i].line);
            CHECK(rc == HYLA_ERR_FORMAT && strncmp(msg, want, strlen(want)) == 0, "%s: rc %d '%s'",
                  path, rc, msg);
        }
    }
    rc = hyla_hpl_dat_read(HYLA_HPL_TEST_DATA "/no_such_file.dat", &d, msg, sizeof msg);
    CHECK(rc == HYLA_ERR_IO, "missing file: rc %d", rc);
    CHECK(hyla_hpl_dat_read(NULL, &d, NULL, 0) == -1, "NULL path");
    CHECK(hyla_hpl_dat_parse("x", NULL, NULL, 0) == -2, "NULL dat");
}

/* ---- the generator ---- */

/* netlib's HPL_lmul and HPL_ladd on the two-int encoding (16 low bits, 15
 * high bits), int32 wrap-around emulated in int64. */
static int64_t wrap32(int64_t v) { return (int64_t)(int32_t)(uint32_t)(uint64_t)v; }
static void ref_lmul(const int64_t *K, const int64_t *J, int64_t *out) {
    const int64_t p30 = (int64_t)1 << 30;
    int64_t kt = wrap32(K[0] * J[0]);
    if (kt < 0) kt = (kt + p30) + p30;
    out[0] = kt - ((kt >> 16) << 16);
    int64_t lt = wrap32(wrap32(K[0] * J[1]) + wrap32(K[1] * J[0]));
    if (lt < 0) lt = (lt + p30) + p30;
    kt = wrap32((kt >> 16) + lt);
    if (kt < 0) kt = (kt + p30) + p30;
    out[1] = kt - ((kt >> 15) << 15);
}
static void ref_ladd(const int64_t *J, const int64_t *K, int64_t *out) {
    int64_t t0 = K[0] + J[0], t1 = t0 >> 16;
    out[0] = t0 - (t1 << 16);
    t0 = t1 + K[1] + J[1];
    out[1] = t0 - ((t0 >> 15) << 15);
}

/* HPL_pdmatgen on a 1 x 1 grid, run as netlib runs it: one jump from the
 * seed, then HPL_rand down the columns. */
static void ref_matgen(int64_t m, int64_t n, double *A) {
    const int64_t mult[2] = {1284865837, 1481765933}, iadd[2] = {1, 0};
    int64_t seed[2] = {HYLA_HPL_SEED, 0}, x[2], t[2];
    ref_lmul(seed, mult, t);
    ref_ladd(t, iadd, x);
    for (int64_t i = 0; i < m * n; i++) {
        A[i] = 0.5 - ((double)x[0] + 65536.0 * (double)x[1]) / 2147483648.0;
        ref_lmul(x, mult, t);
        ref_ladd(t, iadd, x);
    }
}

static void test_generator(void) {
    /* the state after k steps, against stepping */
    uint32_t x = HYLA_HPL_SEED;
    int ok = 1;
    for (uint64_t k = 0; k <= 5000; k++) {
        if (hyla_hpl_lcg_state(HYLA_HPL_SEED, k) != x) ok = 0;
        x = hyla_hpl_lcg_state(x, 1);
    }
    CHECK(ok, "jump-ahead differs from stepping");
    CHECK(hyla_hpl_lcg_value(0) == 0.5 && hyla_hpl_lcg_value(0x7fffffff) > -0.5,
          "values in (-0.5, 0.5]");

    /* the whole matrix of a 1 x 1 grid, against netlib's integer arithmetic */
    enum { M = 37, N = 38 };
    static double ref[M * N], got[M * N], loc[M * N];
    ref_matgen(M, N, ref);
    hyla_hpl_matgen(M, N, 5, 0, 0, 1, 1, HYLA_HPL_SEED, 0, N, got, M);
    int diff = 0;
    for (int i = 0; i < M * N; i++) diff += ref[i] != got[i];
    CHECK(diff == 0, "1x1 grid: %d entries differ from netlib's sequence", diff);
    printf("A(0,0) = %.17g, A(1,0) = %.17g, A(0,1) = %.17g\n", got[0], got[1], got[M]);

    /* every local part of a 2 x 3 grid, generated in slabs, is the global matrix's */
    const int nprow = 2, npcol = 3, nb = 4;
    diff = 0;
    for (int pr = 0; pr < nprow; pr++)
        for (int pc = 0; pc < npcol; pc++) {
            int64_t mp = hyla_hpl_numroc(M, nb, pr, nprow), nq = hyla_hpl_numroc(N, nb, pc, npcol);
            for (int64_t c0 = 0; c0 < nq; c0 += 3)
                hyla_hpl_matgen(M, N, nb, pr, pc, nprow, npcol, HYLA_HPL_SEED, c0, 3,
                                loc + c0 * mp, mp);
            for (int64_t jl = 0; jl < nq; jl++)
                for (int64_t il = 0; il < mp; il++) {
                    int64_t gi = ((il / nb) * nprow + pr) * nb + il % nb;
                    int64_t gj = ((jl / nb) * npcol + pc) * nb + jl % nb;
                    diff += loc[il + jl * mp] != ref[gi + gj * M];
                }
        }
    CHECK(diff == 0, "2x3 grid: %d local entries differ", diff);
    int64_t total = 0;
    for (int p = 0; p < 3; p++) total += hyla_hpl_numroc(N, nb, p, 3);
    CHECK(total == N, "numroc sums to %lld", (long long)total);
}

/* ---- one-rank runs ---- */

static void test_runs(hyla_t *ctx) {
    const struct {
        int64_t n, nb;
        int depth;
    } runs[] = {{0, 8, 0}, {1, 8, 0}, {2, 1, 1}, {97, 16, 0}, {130, 32, 1}, {257, 64, 1}, {200, 7, 0}};
    static double x[3][300];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
        for (int algo = HYLA_HPL_AUTO; algo <= HYLA_HPL_HOST_PANEL; algo++) {
            hyla_hpl_params p = {.n = runs[i].n, .nb = runs[i].nb, .nprow = 1, .npcol = 1,
                                 .depth = runs[i].depth, .threshold = 16.0, .algo = algo};
            hyla_hpl_result r;
            int rc = hyla_hpl_run(ctx, 0, &p, &r, x[algo]);
            CHECK(rc == 0 && r.in_grid && r.info == 0 &&
                      (runs[i].n == 0 || (r.checked && r.passed)),
                  "n %lld nb %lld depth %d algo %d: rc %d info %lld resid %g",
                  (long long)runs[i].n, (long long)runs[i].nb, runs[i].depth, algo, rc,
                  (long long)r.info, r.resid);
            /* the three paths agree to rounding level */
            double dn = 0, xn = 0;
            for (int64_t k = 0; k < runs[i].n; k++) {
                dn = fmax(dn, fabs(x[algo][k] - x[0][k]));
                xn = fmax(xn, fabs(x[0][k]));
            }
            CHECK(dn <= 1e-9 * xn, "n %lld algo %d: solutions differ by %g", (long long)runs[i].n,
                  algo, xn > 0 ? dn / xn : dn);
        }
    /* bad arguments */
    hyla_hpl_params p = {.n = 10, .nb = 4, .nprow = 1, .npcol = 1, .threshold = 16};
    hyla_hpl_result r;
    CHECK(hyla_hpl_run(ctx, 0, &p, NULL, NULL) == -4, "res NULL");
    CHECK(hyla_hpl_run(ctx, 99, &p, &r, NULL) == -2, "bad device");
    p.nb = 0;
    CHECK(hyla_hpl_run(ctx, 0, &p, &r, NULL) == -3, "nb 0");
    p.nb = 4;
    p.nprow = 2; /* one rank */
    CHECK(hyla_hpl_run(ctx, 0, &p, &r, NULL) == -3, "grid larger than the ranks");
    p.nprow = 1;
    p.bcast = 3;
    CHECK(hyla_hpl_run(ctx, 0, &p, &r, NULL) == -3, "bcast 3");
    p.bcast = -1;
    CHECK(hyla_hpl_run(ctx, 0, &p, &r, NULL) == -3, "bcast -1");
    /* one rank: no process row to broadcast along, so DEVICE runs the
     * one-rank path on any backend */
    p.bcast = HYLA_HPL_BCAST_DEVICE;
    CHECK(hyla_hpl_run(ctx, 0, &p, &r, NULL) == 0 && r.passed && !r.bcast_device, "bcast device, one rank");
    p.bcast = HYLA_HPL_BCAST_AUTO;
    /* allocation failures: a clean error and no leak */
    p.nprow = 1;
    for (int k = 1; k <= 12; k++) {
        int64_t live0, live1, total;
        hyla_debug_alloc_stats(&live0, &total);
        hyla_debug_fail_alloc(k);
        int rc = hyla_hpl_run(ctx, 0, &p, &r, NULL);
        hyla_debug_fail_alloc(0);
        hyla_debug_alloc_stats(&live1, &total);
        CHECK(rc == 0 || rc == HYLA_ERR_NO_MEMORY || rc == HYLA_ERR_DEVICE_MEMORY,
              "failure %d: rc %d", k, rc);
        CHECK(live1 == live0, "failure %d: %lld allocations leaked", k, (long long)(live1 - live0));
    }
}

/* test_hpl --same-x X1.npy X2.npy: two HPL solutions agree to rounding
 * level, |x1 - x2|oo / |x1|oo below 1e-9 (HPL's matrices of the tests'
 * sizes have condition numbers near 1e4, eps 1.1e-16). */
static int same_x(const char *f1, const char *f2) {
    hyla_npy a = {0}, b = {0};
    char msg[256];
    int rc = hyla_npy_read(f1, &a, msg, sizeof msg);
    CHECK(rc == 0, "%s: %s", f1, msg);
    if (!rc) rc = hyla_npy_read(f2, &b, msg, sizeof msg);
    CHECK(rc == 0, "%s: %s", f2, msg);
    if (!rc) {
        CHECK(a.dtype == HYLA_D && b.dtype == HYLA_D && a.rows == b.rows && a.cols == 1 &&
                  b.cols == 1,
              "shapes differ");
        if (a.rows == b.rows && a.dtype == HYLA_D && b.dtype == HYLA_D) {
            const double *x = a.data, *y = b.data;
            double dn = 0, xn = 0;
            for (int64_t i = 0; i < a.rows; i++) {
                dn = fmax(dn, fabs(x[i] - y[i]));
                xn = fmax(xn, fabs(x[i]));
            }
            printf("|x1 - x2|oo / |x1|oo = %.3e (n = %lld)\n", xn > 0 ? dn / xn : dn,
                   (long long)a.rows);
            CHECK(dn <= 1e-9 * xn, "solutions differ: %.3e", xn > 0 ? dn / xn : dn);
        }
    }
    hyla_npy_free(&a);
    hyla_npy_free(&b);
    return summary("test_hpl --same-x");
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "--same-x") == 0) return same_x(argv[2], argv[3]);
    test_parser();
    test_generator();
    hyla_t *ctx = NULL;
    int rc = hyla_create(&ctx, test_devices());
    if (rc == HYLA_ERR_NO_DEVICE || rc == HYLA_ERR_UNSUPPORTED) {
        printf("test_hpl: no device for '%s', runs skipped\n", test_devices());
        return summary("test_hpl");
    }
    CHECK(rc == 0, "hyla_create: %s", hyla_strerror(rc));
    if (ctx) test_runs(ctx);
    hyla_destroy(&ctx);
    return summary("test_hpl");
}
