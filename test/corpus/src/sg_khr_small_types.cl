// corpus: producers=llc22,spirv15 std=CL2.0 class=subgroup
// cl_khr_subgroup_extended_types: 8- and 16-bit sub-group collectives:
// sub_group_reduce_add on char/uchar, scans on char and short, broadcast of
// uchar/ushort, and sub_group_reduce_max on char2-free scalar paths.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

__kernel void sg_khr_small_types(__global const char *c, __global const uchar *uc,
                                 __global const short *s, __global char *oc,
                                 __global uchar *ouc, __global short *os)
{
    size_t gid = get_global_id(0);
    char a = c[gid];
    uchar b = uc[gid];
    short x = s[gid];
    oc[3 * gid + 0] = sub_group_reduce_add(a);
    oc[3 * gid + 1] = sub_group_scan_inclusive_max(a);
    oc[3 * gid + 2] = sub_group_scan_exclusive_add(a);
    ouc[2 * gid + 0] = sub_group_reduce_add(b);
    ouc[2 * gid + 1] = sub_group_broadcast(b, 1);
    os[3 * gid + 0] = sub_group_reduce_min(x);
    os[3 * gid + 1] = sub_group_scan_inclusive_add(x);
    os[3 * gid + 2] = (short)sub_group_broadcast((ushort)x, 0);
}
