#!/usr/bin/env bash
# Rebuild the committed test modules of --fuse-2d-block-loads and --emulate-xmx.
#
#   test/opt/fuse/build.sh     # writes test/opt/fuse/spv/<name>.llc22.O2.spv and
#                              # test/opt/emulate/spv/<name>.llc22.O2.spv
#
# Each src/<name>.cl (OpenCL C 2.0) goes through clang-22 and llc-22 (LLVM's SPIR-V backend, the
# producer that writes the 2D block and matrix instructions themselves) at -O2, as
# utils/build_corpus.sh does. Everything is built in a scratch directory first; the committed
# spv/ directories are replaced only when every compile succeeded. CLANG22 and LLC22 override
# the compilers.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLANG22=${CLANG22:-clang-22}
LLC22=${LLC22:-llc-22}
EXTS=+SPV_INTEL_2d_block_io,+SPV_INTEL_subgroup_matrix_multiply_accumulate,+SPV_INTEL_subgroups

for tool in "$CLANG22" "$LLC22"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "build.sh: error: '$tool' not found" >&2; exit 1; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/opt_fuse_build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

shopt -s nullglob
for dir in "$HERE" "$HERE/../emulate"; do
    [ -d "$dir/src" ] || continue
    mkdir -p "$WORK/$(basename "$dir")"
    for src in "$dir"/src/*.cl; do
        name=$(basename "$src" .cl)
        out=$WORK/$(basename "$dir")/$name.llc22.O2.spv
        if ! "$CLANG22" --target=spirv64 -cl-std=CL2.0 -cl-no-stdinc -Xclang -finclude-default-header \
                -O2 -emit-llvm -c "$src" -o "$WORK/$name.bc" 2>"$WORK/log" ||
           ! "$LLC22" -mtriple=spirv64-unknown-unknown --spirv-ext="$EXTS" -filetype=obj \
                "$WORK/$name.bc" -o "$out" 2>>"$WORK/log"; then
            echo "build.sh: error: $src did not compile:" >&2
            cat "$WORK/log" >&2
            exit 1
        fi
    done
done
for dir in "$HERE" "$HERE/../emulate"; do
    built=$WORK/$(basename "$dir")
    [ -d "$built" ] || continue
    rm -rf "$dir/spv"
    mkdir -p "$dir/spv"
    cp "$built"/*.spv "$dir/spv/"
done
