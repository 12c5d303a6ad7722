// Four 16-bit loads (E2 W16 H8) side by side: pvc's table has Block Count 2 but not 4 for them,
// so they become two loads of Block Count 2. Two 32-bit loads (E4 W8 H8, Block Count 2 in the
// table) fuse; two 32-bit loads 16 wide (E4 W16 H8: Block Count 1 only) and two transposed
// loads (E4 W8 H16: Block Count 1 only) stay as they are. The last pair of 16-bit loads starts
// past the surface's right edge: out-of-bounds elements read zero either way.
// Surface: 128 x 32 bytes... see the run description. NDRange 16, local 16.
#include "fuse_decls.h"
SG16 __kernel void fuse_e2_x4(__global const ushort *src, __global uint *out, int width)
{
    int lane = get_sub_group_local_id();
    ushort a[4][8];
    uint d0[4], d1[4], e0[8], e1[8], t0[8], t1[8];
    ushort z0[8], z1[8];
    for (int i = 0; i < 4; ++i)
        __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, src, width, 32, 256, (int2)(16 * i, 4), a[i]);
    __spirv_Subgroup2DBlockLoadINTEL(4, 8, 8, 1, src, width, 32, 256, (int2)(0, 16), d0);
    __spirv_Subgroup2DBlockLoadINTEL(4, 8, 8, 1, src, width, 32, 256, (int2)(8, 16), d1);
    __spirv_Subgroup2DBlockLoadINTEL(4, 16, 8, 1, src, width, 32, 256, (int2)(0, 8), e0);
    __spirv_Subgroup2DBlockLoadINTEL(4, 16, 8, 1, src, width, 32, 256, (int2)(16, 8), e1);
    __spirv_Subgroup2DBlockLoadTransposeINTEL(4, 8, 16, 1, src, width, 32, 256, (int2)(0, 0), t0);
    __spirv_Subgroup2DBlockLoadTransposeINTEL(4, 8, 16, 1, src, width, 32, 256, (int2)(8, 0), t1);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, src, width, 32, 256, (int2)(width / 2 - 8, 0), z0);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, src, width, 32, 256, (int2)(width / 2 + 8, 0), z1);
    __global uint *o = out + lane * 64;
    for (int i = 0; i < 8; ++i) {
        o[i] = a[0][i] | (uint)a[1][i] << 16;
        o[8 + i] = a[2][i] | (uint)a[3][i] << 16;
        o[16 + i] = e0[i];
        o[24 + i] = e1[i];
        o[32 + i] = t0[i];
        o[40 + i] = t1[i];
        o[48 + i] = z0[i] | (uint)z1[i] << 16;
    }
    for (int i = 0; i < 4; ++i) {
        o[56 + i] = d0[i];
        o[60 + i] = d1[i];
    }
}
