/* The checks of one precision (test_lapack.c includes this once per
 * precision through base/each_prec.h). */
#undef P
#if defined(HYLA_PREC_S)
#define P s
#elif defined(HYLA_PREC_D)
#define P d
#elif defined(HYLA_PREC_C)
#define P c
#else
#define P z
#endif
#undef F
#undef REF
#define F(x) CAT3(P, x, SFX)
#define REF(x) ref(STR(CAT3(P, x, _)))
#undef EVD
#undef EV
#undef EVR
#undef GVD
#undef EVX
#undef GV
#undef GVX
#if IS_CPLX
#define EVD heevd
#define EV heev
#define EVR heevr
#define GVD hegvd
#define EVX heevx
#define GV hegv
#define GVX hegvx
#else
#define EVD syevd
#define EV syev
#define EVR syevr
#define GVD sygvd
#define EVX syevx
#define GV sygv
#define GVX sygvx
#endif
#undef EPS
#define EPS (sizeof(R) == 4 ? (double)FLT_EPSILON : DBL_EPSILON)

void F(potrf)(const char *, const lint *, T *, const lint *, lint *, size_t);
void F(potrs)(const char *, const lint *, const lint *, const T *, const lint *, T *, const lint *,
              lint *, size_t);
void F(posv)(const char *, const lint *, const lint *, T *, const lint *, T *, const lint *, lint *,
             size_t);
void F(getrf)(const lint *, const lint *, T *, const lint *, lint *, lint *);
void F(getrs)(const char *, const lint *, const lint *, const T *, const lint *, const lint *, T *,
              const lint *, lint *, size_t);
void F(gesv)(const lint *, const lint *, T *, const lint *, lint *, T *, const lint *, lint *);
void F(gemm)(const char *, const char *, const lint *, const lint *, const lint *, const T *,
             const T *, const lint *, const T *, const lint *, const T *, T *, const lint *, size_t,
             size_t);
#if IS_CPLX
void F(EVD)(const char *, const char *, const lint *, T *, const lint *, R *, T *, const lint *, R *,
            const lint *, lint *, const lint *, lint *, size_t, size_t);
void F(EV)(const char *, const char *, const lint *, T *, const lint *, R *, T *, const lint *, R *,
           lint *, size_t, size_t);
void F(EVR)(const char *, const char *, const char *, const lint *, T *, const lint *, const R *,
            const R *, const lint *, const lint *, const R *, lint *, R *, T *, const lint *, lint *,
            T *, const lint *, R *, const lint *, lint *, const lint *, lint *, size_t, size_t,
            size_t);
void F(GVD)(const lint *, const char *, const char *, const lint *, T *, const lint *, T *,
            const lint *, R *, T *, const lint *, R *, const lint *, lint *, const lint *, lint *,
            size_t, size_t);
void F(EVX)(const char *, const char *, const char *, const lint *, T *, const lint *, const R *,
            const R *, const lint *, const lint *, const R *, lint *, R *, T *, const lint *, T *,
            const lint *, R *, lint *, lint *, lint *, size_t, size_t, size_t);
void F(GV)(const lint *, const char *, const char *, const lint *, T *, const lint *, T *,
           const lint *, R *, T *, const lint *, R *, lint *, size_t, size_t);
void F(GVX)(const lint *, const char *, const char *, const char *, const lint *, T *, const lint *,
            T *, const lint *, const R *, const R *, const lint *, const lint *, const R *, lint *,
            R *, T *, const lint *, T *, const lint *, R *, lint *, lint *, lint *, size_t, size_t,
            size_t);
#else
void F(EVD)(const char *, const char *, const lint *, T *, const lint *, R *, T *, const lint *,
            lint *, const lint *, lint *, size_t, size_t);
void F(EV)(const char *, const char *, const lint *, T *, const lint *, R *, T *, const lint *,
           lint *, size_t, size_t);
void F(EVR)(const char *, const char *, const char *, const lint *, T *, const lint *, const R *,
            const R *, const lint *, const lint *, const R *, lint *, R *, T *, const lint *, lint *,
            T *, const lint *, lint *, const lint *, lint *, size_t, size_t, size_t);
void F(GVD)(const lint *, const char *, const char *, const lint *, T *, const lint *, T *,
            const lint *, R *, T *, const lint *, lint *, const lint *, lint *, size_t, size_t);
void F(EVX)(const char *, const char *, const char *, const lint *, T *, const lint *, const R *,
            const R *, const lint *, const lint *, const R *, lint *, R *, T *, const lint *, T *,
            const lint *, lint *, lint *, lint *, size_t, size_t, size_t);
void F(GV)(const lint *, const char *, const char *, const lint *, T *, const lint *, T *,
           const lint *, R *, T *, const lint *, lint *, size_t, size_t);
void F(GVX)(const lint *, const char *, const char *, const char *, const lint *, T *, const lint *,
            T *, const lint *, const R *, const R *, const lint *, const lint *, const R *, lint *,
            R *, T *, const lint *, T *, const lint *, lint *, lint *, lint *, size_t, size_t,
            size_t);
#endif
#ifdef TEST_ILP64
void CAT4(scipy_, P, potrf, _64_)(const char *, const lint *, T *, const lint *, lint *, size_t);
#endif

static T PS(rand_t)(void) {
#if IS_CPLX
    double re = rnd();
    return (T)(re + I * rnd());
#else
    return (T)rnd();
#endif
}

static T *PS(alloc)(int64_t count) {
    T *a = malloc((size_t)(count > 0 ? count : 1) * sizeof(T));
    if (!a) exit(2);
    return a;
}

static T *PS(dup)(const T *a, int64_t count) {
    T *b = PS(alloc)(count);
    memcpy(b, a, (size_t)count * sizeof(T));
    return b;
}

/* Hermitian positive definite: random with n + 1 on the diagonal. */
static T *PS(hpd)(int64_t n) {
    T *a = PS(alloc)(n * n);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i <= j; i++) {
            T x = i == j ? (T)(n + 1 + rnd()) : PS(rand_t)();
            a[i + j * n] = x;
            a[j + i * n] = conj(x);
        }
    return a;
}

static T *PS(randm)(int64_t count) {
    T *a = PS(alloc)(count);
    for (int64_t i = 0; i < count; i++) a[i] = PS(rand_t)();
    return a;
}

static double PS(maxabs)(const T *a, int64_t count) {
    double m = 0;
    for (int64_t i = 0; i < count; i++) m = fmax(m, cabs((double complex)a[i]));
    return m;
}

/* max |a - b| / (max(1, n) eps max(1, |b|)) */
static double PS(diff)(const T *a, const T *b, int64_t count, int64_t n) {
    double m = 0;
    for (int64_t i = 0; i < count; i++) m = fmax(m, cabs((double complex)(a[i] - b[i])));
    return m / ((n > 1 ? n : 1) * EPS * fmax(1, PS(maxabs)(b, count)));
}

static double PS(rdiff)(const R *a, const R *b, int64_t count, int64_t n, double scale) {
    double m = 0;
    for (int64_t i = 0; i < count; i++) m = fmax(m, fabs((double)a[i] - (double)b[i]));
    return m / ((n > 1 ? n : 1) * EPS * fmax(1, scale));
}

