/* hyla never changes the host BLAS's thread count (core/blas_threads.c): it
 * is the process's, and OpenBLAS's openblas_set_num_threads is not safe
 * while other threads are inside OpenBLAS (it frees the buffers of the
 * threads it drops, which the virtual devices' calls in flight were using:
 * a crash in a later OpenBLAS call). The count is set to 2 first; a thread
 * reads it without pause while the divide and conquer (hyla_dstedc, whose
 * host merges run beside the other devices' BLAS calls) and the eigensolver
 * (hyla_dsyevd) run on the devices of HYLA_DEVICES, and must never see
 * another value; the results are checked (scaled residuals of the
 * tridiagonal eigenpairs, the eigenvalues' sum against the trace). */
#include "test_util.h"
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

int openblas_get_num_threads(void);
void openblas_set_num_threads(int);

static atomic_int stop, seen_other, reads;

static void *poll_count(void *arg) {
    const int want = *(const int *)arg;
    while (!atomic_load(&stop)) {
        if (openblas_get_num_threads() != want) atomic_store(&seen_other, 1);
        atomic_fetch_add(&reads, 1);
    }
    return NULL;
}

static double frand(unsigned long long *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0 - 0.5;
}

int main(void) {
    const char *devs = getenv("HYLA_DEVICES");
    hyla_t *h = NULL;
    int rc = t_create(&h, devs && *devs ? devs : "cpu", "blas_threads");
    if (rc) return rc;
    openblas_set_num_threads(2);
    int want = openblas_get_num_threads();
    CHECK(want >= 1, "openblas_get_num_threads %d", want);

    enum { NT = 700, NS = 300 };
    const double eps = 2.220446049250313e-16;
    unsigned long long s = 20261128ULL;
    double *d = malloc(sizeof *d * NT), *e = malloc(sizeof *e * NT);
    double *d0 = malloc(sizeof *d0 * NT), *e0 = malloc(sizeof *e0 * NT);
    double *Z = malloc(sizeof *Z * NT * NT), *A = malloc(sizeof *A * NS * NS);
    double *w = malloc(sizeof *w * NS);
    CHECK(d && e && d0 && e0 && Z && A && w, "host allocation");
    if (!(d && e && d0 && e0 && Z && A && w)) goto out;
    for (int i = 0; i < NT; i++) d[i] = d0[i] = frand(&s), e[i] = e0[i] = frand(&s);
    double trace = 0;
    for (int j = 0; j < NS; j++)
        for (int i = j; i < NS; i++) {
            A[i + j * NS] = A[j + i * NS] = frand(&s);
            if (i == j) trace += A[i + j * NS];
        }

    pthread_t th;
    CHECK(pthread_create(&th, NULL, poll_count, &want) == 0, "pthread_create");
    rc = hyla_dstedc(h, 'I', NT, d, e, Z, NT);
    int rc2 = hyla_dsyevd(h, 'N', 'L', NS, A, NS, w);
    atomic_store(&stop, 1);
    pthread_join(th, NULL);

    CHECK(rc == 0, "hyla_dstedc: %d", rc);
    CHECK(rc2 == 0, "hyla_dsyevd: %d", rc2);
    CHECK(!atomic_load(&seen_other), "the BLAS thread count changed during the calls (want %d)", want);
    CHECK(atomic_load(&reads) > 0, "the count was never read");
    CHECK(openblas_get_num_threads() == want, "after the calls: %d, want %d",
          openblas_get_num_threads(), want);
    if (rc == 0) {
        /* max_j |T z_j - d_j z_j| / (|T| eps n), |T| <= 3 max |entries| */
        double tn = 0, worst = 0;
        for (int i = 0; i < NT; i++) tn = fmax(tn, fmax(fabs(d0[i]), fabs(e0[i])));
        for (int j = 0; j < NT; j++) {
            const double *z = Z + (int64_t)j * NT;
            for (int i = 0; i < NT; i++) {
                double r = d0[i] * z[i] - d[j] * z[i];
                if (i > 0) r += e0[i - 1] * z[i - 1];
                if (i + 1 < NT) r += e0[i] * z[i + 1];
                worst = fmax(worst, fabs(r));
            }
            if (j > 0) CHECK(d[j - 1] <= d[j], "eigenvalues not ascending at %d", j);
        }
        const double res = worst / (3 * tn * eps * NT);
        CHECK(res < 60, "stedc residual %.3g", res);
    }
    if (rc2 == 0) {
        double sum = 0;
        for (int i = 0; i < NS; i++) sum += w[i];
        CHECK(fabs(sum - trace) < 1e3 * eps * NS * NS, "eigenvalue sum %.17g, trace %.17g", sum, trace);
    }
out:
    free(d), free(e), free(d0), free(e0), free(Z), free(A), free(w);
    return t_finish(&h, "blas_threads");
}
