#!/usr/bin/env bash
# Rebuild the committed SPIR-V corpus from the OpenCL C sources.
#
#   utils/build_corpus.sh            # rebuild test/corpus/spv and the README table
#
# Every test/corpus/src/<kernel>.cl starts with a header line such as
#
#   // corpus: producers=llc22,spirv15 std=CL2.0 class=portable
#
# Keys (all optional; unknown keys are an error so typos do not go unnoticed):
#   producers  comma list of llc22, spirv15            (default: llc22,spirv15)
#   opts       comma list of O0, O2                    (default: O0,O2)
#   std        value passed to -cl-std=                (default: CL2.0)
#   class      free-form tag shown in the README       (default: misc)
#   skip       comma list of <producer>.<opt> builds to leave out, for known
#              producer bugs; say why in the kernel's comment  (default: none)
#
# Producers:
#   llc22    clang-22 -> LLVM IR -> llc-22 (LLVM's in-tree SPIR-V backend)
#   spirv15  clang-15 -> LLVM IR -> llvm-spirv-15 (Khronos SPIRV-LLVM-Translator)
#
# Output: test/corpus/spv/<kernel>.<producer>.<opt>.spv. Everything is built in a
# scratch directory first; the committed directory is replaced only when every
# requested compile succeeded, so a failed run leaves the old corpus untouched.
# Any compiler failure exits non-zero and names the kernel and the failing step.
#
# Tools can be overridden from the environment: CLANG22, LLC22, CLANG15,
# LLVM_SPIRV15, SPIRV_VAL, SPIRV_DIS.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CORPUS=$ROOT/test/corpus
SRC_DIR=$CORPUS/src
OUT_DIR=$CORPUS/spv
README=$CORPUS/README.md

CLANG22=${CLANG22:-clang-22}
LLC22=${LLC22:-llc-22}
CLANG15=${CLANG15:-clang-15}
LLVM_SPIRV15=${LLVM_SPIRV15:-llvm-spirv-15}
SPIRV_VAL=${SPIRV_VAL:-spirv-val}
SPIRV_DIS=${SPIRV_DIS:-spirv-dis}

# Extensions the producers may use. The lists are the same for every kernel;
# an extension only shows up in a module if the kernel needs it.
LLC22_EXTS=+SPV_INTEL_2d_block_io,+SPV_INTEL_subgroup_matrix_multiply_accumulate,+SPV_INTEL_subgroups
SPIRV15_EXTS=+SPV_INTEL_subgroups

# Both front ends are run with the full opencl-c.h header instead of clang's
# default table-generated builtin declarations: the latter do not declare the
# cl_intel_subgroups* built-ins (intel_sub_group_shuffle, block reads, ...).
HEADER_FLAGS=(-cl-no-stdinc -Xclang -finclude-default-header)

die() { echo "build_corpus: error: $*" >&2; exit 1; }

for tool in "$CLANG22" "$LLC22" "$CLANG15" "$LLVM_SPIRV15" "$SPIRV_VAL" "$SPIRV_DIS" od awk; do
    command -v "$tool" >/dev/null 2>&1 || die "required tool '$tool' not found in PATH"
done

