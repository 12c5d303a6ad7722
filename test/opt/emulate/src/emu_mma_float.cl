// The matrix instruction on float data at subgroup size 16, every float combination of pvc's
// table: fp16 with float and with half accumulators (0xC00; the half C is A's bits reversed), bf16 with float accumulators at
// M = 8, 4, 2, 1 (0x3000) and with bf16 accumulators (0x300C). Operands come from `a`, `b`
// (16-bit elements, see make_inputs.py for their values) and `c` (floats); results go to `out`.
// dg2 has no subgroup-size-16 rows: --emulate-xmx=dg2 emulates all of them and must give
// xmx-run's exact results bit for bit. NDRange 32, local 16.
#include "emulate_decls.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
float OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short a, int8 b, float c, int ops);
float2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, float2 c, int ops);
float4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short4 a, int8 b, float4 c, int ops);
half8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, half8 c, int ops);
short8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, short8 c, int ops);
#define MAD __spirv_SubgroupMatrixMultiplyAccumulateINTEL
SG16 __kernel void emu_mma_float(__global const short *a_in, __global const int *b_in,
                                 __global const float *c_in, __global uint *out)
{
    uint gid = get_global_id(0);
    short8 a = vload8(gid, a_in);
    int8 b = vload8(gid, b_in);
    float8 c = vload8(gid, c_in);
    __global uint *o = out + gid * 32;
    vstore8(as_uint8(MAD(16, a, b, c, 0xC00)), 0, o);
    vstore8(as_uint8(MAD(16, a, b, c, 0x3000)), 1, o);
    vstore4(as_uint4(MAD(16, a.s0123, b, c.s0123, 0x3000)), 4, o);
    vstore2(as_uint2(MAD(16, a.s01, b, c.s01, 0x3000)), 10, o);
    o[22] = as_uint(MAD(16, a.s0, b, c.s0, 0x3000));
    o[23] = as_uint(MAD(16, a.s1, b, c.s1, 0xC00));
    vstore4(as_uint4(MAD(16, a, b, as_half8(a.s76543210), 0xC00)), 6, o);  // fp16 C: A's bits
    // bf16 accumulator: the upper halves of the floats.
    vstore4(as_uint4(MAD(16, a, b, convert_short8(as_int8(c) >> 16), 0x300C)), 7, o);
}
