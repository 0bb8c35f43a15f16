#!/usr/bin/env bash
# Host backend on the GPU host's cores: eigenvalues only at n = 4000 and sterf alone, by thread count.
set -u
for t in 16 8 4; do
  echo "## OMP_NUM_THREADS=$t"
  OMP_NUM_THREADS=$t ./build/bin/hyla syevd -n 4000 --jobz N --type d --devices cpu --vs vendor --repeat 3 --warmup 1 --timers 2>&1 | grep -v "^% \(hyla\|device\|OpenBLAS\|CUDA\|date\|command\|vendor\|check\|routine\)"
  OMP_NUM_THREADS=$t ./build/bin/hyla sterf -n 4000 --type d --vs vendor --repeat 3 2>&1 | tail -1
done
