// corpus: producers=llc22,spirv15 std=CL2.0 class=blk2d
// OpSubgroup2DBlockStoreINTEL (private source before the global base): element
// size 1 width 16 (heights 1, 2, 8) and width 32 (heights 4, 8); element size 2
// width 16 (heights 1, 4, 8); element size 4 width 16 (heights 1, 2, 4, 8).

#define OVL __attribute__((overloadable))
void OVL __spirv_Subgroup2DBlockStoreINTEL(int elem_size, int block_w, int block_h, int count,
                                           __private const void *src, __global void *base,
                                           int width_bytes, int height, int pitch_bytes,
                                           int2 coord);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void blk2d_store(__global uchar *o8, __global ushort *o16, __global uint *o32,
                          int pitch)
{
    uint lid = get_sub_group_local_id();
    int2 xy = (int2)(0, get_group_id(0) * 8);
    uchar b[16];
    ushort s[8];
    uint w[8];
    for (int k = 0; k < 16; ++k)
        b[k] = (uchar)(lid * 16 + k);
    for (int k = 0; k < 8; ++k) {
        s[k] = (ushort)(lid * 1000 + k);
        w[k] = lid << 16 | (uint)k;
    }
    __spirv_Subgroup2DBlockStoreINTEL(1, 16, 1, 1, b, o8, pitch, 1024, pitch, xy);
    __spirv_Subgroup2DBlockStoreINTEL(1, 16, 2, 1, b, o8, pitch, 1024, pitch, xy + (int2)(16, 0));
    __spirv_Subgroup2DBlockStoreINTEL(1, 16, 8, 1, b, o8, pitch, 1024, pitch, xy + (int2)(32, 0));
    __spirv_Subgroup2DBlockStoreINTEL(1, 32, 4, 1, b, o8, pitch, 1024, pitch, xy + (int2)(64, 0));
    __spirv_Subgroup2DBlockStoreINTEL(1, 32, 8, 1, b, o8, pitch, 1024, pitch, xy + (int2)(96, 0));
    __spirv_Subgroup2DBlockStoreINTEL(2, 16, 1, 1, s, o16, pitch, 1024, pitch, xy);
    __spirv_Subgroup2DBlockStoreINTEL(2, 16, 4, 1, s, o16, pitch, 1024, pitch, xy + (int2)(16, 0));
    __spirv_Subgroup2DBlockStoreINTEL(2, 16, 8, 1, s, o16, pitch, 1024, pitch, xy + (int2)(32, 0));
    __spirv_Subgroup2DBlockStoreINTEL(4, 16, 1, 1, w, o32, pitch, 1024, pitch, xy);
    __spirv_Subgroup2DBlockStoreINTEL(4, 16, 2, 1, w, o32, pitch, 1024, pitch, xy + (int2)(16, 0));
    __spirv_Subgroup2DBlockStoreINTEL(4, 16, 4, 1, w, o32, pitch, 1024, pitch, xy + (int2)(32, 0));
    __spirv_Subgroup2DBlockStoreINTEL(4, 16, 8, 1, w, o32, pitch, 1024, pitch, xy + (int2)(48, 0));
}
