#!/bin/sh
# NumPy's and SciPy's own linear-algebra test suites (numpy/linalg/tests,
# scipy/linalg/tests, as installed with them) with libhyla_lapack preloaded
# and every call forced to hyla (HYLA_LAPACK_MIN_N=0): unchanged programs
# must stay correct. The environment (LD_PRELOAD, HYLA_LAPACK_MIN_N) comes
# from ctest; the log (HYLA_LAPACK_VERBOSE) of one small solve shows the
# preload took. Skipped (77) without NumPy, SciPy, pytest or hypothesis
# (NumPy's test configuration imports it).
#   suites_preload.sh PYTHON
set -u
py=$1
if ! "$py" -c 'import numpy, scipy, pytest, hypothesis' 2>/dev/null; then
  echo "suites_preload.sh: $py lacks numpy, scipy, pytest or hypothesis: skipped"
  exit 77
fi
case "${LD_PRELOAD:-}" in *libhyla_lapack*) ;; *) echo "run with LD_PRELOAD=libhyla_lapack.so"; exit 1 ;; esac
served=$(HYLA_LAPACK_VERBOSE=1 "$py" -c 'import numpy as np; np.linalg.solve(np.eye(3) * 2, np.ones(3))' 2>&1 |
  grep -c -- 'gesv_.* -> hyla')
if [ "$served" -lt 1 ]; then
  echo "suites_preload.sh: numpy.linalg.solve did not reach hyla: the preload did not take"
  exit 1
fi
# run from the directory that holds the packages, so that pytest loads
# numpy's and scipy's own conftest.py (their markers: xslow tests, such as
# SciPy's 47000 x 47000 Cholesky, are skipped as in their own runs)
site=$("$py" -c 'import os, numpy; print(os.path.dirname(os.path.dirname(numpy.__file__)))')
cd "$site" || exit 1
dirs=$("$py" -c 'import os, numpy, scipy
for m in (numpy, scipy):
    print(os.path.relpath(os.path.join(os.path.dirname(m.__file__), "linalg", "tests")))')
for d in $dirs; do
  if [ ! -d "$d" ]; then
    echo "suites_preload.sh: no test suite at $d (not installed with the package): skipped"
    exit 77
  fi
done
# Left out: SciPy's own flaky test. It compares two fractional powers
# bitwise, whose Pade degree and square-root count come from a randomized
# 1-norm estimate (onenormest), so the last bits differ between runs with
# any LAPACK; SciPy made it a tolerance check in its pull request 19376
# (2023; the SciPy here, 1.10, predates it). The same file's other tests still run.
deselect="--deselect scipy/linalg/tests/test_matfuncs.py::TestFractionalMatrixPower::test_al_mohy_higham_2012_experiment_1"
# one pytest per test file, HYLA_SUITE_JOBS at a time (default: a job per two
# cores, each job's BLAS and hyla taking OMP_NUM_THREADS of them); every
# file's summary line, and the whole output of a file that fails
jobs=${HYLA_SUITE_JOBS:-$(( $(nproc 2>/dev/null || echo 2) / 2 ))}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
logs=$(mktemp -d) || exit 1
trap 'rm -rf "$logs"' EXIT
# shellcheck disable=SC2086
ls $(for d in $dirs; do printf '%s/test_*.py ' "$d"; done) |
  PY=$py LOGS=$logs DESELECT=$deselect xargs -P "$jobs" -I{} sh -c '
    f=$1; log=$LOGS/$(echo "$f" | tr / _).log
    # shellcheck disable=SC2086
    if "$PY" -m pytest -q -p no:cacheprovider $DESELECT "$f" > "$log" 2>&1; then :; else
      rc=$?; [ $rc -eq 5 ] || echo "$rc" > "$log.failed"; fi' _ {}
rc=0
for log in "$logs"/*.log; do
  printf '%s: %s\n' "$(basename "$log" .log | sed 's/^.*\(numpy\|scipy\)_linalg_tests_/\1 /')" "$(tail -n 1 "$log")"
  if [ -f "$log.failed" ]; then
    rc=1
    cat "$log"
  fi
done
exit $rc
