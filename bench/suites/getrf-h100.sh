# LU on one H100 against cuSOLVER Xgetrf on a device-resident copy, same run:
# the default, the leaf width (--ib) and panel width (--nb) around it, the
# fused panel kernel (--panel kernel) against cuSOLVER's getrf on the leaves.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla getrf -n 16384,32768 --type d --check --vs vendor --stats --repeat 2 --warmup 1
hyla getrf -n 16384 --type z --check --vs vendor --repeat 2 --warmup 1
hyla gesv -n 16384 --nrhs 1 --type d --check --vs vendor --repeat 2 --warmup 1
hyla getrf -n 16384 --type d --vs vendor --repeat 2 --warmup 1 --ib 32
hyla getrf -n 16384 --type d --vs vendor --repeat 2 --warmup 1 --ib 64
hyla getrf -n 16384 --type d --vs vendor --repeat 2 --warmup 1 --ib 256
for nb in 384 512 1024; do
  hyla getrf -n 16384 --type d --vs vendor --nb $nb --repeat 3 --warmup 1
done
hyla getrf -m 16384 -n 128 --type d --check --vs vendor --panel vendor --repeat 3
hyla getrf -m 16384 -n 128 --type d --check --vs vendor --panel kernel --repeat 3
hyla getrf -n 16384,32768 --type d --check --vs vendor --stats --panel kernel --repeat 2 --warmup 1
