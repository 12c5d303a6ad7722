#!/usr/bin/env python3
"""usage: check_limits.py [--generate PATH KIND COUNT]... [--address-space BYTES]
                          [--stdout PATH] EXIT_CODE TEXT -- COMMAND...

Runs COMMAND and passes when it exits with EXIT_CODE and TEXT appears in its standard error
(the resource-limit tests of test/cli/run_limits.cmake). Before the run:
  --generate PATH KIND COUNT   writes an input too large or too deep to commit:
      nested-profile   a device profile whose "base" is COUNT nested arrays
      nested-run       a run file whose "comment" is COUNT nested arrays
      brackets         COUNT bytes of '['
      assembly         SPIR-V assembly of COUNT OpTypeInt lines
      sparse           a file of COUNT zero bytes that takes no disk space
                   (each is removed after the run)
  --address-space BYTES   the command's address space is limited (RLIMIT_AS): an allocation
                          beyond it fails as on a host out of memory
  --stdout PATH           the command's standard output goes to PATH (/dev/full: a full disk)
"""
import os
import resource
import subprocess
import sys


def generate(path, kind, count):
    with open(path, "wb") as f:
        if kind == "nested-profile":
            f.write(b'{"name": "deep", "base": ' + b"[" * count + b"]" * count + b"}")
        elif kind == "nested-run":
            f.write(b'{"global": 1, "comment": ' + b"[" * count + b"]" * count + b"}")
        elif kind == "brackets":
            f.write(b"[" * count)
        elif kind == "assembly":
            f.write(b"OpCapability Kernel\nOpMemoryModel Logical OpenCL\n")
            f.write(b"".join(b"%%t%d = OpTypeInt 32 0\n" % i for i in range(count)))
        elif kind == "sparse":
            f.truncate(count)
        else:
            sys.exit("unknown KIND " + kind)


def main():
    args = sys.argv[1:]
    address_space, stdout, generated = None, None, []
    while args and args[0].startswith("--"):
        if args[0] == "--generate":
            generate(args[1], args[2], int(args[3]))
            generated.append(args[1])
            args = args[4:]
        elif args[0] == "--address-space":
            address_space = int(args[1])
            args = args[2:]
        elif args[0] == "--stdout":
            stdout = args[1]
            args = args[2:]
        else:
            sys.exit(__doc__)
    if len(args) < 4 or args[2] != "--":
        sys.exit(__doc__)
    code, text, cmd = int(args[0]), args[1], args[3:]

    def limit():
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    out = open(stdout, "wb") if stdout else subprocess.PIPE
    try:
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, preexec_fn=limit,
                              timeout=300)
    finally:
        for path in generated:
            os.remove(path)
    stderr = proc.stderr.decode(errors="replace")
    if proc.returncode != code or text not in stderr:
        sys.exit("exit %d (expected %d); stderr:\n%s\n(expected to contain %r)" %
                 (proc.returncode, code, stderr[-4000:], text))


if __name__ == "__main__":
    main()
