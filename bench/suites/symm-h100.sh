# Stage 1's products by precision on one H100: X = A V (A Hermitian, k = 64)
# by cuBLAS ?SYMM / ?HEMM, one GEMM on the full matrix and blocked GEMMs on
# the lower triangle (block columns of 1024 / 2048 / 4096), and the trailing
# ?SYR2K / ?HER2K (bench/micro/symm_gemm.c); then stage 1 inside the solver
# (--timers: sy2sb) for s and d, eigenvalues only at 16384, both trailing
# update forms (--s1-update).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for t in s d c z; do probe symm_gemm $t; done
for u in her2k gemm; do
  hyla syevd -n 16384 --type s,d --jobz N --timers --repeat 2 --warmup 1 --s1-update $u
done
