#!/usr/bin/env python3
"""usage: check_layers.py BUILD_DIR SOURCE_DIR

The build enforces the layers of ARCHITECTURE.md: compiled with the flags the build gives a file
of layer L, `#include "H/..."` must fail for every layer H that L may not use, and succeed for
the layers L is drawn on top of. The flags come from BUILD_DIR/compile_commands.json; the graph
below is written from ARCHITECTURE.md, not read from the build."""
import json
import os
import shlex
import subprocess
import sys
import tempfile

# Each layer and the layers directly below it that it may use (a layer may also use what those
# use). The tools (source/tools) may use none: only include/xmx/.
DIRECT = {
    "common": [],
    "grammar": ["common"],
    "binary": ["grammar"],
    "ir": ["binary"],
    "text": ["binary"],
    "device": ["grammar"],
    "bridge": ["ir"],
    "builtins": ["ir", "device"],
    "val": ["bridge", "builtins", "text"],
    "opt": ["val"],
    "interp": ["val"],
    "tools": [],
}


def below(layer):
    seen = set()
    todo = list(DIRECT[layer])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(DIRECT[name])
    return seen


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build, source = sys.argv[1], sys.argv[2]
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = json.load(f)
    # One compile command per layer: a file of source/<layer>/ built into that layer's library
    # (the fuzzers' instrumented copy sees every layer on purpose).
    target_of = {layer: "xmx_%s.dir" % layer for layer in DIRECT}
    target_of["tools"] = "xmx_tool_common.dir"
    flags = {}
    for entry in commands:
        rel = os.path.relpath(entry["file"], source)
        parts = rel.split(os.sep)
        if len(parts) < 3 or parts[0] != "source" or parts[1] not in DIRECT:
            continue
        layer = parts[1]
        if layer in flags or target_of[layer] not in entry["command"]:
            continue
        args = shlex.split(entry["command"])
        if os.path.basename(args[0]) == "ccache":
            args = args[1:]
        kept, skip = [], False
        for arg in args:
            if skip:
                skip = False
                continue
            if arg in ("-o", "-MF", "-MT", "-c"):
                skip = True
                continue
            if arg == "-MD" or arg == entry["file"]:
                continue
            kept.append(arg)
        flags[layer] = (kept, entry["directory"])
    # A header of each layer.
    headers = {}
    for layer in DIRECT:
        root = os.path.join(source, "source", layer)
        found = sorted(os.path.relpath(os.path.join(d, n), os.path.join(source, "source"))
                       for d, _, names in os.walk(root) for n in names if n.endswith(".hpp"))
        if found:
            headers[layer] = found[0]
    failures, checks = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for layer, (args, directory) in sorted(flags.items()):
            allowed = below(layer)
            for other, header in sorted(headers.items()):
                if other == layer:
                    continue
                must_compile = other in DIRECT[layer]
                if not must_compile and other in allowed:
                    continue  # reachable through a direct layer: allowed, not checked twice
                path = os.path.join(tmp, "%s_includes_%s.cpp" % (layer, other))
                with open(path, "w") as f:
                    f.write('#include "%s"\n' % header)
                proc = subprocess.run(args + ["-fsyntax-only", path], cwd=directory,
                                      capture_output=True, text=True)
                checks += 1
                if must_compile and proc.returncode != 0:
                    failures.append("%s may include %s, but it fails:\n%s" %
                                    (layer, header, proc.stderr[:2000]))
                elif not must_compile and proc.returncode == 0:
                    failures.append("%s must not see %s (layer %s), but it compiles" %
                                    (layer, header, other))
                elif not must_compile and "file not found" not in proc.stderr:
                    failures.append("%s including %s fails, but not for want of the header:\n%s"
                                    % (layer, header, proc.stderr[:2000]))
    missing = sorted(set(DIRECT) - set(flags) - {"common", "opt"})
    if missing:
        failures.append("no compile command for the layers %s" % ", ".join(missing))
    if failures:
        sys.exit("\n".join(failures))
    print("%d include checks over %d layers: the layering holds" % (checks, len(flags)))


if __name__ == "__main__":
    main()
