# Stage 1's panels below 2048 rows on one H100: the default (Householder QR
# under 2048 rows, CholeskyQR2 from there) against CholeskyQR2 for every
# panel of at least 2 kd rows (--panel-qr cholqr), eigenvalues only, d and
# z at 2048-8192, five timed runs each (--timers: sy2sb is stage 1).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for q in auto cholqr; do
  hyla syevd -n 2048,3000,4096,8192 --type d,z --jobz N --timers --repeat 5 --warmup 1 --panel-qr $q
done
