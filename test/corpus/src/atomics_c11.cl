// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// OpenCL 2.0 C11-style atomics: atomic_int/atomic_uint objects, atomic_fetch_add,
// fetch_or, fetch_min/max with explicit memory order and scope, atomic_load/store
// and atomic_compare_exchange_strong in a loop. Final values are order independent.

__kernel void atomics_c11(__global const int *in, __global atomic_int *acc,
                          __global atomic_uint *flags, __global int *out)
{
    int i = get_global_id(0);
    int v = in[i];
    atomic_fetch_add_explicit(&acc[0], v, memory_order_relaxed, memory_scope_device);
    atomic_fetch_min_explicit(&acc[1], v, memory_order_relaxed, memory_scope_device);
    atomic_fetch_max(&acc[2], v);
    atomic_fetch_or_explicit(&flags[0], 1u << (v & 31), memory_order_relaxed);
    atomic_fetch_and(&flags[1], ~(1u << (i & 31)));

    int expected = atomic_load_explicit(&acc[3], memory_order_relaxed);
    while (!atomic_compare_exchange_strong(&acc[3], &expected, expected | (1 << (i & 15))))
        ;
    out[i] = v * 2;
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
}

__kernel void atomics_c11_init(__global atomic_int *acc, __global atomic_uint *flags)
{
    if (get_global_id(0) == 0) {
        atomic_store(&acc[0], 0);
        atomic_store(&acc[1], INT_MAX);
        atomic_store(&acc[2], INT_MIN);
        atomic_store(&acc[3], 0);
        atomic_store(&flags[0], 0u);
        atomic_store(&flags[1], 0xFFFFFFFFu);
    }
}
