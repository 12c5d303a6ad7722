// corpus: producers=llc22,spirv15 std=CL2.0 class=blk2d
// OpSubgroup2DBlockPrefetchINTEL with several shapes (element sizes 1, 2, 4;
// heights 8 to 32; counts 1 and 2) ahead of a loop of ordinary loads, plus a
// prefetch inside the loop for the next tile.

#define OVL __attribute__((overloadable))
void OVL __spirv_Subgroup2DBlockPrefetchINTEL(int elem_size, int block_w, int block_h,
                                              int count, const __global void *base,
                                              int width_bytes, int height,
                                              int pitch_bytes, int2 coord);

__attribute__((intel_reqd_sub_group_size(16)))
__kernel void blk2d_prefetch(__global const ushort *a, __global const uchar *b,
                             __global const float *c, int tiles, __global float *out)
{
    int row = get_group_id(0) * 8;
    __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 8, 2, a, 1024, 4096, 1024, (int2)(0, row));
    __spirv_Subgroup2DBlockPrefetchINTEL(1, 32, 32, 1, b, 1024, 4096, 1024, (int2)(0, 0));
    __spirv_Subgroup2DBlockPrefetchINTEL(4, 16, 8, 1, c, 1024, 4096, 1024, (int2)(0, row));
    float acc = 0.0f;
    uint lid = get_sub_group_local_id();
    for (int t = 0; t < tiles; ++t) {
        __spirv_Subgroup2DBlockPrefetchINTEL(2, 16, 32, 1, a, 1024, 4096, 1024,
                                             (int2)((t + 1) * 16, row));
        acc += (float)a[row * 512 + t * 16 + lid] * c[row * 256 + lid];
    }
    out[get_global_id(0)] = acc;
}
