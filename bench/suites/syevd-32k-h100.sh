# The two-stage eigensolver on one H100 at n = 32768, double, against
# cuSOLVER Xsyevd on a device-resident copy, same run (the H200's suite,
# syevd-h200, has d and z; on 80 GB the double ones): one run each without a
# warm-up (the first call's setup is well under 1 % of these times).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 32768 --type d --jobz V --devices cuda:0 --check --vs vendor --timers --repeat 1 --warmup 0
hyla syevd -n 32768 --type d --jobz N --devices cuda:0 --check --vs vendor --timers --repeat 1 --warmup 0
