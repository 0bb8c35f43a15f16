# Stage 1's panels below 2048 rows on one H100: the default against
# CholeskyQR2 for every panel of at least 2 kd rows (--panel-qr cholqr),
# eigenvalues only, d and z at the orders where the two-stage solver runs
# (6144-16384), three timed runs each (--timers: sy2sb is stage 1).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for q in auto cholqr; do
  hyla syevd -n 6144,8192,12288,16384 --type d,z --jobz N --timers --repeat 3 --warmup 1 --panel-qr $q
done
