# The host backend's crossover between its two-stage eigensolver and the
# backend's one-stage solver (LAPACKE ?syevd / ?heevd on the same OpenBLAS):
# the two stages forced (--one-stage off) against LAPACKE in the same run,
# on the GPU host's cores at 16, 4 and 2 threads, d and z, both jobz. The
# tuning table's "host" crossover comes from these rows (src/core/tuning.c).
for t in 16 4 2; do
  for j in N V; do
    OMP_NUM_THREADS=$t hyla syevd -n 1000,2000,4000 --jobz $j --type d --devices cpu --one-stage off --vs vendor --repeat 1 --warmup 1 --timers
    OMP_NUM_THREADS=$t hyla syevd -n 1000,2000 --jobz $j --type z --devices cpu --one-stage off --vs vendor --repeat 1 --warmup 1 --timers
  done
done
for j in N V; do
  OMP_NUM_THREADS=16 hyla syevd -n 4000 --jobz $j --type z --devices cpu --one-stage off --vs vendor --repeat 1 --warmup 1 --timers
done
