/* Scalar helpers shared by the fused panel kernels (k_getrf_panel.cu,
 * k_geqrf_panel.cu): complex types laid out as cuSOLVER's, their arithmetic,
 * and L2 loads of data other SMs wrote before a grid barrier. Included
 * inside each file's anonymous namespace. */
#ifndef HYLA_CUDA_K_PANEL_SCALAR_CUH
#define HYLA_CUDA_K_PANEL_SCALAR_CUH

__host__ __device__ __forceinline__ int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
__host__ __device__ __forceinline__ int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

struct __align__(8) c8 { float x, y; };
struct __align__(16) c16 { double x, y; };

template <typename T> struct real_of { typedef T type; };
template <> struct real_of<c8> { typedef float type; };
template <> struct real_of<c16> { typedef double type; };

/* |x| for real, |re| + |im| for complex (LAPACK's i?amax) */
__device__ __forceinline__ float abs1(float a) { return fabsf(a); }
__device__ __forceinline__ double abs1(double a) { return fabs(a); }
__device__ __forceinline__ float abs1(c8 a) { return fabsf(a.x) + fabsf(a.y); }
__device__ __forceinline__ double abs1(c16 a) { return fabs(a.x) + fabs(a.y); }

/* the modulus, for LAPACK's sfmin test */
__device__ __forceinline__ float modulus(float a) { return fabsf(a); }
__device__ __forceinline__ double modulus(double a) { return fabs(a); }
__device__ __forceinline__ float modulus(c8 a) { return hypotf(a.x, a.y); }
__device__ __forceinline__ double modulus(c16 a) { return hypot(a.x, a.y); }

__device__ __forceinline__ bool is_zero(float a) { return a == 0.0f; }
__device__ __forceinline__ bool is_zero(double a) { return a == 0.0; }
__device__ __forceinline__ bool is_zero(c8 a) { return a.x == 0.0f && a.y == 0.0f; }
__device__ __forceinline__ bool is_zero(c16 a) { return a.x == 0.0 && a.y == 0.0; }

__device__ __forceinline__ float mul(float a, float b) { return a * b; }
__device__ __forceinline__ double mul(double a, double b) { return a * b; }
template <typename C> __device__ __forceinline__ C cmul(C a, C b) {
    C r;
    r.x = a.x * b.x - a.y * b.y;
    r.y = a.x * b.y + a.y * b.x;
    return r;
}
__device__ __forceinline__ c8 mul(c8 a, c8 b) { return cmul(a, b); }
__device__ __forceinline__ c16 mul(c16 a, c16 b) { return cmul(a, b); }

/* a / b; complex by Smith's algorithm (no overflow of |b|^2) */
__device__ __forceinline__ float dvd(float a, float b) { return a / b; }
__device__ __forceinline__ double dvd(double a, double b) { return a / b; }
template <typename C> __device__ __forceinline__ C cdiv(C a, C b) {
    C q;
    if (fabs(b.y) <= fabs(b.x)) {
        const auto r = b.y / b.x, d = b.x + b.y * r;
        q.x = (a.x + a.y * r) / d;
        q.y = (a.y - a.x * r) / d;
    } else {
        const auto r = b.x / b.y, d = b.y + b.x * r;
        q.x = (a.x * r + a.y) / d;
        q.y = (a.y * r - a.x) / d;
    }
    return q;
}
__device__ __forceinline__ c8 dvd(c8 a, c8 b) { return cdiv(a, b); }
__device__ __forceinline__ c16 dvd(c16 a, c16 b) { return cdiv(a, b); }

template <typename T> __device__ __forceinline__ T one();
template <> __device__ __forceinline__ float one<float>() { return 1.0f; }
template <> __device__ __forceinline__ double one<double>() { return 1.0; }
template <> __device__ __forceinline__ c8 one<c8>() { return c8{1.0f, 0.0f}; }
template <> __device__ __forceinline__ c16 one<c16>() { return c16{1.0, 0.0}; }

/* w - l u */
__device__ __forceinline__ float fnms(float l, float u, float w) { return fmaf(-l, u, w); }
__device__ __forceinline__ double fnms(double l, double u, double w) { return fma(-l, u, w); }
template <typename C> __device__ __forceinline__ C cfnms(C l, C u, C w) {
    C r;
    r.x = w.x - (l.x * u.x - l.y * u.y);
    r.y = w.y - (l.x * u.y + l.y * u.x);
    return r;
}
__device__ __forceinline__ c8 fnms(c8 l, c8 u, c8 w) { return cfnms(l, u, w); }
__device__ __forceinline__ c16 fnms(c16 l, c16 u, c16 w) { return cfnms(l, u, w); }

__device__ __forceinline__ float sfmin(float) { return FLT_MIN; }
__device__ __forceinline__ double sfmin(double) { return DBL_MIN; }

/* loads from L2 (ld.global.cg): data another SM wrote before the barrier */
__device__ __forceinline__ float ldcg(const float *p) { return __ldcg(p); }
__device__ __forceinline__ double ldcg(const double *p) { return __ldcg(p); }
__device__ __forceinline__ int64_t ldcg(const int64_t *p) {
    return (int64_t)__ldcg(reinterpret_cast<const long long *>(p));
}
__device__ __forceinline__ c8 ldcg(const c8 *p) {
    const float2 v = __ldcg(reinterpret_cast<const float2 *>(p));
    return c8{v.x, v.y};
}
__device__ __forceinline__ c16 ldcg(const c16 *p) {
    const double2 v = __ldcg(reinterpret_cast<const double2 *>(p));
    return c16{v.x, v.y};
}

/* byte sizes of workspace sections, 16-byte aligned */
__host__ __device__ inline size_t align16(size_t b) { return (b + 15) / 16 * 16; }

#endif
