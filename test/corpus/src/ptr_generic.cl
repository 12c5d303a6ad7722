// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// OpenCL 2.0 generic address space: one helper taking an unqualified pointer is
// called with __global, __local and __private pointers, and a generic pointer is
// selected at run time between a __local and a __global object.

static int weighted(const int *p, int n)
{
    int acc = 0;
    for (int k = 0; k < n; ++k)
        acc += (k + 1) * p[k];
    return acc;
}

__kernel void ptr_generic(__global const int *in, __global int *out, __local int *scratch)
{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    scratch[lid] = in[gid] * 2;
    barrier(CLK_LOCAL_MEM_FENCE);

    int priv[4] = { gid, gid + 1, gid + 2, gid + 3 };
    int a = weighted(in + gid, 1);
    int b = weighted(scratch, lid + 1);
    int c = weighted(priv, 4);

    const int *gen = (lid & 1) ? (const int *)scratch : (const int *)(in + gid);
    int d = weighted(gen, 1);
    out[gid] = a + b + c + d;
}
