# Cholesky on one H100: hyla host-resident and device-resident against
# cuSOLVER Xpotrf on a device-resident copy, same run.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla potrf -n 8192,16384,32768 --type d --uplo L,U --vs vendor --check --repeat 3 --warmup 1 --stats
hyla potrf -n 16384 --type d --uplo L --nb 512 --vs vendor --repeat 3 --warmup 1
hyla potrf -n 16384 --type d --uplo L --nb 768 --vs vendor --repeat 3 --warmup 1
hyla potrf -n 16384 --type s,c,z --uplo L --vs vendor --check --repeat 2 --warmup 1
hyla posv -n 16384 --nrhs 1,1024 --type d --uplo L --vs vendor --check --repeat 2 --warmup 1
hyla potrs -n 16384 --nrhs 1024 --type d --uplo L --vs vendor --check --repeat 2 --warmup 1
