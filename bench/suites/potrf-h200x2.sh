# Cholesky on two H200 (NVLink): one GPU against cuSOLVER, two GPUs against
# cusolverMg, both vendors on device-resident copies, same run.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla potrf -n 16384,32768 --type d --uplo L --devices cuda:0 --vs vendor --repeat 3 --warmup 1 --stats
hyla potrf -n 16384,32768 --type d --uplo L,U --devices cuda:0,1 --vs vendor --check --repeat 3 --warmup 1 --stats
hyla posv -n 32768 --nrhs 1024 --type d --uplo L --devices cuda:0,1 --vs vendor --check --repeat 2 --warmup 1
