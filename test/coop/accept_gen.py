#!/usr/bin/env python3
"""Write the LLVM IR of the cooperative-matrix acceptance kernels (issue 10, deliverable 6).

  test/coop/accept_gen.py          # rewrites test/coop/accept_src/*.ll and accept_spv/manifest.json
  test/coop/accept_gen.py --check  # exit 1 if the committed files differ from what it writes

Two families, both in the form DPC++'s joint_matrix kernels take once lowered to
SPV_KHR_cooperative_matrix calls (../shared/spec/COOPERATIVE-MATRIX.md, A1):

- GEMMs (`gemm_*`): one subgroup computes a TM x TN tile of C; C is loaded, a loop over K
  loads A and B tiles with strides and multiply-adds into the accumulator (a phi of matrix type),
  and the tile is stored back: C = C + A * B. NDRange (M / TM, N / TN * SG), local (1, SG), as the
  joint_matrix tests of intel/llvm launch them.
- Table rows (`row_*`): one kernel per row of the SYCL runtime's combination table
  (device_impl.hpp, COOPERATIVE-MATRIX.md A3): one tile, D = A * B + C, D stored to its own
  buffer, so that every combination of A/B, C and D types and every shape is run once.

The manifest records for each module what the checker (test/cli/check_coop_accept.py) needs:
element types, shape, B layout, subgroup size, the problem size, and the verdict each device
must give. test/coop/accept_build.sh turns the sources into accept_spv/*.spv with llc-22.
"""
import itertools
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
SRC = HERE / "accept_src"
SPV = HERE / "accept_spv"

DATALAYOUT = ("e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-"
              "v1024:1024-n8:16:32:64-G1")

# Element kinds: LLVM IR component type and size in bytes. "bf16" is the SPV_INTEL_joint_matrix
# spelling (i16 components, the bf16 operand bits), "bf16k" SPV_KHR_bfloat16 (bfloat
# components, no bit), "tf32" float components with the tf32 operand bit.
IR_TYPE = {"u8": "i8", "s8": "i8", "s32": "i32", "f16": "half", "f32": "float", "tf32": "float",
           "bf16": "i16", "bf16k": "bfloat"}
SIZE = {"u8": 1, "s8": 1, "s32": 4, "f16": 2, "f32": 4, "tf32": 4, "bf16": 2, "bf16k": 2}

# Device families of the runtime's table: the SIMD16 list is shared by pvc, bmg, lnl and ptl
# (and xe3p's profile assumes it as a convention), the SIMD8 one by dg2 and arl-h (A3). Row
# modules are run on each device of their family, the other kernels on its first two.
FAMILY_DEVICES = {16: ["pvc", "bmg", "lnl", "ptl", "xe3p"], 8: ["dg2", "arl-h"]}
# Devices every module is validated on (issue 10: pvc, bmg and dg2), with the family they are in.
VAL_DEVICES = {"pvc": 16, "bmg": 16, "dg2": 8}


def operands(a, b, c, d):
    """Cooperative Matrix Operands for the element kinds (KHR 0x1-0x8, INTEL 0x20-0x100)."""
    ops = 0
    if a == "s8":
        ops |= 0x1
    if b == "s8":
        ops |= 0x2
    if c == "s32":
        ops |= 0x4
    if d == "s32":
        ops |= 0x8
    if a == "tf32":
        ops |= 0x20
    if a == "bf16":
        ops |= 0x40
    if c == "bf16":
        ops |= 0x80
    if d == "bf16":
        ops |= 0x100
    return ops


def matrix(kind, rows, cols, use):
    return 'target("spirv.CooperativeMatrixKHR", %s, 3, %d, %d, %d)' % (IR_TYPE[kind], rows, cols,
                                                                        use)


def header(comment):
    lines = ["; " + line if line else ";" for line in comment.splitlines()]
    return "\n".join(lines) + "\n" + (
        'target datalayout = "%s"\ntarget triple = "spirv64-unknown-unknown"\n' % DATALAYOUT)


def load_decl(suffix, ret, checked):
    if checked:
        return ("declare spir_func %s @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_%d("
                "ptr addrspace(1), i32, i32, i32, i32, i32, i64)" % (ret, suffix))
    return ("declare spir_func %s @_Z32__spirv_CooperativeMatrixLoadKHR_%d(ptr addrspace(1), "
            "i32, i64)" % (ret, suffix))


