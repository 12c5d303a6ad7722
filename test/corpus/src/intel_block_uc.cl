// corpus: producers=llc22,spirv15 std=CL2.0 class=intel
// cl_intel_subgroups_char 8-bit block I/O: intel_sub_group_block_read_uc,
// _uc2, _uc4, _uc8, _uc16 and the write variants. clang-15's opencl-c.h lacks
// these, so they are declared here when the extension macro is missing.

#if !defined(cl_intel_subgroups_char)
#define OVL __attribute__((overloadable))
uchar   OVL intel_sub_group_block_read_uc(const __global uchar *p);
uchar2  OVL intel_sub_group_block_read_uc2(const __global uchar *p);
uchar4  OVL intel_sub_group_block_read_uc4(const __global uchar *p);
uchar8  OVL intel_sub_group_block_read_uc8(const __global uchar *p);
uchar16 OVL intel_sub_group_block_read_uc16(const __global uchar *p);
void OVL intel_sub_group_block_write_uc(__global uchar *p, uchar v);
void OVL intel_sub_group_block_write_uc2(__global uchar *p, uchar2 v);
void OVL intel_sub_group_block_write_uc4(__global uchar *p, uchar4 v);
void OVL intel_sub_group_block_write_uc8(__global uchar *p, uchar8 v);
void OVL intel_sub_group_block_write_uc16(__global uchar *p, uchar16 v);
#endif

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_block_uc(__global const uchar *src, __global uchar *dst)
{
    uint sg = get_global_id(0) / 16;
    const __global uchar *s = src + sg * 496;
    __global uchar *d = dst + sg * 496;
    uchar a = intel_sub_group_block_read_uc(s);
    uchar2 b = intel_sub_group_block_read_uc2(s + 16);
    uchar4 c = intel_sub_group_block_read_uc4(s + 48);
    uchar8 e = intel_sub_group_block_read_uc8(s + 112);
    uchar16 f = intel_sub_group_block_read_uc16(s + 240);
    intel_sub_group_block_write_uc(d, (uchar)(a + 1));
    intel_sub_group_block_write_uc2(d + 16, b.yx);
    intel_sub_group_block_write_uc4(d + 48, c ^ (uchar4)(a));
    intel_sub_group_block_write_uc8(d + 112, e + (uchar8)(b.x));
    intel_sub_group_block_write_uc16(d + 240, f.sfedcba9876543210);
}
