# The short regression suite of the one-GPU kind (H200): each family once
# against the vendor in the same run (cuBLAS, cuSOLVER), about two minutes.
# Run it against the committed table whenever code that runs on a GPU
# changed:
#   scripts/bench.sh -c -m ratio regress-h200
# (rows judged by the vendor / hyla ratio; more than 10 % worse fails; the
# first run writes the table).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla gemm -n 16384 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0
hyla gemm -n 32768 --type d --vs vendor --repeat 1 --warmup 1 --devices cuda:0
hyla potrf -n 32768 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0
hyla getrf -n 32768 --type d --vs vendor --repeat 2 --warmup 1 --devices cuda:0
hyla getrf -n 16384 --type z --vs vendor --repeat 1 --warmup 1 --devices cuda:0
hyla syevd -n 4096 --type d --jobz V --vs vendor --repeat 3 --warmup 1 --devices cuda:0
hyla syevd -n 16384 --type d --jobz V --vs vendor --repeat 1 --warmup 1 --devices cuda:0
hyla syevd -n 16384 --type d --jobz N --vs vendor --repeat 1 --warmup 1 --devices cuda:0
hyla heevd -n 8192 --type z --jobz V --vs vendor --repeat 1 --warmup 1 --devices cuda:0
hyla syevdx -n 16384 --type d --range I:1:1638 --jobz V --vs vendor --repeat 1 --warmup 1 --devices cuda:0