def gemm_source(g):
    """A joint_matrix GEMM: g holds name, a, b, c (kinds), tm, tn, tk, sg, b_layout, checked."""
    a, b, c = g["a"], g["b"], g["c"]
    tm, tn, tk, sg = g["tm"], g["tn"], g["tk"], g["sg"]
    ta, tb, tc = IR_TYPE[a], IR_TYPE[b], IR_TYPE[c]
    ma, mb, mc = matrix(a, tm, tk, 0), matrix(b, tk, tn, 1), matrix(c, tm, tn, 2)
    packed = g["b_layout"] == "packed"
    vf = 4 // SIZE[b] if packed else 1  # rows of B packed into one 32-bit column (VNNI)
    ops = operands(a, b, c, c)
    checked = g["checked"]
    out = [header(g["comment"])]
    if checked:
        # The base pointers come with offsets (in elements), as a SYCL accessor's do; the
        # checked instructions take the matrix's start, not the tile's.
        out.append("define spir_kernel void @%s(ptr addrspace(1) %%Abuf, i64 %%Aoff, "
                   "ptr addrspace(1) %%Bbuf, i64 %%Boff, ptr addrspace(1) %%Cbuf, i64 %%Coff, "
                   "i64 %%M, i64 %%N, i64 %%K) !intel_reqd_sub_group_size !0 {" % g["name"])
    else:
        out.append("define spir_kernel void @%s(ptr addrspace(1) %%A, ptr addrspace(1) %%B, "
                   "ptr addrspace(1) %%C, i64 %%M, i64 %%N, i64 %%K) "
                   "!intel_reqd_sub_group_size !0 {" % g["name"])
    out.append("""entry:
  ; this subgroup's tile: rows [row0, row0 + %(tm)d), columns [col0, col0 + %(tn)d) of C
  %%gx = call spir_func i64 @_Z13get_global_idj(i32 0)
  %%gy = call spir_func i64 @_Z13get_global_idj(i32 1)
  %%ly = call spir_func i64 @_Z12get_local_idj(i32 1)
  %%sgy = sub i64 %%gy, %%ly
  %%tile = udiv i64 %%sgy, %(sg)d
  %%row0 = mul i64 %%gx, %(tm)d
  %%col0 = mul i64 %%tile, %(tn)d""" % dict(tm=tm, tn=tn, sg=sg))
    if checked:
        # joint_matrix_load_checked(sg, m, base, stride, height, width, row, col): the whole
        # matrix and the tile's coordinates; the parts of a tile outside it read as zero and
        # are not written.
        out.append("""  %%A = getelementptr inbounds %(ta)s, ptr addrspace(1) %%Abuf, i64 %%Aoff
  %%B = getelementptr inbounds %(tb)s, ptr addrspace(1) %%Bbuf, i64 %%Boff
  %%C = getelementptr inbounds %(tc)s, ptr addrspace(1) %%Cbuf, i64 %%Coff
  %%r32 = trunc i64 %%row0 to i32
  %%c32 = trunc i64 %%col0 to i32
  %%m32 = trunc i64 %%M to i32
  %%n32 = trunc i64 %%N to i32
  %%k32 = trunc i64 %%K to i32
  %%c0 = call spir_func %(mc)s @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_3(ptr addrspace(1) %%C, i32 %%r32, i32 %%c32, i32 0, i32 %%m32, i32 %%n32, i64 %%N)
  ; K steps rounded up: the last one reads zeros past column K of A and row K of B
  %%kround = add i64 %%K, %(tkm1)d
  %%nk = udiv i64 %%kround, %(tk)d
  br label %%loop
loop:
  %%k = phi i64 [ 0, %%entry ], [ %%k1, %%loop ]
  %%acc = phi %(mc)s [ %%c0, %%entry ], [ %%acc1, %%loop ]
  %%kk = mul i64 %%k, %(tk)d
  %%kk32 = trunc i64 %%kk to i32
  %%ma = call spir_func %(ma)s @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_1(ptr addrspace(1) %%A, i32 %%r32, i32 %%kk32, i32 0, i32 %%m32, i32 %%k32, i64 %%K)
  %%mb = call spir_func %(mb)s @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_2(ptr addrspace(1) %%B, i32 %%kk32, i32 %%c32, i32 0, i32 %%k32, i32 %%n32, i64 %%N)""" % dict(mc=mc, ma=ma, mb=mb, tk=tk, tkm1=tk - 1, ta=ta, tb=tb, tc=tc))
    else:
        if packed:
            # Packed (VNNI) B: packed row r holds rows vf*r .. vf*r + vf - 1 of B interleaved
            # column by column, so the K step kk starts at packed row kk / vf.
            b_addr = """  %%kp = udiv i64 %%kk, %(vf)d
  %%bstride = mul i64 %%N, %(vf)d
  %%bk = mul i64 %%kp, %%bstride
  %%bc = mul i64 %%col0, %(vf)d
  %%boff = add i64 %%bk, %%bc
  %%bp = getelementptr inbounds %(tb)s, ptr addrspace(1) %%B, i64 %%boff
  %%mb = call spir_func %(mb)s @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %%bp, i32 2, i64 %%bstride)""" % dict(
                vf=vf, tb=tb, mb=mb)
        else:
            b_addr = """  %%bk = mul i64 %%kk, %%N
  %%boff = add i64 %%bk, %%col0
  %%bp = getelementptr inbounds %(tb)s, ptr addrspace(1) %%B, i64 %%boff
  %%mb = call spir_func %(mb)s @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %%bp, i32 0, i64 %%N)""" % dict(
                tb=tb, mb=mb)
        out.append("""  %%crow = mul i64 %%row0, %%N
  %%coff = add i64 %%crow, %%col0
  %%cp = getelementptr inbounds %(tc)s, ptr addrspace(1) %%C, i64 %%coff
  %%c0 = call spir_func %(mc)s @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1) %%cp, i32 0, i64 %%N)
  %%arow = mul i64 %%row0, %%K
  %%ap0 = getelementptr inbounds %(ta)s, ptr addrspace(1) %%A, i64 %%arow
  %%nk = udiv i64 %%K, %(tk)d
  br label %%loop
loop:
  %%k = phi i64 [ 0, %%entry ], [ %%k1, %%loop ]
  %%acc = phi %(mc)s [ %%c0, %%entry ], [ %%acc1, %%loop ]
  %%kk = mul i64 %%k, %(tk)d
  %%ap = getelementptr inbounds %(ta)s, ptr addrspace(1) %%ap0, i64 %%kk
  %%ma = call spir_func %(ma)s @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %%ap, i32 0, i64 %%K)""" % dict(
            tc=tc, mc=mc, ta=ta, ma=ma, tk=tk))
        out.append(b_addr)
    out.append("""  %%acc1 = call spir_func %(mc)s @_Z34__spirv_CooperativeMatrixMulAddKHR(%(ma)s %%ma, %(mb)s %%mb, %(mc)s %%acc, i32 %(ops)d)
  %%k1 = add i64 %%k, 1
  %%more = icmp ult i64 %%k1, %%nk
  br i1 %%more, label %%loop, label %%done
done:""" % dict(mc=mc, ma=ma, mb=mb, ops=ops))
    if checked:
        out.append("  call spir_func void @_Z42__spirv_CooperativeMatrixStoreCheckedINTEL(ptr "
                   "addrspace(1) %%C, i32 %%r32, i32 %%c32, %s %%acc1, i32 0, i32 %%m32, "
                   "i32 %%n32, i64 %%N)" % mc)
    else:
        out.append("  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr "
                   "addrspace(1) %%cp, %s %%acc1, i32 0, i64 %%N)" % mc)
    out.append("  ret void\n}\n")
    out.append("!0 = !{i32 %d}\n" % sg)
    out.append("declare spir_func i64 @_Z13get_global_idj(i32)")
    out.append("declare spir_func i64 @_Z12get_local_idj(i32)")
    out.append(load_decl(1, ma, checked))
    out.append(load_decl(2, mb, checked))
    out.append(load_decl(3, mc, checked))
    out.append("declare spir_func %s @_Z34__spirv_CooperativeMatrixMulAddKHR(%s, %s, %s, i32)" %
               (mc, ma, mb, mc))
    if checked:
        out.append("declare spir_func void @_Z42__spirv_CooperativeMatrixStoreCheckedINTEL("
                   "ptr addrspace(1), i32, i32, %s, i32, i32, i32, i64)" % mc)
    else:
        out.append("declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR("
                   "ptr addrspace(1), %s, i32, i64)" % mc)
    return "\n".join(out) + "\n"


