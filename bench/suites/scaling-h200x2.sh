# Strong and weak scaling on every GPU of the host (1, 2, 4, 8 as there are):
# host-resident GEMM, Cholesky and LU, and HPL with one MPI rank per GPU.
# Vendor in the same run: cuSOLVER (one GPU) and cusolverMg (several), both
# on device-resident copies; cuBLASXt for GEMM at n = 32768 (at 65536 it is
# too slow on pageable memory). Table and curves from the raw log:
#   python3 scripts/plot_scaling.py bench/results/raw/scaling-h200x2.log bench/results/scaling-h200x2
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16} NCCL_NVLS_ENABLE=0
ngpu=$(nvidia-smi -L | wc -l)
for g in 1 2 4 8; do
  [ "$g" -le "$ngpu" ] || break
  devs=$(seq -s, 0 $((g - 1)) | sed 's/^/cuda:/')
  # strong: the same problem on more GPUs
  hyla gemm -n 65536 --type d --devices "$devs" --repeat 1
  hyla gemm -n 32768 --type d --devices "$devs" --vs vendor --repeat 1
  hyla potrf -n 65536 --type d --devices "$devs" --vs vendor --repeat 1
  hyla getrf -n 65536 --type d --devices "$devs" --vs vendor --repeat 1
  hyla potrf -n 100000 --type d --devices "$devs" --vs vendor --repeat 1 --warmup 0
  hyla getrf -n 100000 --type d --devices "$devs" --vs vendor --repeat 1 --warmup 0
  mpi "$g" hpl -n 100000 --nb 1024 --grid "1x$g"
  # weak: n grows with sqrt(GPUs), so the work per GPU stays the same
  n=$(python3 -c "print(int(32768 * $g ** 0.5) // 1024 * 1024)")
  hyla potrf -n "$n" --type d --devices "$devs" --repeat 1
  N=$(python3 -c "print(int(80000 * $g ** 0.5) // 1024 * 1024)")
  mpi "$g" hpl -n "$N" --nb 1024 --grid "1x$g"
done
