/* Tridiagonal eigensolvers, one source for s and d (included by ptridiag.c with
 * prec.h set and TRI(x), R_EPS, R_SAFMIN, R_GEMM, RF(f) defined).
 *
 * sterf: the root-free QL iteration of Pal, Walker and Kahan (Parlett, "The
 * Symmetric Eigenvalue Problem", 8.15) on the squared off-diagonals.
 * steqr: the implicit QL iteration with Wilkinson shifts and Givens
 * rotations accumulated into eigenvectors (the leaves of divide and conquer).
 * In both, a block whose last diagonal entry is smaller in magnitude than the
 * first is reversed before the QL sweeps, which is the QR iteration on the
 * original order (the eigenvalue of smaller magnitude converges first, as
 * LAPACK's choice between QL and QR).
 * stedc: Cuppen's divide and conquer with Gu and Eisenstat's deflation and
 * recomputed z (SIAM J. Matrix Anal. Appl. 16 (1995) 172-191), the secular
 * equation solved by Li's "middle way" rational interpolation relative to the
 * nearest pole (LAPACK Working Note 89). */

/* Magnitude of the largest entry of d[0..n-1] and e[0..n-2]. */
static R TRI(tri_max)(int64_t n, const R *d, const R *e) {
    R m = 0;
    for (int64_t i = 0; i < n; i++) m = HYLA_MAX(m, RF(fabs)(d[i]));
    for (int64_t i = 0; i + 1 < n; i++) m = HYLA_MAX(m, RF(fabs)(e[i]));
    return m;
}

static int TRI(tri_finite)(int64_t n, const R *d, const R *e) {
    for (int64_t i = 0; i < n; i++)
        if (!isfinite(d[i])) return 0;
    for (int64_t i = 0; i + 1 < n; i++)
        if (!isfinite(e[i])) return 0;
    return 1;
}

/* |e| negligible next to its two diagonal neighbours: the matrix splits. */
static int TRI(negligible)(R e, R d0, R d1) {
    R a = RF(fabs)(e);
    return a <= R_EPS * RF(sqrt)(RF(fabs)(d0)) * RF(sqrt)(RF(fabs)(d1));
}

/* The same for a matrix scaled to a largest entry of order one, where an |e|
 * below the underflow threshold is negligible too (a perturbation far below
 * eps |T|); splitting there keeps subnormal numbers out of the rotations. */
static int TRI(negligible_scaled)(R e, R d0, R d1) {
    return TRI(negligible)(e, d0, d1) || RF(fabs)(e) < R_SAFMIN;
}

/* The rotation [c s; -s c] with c g + s f = r and c f - s g = 0, computed on
 * f and g scaled by a power of two when they are tiny or huge so that c and s
 * keep full precision. */
static void TRI(givens)(R f, R g, R *c, R *s, R *r) {
    if (f == 0) {
        *c = 1;
        *s = 0;
        *r = g;
        return;
    }
    if (g == 0) {
        *c = 0;
        *s = 1;
        *r = f;
        return;
    }
    const R m = HYLA_MAX(RF(fabs)(f), RF(fabs)(g)), lo = RF(sqrt)(R_SAFMIN), hi = 1 / lo;
    int sh = 0;
    if (m < lo || m > hi) {
        int em;
        RF(frexp)(m, &em);
        sh = -em;
        f = RF(ldexp)(f, sh);
        g = RF(ldexp)(g, sh);
    }
    const R rr = RF(hypot)(f, g);
    *c = g / rr;
    *s = f / rr;
    *r = RF(ldexp)(rr, -sh);
}

/* Eigenvalues rt1 >= rt2 (rt1 the larger in value) of [[a, b], [b, c]]; the
 * smaller in magnitude from the determinant, to keep its relative accuracy. */
static void TRI(eig2)(R a, R b, R c, R *rt1, R *rt2) {
    R sm = a + c, rt = RF(hypot)(a - c, 2 * b);
    R big = RF(fabs)(a) > RF(fabs)(c) ? a : c, small = RF(fabs)(a) > RF(fabs)(c) ? c : a;
    if (sm > 0) {
        *rt1 = (R)0.5 * (sm + rt);
        *rt2 = (big / *rt1) * small - (b / *rt1) * b;
    } else if (sm < 0) {
        *rt2 = (R)0.5 * (sm - rt);
        *rt1 = (big / *rt2) * small - (b / *rt2) * b;
    } else {
        *rt1 = (R)0.5 * rt;
        *rt2 = -(R)0.5 * rt;
    }
}

/* Exponent sh such that m 2^sh lies in [lo, hi] (m > 0, lo <= hi/2): scaling
 * by ldexp(x, sh) is exact and cannot overflow, even from subnormal m. */
static int TRI(pow2_shift)(R m, R lo, R hi) {
    if (m >= lo && m <= hi) return 0;
    int em, et;
    RF(frexp)(m, &em);
    RF(frexp)(m > hi ? hi : lo, &et);
    int sh = et - em;
    if (RF(ldexp)(m, sh) > hi) sh--;
    if (RF(ldexp)(m, sh) < lo) sh++;
    return sh;
}

