#!/usr/bin/env bash
# The main job on the bundled example (README, Quick start): a bf16 GEMM kernel that LLVM's
# SPIR-V backend compiled with 2D block loads and the subgroup matrix multiply-accumulate.
# Disassemble it, assemble the text again, check that the round trip gives back the same bytes,
# and show the extension instructions.
set -euo pipefail
build=${1:?usage: run_example.sh BUILD_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
module=$here/gemm_bf16.spv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== xmx-dis $(basename "$module")"
"$build/xmx-dis" "$module" -o "$work/gemm.spvasm"
echo "   $(grep -c '' "$work/gemm.spvasm") lines of text"

echo "== xmx-as: the text back to a binary"
"$build/xmx-as" "$work/gemm.spvasm" -o "$work/gemm.spv"
if cmp -s "$module" "$work/gemm.spv"; then
  echo "   identical to the original ($(stat -c %s "$module") bytes)"
else
  echo "error: the reassembled module differs from the original" >&2
  cmp "$module" "$work/gemm.spv" >&2 || true
  exit 1
fi

echo "== the extension instructions"
grep -E 'INTEL|Capability|Extension' "$work/gemm.spvasm"
