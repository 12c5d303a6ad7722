// corpus: producers=llc22,spirv15 std=CL2.0 class=xmx
// OpSubgroupMatrixMultiplyAccumulateINTEL for packed int4 (K = 64): operand masks
// 0xC0 (unsigned) and 0xC3 (signed). One kernel at sub-group size 16 (A shortM)
// and one at sub-group size 8 (A intM), M = 1, 2, 4, 8, int accumulators.

#define OVL __attribute__((overloadable))
int  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short a, int8 b, int c, int ops);
int2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, int2 c, int ops);
int4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short4 a, int8 b, int4 c, int ops);
int8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, int8 c, int ops);
int  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int a, int8 b, int c, int ops);
int2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int2 a, int8 b, int2 c, int ops);
int4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int4 a, int8 b, int4 c, int ops);
int8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int8 a, int8 b, int8 c, int ops);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void xmx_int4_sg16(__global const short *A, __global const int *B, __global int *D)
{
    size_t gid = get_global_id(0);
    short8 a = vload8(gid, A);
    int8 b = vload8(gid, B);
    int d1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(64, a.s0, b, 0, 0xC0);
    int2 d2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(64, a.s01, b, (int2)(0), 0xC3);
    int4 d4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(64, a.lo, b, (int4)(d1), 0xC0);
    int8 d8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(64, a, b, (int8)(d4, d2, d2), 0xC3);
    vstore8(d8, gid, D);
}

__attribute__((intel_reqd_sub_group_size(8)))
__kernel void xmx_int4_sg8(__global const int *A, __global const int *B, __global int *D)
{
    size_t gid = get_global_id(0);
    int8 a = vload8(gid, A);
    int8 b = vload8(gid, B);
    int d1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(64, a.s0, b, 1, 0xC3);
    int2 d2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(64, a.s01, b, (int2)(d1), 0xC0);
    int4 d4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(64, a.lo, b, (int4)(d2, d2), 0xC3);
    int8 d8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(64, a, b, (int8)(d4, d4), 0xC0);
    vstore8(d8, gid, D);
}
