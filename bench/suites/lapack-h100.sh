# libhyla_lapack on one H100 (n = 8000; cholesky and solve also at 16000; and
# where hyla starts to pay: n = 1024, 2048, 4096 forced through hyla): an unchanged NumPy/SciPy program (numpy.linalg.eigh,
# scipy.linalg.cholesky, scipy.linalg.solve in double precision) timed plain
# and with LD_PRELOAD=libhyla_lapack.so at the default thresholds, same run
# (bench/probes/lapack_demo.py: one record per routine and n, the plain run as the
# vendor). LAPACK_PYTHON: the python3 with NumPy and SciPy (default: the
# torch venv's, pip NumPy/SciPy calling OpenBLAS's scipy_*_64_ names).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
lapack_py=${LAPACK_PYTHON:-/opt/torch/.venv/bin/python3}
[ -x "$lapack_py" ] || lapack_py=python3
run "$lapack_py" bench/probes/lapack_demo.py --lib "$build/lapack/libhyla_lapack.so" -n 8000 --repeat 2
run "$lapack_py" bench/probes/lapack_demo.py --lib "$build/lapack/libhyla_lapack.so" -n 16000 \
  --routines cholesky,solve --repeat 2
run "$lapack_py" bench/probes/lapack_demo.py --lib "$build/lapack/libhyla_lapack.so" -n 1024,2048,4096 \
  --min-n 1 --repeat 3