static void TRI(reverse)(R *x, int64_t n) {
    for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
        R t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

static int TRI(cmp)(const void *a, const void *b) {
    R x = *(const R *)a, y = *(const R *)b;
    return (x > y) - (x < y);
}

/* ------------------------------------------------------------ sterf */

static int TRI(sterf_dc)(int64_t n, R *d, R *e, int64_t leaf);

static int TRI(sterf)(int64_t n, R *d, R *e, int64_t dc_min, int64_t leaf) {
    if (!TRI(tri_finite)(n, d, e)) return HYLA_ERR_NAN;
    if (n <= 1) return 0;
    const R eps2 = R_EPS * R_EPS;
    /* keep the squares e^2 and products d_i d_{i+1} in range */
    const R ssfmax = RF(sqrt)(1 / R_SAFMIN) / 3, ssfmin = RF(sqrt)(R_SAFMIN) / eps2;
    const int64_t maxit = 30 * n;
    int64_t iters = 0;
    int failed = 0;

    for (int64_t l0 = 0; l0 < n && !failed;) {
        int64_t end = l0;
        while (end < n - 1 && !TRI(negligible)(e[end], d[end], d[end + 1])) end++;
        if (end < n - 1) e[end] = 0;
        const int64_t len = end - l0 + 1, next = end + 1;
        if (len == 1) {
            l0 = next;
            continue;
        }
        R *db = d + l0, *eb = e + l0;
        if (len >= dc_min) {
            /* entries of order one, as divide and conquer assumes */
            const int sd = TRI(pow2_shift)(TRI(tri_max)(len, db, eb), (R)0.5, 1);
            for (int64_t i = 0; i < len; i++) db[i] = RF(ldexp)(db[i], sd);
            for (int64_t i = 0; i + 1 < len; i++) eb[i] = RF(ldexp)(eb[i], sd);
            const int rc = TRI(sterf_dc)(len, db, eb, leaf);
            if (rc < 0) return rc;
            for (int64_t i = 0; i < len; i++) db[i] = RF(ldexp)(db[i], -sd);
            if (rc > 0) {
                failed = 1;
                break;
            }
            l0 = next;
            continue;
        }
        const int sh = TRI(pow2_shift)(TRI(tri_max)(len, db, eb), ssfmin, ssfmax);
        for (int64_t i = 0; i < len; i++) db[i] = RF(ldexp)(db[i], sh);
        for (int64_t i = 0; i + 1 < len; i++) {
            R t = RF(ldexp)(eb[i], sh);
            eb[i] = t * t;
        }
        if (RF(fabs)(db[len - 1]) < RF(fabs)(db[0])) {
            TRI(reverse)(db, len);
            TRI(reverse)(eb, len - 1);
        }
        /* QL on db[0..len-1], eb holding the squares */
        for (int64_t l = 0; l < len - 1;) {
            int64_t m = l;
            while (m < len - 1 && !(RF(fabs)(eb[m]) <= eps2 * RF(fabs)(db[m] * db[m + 1]))) m++;
            if (m < len - 1) eb[m] = 0;
            if (m == l) {
                l++;
                continue;
            }
            if (m == l + 1) {
                R r1, r2;
                TRI(eig2)(db[l], RF(sqrt)(eb[l]), db[l + 1], &r1, &r2);
                db[l] = r1;
                db[l + 1] = r2;
                eb[l] = 0;
                l += 2;
                continue;
            }
            if (iters++ >= maxit) {
                failed = 1;
                break;
            }
            /* Wilkinson shift from the leading 2 x 2 */
            R rte = RF(sqrt)(eb[l]);
            R sig = (db[l + 1] - db[l]) / (2 * rte);
            R r = RF(hypot)(sig, 1);
            sig = db[l] - rte / (sig + RF(copysign)(r, sig));
            /* one root-free sweep from the bottom: gamma = c^2 (d - sigma) - s^2 gamma_old
             * carried in the form of Parlett's "PWK" recurrences */
            R c = 1, sn = 0, gam = db[m] - sig, p = gam * gam;
            for (int64_t i = m - 1; i >= l; i--) {
                R bb = eb[i];
                r = p + bb;
                if (i != m - 1) eb[i + 1] = sn * r;
                R oldc = c;
                c = p / r;
                sn = bb / r;
                R oldgam = gam, alpha = db[i];
                gam = c * (alpha - sig) - sn * oldgam;
                db[i + 1] = oldgam + (alpha - gam);
                p = c != 0 ? (gam * gam) / c : oldc * bb;
            }
            eb[l] = sn * p;
            db[l] = sig + gam;
        }
        for (int64_t i = 0; i < len; i++) db[i] = RF(ldexp)(db[i], -sh);
        l0 = next;
    }
    if (failed) {
        int64_t k = 0;
        for (int64_t i = 0; i + 1 < n; i++) k += e[i] != 0;
        return (int)HYLA_MAX(k, 1);
    }
    qsort(d, (size_t)n, sizeof *d, TRI(cmp));
    return 0;
}

/* ------------------------------------------------------------ steqr (leaves) */

static void TRI(swap_cols)(R *Z, int64_t ldz, int64_t rows, int64_t a, int64_t b) {
    R *x = Z + a * ldz, *y = Z + b * ldz;
    for (int64_t r = 0; r < rows; r++) {
        R t = x[r];
        x[r] = y[r];
        y[r] = t;
    }
}

/* Eigenpairs of the tridiagonal (d, e) of order n with entries of order one
 * (the caller scales): the rotations are applied to the columns of the rows x n
 * matrix Z (the identity for the eigenvectors of T itself). d comes back
 * ascending with Z's columns. Returns 0 or the number of unconverged e. */
static int TRI(steqr)(int64_t n, R *d, R *e, R *Z, int64_t ldz, int64_t rows) {
    const int64_t maxit = 30 * n;
    int64_t iters = 0;
    for (int64_t l0 = 0; l0 < n;) {
        int64_t end = l0;
        while (end < n - 1 && !TRI(negligible_scaled)(e[end], d[end], d[end + 1])) end++;
        if (end < n - 1) e[end] = 0;
        const int64_t len = end - l0 + 1, next = end + 1;
        R *db = d + l0, *eb = e + l0, *Zb = Z + l0 * ldz;
        if (len > 1 && RF(fabs)(db[len - 1]) < RF(fabs)(db[0])) {
            TRI(reverse)(db, len);
            TRI(reverse)(eb, len - 1);
            for (int64_t j = 0; j < len / 2; j++) TRI(swap_cols)(Zb, ldz, rows, j, len - 1 - j);
        }
        for (int64_t l = 0; l < len - 1;) {
            int64_t m = l;
            while (m < len - 1 && !TRI(negligible_scaled)(eb[m], db[m], db[m + 1])) m++;
            if (m < len - 1) eb[m] = 0;
            if (m == l) {
                l++;
                continue;
            }
            if (iters++ >= maxit) {
                int64_t k = 0;
                for (int64_t i = 0; i + 1 < n; i++) k += e[i] != 0;
                return (int)HYLA_MAX(k, 1);
            }
            R g = (db[l + 1] - db[l]) / (2 * eb[l]);
            R r = RF(hypot)(g, 1);
            g = db[m] - db[l] + eb[l] / (g + RF(copysign)(r, g));
            R s = 1, c = 1, p = 0;
            for (int64_t i = m - 1; i >= l; i--) {
                R f = s * eb[i], b = c * eb[i];
                TRI(givens)(f, g, &c, &s, &r);
                if (i != m - 1) eb[i + 1] = r;
                g = db[i + 1] - p;
                r = (db[i] - g) * s + 2 * c * b;
                p = s * r;
                db[i + 1] = g + p;
                g = c * r - b;
                R *zi = Zb + i * ldz, *zj = zi + ldz;
                for (int64_t k = 0; k < rows; k++) {
                    R h = zj[k];
                    zj[k] = s * zi[k] + c * h;
                    zi[k] = c * zi[k] - s * h;
                }
            }
            db[l] -= p;
            eb[l] = g;
        }
        l0 = next;
    }
    /* selection sort: n is small here */
    for (int64_t i = 0; i + 1 < n; i++) {
        int64_t k = i;
        for (int64_t j = i + 1; j < n; j++)
            if (d[j] < d[k]) k = j;
        if (k != i) {
            R t = d[i];
            d[i] = d[k];
            d[k] = t;
            TRI(swap_cols)(Z, ldz, rows, i, k);
        }
    }
    return 0;
}

/* ------------------------------------------------------------ divide and conquer */


/* idx := the permutation sorting key[0..n-1] ascending (stable merge sort of
 * the initial idx order when keep != 0, else from the identity; tmp: n). */
static void TRI(argsort)(int64_t n, const R *key, int64_t *idx, int64_t *tmp, int keep) {
    if (!keep)
        for (int64_t i = 0; i < n; i++) idx[i] = i;
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = HYLA_MIN(lo + w, n), hi = HYLA_MIN(lo + 2 * w, n);
            int64_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi) tmp[o++] = key[idx[b]] < key[idx[a]] ? idx[b++] : idx[a++];
            while (a < mid) tmp[o++] = idx[a++];
            while (b < hi) tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, sizeof *idx * (size_t)n);
    }
}

/* d[p] := d[idx[p]] and column p of the rows x n matrix Z := column idx[p], in
 * place by the cycles of the permutation (seen: n bytes, col: rows entries). */
static void TRI(permute)(int64_t n, const int64_t *idx, R *d, R *Z, int64_t ldz, int64_t rows,
                         unsigned char *seen, R *col) {
    if (n <= 1) return;
    memset(seen, 0, (size_t)n);
    for (int64_t s0 = 0; s0 < n; s0++) {
        if (seen[s0] || idx[s0] == s0) continue;
        R dv = d[s0];
        memcpy(col, Z + s0 * ldz, sizeof *col * (size_t)rows);
        for (int64_t p = s0;;) {
            seen[p] = 1;
            int64_t q = idx[p];
            if (q == s0) {
                d[p] = dv;
                memcpy(Z + p * ldz, col, sizeof *col * (size_t)rows);
                break;
            }
            d[p] = d[q];
            memcpy(Z + p * ldz, Z + q * ldz, sizeof *col * (size_t)rows);
            p = q;
        }
    }
}

/* permute for a large n x n Z on the OpenMP team: the columns that move are
 * gathered into W (n x n) and copied back, both passes in parallel (the
 * cycles of the permutation would be one thread's work). dw: n. */
static void TRI(permute_team)(int64_t n, const int64_t *idx, R *d, R *Z, int64_t ldz, R *W,
                              R *dw) {
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < n; p++) {
        dw[p] = d[idx[p]];
        if (idx[p] != p) memcpy(W + p * n, Z + idx[p] * ldz, sizeof *W * (size_t)n);
    }
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < n; p++)
        if (idx[p] != p) memcpy(Z + p * ldz, W + p * n, sizeof *Z * (size_t)n);
    memcpy(d, dw, sizeof *d * (size_t)n);
}

/* secular_root, loewner_one and vec_entry (TRI's names): backend/ops/dc_merge.h,
 * included by ptridiag.c (shared with the backends' merge ops) */

/* secular_root with lam = the root and delta[gpos[j]] = dl_j - lam. */
static int TRI(secular)(int64_t k, int64_t i, const R *dl, const R *w, R rho, R *lam, R *delta,
                        const int64_t *gpos) {
    int64_t org;
    R tau;
    const int rc = TRI(secular_root)(k, i, dl, w, rho, &org, &tau);
    const R dorg = dl[org];
    *lam = dorg + tau;
    for (int64_t j = 0; j < k; j++) delta[gpos[j]] = (dl[j] - dorg) - tau;
    return rc;
}

/* Gu and Eisenstat's zh (see merge) from the roots given as pole and offset
 * (secular_root), every m by loewner_one; par: on the OpenMP team. */
static void TRI(loewner)(int64_t k, const R *dl, const R *w, R r2, const int64_t *org,
                         const R *tau, int par, R *zh) {
#pragma omp parallel for if (par && k > 128) schedule(static)
    for (int64_t m = 0; m < k; m++) zh[m] = TRI(loewner_one)(k, m, dl, w, r2, org, tau);
}

/* C (m x n) := A (m x kk) B (kk x n) by the host BLAS. */
static void TRI(gemm)(int64_t m, int64_t n, int64_t kk, const R *A, int64_t lda, const R *B,
                      int64_t ldb, R *C, int64_t ldc) {
    if (m == 0 || n == 0) return;
    if (kk == 0) {
        for (int64_t j = 0; j < n; j++) memset(C + j * ldc, 0, sizeof *C * (size_t)m);
        return;
    }
    R_GEMM(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)kk, 1, A, (int)lda, B,
           (int)ldb, 0, C, (int)ldc);
}

/* C (m x n) := A (m x kk) B (kk x n) by the OpenMP team: blocks of at
 * least 64 columns of C, one host BLAS call each on the thread that takes
 * it (where the host BLAS runs on one thread: stedc_run in ptridiag.c). */
static void TRI(gemm_team)(int64_t m, int64_t n, int64_t kk, const R *A, int64_t lda,
                           const R *B, int64_t ldb, R *C, int64_t ldc) {
    const int64_t nbk = HYLA_MAX(1, HYLA_MIN((int64_t)omp_get_max_threads(), n / 64));
#pragma omp parallel for if (nbk > 1) schedule(static)
    for (int64_t b = 0; b < nbk; b++) {
        const int64_t j0 = b * n / nbk, j1 = (b + 1) * n / nbk;
        TRI(gemm)(m, j1 - j0, kk, A, lda, B + j0 * ldb, ldb, C + j0 * ldc, ldc);
    }
}

/* perm := the ascending order of d[0..n-1] from those of its halves
 * [0, n1) and [n1, n): ord[0..n1-1] and ord[n1..n-1], local to each half
 * (NULL: the halves are sorted in place). */
