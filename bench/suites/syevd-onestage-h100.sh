# The crossover between the two-stage solver and the backend's one-stage
# solver (HYLA_OPT_EIG_ONE_STAGE) on one H100: the two-stage method forced
# (--one-stage off) against cuSOLVER's Xsyevd in the same run, s, d, c, z,
# jobz N and V, n = 1024 .. 8192. The tuning table's crossover for a
# precision and jobz is the largest measured n where cuSOLVER was the
# faster (src/core/tuning.c).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for j in N V; do
  hyla syevd -n 1024,2048,3072,4096,5120,6144,8192 --type s,d,c,z --jobz $j --vs vendor --timers --repeat 2 --warmup 1 --one-stage off
done
# then the default (the crossover of the tuning table): at and below it
# hyla runs cuSOLVER's solver itself, so the ratio there is about 1
for j in N V; do
  hyla syevd -n 1024,2048,3072,4096,5120,6144,8192 --type s,d,c,z --jobz $j --vs vendor --timers --repeat 2 --warmup 1
done
