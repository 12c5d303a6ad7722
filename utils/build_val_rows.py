#!/usr/bin/env python3
"""Build the validator row modules in test/val/rows/ with LLVM's SPIR-V backend.

    utils/build_val_rows.py               # (re)build test/val/rows/*.spv and manifest.json
    utils/build_val_rows.py --force       # ignore the compile cache
    utils/build_val_rows.py --list        # print the planned modules, compile nothing

One OpenCL C kernel is generated per device-table row (and per M for the matrix rows),
compiled exactly like the llc22 producer of utils/build_corpus.sh at -O2:

    clang-22 --target=spirv64 -cl-std=CL2.0 -cl-no-stdinc -Xclang -finclude-default-header
             -emit-llvm -c -O2
    llc-22 -mtriple=spirv64-unknown-unknown
           --spirv-ext=+SPV_INTEL_2d_block_io,+SPV_INTEL_subgroup_matrix_multiply_accumulate,+SPV_INTEL_subgroups
           -filetype=obj

Kinds of modules:
  * "mma": one OpSubgroupMatrixMultiplyAccumulateINTEL per module - every row of the B.5
    tables (SG8, SG16 incl. tf32, the fp8/fp4 drafts) at M = 1, 2, 4, 8; the subgroup-size-32
    paired form (DECISIONS 10) for representative types;
  * "block2d": one OpSubgroup2DBlock*INTEL per module - every row (width, height, count) of
    the A.4 table at subgroup size 16;
  * "subgroups": one OpSubgroupShuffle*INTEL / OpSubgroupBlockRead/WriteINTEL / 8- and 16-bit
    OpGroup* instruction per module - every row of the C.3/C.4 tables (SG16);
  * "split-mad": one call of a split matrix MAD built-in (SPEC-NOTES D, an imported function)
    per module, at SG8 and M = 2, 4, 8;
  * deliberately invalid-for-some-profile variants of all kinds ("variant" in the manifest).

Expectations (valid_on / invalid_on over the profiles spec, opencl, dg2, arl-h, pvc, bmg,
lnl, ptl, xe3p) are derived here from SPEC-NOTES A.3/A.4/B.3/B.5/B.8, DECISIONS and
DEVICES.md (see expect_mma / expect_block2d / expect_subgroups / expect_split); a profile whose answer rests on a convention
or an UNCONFIRMED point is in neither list and the note says why. "in_tables" lists the
profiles whose tables contain the row, independent of module-level questions.

llc-22 cannot declare the draft extensions of the fp8/fp4 matrix rows (--spirv-ext rejects
their names); DECISIONS 17 makes a draft operand bit without its string an error, so the script
adds that OpExtension to those modules (declare_extension), except for the one variant that
keeps llc-22's output as it is.

Every output is checked with a small SPIR-V word reader (opcode present, K / Element Size /
Width / Height / Count constants, operands literal, operand types, SubgroupSize execution
mode); a mismatch or a compiler failure stops the run and leaves test/val/rows untouched.

Re-runs are quick: the generated .cl, the .spv and a key (hash of source, flags and tool
versions) are kept in a scratch directory (default: $TMPDIR/xmx-val-rows, or --scratch);
a module is recompiled only when its key changes. Files in test/val/rows are rewritten only
when their bytes change, and stale .spv files there are deleted.

Python 3 standard library only. Tools may be overridden with CLANG22 / LLC22.
"""

import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "test", "val", "rows")

CLANG = os.environ.get("CLANG22", "clang-22")
LLC = os.environ.get("LLC22", "llc-22")
CLANG_FLAGS = ["--target=spirv64", "-cl-std=CL2.0", "-cl-no-stdinc", "-Xclang",
               "-finclude-default-header", "-emit-llvm", "-c", "-O2"]
LLC_EXTS = ("+SPV_INTEL_2d_block_io,+SPV_INTEL_subgroup_matrix_multiply_accumulate,"
            "+SPV_INTEL_subgroups")
LLC_FLAGS = ["-mtriple=spirv64-unknown-unknown", "--spirv-ext=" + LLC_EXTS, "-filetype=obj"]

PROFILES = ["spec", "opencl", "dg2", "arl-h", "pvc", "bmg", "lnl", "ptl", "xe3p"]
XE_HPG = ["dg2", "arl-h"]
XE_HPC_PLUS = ["pvc", "bmg", "lnl", "ptl"]          # xe3p = these + drafts
BLOCK2D_PROFILES = ["opencl"] + XE_HPC_PLUS + ["xe3p"]

# ---------------------------------------------------------------------------------------
# Types. A type is (elem, n): elem in i16/i32/f16/f32/i64/i8, n components (1 = scalar).

CL_SCALAR = {"i8": "uchar", "i16": "short", "i32": "int", "i64": "ulong", "f16": "half",
             "f32": "float"}
UNSIGNED = {"i8": "uchar", "i16": "ushort", "i32": "uint", "i64": "ulong"}


def cl_type(t):
    elem, n = t
    return CL_SCALAR[elem] + ("" if n == 1 else str(n))


def type_str(t):
    elem, n = t
    return elem if n == 1 else "%s x %d" % (elem, n)


def hexs(v):
    return "0x%X" % v


# ---------------------------------------------------------------------------------------
# Matrix multiply-accumulate rows (SPEC-NOTES B.5 / B.8).
#   family: (name, K, result elem, A elem for SG8/SG16, B elem, operand masks, table, draft)

INT8_OPS = [0x30, 0x31, 0x32, 0x33]
INT4_OPS = [0xC0, 0xC1, 0xC2, 0xC3]
FP8_OPS = [0xC000, 0x24000, 0x18000, 0x30000]
OPS_NAMES = {
    0x30: "u8 x u8", 0x31: "s8 x u8", 0x32: "u8 x s8", 0x33: "s8 x s8",
    0xC0: "u4 x u4", 0xC1: "s4 x u4", 0xC2: "u4 x s4", 0xC3: "s4 x s4",
    0xC00: "fp16", 0x3000: "bf16", 0x300C: "bf16, bf16 C and result", 0x300: "tf32",
    0xC000: "E4M3 x E4M3", 0x24000: "E4M3 x E5M2", 0x18000: "E5M2 x E4M3",
    0x30000: "E5M2 x E5M2", 0xC0000: "fp4 E2M1 x E2M1",
}
for _o in FP8_OPS + [0xC0000]:
    OPS_NAMES[_o | 0xC] = OPS_NAMES[_o] + ", bf16 C and result"

# Families of rows; a_elem is per table (SG8 packs into i32, SG16 into i16).
# (family, sg, k, res_elem, a_elem, b_elem, ops list, draft, tf32)
MMA_FAMILIES = [
    ("int8", 8, 32, "i32", "i32", "i32", INT8_OPS, False, False),
    ("int4", 8, 64, "i32", "i32", "i32", INT4_OPS, False, False),
    ("fp16", 8, 16, "f32", "i32", "i32", [0xC00], False, False),
    ("bf16", 8, 16, "f32", "i32", "i32", [0x3000], False, False),
    ("int8", 16, 32, "i32", "i16", "i32", INT8_OPS, False, False),
    ("int4", 16, 64, "i32", "i16", "i32", INT4_OPS, False, False),
    ("fp16", 16, 16, "f32", "i16", "i32", [0xC00], False, False),
    ("fp16", 16, 16, "f16", "i16", "i32", [0xC00], False, False),
    ("bf16", 16, 16, "f32", "i16", "i32", [0x3000], False, False),
    ("bf16", 16, 16, "i16", "i16", "i32", [0x300C], False, False),
    ("tf32", 16, 8, "f32", "f32", "f32", [0x300], False, True),
    ("fp8", 16, 32, "f32", "i16", "i32", FP8_OPS, True, False),
    ("fp8", 16, 32, "i16", "i16", "i32", [o | 0xC for o in FP8_OPS], True, False),
    ("fp4", 16, 64, "f32", "i16", "i32", [0xC0000], True, False),
    ("fp4", 16, 64, "i16", "i16", "i32", [0xC000C], True, False),
]
MS = [1, 2, 4, 8]


def family_key(k, res_elem, a_elem, b_elem, c_elem, ops):
    return (k, res_elem, a_elem, b_elem, c_elem, ops)


# Table contents: sg -> set of (k, res, a, b, c, ops) ; draft flag per entry.
def _table(sg, draft):
    rows = set()
    for fam, fsg, k, r, a, b, opsl, fdraft, _tf in MMA_FAMILIES:
        if fsg == sg and fdraft == draft:
            for o in opsl:
                rows.add(family_key(k, r, a, b, r, o))
    return rows


T_SG8 = _table(8, False)
T_SG16 = _table(16, False)
T_SG16_DRAFT = _table(16, True)
TF32_KEY = family_key(8, "f32", "f32", "f32", "f32", 0x300)


def mma_row(sg, m, k, ops, res, a, b, c, paired=False):
    return {"subgroup_size": sg, "m": m, "k": k, "operands": hexs(ops), "result": type_str(res),
            "a": type_str(a), "b": type_str(b), "c": type_str(c), "paired": paired}


