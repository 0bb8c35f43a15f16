/* Minimal test harness: CHECK counts and reports; summary() prints the
 * closing "N passed, M failed" line and returns the exit code. */
#ifndef HYLA_TEST_HARNESS_H
#define HYLA_TEST_HARNESS_H
#include <stdio.h>
#include <stdlib.h>

static int t_passed, t_failed;

#define CHECK(cond, ...)                                   \
    do {                                                   \
        if (cond) {                                        \
            t_passed++;                                    \
        } else {                                           \
            t_failed++;                                    \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);    \
            printf(__VA_ARGS__);                           \
            printf("\n");                                  \
        }                                                  \
    } while (0)

static inline int summary(const char *name) {
    printf("%s: %d passed, %d failed\n", name, t_passed, t_failed);
    return t_failed ? 1 : 0;
}

/* Devices for the tests: HYLA_DEVICES, or one virtual host device. */
static inline const char *test_devices(void) {
    const char *d = getenv("HYLA_DEVICES");
    return d && *d ? d : "cpu";
}

/* splitmix64: reproducible uniform numbers in (-1, 1) */
static inline double t_rand(unsigned long long *s) {
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}
#endif
