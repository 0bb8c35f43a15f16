# The eigensolver at n = 16384 on one H100, host-resident input (every
# transfer included) against hyla's _gpu routine on a device-resident copy
# and cuSOLVER Xsyevd / Xheevd on a device-resident copy, same run: the cost
# of the host-resident path (upload of the triangle read and its NaN/Inf
# scan, Z downloaded behind the last GEMM), d and z with and without
# vectors, and d without vectors from the upper triangle (uplo U: the upper
# triangle goes up and is rebuilt as the lower one on the device). Stage
# times: --timers.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 16384 --type d --jobz V --check --vs vendor --timers --repeat 2 --warmup 1
hyla syevd -n 16384 --type d --jobz N --check --vs vendor --timers --repeat 2 --warmup 1
hyla syevd -n 16384 --type d --jobz N --uplo U --check --vs vendor --timers --repeat 2 --warmup 1
hyla heevd -n 16384 --type z --jobz V --check --vs vendor --timers --repeat 1 --warmup 1
hyla heevd -n 16384 --type z --jobz N --check --vs vendor --timers --repeat 2 --warmup 1
