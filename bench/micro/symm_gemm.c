/* Micro-benchmark behind a stage-1 design choice: X = A V with A Hermitian
 * (m x m, lower triangle) and V m x k (k = 64, the band width), by cuBLAS
 * ?SYMM / ?HEMM, by one GEMM on the full matrix, and by blocked GEMMs that
 * read only the lower triangle (block columns of width b: X[j:] += A[j:,
 * j] V[j], X[j] += A[j+b:, j]^H V[j+b:]); and the trailing ?SYR2K / ?HER2K
 * (k = 128) for scale. One precision a run: `symm_gemm [s|d|c|z]` (default
 * d). Built with -DHYLA_BENCH=ON (bench/CMakeLists.txt) as
 * build/bin/symm_gemm. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

static float ms_of(cudaEvent_t a, cudaEvent_t b) {
    float ms;
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&ms, a, b);
    return ms;
}

/* the scalars 1, 0, -1 of every precision (complex: real part first) */
static const double one_[2] = {1, 0}, zero_[2] = {0, 0}, mone_[2] = {-1, 0};
static const float onef[2] = {1, 0}, zerof[2] = {0, 0}, monef[2] = {-1, 0};

static int is_single(char t) { return t == 's' || t == 'c'; }
static const void *sc(char t, int which) {
    const void *d[3] = {one_, zero_, mone_}, *f[3] = {onef, zerof, monef};
    return is_single(t) ? f[which] : d[which];
}
#define ONE(t) sc(t, 0)
#define ZERO(t) sc(t, 1)
#define MONE(t) sc(t, 2)

static cudaDataType dt(char t) {
    return t == 's' ? CUDA_R_32F : t == 'd' ? CUDA_R_64F : t == 'c' ? CUDA_C_32F : CUDA_C_64F;
}
static cublasComputeType_t ct(char t) {
    return is_single(t) ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_64F;
}

static void gemm(cublasHandle_t h, char t, cublasOperation_t ta, int m, int n, int k,
                 const void *beta, const void *A, int lda, const void *B, int ldb, void *C,
                 int ldc) {
    cublasGemmEx(h, ta, CUBLAS_OP_N, m, n, k, ONE(t), A, dt(t), lda, B, dt(t), ldb, beta, C,
                 dt(t), ldc, ct(t), CUBLAS_GEMM_DEFAULT);
}

static void symm(cublasHandle_t h, char t, int m, int k, const void *A, int lda, const void *V,
                 int ldv, void *X, int ldx) {
    const cublasSideMode_t L = CUBLAS_SIDE_LEFT;
    const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;
    if (t == 's')
        cublasSsymm(h, L, lo, m, k, ONE(t), A, lda, V, ldv, ZERO(t), X, ldx);
    else if (t == 'd')
        cublasDsymm(h, L, lo, m, k, ONE(t), A, lda, V, ldv, ZERO(t), X, ldx);
    else if (t == 'c')
        cublasChemm(h, L, lo, m, k, ONE(t), A, lda, V, ldv, ZERO(t), X, ldx);
    else
        cublasZhemm(h, L, lo, m, k, ONE(t), A, lda, V, ldv, ZERO(t), X, ldx);
}

static void syr2k(cublasHandle_t h, char t, int m, int k, const void *V, const void *W, int ld,
                  void *A, int lda) {
    const cublasFillMode_t lo = CUBLAS_FILL_MODE_LOWER;
    const cublasOperation_t N = CUBLAS_OP_N;
    if (t == 's')
        cublasSsyr2k(h, lo, N, m, k, MONE(t), V, ld, W, ld, ONE(t), A, lda);
    else if (t == 'd')
        cublasDsyr2k(h, lo, N, m, k, MONE(t), V, ld, W, ld, ONE(t), A, lda);
    else if (t == 'c')
        cublasCher2k(h, lo, N, m, k, MONE(t), V, ld, W, ld, ONE(t), A, lda);
    else
        cublasZher2k(h, lo, N, m, k, MONE(t), V, ld, W, ld, ONE(t), A, lda);
}

