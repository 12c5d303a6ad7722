// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// 64-bit atomics from cl_khr_int64_base_atomics / _extended_atomics:
// atom_add, atom_min, atom_max, atom_or, atom_cmpxchg on __global long/ulong.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

__kernel void atomics_int64(__global const long *in, __global long *acc, __global ulong *bits)
{
    int i = get_global_id(0);
    long v = in[i];
    atom_add(&acc[0], v * 4294967296L);
    atom_min(&acc[1], v);
    atom_max(&acc[2], v);
    atom_or(&bits[0], 1UL << (i & 63));
    atom_xor(&bits[1], (ulong)v);
    long old = acc[3];
    long seen;
    while ((seen = atom_cmpxchg(&acc[3], old, old + 1)) != old)
        old = seen;
}
