# The generalized drivers on one H200, step by step: the probe times B's
# Cholesky, the reduction C = L^-1 A L^-H in both forms of its trailing
# updates (one HER2K per block column; block-column GEMMs, the default
# from order 8192 on) with the seconds of its kinds of step, and the
# back-solve's TRSM, all on device-resident matrices
# (bench/probes/gv_probe.c; its lines are in the raw log); then the
# drivers on host matrices with their step timers against cuSOLVER in the
# same run.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
probe gv_probe 16384 d 2
probe gv_probe 16384 z 1
hyla sygvd -n 16384 --type d --jobz V --vs vendor --devices cuda:0 --repeat 2 --warmup 1 --timers
hyla syevd -n 16384 --type d --jobz V --vs vendor --devices cuda:0 --repeat 2 --warmup 1 --timers
hyla sygvd -n 16384 --type d --range I:1:1638 --jobz V --vs vendor --devices cuda:0 --repeat 2 --warmup 1 --timers
