#!/usr/bin/env bash
# Runs one benchmark suite and writes its table.
#
# Usage: scripts/bench.sh [-B BUILD] [-o RESULTS] [-n] [-p] [-c [-t PCT] [-m METRIC]
#                         [-s SECONDS]] SUITE
#   SUITE     a name in bench/suites/ (SUITE.sh) or the path of a suite file
#   -B BUILD  build directory (default: build); configured (Release, with the
#             probes: -DHYLA_BENCH=ON) when it has no CMakeCache.txt yet
#   -o DIR    where the table goes (default: bench/results); the raw log goes
#             to DIR/raw/SUITE.log
#   -n        use the build as it is (no configure, no build)
#   -p        also draw the run (DIR/SUITE.png, scripts/plot_bench.py: time
#             or TF/s against n, hyla against the vendor, one panel per
#             routine, precision and jobz; needs matplotlib)
#   -c        compare the run with the committed table of the suite
#             (bench/results/SUITE.md as it was before the run, read first:
#             the run may overwrite it) by scripts/bench_compare.py: every
#             row more than PCT percent slower, or missing, is flagged and
#             the exit status is 3 (1 still means a failed command)
#   -t PCT    the tolerance of -c (default 10)
#   -m METRIC time (default: hyla's time) or ratio (vendor / hyla from the
#             same run, for machines whose own speed varies)
#   -s SECONDS  with -c, rows whose committed time is below this are listed
#             but not judged (default 0)
# Environment: CMAKE, the cmake to run (default: cmake on PATH); CMAKE_ARGS,
# more arguments for the first configure; MPIRUN, the launcher of `mpi` lines
# (default: mpirun --allow-run-as-root --bind-to none); BENCH_TIMEOUT, the
# limit in seconds for one command (default: none); PYTHON, the python3 that
# makes the table and the picture (default: python3 on PATH).
#
# A suite is a bash file sourced here, with three commands besides plain bash:
#   hyla ARGS...           one CLI run (--json is added); every record it
#                          prints is one row of the table
#   mpi NP ARGS...         the same CLI run on NP MPI ranks
#   probe NAME ARGS...     a probe from bench/probes or bench/micro; its output
#                          goes to the raw log only
# The raw log starts with `% bench KEY: value` lines (suite, device, host,
# date, commit); scripts/bench_table.py makes the table (DIR/SUITE.md) from
# it: the device, date, commit and, per record, the command, hyla's time, the
# vendor's time from the same run and their ratio. The exit status is 1 when
# a command fails or a record is FAILED.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=build results=$root/bench/results do_build=1 do_plot=0
do_compare=0 tolerance=10 metric=time min_time=0
usage() {
  echo "usage: scripts/bench.sh [-B BUILD] [-o RESULTS] [-n] [-p] [-c [-t PCT] [-m time|ratio] [-s SECONDS]] SUITE" >&2
  exit 2
}
while getopts "B:o:npct:m:s:" opt; do
  case $opt in
    B) build=$OPTARG ;;
    o) results=$OPTARG ;;
    n) do_build=0 ;;
    p) do_plot=1 ;;
    c) do_compare=1 ;;
    t) tolerance=$OPTARG ;;
    m) metric=$OPTARG ;;
    s) min_time=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
suite_file=$1
[ -f "$suite_file" ] || suite_file=$root/bench/suites/$1.sh
[ -f "$suite_file" ] || { echo "scripts/bench.sh: no suite $1 (bench/suites/)" >&2; exit 2; }
suite=$(basename "$suite_file" .sh)
case $build in /*) ;; *) build=$root/$build ;; esac
reference=""
if [ "$do_compare" = 1 ]; then
  [ -f "$root/bench/results/$suite.md" ] ||
    { echo "scripts/bench.sh: -c: no committed table bench/results/$suite.md" >&2; exit 2; }
  reference=$(mktemp) || exit 1
  trap 'rm -f "$reference"' EXIT
  cp "$root/bench/results/$suite.md" "$reference" || exit 1
fi
cmake_cmd=${CMAKE:-cmake}

if [ "$do_build" = 1 ]; then
  if [ ! -f "$build/CMakeCache.txt" ]; then
    # shellcheck disable=SC2086
    "$cmake_cmd" -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHYLA_BENCH=ON ${CMAKE_ARGS:-} ||
      exit 1
  fi
  "$cmake_cmd" --build "$build" -j "$(nproc)" || exit 1
fi
[ -x "$build/bin/hyla" ] || { echo "scripts/bench.sh: no $build/bin/hyla" >&2; exit 1; }

mkdir -p "$results/raw"
table=$results/$suite.md raw=$results/raw/$suite.log
failed=0

# run WORDS...: one command, its output (stdout and stderr) to the raw log
# after a "$ command" line that shows the settings the run depends on; a
# failure is remembered.
run() {
  local line="$*" v settings=""
  for v in OMP_NUM_THREADS OPENBLAS_NUM_THREADS OMP_WAIT_POLICY HYLA_DEVICES; do
    [ -n "${!v:-}" ] && settings+="$v=${!v} "
  done
  echo "\$ $settings${line//$root\//}" >> "$raw"
  if [ -n "${BENCH_TIMEOUT:-}" ]; then
    timeout "$BENCH_TIMEOUT" "$@" >> "$raw" 2>&1
  else
    "$@" >> "$raw" 2>&1
  fi
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "(exit status $rc)" >> "$raw"
    echo "scripts/bench.sh: exit status $rc: $*" >&2
    failed=1
  fi
}
hyla() { run "$build/bin/hyla" "$@" --json; }
mpi() {
  local np=$1
  shift
  # shellcheck disable=SC2086
  run ${MPIRUN:-mpirun --allow-run-as-root --bind-to none} -np "$np" "$build/bin/hyla" "$@" --json
}
probe() {
  local name=$1
  shift
  [ -x "$build/bin/$name" ] || { echo "scripts/bench.sh: no probe $build/bin/$name (-DHYLA_BENCH=ON, CUDA)" >&2; failed=1; return; }
  run "$build/bin/$name" "$@"
}

if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
  device="$(nvidia-smi -L | wc -l) x $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | head -1)"
else
  device="no GPU"
fi
cpu="$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
date_utc=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)

{
  echo "% bench suite: $suite"
  echo "% bench device: $device"
  echo "% bench host: $cpu"
  echo "% bench date: $date_utc"
  echo "% bench commit: $commit"
} > "$raw"
cd "$root" || exit 1
# shellcheck disable=SC1090
source "$suite_file"

"${PYTHON:-python3}" "$root/scripts/bench_table.py" "$raw" "$table" || failed=1
if [ "$do_plot" = 1 ]; then
  "${PYTHON:-python3}" "$root/scripts/plot_bench.py" -o "$results/$suite.png" --title "Suite $suite: $device" "$raw" ||
    failed=1
fi
# the committed results' index (bench/results/INDEX.md) follows the new table
if [ "$(cd "$results" && pwd)" = "$root/bench/results" ]; then
  "${PYTHON:-python3}" "$root/scripts/bench_index.py" "$root" || failed=1
fi
if [ "$do_compare" = 1 ] && [ "$failed" = 0 ]; then
  "${PYTHON:-python3}" "$root/scripts/bench_compare.py" -t "$tolerance" -m "$metric" \
    --min-time "$min_time" "$table" "$reference"
  rc=$?
  [ $rc -ne 0 ] && exit $rc
fi
exit $failed