def row_source(r):
    """One tile per work-group: D = A * B + C, every matrix row-major and dense, the tiles of
    successive work-groups one after another in each buffer."""
    a, b, c, d = r["a"], r["b"], r["c"], r["d"]
    m, n, k, sg = r["m"], r["n"], r["k"], r["sg"]
    ma, mb, mc, md = (matrix(a, m, k, 0), matrix(b, k, n, 1), matrix(c, m, n, 2),
                      matrix(d, m, n, 2))
    text = header(r["comment"])
    text += ("define spir_kernel void @%s(ptr addrspace(1) %%A, ptr addrspace(1) %%B, "
             "ptr addrspace(1) %%C, ptr addrspace(1) %%D) !intel_reqd_sub_group_size !0 {\n"
             % r["name"])
    # Typed GEPs give the pointers their element types, as a user's offset arithmetic does.
    text += """entry:
  ; work-group g (one subgroup) multiplies the g-th tiles, stored one after another
  %%g = call spir_func i64 @_Z12get_group_idj(i32 0)
  %%aoff = mul i64 %%g, %(mk)d
  %%boff = mul i64 %%g, %(kn)d
  %%coff = mul i64 %%g, %(mn)d
  %%ap = getelementptr inbounds %(ta)s, ptr addrspace(1) %%A, i64 %%aoff
  %%bp = getelementptr inbounds %(tb)s, ptr addrspace(1) %%B, i64 %%boff
  %%cp = getelementptr inbounds %(tc)s, ptr addrspace(1) %%C, i64 %%coff
  %%dp = getelementptr inbounds %(td)s, ptr addrspace(1) %%D, i64 %%coff
  %%ma = call spir_func %(ma)s @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %%ap, i32 0, i64 %(k)d)
  %%mb = call spir_func %(mb)s @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %%bp, i32 0, i64 %(n)d)
  %%mc = call spir_func %(mc)s @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1) %%cp, i32 0, i64 %(n)d)
  %%md = call spir_func %(md)s @_Z34__spirv_CooperativeMatrixMulAddKHR(%(ma)s %%ma, %(mb)s %%mb, %(mc)s %%mc, i32 %(ops)d)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %%dp, %(md)s %%md, i32 0, i64 %(n)d)
  ret void
}

!0 = !{i32 %(sg)d}
declare spir_func i64 @_Z12get_group_idj(i32)
%(la)s
%(lb)s
%(lc)s
declare spir_func %(md)s @_Z34__spirv_CooperativeMatrixMulAddKHR(%(ma)s, %(mb)s, %(mc)s, i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %(md)s, i32, i64)
""" % dict(ta=IR_TYPE[a], tb=IR_TYPE[b], tc=IR_TYPE[c], td=IR_TYPE[d], ma=ma, mb=mb, mc=mc, md=md,
           k=k, n=n, sg=sg, ops=operands(a, b, c, d), mk=m * k, kn=k * n, mn=m * n, la=load_decl(1, ma, False),
           lb=load_decl(2, mb, False), lc=load_decl(3, mc, False))
    return text


