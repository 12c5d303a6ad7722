#!/usr/bin/env python3
"""Compares xmx-dis with the installed spirv-dis on every .spv file under the given folders.

For a module spirv-dis can read, xmx-dis's text must be byte-identical with each option set.
Modules spirv-dis rejects (extended opcodes and enumerants) are checked instead for: xmx-dis
succeeds, and every line follows the spirv-dis format rules. Fails when any check fails, or when
fewer modules than --min-identical were compared identically (so that an empty corpus fails).
"""

import argparse
import difflib
import os
import re
import struct
import subprocess
import sys
import tempfile

OPTION_SETS = [
    [],
    ["--raw-id"],
    ["--no-indent"],
    ["--no-header"],
    ["--offsets"],
    ["--comment"],
    ["--color"],
    ["--color", "--offsets", "--comment", "--raw-id"],
]

# One line of spirv-dis output without colour: a header comment, a section comment, a blank line
# (--comment), or an instruction: optional "%name = ", the opcode, operands (ids, numbers, strings,
# enumerant names and masks), an optional "; id %N" (--comment) and "; 0x..." (--offsets).
_ID = r"%[A-Za-z0-9_]+"
_NUMBER = r"-?(?:0x[0-9a-f](?:\.[0-9a-f]+)?p[+-]\d+|\d+(?:\.\d+)?(?:e[+-]\d+)?)"
_STRING = r'"(?:[^"\\]|\\["\\])*"'
_WORD = r"[A-Za-z_][A-Za-z0-9_]*(?:\|[A-Za-z_][A-Za-z0-9_]*)*"
_OPERAND = rf"(?:{_ID}|{_NUMBER}|{_STRING}|{_WORD})"
INSTRUCTION_RE = re.compile(
    rf"^ *(?:{_ID} = )?Op[A-Za-z0-9_]+(?: {_OPERAND})*(?:  ; id %\d+)?(?: ; 0x[0-9a-f]{{8,}})?$")
COMMENT_RE = re.compile(r"^ *; .*$|^$")
ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


def run(cmd, path):
    return subprocess.run(cmd + [path], capture_output=True, timeout=120)


def first_difference(expected, actual, label):
    diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), "spirv-dis " + label,
                                "xmx-dis " + label, n=1, lineterm="")
    return "\n".join(list(diff)[:12])


def check_format(text, options):
    """Returns a description of the first malformed line, or None."""
    plain = ANSI_RE.sub("", text)
    if not plain.endswith("\n"):
        return "output does not end with a newline"
    indent = "--no-indent" not in options
    for number, line in enumerate(plain.split("\n")[:-1], 1):
        if COMMENT_RE.match(line):
            continue
        if not INSTRUCTION_RE.match(line):
            return f"line {number} is not a well-formed instruction: {line!r}"
        if indent:
            # The '=' (or the opcode of an instruction without result) sits at column 15 unless
            # a long result name pushes it.
            eq = line.find(" = ")
            op = line.find("Op")
            if eq >= 0 and eq < op and eq != 12 and not line.startswith("%"):
                return f"line {number}: result id not right-aligned: {line!r}"
            if eq < 0 or eq > op:
                if op != 15:
                    return f"line {number}: instruction not indented by 15: {line!r}"
    return None


def _inst(opcode, *operands):
    return [((len(operands) + 1) << 16) | opcode] + list(operands)


def _string(text):
    data = text.encode() + b"\0" * (4 - len(text) % 4)
    return list(struct.unpack(f"<{len(data) // 4}I", data))


# A small valid module: capabilities, memory model, a type, a constant and a name.
_HEADER = [0x07230203, 0x00010400, 0, 10, 0]
_BODY = (_inst(17, 4) + _inst(17, 6) + _inst(14, 2, 2) + _inst(21, 1, 32, 0) + _inst(43, 1, 2, 7) +
         _inst(5, 2, *_string("x")))


def _bytes(words):
    return struct.pack(f"<{len(words)}I", *words)


def bad_inputs():
    """(name, file bytes, word offset the error must name)."""
    body = _HEADER + _BODY
    last = len(body) - 3  # the OpName
    return [
        ("header-truncated", _bytes(_HEADER[:3]), 0),
        ("wrong-magic", _bytes([0x12345678] + body[1:]), 0),
        ("size-not-multiple-of-4", _bytes(body)[:-2], 0),
        ("truncated-instruction", _bytes(body[:-1]), last),
        ("word-count-0", _bytes(body + [0x0000000E]), len(body)),
        ("word-count-past-end", _bytes(body + [(9 << 16) | 21, 3, 32]), len(body)),
        ("unknown-opcode", _bytes(body + [(1 << 16) | 999]), len(body)),
        ("unterminated-string", _bytes(body + [(3 << 16) | 5, 2, 0x64636261]), len(body) + 2),
        ("missing-operand", _bytes(body + _inst(21, 3, 32)), len(body) + 3),
        ("enumerant-out-of-range", _bytes(_HEADER + _inst(17, 4) + _inst(14, 2, 99)), 9),
        ("bit-out-of-range", _bytes(_HEADER + _BODY + _inst(54, 1, 5, 0x40000000, 6)),
         len(body) + 3),
    ]


