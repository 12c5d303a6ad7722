#!/usr/bin/env python3
"""usage: check_exit.py EXIT_CODE TEXT -- COMMAND...

Runs COMMAND and passes when it exits with EXIT_CODE and TEXT appears in its standard error."""
import subprocess
import sys


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit(__doc__)
    code, text, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[4:]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode != code or text not in proc.stderr:
        sys.exit("exit %d (expected %d); stderr:\n%s\n(expected to contain %r)" %
                 (proc.returncode, code, proc.stderr, text))


if __name__ == "__main__":
    main()
