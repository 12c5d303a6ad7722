// corpus: producers=llc22,spirv15 std=CL2.0 class=portable
// Vector conversions between integer and float types with explicit rounding modes
// (convert_int4_rtz/_rte/_rtp/_rtn, convert_float4, convert_uchar4, convert_long2).

__kernel void vec_conversions(__global const float4 *f, __global const int4 *n,
                              __global int4 *out_rtz, __global int4 *out_rte,
                              __global int4 *out_rtp, __global int4 *out_rtn,
                              __global float4 *out_f, __global uchar4 *out_u8,
                              __global long2 *out_l)
{
    size_t i = get_global_id(0);
    float4 v = f[i];
    out_rtz[i] = convert_int4_rtz(v);
    out_rte[i] = convert_int4_rte(v);
    out_rtp[i] = convert_int4_rtp(v);
    out_rtn[i] = convert_int4_rtn(v);
    int4 k = n[i];
    out_f[i] = convert_float4(k & 0xFFFF);
    out_u8[i] = convert_uchar4(k);
    out_l[i] = convert_long2(k.xz) * (long2)(1000000007L, -3L);
}
