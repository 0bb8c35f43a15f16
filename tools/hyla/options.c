/* Command-line parsing shared by every routine: `hyla <routine> [options]`,
 * options as "--name value", "--name=value" or "-n value". */
#include "options.h"

#include "cmd.h"

#include "matgen_eig.h"
#include "output.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LIST = 100000 };

static const char *const routines[] = {"gemm", "potrf", "potrs", "posv", "getrf", "getrs",
                                       "gesv", "gesv_rbt", "syevd", "heevd", "stedc", "sterf",
                                       "hpl", "sygvd", "hegvd", "syevdx", "heevdx"};

/* The options of the tester itself; the library's tuning options come from
 * the table of hyla_options.h. */
typedef enum {
    OPT_N, OPT_M, OPT_K, OPT_TYPE, OPT_UPLO, OPT_JOBZ, OPT_DEVICES, OPT_CHECK, OPT_VS,
    OPT_REPEAT, OPT_WARMUP, OPT_JSON, OPT_INPUT, OPT_OUTPUT, OPT_TRANSA, OPT_TRANSB,
    OPT_ALPHA, OPT_BETA, OPT_SEED, OPT_XT_BLOCK, OPT_VERBOSE, OPT_STATS, OPT_HELP, OPT_VERSION,
    OPT_NRHS, OPT_COND, OPT_MATRIX, OPT_TIMERS, OPT_GRID, OPT_DEPTH, OPT_REFINE, OPT_BCAST,
    OPT_OUTPUT_ON_FAIL, OPT_ITYPE, OPT_RANGE
} opt_id;

typedef struct {
    const char *name;
    opt_id id;
    bool takes_value;
} opt_spec;

static const opt_spec specs[] = {
    {"-n", OPT_N, true},           {"-m", OPT_M, true},
    {"-k", OPT_K, true},           {"--type", OPT_TYPE, true},
    {"--uplo", OPT_UPLO, true},    {"--jobz", OPT_JOBZ, true},
    {"--devices", OPT_DEVICES, true}, {"--check", OPT_CHECK, false},
    {"--vs", OPT_VS, true},        {"--repeat", OPT_REPEAT, true},
    {"--warmup", OPT_WARMUP, true}, {"--json", OPT_JSON, false},
    {"--input", OPT_INPUT, true},  {"--output", OPT_OUTPUT, true},
    {"--transa", OPT_TRANSA, true}, {"--transb", OPT_TRANSB, true},
    {"--alpha", OPT_ALPHA, true},  {"--beta", OPT_BETA, true},
    {"--seed", OPT_SEED, true},    {"--xt-block", OPT_XT_BLOCK, true},
    {"--verbose", OPT_VERBOSE, false}, {"--stats", OPT_STATS, false},
    {"--help", OPT_HELP, false},   {"-h", OPT_HELP, false},
    {"--version", OPT_VERSION, false},
    {"--nrhs", OPT_NRHS, true},    {"--cond", OPT_COND, true},
    {"--matrix", OPT_MATRIX, true}, {"--timers", OPT_TIMERS, false},
    {"--grid", OPT_GRID, true},    {"--bcast", OPT_BCAST, true},
    {"--depth", OPT_DEPTH, true},  {"--refine", OPT_REFINE, true},
    {"--output-on-fail", OPT_OUTPUT_ON_FAIL, false}, {"--itype", OPT_ITYPE, true},
    {"--range", OPT_RANGE, true},
};

/* The tuning options (hyla_options.h), in table order: CLI_OPT_<ID> indexes it. */
static const struct {
    hyla_option opt;
    const char *flag, *values;
    int64_t min, max;
} tuning_table[CLI_NOPTS] = {
#define X(id, flag, values, lo, hi, def, help) {HYLA_OPT_##id, flag, values, lo, hi},
    HYLA_OPTIONS(X)
#undef X
};

/* One --help line: the flag, its value syntax and what it does. */
static void usage_line(FILE *f, const char *flag, const char *values, const char *help) {
    char head[48];
    snprintf(head, sizeof head, "%s%s%s", flag, *values ? " " : "", values);
    if (strlen(head) > 20) fprintf(f, "  %s\n  %-20s %s\n", head, "", help);
    else fprintf(f, "  %-20s %s\n", head, help);
}

