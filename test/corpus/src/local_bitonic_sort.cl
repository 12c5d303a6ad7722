// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Bitonic sort of 128 int keys per work-group in __local memory (local size 64,
// each work-item owns one compare-exchange per stage); nested loops + barriers.

#define N 128

__kernel __attribute__((reqd_work_group_size(N / 2, 1, 1)))
void local_bitonic_sort(__global int *keys)
{
    __local int s[N];
    uint lid = get_local_id(0);
    __global int *blk = keys + get_group_id(0) * N;
    s[lid] = blk[lid];
    s[lid + N / 2] = blk[lid + N / 2];
    for (uint size = 2; size <= N; size <<= 1) {
        for (uint stride = size >> 1; stride > 0; stride >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            uint pos = 2 * lid - (lid & (stride - 1));
            bool up = ((pos & size) == 0);
            int a = s[pos], b = s[pos + stride];
            if ((a > b) == up) {
                s[pos] = b;
                s[pos + stride] = a;
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    blk[lid] = s[lid];
    blk[lid + N / 2] = s[lid + N / 2];
}
