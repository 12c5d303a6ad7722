#!/usr/bin/env bash
# The main job on the bundled examples (README, Quick start): bf16 and int8 GEMM kernels that
# LLVM's SPIR-V backend compiled with 2D block loads (with transform) and the subgroup matrix
# multiply-accumulate. Disassemble the bf16 one, assemble the text again, check that the round
# trip gives back the same bytes, show the extension instructions, validate both, run both on
# the CPU with xmx-run and compare C with a host matmul, and show a broken variant rejected.
# Then the same bf16 GEMM written with SYCL joint_matrix (SPV_KHR_cooperative_matrix): validated
# against pvc's and dg2's cooperative-matrix tables, run and compared with the host matmul.
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

# Run both GEMMs at 128x128x128 (M, N, K) and compare C with the product computed on the host.
m=128 n=128 k=128
for kind in bf16 int8; do
  echo "== xmx-run $(basename "$here/gemm_$kind.spv"): C = A * B at ${m}x${n}x${k}, checked against a host matmul"
  mkdir -p "$work/$kind"
  python3 "$here/gemm_data.py" "$kind" $m $n $k "$work/$kind"
  if [[ $kind == bf16 ]]; then
    global="$((n / 2)),$((m / 8))"  # one subgroup of 16 per 8x32 tile of C
  else
    global="$n,$((m / 8))"          # one subgroup of 16 per 8x16 tile of C
  fi
  "$build/xmx-val" --device pvc "$here/gemm_$kind.spv" >/dev/null
  # xmx-run validates the module itself (its warnings, e.g. DECISIONS.md 12 on the private
  # pointer types LLVM's backend uses, go to the log) and exits 1 if C differs from the file.
  if ! "$build/xmx-run" "$here/gemm_$kind.spv" --device pvc --global "$global" --local 16,1 \
      --arg "buffer:file=$work/$kind/a.bin" --arg "buffer:file=$work/$kind/b.bin" \
      --arg "buffer:zero:$((m * n * 4))" --arg "i32:$m" --arg "i32:$n" --arg "i32:$k" \
      --expect "2=$work/$kind/c_expected.bin" --stats 2>"$work/$kind/log"; then
    cat "$work/$kind/log" >&2
    exit 1
  fi
  grep -E '^(instructions|matrix instructions|wall time)' "$work/$kind/log" | sed 's/^/   /'
  echo "   C equals the host matmul"
done

# The same bf16 GEMM as SYCL's joint_matrix writes it (SPV_KHR_cooperative_matrix with the
# SPV_INTEL_joint_matrix bf16 bit): 32x64x16 tiles, A and B loaded row-major with strides in a
# loop over K, one multiply-add per step, which pvc runs as 16 native ones.
coop=$here/gemm_coop_bf16.spv
echo "== the cooperative-matrix instructions of $(basename "$coop")"
"$build/xmx-dis" "$coop" | grep -E 'OpTypeCooperativeMatrixKHR|OpCooperativeMatrix' | sed 's/^ *//'
echo "== xmx-val --device pvc $(basename "$coop")"
"$build/xmx-val" --device pvc "$coop"
echo "   valid"
echo "== xmx-val --device dg2 $(basename "$coop"): dg2's table has no 32x64x16 bf16 row"
if "$build/xmx-val" --device dg2 "$coop" 2>"$work/dg2.log"; then
  echo "error: dg2 accepted a shape its cooperative-matrix table does not have" >&2
  exit 1
fi
sed 's/^/   /' "$work/dg2.log" | head -4
echo "== xmx-run $(basename "$coop"): C = A * B at ${m}x${n}x${k}, checked against a host matmul"
mkdir -p "$work/coop"
python3 "$here/gemm_data.py" bf16 $m $n $k "$work/coop"
# One subgroup of 16 per 32x64 tile of C: NDRange (M / 32, N / 64 * 16), local (1, 16).
if ! "$build/xmx-run" "$coop" --device pvc --global "$((m / 32)),$((n / 64 * 16))" --local 1,16 \
    --arg "buffer:file=$work/coop/a.bin" --arg "buffer:file=$work/coop/b.bin" \
    --arg "buffer:zero:$((m * n * 4))" --arg "i64:$m" --arg "i64:$n" --arg "i64:$k" \
    --expect "2=$work/coop/c_expected.bin" --stats 2>"$work/coop/log"; then
  cat "$work/coop/log" >&2
  exit 1
fi
grep -E '^(instructions|matrix instructions|wall time)' "$work/coop/log" | sed 's/^/   /'
echo "   C equals the host matmul"
