#!/usr/bin/env bash
# Builds tests/install/consumer outside clref's build against an installed clref, twice: with find_package(clref)
# (CMAKE_PREFIX_PATH) and with pkg-config, runs both and checks their output. Shared by the install test
# (check_install.sh: a `cmake --install` prefix) and the package test (check_deb.sh: an extracted .deb, whose .pc is
# read as from a sysroot).
# Usage: use_package.sh <prefix> <libdir, relative to prefix> <source dir> <work dir> [<pkg-config sysroot>]
set -euo pipefail
prefix=$1 libdir=$2 source=$3 work=$4 sysroot=${5:-}
mkdir -p "$work"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

expected="vadd: c[10] = 15, sum = 48960"
vadd=$source/golden/spv/vadd.O2.spv
check() {  # <program>
  "$1" "$vadd" >"$1.out" || fail "$1 failed: $(cat "$1.out")"
  grep -qxF "$expected" "$1.out" || fail "$1 printed $(cat "$1.out")"
  grep -qxF "image: 64 bytes, row 1 starts 13 14" "$1.out" || fail "$1 printed $(cat "$1.out")"
  if grep -q "square: skipped" "$1.out"; then echo "$1: OpenCL C compiler not available"; else
    grep -qxF "square: 1 4 9 16" "$1.out" || fail "$1 printed $(cat "$1.out")"
  fi
  echo "$1:" && cat "$1.out"
}

# find_package(clref)
cmake -S "$source/tests/install/consumer" -B "$work/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake.log" || { cat "$work/cmake.log"; fail "configuring the consumer"; }
# (the package under test, not one installed elsewhere on the machine)
grep -qxF "clref_DIR:PATH=$prefix/$libdir/cmake/clref" "$work/cmake/CMakeCache.txt" ||
  fail "find_package(clref) found $(grep clref_DIR "$work/cmake/CMakeCache.txt"), not $prefix/$libdir/cmake/clref"
cmake --build "$work/cmake" >"$work/cmake-build.log" || { cat "$work/cmake-build.log"; fail "building the consumer"; }
check "$work/cmake/consumer"

# pkg-config (--static: the host API is a static library with private dependencies)
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
if [[ -n $sysroot ]]; then export PKG_CONFIG_SYSROOT_DIR=$sysroot; fi
flags=$(pkg-config --static --cflags --libs clref) || fail "pkg-config clref"
"${CXX:-c++}" -std=c++20 -O1 "$source/tests/install/consumer/main.cpp" -o "$work/pkg-config-consumer" $flags ||
  fail "building the consumer with pkg-config flags $flags"
check "$work/pkg-config-consumer"
