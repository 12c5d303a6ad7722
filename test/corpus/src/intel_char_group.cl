// corpus: producers=llc22 std=CL2.0 class=intel
// 8-bit sub-group operations from cl_intel_subgroups_char: intel_sub_group_shuffle,
// _shuffle_down and _shuffle_xor on char and uchar, sub_group_broadcast on uchar,
// and char reductions/scans. llc22 only: clang-15's header has no 8-bit intel
// overloads, so there the shuffles silently widen to 32-bit OpSubgroupShuffleINTEL.
// (intel_sub_group_broadcast itself is in intel_broadcast_small.cl.)

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_char_group(__global const char *c, __global const uchar *u,
                               __global char *oc, __global uchar *ou)
{
    size_t gid = get_global_id(0);
    uint lid = get_sub_group_local_id();
    char a = c[gid];
    uchar b = u[gid];
    ou[4 * gid + 0] = sub_group_broadcast(b, 3u);
    ou[4 * gid + 1] = intel_sub_group_shuffle(b, 15u - lid);
    ou[4 * gid + 2] = intel_sub_group_shuffle_down(b, b, 2u);
    ou[4 * gid + 3] = sub_group_scan_exclusive_add(b);
    oc[4 * gid + 0] = intel_sub_group_shuffle_xor(a, 1u);
    oc[4 * gid + 1] = sub_group_reduce_add(a);
    oc[4 * gid + 2] = sub_group_scan_inclusive_min(a);
    oc[4 * gid + 3] = sub_group_reduce_max(a);
}
