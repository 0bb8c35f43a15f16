# Divide and conquer with eigenvectors on one H200, and the part of the
# spectrum that rests on it. The solver alone with Z left on the device as
# the eigensolver calls it (bench/probes/stedc_probe.c: all of Z, then the
# columns of the lowest tenth alone, which the top merge forms by
# themselves; no vendor routine: cuSOLVER has no tridiagonal divide and
# conquer of its own), the CLI's stedc on host memory (Z comes down), and
# the eigensolver's tenth of the spectrum and whole solve against cuSOLVER
# in the same run.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
probe stedc_probe 8192,16384,32768 100 2
hyla stedc -n 16384,32768 --type d --devices cuda:0 --timers --repeat 2 --warmup 1
hyla syevdx -n 16384 --type d --range I:1:1638 --jobz V --vs vendor --devices cuda:0 --repeat 2 --warmup 1 --timers
hyla syevdx -n 32768 --type d --range I:1:3276 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 0 --timers
hyla syevd -n 16384 --type d --jobz V --vs vendor --devices cuda:0 --repeat 2 --warmup 1 --timers