shopt -s nullglob
sources=("$SRC_DIR"/*.cl)
shopt -u nullglob
[ ${#sources[@]} -gt 0 ] || die "no kernels found in $SRC_DIR"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/build_corpus.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/spv" "$WORK/bc" "$WORK/log"

# ---------------------------------------------------------------------------
# Header parsing. Sets K_PRODUCERS, K_OPTS, K_STD, K_CLASS, K_DESC.
parse_header() {
    local file=$1 name=$2 line key val tok
    line=$(head -n 1 "$file")
    case $line in
        "// corpus:"*) ;;
        *) die "$name: first line must be '// corpus: producers=... std=...'" ;;
    esac
    K_PRODUCERS=llc22,spirv15
    K_OPTS=O0,O2
    K_STD=CL2.0
    K_CLASS=misc
    K_SKIP=
    for tok in ${line#// corpus:}; do
        key=${tok%%=*}
        val=${tok#*=}
        [ "$key" != "$tok" ] || die "$name: malformed header token '$tok'"
        case $key in
            producers) K_PRODUCERS=$val ;;
            opts) K_OPTS=$val ;;
            std) K_STD=$val ;;
            class) K_CLASS=$val ;;
            skip) K_SKIP=$val ;;
            *) die "$name: unknown header key '$key'" ;;
        esac
    done
    local p
    for p in ${K_PRODUCERS//,/ }; do
        case $p in llc22|spirv15) ;; *) die "$name: unknown producer '$p'" ;; esac
    done
    for p in ${K_OPTS//,/ }; do
        case $p in O0|O2) ;; *) die "$name: unknown optimisation level '$p'" ;; esac
    done
    for p in ${K_SKIP//,/ }; do
        case $p in llc22.O0|llc22.O2|spirv15.O0|spirv15.O2) ;;
            *) die "$name: bad skip entry '$p' (want <producer>.<opt>)" ;; esac
    done
    # Description: the following comment lines, joined.
    K_DESC=$(awk 'NR == 1 { next } /^\/\// { sub(/^\/\/ ?/, ""); printf "%s ", $0; next } { exit }' "$file" |
             sed 's/  */ /g;s/ $//')
}

# ---------------------------------------------------------------------------
# Module scan (works without SPIRV-Tools knowing every opcode). Prints two lines:
#   1. counts of the extended opcodes (SPV_INTEL_2d_block_io,
#      SPV_INTEL_subgroup_matrix_multiply_accumulate) and of the SPV_INTEL_subgroups
#      opcodes, as "name=count" pairs (empty if none);
#   2. names of functions declared with LinkageAttributes Import, i.e. calls the
#      producer left unresolved (empty if none).
scan_module() {
    od -An -v -tu4 -w4 "$1" | awk '
        BEGIN {
            n[6231] = "2DBlockLoad"; n[6232] = "2DBlockLoadTransform";
            n[6233] = "2DBlockLoadTranspose"; n[6234] = "2DBlockPrefetch";
            n[6235] = "2DBlockStore"; n[6237] = "MatrixMultiplyAccumulate";
            n[5571] = "Shuffle"; n[5572] = "ShuffleDown"; n[5573] = "ShuffleUp";
            n[5574] = "ShuffleXor"; n[5575] = "BlockRead"; n[5576] = "BlockWrite";
        }
        { w[NR] = $1 }
        function str(from, to,   k, x, b, j, s) {
            s = ""
            for (k = from; k <= to; k++) {
                x = w[k]
                for (j = 0; j < 4; j++) {
                    b = x % 256; x = int(x / 256)
                    if (b == 0) return s
                    s = s sprintf("%c", b)
                }
            }
            return s
        }
        END {
            if (NR < 5 || w[1] != 119734787) { print "BAD-MAGIC"; exit }
            i = 6
            while (i <= NR) {
                op = w[i] % 65536; len = int(w[i] / 65536)
                if (len == 0 || i + len - 1 > NR) { print "BAD-LENGTH"; exit }
                if (op in n) c[op]++
                if (op == 54) isfn[w[i + 2]] = 1                       # OpFunction
                if (op == 71 && len >= 5 && w[i + 2] == 41 && w[i + len - 1] == 1)
                    imp[w[i + 1]] = str(i + 3, i + len - 2)             # LinkageAttributes Import
                i += len
            }
            out = ""
            for (op = 5571; op <= 6237; op++)
                if (op in c) out = out (out == "" ? "" : " ") n[op] "=" c[op]
            print out
            out = ""
            for (id in imp)
                if (id in isfn) out = out (out == "" ? "" : " ") imp[id]
            print out
        }'
}

