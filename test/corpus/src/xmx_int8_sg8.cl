// corpus: producers=llc22,spirv15 std=CL2.0 class=xmx
// OpSubgroupMatrixMultiplyAccumulateINTEL for packed int8 at sub-group size 8
// (K = 32): A is intM (four int8 per lane), B int8, C/result intM, M = 1, 2, 4, 8.

#define OVL __attribute__((overloadable))
int  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int a, int8 b, int c, int ops);
int2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int2 a, int8 b, int2 c, int ops);
int4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int4 a, int8 b, int4 c, int ops);
int8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int8 a, int8 b, int8 c, int ops);

__attribute__((intel_reqd_sub_group_size(8)))
__kernel void xmx_int8_sg8(__global const int *A, __global const int *B, __global int *D)
{
    size_t gid = get_global_id(0);
    int8 a = vload8(gid, A);
    int8 b = vload8(gid, B);
    int d1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a.s0, b, 0, 0x33);
    int2 d2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a.s01, b, (int2)(d1), 0x33);
    int4 d4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a.lo, b, (int4)(d2, d2), 0x30);
    int8 d8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a, b, (int8)(d4, d4), 0x33);
    vstore8(d8, gid, D);
}
