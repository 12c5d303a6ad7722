// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Global and local atomics restricted to the built-ins llc-22 lowers (atomic_add,
// atomic_sub, atomic_or/and/xor, atomic_cmpxchg, atomic_fetch_add, atomic_load/store);
// min/max are emulated with compare-and-swap loops. Results are order independent.

static void cas_min_local(volatile __local int *p, int v)
{
    int old = *p;
    while (v < old) {
        int seen = atomic_cmpxchg(p, old, v);
        if (seen == old)
            break;
        old = seen;
    }
}

static void cas_max_global(volatile __global int *p, int v)
{
    int old = *p;
    while (v > old) {
        int seen = atomic_cmpxchg(p, old, v);
        if (seen == old)
            break;
        old = seen;
    }
}

__kernel void atomics_llc_subset(__global const int *in, __global int *g,
                                 __global atomic_int *c11, __global int *groups)
{
    __local int lsum, lmin, lbits;
    int lid = get_local_id(0);
    int v = in[get_global_id(0)];
    if (lid == 0) {
        lsum = 0;
        lmin = INT_MAX;
        lbits = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&lsum, v);
    cas_min_local(&lmin, v);
    atomic_or(&lbits, 1 << (v & 31));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int grp = get_group_id(0);
        groups[3 * grp] = lsum;
        groups[3 * grp + 1] = lmin;
        groups[3 * grp + 2] = lbits;
    }
    atomic_add(&g[0], v);
    atomic_sub(&g[1], v & 0xFF);
    atomic_xor(&g[2], v);
    atomic_and(&g[3], ~(1 << (v & 31)));
    cas_max_global(&g[4], v);
    atomic_fetch_add_explicit(&c11[0], 1, memory_order_relaxed, memory_scope_device);
    if (atomic_load_explicit(&c11[1], memory_order_relaxed) == 0 && v == 0)
        atomic_store_explicit(&c11[1], 1, memory_order_relaxed);
}
