#!/bin/sh
# Rebuilds the modules of this directory from pointees.cl, one per kernel, like the producers of
# utils/build_corpus.sh at -O2: every kernel with clang-22 + llc-22 (<name>.spv), and the Intel
# block IO kernels also with clang-15 + llvm-spirv-15 (<name>.spirv15.spv; the translator of
# LLVM 15 knows SPV_INTEL_subgroups but not SPV_INTEL_2d_block_io, whose calls it keeps as
# calls). Tools may be overridden with CLANG22 / LLC22 / CLANG15 / LLVM_SPIRV15.
set -eu
cd "$(dirname "$0")"
CLANG22=${CLANG22:-clang-22}
LLC22=${LLC22:-llc-22}
CLANG15=${CLANG15:-clang-15}
LLVM_SPIRV15=${LLVM_SPIRV15:-llvm-spirv-15}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for kernel in $(sed -n 's/^#ifdef KERNEL_//p' pointees.cl); do
  "$CLANG22" --target=spirv64 -cl-std=CL2.0 -cl-no-stdinc -Xclang -finclude-default-header \
    -emit-llvm -c -O2 -DKERNEL_"$kernel" pointees.cl -o "$scratch/$kernel.bc"
  "$LLC22" -mtriple=spirv64-unknown-unknown \
    --spirv-ext=+SPV_INTEL_2d_block_io,+SPV_INTEL_subgroup_matrix_multiply_accumulate,+SPV_INTEL_subgroups \
    -filetype=obj "$scratch/$kernel.bc" -o "$kernel.spv"
  case $kernel in
    block_*)
      "$CLANG15" --target=spir64-unknown-unknown -cl-std=CL2.0 -cl-no-stdinc -Xclang \
        -finclude-default-header -emit-llvm -c -O2 -DKERNEL_"$kernel" pointees.cl \
        -o "$scratch/$kernel.15.bc"
      "$LLVM_SPIRV15" --spirv-ext=+SPV_INTEL_subgroups "$scratch/$kernel.15.bc" \
        -o "$kernel.spirv15.spv"
      ;;
  esac
done
