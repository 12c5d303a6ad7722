#!/usr/bin/env python3
"""Differential run of one kernel entry: xmx-run on a SPIR-V module against PoCL on the OpenCL C
source (or on SPIR bitcode translated back from a module), compared buffer by buffer.

The run description (test/run/*.json, format of `xmx-run --run`) leaves "module" out and names
its dumps with bare file names. For each side this script writes a concrete copy into the output
directory: "module" filled in, `buffer:file=` inputs made absolute, every dump redirected to
OUT/xmx/ or OUT/pocl/. Then it runs

    xmx-run --run OUT/xmx.json
    pocl_run --run OUT/pocl.json --source KERNEL.cl [--build-options ...]
      (or --spir OUT/pocl.bc, made by `llvm-spirv -r --spirv-target-env=CL1.2 MODULE` after
   rewriting scalar OpConstantNull, which llvm-spirv-15 cannot read, as OpConstant 0, and
   dropping noinline so that PoCL can inline llc-22's -O0 kernel wrappers)

and compares every dumped buffer byte for byte, printing the first differing offsets.

Modes:
  --pocl-only          run only the PoCL side and check that it writes every dump with the
                       buffer's size (the oracle tests; the dumps stay in OUT/pocl/)
  --oracle-dir DIR     take the PoCL dumps from DIR (an earlier --pocl-only run) instead of
                       running PoCL again
Exit status: 0 identical, 1 a difference or a failed run, 2 bad usage or run description.
"""

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys

TIMEOUT_SECONDS = 300


def fail(message, code=1):
    print("error: " + message, file=sys.stderr)
    sys.exit(code)


def buffer_size(spec, run_dir):
    """The size of the buffer a `buffer:...` spec creates, None for other specs."""
    if not spec.startswith("buffer:"):
        return None
    form = spec[len("buffer:"):]
    if form.startswith("file="):
        return os.path.getsize(resolve(form[len("file="):], run_dir))
    return int(form.rsplit(":", 1)[1], 0)


def resolve(path, base):
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(base, path))


def materialize(run, run_dir, module, dump_dir, out_file):
    """Writes a copy of the run description with absolute paths; returns {index: dump path}."""
    concrete = dict(run)
    if module:
        concrete["module"] = os.path.abspath(module)
    elif "module" in concrete:
        concrete["module"] = resolve(concrete["module"], run_dir)
    args = []
    for spec in run.get("args", []):
        if spec.startswith("buffer:file="):
            spec = "buffer:file=" + resolve(spec[len("buffer:file="):], run_dir)
        args.append(spec)
    concrete["args"] = args
    dump = run.get("dump", {})
    if isinstance(dump, list):
        dump = dict(item.split("=", 1) for item in dump)
    dumps = {int(index): os.path.join(dump_dir, os.path.basename(path))
             for index, path in dump.items()}
    concrete["dump"] = {str(index): path for index, path in sorted(dumps.items())}
    concrete.pop("expect", None)  # the comparison is done here
    os.makedirs(dump_dir, exist_ok=True)
    for path in dumps.values():
        if os.path.exists(path):
            os.remove(path)  # a stale dump must not pass for a new one
    with open(out_file, "w") as f:
        json.dump(concrete, f, indent=2)
    return dumps


OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT = 20, 21, 22
OP_CONSTANT_FALSE, OP_CONSTANT, OP_CONSTANT_NULL = 42, 43, 46


