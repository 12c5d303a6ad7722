// corpus: producers=llc22,spirv15 std=CL2.0 class=subgroup
// cl_khr_subgroups basics: sub-group queries (size, id, local id, count),
// sub_group_reduce_add/min/max, inclusive/exclusive scans, sub_group_broadcast,
// sub_group_all/any and sub_group_barrier, on int, uint and float.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

__kernel void sg_khr_basic(__global const int *in, __global const float *f,
                           __global int *out, __global float *fout)
{
    size_t gid = get_global_id(0);
    int v = in[gid];
    uint lid = get_sub_group_local_id();
    int sum = sub_group_reduce_add(v);
    int lo = sub_group_reduce_min(v);
    uint hi = sub_group_reduce_max((uint)v);
    int incl = sub_group_scan_inclusive_add(v);
    int excl = sub_group_scan_exclusive_min(v);
    int b = sub_group_broadcast(v, 0);
    int flags = (sub_group_all(v >= 0) ? 1 : 0) | (sub_group_any(v == 7) ? 2 : 0);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[8 * gid + 0] = sum;
    out[8 * gid + 1] = lo + (int)hi;
    out[8 * gid + 2] = incl - excl;
    out[8 * gid + 3] = b;
    out[8 * gid + 4] = flags;
    out[8 * gid + 5] = (int)(lid | (get_sub_group_id() << 8));
    out[8 * gid + 6] = (int)(get_sub_group_size() | (get_max_sub_group_size() << 8));
    out[8 * gid + 7] = (int)(get_num_sub_groups() | (get_enqueued_num_sub_groups() << 8));
    float x = f[gid];
    fout[2 * gid] = sub_group_reduce_max(x);
    fout[2 * gid + 1] = sub_group_scan_inclusive_add(x);
}
