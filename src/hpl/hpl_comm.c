/* The process grid over MPI, or one rank without it. */
#include "hpl/hpl_comm.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"
#include "hpl/hpl.h"

#ifdef HYLA_HAVE_MPI
#include <mpi.h>
#endif

struct hpl_grid {
    int nprow, npcol, pmap, myrow, mycol, grid_rank, in_grid;
    hyla_dev *xdev;     /* device of the row's device communicator */
    hyla_xcomm *xrow;   /* that communicator (hpl_row_dev_init), or NULL */
#ifdef HYLA_HAVE_MPI
    MPI_Comm all, row, col; /* MPI_COMM_NULL outside the grid */
    MPI_Op pivot_op;
#endif
};

#ifdef HYLA_HAVE_MPI
static int mpi_started; /* hyla_hpl_init called MPI_Init */
static int mpi_active;  /* MPI is initialized and usable */

static int mpi_rc(int rc) { return rc == MPI_SUCCESS ? 0 : HYLA_ERR_MPI; }

/* the largest chunk of one collective call, in elements */
enum { CHUNK = 1 << 28 };
#endif

int hyla_hpl_have_mpi(void) {
#ifdef HYLA_HAVE_MPI
    return 1;
#else
    return 0;
#endif
}

int hyla_hpl_init(int *rank, int *size, int *local_rank) {
    *rank = 0;
    *size = 1;
    *local_rank = 0;
#ifdef HYLA_HAVE_MPI
    /* Only under a launcher: a singleton MPI_Init may try to start a runtime
     * daemon, which containers and CI machines do not always allow. */
    int launched = getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
    int inited = 0;
    if (MPI_Initialized(&inited) != MPI_SUCCESS) return HYLA_ERR_MPI;
    if (!inited && !launched) return 0;
    if (!inited) {
        if (MPI_Init(NULL, NULL) != MPI_SUCCESS) return HYLA_ERR_MPI;
        mpi_started = 1;
    }
    mpi_active = 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Comm_rank(MPI_COMM_WORLD, rank) != MPI_SUCCESS ||
        MPI_Comm_size(MPI_COMM_WORLD, size) != MPI_SUCCESS)
        return HYLA_ERR_MPI;
    MPI_Comm node;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, *rank, MPI_INFO_NULL, &node) !=
        MPI_SUCCESS)
        return HYLA_ERR_MPI;
    int rc = MPI_Comm_rank(node, local_rank);
    MPI_Comm_free(&node);
    return mpi_rc(rc);
#else
    return 0;
#endif
}

void hyla_hpl_finalize(void) {
#ifdef HYLA_HAVE_MPI
    if (mpi_started) MPI_Finalize();
    mpi_started = mpi_active = 0;
#endif
}

