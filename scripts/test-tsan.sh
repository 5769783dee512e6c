#!/usr/bin/env bash
# ThreadSanitizer over the OpenCL ICD: builds clref's ICD (libclref_icd.so and the modules under it) and its load test
# (tests/icd/icd_load_test.cpp) with clang-15 -fsanitize=thread (-DCLREF_TSAN=ON) into build-tsan/, and runs the load
# test through the ICD loader, then once more through the check layer (libclref_layer.so, OPENCL_LAYERS). Any report
# fails it (halt_on_error); scripts/tsan-suppressions.txt holds the only reports allowed, each outside clref and
# justified there. Only these three targets are built, at -O1 (TSan's own recommendation), so that the stage stays a
# few minutes on CI's two cores. CI runs it last (.ci/run).
# CLREF_LOAD_THREADS / CLREF_LOAD_ROUNDS / CLREF_LOAD_SIZE set the load (6 threads x 3 rounds by default here). Extra
# arguments go to cmake configure.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-O1 -gline-tables-only -DNDEBUG"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS_RELEASE=$flags" \
      "-DCMAKE_CXX_FLAGS_RELEASE=$flags" -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15 \
      -DCLREF_TSAN=ON -DCLREF_BENCHMARKS=OFF "$@" >/dev/null
cmake --build build-tsan --parallel "$(nproc)" --target clref_opencl icd_load_test clref_layer
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan-suppressions.txt}"
# CLREF_LOAD_SVM=0: clref's SVM range (interpreter/svm.hpp, a fixed 1 TiB at 0x5000'0000'0000) cannot be reserved
# under TSan, whose mmap interceptor refuses it, so clSVMAlloc fails there; the SVM launches run in the other builds.
CLREF_LOAD_SVM=0 OCL_ICD_VENDORS="$PWD/build-tsan/icd" CLREF_LOAD_THREADS="${CLREF_LOAD_THREADS:-6}" \
  CLREF_LOAD_ROUNDS="${CLREF_LOAD_ROUNDS:-3}" build-tsan/tests/icd/icd_load_test golden/spv/vadd.O2.spv
# The same load once through the check layer (layer/enqueue_check.cpp: its checking thread, the callbacks that wake
# it, its locks), with fewer threads and rounds: the layer judges every launch on clref.
CLREF_LOAD_SVM=0 OCL_ICD_VENDORS="$PWD/build-tsan/icd" OPENCL_LAYERS="$PWD/build-tsan/layer/libclref_layer.so" \
  CLREF_LOAD_THREADS=4 CLREF_LOAD_ROUNDS=2 build-tsan/tests/icd/icd_load_test golden/spv/vadd.O2.spv
