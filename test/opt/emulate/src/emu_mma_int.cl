// The matrix instruction on integer data at subgroup size 16: int8 with each signedness (0x30 ..
// 0x33) at M = 1, 2, 4, 8, and int4 (0xC0 .. 0xC3) at M = 8 and 2. Every operand comes from
// `in` (any bits: integer arithmetic wraps exactly), every result goes to `out`. dg2 has no
// subgroup-size-16 rows, so --emulate-xmx=dg2 emulates all of them. NDRange 32, local 16.
#include "emulate_decls.h"
int OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short a, int8 b, int c, int ops);
int2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, int2 c, int ops);
int4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short4 a, int8 b, int4 c, int ops);
int8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, int8 c, int ops);
#define MAD __spirv_SubgroupMatrixMultiplyAccumulateINTEL
SG16 __kernel void emu_mma_int(__global const int *in, __global int *out)
{
    uint gid = get_global_id(0);
    __global const int *p = in + gid * 32;
    int8 b = vload8(0, p);
    short8 a = as_short8(vload4(2, p));
    int8 c = vload8(2, p);
    __global int *o = out + gid * 64;
    vstore8(MAD(32, a, b, c, 0x30), 0, o);
    vstore8(MAD(32, a, b, c, 0x31), 1, o);
    vstore8(MAD(32, a, b, c, 0x32), 2, o);
    vstore8(MAD(32, a, b, c, 0x33), 3, o);
    o[32] = MAD(32, a.s0, b, c.s0, 0x33);
    vstore2(MAD(32, a.s01, b, c.s01, 0x31), 17, o);
    vstore4(MAD(32, a.s0123, b, c.s0123, 0x32), 9, o);
    vstore8(MAD(64, a, b, c, 0xC0), 5, o);
    vstore8(MAD(64, a, b, c, 0xC3), 6, o);
    vstore2(MAD(64, a.s01, b, c.s01, 0xC1), 28, o);
    vstore2(MAD(64, a.s23, b, c.s23, 0xC2), 29, o);
}
