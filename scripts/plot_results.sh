#!/usr/bin/env bash
# Draws the pictures of bench/results/ from their raw logs (scripts/plot_bench.py,
# the library's defaults only: the tuning runs stay in the tables).
#
# Usage: scripts/plot_results.sh
# Environment: PYTHON, the python3 with matplotlib (default: python3 on PATH).
set -euo pipefail
cd "$(dirname "$0")/../bench/results"
plot() { "${PYTHON:-python3}" ../../scripts/plot_bench.py --defaults "$@"; }

plot -o potrf.png --title "Cholesky, hyla against cuSOLVER / cusolverMg (raw/potrf-h100.txt, raw/potrf-h200x2.txt)" \
  raw/potrf-h100.txt raw/potrf-h200x2.txt
plot --routines getrf,gesv -o getrf.png \
  --title "LU, hyla against cuSOLVER / cusolverMg (raw/h100-syevd-getrf-rbt-hpl.txt, raw/getrf-h200x2.txt)" \
  raw/h100-syevd-getrf-rbt-hpl.txt raw/getrf-h200x2.txt
plot --routines syevd,heevd -o syevd.png \
  --title "Eigensolver, hyla against cuSOLVER Xsyevd (raw/syevd-h100.log, raw/syevd-h200.txt)" \
  raw/syevd-h100.log raw/syevd-h200.txt
plot -o gemm.png --title "GEMM on host matrices, hyla against cuBLASXt and cuBLAS (raw/gemm-h100.txt, raw/gemm-h200x2.txt)" \
  raw/gemm-h100.txt raw/gemm-h200x2.txt
