// corpus: producers=llc22,spirv15 std=CL2.0 class=blk2d skip=spirv15.O2
// OpSubgroup2DBlockLoadTransposeINTEL: element size 4, width 8, heights 16 and 32
// (count 1), used to load a column-major 32-bit tile as rows; the transposed tile
// is written back with ordinary stores.
// Not built: spirv15.O2 (llvm-spirv-15 -O2 puts an OpBitcast between the OpVariables of the entry block (invalid SPIR-V).)

#define OVL __attribute__((overloadable))
void OVL __spirv_Subgroup2DBlockLoadTransposeINTEL(int elem_size, int block_w, int block_h,
                                                   int count, const __global void *base,
                                                   int width_bytes, int height,
                                                   int pitch_bytes, int2 coord,
                                                   __private void *dst);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void blk2d_load_transpose(__global const float *src, int width_bytes, int height,
                                   __global float *out16, __global float *out32)
{
    int2 xy = (int2)(get_group_id(0) * 8, get_group_id(1) * 32);
    float t16[8], t32[16];
    __spirv_Subgroup2DBlockLoadTransposeINTEL(4, 8, 16, 1, src, width_bytes, height,
                                              width_bytes, xy, t16);
    __spirv_Subgroup2DBlockLoadTransposeINTEL(4, 8, 32, 1, src, width_bytes, height,
                                              width_bytes, xy, t32);
    size_t gid = get_global_id(0) + get_global_size(0) * get_global_id(1);
    for (int k = 0; k < 8; ++k)
        out16[gid * 8 + k] = t16[k];
    for (int k = 0; k < 16; ++k)
        out32[gid * 16 + k] = t32[k];
}
