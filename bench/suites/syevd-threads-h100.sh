# The tridiagonal stage's stalls at small n on the GPU host's 16 cores
# (bench/results/syevd.md, "Small sizes"): dsyevd with vectors at 512, 1024,
# 1536 and 2048 with the defaults, with OpenBLAS on one thread, with
# OpenMP's threads waiting passively, and with 8 threads for both.
# --timers gives the stages (tridiag: stedc).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 512,1024,1536,2048 --type d --jobz V --timers --repeat 3 --warmup 1
for e in OPENBLAS_NUM_THREADS=1 OMP_WAIT_POLICY=passive OMP_NUM_THREADS=8; do
  (export "$e"; hyla syevd -n 512,1024,1536,2048 --type d --jobz V --timers --repeat 3 --warmup 1)
done
