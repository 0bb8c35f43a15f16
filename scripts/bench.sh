#!/usr/bin/env bash
# Runs one benchmark suite and writes its table.
#
# Usage: scripts/bench.sh [-B BUILD] [-o RESULTS] [-n] SUITE
#   SUITE     a name in bench/suites/ (SUITE.sh) or the path of a suite file
#   -B BUILD  build directory (default: build); configured (Release, with the
#             probes: -DHYLA_BENCH=ON) when it has no CMakeCache.txt yet
#   -o DIR    where the table goes (default: bench/results); the raw log goes
#             to DIR/raw/SUITE.log
#   -n        use the build as it is (no configure, no build)
# Environment: CMAKE, the cmake to run (default: cmake on PATH); CMAKE_ARGS,
# more arguments for the first configure; MPIRUN, the launcher of `mpi` lines
# (default: mpirun --allow-run-as-root --bind-to none); BENCH_TIMEOUT, the
# limit in seconds for one command (default: none).
#
# A suite is a bash file sourced here, with three commands besides plain bash:
#   hyla ARGS...           one CLI run (--json is added); every record it
#                          prints is one row of the table
#   mpi NP ARGS...         the same CLI run on NP MPI ranks
#   probe NAME ARGS...     a probe from bench/probes or bench/micro; its output
#                          goes to the raw log only
# The table (DIR/SUITE.md) gives the device, date, commit and, per record,
# the command, hyla's time, the vendor's time from the same run and their
# ratio. The exit status is 1 when a command fails or a record is FAILED.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=build results=$root/bench/results do_build=1
usage() { echo "usage: scripts/bench.sh [-B BUILD] [-o RESULTS] [-n] SUITE" >&2; exit 2; }
while getopts "B:o:n" opt; do
  case $opt in
    B) build=$OPTARG ;;
    o) results=$OPTARG ;;
    n) do_build=0 ;;
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
: > "$raw"
failed=0

# run WORDS...: one command, its output (stdout and stderr) to the raw log
# after a "$ command" line that shows the settings the run depends on; a
# failure is remembered.
run() {
  local line="$*" v settings=""
  for v in OMP_NUM_THREADS HYLA_DEVICES; do
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

cd "$root" || exit 1
# shellcheck disable=SC1090
source "$suite_file"

python3 - "$raw" "$table" "$suite" "bench/suites/$suite.sh" "$device" "$cpu" "$date_utc" "$commit" "raw/$suite.log" <<'EOF' || failed=1
import json, sys

raw, table, suite, suite_path, device, cpu, date, commit, raw_link = sys.argv[1:]

def num(v, fmt):
    return "-" if v is None else fmt % v

rows, command, bad = [], "", 0
for line in open(raw, errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("$ "):
        # the command as a user types it: the CLI's words after the binary
        words = line[2:].split()
        settings = [w for w in words if "=" in w.split("-")[0]]
        words = words[len(settings):]
        at = next((i for i, w in enumerate(words) if w.endswith("/bin/hyla")), None)
        if at is None:
            command = " ".join([words[0].rsplit("/", 1)[-1]] + words[1:])
        else:
            np = words[words.index("-np") + 1] if "-np" in words[:at] else None
            command = " ".join(["hyla"] + [w for w in words[at + 1:] if w != "--json"])
            if np:
                command = f"mpirun -np {np} {command}"
        command = " ".join(settings + [command])
        continue
    if not line.startswith("{"):
        continue
    try:
        r = json.loads(line)
    except json.JSONDecodeError:
        continue
    if "time_s" not in r:
        continue  # a record that reports on the row above it
    status = r.get("status", "-")
    bad += status == "FAILED"
    what = r.get("routine", "?") + " " + r.get("type", "d")
    if "jobz" in r:
        what += " " + r["jobz"]
    size = str(r.get("n", "-"))
    if r.get("m") not in (None, r.get("n")):
        size = f"{r['m']} x {size}"
    if r.get("routine") == "hpl":
        where = f"grid {r['p']} x {r['q']}, nb {r['nb']}"
        rate = num(r.get("gflops") and r["gflops"] * 1e-3, "%.2f")
    else:
        where = r.get("devices", "-")
        rate = num(r.get("tflops") or (r.get("gflops") and r["gflops"] * 1e-3), "%.3g")
    rows.append(f"| `{command}` | {what} | {size} | {where} | {num(r.get('time_s'), '%.4g')} | "
                f"{rate} | {num(r.get('ours_device_time_s'), '%.4g')} | {r.get('vendor', '-')} | "
                f"{num(r.get('vendor_time_s'), '%.4g')} | {num(r.get('ratio'), '%.2f')} | {status} |")

with open(table, "w") as f:
    f.write(f"# Suite {suite}\n\n"
            f"- suite: `{suite_path}`, run by `scripts/bench.sh {suite}`\n"
            f"- device: {device}; host: {cpu}\n"
            f"- date: {date}; commit: {commit}\n"
            f"- raw log: [{raw_link}]({raw_link})\n"
            "- hyla (s): host-resident input, every transfer included; device-resident: "
            "hyla's `_gpu` routine on a device-resident copy; ratio = vendor time / hyla time "
            "(> 1: hyla is faster)\n\n"
            "| command | routine | n | devices | hyla (s) | TF/s | hyla device-resident (s) | "
            "vendor | vendor (s) | ratio | status |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|\n")
    f.write("\n".join(rows) + "\n")
print(f"{table}: {len(rows)} rows")
sys.exit(1 if bad or not rows else 0)
EOF
exit $failed
