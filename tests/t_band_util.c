/* Helpers of the stage-2 (band to tridiagonal) tests for one precision
 * (included by t_test_sb2st.c and t_test_hb2st.c with prec.h set, after
 * HYLA_TMAX): |x|, conj, the 1-norm, Q2 formed on a device through
 * hyla_eig_sb2st_back_q, and the residuals of B = Q T Q^H. */

/* |x| and conj(x) through double complex: exact for the real types too
 * (x + 0i: cabs is hypot(x, 0) = |x|, conj keeps the real part) */
static double PS(abs)(T x) { return cabs((double complex)x); }
static T PS(conj)(T x) { return (T)conj((double complex)x); }

/* max column sum of |A| (m x n, leading dimension lda) */
static double PS(norm1)(const T *A, int64_t m, int64_t n, int64_t lda) {
    double nrm = 0;
    for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t i = 0; i < m; i++) s += PS(abs)(A[i + j * lda]);
        nrm = fmax(nrm, s);
    }
    return nrm;
}

/* dQ := Q2 dQ (n x w, ld n, on device dev; the identity's columns col0 ..
 * col0 + w - 1) by hyla_eig_sb2st_back_q on two queues of its own, then Q
 * := dQ. Returns 0 or the first failing code. */
static int PS(back_q_cols)(hyla_t *h, int dev, const hyla_sb2st_q *q, int64_t n, int64_t col0,
                           int64_t w, void *dQ, T *Q) {
    hyla_dev *hd = h->devs[dev];
    hyla_queue *qc = NULL, *qi = NULL;
    int rc = hd->ops->queue_create(hd, &qc);
    rc = rc ? rc : hd->ops->queue_create(hd, &qi);
    rc = rc ? rc : hyla_eig_sb2st_back_q(h, dev, q, w, dQ, n, 0, NULL, NULL, qc, qi, 1, col0);
    rc = rc ? rc : hyla_copy_from_device(h, dev, Q, dQ, sizeof(T) * (size_t)(n * w));
    if (qc) hd->ops->queue_destroy(qc);
    if (qi) hd->ops->queue_destroy(qi);
    return rc;
}

/* dQ := Q2 dQ (n x n, ld n, on device dev) by hyla_eig_sb2st_back_q on two
 * queues of its own, then Q := dQ. Returns 0 or the first failing code. */
static int PS(back_q_down)(hyla_t *h, int dev, const hyla_sb2st_q *q, int64_t n, void *dQ, T *Q) {
    hyla_dev *hd = h->devs[dev];
    hyla_queue *qc = NULL, *qi = NULL;
    int rc = hd->ops->queue_create(hd, &qc);
    rc = rc ? rc : hd->ops->queue_create(hd, &qi);
    rc = rc ? rc : hyla_eig_sb2st_back_q(h, dev, q, n, dQ, n, 0, NULL, NULL, qc, qi, 1, 0);
    rc = rc ? rc : hyla_copy_from_device(h, dev, Q, dQ, sizeof(T) * (size_t)(n * n));
    if (qc) hd->ops->queue_destroy(qc);
    if (qi) hd->ops->queue_destroy(qi);
    return rc;
}

/* For the tridiagonal T = (d, e) of the n x n B (ld n, |B|_1 = nrmB) and
 * Q (n x n, ld n): *res = |B - Q T Q^H|_1 / (n |B|_1 eps), (T Q^H)(k, j)
 * from the tridiagonal, and *orth = |I - Q^H Q|_1 / (n eps); W is n x n
 * workspace. */
static void PS(qtq_resid)(int64_t n, const T *B, const T *Q, const R *d, const R *e, double nrmB,
                          double eps, T *W, double *res, double *orth) {
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            T acc = B[i + j * n];
            for (int64_t k = 0; k < n; k++) {
                T tq = d[k] * PS(conj)(Q[j + k * n]);
                if (k > 0) tq += e[k - 1] * PS(conj)(Q[j + (k - 1) * n]);
                if (k + 1 < n) tq += e[k] * PS(conj)(Q[j + (k + 1) * n]);
                acc -= Q[i + k * n] * tq;
            }
            W[i + j * n] = acc;
        }
    *res = PS(norm1)(W, n, n, n) / ((double)n * eps * HYLA_TMAX(nrmB, 1e-300));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++) {
            T acc = i == j ? T_ONE : T_ZERO;
            for (int64_t k = 0; k < n; k++) acc -= PS(conj)(Q[k + i * n]) * Q[k + j * n];
            W[i + j * n] = acc;
        }
    *orth = PS(norm1)(W, n, n, n) / ((double)n * eps);
}