# Matrices whose element mapping COOPERATIVE-MATRIX.md A4 states (DECISIONS 15), per subgroup
# size: (kind, rows, cols, use).
COORD_MATRICES = {
    16: [("bf16", 8, 16, 0), ("s8", 8, 32, 0), ("bf16", 16, 16, 1), ("s8", 32, 16, 1),
         ("f32", 8, 16, 2), ("f32", 32, 64, 2), ("f32", 1, 64, 2)],
    8: [("bf16", 8, 16, 0), ("s8", 8, 32, 0), ("bf16", 16, 8, 1), ("f32", 8, 8, 2)],
}


def coord_source(name, sg, mats):
    """get_coord over every element of each matrix: a fill (the values do not matter), Length,
    and for i < Length the (row, column) of element i of work-item j, written as two i32 at
    out[r * sg * 256 + j * 256 + 2 * i] for matrix r (room for 128 elements per work-item); the
    lengths go to lens[r]."""
    text = header("joint_matrix get_coord: the (row, column) of every element every work-item\n"
                  "holds, for A, B and accumulator matrices at SIMD%d, with Length as the bound."
                  % sg)
    text += ("define spir_kernel void @%s(ptr addrspace(1) %%out, ptr addrspace(1) %%lens) "
             "!intel_reqd_sub_group_size !0 {\nentry:\n" % name)
    text += "  %lane = call spir_func i32 @_Z22get_sub_group_local_idv()\n"
    text += "  %lane64 = zext i32 %lane to i64\n"
    decls = []
    for r, (kind, rows, cols, use) in enumerate(mats):
        t = matrix(kind, rows, cols, use)
        fill = "0" if IR_TYPE[kind].startswith("i") else "0.0"
        v = dict(r=r, t=t, ty=IR_TYPE[kind], fill=fill, sg=sg, base=r * 2 * sg * 128,
                 next="m%d" % (r + 1) if r + 1 < len(mats) else "done")
        text += """  br label %%m%(r)d
m%(r)d:
  %%x%(r)d = call spir_func %(t)s @_Z26__spirv_CompositeConstruct_%(r)d(%(ty)s %(fill)s)
  %%len%(r)d = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_%(r)d(%(t)s %%x%(r)d)
  %%lp%(r)d = getelementptr inbounds i32, ptr addrspace(1) %%lens, i64 %(r)d
  store i32 %%len%(r)d, ptr addrspace(1) %%lp%(r)d
  %%len64_%(r)d = zext i32 %%len%(r)d to i64
  %%lanebase%(r)d = mul i64 %%lane64, 256
  %%base%(r)d = add i64 %%lanebase%(r)d, %(base)d
  %%some%(r)d = icmp ne i32 %%len%(r)d, 0
  br i1 %%some%(r)d, label %%loop%(r)d, label %%%(next)s
loop%(r)d:
  %%i%(r)d = phi i64 [ 0, %%m%(r)d ], [ %%inext%(r)d, %%loop%(r)d ]
  %%i32_%(r)d = trunc i64 %%i%(r)d to i32
  %%xy%(r)d = call spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_%(r)d(%(t)s %%x%(r)d, i32 %%i32_%(r)d)
  %%two%(r)d = shl i64 %%i%(r)d, 1
  %%at%(r)d = add i64 %%base%(r)d, %%two%(r)d
  %%p%(r)d = getelementptr inbounds i32, ptr addrspace(1) %%out, i64 %%at%(r)d
  store <2 x i32> %%xy%(r)d, ptr addrspace(1) %%p%(r)d, align 4
  %%inext%(r)d = add i64 %%i%(r)d, 1
  %%more%(r)d = icmp ult i64 %%inext%(r)d, %%len64_%(r)d
  br i1 %%more%(r)d, label %%loop%(r)d, label %%%(next)s
""" % v
        decls.append("declare spir_func %(t)s @_Z26__spirv_CompositeConstruct_%(r)d(%(ty)s)" % v)
        decls.append("declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR_%(r)d(%(t)s)"
                     % v)
        decls.append("declare spir_func <2 x i32> "
                     "@_Z45__spirv_CooperativeMatrixGetElementCoordINTEL_%(r)d(%(t)s, i32)" % v)
    text += "done:\n  ret void\n}\n\n!0 = !{i32 %d}\n\n" % sg
    text += "declare spir_func i32 @_Z22get_sub_group_local_idv()\n"
    return text + "\n".join(decls) + "\n"


