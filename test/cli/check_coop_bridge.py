#!/usr/bin/env python3
"""xmx-val on hand-written cooperative-matrix modules through the bridge (issue 10).

  check_coop_bridge.py --xmx-val X --xmx-as A DIR

Every .spvasm under DIR is assembled by xmx-as and validated with `xmx-val --format json`. None
may get `bridge.lift` or `core.precondition` (core validation by SPIRV-Tools must run). The
module's "; expect:" lines say what else must hold:
  ; expect: valid                              exit 0, no error
  ; expect: RULE | MESSAGE | INSTRUCTION        exit 1 and an error of RULE whose message holds
                                               MESSAGE, on an instruction whose text holds
                                               INSTRUCTION (the user's instruction, not the
                                               lifted one)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def diagnostics(out):
    found = []
    for line in out.splitlines():
        if line.startswith("{"):
            found.extend(json.loads(line).get("diagnostics", []))
    return found


def check(args, path, tmp):
    name = os.path.basename(path)
    with open(path) as f:
        expects = [l.split("expect:", 1)[1].strip() for l in f if l.startswith("; expect:")]
    if not expects:
        return ["%s: no '; expect:' line" % name]
    spv = os.path.join(tmp, name + ".spv")
    code, out = run([args.xmx_as, path, "-o", spv])
    if code != 0:
        return ["%s: xmx-as failed\n%s" % (name, out)]
    code, out = run([args.xmx_val, "--format", "json", spv])
    diags = diagnostics(out)
    failures = []
    for d in diags:
        if d.get("rule") in ("bridge.lift", "core.precondition"):
            failures.append("%s: core validation did not run: %s" % (name, d))
    errors = [d for d in diags if d.get("severity") == "error"]
    if expects == ["valid"]:
        if code != 0 or errors:
            failures.append("%s: exit %d, expected valid\n%s" % (name, code, out))
        return failures
    if code != 1:
        failures.append("%s: exit %d, expected 1\n%s" % (name, code, out))
    for expect in expects:
        parts = [p.strip() for p in expect.split("|")]
        if len(parts) != 3:
            failures.append("%s: bad expect line %r" % (name, expect))
            continue
        rule, message, instruction = parts
        if not any(d.get("rule") == rule and message in d.get("message", "") and
                   instruction in d.get("instruction", "") for d in errors):
            failures.append("%s: no %s error with %r on an instruction with %r\n%s" %
                            (name, rule, message, instruction, out))
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xmx-val", required=True)
    ap.add_argument("--xmx-as", required=True)
    ap.add_argument("dir")
    args = ap.parse_args()
    modules = sorted(f for f in os.listdir(args.dir) if f.endswith(".spvasm"))
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in modules:
            failures.extend(check(args, os.path.join(args.dir, name), tmp))
    for f in failures:
        print("FAIL " + f)
    print("check_coop_bridge: %d modules, %d failures" % (len(modules), len(failures)))
    if not modules:
        print("check_coop_bridge: nothing to check")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
