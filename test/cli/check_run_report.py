#!/usr/bin/env python3
"""Runs xmx-run once and checks its exit code and its reports.

    check_run_report.py [options] XMX_RUN EXIT_CODE RULE|none [xmx-run arguments...]

A report (CLI.md, xmx-run) is three lines on stderr:

    error: instruction N: <message> [<rule-id>]          ("warning:" with --check=warn)
      <the instruction disassembled>
      work-item global (x,y,z) local (x,y,z) group (x,y,z), subgroup S lane L
                                                    (or "work-group (x,y,z), subgroup S" for a
                                                     report about a subgroup, not one work-item)

RULE "none": the run must print no report (not even a warning) and no "error:" line. Otherwise
there must be at least one report, every report must be complete (all three lines) and have rule
RULE (or one named by --allow), its severity must match the --check mode, and --check=error must
print exactly one report of undefined behaviour. Rules `value.*` are reads of undefined values
(DECISIONS.md 16): "warning:" in every --check mode, never counted as undefined behaviour.

Options (before XMX_RUN):
  --where item|group|any   the form of the last line of the RULE reports (default: item)
  --global X,Y,Z           the first RULE report is about the work-item with this global id
  --subgroup S             the first RULE report names subgroup S (either form of the last line)
  --instruction TEXT       the instruction line of the first RULE report contains TEXT
  --message TEXT           the message of the first RULE report contains TEXT
  --allow RULE             other reports with this rule may follow (repeatable; warn mode)
  --warn-too               then run again with --check=warn appended: exit 0, and the same
                           checks on the reports (severity "warning", more reports allowed)
  --all-modes              then run again with --check=warn and with --check=off appended, with
                           the same exit code and the same checks (for `value.*` rules)

Exit status: 0 all checks pass, 1 a check failed, 2 bad usage.
"""

import argparse
import re
import subprocess
import sys

TIMEOUT_SECONDS = 120

REPORT = re.compile(r"^(error|warning): instruction (\d+): (.*) \[([a-z0-9.-]+)\]$")
WORK_ITEM = re.compile(
    r"^  work-item global \((\d+),(\d+),(\d+)\) local \((\d+),(\d+),(\d+)\) "
    r"group \((\d+),(\d+),(\d+)\), subgroup (\d+) lane (\d+)$")
WORK_GROUP = re.compile(r"^  work-group \((\d+),(\d+),(\d+)\), subgroup (\d+)$")
INSTRUCTION = re.compile(r"^  (%[^ ]+ = )?Op[A-Za-z0-9]+( .*)?$")


def check_mode(args):
    """The --check mode the xmx-run arguments ask for (default error)."""
    mode = "error"
    for i, a in enumerate(args):
        if a.startswith("--check="):
            mode = a[len("--check="):]
        elif a == "--check" and i + 1 < len(args):
            mode = args[i + 1]
    return mode


def parse_reports(lines):
    """Returns (reports, problems); a report is a dict with the three lines split up."""
    reports, problems = [], []
    i = 0
    while i < len(lines):
        m = REPORT.match(lines[i])
        if not m:
            i += 1
            continue
        r = {"severity": m.group(1), "index": int(m.group(2)), "message": m.group(3),
             "rule": m.group(4), "header": lines[i], "instruction": None, "item": None,
             "group": None}
        i += 1
        if i < len(lines) and INSTRUCTION.match(lines[i]):
            r["instruction"] = lines[i].strip()
            i += 1
        else:
            problems.append("report without an instruction line: " + r["header"])
        if i < len(lines) and WORK_ITEM.match(lines[i]):
            r["item"] = WORK_ITEM.match(lines[i]).groups()
            i += 1
        elif i < len(lines) and WORK_GROUP.match(lines[i]):
            r["group"] = WORK_GROUP.match(lines[i]).groups()
            i += 1
        else:
            problems.append("report without a work-item or work-group line: " + r["header"])
        reports.append(r)
    return reports, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--where", choices=["item", "group", "any"], default="item")
    parser.add_argument("--global", dest="global_id")
    parser.add_argument("--subgroup", type=int)
    parser.add_argument("--instruction")
    parser.add_argument("--message")
    parser.add_argument("--allow", action="append", default=[])
    parser.add_argument("--warn-too", action="store_true")
    parser.add_argument("--all-modes", action="store_true")
    parser.add_argument("xmx_run")
    parser.add_argument("exit_code", type=int)
    parser.add_argument("rule")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    opts = parser.parse_args()

    status = run_and_check(opts, opts.args, opts.exit_code)
    if status == 0 and opts.warn_too:
        status = run_and_check(opts, opts.args + ["--check=warn"], 0)
    for mode in (["warn", "off"] if opts.all_modes else []):
        if status == 0:
            status = run_and_check(opts, opts.args + ["--check=" + mode], opts.exit_code)
    return status


