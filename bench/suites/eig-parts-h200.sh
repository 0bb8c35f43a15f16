# The generalized problem and a part of the spectrum on one H200 against
# cuSOLVER in the same runs (issue targets: dsygvd V n = 16384 within 1.25x
# our dsyevd V and 2x cuSOLVER's ?sygvd; the lowest tenth of dsyevdx V at
# n = 16384 within 0.5x our full dsyevd and 3x cusolverDnXsyevdx): the full
# eigensolver as the yardstick (cuSOLVER Xsyevd beside it), sygvd / hegvd
# (cuSOLVER ?sygvd / ?hegvd), syevdx with a thousandth (MRRR on the host
# cores), a hundredth, a tenth and a half of the spectrum (divide and
# conquer on the device with the wanted columns kept: the tuning table's
# eig_subset_dc_pml between them), heevdx with a tenth, a tenth at n =
# 32768, and sygvd --range (cuSOLVER ?sygvdx with the same range); zheevd as
# hegvd's yardstick. --timers adds the stages to the raw log (the
# generalized drivers' own: Cholesky, reduction, back-solve). The residual checks of these routines run
# in the test suite; at this order LAPACKE's reference alone would take
# minutes of the suite's time.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 16384 --type d --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
hyla sygvd -n 16384 --type d --itype 1 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
hyla syevd -n 16384 --type z --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
hyla hegvd -n 16384 --type z --itype 1 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
hyla syevdx -n 16384 --type d --range I:1:16 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
hyla syevdx -n 16384 --type d --range I:1:164 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
hyla syevdx -n 16384 --type d --range I:1:1638 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
hyla syevdx -n 16384 --type d --range I:1:8192 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
hyla syevdx -n 16384 --type z --range I:1:1638 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
hyla syevdx -n 32768 --type d --range I:1:3276 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 0 --timers
hyla sygvd -n 16384 --type d --range I:1:1638 --jobz V --vs vendor --devices cuda:0 --repeat 1 --warmup 1 --timers