static void TRI(merge_order)(int64_t n, int64_t n1, const R *d, const int64_t *ord, int64_t *perm) {
    for (int64_t a = 0, b = n1, p = 0; p < n; p++) {
        const int64_t ia = a < n1 ? (ord ? ord[a] : a) : 0;
        const int64_t ib = b < n ? n1 + (ord ? ord[b] : b - n1) : 0;
        if (b >= n || (a < n1 && d[ia] <= d[ib])) {
            perm[p] = ia;
            a++;
        } else {
            perm[p] = ib;
            b++;
        }
    }
}

/* Applies the deflating rotation of poles pj, j (see deflate) to the data
 * that carries the eigenvectors. */
typedef void (*TRI(rot_fn))(void *arg, int64_t pj, int64_t j, R c, R s);

/* Deflation of a merge (Gu and Eisenstat), in the ascending order perm of the
 * poles d (n of them) with the rank-one weight r2 and vector z: a negligible
 * z_j deflates, and of two poles so close that a rotation zeroing one z
 * component leaves a negligible coupling, the lower one does (d, z updated,
 * the rotation passed to rot). nd[0..k-1]: the remaining poles, ascending;
 * defl[0..nde-1]: the deflated ones. */
static void TRI(deflate)(int64_t n, const int64_t *perm, R *d, R *z, R r2, TRI(rot_fn) rot,
                         void *arg, int64_t *nd, int64_t *pk, int64_t *defl, int64_t *pnde) {
    R dmax = 0, zmax = 0;
    for (int64_t j = 0; j < n; j++) {
        dmax = HYLA_MAX(dmax, RF(fabs)(d[j]));
        zmax = HYLA_MAX(zmax, RF(fabs)(z[j]));
    }
    const R tol = 8 * R_EPS * HYLA_MAX(dmax, zmax);
    int64_t k = 0, nde = 0, pj = -1;
    for (int64_t p = 0; p < n; p++) {
        const int64_t j = perm[p];
        if (r2 * RF(fabs)(z[j]) <= tol) {
            defl[nde++] = j;
            continue;
        }
        if (pj < 0) {
            pj = j;
            continue;
        }
        R tau = RF(hypot)(z[pj], z[j]), c = z[pj] / tau, s = z[j] / tau;
        if (RF(fabs)((d[j] - d[pj]) * c * s) <= tol) {
            z[j] = tau;
            z[pj] = 0;
            rot(arg, pj, j, c, s);
            R dp = d[pj], dj = d[j];
            d[j] = c * c * dp + s * s * dj;
            d[pj] = s * s * dp + c * c * dj;
            defl[nde++] = pj;
        } else {
            nd[k++] = pj;
        }
        pj = j;
    }
    if (pj >= 0) nd[k++] = pj;
    *pk = k;
    *pnde = nde;
}

/* The columns of a merge's Q (ldq, n rows of which the top n1 belong to the
 * first half) and their kinds: the rotation touches only the rows where
 * either column can be nonzero. */
typedef struct {
    R *Q;
    int64_t ldq, n, n1;
    unsigned char *kind;
} TRI(rot_cols);

static void TRI(rotate_cols)(void *arg, int64_t pj, int64_t j, R c, R s) {
    TRI(rot_cols) *a = arg;
    unsigned char *kind = a->kind;
    int64_t r0 = 0, r1 = a->n;
    if (kind[pj] == COL_TOP && kind[j] == COL_TOP) r1 = a->n1;
    if (kind[pj] == COL_BOTTOM && kind[j] == COL_BOTTOM) r0 = a->n1;
    R *qp = a->Q + pj * a->ldq, *qj = a->Q + j * a->ldq;
    for (int64_t r = r0; r < r1; r++) {
        R x = qp[r], y = qj[r];
        qj[r] = c * x + s * y;
        qp[r] = c * y - s * x;
    }
    if (kind[pj] != kind[j]) kind[pj] = kind[j] = COL_DENSE;
}

/* Workspace of divide and conquer on a block of order nb, allocated once; the
 * merge of rows [lo, hi) uses the slices at lo, disjoint from those of the
 * merges running beside it. */
typedef struct {
    int64_t nb;
    R *qn, *u;            /* nb x nb each: packed eigenvectors, secular vectors */
    R *rw;                /* 5 nb */
    int64_t *iw;          /* 4 nb */
    int64_t *ord;         /* nb: ascending order of each solved subproblem */
    unsigned char *kind;  /* nb */
    int team_gemm;        /* a merge with the team inside forms its GEMMs by the team */
} TRI(dc_ws);

/* Merges two solved halves: on entry d[0..n1-1] and d[n1..n-1] hold the
 * eigenvalues of the torn halves, ord[0..n1-1] and ord[n1..n-1] their
 * ascending orders (indices local to each half), and Q (ldq) their
 * eigenvectors as diag(Q1, Q2); the matrix is
 * diag(Q1, Q2) (diag(d) + |rho| v v^T) diag(Q1, Q2)^T with
 * z = (last row of Q1, sign(rho) first row of Q2). On return d and the columns
 * of Q hold the eigenpairs of the whole and ord[0..n-1] their ascending order.
 * par: use the OpenMP team inside; the GEMMs by the host BLAS. lo: the
 * offset of the merge in the block, for its workspace slices; tm: timers
 * (NULL: none). */
static int TRI(merge)(int64_t n, int64_t n1, R *d, R *Q, int64_t ldq, R rho, int par,
                      const TRI(dc_ws) *ws, int64_t lo, double *tm) {
    double t0 = tm ? hyla_wtime() : 0, t1;
    R *Qn = ws->qn + lo * ws->nb, *U = ws->u + lo * ws->nb, *rw = ws->rw + 5 * lo;
    R *z = rw, *dl = rw + n, *w = rw + 2 * n, *zh = rw + 3 * n, *lam = rw + 4 * n;
    int64_t *iw = ws->iw + 4 * lo, *ord = ws->ord + lo;
    int64_t *perm = iw, *nd = iw + n, *defl = iw + 2 * n, *gpos = iw + 3 * n;
    unsigned char *kind = ws->kind + lo;

    /* z = diag(Q1, Q2)^T v / sqrt(2), |z| = 1, and the weight 2 |rho| */
    const R sg = rho < 0 ? -1 : 1, r2 = 2 * RF(fabs)(rho), is2 = 1 / RF(sqrt)(2);
    for (int64_t j = 0; j < n1; j++) z[j] = Q[(n1 - 1) + j * ldq] * is2;
    for (int64_t j = n1; j < n; j++) z[j] = sg * Q[n1 + j * ldq] * is2;
    TRI(merge_order)(n, n1, d, ord, perm);
    for (int64_t j = 0; j < n; j++) kind[j] = j < n1 ? COL_TOP : COL_BOTTOM;
    int64_t k, nde;
    TRI(rot_cols) rc_arg = {Q, ldq, n, n1, kind};
    TRI(deflate)(n, perm, d, z, r2, TRI(rotate_cols), &rc_arg, nd, &k, defl, &nde);

    /* non-deflated columns grouped top | dense | bottom (each ascending) so that
     * the update is two GEMMs that skip the zero blocks of diag(Q1, Q2) */
    int64_t cnt[3] = {0, 0, 0};
    for (int64_t m = 0; m < k; m++) cnt[kind[nd[m]]]++;
    int64_t at[3] = {0, cnt[0], cnt[0] + cnt[1]};
    for (int64_t m = 0; m < k; m++) {
        gpos[m] = at[kind[nd[m]]]++;
        dl[m] = d[nd[m]];
        w[m] = z[nd[m]];
    }
#pragma omp parallel for if (par && k > 256) schedule(static)
    for (int64_t m = 0; m < k; m++)
        memcpy(Qn + gpos[m] * n, Q + nd[m] * ldq, sizeof *Qn * (size_t)n);
    /* the first k columns of Q will receive the updated vectors: a deflated
     * column there moves to a column the packed ones left free past k (as
     * many as there are), the others stay; lam[c] = eigenvalue of column c */
    for (int64_t t = 0, f = 0; t < nde; t++) {
        int64_t c = defl[t];
        const R val = d[c];
        if (c < k) {
            while (nd[f] < k) f++;
            memcpy(Q + nd[f] * ldq, Q + c * ldq, sizeof *Q * (size_t)n);
            c = nd[f++];
        }
        lam[c] = val;
    }

    if (tm) {
        t1 = hyla_wtime();
        tm[STEDC_T_DEFLATE] += t1 - t0;
        t0 = t1;
    }

    /* the roots; column i of U holds dl - lam_i in grouped row order */
    int fail = 0;
#pragma omp parallel for if (par && k > 128) schedule(dynamic, 16) reduction(| : fail)
    for (int64_t i = 0; i < k; i++) fail |= TRI(secular)(k, i, dl, w, r2, &lam[i], U + i * k, gpos);
    if (fail) return 1;

    /* Gu and Eisenstat: the z for which the computed roots are exact (Loewner),
     * zh_m^2 = (lam_m - dl_m)/rho * prod_{j != m} (lam_j - dl_m)/(dl_j - dl_m),
     * every factor positive by interlacing; rows in blocks, roots in order */
    const int64_t rb = 256;
#pragma omp parallel for if (par && k > rb) schedule(dynamic)
    for (int64_t m0 = 0; m0 < k; m0 += rb) {
        const int64_t m1 = HYLA_MIN(m0 + rb, k);
        for (int64_t m = m0; m < m1; m++) zh[m] = -U[gpos[m] + m * k] / r2;
        for (int64_t j = 0; j < k; j++) {
            const R *uj = U + j * k;
            for (int64_t m = m0; m < m1; m++)
                if (m != j) zh[m] *= -uj[gpos[m]] / (dl[j] - dl[m]);
        }
        for (int64_t m = m0; m < m1; m++) zh[m] = RF(copysign)(RF(sqrt)(zh[m]), w[m]);
    }
    /* eigenvectors of diag(dl) + rho zh zh^T: u_i = zh / (dl - lam_i), normalized */
#pragma omp parallel for if (par && k > 128) schedule(static)
    for (int64_t i = 0; i < k; i++) {
        R *u = U + i * k, nrm = 0;
        for (int64_t m = 0; m < k; m++) {
            u[gpos[m]] = zh[m] / u[gpos[m]];
            nrm += u[gpos[m]] * u[gpos[m]];
        }
        nrm = 1 / RF(sqrt)(nrm);
        for (int64_t m = 0; m < k; m++) u[m] *= nrm;
    }

    if (tm) {
        t1 = hyla_wtime();
        tm[STEDC_T_SECULAR] += t1 - t0;
        t0 = t1;
    }

    /* Q[:, 0:k] = [Q1 0; 0 Q2] (grouped non-deflated columns) U */
    const int64_t top = cnt[0] + cnt[1], bot = cnt[1] + cnt[2];
    if (par && ws->team_gemm) {
        TRI(gemm_team)(n1, k, top, Qn, n, U, k, Q, ldq);
        TRI(gemm_team)(n - n1, k, bot, Qn + n1 + cnt[0] * n, n, U + cnt[0], k, Q + n1, ldq);
    } else {
        TRI(gemm)(n1, k, top, Qn, n, U, k, Q, ldq);
        TRI(gemm)(n - n1, k, bot, Qn + n1 + cnt[0] * n, n, U + cnt[0], k, Q + n1, ldq);
    }
    if (tm) tm[STEDC_T_GEMM] += hyla_wtime() - t0;
    memcpy(d, lam, sizeof *d * (size_t)n);

    /* ascending order: the roots (ascending) merged with the sorted deflated */
    int64_t *dord = perm, *tmp = perm + nde;
    TRI(argsort)(nde, lam + k, dord, tmp, 0);
    for (int64_t a = 0, b = 0, p = 0; p < n; p++) {
        if (b >= nde || (a < k && lam[a] <= lam[k + dord[b]]))
            ord[p] = a++;
        else
            ord[p] = k + dord[b++];
    }
    return 0;
}

