// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// 1D 5-point integer stencil with a __local tile plus a 2-element halo on each side,
// boundary clamping, and a 2-iteration ping-pong inside one work-group.

#define R 2

__kernel void stencil_halo(__global const int *in, __global int *out, int n,
                           __local int *tile)
{
    int lid = get_local_id(0);
    int ls = get_local_size(0);
    int gid = get_global_id(0);
    int base = get_group_id(0) * ls;
    for (int k = lid; k < ls + 2 * R; k += ls) {
        int g = clamp(base + k - R, 0, n - 1);
        tile[k] = in[g];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int c = lid + R;
    int v = tile[c - 2] + 4 * tile[c - 1] + 6 * tile[c] + 4 * tile[c + 1] + tile[c + 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[c] = v >> 4;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < R) {
        tile[lid] = tile[R];
        tile[ls + R + lid] = tile[ls + R - 1];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int w = tile[c - 1] - 2 * tile[c] + tile[c + 1];
    if (gid < n)
        out[gid] = w;
}