def verdicts(sg):
    """Every module is valid on the devices of its family and rejected on the others: a SIMD16
    shape has no row in dg2's cooperative-matrix table (a coop.device rule), and a SIMD8 kernel
    declares a subgroup size pvc and bmg do not have (subgroups.size), or has no row there."""
    rejected = ["coop.device"] if sg == 16 else ["coop.device", "subgroups.size"]
    return {dev: ("valid" if fam == sg else rejected) for dev, fam in VAL_DEVICES.items()}


GEMMS = [
    dict(name="gemm_bf16_intel", a="bf16", b="bf16", c="f32", tm=8, tn=16, tk=16, sg=16,
         b_layout="packed", checked=False, size=(32, 64, 64),
         comment="bf16 joint_matrix GEMM the DPC++ way: i16 components with the\n"
                 "MatrixAAndBBFloat16ComponentsINTEL bit (0x40), B VNNI-packed (PackedINTEL),\n"
                 "fp32 accumulator; 8x16x16 tiles at SIMD16."),
    dict(name="gemm_bf16_khr", a="bf16k", b="bf16k", c="f32", tm=8, tn=16, tk=16, sg=16,
         b_layout="row_major", checked=False, size=(32, 64, 64),
         comment="bf16 GEMM with SPV_KHR_bfloat16 components (OpTypeFloat 16 BFloat16KHR),\n"
                 "B row-major, fp32 accumulator; 8x16x16 tiles at SIMD16."),
    dict(name="gemm_int8_khr", a="s8", b="s8", c="s32", tm=8, tn=16, tk=32, sg=16,
         b_layout="row_major", checked=False, size=(32, 64, 128),
         comment="int8 GEMM with plain SPV_KHR_cooperative_matrix: signed A and B, int32\n"
                 "accumulator, B row-major; 8x16x32 tiles at SIMD16."),
    dict(name="gemm_int8_checked", a="s8", b="u8", c="s32", tm=8, tn=16, tk=32, sg=16,
         b_layout="row_major", checked=True, size=(20, 72, 80),
         comment="int8 GEMM through the checked instructions (joint_matrix_load_checked /\n"
                 "store_checked) on a 20x72x80 problem, which no tile size divides: the edge\n"
                 "tiles of C (8x16) read zeros past row 20 and column 72 and their stores there\n"
                 "are dropped; the last K step (32) reads zeros past K = 80. s8 x u8."),
    dict(name="gemm_tf32", a="tf32", b="tf32", c="f32", tm=8, tn=16, tk=8, sg=16,
         b_layout="row_major", checked=False, size=(16, 32, 32),
         comment="tf32 GEMM: float components with MatrixAAndBTF32ComponentsINTEL (0x20);\n"
                 "8x16x8 tiles at SIMD16."),
    dict(name="gemm_f16_f32", a="f16", b="f16", c="f32", tm=8, tn=16, tk=16, sg=16,
         b_layout="row_major", checked=False, size=(32, 32, 64),
         comment="fp16 GEMM accumulating in fp32; 8x16x16 tiles at SIMD16."),
    dict(name="gemm_bf16_32x64x16", a="bf16", b="bf16", c="f32", tm=32, tn=64, tk=16, sg=16,
         b_layout="row_major", checked=False, size=(64, 128, 32),
         comment="bf16 GEMM with the 32x64x16 joint_matrix shape (16 native multiply-adds per\n"
                 "MulAdd on PVC), INTEL bf16 bit, fp32 accumulator, B row-major; SIMD16."),
    dict(name="gemm_int8_sg8", a="u8", b="s8", c="s32", tm=8, tn=8, tk=32, sg=8,
         b_layout="packed", checked=False, size=(16, 32, 64),
         comment="int8 GEMM for a SIMD8 device (DG2): u8 x s8, 8x8x32 tiles, B VNNI-packed."),
    dict(name="gemm_bf16_32x32x16_sg8", a="bf16", b="bf16", c="f32", tm=32, tn=32, tk=16, sg=8,
         b_layout="row_major", checked=False, size=(64, 64, 32),
         comment="bf16 GEMM with DG2's 32x32x16 joint_matrix shape at SIMD8, fp32 accumulator."),
]