/* ‖A Z − Z Λ‖ / (n ‖A‖ ε) and ‖I − Zᴴ Z‖ / (n ε) */
static double PS(eig_resid)(int64_t n, const T *A, const T *Z, int64_t ldz, const R *w) {
    double r = 0, o = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            double complex s = 0, g = 0;
            for (int64_t k = 0; k < n; k++) {
                s += (double complex)A[i + k * n] * Z[k + j * ldz];
                g += conj((double complex)Z[k + i * ldz]) * Z[k + j * ldz];
            }
            r = fmax(r, cabs(s - (double complex)Z[i + j * ldz] * w[j]));
            o = fmax(o, cabs(g - (i == j)));
        }
    double nn = n > 1 ? (double)n : 1;
    return fmax(r / (nn * EPS * fmax(1, PS(maxabs)(A, n * n))), o / (nn * EPS));
}

#define TOL 100

/* The verdict on one eigensolver call through the Fortran names (routine
 * name, options, n): the path taken, the eigenvalues w against LAPACK's rw,
 * and with vectors (v) the residual and orthogonality of Z (in A1). */
static void PS(eig_verdict)(const char *routine, const char *jobz, const char *uplo, int64_t n,
                            lint info, const R *w, const R *rw, double anorm, int v,
                            const T *A0, const T *A1) {
    char what[96];
    snprintf(what, sizeof what, "%c%s jobz %s uplo %s n %lld", STR(P)[0], routine, jobz, uplo,
             (long long)n);
    path_check(what, 0);
    check(info == 0 && PS(rdiff)(w, rw, n, n, anorm) < TOL, what, PS(rdiff)(w, rw, n, n, anorm));
    if (v) check(PS(eig_resid)(n, A0, A1, n, w) < TOL, what, PS(eig_resid)(n, A0, A1, n, w));
}
#define NAME(buf, fmt, ...) snprintf(buf, sizeof buf, "%s " fmt, STR(F(x)) + 0, __VA_ARGS__)

static void PS(run_chol)(int64_t n) {
    lint N = (lint)n, ld = (lint)(n > 1 ? n : 1), nrhs = 3, info = -99;
    int rn = (int)n, rld = (int)ld, rnrhs = 3, rinfo = -99;
    char what[96];
    for (int u = 0; u < 2; u++) {
        const char *uplo = u ? "U" : "L";
        T *A0 = PS(hpd)(n), *B0 = PS(randm)(n * 3);
        T *A1 = PS(dup)(A0, n * n), *A2 = PS(dup)(A0, n * n);
        path_begin();
        F(potrf)(uplo, &N, A1, &ld, &info, 1);
        snprintf(what, sizeof what, "%cpotrf uplo %s n %lld", STR(P)[0], uplo, (long long)n);
        path_check(what, 0);
        ((void (*)(const char *, const int *, T *, const int *, int *, size_t))REF(potrf))(
            uplo, &rn, A2, &rld, &rinfo, 1);
        check(info == 0 && rinfo == 0, what, (double)info);
        check(PS(diff)(A1, A2, n * n, n) < TOL, what, PS(diff)(A1, A2, n * n, n));

        T *B1 = PS(dup)(B0, n * 3), *B2 = PS(dup)(B0, n * 3);
        path_begin();
        F(potrs)(uplo, &N, &nrhs, A1, &ld, B1, &ld, &info, 1);
        snprintf(what, sizeof what, "%cpotrs uplo %s n %lld", STR(P)[0], uplo, (long long)n);
        path_check(what, 0);
        ((void (*)(const char *, const int *, const int *, const T *, const int *, T *, const int *,
                   int *, size_t))REF(potrs))(uplo, &rn, &rnrhs, A2, &rld, B2, &rld, &rinfo, 1);
        check(info == 0 && PS(diff)(B1, B2, n * 3, n) < TOL, what, PS(diff)(B1, B2, n * 3, n));

        memcpy(A1, A0, (size_t)(n * n) * sizeof(T));
        memcpy(A2, A0, (size_t)(n * n) * sizeof(T));
        memcpy(B1, B0, (size_t)(n * 3) * sizeof(T));
        memcpy(B2, B0, (size_t)(n * 3) * sizeof(T));
        path_begin();
        F(posv)(uplo, &N, &nrhs, A1, &ld, B1, &ld, &info, 1);
        snprintf(what, sizeof what, "%cposv uplo %s n %lld", STR(P)[0], uplo, (long long)n);
        path_check(what, 0);
        ((void (*)(const char *, const int *, const int *, T *, const int *, T *, const int *, int *,
                   size_t))REF(posv))(uplo, &rn, &rnrhs, A2, &rld, B2, &rld, &rinfo, 1);
        check(info == 0 && PS(diff)(B1, B2, n * 3, n) < TOL, what, PS(diff)(B1, B2, n * 3, n));
#ifdef TEST_ILP64
        memcpy(A1, A0, (size_t)(n * n) * sizeof(T));
        path_begin();
        CAT4(scipy_, P, potrf, _64_)(uplo, &N, A1, &ld, &info, 1);
        snprintf(what, sizeof what, "scipy_%cpotrf_64_ uplo %s n %lld", STR(P)[0], uplo,
                 (long long)n);
        path_check(what, 0);
        check(info == 0 && PS(diff)(A1, A2, n * n, n) < TOL, what, PS(diff)(A1, A2, n * n, n));
#endif
        free(A0), free(A1), free(A2), free(B0), free(B1), free(B2);
    }
    /* not positive definite: info is the order of the failing minor */
    if (n >= 2) {
        T *A = PS(hpd)(n);
        A[(n - 1) + (n - 1) * n] = (T)-1;
        F(potrf)("L", &N, A, &ld, &info, 1);
        snprintf(what, sizeof what, "%cpotrf not SPD n %lld", STR(P)[0], (long long)n);
        check(info == N, what, (double)info);
        free(A);
    }
}

