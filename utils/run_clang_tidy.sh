#!/usr/bin/env bash
# clang-tidy over the project's own C++ (source/, test/, fuzz/, bench/) with the checks of
# .clang-tidy, every warning an error: utils/run_clang_tidy.sh BUILD_DIR [file regex...]
# BUILD_DIR needs compile_commands.json (the top CMakeLists.txt always writes it). Generated
# files under the build directory are not ours to tidy and are left out.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:?usage: $0 BUILD_DIR [file regex...]}" && pwd)
shift
if [[ ! -f $build/compile_commands.json ]]; then
  echo "error: $build/compile_commands.json not found: configure the build first" >&2
  exit 2
fi
runner=$(command -v run-clang-tidy-14 || command -v run-clang-tidy || true)
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
if [[ -z $runner || -z $tidy ]]; then
  echo "error: clang-tidy not found: install the Debian package 'clang-tidy'" >&2
  exit 2
fi
(($#)) || set -- "^$root/(source|test|fuzz|bench)/.*\\.(cpp|cc)\$"
# A file compiled into several targets (the fuzzers' and the layers' copies) has one entry per
# target in compile_commands.json, and run-clang-tidy would check it once per entry: keep the
# first entry of each file, in a database of its own.
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
python3 - "$build/compile_commands.json" "$db/compile_commands.json" <<'PY'
import json, sys
seen, kept = set(), []
for entry in json.load(open(sys.argv[1])):
    if entry["file"] not in seen:
        seen.add(entry["file"])
        kept.append(entry)
json.dump(kept, open(sys.argv[2], "w"))
PY
# run-clang-tidy prints each file's findings and exits non-zero when any clang-tidy run failed;
# .clang-tidy makes every enabled check an error, so a finding fails the run.
"$runner" -quiet -clang-tidy-binary "$tidy" -p "$db" -j "$(nproc)" "$@"
