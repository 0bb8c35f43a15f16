# Stage 1's products by precision on one H100: X = A V (A Hermitian, k = 64)
# by cuBLAS ?SYMM / ?HEMM, one GEMM on the full matrix and blocked GEMMs on
# the lower triangle (block columns of 1024 / 2048 / 4096), and the trailing
# ?SYR2K / ?HER2K (bench/micro/symm_gemm.c); stage 1 inside the solver
# (--timers: sy2sb) for s and d, eigenvalues only at 16384, both trailing
# update forms (--s1-update); then A V by the vendor's SYMM/HEMM against
# GEMMs with diagonal blocks of 512, the tuning table's (2048 for s and d,
# 1024 for c) and 1024 / 2048 (--s1-symm), s, d and c, eigenvalues only at
# 8192 and 16384.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for t in s d c z; do probe symm_gemm $t; done
for u in her2k gemm; do
  hyla syevd -n 16384 --type s,d --jobz N --timers --repeat 2 --warmup 1 --s1-update $u
done
for v in vendor gemm:512 auto gemm:1024 gemm:2048; do
  hyla syevd -n 8192,16384 --type s,d,c --jobz N --timers --repeat 2 --warmup 1 --s1-symm $v
done
