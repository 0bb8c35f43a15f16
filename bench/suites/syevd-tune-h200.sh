# The tuning table's "hopper" entries (src/core/tuning.c) were measured on
# one H100; this suite measures the same choices on one H200 (the same SMs,
# more and faster HBM): the chase's step per type (bench/probes/chase_probe.c:
# split at the late row 2, copied ahead 1, loaded after the wait 0; the
# chase alone, hyla against hyla), Q2 by the one-call kernel against the
# batched GEMMs for double (hyla against hyla), and the one-stage crossover
# (the two stages forced against cuSOLVER's Xsyevd in the same run, around
# the table's orders: values only s 4096, d, c, z 3072; with vectors s, c
# 5120, d 4096, z 3072).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
probe chase_probe d,z,s,c 16384 64 3 2
probe chase_probe d,z,s,c 16384 64 3 1
probe chase_probe d,z,s,c 16384 64 3 0
hyla syevd -n 16384 --type d --jobz V --timers --repeat 2 --warmup 1 --back2 kernel
hyla syevd -n 16384 --type d --jobz V --timers --repeat 2 --warmup 1 --back2 gemm
hyla syevd -n 32768 --type d --jobz V --timers --repeat 1 --warmup 0 --back2 gemm
hyla syevd -n 3072,4096,5120 --type s,d,c,z --jobz N --vs vendor --timers --repeat 2 --warmup 1 --one-stage off
hyla syevd -n 3072,4096,5120,6144 --type s,d,c,z --jobz V --vs vendor --timers --repeat 2 --warmup 1 --one-stage off