static void PS(run_lu)(int64_t n) {
    char what[96];
    const int64_t shapes[3][2] = {{n, n}, {n + 3, n}, {n, n + 2}};
    for (int s = 0; s < 3; s++) {
        int64_t m = shapes[s][0], nc = shapes[s][1], mn = m < nc ? m : nc;
        lint M = (lint)m, NC = (lint)nc, ld = (lint)(m > 1 ? m : 1), info = -99;
        int rm = (int)m, rnc = (int)nc, rld = (int)ld, rinfo = -99;
        T *A0 = PS(randm)(m * nc), *A1 = PS(dup)(A0, m * nc), *A2 = PS(dup)(A0, m * nc);
        lint *ipiv = malloc((size_t)(mn + 1) * sizeof *ipiv);
        int *rpiv = malloc((size_t)(mn + 1) * sizeof *rpiv);
        path_begin();
        F(getrf)(&M, &NC, A1, &ld, ipiv, &info);
        snprintf(what, sizeof what, "%cgetrf %lldx%lld", STR(P)[0], (long long)m, (long long)nc);
        path_check(what, 0);
        ((void (*)(const int *, const int *, T *, const int *, int *, int *))REF(getrf))(
            &rm, &rnc, A2, &rld, rpiv, &rinfo);
        int same_piv = 1;
        for (int64_t i = 0; i < mn; i++) same_piv &= ipiv[i] == rpiv[i];
        check(info == rinfo && same_piv, what, (double)info);
        check(PS(diff)(A1, A2, m * nc, mn) < TOL, what, PS(diff)(A1, A2, m * nc, mn));
        if (s == 0) {
            lint nrhs = 2;
            int rnrhs = 2;
            const char *tr[3] = {"N", "T", "C"};
            for (int t = 0; t < 3; t++) {
                T *B1 = PS(randm)(n * 2), *B2 = PS(dup)(B1, n * 2);
                path_begin();
                F(getrs)(tr[t], &M, &nrhs, A1, &ld, ipiv, B1, &ld, &info, 1);
                snprintf(what, sizeof what, "%cgetrs trans %s n %lld", STR(P)[0], tr[t],
                         (long long)n);
                path_check(what, 0);
                ((void (*)(const char *, const int *, const int *, const T *, const int *,
                           const int *, T *, const int *, int *, size_t))REF(getrs))(
                    tr[t], &rm, &rnrhs, A2, &rld, rpiv, B2, &rld, &rinfo, 1);
                check(info == 0 && PS(diff)(B1, B2, n * 2, n) < 10 * TOL, what,
                      PS(diff)(B1, B2, n * 2, n));
                free(B1), free(B2);
            }
            T *B1 = PS(randm)(n * 2), *B2 = PS(dup)(B1, n * 2);
            memcpy(A1, A0, (size_t)(n * n) * sizeof(T));
            memcpy(A2, A0, (size_t)(n * n) * sizeof(T));
            path_begin();
            F(gesv)(&M, &nrhs, A1, &ld, ipiv, B1, &ld, &info);
            snprintf(what, sizeof what, "%cgesv n %lld", STR(P)[0], (long long)n);
            path_check(what, 0);
            ((void (*)(const int *, const int *, T *, const int *, int *, T *, const int *,
                       int *))REF(gesv))(&rm, &rnrhs, A2, &rld, rpiv, B2, &rld, &rinfo);
            same_piv = 1;
            for (int64_t i = 0; i < n; i++) same_piv &= ipiv[i] == rpiv[i];
            check(info == rinfo && same_piv && PS(diff)(B1, B2, n * 2, n) < 10 * TOL, what,
                  PS(diff)(B1, B2, n * 2, n));
            free(B1), free(B2);
        }
        free(A0), free(A1), free(A2), free(ipiv), free(rpiv);
    }
    /* an exactly singular matrix: info is the first zero pivot */
    if (n >= 2) {
        lint N = (lint)n, info = -99;
        T *A = PS(randm)(n * n);
        for (int64_t i = 0; i < n; i++) A[i + (n - 1) * n] = T_ZERO;
        lint *ipiv = malloc((size_t)n * sizeof *ipiv);
        F(getrf)(&N, &N, A, &N, ipiv, &info);
        snprintf(what, sizeof what, "%cgetrf singular n %lld", STR(P)[0], (long long)n);
        check(info == N, what, (double)info);
        free(A), free(ipiv);
    }
}

