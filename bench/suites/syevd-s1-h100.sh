# Stage 1's trailing update on one H100: one cuBLAS HER2K/SYR2K against
# per block column a HER2K on the diagonal block and one GEMM below it
# (--s1-update), d and z, eigenvalues only at 8192 and 16384 and dsyevd
# with vectors at 16384 (--timers: sy2sb is stage 1); then the GPU
# bisection for eigenvalues only (sterf --tri bisect, row "stebz") against
# LAPACKE dsterf on the 16 host cores, same run.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for u in her2k gemm; do
  hyla syevd -n 8192,16384 --type d,z --jobz N --timers --repeat 2 --warmup 1 --s1-update $u
  hyla syevd -n 16384 --type d --jobz V --timers --repeat 1 --warmup 1 --s1-update $u
done
hyla sterf -n 4096,8192,16384,32768 --type d --tri bisect --vs vendor --repeat 3 --warmup 1
