#!/usr/bin/env bash
# Rewrites a module holding an unused OpTypeCooperativeMatrixKHR so that xmx-val still skips
# SPIRV-Tools' core validation of it, for inputs meant to reach xmx-run's loader unchecked (the
# fuzzer's cm_* seeds, test/cli/load_checks).
#
#   skip_core_validation.sh BUILD_DIR IN.spv OUT.spv
#
# The bridge lifts cooperative matrices, so such a type no longer hides anything. The matrix type
# becomes an unused 4-bit integer (SPV_INTEL_int4) in a module that also declares integers of 8,
# 16, 32 and 64 bits: the bridge has no unused width left to stand in for it, so core validation
# is skipped (a bridge.lift warning) and only the loader stands between the module and the
# executor. Ids are kept (--raw-id / --preserve-numeric-ids), so messages name the same ids.
set -euo pipefail
BUILD=${1:?usage: skip_core_validation.sh BUILD_DIR IN.spv OUT.spv}
IN=${2:?usage}
OUT=${3:?usage}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/skip_core.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

"$BUILD/xmx-dis" --raw-id "$IN" -o "$WORK/m.spvasm"
grep -q '^ *%[0-9]* = OpTypeCooperativeMatrixKHR' "$WORK/m.spvasm" || {
    echo "skip_core_validation.sh: error: $IN has no cooperative-matrix type" >&2; exit 1; }
grep -q 'OpCapability Int64$' "$WORK/m.spvasm" || {
    echo "skip_core_validation.sh: error: $IN declares no 64-bit integer" >&2; exit 1; }
sed -i \
    -e 's/^\( *\)OpCapability CooperativeMatrixKHR$/\1OpCapability Int8\n\1OpCapability Int16\n\1OpCapability Int4TypeINTEL/' \
    -e 's/"SPV_KHR_cooperative_matrix"/"SPV_INTEL_int4"/' \
    -e 's/^\( *\)\(%[0-9]*\) = OpTypeCooperativeMatrixKHR .*$/\1%1000 = OpTypeInt 8 0\n\1%1001 = OpTypeInt 16 0\n\1\2 = OpTypeInt 4 0/' \
    "$WORK/m.spvasm"
"$BUILD/xmx-as" --preserve-numeric-ids "$WORK/m.spvasm" -o "$OUT"