def without_scalar_null_constants(words):
    """The module with every OpConstantNull of a scalar type written as OpConstant 0 (or
    OpConstantFalse): llvm-spirv-15 asserts on scalar null constants, which llc-22 emits for every
    zero. The meaning is unchanged."""
    out, scalar_types, i = words[:5], {}, 5
    while i < len(words):
        count, opcode = words[i] >> 16, words[i] & 0xFFFF
        if count == 0:
            break
        inst = words[i:i + count]
        if opcode in (OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT):
            scalar_types[inst[1]] = 1 if opcode == OP_TYPE_BOOL else inst[2]
        if opcode == OP_CONSTANT_NULL and inst[1] in scalar_types:
            width = scalar_types[inst[1]]
            if width == 1:
                inst = [(3 << 16) | OP_CONSTANT_FALSE, inst[1], inst[2]]
            else:
                literal = [0] * ((width + 31) // 32)
                inst = [((3 + len(literal)) << 16) | OP_CONSTANT, inst[1], inst[2]] + literal
        out += inst
        i += count
    return out


def spir_bitcode(module, llvm_spirv, out_dir):
    """LLVM bitcode for PoCL from a SPIR-V module, through `llvm-spirv -r`."""
    data = read(module)
    words = list(struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4]))
    fixed = os.path.join(out_dir, "pocl.spv")
    words = without_scalar_null_constants(words)
    with open(fixed, "wb") as f:
        f.write(struct.pack("<%dI" % len(words), *words))
    bitcode = os.path.join(out_dir, "pocl.bc")
    run_tool([llvm_spirv, "-r", "--spirv-target-env=CL1.2", fixed, "-o", bitcode],
             "llvm-spirv -r")
    # PoCL must inline every call into the kernel; llc-22's -O0 entry points call their
    # __clang_ocl_kern_imp_ copy, marked noinline, and PoCL then fails to load the kernel
    # ("undefined symbol _group_id_x"). Dropping noinline keeps the meaning.
    version = suffix(llvm_spirv)
    llvm_dis, llvm_as = shutil.which("llvm-dis" + version), shutil.which("llvm-as" + version)
    if llvm_dis and llvm_as:
        listing = os.path.join(out_dir, "pocl.ll")
        run_tool([llvm_dis, bitcode, "-o", listing], "llvm-dis")
        with open(listing) as f:
            text = f.read()
        text = re.sub(r"^(attributes #\d+ = \{.*?)\bnoinline\b", r"\1", text, flags=re.M)
        with open(listing, "w") as f:
            f.write(text)
        bitcode = os.path.join(out_dir, "pocl.inline.bc")
        run_tool([llvm_as, listing, "-o", bitcode], "llvm-as")
    return bitcode


def suffix(tool):
    """The version suffix of a tool's name ("-15" for llvm-spirv-15), to find its siblings."""
    match = re.search(r"(-\d+)$", os.path.basename(tool))
    return match.group(1) if match else ""


