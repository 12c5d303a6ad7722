// corpus: producers=llc22,spirv15 std=CL2.0 class=gemm
// Small int8 GEMM, C(int, MxN) = A(char, MxK) * B(char, KxN), all row-major.
// One sub-group of 16 computes an 8x16 tile of C: A via 2D block load (E1 W32 H8,
// two int8 packed per short), B via 2D block load transform (E1 W16 H32), one
// signed int8 multiply-accumulate (0x33, K 32) per step, 2D block store (E4 W16 H8).
// Requires M % 8 == 0, N % 16 == 0, K % 32 == 0; NDRange (N, M / 8), local (16, 1).

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
__kernel void gemm_int8_sg16(__global const char *A, __global const char *B,
                             __global int *C, int M, int N, int K)
{
    int n0 = get_group_id(0) * 16;
    int m0 = get_group_id(1) * 8;
    int8 acc = (int8)(0);
    for (int k = 0; k < K; k += 32) {
        short8 a;
        int8 b;
        __spirv_Subgroup2DBlockLoadINTEL(1, 32, 8, 1, A, K, M, K, (int2)(k, m0), &a);
        __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 1, B, N, K, N, (int2)(n0, k), &b);
        acc = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(32, a, b, acc, 0x33);
    }
    __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, &acc, C, N * 4, M, N * 4, (int2)(n0, m0));
}
