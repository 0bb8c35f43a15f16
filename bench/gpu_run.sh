#!/usr/bin/env bash
# One call on the GPU host: build with CUDA, run the whole test suite, then
# benchmark runs of the CLI (each against the vendor in the same run). Logs go
# to $OUT.
# Usage: bench/gpu_run.sh [tests|bench|all] [FILE | hyla args...]
#   FILE: one hyla command line per line (the words after `hyla`); '#' starts a
#   comment. Otherwise the remaining words are one hyla command line.
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
  ctest --test-dir build --output-on-failure -j 4 --timeout "${TEST_TIMEOUT:-240}" > "$OUT/ctest.log" 2>&1 || rc=1
  tail -25 "$OUT/ctest.log"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  shift || true
  if [ $# -eq 1 ] && [ -f "$1" ]; then
    while IFS= read -r line; do
      line=${line%%#*}
      [ -z "${line// }" ] && continue
      echo "\$ hyla $line" | tee -a "$OUT/bench.txt"
      # shellcheck disable=SC2086
      timeout "${BENCH_TIMEOUT:-150}" ./build/bin/hyla $line 2>&1 | tee -a "$OUT/bench.txt"
      [ "${PIPESTATUS[0]}" = 124 ] && echo "(timed out after ${BENCH_TIMEOUT:-150} s)" | tee -a "$OUT/bench.txt"
    done < "$1"
  elif [ $# -gt 0 ]; then
    echo "\$ hyla $*" | tee -a "$OUT/bench.txt"
    ./build/bin/hyla "$@" 2>&1 | tee -a "$OUT/bench.txt"
  fi
fi
exit $rc