def run_tool(command, what):
    print("+ " + " ".join(command), flush=True)
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        fail("%s timed out after %d s" % (what, TIMEOUT_SECONDS))
    except OSError as e:
        fail("cannot run %s (%s): %s" % (what, command[0], e.strerror))
    sys.stdout.write(result.stdout.decode(errors="replace"))
    sys.stderr.write(result.stderr.decode(errors="replace"))
    if result.returncode != 0:
        fail("%s exited with status %d" % (what, result.returncode))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def compare(index, name, xmx_path, pocl_path):
    """Prints the differences of one buffer; returns True if identical."""
    mine, theirs = read(xmx_path), read(pocl_path)
    if mine == theirs:
        print("buffer %d (%s): %d bytes identical" % (index, name, len(mine)))
        return True
    lines = ["buffer %d (%s) differs: xmx-run %s, PoCL %s" % (index, name, xmx_path, pocl_path)]
    if len(mine) != len(theirs):
        lines.append("  sizes: xmx-run %d bytes, PoCL %d bytes" % (len(mine), len(theirs)))
    offsets = [k for k in range(min(len(mine), len(theirs))) if mine[k] != theirs[k]]
    for k in offsets[:16]:
        word = k - k % 4
        lines.append("  offset %d (0x%x): xmx-run 0x%02x, PoCL 0x%02x   [word at %d: %s vs %s]"
                     % (k, k, mine[k], theirs[k], word, mine[word:word + 4].hex(),
                        theirs[word:word + 4].hex()))
    if len(offsets) > 16:
        lines.append("  ... %d differing bytes in all" % len(offsets))
    print("\n".join(lines))
    return False


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--run", required=True, help="the run description (test/run/*.json)")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--xmx-run", help="path to xmx-run")
    parser.add_argument("--module", help="the SPIR-V module xmx-run executes")
    parser.add_argument("--pocl-run", help="path to pocl_run")
    parser.add_argument("--source", help="OpenCL C source for PoCL")
    parser.add_argument("--spir-from", metavar="MODULE",
                        help="SPIR-V module PoCL runs after llvm-spirv -r (instead of --source)")
    parser.add_argument("--llvm-spirv", default="llvm-spirv-15",
                        help="the translator for --spir-from (default llvm-spirv-15)")
    parser.add_argument("--build-options", help="clBuildProgram options for PoCL")
    parser.add_argument("--pocl-only", action="store_true",
                        help="run PoCL only and check that it writes every dump")
    parser.add_argument("--oracle-dir", help="PoCL dumps of an earlier --pocl-only run")
    args = parser.parse_args()

    run_dir = os.path.dirname(os.path.abspath(args.run))
    try:
        with open(args.run) as f:
            run = json.load(f)
        sizes = {i: buffer_size(spec, run_dir) for i, spec in enumerate(run.get("args", []))}
    except (OSError, ValueError, IndexError) as e:
        fail("%s: %s" % (args.run, e), 2)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    xmx_side = not args.pocl_only
    pocl_side = args.oracle_dir is None
    if xmx_side and not (args.xmx_run and args.module):
        fail("--xmx-run and --module are needed unless --pocl-only", 2)
    if pocl_side and not (args.pocl_run and bool(args.source) != bool(args.spir_from)):
        fail("--pocl-run and one of --source, --spir-from are needed unless --oracle-dir", 2)

    pocl_dir = os.path.join(out, "pocl")
    if pocl_side:
        dumps = materialize(run, run_dir, None, pocl_dir, os.path.join(out, "pocl.json"))
        command = [args.pocl_run, "--run", os.path.join(out, "pocl.json")]
        if args.source:
            command += ["--source", args.source]
        else:
            command += ["--spir", spir_bitcode(args.spir_from, args.llvm_spirv, out)]
        if args.build_options is not None:
            command += ["--build-options", args.build_options]
        run_tool(command, "pocl_run")
    else:
        pocl_dir = os.path.abspath(args.oracle_dir)

    names = run.get("dump", {})
    if isinstance(names, list):
        names = dict(item.split("=", 1) for item in names)
    names = {int(index): os.path.basename(path) for index, path in names.items()}
    if not names:
        fail("%s dumps no buffer: nothing to compare" % args.run, 2)
    missing = []
    for index, name in sorted(names.items()):
        path = os.path.join(pocl_dir, name)
        if not os.path.isfile(path):
            missing.append("PoCL wrote no %s (buffer %d)" % (path, index))
        elif sizes.get(index) is not None and os.path.getsize(path) != sizes[index]:
            missing.append("%s has %d bytes, the buffer %d" % (path, os.path.getsize(path),
                                                               sizes[index]))
    if missing:
        fail("; ".join(missing))
    if not xmx_side:
        print("PoCL wrote %d buffers to %s" % (len(names), pocl_dir))
        return 0

    xmx_dir = os.path.join(out, "xmx")
    materialize(run, run_dir, args.module, xmx_dir, os.path.join(out, "xmx.json"))
    run_tool([args.xmx_run, "--run", os.path.join(out, "xmx.json")], "xmx-run")
    same = True
    for index, name in sorted(names.items()):
        xmx_path = os.path.join(xmx_dir, name)
        if not os.path.isfile(xmx_path):
            print("buffer %d (%s): xmx-run wrote no %s" % (index, name, xmx_path))
            same = False
            continue
        same = compare(index, name, xmx_path, os.path.join(pocl_dir, name)) and same
    if not same:
        fail("%s on %s differs from PoCL" % (os.path.basename(args.run), args.module))
    print("%s on %s: %d buffers identical to PoCL" % (os.path.basename(args.run),
                                                      os.path.basename(args.module), len(names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
