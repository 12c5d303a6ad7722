// Matrix-instruction throughput kernels for bench/run_bench.cpp: each subgroup of 16 runs
// `iterations` dependent multiply-accumulates on register data (int8 M8xN16xK32 and bf16
// M8xN16xK16), then stores its accumulator so nothing is dead.
#define OVL __attribute__((overloadable))
int8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, int8 c, int ops);
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, float8 c,
                                                         int ops);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void mma_int8_loop(__global const short8 *a_in, __global const int8 *b_in,
                            __global int8 *out, int iterations)
{
    int i = get_global_id(0);
    short8 a = a_in[i % 16];
    int8 b = b_in[i % 16];
    int8 acc = (int8)(0);
    for (int n = 0; n < iterations; ++n)
        acc = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a, b, acc, 0x33);
    out[i] = acc;
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void mma_bf16_loop(__global const short8 *a_in, __global const int8 *b_in,
                            __global float8 *out, int iterations)
{
    int i = get_global_id(0);
    short8 a = a_in[i % 16];
    int8 b = b_in[i % 16];
    float8 acc = (float8)(0.0f);
    for (int n = 0; n < iterations; ++n)
        acc = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b, acc, 0x3000);
    out[i] = acc;
}
