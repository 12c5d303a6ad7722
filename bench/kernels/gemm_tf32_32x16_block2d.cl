// bench-builds: llc22.O2 spirv15.O0
// Not built: spirv15.O2 (llvm-spirv-15 -O2 puts an OpBitcast between the OpVariables of the entry
// block, invalid SPIR-V; a producer bug, see test/corpus/src/gemm_bf16_tile32_sg16.cl).
// The tf32 GEMM with 2D block IO: C(float, MxN) = A(float, MxK) * B(float, KxN), row-major, the
// matrix instruction reading the upper 19 bits of each float (tf32, 0x300, K 8). One subgroup of
// 16 computes a 32x16 tile: per K step of 8, one 2D block load of A (E4 W8 H32: work-items 0-7
// take the even rows, 8-15 the odd ones, which is the instruction's tf32 A layout, four rows of
// eight per float4) into float4 a[4], one 2D block load of B (E4 W16 H8, a row per component) into
// a float8, and four matrix instructions; 2D block stores (E4 W16 H8).
// Arguments (A, B, C, M, N, K); requires M % 32 == 0, N % 16 == 0, K % 8 == 0;
// NDRange (N, M / 32), local (16, 1).

#define OVL __attribute__((overloadable))
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float4 a, float8 b, float8 c, int ops);
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int,
                                          int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockStoreINTEL(int, int, int, int, __private const void *,
                                           __global void *, int, int, int, int2);

__attribute__((intel_reqd_sub_group_size(16)))
__attribute__((reqd_work_group_size(16, 1, 1)))
__kernel void gemm_tf32_32x16_block2d(__global const float *A, __global const float *B,
                                      __global float *C, int M, int N, int K)
{
    const int n0 = get_group_id(0) * 16;
    const int m0 = get_group_id(1) * 32;
    float8 acc[4];
    for (int i = 0; i < 4; ++i)
        acc[i] = (float8)(0.0f);
    for (int k = 0; k < K; k += 8) {
        float4 a[4];
        float8 b;
        __spirv_Subgroup2DBlockLoadINTEL(4, 8, 32, 1, A, K * 4, M, K * 4, (int2)(k, m0), a);
        __spirv_Subgroup2DBlockLoadINTEL(4, 16, 8, 1, B, N * 4, K, N * 4, (int2)(n0, k), &b);
        for (int i = 0; i < 4; ++i)
            acc[i] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a[i], b, acc[i], 0x300);
    }
    for (int i = 0; i < 4; ++i)
        __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, &acc[i], C, N * 4, M, N * 4,
                                          (int2)(n0, m0 + 8 * i));
}
