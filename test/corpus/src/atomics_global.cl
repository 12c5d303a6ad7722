// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// OpenCL 1.x atomics on __global int/uint: atomic_add, atomic_sub, atomic_inc,
// atomic_min/max, atomic_and/or/xor and a cmpxchg retry loop.
// Results are order independent for non-negative inputs (the CAS loop is a
// saturating add).

__kernel void atomics_global(__global const int *in, __global int *counters,
                             __global uint *bits)
{
    int i = get_global_id(0);
    int v = in[i];
    atomic_add(&counters[0], v);
    atomic_sub(&counters[1], v & 15);
    atomic_inc(&counters[2]);
    atomic_min(&counters[3], v);
    atomic_max(&counters[4], v);
    atomic_or(&bits[0], 1u << (i & 31));
    atomic_and(&bits[1], ~(1u << (v & 31)));
    atomic_xor(&bits[2], (uint)v);
    atomic_max(&bits[3], (uint)v * 2654435761u);

    /* saturating add implemented with compare-and-swap */
    int old = counters[5];
    for (;;) {
        int want = (old > 1000000 - v) ? 1000000 : old + v;
        int seen = atomic_cmpxchg(&counters[5], old, want);
        if (seen == old)
            break;
        old = seen;
    }
}
