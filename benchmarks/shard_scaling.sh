#!/bin/sh
# Strong scaling of one large launch split over MPI ranks by work-groups (issue 38, cli/shard.hpp), 1 → 2 ranks on
# this host: golden/kernels/math_functions.cl (27 OpenCL.std functions per work-item) over 2^N work-items (N = 12
# unless given, work-groups of 64), `clref run` and `clref check` against clref's own outputs with planted errors.
# mpirun binds each rank to a core (Open MPI's default for up to 2 ranks), and each rank runs its share with its
# host's cores over its ranks (one thread each here), so 1 rank runs on one core and 2 ranks on two. Prints the wall
# and CPU seconds (every rank's user + system), the speed-up, the CPU efficiency (1 rank's CPU seconds over 2 ranks')
# and the load average before each command; checks that the outputs and reports are identical.
# Each rank's CPU time is taken by a /usr/bin/time of its own: mpirun's children's time (a /usr/bin/time around
# mpirun) misses ranks when one exits non-zero, as `check` does on violations (Open MPI 4.1 then aborts the job), which
# made 2 ranks look like half the CPU seconds of one (60.9 s against 106.6 s at 2^17, docs/SCALE.md).
# Needs a build with -DCLREF_MPI=ON and mpirun.
#
#   benchmarks/shard_scaling.sh [BUILD] [N]     (BUILD: build/ unless given)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
log2=${2:-12}
clref=$build/cli/clref
mpirun="mpirun --oversubscribe --allow-run-as-root"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
n=$((1 << log2))
cat > "$dir/large.json" <<EOF
{
  "module": "$here/../golden/spv/math_functions.O2.spv",
  "kernel": "math_functions",
  "ndrange": {"global": [$n], "local": [64]},
  "args": [
    {"buffer": {"type": "float", "count": $((4 * n)), "init": {"random": {"seed": 61, "min": -40, "max": 40}}}},
    {"buffer": {"type": "float", "count": $((4 * n)), "init": {"random": {"seed": 62, "min": 0.5, "max": 30}}}},
    {"buffer": {"type": "float", "count": $((48 * n)), "output": true}},
    {"buffer": {"type": "int", "count": $((8 * n)), "output": true}}
  ]
}
EOF
seconds() { # ranks clref-arguments...: wall seconds; the CPU seconds of all ranks go to $dir/cpu
  np=$1
  shift
  rm -f "$dir/ranks"
  /usr/bin/time -f '%e' -o "$dir/time" $mpirun -np "$np" /usr/bin/time -f '%U + %S' -a -o "$dir/ranks" "$clref" "$@" \
    > /dev/null 2> "$dir/stderr" || true
  [ "$(grep -c '^[0-9.]* + [0-9.]*$' "$dir/ranks")" = "$np" ] || echo "not every rank's CPU time: $(cat "$dir/ranks")" >&2
  grep '^[0-9.]* + [0-9.]*$' "$dir/ranks" | paste -s -d + | bc > "$dir/cpu"
  tail -n 1 "$dir/time"
}
cpu() { cat "$dir/cpu"; }
load() { cut -d' ' -f1 /proc/loadavg; }
report() { # what, 1-rank wall, 1-rank CPU, 2-rank wall, 2-rank CPU, load, identical
  echo "$1: 1 rank $2 s ($3 CPU s), 2 ranks $4 s ($5 CPU s), speed-up $(echo "scale=2; $2 / $4" | bc)," \
       "CPU efficiency $(echo "scale=2; $3 / $5" | bc); load average $6; outputs $7"
}
"$clref" run "$dir/large.json" --quiet --out "$dir/ref" > /dev/null
# Timed without --out: writing the outputs as text is rank 0's alone after the gather (about 150 ns an element), so
# it measures the file system and formatting, not the split launch; the identity is checked with --out after.
l=$(load); one=$(seconds 1 run "$dir/large.json" --quiet); oneCpu=$(cpu)
two=$(seconds 2 run "$dir/large.json" --quiet); twoCpu=$(cpu)
grep -q "one rank" "$dir/stderr" && echo "run was not split: $(cat "$dir/stderr")"
$mpirun -np 1 "$clref" run "$dir/large.json" --quiet --out "$dir/one" > /dev/null 2>&1
$mpirun -np 2 "$clref" run "$dir/large.json" --quiet --out "$dir/two" > /dev/null 2>&1
diff -r "$dir/ref" "$dir/two" > /dev/null && diff -r "$dir/one" "$dir/two" > /dev/null && same=identical || same=DIFFERENT
report "run, 2^$log2 work-items" "$one" "$oneCpu" "$two" "$twoCpu" "$l" "$same"
mkdir "$dir/observed"
for f in "$dir"/ref/*.bin; do
  # One byte in 4099 changed: planted errors, so that the report lists violations.
  python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[::4099] = bytes(x ^ 0x5a for x in b[::4099]); open(sys.argv[2], 'wb').write(b)" "$f" "$dir/observed/$(basename "$f")"
done
l=$(load); one=$(seconds 1 check "$dir/large.json" --quiet --observed "$dir/observed" --report "$dir/one.json"); oneCpu=$(cpu)
two=$(seconds 2 check "$dir/large.json" --quiet --observed "$dir/observed" --report "$dir/two.json"); twoCpu=$(cpu)
grep -q "one rank" "$dir/stderr" && echo "check was not split: $(cat "$dir/stderr")"
cmp -s "$dir/one.json" "$dir/two.json" && same=identical || same=DIFFERENT
report "check, 2^$log2 work-items ($(grep -c '"class": "violation"' "$dir/two.json") violations)" "$one" "$oneCpu" "$two" \
       "$twoCpu" "$l" "$same"
