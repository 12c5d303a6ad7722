// corpus: producers=llc22,spirv15 std=CL2.0 class=portable skip=spirv15.O2
// Tiled integer matrix multiply C = A * B (N x N, N a multiple of 8) with two
// 8x8 __local tiles, 2D NDRange with local size 8x8 and an unrolled inner product.
// spirv15 O2 skipped: clang-15's SLP vectorizer turns the unrolled dot product into
// llvm.vector.reduce.add.v8i32, which llvm-spirv-15 rejects ("Unexpected llvm intrinsic").

#define T 8

__kernel __attribute__((reqd_work_group_size(T, T, 1)))
void matmul_tiled_int(__global const int *A, __global const int *B, __global int *C, int N)
{
    __local int As[T][T];
    __local int Bs[T][T];
    int col = get_global_id(0), row = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    int acc = 0;
    for (int t = 0; t < N; t += T) {
        As[ly][lx] = A[row * N + t + lx];
        Bs[ly][lx] = B[(t + ly) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int k = 0; k < T; ++k)
            acc += As[ly][k] * Bs[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
