#!/usr/bin/env bash
# Builds clref and runs the default test suite (everything not labelled `slow`). Extra
# arguments go to cmake configure (scripts/build.sh), e.g. -DCLREF_SPEC_DIR=<folder>.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh "$@"
ctest --test-dir build --output-on-failure --parallel "$(nproc)" -LE slow
