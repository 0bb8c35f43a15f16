/* The next LAPACK found in a library loaded with RTLD_LOCAL, out of
 * dlsym(RTLD_NEXT)'s reach, as a Python extension loads pip's OpenBLAS:
 * scipy_dpotrf_64_ (ILP64) and scipy_dpotrf_ (LP64) below their threshold
 * must reach scan_fake.c's, which answer info 4242 and 4343. Usage:
 * test_lapack_scan LIBSCAN_FAKE */
#include "hyla_lapack.h"
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void scipy_dpotrf_64_(const char *uplo, const int64_t *n, double *A, const int64_t *lda,
                      int64_t *info, size_t uplo_len);
void scipy_dpotrf_(const char *uplo, const int *n, double *A, const int *lda, int *info,
                   size_t uplo_len);

int main(int argc, char **argv) {
    if (argc != 2 || !dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) {
        printf("usage: test_lapack_scan LIBSCAN_FAKE (%s)\n", argc == 2 ? dlerror() : "");
        return 1;
    }
    double A[9] = {4, 0, 0, 0, 4, 0, 0, 0, 4};
    int64_t n = 3, info = -1, served, forwarded;
    int n32 = 3, info32 = -1;
    scipy_dpotrf_64_("L", &n, A, &n, &info, 1);
    scipy_dpotrf_("L", &n32, A, &n32, &info32, 1);
    hyla_lapack_get_counts(&served, &forwarded);
    printf("info %lld and %d, served %lld, forwarded %lld\n", (long long)info, info32,
           (long long)served, (long long)forwarded);
    return info == 4242 && info32 == 4343 && served == 0 && forwarded == 2 ? 0 : 1;
}
