#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: a Release build (with the
# CUDA backend when nvcc is found; its GPU tests skip where there is no GPU),
# then the host backend under AddressSanitizer and UndefinedBehaviorSanitizer
# at -O1 (HYLA_SKIP_SANITIZE=1 skips that pass), without the tests labelled
# `repeat` (a CLI matrix on a second device count, LAPACK's tester through
# the forwarding: code the other tests run) or `cli_matrix` (the CLI's
# routine matrices: the library's paths, which the test programs run under
# the sanitizers; the CLI's own input, file and message tests stay). The Release build directory is the
# one scripts/run.sh uses: the tests are switched on here whatever its cache
# says, and ctest fails when it finds none.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DHYLA_TESTS=ON
cmake --build build -j "$jobs"
ctest --test-dir build --output-on-failure --no-tests=error -j "$jobs"
if [ "${HYLA_SKIP_SANITIZE:-0}" != 1 ]; then
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=-O1 -DHYLA_CUDA=OFF -DHYLA_SANITIZE=ON -DHYLA_TESTS=ON
  cmake --build build-asan -j "$jobs"
  # Every sanitizer report goes to a file under build-asan/sanitizer, so that
  # none passes unseen in a test that expects a failing exit status. A failed
  # allocation returns NULL as it does outside ASan (hyla reports it).
  reports=$PWD/build-asan/sanitizer
  rm -rf "$reports"
  mkdir -p "$reports"
  status=0
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=1:log_path=$reports/report \
  LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$reports/report \
    ctest --test-dir build-asan --output-on-failure --no-tests=error -j "$jobs" -LE "repeat|cli_matrix" || status=$?
  if [ -n "$(ls -A "$reports")" ]; then
    cat "$reports"/*
    echo "test.sh: the sanitizers reported errors (above; files in $reports)" >&2
    status=1
  fi
  exit "$status"
fi
