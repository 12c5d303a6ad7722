#!/usr/bin/env bash
# Rebuilds the benchmark kernels bench/kernels/*.cl (and *.ll) into *.spv with LLVM's SPIR-V backend
# (clang-22 + llc-22 -O2), as the corpus does. The .spv files are committed, so building the
# benchmarks needs neither compiler.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root/bench/kernels"
exts=+SPV_INTEL_2d_block_io,+SPV_INTEL_subgroup_matrix_multiply_accumulate,+SPV_INTEL_subgroups
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for src in *.cl; do
  name=${src%.cl}
  clang-22 --target=spirv64 -cl-std=CL2.0 -cl-no-stdinc -Xclang -finclude-default-header \
    -emit-llvm -c -O2 "$src" -o "$tmp/$name.bc"
  llc-22 -mtriple=spirv64-unknown-unknown --spirv-ext="$exts" -filetype=obj "$tmp/$name.bc" \
    -o "$name.spv"
  echo "built bench/kernels/$name.spv"
done
# Kernels written in LLVM IR: cooperative-matrix types have no OpenCL C spelling.
for src in *.ll; do
  name=${src%.ll}
  llc-22 -O2 -mtriple=spirv64-unknown-unknown \
    --spirv-ext=+SPV_KHR_cooperative_matrix,+SPV_INTEL_joint_matrix -filetype=obj "$src" \
    -o "$name.spv"
  echo "built bench/kernels/$name.spv"
done
