// corpus: producers=llc22,spirv15 std=CL2.0 class=intel
// cl_intel_subgroups shuffles at sub-group size 8 on 64-bit and 16-bit types
// (long, ulong, double, short, half) and on uint2 vectors, with a data-dependent
// shuffle index.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__attribute__((intel_reqd_sub_group_size(8)))
__kernel void intel_shuffle_sg8(__global const long *l, __global const double *d,
                                __global const short *s, __global const half *h,
                                __global const uint2 *u, __global long *ol,
                                __global double *od, __global short *os,
                                __global half *oh, __global uint2 *ou)
{
    size_t gid = get_global_id(0);
    uint lid = get_sub_group_local_id();
    long a = l[gid];
    ol[gid] = intel_sub_group_shuffle(a, (uint)(a & 7)) +
              (long)intel_sub_group_shuffle_xor((ulong)a, 4u);
    double x = d[gid];
    od[gid] = intel_sub_group_shuffle_down(x, x, 1u) - intel_sub_group_shuffle_up(x, x, 1u);
    os[gid] = intel_sub_group_shuffle(s[gid], 7u - lid);
    oh[gid] = intel_sub_group_shuffle_xor(h[gid], 2u);
    ou[gid] = intel_sub_group_shuffle(u[gid], (lid * 3u) & 7u);
}
