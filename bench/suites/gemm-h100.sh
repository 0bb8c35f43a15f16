# Streaming GEMM on host-resident matrices, one H100: against cuBLASXt on the
# same pageable matrices and cuBLAS on device-resident copies, same run.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla gemm -n 16384,32768 --type d --check --vs vendor --repeat 3 --stats
hyla gemm -n 32768 --beta 0 --vs vendor --repeat 3 --stats
# A, B and C take 90.6 GB, more than the GPU's 80 GB
hyla gemm -n 61440 --check --warmup 1 --repeat 1 --stats
