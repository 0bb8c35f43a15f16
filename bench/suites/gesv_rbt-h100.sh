# The random butterfly solver on one H100 against cuSOLVER Xgetrf + Xgetrs on
# a device-resident copy, same run; then two matrices that defeat it.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
hyla gesv_rbt -n 16384 --type d --check --vs vendor --stats --repeat 3 --warmup 1
hyla gesv_rbt -n 16384 --matrix zero11 --type d --check --stats --repeat 1
hyla gesv_rbt -n 8192 --matrix perm --type d --check --stats --repeat 1
