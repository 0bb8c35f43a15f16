#!/bin/sh
# Usage: exported_symbols.sh HEADER LIBHYLA_SO HPL_HEADER LIBHYLA_HPL_A
# The symbols a program can link against. Fails, naming each offender, when
# libhyla.so exports a function or data symbol outside hyla_* or does not
# export a function HEADER declares with HYLA_API, and likewise for the
# visible (default visibility) symbols of libhyla_hpl.a: hyla_hpl_*, those
# of HPL_HEADER.
header=$1 so=$2 hpl_header=$3 hpl=$4
status=0

# check LIB PREFIX HEADER FILE: FILE lists LIB's visible symbols, one a line
check() {
  sort -u "$4" > "$4.sorted"
  for s in $(grep -v "^$2" "$4.sorted"); do
    echo "$1 makes $s visible, outside its API ($2*)"
    status=1
  done
  for s in $(sed -n 's/^HYLA_API [^(]*\<\(hyla_[a-z0-9_]*\)(.*/\1/p' "$3" | sort -u |
             comm -23 - "$4.sorted"); do
    echo "$3 declares $s (HYLA_API), $1 does not make it visible"
    status=1
  done
  echo "$1: $(grep -c . "$4.sorted") visible symbols"
}

nm -D --defined-only "$so" | awk '$2 ~ /^[TtDdBbRrVvWwiu]$/ { print $3 }' > libhyla.txt
check libhyla.so hyla_ "$header" libhyla.txt
readelf -s -W "$hpl" | awk '($5 == "GLOBAL" || $5 == "WEAK") && $6 == "DEFAULT" && $7 != "UND" &&
                            ($4 == "FUNC" || $4 == "OBJECT") { print $8 }' > libhyla_hpl.txt
check libhyla_hpl.a hyla_hpl_ "$hpl_header" libhyla_hpl.txt
exit $status
