#!/usr/bin/env bash
# Rebuild the modules of xmx-run's cooperative-matrix tests (test/cli/run_coop.cmake) from the
# LLVM IR in run_src/ (written by run_src/gen_modules.py), like build.sh does for src/:
#
#   test/coop/run_build.sh     # writes test/coop/run_spv/<name>.llc22.<O0|O2>.spv
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LLC22=${LLC22:-llc-22}
EXTS=+SPV_KHR_cooperative_matrix,+SPV_INTEL_joint_matrix,+SPV_KHR_bfloat16

command -v "$LLC22" >/dev/null 2>&1 || { echo "run_build.sh: error: '$LLC22' not found" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/coop_run_build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

shopt -s nullglob
sources=("$HERE"/run_src/*.ll)
[ ${#sources[@]} -gt 0 ] || { echo "run_build.sh: error: no sources in $HERE/run_src" >&2; exit 1; }
for src in "${sources[@]}"; do
    name=$(basename "$src" .ll)
    for opt in O0 O2; do
        if ! "$LLC22" "-$opt" -mtriple=spirv64-unknown-unknown --spirv-ext="$EXTS" \
                -filetype=obj "$src" -o "$WORK/$name.llc22.$opt.spv" 2>"$WORK/log"; then
            echo "run_build.sh: error: $name ($opt): llc-22 failed:" >&2
            cat "$WORK/log" >&2
            exit 1
        fi
    done
done
rm -rf "$HERE/run_spv"
mkdir -p "$HERE/run_spv"
cp "$WORK"/*.spv "$HERE/run_spv/"
echo "run_build.sh: $(ls "$HERE"/run_spv/*.spv | wc -l) modules in $HERE/run_spv"
