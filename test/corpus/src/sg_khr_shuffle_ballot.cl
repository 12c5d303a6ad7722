// corpus: producers=llc22,spirv15 std=CL2.0 class=subgroup
// Newer Khronos sub-group extensions: sub_group_shuffle / _xor (shuffle),
// sub_group_shuffle_up / _down (shuffle_relative), sub_group_elect, ballot with
// bit counting, non-uniform arithmetic and clustered reduce.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

__kernel void sg_khr_shuffle_ballot(__global const int *in, __global int *out)
{
    size_t gid = get_global_id(0);
    int v = in[gid];
    uint lid = get_sub_group_local_id();
    int s0 = sub_group_shuffle(v, (lid + 1) % get_sub_group_size());
    int s1 = sub_group_shuffle_xor(v, 1u);
    int s2 = sub_group_shuffle_up(v, 1u);
    int s3 = sub_group_shuffle_down(v, 1u);
    uint4 mask = sub_group_ballot(v > 0);
    uint cnt = sub_group_ballot_bit_count(mask);
    int leader = sub_group_elect() ? 1 : 0;
    int nu = 0;
    if (v & 1)
        nu = sub_group_non_uniform_reduce_add(v);
    int cl = sub_group_clustered_reduce_add(v, 4);
    out[6 * gid + 0] = s0 + s1;
    out[6 * gid + 1] = s2 - s3;
    out[6 * gid + 2] = (int)cnt;
    out[6 * gid + 3] = leader;
    out[6 * gid + 4] = nu;
    out[6 * gid + 5] = cl;
}
