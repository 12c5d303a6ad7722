// corpus: producers=llc22,spirv15 std=CL2.0 class=gemm skip=spirv15.O2
// bf16 GEMM with a register tile as production kernels use: C(float, MxN) = A(bf16, MxK) *
// B(bf16, KxN), all row-major. One sub-group of 16 computes a 32x32 tile of C: per K step of 16,
// one 2D block load of A (E2 W16 H32: rows 0-31, eight per matrix operand), one load transform
// of B (E2 W16 H16, 2 blocks), and eight multiply-accumulates (0x3000) into 4 x 2 float8
// accumulators; 2D block stores (E4 W16 H8) at the end.
// Requires M % 32 == 0, N % 32 == 0, K % 16 == 0; NDRange (N / 2, M / 32), local (16, 1).
// Not built: spirv15.O2 (llvm-spirv-15 -O2 puts an OpBitcast between the OpVariables of the entry block (invalid SPIR-V).)

#define OVL __attribute__((overloadable))
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, float8 c, int ops);
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int,
                                          int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int, const __global void *,
                                                   int, int, int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockStoreINTEL(int, int, int, int, __private const void *,
                                           __global void *, int, int, int, int2);

__attribute__((intel_reqd_sub_group_size(16)))
__attribute__((reqd_work_group_size(16, 1, 1)))
__kernel void gemm_bf16_tile32_sg16(__global const ushort *A, __global const ushort *B,
                                    __global float *C, int M, int N, int K)
{
    int n0 = get_group_id(0) * 32;
    int m0 = get_group_id(1) * 32;
    float8 acc[4][2];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            acc[i][j] = (float8)(0.0f);
    for (int k = 0; k < K; k += 16) {
        short8 a[4];
        int8 b[2];
        __spirv_Subgroup2DBlockLoadINTEL(2, 16, 32, 1, A, K * 2, M, K * 2, (int2)(k, m0), a);
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 2, B, N * 2, K, N * 2,
                                                  (int2)(n0, k), b);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 2; ++j)
                acc[i][j] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a[i], b[j],
                                                                          acc[i][j], 0x3000);
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, &acc[i][j], C, N * 4, M, N * 4,
                                              (int2)(n0 + 16 * j, m0 + 8 * i));
}
