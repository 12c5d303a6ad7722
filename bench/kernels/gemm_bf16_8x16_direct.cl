// bench-builds: llc22.O2 llc22.O0 spirv15.O0 spirv15.O2
// The smallest tile: one subgroup of 16 computes an 8x16 tile of C(float, MxN) = A(bf16, MxK) *
// B(bf16, KxN), row-major, one matrix instruction (bf16, 0x3000) per K step of 16. A comes in
// by a 2D block load (E2 W16 H8) into a short8, B by a load transform (E2 W16 H16) into an int8,
// each passed by its address; the tile goes out by a 2D block store (E4 W16 H8). Pitches from
// the matrix sizes.
// Arguments (A, B, C, M, N, K); requires M % 8 == 0, N % 16 == 0, K % 16 == 0;
// NDRange (N, M / 8), local (16, 1).

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
__kernel void gemm_bf16_8x16_direct(__global const ushort *A, __global const ushort *B,
                                    __global float *C, int M, int N, int K)
{
    const int n0 = get_group_id(0) * 16;
    const int m0 = get_group_id(1) * 8;
    float8 acc = (float8)(0.0f);
    for (int k = 0; k < K; k += 16) {
        short8 a;
        int8 b;
        __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, A, K * 2, M, K * 2, (int2)(k, m0), &a);
        __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 1, B, N * 2, K, N * 2,
                                                  (int2)(n0, k), &b);
        acc = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(16, a, b, acc, 0x3000);
    }
    __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, &acc, C, N * 4, M, N * 4, (int2)(n0, m0));
}
