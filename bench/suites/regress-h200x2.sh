# The short regression suite of the two-H200 kind (NVLink): each family once
# on one GPU and on both, the vendor timed in the same runs (cuBLASXt,
# cuSOLVER on one GPU, cusolverMg on two), about three minutes. Run it
# against the committed table whenever code that runs on a GPU changed:
#   scripts/bench.sh -c -m ratio regress-h200x2
# (rows with a vendor judged by the vendor / hyla ratio, the others by
# hyla's time; more than 10 % worse fails). The two-GPU LU rows are the
# ones a multi-device transfer regression shows in first (host-resident
# dgetrf at n = 65536 fell from 48 to 20 TFLOP/s unnoticed before).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16} NCCL_NVLS_ENABLE=0
hyla gemm -n 16384 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0
hyla gemm -n 32768 --type d --repeat 2 --warmup 1 --devices cuda:0,1
hyla potrf -n 32768 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0
hyla potrf -n 32768 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0,1
hyla getrf -n 32768 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0
hyla getrf -n 32768 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0,1
hyla getrf -n 65536 --type d --vs vendor --repeat 1 --warmup 0 --devices cuda:0,1
hyla getrf -n 32768 --type z --repeat 1 --warmup 1 --devices cuda:0,1
hyla syevd -n 1024 --type d --jobz V --repeat 3 --warmup 1 --devices cuda:0
hyla syevd -n 16384 --type d --jobz V --vs vendor --repeat 1 --warmup 1 --devices cuda:0
hyla syevd -n 16384 --type d --jobz V --vs vendor --repeat 1 --warmup 1 --devices cuda:0,1
hyla syevd -n 32768 --type d --jobz V --timers --repeat 1 --warmup 0 --devices cuda:0,1
