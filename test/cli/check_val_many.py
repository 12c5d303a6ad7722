#!/usr/bin/env python3
"""xmx-val on many files at once (CLI.md: validated in parallel where cores allow).

The parallel run must say exactly what the files say one at a time: the same lines, each
prefixed with its file name, in the order the files were given, and exit 1 when any file is
invalid. Under ThreadSanitizer (label "threads") this is the test of xmx-val's worker pool.
"""
import argparse
import glob
import os
import subprocess
import sys


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xmx-val", required=True)
    ap.add_argument("--corpus", required=True)
    args = ap.parse_args()

    files = sorted(glob.glob(os.path.join(args.corpus, "*.spv")))
    if len(files) < 8:
        print(f"error: expected a corpus of modules in {args.corpus}, found {len(files)}")
        return 1

    # Warnings and remarks go to standard output, errors to standard error: each stream is
    # compared on its own.
    expected = {"stdout": [], "stderr": []}
    any_invalid = False
    for path in files:
        code, out, err = run([args.xmx_val, path])
        if code not in (0, 1):
            print(f"error: xmx-val {path} exited {code}:\n{out}{err}")
            return 1
        any_invalid |= code == 1
        expected["stdout"] += [f"{path}: {line}" for line in out.splitlines()]
        expected["stderr"] += [f"{path}: {line}" for line in err.splitlines()]

    code, out, err = run([args.xmx_val, *files])
    want = 1 if any_invalid else 0
    if code != want:
        print(f"error: xmx-val on {len(files)} files exited {code}, expected {want}")
        return 1
    for stream, text in (("stdout", out), ("stderr", err)):
        got = text.splitlines()
        if got == expected[stream]:
            continue
        for i, (g, e) in enumerate(zip(got, expected[stream])):
            if g != e:
                print(f"error: {stream} line {i + 1} differs:\n  all at once: {g}\n"
                      f"  one by one:  {e}")
                break
        else:
            print(f"error: {stream}: {len(got)} lines at once, {len(expected[stream])} one by one")
        return 1
    print(f"ok: {len(files)} files, exit {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
