// corpus: producers=llc22,spirv15 std=CL2.0 class=intel
// cl_intel_subgroups 32-bit block I/O on __global memory:
// intel_sub_group_block_read/_read2/_read4/_read8 and the matching
// intel_sub_group_block_write variants, at sub-group size 16.

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_block_rw32(__global const uint *src, __global uint *dst)
{
    uint sg = get_global_id(0) / 16;
    const __global uint *s = src + sg * 240;
    __global uint *d = dst + sg * 240;
    uint a = intel_sub_group_block_read(s);
    uint2 b = intel_sub_group_block_read2(s + 16);
    uint4 c = intel_sub_group_block_read4(s + 48);
    uint8 e = intel_sub_group_block_read8(s + 112);
    intel_sub_group_block_write(d, a + 1u);
    intel_sub_group_block_write2(d + 16, b.yx);
    intel_sub_group_block_write4(d + 48, c ^ (uint4)(a));
    intel_sub_group_block_write8(d + 112, e + (uint8)(b.x));
}
