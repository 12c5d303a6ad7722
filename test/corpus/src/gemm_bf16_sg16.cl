// corpus: producers=llc22,spirv15 std=CL2.0 class=gemm
// Small bf16 GEMM, C(float, MxN) = A(bf16, MxK) * B(bf16, KxN), all row-major.
// One sub-group of 16 computes an 8x32 tile of C: A via 2D block load (E2 W16 H8),
// B via 2D block load transform (E2 W16 H16, 2 blocks), two multiply-accumulates
// (0x3000) per K step of 16, prefetch of the next A tile, 2D block stores (E4 W16 H8).
// Requires M % 8 == 0, N % 32 == 0, K % 16 == 0; NDRange (N / 2, M / 8), local (16, 1).

#define OVL __attribute__((overloadable))
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, float8 c, int ops);
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int,
                                          int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int, const __global void *,
                                                   int, int, int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockPrefetchINTEL(int, int, int, int, const __global void *, int,
                                              int, int, int2);
void OVL __spirv_Subgroup2DBlockStoreINTEL(int, int, int, int, __private const void *,
                                           __global void *, int, int, int, int2);

__attribute__((intel_reqd_sub_group_size(16)))
__attribute__((reqd_work_group_size(16, 1, 1)))
__kernel void gemm_bf16_sg16(__global const ushort *A, __global const ushort *B,
                             __global float *C, int M, int N, int K)
{
    int n0 = get_group_id(0) * 32;
    int m0 = get_group_id(1) * 8;
    float8 acc0 = (float8)(0.0f);
    float8 acc1 = (float8)(0.0f);
    for (int k = 0; k < K; k += 16) {
        short8 a;
        int8 b[2];
        __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, A, K * 2, M, K * 2, (int2)(k, m0), &a);
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 2, B, N * 2, K, N * 2,
                                                  (int2)(n0, k), b);
        if (k + 16 < K)
            __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 8, 1, A, K * 2, M, K * 2,
                                                 (int2)(k + 16, m0));
        acc0 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b[0], acc0, 0x3000);
        acc1 = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b[1], acc1, 0x3000);
    }
    __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, &acc0, C, N * 4, M, N * 4, (int2)(n0, m0));
    __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, &acc1, C, N * 4, M, N * 4,
                                      (int2)(n0 + 16, m0));
}
