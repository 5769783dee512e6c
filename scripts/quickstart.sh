#!/usr/bin/env bash
# Quick start: install dependencies, build the clref tool and the ICD (not the tests: scripts/test.sh builds those),
# and run the tool on a bundled golden case.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
CLREF_BUILD_TARGETS="clref clref_opencl" bash scripts/build.sh
./build/cli/clref run golden/cases/vadd.json --print
