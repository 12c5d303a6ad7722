// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// OpenCL 2.0 work-group functions on integers: work_group_reduce_add/min/max,
// work_group_scan_inclusive_add, work_group_scan_exclusive_max,
// work_group_broadcast, work_group_all and work_group_any.

__kernel void work_group_collectives(__global const int *in, __global int *out)
{
    size_t gid = get_global_id(0);
    int v = in[gid];
    int sum = work_group_reduce_add(v);
    int lo = work_group_reduce_min(v);
    int hi = work_group_reduce_max(v);
    int incl = work_group_scan_inclusive_add(v);
    int excl = work_group_scan_exclusive_max(v);
    int first = work_group_broadcast(v, 0);
    int all_pos = work_group_all(v > 0);
    int any_neg = work_group_any(v < 0);
    uint u = work_group_reduce_add((uint)v & 0xFFu);
    out[8 * gid + 0] = sum;
    out[8 * gid + 1] = lo;
    out[8 * gid + 2] = hi;
    out[8 * gid + 3] = incl;
    out[8 * gid + 4] = excl;
    out[8 * gid + 5] = first;
    out[8 * gid + 6] = (all_pos ? 1 : 0) | (any_neg ? 2 : 0);
    out[8 * gid + 7] = (int)u;
}
