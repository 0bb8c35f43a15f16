# The two-stage eigensolver on one H200 at n = 32768 against cuSOLVER Xsyevd
# on a device-resident copy, same run; on one GPU of the host (on a host with
# several, without --devices the CLI takes them all and cusolverMg).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 32768 --type d --jobz V --devices cuda:0 --check --vs vendor --timers --repeat 1 --warmup 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0 --check --vs vendor --timers --repeat 1 --warmup 1
# complex double at the same size: one run each without a warm-up (the
# first call's setup is well under 1 % of these times)
hyla syevd -n 32768 --type z --jobz V --devices cuda:0 --check --vs vendor --timers --repeat 1 --warmup 0
hyla syevd -n 32768 --type z --jobz N --devices cuda:0 --check --vs vendor --timers --repeat 1 --warmup 0