def table_rows():
    """The SYCL runtime's combinations (COOPERATIVE-MATRIX.md A3), one entry per row. M is the
    largest of "M <= 8" rows for most; a few rows take other M in 1..8 so that every M runs."""
    rows = []
    small_m = itertools.cycle([8, 3, 8, 5, 8, 1, 8, 7, 8, 2, 8, 6, 8, 4])

    def add(sg, a, b, c, d, m, n, k, source):
        rows.append(dict(sg=sg, a=a, b=b, c=c, d=d, m=m, n=n, k=k, source=source))

    for sg, n in ((16, 16), (8, 8)):
        for a in ("u8", "s8"):
            for b in ("u8", "s8"):
                add(sg, a, b, "s32", "s32", next(small_m), n, 32, "int8 <=8x%dx32" % n)
    for ab, acc in (("f16", "f16"), ("bf16", "bf16")):
        for c in (acc, "f32"):
            for d in (acc, "f32"):
                add(16, ab, ab, c, d, next(small_m), 16, 16, "%s <=8x16x16" % ab)
        for m, n, k in ((16, 16, 16), (1, 64, 16), (32, 64, 16), (1, 64, 32), (32, 64, 32)):
            for c in (acc, "f32"):
                for d in (acc, "f32"):
                    add(16, ab, ab, c, d, m, n, k, "%s %dx%dx%d" % (ab, m, n, k))
    add(16, "tf32", "tf32", "f32", "f32", next(small_m), 16, 8, "tf32 <=8x16x8")
    add(8, "f16", "f16", "f32", "f32", next(small_m), 8, 16, "fp16 <=8x8x16 fp32")
    add(8, "bf16", "bf16", "f32", "f32", next(small_m), 8, 16, "bf16 <=8x8x16 fp32")
    add(8, "bf16", "bf16", "f32", "f32", 32, 32, 16, "bf16 32x32x16 fp32")
    for r in rows:
        r["name"] = "row_sg%d_%s_%s_%s_%s_m%dn%dk%d" % (r["sg"], r["a"], r["b"], r["c"], r["d"],
                                                       r["m"], r["n"], r["k"])
        r["comment"] = ("Table row (SYCL device_impl.hpp, SIMD%d list): %s; A %s, B %s, C %s,\n"
                        "D %s at M=%d N=%d K=%d. One tile, D = A * B + C."
                        % (r["sg"], r["source"], r["a"], r["b"], r["c"], r["d"], r["m"], r["n"],
                           r["k"]))
    return rows