def is_undefined_value(rule):
    """Whether `rule` is a read of an undefined value (a warning in every mode)."""
    return rule.startswith("value.")


def run_and_check(opts, args, exit_code):
    """Runs xmx-run with `args` and checks the outcome; prints it and returns the exit status."""
    command = [opts.xmx_run] + args
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        print("FAIL: xmx-run did not finish in %d s: %s" % (TIMEOUT_SECONDS, " ".join(command)))
        return 1
    except OSError as e:
        print("error: cannot run %s: %s" % (opts.xmx_run, e), file=sys.stderr)
        return 2
    stderr = proc.stderr.decode("utf-8", "replace")
    lines = stderr.splitlines()
    failures = []

    if proc.returncode != exit_code:
        failures.append("exit code %d, expected %d" % (proc.returncode, exit_code))

    reports, problems = parse_reports(lines)
    mode = check_mode(args)
    if opts.rule == "none":
        for r in reports:
            failures.append("unexpected report: " + r["header"])
        for line in lines:
            if line.startswith("error:") and not REPORT.match(line):
                failures.append("unexpected error: " + line)
    else:
        failures.extend(problems)
        wanted = [r for r in reports if r["rule"] == opts.rule]
        if not wanted:
            failures.append("no report with rule [%s]" % opts.rule)
        for r in reports:
            if r["rule"] != opts.rule and r["rule"] not in opts.allow:
                failures.append("report with another rule: " + r["header"])
            expected_severity = ("error" if mode == "error" and not is_undefined_value(r["rule"])
                                 else "warning")
            if r["severity"] != expected_severity:
                failures.append("severity '%s' with --check=%s: %s" %
                                (r["severity"], mode, r["header"]))
        undefined_behaviour = [r for r in reports if not is_undefined_value(r["rule"])]
        if mode == "error" and len(undefined_behaviour) > 1:
            failures.append("--check=error printed %d reports of undefined behaviour, expected 1"
                            % len(undefined_behaviour))
        if wanted:
            first = wanted[0]
            if opts.where == "item" and first["item"] is None:
                failures.append("the report is not about a work-item (no 'work-item' line)")
            if opts.where == "group" and first["group"] is None:
                failures.append("the report is not about a subgroup (no 'work-group' line)")
            if opts.global_id is not None:
                expected = [int(v) for v in opts.global_id.split(",")]
                expected += [0] * (3 - len(expected))
                actual = [int(v) for v in first["item"][0:3]] if first["item"] else None
                if actual != expected:
                    failures.append("report about work-item global %s, expected %s" %
                                    (actual, expected))
            if opts.subgroup is not None:
                actual = first["item"][9] if first["item"] else (
                    first["group"][3] if first["group"] else None)
                if actual is None or int(actual) != opts.subgroup:
                    failures.append("report about subgroup %s, expected %d" %
                                    (actual, opts.subgroup))
            if opts.instruction is not None and (first["instruction"] is None or
                                                 opts.instruction not in first["instruction"]):
                failures.append("instruction line %r does not contain %r" %
                                (first["instruction"], opts.instruction))
            if opts.message is not None and opts.message not in first["message"]:
                failures.append("message %r does not contain %r" % (first["message"],
                                                                     opts.message))

    if failures:
        print("FAIL: " + " ".join(command))
        for f in failures:
            print("  " + f)
        print("--- stderr ---")
        sys.stdout.write(stderr)
        return 1
    summary = "%d report(s)" % len(reports) if reports else "no report"
    print("ok: exit %d, %s: %s" % (proc.returncode, summary, " ".join(command)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
