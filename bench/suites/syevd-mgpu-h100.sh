# The eigensolver on several devices, on one H100 listed twice (cuda:0,0): two
# logical devices with streams of their own on one GPU. Measures the overhead of
# the multi-device path against the one-device path on the same GPU (column
# one-dev) and cuSOLVER (vendor), both in the same run, and the stage-1
# variants (their sy2sb time in the timers line).
hyla syevd -n 8192,16384 --type d --jobz V --devices cuda:0,0 --vs vendor --timers
hyla syevd -n 16384 --type d --jobz N --devices cuda:0,0 --vs vendor --timers
hyla syevd -n 16384 --type d --jobz V --devices cuda:0,0 --back-order direct --vs vendor --timers --repeat 1
hyla heevd -n 15000 --type z --jobz N --devices cuda:0,0 --sbr half --allreduce host --timers --warmup 0 --repeat 1
hyla heevd -n 15000 --type z --jobz N --devices cuda:0,0 --sbr half --allreduce device --timers --warmup 0 --repeat 1
hyla heevd -n 15000 --type z --jobz N --devices cuda:0,0 --sbr full --timers --warmup 0 --repeat 1
hyla heevd -n 15000 --type z --jobz N --devices cuda:0 --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,0 --sbr half --allreduce host --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,0 --sbr half --allreduce device --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0,0 --sbr full --timers --warmup 0 --repeat 1
hyla syevd -n 32768 --type d --jobz N --devices cuda:0 --timers --warmup 0 --repeat 1
