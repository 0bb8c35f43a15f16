# The eigensolver's variants on one H100 at n = 16384, host-resident calls
# (--timers), to check the tuning table's choices by measurement: Q2 by the
# batched GEMMs (default) or the one-call kernel (which takes block
# reflectors of at most 32 sweeps), the stage-1 QR panels on the host cores
# (default) or the fused GPU panel kernel, the stage-1 update block, and the
# band chased on the device (default) or the host cores.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for t in d z; do
  hyla syevd -n 16384 --type $t --jobz V --timers --repeat 1 --warmup 1
  hyla syevd -n 16384 --type $t --jobz V --timers --repeat 1 --warmup 1 --back2 kernel --back2-nb 32
  hyla syevd -n 16384 --type $t --jobz V --timers --repeat 1 --warmup 1 --back2-nb 32
  hyla syevd -n 16384 --type $t --jobz N --timers --repeat 1 --warmup 1
  hyla syevd -n 16384 --type $t --jobz N --timers --repeat 1 --warmup 1 --panel kernel
  hyla syevd -n 16384 --type $t --jobz N --timers --repeat 1 --warmup 1 --nb 256
  hyla syevd -n 16384 --type $t --jobz N --timers --repeat 1 --warmup 1 --chase host
done