def check_bad_inputs(xmx_dis, spirv_dis):
    """Each malformed module must exit 1 with one 'error: word N: ...' line naming the expected
    word, after printing what spirv-dis prints before its own error. Usage errors exit 2."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, word in bad_inputs():
            path = os.path.join(tmp, name + ".spv")
            with open(path, "wb") as f:
                f.write(data)
            ours = run([xmx_dis], path)
            err = ours.stderr.decode(errors="replace")
            if ours.returncode != 1:
                failures.append(f"{name}: exit code {ours.returncode}, expected 1")
            if not re.fullmatch(rf"error: word {word}: [^\n]+\n", err):
                failures.append(f"{name}: expected one line 'error: word {word}: ...', got {err!r}")
            if spirv_dis:
                theirs = run([spirv_dis], path)
                if theirs.returncode == 0:
                    failures.append(f"{name}: spirv-dis accepts it: not a bad input")
                elif ours.stdout != theirs.stdout:
                    failures.append(f"{name}: text before the error differs\n" + first_difference(
                        theirs.stdout.decode(errors="replace"), ours.stdout.decode(errors="replace"),
                        ""))
        good = os.path.join(tmp, "good.spv")
        with open(good, "wb") as f:
            f.write(_bytes(_HEADER + _BODY))
        usage = [["--no-such-option", good], [os.path.join(tmp, "missing.spv")], [good, good],
                 ["-o"]]
        for args in usage:
            r = subprocess.run([xmx_dis] + args, capture_output=True, timeout=60)
            if r.returncode != 2:
                failures.append(f"usage {args}: exit code {r.returncode}, expected 2")
        r = subprocess.run([xmx_dis, good], capture_output=True, timeout=60)
        if r.returncode != 0 or b'OpName %uint_7 "x"' not in r.stdout:
            failures.append(f"the valid module: exit {r.returncode}, output {r.stdout[:200]!r}")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(bad_inputs())} bad inputs and usage errors checked, {len(failures)} failures")
    return 1 if failures else 0


def assemble_all(spirv_as, folders, out_dir):
    """Assembles every .spvasm under folders into out_dir; returns the number assembled."""
    count = 0
    for folder in folders:
        for root, _, names in os.walk(folder):
            for n in sorted(names):
                if n.endswith(".spvasm"):
                    out = os.path.join(out_dir, n[:-len(".spvasm")] + ".spv")
                    subprocess.run([spirv_as, os.path.join(root, n), "-o", out], check=True)
                    count += 1
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--xmx-dis", required=True)
    ap.add_argument("--spirv-dis", required=True)
    ap.add_argument("--spirv-as", help="assemble the .spvasm files found under the folders")
    ap.add_argument("--bad-inputs", action="store_true",
                    help="instead, check malformed modules and usage errors")
    ap.add_argument("--min-identical", type=int, default=1,
                    help="fail unless at least this many modules were compared identically")
    ap.add_argument("--min-extended", type=int, default=0,
                    help="fail unless at least this many extended modules were format-checked")
    ap.add_argument("folders", nargs="*")
    args = ap.parse_args()
    if args.bad_inputs:
        # Without spirv-dis (not installed), only our own behaviour is checked.
        spirv_dis = args.spirv_dis if os.path.isfile(args.spirv_dis) else None
        return check_bad_inputs(args.xmx_dis, spirv_dis)

    tmp = tempfile.TemporaryDirectory()
    folders = list(args.folders)
    if args.spirv_as:
        assemble_all(args.spirv_as, folders, tmp.name)
        folders.append(tmp.name)
    files = []
    for folder in folders:
        for root, _, names in os.walk(folder):
            files += [os.path.join(root, n) for n in names if n.endswith(".spv")]
    files.sort()

    failures = []
    identical = {" ".join(o) or "(default)": 0 for o in OPTION_SETS}
    identical_modules = 0
    extended = 0
    for path in files:
        module_ok = True
        probe = run([args.spirv_dis, "--no-color"], path)
        readable = probe.returncode == 0
        if not readable:
            extended += 1
        for options in OPTION_SETS:
            label = " ".join(options) or "(default)"
            ours = run([args.xmx_dis] + options, path)
            if ours.returncode != 0:
                failures.append(f"{path} [{label}]: xmx-dis exited {ours.returncode}: "
                                f"{ours.stderr.decode(errors='replace').strip()}")
                module_ok = False
                continue
            text = ours.stdout.decode(errors="replace")
            if readable:
                theirs = run([args.spirv_dis] + options, path)
                expected = theirs.stdout.decode(errors="replace")
                if text != expected:
                    failures.append(f"{path} [{label}]: text differs\n" +
                                    first_difference(expected, text, label))
                    module_ok = False
                else:
                    identical[label] += 1
            else:
                problem = check_format(text, options)
                if problem:
                    failures.append(f"{path} [{label}]: {problem}")
                    module_ok = False
        if readable and module_ok:
            identical_modules += 1

    for failure in failures:
        print("FAIL:", failure)
    print(f"{len(files)} modules: {len(files) - extended} readable by spirv-dis, "
          f"{identical_modules} identical with every option set; {extended} extended "
          "(format-checked)")
    for label, count in identical.items():
        print(f"  identical with {label}: {count}")
    if identical_modules < args.min_identical:
        print(f"FAIL: fewer than {args.min_identical} modules compared identical")
        return 1
    if extended < args.min_extended:
        print(f"FAIL: fewer than {args.min_extended} extended modules checked")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
