#!/usr/bin/env python3
"""xmx-val on the cooperative-matrix modules of test/coop (issue 10).

  check_coop_val.py --xmx-val X --xmx-as A --xmx-dis S --spv-dir D --invalid-dir I
                    [--min-mutated N]

Every .spv under D must be accepted (exit 0, no "error:" line): llc-22 made them, and they were
rejected before the grammar knew the prefetch shape, SPV_KHR_bfloat16 and SPV_INTEL_int4. Each
must also get core validation by SPIRV-Tools: no `bridge.lift` or `core.precondition` diagnostic
(read from --format json). To show that core validation really runs, every module with a
cooperative-matrix store is also checked with the store's pointer replaced by an undefined id
(xmx-dis, edit, xmx-as): it must be rejected with SPIRV-Tools' error on that store; at least
--min-mutated modules must have been mutated. Every .spvasm under I is assembled by xmx-as and must
be rejected (exit 1) with the text of its "; expect: ..." line.
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


# The user's id in a store that Lift turns into a call: SPIRV-Tools must report it undefined.
UNDEFINED = "%bridge_undefined_pointer"


def skipped_core(out):
    """The rules that say core validation did not run, from xmx-val --format json output."""
    rules = []
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        for d in json.loads(line).get("diagnostics", []):
            if d.get("rule") in ("bridge.lift", "core.precondition"):
                rules.append("%s: %s" % (d["rule"], d.get("message", "")))
    return rules


def mutate_store(text):
    """Replaces the pointer of the first cooperative-matrix store; None when there is none."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        words = line.split()
        if words and words[0].startswith("OpCooperativeMatrixStore") and len(words) > 1:
            words[1] = UNDEFINED
            lines[i] = "               " + " ".join(words)
            return "\n".join(lines) + "\n"
    return None


def check_mutated(args, name, tmp):
    """None when the module has no matrix store, else a failure message or ''."""
    code, text = run([args.xmx_dis, os.path.join(args.spv_dir, name)])
    if code != 0:
        return "%s: xmx-dis failed\n%s" % (name, text)
    mutated = mutate_store(text)
    if mutated is None:
        return None
    src = os.path.join(tmp, name + ".mutated.spvasm")
    spv = os.path.join(tmp, name + ".mutated.spv")
    with open(src, "w") as f:
        f.write(mutated)
    code, out = run([args.xmx_as, src, "-o", spv])
    if code != 0:
        return "%s (mutated): xmx-as failed\n%s" % (name, out)
    code, out = run([args.xmx_val, "--format", "json", spv])
    found = False
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        for d in json.loads(line).get("diagnostics", []):
            found |= (d.get("rule") == "core" and d.get("severity") == "error" and
                      "has not been defined" in d.get("message", "") and
                      d.get("instruction", "").find("OpCooperativeMatrixStore") >= 0)
    if code != 1 or not found:
        return ("%s (store pointer undefined): exit %d, expected 1 with SPIRV-Tools' "
                "'has not been defined' on the store\n%s" % (name, code, out))
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xmx-val", required=True)
    ap.add_argument("--xmx-as", required=True)
    ap.add_argument("--spv-dir", required=True)
    ap.add_argument("--invalid-dir", required=True)
    ap.add_argument("--xmx-dis", required=True)
    ap.add_argument("--min-mutated", type=int, default=1)
    args = ap.parse_args()

    failures = []
    modules = sorted(f for f in os.listdir(args.spv_dir) if f.endswith(".spv"))
    mutated = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in modules:
            path = os.path.join(args.spv_dir, name)
            code, out = run([args.xmx_val, path])
            if code != 0 or "error:" in out:
                failures.append("%s: exit %d\n%s" % (name, code, out))
                continue
            code, out = run([args.xmx_val, "--format", "json", path])
            skipped = skipped_core(out)
            if skipped:
                failures.append("%s: core validation did not run: %s" % (name, "; ".join(skipped)))
            problem = check_mutated(args, name, tmp)
            if problem is not None:
                mutated += 1
                if problem:
                    failures.append(problem)

    invalid = sorted(f for f in os.listdir(args.invalid_dir) if f.endswith(".spvasm"))
    with tempfile.TemporaryDirectory() as tmp:
        for name in invalid:
            path = os.path.join(args.invalid_dir, name)
            with open(path) as f:
                expect = [l.split("expect:", 1)[1].strip() for l in f if l.startswith("; expect:")]
            if len(expect) != 1:
                failures.append("%s: needs exactly one '; expect:' line" % name)
                continue
            spv = os.path.join(tmp, name + ".spv")
            code, out = run([args.xmx_as, path, "-o", spv])
            if code != 0:
                failures.append("%s: xmx-as failed\n%s" % (name, out))
                continue
            code, out = run([args.xmx_val, spv])
            if code != 1 or expect[0] not in out:
                failures.append("%s: exit %d (expected 1 with %r)\n%s" %
                                (name, code, expect[0], out))

    for f in failures:
        print("FAIL " + f)
    print("check_coop_val: %d modules (%d mutated), %d invalid inputs, %d failures" %
          (len(modules), mutated, len(invalid), len(failures)))
    if not modules or not invalid or mutated < args.min_mutated:
        print("check_coop_val: nothing to check")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
