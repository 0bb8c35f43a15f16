/* One context shared by 8 threads (hyla.h, "Threads"): each thread runs
 * potrf, getrf + getrs, gemm, syevd and option and statistics calls on
 * matrices of its own, several rounds, on the devices of HYLA_DEVICES; the
 * calls are serialized on the context, so every result must be right (the
 * scaled residuals below 60, info 0) and nothing may leak or crash (the
 * sanitizer pass runs this too). */
#include "hyla.h"
#include "test_util.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { NT = 8, ROUNDS = 3, N = 96 };

typedef struct {
    hyla_t *h;
    int id, bad;
    char what[160];
} job;

static double frand(unsigned long long *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0 - 0.5;
}

static double norm1(int64_t m, int64_t n, const double *A, int64_t ld) {
    double best = 0;
    for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t i = 0; i < m; i++) s += fabs(A[i + j * ld]);
        best = fmax(best, s);
    }
    return best;
}

static void fail(job *j, const char *what) {
    if (!j->bad) snprintf(j->what, sizeof j->what, "thread %d: %s", j->id, what);
    j->bad = 1;
}

static void *work(void *arg) {
    job *j = arg;
    const double eps = 2.220446049250313e-16;
    unsigned long long s = 1234567ULL + 7919ULL * (unsigned long long)j->id;
    double *A = malloc(sizeof *A * N * N), *S = malloc(sizeof *S * N * N);
    double *B = malloc(sizeof *B * N * N), *C = malloc(sizeof *C * N * N), *w = malloc(sizeof *w * N);
    int64_t *ipiv = malloc(sizeof *ipiv * N);
    if (!A || !S || !B || !C || !w || !ipiv) {
        fail(j, "host allocation");
        goto out;
    }
    for (int r = 0; r < ROUNDS && !j->bad; r++) {
        /* S = A A^T + N I: SPD; potrf, then |S - L L^T| / (N |S| eps) */
        for (int64_t i = 0; i < N * N; i++) A[i] = frand(&s);
        for (int64_t c = 0; c < N; c++)
            for (int64_t i = 0; i < N; i++) {
                double v = i == c ? N : 0;
                for (int64_t k = 0; k < N; k++) v += A[i + k * N] * A[c + k * N];
                S[i + c * N] = v;
            }
        memcpy(B, S, sizeof *B * N * N);
        if (hyla_dpotrf(j->h, 'L', N, B, N) != 0) {
            fail(j, "potrf info");
            break;
        }
        double err = 0;
        for (int64_t c = 0; c < N; c++)
            for (int64_t i = c; i < N; i++) {
                double v = 0;
                for (int64_t k = 0; k <= c; k++) v += B[i + k * N] * B[c + k * N];
                err = fmax(err, fabs(v - S[i + c * N]));
            }
        if (err / (N * norm1(N, N, S, N) * eps) > 60) fail(j, "potrf residual");
        /* getrf + getrs of A: |A x - b| / (N |A| |x| eps) */
        memcpy(B, A, sizeof *B * N * N);
        double x[N], b[N];
        for (int64_t i = 0; i < N; i++) x[i] = frand(&s);
        for (int64_t i = 0; i < N; i++) {
            b[i] = 0;
            for (int64_t k = 0; k < N; k++) b[i] += A[i + k * N] * x[k];
        }
        double y[N];
        memcpy(y, b, sizeof y);
        if (hyla_dgetrf(j->h, N, N, B, N, ipiv) != 0 ||
            hyla_dgetrs(j->h, 'N', N, 1, B, N, ipiv, y, N) != 0) {
            fail(j, "getrf/getrs info");
            break;
        }
        double res = 0, xn = 0;
        for (int64_t i = 0; i < N; i++) {
            double v = -b[i];
            for (int64_t k = 0; k < N; k++) v += A[i + k * N] * y[k];
            res = fmax(res, fabs(v));
            xn = fmax(xn, fabs(y[i]));
        }
        if (res / (N * norm1(N, N, A, N) * xn * eps) > 60) fail(j, "getrs residual");
        /* gemm: C = A S against the loops */
        if (hyla_dgemm(j->h, 'N', 'N', N, N, N, 1, A, N, S, N, 0, C, N) != 0) {
            fail(j, "gemm info");
            break;
        }
        err = 0;
        for (int64_t c = 0; c < N; c += 7)
            for (int64_t i = 0; i < N; i++) {
                double v = 0;
                for (int64_t k = 0; k < N; k++) v += A[i + k * N] * S[k + c * N];
                err = fmax(err, fabs(v - C[i + c * N]));
            }
        if (err / (N * norm1(N, N, A, N) * norm1(N, N, S, N) * eps) > 60) fail(j, "gemm error");
        /* syevd of S: the eigenvalues' sum is the trace, each >= N (S - N I
         * is semidefinite) */
        memcpy(B, S, sizeof *B * N * N);
        if (hyla_dsyevd(j->h, 'V', 'L', N, B, N, w) != 0) {
            fail(j, "syevd info");
            break;
        }
        double tr = 0, sw = 0;
        for (int64_t i = 0; i < N; i++) tr += S[i + i * N], sw += w[i];
        if (fabs(tr - sw) > 60 * N * eps * norm1(N, N, S, N) || w[0] < N * (1 - 1e-10))
            fail(j, "syevd eigenvalues");
        /* the context's own state, read and written between the others */
        int64_t nb = 0;
        hyla_eig_stats st;
        if (hyla_get_option(j->h, HYLA_OPT_POTRF_NB, &nb) != 0 ||
            hyla_set_option(j->h, HYLA_OPT_POTRF_NB, nb) != 0 || hyla_get_eig_stats(j->h, &st) != 0)
            fail(j, "options and statistics");
    }
out:
    free(A), free(S), free(B), free(C), free(w), free(ipiv);
    return NULL;
}

int main(void) {
    hyla_t *h = NULL;
    int rc = t_create(&h, test_devices(), "threads");
    if (rc) return rc;
    pthread_t th[NT];
    job jobs[NT];
    int started[NT] = {0};
    for (int i = 0; i < NT; i++) {
        jobs[i] = (job){.h = h, .id = i};
        started[i] = pthread_create(&th[i], NULL, work, &jobs[i]) == 0;
        CHECK(started[i], "thread %d started", i);
    }
    for (int i = 0; i < NT; i++) {
        if (started[i]) pthread_join(th[i], NULL);
        CHECK(!jobs[i].bad, "%s", jobs[i].what);
    }
    return t_finish(&h, "threads");
}