# ---------------------------------------------------------------------------
# Compile one (kernel, producer, opt). Returns non-zero and leaves a log on failure.
compile_one() {
    local src=$1 name=$2 prod=$3 opt=$4 std=$5
    local bc=$WORK/bc/$name.$prod.$opt.bc
    local spv=$WORK/spv/$name.$prod.$opt.spv
    local log=$WORK/log/$name.$prod.$opt.log
    # Compile from inside the source directory with a relative file name so no
    # absolute paths can end up in the outputs.
    case $prod in
        llc22)
            if ! (cd "$SRC_DIR" && "$CLANG22" --target=spirv64 -cl-std="$std" "${HEADER_FLAGS[@]}" \
                    -emit-llvm -c "-$opt" "$name.cl" -o "$bc") >"$log" 2>&1; then
                echo "clang-22 front end" >"$log.step"; return 1
            fi
            if ! "$LLC22" -mtriple=spirv64-unknown-unknown --spirv-ext="$LLC22_EXTS" \
                    -filetype=obj "$bc" -o "$spv" >>"$log" 2>&1; then
                echo "llc-22 SPIR-V backend" >"$log.step"; return 1
            fi
            ;;
        spirv15)
            if ! (cd "$SRC_DIR" && "$CLANG15" --target=spir64-unknown-unknown -cl-std="$std" \
                    "${HEADER_FLAGS[@]}" -emit-llvm -c "-$opt" "$name.cl" -o "$bc") >"$log" 2>&1; then
                echo "clang-15 front end" >"$log.step"; return 1
            fi
            if ! "$LLVM_SPIRV15" --spirv-ext="$SPIRV15_EXTS" "$bc" -o "$spv" >>"$log" 2>&1; then
                echo "llvm-spirv-15 translator" >"$log.step"; return 1
            fi
            ;;
    esac
    [ -s "$spv" ] || { echo "empty output from $prod" >"$log.step"; return 1; }
}

# ---------------------------------------------------------------------------
failures=()
kernels=()
declare -A KPROD KCLASS KDESC KSTD KSKIP
skipped=()
nbuilt=0

