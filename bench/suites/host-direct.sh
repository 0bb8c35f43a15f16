# Cholesky and LU on one host device (no GPU) against LAPACKE on the same
# OpenBLAS, in the same run: the whole-matrix path (HYLA_OPT_HOST_LAPACK
# auto, the default: core/host_direct.c) and the tile engine it replaces
# there (--host-lapack off). The README's "Without a GPU" paragraph and
# hyla.h's HYLA_OPT_HOST_LAPACK cite this table.
hyla potrf -n 1000,2000,4000 --type d,z --uplo L,U --check --vs vendor --devices cpu --repeat 5
hyla getrf -n 1000,2000,4000 --type d,z --check --vs vendor --devices cpu --repeat 5
hyla posv -n 2000,4000 --type d --check --vs vendor --devices cpu --repeat 5
hyla gesv -n 2000,4000 --type d --check --vs vendor --devices cpu --repeat 5
hyla potrf -n 1000,2000,4000 --type d --check --vs vendor --devices cpu --repeat 3 --host-lapack off
hyla getrf -n 1000,2000,4000 --type d --check --vs vendor --devices cpu --repeat 3 --host-lapack off
