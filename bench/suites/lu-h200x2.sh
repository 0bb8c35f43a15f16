# LU on two H200 (NVLink) from host-resident matrices against cusolverMg on
# device-resident copies; one GPU against cuSOLVER; same run.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16} NCCL_NVLS_ENABLE=0
hyla getrf -n 32768 --type d --devices cuda:0 --vs vendor --stats --repeat 2 --warmup 1
hyla getrf -n 32768 --type d --devices cuda:0,1 --vs vendor --stats --repeat 2 --warmup 1
hyla getrf -n 65536 --type d --devices cuda:0,1 --vs vendor --stats --repeat 1 --warmup 1
hyla getrf -n 32768 --type z --devices cuda:0,1 --check --stats --repeat 1 --warmup 1
hyla gesv -n 32768 --nrhs 1 --type d --devices cuda:0,1 --check --stats --repeat 1 --warmup 1
