// bench-builds: spirv15.O0 llc22.O0 llc22.O2
// Not built: spirv15.O2 (llvm-spirv-15 -O2 puts an OpBitcast between the OpVariables of the entry
// block, invalid SPIR-V; a producer bug, see test/corpus/src/gemm_bf16_tile32_sg16.cl).
// The bf16 GEMM through the OpenCL C built-ins of cl_intel_subgroup_2d_block_io and
// cl_intel_subgroup_matrix_multiply_accumulate (declared here: the compilers' headers lack
// them), which neither producer knows, so the module keeps them as calls that the driver
// resolves by name: C(float, MxN) = A(bf16, MxK) * B(bf16, KxN), row-major. One subgroup of 16
// computes a 16x32 tile: per K step of 16, intel_sub_group_2d_block_read_16b_16r16x1c of A,
// intel_sub_group_2d_block_read_transform_16b_16r16x2c of B and four
// intel_sub_group_bf16_bf16_matrix_mad_k16; intel_sub_group_2d_block_write_32b_8r16x1c at the end.
// Arguments (A, B, C, M, N, K); requires M % 16 == 0, N % 32 == 0, K % 16 == 0;
// NDRange (N / 2, M / 16), local (16, 1).

void intel_sub_group_2d_block_read_16b_16r16x1c(__global void *base_address, int width,
                                                int height, int pitch, int2 coord,
                                                __private ushort *destination);
void intel_sub_group_2d_block_read_transform_16b_16r16x2c(__global void *base_address,
                                                          int width, int height, int pitch,
                                                          int2 coord, __private uint *destination);
void intel_sub_group_2d_block_write_32b_8r16x1c(__global void *base_address, int width,
                                                int height, int pitch, int2 coord,
                                                __private uint *source);
float8 intel_sub_group_bf16_bf16_matrix_mad_k16(short8 a, int8 b, float8 acc);

__attribute__((intel_reqd_sub_group_size(16)))
__attribute__((reqd_work_group_size(16, 1, 1)))
__kernel void gemm_bf16_16x32_builtins(__global ushort *A, __global ushort *B, __global float *C,
                                       int M, int N, int K)
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
        intel_sub_group_2d_block_read_16b_16r16x1c(A, K * 2, M, K * 2, (int2)(k, m0),
                                                   (__private ushort *)a);
        intel_sub_group_2d_block_read_transform_16b_16r16x2c(B, N * 2, K, N * 2, (int2)(n0, k),
                                                             (__private uint *)b);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j)
                acc[i][j] = intel_sub_group_bf16_bf16_matrix_mad_k16(a[i], b[j], acc[i][j]);
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            intel_sub_group_2d_block_write_32b_8r16x1c(C, N * 4, M, N * 4,
                                                       (int2)(n0 + 16 * j, m0 + 8 * i),
                                                       (__private uint *)&acc[i][j]);
}
