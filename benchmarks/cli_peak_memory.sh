#!/bin/sh
# Peak memory of `clref run` on a vadd over 2^N floats (N = 26 unless given: three buffers of 256 MiB), with
# /usr/bin/time's maximum resident set size beside the buffers' bytes (issue 35: at most the buffers plus 64 MiB).
# The host API's side is build/benchmarks/clref_peak_memory_bench.
#
#   benchmarks/cli_peak_memory.sh [CLREF] [N]     (CLREF: build/cli/clref unless given)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
clref=${1:-$here/../build/cli/clref}
log2=${2:-26}
n=$((1 << log2))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/vadd.json" <<CASE
{
  "module": "$here/kernels/vadd.cl",
  "kernel": "vadd",
  "ndrange": {"global": [$n], "local": [256]},
  "args": [
    {"buffer": {"type": "float", "count": $n, "init": {"iota": {"start": 0, "step": 0.5}}}},
    {"buffer": {"type": "float", "count": $n, "init": {"random": {"seed": 7, "min": -1, "max": 1}}}},
    {"buffer": {"type": "float", "count": $n, "output": true}},
    {"scalar": {"type": "uint", "value": $n}}
  ]
}
CASE
/usr/bin/time -f '%M' -o "$dir/rss" "$clref" run "$dir/vadd.json" > /dev/null
kib=$(cat "$dir/rss")
buffers=$((3 * n * 4 / 1024))
echo "clref run vadd 2^$log2 float: peak RSS $((kib / 1024)) MiB, buffers $((buffers / 1024)) MiB," \
  "peak beyond them $(((kib - buffers) / 1024)) MiB"