static void PS(run_eig)(int64_t n) {
    char what[96];
    lint N = (lint)n, ld = (lint)(n > 1 ? n : 1), info = -99, q = -1;
    int rn = (int)n, rld = (int)ld, rinfo = -99, rq = -1;
    R *w = malloc((size_t)(n + 1) * sizeof *w), *rw = malloc((size_t)(n + 1) * sizeof *rw);
    for (int u = 0; u < 2; u++)
        for (int v = 0; v < 2; v++) {
            const char *uplo = u ? "U" : "L", *jobz = v ? "V" : "N";
            T *A0 = PS(hpd)(n);
            for (int64_t i = 0; i < n; i++) A0[i + i * n] = (T)rnd(); /* indefinite */
            double anorm = PS(maxabs)(A0, n * n);
            T *A2 = PS(dup)(A0, n * n);
            /* reference eigenvalues: the system's ?syevd / ?heevd */
            {
                T wq;
                R rwq = 0;
                int iwq;
#if IS_CPLX
                void (*evd)(const char *, const char *, const int *, T *, const int *, R *, T *,
                            const int *, R *, const int *, int *, const int *, int *, size_t,
                            size_t) = REF(EVD);
                evd("N", uplo, &rn, A2, &rld, rw, &wq, &rq, &rwq, &rq, &iwq, &rq, &rinfo, 1, 1);
                int lw = (int)creal(wq), lrw = (int)rwq, liw = iwq;
                T *wk = PS(alloc)(lw);
                R *rwk = malloc((size_t)lrw * sizeof *rwk);
                int *iwk = malloc((size_t)liw * sizeof *iwk);
                evd("N", uplo, &rn, A2, &rld, rw, wk, &lw, rwk, &lrw, iwk, &liw, &rinfo, 1, 1);
                free(rwk);
#else
                (void)rwq;
                void (*evd)(const char *, const char *, const int *, T *, const int *, R *, T *,
                            const int *, int *, const int *, int *, size_t, size_t) = REF(EVD);
                evd("N", uplo, &rn, A2, &rld, rw, &wq, &rq, &iwq, &rq, &rinfo, 1, 1);
                int lw = (int)wq, liw = iwq;
                T *wk = PS(alloc)(lw);
                int *iwk = malloc((size_t)liw * sizeof *iwk);
                evd("N", uplo, &rn, A2, &rld, rw, wk, &lw, iwk, &liw, &rinfo, 1, 1);
#endif
                free(wk), free(iwk);
            }
            /* ?syevd / ?heevd, sizes from a query */
            {
                T *A1 = PS(dup)(A0, n * n), wq;
                R rwq = 0;
                lint iwq;
#if IS_CPLX
                F(EVD)(jobz, uplo, &N, A1, &ld, w, &wq, &q, &rwq, &q, &iwq, &q, &info, 1, 1);
                lint lw = (lint)creal(wq), lrw = (lint)rwq, liw = iwq;
                int64_t need = n > 1 && v ? 2 * n + n * n : n > 1 ? n + 1 : 1;
                T *wk = PS(alloc)(lw);
                R *rwk = malloc((size_t)lrw * sizeof *rwk);
                lint *iwk = malloc((size_t)liw * sizeof *iwk);
                snprintf(what, sizeof what, "%cheevd query jobz %s n %lld", STR(P)[0], jobz,
                         (long long)n);
                check(info == 0 && lw >= need && lrw >= 1 && liw >= 1, what, (double)lw);
                path_begin();
                F(EVD)(jobz, uplo, &N, A1, &ld, w, wk, &lw, rwk, &lrw, iwk, &liw, &info, 1, 1);
                free(rwk);
#else
                (void)rwq;
                F(EVD)(jobz, uplo, &N, A1, &ld, w, &wq, &q, &iwq, &q, &info, 1, 1);
                lint lw = (lint)wq, liw = iwq;
                int64_t need = n > 1 && v ? 1 + 6 * n + 2 * n * n : n > 1 ? 2 * n + 1 : 1;
                T *wk = PS(alloc)(lw);
                lint *iwk = malloc((size_t)liw * sizeof *iwk);
                snprintf(what, sizeof what, "%csyevd query jobz %s n %lld", STR(P)[0], jobz,
                         (long long)n);
                check(info == 0 && lw >= need && liw >= 1, what, (double)lw);
                path_begin();
                F(EVD)(jobz, uplo, &N, A1, &ld, w, wk, &lw, iwk, &liw, &info, 1, 1);
#endif
                PS(eig_verdict)(STR(EVD), jobz, uplo, n, info, w, rw, anorm, v, A0, A1);
                free(A1), free(wk), free(iwk);
            }
            /* ?syev / ?heev */
            {
                T *A1 = PS(dup)(A0, n * n);
                lint lw = (lint)(3 * n + 1);
                T *wk = PS(alloc)(lw);
                R *rwk = malloc((size_t)(3 * n + 1) * sizeof *rwk);
                path_begin();
#if IS_CPLX
                F(EV)(jobz, uplo, &N, A1, &ld, w, wk, &lw, rwk, &info, 1, 1);
#else
                F(EV)(jobz, uplo, &N, A1, &ld, w, wk, &lw, &info, 1, 1);
#endif
                PS(eig_verdict)(STR(EV), jobz, uplo, n, info, w, rw, anorm, v, A0, A1);
                free(A1), free(wk), free(rwk);
            }
            /* ?syevr / ?heevr: range A (hyla's full eigensolver) and I (hyla_?syevdx) */
            for (int r = 0; r < 2; r++) {
                const char *range = r ? "I" : "A";
                T *A1 = PS(dup)(A0, n * n), *Z = PS(alloc)(n * n);
                lint lw = (lint)(26 * n + 1), lrw = (lint)(24 * n + 1), liw = (lint)(10 * n + 1);
                T *wk = PS(alloc)(lw);
                R *rwk = malloc((size_t)lrw * sizeof *rwk), vl = 0, vu = 0, tol = 0;
                lint *iwk = malloc((size_t)liw * sizeof *iwk);
                lint il = 1, iu = (lint)(n > 1 ? n / 2 : n), m = -1;
                /* LAPACK references isuppz only for all eigenvalues (range A,
                 * or I with iu - il = n - 1): else one element, so that the
                 * sanitizer pass sees any write past it */
                const int all = !r || iu - il == N - 1;
                lint *isuppz = malloc((size_t)(all ? 2 * n + 2 : 1) * sizeof *isuppz);
                path_begin();
#if IS_CPLX
                F(EVR)(jobz, range, uplo, &N, A1, &ld, &vl, &vu, &il, &iu, &tol, &m, w, Z, &ld,
                       isuppz, wk, &lw, rwk, &lrw, iwk, &liw, &info, 1, 1, 1);
#else
                (void)lrw;
                F(EVR)(jobz, range, uplo, &N, A1, &ld, &vl, &vu, &il, &iu, &tol, &m, w, Z, &ld,
                       isuppz, wk, &lw, iwk, &liw, &info, 1, 1, 1);
#endif
                snprintf(what, sizeof what, "%c%s jobz %s range %s uplo %s n %lld", STR(P)[0],
                         STR(EVR) + 0, jobz, range, uplo, (long long)n);
                path_check(what, 0);
                int64_t mm = r ? iu : n;
                check(info == 0 && m == mm && PS(rdiff)(w, rw, mm, n, anorm) < TOL, what,
                      PS(rdiff)(w, rw, mm, n, anorm));
                if (v && !r) {
                    check(PS(eig_resid)(n, A0, Z, n, w) < TOL, what, PS(eig_resid)(n, A0, Z, n, w));
                    int sup = 1;
                    for (int64_t j = 0; j < n; j++)
                        sup &= isuppz[2 * j] >= 1 && isuppz[2 * j] <= isuppz[2 * j + 1] &&
                               isuppz[2 * j + 1] <= N;
                    check(sup, what, 0);
                }
                free(A1), free(Z), free(wk), free(rwk), free(iwk), free(isuppz);
            }
            /* ?syevx / ?heevx: range A (hyla's full eigensolver, Z copied
             * from A) and I (hyla_?syevdx); workspace from a query; ifail's
             * first m entries 0 with vectors */
            for (int r = 0; r < 2; r++) {
                const char *range = r ? "I" : "A";
                T *A1 = PS(dup)(A0, n * n), *Z = PS(alloc)(n * n), wq = 0;
                R *rwk = malloc((size_t)(7 * n + 1) * sizeof *rwk), vl = 0, vu = 0, tol = 0;
                lint *iwk = malloc((size_t)(5 * n + 1) * sizeof *iwk);
                lint *ifail = malloc((size_t)(n + 1) * sizeof *ifail);
                lint il = 1, iu = (lint)(n > 1 ? n / 2 : n), m = -1, qq = -1;
                for (int64_t i = 0; i <= n; i++) ifail[i] = -7;
#if IS_CPLX
                F(EVX)(jobz, range, uplo, &N, A1, &ld, &vl, &vu, &il, &iu, &tol, &m, w, Z, &ld,
                       &wq, &qq, rwk, iwk, ifail, &info, 1, 1, 1);
#else
                F(EVX)(jobz, range, uplo, &N, A1, &ld, &vl, &vu, &il, &iu, &tol, &m, w, Z, &ld,
                       &wq, &qq, iwk, ifail, &info, 1, 1, 1);
#endif
                lint lw = (lint)creal(wq);
                snprintf(what, sizeof what, "%c%s query jobz %s range %s n %lld", STR(P)[0],
                         STR(EVX) + 0, jobz, range, (long long)n);
                check(info == 0 && lw >= (n <= 1 ? 1 : IS_CPLX ? 2 * n : 8 * n), what, (double)lw);
                T *wk = PS(alloc)(lw);
                path_begin();
#if IS_CPLX
                F(EVX)(jobz, range, uplo, &N, A1, &ld, &vl, &vu, &il, &iu, &tol, &m, w, Z, &ld, wk,
                       &lw, rwk, iwk, ifail, &info, 1, 1, 1);
#else
                F(EVX)(jobz, range, uplo, &N, A1, &ld, &vl, &vu, &il, &iu, &tol, &m, w, Z, &ld, wk,
                       &lw, iwk, ifail, &info, 1, 1, 1);
#endif
                snprintf(what, sizeof what, "%c%s jobz %s range %s uplo %s n %lld", STR(P)[0],
                         STR(EVX) + 0, jobz, range, uplo, (long long)n);
                path_check(what, 0);
                int64_t mm = r ? iu : n;
                check(info == 0 && m == mm && PS(rdiff)(w, rw, mm, n, anorm) < TOL, what,
                      PS(rdiff)(w, rw, mm, n, anorm));
                if (v) {
                    /* (LAPACK's own leaves ifail alone at n = 1) */
                    int zero = 1;
                    for (int64_t j = 0; j < mm && n > 1; j++) zero &= ifail[j] == 0;
                    check(zero, what, 0);
                    if (!r) check(PS(eig_resid)(n, A0, Z, n, w) < TOL, what,
                                  PS(eig_resid)(n, A0, Z, n, w));
                }
                free(A1), free(Z), free(wk), free(rwk), free(iwk), free(ifail);
            }
            free(A0), free(A2);
        }
    free(w), free(rw);
}

