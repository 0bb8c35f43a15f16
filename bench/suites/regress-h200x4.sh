# The short regression suite of the four-H200 kind (NVLink all-to-all): each
# family on one GPU and on all four, the vendor timed in the same runs
# (cuBLAS / cuBLASXt, cuSOLVER on one GPU, cusolverMg on four), about four
# minutes (the eigensolver at n = 32768 with vectors on one GPU too, the
# baseline of the four-GPU row). Run it against the committed table whenever code that runs on a
# GPU changed:
#   scripts/bench.sh -c -m ratio regress-h200x4
# (rows with a vendor judged by the vendor / hyla ratio, the others by
# hyla's time; more than 10 % worse fails; the first run writes the table).
# The multi-device rows are the ones a transfer or allocation regression
# shows in first (an allocation on one device's thread while its peers
# work holds that device back: bench/results/zqe-h200x4.md).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16} NCCL_NVLS_ENABLE=0
hyla gemm -n 16384 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0
hyla gemm -n 32768 --type d --repeat 2 --warmup 1 --devices cuda:0,1,2,3
hyla potrf -n 32768 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0
hyla potrf -n 65536 --type d --vs vendor --repeat 1 --warmup 0 --devices cuda:0,1,2,3
hyla getrf -n 32768 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0
hyla getrf -n 32768 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0,1,2,3
hyla getrf -n 65536 --type d --vs vendor --repeat 1 --warmup 0 --devices cuda:0,1,2,3
hyla syevd -n 16384 --type d --jobz V --vs vendor --repeat 1 --warmup 1 --devices cuda:0
hyla syevd -n 16384 --type d --jobz V --vs vendor --repeat 1 --warmup 1 --devices cuda:0,1,2,3
hyla syevd -n 32768 --type d --jobz V --timers --repeat 1 --warmup 0 --devices cuda:0
hyla syevd -n 32768 --type d --jobz V --timers --repeat 1 --warmup 0 --devices cuda:0,1,2,3
hyla syevd -n 32768 --type d --jobz N --timers --repeat 1 --warmup 0 --devices cuda:0,1,2,3
