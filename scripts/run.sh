#!/usr/bin/env bash
# Sets up, builds and runs the main job: `hyla` with no arguments, the default
# benchmark suite with checks, on whatever hardware is there (arguments go to
# hyla). The setup and build write to build/run.log; the terminal gets one
# progress line, and the log's path when the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build
log=$PWD/build/run.log
printf 'hyla: setting up and building (log: %s) ... ' "$log" >&2
if ! { bash scripts/setup.sh &&
       cmake -S . -B build -DCMAKE_BUILD_TYPE=Release &&
       cmake --build build -j "$(nproc)" --target hyla_cli; } > "$log" 2>&1; then
  echo "failed" >&2
  tail -n 20 "$log" >&2
  echo "hyla: the build failed; the whole log is $log" >&2
  exit 1
fi
echo "done" >&2
exec ./build/bin/hyla "$@"
