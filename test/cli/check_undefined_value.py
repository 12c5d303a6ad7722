#!/usr/bin/env python3
"""Checks xmx-run's reading of undefined values (DECISIONS.md 16) against models of the kernels.

    check_undefined_value.py edge XMX_RUN shuffle_edge.spv SCRATCH GLOBAL LOCAL
    check_undefined_value.py zero XMX_RUN shuffle.spv SCRATCH

edge: test/ub/src/shuffle_edge.cl at subgroup size 16 over GLOBAL work-items in work-groups of
LOCAL; the first and last lane of every subgroup read an invocation that does not exist and a
select drops the value. In each --check mode the run must exit 0, print one value.undefined-source
warning per such lane (about that work-item) and nothing else, and write the model's output.

zero: test/ub/src/shuffle.cl with limit 8, src 12 in one work-group of 32: lanes 0-7 of each
subgroup read lane 12, which did not execute the shuffle; they must get all bits zero (the
documented pattern), the other lanes their global id, with exit 0 in every mode.

Exit status: 0 all checks pass, 1 a check failed, 2 bad usage.
"""

import os
import random
import re
import struct
import subprocess
import sys

SUBGROUP = 16
TIMEOUT_SECONDS = 120
WARNING = re.compile(r"^warning: instruction \d+: (.*) \[value\.undefined-source\]$")
WORK_ITEM = re.compile(r"^  work-item global \((\d+),0,0\) ")


def subgroups(global_size, local_size):
    """(first global id, size) of every subgroup: consecutive local ids, SUBGROUP at most."""
    for group in range(0, global_size, local_size):
        items = min(local_size, global_size - group)
        for first in range(0, items, SUBGROUP):
            yield group + first, min(SUBGROUP, items - first)


def edge_model(values, global_size, local_size):
    """out[i] = right - left, each replaced by in[i] at the subgroup's edge; and the edge ids."""
    out, edges = [0] * global_size, set()
    for first, size in subgroups(global_size, local_size):
        for lane in range(size):
            i = first + lane
            right = values[i + 1] if lane + 1 < size else values[i]
            left = values[i - 1] if lane > 0 else values[i]
            out[i] = (right - left + 2**31) % 2**32 - 2**31
            if lane == 0 or lane + 1 == size:
                edges.add(i)
    return out, edges


def run(command):
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return None, "xmx-run did not finish in %d s" % TIMEOUT_SECONDS
    return proc, proc.stderr.decode("utf-8", "replace")


def warned_items(stderr, failures):
    """The global ids of the value.undefined-source warnings; anything else is a failure."""
    items, lines = [], stderr.splitlines()
    for i, line in enumerate(lines):
        if WARNING.match(line):
            m = WORK_ITEM.match(lines[i + 2]) if i + 2 < len(lines) else None
            if m is None:
                failures.append("warning without a work-item line: " + line)
            else:
                items.append(int(m.group(1)))
        elif line.startswith("error:") or (line.startswith("warning:")):
            failures.append("unexpected line: " + line)
    return items


def check_edge(xmx_run, module, scratch, global_size, local_size):
    rng = random.Random(global_size * 1000 + local_size)
    values = [rng.randint(-2**30, 2**30) for _ in range(global_size)]
    expected, edges = edge_model(values, global_size, local_size)
    os.makedirs(scratch, exist_ok=True)
    source = os.path.join(scratch, "in.bin")
    with open(source, "wb") as f:
        f.write(struct.pack("<%di" % global_size, *values))
    failures = []
    for mode in ("error", "warn", "off"):
        dump = os.path.join(scratch, "out.%s.bin" % mode)
        command = [xmx_run, module, "--global", str(global_size), "--local", str(local_size),
                   "--subgroup-size", str(SUBGROUP), "--arg", "buffer:zero:%d" % (4 * global_size),
                   "--arg", "buffer:file=" + source, "--dump", "0=" + dump, "--check=" + mode]
        proc, stderr = run(command)
        if proc is None:
            failures.append("%s: %s" % (mode, stderr))
            continue
        mode_failures = []
        if proc.returncode != 0:
            mode_failures.append("exit code %d, expected 0" % proc.returncode)
        items = warned_items(stderr, mode_failures)
        if sorted(items) != sorted(edges) or len(items) != len(set(items)):
            mode_failures.append("warnings about work-items %s, expected one about each of %s" %
                                 (sorted(items), sorted(edges)))
        if proc.returncode == 0:
            with open(dump, "rb") as f:
                data = f.read()
            actual = list(struct.unpack("<%di" % global_size, data))
            wrong = [i for i in range(global_size) if actual[i] != expected[i]]
            if wrong:
                mode_failures.append("out[%d] = %d, the model says %d (%d elements differ)" %
                                     (wrong[0], actual[wrong[0]], expected[wrong[0]], len(wrong)))
        if mode_failures:
            failures.append("--check=%s: %s\n--- stderr ---\n%s" %
                            (mode, "; ".join(mode_failures), stderr))
    return failures


def check_zero(xmx_run, module, scratch):
    os.makedirs(scratch, exist_ok=True)
    expected = [0 if (i % SUBGROUP) < 8 else i for i in range(32)]
    failures = []
    for mode in ("error", "warn", "off"):
        dump = os.path.join(scratch, "out.%s.bin" % mode)
        command = [xmx_run, module, "--global", "32", "--local", "32", "--subgroup-size",
                   str(SUBGROUP), "--arg", "buffer:fill=ab:128", "--arg", "i32:8", "--arg",
                   "i32:12", "--dump", "0=" + dump, "--check=" + mode]
        proc, stderr = run(command)
        if proc is None or proc.returncode != 0:
            failures.append("--check=%s: exit %s\n%s" %
                            (mode, None if proc is None else proc.returncode, stderr))
            continue
        with open(dump, "rb") as f:
            actual = list(struct.unpack("<32i", f.read()))
        if actual != expected:
            failures.append("--check=%s: output %s, expected %s" % (mode, actual, expected))
        if "[value.undefined-source]" not in stderr:
            failures.append("--check=%s: no value.undefined-source warning" % mode)
    return failures


def main(argv):
    if len(argv) == 7 and argv[1] == "edge":
        failures = check_edge(argv[2], argv[3], argv[4], int(argv[5]), int(argv[6]))
    elif len(argv) == 5 and argv[1] == "zero":
        failures = check_zero(argv[2], argv[3], argv[4])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("ok: %s" % " ".join(argv[1:]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
