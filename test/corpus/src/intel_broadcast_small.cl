// corpus: producers=llc22 std=CL2.0 class=intel
// intel_sub_group_broadcast on uchar and ushort (cl_intel_subgroups_char/_short).
// llc-22 does not lower this built-in: the module keeps it as an unresolved
// imported function. clang-15's header declares no 8-bit overload, hence llc22 only.

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_broadcast_small(__global const uchar *u, __global const ushort *s,
                                    __global uchar *ou, __global ushort *os)
{
    size_t gid = get_global_id(0);
    ou[gid] = intel_sub_group_broadcast(u[gid], 3u);
    os[gid] = intel_sub_group_broadcast(s[gid], (uint)(u[0] & 15));
}
