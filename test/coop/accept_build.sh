#!/usr/bin/env bash
# Rebuild the committed cooperative-matrix acceptance modules (issue 10, deliverable 6).
#
#   test/coop/accept_build.sh [BUILD_DIR]   # writes test/coop/accept_spv/<name>.<producer>.spv
#
# accept_src/*.ll (written by accept_gen.py: the GEMMs and one kernel per table row) go through
# llc-22 at -O0 and -O2 (the row kernels at -O2 only: they are one straight-line tile each), as
# <name>.llc22.<O0|O2>.spv. accept_src/*.spvasm are element-wise kernels in the form the
# SPIRV-LLVM-Translator writes for joint_matrix_apply (an access chain into a Function variable of
# matrix type), which llc-22 has no spelling for; BUILD_DIR's xmx-as assembles them as
# <name>.spvasm.spv. Everything is built in a scratch directory; accept_spv/*.spv is replaced only
# when every build succeeded. LLC22 overrides the compiler.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=${1:-$HERE/../../build}
LLC22=${LLC22:-llc-22}
EXTS=+SPV_KHR_cooperative_matrix,+SPV_INTEL_joint_matrix,+SPV_KHR_bfloat16

command -v "$LLC22" >/dev/null 2>&1 || { echo "accept_build.sh: error: '$LLC22' not found" >&2; exit 1; }
[ -x "$BUILD/xmx-as" ] || { echo "accept_build.sh: error: no xmx-as in $BUILD" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/coop_accept.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

shopt -s nullglob
for src in "$HERE"/accept_src/*.ll; do
    name=$(basename "$src" .ll)
    case $name in row_*) opts=(O2) ;; *) opts=(O0 O2) ;; esac
    for opt in "${opts[@]}"; do
        if ! "$LLC22" "-$opt" -mtriple=spirv64-unknown-unknown --spirv-ext="$EXTS" \
                -filetype=obj "$src" -o "$WORK/$name.llc22.$opt.spv" 2>"$WORK/log"; then
            echo "accept_build.sh: error: $name ($opt): llc-22 failed:" >&2
            cat "$WORK/log" >&2
            exit 1
        fi
    done
done
for src in "$HERE"/accept_src/*.spvasm; do
    name=$(basename "$src" .spvasm)
    if ! "$BUILD/xmx-as" "$src" -o "$WORK/$name.spvasm.spv" 2>"$WORK/log"; then
        echo "accept_build.sh: error: $name: xmx-as failed:" >&2
        cat "$WORK/log" >&2
        exit 1
    fi
done
mkdir -p "$HERE/accept_spv"
rm -f "$HERE"/accept_spv/*.spv
cp "$WORK"/*.spv "$HERE/accept_spv/"
echo "accept_build.sh: $(ls "$HERE"/accept_spv/*.spv | wc -l) modules in $HERE/accept_spv"
