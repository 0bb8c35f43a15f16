#!/bin/sh
# Usage: cuda_plugin.sh LIBHYLA_SO [LIBHYLA_CUDA_SO]
# libhyla.so needs none of the CUDA libraries (it loads libhyla_cuda.so at
# run time), and libhyla_cuda.so, where built, makes exactly one symbol
# visible: hyla_cuda_plugin_init. Fails naming each offender.
so=$1 plugin=$2
status=0
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for lib in $needed; do
  case $lib in
    libcuda*|libcublas*|libcusolver*|libnccl*|libnvidia*)
      echo "libhyla.so needs $lib: it must load without the CUDA libraries"; status=1 ;;
  esac
done
echo "libhyla.so needs: $(echo $needed)"
if [ -n "$plugin" ]; then
  vis=$(nm -D --defined-only "$plugin" | awk '$2 ~ /^[TtDdBbRrVvWwiu]$/ { print $3 }' | sort -u)
  if [ "$vis" != "hyla_cuda_plugin_init" ]; then
    echo "libhyla_cuda.so makes visible: $(echo $vis) (want hyla_cuda_plugin_init alone)"; status=1
  fi
  readelf -d "$plugin" | grep -q 'NEEDED.*libcudart' || { echo "libhyla_cuda.so does not need libcudart"; status=1; }
fi
exit $status
