# Stage 1's update block on one H100 with CholeskyQR2 panels: nb = kd = 64
# (every panel's trailing update issued at once, the next panel's QR beside
# it) against nb = 128 (the tuning table's "hopper" row: the second panel
# of a block waits for its QR with the device idle), each with the update
# as one HER2K or as block-column GEMMs (--s1-update); eigenvalues only,
# d at 8192 and 16384, z at 16384, and dsyevd with vectors at 16384
# (--timers: sy2sb is stage 1).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for nb in 64 128; do
  for u in her2k gemm; do
    hyla syevd -n 8192,16384 --type d --jobz N --timers --repeat 2 --warmup 1 --kd 64 --nb $nb --s1-update $u
    hyla syevd -n 16384 --type z --jobz N --timers --repeat 2 --warmup 1 --kd 64 --nb $nb --s1-update $u
  done
  hyla syevd -n 16384 --type d --jobz V --timers --repeat 1 --warmup 1 --kd 64 --nb $nb
done
