# Smoke run of scripts/bench.sh on the host backend at small sizes (ctests
# run it): every family once against the vendor (LAPACKE, OpenBLAS), two
# sizes for some (lines in the picture, bench_plot). The ctest compares it
# with the committed table (scripts/bench.sh -c, by the vendor ratio, rows
# of 0.05 s or more): getrf at n = 1200 and potrf at 2000 on three devices
# are the rows long enough to judge on a 2-core machine.
hyla gemm -n 128,256 --type d --check --vs vendor --devices cpu:2 --repeat 1
hyla potrf -n 200,300 --type d,z --check --vs vendor --devices cpu:3 --nb 64 --repeat 1
hyla getrf -n 300 --type d --check --vs vendor --devices cpu:3 --repeat 1
hyla gesv_rbt -n 256 --type d --check --vs vendor --devices cpu:1 --repeat 1
hyla syevd -n 200 --type d --jobz N --check --vs vendor --devices cpu:1 --repeat 1
hyla syevd -n 200 --type z --jobz V --check --vs vendor --devices cpu:1 --repeat 1
hyla stedc -n 300 --type d --check --vs vendor --repeat 1
hyla hpl -n 600 --nb 64
hyla getrf -n 1200 --type d --check --vs vendor --devices cpu:3 --repeat 3
hyla potrf -n 2000 --type d --check --vs vendor --devices cpu:3 --repeat 3
