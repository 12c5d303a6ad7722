#!/usr/bin/env bash
# Rebuilds the benchmark kernels of bench/kernels into SPIR-V. The .spv files are committed, so
# building the benchmarks needs no compiler.
#
#   utils/build_bench_kernels.sh
#
# - gemm_*.cl, the GEMM benchmark set (issue 13): each names its builds on a header line
#     // bench-builds: llc22.O2 llc22.O0 spirv15.O0 spirv15.O2
#   and each build becomes gemm_<name>.<producer>.<opt>.spv, with the commands of
#   utils/build_corpus.sh:
#     llc22    clang-22 --target=spirv64 -O<n> -> llc-22 with the 2D block, matrix and subgroup
#              extensions (LLVM's SPIR-V backend writes the instructions)
#     spirv15  clang-15 --target=spir64 -O<n> -> llvm-spirv-15 with SPV_INTEL_subgroups only
#              (the translator leaves the 2D block and matrix operations as calls of their
#              __spirv_ or OpenCL C built-ins, which xmx-run executes)
# - any other *.cl: clang-22 -O2 + llc-22 into <name>.spv (alu_loop, mma_loop);
# - *.ll (cooperative-matrix types have no OpenCL C spelling): llc-22 -O2 into <name>.spv.
#
# Everything is built in a scratch directory first and copied over only when every build
# succeeded; a failure names the kernel, the build and the failing step. CLANG22, LLC22, CLANG15
# and LLVM_SPIRV15 override the tools.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root/bench/kernels"
CLANG22=${CLANG22:-clang-22}
LLC22=${LLC22:-llc-22}
CLANG15=${CLANG15:-clang-15}
LLVM_SPIRV15=${LLVM_SPIRV15:-llvm-spirv-15}
llc22_exts=+SPV_INTEL_2d_block_io,+SPV_INTEL_subgroup_matrix_multiply_accumulate,+SPV_INTEL_subgroups
spirv15_exts=+SPV_INTEL_subgroups
header=(-cl-std=CL2.0 -cl-no-stdinc -Xclang -finclude-default-header -emit-llvm -c)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "build_bench_kernels: error: $1" >&2; sed 's/^/    | /' "$tmp/log" >&2; exit 1; }

# build_cl SOURCE PRODUCER OPT OUTPUT
build_cl() {
  local src=$1 prod=$2 opt=$3 out=$4 bc=$tmp/${4%.spv}.bc
  case $prod in
    llc22)
      "$CLANG22" --target=spirv64 "${header[@]}" "-$opt" "$src" -o "$bc" 2>"$tmp/log" ||
        fail "$src ($prod $opt): clang-22 front end failed"
      "$LLC22" -mtriple=spirv64-unknown-unknown --spirv-ext="$llc22_exts" -filetype=obj "$bc" \
        -o "$tmp/$out" 2>"$tmp/log" || fail "$src ($prod $opt): llc-22 failed" ;;
    spirv15)
      "$CLANG15" --target=spir64-unknown-unknown "${header[@]}" "-$opt" "$src" -o "$bc" \
        2>"$tmp/log" || fail "$src ($prod $opt): clang-15 front end failed"
      "$LLVM_SPIRV15" --spirv-ext="$spirv15_exts" "$bc" -o "$tmp/$out" 2>"$tmp/log" ||
        fail "$src ($prod $opt): llvm-spirv-15 failed" ;;
    *) echo "build_bench_kernels: error: $src: unknown producer '$prod'" >&2; exit 1 ;;
  esac
  echo "built bench/kernels/$out"
}

for src in *.cl; do
  name=${src%.cl}
  case $name in
    gemm_*)
      builds=$(sed -n '1s|^// bench-builds: ||p' "$src")
      [ -n "$builds" ] || { echo "build_bench_kernels: error: $src: no '// bench-builds:' first line" >&2; exit 1; }
      for build in $builds; do
        case $build in
          llc22.O0 | llc22.O2 | spirv15.O0 | spirv15.O2) ;;
          *) echo "build_bench_kernels: error: $src: unknown build '$build'" >&2; exit 1 ;;
        esac
        build_cl "$src" "${build%.*}" "${build#*.}" "$name.$build.spv"
      done ;;
    *) build_cl "$src" llc22 O2 "$name.spv" ;;
  esac
done
for src in *.ll; do
  name=${src%.ll}
  "$LLC22" -O2 -mtriple=spirv64-unknown-unknown \
    --spirv-ext=+SPV_KHR_cooperative_matrix,+SPV_INTEL_joint_matrix -filetype=obj "$src" \
    -o "$tmp/$name.spv" 2>"$tmp/log" || fail "$src: llc-22 failed"
  echo "built bench/kernels/$name.spv"
done
rm -f "$tmp"/*.bc "$tmp/log"
rm -f gemm_*.spv
cp "$tmp"/*.spv .
