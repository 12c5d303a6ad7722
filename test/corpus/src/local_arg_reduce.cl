// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Tree reduction in a __local buffer passed as a kernel argument; barrier between
// every level. Computes the per-work-group integer sum and xor. Requires a
// power-of-two local size.

__kernel void local_arg_reduce(__global const int *in, __global int *sums,
                               __local int *s_sum, __local uint *s_xor)
{
    uint lid = get_local_id(0);
    uint n = get_local_size(0);
    int v = in[get_global_id(0)];
    s_sum[lid] = v;
    s_xor[lid] = (uint)v * 0x9E3779B9u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = n / 2; off > 0; off >>= 1) {
        if (lid < off) {
            s_sum[lid] += s_sum[lid + off];
            s_xor[lid] ^= s_xor[lid + off];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        sums[2 * get_group_id(0)] = s_sum[0];
        sums[2 * get_group_id(0) + 1] = (int)s_xor[0];
    }
}
