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
    printf("%s: %d checks, %d failed (%s)\n",
#ifdef TEST_ILP64
           "ILP64",
#else
           "LP64",
#endif
           checks, failures, forced ? "hyla forced" : "default thresholds");
    return failures != 0;
}
