#!/usr/bin/env python3
"""xmx-run gives the same results whatever the number of worker threads (issue 4: work-groups
run on a thread pool, results independent of the thread count).

usage: check_threads.py XMX_RUN WORKDIR INDEX[,INDEX...]|none -- XMX_RUN_ARGS...

Runs xmx-run with the given arguments at --threads 1, 2, 3 and 5, dumping the buffer arguments
INDEX..., and requires every run to exit 0 with the same dumped bytes and the same standard
output (printf output is ordered by work-group) as the single-threaded run.
"""
import pathlib
import subprocess
import sys


def run(xmx_run, workdir, indices, args, threads):
    dumps = {i: workdir / ("t%d_%d.bin" % (threads, i)) for i in indices}
    cmd = [xmx_run] + args + ["--threads", str(threads)]
    for i, path in dumps.items():
        cmd += ["--dump", "%d=%s" % (i, path)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        sys.exit("--threads %d: exit %d\n%s" % (threads, proc.returncode, proc.stderr))
    return proc.stdout, {i: path.read_bytes() for i, path in dumps.items()}


def main():
    if len(sys.argv) < 5 or sys.argv[4] != "--":
        sys.exit(__doc__)
    xmx_run, workdir = sys.argv[1], pathlib.Path(sys.argv[2])
    indices = [] if sys.argv[3] == "none" else [int(i) for i in sys.argv[3].split(",")]
    args = sys.argv[5:]
    workdir.mkdir(parents=True, exist_ok=True)
    base_out, base_dumps = run(xmx_run, workdir, indices, args, 1)
    if not any(any(b) for b in base_dumps.values()) and not base_out:
        sys.exit("the single-threaded run produced only zero bytes: nothing is compared")
    failures = 0
    for threads in (2, 3, 5):
        out, dumps = run(xmx_run, workdir, indices, args, threads)
        if out != base_out:
            print("--threads %d: standard output differs from --threads 1" % threads)
            failures += 1
        for i in indices:
            a, b = base_dumps[i], dumps[i]
            if a != b:
                first = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]),
                             min(len(a), len(b)))
                print("--threads %d: buffer %d differs from --threads 1 at byte %d" %
                      (threads, i, first))
                failures += 1
    if failures:
        sys.exit(1)
    print("same results at --threads 1, 2, 3, 5")


if __name__ == "__main__":
    main()
