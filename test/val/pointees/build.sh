#!/bin/sh
# Rebuilds the modules of this directory from pointees.cl, one per kernel, exactly like the llc22
# producer of utils/build_corpus.sh at -O2. Tools may be overridden with CLANG22 / LLC22.
set -eu
cd "$(dirname "$0")"
CLANG22=${CLANG22:-clang-22}
LLC22=${LLC22:-llc-22}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for kernel in $(sed -n 's/^#ifdef KERNEL_//p' pointees.cl); do
  "$CLANG22" --target=spirv64 -cl-std=CL2.0 -cl-no-stdinc -Xclang -finclude-default-header \
    -emit-llvm -c -O2 -DKERNEL_"$kernel" pointees.cl -o "$scratch/$kernel.bc"
  "$LLC22" -mtriple=spirv64-unknown-unknown \
    --spirv-ext=+SPV_INTEL_2d_block_io,+SPV_INTEL_subgroup_matrix_multiply_accumulate,+SPV_INTEL_subgroups \
    -filetype=obj "$scratch/$kernel.bc" -o "$kernel.spv"
done
