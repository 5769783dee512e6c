#!/bin/sh
# Strong scaling of clref's MPI commands (issue 38), 1 → 2 ranks on this host, and the check layer's spool overhead:
#   - clref sweep exp over 2^N float inputs (N = 20 unless given) judged against clref's own correct results;
#   - clref check-spool of a spool of the golden corpus (the golden C host program under the layer with
#     CLREF_CHECK_SPOOL), and that program's wall time without the layer, spooling, and with the layer judging at once.
# mpirun binds each rank to a core (Open MPI's default for up to 2 ranks): 1 rank runs on one core, 2 ranks on two;
# a process outside mpirun uses every core (its threads, DeviceConfig::threads), shown for comparison.
# Needs a build with -DCLREF_MPI=ON, mpirun, and the golden bundle (ctest -R c_host_golden_bundle).
#
#   benchmarks/mpi_scaling.sh [BUILD] [N]     (BUILD: build/ unless given)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
log2=${2:-20}
clref=$build/cli/clref
mpirun="mpirun --oversubscribe --allow-run-as-root"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The machine may be shared: the CPU seconds (user + system, every rank's) say what the work cost, the wall seconds
# what it took.
seconds() { # command...: wall seconds; the CPU seconds go to $dir/cpu
  /usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" > /dev/null 2>&1 || true
  read -r wall user system < "$dir/time"
  echo "$user + $system" | bc > "$dir/cpu"
  echo "$wall"
}
cpu() { cat "$dir/cpu"; }
hi=$(printf '0x%x' $((0x3f800000 + (1 << log2))))
range="--range 0x3f800000:$hi"
"$clref" sweep exp $range --out "$dir/exp.bin" > /dev/null 2>&1
all=$(seconds "$clref" sweep exp $range --observed "$dir/exp.bin"); allCpu=$(cpu)
one=$(seconds $mpirun -np 1 "$clref" sweep exp $range --observed "$dir/exp.bin"); oneCpu=$(cpu)
two=$(seconds $mpirun -np 2 "$clref" sweep exp $range --observed "$dir/exp.bin"); twoCpu=$(cpu)
echo "sweep exp 2^$log2 inputs: 1 rank $one s ($oneCpu CPU s), 2 ranks $two s ($twoCpu CPU s)," \
     "speed-up $(echo "scale=2; $one / $two" | bc); 1 process on every core $all s ($allCpu CPU s)"

golden="$build/tests/icd/c_host_golden $build/golden_bundle"
layer="env OCL_ICD_VENDORS=$build/icd OPENCL_LAYERS=$build/layer/libclref_layer.so"
bare=$(seconds env OCL_ICD_VENDORS="$build/icd" $golden); bareCpu=$(cpu)
spooling=$(seconds $layer CLREF_CHECK_SPOOL="$dir/spool" $golden); spoolingCpu=$(cpu)
judging=$(seconds $layer CLREF_CHECK_REPORT="$dir/direct.jsonl" $golden); judgingCpu=$(cpu)
echo "golden host program: without the layer $bare s ($bareCpu CPU s), spooling $spooling s ($spoolingCpu CPU s," \
     "$(echo "scale=2; $spoolingCpu / $bareCpu" | bc)x), judging at once $judging s ($judgingCpu CPU s); spool $(du -sk "$dir/spool" | cut -f1) KiB in $(ls "$dir/spool" | wc -l) enqueues"
all=$(seconds "$clref" check-spool "$dir/spool" --report "$dir/all.jsonl"); allCpu=$(cpu)
one=$(seconds $mpirun -np 1 "$clref" check-spool "$dir/spool" --report "$dir/one.jsonl"); oneCpu=$(cpu)
two=$(seconds $mpirun -np 2 "$clref" check-spool "$dir/spool" --report "$dir/two.jsonl"); twoCpu=$(cpu)
cmp -s "$dir/one.jsonl" "$dir/two.jsonl" && cmp -s "$dir/all.jsonl" "$dir/two.jsonl" && cmp -s "$dir/direct.jsonl" \
  "$dir/two.jsonl" && same=identical || same=DIFFERENT
echo "check-spool: 1 rank $one s ($oneCpu CPU s), 2 ranks $two s ($twoCpu CPU s), speed-up" \
     "$(echo "scale=2; $one / $two" | bc); 1 process on every core $all s ($allCpu CPU s); reports (and the layer's" \
     "at once) $same; report $(wc -c < "$dir/two.jsonl") bytes"
