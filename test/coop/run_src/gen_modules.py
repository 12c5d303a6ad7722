#!/usr/bin/env python3
"""Writes the LLVM IR sources of xmx-run's cooperative-matrix tests (test/coop/run_src/*.ll).

Each module is one kernel; run_build.sh turns them into SPIR-V with llc-22. The kernels:
  dump_<case>:  load a matrix (one use, component type, shape, layout), write for every element
                e of every invocation (get-coord row, column, value bits), read through a pointer
                into a private copy of the matrix, then store the matrix back with the same layout
                (arguments: in, out, back, stride).
  mad_<case>:   D = A x B + C, all row-major (arguments: a, b, c, d, with strides K, N, N, N);
                B PackedINTEL when the case says so.
  checked_<case>: a checked load at (X, Y) of a Height x Width matrix, stored unchecked; then the
                loaded matrix stored checked at (X2, Y2) (arguments: in, out, back, x, y, height,
                width, stride).
  construct: a checked construct stored row-major.
  relu: element-wise ReLU of an accumulator through a private copy, plus a fill.
  ub_stride: a load whose stride differs between invocations.
  ub_divergent: a load and store reached by part of the subgroup.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = '''target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64-G1"
target triple = "spirv64-unknown-unknown"
'''

# component -> (LLVM type, integer type of the same width, widen-to-i32 instruction)
COMPONENTS = {
    'i8': ('i8', 'i8', 'zext'),
    'i16': ('i16', 'i16', 'zext'),
    'i32': ('i32', 'i32', None),
    'half': ('half', 'i16', 'zext'),
    'bf16': ('bfloat', 'i16', 'zext'),
    'f32': ('float', 'i32', None),
}


def mtype(comp, rows, cols, use):
    return 'target("spirv.CooperativeMatrixKHR", %s, 3, %d, %d, %d)' % (
        COMPONENTS[comp][0], rows, cols, use)


def dump_module(name, comp, rows, cols, use, layout):
    t, it, widen = COMPONENTS[comp]
    m = mtype(comp, rows, cols, use)
    bits = 'bitcast %s %%v to %s' % (t, it) if t != it else None
    lines = [HEADER, '%%M = type %s' % m, '''
define spir_kernel void @%(name)s(ptr addrspace(1) %%in, ptr addrspace(1) %%out, ptr addrspace(1) %%back, i64 %%stride) {
entry:
  %%m = call spir_func %%M @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %%in, i32 %(layout)d, i64 %%stride)
  %%p = alloca %%M
  store %%M %%m, ptr %%p
  %%len = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%%M %%m)
  %%lane = call spir_func i32 @_Z22get_sub_group_local_idv()
  %%base = mul i32 %%lane, %%len
  br label %%loop
loop:
  %%e = phi i32 [ 0, %%entry ], [ %%e1, %%loop ]
  %%xy = call spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL(%%M %%m, i32 %%e)
  %%row = extractelement <2 x i32> %%xy, i32 0
  %%col = extractelement <2 x i32> %%xy, i32 1
  %%ep = getelementptr %(t)s, ptr %%p, i32 %%e
  %%v = load %(t)s, ptr %%ep
''' % dict(name=name, layout=layout, t=t)]
    value = '%v'
    if bits:
        lines.append('  %%vb = %s\n' % bits)
        value = '%vb'
    if widen:
        lines.append('  %%vi = %s %s %s to i32\n' % (widen, it, value))
        value = '%vi'
    lines.append('''  %%slot = add i32 %%base, %%e
  %%w = mul i32 %%slot, 3
  %%w64 = zext i32 %%w to i64
  %%o0 = getelementptr i32, ptr addrspace(1) %%out, i64 %%w64
  store i32 %%row, ptr addrspace(1) %%o0
  %%o1 = getelementptr i32, ptr addrspace(1) %%o0, i64 1
  store i32 %%col, ptr addrspace(1) %%o1
  %%o2 = getelementptr i32, ptr addrspace(1) %%o0, i64 2
  store i32 %s, ptr addrspace(1) %%o2
  %%e1 = add i32 %%e, 1
  %%done = icmp eq i32 %%e1, %%len
  br i1 %%done, label %%exit, label %%loop
exit:
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %%back, %%M %%m, i32 %d, i64 %%stride)
  ret void
}

declare spir_func %%M @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%%M)
declare spir_func i32 @_Z22get_sub_group_local_idv()
declare spir_func <2 x i32> @_Z45__spirv_CooperativeMatrixGetElementCoordINTEL(%%M, i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %%M, i32, i64)
''' % (value, layout))
    return ''.join(lines)


def mad_module(name, ab, cd, m, n, k, bits, c=None, b_layout=0):
    c = c or cd
    A, B, C, D = mtype(ab, m, k, 0), mtype(ab, k, n, 1), mtype(c, m, n, 2), mtype(cd, m, n, 2)
    b_stride = 'mul i64 %n, ' + str(4 // {'i8': 1}.get(ab, 2) if b_layout == 2 else 1)
    return HEADER + '''%%A = type %s
%%B = type %s
%%C = type %s
%%D = type %s

define spir_kernel void @%s(ptr addrspace(1) %%a, ptr addrspace(1) %%b, ptr addrspace(1) %%c, ptr addrspace(1) %%d, i64 %%k, i64 %%n) {
entry:
  %%bs = %s
  %%ma = call spir_func %%A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %%a, i32 0, i64 %%k)
  %%mb = call spir_func %%B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1) %%b, i32 %d, i64 %%bs)
  %%mc = call spir_func %%C @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1) %%c, i32 0, i64 %%n)
  %%md = call spir_func %%D @_Z34__spirv_CooperativeMatrixMulAddKHR(%%A %%ma, %%B %%mb, %%C %%mc, i32 %d)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %%d, %%D %%md, i32 0, i64 %%n)
  ret void
}

declare spir_func %%A @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func %%B @_Z32__spirv_CooperativeMatrixLoadKHR_2(ptr addrspace(1), i32, i64)
declare spir_func %%C @_Z32__spirv_CooperativeMatrixLoadKHR_3(ptr addrspace(1), i32, i64)
declare spir_func %%D @_Z34__spirv_CooperativeMatrixMulAddKHR(%%A, %%B, %%C, i32)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %%D, i32, i64)
''' % (A, B, C, D, name, b_stride, b_layout, bits)


def checked_module(name, comp, rows, cols, use, layout):
    m = mtype(comp, rows, cols, use)
    return HEADER + '''%%M = type %s

define spir_kernel void @%s(ptr addrspace(1) %%in, ptr addrspace(1) %%out, ptr addrspace(1) %%back, i32 %%x, i32 %%y, i32 %%height, i32 %%width, i32 %%x2, i32 %%y2, i64 %%stride, i64 %%tile_stride) {
entry:
  %%m = call spir_func %%M @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_1(ptr addrspace(1) %%in, i32 %%x, i32 %%y, i32 %d, i32 %%height, i32 %%width, i64 %%stride)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %%out, %%M %%m, i32 %d, i64 %%tile_stride)
  call spir_func void @_Z42__spirv_CooperativeMatrixStoreCheckedINTEL(ptr addrspace(1) %%back, i32 %%x2, i32 %%y2, %%M %%m, i32 %d, i32 %%height, i32 %%width, i64 %%stride)
  ret void
}

declare spir_func %%M @_Z41__spirv_CooperativeMatrixLoadCheckedINTEL_1(ptr addrspace(1), i32, i32, i32, i32, i32, i64)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %%M, i32, i64)
declare spir_func void @_Z42__spirv_CooperativeMatrixStoreCheckedINTEL(ptr addrspace(1), i32, i32, %%M, i32, i32, i32, i64)
''' % (m, name, layout, layout, layout)


RELU = HEADER + '''%C = type target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2)

; out1 = relu(in) element by element through a private copy; out2 = a fill with %v, stored
; column-major.
define spir_kernel void @relu(ptr addrspace(1) %in, ptr addrspace(1) %out1, ptr addrspace(1) %out2, float %v) {
entry:
  %m = call spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %in, i32 0, i64 16)
  %p = alloca %C
  store %C %m, ptr %p
  %len = call spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%C %m)
  br label %loop
loop:
  %e = phi i32 [ 0, %entry ], [ %e1, %loop ]
  %ep = getelementptr float, ptr %p, i32 %e
  %x = load float, ptr %ep
  %neg = fcmp olt float %x, 0.0
  %r = select i1 %neg, float 0.0, float %x
  store float %r, ptr %ep
  %e1 = add i32 %e, 1
  %done = icmp eq i32 %e1, %len
  br i1 %done, label %exit, label %loop
exit:
  %m2 = load %C, ptr %p
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %out1, %C %m2, i32 0, i64 16)
  %f = call spir_func %C @_Z26__spirv_CompositeConstruct(float %v)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %out2, %C %f, i32 1, i64 8)
  ret void
}

declare spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func i32 @_Z34__spirv_CooperativeMatrixLengthKHR(%C)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %C, i32, i64)
declare spir_func %C @_Z26__spirv_CompositeConstruct(float)
'''

CONSTRUCT = HEADER + '''%C = type target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2)

; A checked construct of %v at (%x, %y) of a %height x %width matrix, stored row-major.
define spir_kernel void @construct(ptr addrspace(1) %out, i32 %x, i32 %y, i32 %height, i32 %width, float %v) {
entry:
  %m = call spir_func %C @_Z46__spirv_CooperativeMatrixConstructCheckedINTEL(i32 %x, i32 %y, i32 %height, i32 %width, float %v)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %out, %C %m, i32 0, i64 16)
  ret void
}

declare spir_func %C @_Z46__spirv_CooperativeMatrixConstructCheckedINTEL(i32, i32, i32, i32, float)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %C, i32, i64)
'''

UB_STRIDE = HEADER + '''%C = type target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2)

; The stride is 16 plus %extra times the invocation's id: not uniform unless %extra is 0.
define spir_kernel void @ub_stride(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %extra) {
entry:
  %lane = call spir_func i32 @_Z22get_sub_group_local_idv()
  %l64 = zext i32 %lane to i64
  %x = mul i64 %l64, %extra
  %stride = add i64 %x, 16
  %m = call spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %in, i32 0, i64 %stride)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %out, %C %m, i32 0, i64 16)
  ret void
}

declare spir_func i32 @_Z22get_sub_group_local_idv()
declare spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %C, i32, i64)
'''

UB_DIVERGENT = HEADER + '''%C = type target("spirv.CooperativeMatrixKHR", float, 3, 8, 16, 2)

; Only the invocations below %limit load and store the matrix: the whole subgroup must.
define spir_kernel void @ub_divergent(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %limit) {
entry:
  %lane = call spir_func i32 @_Z22get_sub_group_local_idv()
  %some = icmp ult i32 %lane, %limit
  br i1 %some, label %then, label %exit
then:
  %m = call spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1) %in, i32 0, i64 16)
  call spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1) %out, %C %m, i32 0, i64 16)
  br label %exit
exit:
  ret void
}

declare spir_func i32 @_Z22get_sub_group_local_idv()
declare spir_func %C @_Z32__spirv_CooperativeMatrixLoadKHR_1(ptr addrspace(1), i32, i64)
declare spir_func void @_Z33__spirv_CooperativeMatrixStoreKHR(ptr addrspace(1), %C, i32, i64)
'''

# (name, component, rows, cols, use, layout)
DUMPS = [
    ('a_bf16_8x16_row', 'i16', 8, 16, 0, 0),
    ('a_bf16_8x16_col', 'bf16', 8, 16, 0, 1),
    ('a_i8_8x32_row', 'i8', 8, 32, 0, 0),
    ('a_tf32_8x8_row', 'f32', 8, 8, 0, 0),
    ('a_half_4x16_row', 'half', 4, 16, 0, 0),
    ('a_bf16_32x16_row', 'bf16', 32, 16, 0, 0),
    ('a_bf16_1x32_row', 'bf16', 1, 32, 0, 0),
    ('b_bf16_16x16_row', 'bf16', 16, 16, 1, 0),
    ('b_bf16_16x16_packed', 'i16', 16, 16, 1, 2),
    ('b_i8_32x16_packed', 'i8', 32, 16, 1, 2),
    ('b_i8_32x16_col', 'i8', 32, 16, 1, 1),
    ('b_tf32_8x16_row', 'f32', 8, 16, 1, 0),
    ('b_bf16_16x64_row', 'bf16', 16, 64, 1, 0),
    ('c_f32_8x16_row', 'f32', 8, 16, 2, 0),
    ('c_i32_8x16_col', 'i32', 8, 16, 2, 1),
    ('c_f32_32x64_row', 'f32', 32, 64, 2, 0),
    ('c_f32_1x64_row', 'f32', 1, 64, 2, 0),
    ('c_half_16x16_row', 'half', 16, 16, 2, 0),
    # subgroup size 8 (the test runs these with --subgroup-size 8)
    ('sg8_a_half_8x16_row', 'half', 8, 16, 0, 0),
    ('sg8_a_i8_8x32_row', 'i8', 8, 32, 0, 0),
    ('sg8_a_bf16_32x16_row', 'bf16', 32, 16, 0, 0),
    ('sg8_b_bf16_16x8_packed', 'bf16', 16, 8, 1, 2),
    ('sg8_b_bf16_16x32_row', 'bf16', 16, 32, 1, 0),
    ('sg8_c_f32_8x8_row', 'f32', 8, 8, 2, 0),
    ('sg8_c_f32_32x32_row', 'f32', 32, 32, 2, 0),
]

# (name, A/B component, C/D component, M, N, K, operand bits, C component, B layout)
MADS = [
    ('mad_bf16_8x16x16', 'i16', 'f32', 8, 16, 16, 0x40, None, 0),
    ('mad_bf16_khr_3x16x16', 'bf16', 'f32', 3, 16, 16, 0, None, 0),
    ('mad_bf16_16x16x16', 'bf16', 'f32', 16, 16, 16, 0, None, 0),
    ('mad_bf16_32x64x16', 'bf16', 'f32', 32, 64, 16, 0, None, 0),
    ('mad_bf16_1x64x16', 'bf16', 'f32', 1, 64, 16, 0, None, 0),
    ('mad_bf16_32x64x32', 'bf16', 'f32', 32, 64, 32, 0, None, 0),
    ('mad_bf16_packed_8x16x16', 'i16', 'f32', 8, 16, 16, 0x40, None, 2),
    ('mad_bf16_bf16acc_8x16x16', 'bf16', 'bf16', 8, 16, 16, 0, None, 0),
    ('mad_bf16_f32_to_bf16_8x16x16', 'bf16', 'bf16', 8, 16, 16, 0, 'f32', 0),
    ('mad_half_8x16x16', 'half', 'f32', 8, 16, 16, 0, None, 0),
    ('mad_half_halfacc_16x16x16', 'half', 'half', 16, 16, 16, 0, None, 0),
    ('mad_s8_8x16x32', 'i8', 'i32', 8, 16, 32, 0x3, None, 0),
    ('mad_u8_8x16x32', 'i8', 'i32', 8, 16, 32, 0, None, 2),
    ('mad_tf32_8x16x8', 'f32', 'f32', 8, 16, 8, 0x20, None, 0),
    ('sg8_mad_bf16_8x8x16', 'bf16', 'f32', 8, 8, 16, 0, None, 0),
    ('sg8_mad_bf16_32x32x16', 'bf16', 'f32', 32, 32, 16, 0, None, 0),
    ('sg8_mad_s8_8x8x32', 'i8', 'i32', 8, 8, 32, 0x3, None, 0),
    ('sg8_mad_half_4x8x16', 'half', 'f32', 4, 8, 16, 0, None, 0),
    ('sg8_mad_tf32_8x8x8', 'f32', 'f32', 8, 8, 8, 0x20, None, 0),
]

CHECKED = [
    ('checked_a_bf16_8x16_row', 'i16', 8, 16, 0, 0),
    ('checked_c_f32_8x16_col', 'f32', 8, 16, 2, 1),
    ('checked_b_i8_32x16_packed', 'i8', 32, 16, 1, 2),
]


def main():
    def write(name, text):
        with open(os.path.join(HERE, name + '.ll'), 'w') as f:
            f.write('; Generated by gen_modules.py; see its docstring.\n' + text)
    for case in DUMPS:
        write('dump_' + case[0], dump_module('dump_' + case[0], *case[1:]))
    for name, ab, cd, m, n, k, bits, c, bl in MADS:
        write(name, mad_module(name, ab, cd, m, n, k, bits, c, bl))
    for case in CHECKED:
        write(case[0], checked_module(*case))
    write('relu', RELU)
    write('construct', CONSTRUCT)
    write('ub_stride', UB_STRIDE)
    write('ub_divergent', UB_DIVERGENT)


if __name__ == '__main__':
    main()
