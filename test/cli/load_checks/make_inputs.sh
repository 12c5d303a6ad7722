#!/usr/bin/env bash
# Derives the inputs of run_load_checks.cmake from the interpreter fuzzer's regressions.
#
#   test/cli/load_checks/make_inputs.sh BUILD_DIR   # writes test/cli/load_checks/load_*.spv
#
# Each regression (test/fuzz/interpreter_fuzzer/regressions/load_*.spv) breaks one structural
# fact that xmx-run's loader must catch, and holds an unused OpTypeCooperativeMatrixKHR that made
# xmx-val skip SPIRV-Tools' core validation before the bridge lifted matrices;
# skip_core_validation.sh turns it into a type that still does.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BUILD=${1:?usage: make_inputs.sh BUILD_DIR}

for src in "$ROOT"/test/fuzz/interpreter_fuzzer/regressions/load_*.spv; do
    name=$(basename "$src" .spv)
    "$ROOT/test/fuzz/interpreter_fuzzer/skip_core_validation.sh" "$BUILD" "$src" "$HERE/$name.spv"
done
echo "make_inputs.sh: $(ls "$HERE"/load_*.spv | wc -l) modules in $HERE"
