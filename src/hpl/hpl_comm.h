/* The process grid of an HPL run and the collectives hpl_lu.c needs, over
 * MPI or, in a build without MPI, on one rank (every collective is then the
 * identity). Internal to hyla_hpl. */
#ifndef HYLA_HPL_COMM_H
#define HYLA_HPL_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"

typedef struct hpl_grid hpl_grid;

/* Forms the nprow x npcol grid from the first nprow * npcol ranks of
 * MPI_COMM_WORLD (row-major ranks for pmap 0, column-major for 1). Every
 * rank must call; ranks outside the grid get *in_grid = 0 and a grid that
 * only hpl_grid_destroy accepts. Returns 0, -3 (grid larger than the ranks),
 * HYLA_ERR_NO_MEMORY or HYLA_ERR_MPI. */
int hpl_grid_create(int nprow, int npcol, int pmap, hpl_grid **g, int *in_grid);
void hpl_grid_destroy(hpl_grid **g);
void hpl_grid_coords(const hpl_grid *g, int *myrow, int *mycol, int *grid_rank);

/* Pivot search of one column over the process column. rec points to one
 * record of 2 w + 3 doubles: [value, global row or -1 (none here), that
 * row (w values), 1 if this rank holds the diagonal row else 0, the
 * diagonal row (w values)]. On return, every rank of the process column
 * holds the entry of largest magnitude (the lowest global row on ties)
 * with its row, and the diagonal row. */
int hpl_col_pivot(hpl_grid *g, double *rec, int w);
/* Broadcast of count doubles along the process row from process column root. */
int hpl_row_bcast(hpl_grid *g, double *buf, int64_t count, int root);
/* Device-to-device broadcasts along the process rows (the backend's xcomm
 * ops: NCCL on CUDA). Collective over the grid. mode is a
 * HYLA_HPL_BCAST_* value: HOST never sets them up; AUTO sets them up when
 * every rank's device has a backend with them and the ranks of each row own
 * different physical devices, else leaves *on 0; DEVICE as AUTO but
 * returns HYLA_ERR_UNSUPPORTED (on every rank) when they cannot be had.
 * *on: 1 when hpl_row_bcast_dev may be called. Returns 0 or a HYLA_ERR_*
 * code, the same on every rank. hpl_grid_destroy frees the communicator. */
int hpl_row_dev_init(hpl_grid *g, hyla_dev *dev, int mode, int *on);
/* Enqueues on q (a queue of the device given to hpl_row_dev_init) the
 * broadcast of bytes at dbuf, device memory, from process column root to
 * dbuf of the other ranks of the row. Every rank of the row must enqueue
 * the same broadcasts in the same order. */
int hpl_row_bcast_dev(hpl_grid *g, hyla_queue *q, void *dbuf, size_t bytes, int root);
/* Allgather over the process column: rank r of the column sends counts[r]
 * doubles from send; recv receives them all, rank after rank. */
int hpl_col_allgatherv(hpl_grid *g, const double *send, const int64_t *counts, double *recv);
/* Sum or max of v over every rank of the grid, in place. */
int hpl_grid_allsum(hpl_grid *g, double *v, int64_t count);
int hpl_grid_allmax(hpl_grid *g, double *v, int64_t count);
/* Minimum of an int over the grid (agreement on error codes: codes are < 0). */
int hpl_grid_allmin_int(hpl_grid *g, int *v);
/* Broadcast of count doubles over the grid from grid coordinates (prow, pcol). */
int hpl_grid_bcast(hpl_grid *g, double *buf, int64_t count, int prow, int pcol);
int hpl_grid_barrier(hpl_grid *g);

#endif
