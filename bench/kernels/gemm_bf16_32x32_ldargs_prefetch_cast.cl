// bench-builds: llc22.O2 llc22.O0 spirv15.O0
// Not built: spirv15.O2 (llvm-spirv-15 -O2 puts an OpBitcast between the OpVariables of the entry
// block, invalid SPIR-V; a producer bug, see test/corpus/src/gemm_bf16_tile32_sg16.cl).
// The bf16 GEMM of issue 13, as a user new to the extensions writes it: C(float, MxN) =
// A(bf16, MxK) * B(bf16, KxN), row-major with leading dimensions (pitches, in elements) passed
// as arguments. One subgroup of 16 computes a 32x32 tile of C. Per K step of 16: one 2D block
// load of A (element 2 bytes, width 16, height 32) into a private ushort array, one load
// transform of B (element 2 bytes, width 16, height 16, 2 blocks) into a private uint array, a
// 2D block prefetch of the next A tile, and eight matrix instructions (bf16, 0x3000) reading the
// arrays through explicit pointer casts (short8 / int8) into 4 x 2 float8 accumulators; 2D block
// stores (element 4, width 16, height 8) at the end.
// Arguments (A, B, C, M, N, K, lda, ldb, ldc); requires M % 32 == 0, N % 32 == 0, K % 16 == 0;
// NDRange (N / 2, M / 32), local (16, 1).

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
__kernel void gemm_bf16_32x32_ldargs_prefetch_cast(__global const ushort *A,
                                                   __global const ushort *B, __global float *C,
                                                   int M, int N, int K, int lda, int ldb, int ldc)
{
    const int n0 = get_group_id(0) * 32;
    const int m0 = get_group_id(1) * 32;
    // Surface sizes and pitches in bytes, as the 2D block instructions take them.
    const int a_width = K * (int)sizeof(ushort), a_pitch = lda * (int)sizeof(ushort);
    const int b_width = N * (int)sizeof(ushort), b_pitch = ldb * (int)sizeof(ushort);
    const int c_width = N * (int)sizeof(float), c_pitch = ldc * (int)sizeof(float);
    float8 acc[4][2];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            acc[i][j] = 0.0f;
    ushort a_tile[32];  // rows 0-31 of the A tile, one column per work-item
    uint b_tile[16];    // two VNNI blocks of B, eight words each
    for (int k = 0; k < K; k += 16) {
        __spirv_Subgroup2DBlockLoadINTEL(2, 16, 32, 1, (const __global void *)A, a_width, M,
                                         a_pitch, (int2)(k, m0), (__private void *)a_tile);
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 2, (const __global void *)B,
                                                  b_width, K, b_pitch, (int2)(n0, k),
                                                  (__private void *)b_tile);
        __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 32, 1, (const __global void *)A, a_width, M,
                                             a_pitch, (int2)(k + 16, m0));
        for (int i = 0; i < 4; ++i) {
            const short8 a = *(__private const short8 *)(a_tile + 8 * i);
            for (int j = 0; j < 2; ++j)
                acc[i][j] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(
                    16, a, ((__private const int8 *)b_tile)[j], acc[i][j], 0x3000);
        }
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, (__private const void *)&acc[i][j],
                                              (__global void *)C, c_width, M, c_pitch,
                                              (int2)(n0 + 16 * j, m0 + 8 * i));
}
