# The eigensolver at n = 16384 on one H100, host-resident input (every
# transfer included) against hyla's _gpu routine on a device-resident copy
# and cuSOLVER Xsyevd / Xheevd on a device-resident copy, same run: the cost
# of the host-resident path (upload of the lower triangle, Z downloaded behind
# the last GEMM). Stage times: --timers.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 16384 --type d --jobz V --check --vs vendor --timers --repeat 2 --warmup 1
hyla syevd -n 16384 --type d --jobz N --check --vs vendor --timers --repeat 2 --warmup 1
hyla heevd -n 16384 --type z --jobz V --check --vs vendor --timers --repeat 1 --warmup 1
