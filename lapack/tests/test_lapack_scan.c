/* The next LAPACK found in a library loaded with RTLD_LOCAL, out of
 * dlsym(RTLD_NEXT)'s reach, as a Python extension loads pip's OpenBLAS:
 * scipy_dpotrf_64_ below its threshold must reach scan_fake.c's, which
 * answers info 4242. Usage: test_lapack_scan LIBSCAN_FAKE */
#include "hyla_lapack.h"
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

void scipy_dpotrf_64_(const char *uplo, const int64_t *n, double *A, const int64_t *lda,
                      int64_t *info, size_t uplo_len);

int main(int argc, char **argv) {
    if (argc != 2 || !dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) {
        printf("usage: test_lapack_scan LIBSCAN_FAKE (%s)\n", argc == 2 ? dlerror() : "");
        return 1;
    }
    double A[9] = {4, 0, 0, 0, 4, 0, 0, 0, 4};
    int64_t n = 3, info = -1, served, forwarded;
    scipy_dpotrf_64_("L", &n, A, &n, &info, 1);
    hyla_lapack_get_counts(&served, &forwarded);
    printf("info %lld, served %lld, forwarded %lld\n", (long long)info, (long long)served,
           (long long)forwarded);
    return info == 4242 && served == 0 && forwarded == 1 ? 0 : 1;
}
