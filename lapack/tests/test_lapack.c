/* libhyla_lapack through its Fortran names, against the system LAPACK
 * (liblapack.so.3 opened with dlopen, so that its own names are reached):
 * every routine, precision, uplo / trans / jobz, sizes 0, 1, 2 and odd;
 * results compared with scaled differences (eigenvectors: residual and
 * orthogonality), workspace queries, argument errors, and the path each call
 * took (hyla_lapack_get_counts). Compiled twice: LP64 names (dpotrf_) and,
 * with TEST_ILP64, the ILP64 ones (dpotrf_64_, scipy_dpotrf_64_).
 * HYLA_LAPACK_MIN_N=0 in the environment: every call must be served by hyla;
 * unset: the small calls go to the next LAPACK (the ILP64 names have none
 * here, so hyla serves them then too). */
#include "hyla.h"
#include "hyla_lapack.h"
#include <complex.h>
#include <ctype.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TEST_ILP64
typedef int64_t lint;
#define SFX _64_
#else
typedef int lint;
#define SFX _
#endif
#define CAT3_(a, b, c) a##b##c
#define CAT3(a, b, c) CAT3_(a, b, c)
#define CAT4_(a, b, c, d) a##b##c##d
#define CAT4(a, b, c, d) CAT4_(a, b, c, d)
#define STR_(x) #x
#define STR(x) STR_(x)

static int failures, checks;
static int forced;       /* HYLA_LAPACK_MIN_N=0 */
static void *ref_lib;

static void check(int ok, const char *what, double value) {
    checks++;
    if (!ok) {
        failures++;
        printf("FAILED %s (%g)\n", what, value);
    }
}

static void *ref(const char *name) {
    void *fn = dlsym(ref_lib, name);
    if (!fn) {
        printf("no %s in the reference LAPACK\n", name);
        exit(1);
    }
    return fn;
}

/* The program's XERBLA, as LAPACK's testers define theirs: libhyla_lapack
 * must call it for every argument error with LAPACK's SRNAME and the
 * argument's number (xerbla_64_ for the ILP64 names). */
static char xerbla_name[16];
static int64_t xerbla_arg;
static int xerbla_calls;
#ifdef TEST_ILP64
void xerbla_64_(const char *srname, const int64_t *arg, size_t len);
void xerbla_64_(const char *srname, const int64_t *arg, size_t len)
#else
void xerbla_(const char *srname, const int *arg, size_t len);
void xerbla_(const char *srname, const int *arg, size_t len)
#endif
{
    xerbla_calls++;
    while (len > 0 && srname[len - 1] == ' ') len--;
    snprintf(xerbla_name, sizeof xerbla_name, "%.*s", (int)(len < 15 ? len : 15), srname);
    xerbla_arg = *arg;
}

static void xerbla_reset(void) {
    xerbla_calls = 0;
    xerbla_name[0] = 0;
    xerbla_arg = 0;
}

/* One XERBLA call since xerbla_reset, for routine prec+rt and argument arg. */
static void xerbla_check(const char *prec, const char *rt, int64_t arg, const char *call) {
    char want[32], what[192];
    snprintf(want, sizeof want, "%s%s", prec, rt);
    for (char *c = want; *c; c++) *c = (char)toupper((unsigned char)*c);
    snprintf(what, sizeof what, "%.90s -> XERBLA('%s', %lld); got %d call(s), '%s', %lld", call,
             want, (long long)arg, xerbla_calls, xerbla_name, (long long)xerbla_arg);
    check(xerbla_calls == 1 && strcmp(xerbla_name, want) == 0 && xerbla_arg == arg, what,
          xerbla_calls);
}

static uint64_t seed = 42;
static double rnd(void) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
}

/* The path of the call just made: in forced mode exactly one call served by
 * hyla; else forwarded (LP64) or served (ILP64: no next library here). */
static int64_t last_served, last_forwarded;
static void path_begin(void) { hyla_lapack_get_counts(&last_served, &last_forwarded); }
static void path_check(const char *what, int must_forward) {
    int64_t s, f;
    hyla_lapack_get_counts(&s, &f);
    char msg[128];
    snprintf(msg, sizeof msg, "%s: path", what);
#ifdef TEST_ILP64
    (void)must_forward;
    check(s == last_served + 1, msg, (double)(s - last_served));
#else
    if (forced && !must_forward)
        check(s == last_served + 1, msg, (double)(s - last_served));
    else
        check(s == last_served && f >= last_forwarded + 1, msg, (double)(f - last_forwarded));
#endif
}

#define HYLA_TEMPLATE "t_test_lapack.c"
#include "base/each_prec.h"

#ifndef TEST_ILP64
/* Without a GPU (HYLA_DEVICES=cpu) and at the default thresholds, hyla's host
 * backend serves the eigenvalues alone from n = 3000 (real) and 1500
 * (complex), and forwards them below, and with eigenvectors: dsyevd_ and
 * zheevd_ on each side of the line, eigenvalues against the system
 * LAPACK's. */
