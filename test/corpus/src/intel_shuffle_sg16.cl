// corpus: producers=llc22,spirv15 std=CL2.0 class=intel
// cl_intel_subgroups shuffles at a required sub-group size of 16:
// intel_sub_group_shuffle, _shuffle_down, _shuffle_up and _shuffle_xor on
// int, uint, float and float4 (a butterfly all-reduce and a sliding window).

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_shuffle_sg16(__global const int *in, __global const float4 *fv,
                                 __global int *out, __global float4 *fout)
{
    size_t gid = get_global_id(0);
    uint lid = get_sub_group_local_id();
    int v = in[gid];
    int next = in[gid + 16 - lid];            /* first element of the next block */

    int bcast = intel_sub_group_shuffle(v, 5u);
    int down = intel_sub_group_shuffle_down(v, next, 3u);
    int up = intel_sub_group_shuffle_up(next, v, 2u);
    int red = v;
    for (uint m = 8; m > 0; m >>= 1)
        red += intel_sub_group_shuffle_xor(red, m);
    uint rot = intel_sub_group_shuffle((uint)v, (lid + 1u) & 15u);

    float4 x = fv[gid];
    float4 y = intel_sub_group_shuffle_xor(x, 1u) + intel_sub_group_shuffle_down(x, x, 1u);
    out[5 * gid + 0] = bcast;
    out[5 * gid + 1] = down;
    out[5 * gid + 2] = up;
    out[5 * gid + 3] = red;
    out[5 * gid + 4] = (int)rot;
    fout[gid] = y;
}
