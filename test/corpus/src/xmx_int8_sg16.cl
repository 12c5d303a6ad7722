// corpus: producers=llc22,spirv15 std=CL2.0 class=xmx
// OpSubgroupMatrixMultiplyAccumulateINTEL for packed int8 at sub-group size 16
// (K = 32): M = 1, 2, 4, 8 with operand masks 0x33 (signed A and B), 0x30
// (unsigned), 0x31 and 0x32 (mixed signedness); A is shortM, B int8, C/result intM.

#define OVL __attribute__((overloadable))
int  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short a, int8 b, int c, int ops);
int2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, int2 c, int ops);
int4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short4 a, int8 b, int4 c, int ops);
int8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, int8 c, int ops);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void xmx_int8_sg16(__global const short *A, __global const int *B,
                            __global const int *C, __global int *D)
{
    size_t gid = get_global_id(0);
    int8 b = vload8(gid, B);
    short8 a = vload8(gid, A);
    int8 c = vload8(gid, C);

    int d1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a.s0, b, c.s0, 0x33);
    int2 d2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a.s01, b, c.s01, 0x30);
    int4 d4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a.s0123, b, c.s0123, 0x31);
    int8 d8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a, b, c, 0x32);
    /* chained accumulation: the result of one call feeds the next */
    d8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a.s76543210, b, d8, 0x33);

    __global int *o = D + gid * 16;
    o[0] = d1;
    vstore2(d2, 0, o + 1);
    vstore4(d4, 0, o + 4);
    vstore8(d8, 1, o);
}
