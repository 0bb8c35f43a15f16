# Stage 1's A V for double below 16384 on one H100: cuBLAS DSYMM against
# GEMMs with diagonal blocks of the tuning table's 2048 (--s1-symm vendor /
# auto, alternated twice), dsyevd at 4096 and 8192, with and without
# eigenvectors (--timers: sy2sb is stage 1).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for r in 1 2; do
  for v in vendor auto; do
    hyla syevd -n 4096,8192 --type d --jobz N --timers --repeat 3 --warmup 1 --s1-symm $v
    hyla syevd -n 4096,8192 --type d --jobz V --timers --repeat 3 --warmup 1 --s1-symm $v
  done
done
