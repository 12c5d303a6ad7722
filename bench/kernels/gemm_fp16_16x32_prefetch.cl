// bench-builds: llc22.O2 llc22.O0 spirv15.O0
// Not built: spirv15.O2 (llvm-spirv-15 -O2 puts an OpBitcast between the OpVariables of the entry
// block, invalid SPIR-V; a producer bug, see test/corpus/src/gemm_bf16_tile32_sg16.cl).
// An fp16 GEMM: C(float, MxN) = A(half, MxK) * B(half, KxN), row-major. One subgroup of 16
// computes a 16x32 tile: per K step of 16, one 2D block load of A (E2 W16 H16) into short8 a[2],
// one load transform of B (E2 W16 H16, 2 blocks) into int8 b[2], 2D block prefetches of the next
// A and B tiles, and four matrix instructions (fp16, 0xC00); 2D block stores (E4 W16 H8).
// Arguments (A, B, C, M, N, K); requires M % 16 == 0, N % 32 == 0, K % 16 == 0;
// NDRange (N / 2, M / 16), local (16, 1).

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
__kernel void gemm_fp16_16x32_prefetch(__global const half *A, __global const half *B,
                                       __global float *C, int M, int N, int K)
{
    const int n0 = get_group_id(0) * 32;
    const int m0 = get_group_id(1) * 16;
    float8 acc[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            acc[i][j] = (float8)(0.0f);
    for (int k = 0; k < K; k += 16) {
        short8 a[2];
        int8 b[2];
        __spirv_Subgroup2DBlockLoadINTEL(2, 16, 16, 1, A, K * 2, M, K * 2, (int2)(k, m0), a);
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 2, B, N * 2, K, N * 2,
                                                  (int2)(n0, k), b);
        if (k + 16 < K) {
            __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 16, 1, A, K * 2, M, K * 2,
                                                 (int2)(k + 16, m0));
            __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 16, 2, B, N * 2, K, N * 2,
                                                 (int2)(n0, k + 16));
        }
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j)
                acc[i][j] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a[i], b[j],
                                                                          acc[i][j], 0xC00);
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, &acc[i][j], C, N * 4, M, N * 4,
                                              (int2)(n0 + 16 * j, m0 + 8 * i));
}
