#!/usr/bin/env python3
"""xmx-val on the cooperative-matrix modules of test/coop (issue 10).

  check_coop_val.py --xmx-val X --xmx-as A --spv-dir D --invalid-dir I [--core-validated PREFIX]...

Every .spv under D must be accepted (exit 0, no "error:" line): llc-22 made them, and they were
rejected before the grammar knew the prefetch shape, SPV_KHR_bfloat16 and SPV_INTEL_int4. A
`bridge.lift` warning is allowed (SPIRV-Tools cannot hold cooperative-matrix or 4-bit types yet),
except for modules whose name starts with a --core-validated prefix: those must get no warning at
all, i.e. SPIRV-Tools validated them. Every .spvasm under I is assembled by xmx-as and must be
rejected (exit 1) with the text of its "; expect: ..." line.
"""
import argparse
import os
import subprocess
import sys
import tempfile


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xmx-val", required=True)
    ap.add_argument("--xmx-as", required=True)
    ap.add_argument("--spv-dir", required=True)
    ap.add_argument("--invalid-dir", required=True)
    ap.add_argument("--core-validated", action="append", default=[])
    args = ap.parse_args()

    failures = []
    modules = sorted(f for f in os.listdir(args.spv_dir) if f.endswith(".spv"))
    clean = 0
    for name in modules:
        code, out = run([args.xmx_val, os.path.join(args.spv_dir, name)])
        if code != 0 or "error:" in out:
            failures.append("%s: exit %d\n%s" % (name, code, out))
        elif any(name.startswith(p) for p in args.core_validated):
            if "warning:" in out:
                failures.append("%s: expected core validation, got\n%s" % (name, out))
            else:
                clean += 1

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
    print("check_coop_val: %d modules (%d core-validated), %d invalid inputs, %d failures" %
          (len(modules), clean, len(invalid), len(failures)))
    if not modules or not invalid or (args.core_validated and clean == 0):
        print("check_coop_val: nothing to check")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