int main(int argc, char **argv) {
    const char t = argc > 1 ? argv[1][0] : 'd';
    if (!strchr("sdcz", t) || t == 0) {
        fprintf(stderr, "usage: symm_gemm [s|d|c|z]\n");
        return 2;
    }
    const int ms[] = {16000, 12000, 8000, 4000}, bs[] = {1024, 2048, 4096};
    const int k = 64, reps = 5, nv = 6;
    const size_t M = 16384, es = t == 's' ? 4 : t == 'z' ? 16 : 8;
    const double cf = t == 'c' || t == 'z' ? 4.0 : 1.0; /* real flops per product flop */
    const char *cop = t == 'c' || t == 'z' ? "C" : "T";
    cublasHandle_t h;
    cublasCreate(&h);
    char *A, *V, *X, *W;
    if (cudaMalloc((void **)&A, M * M * es) || cudaMalloc((void **)&V, M * 128 * es) ||
        cudaMalloc((void **)&X, M * 128 * es) || cudaMalloc((void **)&W, M * 128 * es)) {
        fprintf(stderr, "symm_gemm: out of device memory\n");
        return 1;
    }
    cudaMemset(A, 0, M * M * es);
    cudaMemset(V, 0, M * 128 * es);
    cudaMemset(W, 0, M * 128 * es);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    printf("%c: TFLOP/s (symm, gemm, blocked b: 2 m^2 k; syr2k: 2 m^2 128; complex x4), op %s\n",
           t, cop);
    printf("%6s %9s %9s %9s %9s %9s %9s\n", "m", "symm", "gemm", "blk1024", "blk2048", "blk4096",
           "syr2k");
    for (int im = 0; im < 4; im++) {
        const int m = ms[im];
        const double f = 2.0 * m * (double)m * k * cf;
        float tm[6];
        for (int v = 0; v < nv; v++) {
            for (int r = 0; r <= reps; r++) {
                if (r == 1) cudaEventRecord(e0, 0);
                if (v == 0)
                    symm(h, t, m, k, A, (int)M, V, (int)M, X, (int)M);
                else if (v == 1)
                    gemm(h, t, CUBLAS_OP_N, m, k, m, ZERO(t), A, (int)M, V, (int)M, X, (int)M);
                else if (v < 5) {
                    const int b = bs[v - 2];
                    for (int j = 0; j < m; j += b) {
                        const int w = m - j < b ? m - j : b, rest = m - j - w;
                        const size_t dj = (size_t)j * es, aj = (size_t)(j + (size_t)j * M) * es;
                        gemm(h, t, CUBLAS_OP_N, m - j, k, w, j == 0 ? ZERO(t) : ONE(t), A + aj,
                             (int)M, V + dj, (int)M, X + dj, (int)M);
                        if (rest > 0)
                            gemm(h, t, t == 'c' || t == 'z' ? CUBLAS_OP_C : CUBLAS_OP_T, w, k,
                                 rest, ONE(t), A + aj + (size_t)w * es, (int)M,
                                 V + dj + (size_t)w * es, (int)M, X + dj, (int)M);
                    }
                } else
                    syr2k(h, t, m, 128, V, W, (int)M, A, (int)M);
            }
            cudaEventRecord(e1, 0);
            tm[v] = ms_of(e0, e1) / reps;
        }
        printf("%6d %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f   ms: %.3f %.3f %.3f %.3f %.3f %.3f\n", m,
               f / tm[0] * 1e-9, f / tm[1] * 1e-9, f / tm[2] * 1e-9, f / tm[3] * 1e-9,
               f / tm[4] * 1e-9, 2.0 * m * (double)m * 128 * cf / tm[5] * 1e-9, tm[0], tm[1],
               tm[2], tm[3], tm[4], tm[5]);
    }
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
