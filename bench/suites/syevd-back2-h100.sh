# Q2's back transformation on one H100, dsyevd with vectors at n = 8192 and
# 16384 (--timers: back2 is Q2's stage): the default for double on Hopper,
# the one-call kernel in groups of 32 sweeps (m16n8k8 FP64 tensor-core
# products, src/backend/cuda/k_q2.cu; tuning table), against the batched
# GEMMs in block reflectors of kd = 64 sweeps (--back2 gemm), in both orders
# of the back transformations: direct (Q2 alone on the GPU, after stedc) and
# reordered (Q = Q1 Q2 built beside stedc's device merges, the default).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for o in direct reordered; do
  hyla syevd -n 8192,16384 --type d --jobz V --check --timers --repeat 2 --warmup 1 --back-order $o
  hyla syevd -n 8192,16384 --type d --jobz V --check --timers --repeat 2 --warmup 1 --back-order $o --back2 gemm
done
