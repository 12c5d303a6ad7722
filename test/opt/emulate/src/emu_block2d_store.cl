// Every 2D block store row of pvc's table (E1 W16/W32, E2 W16, E4 W16 at heights 1, 2, 4, 8),
// each storing what the invocation computes from its id, at a position that puts part of the
// block past the right or bottom edge of the surface (those elements must not be written), and
// one load followed by a store of the same block elsewhere. On dg2 (no 2D block IO)
// --emulate-xmx writes each as plain stores. Surface: 96 bytes wide, 24 rows, pitch 128.
// NDRange 16, local 16.
#include "emulate_decls.h"
#define STORE(E, W, H, T, X, Y)                                                         \
    {                                                                                   \
        T v[H];                                                                         \
        for (int i = 0; i < H; ++i) v[i] = (T)(seed * (i + 3) + lane * 0x01030507u);    \
        __spirv_Subgroup2DBlockStoreINTEL(E, W, H, 1, v, dst, 96, 24, 128, (int2)(X, Y)); \
    }
SG16 __kernel void emu_block2d_store(__global uchar *dst, __global const ushort *src, uint seed)
{
    uint lane = get_sub_group_local_id();
    STORE(1, 16, 1, uchar, 0, 0)
    STORE(1, 16, 8, uchar, 88, 1)
    STORE(1, 32, 2, ushort, 16, 0)
    STORE(1, 32, 4, ushort, 80, 21)
    STORE(2, 16, 1, ushort, 0, 10)
    STORE(2, 16, 4, ushort, 40, 12)
    STORE(4, 16, 2, uint, 0, 16)
    STORE(4, 16, 8, uint, 16, 18)
    ushort r[8];
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, src, 64, 16, 64, (int2)(8, 4), r);
    __spirv_Subgroup2DBlockStoreINTEL(2, 16, 8, 1, r, dst, 96, 24, 128, (int2)(32, 4));
}