/* ------------------------------------------------------------ device levels */

/* A rotation of deflate, kept to be applied to the rows of the merge matrix. */
typedef struct {
    int64_t *p, *j;
    R *c, *s;
    int64_t count;
} TRI(rot_list);

static void TRI(record_rot)(void *arg, int64_t pj, int64_t j, R c, R s) {
    TRI(rot_list) *a = arg;
    a->p[a->count] = pj;
    a->j[a->count] = j;
    a->c[a->count] = c;
    a->s[a->count] = s;
    a->count++;
}

/* State of the merges whose matrices live on the devices. The block's rows
 * are dealt to the first nd devices of ctx: device g holds rows r[g] ..
 * r[g+1] - 1 of Q of the level being merged (cur[g]) and of the level's
 * result (nxt[g]), all nb columns, ld max(1, r[g+1] - r[g]); so a merge
 * multiplies each device's own rows by the merge matrix M, which every
 * device holding rows of the merge builds itself from the roots (O(n^2)
 * work, no n^2 traffic), by blocks of at most mc columns into dM[g] (ld the
 * merge's order). The merge ops' vectors in dsm[g] (device) and its pinned
 * mirror hsm[g], laid out as below (dc_real, dc_int, dc_info); host arrays
 * of nb entries each: rw 7, iw 6. */
typedef struct {
    hyla_t *ctx;
    int nd;
    int64_t nb, mc;
    int64_t r[HYLA_MAX_DEVICES + 1];
    hyla_dev_workspace *dws[HYLA_MAX_DEVICES];
    R *cur[HYLA_MAX_DEVICES], *nxt[HYLA_MAX_DEVICES], *dM[HYLA_MAX_DEVICES];
    unsigned char *dsm[HYLA_MAX_DEVICES], *hsm[HYLA_MAX_DEVICES];
    R *rw;
    int64_t *iw;
} TRI(dev_ws);

/* dsm / hsm: 6 nb reals, then 6 nb int64 (ptridiag.c's DC_*), then the info int */
static size_t TRI(dc_ints_at)(int64_t nb) { return HYLA_CEILDIV(sizeof(R) * (size_t)(6 * nb), 64) * 64; }
static size_t TRI(dc_bytes)(int64_t nb) {
    return TRI(dc_ints_at)(nb) + sizeof(int64_t) * (size_t)(6 * nb) + 64;
}
static R *TRI(dc_real)(unsigned char *b, int64_t nb, int which) {
    return (R *)(void *)b + which * nb;
}
static int64_t *TRI(dc_int)(unsigned char *b, int64_t nb, int which) {
    return (int64_t *)(void *)(b + TRI(dc_ints_at)(nb)) + which * nb;
}
static int *TRI(dc_info)(unsigned char *b, int64_t nb) {
    return (int *)(void *)(b + TRI(dc_ints_at)(nb) + sizeof(int64_t) * (size_t)(6 * nb));
}

static int64_t TRI(rows_ld)(const TRI(dev_ws) *w, int g) {
    return HYLA_MAX(1, w->r[g + 1] - w->r[g]);
}

/* The device holding row i of the block. */
static int TRI(row_owner)(const TRI(dev_ws) *w, int64_t i) {
    int g = 0;
    while (g + 1 < w->nd && w->r[g + 1] <= i) g++;
    return g;
}

/* The merge ops' arguments on device g's vectors. */
static hyla_dc_args TRI(dc_args_on)(const TRI(dev_ws) *w, int g, int64_t n, int64_t k,
                                    int64_t nrot, R r2) {
    unsigned char *ds = w->dsm[g];
    const int64_t nb = w->nb;
    return (hyla_dc_args){.n = n, .k = k, .nrot = nrot, .r2 = r2,
                          .dl = TRI(dc_real)(ds, nb, DC_DL), .w = TRI(dc_real)(ds, nb, DC_W),
                          .org = TRI(dc_int)(ds, nb, DC_ORG), .tau = TRI(dc_real)(ds, nb, DC_TAU),
                          .zh = TRI(dc_real)(ds, nb, DC_ZH), .info = TRI(dc_info)(ds, nb),
                          .nd = TRI(dc_int)(ds, nb, DC_ND), .pos = TRI(dc_int)(ds, nb, DC_POS),
                          .defl = TRI(dc_int)(ds, nb, DC_DEFL), .rp = TRI(dc_int)(ds, nb, DC_RP),
                          .rj = TRI(dc_int)(ds, nb, DC_RJ), .rc = TRI(dc_real)(ds, nb, DC_RC),
                          .rs = TRI(dc_real)(ds, nb, DC_RS), .M = w->dM[g], .ldm = HYLA_MAX(1, n)};
}

/* One merge on the devices: rows [lo, lo + n) of the block, whose columns
 * [lo, lo + n) hold diag(Q1, Q2) in cur (Q1 of order n1, the columns in the
 * order ord of the eigenvalues d, as in merge). The new eigenvectors are
 * Q_new = diag(Q1, Q2) M with the merge matrix M = G_1 ... G_r E
 * (backend/ops/dc.h): deflate's rotations G_1 .. G_r times the secular
 * eigenvectors and deflated unit columns E, its columns in ascending order
 * of the eigenvalues. The host deflates (O(n log n)) and orders; every
 * device holding rows of the merge solves the secular equation and builds
 * M (the dc_secular and dc_vectors ops, O(n^2); the first one's roots come
 * back) and multiplies its own rows: rows of Q1 by M's top n1 rows, rows of
 * Q2 by its bottom rows. So Q never leaves the devices, is never rotated
 * there, and the merge's output is sorted (ord becomes the identity); the
 * price is GEMMs over all n columns instead of the non-deflated ones, small
 * at the top levels where these merges run (they deflate little). zr: z's
 * rows (row n1 - 1 of Q1, row 0 of Q2) read beforehand. [wc0, wc1): the
 * output columns formed (0, n: all; the others of nxt are left as they
 * were). Everything runs in order on each device workspace's q_comp; the
 * GEMMs are left queued there. */
