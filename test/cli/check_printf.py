#!/usr/bin/env python3
"""printf output of xmx-run against PoCL running the OpenCL C source.

usage: check_printf.py XMX_RUN POCL_RUN SOURCE.cl WORKDIR MODULE...

Runs the corpus kernel printf_formats (in, f) at 64 work-groups of one work-item, so that the
order of the lines is defined (work-group by work-group), on PoCL with one thread and on xmx-run
for each MODULE, and compares the output line by line. PoCL 3.1 cannot format OpenCL's vector
conversions (%v4d, %v2hlf: it prints "printf format string error"); those lines are checked
against their rendering here instead (Python's %d and %f format as C's do)."""
import os
import pathlib
import random
import struct
import subprocess
import sys

ITEMS = 64


def write_inputs(work):
    rng = random.Random(20261125)
    ints = [rng.randint(-100000, 100000) for _ in range(ITEMS)]
    floats = [rng.uniform(-1000.0, 1000.0) for _ in range(ITEMS)]
    (work / "in.bin").write_bytes(struct.pack("<%di" % ITEMS, *ints))
    (work / "f.bin").write_bytes(struct.pack("<%df" % ITEMS, *floats))
    # The kernel sees the floats rounded to fp32.
    return ints, list(struct.unpack("<%df" % ITEMS, (work / "f.bin").read_bytes()))


def vector_line(v, x):
    return "vec %d,%d,%d,%d | %f,%f" % (v, v + 1, v + 2, v + 3, x, -x)


def run(command, env=None):
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300, env=env)
    if proc.returncode != 0:
        sys.exit("exit %d: %s\n%s" % (proc.returncode, " ".join(command), proc.stderr[-2000:]))
    return proc.stdout.splitlines()


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    xmx_run, pocl_run, source = sys.argv[1:4]
    work = pathlib.Path(sys.argv[4])
    modules = sys.argv[5:]
    work.mkdir(parents=True, exist_ok=True)
    ints, floats = write_inputs(work)
    args = ["--global", str(ITEMS), "--local", "1", "--arg", "buffer:file=%s" % (work / "in.bin"),
            "--arg", "buffer:file=%s" % (work / "f.bin")]
    run_file = work / "pocl.json"
    run_file.write_text(
        '{"kernel": "printf_formats", "global": [%d], "local": [1], "args": ["buffer:file=%s", '
        '"buffer:file=%s"], "dump": {}}' % (ITEMS, work / "in.bin", work / "f.bin"))
    env = dict(os.environ, POCL_MAX_PTHREAD_COUNT="1", POCL_CPU_MAX_CU_NUM="1")
    expected = run([pocl_run, "--run", str(run_file), "--source", source,
                    "--build-options=-cl-std=CL2.0"], env)
    item = None
    vector_lines = 0
    for i, line in enumerate(expected):
        if line.startswith("item "):
            item = int(line.split()[1].rstrip(":"))
        if "printf format string error" in line:
            if item is None:
                sys.exit("PoCL printed a vector line before any item line: %r" % line)
            expected[i] = vector_line(ints[item], floats[item])
            vector_lines += 1
    if len(expected) != 5 * ITEMS + 1 or vector_lines != ITEMS:
        sys.exit("PoCL printed %d lines (%d vector lines), expected %d (%d)" %
                 (len(expected), vector_lines, 5 * ITEMS + 1, ITEMS))
    for module in modules:
        got = run([xmx_run, module] + args)
        for n, (want, line) in enumerate(zip(expected, got)):
            if want != line:
                sys.exit("%s: line %d differs\n  PoCL:    %r\n  xmx-run: %r" %
                         (module, n + 1, want, line))
        if len(got) != len(expected):
            sys.exit("%s: %d lines, PoCL printed %d" % (module, len(got), len(expected)))
        print("%s: %d lines equal PoCL's" % (os.path.basename(module), len(got)))


if __name__ == "__main__":
    main()
