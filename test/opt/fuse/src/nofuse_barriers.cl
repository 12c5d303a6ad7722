// Side-by-side 16-bit loads (E2 W16 H8) that must not fuse: one pair with different pitches
// (not one surface), one pair with a store to global memory between them (the second load may
// read what the store wrote; here it does), and one pair of prefetches with a work-group
// barrier between them. NDRange 16, local 16.
#include "fuse_decls.h"
SG16 __kernel void nofuse_barriers(__global ushort *src, __global uint *out)
{
    int lane = get_sub_group_local_id();
    ushort p0[8], p1[8], s0[8], s1[8];
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, src, 128, 32, 256, (int2)(0, 0), p0);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, src, 128, 32, 512, (int2)(16, 0), p1);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, src, 128, 32, 256, (int2)(0, 8), s0);
    src[8 * 128 + 16 + lane] = (ushort)(0x1000 + lane);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, src, 128, 32, 256, (int2)(16, 8), s1);
    __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 8, 1, src, 128, 32, 256, (int2)(0, 16));
    barrier(CLK_GLOBAL_MEM_FENCE);
    __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 8, 1, src, 128, 32, 256, (int2)(16, 16));
    __global uint *o = out + lane * 16;
    for (int i = 0; i < 8; ++i) {
        o[i] = p0[i] | (uint)p1[i] << 16;
        o[8 + i] = s0[i] | (uint)s1[i] << 16;
    }
}
