// corpus: producers=llc22,spirv15 std=CL2.0 class=builtins
// cl_intel_subgroups_char/short/long built-ins as users call them: broadcast, reductions and
// scans on char, uchar, short and ushort (llc-22 leaves these as imported calls), shuffles of
// char, ushort and ulong, buffer block IO _uc, _us and _ul. clang-15's header lacks the char and
// long forms: they are declared here as cl_intel_subgroups_char and _long give them.

#define OVL __attribute__((overloadable))
#ifndef cl_intel_subgroups_char
char OVL intel_sub_group_broadcast(char x, uint id);
uchar OVL intel_sub_group_broadcast(uchar x, uint id);
char OVL intel_sub_group_reduce_add(char x);
char OVL intel_sub_group_reduce_min(char x);
uchar OVL intel_sub_group_reduce_min(uchar x);
char OVL intel_sub_group_reduce_max(char x);
uchar OVL intel_sub_group_reduce_max(uchar x);
char OVL intel_sub_group_scan_exclusive_add(char x);
uchar OVL intel_sub_group_scan_inclusive_add(uchar x);
char OVL intel_sub_group_scan_inclusive_min(char x);
uchar OVL intel_sub_group_scan_exclusive_max(uchar x);
char OVL intel_sub_group_shuffle(char x, uint c);
char OVL intel_sub_group_shuffle_down(char cur, char next, uint c);
char OVL intel_sub_group_shuffle_up(char prev, char cur, uint c);
uchar OVL intel_sub_group_block_read_uc(const __global uchar *p);
uchar4 OVL intel_sub_group_block_read_uc4(const __global uchar *p);
void OVL intel_sub_group_block_write_uc(__global uchar *p, uchar data);
void OVL intel_sub_group_block_write_uc2(__global uchar *p, uchar2 data);
#endif
#ifndef cl_intel_subgroups_long
ulong OVL intel_sub_group_block_read_ul(const __global ulong *p);
ulong2 OVL intel_sub_group_block_read_ul2(const __global ulong *p);
void OVL intel_sub_group_block_write_ul(__global ulong *p, ulong data);
#endif

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void builtin_groups(__global const char *c, __global const short *s, __global int *out)
{
    const size_t g = get_global_id(0);
    const uint lid = get_sub_group_local_id();
    char x = c[g];
    uchar ux = (uchar)c[g + 7];
    short y = s[g];
    ushort uy = (ushort)s[g + 3];
    __global int *o = out + g * 24;
    o[0] = intel_sub_group_broadcast(x, 5u);
    o[1] = intel_sub_group_broadcast(ux, 9u);
    o[2] = intel_sub_group_reduce_add(x);
    o[3] = intel_sub_group_reduce_min(x);
    o[4] = intel_sub_group_reduce_min(ux);
    o[5] = intel_sub_group_reduce_max(x);
    o[6] = intel_sub_group_reduce_max(ux);
    o[7] = intel_sub_group_scan_exclusive_add(x);
    o[8] = intel_sub_group_scan_inclusive_add(ux);
    o[9] = intel_sub_group_scan_inclusive_min(x);
    o[10] = intel_sub_group_scan_exclusive_max(ux);
    o[11] = intel_sub_group_broadcast(y, 2u);
    o[12] = intel_sub_group_reduce_min(y);
    o[13] = intel_sub_group_reduce_max(uy);
    o[14] = intel_sub_group_scan_inclusive_max(y);
    o[15] = intel_sub_group_scan_exclusive_min(uy);
    o[16] = intel_sub_group_shuffle(x, lid ^ 3u);
    o[17] = intel_sub_group_shuffle_down(x, (char)(x + 1), 3u);
    o[18] = intel_sub_group_shuffle_up(x, (char)(x - 1), 2u);
    o[19] = intel_sub_group_shuffle_xor(uy, 5u);
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void builtin_block_io(__global uchar *b8, __global ushort *b16, __global ulong *b64)
{
    const size_t group = get_group_id(0);
    __global uchar *p8 = b8 + group * 128;
    __global ushort *p16 = b16 + group * 128;
    __global ulong *p64 = b64 + group * 64;
    uchar v = intel_sub_group_block_read_uc(p8);
    uchar4 v4 = intel_sub_group_block_read_uc4(p8 + 16);
    ushort w = intel_sub_group_block_read_us(p16);
    ushort2 w2 = intel_sub_group_block_read_us2(p16 + 16);
    ulong l = intel_sub_group_block_read_ul(p64);
    ulong2 l2 = intel_sub_group_block_read_ul2(p64 + 16);
    intel_sub_group_block_write_uc(p8 + 80, (uchar)(v + v4.s3));
    intel_sub_group_block_write_uc2(p8 + 96, v4.s01);
    intel_sub_group_block_write_us(p16 + 64, (ushort)(w ^ w2.s1));
    intel_sub_group_block_write_us2(p16 + 96, w2);
    intel_sub_group_block_write_ul(p64 + 48, l + l2.s1);
}
