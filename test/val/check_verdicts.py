#!/usr/bin/env python3
"""Checks xmx-val's verdict on each module an expect.json lists.

usage: check_verdicts.py XMX_VAL DIR

DIR/expect.json: {"modules": [{"file": "x.spv", "args": [...], "exit": 0 or 1,
"rules": {"rule.id": "error" | "warning", ...}, "only": true}]}. Each module is validated with
`xmx-val --format json ARGS DIR/FILE`; the exit code must be `exit`, every listed rule must be
reported at its severity, and with "only" no other error or warning may be reported (remarks
are allowed). A run that dies by a signal or gives no JSON fails. Exits 1 if any module fails.
"""
import json
import pathlib
import subprocess
import sys


def check(xmx_val, directory, entry):
    cmd = [xmx_val, "--format", "json"] + entry.get("args", []) + [str(directory / entry["file"])]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode < 0:
        return ["killed by signal %d" % -proc.returncode]
    problems = []
    if proc.returncode != entry["exit"]:
        problems.append("exit %d, expected %d" % (proc.returncode, entry["exit"]))
    try:
        diagnostics = json.loads(proc.stdout)["diagnostics"]
    except (ValueError, KeyError) as exc:
        return problems + ["no JSON report (%s): %s" % (exc, proc.stderr.strip()[:300])]
    seen = {(d.get("rule"), d.get("severity")) for d in diagnostics}
    for rule, severity in entry.get("rules", {}).items():
        if (rule, severity) not in seen:
            problems.append("no %s %s" % (severity, rule))
    if entry.get("only"):
        for d in diagnostics:
            if d.get("severity") in ("error", "warning") and \
                    entry.get("rules", {}).get(d.get("rule")) != d.get("severity"):
                problems.append("unexpected %s %s: %s" % (d.get("severity"), d.get("rule"),
                                                          d.get("message", "")[:200]))
    return problems


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    xmx_val, directory = sys.argv[1], pathlib.Path(sys.argv[2])
    entries = json.loads((directory / "expect.json").read_text())["modules"]
    listed = {e["file"] for e in entries}
    unlisted = sorted(p.name for p in directory.glob("*.spv") if p.name not in listed)
    failed = 0
    for name in unlisted:
        print("FAIL %s: not in expect.json" % name)
        failed += 1
    for entry in entries:
        problems = check(xmx_val, directory, entry)
        if problems:
            failed += 1
            for p in problems[:4]:
                print("FAIL %s %s: %s" % (entry["file"], " ".join(entry.get("args", [])), p))
    print("%d of %d modules give the expected verdict" % (len(entries) - failed + len(unlisted),
                                                         len(entries)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
