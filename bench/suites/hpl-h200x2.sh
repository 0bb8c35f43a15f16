# HPL on one and two H200 (NVLink), one MPI rank per GPU, NB 1024: the panel
# broadcast device to device (NCCL, the default) on the 1 x 2 grid.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16} NCCL_NVLS_ENABLE=0
mpi 1 hpl -n 100000 --nb 1024 --grid 1x1
mpi 1 hpl -n 120000 --nb 1024 --grid 1x1
mpi 2 hpl -n 100000 --nb 1024 --grid 1x2
mpi 2 hpl -n 170000 --nb 1024 --grid 1x2