def mma_tables_containing(sg, m, k, ops, res, a, b, c):
    """Profiles whose matrix tables contain this exact instruction shape.

    Returns (set of profiles, table label or None, draft flag)."""
    key = family_key(k, res[0], a[0], b[0], c[0], ops)
    found = set()
    label = None
    draft = False
    if sg in (8, 16):
        m_ok = m in MS and res[1] == m and c[1] == m
        a_n = (m + 1) // 2 if key == TF32_KEY else m
        shape_ok = m_ok and a[1] == a_n and b[1] == 8
        if shape_ok and sg == 8 and key in T_SG8:
            found |= {"opencl"} | set(XE_HPG)
            label = "B.5 SG8"
        if shape_ok and sg == 16 and key in T_SG16:
            found |= {"opencl", "xe3p"} | set(XE_HPC_PLUS)
            label = "B.5 SG16" + (" (CL-TF32)" if key == TF32_KEY else "")
        if shape_ok and sg == 16 and key in T_SG16_DRAFT:
            found |= {"xe3p"}
            label = "B.5 SG16 draft (L-F8/L-F4)"
            draft = True
    elif sg == 32:
        # Paired form (B.4, DECISIONS 10): M even, Result/A/C with M/2 components, B 4.
        # No tf32 paired form (no source gives its A layout; pvc profile note).
        if m in (2, 4, 8) and res[1] == m // 2 and a[1] == m // 2 and c[1] == m // 2 \
                and b[1] == 4 and key != TF32_KEY:
            if key in T_SG16:
                found |= {"xe3p"} | set(XE_HPC_PLUS)
                label = "SG32 paired form of the B.5 SG16 row (B.4, DECISIONS 10)"
            elif key in T_SG16_DRAFT:
                found |= {"xe3p"}
                label = "SG32 paired draft row (L-F8/L-F4)"
                draft = True
    return found, label, draft


def draft_extension(ops):
    """The draft extension whose Operands bits `ops` uses (SPEC-NOTES B.2), or None."""
    if ops & 0xC0000:
        return "SPV_INTEL_subgroup_matrix_multiply_accumulate_float4"
    if ops & 0x3C000:
        return "SPV_INTEL_subgroup_matrix_multiply_accumulate_float8"
    return None


