// bench-builds: llc22.O2
// A fixed-size bf16 GEMM: N and K are compile-time constants (512), so every pitch and surface
// width is a constant, as in kernels specialised for one problem size. C(float, Mx512) =
// A(bf16, Mx512) * B(bf16, 512x512), row-major; M comes from the NDRange. One subgroup of 16
// computes a 32x32 tile of C: per K step of 16, one 2D block load of A (E2 W16 H32) into short8
// a[4], one load transform of B (E2 W16 H16, 2 blocks) into int8 b[2], the arrays passed
// directly, and eight matrix instructions (bf16, 0x3000); 2D block stores (E4 W16 H8).
// Arguments (A, B, C); requires M % 32 == 0; NDRange (256, M / 32), local (16, 1).

#define GEMM_N 512
#define GEMM_K 512

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
__kernel void gemm_bf16_32x32_const(__global const ushort *A, __global const ushort *B,
                                    __global float *C)
{
    const int n0 = get_group_id(0) * 32;
    const int m0 = get_group_id(1) * 32;
    const int M = get_num_groups(1) * 32;
    float8 acc[4][2];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            acc[i][j] = (float8)(0.0f);
    for (int k = 0; k < GEMM_K; k += 16) {
        short8 a[4];
        int8 b[2];
        __spirv_Subgroup2DBlockLoadINTEL(2, 16, 32, 1, A, GEMM_K * 2, M, GEMM_K * 2,
                                         (int2)(k, m0), a);
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 2, B, GEMM_N * 2, GEMM_K,
                                                  GEMM_N * 2, (int2)(n0, k), b);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 2; ++j)
                acc[i][j] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a[i], b[j],
                                                                          acc[i][j], 0x3000);
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, &acc[i][j], C, GEMM_N * 4, M,
                                              GEMM_N * 4, (int2)(n0 + 16 * j, m0 + 8 * i));
}
