#!/usr/bin/env bash
# The Cholesky run on the one-H100 host: test suite, CLI table, then n = 100000
# with bench/probes/chol_probe.c (the CLI keeps two host copies of A, 160 GB,
# more than the host's 128 GB).
set -uo pipefail
OUT=${OUT:-/tmp/hyla-out}
bash bench/gpu_run.sh all bench/potrf_h100.txt; rc=$?
gcc -O2 -fopenmp bench/probes/chol_probe.c -Iinclude -I/usr/local/cuda/include build/libhyla.so \
  -L/usr/local/cuda/lib64 -lcusolver -lcudart -Wl,-rpath,$PWD/build -lm -o build/chol_probe || exit 1
{
  echo "\$ chol_probe L 100000 1024 1   (in core: the 74.5 GiB matrix fits the 79 GiB GPU)"
  ./build/chol_probe L 100000 1024 1
  echo "\$ HYLA_DEVICES=cuda@40G chol_probe L 100000 1024 1   (out of core)"
  HYLA_DEVICES=cuda@40G ./build/chol_probe L 100000 1024 1
} 2>&1 | tee -a "$OUT/bench.txt"
exit $rc
