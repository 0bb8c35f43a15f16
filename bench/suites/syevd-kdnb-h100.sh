# Band width (kd) and update block (nb) of the eigensolver on one H100 with
# stage 1's CholeskyQR2 panels: d and z at n = 16384, eigenvalues only and
# with vectors (--timers: sy2sb is stage 1, sb2st the chase, back2 Q2's
# back transformation). The tuning table's "hopper" row is kd 64, nb 128.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for kn in 32,64 32,128 32,256 32,512 64,128 64,256 64,512; do
  hyla syevd -n 16384 --type d --jobz N --timers --repeat 2 --warmup 1 --kd ${kn%,*} --nb ${kn#*,}
done
for kn in 32,256 64,128 64,256; do
  hyla syevd -n 16384 --type d --jobz V --timers --repeat 1 --warmup 1 --kd ${kn%,*} --nb ${kn#*,}
  hyla syevd -n 16384 --type z --jobz N --timers --repeat 1 --warmup 1 --kd ${kn%,*} --nb ${kn#*,}
  hyla syevd -n 16384 --type z --jobz V --timers --repeat 1 --warmup 1 --kd ${kn%,*} --nb ${kn#*,}
done
