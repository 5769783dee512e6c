#!/usr/bin/env bash
# Quick start: install dependencies, build the clref tool and the ICD (not the tests: scripts/test.sh builds those),
# and run the tool on a bundled golden case.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Unity builds (cmake/ClrefUnityBuild.cmake): a build from scratch in half the CPU time.
CLREF_BUILD_TARGETS="clref clref_opencl" bash scripts/build.sh -DCLREF_UNITY_BUILD=ON
./build/cli/clref run golden/cases/vadd.json --print
