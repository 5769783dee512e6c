#!/usr/bin/env bash
# Quick start: install dependencies, build the clref tool and the ICD (not the tests: scripts/test.sh builds those),
# and run the tool on a bundled golden case.
set -euo pipefail
cd "$(dirname "$0")/.."
# The packages the tool and the ICD need; scripts/test.sh adds the tests' own (install-deps.sh --tool-only).
bash scripts/install-deps.sh --tool-only
# Unity builds (cmake/ClrefUnityBuild.cmake): a build from scratch in half the CPU time. Without the tests' targets
# (CLREF_TESTS=OFF: Catch2 is not installed yet); scripts/test.sh turns them on in the same build directory.
CLREF_BUILD_TARGETS="clref clref_opencl" bash scripts/build.sh -DCLREF_UNITY_BUILD=ON -DCLREF_TESTS=OFF
./build/cli/clref run golden/cases/vadd.json --print
