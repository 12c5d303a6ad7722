// corpus: producers=llc22,spirv15 std=CL2.0 class=intel
// cl_intel_subgroups image block I/O (OpSubgroupImageBlockRead/WriteINTEL) at sub-group size 16:
// reads 32-, 16- and 8-bit blocks (1, 2, 4, 8 components) from a read-only image at a byte
// column x and row y given per sub-group, and writes 32-bit and 16-bit blocks to a write-only
// image. x is in bytes (SPEC-NOTES C.2); rows y .. y + n - 1 feed components 0 .. n - 1.
// clang-15's opencl-c.h lacks the 8-bit forms: declared here when the extension macro is missing.

#if !defined(cl_intel_subgroups_char)
#define OVL __attribute__((overloadable))
uchar OVL intel_sub_group_block_read_uc(read_only image2d_t image, int2 coord);
uchar16 OVL intel_sub_group_block_read_uc16(read_only image2d_t image, int2 coord);
#endif

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_image_block_read(read_only image2d_t src, __global uint *out, int x, int y)
{
    int2 coord = (int2)(x, y + (int)get_sub_group_id() * 2);
    uint a = intel_sub_group_block_read(src, coord);
    uint2 b = intel_sub_group_block_read2(src, coord);
    uint4 c = intel_sub_group_block_read4(src, coord);
    uint8 d = intel_sub_group_block_read8(src, coord);
    ushort e = intel_sub_group_block_read_us(src, coord);
    ushort8 f = intel_sub_group_block_read_us8(src, coord);
    uchar g = intel_sub_group_block_read_uc(src, coord);
    uchar16 h = intel_sub_group_block_read_uc16(src, coord);
    __global uint *o = out + get_global_id(0) * 16;
    o[0] = a;
    o[1] = b.x; o[2] = b.y;
    o[3] = c.x ^ c.w;
    o[4] = d.s0; o[5] = d.s7; o[6] = d.s3 + d.s4;
    o[7] = e; o[8] = f.s0 | ((uint)f.s7 << 16);
    o[9] = g; o[10] = (uint)h.s0 | ((uint)h.sf << 8) | ((uint)h.s8 << 16);
    o[11] = c.y + c.z;
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void intel_image_block_write(write_only image2d_t dst, __global const uint *in, int x,
                                      int y)
{
    int2 coord = (int2)(x, y);
    uint g = get_global_id(0);
    intel_sub_group_block_write(dst, coord, in[g]);
    intel_sub_group_block_write2(dst, coord + (int2)(0, 1), (uint2)(in[g] + 1, in[g] + 2));
    intel_sub_group_block_write_us4(dst, coord + (int2)(64, 0),
                                    (ushort4)(g, g + 100, g + 200, g + 300));
}
