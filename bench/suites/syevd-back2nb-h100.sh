# Q2's block reflectors of more sweeps than the band is wide (--back2-nb up
# to 4 kd; the default is kd = 64): fewer waves, each a pass over the
# eigenvectors, for more of V's zeros in the GEMMs. dsyevd and zheevd with
# vectors at 8192 and 16384 on one H100, back2 in the timers line.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla syevd -n 8192,16384 --type d --jobz V --timers --repeat 1 --warmup 1 --back2-nb 64
hyla syevd -n 8192,16384 --type d --jobz V --timers --repeat 1 --warmup 1 --back2-nb 128
hyla syevd -n 8192,16384 --type d --jobz V --timers --repeat 1 --warmup 1 --back2-nb 256
hyla heevd -n 8192,16384 --type z --jobz V --timers --repeat 1 --warmup 1 --back2-nb 64
hyla heevd -n 8192,16384 --type z --jobz V --timers --repeat 1 --warmup 1 --back2-nb 128
hyla heevd -n 8192,16384 --type z --jobz V --timers --repeat 1 --warmup 1 --back2-nb 256