void cli_usage(FILE *f) {
    fputs(
        "usage: hyla <routine> [options]   run and time a routine\n"
        "       hyla [options]             default benchmark suite (GEMM, Cholesky, LU, HPL, RBT,\n"
        "                                  eigensolver) with --check --vs vendor\n"
        "       hyla help | --help | --version\n"
        "\n"
        "routines:\n"
        "  gemm                 C := alpha*op(A)*op(B) + beta*C\n"
        "  potrf                Cholesky factorization A = L L^H (--uplo L) or U^H U (--uplo U)\n"
        "  potrs                solve A X = B with the Cholesky factor of A\n"
        "  posv                 factor A and solve A X = B\n"
        "  syevd, heevd         eigenvalues (--jobz N) and eigenvectors (--jobz V) of a Hermitian A\n"
        "  stedc, sterf         symmetric tridiagonal eigenpairs (divide and conquer) / eigenvalues\n"        "  sygvd, hegvd         generalized eigenproblem A x = l B x (--itype 1, 2, 3; --range\n"        "                       I:il:iu|V:vl:vu: a part of its spectrum, hyla_?sygvdx)\n"        "  syevdx, heevdx       a part of the spectrum of a Hermitian A (--range I:il:iu|V:vl:vu)\n"
        "  getrf                LU factorization with partial pivoting P A = L U (m x n: -m, -n)\n"
        "  getrs                solve op(A) X = B (--transa N|T|C) with the LU factor of A\n"
        "  gesv                 LU-factor A and solve A X = B\n"
        "  hpl [HPL.dat]        High-Performance Linpack from a netlib HPL.dat (default ./HPL.dat);\n"
        "                       under mpirun, one rank per GPU (or host device) on the P x Q grid\n"
        "  gesv_rbt             solve A X = B by random butterflies, LU without pivoting, refinement\n"
        "\n"
        "options (LIST: comma-separated sizes and start:end:step ranges, e.g. 100,200:400:100;\n"
        "a size may carry a power of ten, e.g. 1e4):\n"
        "  -n LIST              sizes n (required unless --input)\n"
        "  -m LIST, -k LIST     sizes m and k (default: equal to n, element-wise; one value: for every n)\n"
        "  --type LIST          precisions among s,d,c,z (default d)\n"
        "  --uplo L,U           triangles, for routines that take one (default L)\n"
        "  --jobz N|V           eigenvectors, for routines that take them\n"
        "  --devices SPEC       devices as in HYLA_DEVICES (device lists: below)\n"
        "  --check              check the result: scaled error, pass if < 10 (gemm) or < 60 (Cholesky)\n"
        "  --vs vendor          also time the vendor routine and print the ratio vendor/hyla time\n"
        "                       (gemm: OpenBLAS; GPUs: cuBLASXt, and cuBLAS on device-resident matrices;\n"
        "                       Cholesky: LAPACKE; one GPU: cuSOLVER on a device-resident copy, and\n"
        "                       hyla_?potrf_gpu on the same copy; several GPUs: cusolverMg)\n"
        "  --repeat N           timed runs; the median is reported (default 3)\n"
        "  --warmup N           untimed runs before them (default 1)\n"
        "  --json               one JSON object per run, one per line\n"
        "  --input F.npy[,...]  user matrices; sizes and type from the files\n"
        "                       (gemm: A.npy,B.npy[,C.npy]; C starts as zeros when not given;\n"
        "                       potrf: A.npy; posv: A.npy,B.npy; potrs: L.npy,B.npy with the factor\n"
        "                       in the --uplo triangle)\n"
        "  --output F.npy[,...] write the result of the first run (gemm: C; potrf: the factor, the\n"
        "                       other triangle zeroed; potrs, posv: X); as many names as the\n"
        "                       routine has results; each file goes to a temporary file in its\n"
        "                       directory, all renamed only when all were written; never an\n"
        "                       --input; nothing after a FAILED --check\n"
        "  --output-on-fail     write --output even when --check FAILED\n"
        "  --seed N             seed of the random matrices (default 42)\n"
        "  --verbose            library trace on stderr\n"
        "\n"
        "gemm options:\n"
        "  --transa N|T|C, --transb N|T|C   op(A), op(B) (default N)\n"
        "  --alpha X, --beta X  real scalars (default 1 and 1)\n"
        "  --xt-block N         cuBLASXt block dimension for --vs vendor (default 8192)\n"
        "  --stats              print tiles per device and bytes moved after each run\n"
        "\n"
        "Cholesky options (potrf, potrs, posv):\n"
        "  --nrhs LIST          right-hand sides (default 1; one value or as many as -n, or several\n"
        "                       with one -n)\n"
        "  --cond X             generated A = Q D Q^H with eigenvalues 1 .. 1/X in geometric\n"
        "                       progression and a random unitary Q (O(n^3): n <= 8192); default: a\n"
        "                       random Hermitian matrix, entries in (-1, 1), plus n on the diagonal\n"
        "  --stats              print out-of-core mode, panel width, resident columns, bytes moved\n"
        "\n"
        "eigensolver options (syevd, heevd; real types run syevd, complex ones heevd):\n"
        "  --jobz N|V           eigenvalues only, or eigenvectors too (default N)\n"
        "  --matrix CLASS       random (default), clustered, geometric, arithmetic, onelarge (eigenvalue\n"
        "                       distributions of LAPACK dlatms, cond 1e6), graded, diagonal, zero;\n"
        "                       also syevdx, heevdx and A of sygvd, hegvd\n"
        "  --timers             print the seconds of each stage after each run; several devices:\n"
        "                       also a Gantt line per device (U upload, 1 sy2sb, 2 sb2st,\n"
        "                       T tridiag, q Q2, Q Q1, G Z = Q E, D download over 60 columns, each\n"
        "                       phase's start-end seconds, the columns of Z); --json: \"timeline\"\n"
        "  --input A.npy        the matrix (its --uplo triangle is read)\n"
        "  --output W.npy[,Z.npy]  eigenvalues (1-D), and with --jobz V the eigenvectors\n"
        "  --check              |A - Z L Z^H|_1/(n |A|_1 eps), |I - Z^H Z|_1/(n eps) and eigenvalues vs\n"
        "                       LAPACKE ?syevd within 60 n eps |A| for n <= 2048; beyond, random-vector\n"
        "                       probes |A Z x - Z L x| and |Z^H Z x - x| (V), trace and Frobenius norm (N)\n"
        "  --vs vendor          LAPACKE ?syevd/?heevd on host devices; one GPU: cusolverDnXsyevd on a\n"
        "                       device-resident copy, and hyla_?syevd_gpu on the same copy\n"
        "                       (ours-dev); several GPUs: cusolverMgSyevd (uplo L; one GPU listed\n"
        "                       several times, cuda:0,0: cusolverDnXsyevd); on several devices of\n"
        "                       any kind also hyla on device 0 alone (one-dev, JSON one_dev_time_s)\n"
        "\n"
        "generalized eigensolver (sygvd, hegvd: A x = l B x, B positive definite, generated):\n"
        "  --itype LIST         1 (A x = l B x), 2 (A B x = l x), 3 (B A x = l x) (default 1)\n"
        "  --jobz, --uplo       as for syevd; --check: residual and B-normalization (jobz V),\n"
        "                       eigenvalues against LAPACKE ?sygvd (N); --vs vendor: LAPACKE ?sygvd\n"
        "                       (with --range: the same indices, and LAPACKE ?sygvx)\n"
        "\n"
        "part of the spectrum (syevdx, heevdx: generated A as for sygvd):\n"
        "  --range A|I:il:iu|V:vl:vu  all, the il-th to iu-th (1-based, ascending), or those in\n"
        "                       (vl, vu] (default A); --check: |A Z - Z W|, |Z^H Z - I| (V) and\n"
        "                       the values against LAPACKE ?syevr; --vs vendor: LAPACKE ?syevr\n"
        "\n"
        "tridiagonal options (stedc, sterf; --type s,d):\n"
        "  --cond X             T = the tridiagonal of Q D Q^T, eigenvalues 1 .. 1/X geometric (O(n^3));\n"
        "                       default: the 1-2-1 matrix with diagonal 2 + u/10, u in (-1, 1)\n"
        "LU options (getrf, getrs, gesv): --nrhs as for Cholesky; --transa N|T|C for getrs.\n"
        "  --input: getrf A.npy (any shape; --output LU.npy[,ipiv.npy] writes L\\U and\n"
        "  the 1-based pivots as a 1-D float64 array; info is in the row; info > 0: the\n"
        "  factorization completes and is written, with a warning); getrs, gesv A.npy,B.npy\n"
        "  (getrs factors A first, untimed; --output writes X); getrs LU.npy,ipiv.npy,B.npy solves\n"
        "  with that factor (--check against A = P L U formed from it). --panel (below) also\n"
        "  applies to gesv_rbt and hpl, and kernel[:N] to syevd/heevd's stage-1 QR panels.\n"
        "  --stats: panel width, leaf width, lookahead, bytes moved, panel factorization time,\n"
        "  panels per device.\n"
        "  --vs vendor: LAPACKE; one GPU: cuSOLVER cusolverDnXgetrf/Xgetrs on a device-resident\n"
        "  copy (and hyla_?getrf_gpu on the same copy, ours-dev); several GPUs: cusolverMg\n"
        "HPL options (hpl):\n"
        "  -n LIST, --nb N      problem sizes and block size instead of HPL.dat's (without an HPL.dat:\n"
        "                       NB 256 on host devices, 1280 on GPUs; grid 1 x 1; depth 1; threshold 16)\n"
        "  --grid PxQ           one process grid instead of HPL.dat's\n"
        "  --bcast B            one process row: panels along the row device to device (NCCL),\n"
        "                       through host memory and MPI (host), or device where every rank\n"
        "                       of the row has a GPU of its own (auto, the default)\n"
        "  --output X.npy       the solution x of the first test\n"
        "  --json               one JSON object per test instead of HPL's text\n"
        "\n"
        "RBT options (gesv_rbt): --nrhs as for Cholesky; --seed also seeds the butterflies\n"
        "  --depth N            butterfly depth 1..8 (default 2)\n"
        "  --refine N           refinement steps at most, 0..100 (default 10)\n"
        "  --matrix KIND        generated A: random (default), zero11 (A(1,1) = 0), tiny\n"
        "                       (A(1,1) = eps^2), perm (a cyclic shift; falls back at small depth)\n"
        "  --check: |B - A X| / (n |A| |X| eps) (pass below 60); every row prints a '%   rbt:' line\n"
        "  (refinement steps, backward error, fallback) and, with --stats, the time of each part\n"
        "  and the randomization share. --vs vendor: LAPACKE gesv; one GPU: cuSOLVER\n"
        "  Xgetrf+Xgetrs on a device-resident copy, and hyla_?gesv_rbt_gpu on the same copy\n"
        "  (ours-dev). --input A.npy,B.npy --output X.npy.\n"
        "\n"
        "tuning options (hyla_options.h; each is also read from HYLA_<ID> for HYLA_OPT_<ID>):\n",
        f);
#define X(id, flag, values, lo, hi, def, help) usage_line(f, flag, values, help);
    HYLA_OPTIONS(X)
#undef X
    fputs("\n"
          "options a routine ignores give a warning; a tuning N is at least 1 (leave the flag\n"
          "out for the default); sizes beyond memory or int ranges are refused before any work\n"
          "(docs/BAD_INPUT.md lists every class of bad input)\n"
          "\n"
          "exit status: 0 success, 1 FAILED check, info > 0 (not positive definite, singular),\n"
          "             library, file or memory error, a size that does not fit; 2 bad usage\n",
          f);
    fprintf(f, "\ndevice lists (--devices, HYLA_DEVICES): %s\n", hyla_device_list_help());
}

