/* The divide-and-conquer merge ops on the host for one real type (included
 * by host_dc.c after backend/ops/dc_merge.h, with DCM, R and DCM_RF set). */

static void DCM(secular)(const hyla_dc_args *a) {
    const int64_t k = a->k;
    const R *dl = a->dl, *w = a->w, r2 = (R)a->r2;
    R *tau = a->tau, *zh = a->zh;
    int fail = 0;
#pragma omp parallel for if (k > 128) schedule(dynamic, 16) reduction(| : fail)
    for (int64_t i = 0; i < k; i++) fail |= DCM(secular_root)(k, i, dl, w, r2, &a->org[i], &tau[i]);
    if (!fail) {
#pragma omp parallel for if (k > 128) schedule(static)
        for (int64_t m = 0; m < k; m++) zh[m] = DCM(loewner_one)(k, m, dl, w, r2, a->org, tau);
    }
    *a->info = fail ? 1 : 0;
}

static void DCM(vectors)(const hyla_dc_args *a) {
    const int64_t n = a->n, k = a->k, ld = a->ldm;
    const int64_t c0 = a->nc ? a->c0 : 0, c1 = a->nc ? a->c0 + a->nc : n;
    const R *dl = a->dl, *tau = a->tau, *zh = a->zh, *rc = a->rc, *rs = a->rs;
    R *M = a->M;
#pragma omp parallel for if (n >= 512) schedule(static)
    for (int64_t c = c0; c < c1; c++) memset(M + (c - c0) * ld, 0, sizeof *M * (size_t)n);
    /* column pos[i]: the eigenvector of root i on the rows nd, normalized */
#pragma omp parallel for if (k > 128) schedule(static)
    for (int64_t i = 0; i < k; i++) {
        if (a->pos[i] < c0 || a->pos[i] >= c1) continue;
        const R oi = dl[a->org[i]], ti = tau[i];
        R *col = M + (a->pos[i] - c0) * ld, nrm = 0;
        for (int64_t m = 0; m < k; m++) {
            const R u = DCM(vec_entry)(zh[m], dl[m], oi, ti);
            col[a->nd[m]] = u;
            nrm += u * u;
        }
        nrm = 1 / DCM_RF(sqrt)(nrm);
        for (int64_t m = 0; m < k; m++) col[a->nd[m]] *= nrm;
    }
    for (int64_t t = 0; t < n - k; t++)
        if (a->pos[k + t] >= c0 && a->pos[k + t] < c1) M[a->defl[t] + (a->pos[k + t] - c0) * ld] = 1;
    if (a->nrot == 0) return;
    /* M := G_1 ... G_nrot M, row operations, the last rotation first */
#pragma omp parallel for if (n >= 512) schedule(static)
    for (int64_t c = c0; c < c1; c++) {
        R *col = M + (c - c0) * ld;
        for (int64_t r = a->nrot - 1; r >= 0; r--) {
            const R x = col[a->rp[r]], y = col[a->rj[r]];
            col[a->rp[r]] = -rs[r] * x + rc[r] * y;
            col[a->rj[r]] = rc[r] * x + rs[r] * y;
        }
    }
}
