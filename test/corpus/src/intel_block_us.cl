// corpus: producers=llc22,spirv15 std=CL2.0 class=intel
// cl_intel_subgroups_short 16-bit block I/O: intel_sub_group_block_read_us,
// _us2, _us4, _us8 and intel_sub_group_block_write_us* at sub-group size 16.

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_block_us(__global const ushort *src, __global ushort *dst)
{
    uint sg = get_global_id(0) / 16;
    const __global ushort *s = src + sg * 240;
    __global ushort *d = dst + sg * 240;
    ushort a = intel_sub_group_block_read_us(s);
    ushort2 b = intel_sub_group_block_read_us2(s + 16);
    ushort4 c = intel_sub_group_block_read_us4(s + 48);
    ushort8 e = intel_sub_group_block_read_us8(s + 112);
    intel_sub_group_block_write_us(d, (ushort)(a * 3u));
    intel_sub_group_block_write_us2(d + 16, b + (ushort2)(a));
    intel_sub_group_block_write_us4(d + 48, c.wzyx);
    intel_sub_group_block_write_us8(d + 112, e >> (ushort8)(1));
}