void dsyevd_(const char *, const char *, const int *, double *, const int *, double *, double *,
             const int *, int *, const int *, int *, size_t, size_t);
void zheevd_(const char *, const char *, const int *, double _Complex *, const int *, double *,
             double _Complex *, const int *, double *, const int *, int *, const int *, int *,
             size_t, size_t);

static void host_values(int cplx, int n, const char *jobz, int must_serve) {
    const int ld = n, lw = cplx ? 2 * n + n * n : 1 + 6 * n + 2 * n * n, lrw = 1 + 5 * n + 2 * n * n,
              liw = 3 + 5 * n;
    const size_t es = cplx ? sizeof(double _Complex) : sizeof(double);
    void *A = malloc(es * (size_t)n * n), *A2 = malloc(es * (size_t)n * n);
    void *wk = malloc(es * (size_t)lw);
    double *w = malloc(sizeof *w * (size_t)n), *w2 = malloc(sizeof *w2 * (size_t)n);
    double *rwk = malloc(sizeof *rwk * (size_t)lrw);
    int *iwk = malloc(sizeof *iwk * (size_t)liw), info = -1, info2 = -1;
    char what[96];
    snprintf(what, sizeof what, "%s n %d jobz %s without a GPU", cplx ? "zheevd" : "dsyevd", n, jobz);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            const double re = rnd(), im = cplx && i != j ? rnd() : 0;
            if (cplx) {
                ((double _Complex *)A)[i + j * n] = re + im * I;
                ((double _Complex *)A)[j + i * n] = re - im * I;
            } else {
                ((double *)A)[i + j * n] = ((double *)A)[j + i * n] = re;
            }
        }
    memcpy(A2, A, es * (size_t)n * n);
    int64_t s0, f0, s1, f1;
    hyla_lapack_get_counts(&s0, &f0);
    if (cplx)
        zheevd_(jobz, "L", &n, A, &ld, w, wk, &lw, rwk, &lrw, iwk, &liw, &info, 1, 1);
    else
        dsyevd_(jobz, "L", &n, A, &ld, w, wk, &lw, iwk, &liw, &info, 1, 1);
    hyla_lapack_get_counts(&s1, &f1);
    /* forwarded counts may also grow by the LAPACK and BLAS calls made inside
     * the call (hyla's host backend's, or LAPACK's own through these names) */
    check(must_serve ? s1 == s0 + 1 : s1 == s0 && f1 >= f0 + 1, what, (double)(s1 - s0));
    void *fn = ref(cplx ? "zheevd_" : "dsyevd_");
    if (cplx)
        ((void (*)(const char *, const char *, const int *, double _Complex *, const int *,
                   double *, double _Complex *, const int *, double *, const int *, int *,
                   const int *, int *, size_t, size_t))fn)("N", "L", &n, A2, &ld, w2, wk, &lw,
                                                          rwk, &lrw, iwk, &liw, &info2, 1, 1);
    else
        ((void (*)(const char *, const char *, const int *, double *, const int *, double *,
                   double *, const int *, int *, const int *, int *, size_t, size_t))fn)(
            "N", "L", &n, A2, &ld, w2, wk, &lw, iwk, &liw, &info2, 1, 1);
    double d = 0, a = 0;
    for (int i = 0; i < n; i++) {
        d = fmax(d, fabs(w[i] - w2[i]));
        a = fmax(a, fabs(w2[i]));
    }
    check(info == 0 && info2 == 0 && d <= 100.0 * n * DBL_EPSILON * a, what, d / (a * DBL_EPSILON));
    free(A);
    free(A2);
    free(wk);
    free(w);
    free(w2);
    free(rwk);
    free(iwk);
}
#endif

int main(void) {
    const char *v = getenv("HYLA_LAPACK_MIN_N");
    forced = v && strcmp(v, "0") == 0;
    ref_lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!ref_lib) {
        printf("no liblapack.so.3: %s\n", dlerror());
        return 1;
    }
    const int64_t sizes[] = {0, 1, 2, 5, 17, 33};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        run_s(sizes[i]);
        run_d(sizes[i]);
        run_c(sizes[i]);
        run_z(sizes[i]);
    }
    errors_s();
    errors_d();
    errors_c();
    errors_z();
#ifndef TEST_ILP64
    const char *devs = getenv("HYLA_DEVICES");
    if (!forced && devs && strncmp(devs, "cpu", 3) == 0 && !getenv("HYLA_LAPACK_MIN_N_SYEVD")) {
        host_values(0, 3000, "N", 1);
        host_values(0, 2999, "N", 0);
        host_values(0, 3000, "V", 0);
        host_values(1, 1500, "N", 1);
        host_values(1, 1499, "N", 0);
    }
#endif
    printf("%s: %d checks, %d failed (%s)\n",
#ifdef TEST_ILP64
           "ILP64",
#else
           "LP64",
#endif
           checks, failures, forced ? "hyla forced" : "default thresholds");
    return failures != 0;
}
