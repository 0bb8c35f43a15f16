# The host backend's band width and update block for eigenvalues only (the
# tuning table's "host" row: eig kd / nb for values, d), on the machine's
# cores at 16 and 2 threads: dsyevd without vectors at n = 2000 and 4000 with
# kd / nb = 48 / 96 (the row before this suite), 32 / 64, 32 / 128 and
# 64 / 128; LAPACKE dsyevd on the same OpenBLAS in the same run on the first
# line of each thread count (hyla against hyla for the others).
for t in 16 2; do
  OMP_NUM_THREADS=$t hyla syevd -n 2000,4000 --jobz N --type d --devices cpu --vs vendor --repeat 3 --warmup 1 --timers --kd 48 --nb 96
  for kn in 32:64 32:128 64:128; do
    OMP_NUM_THREADS=$t hyla syevd -n 2000,4000 --jobz N --type d --devices cpu --repeat 3 --warmup 1 --timers --kd ${kn%:*} --nb ${kn#*:}
  done
done
