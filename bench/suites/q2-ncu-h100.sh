# Nsight Compute on the one-call Q2 kernel (src/backend/cuda/k_q2.cu), one
# H100: dsyevd with vectors at n = 8192 with Q2 after stedc by the kernel in
# groups of 32 sweeps (the default for double on Hopper); the first launch
# of q2_kernel: throughput, warp states, scheduler and instruction counts
# (the figures the kernel's head comment quotes). Needs ncu on the PATH.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
run ncu --clock-control none -k regex:q2_kernel --launch-count 1 --section SpeedOfLight \
  --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
  --section InstructionStats --section LaunchStats --section Occupancy --print-details all \
  "$build/bin/hyla" syevd -n 8192 --type d --jobz V --repeat 1 --warmup 0 --back-order direct \
  --back2 kernel --back2-nb 32