def declare_extension(data, name):
    """`data` (a SPIR-V binary) with OpExtension `name` added after its last OpExtension (or
    its last OpCapability): llc-22 cannot be asked for the draft extension strings."""
    words = list(struct.unpack("<%dI" % (len(data) // 4), data))
    pos, insert_at = 5, None
    while pos < len(words):
        count, opcode = words[pos] >> 16, words[pos] & 0xFFFF
        if count == 0:
            raise ValueError("instruction of word count 0 at word %d" % pos)
        if opcode in (10, 17):  # OpExtension, OpCapability
            insert_at = pos + count
        pos += count
    if insert_at is None:
        raise ValueError("no OpCapability to put OpExtension %s after" % name)
    text = name.encode() + b"\0"
    text += b"\0" * (-len(text) % 4)
    inst = [((1 + len(text) // 4) << 16) | 10] + list(struct.unpack("<%dI" % (len(text) // 4),
                                                                    text))
    words[insert_at:insert_at] = inst
    return struct.pack("<%dI" % len(words), *words)


def expect_mma(spec):
    """valid_on / invalid_on / in_tables / note for one matrix module description."""
    sg, m, k, ops = spec["sg"], spec["m"], spec["k"], spec["ops"]
    res, a, b, c = spec["res"], spec["a"], spec["b"], spec["c"]
    in_tables, label, _ = mma_tables_containing(sg, m, k, ops, res, a, b, c)
    if spec.get("k_nonconst"):
        in_tables, label = set(), None
    uses_draft_bits = (ops & ~0x3FFF) != 0
    notes = []
    valid, invalid, neither = set(), set(), set()
    # spec: only B.3 (types scalar/vector of int/float; K from a 32-bit integer constant).
    if spec.get("k_nonconst"):
        invalid.add("spec")
        notes.append("K Dim is not a constant instruction (B.3): invalid everywhere")
    elif (ops & 0xC) and (res[0] != "i16" or c[0] != "i16"):
        # B.2: bits 0x4 / 0x8 make C / Result bf16 data, which a non-16-bit-integer type
        # cannot hold: a contradiction within the SPIR-V rules themselves.
        invalid.add("spec")
        notes.append("bf16 C/Result bits with a C or Result that is not 16-bit integer (B.2)")
    else:
        valid.add("spec")
    for p in PROFILES[1:]:
        (valid if p in in_tables else invalid).add(p)
    if spec.get("k_nonconst"):
        valid.clear()
        invalid = set(PROFILES)
    if label:
        notes.insert(0, "row of " + label)
    elif not spec.get("k_nonconst"):
        notes.insert(0, "in no device table")
    if uses_draft_bits:
        ext = draft_extension(ops)
        if spec.get("no_draft_ext"):
            valid.clear()
            invalid = set(PROFILES)
            notes.append(
                "llc-22's output as it is: the operand bits come from the draft extension %s, "
                "which the module does not declare; DECISIONS 17 makes that an error "
                "(decl.extension.provisional) on every profile" % ext)
        else:
            notes.append(
                "the operand bits come from the draft extension %s, which llc-22 does not know "
                "(--spirv-ext rejects the name): this script adds OpExtension \"%s\" to "
                "llc-22's output, as DECISIONS 17 requires" % (ext, ext))
    if sg == 32 and not spec.get("paired"):
        for p in XE_HPC_PLUS + ["xe3p"]:
            if p in invalid:
                invalid.discard(p)
                neither.add(p)
        notes.append(
            "pvc/bmg/lnl/ptl/xe3p: rejecting a non-paired subgroup-size-32 shape rests on "
            "DECISIONS 10 (a convention), which the validator reports as a warning, not an "
            "error")
    if sg == 32 and spec.get("paired") and in_tables & set(XE_HPC_PLUS):
        notes.append("the paired form is a convention row (DECISIONS 10, B.4 IGC-MMA) in "
                     "pvc/bmg/lnl/ptl/xe3p; a remark or warning is possible, never an error")
    if "arl-h" in valid:
        notes.append("arl-h: IGC-EXT does not expose the extension on Arrow Lake; the "
                     "profile accepts it with a warning (B.8)")
    if spec.get("extra_note"):
        notes.append(spec["extra_note"])
    return ([p for p in PROFILES if p in valid], [p for p in PROFILES if p in invalid],
            sorted(in_tables | ({"spec"} if not spec.get("k_nonconst") else set()),
                   key=PROFILES.index), "; ".join(notes))


def mma_source(name, spec):
    sg, k, ops = spec["sg"], spec["k"], spec["ops"]
    rt, at, bt, ct = (cl_type(spec[x]) for x in ("res", "a", "b", "c"))
    need_half = any(spec[x][0] == "f16" for x in ("res", "a", "b", "c"))
    lines = ["// val-rows: kind=mma (generated by utils/build_val_rows.py)"]
    lines.append("// %s" % spec["desc"])
    if need_half:
        lines.append("#pragma OPENCL EXTENSION cl_khr_fp16 : enable")
    lines.append("#define OVL __attribute__((overloadable))")
    lines.append("%s OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, %s a, %s b, %s c, "
                 "int ops);" % (rt, at, bt, ct))
    lines.append("")
    lines.append("__attribute__((intel_reqd_sub_group_size(%d)))" % sg)
    kparam = ", int kdim" if spec.get("k_nonconst") else ""
    lines.append("__kernel void %s(__global const %s *A, __global const %s *B, "
                 "__global const %s *C, __global %s *D%s)" % (name, at, bt, ct, rt, kparam))
    lines.append("{")
    lines.append("    size_t gid = get_global_id(0);")
    kexpr = "kdim" if spec.get("k_nonconst") else str(k)
    lines.append("    D[gid] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(%s, A[gid], B[gid], "
                 "C[gid], 0x%X);" % (kexpr, ops))
    lines.append("}")
    return "\n".join(lines) + "\n"


def plan_mma():
    mods = []

    def add(name, spec):
        spec.setdefault("paired", False)
        mods.append((name, "mma", spec))

    # 1. Every B.5 row at every M.
    for fam, sg, k, r, a_e, b_e, opsl, draft, tf32 in MMA_FAMILIES:
        for o in opsl:
            for m in MS:
                a_n = (m + 1) // 2 if tf32 else m
                res = (r, m)
                name = "mma_sg%d_%s_k%d_%s_%s_m%d" % (sg, fam, k, r, hexs(o).lower(), m)
                add(name, {"sg": sg, "m": m, "k": k, "ops": o, "res": res, "a": (a_e, a_n),
                           "b": (b_e, 8), "c": res,
                           "desc": "%s (%s), SG%d, K %d, M %d, %s result%s" % (
                               fam, OPS_NAMES.get(o, hexs(o)), sg, k, m, r,
                               ", draft row" if draft else "")})
    # 2. SG32 paired form (DECISIONS 10) for representative types.
    paired = [("int8", 32, "i32", 0x33), ("int4", 64, "i32", 0xC0), ("fp16", 16, "f32", 0xC00),
              ("fp16", 16, "f16", 0xC00), ("bf16", 16, "f32", 0x3000),
              ("bf16", 16, "i16", 0x300C), ("fp8", 32, "f32", 0xC000),
              ("fp4", 64, "f32", 0xC0000)]
    for fam, k, r, o in paired:
        for m in (2, 4, 8):
            h = m // 2
            name = "mma_sg32_paired_%s_k%d_%s_%s_m%d" % (fam, k, r, hexs(o).lower(), m)
            add(name, {"sg": 32, "m": m, "k": k, "ops": o, "res": (r, h), "a": ("i16", h),
                       "b": ("i32", 4), "c": (r, h), "paired": True,
                       "desc": "%s (%s), SG32 paired form, K %d, M %d (Result/A/C %d "
                               "components, B 4)" % (fam, OPS_NAMES[o], k, m, h)})
    # 3. Variants that are invalid for some profiles.
    v = []
    i16x8, i32x8, f32x8 = ("i16", 8), ("i32", 8), ("f32", 8)
    v.append(("k42", "K Dim 42 (in no table)",
              dict(sg=16, m=8, k=42, ops=0x33, res=i32x8, a=i16x8, b=i32x8, c=i32x8)))
    v.append(("m3", "M = 3 (short3 A, int3 C/Result)",
              dict(sg=16, m=3, k=32, ops=0x33, res=("i32", 3), a=("i16", 3), b=i32x8,
                   c=("i32", 3))))
    v.append(("m16", "M = 16 (short16 A, int16 C/Result)",
              dict(sg=16, m=16, k=32, ops=0x33, res=("i32", 16), a=("i16", 16), b=i32x8,
                   c=("i32", 16))))
    v.append(("ops_fp16_on_int", "SG16 int8 types (int result) with operands 0xC00 (fp16), K 16",
              dict(sg=16, m=8, k=16, ops=0xC00, res=i32x8, a=i16x8, b=i32x8, c=i32x8)))
    v.append(("ops_int8_on_float", "SG16 float-result types with operands 0x33 (int8), K 32",
              dict(sg=16, m=8, k=32, ops=0x33, res=f32x8, a=i16x8, b=i32x8, c=f32x8)))
    v.append(("ops_bf16res_on_float", "SG16 bf16 with float C/Result but operands 0x300C "
              "(C and Result bf16)",
              dict(sg=16, m=8, k=16, ops=0x300C, res=f32x8, a=i16x8, b=i32x8, c=f32x8)))
    v.append(("ops_none", "SG16 int8 types with operands None (0)",
              dict(sg=16, m=8, k=32, ops=0x0, res=i32x8, a=i16x8, b=i32x8, c=i32x8)))
    v.append(("sg8row_at_sg16_int8", "SG8 int8 row (A int4, 4 int8 per component) in a SG16 kernel",
              dict(sg=16, m=4, k=32, ops=0x33, res=("i32", 4), a=("i32", 4), b=i32x8,
                   c=("i32", 4))))
    v.append(("sg8row_at_sg16_bf16", "SG8 bf16 row (A int8) in a SG16 kernel",
              dict(sg=16, m=8, k=16, ops=0x3000, res=f32x8, a=i32x8, b=i32x8, c=f32x8)))
    v.append(("sg16row_at_sg8_int8", "SG16 int8 row (A short4) in a SG8 kernel",
              dict(sg=8, m=4, k=32, ops=0x33, res=("i32", 4), a=("i16", 4), b=i32x8,
                   c=("i32", 4))))
    v.append(("sg16row_at_sg8_f16res", "fp16 with half C/Result (SG16-only row) in a SG8 kernel, "
              "A int8",
              dict(sg=8, m=8, k=16, ops=0xC00, res=("f16", 8), a=i32x8, b=i32x8, c=("f16", 8))))
    v.append(("sg16row_at_sg8_bf16res", "bf16 with short C/Result 0x300C (SG16-only row) in a SG8 "
              "kernel, A int8",
              dict(sg=8, m=8, k=16, ops=0x300C, res=i16x8, a=i32x8, b=i32x8, c=i16x8)))
    v.append(("tf32_at_sg8", "tf32 (0x300, K 8) in a SG8 kernel, A float8 (N == K layout)",
              dict(sg=8, m=8, k=8, ops=0x300, res=f32x8, a=f32x8, b=f32x8, c=f32x8)))
    v.append(("tf32_full_a_at_sg16", "tf32 at SG16 with A of M components (float8) instead of "
              "ceil(M/2)",
              dict(sg=16, m=8, k=8, ops=0x300, res=f32x8, a=f32x8, b=f32x8, c=f32x8)))
    v.append(("sg16layout_at_sg32", "SG16 int8 layout (A short8, B int8, C int8) in a SG32 "
              "kernel, not the paired form",
              dict(sg=32, m=8, k=32, ops=0x33, res=i32x8, a=i16x8, b=i32x8, c=i32x8)))
    v.append(("paired_layout_at_sg16", "paired-form shapes (A short4, B int4, C int4) in a SG16 "
              "kernel",
              dict(sg=16, m=4, k=32, ops=0x33, res=("i32", 4), a=("i16", 4), b=("i32", 4),
                   c=("i32", 4))))
    v.append(("result_ne_c", "fp16 with float8 Result but half8 C (B.3 does not require equal "
              "types; the tables and IGC do)",
              dict(sg=16, m=8, k=16, ops=0xC00, res=f32x8, a=i16x8, b=i32x8, c=("f16", 8))))
    v.append(("k_nonconst", "K Dim from a kernel argument (not a constant instruction)",
              dict(sg=16, m=8, k=32, ops=0x33, res=i32x8, a=i16x8, b=i32x8, c=i32x8,
                   k_nonconst=True)))
    v.append(("fp8_at_sg8", "fp8 row (0xC000, K 32) in a SG8 kernel with the SG8 A layout (int8)",
              dict(sg=8, m=8, k=32, ops=0xC000, res=f32x8, a=i32x8, b=i32x8, c=f32x8)))
    v.append(("fp8_without_draft_extension", "fp8 row (0xC000, K 32, M 8) as llc-22 makes it, "
              "without OpExtension \"SPV_INTEL_subgroup_matrix_multiply_accumulate_float8\" "
              "(DECISIONS 17)",
              dict(sg=16, m=8, k=32, ops=0xC000, res=f32x8, a=i16x8, b=i32x8, c=f32x8,
                   no_draft_ext=True)))
    for vname, desc, spec in v:
        spec["desc"] = "invalid variant: " + desc
        spec["variant"] = vname
        add("mma_bad_" + vname, spec)
    return mods


# ---------------------------------------------------------------------------------------
# 2D block IO rows (SPEC-NOTES A.4, payloads A.5 / A.7).

OPS_2D = {
    "load": ("Load", 6231), "load_transform": ("LoadTransform", 6232),
    "load_transpose": ("LoadTranspose", 6233), "prefetch": ("Prefetch", 6234),
    "store": ("Store", 6235),
}
A4 = [
    ("load", 1, [32], [1, 2, 4, 8, 16, 32], [1, 2]),
    ("load", 1, [16], [8, 16, 32], [4]),
    ("load", 2, [16], [1, 2, 4, 8, 16, 32], [1, 2]),
    ("load", 4, [8], [1, 2, 4, 8, 16, 32], [1, 2]),
    ("load", 4, [16], [1, 2, 4, 8, 16, 32], [1]),
    ("load_transform", 1, [16], [32], [1, 2, 4]),
    ("load_transform", 2, [16], [16, 32], [1, 2]),
    ("load_transpose", 4, [8], [16, 32], [1]),
    ("store", 1, [16, 32], [1, 2, 4, 8], [1]),
    ("store", 2, [16], [1, 2, 4, 8], [1]),
    ("store", 4, [16], [1, 2, 4, 8], [1]),
    ("prefetch", 1, [32], [1, 2, 4, 8, 16, 32], [1, 2]),
    ("prefetch", 1, [16], [32], [1, 2]),
    ("prefetch", 1, [16], [8, 16, 32], [4]),
    ("prefetch", 2, [16], [1, 2, 4, 8, 16, 32], [1, 2]),
    ("prefetch", 4, [8], [1, 2, 4, 8, 16, 32], [1, 2]),
    ("prefetch", 4, [16], [1, 2, 4, 8, 16, 32], [1]),
]
A4_SET = {(op, e, w, h, c) for op, e, ws, hs, cs in A4 for w in ws for h in hs for c in cs}


def pow2_ceil(x):
    p = 1
    while p < x:
        p *= 2
    return p


def payload(op, e, w, h, c, sg):
    """(unit bytes, units per invocation) of the private data (A.5, IGC-2D formula A.7)."""
    if op == "prefetch":
        return None
    if op == "load_transform":
        wp = pow2_ceil(w)
        hp = -(-h // (4 // e)) * (4 // e) if e in (1, 2) else h
        return 4, max(wp * hp * e // 4 // sg, 1) * c
    if op == "load_transpose":
        hp = pow2_ceil(h)
        # transposed block: W rows of Hp elements; per-invocation units of E bytes
        return e, max(w * hp // sg, 1) * c
    wp = pow2_ceil(w)
    unit = e * max(wp // sg, 1)
    return unit, c * max(h // max(sg // wp, 1), 1)


UNIT_TYPE = {1: "uchar", 2: "ushort", 4: "uint", 8: "ulong"}


def block2d_source(name, spec):
    op, e, w, h, c, sg = (spec[x] for x in ("op", "e", "w", "h", "c", "sg"))
    opname = OPS_2D[op][0]
    fn = "__spirv_Subgroup2D" + ("Block" + opname) + "INTEL"
    # The private pointer is declared with a scalar pointee of Element Size bytes (32-bit for
    # LoadTransform): with 'void *' llc-22 passes the OpVariable itself, whose pointee is an
    # array (not accepted by DECISIONS 12); a typed parameter makes it insert an OpBitcast.
    ptr_t = spec.get("ptr_type") or ("uint" if op == "load_transform" else UNIT_TYPE[e])
    es = "esize" if spec.get("e_nonconst") else str(e)
    hs = "bheight" if spec.get("h_nonconst") else str(h)
    extra = (", int esize" if spec.get("e_nonconst") else "") + \
            (", int bheight" if spec.get("h_nonconst") else "")
    lines = ["// val-rows: kind=block2d (generated by utils/build_val_rows.py)",
             "// %s" % spec["desc"], "#define OVL __attribute__((overloadable))"]
    coord = "(int2)(get_group_id(0) * %d, get_group_id(1) * %d)" % (w * c, h)
    if op in ("load", "load_transform", "load_transpose"):
        unit, n = spec["payload"]
        lines.append("void OVL %s(int, int, int, int, const __global void *, int, int, int, int2, "
                     "__private %s *);" % (fn, ptr_t))
        lines.append("")
        lines.append("__attribute__((intel_reqd_sub_group_size(%d)))" % sg)
        lines.append("__kernel void %s(__global const uchar *base, int width_bytes, int height, "
                     "int pitch_bytes, __global uint *out%s)" % (name, extra))
        lines.append("{")
        lines.append("    %s dst[%d];" % (UNIT_TYPE[unit], n))
        lines.append("    %s(%s, %d, %s, %d, base, width_bytes, height, pitch_bytes, %s, "
                     "(__private %s *)dst);" % (fn, es, w, hs, c, coord, ptr_t))
        lines.append("    out[get_global_id(0)] = (uint)dst[0] + (uint)dst[%d];" % (n - 1))
        lines.append("}")
    elif op == "store":
        unit, n = spec["payload"]
        ut = UNIT_TYPE[unit]
        lines.append("void OVL %s(int, int, int, int, __private const %s *, __global void *, int, "
                     "int, int, int2);" % (fn, ptr_t))
        lines.append("")
        lines.append("__attribute__((intel_reqd_sub_group_size(%d)))" % sg)
        lines.append("__kernel void %s(__global const %s *in, __global uchar *base, "
                     "int width_bytes, int height, int pitch_bytes%s)" % (name, ut, extra))
        lines.append("{")
        lines.append("    %s src[%d];" % (ut, n))
        lines.append("    for (int i = 0; i < %d; ++i)" % n)
        lines.append("        src[i] = in[get_global_id(0) * %d + i];" % n)
        lines.append("    %s(%s, %d, %s, %d, (__private const %s *)src, base, width_bytes, height, "
                     "pitch_bytes, %s);" % (fn, es, w, hs, c, ptr_t, coord))
        lines.append("}")
    else:
        lines.append("void OVL %s(int, int, int, int, const __global void *, int, int, int, int2);"
                     % fn)
        lines.append("")
        lines.append("__attribute__((intel_reqd_sub_group_size(%d)))" % sg)
        lines.append("__kernel void %s(__global const uchar *base, int width_bytes, int height, "
                     "int pitch_bytes%s)" % (name, extra))
        lines.append("{")
        lines.append("    %s(%s, %d, %s, %d, base, width_bytes, height, pitch_bytes, %s);"
                     % (fn, es, w, hs, c, coord))
        lines.append("}")
    return "\n".join(lines) + "\n"


def expect_block2d(spec):
    op, e, w, h, c, sg = (spec[x] for x in ("op", "e", "w", "h", "c", "sg"))
    in_a4 = (op, e, w, h, c) in A4_SET and not spec.get("h_nonconst") \
        and not spec.get("e_nonconst")
    notes = []
    valid, invalid, neither = set(), set(), set()
    in_tables = set()
    # spec: A.3 only.
    spec_ok = True
    if spec.get("h_nonconst"):
        spec_ok = False
        notes.append("Block Height is not a constant instruction (A.3 rule 1): invalid "
                     "everywhere")
    if e not in (1, 2, 4, 8):
        spec_ok = False
        notes.append("Element Size %d is not in {1, 2, 4, 8} (A.3): invalid everywhere" % e)
    if (e == 1 and w % 4) or (e == 2 and w % 2):
        spec_ok = False
        notes.append("Block Width %d is not a multiple of %d for %d-byte elements (A.3): "
                     "invalid everywhere" % (w, 4 if e == 1 else 2, e))
    if spec.get("ptr_type") and op == "load_transform" and spec["ptr_type"] != "uint":
        spec_ok = False
        notes.append("LoadTransform Dst Pointer typed with a non-32-bit pointee (A.3 rule 4): "
                     "invalid everywhere")
    if spec_ok:
        in_tables.add("spec")
    if spec_ok and in_a4 and sg == 16:
        in_tables |= set(BLOCK2D_PROFILES)
    label = "A.4 %s row (E %d, W %d, H %d, count %d)" % (OPS_2D[op][0], e, w, h, c) \
        if (op, e, w, h, c) in A4_SET else "in no A.4 row"
    notes.insert(0, label + ("" if sg == 16 else ", compiled at subgroup size %d" % sg))
    if spec_ok:
        valid.add("spec")
    else:
        invalid.add("spec")
    for p in PROFILES[1:]:
        (valid if p in in_tables else invalid).add(p)
    notes.append("dg2/arl-h: no 2D block IO (SPV_INTEL_2d_block_io not exposed, A.7)")
    if spec_ok and in_a4 and sg == 32:
        for p in BLOCK2D_PROFILES:
            invalid.discard(p)
            neither.add(p)
        notes.append("opencl/pvc/bmg/lnl/ptl/xe3p: subgroup size 32 for the SPIR-V opcodes is "
                     "UNCONFIRMED (G.6; OpenCL C requires 16, IGC accepts 32); the profiles "
                     "accept it as a convention")
    if spec_ok and in_a4 and sg == 8:
        invalid.discard("opencl")
        neither.add("opencl")
        notes.append("opencl: the SPIR-V environment does not restate a subgroup size (G.6, "
                     "UNCONFIRMED; OpenCL C requires 16); pvc/bmg/lnl/ptl/xe3p have no "
                     "subgroup size 8")
    if spec.get("e_nonconst"):
        for p in ["spec"] + BLOCK2D_PROFILES:
            valid.discard(p)
            invalid.discard(p)
            neither.add(p)
        notes.append("Element Size from a kernel argument: requiring a constant is a reading "
                     "(G.5, DECISIONS 6; the text is ambiguous), reported as a warning")
    if spec.get("ptr_note"):
        for p in ["spec"] + BLOCK2D_PROFILES:
            if p in valid or p in invalid:
                valid.discard(p)
                invalid.discard(p)
                neither.add(p)
        notes.append(spec["ptr_note"])
    if spec.get("extra_note"):
        notes.append(spec["extra_note"])
    return ([p for p in PROFILES if p in valid], [p for p in PROFILES if p in invalid],
            [p for p in PROFILES if p in in_tables], "; ".join(notes))


def plan_block2d():
    mods = []

    def add(name, spec):
        spec["payload"] = spec.get("payload") or payload(spec["op"], spec["e"], spec["w"],
                                                         spec["h"], spec["c"], spec["sg"])
        mods.append((name, "block2d", spec))

    for op, e, ws, hs, cs in A4:
        for w in ws:
            for h in hs:
                for c in cs:
                    name = "b2d_%s_e%d_w%d_h%d_c%d" % (op, e, w, h, c)
                    add(name, {"op": op, "e": e, "w": w, "h": h, "c": c, "sg": 16,
                               "desc": "A.4 row: %s, Element Size %d, Block Width %d, Height %d, "
                                       "Count %d, SG16" % (OPS_2D[op][0], e, w, h, c)})
    var = [
        ("w24_e2", "Block Width 24 with Element Size 2", dict(op="load", e=2, w=24, h=8, c=1)),
        ("e3", "Element Size 3", dict(op="load", e=3, w=16, h=8, c=1, payload=(1, 48),
                                      ptr_type="uchar")),
        ("w30_e1", "Block Width 30 with Element Size 1", dict(op="load", e=1, w=30, h=8, c=1)),
        ("e8", "Element Size 8 (SPIR-V only, no OpenCL row)", dict(op="load", e=8, w=8, h=8, c=1,
                                                                  payload=(8, 8))),
        ("h64", "Block Height 64", dict(op="load", e=2, w=16, h=64, c=1)),
        ("store_c2", "Store with Block Count 2", dict(op="store", e=2, w=16, h=8, c=2)),
        ("transpose_h8", "LoadTranspose with Block Height 8", dict(op="load_transpose", e=4, w=8,
                                                                  h=8, c=1)),
        ("prefetch_w64_e1", "Prefetch Element Size 1, Block Width 64",
         dict(op="prefetch", e=1, w=64, h=8, c=1)),
        ("load_at_sg8", "A.4 load row (E 2, W 16, H 8) in a SG8 kernel",
         dict(op="load", e=2, w=16, h=8, c=1, sg=8)),
        ("load_at_sg32", "A.4 load row (E 2, W 16, H 8) in a SG32 kernel",
         dict(op="load", e=2, w=16, h=8, c=1, sg=32)),
        ("h_nonconst", "Block Height from a kernel argument",
         dict(op="load", e=2, w=16, h=8, c=1, h_nonconst=True)),
        ("e_nonconst", "Element Size from a kernel argument",
         dict(op="load", e=2, w=16, h=8, c=1, e_nonconst=True)),
        ("transform_dst_ushort", "LoadTransform (E 2, W 16, H 16) with a ushort-typed Dst Pointer",
         dict(op="load_transform", e=2, w=16, h=16, c=1, ptr_type="ushort")),
        ("load_dst_uint_e2", "Load (E 2, W 16, H 8) with a uint-typed Dst Pointer",
         dict(op="load", e=2, w=16, h=8, c=1, ptr_type="uint",
              extra_note="A.3 constrains the typed Dst Pointer only for LoadTransform and "
                         "DECISIONS 12 (revised) accepts any private pointee for a plain load: "
                         "valid wherever the row is")),
    ]
    for vname, desc, spec in var:
        spec.setdefault("sg", 16)
        spec["desc"] = "invalid variant: %s (%s, E %d, W %d, H %d, count %d, SG%d)" % (
            desc, OPS_2D[spec["op"]][0], spec["e"], spec["w"], spec["h"], spec["c"], spec["sg"])
        spec["variant"] = vname
        add("b2d_bad_" + vname, spec)
    return mods


# ---------------------------------------------------------------------------------------
# Intel subgroup typing rows (SPEC-NOTES C.3 / C.4; grammar/devices/opencl.json subgroup_ops,
# inherited unchanged by dg2/arl-h/pvc/bmg/lnl/ptl/xe3p, all with subgroup_type_features
# char/short/long; spec has "no_table": only the SPIR-V rules of C.2 apply).

SG_OPCODES = {"shuffle": 5571, "shuffle_down": 5572, "shuffle_up": 5573, "shuffle_xor": 5574,
              "block_read": 5575, "block_write": 5576, "broadcast": 263, "iadd": 264,
              "umin": 267, "smin": 268, "umax": 270, "smax": 271}
SG_ELEM = {"char": "i8", "uchar": "i8", "short": "i16", "ushort": "i16", "int": "i32",
           "uint": "i32", "long": "i64", "ulong": "i64", "half": "f16", "float": "f32",
           "double": "f64"}
GROUP_OPS = {"Reduce": 0, "InclusiveScan": 1, "ExclusiveScan": 2}
SUBGROUP_PROFILES = PROFILES[1:]        # all inherit the opencl subgroup_ops table


def sg_type(spec):
    return (SG_ELEM[spec["cl"]], spec["n"])


def sg_cl(spec):
    return spec["cl"] + ("" if spec["n"] == 1 else str(spec["n"]))


def subgroup_table_row(spec):
    """(row found, convention note or None, feature) per the opencl subgroup_ops table."""
    op, (elem, n) = spec["op"], sg_type(spec)
    bits, kind = int(elem[1:]), ("float" if elem[0] == "f" else "int")
    if op.startswith("shuffle"):
        if kind == "int" and bits == 32 or kind == "float" and bits == 32:
            return n in (1, 2, 3, 4, 8, 16), None, None
        if kind == "int" and bits == 64:
            return n == 1, None, None
        if kind == "float" and bits in (16, 64):
            return n == 1, None, None            # needs Float16 / Float64 (llc declares it)
        if kind == "int" and bits in (8, 16):
            return n in (1, 2, 3, 4, 8, 16), None, "char" if bits == 8 else "short"
        return False, None, None
    if op.startswith("block"):
        if kind != "int":
            return False, None, None
        if bits == 16 and n == 16:
            return True, ("G.7: 16-vectors of 16-bit block IO come from cl_intel_subgroups_short "
                          "1.1.0 (OpenCL C level); the SPIR-V environment text lists 2, 4, 8: "
                          "a convention row (accepted with a warning)"), "short"
        sizes = (1, 2, 4, 8, 16) if bits == 8 else (1, 2, 4, 8)
        return n in sizes, None, {8: "char", 16: "short", 64: "long"}.get(bits)
    # OpGroup* rows (C.4): 8- and 16-bit scalars, Execution Subgroup.
    if kind != "int" or n != 1 or bits not in (8, 16):
        return False, None, None
    if bits == 8 and spec.get("group_op") == "ExclusiveScan":
        return True, ("G.12 / DECISIONS 8: the 8-bit exclusive-scan identities are a reading; "
                      "the row is a convention row (accepted with a warning)"), "char"
    return True, None, "char" if bits == 8 else "short"


def expect_subgroups(spec):
    found, conv, feature = subgroup_table_row(spec)
    valid, invalid = {"spec"}, set()
    notes = []
    label = "%s on %s" % (spec["op"], type_str(sg_type(spec)))
    if spec.get("group_op"):
        label += " (%s)" % spec["group_op"]
    if found:
        notes.append("row of the C.3/C.4 table: " + label +
                     (" (feature %s, in every profile's subgroup_type_features)" % feature
                      if feature else ""))
    else:
        notes.append("in no C.3/C.4 row: " + label + "; C.2 allows any scalar/vector type "
                     "(spec: no table)")
    in_tables = ["spec"] + (SUBGROUP_PROFILES if found else [])
    if found and conv:
        notes.append("opencl/dg2/arl-h/pvc/bmg/lnl/ptl/xe3p in neither list: " + conv)
    elif found:
        valid |= set(SUBGROUP_PROFILES)
    else:
        invalid |= set(SUBGROUP_PROFILES)
    if spec.get("extra_note"):
        notes.append(spec["extra_note"])
    return ([p for p in PROFILES if p in valid], [p for p in PROFILES if p in invalid],
            in_tables, "; ".join(notes))


BLOCK_SUFFIX = {"i8": "_uc", "i16": "_us", "i32": "", "i64": "_ul", "f32": ""}


def subgroups_source(name, spec):
    op, t, n = spec["op"], sg_cl(spec), spec["n"]
    base = spec["cl"]
    lines = ["// val-rows: kind=subgroups (generated by utils/build_val_rows.py)",
             "// %s" % spec["desc"]]
    if SG_ELEM[base] == "f16":
        lines.append("#pragma OPENCL EXTENSION cl_khr_fp16 : enable")
    if SG_ELEM[base] == "f64":
        lines.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable")
    lines.append("#define OVL __attribute__((overloadable))")
    body = []
    params = "__global const %s *in, __global %s *out" % (t, t)
    if op in ("shuffle", "shuffle_xor"):
        fn = "intel_sub_group_" + op
        lines.append("%s OVL %s(%s x, uint c);" % (t, fn, t))
        params += ", uint c"
        body.append("out[gid] = %s(in[gid], c);" % fn)
    elif op in ("shuffle_down", "shuffle_up"):
        fn = "intel_sub_group_" + op
        lines.append("%s OVL %s(%s cur, %s next, uint c);" % (t, fn, t, t))
        params += ", uint c"
        body.append("out[gid] = %s(in[gid], in[gid + 1], c);" % fn)
    elif op in ("block_read", "block_write"):
        suffix = spec.get("suffix", BLOCK_SUFFIX[SG_ELEM[base]]) + ("" if n == 1 else str(n))
        fn = "intel_sub_group_" + op + suffix
        if op == "block_read":
            lines.append("%s OVL %s(const __global %s *p);" % (t, fn, base))
            params = "__global const %s *in, __global %s *out" % (base, t)
            body.append("out[gid] = %s(in + get_group_id(0) * %d);" % (fn, 16 * n))
        else:
            lines.append("void OVL %s(__global %s *p, %s v);" % (fn, base, t))
            params = "__global const %s *in, __global %s *out" % (t, base)
            body.append("%s(out + get_group_id(0) * %d, in[gid]);" % (fn, 16 * n))
    else:
        fn = spec["fn"]
        if op == "broadcast":
            params += ", uint lane"
            body.append("out[gid] = %s(in[gid], lane);" % fn)
        else:
            body.append("out[gid] = %s(in[gid]);" % fn)
    lines.append("")
    lines.append("__attribute__((intel_reqd_sub_group_size(%d)))" % spec["sg"])
    lines.append("__kernel void %s(%s)" % (name, params))
    lines.append("{")
    lines.append("    size_t gid = get_global_id(0);")
    lines += ["    " + b for b in body]
    lines.append("}")
    return "\n".join(lines) + "\n"


def plan_subgroups():
    mods = []

    def add(name, spec):
        spec.setdefault("sg", 16)
        mods.append((name, "subgroups", spec))

    shuffle_types = [(b, n) for b in ("int", "uint", "float") for n in (1, 2, 3, 4, 8, 16)]
    shuffle_types += [("long", 1), ("ulong", 1), ("half", 1), ("double", 1)]
    shuffle_types += [(b, n) for b in ("short", "ushort", "char", "uchar")
                      for n in (1, 2, 3, 4, 8, 16)]
    for op in ("shuffle", "shuffle_down", "shuffle_up", "shuffle_xor"):
        for b, n in shuffle_types:
            spec = {"op": op, "cl": b, "n": n}
            t = sg_cl(spec)
            spec["desc"] = "C.3 row: intel_sub_group_%s on %s" % (op, t)
            add("sg_%s_%s" % (op, t), spec)
    block = [("uint", n) for n in (1, 2, 4, 8)] + [("ushort", n) for n in (1, 2, 4, 8)] + \
        [("uchar", n) for n in (1, 2, 4, 8, 16)] + [("ulong", n) for n in (1, 2, 4, 8)]
    for op in ("block_read", "block_write"):
        for b, n in block:
            spec = {"op": op, "cl": b, "n": n}
            t = sg_cl(spec)
            spec["desc"] = "C.3 row: intel_sub_group_%s%s%s on a global %s pointer" % (
                op, BLOCK_SUFFIX[SG_ELEM[b]], "" if n == 1 else n, b)
            add("sg_%s_%s" % (op, t), spec)
    # 32-bit block IO by the _ui alias names (cl_intel_subgroups_char, C.4).
    for op in ("block_read", "block_write"):
        for n in (1, 2, 4, 8):
            spec = {"op": op, "cl": "uint", "n": n, "suffix": "_ui"}
            spec["desc"] = "C.3 row: intel_sub_group_%s_ui%s (C.4 alias)" % (op, "" if n == 1
                                                                            else n)
            add("sg_%s_ui_%s" % (op, sg_cl(spec)), spec)
    # OpGroup* on 8- and 16-bit scalars (C.4). llc-22 leaves intel_sub_group_reduce_* /
    # _scan_* / intel_sub_group_broadcast on char/uchar as imported functions; the
    # cl_khr_subgroup_extended_types names sub_group_* emit OpGroup* on 8-bit types.
    for b in ("char", "uchar", "short", "ushort"):
        signed = b in ("char", "short")
        for gop, pre in (("Reduce", "reduce"), ("InclusiveScan", "scan_inclusive"),
                         ("ExclusiveScan", "scan_exclusive")):
            for what, opn in (("add", "iadd"), ("min", "smin" if signed else "umin"),
                              ("max", "smax" if signed else "umax")):
                fn = "sub_group_%s_%s" % (pre, what)
                spec = {"op": opn, "cl": b, "n": 1, "group_op": gop, "fn": fn,
                        "desc": "C.4 row: %s on %s (OpGroup%s, %s)" % (fn, b, opn.upper()[0]
                                                                   + opn[1:], gop)}
                add("sg_group_%s_%s_%s" % (opn, pre, b), spec)
        spec = {"op": "broadcast", "cl": b, "n": 1, "fn": "sub_group_broadcast",
                "desc": "C.4 row: sub_group_broadcast on %s (OpGroupBroadcast)" % b,
                "extra_note": "made with sub_group_broadcast: llc-22 leaves "
                              "intel_sub_group_broadcast as an imported function"}
        add("sg_group_broadcast_%s" % b, spec)
    # Variants that are in no row (or in a convention row) of the opencl-derived tables.
    var = [
        ("shuffle_ulong2", "intel_sub_group_shuffle on ulong2 (64-bit vectors: no row)",
         dict(op="shuffle", cl="ulong", n=2)),
        ("shuffle_long4_xor", "intel_sub_group_shuffle_xor on long4 (64-bit vectors: no row)",
         dict(op="shuffle_xor", cl="long", n=4)),
        ("shuffle_half2", "intel_sub_group_shuffle on half2 (16-bit float only scalar)",
         dict(op="shuffle", cl="half", n=2)),
        ("shuffle_down_double2", "intel_sub_group_shuffle_down on double2 (64-bit float only "
         "scalar)", dict(op="shuffle_down", cl="double", n=2)),
        ("block_read_float", "intel_sub_group_block_read on a global float pointer (block IO is "
         "integer only in C.3)", dict(op="block_read", cl="float", n=1)),
        ("block_write_float4", "intel_sub_group_block_write4 of float4 to a global float "
         "pointer", dict(op="block_write", cl="float", n=4)),
        ("block_read_us16", "intel_sub_group_block_read_us16 (convention row, G.7)",
         dict(op="block_read", cl="ushort", n=16)),
        ("block_write_us16", "intel_sub_group_block_write_us16 (convention row, G.7)",
         dict(op="block_write", cl="ushort", n=16)),
        ("block_read_ul16", "intel_sub_group_block_read_ul16 (64-bit: 1, 2, 4, 8 only)",
         dict(op="block_read", cl="ulong", n=16)),
    ]
    for vname, desc, spec in var:
        spec["desc"] = "variant: " + desc
        spec["variant"] = vname
        add("sg_bad_" + vname, spec)
    return mods


def check_subgroups(mod, spec, errs):
    opcode = SG_OPCODES[spec["op"]]
    insts = mod.find(opcode)
    if not insts:
        errs.append("no opcode %d" % opcode)
    want = type_str(sg_type(spec))
    for ins in insts:
        if spec["op"] == "block_write":
            have = mod.value_type(ins[2])
        else:
            have = mod.type_name(ins[1])
        if have != want:
            errs.append("data type %s, expected %s" % (have, want))
        if spec["op"] in ("block_read", "block_write"):
            ptr = mod.value_type(ins[1] if spec["op"] == "block_write" else ins[3])
            if not ptr.startswith("ptr CrossWorkgroup "):
                errs.append("pointer %s, expected a CrossWorkgroup pointer" % ptr)
        if opcode in range(263, 272):
            if mod.consts.get(ins[3]) != 3:
                errs.append("Execution scope %r, expected Subgroup (3)" % mod.consts.get(ins[3]))
            if spec.get("group_op") and ins[4] != GROUP_OPS[spec["group_op"]]:
                errs.append("GroupOperation %d, expected %s" % (ins[4], spec["group_op"]))
    return len(insts)


# ---------------------------------------------------------------------------------------
# Split matrix MAD built-ins (SPEC-NOTES D): no SPIR-V form; llc-22 keeps each call as an
# OpFunctionCall of an imported function (LinkageAttributes ... Import).

SPLIT_FNS = [  # (family, K, a base type, b type, acc/result elem)
    ("i8_i8", 32, "int", "int8", "int"), ("i8_u8", 32, "int", "uint8", "int"),
    ("u8_i8", 32, "uint", "int8", "int"), ("u8_u8", 32, "uint", "uint8", "int"),
    ("bf16_bf16", 16, "int", "int8", "float"), ("f16_f16", 16, "int", "int8", "float"),
]
SPLIT_TABLE_PROFILES = ["opencl", "dg2", "arl-h"]     # + spec (signature only, any size)
SPLIT_NONE_PROFILES = XE_HPC_PLUS + ["xe3p"]


def split_fn(fam, k):
    return "intel_sub_group_%s_split_matrix_mad_k%d" % (fam, k)


def split_types(spec):
    m, h = spec["m"], spec["m"] // 2
    at = spec["a_cl"] + ("" if h == 1 else str(h))
    acc = spec["acc_cl"] + str(m)
    return at, spec["b_cl"], acc


def split_source(name, spec):
    at, bt, acc = split_types(spec)
    fn = split_fn(spec["fam"], spec["k"])
    lines = ["// val-rows: kind=split-mad (generated by utils/build_val_rows.py)",
             "// %s" % spec["desc"], "#define OVL __attribute__((overloadable))",
             "%s OVL %s(%s a, %s b, %s acc);" % (acc, fn, at, bt, acc), "",
             "__attribute__((intel_reqd_sub_group_size(%d)))" % spec["sg"],
             "__kernel void %s(__global const %s *A, __global const %s *B, "
             "__global %s *C)" % (name, at, bt, acc),
             "{", "    size_t gid = get_global_id(0);",
             "    C[gid] = %s(A[gid], B[gid], C[gid]);" % fn, "}"]
    return "\n".join(lines) + "\n"


def expect_split(spec):
    notes = []
    valid, invalid = {"spec"}, set()
    in_tables = ["spec"]
    notes.append("spec: signature table of D without a subgroup-size restriction")
    if spec["sg"] == 8:
        valid |= set(SPLIT_TABLE_PROFILES)
        in_tables += SPLIT_TABLE_PROFILES
        notes.insert(0, "row of D: %s, M %d, SG8" % (split_fn(spec["fam"], spec["k"]),
                                                      spec["m"]))
        notes.append("opencl/dg2/arl-h: the rows are convention rows (G.3 / DECISIONS 9, "
                     "subgroup pairing): a warning, never an error, so valid")
    else:
        invalid |= set(SPLIT_TABLE_PROFILES)
        notes.insert(0, "D requires subgroup size 8; compiled at subgroup size %d" % spec["sg"])
    invalid |= set(SPLIT_NONE_PROFILES)
    notes.append("pvc/bmg/lnl/ptl/xe3p: split_matrix_mad \"none\" (no fused EUs, no dpasw)")
    return ([p for p in PROFILES if p in valid], [p for p in PROFILES if p in invalid],
            in_tables, "; ".join(notes))


def plan_split():
    mods = []
    for fam, k, a_cl, b_cl, acc_cl in SPLIT_FNS:
        for m in (2, 4, 8):
            spec = {"fam": fam, "k": k, "m": m, "sg": 8, "a_cl": a_cl, "b_cl": b_cl,
                    "acc_cl": acc_cl}
            at, bt, acc = split_types(spec)
            spec["desc"] = "D row: %s %s(%s a, %s b, %s acc), M %d, SG8" % (
                acc, split_fn(fam, k), at, bt, acc, m)
            mods.append(("split_%s_k%d_m%d" % (fam, k, m), "split-mad", spec))
    spec = {"fam": "i8_i8", "k": 32, "m": 8, "sg": 16, "a_cl": "int", "b_cl": "int8",
            "acc_cl": "int", "variant": "sg16"}
    at, bt, acc = split_types(spec)
    spec["desc"] = "invalid variant: %s %s(%s, %s, %s) at subgroup size 16" % (
        acc, split_fn("i8_i8", 32), at, bt, acc)
    mods.append(("split_bad_i8_i8_k32_m8_sg16", "split-mad", spec))
    return mods


def check_split(mod, spec, errs):
    fn = split_fn(spec["fam"], spec["k"])
    imports = {}
    for ins in mod.find(71):                     # OpDecorate ... LinkageAttributes (41)
        if len(ins) > 3 and ins[2] == 41:
            lname = mod.string(ins[3:])
            nwords = (len(lname.encode()) + 4) // 4
            imports[ins[1]] = (lname, ins[3 + nwords] if 3 + nwords < len(ins) else None)
    targets = [i for i, (n, lt) in imports.items() if fn in n and lt == 1]
    if len(targets) != 1:
        errs.append("no single imported function named like %s (%r)" % (fn, imports))
        return 0
    calls = [ins for ins in mod.find(57) if ins[3] == targets[0]]
    if not calls:
        errs.append("no OpFunctionCall of %s" % fn)
    at, bt, acc = split_types(spec)
    want = {"result": "%s x %d" % (SG_ELEM[spec["acc_cl"]], spec["m"]),
            "a": "i32" if spec["m"] == 2 else "i32 x %d" % (spec["m"] // 2), "b": "i32 x 8"}
    for ins in calls:
        got = {"result": mod.type_name(ins[1]), "a": mod.value_type(ins[4]),
               "b": mod.value_type(ins[5])}
        for key in want:
            if got[key] != want[key]:
                errs.append("%s type %s, expected %s" % (key, got[key], want[key]))
    return len(calls)


# ---------------------------------------------------------------------------------------
# SPIR-V word reader.

class Module:
    def __init__(self, data):
        if len(data) % 4 or len(data) < 20:
            raise ValueError("not a whole number of words")
        self.words = list(struct.unpack("<%dI" % (len(data) // 4), data))
        if self.words[0] != 0x07230203:
            raise ValueError("bad magic")
        self.insts = []
        i = 5
        while i < len(self.words):
            wc = self.words[i] >> 16
            if wc == 0 or i + wc > len(self.words):
                raise ValueError("bad word count at word %d" % i)
            self.insts.append(self.words[i:i + wc])
            i += wc
        self.types, self.consts, self.result_type = {}, {}, {}
        self.extensions, self.entry_points, self.exec_modes = [], {}, []
        self.capabilities = []
        # Opcodes of the instructions used here that have (Result Type, Result).
        typed = {1, 43, 44, 46, 50, 54, 55, 57, 59, 61, 65, 67, 70, 77, 79, 80, 81, 82, 124,
                 6237, 263, 264, 267, 268, 270, 271, 5571, 5572, 5573, 5574, 5575}
        for ins in self.insts:
            op = ins[0] & 0xFFFF
            if op == 17:
                self.capabilities.append(ins[1])
            elif op == 10:
                self.extensions.append(self.string(ins[1:]))
            elif op == 15:
                self.entry_points[ins[2]] = self.string(ins[3:])
            elif op == 16:
                self.exec_modes.append((ins[1], ins[2], ins[3:]))
            elif op == 21:
                self.types[ins[1]] = ("i%d" % ins[2],)
            elif op == 22:
                self.types[ins[1]] = ("f%d" % ins[2],)
            elif op == 23:
                self.types[ins[1]] = ("vec", ins[2], ins[3])
            elif op == 28:
                self.types[ins[1]] = ("array", ins[2])
            elif op == 32:
                self.types[ins[1]] = ("ptr", ins[2], ins[3])
            if op == 43:
                self.consts[ins[2]] = ins[3]
            if op in typed and len(ins) > 2:
                self.result_type[ins[2]] = ins[1]

    @staticmethod
    def string(words):
        b = b"".join(struct.pack("<I", w) for w in words)
        return b.split(b"\0", 1)[0].decode()

    def type_name(self, tid):
        t = self.types.get(tid)
        if t is None:
            return "?"
        if t[0] == "vec":
            return "%s x %d" % (self.type_name(t[1]), t[2])
        if t[0] == "array":
            return "array"
        if t[0] == "ptr":
            sc = {7: "Function", 5: "CrossWorkgroup"}.get(t[1], str(t[1]))
            return "ptr %s %s" % (sc, self.type_name(t[2]))
        return t[0]

    def value_type(self, vid):
        return self.type_name(self.result_type.get(vid, -1))

    def find(self, opcode):
        return [ins for ins in self.insts if ins[0] & 0xFFFF == opcode]


def check_module(path, kind, name, spec):
    """Check the compiled module; return a dict of facts for the manifest or raise."""
    with open(path, "rb") as f:
        mod = Module(f.read())
    errs = []
    eps = [i for i, n in mod.entry_points.items() if n == name]
    if len(eps) != 1:
        errs.append("entry point %r not found" % name)
    else:
        sgs = [lits[0] for ep, mode, lits in mod.exec_modes if ep == eps[0] and mode == 35]
        if sgs != [spec["sg"]]:
            errs.append("SubgroupSize execution mode %r, expected %d" % (sgs, spec["sg"]))
    facts = {"entry_point": name, "extensions": sorted(mod.extensions)}
    if kind == "subgroups":
        facts["count"] = check_subgroups(mod, spec, errs)
    elif kind == "split-mad":
        facts["count"] = check_split(mod, spec, errs)
    elif kind == "mma":
        insts = mod.find(6237)
        if not insts:
            errs.append("no OpSubgroupMatrixMultiplyAccumulateINTEL (6237)")
        for ins in insts:
            if spec.get("k_nonconst"):
                if ins[3] in mod.consts:
                    errs.append("K Dim is a constant")
            elif mod.consts.get(ins[3]) != spec["k"]:
                errs.append("K Dim %r, expected %d" % (mod.consts.get(ins[3]), spec["k"]))
            lit = ins[7] if len(ins) > 7 else None
            if lit != spec["ops"]:
                errs.append("operands literal %r, expected 0x%X" % (lit, spec["ops"]))
            got = {"result": mod.type_name(ins[1]), "a": mod.value_type(ins[4]),
                   "b": mod.value_type(ins[5]), "c": mod.value_type(ins[6])}
            for key in ("res", "a", "b", "c"):
                want = type_str(spec[key])
                have = got["result" if key == "res" else key]
                if have != want:
                    errs.append("%s type %s, expected %s" % (key, have, want))
        facts["count"] = len(insts)
    else:
        opcode = OPS_2D[spec["op"]][1]
        insts = mod.find(opcode)
        if not insts:
            errs.append("no opcode %d" % opcode)
        pointees = set()
        for ins in insts:
            for idx, key in ((1, "e"), (2, "w"), (3, "h"), (4, "c")):
                if (key == "h" and spec.get("h_nonconst")) or (key == "e" and spec.get("e_nonconst")):
                    if ins[idx] in mod.consts:
                        errs.append("%s is a constant" % key)
                    continue
                if mod.consts.get(ins[idx]) != spec[key]:
                    errs.append("%s = %r, expected %d" % (key, mod.consts.get(ins[idx]), spec[key]))
            if spec["op"] != "prefetch":
                priv = ins[5] if spec["op"] == "store" else ins[10]
                pointees.add(mod.value_type(priv))
        facts["count"] = len(insts)
        if pointees:
            facts["private_pointer"] = sorted(pointees)[0] if len(pointees) == 1 \
                else sorted(pointees)
            if any("array" in p or "?" in p for p in pointees):
                errs.append("private pointer %r is not a pointer to a scalar" % sorted(pointees))
    if errs:
        raise RuntimeError("%s: %s" % (name, "; ".join(errs)))
    return facts


# ---------------------------------------------------------------------------------------
# Driver.

def tool_version(tool):
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        sys.exit("build_val_rows: error: cannot run %s: %s" % (tool, exc))
    return out.stdout.strip()


def compile_one(src_path, bc_path, spv_path, log):
    cwd = os.path.dirname(src_path)
    r = subprocess.run([CLANG] + CLANG_FLAGS + [os.path.basename(src_path), "-o", bc_path],
                       cwd=cwd, capture_output=True, text=True)
    if r.returncode:
        log.append("clang-22: " + (r.stderr or r.stdout))
        return False
    r = subprocess.run([LLC] + LLC_FLAGS + [bc_path, "-o", spv_path], capture_output=True,
                       text=True)
    if r.returncode:
        log.append("llc-22: " + (r.stderr or r.stdout))
        return False
    return os.path.getsize(spv_path) > 0


def write_if_changed(path, data):
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    with open(path, "wb") as f:
        f.write(data)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scratch", default=os.path.join(tempfile.gettempdir(), "xmx-val-rows"),
                    help="directory for generated .cl, bitcode and the compile cache")
    ap.add_argument("--out", default=OUT_DIR, help="output directory (default test/val/rows)")
    ap.add_argument("--force", action="store_true", help="ignore the compile cache")
    ap.add_argument("--list", action="store_true", help="list the planned modules and exit")
    args = ap.parse_args()

    plan = plan_mma() + plan_block2d() + plan_subgroups() + plan_split()
    names = [n for n, _, _ in plan]
    assert len(names) == len(set(names)), "duplicate module names"
    if args.list:
        for name, kind, spec in plan:
            print("%-8s %s" % (kind, name))
        print("%d modules" % len(plan))
        return 0

    t0 = time.time()
    llc_lines = [l.strip() for l in tool_version(LLC).splitlines() if l.strip()]
    versions = tool_version(CLANG).splitlines()[0] + " | " + \
        next((l for l in llc_lines if "version" in l.lower()), llc_lines[0])
    flags_key = " ".join(CLANG_FLAGS + ["||"] + LLC_FLAGS) + "||" + versions
    os.makedirs(args.scratch, exist_ok=True)

    manifest, outputs, failures = [], {}, []
    compiled = cached = 0
    for name, kind, spec in plan:
        src = {"mma": mma_source, "block2d": block2d_source, "subgroups": subgroups_source,
               "split-mad": split_source}[kind](name, spec)
        key = hashlib.sha256((flags_key + "\n" + src).encode()).hexdigest()
        src_path = os.path.join(args.scratch, name + ".cl")
        spv_path = os.path.join(args.scratch, name + ".spv")
        key_path = os.path.join(args.scratch, name + ".key")
        hit = (not args.force and os.path.exists(spv_path) and os.path.exists(key_path)
               and open(key_path).read() == key)
        if not hit:
            write_if_changed(src_path, src.encode())
            if os.path.exists(key_path):
                os.remove(key_path)
            log = []
            if not compile_one(src_path, os.path.join(args.scratch, name + ".bc"), spv_path, log):
                failures.append("%s: %s" % (name, "".join(log).strip()[:600]))
                print("build_val_rows: FAILED %s" % name, file=sys.stderr)
                continue
            with open(key_path, "w") as f:
                f.write(key)
            compiled += 1
        else:
            cached += 1
        ext = draft_extension(spec["ops"]) if kind == "mma" else None
        if ext and not spec.get("no_draft_ext"):
            with open(spv_path, "rb") as f:
                patched = declare_extension(f.read(), ext)
            spv_path = os.path.join(args.scratch, name + ".ext.spv")
            write_if_changed(spv_path, patched)
        try:
            facts = check_module(spv_path, kind, name, spec)
        except (RuntimeError, ValueError) as exc:
            failures.append("check: %s" % exc)
            continue
        with open(spv_path, "rb") as f:
            outputs[name + ".spv"] = f.read()
        if kind == "mma":
            row = mma_row(spec["sg"], spec["m"], spec["k"], spec["ops"], spec["res"], spec["a"],
                          spec["b"], spec["c"], spec.get("paired", False))
            valid_on, invalid_on, in_tables, note = expect_mma(spec)
        elif kind == "subgroups":
            row = {"op": spec["op"], "type": type_str(sg_type(spec)),
                   "opcode": SG_OPCODES[spec["op"]], "subgroup_size": spec["sg"]}
            if spec.get("group_op"):
                row["group_operation"] = spec["group_op"]
            valid_on, invalid_on, in_tables, note = expect_subgroups(spec)
        elif kind == "split-mad":
            at, bt, acc = split_types(spec)
            row = {"function": split_fn(spec["fam"], spec["k"]), "k": spec["k"],
                   "m": spec["m"], "subgroup_size": spec["sg"], "a": at, "b": bt,
                   "c": acc, "result": acc}
            valid_on, invalid_on, in_tables, note = expect_split(spec)
        else:
            row = {"op": spec["op"], "element_size": spec["e"], "block_width": spec["w"],
                   "block_height": spec["h"], "block_count": spec["c"],
                   "subgroup_size": spec["sg"]}
            if spec["payload"]:
                unit, n = spec["payload"]
                row["payload"] = "%d x %d-byte" % (n, unit)
            valid_on, invalid_on, in_tables, note = expect_block2d(spec)
        if spec.get("k_nonconst"):
            row["k"] = None
        if spec.get("h_nonconst"):
            row["block_height"] = None
        if spec.get("e_nonconst"):
            row["element_size"] = None
        assert not set(valid_on) & set(invalid_on)
        manifest.append({"file": name + ".spv", "kind": kind, "variant": spec.get("variant"),
                         "description": spec["desc"], "row": row, "valid_on": valid_on,
                         "invalid_on": invalid_on, "in_tables": in_tables, "note": note,
                         "module": facts})

    if failures:
        print("\nbuild_val_rows: %d failure(s); %s left unchanged:" % (len(failures), args.out),
              file=sys.stderr)
        for f in failures:
            print("  " + f.replace("\n", "\n    "), file=sys.stderr)
        return 1

    os.makedirs(args.out, exist_ok=True)
    written = 0
    for fname, data in outputs.items():
        written += write_if_changed(os.path.join(args.out, fname), data)
    stale = [f for f in os.listdir(args.out) if f.endswith(".spv") and f not in outputs]
    for f in stale:
        os.remove(os.path.join(args.out, f))
    doc = {"generator": "utils/build_val_rows.py", "tools": versions,
           "clang_flags": CLANG_FLAGS, "llc_flags": LLC_FLAGS, "profiles": PROFILES,
           "modules": manifest}
    text = json.dumps(doc, indent=1) + "\n"
    written += write_if_changed(os.path.join(args.out, "manifest.json"), text.encode())

    # Summary.
    def count(pred):
        return sum(1 for m in manifest if pred(m))
    size = sum(len(d) for d in outputs.values()) + len(text)
    print("build_val_rows: summary")
    print("  modules: %d (compiled %d, from cache %d); files written/changed: %d; stale removed: %d"
          % (len(manifest), compiled, cached, written, len(stale)))
    for kind in ("mma", "block2d", "subgroups", "split-mad"):
        print("  %-9s table rows: %3d   invalid variants: %2d" % (
            kind, count(lambda m: m["kind"] == kind and not m["variant"]),
            count(lambda m: m["kind"] == kind and m["variant"])))
    print("  per profile (valid / invalid / neither):")
    for p in PROFILES:
        v = count(lambda m: p in m["valid_on"])
        i = count(lambda m: p in m["invalid_on"])
        print("    %-7s %4d / %4d / %3d" % (p, v, i, len(manifest) - v - i))
    print("  total size: %d KiB in %s; %.1f s" % (size // 1024, os.path.relpath(args.out, ROOT),
                                                  time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
