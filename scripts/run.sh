#!/usr/bin/env bash
# Sets up, builds and runs the main job: `hyla` with no arguments, the default
# benchmark suite with checks, on whatever hardware is there.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DHYLA_TESTS=OFF
cmake --build build -j "$(nproc)" --target hyla_cli
./build/bin/hyla "$@"
