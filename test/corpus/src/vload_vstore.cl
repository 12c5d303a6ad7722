// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// vloadN/vstoreN at unaligned element offsets (vload3, vload4, vload16, vstore8,
// vstore16), vload_half/vload_half4/vloada_half4 and vstore_half/vstore_half4_rtz/
// vstorea_half2 on half storage without enabling cl_khr_fp16.

#pragma OPENCL FP_CONTRACT OFF
__kernel void vload_vstore(__global const float *f, __global const half *h,
                           __global const int *ints,
                           __global float *of, __global int *oi,
                           __global half *oh1, __global half *oh4, __global half *oh2)
{
    size_t i = get_global_id(0);
    float4 a = vload4(0, f + i);          /* unaligned: starts at element i */
    float3 b = vload3(i, f);
    vstore8((float8)(a, b, a.w), i, of);

    float s = vload_half(i, h);
    float4 q = vload_half4(0, h + i + 1); /* unaligned half4 */
    float4 qa = vloada_half4(i, h);
    vstore_half(s + a.x, i, oh1);
    vstore_half4_rtz(q * 2.0f + qa, i, oh4);
    vstorea_half2(q.lo - q.hi, i, oh2);

    int16 w = vload16(0, ints + 3 * i);
    vstore16(w.sfedcba9876543210 + (int16)(1), i, oi);
}
