#!/usr/bin/env bash
# The install test (ctest label `install`): installs the build into a fresh prefix, checks the
# tree, and builds tests/install/consumer outside clref's build twice, with find_package(clref)
# and with pkg-config, runs both, and checks their output. With an OpenCL ICD loader, also lists
# the platforms through the installed vendor file.
# Usage: check_install.sh <build dir> <source dir> <work dir>
set -euo pipefail
build=$1 source=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
# (never into /etc/OpenCL/vendors, even when the build was configured with CLREF_REGISTER_ICD)
CLREF_INSTALL_NO_REGISTER=1 cmake --install "$build" --prefix "$prefix" >"$work/install.log"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
libdir=$(cd "$prefix" && dirname "$(find . -name libclref_host.a | head -1)")
libdir=${libdir#./}
[[ -n $libdir ]] || fail "no libclref_host.a installed"
for f in bin/clref "$libdir/libclref_icd.so" etc/OpenCL/vendors/clref.icd \
  include/clref/host/host.hpp include/clref/compiler/opencl_c.hpp include/clref/interpreter/diagnostic.hpp include/clref/numerics/choices.hpp \
  include/clref/numerics/format.hpp include/clref/images/image_format.hpp include/clref/images/image.hpp \
  include/clref/images/texel.hpp include/clref/images/sampler.hpp "$libdir/cmake/clref/clrefConfig.cmake" \
  "$libdir/pkgconfig/clref.pc"; do
  [[ -e $prefix/$f ]] || fail "$f is not installed"
done
# Programs include the headers as <clref/…>; so do the installed headers among themselves, so that a program's own
# host/ or images/ folder cannot stand in for clref's.
if grep -rnE '#include "(numerics|images|interpreter|compiler|host)/' "$prefix/include/clref"; then
  fail "an installed header includes a clref header without the clref/ prefix"
fi
grep -q '#include "clref/compiler/opencl_c.hpp"' "$prefix/include/clref/host/host.hpp" ||
  fail "the installed host.hpp does not include clref/compiler/opencl_c.hpp"
icd=$(cat "$prefix/etc/OpenCL/vendors/clref.icd")
[[ $icd == "$prefix/$libdir/libclref_icd.so" ]] || fail "clref.icd names '$icd', not the installed library"
"$prefix/bin/clref" math sqrt 2 --type float | grep -q 0x1.6a09e6p+0 || fail "the installed clref tool"

bash "$source/tests/install/use_package.sh" "$prefix" "$libdir" "$source" "$work"

# The vendor file through the ICD loader (ocl-icd), when there is one.
if pkg-config --exists OpenCL && command -v "${CC:-cc}" >/dev/null; then
  cat >"$work/platforms.c" <<'C'
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
int main(void) {
  cl_platform_id p[8];
  cl_uint n = 0;
  if (clGetPlatformIDs(8, p, &n) != CL_SUCCESS) return 1;
  for (cl_uint i = 0; i < n && i < 8; ++i) {
    char name[256];
    clGetPlatformInfo(p[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    printf("platform: %s\n", name);
  }
  return 0;
}
C
  "${CC:-cc}" "$work/platforms.c" -o "$work/platforms" $(pkg-config --cflags --libs OpenCL) || fail "building platforms.c"
  OCL_ICD_VENDORS=$prefix/etc/OpenCL/vendors "$work/platforms" >"$work/platforms.out" || fail "clGetPlatformIDs"
  grep -qxF "platform: clref" "$work/platforms.out" || fail "the loader did not find clref: $(cat "$work/platforms.out")"
  cat "$work/platforms.out"
fi
echo "installed tree:" && (cd "$prefix" && find . -type f | sort)
