#!/usr/bin/env bash
# Configures and builds clref (Release) into build/. Extra arguments go to cmake configure.
# CLREF_BUILD_TARGETS (space-separated) builds only those targets, e.g. CLREF_BUILD_TARGETS=clref for the tool alone.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
targets=()
for t in ${CLREF_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build build --parallel "$(nproc)" "${targets[@]}"
