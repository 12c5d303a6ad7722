// 8- and 16-bit subgroup collectives and shuffles beyond test/corpus's intel_char_group: the
// exclusive min and max scans (whose first invocation gets the narrow type's identity,
// DECISIONS 8), on char, uchar and short, an 8-bit shuffle-up and a 16-bit shuffle-xor and
// broadcast. On a device without cl_intel_subgroups_char / _short --emulate-xmx runs them at 32
// bits. NDRange 32, local 16.
#include "emulate_decls.h"
SG16 __kernel void emu_narrow_scans(__global const char *c, __global const short *s,
                                    __global char *oc, __global short *os)
{
    size_t gid = get_global_id(0);
    char a = c[gid];
    uchar u = (uchar)a;
    short h = s[gid];
    oc[8 * gid + 0] = sub_group_scan_exclusive_min(a);
    oc[8 * gid + 1] = sub_group_scan_exclusive_max(a);
    oc[8 * gid + 2] = (char)sub_group_scan_exclusive_min(u);
    oc[8 * gid + 3] = (char)sub_group_scan_exclusive_max(u);
    oc[8 * gid + 4] = sub_group_scan_inclusive_add(a);
    oc[8 * gid + 5] = sub_group_reduce_min(a);
    oc[8 * gid + 6] = intel_sub_group_shuffle_up(a, (char)(a + 1), 3u);
    oc[8 * gid + 7] = (char)sub_group_scan_inclusive_max(u);
    os[4 * gid + 0] = sub_group_scan_exclusive_min(h);
    os[4 * gid + 1] = sub_group_scan_exclusive_max(h);
    os[4 * gid + 2] = intel_sub_group_shuffle_xor(h, 5u);
    os[4 * gid + 3] = sub_group_broadcast(h, 7u);
}
