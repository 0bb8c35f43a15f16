# HPL on one H100 (one rank), by block size; the default NB is 1280.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
for nb in 768 1024 1280 1536 2048; do
  hyla hpl -n 86000 --nb $nb
done
hyla hpl -n 95000 --nb 1280
