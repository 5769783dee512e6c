#!/usr/bin/env bash
# Installs clref's build and test dependencies from Debian bookworm. Idempotent: does nothing
# when every package is already present; runs `apt-get update` first only when one is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  spirv-headers spirv-tools glslang-dev
  libmpfr-dev libgmp-dev libmpfi-dev libboost-dev
  catch2
  clang-15 llvm-spirv-15
  opencl-c-headers ocl-icd-opencl-dev
  nlohmann-json3-dev libcli11-dev libpugixml-dev
  libvulkan-dev mesa-vulkan-drivers
  glslang-tools
)
# Peers for benchmarks and smoke checks; optional (`--with-peers`).
peers=(pocl-opencl-icd oclgrind clinfo)

# Open MPI for -DCLREF_MPI=ON (clref check-spool and clref sweep over ranks, cli/cluster.hpp); optional (`--with-mpi`).
mpi=(libopenmpi-dev openmpi-bin)

# A browser for the HTML reports' tests (headless Chromium, tests/cli/html_report_test.cpp); optional
# (`--with-browser`): it is large, and those tests skip with a reason without it. CI installs it.
browser=(chromium)

# Needed only by the tests (Catch2, pugixml for the ICD's tests, lavapipe for the Vulkan layer's): `--tool-only`
# leaves them out (scripts/quickstart.sh, which builds the tool and the ICD, not the tests). glslang-tools stays:
# glslang-dev's CMake config imports /usr/bin/glslangValidator and find_package(glslang) fails without it.
tests_only=(catch2 libpugixml-dev mesa-vulkan-drivers)

want=("${packages[@]}")
tool_only=0
for arg in "$@"; do
  case "$arg" in
    --with-peers) want+=("${peers[@]}") ;;
    --with-mpi) want+=("${mpi[@]}") ;;
    --with-browser) want+=("${browser[@]}") ;;
    --tool-only) tool_only=1 ;;
    *) echo "install-deps: unknown option $arg (--with-peers, --with-mpi, --with-browser, --tool-only)" >&2; exit 2 ;;
  esac
done
if ((tool_only)); then
  kept=()
  for p in "${want[@]}"; do
    [[ " ${tests_only[*]} " == *" $p "* ]] || kept+=("$p")
  done
  want=("${kept[@]}")
fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#want[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
