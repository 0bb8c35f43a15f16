# The eigensolver on two H200s (NVLink): against our one-H200 time (column
# one-dev) and cusolverMg's cusolverMgSyevd on the same two GPUs (vendor), in the
# same runs; the stage-1 variants at the sizes (sy2sb in the timers
# line). n = 32768 runs once each (cusolverMg takes tens of seconds there).
# n = 90000 with eigenvectors is bench/suites/syevd-mgpu90k-h200x2.sh.
hyla syevd -n 16384 --type d --jobz V --devices cuda:0,1 --vs vendor --timers
hyla syevd -n 32768 --type d --jobz V --devices cuda:0,1 --vs vendor --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,1 --vs vendor --timers --warmup 0 --repeat 1
hyla heevd -n 15000 --type z --jobz N --devices cuda:0,1 --sbr half --allreduce host --timers --warmup 0 --repeat 1
hyla heevd -n 15000 --type z --jobz N --devices cuda:0,1 --sbr half --allreduce device --timers --warmup 0 --repeat 1
hyla heevd -n 15000 --type z --jobz N --devices cuda:0,1 --sbr full --timers --warmup 0 --repeat 1
hyla heevd -n 15000 --type z --jobz N --devices cuda:0 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,1 --sbr half --allreduce host --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,1 --sbr half --allreduce device --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,1 --sbr full --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0 --timers --warmup 0 --repeat 1