int hyla_hpl_allmax(double *v, int count) {
#ifdef HYLA_HAVE_MPI
    if (mpi_active)
        return mpi_rc(MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
#else
    (void)v;
    (void)count;
#endif
    return 0;
}

/* ---- the pivot reduction: the record layout is in hpl_comm.h ---- */

#ifdef HYLA_HAVE_MPI
static void pivot_combine(void *invec, void *inoutvec, int *len, MPI_Datatype *dt) {
    int bytes = 0;
    MPI_Type_size(*dt, &bytes);
    int rec = bytes / (int)sizeof(double);
    int w = (rec - 3) / 2;
    for (int r = 0; r < *len; r++) {
        const double *in = (const double *)invec + (size_t)r * rec;
        double *io = (double *)inoutvec + (size_t)r * rec;
        int take;
        if (in[1] < 0) take = 0;
        else if (io[1] < 0) take = 1;
        else if (fabs(in[0]) != fabs(io[0])) take = fabs(in[0]) > fabs(io[0]);
        else take = in[1] < io[1];
        if (take) memcpy(io, in, (size_t)(w + 2) * sizeof(double));
        if (in[w + 2] != 0) memcpy(io + w + 2, in + w + 2, (size_t)(w + 1) * sizeof(double));
    }
}
#endif

int hpl_grid_create(int nprow, int npcol, int pmap, hpl_grid **gp, int *in_grid) {
    *gp = NULL;
    *in_grid = 0;
    int rank = 0, size = 1;
#ifdef HYLA_HAVE_MPI
    if (mpi_active && (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS ||
                       MPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS))
        return HYLA_ERR_MPI;
#endif
    if (nprow < 1 || npcol < 1 || (int64_t)nprow * npcol > size) return -3;
    hpl_grid *g = hyla_calloc(1, sizeof *g);
    if (!g) return HYLA_ERR_NO_MEMORY;
    g->nprow = nprow;
    g->npcol = npcol;
    g->pmap = pmap;
    g->in_grid = rank < nprow * npcol;
    g->grid_rank = rank;
    if (pmap == 0) {
        g->myrow = rank / npcol;
        g->mycol = rank % npcol;
    } else {
        g->myrow = rank % nprow;
        g->mycol = rank / nprow;
    }
#ifdef HYLA_HAVE_MPI
    g->all = g->row = g->col = MPI_COMM_NULL;
    g->pivot_op = MPI_OP_NULL;
    if (mpi_active) {
        int rc = mpi_rc(MPI_Comm_split(MPI_COMM_WORLD, g->in_grid ? 0 : MPI_UNDEFINED, rank, &g->all));
        if (!rc && g->in_grid) {
            rc = mpi_rc(MPI_Comm_split(g->all, g->myrow, g->mycol, &g->row));
            if (!rc) rc = mpi_rc(MPI_Comm_split(g->all, g->mycol, g->myrow, &g->col));
            if (!rc) rc = mpi_rc(MPI_Op_create(pivot_combine, 1, &g->pivot_op));
        }
        if (rc) {
            hpl_grid_destroy(&g);
            return rc;
        }
    }
#endif
    *in_grid = g->in_grid;
    *gp = g;
    return 0;
}

void hpl_grid_destroy(hpl_grid **gp) {
    if (!gp || !*gp) return;
    if ((*gp)->xrow) (*gp)->xdev->ops->xcomm_destroy((*gp)->xrow);
#ifdef HYLA_HAVE_MPI
    hpl_grid *g = *gp;
    if (g->pivot_op != MPI_OP_NULL) MPI_Op_free(&g->pivot_op);
    if (g->row != MPI_COMM_NULL) MPI_Comm_free(&g->row);
    if (g->col != MPI_COMM_NULL) MPI_Comm_free(&g->col);
    if (g->all != MPI_COMM_NULL) MPI_Comm_free(&g->all);
#endif
    hyla_free(*gp);
    *gp = NULL;
}

void hpl_grid_coords(const hpl_grid *g, int *myrow, int *mycol, int *grid_rank) {
    *myrow = g->myrow;
    *mycol = g->mycol;
    *grid_rank = g->grid_rank;
}

int hpl_col_pivot(hpl_grid *g, double *rec, int w) {
#ifdef HYLA_HAVE_MPI
    if (g->col == MPI_COMM_NULL || g->nprow == 1) return 0;
    MPI_Datatype t;
    int rc = mpi_rc(MPI_Type_contiguous(2 * w + 3, MPI_DOUBLE, &t));
    if (rc) return rc;
    rc = mpi_rc(MPI_Type_commit(&t));
    if (!rc) rc = mpi_rc(MPI_Allreduce(MPI_IN_PLACE, rec, 1, t, g->pivot_op, g->col));
    MPI_Type_free(&t);
    return rc;
#else
    (void)g;
    (void)rec;
    (void)w;
    return 0;
#endif
}

int hpl_row_bcast(hpl_grid *g, double *buf, int64_t count, int root) {
#ifdef HYLA_HAVE_MPI
    if (g->row == MPI_COMM_NULL || g->npcol == 1) return 0;
    for (int64_t off = 0; off < count; off += CHUNK) {
        int c = (int)(count - off < CHUNK ? count - off : CHUNK);
        int rc = mpi_rc(MPI_Bcast(buf + off, c, MPI_DOUBLE, root, g->row));
        if (rc) return rc;
    }
#else
    (void)g;
    (void)buf;
    (void)count;
    (void)root;
#endif
    return 0;
}

/* The name of this rank's physical device, unique over the hosts of the
 * run: host name, then the backend's key (CUDA: the PCI bus id). */
enum { DEV_KEY = 192 };

#ifdef HYLA_HAVE_MPI
static int dev_key(hyla_dev *dev, char *key) {
    memset(key, 0, DEV_KEY);
    if (gethostname(key, 127) != 0) return HYLA_ERR_DEVICE;
    key[127] = '\0';
    size_t at = strlen(key);
    key[at++] = '/';
    return dev->ops->xcomm_key(dev, key + at, DEV_KEY - at);
}

/* Whether every rank of the row could name its device and the names differ. */
static int row_keys_unique(hpl_grid *g, const char *key, int ok, int *unique) {
    char *all = hyla_malloc((size_t)g->npcol * (DEV_KEY + 1));
    if (!all) return HYLA_ERR_NO_MEMORY;
    char mine[DEV_KEY + 1];
    memcpy(mine, key, DEV_KEY);
    mine[DEV_KEY] = (char)ok;
    int rc = mpi_rc(MPI_Allgather(mine, DEV_KEY + 1, MPI_CHAR, all, DEV_KEY + 1, MPI_CHAR, g->row));
    *unique = 1;
    for (int a = 0; !rc && a < g->npcol && *unique; a++) {
        const char *ka = all + (size_t)a * (DEV_KEY + 1);
        if (!ka[DEV_KEY]) *unique = 0;
        for (int b = 0; b < a && *unique; b++)
            if (memcmp(ka, all + (size_t)b * (DEV_KEY + 1), DEV_KEY) == 0) *unique = 0;
    }
    hyla_free(all);
    return rc;
}
#endif

int hpl_row_dev_init(hpl_grid *g, hyla_dev *dev, int mode, int *on) {
    *on = 0;
    if (mode == HYLA_HPL_BCAST_HOST || g->npcol == 1) return 0;
#ifdef HYLA_HAVE_MPI
    if (g->row == MPI_COMM_NULL) return 0;
    /* 1. can every rank of every row take part: a backend with device
     * collectives, and a device of its own within its row */
    char key[DEV_KEY];
    int krc = dev_key(dev, key);
    int unique = 0;
    int rc = row_keys_unique(g, key, krc == 0, &unique);
    int can = !rc && unique;
    int agree = rc ? rc : can;
    int mrc = hpl_grid_allmin_int(g, &agree);
    if (mrc) return mrc;
    if (agree < 0) return agree;
    if (!agree) return mode == HYLA_HPL_BCAST_DEVICE ? HYLA_ERR_UNSUPPORTED : 0;
    /* 2. the row's communicator, from an id made by the row's first rank */
    unsigned char id[HYLA_XCOMM_ID_BYTES] = {0};
    int irc = g->mycol == 0 ? dev->ops->xcomm_id(id) : 0;
    agree = irc;
    mrc = hpl_grid_allmin_int(g, &agree);
    if (mrc) return mrc;
    if (agree) return mode == HYLA_HPL_BCAST_DEVICE ? agree : 0;
    rc = mpi_rc(MPI_Bcast(id, HYLA_XCOMM_ID_BYTES, MPI_BYTE, 0, g->row));
    if (rc) return rc;
    rc = dev->ops->xcomm_create(dev, id, g->npcol, g->mycol, &g->xrow);
    g->xdev = dev;
    agree = rc;
    mrc = hpl_grid_allmin_int(g, &agree);
    if (mrc || agree) {
        if (g->xrow) dev->ops->xcomm_destroy(g->xrow);
        g->xrow = NULL;
        if (mrc) return mrc;
        return mode == HYLA_HPL_BCAST_DEVICE ? agree : 0;
    }
    *on = 1;
    return 0;
#else
    (void)dev;
    return mode == HYLA_HPL_BCAST_DEVICE ? HYLA_ERR_UNSUPPORTED : 0;
#endif
}

int hpl_row_bcast_dev(hpl_grid *g, hyla_queue *q, void *dbuf, size_t bytes, int root) {
    if (!g->xrow) return HYLA_ERR_INTERNAL;
    return g->xdev->ops->xcomm_bcast(q, g->xrow, dbuf, bytes, root);
}

int hpl_col_allgatherv(hpl_grid *g, const double *send, const int64_t *counts, double *recv) {
#ifdef HYLA_HAVE_MPI
    if (g->col != MPI_COMM_NULL && g->nprow > 1) {
        int *ic = hyla_malloc((size_t)g->nprow * 2 * sizeof *ic);
        if (!ic) return HYLA_ERR_NO_MEMORY;
        int64_t off = 0;
        for (int r = 0; r < g->nprow; r++) {
            ic[r] = (int)counts[r];
            ic[g->nprow + r] = (int)off;
            off += counts[r];
        }
        int rc = off > INT_MAX ? HYLA_ERR_UNSUPPORTED
                               : mpi_rc(MPI_Allgatherv(send, ic[g->myrow], MPI_DOUBLE, recv, ic,
                                                       ic + g->nprow, MPI_DOUBLE, g->col));
        hyla_free(ic);
        return rc;
    }
#endif
    if (send != recv) memcpy(recv, send, (size_t)counts[0] * sizeof *recv);
    (void)g;
    return 0;
}

#ifdef HYLA_HAVE_MPI
static int grid_allreduce(hpl_grid *g, double *v, int64_t count, MPI_Op op) {
    if (g->all == MPI_COMM_NULL) return 0;
    for (int64_t off = 0; off < count; off += CHUNK) {
        int c = (int)(count - off < CHUNK ? count - off : CHUNK);
        int rc = mpi_rc(MPI_Allreduce(MPI_IN_PLACE, v + off, c, MPI_DOUBLE, op, g->all));
        if (rc) return rc;
    }
    return 0;
}
#endif

/* In place over the whole grid: the sum (max = 0) or the maximum of v. */
static int grid_reduce(hpl_grid *g, double *v, int64_t count, int max) {
#ifdef HYLA_HAVE_MPI
    return grid_allreduce(g, v, count, max ? MPI_MAX : MPI_SUM);
#else
    (void)g, (void)v, (void)count, (void)max;
    return 0;
#endif
}

int hpl_grid_allsum(hpl_grid *g, double *v, int64_t count) { return grid_reduce(g, v, count, 0); }

int hpl_grid_allmax(hpl_grid *g, double *v, int64_t count) { return grid_reduce(g, v, count, 1); }

int hpl_grid_allmin_int(hpl_grid *g, int *v) {
#ifdef HYLA_HAVE_MPI
    if (g->all != MPI_COMM_NULL)
        return mpi_rc(MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_INT, MPI_MIN, g->all));
#else
    (void)g;
    (void)v;
#endif
    return 0;
}

int hpl_grid_bcast(hpl_grid *g, double *buf, int64_t count, int prow, int pcol) {
#ifdef HYLA_HAVE_MPI
    if (g->all == MPI_COMM_NULL) return 0;
    /* g->all keeps the world order, and the first nprow * npcol world ranks form the grid */
    int root = g->pmap == 0 ? prow * g->npcol + pcol : pcol * g->nprow + prow;
    int rc = 0;
    for (int64_t off = 0; !rc && off < count; off += CHUNK) {
        int c = (int)(count - off < CHUNK ? count - off : CHUNK);
        rc = mpi_rc(MPI_Bcast(buf + off, c, MPI_DOUBLE, root, g->all));
    }
    return rc;
#else
    (void)g;
    (void)buf;
    (void)count;
    (void)prow;
    (void)pcol;
    return 0;
#endif
}

int hpl_grid_barrier(hpl_grid *g) {
#ifdef HYLA_HAVE_MPI
    if (g->all != MPI_COMM_NULL) return mpi_rc(MPI_Barrier(g->all));
#else
    (void)g;
#endif
    return 0;
}