static void PS(run_gemm)(int64_t n) {
    char what[96];
    const char *tr[3] = {"N", "T", "C"};
    int64_t m = n, nc = n + 1, k = n + 2;
    T alpha = (T)0.5, beta = (T)-1.5;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            int64_t ra = a ? k : m, rb = b ? nc : k;
            lint M = (lint)m, NC = (lint)nc, K = (lint)k, lda = (lint)(ra > 1 ? ra : 1),
                 ldb = (lint)(rb > 1 ? rb : 1), ldc = (lint)(m > 1 ? m : 1);
            int rm = (int)m, rnc = (int)nc, rk = (int)k, rlda = (int)lda, rldb = (int)ldb,
                rldc = (int)ldc;
            T *A = PS(randm)(ra * (a ? m : k)), *B = PS(randm)(rb * (b ? k : nc));
            T *C1 = PS(randm)(m * nc), *C2 = PS(dup)(C1, m * nc);
            path_begin();
            F(gemm)(tr[a], tr[b], &M, &NC, &K, &alpha, A, &lda, B, &ldb, &beta, C1, &ldc, 1, 1);
            snprintf(what, sizeof what, "%cgemm %s%s m %lld", STR(P)[0], tr[a], tr[b], (long long)m);
            path_check(what, 0);
            ((void (*)(const char *, const char *, const int *, const int *, const int *,
                       const T *, const T *, const int *, const T *, const int *, const T *, T *,
                       const int *, size_t, size_t))REF(gemm))(
                tr[a], tr[b], &rm, &rnc, &rk, &alpha, A, &rlda, B, &rldb, &beta, C2, &rldc, 1, 1);
            check(PS(diff)(C1, C2, m * nc, k) < TOL, what, PS(diff)(C1, C2, m * nc, k));
            free(A), free(B), free(C1), free(C2);
        }
}

/* ?sygvd / ?hegvd: every itype and uplo with vectors, workspace from a
 * query, the eigenvalues against the system's ?sygvd, the residual of the
 * generalized problem (itype 1 A X - B X W, 2 A B X - X W, 3 B A X - X W)
 * and the path the call took. */
