#!/usr/bin/env bash
# Installs every build and test dependency of hyla on a fresh Debian/Ubuntu machine.
# Idempotent: packages already present are left alone. Needs root or sudo.
set -euo pipefail
pkgs=(cmake make gcc g++ pkg-config libopenblas-dev liblapacke-dev libopenmpi-dev openmpi-bin python3)
# the Python package's tests (python/): NumPy, SciPy, pytest, and venv for the pip install test
pkgs+=(python3-numpy python3-scipy python3-pytest python3-venv)
pkgs+=(liblapack-test)    # LAPACK's test programs, run on libhyla_lapack (lapack/tests)
pkgs+=(python3-hypothesis) # NumPy's own test suite (its conftest), run with libhyla_lapack preloaded
pkgs+=(python3-matplotlib)  # the pictures of scripts/bench.sh -p (scripts/plot_bench.py)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "hyla setup: dependencies present (${pkgs[*]})"
