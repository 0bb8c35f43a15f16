# The two-stage eigensolver on one H100 against cuSOLVER Xsyevd / Xheevd on a
# device-resident copy, same run (stage times: --timers): d and z at n = 4096,
# 8192, 16384 with and without eigenvectors, s and c at 16384, the small
# sizes where the one-stage vendor solver still wins; the tridiagonal divide
# and conquer alone against LAPACKE dstedc on the host cores.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 4096,8192,16384 --type d,z --jobz V --check --vs vendor --timers --repeat 1 --warmup 1
hyla syevd -n 4096,8192,16384 --type d,z --jobz N --check --vs vendor --timers --repeat 1 --warmup 1
hyla syevd -n 16384 --type s,c --jobz V --check --vs vendor --timers --repeat 1 --warmup 1
hyla syevd -n 16384 --type s,c --jobz N --check --vs vendor --timers --repeat 1 --warmup 1
hyla syevd -n 2048,3000 --type d,z --jobz V --check --vs vendor --timers --repeat 2 --warmup 1
hyla stedc -n 8192 --type d --check --vs vendor --timers --repeat 2
hyla stedc -n 16384 --type d --timers --repeat 2
