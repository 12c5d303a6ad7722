// bench-builds: llc22.O2 llc22.O0 spirv15.O0 spirv15.O2
// A tf32 GEMM without 2D block IO: C(float, MxN) = A(float, MxK) * B(float, KxN), row-major,
// the matrix instruction reading the upper 19 bits of each float (tf32, 0x300, K 8). One
// subgroup of 16 computes an 8x16 tile with plain global loads in the instruction's layout:
// work-item i holds column k + i % 8 of rows 2t + i / 8 of A (float4) and column n0 + i of eight
// rows of B (float8); plain stores of its column of C.
// Arguments (A, B, C, M, N, K); requires M % 8 == 0, N % 16 == 0, K % 8 == 0;
// NDRange (N, M / 8), local (16, 1).

#define OVL __attribute__((overloadable))
float8 OVL __spirv_SubgroupMatrixMultiplyAccumulateINTEL(int k, float4 a, float8 b, float8 c, int ops);

__attribute__((intel_reqd_sub_group_size(16)))
__attribute__((reqd_work_group_size(16, 1, 1)))
__kernel void gemm_tf32_8x16_plain(__global const float *A, __global const float *B,
                                   __global float *C, int M, int N, int K)
{
    // Unsigned: clang-15 -O2 turns a signed lane % 8 into a `freeze`, which llvm-spirv-15
    // cannot translate (a producer bug; the lane id is never negative anyway).
    const uint lane = get_sub_group_local_id();
    const int n = get_group_id(0) * 16 + lane;
    const int m0 = get_group_id(1) * 8;
    const int a_row = m0 + lane / 8, a_col = lane % 8;
    float8 acc = (float8)(0.0f);
    for (int k = 0; k < K; k += 8) {
        float4 a;
        a.s0 = A[(a_row + 0) * K + k + a_col];
        a.s1 = A[(a_row + 2) * K + k + a_col];
        a.s2 = A[(a_row + 4) * K + k + a_col];
        a.s3 = A[(a_row + 6) * K + k + a_col];
        float8 b;
        b.s0 = B[(k + 0) * N + n];
        b.s1 = B[(k + 1) * N + n];
        b.s2 = B[(k + 2) * N + n];
        b.s3 = B[(k + 3) * N + n];
        b.s4 = B[(k + 4) * N + n];
        b.s5 = B[(k + 5) * N + n];
        b.s6 = B[(k + 6) * N + n];
        b.s7 = B[(k + 7) * N + n];
        acc = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(8, a, b, acc, 0x300);
    }
    C[(m0 + 0) * N + n] = acc.s0;
    C[(m0 + 1) * N + n] = acc.s1;
    C[(m0 + 2) * N + n] = acc.s2;
    C[(m0 + 3) * N + n] = acc.s3;
    C[(m0 + 4) * N + n] = acc.s4;
    C[(m0 + 5) * N + n] = acc.s5;
    C[(m0 + 6) * N + n] = acc.s6;
    C[(m0 + 7) * N + n] = acc.s7;
}
