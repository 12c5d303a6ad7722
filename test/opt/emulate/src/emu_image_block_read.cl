// 8- and 16-bit image block reads (cl_intel_subgroups_char / _short) for --emulate-xmx on a
// device without those typings: every vector size, at byte columns that are negative, not a
// multiple of 4 or past the end of the row, and rows above and below the image (reads clamp to
// the edge in 4-byte units, C.3). Each subgroup reads at its own coordinate.
#if !defined(cl_intel_subgroups_char)
#define OVL __attribute__((overloadable))
uchar OVL intel_sub_group_block_read_uc(read_only image2d_t image, int2 coord);
uchar2 OVL intel_sub_group_block_read_uc2(read_only image2d_t image, int2 coord);
uchar4 OVL intel_sub_group_block_read_uc4(read_only image2d_t image, int2 coord);
uchar8 OVL intel_sub_group_block_read_uc8(read_only image2d_t image, int2 coord);
uchar16 OVL intel_sub_group_block_read_uc16(read_only image2d_t image, int2 coord);
#endif

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void emu_image_block_read(read_only image2d_t src, __global uint *out, int x0, int y0)
{
    const int g = (int)get_group_id(0);
    const int2 coord = (int2)(x0 + 13 * g, y0 + 3 * g);
    uchar a = intel_sub_group_block_read_uc(src, coord);
    uchar2 b = intel_sub_group_block_read_uc2(src, coord);
    uchar4 c = intel_sub_group_block_read_uc4(src, coord);
    uchar8 d = intel_sub_group_block_read_uc8(src, coord);
    uchar16 e = intel_sub_group_block_read_uc16(src, coord);
    ushort f = intel_sub_group_block_read_us(src, coord);
    ushort2 h = intel_sub_group_block_read_us2(src, coord);
    ushort4 i = intel_sub_group_block_read_us4(src, coord);
    ushort8 j = intel_sub_group_block_read_us8(src, coord);
    __global uint *o = out + get_global_id(0) * 16;
    o[0] = a | ((uint)b.s0 << 8) | ((uint)b.s1 << 16) | ((uint)c.s3 << 24);
    o[1] = c.s0 | ((uint)c.s1 << 8) | ((uint)c.s2 << 16) | ((uint)d.s7 << 24);
    o[2] = as_uint(d.lo);
    o[3] = as_uint(d.hi.s0123) ^ 0x5a5a5a5a;
    o[4] = as_uint(e.s0123);
    o[5] = as_uint(e.s4567);
    o[6] = as_uint(e.s89ab);
    o[7] = as_uint(e.scdef);
    o[8] = f | ((uint)h.s0 << 16);
    o[9] = h.s1 | ((uint)i.s3 << 16);
    o[10] = i.s0 | ((uint)i.s1 << 16);
    o[11] = i.s2 | ((uint)j.s7 << 16);
    o[12] = j.s0 | ((uint)j.s1 << 16);
    o[13] = j.s2 | ((uint)j.s3 << 16);
    o[14] = j.s4 | ((uint)j.s5 << 16);
    o[15] = j.s6;
}
