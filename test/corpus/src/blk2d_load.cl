// corpus: producers=llc22,spirv15 std=CL2.0 class=blk2d skip=spirv15.O2
// OpSubgroup2DBlockLoadINTEL shapes at sub-group size 16: element size 2 width 16
// with heights 1, 2, 4, 8, 16, 32 and block count 1/2; element size 1 width 32
// and width 16 x 4 blocks; element size 4 width 8 (heights 8, 16) and width 16. Surface geometry comes
// from kernel arguments, the coordinate from the work-group id.
// Not built: spirv15.O2 (llvm-spirv-15 cannot translate the llvm.vector.reduce.add intrinsic -O2 makes of the sums.)

#define OVL __attribute__((overloadable))
void OVL __spirv_Subgroup2DBlockLoadINTEL(int elem_size, int block_w, int block_h, int count,
                                          const __global void *base, int width_bytes,
                                          int height, int pitch_bytes, int2 coord,
                                          __private void *dst);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void blk2d_load_e2(__global const ushort *img, int wbytes, int h, int pitch,
                            __global ushort *out)
{
    int2 xy = (int2)(get_group_id(0) * 32, get_group_id(1) * 32);
    ushort r1, r2[2], r4[4], r8[8], r16[16], r32[32], c2[16], c32x2[64];
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 1, 1, img, wbytes, h, pitch, xy, &r1);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 2, 1, img, wbytes, h, pitch, xy, r2);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 4, 1, img, wbytes, h, pitch, xy, r4);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 1, img, wbytes, h, pitch, xy, r8);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 16, 1, img, wbytes, h, pitch, xy, r16);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 32, 1, img, wbytes, h, pitch, xy, r32);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 8, 2, img, wbytes, h, pitch, xy, c2);
    __spirv_Subgroup2DBlockLoadINTEL(2, 16, 32, 2, img, wbytes, h, pitch, xy, c32x2);
    uint acc = r1 + r2[1] + r4[3] + r8[7];
    for (int k = 0; k < 16; ++k)
        acc += r16[k] ^ c2[k];
    for (int k = 0; k < 32; ++k)
        acc += r32[k] + c32x2[k] - c32x2[k + 32];
    out[get_global_linear_id()] = (ushort)acc;
}

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void blk2d_load_e1_e4(__global const uchar *bytes, __global const uint *words,
                               __global uint *out)
{
    int2 xy = (int2)(0, get_group_id(0) * 8);
    uchar b32x8[16], b32x32[64], b16x8x4[32];
    uint w8x8[4], w16x8[8], w8x16[8];
    __spirv_Subgroup2DBlockLoadINTEL(1, 32, 8, 1, bytes, 512, 256, 512, xy, b32x8);
    __spirv_Subgroup2DBlockLoadINTEL(1, 32, 32, 1, bytes, 512, 256, 512, xy, b32x32);
    __spirv_Subgroup2DBlockLoadINTEL(1, 16, 8, 4, bytes, 512, 256, 512, xy, b16x8x4);
    __spirv_Subgroup2DBlockLoadINTEL(4, 8, 8, 1, words, 512, 256, 512, xy, w8x8);
    __spirv_Subgroup2DBlockLoadINTEL(4, 16, 8, 1, words, 512, 256, 512, xy, w16x8);
    __spirv_Subgroup2DBlockLoadINTEL(4, 8, 16, 1, words, 512, 256, 512, xy, w8x16);
    uint acc = 0;
    for (int k = 0; k < 16; ++k)
        acc = acc * 31u + b32x8[k] + w8x16[k & 7];
    for (int k = 0; k < 64; ++k)
        acc += (uint)b32x32[k] << (k & 7);
    for (int k = 0; k < 32; ++k)
        acc ^= b16x8x4[k];
    for (int k = 0; k < 8; ++k)
        acc += w16x8[k] * w8x8[k & 3];
    out[get_global_id(0)] = acc;
}