def generate():
    """{path: text} of every generated file."""
    files = {}
    manifest = {}
    for g in GEMMS:
        files[SRC / (g["name"] + ".ll")] = gemm_source(g)
        m, n, k = g["size"]
        manifest[g["name"]] = dict(kind="gemm", a=g["a"], b=g["b"], c=g["c"], d=g["c"],
                                   tm=g["tm"], tn=g["tn"], tk=g["tk"], sg=g["sg"],
                                   b_layout=g["b_layout"], checked=g["checked"], m=m, n=n, k=k,
                                   run_on=FAMILY_DEVICES[g["sg"]][:2],
                                   verdicts=verdicts(g["sg"]))
    for sg, mats in COORD_MATRICES.items():
        name = "coord_sg%d" % sg
        files[SRC / (name + ".ll")] = coord_source(name, sg, mats)
        manifest[name] = dict(kind="coord", sg=sg, matrices=[list(m) for m in mats],
                              lanes_stride=256, run_on=FAMILY_DEVICES[sg][:2],
                              verdicts=verdicts(sg))
    # The element-wise kernels written in SPIR-V assembly (accept_src/*.spvasm, see there).
    for sg in (16, 8):
        manifest["scale_bf16_sg%d" % sg] = dict(kind="scale", a="bf16", b="bf16", c="f32",
                                                d="f32", m=8, n=sg, k=16, sg=sg,
                                                run_on=FAMILY_DEVICES[sg][:2],
                                                verdicts=verdicts(sg))
        manifest["relu_int8_sg%d" % sg] = dict(kind="relu", a="s8", b="u8", c="s32", d="s32",
                                               m=8, n=sg, k=32, sg=sg,
                                               run_on=FAMILY_DEVICES[sg][:2],
                                               verdicts=verdicts(sg))
    for r in table_rows():
        files[SRC / (r["name"] + ".ll")] = row_source(r)
        manifest[r["name"]] = dict(kind="row", a=r["a"], b=r["b"], c=r["c"], d=r["d"], m=r["m"],
                                   n=r["n"], k=r["k"], sg=r["sg"], source=r["source"],
                                   run_on=FAMILY_DEVICES[r["sg"]], verdicts=verdicts(r["sg"]))
    files[SPV / "manifest.json"] = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    return files


def main():
    files = generate()
    if sys.argv[1:] == ["--check"]:
        # The committed sources and manifest are what this script writes.
        stale = sorted(str(p.relative_to(HERE)) for p, text in files.items()
                       if not p.exists() or p.read_text() != text)
        stale += sorted(str(p.relative_to(HERE)) for p in SRC.glob("*.ll") if p not in files)
        for name in stale:
            print("accept_gen: %s differs from what accept_gen.py writes" % name)
        print("accept_gen: %d files checked, %d stale" % (len(files), len(stale)))
        return 1 if stale else 0
    if sys.argv[1:]:
        sys.exit("usage: accept_gen.py [--check]")
    SRC.mkdir(exist_ok=True)
    SPV.mkdir(exist_ok=True)
    for old in SRC.glob("*.ll"):
        old.unlink()
    for path, text in files.items():
        path.write_text(text)
    print("accept_gen: %d files" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
