# The host backend's divide and conquer (hyla stedc: the leaves and merges on
# the OpenMP team, the merge GEMMs through the host BLAS) against LAPACKE
# dstedc on the same OpenBLAS, same run: with the environment as it is, with
# libgomp's workers sleeping between parallel regions instead of spinning
# (OMP_WAIT_POLICY=passive), and with OpenBLAS on one thread. Where the
# first is the slowest, the team's spinning workers and OpenBLAS's threads
# take the cores from each other (bench/results/syevd.md).
hyla stedc -n 1000,2000,4000 --type d --devices cpu --vs vendor --repeat 3 --warmup 1
OMP_WAIT_POLICY=passive hyla stedc -n 1000,2000,4000 --type d --devices cpu --vs vendor --repeat 3 --warmup 1
OPENBLAS_NUM_THREADS=1 hyla stedc -n 1000,2000,4000 --type d --devices cpu --vs vendor --repeat 3 --warmup 1
