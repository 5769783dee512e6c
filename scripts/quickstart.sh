#!/usr/bin/env bash
# Quick start: install dependencies, build, and run clref on a bundled golden case.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/cli/clref run golden/cases/vadd.json --print
