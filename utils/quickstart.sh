#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine (README, Quick start):
#   utils/quickstart.sh example   install what is missing, build, run the main job on examples/
#   utils/quickstart.sh test      install what is missing, build, run every test through CTest, then
#                                 the static and dynamic checks (XMX_CHECKS, below), as CI does
# Both are idempotent: packages already present are not reinstalled, and the builds are incremental.
#
# XMX_CHECKS (test mode) picks what runs after the main suite:
#   all    the default, and what CI runs: clang-tidy (.clang-tidy) over the sources; the suite
#          again in a Debug build under AddressSanitizer + UndefinedBehaviorSanitizer with asserts
#          on (build-asan/; tests labelled "slow" left out); the tests labelled "threads" (the
#          worker pools) in a ThreadSanitizer build (build-tsan/). About 65 minutes on a fresh
#          2-core machine (README, Tests), within CI's 90.
#   main   the main suite only (Release build in $XMX_BUILD_DIR, default build/)
set -euo pipefail

mode=${1:-}
case "$mode" in
  example|test) ;;
  *) echo "usage: $0 example|test" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${XMX_BUILD_DIR:-$root/build}

# Debian packages the build and the tests use. spirv-tools provides the reference spirv-as,
# spirv-dis and spirv-val the tests compare against; clang and libclang-rt build the fuzzers and
# the sanitized builds; clang-tidy checks the sources.
packages=(cmake ninja-build clang clang-tidy libclang-rt-14-dev python3 spirv-tools spirv-headers
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
  (cd "$build" && ctest --output-on-failure -j"$(nproc)")
  checks=${XMX_CHECKS:-all}
  case "$checks" in
    main) exit 0 ;;
    all) ;;
    *) echo "error: XMX_CHECKS=$checks: expected main or all" >&2; exit 2 ;;
  esac

  echo "== clang-tidy"
  "$root/utils/run_clang_tidy.sh" "$build"

  # Sanitized builds: Debug so that asserts run, at -O1 so that the suite stays within CI's time.
  sanitized_build() {  # DIR SANITIZERS [targets...]
    local dir=$1 sanitizers=$2
    shift 2
    if [[ ! -f $dir/build.ninja ]]; then
      echo "== configuring $dir ($sanitizers)"
      cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
        -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
        -DXMX_WERROR=ON -DXMX_BUILD_BENCH=OFF -DXMX_BUILD_FUZZ=OFF -DXMX_SANITIZE="$sanitizers" \
        >/dev/null
    fi
    echo "== building $dir"
    local targets=()
    (($#)) && targets=(--target "$@")
    cmake --build "$dir" -j"$(nproc)" "${targets[@]}"
  }

  asan=${XMX_ASAN_BUILD_DIR:-$root/build-asan}
  sanitized_build "$asan" address,undefined
  echo "== testing under AddressSanitizer + UndefinedBehaviorSanitizer (label slow left out)"
  (cd "$asan" && ctest --output-on-failure -j"$(nproc)" -LE slow)

  tsan=${XMX_TSAN_BUILD_DIR:-$root/build-tsan}
  # run.limits.threads.capped needs its fixture, which xmx-as assembles.
  sanitized_build "$tsan" thread xmx-val xmx-run xmx-as
  echo "== testing the worker pools under ThreadSanitizer (label threads)"
  (cd "$tsan" && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
     ctest --output-on-failure -j"$(nproc)" -L threads)
  exit 0
fi

exec "$root/examples/run_example.sh" "$build"
