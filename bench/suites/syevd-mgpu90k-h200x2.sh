# The eigensolver with eigenvectors at n = 90000 on two H200s: A (65 GB) and
# Z do not fit one H200 together with the workspace, so this runs only on
# several devices; one run, checked (a random probe of the residual and of
# the orthogonality, O(n^2)), with the per-stage timers.
hyla syevd -n 90000 --type d --jobz V --devices cuda:0,1 --timers --warmup 0 --repeat 1 --check
