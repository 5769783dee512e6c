#!/usr/bin/env bash
# Compares clref's checkers with Oclgrind's on the buggy-kernel suite (tests/debugging/suite.json, README.md there):
# every entry runs the plain OpenCL C host program tests/debugging/run_suite_host.c once through clref's ICD with
# CLREF_CHECKS=all and once under `oclgrind --data-races --uninitialized`, and each tool's output is classified
# against the entry's expectation (found the expected kind of problem at an expected line, the right kind at another
# line, only another kind, missed, false positive on a clean control, or tool error). Prints a side-by-side table in
# Markdown and the totals.
#
#   benchmarks/debug_suite_vs_oclgrind.sh [--filter TEXT] [--keep DIR]
#
# BUILD_DIR (default build/) is the CMake build to use (configured with tests, the default); JOBS (default 1) the
# parallelism of the build step. --keep DIR keeps every run's output as DIR/<entry>.<tool>.{out,err}.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if ! command -v oclgrind >/dev/null; then
  echo "debug_suite_vs_oclgrind: oclgrind not found (bash scripts/install-deps.sh --with-peers installs it)" >&2
  exit 2
fi
cmake --build "$build" -j "${JOBS:-1}" --target debug_suite_compare run_suite_host clref_opencl >&2
exec "$build/tests/debugging/debug_suite_compare" --manifest "$root/tests/debugging/suite.json" \
  --host "$build/tests/debugging/run_suite_host" --icd-dir "$build/icd" --oclgrind "$(command -v oclgrind)" "$@"
