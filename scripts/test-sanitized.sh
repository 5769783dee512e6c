#!/usr/bin/env bash
# Builds clref with clang-15 under AddressSanitizer + UndefinedBehaviorSanitizer, with the libFuzzer targets
# (-DCLREF_SANITIZE=ON -DCLREF_FUZZ=ON) into build-sanitized/, and runs the default test suite there, the fuzz-smoke
# tests included (each fuzz target for CLREF_FUZZ_SECONDS, 60 by default). CI runs it after scripts/test.sh, so
# that both compilers build the project and every default test runs once under the sanitizers. Extra arguments go
# to cmake configure.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-sanitized -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15 \
      -DCLREF_SANITIZE=ON -DCLREF_FUZZ=ON -DCLREF_BENCHMARKS=OFF "$@" >/dev/null
cmake --build build-sanitized --parallel "$(nproc)"
# A sanitizer report fails the test that triggered it: UBSan does not recover (-fno-sanitize-recover), ASan aborts.
# libFuzzer's libstdc++ is loaded before clang's shared ASan runtime in the fuzz targets; the order check is noise.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:verify_asan_link_order=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
ctest --test-dir build-sanitized --output-on-failure --parallel "$(nproc)" -LE slow
