#!/usr/bin/env bash
# Compiles every golden/kernels/*.cl to SPIR-V 1.0 at -O0 and -O2 and validates the result:
#   clang-15 -target spir64 -emit-llvm  ->  llvm-spirv-15  ->  spirv-val (OpenCL environment).
# The .spv files are committed, so running the corpus needs no compiler; rerun this script after
# editing a kernel. A first line "// build: OPTIONS" in a .cl replaces the default options
# (-cl-std=CL1.2), e.g. "// build: -cl-std=CL3.0" for non-uniform work-groups.
# The comment lines at the top of a .cl may also hold:
# - "// spirv: VERSION [SPV_EXTENSION ...]": llvm-spirv-15's cap is VERSION instead of SPIR-V 1.0 and it may use those
#   SPIR-V extensions, e.g. "// spirv: 1.3 SPV_KHR_subgroup_rotate" (the sub-group extensions' non-uniform
#   instructions need SPIR-V 1.3). Such a kernel is also compiled with -include kernels/clang15_builtins.h, which
#   defines the built-ins of newer extensions clang-15 does not declare or llvm-spirv-15 does not translate, in terms
#   of the SPIR-V instructions they stand for, and validated in spirv-val's universal SPIR-V VERSION environment: its
#   OpenCL 2.2 environment stops at SPIR-V 1.2 and refuses the capabilities of extensions (Int64Atomics, ...).
# - "// requires: NAME ...", as many as needed: the device extensions (cl_khr_...) and OpenCL C features
#   (__opencl_c_...) the kernel needs. tests/icd/golden_bundle.cpp passes them on, and tests/icd/c_host_golden.c skips
#   the kernel's cases on a device that lacks one. (clang-15 enables every extension and feature for spir targets, so
#   "// build: -cl-std=CL3.0" compiles any of them.)
# Keep these lines within 120 columns: clang-format reflows longer comments.
# Usage: golden/build.sh [kernel.cl ...]   (default: every kernel)
#
# llvm-spirv-15 cannot translate everything clang-15 -O2 produces; the kernels avoid:
#   - loops LLVM turns into a closed form (a polynomial sum becomes i33 arithmetic);
#   - switches on a masked value (x & 7 becomes an i3 switch);
#   - a division and a remainder of the same operands in one function (paired with `freeze`);
#   - some nested or unrolled loop layouts, whose blocks are emitted out of dominance order
#     (spirv-val: "Block ... appears in the binary before its dominator").
# Every .cl file where a float multiply could feed an add sets `#pragma OPENCL FP_CONTRACT OFF`, so
# clang does not fuse a*b+c into mad and the expected outputs do not depend on the Mad choice.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
CLANG="${CLANG:-clang-15}"
LLVM_SPIRV="${LLVM_SPIRV:-llvm-spirv-15}"
SPIRV_VAL="${SPIRV_VAL:-spirv-val}"

mkdir -p "$here/spv"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Hand-written SPIR-V assembly (kernels/*.spvasm: what OpenCL C cannot express, such as
# specialization constants) is assembled as it is: spv/<name>.spv.
if [ $# -eq 0 ]; then
  for asm in "$here"/kernels/*.spvasm; do
    [ -e "$asm" ] || continue
    name="$(basename "$asm" .spvasm)"
    spirv-as --target-env spv1.0 "$asm" -o "$here/spv/$name.spv"
    "$SPIRV_VAL" --target-env opencl2.2 "$here/spv/$name.spv"
    echo "ok  spv/$name.spv  (assembled)"
  done
fi

if [ $# -gt 0 ]; then files=("$@"); else files=("$here"/kernels/*.cl); fi
for cl in "${files[@]}"; do
  name="$(basename "$cl" .cl)"
  options="-cl-std=CL1.2"
  first="$(head -n 1 "$cl")"
  if [[ "$first" =~ ^//\ build:\ (.*)$ ]]; then options="${BASH_REMATCH[1]}"; fi
  version="1.0"
  translate=()
  validate=(--target-env opencl2.2)
  while IFS= read -r line; do
    if [[ "$line" =~ ^//\ spirv:\ ([0-9]+\.[0-9]+)(\ +(.*))?$ ]]; then
      version="${BASH_REMATCH[1]}"
      extensions=""
      for e in ${BASH_REMATCH[3]}; do extensions+="${extensions:+,}+$e"; done
      if [ -n "$extensions" ]; then translate+=("--spirv-ext=$extensions"); fi
      options+=" -include $here/kernels/clang15_builtins.h"
      validate=(--target-env "spv$version")
    fi
  done < <(sed -n '/^\/\//!q;p' "$cl")
  for opt in 0 2; do
    spv="$here/spv/$name.O$opt.spv"
    # shellcheck disable=SC2086  # options is a list of words
    "$CLANG" $options -target spir64 -O$opt -emit-llvm -c "$cl" -o "$tmp/$name.bc"
    "$LLVM_SPIRV" --spirv-max-version="$version" "${translate[@]}" "$tmp/$name.bc" -o "$spv"
    "$SPIRV_VAL" "${validate[@]}" "$spv"
    echo "ok  spv/$name.O$opt.spv  ($options)"
  done
done
