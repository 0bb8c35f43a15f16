# The eigensolver on two H200s (NVLink): d with eigenvectors at 16384 against
# cusolverMgSyevd on the same two GPUs and our one-GPU path (the vendor and
# one-dev columns, same runs), at 32768 on one and on two GPUs (runs of their
# own), without eigenvectors at 32768 as chosen automatically (one GPU) and
# on both GPUs asked for, and n = 65536 with eigenvectors on both (checked by
# random probes of the residual and the orthogonality). Every stage's time
# in the timers.
hyla syevd -n 16384 --type d --jobz V --devices cuda:0,1 --vs vendor --timers --repeat 2
hyla syevd -n 32768 --type d --jobz V --devices cuda:0 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz V --devices cuda:0,1 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,1 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,1 --eig-devices all --timers --warmup 0 --repeat 1
hyla syevd -n 65536 --type d --jobz V --devices cuda:0,1 --timers --warmup 0 --repeat 1 --check
