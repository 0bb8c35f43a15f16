# The Z = Q E exchange of the multi-device eigensolver's reordered order,
# outside hyla (bench/probes/zqe_probe.c): on four GPUs at once, each
# device's time for the GEMMs alone, the peer copies alone, both as hyla
# runs them, and both with a cudaMalloc and a cudaFree on each device's
# thread while the others run, at n = 32768 and 65536, a host thread per
# device (hyla's way) and one thread for all; then hyla's eigensolver on
# the four with the reordered and the direct order at n = 32768 and the
# reordered at 65536 (checked), their timelines in the log.
export NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
probe zqe_probe 32768 2048 1
probe zqe_probe 32768 2048 0
probe zqe_probe 65536 2048 1
hyla syevd -n 32768 --type d --jobz V --devices cuda:0,1,2,3 --timers --warmup 0 --repeat 1 --back-order reordered --check
hyla syevd -n 32768 --type d --jobz V --devices cuda:0,1,2,3 --timers --warmup 0 --repeat 1 --back-order direct
hyla syevd -n 65536 --type d --jobz V --devices cuda:0,1,2,3 --timers --warmup 0 --repeat 1 --check
