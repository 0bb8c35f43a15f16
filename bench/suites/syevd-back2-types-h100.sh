# Q2's back transformation on one H100 by precision, with vectors at n = 8192
# and 16384, Q = Q1 Q2 built beside stedc (the default order; --timers:
# back2 is Q2's stage): the default (the one-call kernel for double, the
# batched GEMMs for s, c and z: tuning table), the batched GEMMs (--back2
# gemm) and the one-call kernel in groups of 32 sweeps (--back2 kernel
# --back2-nb 32; CUDA-core products for s, c and z, FP64 tensor cores for d).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 8192,16384 --type d,s,c,z --jobz V --check --timers --repeat 1 --warmup 1
hyla syevd -n 8192,16384 --type d,s,c,z --jobz V --check --timers --repeat 1 --warmup 1 --back2 gemm
hyla syevd -n 8192,16384 --type d,s,c,z --jobz V --check --timers --repeat 1 --warmup 1 --back2 kernel --back2-nb 32
