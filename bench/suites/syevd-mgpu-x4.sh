# The eigensolver on four H200s (NVLink all-to-all): d with and without
# eigenvectors at 16384 and 32768 on 1, 2 and 4 GPUs, z with eigenvectors at
# 32768 on 1 and 4, n = 65536 and 90000 with eigenvectors on 4 (checked by
# random probes of the residual and the orthogonality), every stage's time
# in the timers. Against cusolverMgSyevd on the same GPUs and our one-GPU
# path in the same runs at 16384 (the vendor and one-dev columns); above it
# the one-GPU rows are runs of their own (cusolverMg takes tens of seconds
# per call there). The weak-scaling pair is 16384 on one GPU (the one-dev
# column of the first row) against 32768 on four. Stage 1's CholeskyQR2
# panels on four GPUs (--panel-qr cholqr, not the default there yet) beside
# the Householder ones, with and without vectors (without: every device
# forced, --eig-devices all, where the default takes one GPU).
hyla syevd -n 16384 --type d --jobz V --devices cuda:0,1,2,3 --vs vendor --timers --repeat 2
hyla syevd -n 16384 --type d --jobz V --devices cuda:0,1 --vs vendor --timers --warmup 0 --repeat 1
hyla syevd -n 16384 --type d --jobz N --devices cuda:0,1,2,3 --vs vendor --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz V --devices cuda:0 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz V --devices cuda:0,1 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz V --devices cuda:0,1,2,3 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,1,2,3 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz V --devices cuda:0,1,2,3 --panel-qr cholqr --timers --warmup 0 --repeat 1 --check
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,1,2,3 --eig-devices all --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,1,2,3 --eig-devices all --panel-qr cholqr --timers --warmup 0 --repeat 1
hyla heevd -n 32768 --type z --jobz V --devices cuda:0 --timers --warmup 0 --repeat 1
hyla heevd -n 32768 --type z --jobz V --devices cuda:0,1,2,3 --timers --warmup 0 --repeat 1
hyla syevd -n 65536 --type d --jobz V --devices cuda:0,1,2,3 --timers --warmup 0 --repeat 1 --check
hyla syevd -n 90000 --type d --jobz V --devices cuda:0,1,2,3 --timers --warmup 0 --repeat 1 --check
