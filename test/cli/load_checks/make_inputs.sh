#!/usr/bin/env bash
# Derives the inputs of run_load_checks.cmake from the interpreter fuzzer's regressions.
#
#   test/cli/load_checks/make_inputs.sh BUILD_DIR   # writes test/cli/load_checks/load_*.spv
#
# Each regression (test/fuzz/interpreter_fuzzer/regressions/load_*.spv) breaks one structural
# fact that xmx-run's loader must catch, and holds an unused OpTypeCooperativeMatrixKHR that made
# xmx-val skip SPIRV-Tools' core validation. The bridge now lifts matrices, so core validation
# would reject the module before the loader sees it. Here the matrix type becomes an unused 4-bit
# integer (SPV_INTEL_int4) in a module that also declares integers of 8, 16, 32 and 64 bits: the
# bridge has no width left to stand in for it, so core validation is still skipped (a bridge.lift
# warning) and only the loader stands between the module and the executor. Ids are kept
# (--raw-id / --preserve-numeric-ids), so the loader's messages name the same ids.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BUILD=${1:?usage: make_inputs.sh BUILD_DIR}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/load_checks.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

for src in "$ROOT"/test/fuzz/interpreter_fuzzer/regressions/load_*.spv; do
    name=$(basename "$src" .spv)
    "$BUILD/xmx-dis" --raw-id "$src" -o "$WORK/$name.spvasm"
    grep -q '^ *%[0-9]* = OpTypeCooperativeMatrixKHR' "$WORK/$name.spvasm" || {
        echo "make_inputs.sh: error: $name has no cooperative-matrix type" >&2; exit 1; }
    sed -i \
        -e 's/^\( *\)OpCapability CooperativeMatrixKHR$/\1OpCapability Int8\n\1OpCapability Int16\n\1OpCapability Int4TypeINTEL/' \
        -e 's/"SPV_KHR_cooperative_matrix"/"SPV_INTEL_int4"/' \
        -e 's/^\( *\)\(%[0-9]*\) = OpTypeCooperativeMatrixKHR .*$/\1%1000 = OpTypeInt 8 0\n\1%1001 = OpTypeInt 16 0\n\1\2 = OpTypeInt 4 0/' \
        "$WORK/$name.spvasm"
    "$BUILD/xmx-as" --preserve-numeric-ids "$WORK/$name.spvasm" -o "$HERE/$name.spv"
done
echo "make_inputs.sh: $(ls "$HERE"/load_*.spv | wc -l) modules in $HERE"
