// corpus: producers=llc22,spirv15 std=CL2.0 class=intel
// A realistic row-sum kernel: each sub-group of 16 loads a 16x8 tile with
// intel_sub_group_block_read8, reduces across lanes with intel_sub_group_shuffle_xor,
// and lane 0 writes the row sums; sub_group_reduce_add checks the result.

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_butterfly_reduce(__global const float *rows, __global float *sums,
                                     __global int *check)
{
    uint sg = get_global_id(0) / 16;
    uint lid = get_sub_group_local_id();
    uint8 raw = intel_sub_group_block_read8((const __global uint *)(rows + sg * 128));
    float8 v = as_float8(raw);
    for (uint m = 1; m < 16; m <<= 1)
        v += intel_sub_group_shuffle_xor(v, m);
    if (lid == 0)
        vstore8(v, sg, sums);
    int n = sub_group_reduce_add((int)(v.s0 == v.s0));
    if (lid == 0)
        check[sg] = n;
}
