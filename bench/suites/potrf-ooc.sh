# Cholesky out of core on one H100: a 34 GB matrix on a GPU capped at 20 GiB
# (checked), then n = 100000 (80 GB) in core and on a GPU capped at 40 GiB.
# The n = 100000 runs use the chol_probe (the CLI keeps two host copies of A,
# 160 GB, more than the host's 128 GB).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla potrf -n 65536 --type d --uplo L --devices cuda@20G --check --stats --repeat 1 --warmup 0
probe chol_probe L 100000 1024 1
HYLA_DEVICES=cuda@40G probe chol_probe L 100000 1024 1
