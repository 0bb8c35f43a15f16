/* Scalars of the eigensolver kernels (k_hb2st.cu, k_q2.cu): R real, cx<R>
 * complex (laid out as cuComplex / cuDoubleComplex), with the arithmetic
 * they use. Included inside each file's anonymous namespace. */
#ifndef HYLA_CUDA_K_CX_CUH
#define HYLA_CUDA_K_CX_CUH

template <typename R> struct __align__(2 * sizeof(R)) cx { R re, im; };

template <typename R> __device__ __forceinline__ R re_of(R a) { return a; }
template <typename R> __device__ __forceinline__ R im_of(R) { return R(0); }
template <typename R> __device__ __forceinline__ R conj_of(R a) { return a; }
template <typename R> __device__ __forceinline__ R re_of(cx<R> a) { return a.re; }
template <typename R> __device__ __forceinline__ R im_of(cx<R> a) { return a.im; }
template <typename R> __device__ __forceinline__ cx<R> conj_of(cx<R> a) { return {a.re, -a.im}; }
template <typename R> __device__ __forceinline__ cx<R> operator+(cx<R> a, cx<R> b) {
    return {a.re + b.re, a.im + b.im};
}
template <typename R> __device__ __forceinline__ cx<R> operator-(cx<R> a, cx<R> b) {
    return {a.re - b.re, a.im - b.im};
}
template <typename R> __device__ __forceinline__ cx<R> operator*(cx<R> a, cx<R> b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <typename R> __device__ __forceinline__ cx<R> operator*(R a, cx<R> b) {
    return {a * b.re, a * b.im};
}
template <typename R> __device__ __forceinline__ cx<R> &operator+=(cx<R> &a, cx<R> b) {
    a = a + b;
    return a;
}
template <typename R> __device__ __forceinline__ cx<R> &operator-=(cx<R> &a, cx<R> b) {
    a = a - b;
    return a;
}
template <typename T> __device__ __forceinline__ T zero_of() { return T(); }

#endif
