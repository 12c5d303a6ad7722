// corpus: producers=llc22,spirv15 std=CL2.0 class=xmx
// OpSubgroupMatrixMultiplyAccumulateINTEL for tf32 (operands 0x300, K = 8):
// at sub-group size 16 A holds ceil(M/2) floats (float, float, float2, float4 for
// M = 1, 2, 4, 8) and B is float8; at sub-group size 8 A is floatM.

#define OVL __attribute__((overloadable))
float  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float a, float8 b, float c, int ops);
float2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float a, float8 b, float2 c, int ops);
float4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float2 a, float8 b, float4 c, int ops);
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float4 a, float8 b, float8 c, int ops);
float2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float2 a, float8 b, float2 c, int ops);
float4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float4 a, float8 b, float4 c, int ops);
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float8 a, float8 b, float8 c, int ops);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void xmx_tf32_sg16(__global const float *A, __global const float *B, __global float *D)
{
    size_t gid = get_global_id(0);
    float4 a = vload4(gid, A);
    float8 b = vload8(gid, B);
    float d1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a.x, b, 0.0f, 0x300);
    float2 d2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a.y, b, (float2)(d1), 0x300);
    float4 d4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a.zw, b, (float4)(d2, d2), 0x300);
    float8 d8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a, b, (float8)(d4, d4), 0x300);
    vstore8(d8, gid, D);
}

__attribute__((intel_reqd_sub_group_size(8)))
__kernel void xmx_tf32_sg8(__global const float *A, __global const float *B, __global float *D)
{
    size_t gid = get_global_id(0);
    float8 a = vload8(gid, A);
    float8 b = vload8(gid, B);
    float d1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a.s0, b, 0.0f, 0x300);
    float2 d2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a.s01, b, (float2)(d1), 0x300);
    float4 d4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a.hi, b, (float4)(d2, d2), 0x300);
    float8 d8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a, b, (float8)(d4, d4), 0x300);
    vstore8(d8, gid, D);
}
