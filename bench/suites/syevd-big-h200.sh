# The eigensolver with vectors at the large orders on one H200: n = 32768
# against cuSOLVER's Xsyevd in the same run, then the same with the
# eigenvectors formed directly, Z := Q1 (Q2 E) after divide and conquer
# (--back-order direct), against the default at this order, Q = Q1 Q2
# built beside divide and conquer and Z = Q E; and n = 65536 (about 34 GB
# per matrix; cuSOLVER is not run there: at its n^3 scaling from 32768 it
# would take about three minutes), with the stage timers. A run of the
# limit BENCH_TIMEOUT=300 or more.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 32768 --type d --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 0 --timers
hyla syevd -n 32768 --type d --jobz V --back-order direct --devices cuda:0 --repeat 1 --warmup 0 --timers
hyla syevd -n 65536 --type d --jobz V --devices cuda:0 --repeat 1 --warmup 0 --timers
