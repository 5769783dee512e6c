#!/usr/bin/env bash
# The package test (ctest label `slow`, `install`): builds the Debian package with `cpack -G DEB` from the build
# directory's CPack configuration (cmake/ClrefPackage.cmake), checks its control fields and files, extracts it into a
# scratch root (`dpkg-deb -x`, no dpkg database touched), runs the packaged tool, and builds and runs
# tests/install/consumer against that root with find_package(clref) and with pkg-config (use_package.sh).
# Usage: check_deb.sh <build dir> <source dir> <work dir> [<cpack>]
set -euo pipefail
build=$1 source=$2 work=$3 cpack=${4:-cpack}
rm -rf "$work"
mkdir -p "$work/package"
root=$work/root

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/package" >"$work/cpack.log" ||
  { cat "$work/cpack.log"; fail "cpack -G DEB"; }
debs=("$work"/package/clref_*.deb)
[[ ${#debs[@]} == 1 && -f ${debs[0]} ]] || fail "cpack wrote no clref_*.deb: $(ls "$work/package")"
deb=${debs[0]}
echo "package: $(basename "$deb")"

# The control fields: the name, and the shared libraries the tool links as dependencies (dpkg-shlibdeps).
dpkg-deb --field "$deb" Package | grep -qxF clref || fail "the package is not named clref"
depends=$(dpkg-deb --field "$deb" Depends)
for library in libmpfr6 libgmp10 libmpfi0; do
  [[ $depends == *"$library "* ]] || fail "Depends lacks $library: $depends"
done

dpkg-deb -x "$deb" "$root"
for f in usr/bin/clref usr/lib/libclref_icd.so usr/lib/libclref_layer.so usr/lib/libclref_host.a \
  etc/OpenCL/vendors/clref.icd usr/include/clref/host/host.hpp usr/lib/cmake/clref/clrefConfig.cmake \
  usr/lib/pkgconfig/clref.pc; do
  [[ -e $root/$f ]] || fail "the package lacks /$f"
done
# The vendor file names the library where the package installs it, not where cpack staged it.
icd=$(cat "$root/etc/OpenCL/vendors/clref.icd")
[[ $icd == /usr/lib/libclref_icd.so ]] || fail "clref.icd names '$icd', not /usr/lib/libclref_icd.so"
"$root/usr/bin/clref" math sqrt 2 --type float | grep -q 0x1.6a09e6p+0 || fail "the packaged clref tool"

bash "$source/tests/install/use_package.sh" "$root/usr" lib "$source" "$work/consumer" "$root"
echo "package contents:" && dpkg-deb -c "$deb" | awk '{print $6}' | grep -v '/$' | grep -v '^./usr/include/'
