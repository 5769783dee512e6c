#!/usr/bin/env bash
# Builds clref and runs the default test suite (everything not labelled `slow`). Extra
# arguments go to cmake configure (scripts/build.sh), e.g. -DCLREF_SPEC_DIR=<folder>.
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests' own packages (Catch2, ...), which scripts/quickstart.sh leaves out; nothing when all are present.
bash scripts/install-deps.sh
# CLREF_TESTS=ON first, so that a build directory configured by scripts/quickstart.sh (tests off) builds them too.
bash scripts/build.sh -DCLREF_TESTS=ON "$@"
ctest --test-dir build --output-on-failure --parallel "$(nproc)" -LE slow
