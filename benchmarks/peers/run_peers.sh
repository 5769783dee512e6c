#!/usr/bin/env bash
# One invocation, one table: builds the peer harness (peer_bench.c), runs it on PoCL, on Oclgrind (optional: it takes
# about a minute with -n 1) and on clref through its ICD, on the same machine in the same run, and prints the best and
# median enqueue + finish times of vadd, matmul and reduce with clref's ratio to each peer, the date and the load
# average (benchmarks/peers/README.md explains the workloads and the method).
#
#   benchmarks/peers/run_peers.sh [--build DIR] [--runs N] [--oclgrind] [--repeat K]
#     --build DIR   clref's build folder with the ICD (default: build); it is built first (target clref_opencl)
#     --runs N      timed runs per workload for PoCL and clref (default 5; Oclgrind always 1)
#     --oclgrind    also run Oclgrind (Debian oclgrind; it installs no ICD file, the script makes one)
#     --repeat K    run the whole comparison K times (the spread of the ratios over invocations)
# Needs: gcc, ocl-icd-opencl-dev, opencl-c-headers, pocl-opencl-icd (install-deps.sh installs them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$root/build"
runs=5
oclgrind=0
repeat=1
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --oclgrind) oclgrind=1; shift ;;
    --repeat) repeat="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "run_peers.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
gcc -std=c11 -O2 -Wall -Wextra -o "$work/peer_bench" "$here/peer_bench.c" -lOpenCL -lm
cmake --build "$build" --target clref_opencl >/dev/null

# One folder per peer, holding only its ICD file, so that it is the first platform.
mkdir -p "$work/pocl" "$work/clref" "$work/oclgrind"
pocl_icd=/etc/OpenCL/vendors/pocl.icd
[ -f "$pocl_icd" ] || { echo "run_peers.sh: PoCL is not installed ($pocl_icd)" >&2; exit 1; }
cp "$pocl_icd" "$work/pocl/"
echo "$build/icd/libclref_icd.so" > "$work/clref/clref.icd"
if [ "$oclgrind" = 1 ]; then
  [ -f /usr/lib/oclgrind/liboclgrind-rt-icd.so ] || { echo "run_peers.sh: Oclgrind is not installed" >&2; exit 1; }
  echo /usr/lib/oclgrind/liboclgrind-rt-icd.so > "$work/oclgrind/oclgrind.icd"
fi

# run PEER RUNS: the harness's lines "  NAME items=... best=X ms median=Y ms" as "NAME X Y", and its verdicts.
run() {
  local out="$work/$1.out"
  if ! OCL_ICD_VENDORS="$work/$1" "$work/peer_bench" -n "$2" -w 1 "$root/benchmarks/kernels" > "$out" 2>&1; then
    echo "run_peers.sh: $1 failed:" >&2
    cat "$out" >&2
    exit 1
  fi
  grep -q "verify FAIL" "$out" && { echo "run_peers.sh: $1 computed a wrong result" >&2; cat "$out" >&2; exit 1; }
  awk '/ items=/ { for (i = 1; i <= NF; ++i) { if ($i ~ /^best=/) b = substr($i, 6); if ($i ~ /^median=/) m = substr($i, 8) }
                  print $1, b, m }' "$out"
}

for ((k = 1; k <= repeat; ++k)); do
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
  run pocl "$runs" > "$work/pocl.t"
  run clref "$runs" > "$work/clref.t"
  [ "$oclgrind" = 1 ] && run oclgrind 1 > "$work/oclgrind.t"
  printf '%-8s %22s %22s' workload "PoCL best/median ms" "clref best/median ms"
  [ "$oclgrind" = 1 ] && printf ' %22s' "Oclgrind best ms"
  printf ' %14s' "clref / PoCL"
  [ "$oclgrind" = 1 ] && printf ' %16s' "Oclgrind / clref"
  printf '\n'
  while read -r name pb pm; do
    read -r _ cb cm < <(grep "^$name " "$work/clref.t")
    printf '%-8s %22s %22s' "$name" "$pb / $pm" "$cb / $cm"
    if [ "$oclgrind" = 1 ]; then
      read -r _ ob _ < <(grep "^$name " "$work/oclgrind.t")
      printf ' %22s' "$ob"
    fi
    printf ' %13.1fx' "$(echo "$cb / $pb" | bc -l)"
    [ "$oclgrind" = 1 ] && printf ' %15.1fx' "$(echo "$ob / $cb" | bc -l)"
    printf '\n'
  done < "$work/pocl.t"
  grep -h '^device:' "$work/pocl.out" "$work/clref.out" $([ "$oclgrind" = 1 ] && echo "$work/oclgrind.out") | sed 's/^/# /'
done
