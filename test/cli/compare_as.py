#!/usr/bin/env python3
"""Compares xmx-as with the installed spirv-as, byte for byte.

Inputs:
  * every .spv under --spv-dir: disassembled by spirv-dis (default options and --raw-id), then
    assembled by both tools;
  * every .spvasm directly under --as-dir: assembled by both tools with the default options,
    --preserve-numeric-ids and every --target-env; where spirv-as rejects the text, xmx-as must
    reject it too, with the same message at the same line and column;
  * every .spvasm under --as-dir/bad: both tools must reject it with the same diagnostic.
  * with --xmx-dis, every .spv that spirv-dis cannot read (extended opcodes): xmx-dis --raw-id,
    then xmx-as --preserve-numeric-ids must give back the module (header generator word aside).
Fails listing each difference (first differing word offset); a run that compares nothing fails.

With --expect-exit CODE, runs the command after "--" instead and checks its exit code and that
its standard error is empty or exactly one "error: line L, column C: ..." line (--one-line-error).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

TARGET_ENVS = [
    "vulkan1.1spv1.4", "vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3", "spv1.0", "spv1.1",
    "spv1.2", "spv1.3", "spv1.4", "spv1.5", "spv1.6", "opencl1.2embedded", "opencl1.2",
    "opencl2.0embedded", "opencl2.0", "opencl2.1embedded", "opencl2.1", "opencl2.2embedded",
    "opencl2.2", "opengl4.0", "opengl4.1", "opengl4.2", "opengl4.3", "opengl4.5",
]


def assemble(tool, text, options, tmp):
    """Returns (exit code, output bytes, stderr text)."""
    out = os.path.join(tmp, "out.spv")
    if os.path.exists(out):
        os.remove(out)
    proc = subprocess.run([tool] + options + ["-o", out, "-"], input=text, capture_output=True,
                          timeout=60)
    data = b""
    if proc.returncode == 0 and os.path.exists(out):
        with open(out, "rb") as f:
            data = f.read()
    return proc.returncode, data, proc.stderr.decode("utf-8", "replace")


def normalize_spirv_as_error(stderr):
    # spirv-as prints "error: L: C: message"; we print "error: line L, column C: message", on
    # one line (line breaks inside an echoed word are escaped).
    m = re.match(r"error: (\d+): (\d+): (.*)", stderr, re.S)
    if not m:
        return stderr.strip()
    message = m.group(3).rstrip("\n").replace("\n", "\\n").replace("\r", "\\r")
    return "error: line %s, column %s: %s" % (m.group(1), m.group(2), message)


def first_difference(a, b):
    n = min(len(a), len(b)) // 4
    for i in range(n):
        if a[4 * i:4 * i + 4] != b[4 * i:4 * i + 4]:
            return "word %d: spirv-as 0x%08x, xmx-as 0x%08x" % (
                i, int.from_bytes(a[4 * i:4 * i + 4], "little"),
                int.from_bytes(b[4 * i:4 * i + 4], "little"))
    return "sizes differ: spirv-as %d words, xmx-as %d words" % (len(a) // 4, len(b) // 4)


class Comparison:
    def __init__(self, args, tmp):
        self.args, self.tmp = args, tmp
        self.identical = self.same_error = 0
        self.failures = []

    def compare(self, label, text, options, expect_error=None):
        rc_ref, out_ref, err_ref = assemble(self.args.spirv_as, text, options, self.tmp)
        rc_xmx, out_xmx, err_xmx = assemble(self.args.xmx_as, text, options, self.tmp)
        where = "%s %s" % (label, " ".join(options))
        if rc_ref == 0:
            if expect_error:
                self.failures.append("%s: spirv-as accepted a file expected to fail" % where)
            elif rc_xmx != 0:
                self.failures.append("%s: xmx-as failed (exit %d): %s" %
                                     (where, rc_xmx, err_xmx.strip()))
            elif out_ref != out_xmx:
                self.failures.append("%s: %s" % (where, first_difference(out_ref, out_xmx)))
            else:
                self.identical += 1
            return
        want = normalize_spirv_as_error(err_ref)
        got = err_xmx.strip()
        if rc_xmx != 1:
            self.failures.append("%s: spirv-as rejected it (%s) but xmx-as exited %d" %
                                 (where, want, rc_xmx))
        elif got != want:
            self.failures.append("%s: diagnostics differ:\n  spirv-as: %s\n  xmx-as:   %s" %
                                 (where, want, got))
        else:
            self.same_error += 1


def files_under(folder, suffix, recursive=True):
    found = []
    if not folder or not os.path.isdir(folder):
        return found
    if recursive:
        for root, _, names in os.walk(folder):
            found += [os.path.join(root, n) for n in names if n.endswith(suffix)]
    else:
        found = [os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(suffix)]
    return sorted(found)


def run_expect(args, command):
    stdin = open(args.stdin, "rb") if args.stdin else subprocess.DEVNULL
    proc = subprocess.run(command, stdin=stdin, capture_output=True, timeout=60)
    err = proc.stderr.decode("utf-8", "replace")
    ok = proc.returncode == args.expect_exit
    if ok and args.one_line_error:
        ok = re.fullmatch(r"error: line \d+, column \d+: [^\n]*\n", err) is not None
    if not ok:
        print("FAIL %s: exit %d (expected %d), stderr: %r" %
              (" ".join(command), proc.returncode, args.expect_exit, err))
        return 1
    print("ok: exit %d, stderr: %r" % (proc.returncode, err))
    return 0


def round_trip(args, path, tmp, failures):
    """xmx-dis --raw-id | xmx-as --preserve-numeric-ids gives back the module."""
    with open(path, "rb") as f:
        original = f.read()
    if len(original) < 20:
        return False
    version = int.from_bytes(original[4:8], "little")
    env = "spv%d.%d" % (version >> 16 & 0xFF, version >> 8 & 0xFF)
    dis = subprocess.run([args.xmx_dis, "--raw-id", path, "-o", "-"], capture_output=True,
                         timeout=60)
    if dis.returncode != 0:
        failures.append("%s: xmx-dis failed: %s" % (path, dis.stderr.decode().strip()))
        return False
    rc, out, err = assemble(args.xmx_as, dis.stdout,
                            ["--preserve-numeric-ids", "--target-env", env], tmp)
    if rc != 0:
        failures.append("%s: xmx-as failed on xmx-dis output: %s" % (path, err.strip()))
        return False
    # The generator word (2) is ours; the bound (3) may shrink to the largest id used + 1.
    a = original[:8] + original[16:]
    b = out[:8] + out[16:]
    if a != b:
        failures.append("%s (round trip): %s" % (path, first_difference(a, b)))
        return False
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--expect-exit", type=int)
    parser.add_argument("--one-line-error", action="store_true")
    parser.add_argument("--stdin")
    parser.add_argument("--xmx-dis")
    parser.add_argument("--xmx-as")
    parser.add_argument("--spirv-as")
    parser.add_argument("--spirv-dis")
    parser.add_argument("--spv-dir", action="append", default=[])
    parser.add_argument("--as-dir")
    parser.add_argument("--min-comparisons", type=int, default=1)
    argv = sys.argv[1:]
    command = []
    if "--" in argv:
        command = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = parser.parse_args(argv)
    if args.expect_exit is not None:
        return run_expect(args, command)
    if not (args.xmx_as and args.spirv_as and args.spirv_dis):
        parser.error("--xmx-as, --spirv-as and --spirv-dis are required")
    if args.xmx_dis and not os.path.exists(args.xmx_dis):
        print("compare_as: %s is not built; skipping the xmx-dis round trips" % args.xmx_dis)
        args.xmx_dis = None

    with tempfile.TemporaryDirectory() as tmp:
        c = Comparison(args, tmp)
        spv_files = [f for d in args.spv_dir for f in files_under(d, ".spv")]
        skipped = round_trips = 0
        for path in spv_files:
            for dis_options in ([], ["--raw-id"]):
                proc = subprocess.run([args.spirv_dis] + dis_options + [path, "-o", "-"],
                                      capture_output=True, timeout=60)
                if proc.returncode != 0:
                    skipped += 1  # spirv-dis cannot read it (extended opcodes): no reference
                    if args.xmx_dis and dis_options and round_trip(args, path, tmp, c.failures):
                        round_trips += 1
                    continue
                c.compare("%s (spirv-dis %s)" % (path, " ".join(dis_options) or "default"),
                          proc.stdout, [])
        as_files = files_under(args.as_dir, ".spvasm", recursive=False)
        for path in as_files:
            with open(path, "rb") as f:
                text = f.read()
            c.compare(path, text, [])
            c.compare(path, text, ["--preserve-numeric-ids"])
            for env in TARGET_ENVS:
                c.compare(path, text, ["--target-env", env])
        bad_files = files_under(os.path.join(args.as_dir or "", "bad"), ".spvasm")
        for path in bad_files:
            with open(path, "rb") as f:
                text = f.read()
            c.compare(path, text, [], expect_error=True)

    for failure in c.failures:
        print("FAIL " + failure)
    total = c.identical + c.same_error + round_trips
    print("compare_as: %d .spv files (%d disassemblies skipped), %d .spvasm files, %d bad inputs" %
          (len(spv_files), skipped, len(as_files), len(bad_files)))
    print("compare_as: %d byte-identical, %d identical diagnostics, %d xmx-dis round trips, "
          "%d differences" % (c.identical, c.same_error, round_trips, len(c.failures)))
    if c.failures:
        return 1
    if total < args.min_comparisons:
        print("compare_as: only %d comparisons, expected at least %d" %
              (total, args.min_comparisons))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
