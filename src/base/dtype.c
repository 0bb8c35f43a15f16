/* What every layer needs to know about the dtypes. */
#include "base/base.h"

size_t hyla_dtype_size(hyla_dtype t) {
    static const size_t sz[4] = {4, 8, 8, 16};
    return (t >= HYLA_S && t <= HYLA_Z) ? sz[t] : 0;
}

hyla_dtype hyla_dtype_real(hyla_dtype t) { return t == HYLA_C ? HYLA_S : t == HYLA_Z ? HYLA_D : t; }

int hyla_dtype_is_complex(hyla_dtype t) { return t == HYLA_C || t == HYLA_Z; }

const void *hyla_scalar(hyla_dtype t, hyla_scalar_const which) {
    static const float f[4][2] = {{1.0f, 0.0f}, {-1.0f, 0.0f}, {-0.5f, 0.0f}, {0.0f, 0.0f}};
    static const double d[4][2] = {{1.0, 0.0}, {-1.0, 0.0}, {-0.5, 0.0}, {0.0, 0.0}};
    return (t == HYLA_S || t == HYLA_C) ? (const void *)f[which] : (const void *)d[which];
}
