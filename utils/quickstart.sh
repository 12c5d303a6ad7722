#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine (README, Quick start):
#   utils/quickstart.sh example   install what is missing, build, run the main job on examples/
#   utils/quickstart.sh test      install what is missing, build, run every test through CTest
# Both are idempotent: packages already present are not reinstalled, and the build is incremental.
set -euo pipefail

mode=${1:-}
case "$mode" in
  example|test) ;;
  *) echo "usage: $0 example|test" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${XMX_BUILD_DIR:-$root/build}

# Debian packages the build and the tests use. spirv-tools provides the reference spirv-as,
# spirv-dis and spirv-val the tests compare against; clang and libclang-rt build the fuzzers.
packages=(cmake ninja-build clang libclang-rt-14-dev python3 spirv-tools spirv-headers
          libcli11-dev libgtest-dev libbenchmark-dev nlohmann-json3-dev
          pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers llvm-spirv-15)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "error: missing Debian packages: ${missing[*]}" >&2
    echo "run as root, or first: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "== installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [[ ! -f $build/build.ninja ]]; then
  echo "== configuring $build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DXMX_WERROR=ON >/dev/null
fi
echo "== building"
cmake --build "$build" -j"$(nproc)"

if [[ $mode == test ]]; then
  echo "== testing"
  cd "$build"
  exec ctest --output-on-failure -j"$(nproc)"
fi

exec "$root/examples/run_example.sh" "$build"
