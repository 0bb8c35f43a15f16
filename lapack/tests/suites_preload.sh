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
dirs=$("$py" -c 'import os, numpy, scipy
for m in (numpy, scipy):
    print(os.path.join(os.path.dirname(m.__file__), "linalg", "tests"))')
rc=0
for d in $dirs; do
  if [ ! -d "$d" ]; then
    echo "suites_preload.sh: no test suite at $d (not installed with the package): skipped"
    exit 77
  fi
  echo "== $d"
  # shellcheck disable=SC2086
  "$py" -m pytest -q -p no:cacheprovider "$d" || rc=1
done
exit $rc
