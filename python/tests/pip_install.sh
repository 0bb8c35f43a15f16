#!/bin/sh
# pip install of the package from the source tree into a new virtual
# environment (with the system's site packages: NumPy, SciPy, pytest), then
# the package's tests run on the installed copy, which loads the libhyla.so
# installed beside it.
#   pip_install.sh PYTHON SOURCE_DIR WORK_DIR
set -eu
py=$1 src=$2 work=$3
# pip fetches the build backend (scikit-build-core) from the package index:
# without a connection to it the test is skipped (77), not failed
if ! "$py" -c 'import urllib.request; urllib.request.urlopen("https://pypi.org/simple/scikit-build-core/", timeout=10)' \
    >/dev/null 2>&1; then
  echo "pip_install.sh: the package index (pypi.org) cannot be reached: skipped"
  exit 77
fi
rm -rf "$work"
"$py" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --config-settings=cmake.define.HYLA_CUDA=OFF --config-settings=build-dir="$work/build" "$src"
cd "$work"
env -u HYLA_LIBRARY -u PYTHONPATH "$work/venv/bin/python" -c '
import pathlib, sys, hyla
where = pathlib.Path(hyla.__file__).parent
assert where.is_relative_to(sys.prefix), where
assert (where / "libhyla.so").exists()
print("hyla", hyla.__version__, "installed in", where)'
env -u HYLA_LIBRARY -u PYTHONPATH "$work/venv/bin/python" -m pytest -q -p no:cacheprovider \
  "$src/python/tests"
