// bench-builds: llc22.O2 spirv15.O0
// Not built: spirv15.O2 (llvm-spirv-15 -O2 puts an OpBitcast between the OpVariables of the entry
// block, invalid SPIR-V; a producer bug, see test/corpus/src/gemm_bf16_tile32_sg16.cl).
// An int8 GEMM: C(int, MxN) = A(char, MxK) * B(char, KxN), signed, exact with 32-bit
// wrap-around, row-major with leading dimensions (in elements) passed as arguments. One
// subgroup of 16 computes a 32x32 tile: per K step of 32, one 2D block load of A (E1 W32 H32:
// two int8 of a row per ushort) into a private ushort array, one load transform of B (E1 W16 H32,
// 2 blocks, four rows per 32-bit word) into a private uint array, and eight matrix instructions
// (s8 x s8, 0x33) reading the arrays through pointer casts; 2D block stores (E4 W16 H8).
// Arguments (A, B, C, M, N, K, lda, ldb, ldc); requires M % 32 == 0, N % 32 == 0, K % 32 == 0;
// NDRange (N / 2, M / 32), local (16, 1).

#define OVL __attribute__((overloadable))
int8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, short8 a, int8 b, int8 c, int ops);
void OVL __spirv_Subgroup2DBlockLoadINTEL(int, int, int, int, const __global void *, int, int,
                                          int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int, int, int, int, const __global void *,
                                                   int, int, int, int2, __private void *);
void OVL __spirv_Subgroup2DBlockStoreINTEL(int, int, int, int, __private const void *,
                                           __global void *, int, int, int, int2);

__attribute__((intel_reqd_sub_group_size(16)))
__attribute__((reqd_work_group_size(16, 1, 1)))
__kernel void gemm_int8_32x32_ldargs_cast(__global const char *A, __global const char *B,
                                          __global int *C, int M, int N, int K, int lda,
                                          int ldb, int ldc)
{
    const int n0 = get_group_id(0) * 32;
    const int m0 = get_group_id(1) * 32;
    int8 acc[4][2];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            acc[i][j] = (int8)(0);
    ushort a_tile[32];
    uint b_tile[16];
    for (int k = 0; k < K; k += 32) {
        __spirv_Subgroup2DBlockLoadINTEL(1, 32, 32, 1, A, K, M, lda, (int2)(k, m0),
                                         (__private void *)a_tile);
        __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 2, B, N, K, ldb, (int2)(n0, k),
                                                  (__private void *)b_tile);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 2; ++j)
                acc[i][j] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(
                    32, *(__private short8 *)&a_tile[8 * i], *(__private int8 *)&b_tile[8 * j],
                    acc[i][j], 0x33);
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, (__private const void *)&acc[i][j],
                                              C, N * 4, M, ldc * 4,
                                              (int2)(n0 + 16 * j, m0 + 8 * i));
}
