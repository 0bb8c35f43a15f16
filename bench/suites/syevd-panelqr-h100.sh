# Stage 1's panels on one H100: Householder QR (cuSOLVER Xgeqrf) against
# CholeskyQR2 with the Householder vectors reconstructed, forced for every
# panel of at least 2 kd rows (--panel-qr; the default takes CholeskyQR2
# from 2048 rows), d and z without eigenvectors at 2048-16384 and dsyevd
# with vectors at 16384. --timers: sy2sb is stage 1, the last figure of its
# line the panels CholeskyQR2 took.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for q in householder cholqr; do
  hyla syevd -n 2048,4096,8192,16384 --type d,z --jobz N --timers --repeat 1 --warmup 1 --check --panel-qr $q
  hyla syevd -n 16384 --type d --jobz V --timers --repeat 1 --warmup 1 --check --panel-qr $q
done
