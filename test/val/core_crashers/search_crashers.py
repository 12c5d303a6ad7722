#!/usr/bin/env python3
"""Searches for the extended-instruction operand shapes the installed spirv-val crashes on.

    test/val/core_crashers/search_crashers.py [--set OpenCL.std] [--first 0] [--last 210]
                                              [--spirv-val spirv-val] [--xmx-val build/xmx-val]

For every instruction number of the set, every Result Type of a list of kinds, and operand lists
of 1 to 4 operands (all of one kind, and one operand of a wrong kind among natural ones), a small
Kernel module is written word by word and given to spirv-val. The kinds cover what a careless
producer or a fuzzer can put there: scalars, vectors, bools, pointers, structs, arrays, a label,
the OpExtInstImport, the result of a void call, a function, the instruction itself. A module
that kills spirv-val by a signal is printed as `SIGNAL set number result operands`; with
--xmx-val each one is also given to xmx-val, which must exit 1 with core.precondition (a line
`NOT CAUGHT` otherwise). Exits 1 if some crasher is not caught.

This is how the table of source/val/core_preconditions.cpp was found (SPIRV-Tools 2023.1: 49
crashing shapes among u_upsample, s_upsample and the six vstore_half instructions). A full run
of OpenCL.std is about 290,000 modules; give it a range with --first/--last.
"""
import argparse
import struct
import subprocess
import sys

# Ids of the module every candidate shares.
(IMPORT, VOID, FLOAT, UINT, BOOL, VEC4, PTR, STRUCT, FN, F1, U1, TRUE, MAIN, ENTRY, VAR, STRUCT_V,
 HELPER, HELPER_ENTRY, VOID_CALL, RESULT, VEC4_V, UINT_PTR, UINT_VAR, ARRAY, ARRAY_V,
 BOUND) = range(1, 27)

OPERAND_KINDS = {
    "float": F1, "uint": U1, "bool": TRUE, "pointer": VAR, "struct": STRUCT_V, "type": FLOAT,
    "label": ENTRY, "void-call": VOID_CALL, "vec4": VEC4_V, "function": HELPER, "import": IMPORT,
    "self": RESULT, "uint-pointer": UINT_VAR, "array": ARRAY_V, "void-type": VOID,
    "pointer-type": PTR,
}
RESULT_KINDS = {
    "float": FLOAT, "uint": UINT, "vec4": VEC4, "pointer": PTR, "bool": BOOL, "void": VOID,
    "struct": STRUCT, "uint-pointer": UINT_PTR, "array": ARRAY,
}
# The operand kind that fits each result kind, for "one wrong operand among natural ones".
NATURAL = {"float": "float", "uint": "uint", "vec4": "vec4", "uint-pointer": "uint"}


def string_words(text):
    data = text.encode() + b"\0"
    data += b"\0" * (-len(data) % 4)
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


def inst(opcode, *operands):
    words = []
    for o in operands:
        words.extend(o if isinstance(o, list) else [o])
    return [((len(words) + 1) << 16) | opcode] + words


def module(set_name, number, result_type, operands):
    w = []
    for cap in (4, 6, 11):  # Addresses, Kernel, Int64
        w += inst(17, cap)
    w += inst(11, IMPORT, string_words(set_name))
    w += inst(14, 2, 2)  # Physical64 OpenCL
    w += inst(15, 6, MAIN, string_words("main"))
    w += inst(19, VOID) + inst(22, FLOAT, 32) + inst(21, UINT, 32, 0) + inst(20, BOOL)
    w += inst(23, VEC4, FLOAT, 4) + inst(32, PTR, 7, FLOAT) + inst(30, STRUCT, FLOAT)
    w += inst(32, UINT_PTR, 7, UINT) + inst(33, FN, VOID) + inst(43, UINT, U1, 1)
    w += inst(28, ARRAY, FLOAT, U1) + inst(43, FLOAT, F1, 0x3F800000) + inst(41, BOOL, TRUE)
    w += inst(1, STRUCT, STRUCT_V) + inst(1, VEC4, VEC4_V) + inst(1, ARRAY, ARRAY_V)
    w += inst(54, VOID, HELPER, 0, FN) + inst(248, HELPER_ENTRY) + inst(253) + inst(56)
    w += inst(54, VOID, MAIN, 0, FN) + inst(248, ENTRY)
    w += inst(59, PTR, VAR, 7) + inst(59, UINT_PTR, UINT_VAR, 7)
    w += inst(57, VOID, VOID_CALL, HELPER)
    w += inst(12, result_type, RESULT, IMPORT, number, operands)
    w += inst(253) + inst(56)
    header = struct.pack("<5I", 0x07230203, 0x00010000, 0, BOUND, 0)
    return header + struct.pack("<%dI" % len(w), *w)


def candidates(first, last):
    for number in range(first, last + 1):
        for result in RESULT_KINDS:
            for n in range(1, 5):
                for kind in OPERAND_KINDS:
                    yield number, result, [kind] * n
            natural = NATURAL.get(result, "float")
            for n in range(1, 4):
                for i in range(n):
                    for kind in OPERAND_KINDS:
                        if kind != natural:
                            yield number, result, [natural] * i + [kind] + [natural] * (n - i - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default="OpenCL.std")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--last", type=int, default=210)
    ap.add_argument("--spirv-val", default="spirv-val")
    ap.add_argument("--xmx-val")
    args = ap.parse_args()
    tried = crashed = missed = 0
    for number, result, kinds in candidates(args.first, args.last):
        data = module(args.set, number, RESULT_KINDS[result], [OPERAND_KINDS[k] for k in kinds])
        tried += 1
        proc = subprocess.run([args.spirv_val, "-"], input=data, capture_output=True, timeout=60)
        if proc.returncode >= 0:
            continue
        crashed += 1
        shape = "%s %d %s %s" % (args.set, number, result, " ".join(kinds))
        print("SIGNAL %d %s" % (-proc.returncode, shape), flush=True)
        if args.xmx_val:
            ours = subprocess.run([args.xmx_val, "--format", "json", "-"], input=data,
                                  capture_output=True, timeout=60)
            if ours.returncode != 1 or b"core.precondition" not in ours.stdout:
                missed += 1
                print("NOT CAUGHT (exit %d) %s" % (ours.returncode, shape), flush=True)
    print("%d modules, %d crash spirv-val, %d not caught by xmx-val" % (tried, crashed, missed))
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
