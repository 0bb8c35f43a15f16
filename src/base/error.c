/* Error strings, version and the wall clock. */
#include "base/base.h"
#include <time.h>

const char *hyla_strerror(int code) {
    switch (code) {
    case HYLA_SUCCESS: return "success";
    case HYLA_ERR_NO_MEMORY: return "host memory allocation failed";
    case HYLA_ERR_DEVICE_MEMORY: return "device or pinned memory allocation failed, or the problem does not fit the device memory cap";
    case HYLA_ERR_DEVICE: return "a device runtime call failed";
    case HYLA_ERR_BLAS: return "a device BLAS call failed";
    case HYLA_ERR_NO_DEVICE: return "no such device";
    case HYLA_ERR_DEVICE_SPEC: return "malformed device list";
    case HYLA_ERR_UNSUPPORTED: return "not supported by this build";
    case HYLA_ERR_IO: return "file could not be opened, read or written";
    case HYLA_ERR_FORMAT: return "malformed input file";
    case HYLA_ERR_INVALID: return "invalid option value or handle";
    case HYLA_ERR_INTERNAL: return "internal error in hyla";
    case HYLA_ERR_NAN: return "the input holds NaN or Inf";
    case HYLA_ERR_MPI: return "an MPI call failed";
    default: break;
    }
    if (code < 0 && code > -100) return "invalid argument (info = -i: argument i)";
    if (code > 0) return "numerical failure (info > 0, see the routine's documentation)";
    return "unknown error code";
}

const char *hyla_version(void) {
#define HYLA_STR2(x) #x
#define HYLA_STR(x) HYLA_STR2(x)
    return HYLA_STR(HYLA_VERSION_MAJOR) "." HYLA_STR(HYLA_VERSION_MINOR) "." HYLA_STR(
        HYLA_VERSION_PATCH);
}

double hyla_wtime(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
