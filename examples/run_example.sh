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

echo "== xmx-as: the text back to a binary (ids as numbers, so that they keep their values)"
"$build/xmx-dis" --raw-id "$module" -o "$work/gemm-raw.spvasm"
version=$(sed -n 's/^; Version: /spv/p' "$work/gemm-raw.spvasm")
"$build/xmx-as" --target-env "$version" --preserve-numeric-ids "$work/gemm-raw.spvasm" \
  -o "$work/gemm.spv"
# As with spirv-as, the header's generator word names the tool that wrote the binary and the
# bound is the largest id + 1 (the text does not carry them); every other byte must come back.
if cmp -s <(head -c 8 "$module") <(head -c 8 "$work/gemm.spv") &&
   cmp -s <(tail -c +17 "$module") <(tail -c +17 "$work/gemm.spv"); then
  echo "   identical to the original ($(stat -c %s "$module") bytes) but for the generator and bound"
else
  echo "error: the reassembled module differs from the original" >&2
  cmp "$module" "$work/gemm.spv" >&2 || true
  exit 1
fi

echo "== the extension instructions"
grep -E 'INTEL|OpExtension' "$work/gemm.spvasm"

echo "== xmx-val --device pvc $(basename "$module")"
"$build/xmx-val" --device pvc "$module"
echo "   valid"

# A deliberately broken variant: the first 2D block load reads blocks 8 elements wide, a shape
# that no device table has for 2-byte elements.
echo "== a broken variant: Block Width 16 -> 8 in the first 2D block load"
awk '!done && /OpSubgroup2DBlockLoadINTEL/ { sub(/%uint_16/, "%uint_8"); done = 1 } { print }' \
  "$work/gemm.spvasm" >"$work/broken.spvasm"
"$build/xmx-as" "$work/broken.spvasm" -o "$work/broken.spv"
if "$build/xmx-val" --device pvc "$work/broken.spv"; then
  echo "error: the broken variant validated" >&2
  exit 1
fi
echo "   rejected, as it must be"
