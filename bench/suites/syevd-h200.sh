# The two-stage eigensolver on one H200 at n = 32768 against cuSOLVER Xsyevd
# on a device-resident copy, same run.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 32768 --type d --jobz V --check --vs vendor --timers --repeat 1 --warmup 1
hyla syevd -n 32768 --type d --jobz N --check --vs vendor --timers --repeat 1 --warmup 1
# complex double at the same size: one run each without a warm-up (the
# first call's setup is well under 1 % of these times)
hyla syevd -n 32768 --type z --jobz V --check --vs vendor --timers --repeat 1 --warmup 0
hyla syevd -n 32768 --type z --jobz N --check --vs vendor --timers --repeat 1 --warmup 0