static int TRI(merge_dev)(TRI(dev_ws) *w, int64_t lo, int64_t n, int64_t n1, R *d, int64_t *ord,
                          const R *zr, R rho, int64_t wc0, int64_t wc1, double *tm) {
    const int64_t nb = w->nb, mid = lo + n1, hi = lo + n;
    R *z = w->rw, *lam = z + nb, *dd = z + 2 * nb, *rcos = z + 3 * nb, *rsin = z + 4 * nb,
      *dlh = z + 5 * nb, *wvh = z + 6 * nb;
    int64_t *perm = w->iw, *nd = perm + nb, *defl = perm + 2 * nb, *rp = perm + 3 * nb,
            *rj = perm + 4 * nb, *tmp = perm + 5 * nb;
    const size_t rs = sizeof(R);
    const double tbeg = hyla_wtime();
    double t0 = tbeg, t1;
    int err = 0, part[HYLA_MAX_DEVICES], gf = -1;
    for (int g = 0; g < w->nd; g++) {
        part[g] = w->r[g] < hi && w->r[g + 1] > lo;
        if (part[g] && gf < 0) gf = g;
    }

    const R sg = rho < 0 ? -1 : 1, r2 = 2 * RF(fabs)(rho), is2 = 1 / RF(sqrt)(2);
    for (int64_t j = 0; j < n; j++) z[j] = (j < n1 ? 1 : sg) * zr[j] * is2;
    TRI(merge_order)(n, n1, d, ord, perm);
    TRI(rot_list) rl = {rp, rj, rcos, rsin, 0};
    int64_t k, nde;
    TRI(deflate)(n, perm, d, z, r2, TRI(record_rot), &rl, nd, &k, defl, &nde);
    for (int64_t m = 0; m < k; m++) {
        dlh[m] = d[nd[m]];
        wvh[m] = z[nd[m]];
    }
    t1 = hyla_wtime();
    if (tm) tm[STEDC_T_DEFLATE] += t1 - t0;
    t0 = t1;

    /* the roots on every device of the merge; the first one's poles and
     * offsets come back */
    unsigned char *hf = w->hsm[gf];
    R *horg_tau = TRI(dc_real)(hf, nb, DC_TAU);
    int64_t *horg = TRI(dc_int)(hf, nb, DC_ORG);
    int *hinfo = TRI(dc_info)(hf, nb);
    for (int g = 0; g < w->nd && k > 0 && !err; g++) {
        if (!part[g]) continue;
        const hyla_backend_ops *o = w->ctx->devs[g]->ops;
        hyla_queue *qc = w->dws[g]->q_comp;
        unsigned char *hs = w->hsm[g];
        const hyla_dc_args a = TRI(dc_args_on)(w, g, n, k, rl.count, r2);
        memcpy(TRI(dc_real)(hs, nb, DC_DL), dlh, rs * (size_t)k);
        memcpy(TRI(dc_real)(hs, nb, DC_W), wvh, rs * (size_t)k);
        err = o->copy_2d(qc, (void *)a.dl, rs * (size_t)nb, TRI(dc_real)(hs, nb, DC_DL),
                         rs * (size_t)nb, rs * (size_t)k, 2, HYLA_COPY_H2D);
        if (!err) err = o->alg->dc_secular(qc, DT, &a);
        if (!err && g == gf)
            err = o->copy_2d(qc, horg_tau, rs * (size_t)k, a.tau, rs * (size_t)k, rs * (size_t)k,
                             1, HYLA_COPY_D2H);
        if (!err && g == gf)
            err = o->copy_2d(qc, horg, 8 * (size_t)k, a.org, 8 * (size_t)k, 8 * (size_t)k, 1,
                             HYLA_COPY_D2H);
        if (!err && g == gf)
            err = o->copy_2d(qc, hinfo, sizeof(int), a.info, sizeof(int), sizeof(int), 1,
                             HYLA_COPY_D2H);
    }
    /* also when every pole deflated: the previous merge's uploads read hsm */
    const double ts = hyla_wtime();
    for (int g = 0; g < w->nd; g++) {
        if (!part[g]) continue;
        const int r = w->ctx->devs[g]->ops->queue_sync(w->dws[g]->q_comp);
        if (!err) err = r;
    }
    if (err) return err;
    if (k > 0 && *hinfo) return 1;
    const double tw = hyla_wtime();

    /* output columns: the roots (ascending) merged with the sorted deflated;
     * pos[i] for root i, pos[k + t] for deflated t */
    int64_t *pos = TRI(dc_int)(hf, nb, DC_POS);
    for (int64_t i = 0; i < k; i++) lam[i] = dlh[horg[i]] + horg_tau[i];
    for (int64_t t = 0; t < nde; t++) dd[t] = d[defl[t]];
    TRI(argsort)(nde, dd, perm, tmp, 0);
    for (int64_t a_ = 0, b = 0, p = 0; p < n; p++) {
        if (b >= nde || (a_ < k && lam[a_] <= dd[perm[b]])) {
            pos[a_++] = p;
        } else {
            pos[k + perm[b]] = p;
            b++;
        }
    }
    for (int64_t i = 0; i < k; i++) d[pos[i]] = lam[i];
    for (int64_t t = 0; t < nde; t++) d[pos[k + t]] = dd[t];
    for (int64_t p = 0; p < n; p++) ord[p] = p;
    t1 = hyla_wtime();
    if (tm) tm[STEDC_T_SECULAR] += t1 - t0;
    t0 = t1;

    /* on each device of the merge: M by blocks of columns from the roots,
     * the rows and the rotations, each block times the device's rows */
    const R one = 1, zero = 0;
    for (int g = 0; g < w->nd && !err; g++) {
        if (!part[g]) continue;
        const hyla_backend_ops *o = w->ctx->devs[g]->ops;
        hyla_queue *qc = w->dws[g]->q_comp;
        unsigned char *hs = w->hsm[g];
        hyla_dc_args a = TRI(dc_args_on)(w, g, n, k, rl.count, r2);
        if (g != gf) memcpy(TRI(dc_int)(hs, nb, DC_POS), pos, 8 * (size_t)n);
        memcpy(TRI(dc_int)(hs, nb, DC_ND), nd, 8 * (size_t)k);
        memcpy(TRI(dc_int)(hs, nb, DC_DEFL), defl, 8 * (size_t)nde);
        memcpy(TRI(dc_int)(hs, nb, DC_RP), rp, 8 * (size_t)rl.count);
        memcpy(TRI(dc_int)(hs, nb, DC_RJ), rj, 8 * (size_t)rl.count);
        memcpy(TRI(dc_real)(hs, nb, DC_RC), rcos, rs * (size_t)rl.count);
        memcpy(TRI(dc_real)(hs, nb, DC_RS), rsin, rs * (size_t)rl.count);
        err = o->copy_2d(qc, (void *)a.nd, 8 * (size_t)nb, TRI(dc_int)(hs, nb, DC_ND),
                         8 * (size_t)nb, 8 * (size_t)n, 5, HYLA_COPY_H2D);
        if (!err && rl.count > 0)
            err = o->copy_2d(qc, (void *)a.rc, rs * (size_t)nb, TRI(dc_real)(hs, nb, DC_RC),
                             rs * (size_t)nb, rs * (size_t)rl.count, 2, HYLA_COPY_H2D);
        const int64_t ld = TRI(rows_ld)(w, g), rg = w->r[g];
        const int64_t t0r = HYLA_MAX(rg, lo), t1r = HYLA_MIN(w->r[g + 1], mid);
        const int64_t b0r = HYLA_MAX(rg, mid), b1r = HYLA_MIN(w->r[g + 1], hi);
        for (int64_t c0 = wc0; c0 < wc1 && !err; c0 += w->mc) {
            a.c0 = c0;
            a.nc = HYLA_MIN(w->mc, wc1 - c0);
            err = o->alg->dc_vectors(qc, DT, &a);
            /* nxt[rows of Q1] = Q1 M[0:n1, c], nxt[rows of Q2] = Q2 M[n1:n, c] */
            if (!err && t1r > t0r)
                err = o->gemm(qc, DT, HYLA_NOTRANS, HYLA_NOTRANS, t1r - t0r, a.nc, n1, &one,
                              w->cur[g] + (t0r - rg) + lo * ld, ld, w->dM[g], a.ldm, &zero,
                              w->nxt[g] + (t0r - rg) + (lo + c0) * ld, ld);
            if (!err && b1r > b0r)
                err = o->gemm(qc, DT, HYLA_NOTRANS, HYLA_NOTRANS, b1r - b0r, a.nc, n - n1, &one,
                              w->cur[g] + (b0r - rg) + mid * ld, ld, w->dM[g] + n1, a.ldm, &zero,
                              w->nxt[g] + (b0r - rg) + (lo + c0) * ld, ld);
        }
    }
    t1 = hyla_wtime();
    hyla_log(w->ctx,
             "stedc device merge: rows %lld (%lld + %lld), roots %lld, rotations %lld, devices "
             "%d..; host %.3f ms, devices (earlier GEMMs, roots) %.3f ms, host and enqueue %.3f ms",
             (long long)n, (long long)n1, (long long)(n - n1), (long long)k,
             (long long)rl.count, gf, 1e3 * (ts - tbeg), 1e3 * (tw - ts), 1e3 * (t1 - tw));
    if (tm) tm[STEDC_T_GEMM] += t1 - t0;
    return err;
}

/* The levels of dc_block from width w0 on, on the first nd devices of ctx
 * (see dev_ws and merge_dev): the diagonal blocks of width w0 of Z (the
 * block after the lower levels, its columns in the order ord; what lies
 * outside them is never read) up to the devices holding their rows, the
 * levels merged, the sorted eigenvectors left where out says. Every merge
 * of a level is enqueued before the level ends, each device's in turn, so
 * that the devices' GEMMs run side by side while the host deflates the next
 * merge. Returns 0, k > 0 for a failed secular solve (1 + first row of the
 * merge), or a HYLA_ERR_* code. */
