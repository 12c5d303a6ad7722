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
  * deliberately invalid-for-some-profile variants of both kinds ("variant" in the manifest).

Expectations (valid_on / invalid_on over the profiles spec, opencl, dg2, arl-h, pvc, bmg,
lnl, ptl, xe3p) are derived here from SPEC-NOTES A.3/A.4/B.3/B.5/B.8, DECISIONS and
DEVICES.md (see expect_mma / expect_block2d); a profile whose answer rests on a convention
or an UNCONFIRMED point is in neither list and the note says why. "in_tables" lists the
profiles whose tables contain the row, independent of module-level questions.

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
        # The module uses draft operand bits without declaring the draft extension string.
        ext = ("SPV_INTEL_subgroup_matrix_multiply_accumulate_float4" if ops & 0xC0000
               else "SPV_INTEL_subgroup_matrix_multiply_accumulate_float8")
        notes.append(
            "the operand bits come from the draft extension %s, which llc-22 does not know "
            "(--spirv-ext rejects the name), so the module declares only "
            "SPV_INTEL_subgroup_matrix_multiply_accumulate; B.2 says such a module 'should' "
            "declare the draft string: xmx-val warns (decl.extension.provisional), so the row "
            "is valid where its table has it" % ext)
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
              ptr_note="spec and the A.4 profiles: A.3 constrains the typed Dst Pointer only for "
                       "LoadTransform; DECISIONS 12 (a convention) rejects a 32-bit pointee for "
                       "Element Size 2")),
    ]
    for vname, desc, spec in var:
        spec.setdefault("sg", 16)
        spec["desc"] = "invalid variant: %s (%s, E %d, W %d, H %d, count %d, SG%d)" % (
            desc, OPS_2D[spec["op"]][0], spec["e"], spec["w"], spec["h"], spec["c"], spec["sg"])
        spec["variant"] = vname
        add("b2d_bad_" + vname, spec)
    return mods


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
                 6237}
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
    if kind == "mma":
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

    plan = plan_mma() + plan_block2d()
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
        src = mma_source(name, spec) if kind == "mma" else block2d_source(name, spec)
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
    for kind in ("mma", "block2d"):
        print("  %-8s table rows: %3d   invalid variants: %2d" % (
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