for src in "${sources[@]}"; do
    name=$(basename "$src" .cl)
    case $name in *[!A-Za-z0-9_]*) die "$name: kernel file names must be [A-Za-z0-9_]" ;; esac
    parse_header "$src" "$name"
    kernels+=("$name")
    KPROD[$name]=$K_PRODUCERS
    KCLASS[$name]=$K_CLASS
    KDESC[$name]=$K_DESC
    KSTD[$name]=$K_STD
    KSKIP[$name]=$K_SKIP
    for prod in ${K_PRODUCERS//,/ }; do
        for opt in ${K_OPTS//,/ }; do
            case ",$K_SKIP," in *",$prod.$opt,"*)
                skipped+=("$name.$prod.$opt"); continue ;;
            esac
            printf '  %-28s %-8s %s\n' "$name" "$prod" "$opt"
            if compile_one "$src" "$name" "$prod" "$opt" "$K_STD"; then
                nbuilt=$((nbuilt + 1))
            else
                log=$WORK/log/$name.$prod.$opt.log
                step=$(cat "$log.step")
                failures+=("$name ($prod $opt): $step failed")
                echo "build_corpus: FAILED: kernel '$name', producer $prod, $opt: $step" >&2
                sed 's/^/    | /' "$log" | head -n 20 >&2
            fi
        done
    done
done

if [ ${#failures[@]} -gt 0 ]; then
    echo >&2
    echo "build_corpus: ${#failures[@]} compile(s) failed; $OUT_DIR left unchanged:" >&2
    printf '  %s\n' "${failures[@]}" >&2
    exit 1
fi

# ---------------------------------------------------------------------------
# Check every output with spirv-dis (does SPIRV-Tools know all opcodes?) and
# spirv-val, and collect the opcode scan.
declare -A DIS VAL OPS VALMSG IMPORTS
nimp=0
nval_fail=0
ndis_fail=0
next=0
for spv in "$WORK"/spv/*.spv; do
    base=$(basename "$spv" .spv)
    if "$SPIRV_DIS" "$spv" -o /dev/null >/dev/null 2>&1; then
        DIS[$base]=yes
    else
        DIS[$base]=no; ndis_fail=$((ndis_fail + 1))
    fi
    if msg=$("$SPIRV_VAL" "$spv" 2>&1); then
        VAL[$base]=ok
    else
        VAL[$base]=fail; nval_fail=$((nval_fail + 1))
        VALMSG[$base]=$(printf '%s\n' "$msg" | grep -m1 -v '^ *$' | sed 's/^error: line [0-9]*: //;s/|/\\|/g' | cut -c1-140)
    fi
    scan=$(scan_module "$spv")
    OPS[$base]=$(printf '%s\n' "$scan" | sed -n 1p)
    case ${OPS[$base]} in BAD-*) die "$base: malformed SPIR-V (${OPS[$base]})" ;; esac
    IMPORTS[$base]=$(printf '%s\n' "$scan" | sed -n 2p | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
    [ -z "${IMPORTS[$base]}" ] || nimp=$((nimp + 1))
    case ${OPS[$base]} in *2DBlock*|*MatrixMultiply*) next=$((next + 1)) ;; esac
done

# ---------------------------------------------------------------------------
# Replace the committed outputs (this also removes outputs of deleted kernels).
mkdir -p "$OUT_DIR"
find "$OUT_DIR" -maxdepth 1 -type f -name '*.spv' -delete
cp "$WORK"/spv/*.spv "$OUT_DIR"/

# ---------------------------------------------------------------------------
# README: regenerate the section between the markers, keep the rest.
BEGIN_MARK='<!-- BEGIN GENERATED BY utils/build_corpus.sh -->'
END_MARK='<!-- END GENERATED BY utils/build_corpus.sh -->'
gen=$WORK/generated.md
{
    echo "$BEGIN_MARK"
    echo
    echo "Generated by \`utils/build_corpus.sh\`; do not edit this section by hand."
    echo "Tools: $("$CLANG22" --version | head -n1); $("$CLANG15" --version | head -n1);"
    echo "$("$LLVM_SPIRV15" --version 2>&1 | grep -m1 -i version | sed 's/^ *//'); SPIRV-Tools \`$("$SPIRV_VAL" --version | head -n1)\`."
    echo
    echo "${#kernels[@]} kernels, $nbuilt modules. *dis*: \`spirv-dis\` reads the module"
    echo "(core-only, i.e. every opcode is known to SPIRV-Tools); *val*: \`spirv-val\` with"
    echo "default options accepts it. Each cell covers the O0 and O2 builds of that producer"
    echo "(\`O0/O2\`); '-' = producer not used for the kernel. *imports*: builds that keep"
    echo "unresolved imported functions (see below). *Intel opcodes*: counts in the llc22 O2"
    echo "module (spirv15 O2 if the kernel is spirv15-only)."
    echo
    echo "| kernel | class | producers | llc22 dis | llc22 val | spirv15 dis | spirv15 val | imports | Intel opcodes (O2) | exercises |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    for name in "${kernels[@]}"; do
        row="| \`$name\` | ${KCLASS[$name]} | ${KPROD[$name]//,/, }"
        for prod in llc22 spirv15; do
            d=""; v=""
            case ",${KPROD[$name]}," in
                *",$prod,"*)
                    for opt in O0 O2; do
                        b=$name.$prod.$opt
                        if [ -n "${DIS[$b]+x}" ]; then
                            d+="${d:+/}${DIS[$b]}"; v+="${v:+/}${VAL[$b]}"
                        else
                            d+="${d:+/}skip"; v+="${v:+/}skip"
                        fi
                    done ;;
            esac
            row+=" | ${d:--} | ${v:--}"
        done
        imp=""
        for b in "$name".llc22.O0 "$name".llc22.O2 "$name".spirv15.O0 "$name".spirv15.O2; do
            if [ -n "${IMPORTS[$b]-}" ]; then imp+="${imp:+, }${b#"$name".}"; fi
        done
        row+=" | ${imp:--}"
        ops=${OPS[$name.llc22.O2]-}
        [ -n "${OPS[$name.llc22.O2]+x}" ] || ops=${OPS[$name.spirv15.O2]-}
        row+=" | ${ops:--} | ${KDESC[$name]//|/\\|} |"
        echo "$row"
    done
    echo
    echo "### Skipped builds"
    echo
    if [ ${#skipped[@]} -eq 0 ]; then
        echo "None."
    else
        echo "Left out on purpose via \`skip=\` in the kernel header (reason in the kernel comment):"
        printf -- '- `%s`\n' "${skipped[@]}"
    fi
    echo
    echo "### Unresolved imported functions"
    echo
    if [ "$nimp" -eq 0 ]; then
        echo "None."
    else
        echo "$nimp modules declare functions with \`LinkageAttributes ... Import\`: built-in"
        echo "calls the producer did not lower, which a driver resolves by name. xmx-val and"
        echo "xmx-run resolve the built-ins of our instructions (source/builtins: the 2D block,"
        echo "matrix and Intel subgroup built-ins and their \`__spirv_\` forms) and a few OpenCL"
        echo "ones (atomics, \`sub_group_barrier\`, \`__to_global\`, ...); others need linking."
        echo
        echo "| module | imported functions |"
        echo "|---|---|"
        for spv in "$WORK"/spv/*.spv; do
            b=$(basename "$spv" .spv)
            [ -n "${IMPORTS[$b]}" ] || continue
            echo "| \`$b\` | \`${IMPORTS[$b]// /\`, \`}\` |"
        done
    fi
    echo
    echo "### spirv-val rejections"
    echo
    if [ "$nval_fail" -eq 0 ]; then
        echo "None."
    else
        echo "$nval_fail of $nbuilt modules are rejected by \`spirv-val\` (first message shown)."
        echo "Modules that \`spirv-dis\` cannot read fail validation for the same reason"
        echo "(unknown opcode/capability) and are marked *unknown to SPIRV-Tools*."
        echo
        echo "| module | spirv-dis | first spirv-val message |"
        echo "|---|---|---|"
        for spv in "$WORK"/spv/*.spv; do
            b=$(basename "$spv" .spv)
            [ "${VAL[$b]}" = fail ] || continue
            if [ "${DIS[$b]}" = yes ]; then
                echo "| \`$b\` | yes | ${VALMSG[$b]} |"
            else
                echo "| \`$b\` | no (unknown to SPIRV-Tools) | ${VALMSG[$b]} |"
            fi
        done
    fi
    echo
    echo "$END_MARK"
} >"$gen"

if [ -f "$README" ] && grep -qF "$BEGIN_MARK" "$README" && grep -qF "$END_MARK" "$README"; then
    awk -v gen="$gen" -v b="$BEGIN_MARK" -v e="$END_MARK" '
        $0 == b { while ((getline l < gen) > 0) print l; skip = 1; next }
        $0 == e { skip = 0; next }
        !skip' "$README" >"$WORK/README.new"
    cat "$WORK/README.new" >"$README"
else
    { echo "# SPIR-V corpus"; echo; cat "$gen"; } >"$README"
fi

# ---------------------------------------------------------------------------
size=$(cat "$OUT_DIR"/*.spv | wc -c)
echo
echo "build_corpus: summary"
echo "  kernels:                ${#kernels[@]}"
echo "  modules written:        $nbuilt (llc22: $(ls "$OUT_DIR"/*.llc22.*.spv | wc -l), spirv15: $(ls "$OUT_DIR"/*.spirv15.*.spv 2>/dev/null | wc -l))"
echo "  skipped on purpose:     ${#skipped[@]}${skipped[*]:+ (${skipped[*]})}"
echo "  with 2D-block/matrix opcodes: $next"
echo "  not readable by spirv-dis:    $ndis_fail"
echo "  rejected by spirv-val:        $nval_fail"
echo "  with unresolved imported functions: $nimp"
echo "  total size of the modules: $((size / 1024)) KiB"