static int TRI(dc_device)(hyla_t *ctx, int nd, int64_t n, R *d, const R *e, R *Z, int64_t ldz,
                          int64_t nleaf, const int64_t *b, int64_t w0, const TRI(dc_ws) *ws,
                          const stedc_out *out, double *tm) {
    const size_t sbytes = TRI(dc_bytes)(n);
    const int64_t nblk = nleaf / w0;
    TRI(dev_ws) w;
    memset(&w, 0, sizeof w);
    w.ctx = ctx, w.nb = n, w.mc = HYLA_MIN(n, out->mcols > 0 ? out->mcols : STEDC_M_COLS);
    /* device g: the rows of whole first-level blocks, about n / nd of them */
    w.nd = (int)HYLA_MIN(nd, nblk);
    for (int g = 0; g <= w.nd; g++) w.r[g] = b[((int64_t)g * nblk / w.nd) * w0];
    R *zr = ws->rw; /* n reals of the block's workspace, unused by the device levels */
    int64_t *order = hyla_malloc(sizeof *order * (size_t)(nblk + 1));
    /* the columns wanted in dZ (all elsewhere) */
    const int64_t wc0 = out->dZ && out->c1 > 0 ? out->c0 : 0,
                  wc1 = out->dZ && out->c1 > 0 ? out->c1 : n;
    const double tstart = hyla_wtime();
    int rc = order ? 0 : HYLA_ERR_NO_MEMORY;
    for (int g = 0; g < w.nd && !rc; g++) {
        hyla_dev *dv = ctx->devs[g];
        const hyla_backend_ops *o = dv->ops;
        const size_t rb = sizeof(R) * (size_t)TRI(rows_ld)(&w, g) * (size_t)n;
        if ((rc = hyla_workspace_get(ctx, g, 0, 0, &w.dws[g]))) break;
        if ((rc = o->mem_alloc(dv, HYLA_MEM_DEVICE, rb, (void **)&w.cur[g]))) w.cur[g] = NULL;
        if (!rc && (rc = o->mem_alloc(dv, HYLA_MEM_DEVICE, rb, (void **)&w.nxt[g]))) w.nxt[g] = NULL;
        if (!rc && (rc = o->mem_alloc(dv, HYLA_MEM_DEVICE, sizeof(R) * (size_t)(n * w.mc),
                                      (void **)&w.dM[g])))
            w.dM[g] = NULL;
        if (!rc && (rc = o->mem_alloc(dv, HYLA_MEM_DEVICE, sbytes, (void **)&w.dsm[g])))
            w.dsm[g] = NULL;
        if (!rc && (rc = o->mem_alloc(dv, HYLA_MEM_PINNED, sbytes, (void **)&w.hsm[g])))
            w.hsm[g] = NULL;
    }
    if (rc) goto cleanup;
    w.rw = hyla_malloc(sizeof(R) * (size_t)(7 * n));
    w.iw = hyla_malloc(sizeof(int64_t) * (size_t)(6 * n));
    if (!w.rw || !w.iw) {
        rc = HYLA_ERR_NO_MEMORY;
        goto cleanup;
    }
    double t0 = hyla_wtime(), ta = t0;
    /* cur := the lower levels' diagonal blocks, each to the device of its rows */
    for (int64_t g = 0; g < nblk && !rc; g++) {
        const int64_t s0 = b[g * w0], m = b[(g + 1) * w0] - s0;
        const int h = TRI(row_owner)(&w, s0);
        const int64_t ld = TRI(rows_ld)(&w, h);
        rc = hyla_xfer_matrix(ctx, h, DT, 1, m, m, Z + s0 + s0 * ldz, ldz,
                              w.cur[h] + (s0 - w.r[h]) + s0 * ld, ld);
    }
    tm[STEDC_T_COPY] += hyla_wtime() - t0;
    hyla_log(ctx,
             "stedc device levels: n %lld on %d devices from blocks of %lld leaves; allocations "
             "%.3f ms, blocks up %.3f ms",
             (long long)n, w.nd, (long long)w0, 1e3 * (ta - tstart), 1e3 * (hyla_wtime() - ta));
    for (int64_t width = w0; width < nleaf && !rc; width *= 2) {
        const int64_t ng = nleaf / (2 * width);
        /* z's rows of every merge of the level, before its GEMMs are queued */
        t0 = hyla_wtime();
        for (int64_t g = 0; g < ng && !rc; g++) {
            const int64_t lo = b[2 * g * width], mid = b[(2 * g + 1) * width],
                          hi = b[(2 * g + 2) * width];
            int h = TRI(row_owner)(&w, mid - 1);
            int64_t ld = TRI(rows_ld)(&w, h);
            rc = hyla_xfer_matrix(ctx, h, DT, 0, 1, mid - lo, zr + lo, 1,
                                  w.cur[h] + (mid - 1 - w.r[h]) + lo * ld, ld);
            h = TRI(row_owner)(&w, mid);
            ld = TRI(rows_ld)(&w, h);
            if (!rc)
                rc = hyla_xfer_matrix(ctx, h, DT, 0, 1, hi - mid, zr + mid, 1,
                                      w.cur[h] + (mid - w.r[h]) + mid * ld, ld);
        }
        tm[STEDC_T_COPY] += hyla_wtime() - t0;
        /* the merges in turns of one per device (by the first device of
         * each), so that no device waits for the host to pass another's */
        int64_t placed = 0;
        for (int64_t round = 0; placed < ng; round++)
            for (int h = 0; h < w.nd; h++) {
                int64_t seen = 0;
                for (int64_t g = 0; g < ng; g++)
                    if (TRI(row_owner)(&w, b[2 * g * width]) == h && seen++ == round)
                        order[placed++] = g;
            }
        for (int64_t i = 0; i < ng && !rc; i++) {
            const int64_t g = order[i];
            const int64_t lo = b[2 * g * width], mid = b[(2 * g + 1) * width],
                          hi = b[(2 * g + 2) * width];
            /* the top merge forms the wanted columns alone */
            const int top = 2 * width == nleaf;
            rc = TRI(merge_dev)(&w, lo, hi - lo, mid - lo, d + lo, ws->ord + lo, zr + lo,
                                e[mid - 1], top ? wc0 : 0, top ? wc1 : hi - lo, tm);
            if (rc > 0) rc = (int)lo + 1;
        }
        for (int g = 0; g < w.nd; g++) {
            const int r = ctx->devs[g]->ops->queue_sync(w.dws[g]->q_comp);
            if (!rc) rc = r;
        }
        for (int g = 0; g < w.nd; g++) {
            R *t = w.cur[g];
            w.cur[g] = w.nxt[g];
            w.nxt[g] = t;
        }
    }
    t0 = hyla_wtime();
    if (!rc && out->dZ) {
        /* one device (dc_block's choice) */
        const hyla_backend_ops *o = ctx->devs[0]->ops;
        rc = o->copy_2d(w.dws[0]->q_comp, (R *)out->dZ + wc0 * out->lddz,
                        sizeof(R) * (size_t)out->lddz, w.cur[0] + wc0 * n, sizeof(R) * (size_t)n,
                        sizeof(R) * (size_t)n, (size_t)(wc1 - wc0), HYLA_COPY_D2D);
        if (!rc) rc = o->queue_sync(w.dws[0]->q_comp);
    } else if (!rc && out->rows) {
        hyla_eig_zrows *zo = out->rows;
        zo->nd = w.nd;
        for (int g = 0; g <= w.nd; g++) zo->r[g] = w.r[g];
        for (int g = 0; g < w.nd; g++) {
            zo->ld[g] = TRI(rows_ld)(&w, g);
            zo->blk[g] = w.cur[g];
            w.cur[g] = NULL;
        }
    } else if (!rc) {
        for (int g = 0; g < w.nd && !rc; g++)
            rc = hyla_xfer_matrix(ctx, g, DT, 0, w.r[g + 1] - w.r[g], n, Z + w.r[g], ldz,
                                  w.cur[g], TRI(rows_ld)(&w, g));
    }
    tm[STEDC_T_COPY] += hyla_wtime() - t0;

cleanup:
    for (int g = 0; g < w.nd; g++) {
        hyla_dev *dv = ctx->devs[g];
        const hyla_backend_ops *o = dv->ops;
        if (rc && w.dws[g]) {
            o->queue_sync(w.dws[g]->q_comp);
            o->queue_sync(w.dws[g]->q_in);
        }
        o->mem_free(dv, HYLA_MEM_PINNED, w.hsm[g]);
        o->mem_free(dv, HYLA_MEM_DEVICE, w.dsm[g]);
        o->mem_free(dv, HYLA_MEM_DEVICE, w.dM[g]);
        o->mem_free(dv, HYLA_MEM_DEVICE, w.nxt[g]);
        o->mem_free(dv, HYLA_MEM_DEVICE, w.cur[g]);
    }
    hyla_free(w.iw);
    hyla_free(w.rw);
    hyla_free(order);
    return rc;
}

/* The merges of dc_block's levels of width w0 .. w1 - 1 (leaves per half) on
 * the host: in parallel over the merges while there are at least as many as
 * threads (and team), else one after the other with the team inside each.
 * Returns the width reached (w1, or where a merge failed). */
static int64_t TRI(host_levels)(R *d, const R *e, R *Z, int64_t ldz, int64_t nleaf,
                                const int64_t *b, int64_t w0, int64_t w1, int team,
                                const TRI(dc_ws) *ws, hyla_status *st, double *tm) {
    const int nth = omp_get_max_threads();
    int64_t width = w0;
    for (; width < w1 && !hyla_status_get(st); width *= 2) {
        const int64_t ng = nleaf / (2 * width);
        const int outer = team && ng > 1 && ng >= nth;
        const double tl = hyla_wtime();
#pragma omp parallel for if (outer) schedule(dynamic)
        for (int64_t g = 0; g < ng; g++) {
            const int64_t lo = b[2 * g * width], mid = b[(2 * g + 1) * width],
                          hi = b[(2 * g + 2) * width];
            int r = TRI(merge)(hi - lo, mid - lo, d + lo, Z + lo + lo * ldz, ldz, e[mid - 1],
                               team && !outer, ws, lo, outer ? NULL : tm);
            if (r) hyla_status_fail(st, r > 0 ? (int)lo + 1 : r);
        }
        if (outer) tm[STEDC_T_LOWER] += hyla_wtime() - tl;
    }
    return width;
}