static void PS(run_gvd)(int64_t n) {
    char what[96];
    lint N = (lint)n, ld = (lint)(n > 1 ? n : 1), info = -99, q = -1;
    int rn = (int)n, rld = (int)ld, rinfo = -99, rq = -1;
    R *w = malloc((size_t)(n + 1) * sizeof *w), *rw = malloc((size_t)(n + 1) * sizeof *rw);
    for (int itype = 1; itype <= 3; itype++)
        for (int u = 0; u < 2; u++) {
            const char *uplo = u ? "U" : "L";
            lint it = itype;
            int rit = itype;
            T *A0 = PS(hpd)(n), *B0 = PS(hpd)(n);
            for (int64_t i = 0; i < n; i++) A0[i + i * n] = (T)rnd(); /* A indefinite */
            /* reference eigenvalues */
            {
                T *A2 = PS(dup)(A0, n * n), *B2 = PS(dup)(B0, n * n), wq;
                R rwq = 0;
                int iwq;
#if IS_CPLX
                void (*gvd)(const int *, const char *, const char *, const int *, T *, const int *,
                            T *, const int *, R *, T *, const int *, R *, const int *, int *,
                            const int *, int *, size_t, size_t) = REF(GVD);
                gvd(&rit, "N", uplo, &rn, A2, &rld, B2, &rld, rw, &wq, &rq, &rwq, &rq, &iwq, &rq,
                    &rinfo, 1, 1);
                int lw = (int)creal(wq) + 1, lrw = (int)rwq + 1, liw = iwq + 1;
                T *wk = PS(alloc)(lw);
                R *rwk = malloc((size_t)lrw * sizeof *rwk);
                int *iwk = malloc((size_t)liw * sizeof *iwk);
                gvd(&rit, "N", uplo, &rn, A2, &rld, B2, &rld, rw, wk, &lw, rwk, &lrw, iwk, &liw,
                    &rinfo, 1, 1);
                free(rwk);
#else
                (void)rwq;
                void (*gvd)(const int *, const char *, const char *, const int *, T *, const int *,
                            T *, const int *, R *, T *, const int *, int *, const int *, int *,
                            size_t, size_t) = REF(GVD);
                gvd(&rit, "N", uplo, &rn, A2, &rld, B2, &rld, rw, &wq, &rq, &iwq, &rq, &rinfo, 1, 1);
                int lw = (int)wq + 1, liw = iwq + 1;
                T *wk = PS(alloc)(lw);
                int *iwk = malloc((size_t)liw * sizeof *iwk);
                gvd(&rit, "N", uplo, &rn, A2, &rld, B2, &rld, rw, wk, &lw, iwk, &liw, &rinfo, 1, 1);
#endif
                free(wk), free(iwk), free(A2), free(B2);
            }
            T *A1 = PS(dup)(A0, n * n), *B1 = PS(dup)(B0, n * n), wq;
            R rwq = 0;
            lint iwq;
#if IS_CPLX
            F(GVD)(&it, "V", uplo, &N, A1, &ld, B1, &ld, w, &wq, &q, &rwq, &q, &iwq, &q, &info, 1, 1);
            lint lw = (lint)creal(wq), lrw = (lint)rwq, liw = iwq;
            T *wk = PS(alloc)(lw);
            R *rwk = malloc((size_t)lrw * sizeof *rwk);
            lint *iwk = malloc((size_t)liw * sizeof *iwk);
            path_begin();
            F(GVD)(&it, "V", uplo, &N, A1, &ld, B1, &ld, w, wk, &lw, rwk, &lrw, iwk, &liw, &info, 1,
                   1);
            free(rwk);
#else
            (void)rwq;
            F(GVD)(&it, "V", uplo, &N, A1, &ld, B1, &ld, w, &wq, &q, &iwq, &q, &info, 1, 1);
            lint lw = (lint)wq, liw = iwq;
            T *wk = PS(alloc)(lw);
            lint *iwk = malloc((size_t)liw * sizeof *iwk);
            path_begin();
            F(GVD)(&it, "V", uplo, &N, A1, &ld, B1, &ld, w, wk, &lw, iwk, &liw, &info, 1, 1);
#endif
            snprintf(what, sizeof what, "%s itype %d uplo %s n %lld", STR(F(GVD)), itype, uplo,
                     (long long)n);
            path_check(what, 0);
            double dw = 0, wmax = 0;
            for (int64_t i = 0; i < n; i++)
                dw = fmax(dw, fabs((double)(w[i] - rw[i]))), wmax = fmax(wmax, fabs((double)rw[i]));
            check(info == 0 && rinfo == 0 && dw <= 100.0 * (double)(n + 1) * EPS * fmax(wmax, 1),
                  what, dw);
            /* residual, in double: P = op(A, B) X - (B) X W */
            double res = 0, an = PS(maxabs)(A0, n * n), bn = PS(maxabs)(B0, n * n),
                   xn = PS(maxabs)(A1, n * n);
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < n; i++) {
                    double complex s = 0;
                    for (int64_t k = 0; k < n; k++) {
                        double complex inner = 0; /* (B X)(k, j) or (A X)(k, j) */
                        if (itype == 1) {
                            s += (double complex)A0[i + k * n] * A1[k + j * n] -
                                 (double complex)B0[i + k * n] * A1[k + j * n] * (double)w[j];
                            continue;
                        }
                        const T *first = itype == 2 ? A0 : B0, *second = itype == 2 ? B0 : A0;
                        for (int64_t l = 0; l < n; l++)
                            inner += (double complex)second[k + l * n] * A1[l + j * n];
                        s += (double complex)first[i + k * n] * inner;
                    }
                    if (itype != 1) s -= (double complex)A1[i + j * n] * (double)w[j];
                    res = fmax(res, cabs(s));
                }
            const double scale = (double)(n + 1) * (double)(n + 1) * EPS * an * bn * fmax(xn, 1) *
                                 (itype == 1 ? 1 : (double)(n + 1));
            snprintf(what, sizeof what, "%s itype %d uplo %s n %lld residual", STR(F(GVD)), itype,
                     uplo, (long long)n);
            check(res <= 60 * scale + 1e-300, what, res / scale);
            /* ?sygv / ?hegv: the same problem, workspace from a query; its
             * eigenvalues against the reference and its eigenvectors
             * against ?sygvd's above (the same up to each column's sign or
             * phase where the eigenvalues are apart: |x_j^H B y_j| = 1) */
            {
                T *A3 = PS(dup)(A0, n * n), *B3 = PS(dup)(B0, n * n), gq = 0;
                R *rwk3 = malloc((size_t)(3 * n + 1) * sizeof *rwk3), *w3 = malloc((size_t)(n + 1) * sizeof *w3);
                lint qq = -1, info3 = -99;
#if IS_CPLX
                F(GV)(&it, "V", uplo, &N, A3, &ld, B3, &ld, w3, &gq, &qq, rwk3, &info3, 1, 1);
#else
                F(GV)(&it, "V", uplo, &N, A3, &ld, B3, &ld, w3, &gq, &qq, &info3, 1, 1);
#endif
                lint lw3 = (lint)creal(gq);
                snprintf(what, sizeof what, "%s query itype %d n %lld", STR(F(GV)), itype, (long long)n);
                check(info3 == 0 && lw3 >= (IS_CPLX ? 2 * n - 1 : 3 * n - 1), what, (double)lw3);
                T *wk3 = PS(alloc)(lw3 > 0 ? lw3 : 1);
                path_begin();
#if IS_CPLX
                F(GV)(&it, "V", uplo, &N, A3, &ld, B3, &ld, w3, wk3, &lw3, rwk3, &info3, 1, 1);
#else
                F(GV)(&it, "V", uplo, &N, A3, &ld, B3, &ld, w3, wk3, &lw3, &info3, 1, 1);
#endif
                snprintf(what, sizeof what, "%s itype %d uplo %s n %lld", STR(F(GV)), itype, uplo,
                         (long long)n);
                path_check(what, 0);
                double d3 = 0, vd = 0;
                for (int64_t i = 0; i < n; i++) d3 = fmax(d3, fabs((double)(w3[i] - rw[i])));
                check(info3 == 0 && d3 <= 100.0 * (double)(n + 1) * EPS * fmax(wmax, 1), what, d3);
                /* columns of simple eigenvalues: |x^H B y| = 1 (itype 1, 2:
                 * B-normalized; itype 3 normalizes by B^-1) */
                for (int64_t j = 0; j < n && itype < 3; j++) {
                    const double gap = fmin(j > 0 ? fabs((double)(rw[j] - rw[j - 1])) : INFINITY,
                                            j + 1 < n ? fabs((double)(rw[j + 1] - rw[j])) : INFINITY);
                    if (gap < 1e-2 * fmax(wmax, 1)) continue;
                    double complex s = 0;
                    for (int64_t k = 0; k < n; k++) {
                        double complex by = 0;
                        for (int64_t l = 0; l < n; l++)
                            by += (double complex)B0[k + l * n] * A3[l + j * n];
                        s += conj((double complex)A1[k + j * n]) * by;
                    }
                    vd = fmax(vd, fabs(cabs(s) - 1));
                }
                snprintf(what, sizeof what, "%s itype %d uplo %s n %lld vectors", STR(F(GV)), itype,
                         uplo, (long long)n);
                check(vd <= 1e3 * (double)(n + 1) * EPS * fmax(bn, 1) * fmax(wmax, 1), what, vd);
                free(A3), free(B3), free(rwk3), free(w3), free(wk3);
            }
            /* ?sygvx / ?hegvx: range A (hyla_?sygvd, Z copied from A) and I
             * (hyla_?sygvdx, the lower half); workspace from a query; the
             * eigenvalues against the reference, ifail's first m entries 0,
             * each vector's generalized residual (itype 1) against ?sygvd's
             * vectors (|x_j^H B z_j| = 1 where the eigenvalue is simple) */
            for (int r = 0; r < 2; r++) {
                const char *range = r ? "I" : "A";
                T *A4 = PS(dup)(A0, n * n), *B4 = PS(dup)(B0, n * n), *Z = PS(alloc)(n * n), xq = 0;
                R *rwk4 = malloc((size_t)(7 * n + 1) * sizeof *rwk4), *w4 = malloc((size_t)(n + 1) * sizeof *w4);
                R vl = 0, vu = 0, tol = 0;
                lint *iwk4 = malloc((size_t)(5 * n + 1) * sizeof *iwk4);
                lint *ifail = malloc((size_t)(n + 1) * sizeof *ifail);
                lint il = 1, iu = (lint)(n > 1 ? n / 2 : n), m = -1, qq = -1, info4 = -99;
                for (int64_t i = 0; i <= n; i++) ifail[i] = -7;
#if IS_CPLX
                F(GVX)(&it, "V", range, uplo, &N, A4, &ld, B4, &ld, &vl, &vu, &il, &iu, &tol, &m, w4,
                       Z, &ld, &xq, &qq, rwk4, iwk4, ifail, &info4, 1, 1, 1);
#else
                F(GVX)(&it, "V", range, uplo, &N, A4, &ld, B4, &ld, &vl, &vu, &il, &iu, &tol, &m, w4,
                       Z, &ld, &xq, &qq, iwk4, ifail, &info4, 1, 1, 1);
#endif
                lint lw4 = (lint)creal(xq);
                snprintf(what, sizeof what, "%s query itype %d range %s n %lld", STR(F(GVX)), itype,
                         range, (long long)n);
                check(info4 == 0 && lw4 >= (n < 1 ? 1 : IS_CPLX ? 2 * n : 8 * n), what, (double)lw4);
                T *wk4 = PS(alloc)(lw4 > 0 ? lw4 : 1);
                path_begin();
#if IS_CPLX
                F(GVX)(&it, "V", range, uplo, &N, A4, &ld, B4, &ld, &vl, &vu, &il, &iu, &tol, &m, w4,
                       Z, &ld, wk4, &lw4, rwk4, iwk4, ifail, &info4, 1, 1, 1);
#else
                F(GVX)(&it, "V", range, uplo, &N, A4, &ld, B4, &ld, &vl, &vu, &il, &iu, &tol, &m, w4,
                       Z, &ld, wk4, &lw4, iwk4, ifail, &info4, 1, 1, 1);
#endif
                snprintf(what, sizeof what, "%s itype %d range %s uplo %s n %lld", STR(F(GVX)), itype,
                         range, uplo, (long long)n);
                path_check(what, 0);
                const int64_t mm = r ? iu : n;
                double d4 = 0, vd4 = 0;
                for (int64_t i = 0; i < mm && i < m; i++) d4 = fmax(d4, fabs((double)(w4[i] - rw[i])));
                check(info4 == 0 && m == mm && d4 <= 100.0 * (double)(n + 1) * EPS * fmax(wmax, 1),
                      what, d4);
                int zero = 1;
                for (int64_t j = 0; j < mm && n > 1; j++) zero &= ifail[j] == 0;
                check(zero, what, 0);
                for (int64_t j = 0; j < mm && j < m && itype < 3; j++) {
                    const double gap = fmin(j > 0 ? fabs((double)(rw[j] - rw[j - 1])) : INFINITY,
                                            j + 1 < n ? fabs((double)(rw[j + 1] - rw[j])) : INFINITY);
                    if (gap < 1e-2 * fmax(wmax, 1)) continue;
                    double complex sb = 0;
                    for (int64_t k = 0; k < n; k++) {
                        double complex by = 0;
                        for (int64_t l = 0; l < n; l++) by += (double complex)B0[k + l * n] * Z[l + j * n];
                        sb += conj((double complex)A1[k + j * n]) * by;
                    }
                    vd4 = fmax(vd4, fabs(cabs(sb) - 1));
                }
                snprintf(what, sizeof what, "%s itype %d range %s uplo %s n %lld vectors",
                         STR(F(GVX)), itype, range, uplo, (long long)n);
                check(vd4 <= 1e3 * (double)(n + 1) * EPS * fmax(bn, 1) * fmax(wmax, 1), what, vd4);
                free(A4), free(B4), free(Z), free(rwk4), free(w4), free(iwk4), free(ifail), free(wk4);
            }
            free(A0), free(B0), free(A1), free(B1), free(wk), free(iwk);
        }
    free(w), free(rw);
}

