// corpus: producers=llc22,spirv15 std=CL2.0 class=xmx
// OpSubgroupMatrixMultiplyAccumulateINTEL for bfloat16 A/B (K = 16): operands
// 0x3000 with float accumulator/result and 0x300C with bf16 (short) accumulator
// and result; M = 1, 2, 4, 8 at sub-group size 16 (A shortM) and 8 (A intM).

#define OVL __attribute__((overloadable))
float  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short a, int8 b, float c, int ops);
float2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, float2 c, int ops);
float4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short4 a, int8 b, float4 c, int ops);
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, float8 c, int ops);
short  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short a, int8 b, short c, int ops);
short2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, short2 c, int ops);
short4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short4 a, int8 b, short4 c, int ops);
short8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, short8 c, int ops);
float  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int a, int8 b, float c, int ops);
float2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int2 a, int8 b, float2 c, int ops);
float4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int4 a, int8 b, float4 c, int ops);
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int8 a, int8 b, float8 c, int ops);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void xmx_bf16_sg16(__global const ushort *A, __global const int *B,
                            __global float *Df, __global ushort *Db)
{
    size_t gid = get_global_id(0);
    short8 a = as_short8(vload8(gid, A));
    int8 b = vload8(gid, B);
    float f1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s0, b, 0.0f, 0x3000);
    float2 f2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s01, b, (float2)(f1), 0x3000);
    float4 f4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.lo, b, (float4)(f2, f2), 0x3000);
    float8 f8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b, (float8)(f4, f4), 0x3000);
    vstore8(f8, gid, Df);

    short s1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s1, b, (short)0, 0x300C);
    short2 s2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s45, b, (short2)(s1), 0x300C);
    short4 s4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.hi, b, (short4)(s2, s2), 0x300C);
    short8 s8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b, (short8)(s4, s4), 0x300C);
    vstore8(as_ushort8(s8), gid, Db);
}

__attribute__((intel_reqd_sub_group_size(8)))
__kernel void xmx_bf16_sg8(__global const int *A, __global const int *B, __global float *D)
{
    size_t gid = get_global_id(0);
    int8 a = vload8(gid, A);
    int8 b = vload8(gid, B);
    float f1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s0, b, 0.0f, 0x3000);
    float2 f2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s01, b, (float2)(f1), 0x3000);
    float4 f4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.lo, b, (float4)(f2, f2), 0x3000);
    float8 f8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b, (float8)(f4, f4), 0x3000);
    vstore8(f8, gid, D);
}
