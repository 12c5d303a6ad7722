// corpus: producers=llc22,spirv15 std=CL2.0 class=blk2d skip=spirv15.O2
// OpSubgroup2DBlockLoadTransformINTEL (VNNI packing for the B operand):
// element size 1, width 16, height 32, block counts 1, 2 and 4; element size 2,
// width 16, heights 16 and 32, block counts 1 and 2. Results are uint per lane.
// Not built: spirv15.O2 (llvm-spirv-15 cannot translate the llvm.vector.reduce.add intrinsic -O2 makes of the sums.)

#define OVL __attribute__((overloadable))
void OVL __spirv_Subgroup2DBlockLoadTransformINTEL(int elem_size, int block_w, int block_h,
                                                   int count, const __global void *base,
                                                   int width_bytes, int height,
                                                   int pitch_bytes, int2 coord,
                                                   __private void *dst);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void blk2d_load_transform(__global const uchar *b8, __global const ushort *b16,
                                   int rows, __global uint *out)
{
    int2 xy = (int2)(get_group_id(0) * 64, 0);
    uint t8x1[8], t8x2[16], t8x4[32];
    uint t16h16[8], t16h32[16], t16h16x2[16], t16h32x2[32];
    __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 1, b8, 256, rows, 256, xy, t8x1);
    __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 2, b8, 256, rows, 256, xy, t8x2);
    __spirv_Subgroup2DBlockLoadTransformINTEL(1, 16, 32, 4, b8, 256, rows, 256, xy, t8x4);
    __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 1, b16, 512, rows, 512, xy, t16h16);
    __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 32, 1, b16, 512, rows, 512, xy, t16h32);
    __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 16, 2, b16, 512, rows, 512, xy, t16h16x2);
    __spirv_Subgroup2DBlockLoadTransformINTEL(2, 16, 32, 2, b16, 512, rows, 512, xy, t16h32x2);
    uint acc = 0;
    for (int k = 0; k < 8; ++k)
        acc += t8x1[k] ^ t16h16[k];
    for (int k = 0; k < 16; ++k)
        acc += t8x2[k] + t16h32[k] + t16h16x2[k];
    for (int k = 0; k < 32; ++k)
        acc = rotate(acc, 3u) ^ t8x4[k] ^ t16h32x2[k];
    out[get_global_id(0)] = acc;
}
