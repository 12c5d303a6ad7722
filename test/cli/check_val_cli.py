#!/usr/bin/env python3
"""The xmx-val command line (CLI.md): exit codes, several files, --format json, devices.

Each check prints `ok: ...` or `FAIL: ...`; the script exits 1 if any failed.
"""

import argparse
import json
import os
import subprocess
import sys


def run(cmd, stdin=None):
    p = subprocess.run(cmd, capture_output=True, timeout=120, input=stdin)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xmx-val", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--example", required=True)
    args = ap.parse_args()
    val = args.xmx_val
    valid = os.path.join(args.corpus, "ptr_arith.llc22.O2.spv")
    invalid = os.path.join(args.corpus, "printf_formats.llc22.O0.spv")
    failures = []
    checks = []

    def check(name, cond, detail=""):
        checks.append(name)
        print(("ok: " if cond else "FAIL: ") + name + ("" if cond else " -- " + detail))
        if not cond:
            failures.append(name)

    for f in (valid, invalid, args.example):
        check("input exists: " + f, os.path.exists(f))

    rc, out, err = run([val, valid])
    check("valid module: exit 0, nothing printed", rc == 0 and not out and not err, err)

    rc, out, err = run([val, invalid])
    lines = err.splitlines()
    check("invalid module: exit 1, spirv-val's format",
          rc == 1 and lines and lines[0].startswith("error: line ") and
          lines[1].startswith("  %"), err)

    rc, out, err = run([val, valid, invalid])
    check("several files: exit 1, every line names its file",
          rc == 1 and err and all(l.startswith(invalid + ": ") for l in err.splitlines()), err)

    rc, out, err = run([val, "--format", "json", valid, invalid])
    try:
        objs = [json.loads(l) for l in out.splitlines()]
        d = objs[1]["diagnostics"][0]
        ok = (rc == 1 and [o["file"] for o in objs] == [valid, invalid] and objs[0]["valid"] and
              not objs[1]["valid"] and d["rule"] == "core" and d["severity"] == "error" and
              isinstance(d["instruction_index"], int) and isinstance(d["word_offset"], int) and
              d["opcode"] == 12)
        check("--format json: one object per file with rule, place and opcode", ok, out)
    except (ValueError, KeyError, IndexError) as e:
        check("--format json parses", False, "%s: %s" % (e, out))

    with open(valid, "rb") as f:
        rc, out, err = run([val, "-"], stdin=f.read())
    check("standard input", rc == 0, err)

    rc, out, err = run([val, "--device", "pvc", args.example])
    check("example valid on pvc", rc == 0, err)
    rc, out, err = run([val, "--device", "dg2", args.example])
    check("example invalid on dg2 (no 2D block IO there)", rc == 1, err)
    # DECISIONS 12 (revised): the GEMM's plain 2D block loads and stores get no diagnostic; only
    # its LoadTransform into an int8 array (arrays/vectors of i32) is a warning.
    rc, out, err = run([val, "--format", "json", "--device", "pvc", args.example])
    try:
        kinds = {(d["severity"], d["rule"]) for d in json.loads(out)["diagnostics"]
                 if d["severity"] != "remark"}
        check("example on pvc: only LoadTransform pointee warnings (DECISIONS 12)",
              kinds == {("warning", "block2d.transform.pointee")}, out)
    except (ValueError, KeyError) as e:
        check("example on pvc: --format json parses", False, "%s: %s" % (e, out))

    for name, cmd in [("unknown option", [val, "--no-such-option", valid]),
                      ("unknown device", [val, "--device", "no-such-gpu", valid]),
                      ("missing file", [val, "/nonexistent/module.spv"]),
                      ("bad target env", [val, "--target-env", "vulkan9", valid]),
                      ("device and profile together",
                       [val, "--device", "pvc", "--device-profile", "x.json", valid])]:
        rc, out, err = run(cmd)
        check("usage error exits 2: " + name, rc == 2, "exit %d: %s" % (rc, err))

    rc, out, err = run([val, "--version"])
    check("--version names SPIRV-Tools", rc == 0 and "SPIRV-Tools" in out, out + err)

    print("xmx-val cli: %d checks, %d failed" % (len(checks), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
