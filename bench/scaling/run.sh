#!/usr/bin/env bash
# Strong and weak scaling on 1, 2, 4 (and 8) GPUs of one host (issue 6), run
# on the GPU host: bench/scaling/run.sh [PARTS]   PARTS: any of gemm potrf
# getrf hpl weak (default: all), so that one host's run can be split over
# calls of at most 10 minutes. Each CLI run prints JSON records; every record
# gets "label" (strong/weak) and "gpus" and goes to $OUT/scaling.jsonl, the
# readable output to $OUT/scaling.txt. Then:
#   python3 bench/scaling/plot_scaling.py $OUT/scaling.jsonl bench/results/scaling-<host>
# Vendor in the same run: cusolverMg (potrf, getrf: --vs vendor on several
# GPUs, cuSOLVER on one), cuBLASXt for GEMM at n = 32768 (it is too slow at
# 65536 on pageable memory to fit the call).
set -uo pipefail
OUT=${OUT:-/tmp/hyla-out}
mkdir -p "$OUT"
export PATH=/opt/torch/.venv/bin:$PATH NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
parts=${*:-gemm potrf getrf hpl weak}
if [ ! -x build/bin/hyla ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DHYLA_CUDA=ON > "$OUT/build.log" 2>&1 &&
    cmake --build build -j "$(nproc)" >> "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
ngpu=$(nvidia-smi -L | wc -l)
counts=""
for g in 1 2 4 8; do [ "$g" -le "$ngpu" ] && counts="$counts $g"; done
devs() { seq -s, 0 $(($1 - 1)) | sed 's/^/cuda:/'; }
# run LABEL GPUS hyla-args...: one CLI run, its JSON records labelled
run() {
  local label=$1 g=$2
  shift 2
  echo "\$ hyla $* --json   [$label, $g GPUs]" >> "$OUT/scaling.txt"
  "$@" --json 2>> "$OUT/scaling.txt" | tee -a "$OUT/scaling.txt" |
    sed -n "s/^{/{\"label\":\"$label\",\"gpus\":$g,/p" >> "$OUT/scaling.jsonl"
}
mpi="mpirun --allow-run-as-root --bind-to none"
for part in $parts; do
  for g in $counts; do
    case $part in
      gemm)  run strong "$g" ./build/bin/hyla gemm -n 65536 --type d --devices "$(devs "$g")" --repeat 1
             run strong "$g" ./build/bin/hyla gemm -n 32768 --type d --devices "$(devs "$g")" --vs vendor --repeat 1 ;;
      potrf) run strong "$g" ./build/bin/hyla potrf -n 65536 --type d --devices "$(devs "$g")" --vs vendor --repeat 1 ;;
      getrf) run strong "$g" ./build/bin/hyla getrf -n 65536 --type d --devices "$(devs "$g")" --vs vendor --repeat 1 ;;
      hpl)   run strong "$g" $mpi -np "$g" ./build/bin/hyla hpl -n 100000 --nb 1024 --grid "1x$g" ;;
      weak)  n=$(python3 -c "print(int(32768 * $g ** 0.5) // 1024 * 1024)")
             run weak "$g" ./build/bin/hyla potrf -n "$n" --type d --devices "$(devs "$g")" --repeat 1
             N=$(python3 -c "print(int(80000 * $g ** 0.5) // 1024 * 1024)")
             run weak "$g" $mpi -np "$g" ./build/bin/hyla hpl -n "$N" --nb 1024 --grid "1x$g" ;;
    esac
  done
done
tail -5 "$OUT/scaling.txt"
