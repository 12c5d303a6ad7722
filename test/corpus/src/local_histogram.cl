// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// 64-bin byte histogram: per-group bins in a __local array updated with
// atomic_inc, then merged into the global histogram with atomic_add.

#define BINS 64

__kernel void local_histogram(__global const uchar *data, uint n, __global uint *hist)
{
    __local uint bins[BINS];
    uint lid = get_local_id(0);
    for (uint b = lid; b < BINS; b += get_local_size(0))
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = get_global_id(0); k < n; k += get_global_size(0))
        atomic_inc(&bins[data[k] >> 2]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < BINS; b += get_local_size(0))
        if (bins[b] != 0)
            atomic_add(&hist[b], bins[b]);
}