static int usage_error(const char *opt, const char *val, const char *why) {
    if (val)
        fprintf(stderr, "hyla: %s: bad value '%s': %s\n", opt, val, why);
    else
        fprintf(stderr, "hyla: %s: %s\n", opt, why);
    fputs("hyla: see 'hyla --help'\n", stderr);
    return CLI_EXIT_USAGE;
}

/* Reads a non-negative decimal integer at *p, optionally with a power of
 * ten (3e9), and advances *p past it. */
static bool scan_size(const char **p, int64_t *out) {
    const char *s = *p;
    int64_t v = 0;
    if (!isdigit((unsigned char)*s)) return false;
    for (; isdigit((unsigned char)*s); s++) {
        int d = *s - '0';
        if (v > (INT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    if ((*s == 'e' || *s == 'E') && isdigit((unsigned char)s[1])) {
        int64_t e = 0;
        for (s++; isdigit((unsigned char)*s); s++)
            if ((e = e * 10 + (*s - '0')) > 18) return false;
        for (; e > 0; e--) {
            if (v > INT64_MAX / 10) return false;
            v *= 10;
        }
    }
    *out = v;
    *p = s;
    return true;
}

static bool parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out) {
    int64_t v;
    if (!scan_size(&s, &v) || *s != '\0' || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static int parse_list(const char *opt, const char *s, cli_list *out) {
    cli_list l = {NULL, 0};
    int cap = 0;
    const char *p = s;
    const char *why = "expected sizes and start:end:step ranges separated by commas";
    for (;;) {
        int64_t a, b, step = 1;
        if (!scan_size(&p, &a)) goto bad;
        b = a;
        if (*p == ':') {
            why = "a range is start:end:step";
            p++;
            if (!scan_size(&p, &b) || *p != ':') goto bad;
            p++;
            if (!scan_size(&p, &step) || (*p != ',' && *p != '\0')) goto bad;
            if (step < 1 || b < a) {
                why = "a range start:end:step needs start <= end and step >= 1";
                goto bad;
            }
        }
        if (*p != ',' && *p != '\0') goto bad;
        int64_t cnt = (b - a) / step + 1;
        if (cnt > MAX_LIST - l.count) {
            why = "more than 100000 sizes";
            goto bad;
        }
        if (l.count + cnt > cap) {
            int ncap = (int)(l.count + cnt) * 2;
            int64_t *nv = realloc(l.v, (size_t)ncap * sizeof *nv);
            if (!nv) {
                free(l.v);
                fputs("hyla: out of memory\n", stderr);
                return CLI_EXIT_FAIL;
            }
            l.v = nv;
            cap = ncap;
        }
        for (int64_t i = 0; i < cnt; i++) l.v[l.count++] = a + i * step;
        if (*p == '\0') break;
        p++;
    }
    free(out->v);
    *out = l;
    return 0;
bad:
    free(l.v);
    return usage_error(opt, s, why);
}

static int parse_types(const char *opt, const char *s, cli_opts *o) {
    int n = 0;
    for (const char *p = s;; p++) {
        const char *pos = *p ? strchr("sdcz", tolower((unsigned char)*p)) : NULL;
        if (!pos || (p[1] != ',' && p[1] != '\0'))
            return usage_error(opt, s, "expected precisions among s,d,c,z separated by commas");
        if (n == CLI_MAX_TYPES) return usage_error(opt, s, "too many precisions");
        o->types[n++] = (hyla_dtype)(pos - "sdcz");
        if (*++p == '\0') break;
    }
    o->ntypes = n;
    return 0;
}

/* One letter out of `allowed` (upper case), any case accepted. */
static int parse_letter(const char *opt, const char *s, const char *allowed, char *out) {
    char c = (char)toupper((unsigned char)s[0]);
    if (s[0] == '\0' || s[1] != '\0' || !strchr(allowed, c)) {
        char why[64];
        snprintf(why, sizeof why, "expected one of %s", allowed);
        return usage_error(opt, s, why);
    }
    *out = c;
    return 0;
}

/* A comma list of triangles, each L or U, any case, no repeats. */
static int parse_uplos(const char *opt, const char *s, cli_opts *o) {
    int n = 0;
    for (const char *p = s;; p += 2) {
        char c = (char)toupper((unsigned char)*p);
        if ((c != 'L' && c != 'U') || (p[1] != ',' && p[1] != '\0'))
            return usage_error(opt, s, "expected L, U or L,U");
        if (n == 2 || (n == 1 && o->uplo[0] == c)) return usage_error(opt, s, "each triangle once");
        o->uplo[n++] = c;
        if (p[1] == '\0') break;
    }
    o->nuplo = n;
    return 0;
}

/* --range A | I:il:iu (1-based) | V:vl:vu (vl < vu) */
static int parse_range(const char *opt, const char *s, cli_opts *o) {
    char *end;
    if (strcmp(s, "A") == 0) {
        o->range = 'A';
        return 0;
    }
    if ((s[0] == 'I' || s[0] == 'V') && s[1] == ':') {
        errno = 0;
        if (s[0] == 'I') {
            long long il = strtoll(s + 2, &end, 10);
            if (*end == ':' && end != s + 2) {
                const char *p = end + 1;
                long long iu = strtoll(p, &end, 10);
                if (!errno && *end == '\0' && end != p && il >= 1 && iu >= il) {
                    o->range = 'I', o->il = il, o->iu = iu;
                    return 0;
                }
            }
        } else {
            double vl = strtod(s + 2, &end);
            if (*end == ':' && end != s + 2) {
                const char *p = end + 1;
                double vu = strtod(p, &end);
                if (!errno && *end == '\0' && end != p && isfinite(vl) && isfinite(vu) && vl < vu) {
                    o->range = 'V', o->vl = vl, o->vu = vu;
                    return 0;
                }
            }
        }
    }
    return usage_error(opt, s, "expected A, I:il:iu (1 <= il <= iu) or V:vl:vu (vl < vu)");
}

/* --itype: a comma list of 1, 2, 3, each once */
static int parse_itypes(const char *opt, const char *s, cli_opts *o) {
    int n = 0;
    for (const char *p = s;; p += 2) {
        if (*p < '1' || *p > '3' || (p[1] != ',' && p[1] != '\0'))
            return usage_error(opt, s, "expected 1, 2 or 3, or a comma list of them");
        for (int k = 0; k < n; k++)
            if (o->itype[k] == *p - '0') return usage_error(opt, s, "each itype once");
        o->itype[n++] = *p - '0';
        if (p[1] == '\0') break;
    }
    o->nitype = n;
    return 0;
}

static int parse_real(const char *opt, const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || isspace((unsigned char)s[0]) || errno == ERANGE || !isfinite(v))
        return usage_error(opt, s, "expected a finite real number");
    *out = v;
    return 0;
}

/* A comma list of file names (--input, --output), copied to *buf and split
 * there into names[0 .. *count), at most max. */
static int parse_files(const char *opt, const char *s, char **buf, const char **names, int *count,
                       int max) {
    size_t len = strlen(s);
    char *b = malloc(len + 1);
    if (!b) {
        fputs("hyla: out of memory\n", stderr);
        return CLI_EXIT_FAIL;
    }
    memcpy(b, s, len + 1);
    free(*buf);
    *buf = b;
    *count = 0;
    for (char *p = b;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        if (*p == '\0') return usage_error(opt, s, "empty file name");
        if (*count == max) return usage_error(opt, s, "too many files");
        names[(*count)++] = p;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

static int set_count(const char *opt, const char *s, int64_t lo, int64_t hi, int *out) {
    int64_t v;
    if (!parse_int(s, lo, hi, &v)) {
        char why[64];
        snprintf(why, sizeof why, "expected an integer from %lld to %lld", (long long)lo,
                 (long long)hi);
        return usage_error(opt, s, why);
    }
    *out = (int)v;
    return 0;
}

/* The value of a three-way option: its index among names (the first is
 * "auto", 0). */
static const char *const where3[3] = {"auto", "host", "device"};

static int set_choice(const char *opt, const char *v, const char *const names[3], int64_t *out) {
    for (int i = 0; i < 3; i++)
        if (!strcmp(v, names[i])) {
            *out = i;
            return 0;
        }
    char why[96];
    snprintf(why, sizeof why, "expected %s, %s or %s", names[0], names[1], names[2]);
    return usage_error(opt, v, why);
}

static int set_option(cli_opts *o, const opt_spec *sp, const char *v) {
    const char *opt = sp->name;
    switch (sp->id) {
    case OPT_N: return parse_list(opt, v, &o->n);
    case OPT_M: return parse_list(opt, v, &o->m);
    case OPT_K: return parse_list(opt, v, &o->k);
    case OPT_TYPE: return parse_types(opt, v, o);
    case OPT_UPLO: return parse_uplos(opt, v, o);
    case OPT_JOBZ: return parse_letter(opt, v, "NV", &o->jobz);
    case OPT_NRHS: return parse_list(opt, v, &o->nrhs);
    case OPT_MATRIX: /* one option for two routine families; each checks its own names */
        o->eig_matrix = eig_class_parse(v);
        if (o->eig_matrix < 0 && strcmp(v, "zero11") && strcmp(v, "tiny") && strcmp(v, "perm"))
            return usage_error(opt, v, "expected random, clustered, geometric, arithmetic, onelarge, "
                                       "graded, diagonal or zero (syevd/heevd), or random, zero11, "
                                       "tiny or perm (gesv_rbt)");
        o->matrix = v;
        return 0;
    case OPT_TIMERS: o->timers = true; return 0;
    case OPT_BCAST: return set_choice(opt, v, where3, &o->hpl_bcast);
    case OPT_GRID: {
        int64_t pq[2];
        const char *x = strchr(v, 'x');
        char head[32];
        if (!x || (size_t)(x - v) >= sizeof head) return usage_error(opt, v, "expected PxQ, e.g. 2x2");
        memcpy(head, v, (size_t)(x - v));
        head[x - v] = '\0';
        if (!parse_int(head, 1, 1 << 20, &pq[0]) || !parse_int(x + 1, 1, 1 << 20, &pq[1]))
            return usage_error(opt, v, "expected PxQ with P, Q >= 1, e.g. 2x2");
        o->hpl_p = (int)pq[0];
        o->hpl_q = (int)pq[1];
        return 0;
    }
    case OPT_COND:
        if (parse_real(opt, v, &o->cond)) return CLI_EXIT_USAGE;
        return o->cond >= 1 ? 0 : usage_error(opt, v, "a condition number is >= 1");
    case OPT_DEPTH: return set_count(opt, v, 1, HYLA_RBT_MAX_DEPTH, &o->rbt_depth);
    case OPT_REFINE: return set_count(opt, v, 0, 100, &o->rbt_refine);
    case OPT_TRANSA: return parse_letter(opt, v, "NTC", &o->transa);
    case OPT_TRANSB: return parse_letter(opt, v, "NTC", &o->transb);
    case OPT_DEVICES:
        if (*v == '\0') return usage_error(opt, v, "empty device list");
        o->devices = v;
        return 0;
    case OPT_CHECK: o->check = true; return 0;
    case OPT_JSON: o->json = true; return 0;
    case OPT_VERBOSE: o->verbose = true; return 0;
    case OPT_STATS: o->stats = true; return 0;
    case OPT_HELP: o->help = true; return 0;
    case OPT_VERSION: o->version = true; return 0;
    case OPT_VS:
        if (strcmp(v, "vendor") != 0) return usage_error(opt, v, "the only comparison is 'vendor'");
        o->vs_vendor = true;
        return 0;
    case OPT_REPEAT: return set_count(opt, v, 1, 1000000, &o->repeat);
    case OPT_WARMUP: return set_count(opt, v, 0, 1000000, &o->warmup);
    case OPT_XT_BLOCK: return set_count(opt, v, 1, INT_MAX, &o->xt_block);
    case OPT_INPUT:
        return parse_files(opt, v, &o->input_buf, o->inputs, &o->ninputs, CLI_MAX_INPUTS);
    case OPT_OUTPUT: {
        int rc = parse_files(opt, v, &o->output_buf, o->outputs, &o->noutputs, CLI_MAX_OUTPUTS);
        o->output = rc ? NULL : o->outputs[0];
        return rc;
    }
    case OPT_OUTPUT_ON_FAIL: o->output_on_fail = true; return 0;
    case OPT_ITYPE: return parse_itypes(opt, v, o);
    case OPT_RANGE: return parse_range(opt, v, o);
    case OPT_ALPHA: return parse_real(opt, v, &o->alpha);
    case OPT_BETA: return parse_real(opt, v, &o->beta);
    case OPT_SEED: {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(v, &end, 10);
        if (!isdigit((unsigned char)v[0]) || *end != '\0' || errno == ERANGE)
            return usage_error(opt, v, "expected an integer from 0 to 2^64-1");
        o->seed = s;
        return 0;
    }
    }
    return usage_error(opt, v, "internal error: unhandled option");
}

static const opt_spec *find_option(const char *arg, size_t len) {
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (strlen(specs[i].name) == len && strncmp(specs[i].name, arg, len) == 0) return &specs[i];
    return NULL;
}

/* The first tuning option of the flag arg[0..len), or -1. */
static int find_tuning(const char *arg, size_t len) {
    for (int t = 0; t < CLI_NOPTS; t++)
        if (strlen(tuning_table[t].flag) == len && strncmp(tuning_table[t].flag, arg, len) == 0) return t;
    return -1;
}

/* Smallest integer N of tuning option t on the command line: 0 means the
 * default (tuning table, automatic) in every option whose range starts at
 * 0, and the default is had by leaving the flag out, so a 0 given is a
 * mistake (it would silently become the default). */
static int64_t tuning_min(int t) { return tuning_table[t].min > 1 ? tuning_table[t].min : 1; }

/* Reads s as the value of tuning option t by its table syntax (hyla_options.h):
 * the k-th word is min + k, N an integer, word:N the integer after the
 * word, F a fraction in units of 1/1000. */
static bool tuning_value(int t, const char *s, int64_t *out) {
    int64_t word = tuning_table[t].min;
    int64_t lo = tuning_min(t);
    for (const char *alt = tuning_table[t].values; *alt;) {
        size_t len = strcspn(alt, "|");
        if (len == 1 && *alt == 'N') {
            if (parse_int(s, lo, tuning_table[t].max, out)) return true;
        } else if (len == 1 && *alt == 'F') {
            char *end;
            double f = strtod(s, &end);
            if (end != s && *end == '\0' && !isspace((unsigned char)s[0]) && f >= 0 &&
                f * 1000 <= (double)tuning_table[t].max) {
                *out = llround(f * 1000);
                return true;
            }
        } else if (len > 2 && alt[len - 2] == ':' && alt[len - 1] == 'N') {
            if (strncmp(s, alt, len - 1) == 0 && parse_int(s + len - 1, lo, tuning_table[t].max, out))
                return true;
        } else {
            if (strlen(s) == len && strncmp(s, alt, len) == 0) {
                *out = word;
                return true;
            }
            word++;
        }
        alt += len + (alt[len] == '|');
    }
    return false;
}

/* A tuning flag: sets every option of the table that has it. */
static int set_tuning(cli_opts *o, const char *flag, const char *v) {
    for (int t = 0; t < CLI_NOPTS; t++) {
        if (strcmp(tuning_table[t].flag, flag) != 0) continue;
        if (!v) {
            o->tuning[t] = tuning_table[t].max;
        } else if (!tuning_value(t, v, &o->tuning[t])) {
            char why[200];
            int w = snprintf(why, sizeof why, "expected %s", tuning_table[t].values);
            if (strchr(tuning_table[t].values, 'N'))
                snprintf(why + w, sizeof why - (size_t)w,
                         " (N: an integer from %lld to %lld; leave the option out for the default)",
                         (long long)tuning_min(t), (long long)tuning_table[t].max);
            else if (strchr(tuning_table[t].values, 'F'))
                snprintf(why + w, sizeof why - (size_t)w, " (F: a fraction from 0 to %g)",
                         (double)tuning_table[t].max / 1000);
            return usage_error(flag, v, why);
        }
        o->tuning_given[t] = true;
    }
    return 0;
}

int cli_configure(hyla_t *ctx, const cli_opts *o) {
    if (o->verbose) hyla_set_log(ctx, stderr);
    for (int t = 0; t < CLI_NOPTS; t++) {
        if (!o->tuning_given[t]) continue;
        int rc = hyla_set_option(ctx, tuning_table[t].opt, o->tuning[t]);
        if (rc == -3) {
            fprintf(stderr, "hyla: %s: value %lld is out of range\n", tuning_table[t].flag,
                    (long long)o->tuning[t]);
            return CLI_EXIT_USAGE;
        }
        if (rc) {
            fprintf(stderr, "hyla: %s: %s\n", tuning_table[t].flag, hyla_strerror(rc));
            return CLI_EXIT_FAIL;
        }
    }
    return CLI_EXIT_OK;
}

/* The --output names: as many as the routine writes at most, none twice,
 * none an --input (it would be overwritten). */
static int check_outputs(const cli_opts *o) {
    const char *what;
    int max = out_max_names(o, &what);
    if (o->noutputs > max) {
        fprintf(stderr, "hyla: --output: %s writes %s, %d file%s at most; got %d names\n",
                o->routine ? o->routine : "the default suite", what, max, max == 1 ? "" : "s",
                o->noutputs);
        return CLI_EXIT_USAGE;
    }
    for (int i = 0; i < o->noutputs; i++) {
        for (int j = 0; j < i; j++)
            if (out_same_file(o->outputs[i], o->outputs[j])) {
                fprintf(stderr, "hyla: --output: %s is named twice\n", o->outputs[i]);
                return CLI_EXIT_USAGE;
            }
        for (int j = 0; j < o->ninputs; j++)
            if (out_same_file(o->outputs[i], o->inputs[j])) {
                fprintf(stderr, "hyla: --output %s is the --input %s: writing it would destroy the "
                        "input; name another file\n", o->outputs[i], o->inputs[j]);
                return CLI_EXIT_USAGE;
            }
    }
    return 0;
}

/* Whether routine r is one of the space-separated names in list. */
static bool routine_in(const char *r, const char *list) {
    size_t len = strlen(r);
    for (const char *p = list; (p = strstr(p, r)) != NULL; p += len)
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) return true;
    return false;
}

/* A warning on stderr for each option given that the routine ignores. */
static void warn_unused(const cli_opts *o) {
    static const struct {
        opt_id id;
        const char *routines;
    } uses[] = {
        {OPT_M, "gemm getrf"},
        {OPT_K, "gemm"},
        {OPT_UPLO, "potrf potrs posv syevd heevd sygvd hegvd syevdx heevdx"},
        {OPT_JOBZ, "syevd heevd sygvd hegvd syevdx heevdx"},
        {OPT_RANGE, "syevdx heevdx sygvd hegvd"},
        {OPT_ITYPE, "sygvd hegvd"},
        {OPT_TRANSA, "gemm getrs"},
        {OPT_TRANSB, "gemm"},
        {OPT_ALPHA, "gemm"},
        {OPT_BETA, "gemm"},
        {OPT_XT_BLOCK, "gemm"},
        {OPT_NRHS, "potrs posv getrs gesv gesv_rbt"},
        {OPT_COND, "potrf potrs posv stedc sterf"},
        {OPT_MATRIX, "syevd heevd syevdx heevdx sygvd hegvd gesv_rbt"},
        {OPT_TIMERS, "syevd heevd syevdx heevdx sygvd hegvd stedc sterf"},
        {OPT_DEPTH, "gesv_rbt"},
        {OPT_REFINE, "gesv_rbt"},
        {OPT_TYPE, "gemm potrf potrs posv getrf getrs gesv gesv_rbt syevd heevd stedc sterf sygvd hegvd syevdx heevdx"},
        {OPT_CHECK, "gemm potrf potrs posv getrf getrs gesv gesv_rbt syevd heevd stedc sterf sygvd hegvd syevdx heevdx"},
        {OPT_SEED, "gemm potrf potrs posv getrf getrs gesv gesv_rbt syevd heevd stedc sterf sygvd hegvd syevdx heevdx"},
        {OPT_REPEAT, "gemm potrf potrs posv getrf getrs gesv gesv_rbt syevd heevd stedc sterf sygvd hegvd syevdx heevdx"},
        {OPT_WARMUP, "gemm potrf potrs posv getrf getrs gesv gesv_rbt syevd heevd stedc sterf sygvd hegvd syevdx heevdx"},
    };
    if (!o->routine) return;
    for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++) {
        if (!(o->given & (UINT64_C(1) << uses[i].id)) || routine_in(o->routine, uses[i].routines))
            continue;
        const char *flag = "?";
        for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++)
            if (specs[s].id == uses[i].id) flag = specs[s].name;
        fprintf(stderr, "hyla: warning: %s does not apply to %s; ignored (it applies to %s)\n", flag,
                o->routine, uses[i].routines);
    }
}

/* Checks that do not depend on the routine's own arguments. */
static int validate(cli_opts *o) {
    bool sizes = o->n.count || o->m.count || o->k.count || o->nrhs.count;
    if (!o->routine && (sizes || o->ntypes || o->ninputs || o->output)) {
        fputs("hyla: the default suite picks its own sizes and types; name a routine to choose them "
              "(e.g. 'hyla gemm -n 1000')\n", stderr);
        return CLI_EXIT_USAGE;
    }
    if (o->ninputs && (sizes || o->ntypes))
        return usage_error("--input", NULL,
                           "sizes and type come from the files; drop -n, -m, -k, --nrhs and --type");
    if (o->ninputs && o->cond > 0) return usage_error("--cond", NULL, "applies to generated matrices only");
    bool hpl = o->routine && strcmp(o->routine, "hpl") == 0;
    if (!hpl && (o->hpl_dat || o->hpl_p))
        return usage_error(o->hpl_dat ? o->hpl_dat : "--grid", NULL, "applies to hpl only");
    if (!hpl && o->hpl_bcast >= 0) return usage_error("--bcast", NULL, "applies to hpl only");
    if (o->routine && !hpl && !o->ninputs && o->n.count == 0)
        return usage_error("-n", NULL, "sizes are required (or --input)");
    const cli_list *mk[2] = {&o->m, &o->k};
    for (int i = 0; i < 2; i++)
        if (mk[i]->count > 1 && mk[i]->count != o->n.count) {
            fprintf(stderr, "hyla: %s has %d sizes but -n has %d; give one or as many\n",
                    i ? "-k" : "-m", mk[i]->count, o->n.count);
            return CLI_EXIT_USAGE;
        }
    if (o->nrhs.count > 1 && o->n.count > 1 && o->nrhs.count != o->n.count) {
        fprintf(stderr, "hyla: --nrhs has %d values but -n has %d; give one, as many, or one -n\n",
                o->nrhs.count, o->n.count);
        return CLI_EXIT_USAGE;
    }
    if (o->ntypes == 0) o->types[o->ntypes++] = HYLA_D;
    if (o->noutputs && check_outputs(o)) return CLI_EXIT_USAGE;
    if (o->output_on_fail && !o->noutputs)
        fputs("hyla: warning: --output-on-fail without --output: nothing to write\n", stderr);
    warn_unused(o);
    if (o->output && o->nuplo > 1)
        return usage_error("--output", NULL, "writes one result: give one --uplo");
    if (o->output && !o->ninputs && !hpl && (o->ntypes != 1 || o->n.count != 1 || o->nrhs.count > 1))
        return usage_error("--output", NULL, "writes one result: give one type and one size");
    return 0;
}

int cli_opts_parse(int argc, char **argv, cli_opts *o) {
    *o = (cli_opts){.uplo = {'L'}, .nuplo = 1, .itype = {1}, .nitype = 1, .range = 'A', .jobz = 'N', .repeat = 3, .warmup = 1, .transa = 'N',
                    .transb = 'N', .alpha = 1, .beta = 1, .seed = 42, .xt_block = 8192,
                    .rbt_depth = -1, .rbt_refine = -1, .hpl_bcast = -1,
                    .argc = argc, .argv = argv};
    int i = 1;
    if (argc > 1 && argv[1][0] != '-') {
        if (strcmp(argv[1], "help") == 0) {
            o->help = true;
            return 0;
        }
        for (size_t r = 0; r < sizeof routines / sizeof routines[0]; r++)
            if (strcmp(argv[1], routines[r]) == 0) o->routine = routines[r];
        if (!o->routine)
            return usage_error(argv[1], NULL, "unknown routine (routines: gemm, potrf, potrs, posv, "
                                              "getrf, getrs, gesv, gesv_rbt, syevd, heevd, stedc, "
                                              "sterf, hpl)");
        i = 2;
    }
    for (; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const opt_spec *sp = arg[0] == '-' ? find_option(arg, len) : NULL;
        int tu = sp || arg[0] != '-' ? -1 : find_tuning(arg, len);
        if (!sp && arg[0] != '-' && o->routine && strcmp(o->routine, "hpl") == 0 && !o->hpl_dat) {
            o->hpl_dat = arg; /* hyla hpl [HPL.dat] */
            continue;
        }
        if (tu >= 0) {
            const char *val = eq ? eq + 1 : NULL;
            bool takes_value = *tuning_table[tu].values != '\0';
            if (takes_value && !val) {
                if (i + 1 >= argc) return usage_error(tuning_table[tu].flag, NULL, "needs a value");
                val = argv[++i];
            } else if (!takes_value && val) {
                return usage_error(tuning_table[tu].flag, val, "takes no value");
            }
            int rc = set_tuning(o, tuning_table[tu].flag, val);
            if (rc) return rc;
            continue;
        }
        if (!sp) {
            fprintf(stderr, "hyla: unknown %s '%s'\n", arg[0] == '-' ? "option" : "argument", arg);
            fputs("hyla: see 'hyla --help'\n", stderr);
            return CLI_EXIT_USAGE;
        }
        const char *val = eq ? eq + 1 : NULL;
        if (sp->takes_value && !val) {
            if (i + 1 >= argc) return usage_error(sp->name, NULL, "needs a value");
            val = argv[++i];
        } else if (!sp->takes_value && val) {
            return usage_error(sp->name, val, "takes no value");
        }
        int rc = set_option(o, sp, val);
        if (rc) return rc;
        o->given |= UINT64_C(1) << sp->id;
    }
    return o->help || o->version ? 0 : validate(o);
}

void cli_opts_free(cli_opts *o) {
    free(o->n.v);
    free(o->m.v);
    free(o->k.v);
    free(o->nrhs.v);
    free(o->input_buf);
    free(o->output_buf);
    *o = (cli_opts){0};
}

int64_t cli_n(const cli_opts *o, int i) { return o->n.v[i]; }

static int64_t follow_n(const cli_list *l, const cli_opts *o, int i) {
    return l->count == 0 ? o->n.v[i] : l->count == 1 ? l->v[0] : l->v[i];
}

int64_t cli_m(const cli_opts *o, int i) { return follow_n(&o->m, o, i); }
int64_t cli_k(const cli_opts *o, int i) { return follow_n(&o->k, o, i); }

int cli_nrhs_runs(const cli_opts *o) {
    return o->nrhs.count > o->n.count ? o->nrhs.count : o->n.count;
}

int64_t cli_solve_n(const cli_opts *o, int i) { return o->n.v[o->n.count == 1 ? 0 : i]; }

int64_t cli_solve_nrhs(const cli_opts *o, int i) {
    return o->nrhs.count == 0 ? 1 : o->nrhs.v[o->nrhs.count == 1 ? 0 : i];
}

int cli_read_inputs(const cli_opts *o, hyla_npy *in, int count) {
    for (int i = 0; i < count; i++) {
        char msg[256] = "";
        int rc = hyla_npy_read(o->inputs[i], &in[i], msg, sizeof msg);
        if (rc) {
            if (rc == HYLA_ERR_UNSUPPORTED && *msg) /* the reader says which dtype or rank */
                fprintf(stderr, "hyla: %s: %s\n", o->inputs[i], msg);
            else
                fprintf(stderr, "hyla: %s: %s%s%s\n", o->inputs[i], hyla_strerror(rc),
                        *msg ? ": " : "", msg);
            /* a type or rank hyla does not take: the input's problem, as a shape is */
            return rc == HYLA_ERR_UNSUPPORTED ? CMD_USAGE : CMD_ERROR;
        }
    }
    return CMD_OK;
}
