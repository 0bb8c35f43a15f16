# Streaming GEMM on two H200 (NVLink): one GPU, then both, against cuBLASXt
# on the same host matrices and cuBLAS on a device-resident copy, same run.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla gemm -n 32768 --check --vs vendor --repeat 2 --stats --devices cuda:0
hyla gemm -n 32768 --check --vs vendor --repeat 2 --stats --devices cuda:0,1
hyla gemm -n 16384 --repeat 3 --stats --devices cuda:0,1
