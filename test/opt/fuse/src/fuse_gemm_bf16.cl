// A bf16 GEMM (C = A x B, float C, bf16 A and B, all row-major) written with one 2D block
// operation per 16-wide block, as a kernel author does before thinking of Block Count: per K step
// of 32, two loads of A (E2 W16 H8) at K offsets k and k + 16, two load-transforms of B
// (E2 W16 H16) at N offsets n0 and n0 + 16 for each half of the K step, and two prefetches of the
// next step's A. --fuse-2d-block-loads makes each pair one operation with Block Count 2 on pvc.
// One sub-group of 16 computes an 8x32 tile of C. Requires M % 8 == 0, N % 32 == 0,
// K % 32 == 0; NDRange (N / 2, M / 8), local (16, 1).
#define OVL __attribute__((overloadable))
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, float8 c, int ops);
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int,
                                          int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int, const __global void *,
                                                   int, int, int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockPrefetchINTEL(int, int, int, int, const __global void *, int, int,
                                              int, int2);
void OVL __spirv_Subgroup2DBlockStoreINTEL(int, int, int, int, __private const void *,
                                           __global void *, int, int, int, int2);

__attribute__((intel_reqd_sub_group_size(16)))
__attribute__((reqd_work_group_size(16, 1, 1)))
__kernel void fuse_gemm_bf16(__global const ushort *A, __global const ushort *B,
                             __global float *C, int M, int N, int K)
{
    int n0 = get_group_id(0) * 32;
    int m0 = get_group_id(1) * 8;
    float8 acc[2] = {(float8)(0.0f), (float8)(0.0f)};
    for (int k = 0; k < K; k += 32) {
        short8 a0, a1;
        int8 b00, b01, b10, b11;
        __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, A, K * 2, M, K * 2, (int2)(k, m0), &a0);
        __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, A, K * 2, M, K * 2, (int2)(k + 16, m0), &a1);
        __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 8, 1, A, K * 2, M, K * 2, (int2)(k + 32, m0));
        __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 8, 1, A, K * 2, M, K * 2, (int2)(k + 48, m0));
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 1, B, N * 2, K, N * 2, (int2)(n0, k), &b00);
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 1, B, N * 2, K, N * 2, (int2)(n0 + 16, k), &b01);
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 1, B, N * 2, K, N * 2, (int2)(n0, k + 16), &b10);
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 1, B, N * 2, K, N * 2, (int2)(n0 + 16, k + 16), &b11);
        acc[0] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a0, b00, acc[0], 0x3000);
        acc[1] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a0, b01, acc[1], 0x3000);
        acc[0] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a1, b10, acc[0], 0x3000);
        acc[1] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a1, b11, acc[1], 0x3000);
    }
    for (int j = 0; j < 2; ++j)
        __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, &acc[j], C, N * 4, M, N * 4,
                                          (int2)(n0 + 16 * j, m0));
}
