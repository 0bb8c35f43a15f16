# The crossover with eigenvectors between the two-stage solver and the
# backend's one-stage solver (HYLA_OPT_EIG_ONE_STAGE) on one H100, around
# the tuning table's orders (before its first run: s, d, c 5120, z 4096;
# after it: s, c 5120, d 4096, z 3072): the two stages forced
# (--one-stage off) against cuSOLVER's Xsyevd in the same run, s, d, c, z,
# n = 3072 .. 6144; the table's crossover for a precision is the largest
# measured n where cuSOLVER was the faster (src/core/tuning.c). Values only
# are in syevd-onestage-h100.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 3072,4096,5120,6144 --type s,d,c,z --jobz V --vs vendor --timers --repeat 2 --warmup 1 --one-stage off
