#!/usr/bin/env python3
"""Proof by execution of one xmx-opt pass on one module.

usage: check_pass.py --opt XMX_OPT --val XMX_VAL --run XMX_RUN --dis XMX_DIS
                     --pass FLAG --device DEVICE [--input-device DEVICE]
                     [--opt-args "ARGS"] [--val-args "ARGS"]
                     --module IN.spv --launch RUN.json --out DIR
                     [--expect OPCODE:COUNT=N ...] [--expect-absent OPCODE ...]
                     [--expect-unchanged] [--no-run]

1. `XMX_OPT --device INPUT_DEVICE FLAG IN.spv -o DIR/out.spv` must succeed (FLAG is the whole
   pass flag, e.g. --fuse-2d-block-loads=pvc; xmx-opt validates input and output on
   INPUT_DEVICE, which is --input-device when given, else --device; --opt-args replaces
   `--device INPUT_DEVICE`, e.g. with a --device-profile).
2. `XMX_VAL --device DEVICE DIR/out.spv` must accept the output (--val-args replaces
   `--device DEVICE`).
3. Unless --no-run: the launch (a run description in the format of `xmx-run --run`, without
   "module", dumps named by bare file names) runs on the input and on the output with
   `--check error` and `--mma-fp exact` semantics (xmx-run's default), the input on
   --input-device (when given) and the output on --device; every dumped buffer must be
   byte-identical, and neither run may report undefined behaviour. The executed instruction counts of both runs
   are printed.
4. --expect OPCODE:COUNT=N: the output holds exactly N instructions OPCODE (a 2D block opcode
   name) whose Block Count is COUNT; --expect OPCODE=N counts them all. --expect-absent OPCODE:
   none left. --expect-unchanged: the output is the input, byte for byte.
Exit status 0 when everything holds, 1 otherwise (with the reason on standard error).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

TIMEOUT = 600


def fail(message):
    print("error: " + message, file=sys.stderr)
    sys.exit(1)


def run(cmd, what):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        fail("%s failed (exit %d): %s\n%s%s" % (what, proc.returncode, " ".join(cmd),
                                                 proc.stdout, proc.stderr))
    return proc


def instruction_counts(dis, module):
    """{(opcode name, block count or None): number} over the module's instructions."""
    text = run([dis, "--raw-id", module], "xmx-dis").stdout
    constants = {}
    for m in re.finditer(r"^\s*(%\d+) = OpConstant %\d+ (\d+)\s*$", text, re.M):
        constants[m.group(1)] = int(m.group(2))
    counts = {}
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        opcode_index = 2 if len(words) > 2 and words[1] == "=" else 0
        opcode = words[opcode_index]
        counts[(opcode, None)] = counts.get((opcode, None), 0) + 1
        if opcode.startswith("OpSubgroup2DBlock") and len(words) > opcode_index + 4:
            block_count = constants.get(words[opcode_index + 4])
            key = (opcode, block_count)
            counts[key] = counts.get(key, 0) + 1
    return counts


def launch(xmx_run, module, device, spec, spec_dir, out_dir):
    """Runs the launch on `module`; returns {dump file name: bytes} and the instruction count."""
    os.makedirs(out_dir, exist_ok=True)
    args = []
    for arg in spec.get("args", []):
        if arg.startswith("buffer:file="):
            path = arg[len("buffer:file="):]
            arg = "buffer:file=" + (path if os.path.isabs(path) else os.path.join(spec_dir, path))
        args.append(arg)
    cmd = [xmx_run, module, "--kernel", spec["kernel"], "--check", "error", "--stats",
           "--global", ",".join(str(v) for v in spec["global"]),
           "--local", ",".join(str(v) for v in spec["local"])]
    if "subgroup_size" in spec:
        cmd += ["--subgroup-size", str(spec["subgroup_size"])]
    cmd += ["--device", device]
    if args:
        cmd += ["--arg"] + args
    dumps = {}
    for index, name in spec.get("dump", {}).items():
        path = os.path.join(out_dir, name)
        if os.path.exists(path):
            os.remove(path)
        dumps[name] = path
        cmd += ["--dump", "%s=%s" % (index, path)]
    proc = run(cmd, "xmx-run")
    match = re.search(r"^instructions: (\d+)$", proc.stdout + proc.stderr, re.M)
    result = {}
    for name, path in dumps.items():
        with open(path, "rb") as f:
            result[name] = f.read()
    return result, match.group(1) if match else "?"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for tool in ("opt", "val", "run", "dis"):
        p.add_argument("--" + tool, required=True)
    p.add_argument("--pass", dest="pass_flag", required=True)
    p.add_argument("--device", required=True)
    p.add_argument("--input-device", help="device the input runs on (default: --device)")
    p.add_argument("--opt-args", help="xmx-opt's options instead of --device INPUT_DEVICE")
    p.add_argument("--val-args", help="xmx-val's options instead of --device DEVICE")
    p.add_argument("--module", required=True)
    p.add_argument("--launch")
    p.add_argument("--out", required=True)
    p.add_argument("--expect", action="append", default=[])
    p.add_argument("--expect-absent", action="append", default=[])
    p.add_argument("--expect-unchanged", action="store_true")
    p.add_argument("--no-run", action="store_true")
    a = p.parse_args()

    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    output = os.path.join(a.out, "out.spv")
    opt_args = a.opt_args.split() if a.opt_args else ["--device", a.input_device or a.device]
    run([a.opt] + opt_args + [a.pass_flag, a.module, "-o", output], "the pass")
    val_args = a.val_args.split() if a.val_args else ["--device", a.device]
    run([a.val] + val_args + [output], "xmx-val on the output")

    with open(a.module, "rb") as f:
        before_bytes = f.read()
    with open(output, "rb") as f:
        after_bytes = f.read()
    if a.expect_unchanged and before_bytes != after_bytes:
        fail("the pass changed the module; expected it to leave it as it was")

    counts = instruction_counts(a.dis, output)
    for expectation in a.expect:
        m = re.fullmatch(r"(Op\w+)(?::(\d+))?=(\d+)", expectation)
        if not m:
            fail("bad --expect %r" % expectation)
        key = (m.group(1), int(m.group(2)) if m.group(2) else None)
        if counts.get(key, 0) != int(m.group(3)):
            fail("expected %s instructions %s%s in the output, found %d" %
                 (m.group(3), m.group(1), " with Block Count " + m.group(2) if m.group(2) else "",
                  counts.get(key, 0)))
    for opcode in a.expect_absent:
        if counts.get((opcode, None), 0) != 0:
            fail("%d instructions %s are left in the output" % (counts[(opcode, None)], opcode))

    if a.no_run:
        return
    with open(a.launch) as f:
        spec = json.load(f)
    spec_dir = os.path.dirname(os.path.abspath(a.launch))
    before, before_count = launch(a.run, a.module, a.input_device or a.device, spec, spec_dir, os.path.join(a.out, "before"))
    after, after_count = launch(a.run, output, a.device, spec, spec_dir, os.path.join(a.out, "after"))
    for name in before:
        if before[name] != after[name]:
            diff = [i for i in range(min(len(before[name]), len(after[name])))
                    if before[name][i] != after[name][i]]
            fail("dump %s differs after the pass: %d bytes, first at offsets %s" %
                 (name, len(diff), diff[:8]))
    print("identical dumps (%s); executed instructions: %s before, %s after" %
          (", ".join(sorted(before)), before_count, after_count))


if __name__ == "__main__":
    main()
