// corpus: producers=llc22,spirv15 std=CL2.0 class=xmx
// OpSubgroupMatrixMultiplyAccumulateINTEL for fp16 A/B (operands 0xC00, K = 16):
// float accumulators and half accumulators/results, M = 1, 2, 4, 8, at sub-group
// size 16 (A shortM) and 8 (A intM, two halves per lane element).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define OVL __attribute__((overloadable))
float  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short a, int8 b, float c, int ops);
float2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, float2 c, int ops);
float4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short4 a, int8 b, float4 c, int ops);
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, float8 c, int ops);
half   OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short a, int8 b, half c, int ops);
half2  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short2 a, int8 b, half2 c, int ops);
half4  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short4 a, int8 b, half4 c, int ops);
half8  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, half8 c, int ops);
float  OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int a, int8 b, float c, int ops);
float2 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int2 a, int8 b, float2 c, int ops);
float4 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int4 a, int8 b, float4 c, int ops);
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, int8 a, int8 b, float8 c, int ops);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void xmx_fp16_sg16(__global const half *A, __global const int *B,
                            __global float *Df, __global half *Dh)
{
    size_t gid = get_global_id(0);
    short8 a = as_short8(vload8(gid, A));
    int8 b = vload8(gid, B);
    float f1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s0, b, 0.0f, 0xC00);
    float2 f2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s01, b, (float2)(f1), 0xC00);
    float4 f4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.lo, b, (float4)(f2, f2), 0xC00);
    float8 f8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b, (float8)(f4, f4), 0xC00);
    vstore8(f8, gid, Df);

    half h1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s7, b, (half)0.0, 0xC00);
    half2 h2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s23, b, (half2)(h1), 0xC00);
    half4 h4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.hi, b, (half4)(h2, h2), 0xC00);
    half8 h8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b, (half8)(h4, h4), 0xC00);
    vstore8(h8, gid, Dh);
}

__attribute__((intel_reqd_sub_group_size(8)))
__kernel void xmx_fp16_sg8(__global const int *A, __global const int *B, __global float *D)
{
    size_t gid = get_global_id(0);
    int8 a = vload8(gid, A);
    int8 b = vload8(gid, B);
    float f1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s0, b, 0.0f, 0xC00);
    float2 f2 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.s01, b, (float2)(f1), 0xC00);
    float4 f4 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a.lo, b, (float4)(f2, f2), 0xC00);
    float8 f8 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b, (float8)(f4, f4), 0xC00);
    vstore8(f8, gid, D);
}
