# The host backend on the GPU host's cores, against LAPACKE on the same
# OpenBLAS, same run: the eigensolver at n = 4000 and sterf alone, by thread
# count (2: as on a small machine).
for t in 16 8 4 2; do
  OMP_NUM_THREADS=$t hyla syevd -n 4000 --jobz N --type d --devices cpu --vs vendor --repeat 3 --warmup 1 --timers
  OMP_NUM_THREADS=$t hyla sterf -n 4000 --type d --vs vendor --repeat 3
done
OMP_NUM_THREADS=16 hyla syevd -n 4000 --jobz V --type d --devices cpu --vs vendor --repeat 2 --timers
OMP_NUM_THREADS=2 hyla syevd -n 4000 --jobz V --type d --devices cpu --vs vendor --repeat 2 --timers
