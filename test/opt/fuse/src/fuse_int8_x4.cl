// Four load-transforms of 8-bit data (E1 W16 H32) side by side: one Block Count 4 load on pvc.
// Then two plain 8-bit loads (E1 W32 H8) side by side: Block Count 2. Every invocation writes
// what it received to `out`. Surface: 256 x 64 bytes, pitch 256. NDRange 16 x 2, local 16.
#include "fuse_decls.h"
SG16 __kernel void fuse_int8_x4(__global const uchar *src, __global uint *out)
{
    int lane = get_sub_group_local_id();
    int x = get_group_id(0) * 64;
    int y = get_group_id(1) * 32;
    uint b0[8], b1[8], b2[8], b3[8];
    ushort c0[8], c1[8];
    __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 1, src, 256, 64, 256, (int2)(x, y), b0);
    __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 1, src, 256, 64, 256, (int2)(x + 16, y), b1);
    __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 1, src, 256, 64, 256, (int2)(x + 32, y), b2);
    __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 1, src, 256, 64, 256, (int2)(x + 48, y), b3);
    __spirv_Subgroup2DBlockLoadINTEL(1, 32, 8, 1, src, 256, 64, 256, (int2)(x, y + 8), c0);
    __spirv_Subgroup2DBlockLoadINTEL(1, 32, 8, 1, src, 256, 64, 256, (int2)(x + 32, y + 8), c1);
    __global uint *o = out + (get_group_id(1) * get_num_groups(0) + get_group_id(0)) * 16 * 40 + lane * 40;
    for (int i = 0; i < 8; ++i) {
        o[i] = b0[i];
        o[8 + i] = b1[i];
        o[16 + i] = b2[i];
        o[24 + i] = b3[i];
        o[32 + i] = c0[i] | (uint)c1[i] << 16;
    }
}