static void PS(run)(int64_t n) {
    PS(run_chol)(n);
    PS(run_lu)(n);
    PS(run_eig)(n);
    PS(run_gvd)(n);
    PS(run_gemm)(n);
}

/* LAPACK's info for bad arguments, and C untouched by a bad gemm. */
static void PS(errors)(void) {
    char what[96];
    lint n = 4, neg = -1, one = 1, two = 2, info = 0, q = 1, ipiv[4], iw[64], m;
    T A[16] = {0}, B[16] = {0}, wk[64];
    R w[4], rwk[128], vl = 0, vu = 0, tol = 0;
    lint isuppz[8];
    /* info, and one call of the program's XERBLA with LAPACK's SRNAME (the
     * routine rt in upper case) and the argument's number */
#define EXPECT(rt, call, want)                                                          \
    do {                                                                                \
        info = 0;                                                                       \
        xerbla_reset();                                                                 \
        call;                                                                           \
        snprintf(what, sizeof what, "%c: %.60s -> info %d", STR(P)[0], #call, want);     \
        check(info == (want), what, (double)info);                                      \
        xerbla_check(STR(P), STR(rt), -(want), #call);                                  \
    } while (0)
    EXPECT(potrf, F(potrf)("X", &n, A, &n, &info, 1), -1);
    EXPECT(potrf, F(potrf)("L", &neg, A, &n, &info, 1), -2);
    EXPECT(potrf, F(potrf)("L", &n, A, &two, &info, 1), -4);
    EXPECT(potrs, F(potrs)("U", &n, &neg, A, &n, B, &n, &info, 1), -3);
    EXPECT(potrs, F(potrs)("U", &n, &one, A, &n, B, &two, &info, 1), -7);
    EXPECT(posv, F(posv)("L", &n, &one, A, &one, B, &n, &info, 1), -5);
    EXPECT(getrf, F(getrf)(&neg, &n, A, &n, ipiv, &info), -1);
    EXPECT(getrf, F(getrf)(&n, &n, A, &two, ipiv, &info), -4);
    EXPECT(getrs, F(getrs)("Q", &n, &one, A, &n, ipiv, B, &n, &info, 1), -1);
    EXPECT(getrs, F(getrs)("N", &n, &one, A, &n, ipiv, B, &one, &info, 1), -8);
    EXPECT(gesv, F(gesv)(&n, &neg, A, &n, ipiv, B, &n, &info), -2);
    EXPECT(gesv, F(gesv)(&n, &one, A, &n, ipiv, B, &two, &info), -7);
#if IS_CPLX
    EXPECT(EVD, F(EVD)("V", "L", &n, A, &n, w, wk, &q, rwk, &q, iw, &q, &info, 1, 1), -8);
    EXPECT(EVD, F(EVD)("X", "L", &n, A, &n, w, wk, &q, rwk, &q, iw, &q, &info, 1, 1), -1);
    EXPECT(EV, F(EV)("N", "L", &n, A, &n, w, wk, &q, rwk, &info, 1, 1), -8);
    EXPECT(EVR, F(EVR)("V", "I", "L", &n, A, &n, &vl, &vu, &neg, &two, &tol, &m, w, B, &n, isuppz, wk,
                  &q, rwk, &q, iw, &q, &info, 1, 1, 1), -9);
    EXPECT(EVR, F(EVR)("V", "A", "L", &n, A, &n, &vl, &vu, &one, &two, &tol, &m, w, B, &one, isuppz, wk,
                  &q, rwk, &q, iw, &q, &info, 1, 1, 1), -15);
    EXPECT(EVX, F(EVX)("V", "I", "L", &n, A, &n, &vl, &vu, &neg, &two, &tol, &m, w, B, &n, wk, &q,
                  rwk, iw, iw + 32, &info, 1, 1, 1), -9);
    EXPECT(EVX, F(EVX)("V", "A", "L", &n, A, &n, &vl, &vu, &one, &two, &tol, &m, w, B, &one, wk,
                  &q, rwk, iw, iw + 32, &info, 1, 1, 1), -15);
    EXPECT(EVX, F(EVX)("N", "A", "L", &n, A, &n, &vl, &vu, &one, &two, &tol, &m, w, B, &n, wk,
                  &one, rwk, iw, iw + 32, &info, 1, 1, 1), -17);
#else
    (void)rwk;
    EXPECT(EVD, F(EVD)("V", "L", &n, A, &n, w, wk, &q, iw, &q, &info, 1, 1), -8);
    EXPECT(EVD, F(EVD)("X", "L", &n, A, &n, w, wk, &q, iw, &q, &info, 1, 1), -1);
    EXPECT(EV, F(EV)("N", "L", &n, A, &n, w, wk, &q, &info, 1, 1), -8);
    EXPECT(EVR, F(EVR)("V", "I", "L", &n, A, &n, &vl, &vu, &neg, &two, &tol, &m, w, B, &n, isuppz, wk,
                  &q, iw, &q, &info, 1, 1, 1), -9);
    EXPECT(EVR, F(EVR)("V", "A", "L", &n, A, &n, &vl, &vu, &one, &two, &tol, &m, w, B, &one, isuppz, wk,
                  &q, iw, &q, &info, 1, 1, 1), -15);
    EXPECT(EVX, F(EVX)("V", "I", "L", &n, A, &n, &vl, &vu, &neg, &two, &tol, &m, w, B, &n, wk, &q,
                  iw, iw + 32, &info, 1, 1, 1), -9);
    EXPECT(EVX, F(EVX)("V", "A", "L", &n, A, &n, &vl, &vu, &one, &two, &tol, &m, w, B, &one, wk,
                  &q, iw, iw + 32, &info, 1, 1, 1), -15);
    EXPECT(EVX, F(EVX)("N", "A", "L", &n, A, &n, &vl, &vu, &one, &two, &tol, &m, w, B, &n, wk,
                  &one, iw, iw + 32, &info, 1, 1, 1), -17);
#endif
    {
        lint zero = 0, four = 4;
#if IS_CPLX
        EXPECT(GVD, F(GVD)(&zero, "V", "L", &n, A, &n, B, &n, w, wk, &q, rwk, &q, iw, &q, &info, 1, 1), -1);
        EXPECT(GVD, F(GVD)(&four, "V", "L", &n, A, &n, B, &n, w, wk, &q, rwk, &q, iw, &q, &info, 1, 1), -1);
        EXPECT(GVD, F(GVD)(&one, "X", "L", &n, A, &n, B, &n, w, wk, &q, rwk, &q, iw, &q, &info, 1, 1), -2);
        EXPECT(GVD, F(GVD)(&one, "V", "L", &n, A, &n, B, &one, w, wk, &q, rwk, &q, iw, &q, &info, 1, 1), -8);
        EXPECT(GVD, F(GVD)(&one, "V", "L", &n, A, &n, B, &n, w, wk, &q, rwk, &q, iw, &q, &info, 1, 1), -11);
        EXPECT(GV, F(GV)(&zero, "V", "L", &n, A, &n, B, &n, w, wk, &q, rwk, &info, 1, 1), -1);
        EXPECT(GV, F(GV)(&one, "V", "L", &n, A, &n, B, &one, w, wk, &q, rwk, &info, 1, 1), -8);
        EXPECT(GV, F(GV)(&one, "V", "L", &n, A, &n, B, &n, w, wk, &one, rwk, &info, 1, 1), -11);
        EXPECT(GVX, F(GVX)(&zero, "V", "A", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &n, wk, &q, rwk, iw, iw + 32, &info, 1, 1, 1), -1);
        EXPECT(GVX, F(GVX)(&one, "V", "X", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &n, wk, &q, rwk, iw, iw + 32, &info, 1, 1, 1), -3);
        EXPECT(GVX, F(GVX)(&one, "V", "I", "L", &n, A, &n, B, &one, &vl, &vu, &one, &two, &tol, &m,
                      w, B, &n, wk, &q, rwk, iw, iw + 32, &info, 1, 1, 1), -9);
        EXPECT(GVX, F(GVX)(&one, "V", "V", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &n, wk, &q, rwk, iw, iw + 32, &info, 1, 1, 1), -11);
        EXPECT(GVX, F(GVX)(&one, "V", "I", "L", &n, A, &n, B, &n, &vl, &vu, &two, &one, &tol, &m, w,
                      B, &n, wk, &q, rwk, iw, iw + 32, &info, 1, 1, 1), -13);
        EXPECT(GVX, F(GVX)(&one, "V", "A", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &one, wk, &q, rwk, iw, iw + 32, &info, 1, 1, 1), -18);
        EXPECT(GVX, F(GVX)(&one, "N", "A", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &n, wk, &one, rwk, iw, iw + 32, &info, 1, 1, 1), -20);
#else
        EXPECT(GVD, F(GVD)(&zero, "V", "L", &n, A, &n, B, &n, w, wk, &q, iw, &q, &info, 1, 1), -1);
        EXPECT(GVD, F(GVD)(&four, "V", "L", &n, A, &n, B, &n, w, wk, &q, iw, &q, &info, 1, 1), -1);
        EXPECT(GVD, F(GVD)(&one, "X", "L", &n, A, &n, B, &n, w, wk, &q, iw, &q, &info, 1, 1), -2);
        EXPECT(GVD, F(GVD)(&one, "V", "L", &n, A, &n, B, &one, w, wk, &q, iw, &q, &info, 1, 1), -8);
        EXPECT(GVD, F(GVD)(&one, "V", "L", &n, A, &n, B, &n, w, wk, &q, iw, &q, &info, 1, 1), -11);
        EXPECT(GV, F(GV)(&zero, "V", "L", &n, A, &n, B, &n, w, wk, &q, &info, 1, 1), -1);
        EXPECT(GV, F(GV)(&one, "V", "L", &n, A, &n, B, &one, w, wk, &q, &info, 1, 1), -8);
        EXPECT(GV, F(GV)(&one, "V", "L", &n, A, &n, B, &n, w, wk, &one, &info, 1, 1), -11);
        EXPECT(GVX, F(GVX)(&zero, "V", "A", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &n, wk, &q, iw, iw + 32, &info, 1, 1, 1), -1);
        EXPECT(GVX, F(GVX)(&one, "V", "X", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &n, wk, &q, iw, iw + 32, &info, 1, 1, 1), -3);
        EXPECT(GVX, F(GVX)(&one, "V", "I", "L", &n, A, &n, B, &one, &vl, &vu, &one, &two, &tol, &m,
                      w, B, &n, wk, &q, iw, iw + 32, &info, 1, 1, 1), -9);
        EXPECT(GVX, F(GVX)(&one, "V", "V", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &n, wk, &q, iw, iw + 32, &info, 1, 1, 1), -11);
        EXPECT(GVX, F(GVX)(&one, "V", "I", "L", &n, A, &n, B, &n, &vl, &vu, &two, &one, &tol, &m, w,
                      B, &n, wk, &q, iw, iw + 32, &info, 1, 1, 1), -13);
        EXPECT(GVX, F(GVX)(&one, "V", "A", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &one, wk, &q, iw, iw + 32, &info, 1, 1, 1), -18);
        EXPECT(GVX, F(GVX)(&one, "N", "A", "L", &n, A, &n, B, &n, &vl, &vu, &one, &two, &tol, &m, w,
                      B, &n, wk, &one, iw, iw + 32, &info, 1, 1, 1), -20);
#endif
    }
    /* NaN in B: hyla declines gesv and posv data with NaN, the next LAPACK
     * computes on it (info 0, NaN in X) */
    for (int posv = 0; posv < 2; posv++) {
        memset(A, 0, sizeof A);
        for (int i = 0; i < 4; i++) A[i + 4 * i] = (T)2, B[i] = (T)1;
        B[2] = (T)NAN;
        info = -99;
        path_begin();
        if (posv)
            F(posv)("L", &n, &one, A, &n, B, &n, &info, 1);
        else
            F(gesv)(&n, &one, A, &n, ipiv, B, &n, &info);
        snprintf(what, sizeof what, "%c%s with NaN", STR(P)[0], posv ? "posv" : "gesv");
#ifdef TEST_ILP64
        check(info == HYLA_ERR_NAN, what, (double)info);
#else
        /* forwarded; the next LAPACK's posv calls potrf_ and potrs_, which
         * may come back to hyla */
        int64_t fw;
        hyla_lapack_get_counts(NULL, &fw);
        check(fw > last_forwarded, what, (double)fw);
        check(info == 0 && isnan(creal(B[2])), what, (double)info);
#endif
    }
    T C[16], C0[16], alpha = (T)1, beta = (T)0;
    for (int i = 0; i < 16; i++) C[i] = C0[i] = (T)i;
    xerbla_reset();
    F(gemm)("N", "N", &n, &n, &n, &alpha, A, &two, B, &n, &beta, C, &n, 1, 1);
    snprintf(what, sizeof what, "%cgemm bad lda leaves C", STR(P)[0]);
    check(memcmp(C, C0, sizeof C) == 0, what, 0);
    xerbla_check(STR(P), "gemm", 8, "gemm with lda 2 < m");
#undef EXPECT
}
