// corpus: producers=llc22,spirv15 std=CL2.0 class=misc
// Generic-pointer casts with to_global, to_local and to_private (OpGenericCastToPtrExplicit
// in SPIR-V). llc-22 leaves __to_global/__to_local/__to_private as unresolved imported
// functions, so the llc22 modules are not runnable as is; the spirv15 ones are.

__kernel void addrspace_cast_builtins(__global const int *in, __global int *out,
                                      __local int *scratch)
{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    int priv = gid * 3;
    scratch[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int *gen;
    switch (lid % 3) {
    case 0: gen = (const int *)scratch + lid; break;
    case 1: gen = (const int *)(in + gid); break;
    default: gen = &priv; break;
    }
    int kind = 0;
    if (to_local(gen) != NULL)
        kind = 1;
    else if (to_global(gen) != NULL)
        kind = 2;
    else if (to_private(gen) != NULL)
        kind = 3;
    out[gid] = kind * 1000 + *gen;
}
