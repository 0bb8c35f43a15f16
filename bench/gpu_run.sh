#!/usr/bin/env bash
# One call on the GPU host: build with CUDA, run the whole test suite, then the
# GEMM benchmarks against cuBLASXt and device-resident cuBLAS. Logs go to $OUT.
# Usage: bench/gpu_run.sh [tests|bench|all] [extra hyla gemm args for bench]
set -uo pipefail
OUT=${OUT:-/tmp/hyla-out}
mkdir -p "$OUT"
what=${1:-all}
export PATH=/opt/torch/.venv/bin:$PATH NCCL_NVLS_ENABLE=0
{
  nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv
  git log -1 --format='commit %H %cd' 2>/dev/null || true
} > "$OUT/env.txt" 2>&1
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DHYLA_CUDA=ON > "$OUT/build.log" 2>&1 &&
  cmake --build build -j 16 >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
rc=0
if [ "$what" = tests ] || [ "$what" = all ]; then
  ctest --test-dir build --output-on-failure -j 4 > "$OUT/ctest.log" 2>&1 || rc=1
  tail -25 "$OUT/ctest.log"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  shift || true
  ./build/bin/hyla gemm "$@" 2>&1 | tee -a "$OUT/bench.txt"
fi
exit $rc