/* Divide and conquer on one unreduced block of order n > leaf with entries of
 * order one; Z (ldz) holds zeros on entry when zeroed is set, else is
 * workspace whose needed parts are zeroed here. The block is torn into 2^L leaves of
 * at most `leaf` rows (Cuppen's rank-one tearing at every boundary), the leaves
 * are solved in parallel, then merged level by level: on the host
 * (host_levels) below the merges of gemm_min rows, on the first nd devices
 * of ctx from there (dc_device). On return d is sorted ascending, and so
 * are the eigenvectors: where out says when the device levels ran (out NULL:
 * in Z), else in Z (out->rows then has nd 0; a dZ of out receives them). */
static int TRI(dc_block)(hyla_t *ctx, int nd, int64_t n, R *d, R *e, R *Z, int64_t ldz,
                         int64_t leaf, int64_t gemm_min, int zeroed, const stedc_out *out,
                         int team_gemm, double *tm) {
    int64_t nleaf = 1;
    while (HYLA_CEILDIV(n, nleaf) > leaf) nleaf *= 2;
    TRI(dc_ws) ws = {.team_gemm = team_gemm};
    int64_t *b = hyla_malloc(sizeof *b * (size_t)(nleaf + 1));
    hyla_status st;
    hyla_status_init(&st);
    if (!b) {
        hyla_status_fail(&st, HYLA_ERR_NO_MEMORY);
        goto cleanup;
    }
    for (int64_t i = 0; i <= nleaf; i++) b[i] = i * n / nleaf;
    /* the levels whose merges all have gemm_min rows or more run on the
     * devices (merge_dev), those below on the host */
    int64_t wdev = nleaf;
    if (ctx && nd > 0)
        for (int64_t width = 1; width < nleaf && wdev == nleaf; width *= 2) {
            int64_t smallest = n;
            for (int64_t g = 0; g < nleaf / (2 * width); g++)
                smallest = HYLA_MIN(smallest, b[(2 * g + 2) * width] - b[2 * g * width]);
            if (smallest >= gemm_min) wdev = width;
        }
    /* the host merges' matrices: slices of the largest block the host
     * levels form (the whole block where no level runs on a device) */
    int64_t mw = 0;
    for (int64_t g = 0; g < nleaf / wdev; g++) mw = HYLA_MAX(mw, b[(g + 1) * wdev] - b[g * wdev]);
    ws.nb = mw;
    ws.qn = hyla_malloc(sizeof(R) * (size_t)n * (size_t)mw);
    ws.u = hyla_malloc(sizeof(R) * (size_t)n * (size_t)mw);
    ws.rw = hyla_malloc(sizeof(R) * (size_t)(5 * n));
    ws.iw = hyla_malloc(sizeof(int64_t) * (size_t)(5 * n));
    ws.kind = hyla_malloc((size_t)n);
    if (!ws.qn || !ws.u || !ws.rw || !ws.iw || !ws.kind) {
        hyla_status_fail(&st, HYLA_ERR_NO_MEMORY);
        goto cleanup;
    }
    ws.ord = ws.iw + 4 * n;
    for (int64_t i = 1; i < nleaf; i++) {
        R r = RF(fabs)(e[b[i] - 1]);
        d[b[i] - 1] -= r;
        d[b[i]] -= r;
    }
    /* below a few hundred rows the team's start and barriers cost more than
     * the work they would share */
    const int team = n >= 512;
    double t0 = hyla_wtime();
    if (!zeroed) {
        /* the host levels write only the diagonal blocks of wdev leaves */
        for (int64_t g = 0; g < nleaf / wdev; g++) {
            const int64_t lo = b[g * wdev], hi = b[(g + 1) * wdev];
#pragma omp parallel for if (team) schedule(static)
            for (int64_t j = lo; j < hi; j++)
                memset(Z + lo + j * ldz, 0, sizeof *Z * (size_t)(hi - lo));
        }
        tm[STEDC_T_COPY] += hyla_wtime() - t0;
        t0 = hyla_wtime();
    }
#pragma omp parallel for if (team) schedule(dynamic)
    for (int64_t i = 0; i < nleaf; i++) {
        const int64_t s = b[i], m = b[i + 1] - s;
        R *Zl = Z + s + s * ldz;
        for (int64_t j = 0; j < m; j++) {
            Zl[j + j * ldz] = 1;
            ws.ord[s + j] = j;
        }
        if (TRI(steqr)(m, d + s, e + s, Zl, ldz, m)) hyla_status_fail(&st, (int)s + 1);
    }
    tm[STEDC_T_LOWER] += hyla_wtime() - t0;
    const int64_t width = TRI(host_levels)(d, e, Z, ldz, nleaf, b, 1, wdev, team, &ws, &st, tm);
    int on_dev = 0;
    if (width < nleaf && !hyla_status_get(&st)) {
        static const stedc_out to_host = {.dZ = NULL};
        const int r = TRI(dc_device)(ctx, nd, n, d, e, Z, ldz, nleaf, b, width, &ws,
                                     out ? out : &to_host, tm);
        if (r) hyla_status_fail(&st, r);
        on_dev = 1; /* sorted: every device merge's output is */
    }
    t0 = hyla_wtime();
    if (!hyla_status_get(&st) && !on_dev) {
        if (team)
            TRI(permute_team)(n, ws.ord, d, Z, ldz, ws.qn, ws.rw);
        else
            TRI(permute)(n, ws.ord, d, Z, ldz, n, ws.kind, ws.qn);
        if (out && out->dZ) {
            const int r = hyla_xfer_matrix(ctx, 0, DT, 1, n, n, Z, ldz, out->dZ, out->lddz);
            if (r) hyla_status_fail(&st, r);
        }
    }
    tm[STEDC_T_COPY] += hyla_wtime() - t0;

cleanup:
    hyla_free(ws.kind);
    hyla_free(ws.iw);
    hyla_free(ws.rw);
    hyla_free(ws.u);
    hyla_free(ws.qn);
    hyla_free(b);
    return hyla_status_get(&st);
}

/* tm: STEDC_T_COUNT timers (seconds, added to). nd: the devices of ctx
 * that share the device levels. out: NULL (the eigenvectors into Z), or
 * where they go (dc_out; Z then being workspace): with one unreduced block
 * there, else into Z (and up to a dZ of out). team_gemm: the host merges
 * that run one after the other with the team inside form their GEMMs by the
 * team (gemm_team; the caller holds the host BLAS single-threaded), else by
 * one host BLAS call. */
static int TRI(stedc)(hyla_t *ctx, int nd, int64_t n, R *d, R *e, R *Z, int64_t ldz,
                      int64_t leaf, int64_t gemm_min, const stedc_out *out, int team_gemm,
                      double *tm) {
    if (!TRI(tri_finite)(n, d, e)) return HYLA_ERR_NAN;
    if (n == 0) return 0;
    /* one unreduced block for divide and conquer: it zeroes what it needs
     * of Z itself (nothing where the device levels deliver all of it), and
     * with its eigenvectors wanted on the devices it delivers there */
    int one = n > leaf;
    for (int64_t i = 0; one && i < n - 1; i++)
        if (TRI(negligible)(e[i], d[i], d[i + 1])) one = 0;
    const int whole = one && out != NULL;
    const double t0 = hyla_wtime();
    if (!one) {
#pragma omp parallel for if (n >= 512) schedule(static)
        for (int64_t j = 0; j < n; j++) memset(Z + j * ldz, 0, sizeof *Z * (size_t)n);
    }
    tm[STEDC_T_COPY] += hyla_wtime() - t0;
    int rc = 0;
    int64_t nblk = 0;
    for (int64_t l0 = 0; l0 < n; nblk++) {
        int64_t end = l0;
        while (end < n - 1 && !TRI(negligible)(e[end], d[end], d[end + 1])) end++;
        if (end < n - 1) e[end] = 0;
        const int64_t len = end - l0 + 1;
        R *db = d + l0, *eb = e + l0, *Zb = Z + l0 + l0 * ldz;
        if (len == 1) {
            Zb[0] = 1;
        } else {
            /* scale the block to max |entry| of order one by a power of two */
            const int sh = TRI(pow2_shift)(TRI(tri_max)(len, db, eb), (R)0.5, 1);
            for (int64_t i = 0; i < len; i++) db[i] = RF(ldexp)(db[i], sh);
            for (int64_t i = 0; i + 1 < len; i++) eb[i] = RF(ldexp)(eb[i], sh);
            if (len <= leaf) {
                for (int64_t j = 0; j < len; j++) Zb[j + j * ldz] = 1;
                rc = TRI(steqr)(len, db, eb, Zb, ldz, len);
                if (rc > 0) rc = (int)l0 + 1;
            } else {
                rc = TRI(dc_block)(ctx, nd, len, db, eb, Zb, ldz, leaf, gemm_min, !one,
                                   whole ? out : NULL, team_gemm, tm);
                if (rc > 0) rc += (int)l0;
            }
            for (int64_t i = 0; i < len; i++) db[i] = RF(ldexp)(db[i], -sh);
            if (rc) return rc;
        }
        l0 = end + 1;
    }
    if (nblk > 1) {
        /* the blocks' eigenpairs into one ascending order */
        int64_t *iw = hyla_malloc(sizeof *iw * (size_t)(2 * n));
        unsigned char *seen = hyla_malloc((size_t)n);
        R *col = hyla_malloc(sizeof *col * (size_t)n);
        if (iw && seen && col) {
            TRI(argsort)(n, d, iw, iw + n, 0);
            TRI(permute)(n, iw, d, Z, ldz, n, seen, col);
        } else {
            rc = HYLA_ERR_NO_MEMORY;
        }
        hyla_free(col);
        hyla_free(seen);
        hyla_free(iw);
    }
    if (!rc && out && out->dZ && !whole) {
        const double t1 = hyla_wtime();
        rc = hyla_xfer_matrix(ctx, 0, DT, 1, n, n, Z, ldz, out->dZ, out->lddz);
        tm[STEDC_T_COPY] += hyla_wtime() - t1;
    }
    return rc;
}

