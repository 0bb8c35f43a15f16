#!/bin/sh
# Usage: install_check.sh CMAKE SOURCE_DIR BUILD_DIR WORK_DIR CC [FLAG...]
# The install of BUILD_DIR, where a user puts it: installs it to a prefix
# under WORK_DIR, moves the prefix elsewhere (nothing may depend on where it
# was installed), then builds the C example of docs/INSTALL.md ("Install and use
# from another project") against the moved prefix four ways -- its CMake
# lines with hyla::hyla and with hyla::hyla_static, and its two pkg-config
# lines (libhyla.so, and libhyla.a with `pkg-config --static`) -- runs each
# (it must print x = 1 1 1), runs the moved bin/hyla, and checks that the
# moved libhyla.so finds libhyla_cuda.so beside it. FLAGs go to every
# compile and link (the sanitizers of a HYLA_SANITIZE build).
set -eu
cmake=$1 src=$2 build=$3 work=$4 cc=$5
shift 5
flags="$*"
unset LD_LIBRARY_PATH

# step NAME COMMAND...: runs COMMAND with its output in WORK_DIR/NAME.log,
# shown when it fails
step() {
  name=$1
  shift
  if ! "$@" > "$work/$name.log" 2>&1; then
    echo "install_check: $name failed: $*"
    cat "$work/$name.log"
    exit 1
  fi
}

# runs EXE and checks the example's answer
check_example() {
  step "run_$(basename "$1")" "$1"
  grep -qx 'x = 1 1 1' "$work/run_$(basename "$1").log" || {
    echo "install_check: $1 printed"; cat "$work/run_$(basename "$1").log"; exit 1; }
  echo "$(basename "$1"): x = 1 1 1"
}

rm -rf "$work"
mkdir -p "$work/example"
step install "$cmake" --install "$build" --prefix "$work/installed"
mv "$work/installed" "$work/prefix"
prefix=$work/prefix

# docs/INSTALL.md's example and CMake lines, as they are written there
section='/^# Install and use from another project/'
awk "$section{s=1} s&&/^\`\`\`c\$/{c=1;next} c&&/^\`\`\`\$/{exit} c" "$src/docs/INSTALL.md" > "$work/example/example.c"
{
  echo 'cmake_minimum_required(VERSION 3.20)'
  echo 'project(example C)'
  awk "$section{s=1} s&&/^\`\`\`cmake\$/{c=1;next} c&&/^\`\`\`\$/{exit} c" "$src/docs/INSTALL.md"
  echo 'add_executable(example_static example.c)'
  echo 'target_link_libraries(example_static PRIVATE hyla::hyla_static)'
} > "$work/example/CMakeLists.txt"
grep -q hyla_dposv "$work/example/example.c" && grep -q 'hyla::hyla)' "$work/example/CMakeLists.txt" || {
  echo "install_check: no C example or CMake lines in docs/INSTALL.md"; exit 1; }

# CMake: libhyla.so and libhyla.a
config=$(find "$prefix" -name hylaConfig.cmake)
step cmake_configure "$cmake" -S "$work/example" -B "$work/example/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  -Dhyla_DIR="$(dirname "$config")"
step cmake_build "$cmake" --build "$work/example/build"
check_example "$work/example/build/example"
check_example "$work/example/build/example_static"

# pkg-config: the .pc file must point into the moved prefix
PKG_CONFIG_PATH=$(dirname "$(find "$prefix" -name hyla.pc)")
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir hyla)
[ "$libdir" -ef "$PKG_CONFIG_PATH/.." ] || {
  echo "install_check: hyla.pc names libdir $libdir, it lies in $PKG_CONFIG_PATH"; exit 1; }
# shellcheck disable=SC2046,SC2086  # pkg-config's flags are words
step pc_shared "$cc" $flags "$work/example/example.c" -o "$work/example/example_pc" \
  $(pkg-config --cflags --libs hyla) -Wl,-rpath,"$libdir"
check_example "$work/example/example_pc"
# shellcheck disable=SC2046,SC2086
step pc_static "$cc" $flags "$work/example/example.c" -o "$work/example/example_pc_static" \
  $(pkg-config --static --cflags --libs hyla | sed 's/-lhyla/-l:libhyla.a/')
check_example "$work/example/example_pc_static"

# the tool, from the moved prefix
step hyla "$prefix/bin/hyla" gemm -m 50 -n 40 -k 30 --check --devices cpu:1
grep -q ' pass' "$work/hyla.log" || { echo "install_check: bin/hyla printed"; cat "$work/hyla.log"; exit 1; }
echo "$prefix/bin/hyla: gemm pass"

# the moved libhyla.so finds its CUDA backend beside it, wherever the prefix
# is (a build with CUDA installs libhyla_cuda.so into the same folder)
cat > "$work/example/backends.c" <<'CEOF'
#include <hyla.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    for (int i = 0; i < hyla_backend_count(); i++) {
        hyla_backend_info b;
        if (hyla_get_backend_info(i, &b) == 0)
            printf("%s %d %s\n", b.name, b.available, b.detail);
    }
    return 0;
}
CEOF
# shellcheck disable=SC2046,SC2086
step backends_build "$cc" $flags "$work/example/backends.c" -o "$work/example/backends" \
  $(pkg-config --cflags --libs hyla) -Wl,-rpath,"$libdir"
step backends "$work/example/backends"
if [ -e "$libdir/libhyla_cuda.so" ]; then
  grep -q '^cuda 1 ' "$work/backends.log" || {
    echo "install_check: the moved libhyla.so did not load libhyla_cuda.so beside it"
    cat "$work/backends.log"; exit 1; }
  echo "$libdir/libhyla.so: loads libhyla_cuda.so beside it"
else
  grep -q '^cuda 0 ' "$work/backends.log" || { cat "$work/backends.log"; exit 1; }
  echo "$libdir/libhyla.so: no CUDA backend in this build"
fi
