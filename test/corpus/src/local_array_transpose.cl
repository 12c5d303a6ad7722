// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Matrix transpose through a padded 16x17 __local array declared inside the
// kernel (2D NDRange, local size 16x16), with barrier(CLK_LOCAL_MEM_FENCE).

#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void local_array_transpose(__global const float *in, __global float *out,
                           int width, int height)
{
    __local float tile[TILE][TILE + 1];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_group_id(0) * TILE + lx;
    int gy = get_group_id(1) * TILE + ly;
    if (gx < width && gy < height)
        tile[ly][lx] = in[gy * width + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    int tx = get_group_id(1) * TILE + lx;
    int ty = get_group_id(0) * TILE + ly;
    if (tx < height && ty < width)
        out[ty * height + tx] = tile[lx][ly];
}
