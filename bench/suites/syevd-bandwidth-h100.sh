# Band width (--kd) and stage-1 block (--nb) of the eigensolver with
# eigenvectors at n = 16384, one H100 (stage times: --timers).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for kd_nb in 64:128 64:256 96:192 128:256 128:128; do
  hyla heevd -n 16384 --type z --jobz V --timers --repeat 1 --warmup 1 --kd "${kd_nb%:*}" --nb "${kd_nb#*:}"
done
for kd_nb in 64:128 96:192 128:256; do
  hyla syevd -n 16384 --type d --jobz V --timers --repeat 1 --warmup 1 --kd "${kd_nb%:*}" --nb "${kd_nb#*:}"
done
