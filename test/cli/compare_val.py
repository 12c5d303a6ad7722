#!/usr/bin/env python3
"""Core parity of xmx-val with the installed spirv-val.

On every module of a folder that uses nothing our rules cover (no extended opcode: the installed
spirv-dis reads it) and on deliberate single-edit variants of each, xmx-val must give the same
verdict (valid / invalid) as spirv-val. The edits are made here, deterministically, to break one
core rule at a time: a wrong result type, an undefined id, a missing terminator, a dropped
capability, a swapped pair of instructions, a changed storage class, a bad constant width.

Fails listing each disagreement; prints how many modules were compared, and fails when fewer than
--min modules were compared (so that a run comparing nothing cannot pass).
"""

import argparse
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

OP_CAPABILITY = 17
OP_TYPE_INT = 21
OP_TYPE_POINTER = 32
OP_RETURN = 253
OP_IADD = 128
OP_LOAD = 61
OP_STORE = 62
OP_FUNCTION_CALL = 57
OP_DECORATE = 71
LINKAGE_ATTRIBUTES = 41
BUILTIN_NAME = re.compile(rb"intel_sub_group_|__spirv_Subgroup|sub_group_broadcast")


def read_words(path):
    with open(path, "rb") as f:
        data = f.read()
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


def write_words(path, words):
    with open(path, "wb") as f:
        f.write(struct.pack("<%dI" % len(words), *words))


def instructions(words):
    """(offset, word count, opcode) of each instruction."""
    out = []
    i = 5
    while i < len(words):
        wc = words[i] >> 16
        if wc == 0:
            break
        out.append((i, wc, words[i] & 0xFFFF))
        i += wc
    return out


def uses_covered_instructions(words):
    """True if the module uses instructions our rules cover: the Intel subgroup instructions
    (5571-5581), OpGroup* instructions in a module with 8- or 16-bit integers, or imported
    built-ins that stand for instructions."""
    insts = instructions(words)
    ops = {op for _, _, op in insts}
    if any(5571 <= op <= 5581 for op in ops):
        return True
    # Calls of imported built-ins that stand for those instructions (source/builtins).
    for off, wc, op in insts:
        if op == OP_DECORATE and wc >= 5 and words[off + 2] == LINKAGE_ATTRIBUTES and \
                words[off + wc - 1] == 1 and BUILTIN_NAME.search(
                    struct.pack("<%dI" % (wc - 4), *words[off + 3:off + wc - 1])):
            return True
    small_ints = any(op == OP_TYPE_INT and words[off + 2] in (8, 16) for off, _, op in insts)
    return small_ints and any(263 <= op <= 271 for op in ops)


def variants(words, rng):
    """Single-edit variants of a module, each with a short description."""
    insts = instructions(words)
    by_op = {}
    for off, wc, op in insts:
        by_op.setdefault(op, []).append((off, wc))
    out = []

    def edit(desc, fn):
        w = list(words)
        fn(w)
        out.append((desc, w))

    if OP_IADD in by_op and OP_TYPE_POINTER in by_op:
        off, _ = rng.choice(by_op[OP_IADD])
        ptr = by_op[OP_TYPE_POINTER][0][0]
        edit("OpIAdd with a pointer result type", lambda w: w.__setitem__(off + 1, w[ptr + 1]))
    if OP_LOAD in by_op:
        off, _ = rng.choice(by_op[OP_LOAD])
        edit("OpLoad of an id at the bound", lambda w: w.__setitem__(off + 3, w[3]))
    if OP_RETURN in by_op:
        off, wc = rng.choice(by_op[OP_RETURN])
        edit("OpReturn replaced by OpNop", lambda w: w.__setitem__(off, (1 << 16) | 0))
    caps = by_op.get(OP_CAPABILITY, [])
    for off, wc in caps:
        cap = words[off + 1]
        if cap in (4, 6):  # Addresses, Kernel: dropping them breaks most modules
            continue
        def drop(w, off=off):
            w[off] = (2 << 16) | OP_CAPABILITY
            w[off + 1] = 4  # a second Addresses instead of the original capability
        edit("capability %d replaced by a duplicate Addresses" % cap, drop)
        break
    if OP_STORE in by_op:
        off, _ = rng.choice(by_op[OP_STORE])
        edit("OpStore operands swapped",
             lambda w: (w.__setitem__(off + 1, words[off + 2]), w.__setitem__(off + 2, words[off + 1])))
    if OP_TYPE_POINTER in by_op:
        off, _ = rng.choice(by_op[OP_TYPE_POINTER])
        edit("pointer storage class set to Input", lambda w: w.__setitem__(off + 2, 1))
    if OP_FUNCTION_CALL in by_op:
        off, wc = rng.choice(by_op[OP_FUNCTION_CALL])
        if wc > 4:
            edit("OpFunctionCall argument set to the callee", lambda w: w.__setitem__(off + 4, w[off + 3]))
    return out


def verdict(cmd):
    proc = subprocess.run(cmd, capture_output=True, timeout=120)
    if cmd[0].endswith("xmx-val") and proc.returncode not in (0, 1):
        raise RuntimeError("%s crashed: %s" % (" ".join(cmd), proc.stderr.decode(errors="replace")))
    return proc.returncode == 0, proc.stderr.decode(errors="replace").strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xmx-val", required=True)
    ap.add_argument("--spirv-val", required=True)
    ap.add_argument("--spirv-dis", required=True)
    ap.add_argument("--min", type=int, default=200)
    ap.add_argument("folder")
    args = ap.parse_args()

    rng = random.Random(1234)
    compared = 0
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(args.folder)):
            if not name.endswith(".spv"):
                continue
            path = os.path.join(args.folder, name)
            dis = subprocess.run([args.spirv_dis, path, "-o", os.devnull], capture_output=True)
            if dis.returncode != 0 or uses_covered_instructions(read_words(path)):
                continue  # covered by our rules (and their tests), not by parity
            cases = [("unchanged", path)]
            for i, (desc, w) in enumerate(variants(read_words(path), rng)):
                vpath = os.path.join(tmp, "%s.%d.spv" % (name, i))
                write_words(vpath, w)
                cases.append((desc, vpath))
            for desc, p in cases:
                ours, our_msg = verdict([args.xmx_val, p])
                theirs, their_msg = verdict([args.spirv_val, p])
                compared += 1
                if ours != theirs:
                    failures.append("%s (%s): xmx-val says %s, spirv-val says %s\n    ours: %s\n"
                                    "    theirs: %s" % (name, desc, "valid" if ours else "invalid",
                                                        "valid" if theirs else "invalid",
                                                        our_msg[:300], their_msg[:300]))
    for f in failures:
        print("FAIL", f)
    print("compare_val: %d modules compared, %d disagreements" % (compared, len(failures)))
    if compared < args.min:
        print("FAIL: fewer than %d modules compared" % args.min)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
