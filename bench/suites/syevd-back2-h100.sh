# Q2's back transformation on one H100, dsyevd with vectors at n = 8192 and
# 16384 (--timers: back2 is Q2's stage): the batched GEMMs (the default,
# block reflectors of kd = 64 sweeps) against the one-call kernel
# (--back2 kernel, which takes at most 32 sweeps a group; for double its
# products run on the FP64 tensor cores, src/backend/cuda/k_q2.cu), in both
# orders of the back transformations: direct (Q2 alone on the GPU, after
# stedc) and reordered (Q = Q1 Q2 built beside stedc's device merges).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for o in direct reordered; do
  hyla syevd -n 8192,16384 --type d --jobz V --check --timers --repeat 1 --warmup 1 --back-order $o
  hyla syevd -n 8192,16384 --type d --jobz V --check --timers --repeat 1 --warmup 1 --back-order $o --back2 kernel --back2-nb 32
  hyla syevd -n 8192,16384 --type d --jobz V --check --timers --repeat 1 --warmup 1 --back-order $o --back2-nb 32
done
