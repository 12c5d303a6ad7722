#!/usr/bin/env python3
"""The device-independent cooperative-matrix rules (coop.*) of xmx-val, one invalid module each.

  check_coop_rules.py --xmx-val X --xmx-as A --invalid-dir I --spv-dir D --registry R

Every .spvasm under I names, on a "; rule: ID" line, the rule it must break. It is assembled by
xmx-as and validated with `xmx-val --format json`: the exit code must be 1 and an error of that
rule must be reported on an instruction. Every .spv under D (valid modules llc-22 made) must get
no coop.* diagnostic at all (the per-device coop.device.* rules are not these). Every rule id
of the registry R's `coop` table (source/common/rule_ids.def) must be the rule of at least one
module under I, so that no rule goes untested.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def diagnostics(xmx_val, path):
    code, out, err = run([xmx_val, "--format", "json", path])
    try:
        report = json.loads(out.strip().splitlines()[0])
    except (ValueError, IndexError):
        return code, None, out + err
    return code, report["diagnostics"], out + err


def ours(rule):
    return rule.startswith("coop.") and not rule.startswith("coop.device.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xmx-val", required=True)
    ap.add_argument("--xmx-as", required=True)
    ap.add_argument("--invalid-dir", required=True)
    ap.add_argument("--spv-dir", required=True)
    ap.add_argument("--registry", required=True)
    args = ap.parse_args()

    failures = []
    declared = set()
    with open(args.registry) as f:
        declared.update(re.findall(r'XMX_RULE\(\s*\w+,\s*"(coop\.[a-z0-9.-]+)",\s*coop,', f.read()))
    if not declared:
        failures.append("%s lists no rule of the coop table" % args.registry)

    covered = set()
    invalid = sorted(f for f in os.listdir(args.invalid_dir) if f.endswith(".spvasm"))
    with tempfile.TemporaryDirectory() as tmp:
        for name in invalid:
            path = os.path.join(args.invalid_dir, name)
            with open(path) as f:
                rules = [l.split(":", 1)[1].strip() for l in f if l.startswith("; rule:")]
            if len(rules) != 1:
                failures.append("%s: needs exactly one '; rule:' line" % name)
                continue
            rule = rules[0]
            spv = os.path.join(tmp, name + ".spv")
            code, out, err = run([args.xmx_as, path, "-o", spv])
            if code != 0:
                failures.append("%s: xmx-as failed\n%s%s" % (name, out, err))
                continue
            code, diags, text = diagnostics(args.xmx_val, spv)
            if diags is None:
                failures.append("%s: no JSON report (exit %d)\n%s" % (name, code, text))
                continue
            hits = [d for d in diags if d.get("rule") == rule and d.get("severity") == "error"]
            if code != 1 or not hits:
                failures.append("%s: exit %d, expected 1 with an error of rule %s\n%s" %
                                (name, code, rule, text))
                continue
            if any("instruction_index" not in d or not d.get("instruction") for d in hits):
                failures.append("%s: an error of %s names no instruction\n%s" % (name, rule, text))
                continue
            covered.add(rule)

    modules = sorted(f for f in os.listdir(args.spv_dir) if f.endswith(".spv"))
    for name in modules:
        code, diags, text = diagnostics(args.xmx_val, os.path.join(args.spv_dir, name))
        if diags is None:
            failures.append("%s: no JSON report (exit %d)\n%s" % (name, code, text))
            continue
        bad = [d for d in diags if ours(d.get("rule", ""))]
        if bad:
            failures.append("%s: a valid module drew coop.* diagnostics\n%s" % (name, text))

    for rule in sorted(declared - covered):
        failures.append("rule %s has no passing invalid module under %s" % (rule, args.invalid_dir))

    for f in failures:
        print("FAIL " + f)
    print("check_coop_rules: %d rules, %d invalid modules, %d valid modules, %d failures" %
          (len(declared), len(invalid), len(modules), len(failures)))
    if not declared or not invalid or not modules:
        print("check_coop_rules: nothing to check")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
