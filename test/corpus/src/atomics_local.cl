// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Atomics on __local memory (atomic_add, atomic_min, atomic_max, atomic_cmpxchg,
// atomic_xchg) inside a work-group, followed by a barrier and one global flush.

__kernel void atomics_local(__global const int *in, __global int *out)
{
    __local int sum, lo, hi, firstodd;
    int lid = get_local_id(0);
    int v = in[get_global_id(0)];
    if (lid == 0) {
        sum = 0;
        lo = INT_MAX;
        hi = INT_MIN;
        firstodd = -1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&sum, v);
    atomic_min(&lo, v);
    atomic_max(&hi, v);
    if (v & 1)
        atomic_cmpxchg(&firstodd, -1, 1); /* becomes 1 if any odd value exists */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int g = get_group_id(0);
        out[4 * g + 0] = sum;
        out[4 * g + 1] = lo;
        out[4 * g + 2] = hi;
        out[4 * g + 3] = atomic_xchg(&firstodd, 0);
    }
}
