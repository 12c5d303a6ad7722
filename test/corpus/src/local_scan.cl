// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Work-efficient (Blelloch) exclusive prefix sum of uint in a fixed 256-entry
// __local array: up-sweep, clear, down-sweep, each step separated by barriers.
// Local size must be 128 (two elements per work-item).

#define N 256

__kernel __attribute__((reqd_work_group_size(N / 2, 1, 1)))
void local_scan(__global const uint *in, __global uint *out, __global uint *totals)
{
    __local uint buf[N];
    uint lid = get_local_id(0);
    uint base = get_group_id(0) * N;
    buf[2 * lid] = in[base + 2 * lid];
    buf[2 * lid + 1] = in[base + 2 * lid + 1];

    uint offset = 1;
    for (uint d = N >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            uint ai = offset * (2 * lid + 1) - 1;
            uint bi = offset * (2 * lid + 2) - 1;
            buf[bi] += buf[ai];
        }
        offset <<= 1;
    }
    if (lid == 0) {
        totals[get_group_id(0)] = buf[N - 1];
        buf[N - 1] = 0;
    }
    for (uint d = 1; d < N; d <<= 1) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            uint ai = offset * (2 * lid + 1) - 1;
            uint bi = offset * (2 * lid + 2) - 1;
            uint t = buf[ai];
            buf[ai] = buf[bi];
            buf[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + 2 * lid] = buf[2 * lid];
    out[base + 2 * lid + 1] = buf[2 * lid + 1];
}
