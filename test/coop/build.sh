#!/usr/bin/env bash
# Rebuild the committed cooperative-matrix modules from the LLVM IR in src/.
#
#   test/coop/build.sh        # writes test/coop/spv/<name>.llc22.<O0|O2>.spv
#
# The sources are LLVM IR, not OpenCL C: joint_matrix types are LLVM target extension types
# (target("spirv.CooperativeMatrixKHR", Component, Scope, Rows, Columns, Use)) and the operations
# are calls of the __spirv_* builtins LLVM's SPIR-V backend recognises
# (../shared/spec/COOPERATIVE-MATRIX.md, A1). Every module is built with the same extension list;
# an extension shows up in a module only if the source needs it. Everything is built in a scratch
# directory; spv/ is replaced only when every build succeeded. LLC22 overrides the compiler.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LLC22=${LLC22:-llc-22}
EXTS=+SPV_KHR_cooperative_matrix,+SPV_INTEL_joint_matrix,+SPV_KHR_bfloat16,+SPV_INTEL_int4

command -v "$LLC22" >/dev/null 2>&1 || { echo "build.sh: error: '$LLC22' not found" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/coop_build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

shopt -s nullglob
sources=("$HERE"/src/*.ll)
[ ${#sources[@]} -gt 0 ] || { echo "build.sh: error: no sources in $HERE/src" >&2; exit 1; }
for src in "${sources[@]}"; do
    name=$(basename "$src" .ll)
    for opt in O0 O2; do
        out=$WORK/$name.llc22.$opt.spv
        if ! "$LLC22" "-$opt" -mtriple=spirv64-unknown-unknown --spirv-ext="$EXTS" \
                -filetype=obj "$src" -o "$out" 2>"$WORK/log"; then
            echo "build.sh: error: $name ($opt): llc-22 failed:" >&2
            cat "$WORK/log" >&2
            exit 1
        fi
    done
done
# Modules that show a producer bug (producer_bugs/*.ll): kept next to their source, the tests
# check that our tools reject them.
for src in "$HERE"/producer_bugs/*.ll; do
    name=$(basename "$src" .ll)
    if ! "$LLC22" -O2 -mtriple=spirv64-unknown-unknown --spirv-ext="$EXTS" -filetype=obj \
            "$src" -o "$WORK/bug.$name.spv" 2>"$WORK/log"; then
        echo "build.sh: error: producer_bugs/$name: llc-22 failed:" >&2
        cat "$WORK/log" >&2
        exit 1
    fi
done
rm -f "$HERE"/spv/*.spv
mkdir -p "$HERE/spv"
for f in "$WORK"/*.spv; do
    case $(basename "$f") in
        bug.*) b=$(basename "$f"); cp "$f" "$HERE/producer_bugs/${b#bug.}" ;;
        *) cp "$f" "$HERE/spv/" ;;
    esac
done
echo "build.sh: $(ls "$HERE"/spv/*.spv | wc -l) modules in $HERE/spv"
