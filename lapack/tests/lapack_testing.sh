#!/bin/sh
# LAPACK's own test programs (Debian's liblapack-test) with libhyla_lapack
# preloaded and every call forced to hyla (HYLA_LAPACK_MIN_N=0): the linear
# solvers (xlintst{d,z}: ?GE and ?PO, routines and drivers: getrf, getrs,
# gesv, potrf, potrs, posv) and the symmetric / Hermitian eigensolvers
# (xeigtst{d,z} on sep.in: the ?ST drivers syev, syevd, syevr, syevx /
# heev, heevd, heevr, heevx) and the generalized ones (xeigtst{d,z} on
# {d,z}sg.in: sygv, sygvd, sygvx / hegv, hegvd, hegvx; that input has no error-exit
# tests). The inputs are LAPACK's with one block size, error-exit
# tests included (the testers' own XERBLA must see every illegal argument
# with LAPACK's parameter number). Passes when every test passed LAPACK's
# threshold, no error exit failed, and the log shows hyla served the
# routines. Exit 77 (skipped) without the package.
# Usage: lapack_testing.sh LIBHYLA_LAPACK WORKDIR
set -u
lib=$1 work=$2
dir=/usr/lib/x86_64-linux-gnu/lapack
[ -x "$dir/xlintstd" ] && [ -x "$dir/xeigtstd" ] || { echo "no liblapack-test (scripts/setup.sh)"; exit 77; }
mkdir -p "$work" && cd "$work" || exit 1
# one block size (NB, NBMIN, NX), the error exits tested
sed -e 's/^F\( *Put T to test the error exits\)/T\1/' \
    -e 's/^5\( *Number of values of NB\)/1\1/' \
    -e 's/^1 3  3  3 10\( *Values of NB\)/3\1/' -e 's/^2 2  2  2  2\( *Values of NBMIN\)/2\1/' \
    -e 's/^1 0  5  9  1\( *Values of NX\)/1\1/' "$dir/sep.in" > sep.in
for p in d z; do
  P=$(echo $p | tr dz DZ)
  sed -e 's/^F\( *Put T to test the error exits\)/T\1/' \
      -e 's/^5\( *Number of values of NB\)/1\1/' -e 's/^1 3 3 3 20\( *Values of NB\)/3\1/' \
      -e 's/^1 0 5 9 1\( *Values of NX\)/1\1/' "$dir/${p}test.in" |
    awk -v P="$P" 'NR <= 16 || $1 == P"GE" || $1 == P"PO"' > ${p}test.in
done
status=0
run() { # PROGRAM INPUT OUT EXITS ROUTINES... (EXITS 1: error exits expected)
  prog=$1 in=$2 out=$3 want_exits=$4
  shift 4
  env HYLA_LAPACK_MIN_N=0 HYLA_LAPACK_VERBOSE=1 LD_PRELOAD="$lib" "$dir/$prog" < "$in" > "$out" 2> "$out.log"
  rc=$?
  passed=$(grep -c "passed the threshold" "$out")
  failed=$(grep -ci "fail\|not detected\|illegal" "$out")
  echo "$prog < $in: exit $rc, $passed groups passed, $failed failure lines"
  exits=$(grep -c "passed the tests of the error exits" "$out")
  echo "  error exits: $exits groups passed"
  if [ $rc -ne 0 ] || [ "$passed" -eq 0 ] || [ "$failed" -ne 0 ] ||
     { [ "$want_exits" = 1 ] && [ "$exits" -eq 0 ]; }; then
    grep -i "fail\|not detected\|illegal" "$out" | head -20
    status=1
  fi
  for r in "$@"; do
    n=$(grep -c "^hyla_lapack: ${r}_ .*-> hyla" "$out.log")
    [ "$n" -gt 0 ] || { echo "  $r: never served by hyla"; status=1; }
  done
}
run xlintstd dtest.in lin_d.out 1 dgetrf dgetrs dgesv dpotrf dpotrs dposv
run xlintstz ztest.in lin_z.out 1 zgetrf zgetrs zgesv zpotrf zpotrs zposv
run xeigtstd sep.in eig_d.out 1 dsyev dsyevd dsyevr dsyevx
run xeigtstz sep.in eig_z.out 1 zheev zheevd zheevr zheevx
run xeigtstd "$dir/dsg.in" gen_d.out 0 dsygv dsygvd dsygvx
run xeigtstz "$dir/zsg.in" gen_z.out 0 zhegv zhegvd zhegvx
exit $status