/* ------------------------------------------------------------ sterf by divide and conquer */

/* First and last rows of a subproblem's eigenvector matrix, interleaved
 * (fl[2 j], fl[2 j + 1] for column j): all a values-only merge needs of the
 * eigenvectors, since z comes from the last row of the upper half and the
 * first row of the lower one. */
typedef struct {
    R *F, *L;
} TRI(rot_rows);

static void TRI(rotate_rows)(void *arg, int64_t pj, int64_t j, R c, R s) {
    TRI(rot_rows) *a = arg;
    R *v[2] = {a->F, a->L};
    for (int t = 0; t < 2; t++) {
        R x = v[t][pj], y = v[t][j];
        v[t][j] = c * x + s * y;
        v[t][pj] = c * y - s * x;
    }
}

/* The values-only merge of two solved halves sorted ascending in place:
 * d[0..n1-1], d[n1..n-1] their eigenvalues and fl the first and last rows of
 * Q1 and Q2 (fl[2 j], fl[2 j + 1]); the tearing weight rho as in merge. On return d is the ascending spectrum of the
 * whole and fl the first and last rows of its eigenvector matrix. The
 * eigenvectors u_i = zh / (dl - lam_i) of the secular problem are formed one
 * at a time from each root's pole and offset, so that memory stays O(n).
 * rw: 12 n reals, iw: 4 n. */
static int TRI(merge_values)(int64_t n, int64_t n1, R *d, R *fl, R rho, int par, R *rw,
                             int64_t *iw) {
    R *z = rw, *F = rw + n, *L = rw + 2 * n, *dl = rw + 3 * n, *w = rw + 4 * n, *zh = rw + 5 * n;
    R *tau = rw + 6 * n, *lam = rw + 7 * n, *Fk = rw + 8 * n, *Lk = rw + 9 * n, *flo = rw + 10 * n;
    int64_t *perm = iw, *nd = iw + n, *defl = iw + 2 * n, *org = iw + 3 * n;

    /* z = diag(Q1, Q2)^T v / sqrt(2) and the rows of diag(Q1, Q2) */
    const R sg = rho < 0 ? -1 : 1, r2 = 2 * RF(fabs)(rho), is2 = 1 / RF(sqrt)(2);
    for (int64_t j = 0; j < n; j++) {
        const int top = j < n1;
        z[j] = top ? fl[2 * j + 1] * is2 : sg * fl[2 * j] * is2;
        F[j] = top ? fl[2 * j] : 0;
        L[j] = top ? 0 : fl[2 * j + 1];
    }
    TRI(merge_order)(n, n1, d, NULL, perm);
    int64_t k, nde;
    TRI(rot_rows) rr = {F, L};
    TRI(deflate)(n, perm, d, z, r2, TRI(rotate_rows), &rr, nd, &k, defl, &nde);
    for (int64_t m = 0; m < k; m++) {
        dl[m] = d[nd[m]];
        w[m] = z[nd[m]];
        Fk[m] = F[nd[m]];
        Lk[m] = L[nd[m]];
    }

    int fail = 0;
#pragma omp parallel for if (par && k > 128) schedule(dynamic, 16) reduction(| : fail)
    for (int64_t i = 0; i < k; i++) fail |= TRI(secular_root)(k, i, dl, w, r2, &org[i], &tau[i]);
    if (fail) return 1;

    TRI(loewner)(k, dl, w, r2, org, tau, par, zh);
    /* the new first and last rows: (F, L) u_i / |u_i| */
#pragma omp parallel for if (par && k > 128) schedule(static)
    for (int64_t i = 0; i < k; i++) {
        const R oi = dl[org[i]], ti = tau[i];
        R nrm = 0, sf = 0, sl = 0;
#pragma omp simd reduction(+ : nrm, sf, sl)
        for (int64_t m = 0; m < k; m++) {
            const R u = TRI(vec_entry)(zh[m], dl[m], oi, ti);
            nrm += u * u;
            sf += Fk[m] * u;
            sl += Lk[m] * u;
        }
        nrm = 1 / RF(sqrt)(nrm);
        lam[i] = oi + ti;
        flo[2 * i] = sf * nrm;
        flo[2 * i + 1] = sl * nrm;
    }

    /* ascending: the roots (ascending) merged with the sorted deflated */
    int64_t *dord = perm, *tmp = perm + nde;
    for (int64_t t = 0; t < nde; t++) {
        lam[k + t] = d[defl[t]];
        flo[2 * (k + t)] = F[defl[t]];
        flo[2 * (k + t) + 1] = L[defl[t]];
    }
    TRI(argsort)(nde, lam + k, dord, tmp, 0);
    for (int64_t a = 0, b = 0, p = 0; p < n; p++) {
        const int64_t c = b >= nde || (a < k && lam[a] <= lam[k + dord[b]]) ? a++ : k + dord[b++];
        d[p] = lam[c];
        fl[2 * p] = flo[2 * c];
        fl[2 * p + 1] = flo[2 * c + 1];
    }
    return 0;
}

/* Eigenvalues (ascending in d) of one unreduced block of order n with entries
 * of order one, by divide and conquer carrying only the first and last rows
 * of the eigenvector matrices: O(n^2) work in independent secular solves, so
 * that the cores share it (the QL iteration of sterf is serial). Leaves of at
 * most `leaf` rows by the QL iteration on those two rows, then the merges
 * level by level as in dc_block. Returns 0, k > 0 (1 + first row of a failed
 * subproblem) or HYLA_ERR_NO_MEMORY. */
static int TRI(sterf_dc)(int64_t n, R *d, R *e, int64_t leaf) {
    /* at most one thread per 512 rows: on the GPU host's 16 cores, n = 4000
     * took 0.156 s on 16 threads against 0.047 s on 8 (the team's start
     * and barriers cost more than the little work per thread;
     * bench/results/raw/host16-sterf-all-threads.txt) */
    const int nth0 = omp_get_max_threads(), nth = (int)HYLA_MAX(1, HYLA_MIN(nth0, n / 512));
    if (nth != nth0) omp_set_num_threads(nth);
    int64_t nleaf = 1;
    while (HYLA_CEILDIV(n, nleaf) > leaf) nleaf *= 2;
    int64_t *b = hyla_malloc(sizeof *b * (size_t)(nleaf + 1));
    R *fl = hyla_malloc(sizeof *fl * (size_t)(2 * n));
    R *rw = hyla_malloc(sizeof *rw * (size_t)(12 * n));
    int64_t *iw = hyla_malloc(sizeof *iw * (size_t)(4 * n));
    hyla_status st;
    hyla_status_init(&st);
    if (!b || !fl || !rw || !iw) {
        hyla_status_fail(&st, HYLA_ERR_NO_MEMORY);
        goto cleanup;
    }
    for (int64_t i = 0; i <= nleaf; i++) b[i] = i * n / nleaf;
    for (int64_t i = 1; i < nleaf; i++) {
        R r = RF(fabs)(e[b[i] - 1]);
        d[b[i] - 1] -= r;
        d[b[i]] -= r;
    }
    memset(fl, 0, sizeof *fl * (size_t)(2 * n));
#pragma omp parallel for schedule(dynamic)
    for (int64_t i = 0; i < nleaf; i++) {
        const int64_t s = b[i], m = b[i + 1] - s;
        fl[2 * s] = 1;
        fl[2 * (s + m - 1) + 1] = 1;
        if (TRI(steqr)(m, d + s, e + s, fl + 2 * s, 2, 2)) hyla_status_fail(&st, (int)s + 1);
    }
    for (int64_t width = 1; width < nleaf && !hyla_status_get(&st); width *= 2) {
        const int64_t ng = nleaf / (2 * width);
        const int outer = ng > 1 && ng >= nth;
#pragma omp parallel for if (outer) schedule(dynamic)
        for (int64_t g = 0; g < ng; g++) {
            const int64_t lo = b[2 * g * width], mid = b[(2 * g + 1) * width],
                          hi = b[(2 * g + 2) * width];
            if (TRI(merge_values)(hi - lo, mid - lo, d + lo, fl + 2 * lo, e[mid - 1], !outer,
                                  rw + 12 * lo, iw + 4 * lo))
                hyla_status_fail(&st, (int)lo + 1);
        }
    }

cleanup:
    if (nth != nth0) omp_set_num_threads(nth0);
    hyla_free(iw);
    hyla_free(rw);
    hyla_free(fl);
    hyla_free(b);
    return hyla_status_get(&st);
}
