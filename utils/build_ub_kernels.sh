#!/usr/bin/env bash
# Rebuild the committed SPIR-V of the undefined-behaviour kernels (xmx-run --check tests).
#
#   utils/build_ub_kernels.sh        # rebuild test/ub/spv/<kernel>.spv from test/ub/src/<kernel>.cl
#
# Every test/ub/src/<kernel>.cl starts with a header line
#
#   // ub: producer=spirv15 opt=O2
#
# Keys (both optional; unknown keys are an error):
#   producer  llc22 or spirv15   (default: spirv15)
#   opt       O0 or O2           (default: O2)
#
# Producers, with the flags of utils/build_corpus.sh:
#   llc22    clang-22 -> LLVM IR -> llc-22 (LLVM's in-tree SPIR-V backend)
#   spirv15  clang-15 -> LLVM IR -> llvm-spirv-15 (Khronos SPIRV-LLVM-Translator)
#
# Each kernel is built once, with the producer and optimisation level its header names, into
# test/ub/spv/<kernel>.spv. Everything is built in a scratch directory first; the committed
# directory is replaced only when every compile succeeded. Each module is also checked with
# spirv-val (a rejection is printed, not fatal: modules with SPV_INTEL opcodes that
# SPIRV-Tools does not know are expected to be rejected; xmx-run validates with xmx-val).
#
# Tools can be overridden from the environment: CLANG22, LLC22, CLANG15, LLVM_SPIRV15, SPIRV_VAL.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC_DIR=$ROOT/test/ub/src
OUT_DIR=$ROOT/test/ub/spv

CLANG22=${CLANG22:-clang-22}
LLC22=${LLC22:-llc-22}
CLANG15=${CLANG15:-clang-15}
LLVM_SPIRV15=${LLVM_SPIRV15:-llvm-spirv-15}
SPIRV_VAL=${SPIRV_VAL:-spirv-val}

# Same extension lists and header flags as utils/build_corpus.sh.
LLC22_EXTS=+SPV_INTEL_2d_block_io,+SPV_INTEL_subgroup_matrix_multiply_accumulate,+SPV_INTEL_subgroups
SPIRV15_EXTS=+SPV_INTEL_subgroups
HEADER_FLAGS=(-cl-no-stdinc -Xclang -finclude-default-header)
STD=CL2.0

die() { echo "build_ub_kernels: error: $*" >&2; exit 1; }

shopt -s nullglob
sources=("$SRC_DIR"/*.cl)
shopt -u nullglob
[ ${#sources[@]} -gt 0 ] || die "no kernels found in $SRC_DIR"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/build_ub_kernels.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/spv" "$WORK/bc"

failed=0
for src in "${sources[@]}"; do
    name=$(basename "$src" .cl)
    case $name in *[!A-Za-z0-9_]*) die "$name: kernel file names must be [A-Za-z0-9_]" ;; esac
    line=$(head -n 1 "$src")
    case $line in
        "// ub:"*) ;;
        *) die "$name: first line must be '// ub: producer=... opt=...'" ;;
    esac
    producer=spirv15
    opt=O2
    for tok in ${line#// ub:}; do
        key=${tok%%=*}
        val=${tok#*=}
        [ "$key" != "$tok" ] || die "$name: malformed header token '$tok'"
        case $key in
            producer) producer=$val ;;
            opt) opt=$val ;;
            *) die "$name: unknown header key '$key'" ;;
        esac
    done
    case $opt in O0|O2) ;; *) die "$name: unknown optimisation level '$opt'" ;; esac
    bc=$WORK/bc/$name.bc
    spv=$WORK/spv/$name.spv
    log=$WORK/$name.log
    printf '  %-24s %-8s %s\n' "$name" "$producer" "$opt"
    # Compile from inside the source directory with a relative file name so no absolute paths
    # end up in the outputs.
    case $producer in
        llc22)
            for tool in "$CLANG22" "$LLC22"; do
                command -v "$tool" >/dev/null 2>&1 || die "required tool '$tool' not found"
            done
            if ! (cd "$SRC_DIR" && "$CLANG22" --target=spirv64 -cl-std="$STD" "${HEADER_FLAGS[@]}" \
                    -emit-llvm -c "-$opt" "$name.cl" -o "$bc") >"$log" 2>&1 ||
               ! "$LLC22" -mtriple=spirv64-unknown-unknown --spirv-ext="$LLC22_EXTS" \
                    -filetype=obj "$bc" -o "$spv" >>"$log" 2>&1; then
                echo "build_ub_kernels: FAILED: $name ($producer $opt)" >&2
                sed 's/^/    | /' "$log" | head -n 20 >&2
                failed=$((failed + 1))
                continue
            fi
            ;;
        spirv15)
            for tool in "$CLANG15" "$LLVM_SPIRV15"; do
                command -v "$tool" >/dev/null 2>&1 || die "required tool '$tool' not found"
            done
            if ! (cd "$SRC_DIR" && "$CLANG15" --target=spir64-unknown-unknown -cl-std="$STD" \
                    "${HEADER_FLAGS[@]}" -emit-llvm -c "-$opt" "$name.cl" -o "$bc") >"$log" 2>&1 ||
               ! "$LLVM_SPIRV15" --spirv-ext="$SPIRV15_EXTS" "$bc" -o "$spv" >>"$log" 2>&1; then
                echo "build_ub_kernels: FAILED: $name ($producer $opt)" >&2
                sed 's/^/    | /' "$log" | head -n 20 >&2
                failed=$((failed + 1))
                continue
            fi
            ;;
        *) die "$name: unknown producer '$producer'" ;;
    esac
    [ -s "$spv" ] || die "$name: empty output from $producer"
    if command -v "$SPIRV_VAL" >/dev/null 2>&1 && ! msg=$("$SPIRV_VAL" "$spv" 2>&1); then
        echo "    note: spirv-val rejects $name.spv: $(printf '%s\n' "$msg" | grep -m1 -v '^ *$')"
    fi
done

[ "$failed" -eq 0 ] || die "$failed kernel(s) failed to compile; $OUT_DIR left unchanged"

mkdir -p "$OUT_DIR"
find "$OUT_DIR" -maxdepth 1 -type f -name '*.spv' -delete
cp "$WORK"/spv/*.spv "$OUT_DIR"/
echo "build_ub_kernels: wrote ${#sources[@]} modules to ${OUT_DIR#"$ROOT"/}"
