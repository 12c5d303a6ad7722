#!/usr/bin/env python3
"""--max-instructions counts what --stats counts, exactly, with any number of threads.

  check_instruction_limit.py XMX_RUN MODULE [XMX_RUN_ARGS...]

Runs the launch once with --stats to learn its instruction count N, then with
--max-instructions N (must succeed) and N - 1 (must stop with the limit's error), each on one and
on two threads. GEMMs whose matrix instructions perform the private loads and stores next to
them (matrix_operand_folding.hpp) are the case this guards: those instructions never pass through
the dispatch loop, and the limit once missed them.
"""
import re
import subprocess
import sys


def run(cmd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return proc.returncode, proc.stdout.decode(errors="replace") + proc.stderr.decode(errors="replace")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    launch = sys.argv[1:]
    code, text = run(launch + ["--stats", "--threads", "1"])
    found = re.search(r"^instructions: (\d+)$", text, re.M)
    if code != 0 or not found:
        sys.exit("the launch failed (exit %d) or printed no count:\n%s" % (code, text[-3000:]))
    count = int(found.group(1))
    for threads in ("1", "2"):
        code, text = run(launch + ["--max-instructions", str(count), "--threads", threads])
        if code != 0:
            sys.exit("--max-instructions %d (the --stats count), %s threads: exit %d\n%s" %
                     (count, threads, code, text[-3000:]))
        code, text = run(launch + ["--max-instructions", str(count - 1), "--threads", threads])
        want = "executed more than %d instructions" % (count - 1)
        if code != 1 or want not in text:
            sys.exit("--max-instructions %d (one under the --stats count), %s threads: exit %d, "
                     "expected 1 and %r\n%s" % (count - 1, threads, code, want, text[-3000:]))
    print("limit at %d instructions, as --stats counts them" % count)


if __name__ == "__main__":
    main()
